// PTX views of IR types: register classes, scalar leaves of aggregates, type suffixes, immediates.
import type { Type, Const } from '../middle/ir';
import { sizeOf, alignOf, fieldOffset } from '../middle/ir';
import { Unsupported } from '../diagnostics';

/** Virtual register classes, in the order cicc declares them. */
export type RegClass = 'p' | 'rs' | 'f' | 'r' | 'fd' | 'rd';
export const REG_CLASSES: readonly RegClass[] = ['p', 'rs', 'f', 'r', 'fd', 'rd'];
export const REG_DECL: Record<RegClass, string> = { p: '.pred', rs: '.b16', f: '.f32', r: '.b32', fd: '.f64', rd: '.b64' };

/** Is `t` a scalar the backend keeps in one register? */
export function isScalar(t: Type): boolean {
  switch (t.k) {
    case 'int': return t.bits === 1 || t.bits === 8 || t.bits === 16 || t.bits === 32 || t.bits === 64;
    case 'half': case 'bfloat': case 'float': case 'double': case 'ptr': return true;
    default: return false;
  }
}

export function regClassOf(t: Type): RegClass {
  switch (t.k) {
    case 'int':
      if (t.bits === 1) return 'p';
      if (t.bits === 8 || t.bits === 16) return 'rs';
      if (t.bits === 32) return 'r';
      if (t.bits === 64) return 'rd';
      throw new Unsupported(`integer type i${t.bits} in the PTX backend`);
    case 'half': case 'bfloat': return 'rs';
    case 'float': return 'f';
    case 'double': return 'fd';
    case 'ptr': return 'rd';
    default: throw new Unsupported(`type ${t.k} in a register`);
  }
}

/** A scalar piece of a (possibly aggregate) value: its type and byte offset in memory. */
export interface Leaf { ty: Type; off: number }

const MAX_LEAVES = 512;

/** Scalar leaves of a type in memory order (a scalar has one leaf at offset 0). */
export function leavesOf(t: Type): Leaf[] {
  const out: Leaf[] = [];
  const walk = (ty: Type, off: number): void => {
    if (out.length > MAX_LEAVES) throw new Unsupported('aggregate value too large for registers');
    switch (ty.k) {
      case 'struct': ty.fields.forEach((f, i) => walk(f, off + fieldOffset(ty as Type & { k: 'struct' }, i))); return;
      case 'array': for (let i = 0; i < ty.n; i++) walk(ty.elem, off + i * sizeOf(ty.elem)); return;
      case 'vector': throw new Unsupported('vector types in the PTX backend');
      default:
        if (!isScalar(ty)) throw new Unsupported(`type ${ty.k} in the PTX backend`);
        out.push({ ty, off });
    }
  };
  walk(t, 0);
  return out;
}

/** Leaves of the sub-aggregate at `idx` (extractvalue/insertvalue path): [first leaf index, count, type]. */
export function leafRange(t: Type, idx: readonly number[]): { first: number; count: number; ty: Type } {
  let first = 0;
  let cur = t;
  for (const k of idx) {
    if (cur.k === 'struct') {
      for (let i = 0; i < k; i++) first += leavesOf(cur.fields[i]!).length;
      cur = cur.fields[k]!;
    } else if (cur.k === 'array') {
      first += k * leavesOf(cur.elem).length;
      cur = cur.elem;
    } else throw new Unsupported('bad extractvalue/insertvalue index path');
  }
  return { first, count: leavesOf(cur).length, ty: cur };
}

/** Bit width of a scalar in its register (i1 = 1, i8 = 8, f32 = 32, ptr = 64). */
export function bitsOf(t: Type): number {
  switch (t.k) {
    case 'int': return t.bits;
    case 'half': case 'bfloat': return 16;
    case 'float': return 32;
    case 'double': case 'ptr': return 64;
    default: return sizeOf(t) * 8;
  }
}

