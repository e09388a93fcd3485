// Templates: parsing template headers, binding arguments, deducing them from call arguments, and
// instantiating function and class templates on demand (only what device code reaches).

import { Unsupported } from '../diagnostics';
import { DeclFlag } from './index-types';
import type { Expr, FuncSym, Sym, VarSym } from './ast';
import { type CType, type RecordDecl, type MemberTmpl, type TArg, C, AUTO, DECLTYPE_AUTO, valParam, valParamIndex, packType, unqual, isArith, isFloating } from './ctype';
import { Parser, SyntaxAbort, sameSignature, valPackSym } from './parser';
import { rval, wrapInt, mk, implicitConvert } from './sema';
import { evalConst } from './consteval';
import { isEmptyClass } from './traits';
import { tparamOf, tmplRecOf, flatArgs, dependentArgs, targsKey, recId, type MemberClassTmpl } from './template-facts';
export { tparamOf, tmplRecOf, dependent, newRecIds, targsKey, type RecIds, type MemberClassTmpl } from './template-facts';
import type { UnitApi } from './parser';

import { type TParam, matchSpec, explicitFor, deduceAll, match, arityOf, moreSpecialized } from './template-deduce';
export type { TParam } from './template-deduce';
export { arityOf, moreSpecialized } from './template-deduce';

export function placeholder(i: number, name: string): CType { return { k: 'error', q: 0, tparam: i, tname: name } as CType; }

const splitScope = (scope: string): string[] => scope ? scope.split('::').filter(s => s) : [];

/** Parse `template < ... >` at the parser's cursor (leaves it after the '>'). */
export function parseTemplateHeader(p: Parser): TParam[] {
  p.eat('__extension__');   // `__extension__ template<> struct __is_integral_helper<__int128>` (libstdc++ in gnu++ modes)
  p.expect('template');
  p.expect('<');
  const out: TParam[] = [];
  while (!p.at('>')) {
    if (p.at('template')) {
      // `template <class> class TT [= ns::Default]`: its own parameter list is not read (only class templates bind to it)
      p.p++;
      if (!p.at('<')) throw new Unsupported('template template parameter');
      let depth = 0;
      do { if (p.at('<')) depth++; else if (p.at('>')) depth--; else if (p.at('>>')) depth -= 2; else if (p.at('(')) { p.skipBalanced(); continue; } p.p++; } while (depth > 0 && p.kind() !== 0);
      if (depth < 0 || !(p.eat('class') || p.eat('typename'))) throw new Unsupported('template template parameter');
      if (p.at('...')) throw new Unsupported('template template parameter pack');
      let name = '';
      if (p.isIdent()) { name = p.tx(); p.p++; }
      let defStart = -1;
      if (p.eat('=')) { defStart = p.p; if (skipArg(p)) { out.push({ kind: 'tmpl', name, typeStart: -1, defStart }); p.p++; return out; } }
      out.push({ kind: 'tmpl', name, typeStart: -1, defStart });
      if (!p.eat(',')) break;
      continue;
    }
    // `typename X<...>::type = 0` and `typename T::type N` are non-type parameters of a dependent type
    if ((p.at('typename') || p.at('class')) && (p.isIdent(1) || p.at(',', 1) || p.at('>', 1) || p.at('=', 1) || p.at('...', 1))
      && !(p.at('typename') && p.isIdent(1) && (p.at('<', 2) || p.at('::', 2)))) {
      p.p++;
      const pack = p.eat('...');
      let name = '';
      if (p.isIdent()) { name = p.tx(); p.p++; }
      let defStart = -1;
      if (p.eat('=')) { defStart = p.p; if (skipArg(p)) { out.push({ kind: 'type', name, typeStart: -1, defStart, pack }); p.p++; return out; } }
      out.push({ kind: 'type', name, typeStart: -1, defStart, pack });
    } else {
      const typeStart = p.p;
      // a non-type parameter: its type is parsed at binding time (it may use earlier parameters)
      let depth = 0;
      let name = '';
      let pack = false;
      while (p.kind() !== 0) {
        if (depth === 0 && (p.at(',') || p.at('>') || p.at('='))) break;
        if (p.at('(') || p.at('[')) { p.skipBalanced(); continue; }
        if (p.at('<')) depth++;
        if (p.at('>')) depth--;   // and a '>>' closes two lists of the type (`en_t<X<T>>, int> = 0`), or the type and the header (`en_t<..., int>>`)
        if (p.at('>>')) { if (depth === 1) { out.push(pack ? { kind: 'val', name, typeStart, defStart: -1, pack } : { kind: 'val', name, typeStart, defStart: -1 }); p.p++; return out; } depth -= 2; }
        if (p.at('...')) {
          // `int... Is`: a non-type parameter pack (of a plain type: its declarator is not read)
          if (depth !== 0 || pack) throw new Unsupported('variadic template (non-type parameter pack)');
          pack = true;
        }
        // the parameter's name: an identifier outside any angle brackets that ends the declarator, after some
        // type (`int N`, `size_t N`); `is_int_t<T> = 0` and `size_t` alone have none
        if (depth === 0 && p.isIdent() && p.p > typeStart && !p.at('::', -1) && (p.at(',', 1) || p.at('>', 1) || p.at('=', 1) || p.at('>>', 1))) name = p.tx();
        p.p++;
      }
      let defStart = -1;
      if (p.eat('=')) { defStart = p.p; if (skipArg(p)) { out.push({ kind: 'val', name, typeStart, defStart }); p.p++; return out; } }
      out.push(pack ? { kind: 'val', name, typeStart, defStart, pack } : { kind: 'val', name, typeStart, defStart });
    }
    if (!p.eat(',')) break;
  }
  p.expect('>');
  return out;
}
/**
 * Skip one template argument (default), up to the ',' or '>' that ends it. True when it ends inside a `>>`
 * whose second half closes the template parameter list (`typename R = X<T>>`): the cursor is at that `>>`.
 */
function skipArg(p: Parser): boolean {
  let depth = 0;
  while (p.kind() !== 0) {
    if (depth === 0 && (p.at(',') || p.at('>'))) return false;
    if (p.at('(') || p.at('[') || p.at('{')) { p.skipBalanced(); continue; }
    if (p.at('<')) depth++;
    if (p.at('>')) depth--;
    if (p.at('>>')) { if (depth <= 1) return depth === 1; depth -= 2; }
    p.p++;
  }
  return false;
}

/** A template template argument's type for the class template di (one per template, so keys compare). */
export function tmplRefType(u: UnitApi, di: number): CType {
  const cache = ((u as UnitApi & { tmplRefs?: Map<number, CType> }).tmplRefs ??= new Map());
  let t = cache.get(di);
  if (!t) {
    const d = u.index.decls[di]!;
    const rec = u.newRecord('struct', d.name, splitScope(d.scope), []);
    t = { k: 'error', q: 0, tmplRec: rec, tmplDecl: di } as CType;
    cache.set(di, t);
  }
  return t;
}
/** The class template a template template argument names. */
export const tmplDeclOf = (t: CType): number | undefined => (t as { tmplDecl?: number }).tmplDecl;
/** A template parameter as a placeholder of a pattern (a value parameter reads as a sentinel far from ordinary values). */
function patternSym(tp: TParam, i: number): Sym {
  if (tp.kind === 'type') return { kind: 'type', name: tp.name, ty: placeholder(i, tp.name) };
  if (tp.pack) return { kind: 'enumconst', name: tp.name, ty: C.int, value: valParam(i), valPackParam: i } as Sym;
  return { kind: 'enumconst', name: tp.name, ty: C.int, value: valParam(i) };
}

