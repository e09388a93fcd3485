// What a load from constant memory reads: bytes of constant initialisers, elements of constant
// aggregates, pointer slots of constant tables (vtables).
import type { Const, Type, Value } from '../ir';
import { T, cInt, cFP, cUndef, fieldOffset, sizeOf } from '../ir';
import { baseAndOffset } from './memory';

/** The bytes of a constant initialiser (little-endian), or null when it holds addresses or undefined bytes. */
function constBytes(c: Const, out: Uint8Array, at: number): boolean {
  switch (c.kind) {
    case 'zero': case 'null': return true;   // out starts zeroed
    case 'bytes': out.set(c.bytes.subarray(0, Math.min(c.bytes.length, out.length - at)), at); return true;
    case 'int': {
      const n = sizeOf(c.ty);
      let v = BigInt.asUintN(n * 8, c.value);
      for (let k = 0; k < n && at + k < out.length; k++) { out[at + k] = Number(v & 0xffn); v >>= 8n; }
      return true;
    }
    case 'fp': {
      const dv = new DataView(new ArrayBuffer(8));
      if (c.ty.k === 'float') { dv.setFloat32(0, c.value, true); out.set(new Uint8Array(dv.buffer, 0, 4).slice(), at); return true; }
      if (c.ty.k === 'double') { dv.setFloat64(0, c.value, true); out.set(new Uint8Array(dv.buffer, 0, 8).slice(), at); return true; }
      return false;
    }
    case 'agg': {
      const t = c.ty;
      return c.elems.every((e, k) => constBytes(e, out, at + (t.k === 'struct' ? fieldOffset(t, k) : k * sizeOf(e.ty))));
    }
    default: return false;
  }
}
/** A scalar read `off` bytes into a constant global (a string literal, a lookup table), or null. */
export function loadFromConstant(g: Value, off: number, ty: Type): Const | null {
  if (g.kind !== 'global' || !g.isConstant || !g.init || g.externallyInitialized || g.linkage === 'weak' || g.linkage === 'linkonce_odr' || g.linkage === 'common') return null;
  return loadConst(g.init, off, ty);
}
/** A scalar integer or float read from a constant initialiser at a byte offset, or null. */
function loadConst(init: Const, off: number, ty: Type): Const | null {
  const n = ty.k === 'int' ? ty.bits / 8 : ty.k === 'float' ? 4 : ty.k === 'double' ? 8 : 0;
  if (!Number.isInteger(n) || n === 0 || off < 0 || off + n > sizeOf(init.ty)) return null;
  const bytes = new Uint8Array(sizeOf(init.ty));
  if (!constBytes(init, bytes, 0)) return null;
  let v = 0n;
  for (let k = n - 1; k >= 0; k--) v = (v << 8n) | BigInt(bytes[off + k]!);
  if (ty.k === 'int') return cInt(ty, BigInt.asIntN(ty.bits, v));
  const dv = new DataView(new ArrayBuffer(8));
  if (ty.k === 'float') { dv.setUint32(0, Number(v)); return cFP(ty, dv.getFloat32(0)); }
  dv.setBigUint64(0, v); return cFP(ty, dv.getFloat64(0));
}

/** The member of a constant aggregate at `idx` (extractvalue of zeroinitializer, undef, {..} or c"..."), or null. */
export function constElement(c: Value, idx: readonly number[]): Const | null {
  let cur: Value = c;
  for (const k of idx) {
    const t = cur.ty;
    const elTy = t.k === 'struct' ? t.fields[k] : t.k === 'array' || t.k === 'vector' ? t.elem : undefined;
    if (!elTy) return null;
    switch (cur.kind) {
      case 'agg': { const e = cur.elems[k]; if (!e) return null; cur = e; break; }
      case 'bytes': if (elTy !== T.i8 || k >= cur.bytes.length) return null; cur = cInt(T.i8, cur.bytes[k]!); break;
      case 'undef': cur = cUndef(elTy); break;
      case 'zero':
        cur = elTy.k === 'int' ? cInt(elTy, 0) : elTy.k === 'float' || elTy.k === 'double' ? cFP(elTy, 0)
          : elTy.k === 'ptr' ? { kind: 'null', ty: elTy } : { kind: 'zero', ty: elTy };
        break;
      default: return null;
    }
  }
  return cur.kind === 'inst' ? null : cur as Const;
}

/**
 * A pointer word of a constant array of pointers (a vtable entry) at a constant offset from its generic
 * address: `load ptr, gep(addrspacecast @vt, off)`. ODR-linkage constants are foldable (every definition is
 * the same), as LLVM folds them.
 */
export function loadConstPtrSlot(p: Value, ty: Type): Value | null {
  const bo = baseAndOffset(p);
  if (!bo || bo.off % 8 !== 0) return null;
  let g: Value = bo.base;
  while (g.kind === 'cexpr' && (g.op === 'addrspacecast' || g.op === 'bitcast')) g = g.base as Value;
  if (g.kind !== 'global' || !g.isConstant || !g.init || g.externallyInitialized || g.linkage === 'weak' || g.linkage === 'common') return null;
  const init = g.init;
  if (init.kind !== 'agg' || g.valueTy.k !== 'array' || g.valueTy.elem.k !== 'ptr') return null;
  const e = init.elems[bo.off / 8];
  if (!e) return null;
  if (e.kind === 'null') return ty.k === 'ptr' && (ty as { as: number }).as === 0 ? e : null;
  return e.ty === ty ? e : null;
}
