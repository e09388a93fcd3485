// C/C++ types as the front end sees them (before lowering to IR types), with host (x86-64 GCC) layout,
// which is also what NVPTX uses. Qualifiers live on the type object (q bits); types are immutable.

import { type Type as IRType, T, intTy, ptrTy, arrayTy, structTy } from '../middle/ir';
import type { IntName, Field, RecordDecl, ExtendedLambda, MemberTmpl, TArg, EnumDecl, CType } from './ast';
export type { IntName, Field, RecordDecl, ExtendedLambda, MemberTmpl, TArg, EnumDecl, CType } from './ast';
import { Unsupported } from '../diagnostics';

export const enum Q { None = 0, Const = 1, Volatile = 2, Restrict = 4 }

/** The anonymous members leading to the member `name` of rec (the member itself last), or null. */
export function anonPath(rec: RecordDecl, name: string): Field[] | null {
  for (const f of rec.fields) {
    if (!f.anon || f.ty.k !== 'record') continue;
    const inner = f.ty.rec.fields.find(x => x.name === name && !x.isBase);
    if (inner) return [f, inner];
    const deeper = anonPath(f.ty.rec, name);
    if (deeper) return [f, ...deeper];
  }
  return null;
}

/** The type a template parameter pack's name stands for once bound: its elements (never a type of its own). */
export const packOf = (t: CType): CType[] | undefined => (t as { packOf?: CType[] }).packOf;
export function packType(elems: CType[]): CType { return { k: 'error', q: 0, packOf: elems } as CType; }
/** A function parameter `P... name` of a template's declared signature: the pattern P, expanded once per element. */
export const packExpOf = (t: CType): CType | undefined => (t as { packExp?: CType }).packExp;
/** Does a type name a bound template parameter pack (to be expanded)? */
export function hasPack(t: CType): boolean {
  if (packOf(t)) return true;
  if (t.k === 'ptr' || t.k === 'ref') return hasPack(t.to);
  if (t.k === 'array') return hasPack(t.elem);
  return false;
}

/**
 * A non-type template parameter in a declared signature or pattern reads as a sentinel value far from
 * ordinary ones (2^60 + an odd offset + index * 2^40), so that deduction can bind it and mangling can name
 * it (T_). Unsigned 64-bit values reach this range (`static_cast<size_t>(-1)` is cuda::std's
 * dynamic_extent, 2^60 a plausible mask): only the exact sentinels are parameters, never `v >= VAL_SENT`.
 * The offset is a multiple of 256 so an array bound holding a sentinel survives the trip through a double.
 */
export const VAL_SENT = 2n ** 60n + 0x5eed00n, VAL_STEP = 2n ** 40n;
export const valParam = (i: number): bigint => VAL_SENT + BigInt(i) * VAL_STEP;
/** The parameter index a sentinel value stands for, or undefined for an ordinary value. */
export function valParamIndex(v: bigint): number | undefined {
  if (v < VAL_SENT || (v - VAL_SENT) % VAL_STEP !== 0n) return undefined;
  const i = (v - VAL_SENT) / VAL_STEP;
  return i < 1000n ? Number(i) : undefined;
}
export const isValParam = (v: bigint): boolean => valParamIndex(v) !== undefined;

const INTS: Record<IntName, [number, boolean]> = {
  'char': [8, true], 'signed char': [8, true], 'unsigned char': [8, false], 'short': [16, true], 'unsigned short': [16, false],
  'int': [32, true], 'unsigned int': [32, false], 'long': [64, true], 'unsigned long': [64, false],
  'long long': [64, true], 'unsigned long long': [64, false], 'wchar_t': [32, true], 'char16_t': [16, false], 'char32_t': [32, false],
  '__int128': [128, true], 'unsigned __int128': [128, false],
};
const intCache = new Map<string, CType>();
export function intT(name: IntName, q = 0): CType {
  const key = name + '/' + q;
  let t = intCache.get(key);
  if (!t) { const [bits, signed] = INTS[name]; t = { k: 'int', name, bits, signed, q }; intCache.set(key, t); }
  return t;
}
export const C = {
  void: { k: 'void', q: 0 } as CType,
  bool: { k: 'bool', q: 0 } as CType,
  char: intT('char'), schar: intT('signed char'), uchar: intT('unsigned char'),
  short: intT('short'), ushort: intT('unsigned short'), int: intT('int'), uint: intT('unsigned int'),
  long: intT('long'), ulong: intT('unsigned long'), llong: intT('long long'), ullong: intT('unsigned long long'),
  float: { k: 'float', q: 0 } as CType,
  double: { k: 'double', q: 0 } as CType,
  nullptr: { k: 'nullptr', q: 0 } as CType,
  error: { k: 'error', q: 0 } as CType,
};
export const ptrTo = (t: CType, q = 0): CType => ({ k: 'ptr', to: t, q });
export const refTo = (t: CType, rv = false): CType => (rv ? { k: 'ref', to: t, q: 0, rv } : { k: 'ref', to: t, q: 0 });
/** The `auto` placeholder inside a declared type (deduced from the initialiser). */
export const AUTO: CType = { k: 'error', q: 0, auto: true } as CType;
export const isAuto = (t: CType): boolean => (t as { auto?: boolean }).auto === true;
/** `decltype(auto)` as a declared return type: deduced keeping references (mangled Dc). */
export const DECLTYPE_AUTO: CType = { k: 'error', q: 0, auto: true, dcauto: true } as CType;
export const isDecltypeAuto = (t: CType): boolean => (t as { dcauto?: boolean }).dcauto === true;
export const hasAuto = (t: CType): boolean => isAuto(t) || ((t.k === 'ptr' || t.k === 'ref') && hasAuto(t.to));
export const arrayOf = (t: CType, n: number | null): CType => ({ k: 'array', elem: t, n, q: 0 });