/** Bind template arguments (explicit/deduced, then defaults) to the parameters: the scope a template's tokens are parsed in. */
export function bindArgs(p: Parser, params: TParam[], given: (TArg | undefined)[]): { scope: Map<string, Sym>; args: TArg[] } | null {
  const scope = new Map<string, Sym>();
  const args: TArg[] = [];
  const saved = p.tscope;
  // a default argument sees the parameters before it and the enclosing class template's (a member template's
  // `template <class D = _Dp>` in libstdc++'s unique_ptr)
  const view = new Map<string, Sym>(saved ?? []);
  const bind = (name: string, sym: Sym): void => { scope.set(name, sym); view.set(name, sym); };
  p.tscope = view;
  try {
    for (let i = 0; i < params.length; i++) {
      const tp = params[i]!;
      let a = given[i];
      if (tp.pack && tp.kind === 'val') {
        a ??= { k: 'pack', args: [] };
        if (a.k !== 'pack' || a.args.some(x => x.k !== 'val')) return null;
        const save = p.p; p.p = tp.typeStart;
        const ty = unqual(p.parseDeclSpecs().ty ?? C.int);
        p.p = save;
        // a pattern's `Is...` stays itself (with its expansion mark)
        const vals = (a.args as { v: bigint }[]).map(x => (valParamIndex(x.v) !== undefined ? x as TArg : { k: 'val' as const, ty, v: wrapInt(x.v, ty) }));
        args.push({ k: 'pack', args: vals });
        // bound to a pattern's whole pack (`index_sequence<Is...>` read for deduction: the alias's `_Ip...` is `Is...`)
        const whole = vals.length === 1 && (vals[0] as { packExp?: boolean }).packExp ? valParamIndex((vals[0] as { v: bigint }).v) : undefined;
        if (tp.name && whole !== undefined) bind(tp.name, { kind: 'enumconst', name: tp.name, ty, value: valParam(whole), valPackParam: whole } as Sym);
        else if (tp.name) bind(tp.name, valPackSym(tp.name, ty, vals.map(x => (x as { v: bigint }).v)));
        continue;
      }
      if (tp.pack) {
        // a trailing pack nothing was deduced for is empty
        a ??= { k: 'pack', args: [] };
        if (a.k !== 'pack' || a.args.some(x => x.k !== 'type')) return null;
        args.push(a);
        if (tp.name) bind(tp.name, { kind: 'type', name: tp.name, ty: packType(a.args.map(x => (x as { ty: CType }).ty)) });
        continue;
      }
      if (tp.kind === 'tmpl') {
        // a class template named as an argument (or the default's name)
        if (!a && tp.defStart >= 0) { const save = p.p; p.p = tp.defStart; const t = p.templateNameArg(); p.p = save; p.resetHalfGt(); if (t) a = { k: 'type', ty: t }; }
        if (!a || a.k !== 'type' || !tmplRecOf(a.ty)) return null;
        args.push(a);
        if (tp.name) bind(tp.name, { kind: 'type', name: tp.name, ty: a.ty });
        continue;
      }
      let valTy: CType = C.int;
      if (tp.kind === 'val') {
        const save = p.p; p.p = tp.typeStart;
        const ds = p.parseDeclSpecs();
        const d = p.parseDeclarator(ds.ty ?? C.int, true);
        valTy = unqual(d.ty);
        p.p = save;
      }
      if (!a && tp.defStart >= 0) {
        const save = p.p; p.p = tp.defStart;
        a = tp.kind === 'type' ? { k: 'type', ty: p.parseTypeName() } : { k: 'val', ty: valTy, v: p.constInt(p.parseBinary(8)) };
        p.p = save; p.resetHalfGt();   // a default ending in the header's `>>`
      }
      if (!a) return null;
      if (tp.kind === 'type' && a.k !== 'type') return null;
      if (tp.kind === 'val') {
        if (a.k !== 'val') return null;
        a = { k: 'val', ty: valTy, v: valParamIndex(a.v) !== undefined ? a.v : wrapInt(a.v, valTy) };   // a pattern's parameter stays itself
      }
      args.push(a);
      if (tp.name) bind(tp.name, a.k === 'type' ? { kind: 'type', name: tp.name, ty: a.ty } : { kind: 'enumconst', name: tp.name, ty: (a as { ty: CType }).ty, value: (a as { v: bigint }).v });
    }
  } finally { p.tscope = saved; }
  return { scope, args };
}

/** A type with a part we could not read (a dependent name or decltype: `error` with `dep`), other than a placeholder. */
function unknownPart(t: CType): boolean {
  if (t.k === 'error') return tparamOf(t) === undefined;
  if (t.k === 'ptr' || t.k === 'ref') return unknownPart(t.to);
  if (t.k === 'array') return unknownPart(t.elem);
  if (t.k === 'func') return unknownPart(t.ret) || t.params.some(unknownPart);
  if (t.k === 'record') return flatArgs(t.rec.targs ?? []).some(a => a.k === 'type' && unknownPart(a.ty));
  return false;
}

/** The template machinery of one unit: caches of headers, patterns and instantiations. */
export const MAX_INSTANTIATION_DEPTH = 180;

export class Templates {
  private headers = new Map<number, TParam[]>();
  private patterns = new Map<number, { params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } | null>();
  private funcs = new Map<string, FuncSym>();
  private classes = new Map<string, RecordDecl>();
  /** Class and variable template instantiations in progress, nested (bounded by MAX_INSTANTIATION_DEPTH). */
  private depth = 0;
  constructor(private u: UnitApi) {}

  private parserAt(di: number): Parser {
    const d = this.u.index.decls[di]!;
    return new Parser(this.u, d.first, d.last + 1, splitScope(d.scope));
  }
  header(di: number): TParam[] {
    let h = this.headers.get(di);
    if (!h) {
      const p = this.parserAt(di); h = parseTemplateHeader(p); this.headers.set(di, h);
      // default arguments given on another declaration of the class template (`template <class T = void> class C;`)
      if (h.some(tp => tp.defStart < 0 && !tp.pack)) {
        for (const oi of this.primaryDecls(di)) {
          if (oi === di) continue;
          const o = parseTemplateHeader(this.parserAt(oi));
          if (o.length !== h.length) continue;
          h = h.map((tp, i) => (tp.defStart < 0 && o[i]!.defStart >= 0 && o[i]!.kind === tp.kind ? { ...tp, defStart: o[i]!.defStart } : tp));
        }
        this.headers.set(di, h);
      }
    }
    return h;
  }
  /** The declarations of the primary class template that entry di declares (forward declarations and the definition). */
  private primaryDecls(di: number): number[] {
    const d = this.u.index.decls[di]!;
    if (d.kind !== 'record' || this.u.isSpecialization(di)) return [di];
    return (this.u.index.byName.get(d.name) ?? []).filter(ei => {
      const e = this.u.index.decls[ei]!;
      return e.kind === 'record' && (e.flags & DeclFlag.Template) !== 0 && e.scope === d.scope && !this.u.isSpecialization(ei)
        && this.u.text(e.first + 2) !== '>';
    });
  }
  /** The template template argument naming class template di. */
  tmplRef(di: number): CType { return tmplRefType(this.u, di); }
  /** The parser reaches these through the unit (it imports no template code): see the free functions below. */
  arityOf(name: string, from: number, end: number): ReturnType<typeof arityOf> { return arityOf(this.u, name, from, end); }
  instantiateMemberAlias(mat: MemberClassTmpl, given: TArg[]): CType { return instantiateMemberAlias(this.u, mat, given); }
  instantiateMemberClass(mct: MemberClassTmpl, given: TArg[]): RecordDecl { return instantiateMemberClass(this.u, mct, given); }
  /** Is the entry an explicit specialisation (`template<>`)? */
  isExplicitSpec(di: number): boolean { return this.header(di).length === 0; }

