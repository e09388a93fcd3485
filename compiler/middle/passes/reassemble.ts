// Reassembled integers: an `or` of shifted, extended, truncated pieces of one value that together give a
// contiguous run of its bits, e.g. the bytes of an i32 recombined after SROA split a bitfield unit into
// bytes: zext(trunc x) | zext(trunc(x >> 8)) << 8 | … is x, and zext(trunc(x >> 16)) | zext(trunc(x >> 24)) << 8
// (as i16) is trunc(x >> 16). LLVM's instcombine recognises the same patterns (load/bswap combining).

import type { Inst, Value } from '../ir';
import { maybeOnes } from './knownbits';

/** Bits [from, from + w) of x sit at bits [at, at + w) of the value. */
interface Piece { x: Value; from: number; at: number; w: number }

const bitsOf = (v: Value): number => (v.ty.k === 'int' ? v.ty.bits : 0);
const constShift = (v: Value): number | null => (v.kind === 'int' && v.value >= 0n && v.value < 128n ? Number(v.value) : null);

function pieceOf(v: Value): Piece | null {
  const n = bitsOf(v);
  if (n === 0) return null;
  if (v.kind === 'inst') {
    if (v.op === 'shl') {
      const c = constShift(v.ops[1]!);
      const p = c === null ? null : pieceOf(v.ops[0]!);
      return p && c !== null && p.at + c + p.w <= n ? { ...p, at: p.at + c } : null;
    }
    if (v.op === 'zext') return pieceOf(v.ops[0]!);
    if (v.op === 'trunc') {
      const u = v.ops[0]!;
      if (u.kind === 'inst' && u.op === 'lshr') {
        const s = constShift(u.ops[1]!);
        if (s !== null && s + n <= bitsOf(u)) return { x: u.ops[0]!, from: s, at: 0, w: n };
      }
      return { x: u, from: 0, at: 0, w: n };
    }
  }
  return { x: v, from: 0, at: 0, w: n };
}

function orLeaves(v: Value, ty: Value['ty'], out: Value[]): boolean {
  if (out.length > 64) return false;
  if (v.kind === 'inst' && v.op === 'or' && v.ty === ty) return orLeaves(v.ops[0]!, ty, out) && orLeaves(v.ops[1]!, ty, out);
  out.push(v);
  return true;
}

/**
 * If the `or` i is all of bits [shift, shift + N) of one value x (N = i's width), x and shift; else null.
 * (With shift 0 and x as wide as i, i is x itself.)
 */
export function reassembled(i: Inst): { x: Value; shift: number } | null {
  if (i.op !== 'or' || i.ty.k !== 'int' || i.ty.bits < 16) return null;
  const leaves: Value[] = [];
  if (!orLeaves(i, i.ty, leaves) || leaves.length < 2) return null;
  const ps: Piece[] = [];
  for (const l of leaves) { const p = pieceOf(l); if (!p) return null; ps.push(p); }
  const x = ps[0]!.x, d = ps[0]!.from - ps[0]!.at;
  if (d < 0 || ps.some(p => p.x !== x || p.from - p.at !== d)) return null;
  ps.sort((a, b) => a.at - b.at);
  const n = i.ty.bits;
  if (d + n > bitsOf(x)) return null;
  // a missing piece is fine where x's bits are known to be zero (the high bytes of a small value,
  // already dropped as zero by the simplifier)
  const may = maybeOnes(x);
  const zeroBits = (lo: number, hi: number): boolean => hi <= lo || ((may >> BigInt(lo + d)) & ((1n << BigInt(hi - lo)) - 1n)) === 0n;
  let next = 0;
  for (const p of ps) {
    if (p.at < next || !zeroBits(next, p.at)) return null;
    next = p.at + p.w;
  }
  return zeroBits(next, n) ? { x, shift: d } : null;
}