/** Typed suffix for memory/mov operations: u8 u16 u32 u64 f32 f64 b16 (half). i1 is stored as u8. */
export function memSuffix(t: Type): string {
  switch (t.k) {
    case 'int': return t.bits === 1 || t.bits === 8 ? 'u8' : 'u' + t.bits;
    case 'half': case 'bfloat': return 'b16';
    case 'float': return 'f32';
    case 'double': return 'f64';
    case 'ptr': return 'u64';
    default: throw new Unsupported(`memory access of type ${t.k}`);
  }
}

/** Suffix for mov of a register class. */
export function movSuffix(c: RegClass): string {
  return { p: 'pred', rs: 'u16', f: 'f32', r: 'u32', fd: 'f64', rd: 'u64' }[c];
}

/** Hex immediate of an FP constant: 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX (half: as a 16-bit integer). */
export function fpImm(t: Type, v: number): string {
  if (t.k === 'float') {
    const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, v);
    return '0f' + b.getUint32(0).toString(16).toUpperCase().padStart(8, '0');
  }
  if (t.k === 'double') {
    const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, v);
    return '0d' + b.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0');
  }
  if (t.k === 'half') return '0x' + f32ToHalfBits(v).toString(16).toUpperCase().padStart(4, '0');
  if (t.k === 'bfloat') return '0x' + f32ToBf16Bits(v).toString(16).toUpperCase().padStart(4, '0');
  throw new Unsupported(`FP immediate of type ${t.k}`);
}

/** IEEE half bits of a number (round to nearest even). */
export function f32ToHalfBits(v: number): number {
  const f = new DataView(new ArrayBuffer(4)); f.setFloat32(0, v);
  const x = f.getUint32(0);
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1), halfway = 1 << (shift - 1);
    if (rem > halfway || (rem === halfway && (h & 1))) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  e = h;
  return sign | e;
}
export function f32ToBf16Bits(v: number): number {
  const f = new DataView(new ArrayBuffer(4)); f.setFloat32(0, v);
  const x = f.getUint32(0);
  if ((x & 0x7f800000) === 0x7f800000 && (x & 0x7fffff)) return (x >>> 16) | 0x40;
  const r = x + 0x7fff + ((x >>> 16) & 1);
  return (r >>> 16) & 0xffff;
}

/** Integer immediate text of a constant of `bits` width (signed decimal, as LLVM prints it). */
export function intImm(v: bigint, bits: number): string {
  return (bits >= 64 ? BigInt.asIntN(64, v) : BigInt.asIntN(Math.max(bits, 1) === 1 ? 2 : bits, v)).toString();
}

/** Little-endian bytes of a constant (no symbol references), or null if it has any. */
export function constBytes(c: Const): Uint8Array | null {
  const out = new Uint8Array(sizeOf(c.ty));
  const ok = writeConst(c, out, 0);
  return ok ? out : null;
}
function writeConst(c: Const, out: Uint8Array, off: number): boolean {
  switch (c.kind) {
    case 'zero': case 'undef': case 'poison': case 'null': return true;
    case 'int': {
      const n = sizeOf(c.ty);
      let v = BigInt.asUintN(n * 8, c.value);
      for (let i = 0; i < n; i++) { out[off + i] = Number(v & 0xffn); v >>= 8n; }
      return true;
    }
    case 'fp': {
      const dv = new DataView(out.buffer, out.byteOffset + off);
      if (c.ty.k === 'float') dv.setFloat32(0, c.value, true);
      else if (c.ty.k === 'double') dv.setFloat64(0, c.value, true);
      else if (c.ty.k === 'half') dv.setUint16(0, f32ToHalfBits(c.value), true);
      else dv.setUint16(0, f32ToBf16Bits(c.value), true);
      return true;
    }
    case 'bytes': out.set(c.bytes.subarray(0, sizeOf(c.ty)), off); return true;
    case 'agg': {
      const t = c.ty;
      for (let i = 0; i < c.elems.length; i++) {
        const o = t.k === 'struct' ? fieldOffset(t as Type & { k: 'struct' }, i) : t.k === 'array' || t.k === 'vector' ? i * sizeOf(t.elem) : 0;
        if (!writeConst(c.elems[i]!, out, off + o)) return false;
      }
      return true;
    }
    case 'cexpr': return false;
  }
}

export { sizeOf, alignOf };