  /** The declared signature of a function template with its parameters as placeholders. */
  pattern(di: number): { params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } | null {
    if (this.patterns.has(di)) return this.patterns.get(di)!;
    const p = this.parserAt(di);
    const h = parseTemplateHeader(p);
    const scope = new Map<string, Sym>();
    h.forEach((tp, i) => { if (tp.name) scope.set(tp.name, patternSym(tp, i)); });
    p.tscope = scope;
    let r: { params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } | null = null;
    const before = this.u.diags.length, errs = this.u.errorCount;
    try {
      const ds = p.parseDeclSpecs();
      if (!ds.ty && ds.auto) ds.ty = (ds as { dcauto?: boolean }).dcauto ? DECLTYPE_AUTO : AUTO;   // `auto f(...)`: the declared return type mangles as Da (Dc)
      if (ds.ty) {
        const d = p.parseDeclarator(ds.ty, false);
        if (d.ty.k === 'func') r = { params: [...d.ty.params], ret: d.ty.ret, nparams: d.ty.params.length, variadic: d.ty.variadic, defaults: d.defaults.filter(x => x !== null).length };
      }
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
    }
    if (!r) r = this.patternWithoutReturnType(di, scope);
    this.u.diags.length = before; this.u.errorCount = errs;
    this.patterns.set(di, r);
    return r;
  }
  /**
   * A declared return type we cannot express while the parameters are unknown (`typename EnableIf<C<T>::value,
   * int>::type`): the parameters alone serve deduction; such a specialisation mangles with its actual return type.
   */
  private patternWithoutReturnType(di: number, scope: Map<string, Sym>): { params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } | null {
    const d = this.u.index.decls[di]!;
    const p = this.parserAt(di);
    parseTemplateHeader(p);
    p.tscope = scope;
    // the declarator starts at the function's name: the identifier before the parameter list's '('
    let depth = 0, at = -1;
    for (let j = p.p; j <= d.last; j++) {
      const t = this.u.text(j);
      if (t === '__attribute__' || t === '__declspec') { let k = 0; do { j++; const x = this.u.text(j); if (x === '(') k++; else if (x === ')') k--; } while (k > 0 && j < d.last); continue; }
      if (t === '<') depth++;
      else if (t === '>') depth--;
      else if (t === '>>') depth -= 2;
      else if (t === '(' && depth <= 0 && this.u.text(j - 1) === d.name) { at = j - 1; break; }
      // sizeof(T) in an argument, a `decltype(f(declval<T>()))` return type
      else if (t === '(' && (depth > 0 || /^(__)?decltype$/.test(this.u.text(j - 1)))) { let k = 0; do { const x = this.u.text(j); if (x === '(') k++; else if (x === ')') k--; j++; } while (k > 0 && j <= d.last); j--; }
      else if (t === '(' || t === '{' || t === ';') break;
    }
    if (at < 0) return null;
    // a trailing return type (`-> decltype(g.num_threads())`) is not read: the declarator ends before its `->`
    let end = d.last + 1, depth2 = 0;
    for (let j = at + 1; j <= d.last; j++) {
      const t = this.u.text(j);
      if (t === '(' || t === '[') depth2++;
      else if (t === ')' || t === ']') depth2--;
      else if (depth2 === 0 && (t === '{' || t === ';')) break;
      else if (depth2 === 0 && t === '->') { end = j; break; }
    }
    if (end <= d.last) { const q = new Parser(this.u, d.first, end, splitScope(d.scope)); q.tscope = scope; q.p = at; return this.readDeclaratorPattern(q); }
    p.p = at;
    return this.readDeclaratorPattern(p);
  }
  private readDeclaratorPattern(p: Parser): { params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } | null {
    try {
      const decl = p.parseDeclarator(C.int, false);
      if (decl.ty.k !== 'func') return null;
      return { params: [...decl.ty.params], ret: NO_RET, nparams: decl.ty.params.length, variadic: decl.ty.variadic, defaults: decl.defaults.filter(x => x !== null).length };
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      return null;
    }
  }

  /** Candidates from the function template `di` for a call with these arguments (explicit args first), or null. */
  deduceAndInstantiate(di: number, explicit: TArg[], args: Expr[]): FuncSym | null {
    const h = this.header(di);
    if (flatArgs(explicit).length > h.length && !h.some(tp => tp.pack)) return null;   // `f<A, Rest...>` with Rest empty names one argument
    const pat = this.pattern(di);
    // every parameter given explicitly (`cuda::std::forward<T>(x)`): nothing to deduce, the specialisation's own
    // signature decides viability (a dependent `remove_reference_t<T> &` pattern need not be read)
    if (!pat && explicit.length === h.length && !h.some(tp => tp.pack) && !explicit.some(a => a.k === 'pack')) return this.instantiateExplicit(di, explicit);
    if (!pat) throw new Unsupported(`function template ${this.u.index.decls[di]!.name} with a signature we cannot read`);
    const given = deduceAll(h, pat, explicit, args);
    if (!given) return null;
    const p = this.parserAt(di);
    parseTemplateHeader(p);
    const b = bindArgs(p, h, given);
    if (!b) return null;
    return this.instantiateFunction(di, b.args);
  }

  /** A specialisation named with explicit arguments (defaults fill the rest), e.g. a kernel launched as k<float,4>. */
  instantiateExplicit(di: number, explicit: TArg[]): FuncSym | null {
    const h = this.header(di);
    if (flatArgs(explicit).length > h.length && !h.some(tp => tp.pack)) return null;   // `f<A, Rest...>` with Rest empty names one argument
    const p = this.parserAt(di);
    parseTemplateHeader(p);
    const b = bindArgs(p, h, explicitFor(h, explicit));
    return b ? this.instantiateFunction(di, b.args) : null;
  }
  instantiateFunction(di: number, args: TArg[]): FuncSym {
    const key = `${di}|${targsKey(this.u.recIds, args)}`;
    const got = this.funcs.get(key);
    if (got) return got;
    const d = this.u.index.decls[di]!;
    this.countInstance(`f${di}`, d.name);
    const p = this.parserAt(di);
    const h = parseTemplateHeader(p);
    const b = bindArgs(p, h, args);
    if (!b) throw new Unsupported(`template arguments of ${d.name}`);
    const anon = (d.flags & DeclFlag.InAnonNamespace) !== 0 || d.scope.includes('(anonymous)');
    // an explicit specialisation (`template <> int f<float>() {...}`) for these arguments replaces the primary's body
    const spec = this.explicitFuncSpecFor(di, b.args);
    let syms: Sym[];
    if (spec !== undefined) {
      const q = this.parserAt(spec);
      parseTemplateHeader(q);
      q.instantiating = true;
      syms = q.parseTopDecl(anon);
    } else {
      p.tscope = b.scope;
      p.instantiating = true;
      syms = p.parseTopDecl(anon);
    }
    const f = syms.find((s): s is FuncSym => s.kind === 'func');
    if (!f) throw new Unsupported(`instantiation of ${d.name}`);
    f.targs = b.args;
    f.tscope = b.scope;
    if (f.bodyStart < 0 && spec === undefined) {
      // declared (with the default arguments) before it is defined (without them): the definition's specialisation
      // for the same arguments, which a call could not deduce by itself
      for (const def of this.definitionsOf(di, h.length)) {
        const dl = this.u.diags.length, ec = this.u.errorCount;
        let g: FuncSym | null = null;
        try { g = this.instantiateFunction(def, b.args); } catch (e) { if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e; }
        if (this.u.errorCount > ec) g = null;
        this.u.diags.length = dl; this.u.errorCount = ec;
        if (g && g.bodyStart >= 0 && sameSignature(f, g)) { this.funcs.set(key, g); return g; }
      }
    }
    const pat = this.pattern(di);
    if (pat) {
      (f as FuncSym & { tsig?: CType[]; tret?: CType; tparamTys?: CType[] }).tsig = pat.params;
      if (pat.ret !== NO_RET) (f as FuncSym & { tret?: CType }).tret = pat.ret;
    }
    f.instDepth = (this.u.parsingBody?.instDepth ?? 0) + 1;   // one below the body that asked for it (unit.ts parseBody)
    this.funcs.set(key, f);
    return f;
  }

