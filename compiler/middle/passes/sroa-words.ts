// Integer words for SROA out of byte leaves. The front end lays a run of bitfields out as a byte array
// (`{ [4 x i8], i8, [7 x i8] }`) and reads and writes it as the integer that holds the fields (an i32 load,
// masked, shifted, stored back). Split byte by byte, every access takes the word apart and puts it together
// again (four loads, shifts and ors; in a loop, four phis of bytes). LLVM's SROA partitions an alloca by its
// accesses instead: overlapping accesses share one slice, typed as the widest integer that covers it, and the
// narrower accesses become shifts and truncations of it. Here: an integer access of 2, 4 or 8 bytes over
// two or more whole byte leaves makes those bytes one integer leaf of its width (an access inside it is
// then a part of that leaf, a shift and a truncation; an access crossing its edge keeps the alloca whole).
import type { Type } from '../ir';
import { intTy, sizeOf } from '../ir';

export interface WordLeaf { off: number; ty: Type; path: number[] }

const isByte = (t: Type): boolean => t.k === 'int' && t.bits === 8;

/**
 * `leaves` (in offset order) with the byte leaves under each integer access in `accesses` replaced by one
 * integer leaf of the access's width. Accesses that overlap must nest in the widest of them (an i16 inside
 * an i32); two that only overlap (bytes 0-3 and 2-5) leave their bytes alone. Returns `leaves` itself when
 * nothing merges.
 */
export function mergeByteWords<L extends WordLeaf>(leaves: L[], accesses: { off: number; ty: Type }[]): L[] {
  const spans: { off: number; len: number }[] = [];
  for (const a of accesses) {
    if (a.ty.k !== 'int' || (a.ty.bits !== 16 && a.ty.bits !== 32 && a.ty.bits !== 64)) continue;
    const len = a.ty.bits / 8;
    const inside = leaves.filter(l => l.off < a.off + len && l.off + sizeOf(l.ty) > a.off);
    // whole byte leaves, every byte of the access: two or more of them (one leaf of the width is exact already)
    if (inside.length < 2 || !inside.every(l => isByte(l.ty) && l.off >= a.off && l.off < a.off + len) || inside.length !== len) continue;
    spans.push({ off: a.off, len });
  }
  if (spans.length === 0) return leaves;
  // nesting spans merge into the outermost; spans that only overlap drop out together
  spans.sort((x, y) => x.off - y.off || y.len - x.len);
  const words: { off: number; len: number; bad: boolean }[] = [];
  for (const s of spans) {
    const last = words[words.length - 1];
    if (last && s.off < last.off + last.len) {
      if (s.off + s.len > last.off + last.len) last.bad = true;
      continue;
    }
    words.push({ ...s, bad: false });
  }
  const good = words.filter(w => !w.bad);
  if (good.length === 0) return leaves;
  const out: L[] = [];
  for (const l of leaves) {
    const w = good.find(x => l.off >= x.off && l.off < x.off + x.len);
    if (!w) { out.push(l); continue; }
    if (l.off === w.off) out.push({ ...l, ty: intTy(w.len * 8) });
  }
  return out;
}
