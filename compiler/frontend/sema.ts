// Semantic rules on typed expressions: value conversions, promotions, the usual arithmetic conversions,
// implicit-conversion ranking (for overload resolution) and implicit/explicit casts.

import type { Expr, CastKind } from './ast';
import { type CType, C, intT, isArith, isIntegral, isFloating, isScalar, sameType, unqual, ptrTo, sizeOfC, Q, intBits, basePath, baseOffset } from './ctype';

/**
 * The user-defined conversions of one unit (converting constructors, conversion functions; parser-overload.ts
 * userConversion), which implicit conversions may use once: `active` while one is being tried (never two in a row).
 */
export interface UserConversions { convert: (e: Expr, to: CType) => Expr | null; active: boolean }
/** A user-defined conversion of e to `to`, if exactly one applies (never two in a row). */
function tryUserConv(uc: UserConversions, e: Expr, to: CType): Expr | null {
  if (uc.active) return null;
  if (e.ty.k !== 'record' && unqual(to).k !== 'record') return null;
  uc.active = true;
  try { return uc.convert(e, to); } finally { uc.active = false; }
}
/** A reference to an array binding an array lvalue of the same bound, adding element cv-qualifiers only. */
function sameArrayBinding(from: CType, target: CType): boolean {
  if (from.k !== 'array' || target.k !== 'array' || from.n !== target.n) return false;
  return sameType(unqual(from.elem), unqual(target.elem)) && ((from.elem.q & ~target.elem.q) & (Q.Const | Q.Volatile)) === 0;
}
/**
 * Pointer to a derived class converted to a pointer to its base `to` (adjusted by the base's offset); a
 * pointer that may be null stays null (`keepNull` on the adjustment).
 */
function derivedToBase(p: Expr, to: CType & { k: 'ptr' }, nullable = false): Expr {
  const from = (p.ty as CType & { k: 'ptr' }).to as CType & { k: 'record' };
  const off = baseOffset(from.rec, (to.to as CType & { k: 'record' }).rec);
  return adjustPtr(p, off, to, nullable);
}
/** p moved by off bytes (the derived-to-base direction; negative: base to derived), as a pointer of type `to`. */
function adjustPtr(p: Expr, off: number, to: CType, nullable: boolean): Expr {
  if (off === 0) return cast(p, 'p2p', to);
  const bytes = cast(p, 'p2p', ptrTo(C.char));
  const add = mk(ptrTo(C.char), p.pos, false, { k: 'ptradd', p: bytes, i: mk(C.long, p.pos, false, { k: 'int', v: BigInt(Math.abs(off)) }), neg: off < 0 });
  if (nullable) (add as Expr & { keepNull?: boolean }).keepNull = true;
  return cast(add, 'p2p', to);
}
const isBaseOf = (b: CType, d: CType): boolean => b.k === 'record' && d.k === 'record' && b.rec !== d.rec && basePath(d.rec, b.rec) !== null;

export function mk(ty: CType, pos: number, lv: boolean, rest: Record<string, unknown>): Expr {
  return { ty, pos, lv, ...rest } as Expr;
}
export const errExpr = (pos: number): Expr => mk(C.error, pos, false, { k: 'error' });

export function cast(e: Expr, ck: CastKind, to: CType): Expr {
  return mk(to, e.pos, false, { k: 'cast', ck, e });
}

/** Lvalue-to-rvalue, array-to-pointer and function-to-pointer conversions. */
export function rval(e: Expr): Expr {
  if (e.ty.k === 'error') return e;
  if (e.ty.k === 'array') return cast(e, 'decay', ptrTo(e.ty.elem));
  if (e.ty.k === 'func') return e.k === 'func' || e.lv ? cast(e, 'fdecay', ptrTo(e.ty)) : e;
  // `c ? K : v` read as a value, K a namespace-scope constant: the value of each operand, so that K folds and is
  // not emitted as a variable (cicc emits no .const for TensorRT's `cond ? PILLARS_PER_BLOCK : n`)
  if (e.lv && e.k === 'cond' && isScalar(e.ty) && (foldableConst(e.a) || foldableConst(e.b))) return { ...e, ty: unqual(e.ty), lv: false, a: rval(e.a), b: rval(e.b) } as Expr;
  if (e.lv) return cast(e, 'load', unqual(e.ty));
  return e;
}
function foldableConst(e: Expr): boolean {
  return e.k === 'var' && e.sym.constVal !== undefined && e.sym.storage === 'global' && e.sym.space === 'none';
}

export function isNullConst(e: Expr): boolean {
  if (e.ty.k === 'nullptr') return true;
  let x = e;
  while (x.k === 'cast' && (x.ck === 'int' || x.ck === 'noop')) x = x.e;
  return x.k === 'int' && x.v === 0n && isIntegral(e.ty);
}