  /** The other declarations of function template di's name with a body and as many template parameters. */
  private definitionsOf(di: number, nparams: number): number[] {
    const d = this.u.index.decls[di]!;
    return (this.u.index.byName.get(d.name) ?? []).filter(k => {
      const o = this.u.index.decls[k]!;
      return k !== di && o.kind === 'function' && o.scope === d.scope && o.bodyStart >= 0 && (o.flags & DeclFlag.Template) !== 0
        && !(o.flags & DeclFlag.ExplicitInst) && this.header(k).length === nparams;
    });
  }

  private memberPatterns = new Map<MemberTmpl, { h: TParam[]; params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number }>();
  /** A member function template's header and declared signature (its own parameters as placeholders, the class's bound). */
  private memberPattern(mt: MemberTmpl): { h: TParam[]; params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } {
    const got = this.memberPatterns.get(mt);
    if (got) return got;
    const p = new Parser(this.u, mt.start, mt.end, mt.rec.scope);
    p.cls = mt.rec;
    const outer = (mt.tscope ?? new Map()) as Map<string, Sym>;
    p.tscope = outer;
    const h = parseTemplateHeader(p);
    const scope = new Map<string, Sym>(outer);
    h.forEach((tp, i) => { if (tp.name) scope.set(tp.name, patternSym(tp, i)); });
    p.tscope = scope;
    const before = this.u.diags.length, errs = this.u.errorCount;
    let r: { h: TParam[]; params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } | null = null;
    try {
      p.recordStack.push(mt.rec);
      if (mt.name === mt.rec.name) {
        // a constructor template: specifiers, the class name, the parameters
        while (p.kind() !== 0 && !(p.at(mt.name) && p.at('(', 1))) { if (p.at('(')) p.skipBalanced(); else p.p++; }
        p.p++;
        const ps = p.parseParams();
        r = { h, params: [...ps.params], ret: C.void, nparams: ps.params.length, variadic: ps.variadic, defaults: ps.defaults.filter(x => x !== null).length };
      }
      const at = p.p;
      try {
        const ds = r ? null : p.parseDeclSpecs();
        if (ds && !ds.ty && ds.auto) ds.ty = (ds as { dcauto?: boolean }).dcauto ? DECLTYPE_AUTO : AUTO;
        if (ds && ds.ty) {
          const d = p.parseDeclarator(ds.ty, false);
          if (d.ty.k === 'func') r = { h, params: [...d.ty.params], ret: d.ty.ret, nparams: d.ty.params.length, variadic: d.ty.variadic, defaults: d.defaults.filter(x => x !== null).length };
        }
      } catch (e) {
        if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
        // a return type we cannot express while the parameters are unknown (`remove_qual<T>`, or a trailing
        // `-> decltype(op(val, val))` naming the parameters): the parameters alone serve deduction, like a
        // function template's (patternWithoutReturnType); the specialisation has its own return type
        r = this.memberPatternWithoutReturnType(mt, h, scope, at);
        if (!r) throw e;
      }
    } finally { this.u.diags.length = before; this.u.errorCount = errs; }
    if (!r) throw new Unsupported(`member template ${mt.rec.name}::${mt.name} with a signature we cannot read`);
    this.memberPatterns.set(mt, r);
    return r;
  }
  private memberPatternWithoutReturnType(mt: MemberTmpl, h: TParam[], scope: Map<string, Sym>, from: number): { h: TParam[]; params: CType[]; ret: CType; nparams: number; variadic: boolean; defaults: number } | null {
    let depth = 0, at = -1;
    for (let j = from; j < mt.end; j++) {
      const t = this.u.text(j);
      if (t === '<') depth++;
      else if (t === '>') depth--;
      else if (t === '>>') depth -= 2;
      else if (t === '(' && depth <= 0 && this.u.text(j - 1) === mt.name) { at = j - 1; break; }
      else if (t === 'operator' && depth <= 0 && mt.name.startsWith('operator')) {
        // `operator()(_T1 &&, _T2 &&)`, `operator[](I)`, `operator+(U)`: the declarator starts at `operator`
        const sym = mt.name.slice('operator'.length);
        const after = sym === '()' || sym === '[]' ? j + 3 : j + 2;
        if (this.u.text(after) === '(') { at = j; break; }
      }
      else if (t === '{' || t === ';') break;
    }
    if (at < 0) return null;
    const arrow = this.trailingArrow(at, mt.end);
    const q = new Parser(this.u, mt.start, arrow < 0 ? mt.end : arrow, mt.rec.scope);
    q.cls = mt.rec; q.tscope = scope; q.p = at; q.recordStack.push(mt.rec);
    const d = q.parseDeclarator(C.int, false);
    if (d.ty.k !== 'func') return null;
    return { h, params: [...d.ty.params], ret: NO_RET, nparams: d.ty.params.length, variadic: d.ty.variadic, defaults: d.defaults.filter(x => x !== null).length };
  }
  /** The `->` of a trailing return type after the parameter list that starts at or after token `from` (-1 if none). */
  private trailingArrow(from: number, end: number): number {
    let depth = 0, seenParams = false;
    for (let j = from; j < end; j++) {
      const t = this.u.text(j);
      if (t === '(' || t === '[') depth++;
      else if (t === ')' || t === ']') { depth--; if (depth === 0) seenParams = true; }
      else if (depth === 0 && (t === '{' || t === ';')) return -1;
      else if (depth === 0 && seenParams && t === '->') return j;
    }
    return -1;
  }
  private memberFuncs = new Map<string, FuncSym>();
  /** Specialisations made per template (a recursion whose end we fail to see would make them without end). */
  private instances = new Map<string, number>();
  private countInstance(id: string, name: string): void {
    const n = (this.instances.get(id) ?? 0) + 1;
    this.instances.set(id, n);
    if (n > MAX_INSTANCES) throw new Unsupported(`more than ${MAX_INSTANCES} specialisations of template ${name} (a recursion whose end we do not see)`);
  }
  /** Deduce the arguments of a member function template for a call and instantiate it (null: not viable). */
  deduceAndInstantiateMember(mt: MemberTmpl, explicit: TArg[], args: Expr[]): FuncSym | null {
    const pat = this.memberPattern(mt);
    const h = pat.h;
    if (flatArgs(explicit).length > h.length && !h.some(tp => tp.pack)) return null;   // `f<A, Rest...>` with Rest empty names one argument
    const given = deduceAll(h, pat, explicit, args);
    if (!given) return null;
    const outer = (mt.tscope ?? new Map()) as Map<string, Sym>;
    const p = new Parser(this.u, mt.start, mt.end, mt.rec.scope);
    p.cls = mt.rec;
    p.tscope = outer;
    parseTemplateHeader(p);
    const b = bindArgs(p, h, given);
    if (!b) return null;
    const key = `${mt.start}|${recId(this.u.recIds, mt.rec)}|${targsKey(this.u.recIds, b.args)}`;
    const got = this.memberFuncs.get(key);
    if (got) return got;
    this.countInstance(`m${mt.start}`, mt.name);
    const scope = new Map<string, Sym>(outer);
    for (const [k, v] of b.scope) scope.set(k, v);
    p.tscope = scope;
    p.instantiating = true;
    const f = p.parseMemberTemplateInstance(mt.rec);
    f.targs = b.args;
    f.tscope = scope;
    (f as FuncSym & { tsig?: CType[] }).tsig = pat.params;
    if (pat.ret !== NO_RET) (f as FuncSym & { tret?: CType }).tret = pat.ret;
    this.memberFuncs.set(key, f);
    return f;
  }

