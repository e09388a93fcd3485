// Compile-time evaluation of typed expressions (array sizes, case labels, enumerators, constexpr,
// and scalar parts of global initialisers).

import type { Expr } from './ast';
import { isIntegral, isFloating, sizeOfC } from './ctype';
import { wrapInt } from './sema';

export type CVal = bigint | number;

/** Value of an integral/floating constant expression, or null if it is not constant. */
export function evalConst(e: Expr): CVal | null {
  switch (e.k) {
    case 'int': return e.v;
    case 'fp': return e.v;
    case 'var': return e.sym.constVal ?? null;
    case 'cast': {
      if (e.ck === 'load') return evalConst(e.e);
      const v = evalConst(e.e);
      if (v === null) return null;
      switch (e.ck) {
        case 'int': case 'noop': return typeof v === 'bigint' ? wrapInt(v, e.ty) : null;
        case 'tobool': return (typeof v === 'bigint' ? v !== 0n : v !== 0) ? 1n : 0n;
        case 'i2f': return typeof v === 'bigint' ? roundFP(Number(v), e.ty.k === 'float') : null;
        case 'f2i': return typeof v === 'number' && Number.isFinite(v) ? wrapInt(BigInt(Math.trunc(v)), e.ty) : null;
        case 'f2f': return typeof v === 'number' ? roundFP(v, e.ty.k === 'float') : null;
        default: return null;
      }
    }
    case 'unary': {
      const v = evalConst(e.e);
      if (v === null) return null;
      if (typeof v === 'number') return e.op === '-' ? roundFP(-v, e.ty.k === 'float') : e.op === '+' ? v : e.op === '!' ? (v === 0 ? 1n : 0n) : null;
      if (e.op === '-') return wrapInt(-v, e.ty);
      if (e.op === '~') return wrapInt(~v, e.ty);
      if (e.op === '!') return v === 0n ? 1n : 0n;
      return v;
    }
    case 'bin': {
      if (e.op === '&&' || e.op === '||') {
        const a = evalConst(e.a); if (a === null) return null;
        const at = typeof a === 'bigint' ? a !== 0n : a !== 0;
        if (e.op === '&&' && !at) return 0n;
        if (e.op === '||' && at) return 1n;
        const b = evalConst(e.b); if (b === null) return null;
        return (typeof b === 'bigint' ? b !== 0n : b !== 0) ? 1n : 0n;
      }
      const a = evalConst(e.a), b = evalConst(e.b);
      if (a === null || b === null) return null;
      if (typeof a === 'number' || typeof b === 'number') {
        const x = Number(a), y = Number(b), f = e.a.ty.k === 'float';
        switch (e.op) {
          case '+': return roundFP(x + y, f); case '-': return roundFP(x - y, f); case '*': return roundFP(x * y, f); case '/': return roundFP(x / y, f);
          case '<': return x < y ? 1n : 0n; case '>': return x > y ? 1n : 0n; case '<=': return x <= y ? 1n : 0n; case '>=': return x >= y ? 1n : 0n;
          case '==': return x === y ? 1n : 0n; case '!=': return x !== y ? 1n : 0n;
          default: return null;
        }
      }
      const t = e.a.ty;
      const unsigned = isIntegral(t) && !(t.k === 'int' ? t.signed : true);
      const ua = unsigned ? wrapInt(a, t) : a, ub = unsigned ? wrapInt(b, t) : b;
      switch (e.op) {
        case '+': return wrapInt(a + b, e.ty);
        case '-': return wrapInt(a - b, e.ty);
        case '*': return wrapInt(a * b, e.ty);
        case '/': return b === 0n ? null : wrapInt(ua / ub, e.ty);
        case '%': return b === 0n ? null : wrapInt(ua % ub, e.ty);
        case '<<': return wrapInt(a << b, e.ty);
        case '>>': return wrapInt((unsigned ? wrapInt(a, t) : a) >> b, e.ty);
        case '&': return wrapInt(a & b, e.ty);
        case '|': return wrapInt(a | b, e.ty);
        case '^': return wrapInt(a ^ b, e.ty);
        case '<': return ua < ub ? 1n : 0n; case '>': return ua > ub ? 1n : 0n;
        case '<=': return ua <= ub ? 1n : 0n; case '>=': return ua >= ub ? 1n : 0n;
        case '==': return ua === ub ? 1n : 0n; case '!=': return ua !== ub ? 1n : 0n;
        default: return null;
      }
    }
    case 'cond': {
      const c = evalConst(e.c); if (c === null) return null;
      return (typeof c === 'bigint' ? c !== 0n : c !== 0) ? evalConst(e.a) : evalConst(e.b);
    }
    case 'comma': return null;
    default: return null;
  }
}

function roundFP(v: number, f32: boolean): number { return f32 ? Math.fround(v) : v; }

export function evalInt(e: Expr): bigint | null {
  const v = evalConst(e);
  return typeof v === 'bigint' ? v : null;
}

export const constSizeOf = (e: Expr): number => sizeOfC(e.ty);
export const isFloatingConst = (e: Expr): boolean => isFloating(e.ty);