/** Integral promotion (bool, char, short, enum → int; unsigned short stays int). */
export function promotedType(t: CType): CType {
  if (t.k === 'bool') return C.int;
  if (t.k === 'enum') return promotedType(t.en.underlying);
  if (t.k === 'int' && t.bits < 32) return C.int;
  if (t.k === 'int' && (t.name === 'wchar_t' || t.name === 'char32_t')) return t.signed ? C.int : C.uint;
  return unqual(t);
}
export function promote(e: Expr): Expr {
  const r = rval(e);
  if (!isIntegral(r.ty)) return r;
  return convertArith(r, promotedType(r.ty));
}

const RANK: Record<string, number> = { 'int': 3, 'unsigned int': 3, 'long': 4, 'unsigned long': 4, 'long long': 5, 'unsigned long long': 5, '__int128': 6, 'unsigned __int128': 6 };
export function usualArithType(a: CType, b: CType): CType {
  if (a.k === 'ldouble' || b.k === 'ldouble') return { k: 'ldouble', q: 0 };
  if (a.k === 'double' || b.k === 'double') return C.double;
  if (a.k === 'float' || b.k === 'float') return C.float;
  const x = promotedType(a), y = promotedType(b);
  if (x.k !== 'int' || y.k !== 'int') return C.int;
  if (x.name === y.name) return x;
  if (x.signed === y.signed) return RANK[x.name]! >= RANK[y.name]! ? x : y;
  const [s, u] = x.signed ? [x, y] : [y, x];
  if (s.k !== 'int' || u.k !== 'int') return C.int;
  if (RANK[u.name]! >= RANK[s.name]!) return u;
  if (s.bits > u.bits) return s;
  return intT(('unsigned ' + s.name) as 'unsigned long');
}

/** Convert an arithmetic rvalue to another arithmetic type (no diagnostics). */
export function convertArith(e: Expr, to: CType): Expr {
  const from = e.ty;
  to = unqual(to);
  if (sameType(unqual(from), to)) return e;
  if (to.k === 'bool') return cast(e, 'tobool', to);
  if (isIntegral(to)) {
    if (isFloating(from)) return cast(e, 'f2i', to);
    if (e.k === 'int' && to.k === 'int') return mk(to, e.pos, false, { k: 'int', v: wrapInt(e.v, to) });
    return cast(e, 'int', to);
  }
  if (isFloating(to)) {
    // long double is double on the device (cicc demotes it): a constant converts exactly
    if (from.k === 'ldouble' && e.k === 'fp' && to.k !== 'ldouble') return mk(to, e.pos, false, { k: 'fp', v: to.k === 'float' ? Math.fround(e.v) : e.v });
    if (isFloating(from)) return cast(e, 'f2f', to);
    return cast(e, 'i2f', to);
  }
  return cast(e, 'noop', to);
}
export function wrapInt(v: bigint, t: CType): bigint {
  const bits = t.k === 'bool' ? 1 : intBits(t);
  const signed = t.k === 'int' ? t.signed : t.k === 'enum' ? true : false;
  if (t.k === 'bool') return v !== 0n ? 1n : 0n;
  return signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
}

/**
 * An exact match that adds const/volatile (`int` lvalue to `const int &`, `int *` to `const int *`) is still
 * exact, but loses to the binding that adds none ([over.ics.rank] 3.2.5, 3.2.6): f(int&) beats f(const int&).
 */
const addsCv = (from: number, to: number): number => ((to & ~from) & (Q.Const | Q.Volatile)) !== 0 ? 0.125 : 0;

const CV = Q.Const | Q.Volatile;
/**
 * [conv.qual]: whether a pointer to `from` converts to a pointer to `to` by adding cv-qualifiers below the top
 * level (`double (*)[8]` → `const double (*)[8]`, `int **` → `const int *const *`). An array's qualifiers are its
 * elements'; a level may gain a qualifier only when every level above it in `to` is const.
 */
function qualificationConvertible(from: CType, to: CType): boolean {
  let f = from, t = to, constAbove = true;
  for (;;) {
    while (f.k === 'array' && t.k === 'array' && f.n === t.n) { f = f.elem; t = t.elem; }
    const fq = f.q & CV, tq = t.q & CV;
    if (fq & ~tq) return false;
    if ((tq & ~fq) && !constAbove) return false;
    constAbove = constAbove && (tq & Q.Const) !== 0;
    if (f.k === 'ptr' && t.k === 'ptr') { f = f.to; t = t.to; continue; }
    return sameType(unqual(f), unqual(t));
  }
}

/**
 * Rank of the implicit conversion of `e` to `to` (0 exact, 1 promotion, 2 conversion, 3 user-defined/ellipsis;
 * 0.125: exact but adding cv-qualification; 0.25: a class rvalue bound to a const lvalue reference),
 * or -1 when there is none.
 */