  /** `template <...> R C<params>::f(...) {...}`: attach the body to f of the specialisation rec of C (its arguments bound by position). */
  loadOutOfLineMember(di: number, rec: RecordDecl, f: FuncSym): void {
    const p = this.parserAt(di);
    const scope = new Map<string, Sym>();
    const bindTo = (hh: TParam[], as: TArg[]) => hh.forEach((tp, i) => {
      const a = as[i]!;
      if (!tp.name) return;
      if (a.k === 'pack' && tp.kind === 'val') { scope.set(tp.name, valPackSym(tp.name, C.int, a.args.map(x => (x as { v: bigint }).v))); return; }
      if (a.k === 'pack') { scope.set(tp.name, { kind: 'type', name: tp.name, ty: packType(a.args.map(x => (x as { ty: CType }).ty)) }); return; }
      scope.set(tp.name, a.k === 'type' ? { kind: 'type', name: tp.name, ty: a.ty } : { kind: 'enumconst', name: tp.name, ty: a.ty, value: a.v });
    });
    if (rec.targs) {
      const h = parseTemplateHeader(p);
      if (h.length !== rec.targs.length) return;   // a partial specialisation's member, or another class template
      bindTo(h, rec.targs);
    }
    if (p.at('template')) {
      // `[template <class T>] template <class U> R C[<T>]::f(...)`: a member template, defined for the specialisation f
      if (!f.targs) return;
      const h2 = parseTemplateHeader(p);
      if (h2.length !== f.targs.length) return;
      bindTo(h2, f.targs);
      p.outOfLineTarget = f;
    } else if (!rec.targs) return;
    p.tscope = scope;
    p.instantiating = true;
    p.outOfLineOf = rec;
    const d = this.u.index.decls[di]!;
    try { p.parseTopDecl((d.flags & DeclFlag.InAnonNamespace) !== 0 || d.scope.includes('(anonymous)')); }
    catch (e) { if (e instanceof SyntaxAbort) throw new Unsupported(`out-of-line definition of ${rec.name}::${f.name} we cannot read`); throw e; }
  }

  /** The invented template parameters of a generic lambda's `auto` parameters (placeholders 0..n-1 in params), deduced from a call. */
  deduceAutoParams(params: CType[], n: number, args: Expr[]): CType[] | null {
    const h: TParam[] = Array.from({ length: n }, () => ({ kind: 'type', name: '', typeStart: -1, defStart: -1 }));
    const given = deduceAll(h, { params, nparams: params.length, variadic: false, defaults: 0 }, [], args);
    if (!given || given.some(a => !a || a.k !== 'type')) return null;
    return given.map(a => (a as { ty: CType }).ty);
  }

