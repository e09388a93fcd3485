// Memory facts: the object and constant offset an address points into, whether two addresses can
// overlap, which instructions and callees read or write memory or have other side effects.
import type { Inst, Value } from '../ir';
import { isTerminator } from '../ir';
import { constGepOffset } from './gep';
import { CASTS } from './values';

/** An alloca, through constant geps and address-space casts (never null). */
export function isAllocaAddress(p: Value): boolean {
  for (let k = 0; k < 16; k++) {
    if (p.kind !== 'inst') return false;
    if (p.op === 'alloca') return true;
    if (p.op === 'addrspacecast' || (p.op === 'gep' && constGepOffset(p) !== null && constGepOffset(p)! >= 0)) { p = p.ops[0]!; continue; }
    return false;
  }
  return false;
}
/** A pointer as (base, constant byte offset) through constant-index geps. */
export function baseAndOffset(p: Value): { base: Value; off: number } | null {
  let off = 0;
  let cur = p;
  while (cur.kind === 'inst' && cur.op === 'gep') {
    const d = constGepOffset(cur);
    if (d === null) return null;
    off += d;
    cur = cur.ops[0]!;
  }
  return { base: cur, off };
}

export function isPureCallee(v: Value): boolean {
  if (v.kind !== 'func') return false;
  if (!v.attrs.readnone || v.attrs.convergent || v.fnTy.ret.k === 'void') return false;
  // Reads of clocks/timers are marked readnone by some front ends but are not repeatable.
  return !/clock|globaltimer/.test(v.name);
}

export const PURE_OPS = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor',
  'fadd', 'fsub', 'fmul', 'fdiv', 'frem', 'fneg', 'icmp', 'fcmp', 'select', 'gep', 'extractvalue', 'insertvalue',
  'extractelement', 'insertelement', ...CASTS]);

export function mayWriteMemory(i: Inst): boolean {
  switch (i.op) {
    case 'store': case 'atomicrmw': case 'cmpxchg': case 'fence': return true;
    case 'load': return !!i.volatile;
    case 'call': {
      const c = i.ops[0]!;
      return !isPureCallee(c) && !(c.kind === 'func' && c.attrs.readonly && !c.attrs.convergent);
    }
    default: return false;
  }
}

/** The local or global object a base pointer is the address of (through address-space casts), or null. */
export function objectOf(p: Value): Value | null {
  let v = p;
  while ((v.kind === 'inst' && (v.op === 'addrspacecast' || v.op === 'bitcast')) || (v.kind === 'cexpr' && (v.op === 'addrspacecast' || v.op === 'bitcast'))) v = v.kind === 'inst' ? v.ops[0]! : v.base;
  return (v.kind === 'inst' && v.op === 'alloca') || v.kind === 'global' ? v : null;
}
/** Two bases that are the addresses of two different objects: nothing written through one is read through the other. */
export function distinctObjects(a: Value, b: Value): boolean {
  // two specific address spaces (global and local, shared and global) never overlap
  const sa = a.ty.k === 'ptr' ? (a.ty as { as: number }).as : 0, sb = b.ty.k === 'ptr' ? (b.ty as { as: number }).as : 0;
  if (sa !== 0 && sb !== 0 && sa !== sb) return true;
  const x = objectOf(a), y = objectOf(b);
  return x !== null && y !== null && x !== y;
}

/** Where a memory access of `size` bytes at p lies: a base pointer and a constant byte range from it. */
export function memLoc(p: Value, size: number): { base: Value; off: number; size: number } | null {
  if (size <= 0) return null;
  // constant geps are offsets; the first gep with a variable index (`&out[t * 6]`) is the base
  let off = 0, cur = p;
  while (cur.kind === 'inst' && cur.op === 'gep') {
    const d = constGepOffset(cur);
    if (d === null) break;
    off += d;
    cur = cur.ops[0]!;
  }
  return { base: cur, off, size };
}

/** Must the instruction stay even when its value is unused? */
export function hasSideEffects(i: Inst): boolean {
  if (isTerminator(i)) return true;
  switch (i.op) {
    case 'store': case 'atomicrmw': case 'cmpxchg': case 'fence': return true;
    case 'load': return !!i.volatile;
    case 'call': {
      const c = i.ops[0]!;
      if (c.kind === 'asm') return c.sideEffects || c.fnTy.ret.k === 'void';
      if (c.kind === 'func') return !(c.attrs.readnone && !c.attrs.convergent);
      return true;
    }
    default: return false;
  }
}