/** An xvalue: an expression with an address (lv) that rvalue references may bind (`static_cast<T &&>(x)`). */
export const isXvalue = (e: Expr): boolean => (e as Expr & { xv?: boolean }).xv === true;
export const markXvalue = (e: Expr): Expr => { (e as Expr & { xv?: boolean }).xv = true; return e; };
export function convRank(uc: UserConversions, e: Expr, to: CType): number {
  const from = e.ty;
  if (from.k === 'error' || to.k === 'error') return 0;
  if (to.k === 'ref') {
    const target = to.to;
    if (to.rv) {
      // an rvalue reference binds rvalues (through a temporary when a conversion is needed), never lvalues;
      // an xvalue (`static_cast<T &&>(x)`, a call returning T&&) is an rvalue with an address
      if (e.lv && !isXvalue(e)) return -1;
      const r = convRank(uc, e, unqual(target));
      return r < 0 ? -1 : r;
    }
    if (isXvalue(e) && !(target.q & Q.Const)) return -1;   // a non-const lvalue reference never binds an xvalue
    if (e.lv && (sameType(unqual(from), unqual(target))) && ((from.q & ~target.q) & (Q.Const | Q.Volatile)) === 0) return addsCv(from.q, target.q);
    if (e.lv && sameArrayBinding(from, target)) return 0;
    // a class rvalue binds a const lvalue reference exactly, but an rvalue reference better ([over.ics.rank]: T&& beats const T&)
    if (!e.lv && from.k === 'record' && (target.q & Q.Const) && sameType(unqual(from), unqual(target))) return 0.25;
    if (isBaseOf(unqual(target), unqual(from)) && ((from.q & ~target.q) & (Q.Const | Q.Volatile)) === 0 && (e.lv || (target.q & Q.Const))) return 2;
    if (target.q & Q.Const) { const r = convRank(uc, rval(e), unqual(target)); return r < 0 ? -1 : Math.max(r, 0); }
    return -1;
  }
  if (from.k === 'record' || unqual(to).k === 'record') {
    const t = unqual(to);
    if (t.k === 'record' && from.k === 'record' && t.rec === from.rec) return 0;
    if (isBaseOf(t, unqual(from))) return 2;
    return tryUserConv(uc, e, to) ? 3 : -1;
  }
  const f = from.k === 'array' ? ptrTo(from.elem) : from.k === 'func' ? ptrTo(from) : unqual(from);
  const t = unqual(to);
  if (sameType(f, t)) return 0;
  if (f.k === 'ptr' && t.k === 'ptr') {
    if (sameType(unqual(f.to), unqual(t.to)) && ((f.to.q & ~t.to.q) & (Q.Const | Q.Volatile)) === 0) return addsCv(f.to.q, t.to.q);
    if (isBaseOf(unqual(t.to), unqual(f.to)) && ((f.to.q & ~t.to.q) & (Q.Const | Q.Volatile)) === 0) return 2;
    if (t.to.k === 'void' && f.to.k !== 'func' && ((f.to.q & ~t.to.q) & (Q.Const | Q.Volatile)) === 0) return 2;
    if (qualificationConvertible(f.to, t.to)) return 0.125;
    return -1;
  }
  if (t.k === 'ptr' && isNullConst(e)) return 2;
  if (t.k === 'bool' && (f.k === 'ptr' || f.k === 'nullptr')) return 2;
  if (isArith(t) && isArith(f)) {
    if (t.k === 'enum') return -1;
    if (isIntegral(f) && f.k !== 'int' || (f.k === 'int' && f.bits < 32)) { if (sameType(promotedType(f), t)) return 1; }
    if (f.k === 'float' && t.k === 'double') return 1;
    return 2;
  }
  if (t.k === 'record' && f.k === 'record' && t.rec === f.rec) return 0;
  return -1;
}

