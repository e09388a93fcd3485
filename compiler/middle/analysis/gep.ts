// Constant address arithmetic: the byte offset a gep with constant indices adds.
import type { Inst, Type } from '../ir';
import { fieldOffset, sizeOf } from '../ir';

/** Byte offset of a gep with constant indices, or null. */
export function constGepOffset(g: Inst): number | null {
  let cur: Type = g.srcTy!;
  let off = 0;
  const idx = g.ops.slice(1);
  for (let k = 0; k < idx.length; k++) {
    const x = idx[k]!;
    if (x.kind !== 'int') return null;
    const n = Number(x.value);
    if (k === 0) { off += n * sizeOf(cur); continue; }
    if (cur.k === 'struct') { off += fieldOffset(cur as Type & { k: 'struct' }, n); cur = cur.fields[n]!; }
    else if (cur.k === 'array' || cur.k === 'vector') { off += n * sizeOf(cur.elem); cur = cur.elem; }
    else return null;
  }
  return off;
}
