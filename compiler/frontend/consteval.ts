// Compile-time evaluation of typed expressions (array sizes, case labels, enumerators, constexpr,
// and scalar parts of global initialisers).

import type { Expr, FuncSym, Init, Stmt, VarSym } from './ast';
import { isIntegral, isFloating, sizeOfC, Q } from './ctype';
import { wrapInt } from './sema';
import { Unsupported } from '../diagnostics';

export type CVal = bigint | number;

/** Local variables of the constexpr calls being evaluated (innermost last). */
type Env = Map<VarSym, CVal>;
/**
 * The constant evaluator of one unit: bodyOf parses a function's body on demand (the Unit's parseBody) so that
 * constexpr calls can be evaluated; env, depth and steps are the state of the calls being evaluated (shared by
 * evaluations nested in them, such as those of a body parsed on demand).
 */
export interface ConstEval {
  bodyOf: (f: FuncSym) => Stmt | null; env: Env | null; depth: number; steps: number;
  /** A member of an object being evaluated (constinit.ts's constructors), when one is. */
  member: ((e: Expr) => CVal | null) | null;
}
export const newConstEval = (bodyOf: (f: FuncSym) => Stmt | null): ConstEval => ({ bodyOf, env: null, depth: 0, steps: 0, member: null });
/**
 * How deep and how long we evaluate. EDG gives up past 512 nested calls (f(511) folds, f(512) is "expression must
 * have a constant value") or past a complexity budget we do not model, and then a constexpr variable is an error
 * while we would compile the call at run time: past our (lower) limits the unit goes to cicc.
 */
const MAX_CALL_DEPTH = 512;
const MAX_STEPS = 1_000_000;

/** Value of an integral/floating constant expression, or null if it is not constant. */
export function evalConst(e: Expr, cx: ConstEval): CVal | null {
  switch (e.k) {
    // __builtin_is_constant_evaluated(): true here, false in the code generated for it (its literal value)
    case 'int': return (e as { constEvaluated?: boolean }).constEvaluated ? 1n : e.v;
    case 'fp': return e.v;
    case 'var': {
      if (cx.env && cx.env.has(e.sym)) return cx.env.get(e.sym)!;
      return e.sym.constVal ?? null;
    }
    case 'call': return e.f && e.f.isConstexpr && !e.callee ? evalCall(e.f, e.args, cx) : null;
    case 'assign': case 'cassign': case 'incdec': return cx.env ? evalUpdate(e, cx) : null;
    case 'cast': {
      if (e.ck === 'load') return evalConst(e.e, cx);
      const v = evalConst(e.e, cx);
      if (v === null) return null;
      switch (e.ck) {
        case 'int': case 'noop': return typeof v === 'bigint' ? wrapInt(v, e.ty) : null;
        case 'tobool': return (typeof v === 'bigint' ? v !== 0n : v !== 0) ? 1n : 0n;
        case 'i2f': return typeof v === 'bigint' ? roundFP(Number(v), e.ty.k === 'float') : null;
        case 'f2i': return typeof v === 'number' && Number.isFinite(v) ? wrapInt(BigInt(Math.trunc(v)), e.ty) : null;
        case 'f2f': return typeof v === 'number' ? roundFP(v, e.ty.k === 'float') : null;
        // a discarded value (`(void)0`, what an assertion macro leaves in device code): evaluated, nothing kept
        case 'void': return evalConst(e.e, cx) === null ? null : 0n;
        default: return null;
      }
    }
    case 'unary': {
      const v = evalConst(e.e, cx);
      if (v === null) return null;
      if (typeof v === 'number') return e.op === '-' ? roundFP(-v, e.ty.k === 'float') : e.op === '+' ? v : e.op === '!' ? (v === 0 ? 1n : 0n) : null;
      if (e.op === '-') return wrapInt(-v, e.ty);
      if (e.op === '~') return wrapInt(~v, e.ty);
      if (e.op === '!') return v === 0n ? 1n : 0n;
      return v;
    }
    case 'bin': {
      if (e.op === '&&' || e.op === '||') {
        const a = evalConst(e.a, cx); if (a === null) return null;
        const at = typeof a === 'bigint' ? a !== 0n : a !== 0;
        if (e.op === '&&' && !at) return 0n;
        if (e.op === '||' && at) return 1n;
        const b = evalConst(e.b, cx); if (b === null) return null;
        return (typeof b === 'bigint' ? b !== 0n : b !== 0) ? 1n : 0n;
      }
      const a = evalConst(e.a, cx), b = evalConst(e.b, cx);
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
      const c = evalConst(e.c, cx); if (c === null) return null;
      return (typeof c === 'bigint' ? c !== 0n : c !== 0) ? evalConst(e.a, cx) : evalConst(e.b, cx);
    }
    case 'member': case 'deref': return cx.member ? cx.member(e) : null;
    case 'comma': { if (!cx.env) return null; if (evalConst(e.a, cx) === null) return null; return evalConst(e.b, cx); }
    default: return null;
  }
}

