// PTX operand text shared by the emitters: state spaces, `[base+off]` addresses, ld/st opcode spelling,
// constant gep offsets and the scalar leaves of aggregate constants.
import type { Inst, Value, Const, Type } from '../middle/ir';
import { T, AS, sizeOf, fieldOffset } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import { leavesOf, isScalar, type Leaf } from './types';

/** Memory address: state space ('' generic) and `[base+off]`. */
export interface Addr { space: string; base: string; off: number }

/** memQual's mark for a load through the non-coherent (read-only) cache: `ld.global.nc`, not a qualifier before the space. */
export const NC = '.nc';
export const ldOp = (qual: string, sp: string): string => (qual === NC ? `ld${sp}.nc` : `ld${qual}${sp}`);

/** Does u load from or store to the address p (and not store p itself)? */
export const addressedBy = (u: Inst, p: Value): boolean => (u.op === 'load' && u.ops[0] === p) || (u.op === 'store' && u.ops[1] === p && u.ops[0] !== p);

export function spaceOf(as: number): string {
  switch (as) {
    case AS.generic: return '';
    case AS.global: return 'global';
    case AS.shared: return 'shared';
    case AS.const: return 'const';
    case AS.local: return 'local';
    case AS.param: return 'param';
    default: throw new Unsupported(`address space ${as}`);
  }
}
export const addrText = (a: Addr): string => `[${a.base}${a.off ? (a.off > 0 ? '+' : '+') + a.off : ''}]`;
export const dot = (s: string): string => (s ? '.' + s : '');

export function ptxScope(s: string | undefined): string {
  return s === 'block' ? 'cta' : s === 'device' ? 'gpu' : 'sys';
}

/** Byte offset of a gep with constant indices. */
export function constGepOffset(srcTy: Type, idx: readonly Value[]): number {
  let off = 0;
  let cur = srcTy;
  idx.forEach((v, k) => {
    if (v.kind !== 'int') throw new Unsupported('non-constant index in a constant gep');
    const n = Number(v.value);
    if (k === 0) { off += n * sizeOf(cur); return; }
    if (cur.k === 'struct') { off += fieldOffset(cur as Type & { k: 'struct' }, n); cur = cur.fields[n]!; }
    else if (cur.k === 'array' || cur.k === 'vector') { off += n * sizeOf(cur.elem); cur = cur.elem; }
    else throw new Unsupported('bad constant gep');
  });
  return off;
}

/** Scalar constants of an aggregate constant, in leaf order. */
export function constLeaves(c: Const): Const[] {
  const ls = leavesOf(c.ty);
  if (c.kind === 'agg') return c.elems.flatMap(e => (isScalar(e.ty) ? [e] : constLeaves(e)));
  if (c.kind === 'bytes') return Array.from(c.bytes.subarray(0, ls.length), b => ({ kind: 'int', ty: T.i8, value: BigInt.asIntN(8, BigInt(b)) }) as Const);
  return ls.map((l: Leaf) => ({ kind: c.kind === 'poison' || c.kind === 'undef' ? 'undef' : 'zero', ty: l.ty }) as Const);
}