  /** The arguments given to template `di` bound to its parameters (defaults filled in), and their cache key. */
  private bind(di: number, given: TArg[], p0: Parser): { b: NonNullable<ReturnType<typeof bindArgs>>; key: string } {
    const h = this.header(di);
    const p = this.parserAt(di);
    parseTemplateHeader(p);
    p.tscope = p0.tscope;
    const b = bindArgs(p, h, explicitFor(h, given));
    if (!b) throw new Unsupported(`template arguments of ${this.u.index.decls[di]!.name}`);
    return { b, key: `${di}|${targsKey(this.u.recIds, b.args)}` };
  }
  /** The class template specialisation `di<args>` (body parsed unless the arguments are dependent). */
  instantiateClass(di0: number, given: TArg[], p0: Parser): RecordDecl {
    // a forward declaration stands for the definition (its default arguments merge in header())
    const di = this.u.index.decls[di0]!.bodyStart >= 0 ? di0 : this.primaryDecls(di0).find(ei => this.u.index.decls[ei]!.bodyStart >= 0) ?? di0;
    const d = this.u.index.decls[di]!;
    const { b, key } = this.bind(di, given, p0);
    const got = this.classes.get(key);
    if (got) return got;
    this.countInstance(`c${di}`, d.name);
    const rec = this.u.newRecord(d.kind === 'record' && this.u.text(this.firstTagTok(di)) === 'union' ? 'union' : 'struct', d.name, splitScope(d.scope), []);
    rec.targs = b.args;
    (rec as RecordDecl & { tmpl?: number }).tmpl = di;
    this.classes.set(key, rec);
    if (dependentArgs(b.args)) return rec;   // only a pattern: never laid out
    // an explicit specialisation for exactly these arguments replaces the primary template
    const spec = this.explicitSpecFor(di, b.args) ?? this.partialSpecFor(di, b.args);
    const src = spec?.di ?? di;
    const q = this.parserAt(src);
    parseTemplateHeader(q);
    q.tscope = spec === undefined ? b.scope : spec.scope;
    q.instRecord = rec;
    q.instantiating = true;
    this.enter(d.name);
    try { q.parseTopDecl((d.flags & DeclFlag.InAnonNamespace) !== 0); } finally { this.depth--; }
    for (const m of rec.methods ?? []) m.tscope = q.tscope ?? undefined;
    if (!rec.complete) throw new Unsupported(`instantiation of ${d.name}`);
    return rec;
  }
  /**
   * One level deeper into instantiations. EDG stops at 200 nested instantiations ("excessive recursion at
   * instantiation of ..."); we stop a little earlier and let cicc decide, as our count of levels may not be its count.
   */
  private enter(name: string): void {
    if (this.depth >= MAX_INSTANTIATION_DEPTH) throw new Unsupported(`template instantiations of ${name} nested deeper than ${MAX_INSTANTIATION_DEPTH} levels`);
    this.depth++;
  }
  /** Partial ordering of two tied specialisations (see the function moreSpecialized). */
  moreSpecialized(a: FuncSym, b: FuncSym): boolean { return moreSpecialized(a, b); }
  /** The type an alias template `template <...> using N = type-id;` names for these arguments. */
  instantiateAlias(di: number, given: TArg[], p0: Parser): CType {
    const { b, key } = this.bind(di, given, p0);
    const got = this.aliases.get(key);
    if (got) return got;
    const q = this.parserAt(di);
    parseTemplateHeader(q);
    q.tscope = b.scope;
    q.instantiating = true;
    q.patternTyping = p0.packPatterns || p0.patternTyping;
    q.expect('using'); q.p++;
    while (!q.at('=') && q.kind() !== 0) q.p++;   // attributes after the name
    q.expect('=');
    const dep0 = this.u.dependentDecltypes;
    const ty = q.parseTypeName();
    if (!q.at(";")) throw new Unsupported(`alias template ${this.u.index.decls[di]!.name}`);
    // a type with a decltype we could not type yet is only for this pattern's reading (partialSpecFor checks it)
    if (this.u.dependentDecltypes === dep0) this.aliases.set(key, ty);
    return ty;
  }
  /**
   * The value of the variable template `di<args>` (`template <class T, class U> inline constexpr bool
   * is_same_v = ...;`, with its partial and explicit specialisations), as a constant: device code reads
   * these in constant expressions (`if constexpr`, template arguments), never as objects.
   */
  instantiateVariable(di: number, given: TArg[], p0: Parser, pos: number): Expr {
    const { b, key } = this.bind(di, given, p0);
    const name = this.u.index.decls[di]!.name;
    let got = this.variables.get(key);
    if (!got && !dependentArgs(b.args)) this.varInsts.push({ di, args: b.args, pos });   // for the device ones cicc emits (vartmpl-insts.ts)
    if (!got) {
      // a variable declared without an initializer (libcu++'s `extern T&& (*declval)() noexcept`, `extern
      // __apply_cvref_c __apply_cvref<const _Tp>`): only its type matters (it is named in unevaluated operands),
      // also where the arguments are still a template's parameters
      const typeOnly = this.typeOnlyVariable(di, b, key, name, pos);
      if (typeOnly) return typeOnly;
      if (dependentArgs(b.args)) throw new Unsupported(`variable template ${name} with dependent arguments`);
      const spec = this.explicitSpecFor(di, b.args) ?? this.partialSpecFor(di, b.args);
      const q = this.parserAt(spec?.di ?? di);
      parseTemplateHeader(q);
      q.tscope = spec === undefined ? b.scope : spec.scope;
      q.instantiating = true;
      const ds = q.parseDeclSpecs();
      if (q.tx() !== name) throw new Unsupported(`variable template ${name} of this declarator form`);
      q.p++;
      if (q.at('<')) q.p += q.angleLength(0);
      const declared = ds.ty ? unqual(ds.ty) : null;
      if (declared && q.at('{') && q.at('}', 1) && q.at(';', 2) && ((declared.k === 'record' && isEmptyClass(declared.rec)) || isArith(declared))) {
        // `constexpr C<V> cv{};`: a value-initialised object of an empty class, or a zero
        got = { ty: declared, v: declared.k === 'record' ? null : isFloating(declared) ? 0 : 0n };
        this.variables.set(key, got);
        return this.instantiateVariable(di, given, p0, pos);
      }
      if (!q.eat('=')) throw new Unsupported(`variable template ${name} without an = initializer`);
      this.enter(name);
      let e: Expr;
      try { e = rval(q.parseAssign()); } finally { this.depth--; }
      const ty = declared ?? unqual(e.ty);
      if (ty.k === 'record' && isEmptyClass(ty.rec) && e.ty.k === 'record' && e.ty.rec === ty.rec && q.at(';')) {
        // an object of an empty class (CUB's `bool_constant_v<B> = bool_constant<B>{}`, a tag passed to overloads):
        // nothing to hold but its type
        got = { ty, v: null };
      } else {
        const c = isArith(ty) ? implicitConvert(this.u.conv, e, ty) : null;
        const v = c ? evalConst(c, this.u.consts) : null;
        if (!c || v === null || !q.at(';')) throw new Unsupported(`variable template ${name} that is not an arithmetic constant`);
        got = { ty, v };
      }
      this.variables.set(key, got);
    }
    if (got.v === null) return mk(got.ty, pos, false, { k: 'temp', init: { k: 'zero', ty: got.ty } });
    return typeof got.v === 'bigint' ? mk(got.ty, pos, false, { k: 'int', v: got.v }) : mk(got.ty, pos, false, { k: 'fp', v: got.v });
  }
  private variables = new Map<string, { ty: CType; v: bigint | number | null }>(); readonly varInsts: { di: number; args: TArg[]; pos: number }[] = [];
  private typeOnlyVars = new Map<string, VarSym | null>(); private aliases = new Map<string, CType>();
  /** instantiateVariable() of a variable template declared without an initializer: an lvalue of its type, never emitted. */
  private typeOnlyVariable(di: number, b: { scope: Map<string, Sym>; args: TArg[] }, key: string, name: string, pos: number): Expr | null {
    let v = this.typeOnlyVars.get(key);
    if (v === undefined) {
      v = null;
      const spec = this.explicitSpecFor(di, b.args) ?? this.partialSpecFor(di, b.args);
      const q = this.parserAt(spec?.di ?? di);
      parseTemplateHeader(q);
      q.tscope = spec === undefined ? b.scope : spec.scope;
      q.instantiating = true;
      const before = this.u.diags.length, errs = this.u.errorCount;
      try {
        const ds = q.parseDeclSpecs();
        // `extern` (nothing defines it: only its type is ever read); a pointer to function without it as before
        if (ds.ty && (ds.extern || (ds.ty.k === 'ptr' && ds.ty.to.k === 'func')) && q.tx() === name) {
          q.p++;
          if (q.at('<')) q.p += q.angleLength(0);
          if (q.at(';')) {
            v = this.u.newVar(name, ds.ty, 'global', pos);
            (v as VarSym & { unevaluatedOnly?: boolean }).unevaluatedOnly = true;
          }
        }
      } catch (e) {
        if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      } finally { this.u.diags.length = before; this.u.errorCount = errs; }
      this.typeOnlyVars.set(key, v);
    }
    return v ? mk(v.ty, pos, true, { k: 'var', sym: v }) : null;
  }
  private firstTagTok(di: number): number {
    const d = this.u.index.decls[di]!;
    for (let j = d.first; j <= d.last; j++) { const t = this.u.text(j); if (t === 'struct' || t === 'class' || t === 'union') return j; }
    return d.first;
  }
  /** Entries of the same class template that specialise it (`template<...> struct N<args>` with a body). */
  private specEntries(di: number): number[] {
    const d = this.u.index.decls[di]!;
    return (this.u.index.byName.get(d.name) ?? []).filter(ei => {
      if (ei === di) return false;
      const e = this.u.index.decls[ei]!;
      if (d.kind === 'variable') return e.kind === 'variable' && (e.flags & DeclFlag.Template) !== 0 && e.scope === d.scope && this.u.isSpecialization(ei);
      return e.kind === 'record' && (e.flags & DeclFlag.Template) !== 0 && e.scope === d.scope && e.bodyStart >= 0;
    });
  }
  /**
   * The partial specialisation whose argument patterns match these arguments, with its parameters bound
   * (the parameters of a matching pattern are deduced like a function template's from its arguments).
   */
  private partialSpecFor(di: number, args: TArg[]): { di: number; scope: Map<string, Sym> } | undefined {
    const d = this.u.index.decls[di]!;
    const found: { di: number; scope: Map<string, Sym>; pats: TArg[]; nparams: number }[] = [];
    for (const ei of this.specEntries(di)) {
      const h = this.header(ei);
      if (h.length === 0) continue;
      // its patterns could not be matched (a wrong match would pick the primary template): fall back
      if (h.some(tp => tp.kind === 'tmpl')) throw new Unsupported('partial specialization with a template template parameter');
      const p = this.parserAt(ei);
      parseTemplateHeader(p);
      // the parameters as placeholders; a value parameter reads as a sentinel value far from ordinary ones
      const scope = new Map<string, Sym>();
      h.forEach((tp, i) => { if (tp.name) scope.set(tp.name, patternSym(tp, i)); });
      p.tscope = scope;
      toSpecArgs(p, d);
      const before = this.u.diags.length, errs = this.u.errorCount;
      let pats: TArg[];
      let nonDeduced: unknown = null;
      p.packPatterns = true;
      const depBefore = this.u.dependentDecltypes;
      try { pats = p.parseTemplateArgs(); }
      catch (e) {
        // a pattern over pointers to members (`T C::*`, the member-pointer traits): no type we can name is one
        if (e instanceof Unsupported && e.reason === 'pointer to member') continue;
        // one we cannot read whole, but an argument of it we can read already fails to match: it is not a candidate
        // (`is_range<mdspan<T, E, L, A>, enable_if_t<E::rank == 1>>` for an array)
        if ((e instanceof Unsupported || e instanceof SyntaxAbort) && this.typeArgMismatch(ei, d, scope, args, h.length)) continue;
        // an argument we cannot read as a pattern (`enable_if_t<__specialized_from_std<_Ip>>`, a variable template of
        // the parameters): a non-deduced context, checked below by substituting what the others deduce
        const lenient = e instanceof Unsupported || e instanceof SyntaxAbort ? this.lenientPatterns(ei, d, scope, args) : null;
        if (!lenient) throw e;
        pats = lenient;
        nonDeduced = e;
      }
      finally { this.u.diags.length = before; this.u.errorCount = errs; p.packPatterns = false; }
      const expands = pats.some(x => x.k === 'pack');
      if (!expands && flatArgs(pats).length < flatArgs(args).length && !args.some(a => a.k === 'pack')) {
        // `template <class _Tp> struct iterator_traits<_Tp*>` of `template <class, class = void> struct iterator_traits`:
        // the primary's default arguments complete the list; evaluated for the arguments the patterns match, they
        // are what these arguments must hold in those positions
        const full = this.bind(di, args.slice(0, pats.length), { tscope: null } as Parser).b.args;
        if (targsKey(this.u.recIds, full) !== targsKey(this.u.recIds, args)) continue;
        pats = [...pats, ...args.slice(pats.length)];
      }
      if (!expands && flatArgs(pats).length !== flatArgs(args).length) continue;
      const out = matchSpec(pats, args, h.length);
      if (!out) continue;
      // a parameter named only in the arguments we could not read: we cannot tell whether it matches
      if (out.some(a => !a)) { if (nonDeduced) throw nonDeduced; continue; }
      const bp = this.parserAt(ei);
      parseTemplateHeader(bp);
      const b = bindArgs(bp, h, out);
      if (!b) continue;
      // a pattern with an expression we could not type yet: substituting the deduced arguments must give
      // valid arguments equal to these (otherwise a substitution failure: SFINAE drops the specialisation)
      if ((nonDeduced || this.u.dependentDecltypes !== depBefore) && !this.substitutesTo(ei, d, b.scope, args, nonDeduced !== null)) continue;
      // an alias of the parameters that names none of them (`__void_t<typename _It::iterator_category>` is void
      // for any _It): substituting must not fail; what we cannot substitute keeps the candidate, as before
      if (!nonDeduced && this.u.dependentDecltypes === depBefore && this.hasTypenameArg(ei, d) && this.substitutes(ei, d, b.scope, args) === false) continue;
      found.push({ di: ei, scope: b.scope, pats, nparams: h.length });
    }
    if (found.length <= 1) return found[0];
    // partial ordering: the one whose patterns every other one's patterns match (and not the reverse)
    const best = found.filter(f => found.every(g => g === f || (matchSpec(g.pats, f.pats, g.nparams) !== null && matchSpec(f.pats, g.pats, f.nparams) === null)));
    if (best.length !== 1) throw new Unsupported(`more than one partial specialization of ${d.name} matches (ordering)`);
    return best[0];
  }
  /**
   * Partial specialisation ei's argument patterns read one by one, those we cannot read replaced by the argument
   * in their position (matching it, deducing nothing); null when there is a pack expansion or none can be read.
   */
  private lenientPatterns(ei: number, d: { kind: string; name: string }, scope: Map<string, Sym>, args: TArg[]): TArg[] | null {
    const p = this.parserAt(ei);
    parseTemplateHeader(p);
    p.tscope = scope;
    toSpecArgs(p, d);
    if (!p.eat('<') || args.some(a => a.k === 'pack')) return null;
    const before = this.u.diags.length, errs = this.u.errorCount;
    const out: TArg[] = [];
    let read = 0;
    p.packPatterns = true;
    try {
      for (let i = 0; i < args.length; i++) {
        const start = p.p;
        // an argument ending inside a `>>` (its second half closes the list) is the last one
        const ended = skipArg(p), end = p.p;
        let got: TArg | null = null;
        if (!ended) {
          try {
            // the argument alone, read by a parser over its tokens
            const q = new Parser(this.u, start, end, p.ns);
            q.tscope = scope;
            q.packPatterns = true;
            if (q.startsType()) { const ty = q.parseTypeName(); if (q.p === end && this.u.errorCount === errs && !unknownPart(ty)) got = { k: 'type', ty }; }
          } catch (e) { if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e; }
          this.u.diags.length = before; this.u.errorCount = errs;
        }
        if (got) read++;
        out.push(got ?? args[i]!);
        p.p = end;
        if (ended) { if (i < args.length - 1) return null; break; }
        if (p.at('...')) return null;
        if (i < args.length - 1 && !p.eat(',')) return null;
      }
      if (!p.at('>') && !p.at('>>')) return null;
      return read > 0 ? out : null;
    } finally { this.u.diags.length = before; this.u.errorCount = errs; p.packPatterns = false; }
  }
  /**
   * Whether one of partial specialisation ei's type arguments (patterns over its parameters, in `scope`), read
   * alone, certainly fails to match the argument in its position: those before the first pack expansion only.
   */
  private typeArgMismatch(ei: number, d: { kind: string; name: string }, scope: Map<string, Sym>, args: TArg[], n: number): boolean {
    const p = this.parserAt(ei);
    parseTemplateHeader(p);
    p.tscope = scope;
    toSpecArgs(p, d);
    if (!p.eat('<')) return false;
    const flat = flatArgs(args);
    const before = this.u.diags.length, errs = this.u.errorCount;
    p.packPatterns = true;
    try {
      for (let i = 0; i < flat.length && !p.at('>') && !p.at('>>'); i++) {
        const start = p.p;
        let ty: CType | null = null;
        try { if (p.startsType()) ty = p.parseTypeName(); } catch (e) { if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e; ty = null; }
        if (p.at('...')) return false;
        if (ty && !unknownPart(ty) && this.u.errorCount === errs && (p.at(',') || p.at('>') || p.at('>>')) && matchSpec([{ k: 'type', ty }], [flat[i]!], n) === null) return true;
        this.u.diags.length = before; this.u.errorCount = errs;
        p.p = start;
        if (skipArg(p) || !p.eat(',')) return false;
      }
      return false;
    } finally { this.u.diags.length = before; this.u.errorCount = errs; p.packPatterns = false; }
  }
  /** Whether partial specialisation ei's argument list, read with these bindings, is exactly `args` without errors. */
  /** Whether partial specialisation ei's argument list names a member type of a parameter (`typename T::type`). */
  private hasTypenameArg(ei: number, d: { kind: string; name: string }): boolean {
    const p = this.parserAt(ei);
    parseTemplateHeader(p);
    toSpecArgs(p, d);
    const start = p.p;
    if (!p.at('<')) return false;
    p.p += p.angleLength(0);
    for (let j = start; j < p.p; j++) if (this.u.text(j) === 'typename') return true;
    return false;
  }
  /** substitutesTo, with undefined where the substitution throws Unsupported. */
  private substitutes(ei: number, d: { kind: string; name: string }, scope: Map<string, Sym>, args: TArg[]): boolean | undefined {
    try { return this.substitutesTo(ei, d, scope, args, true); } catch (e) { if (e instanceof Unsupported) return undefined; throw e; }
  }
  private substitutesTo(ei: number, d: { kind: string; name: string }, scope: Map<string, Sym>, args: TArg[], strict = false): boolean {
    const p = this.parserAt(ei);
    parseTemplateHeader(p);
    p.tscope = scope;
    p.instantiating = true;
    toSpecArgs(p, d);
    const before = this.u.diags.length, errs = this.u.errorCount;
    try {
      const got = p.parseTemplateArgs();
      return this.u.errorCount === errs && targsKey(this.u.recIds, flatArgs(got)) === targsKey(this.u.recIds, flatArgs(args));
    } catch (e) {
      // strict: what we cannot read is no substitution failure we can be sure of
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort) || (strict && e instanceof Unsupported)) throw e;
      return false;
    } finally { this.u.diags.length = before; this.u.errorCount = errs; }
  }
  private funcSpecs = new Map<number, { di: number; args: TArg[] | null }[]>();
  /**
   * The explicit specialisation of function template `di` for exactly these arguments (a definition preferred
   * to a declaration), if any. Its arguments are written (`f<1>()`) or deduced from its parameter types as a
   * call would deduce them (`template <> int f(double)`); one that matches no reading of this primary's
   * signature belongs to another overload of the name.
   */
  private explicitFuncSpecFor(di: number, args: TArg[]): number | undefined {
    let specs = this.funcSpecs.get(di);
    if (!specs) {
      specs = [];
      const d = this.u.index.decls[di]!;
      for (const ei of this.u.index.byName.get(d.name) ?? []) {
        const e = this.u.index.decls[ei]!;
        if (ei === di || e.kind !== 'function' || !(e.flags & DeclFlag.Template) || e.scope !== d.scope || e.qualifier) continue;
        if (this.u.text(e.first) !== 'template' || this.u.text(e.first + 1) !== '<' || this.u.text(e.first + 2) !== '>') continue;
        specs.push({ di: ei, args: this.explicitFuncSpecArgs(di, ei) });
      }
      this.funcSpecs.set(di, specs);
    }
    const want = targsKey(this.u.recIds, flatArgs(args));
    const hits = specs.filter(s => s.args !== null && targsKey(this.u.recIds, flatArgs(s.args)) === want);
    return (hits.find(s => this.u.index.decls[s.di]!.bodyStart >= 0) ?? hits[0])?.di;
  }
  /** The template arguments explicit specialisation `ei` gives primary `di`, or null when it is not one of its. */
  explicitFuncSpecArgs(di: number, ei: number): TArg[] | null {
    const h = this.header(di);
    const pat = this.pattern(di);
    if (!pat || h.some(tp => tp.pack)) return null;
    const q = this.parserAt(ei);
    if (q.at('template') && !q.at('<', 1)) q.p++; else parseTemplateHeader(q);   // an explicit instantiation has no header
    const before = this.u.diags.length, errs = this.u.errorCount;
    try {
      // the written arguments (`name<...>`), then the parameter list
      let written: TArg[] = [];
      const name = this.u.index.decls[ei]!.name;
      let j = q.p;
      while (j < q.end && !(this.u.text(j) === name && (this.u.text(j + 1) === '<' || this.u.text(j + 1) === '('))) j++;
      if (j >= q.end) return null;
      q.p = j + 1;
      if (q.at('<')) written = q.parseTemplateArgs();
      if (!q.at('(')) return null;
      const ps = q.parseParams();
      if (ps.params.length !== pat.nparams || ps.variadic !== pat.variadic) return null;
      const out: (TArg | undefined)[] = explicitFor(h, written);
      for (let i = 0; i < pat.nparams; i++) if (!match(pat.params[i]!, ps.params[i]!, out, true)) return null;
      if (out.length < h.length || out.some(a => !a)) {
        const bp = this.parserAt(di);
        parseTemplateHeader(bp);
        const b = bindArgs(bp, h, out);
        if (!b) return null;
        return b.args;
      }
      return out as TArg[];
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      return null;
    } finally { this.u.diags.length = before; this.u.errorCount = errs; }
  }
  /** A `template<> struct N<args>` for exactly these arguments. */
  private explicitSpecFor(di: number, args: TArg[]): { di: number; scope: Map<string, Sym> } | undefined {
    const d = this.u.index.decls[di]!;
    for (const ei of this.u.index.byName.get(d.name) ?? []) {
      if (ei === di) continue;
      const e = this.u.index.decls[ei]!;
      if (e.kind !== d.kind || !(e.flags & DeclFlag.Template) || e.scope !== d.scope || (e.kind === 'record' ? e.bodyStart < 0 : !this.u.isSpecialization(ei))) continue;
      const h = this.header(ei);
      if (h.length > 0) continue;
      const p = this.parserAt(ei);
      parseTemplateHeader(p);
      while (!p.at('<') && p.kind() !== 0) p.p++;
      let sargs = p.parseTemplateArgs();
      // `template<> class fragment<accumulator, 16, 16, 16, float>`: the primary's defaults complete it
      if (flatArgs(sargs).length < flatArgs(args).length) {
        try { sargs = this.bind(di, sargs, p).b.args; } catch (e) { if (!(e instanceof Unsupported)) throw e; continue; }
      }
      if (targsKey(this.u.recIds, flatArgs(sargs)) === targsKey(this.u.recIds, flatArgs(args))) return { di: ei, scope: new Map() };
    }
    return undefined;
  }
}