/** Implicit conversion for initialisation/assignment/argument passing; returns null when impossible. */
export function implicitConvert(uc: UserConversions, e: Expr, to: CType): Expr | null {
  if (e.ty.k === 'error' || to.k === 'error') return e;
  if (to.k === 'ref') {
    if (convRank(uc, e, to) < 0) return null;
    if (e.lv && sameType(unqual(e.ty), unqual(to.to))) return e;   // bind directly
    if (e.lv && sameArrayBinding(e.ty, to.to)) return e;
    if (!e.lv && e.ty.k === 'record' && sameType(unqual(e.ty), unqual(to.to))) return e;   // a class prvalue has an address
    if (isBaseOf(unqual(to.to), unqual(e.ty))) {
      const bt = ptrTo(to.to) as CType & { k: 'ptr' };
      return mk(to.to, e.pos, true, { k: 'deref', e: derivedToBase(mk(ptrTo(e.ty), e.pos, false, { k: 'addr', e }), bt) });
    }
    const v = implicitConvert(uc, e, unqual(to.to));
    if (!v) return null;
    return mk(unqual(to.to), e.pos, true, { k: 'temp', init: { k: 'expr', e: v } });
  }
  const t = unqual(to);
  if (t.k === 'record') {
    if (e.ty.k === 'record' && e.ty.rec === t.rec) return e;
    if (isBaseOf(t, unqual(e.ty))) return mk(t, e.pos, true, { k: 'deref', e: derivedToBase(mk(ptrTo(e.ty), e.pos, false, { k: 'addr', e }), ptrTo(t) as CType & { k: 'ptr' }) });
    return tryUserConv(uc, e, to);
  }
  if (e.ty.k === 'record') return tryUserConv(uc, e, to);
  const r = rval(e);
  const f = r.ty;
  if (sameType(unqual(f), t)) return r;
  if (isArith(t) && isArith(f)) { if (t.k === 'enum' && !sameType(unqual(f), t)) return null; return convertArith(r, t); }
  if (t.k === 'bool' && (f.k === 'ptr' || f.k === 'nullptr')) return cast(r, 'tobool', t);
  if (t.k === 'ptr') {
    if (isNullConst(r)) return cast(r, 'null', t);
    if (f.k === 'ptr') {
      const ok = sameType(unqual(f.to), unqual(t.to)) || t.to.k === 'void';
      const qok = ((f.to.q & ~t.to.q) & (Q.Const | Q.Volatile)) === 0;
      if (ok && qok) return cast(r, 'p2p', t);
      if (qok && isBaseOf(unqual(t.to), unqual(f.to))) return derivedToBase(r, t as CType & { k: 'ptr' }, true);
      if (qualificationConvertible(f.to, t.to)) return cast(r, 'p2p', t);
    }
  }
  return null;
}

/** Explicit (C-style / static_cast / reinterpret_cast) conversion; null when impossible. */
export function explicitConvert(uc: UserConversions, e: Expr, to: CType, reinterpret = false): Expr | null {
  if (e.ty.k === 'error') return e;
  const t = unqual(to);
  if (t.k === 'void') return cast(rval(e), 'void', C.void);
  if (to.k === 'ref') {
    if (!e.lv) return implicitConvert(uc, e, to);
    if (!reinterpret && isBaseOf(unqual(e.ty), unqual(to.to))) {
      // static_cast of a base lvalue to a derived class: the object that contains it
      const off = -baseOffset((unqual(to.to) as CType & { k: 'record' }).rec, (unqual(e.ty) as CType & { k: 'record' }).rec);
      return mk(to.to, e.pos, true, { k: 'deref', e: adjustPtr(mk(ptrTo(e.ty), e.pos, false, { k: 'addr', e }), off, ptrTo(to.to), false) });
    }
    // the object itself, seen through the target type (its address, not its value)
    return mk(to.to, e.pos, true, { k: 'deref', e: cast(mk(ptrTo(e.ty), e.pos, false, { k: 'addr', e }), 'p2p', ptrTo(to.to)) });
  }
  if (reinterpret && t.k === 'ptr' && rval(e).ty.k === 'ptr') return cast(rval(e), 'p2p', t);
  const imp = implicitConvert(uc, e, t);
  if (imp) return imp;
  const r = rval(e);
  const f = unqual(r.ty);
  if (t.k === 'ptr' && f.k === 'ptr' && isBaseOf(unqual(f.to), unqual(t.to))) {
    // static_cast of a base pointer to a derived class: back by the base's offset, null staying null
    const off = -baseOffset((unqual(t.to) as CType & { k: 'record' }).rec, (unqual(f.to) as CType & { k: 'record' }).rec);
    return adjustPtr(r, off, t, true);
  }
  if (isArith(t) && isArith(f)) return convertArith(r, t);
  if (t.k === 'ptr' && (f.k === 'ptr' || f.k === 'nullptr')) return cast(r, f.k === 'nullptr' ? 'null' : 'p2p', t);
  if (t.k === 'ptr' && isIntegral(f)) return cast(r, 'i2p', t);
  if (isIntegral(t) && f.k === 'ptr') { const x = cast(r, 'p2i', sizeOfC(t) === 8 ? t : C.ulong); return sizeOfC(t) === 8 ? x : convertArith(x, t); }
  if (t.k === 'record' && f.k === 'record' && f.rec === t.rec) return r;
  return null;
}

/** Contextual conversion to bool (conditions); returns a bool-typed rvalue or null. */
export function toCond(e: Expr): Expr | null {
  const r = rval(e);
  if (r.ty.k === 'error') return r;
  if (r.ty.k === 'bool') return r;
  if (isScalar(r.ty)) return cast(r, 'tobool', C.bool);
  return null;
}
