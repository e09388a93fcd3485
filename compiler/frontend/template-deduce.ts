// Template argument deduction and matching: partial specialisation patterns against arguments, function
// template parameters against call arguments, partial ordering of function templates, and the arity of a
// template's parameter list. Pure functions over types (templates.ts instantiates with them).

import type { Expr, FuncSym } from './ast';
import { type CType, type RecordDecl, type TArg, C, Q, VAL_SENT, VAL_STEP, valParamIndex, packExpOf, unqual, withQ, sameType, refTo } from './ctype';
import { rval, isXvalue } from './sema';
import { tparamOf, flatArgs, dependent, sameTypeKey, sameArgsKey } from './template-facts';
import type { UnitApi } from './parser';
import { Unsupported } from '../diagnostics';

export interface TParam { kind: 'type' | 'val' | 'tmpl'; name: string; typeStart: number; defStart: number; pack?: boolean }

/** valParam's sentinel as a number (array bounds in patterns). */
const PARTIAL_SENT = Number(VAL_SENT), PARTIAL_STEP = Number(VAL_STEP);

/**
 * Match template argument patterns (placeholders, a trailing `P...` taking the remaining arguments) against
 * actual arguments, binding the placeholders in out.
 */
export function matchArgs(xs0: TArg[], ys0: TArg[], out: (TArg | undefined)[], strict: boolean): boolean {
  const xs = flatArgs(xs0), ys = flatArgs(ys0);
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k]!;
    if (x.k === 'val' && (x as { packExp?: boolean }).packExp) {
      // `Is...` of a pattern: the remaining arguments, all values, are the pack
      if (k !== xs.length - 1) throw new Unsupported('pack expansion not at the end of a template argument list');
      const pi = valParamIndex(x.v)!;
      const rest = ys.slice(k);
      if (rest.some(y => y.k !== 'val')) return false;
      const cur = out[pi];
      if (cur) return sameArgsKey([cur], [{ k: 'pack', args: rest }]);
      out[pi] = { k: 'pack', args: rest };
      return true;
    }
    const pe = x.k === 'type' ? packExpOf(x.ty) : undefined;
    if (pe) {
      if (k !== xs.length - 1) throw new Unsupported('pack expansion not at the end of a template argument list');
      const pi = placeholderIn(pe);
      if (pi === undefined) return false;
      const elems: TArg[] = [];
      for (const y of ys.slice(k)) {
        const one = out.slice(); one[pi] = undefined;
        if (y.k !== 'type' || !match(pe, y.ty, one, strict) || !one[pi]) return false;
        elems.push(one[pi]!);
      }
      const cur = out[pi];
      if (cur) return sameArgsKey([cur], [{ k: 'pack', args: elems }]);
      out[pi] = { k: 'pack', args: elems };
      return true;
    }
    const y = ys[k];
    if (!y) return false;
    if (x.k === 'type') { if (y.k !== 'type' || !match(x.ty, y.ty, out, strict)) return false; continue; }
    if (x.k !== 'val' || y.k !== 'val') return false;
    const i = valParamIndex(x.v);
    if (i !== undefined) {
      const cur = out[i];
      if (cur) { if (cur.k !== 'val' || cur.v !== y.v) return false; } else out[i] = y;
    } else if (strict && x.v !== y.v) return false;
  }
  return xs.length === ys.length;
}
/** A partial specialisation's argument patterns against arguments: its n parameters bound, or null. */
export function matchSpec(pats: TArg[], args: TArg[], n: number): (TArg | undefined)[] | null {
  const out: (TArg | undefined)[] = new Array(n).fill(undefined);
  return matchArgs(pats, args, out, true) ? out : null;
}
/** Explicit template arguments by parameter: expansions flattened, a parameter pack takes the rest. */
export function explicitFor(h: TParam[], explicit: TArg[]): (TArg | undefined)[] {
  const flat = explicit.flatMap(a => a.k === 'pack' ? a.args : [a]);
  return h.map((tp, i) => tp.pack ? (i < flat.length ? { k: 'pack', args: flat.slice(i) } : undefined) : flat[i]);
}
/** Which template parameter a pattern's placeholders name (the pack a `P...` parameter expands). */
export function placeholderIn(t: CType): number | undefined {
  const i = tparamOf(t);
  if (i !== undefined) return i;
  if (t.k === 'ptr' || t.k === 'ref') return placeholderIn(t.to);
  if (t.k === 'array') return placeholderIn(t.elem);
  return undefined;
}
/**
 * Template arguments of a call: explicit ones, then deduced from each argument; a trailing function
 * parameter pack `P... args` deduces one element of its template parameter pack per remaining argument.
 */