/**
 * The typedef a type was named through (`size_t`, `uint32_t`, `half`), qualified: only the host stub reads
 * it (it spells kernel parameters as written, as cicc's does); every type query looks through it.
 */
export const sugarOf = (t: CType): string | undefined => (t as { sugar?: string }).sugar;
export function withSugar(t: CType, sugar: string): CType { return { ...t, sugar } as unknown as CType; }
export function withQ(t: CType, q: number): CType {
  if (t.k === 'array') return q === 0 ? t : { ...t, elem: withQ(t.elem, q) };   // qualifiers of an array apply to its elements
  if (t.k === 'int') { const r = intT(t.name, t.q | q); const s = sugarOf(t); return s ? withSugar(r, s) : r; }
  return (t.q | q) === t.q ? t : { ...t, q: t.q | q } as CType;
}
export function unqual(t: CType): CType {
  if (t.q === 0) return t;
  if (t.k === 'int') { const r = intT(t.name); const s = sugarOf(t); return s ? withSugar(r, s) : r; }
  return { ...t, q: 0 } as CType;
}

export const isIntegral = (t: CType): boolean => t.k === 'int' || t.k === 'bool' || t.k === 'enum';
export const isFloating = (t: CType): boolean => t.k === 'float' || t.k === 'double' || t.k === 'ldouble';
export const isArith = (t: CType): boolean => isIntegral(t) || isFloating(t);
export const isScalar = (t: CType): boolean => isArith(t) || t.k === 'ptr' || t.k === 'nullptr';
export const isSigned = (t: CType): boolean => t.k === 'int' ? t.signed : t.k === 'enum' ? isSigned(t.en.underlying) : false;
export const isRecord = (t: CType): t is CType & { k: 'record' } => t.k === 'record';
export const isVoidPtr = (t: CType): boolean => t.k === 'ptr' && t.to.k === 'void';

/** Integer bit width of an integral type (bool: 8 in memory). */
export function intBits(t: CType): number {
  if (t.k === 'int') return t.bits;
  if (t.k === 'bool') return 8;
  if (t.k === 'enum') return intBits(t.en.underlying);
  return 64;
}

export function sizeOfC(t: CType): number {
  switch (t.k) {
    case 'void': return 1;
    case 'bool': return 1;
    case 'int': return t.bits / 8;
    case 'float': return 4;
    case 'double': return 8;
    case 'ldouble': return 16;
    case 'nullptr': case 'ptr': return 8;
    case 'ref': return sizeOfC(t.to);
    case 'array': return (t.n ?? 0) * sizeOfC(t.elem);
    case 'func': return 1;
    case 'record': if (t.rec.noLayout) throw new Unsupported(t.rec.noLayout); return t.rec.size;
    case 'enum': return sizeOfC(t.en.underlying);
    case 'error': return 1;
  }
}
export function alignOfC(t: CType): number {
  switch (t.k) {
    case 'array': return alignOfC(t.elem);
    case 'record': if (t.rec.noLayout) throw new Unsupported(t.rec.noLayout); return t.rec.align;
    case 'ref': return alignOfC(t.to);
    case 'enum': return alignOfC(t.en.underlying);
    case 'func': case 'void': case 'error': return 1;
    default: return sizeOfC(t);
  }
}

/** The IR type of a value of this C type (bool is i8 in memory and as a value). */
export function irType(t: CType): IRType {
  switch (t.k) {
    case 'void': return T.void;
    case 'bool': return T.i8;
    case 'int': return intTy(t.bits);
    case 'float': return T.f32;
    case 'double': return T.f64;
    case 'ldouble': throw new Unsupported('long double');   // cicc demotes it to double with a warning; we fall back
    case 'nullptr': case 'ptr': case 'ref': case 'func': return ptrTy(0);
    case 'array': return arrayTy(t.n ?? 0, irType(t.elem));
    case 'record': return recordIR(t.rec);
    case 'enum': return irType(t.en.underlying);
    case 'error': return T.i32;
  }
}