/** Moves p to the `<` of a specialisation's arguments: after the name (a variable's type may have arguments of its own: `ident_t<T> v<T*>`). */
function toSpecArgs(p: Parser, d: { kind: string; name: string }): void {
  if (d.kind === 'variable') { while (!(p.at(d.name) && p.at('<', 1)) && p.kind() !== 0) p.p++; p.p++; }
  while (!p.at('<') && p.kind() !== 0) p.p++;
}

/** The declared return type of a pattern we could not read (the specialisation's own return type mangles instead). */
const NO_RET: CType = { k: 'error', q: 0, noRet: true } as CType;

/**
 * Specialisations of one template a unit may make. Real code stays far below (GCC and EDG stop recursive
 * instantiation at a depth of 900 or so); a recursion we misread would otherwise run until memory is gone.
 */
const MAX_INSTANCES = 2048;


/** The type `Outer::N<args>` names when N is a member alias template: its type-id with the arguments bound. */
export function instantiateMemberAlias(u: UnitApi, mat: MemberClassTmpl, given: TArg[]): CType {
  const q = new Parser(u, mat.start, mat.end, mat.ns);
  const h = parseTemplateHeader(q);
  q.tscope = mat.tscope;
  const b = bindArgs(q, h, explicitFor(h, given));
  if (!b) throw new Unsupported(`template arguments of ${mat.outer.name}::${mat.name}`);
  q.tscope = new Map([...(mat.tscope ?? []), ...b.scope]);
  q.recordStack = [mat.outer];
  q.expect('using'); q.p++; q.expect('=');
  return q.parseTypeName();
}
/**
 * The specialisation `Outer::N<args>`: a class nested in `outer` (mangled inside it), its body parsed with
 * the member template's parameters bound on top of the outer class's.
 */