/** Assignment to a local of the constexpr call being evaluated. */
function evalUpdate(e: Expr, cx: ConstEval): CVal | null {
  const target = e.k === 'assign' || e.k === 'cassign' || e.k === 'incdec' ? (e.k === 'incdec' ? e.e : e.a) : null;
  if (!target || target.k !== 'var' || !cx.env!.has(target.sym)) return null;
  const old = cx.env!.get(target.sym)!;
  let nv: CVal | null;
  if (e.k === 'assign') nv = evalConst(e.b, cx);
  else if (e.k === 'incdec') {
    if (typeof old === 'bigint') nv = wrapInt(e.op === '++' ? old + 1n : old - 1n, target.ty);
    else nv = e.op === '++' ? old + 1 : old - 1;
    if (nv === null) return null;
    cx.env!.set(target.sym, nv);
    return e.prefix ? nv : old;
  } else if (e.k === 'cassign') {
    const b = evalConst(e.b, cx);
    if (b === null) return null;
    const at = e.opTy;
    const lhs: Expr = { k: 'int', v: 0n, ty: at, lv: false, pos: e.pos } as Expr;
    const fake = { k: 'bin', op: e.op, a: { ...lhs, ...(typeof old === 'bigint' ? { v: old } : { k: 'fp', v: old }) }, b: { ...lhs, ty: e.b.ty, ...(typeof b === 'bigint' ? { v: b } : { k: 'fp', v: b }) }, ty: at, lv: false, pos: e.pos } as Expr;
    const r = evalConst(fake, cx);
    if (r === null) return null;
    nv = typeof r === 'bigint' && isIntegral(target.ty) ? wrapInt(r, target.ty) : isFloating(target.ty) ? Number(r) : r;
  } else return null;
  if (nv === null) return null;
  if (typeof nv === 'bigint' && isIntegral(target.ty)) nv = wrapInt(nv, target.ty);
  cx.env!.set(target.sym, nv);
  return nv;
}

const BREAK = Symbol('break'), CONTINUE = Symbol('continue'), FAIL = Symbol('fail');
type Flow = undefined | typeof BREAK | typeof CONTINUE | typeof FAIL | { ret: CVal };

/** A call of a constexpr function with constant arguments, interpreted (scalars only; null when not constant). */
function evalCall(f: FuncSym, args: Expr[], cx: ConstEval): CVal | null {
  if (cx.depth >= MAX_CALL_DEPTH) throw new Unsupported(`constexpr evaluation nested deeper than ${MAX_CALL_DEPTH} calls`);
  const body = cx.bodyOf(f);
  if (!body || !f.params) return null;
  // parameters are values here: a function that may write through a reference parameter is not modelled
  if (f.params.some(p => p.ty.k === 'ref' && !(p.ty.to.q & Q.Const))) return null;
  const vals: CVal[] = [];
  for (const a of args) {
    // a constant bound to a `const T &` parameter (std::min(a, b)) is its temporary's value
    const v = evalConst(a.k === 'temp' && a.init.k === 'expr' ? a.init.e : a, cx);
    if (v === null) return null;
    vals.push(v);
  }
  if (vals.length !== f.params.length) return null;
  const saved = cx.env;
  const local: Env = new Map();
  f.params.forEach((p, i) => local.set(p, vals[i]!));
  cx.env = local; cx.depth++;
  if (cx.depth === 1) cx.steps = 0;
  try {
    const r = run(body, cx);
    return r && typeof r === 'object' ? r.ret : null;
  } finally { cx.env = saved; cx.depth--; }
}