/** Lay out a record (GCC x86-64 rules without bitfields) and build its IR struct type. */
/** Bytes a member of type t takes in its class: a reference member holds an address (sizeof(T&) is sizeof(T)). */
export const memberSize = (t: CType): number => (t.k === 'ref' ? 8 : sizeOfC(t));
export const memberAlign = (t: CType): number => (t.k === 'ref' ? 8 : alignOfC(t));

/** The reason a member or base of type t leaves its class without a layout of ours (a class with a virtual base, in it). */
function noLayoutOf(t: CType): string | undefined {
  while (t.k === 'array') t = t.elem;
  return t.k === 'record' ? t.rec.noLayout : undefined;
}

export function layoutRecord(r: RecordDecl, minAlign = 1): void {
  // virtual inheritance (the iostreams of host code): the class can be named and its members found, but its
  // layout (vptr, virtual base subobjects at the end) is not modelled, so its size and IR type are unsupported
  const why = r.noLayout ?? (r.vbases?.length ? 'virtual base class' : r.fields.map(f => noLayoutOf(f.ty)).find(x => x !== undefined));
  if (why) { r.noLayout = why; r.size = 0; r.align = 1; r.complete = true; r.ir = null; return; }
  let off = 0, al = Math.max(1, minAlign);
  let bit = 0;   // bit position after the last bitfield (Itanium: a bitfield never straddles a unit of its type's alignment)
  for (const f of r.fields) {
    const a = memberAlign(f.ty), s = memberSize(f.ty);
    if (f.pad) {
      // an unnamed bitfield: `: 0` moves to the next unit of its type; `: N` takes N bits like a named one
      if (r.tag === 'union') { f.offset = 0; f.bitOff = 0; continue; }
      const unit = a * 8;
      let b = bit;
      if (f.bits === 0 || Math.floor(b / unit) !== Math.floor((b + f.bits! - 1) / unit)) b = Math.ceil(b / unit) * unit;
      f.offset = Math.floor(b / unit) * a;
      f.bitOff = b - f.offset * 8;
      bit = b + f.bits!;
      off = Math.max(off, Math.ceil(bit / 8));
      continue;
    }
    al = Math.max(al, a);
    if (f.bits !== undefined) {
      if (r.tag === 'union') { f.offset = 0; f.bitOff = 0; off = Math.max(off, s); continue; }
      let b = bit;
      const unit = a * 8;
      if (Math.floor(b / unit) !== Math.floor((b + f.bits - 1) / unit)) b = Math.ceil(b / unit) * unit;
      f.offset = Math.floor(b / unit) * a;
      f.bitOff = b - f.offset * 8;
      bit = b + f.bits;
      off = Math.ceil(bit / 8);
      continue;
    }
    if (r.tag === 'union') { f.offset = 0; off = Math.max(off, s); }
    else { off = Math.ceil(off / a) * a; f.offset = off; off += s; bit = off * 8; }
  }
  r.size = Math.max(r.fields.length === 0 ? 1 : 0, Math.ceil(off / al) * al);
  r.align = al;
  r.complete = true;
  r.ir = null;
}

function recordIR(r: RecordDecl): IRType {
  if (r.ir) return r.ir;
  if (r.noLayout) throw new Unsupported(r.noLayout);
  const opaque = (r as RecordDecl & { opaque?: string }).opaque;
  if (opaque) throw new Unsupported(opaque);
  const parts: IRType[] = [];
  if (r.tag === 'union') {
    // the most aligned (then largest) member, padded to the union's size
    let best: Field | undefined;
    for (const f of r.fields) if (!f.pad && (!best || memberAlign(f.ty) > memberAlign(best.ty) || (memberAlign(f.ty) === memberAlign(best.ty) && memberSize(f.ty) > memberSize(best.ty)))) best = f;
    for (const f of r.fields) f.irIndex = -1;
    if (best && best.bits !== undefined) best = undefined;
    if (best) { parts.push(irType(best.ty)); best.irIndex = 0; }
    const used = best ? memberSize(best.ty) : 0;
    if (r.size > used) parts.push(arrayTy(r.size - used, T.i8));
  } else {
    let off = 0;
    for (const f of r.fields) {
      if (f.bits !== undefined) { f.irIndex = -1; continue; }   // bitfields live in the padding bytes, reached by offset
      if (f.offset > off) { parts.push(arrayTy(f.offset - off, T.i8)); off = f.offset; }
      if (f.offset < off) { f.irIndex = -1; continue; }
      f.irIndex = parts.length;
      const ft = irType(f.ty);
      parts.push(ft);
      off += memberSize(f.ty);
    }
    if (r.size > off) parts.push(arrayTy(r.size - off, T.i8));
  }
  r.ir = structTy(parts);
  return r.ir;
}