export function deduceAll(h: TParam[], pat: { params: CType[]; nparams: number; variadic: boolean; defaults: number }, explicit: TArg[], args: Expr[]): (TArg | undefined)[] | null {
  const last = pat.params[pat.params.length - 1];
  const packP = last ? packExpOf(last) : undefined;
  const fixed = packP ? pat.nparams - 1 : pat.nparams;
  if (args.length > fixed && !pat.variadic && !packP) return null;
  if (args.length < fixed - pat.defaults) return null;
  if (pat.params.slice(0, fixed).some(p => packExpOf(p))) throw new Unsupported('function parameter pack not at the end');
  const given = explicitFor(h, explicit);
  const fromExplicit = given.map(a => a !== undefined);
  for (let i = 0; i < args.length && i < fixed; i++) {
    // a parameter of an explicitly given type (`f<long long>(x, 3)`) deduces nothing: the argument converts
    const k = placeholderIn(pat.params[i]!);
    if (k !== undefined && fromExplicit[k] && !packExpOf(pat.params[i]!)) continue;
    if (!deduce(pat.params[i]!, args[i]!, given, true)) return null;
  }
  if (packP) {
    const k = placeholderIn(packP);
    if (k === undefined || !h[k]?.pack) throw new Unsupported('function parameter pack of a pattern we cannot read');
    if (given[k]) return given;   // given explicitly
    const elems: TArg[] = [];
    for (let i = fixed; i < args.length; i++) {
      const one = given.slice();
      one[k] = undefined;
      if (!deduce(packP, args[i]!, one, true) || !one[k]) return null;
      elems.push(one[k]!);
    }
    given[k] = { k: 'pack', args: elems };
  }
  return given;
}
/** Deduce template arguments from one call argument (C++ [temp.deduct.call], the common cases). */
export function deduce(P: CType, arg: Expr, out: (TArg | undefined)[], top: boolean): boolean {
  let A: CType;
  if (P.k === 'ref') {
    if (P.rv && tparamOf(P.to) !== undefined && P.to.q === 0 && arg.lv && !isXvalue(arg)) return bind(tparamOf(P.to)!, refTo(arg.ty), out);   // forwarding reference
    P = P.to;
    A = arg.ty;
  } else {
    A = unqual(rval(arg).ty);
  }
  void top;
  return match(P, A, out);
}
export function match(P: CType, A: CType, out: (TArg | undefined)[], strict = false): boolean {
  const i = tparamOf(P);
  if (i !== undefined) {
    // a partial specialisation's `const T` matches only a const type
    if (strict && (P.q & ~A.q & (Q.Const | Q.Volatile))) return false;
    // cv on the parameter is removed from the deduced type
    const t = withQ(unqual(A), A.q & ~P.q);
    return bind(i, A.k === 'int' || A.q === 0 ? t : t, out);
  }
  if (!dependent(P)) return strict ? sameType(P, A) : true;
  if (strict && ((P.q ^ A.q) & (Q.Const | Q.Volatile))) return false;
  if (P.k === 'array' && A.k === 'array' && P.n !== null && P.n >= PARTIAL_SENT && A.n !== null) {
    // `T[N]` in a partial specialisation: N is deduced from the bound
    const i = (P.n - PARTIAL_SENT) / PARTIAL_STEP, cur = out[i];
    if (cur) { if (cur.k !== 'val' || cur.v !== BigInt(A.n)) return false; } else out[i] = { k: 'val', ty: C.int, v: BigInt(A.n) };
    return match(P.elem, A.elem, out, strict);
  }
  if (strict && P.k === 'array' && A.k === 'array' && P.n !== A.n) return false;
  if (strict && P.k === 'ref' && A.k === 'ref' && !!P.rv !== !!A.rv) return false;
  if (P.k === 'ptr' && A.k === 'ptr') return match(P.to, A.to, out, strict);
  if (P.k === 'ref' && A.k === 'ref') return match(P.to, A.to, out, strict);
  if (P.k === 'array' && A.k === 'array') return match(P.elem, A.elem, out, strict);
  if (P.k === 'record' && A.k === 'record') {
    const pt = (P.rec as RecordDecl & { tmpl?: number }).tmpl, at = (A.rec as RecordDecl & { tmpl?: number }).tmpl;
    if (!strict && pt !== undefined && pt !== at) {
      // deduction from a base class of the argument (`f(const Shape<D> &)` called with a class derived from Shape<X>)
      for (const b of A.rec.bases ?? []) { const o = out.slice(); if (match(P, { k: 'record', rec: b.rec, q: A.q }, o, false)) { o.forEach((x, i) => { out[i] = x; }); return true; } }
      return false;
    }
    if (pt === undefined || pt !== at || !P.rec.targs || !A.rec.targs) return false;
    if (P.rec.targs.some(a => a.k === 'pack') || A.rec.targs.some(a => a.k === 'pack')) return matchArgs(P.rec.targs, A.rec.targs, out, strict);
    return P.rec.targs.every((x, k) => {
      const y = A.rec.targs![k];
      if (!y) return false;
      if (x.k === 'type' && y.k === 'type') return match(x.ty, y.ty, out, strict);
      if (x.k === 'val' && y.k === 'val' && valParamIndex(x.v) !== undefined) {
        // a non-type parameter deduced from a class template argument (`Array<T, N>`)
        const i = valParamIndex(x.v)!, cur = out[i];
        if (cur) return cur.k === 'val' && cur.v === y.v;
        out[i] = y;
        return true;
      }
      return x.k === y.k && (!strict || (x.k === 'val' && y.k === 'val' && x.v === y.v));
    });
  }
  return false;
}
/**
 * How many arguments the declaration in tokens [from, end) named `name` takes, read from its tokens alone (for a
 * signature we cannot read otherwise), or null when its parameter list cannot be found. The list is the '(' after
 * the name, outside the template header's and the specifiers' brackets (`decltype(...)`, `enable_if_t<...>`).
 */