function run(s: Stmt, cx: ConstEval): Flow {
  if (++cx.steps > MAX_STEPS) throw new Unsupported(`constexpr evaluation longer than ${MAX_STEPS} steps`);
  switch (s.k) {
    case 'null': return undefined;
    case 'block': for (const x of s.body) { const r = run(x, cx); if (r !== undefined) return r; } return undefined;
    case 'decl': {
      if (!s.init) { cx.env!.set(s.v, 0n); return undefined; }
      if (s.init.k !== 'expr') return FAIL;
      const v = evalConst(s.init.e, cx);
      if (v === null) return FAIL;
      cx.env!.set(s.v, v);
      return undefined;
    }
    case 'expr': return evalConst(s.e, cx) === null ? FAIL : undefined;
    case 'return': { if (!s.e) return FAIL; const v = evalConst(s.e, cx); return v === null ? FAIL : { ret: v }; }
    case 'if': {
      const c = evalConst(s.c, cx); if (c === null) return FAIL;
      if (truthy(c)) return run(s.t, cx);
      return s.e ? run(s.e, cx) : undefined;
    }
    case 'while': case 'for': case 'do': {
      if (s.k === 'for' && s.init) { const r = run(s.init, cx); if (r !== undefined) return r; }
      for (let first = true; ; first = false) {
        if (!(s.k === 'do' && first)) {
          const c = s.k === 'for' ? (s.c ? evalConst(s.c, cx) : 1n) : evalConst(s.c, cx);
          if (c === null) return FAIL;
          if (!truthy(c)) return undefined;
        }
        const r = run(s.body, cx);
        if (r === BREAK) return undefined;
        if (r !== undefined && r !== CONTINUE) return r;
        if (s.k === 'for' && s.inc && evalConst(s.inc, cx) === null) return FAIL;
        if (cx.steps > MAX_STEPS) throw new Unsupported(`constexpr evaluation longer than ${MAX_STEPS} steps`);
      }
    }
    case 'break': return BREAK;
    case 'continue': return CONTINUE;
    default: return FAIL;
  }
}
const truthy = (v: CVal): boolean => typeof v === 'bigint' ? v !== 0n : v !== 0;

function roundFP(v: number, f32: boolean): number { return f32 ? Math.fround(v) : v; }

export function evalInt(e: Expr, cx: ConstEval): bigint | null {
  const v = evalConst(e, cx);
  return typeof v === 'bigint' ? v : null;
}

export const constSizeOf = (e: Expr): number => sizeOfC(e.ty);
export const isFloatingConst = (e: Expr): boolean => isFloating(e.ty);

/**
 * A constant variable's value, when its initialiser is one we can evaluate. One whose initialiser calls a function we
 * could not evaluate (a constexpr function of a header) is marked: it may well be a constant (unevaluated()).
 */
export function noteConstInit(v: VarSym, e: Expr, cx: ConstEval): void {
  const cv = evalConst(e, cx);
  if (cv !== null) v.constVal = cv;
  else if (unevaluated(e)) (v as VarSym & { constUnknown?: boolean }).constUnknown = true;
}

/**
 * Whether the expression calls a function or constructor, or names a constant whose initialiser did (its operands,
 * not the functions it names): when such an expression is not a constant to us, it may still be one.
 */
export function unevaluated(e: Expr | Init | null | undefined): boolean {
  if (!e) return false;
  switch (e.k) {
    case 'call': case 'construct': case 'ctor': return true;
    case 'var': return (e.sym as VarSym & { constUnknown?: boolean }).constUnknown === true;
    case 'expr': return unevaluated(e.e);
    case 'list': return e.items.some(x => unevaluated(x.init));
    case 'zero': return false;
    default: {
      const x = e as Record<string, unknown>;
      for (const key of ['e', 'a', 'b', 'c', 'p', 'i', 'base', 'idx', 'place', 'count', 'init'] as const) {
        const v = x[key];
        if (v && typeof v === 'object' && 'k' in v && unevaluated(v as Expr)) return true;
      }
      return Array.isArray(x['items']) && (x['items'] as Init[]).some(unevaluated);
    }
  }
}