export function recordQualName(r: RecordDecl): string {
  const arg = (a: TArg): string => a.k === 'type' ? typeName(a.ty) : a.k === 'pack' ? a.args.map(arg).join(', ') : `${a.v}`;
  const args = r.targs ? `<${r.targs.map(arg).join(', ')}>` : '';
  return [...r.scope.filter(s => s !== '(anonymous)'), ...r.outer, (r.name || r.typedefName || '') + args].join('::');
}

/** Type spelling as EDG prints it in diagnostics: "int", "const float *", "struct P"... */
export function typeName(t: CType): string {
  return spell(t, '').trim();
}
function qstr(q: number): string {
  const p: string[] = [];
  if (q & Q.Const) p.push('const');
  if (q & Q.Volatile) p.push('volatile');
  if (q & Q.Restrict) p.push('__restrict__');
  return p.join(' ');
}
function spell(t: CType, inner: string): string {
  const q = qstr(t.q);
  const base = (s: string) => (q ? q + ' ' : '') + s + (inner ? ' ' + inner : '');
  switch (t.k) {
    case 'void': return base('void');
    case 'bool': return base('bool');
    case 'int': return base(t.name);
    case 'float': return base('float');
    case 'double': return base('double');
    case 'ldouble': return base('long double');
    case 'nullptr': return base('std::nullptr_t');
    case 'error': return base('<error-type>');
    case 'record': return base(recordQualName(t.rec) || '<unnamed>');
    case 'enum': return base([...t.en.scope.filter(s => s !== '(anonymous)'), t.en.name || t.en.typedefName || '<unnamed>'].join('::'));
    case 'ptr': { const pin = '*' + (q ? q + (inner ? ' ' : '') : '') + inner; return spell(t.to, wrapIfNeeded(t.to, pin)); }
    case 'ref': return spell(t.to, wrapIfNeeded(t.to, (t.rv ? '&&' : '&') + inner));
    case 'array': return spell(t.elem, inner + `[${t.n ?? ''}]`);
    case 'func': return spell(t.ret, `${inner}(${t.params.map(typeName).join(', ')}${t.variadic ? (t.params.length ? ', ...' : '...') : ''})`);
  }
}
function wrapIfNeeded(to: CType, s: string): string { return to.k === 'array' || to.k === 'func' ? `(${s})` : s; }

export function sameType(a: CType, b: CType): boolean {
  if (a === b) return true;
  if (a.k !== b.k || a.q !== b.q) return false;
  switch (a.k) {
    case 'int': return a.name === (b as typeof a).name;
    case 'ptr': return sameType(a.to, (b as typeof a).to);
    case 'ref': return !a.rv === !(b as typeof a).rv && sameType(a.to, (b as typeof a).to);
    case 'array': return a.n === (b as typeof a).n && sameType(a.elem, (b as typeof a).elem);
    case 'record': return a.rec === (b as typeof a).rec;
    case 'enum': return a.en === (b as typeof a).en;
    case 'func': { const f = b as typeof a; return f.variadic === a.variadic && f.params.length === a.params.length && sameType(a.ret, f.ret) && a.params.every((p, i) => sameType(p, f.params[i]!)); }
    default: return true;
  }
}

/** A base class we could not read, in r or one of its bases (a member not found may be that base's). */
export function badBaseOf(r: RecordDecl): string | undefined {
  return r.badBase ?? (r.bases ?? []).map(b => badBaseOf(b.rec)).find(x => x !== undefined) ?? (r.vbases ?? []).map(badBaseOf).find(x => x !== undefined);
}

/** The chain of bases from `from` down to `to` (excluding `from`), or null when `to` is not a base. */
export function basePath(from: RecordDecl, to: RecordDecl): RecordDecl[] | null {
  if (from === to) return [];
  for (const b of from.bases ?? []) { const r = basePath(b.rec, to); if (r) return [b.rec, ...r]; }
  // a virtual base's subobject is found through the vtable: not modelled
  for (const v of from.vbases ?? []) if (basePath(v, to)) throw new Unsupported('conversion to a virtual base class');
  return null;
}
/** Byte offset of the base subobject `to` in `from` (which must derive from it). */
export function baseOffset(from: RecordDecl, to: RecordDecl): number {
  let off = 0, cur = from;
  for (const step of basePath(from, to) ?? []) {
    const f = cur.fields.find(x => x.isBase && x.ty.k === 'record' && x.ty.rec === step);
    off += f ? f.offset : 0;
    cur = step;
  }
  return off;
}