export function arityOf(u: UnitApi, name: string, from: number, end: number): { min: number; max: number; initLists: number[] } | null {
  let angle = 0, open = -1;
  for (let j = from; j < end && open < 0; j++) {
    const t = u.text(j);
    if (t === '<') angle++;
    else if (t === '>' || t === '>>') angle = Math.max(0, angle - t.length);
    else if (t === '(' || t === '[') {
      if (t === '(' && angle === 0 && u.text(j - 1) === name) { open = j; break; }
      let d = 0;
      for (; j < end; j++) { const x = u.text(j); if (x === '(' || x === '[') d++; else if (x === ')' || x === ']') { d--; if (d === 0) break; } }
    } else if (angle === 0 && (t === '{' || t === ';')) return null;
  }
  if (open < 0) return null;
  // parameters of type initializer_list<E>: deduced from a braced list or such an object only
  const initLists: number[] = [];
  let depth = 0, params = 0, defaults = 0, unbounded = false, sawToken = false, defaulted = false;
  for (let j = open + 1; j < end; j++) {
    const t = u.text(j);
    if (depth === 0 && (t === ')' || t === ',')) {
      if (sawToken) { params++; if (defaulted) defaults++; }
      sawToken = false; defaulted = false;
      if (t === ')') {
        if (params === 1 && u.text(open + 1) === 'void' && u.text(open + 2) === ')') params = 0;
        return { min: params - defaults, max: unbounded ? Infinity : params, initLists };
      }
      continue;
    }
    sawToken = true;
    if (t === 'initializer_list' && depth === 0 && !defaulted && !initLists.includes(params)) initLists.push(params);
    if (t === '(' || t === '[' || t === '{' || t === '<') depth++;
    else if (t === ')' || t === ']' || t === '}' || t === '>') depth--;
    else if (t === '>>') depth -= 2;
    else if (t === '...') unbounded = true;
    else if (t === '=' && depth === 0) defaulted = true;
    if (depth < 0) return null;
  }
  return null;
}

/**
 * Partial ordering of two function template specialisations that tie on conversions ([temp.func.order]):
 * a is more specialised when b's declared parameters deduce from a's (a's parameters as unique types) and
 * not the reverse. False when either has no declared pattern or the patterns differ in length.
 */
export function moreSpecialized(a: FuncSym, b: FuncSym): boolean {
  const pa = (a as FuncSym & { tsig?: CType[] }).tsig, pb = (b as FuncSym & { tsig?: CType[] }).tsig;
  if (!pa || !pb || pa.length !== pb.length || !a.targs || !b.targs) return false;
  const deducesFrom = (P: CType[], A: CType[], n: number): boolean => {
    const out: (TArg | undefined)[] = new Array(n).fill(undefined);
    return P.every((x, i) => match(x.k === 'ref' ? x.to : x, A[i]!.k === 'ref' ? (A[i] as CType & { k: 'ref' }).to : A[i]!, out, true));
  };
  return deducesFrom(pb, pa, flatArgs(b.targs).length + 1) && !deducesFrom(pa, pb, flatArgs(a.targs).length + 1);
}
function bind(i: number, t: CType, out: (TArg | undefined)[]): boolean {
  const cur = out[i];
  // (placeholders of another pattern, as in partial ordering, are the same only with the same index)
  if (cur) return cur.k === 'type' && sameType(cur.ty, t) && (tparamOf(cur.ty) === undefined && tparamOf(t) === undefined ? true : sameTypeKey(cur.ty, t));
  out[i] = { k: 'type', ty: t };
  return true;
}