export function instantiateMemberClass(u: UnitApi, mct: MemberClassTmpl, given: TArg[]): RecordDecl {
  const q = new Parser(u, mct.start, mct.end, mct.ns);
  const h = parseTemplateHeader(q);
  if (h.some(tp => tp.pack)) throw new Unsupported(`variadic member class template ${mct.outer.name}::${mct.name}`);
  q.tscope = mct.tscope;
  const b = bindArgs(q, h, explicitFor(h, given));
  if (!b) throw new Unsupported(`template arguments of ${mct.outer.name}::${mct.name}`);
  const key = targsKey(u.recIds, b.args);
  const got = mct.insts.get(key);
  if (got) return got;
  const rec = u.newRecord('struct', mct.name, mct.outer.scope, [...mct.outer.outer, mct.outer.name]);
  rec.targs = b.args;
  rec.parent = mct.outer;
  mct.insts.set(key, rec);
  if (dependentArgs(b.args)) return rec;   // only a pattern
  q.tscope = new Map([...(mct.tscope ?? []), ...b.scope]);
  q.instRecord = rec;
  q.instantiating = true;
  q.recordStack = [mct.outer];
  q.parseTopDecl(false);
  for (const m of rec.methods ?? []) m.tscope = q.tscope ?? undefined;
  if (!rec.complete) throw new Unsupported(`instantiation of ${mct.outer.name}::${mct.name}`);
  return rec;
}

