// Parser room: calls and overload resolution: candidates, ranking, user-defined operators and conversions.

import { Unsupported } from '../diagnostics';
import type { Expr, Init, Sym, FuncSym, Pos, TArg } from './ast';
import { type CType, type RecordDecl, C, Q, ptrTo, withQ, unqual, isAuto, isArith, isIntegral, typeName } from './ctype';
import { mk, errExpr, rval, promote, convertArith, implicitConvert, convRank, cast, markXvalue, type UserConversions } from './sema';
import { isMmaBuiltin, mmaSignature } from './builtins-mma';
import { nvAtomicSignature, SYSTEM_SCOPE } from './builtins-nvatomic';
import { TmplRef } from './parser-types';
import { memberTmplsOf, allMethods, sameSignature, ownCopyCtor, ctorsOf, ctorTmplsOf } from './parser-classes';
import { Parser, addRoom, type UnitApi } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class OverloadsRoom {
  /**
   * Builtins cicc knows without a declaration, lowered by builtins.ts: `__match32_any_sync(mask, v)` and its
   * 64-bit / match.all siblings (sm_70_rt.hpp calls them undeclared) and the WMMA builtins crt/mma.hpp calls
   * (`__hmma_m16n16k16_ld_a(int *, const int *, unsigned, int)`, builtins-mma.ts).
   */
  /** A call of one of CUDA 13's type-generic __nv_atomic_* builtins (builtins-nvatomic.ts), at its '('. */
  nvAtomicCall(this: Parser, name: string, pos: Pos): Expr {
    this.expect('(');
    const args = this.at(')') ? [] : this.parseArgs(')');
    this.expect(')');
    const sig = nvAtomicSignature(name, args.map(a => rval(a).ty), this.u.opts.arch);
    if (typeof sig === 'string') throw new Unsupported(sig);
    if (sig.defaultScope) args.push(mk(C.int, pos, false, { k: 'int', v: BigInt(SYSTEM_SCOPE) }));
    // one symbol per builtin and pointee type (`char` and `unsigned char` both load `.b8`)
    const key = `${sig.name}(${sig.params.map(t => typeName(t)).join(',')})`;
    let f = this.u.implicitBuiltins.get(key);
    if (!f) {
      f = builtinSym(this.u, sig.name, sig.params, sig.ret, false, pos);
      this.u.implicitBuiltins.set(key, f);
    }
    return this.buildCall(f, null, f.ty, args, pos);
  }
  implicitBuiltin(this: Parser, name: string, pos: Pos): FuncSym {
    const got = this.u.implicitBuiltins.get(name);
    if (got) return got;
    let params: CType[], ret: CType, variadic = false;
    const gcc = GCC_IMPLICIT[name];
    if (gcc) {
      ({ params, ret, variadic } = gcc());
    } else if (isMmaBuiltin(name)) {
      // the first pointer is written, the others read (`const int *`, `const float *` convert to them)
      params = [...mmaSignature(name)].map((c, i) => (c === 'p' ? ptrTo(i === 0 ? C.void : withQ(C.void, Q.Const)) : c === 'u' ? C.uint : C.int));
      ret = C.void;
    } else {
      params = [C.uint, name.startsWith('__match64') ? C.ullong : C.uint, ...(name.endsWith('_all_sync') ? [ptrTo(C.int)] : [])];
      ret = C.uint;
    }
    const f = builtinSym(this.u, name, params, ret, variadic, pos);
    this.u.implicitBuiltins.set(name, f);
    return f;
  }

  call(this: Parser, callee: Expr, args: Expr[], pos: Pos): Expr {
    if (callee.ty.k === 'error' || args.some(a => a.ty.k === 'error')) return errExpr(pos);
    let f: FuncSym | null = null;
    if (callee.k === 'func') {
      let set = (callee as Expr & { overloads?: FuncSym[] }).overloads ?? [callee.sym];
      if ((callee as Expr & { adlOnly?: boolean }).adlOnly) {
        // ordinary lookup found nothing: only the arguments' namespaces can supply the function
        const found = this.adlCandidates(callee.sym.name, args, []);
        if (found === null) throw new Unsupported(`argument-dependent lookup of ${callee.sym.name}`);
        if (found.length === 0) { this.u.error(callee.pos, 20, `identifier "${callee.sym.name}" is undefined`); return errExpr(pos); }
        set = found;
      }
      /** A candidate template we could not read or instantiate (not a deduction/substitution failure). */
      let unreadable: string | null = null;
      const tmpl = (callee as Expr & { templates?: TmplRef }).templates;
      if (tmpl) {
        set = [...set];
        let failed: string | null = null;
        for (const mt of tmpl.members ?? []) {
          const inst = this.tryInstantiateMember(mt, tmpl.explicit, args, r => { failed ??= r; if (!/substitution failed$/.test(r) && mayTake(this.u.templates.arityOf(mt.name, mt.start, mt.end), args)) unreadable ??= r; });
          if (inst && !set.includes(inst)) set.push(inst);
        }
        for (const di of tmpl.ents) {
          const d = this.u.index.decls[di]!;
          const inst = this.tryInstantiate(di, tmpl.explicit, args, r => { failed ??= r; if (!/substitution failed$/.test(r) && mayTake(this.u.templates.arityOf(d.name, d.first, d.last + 1), args)) unreadable ??= r; });
          if (!inst || set.includes(inst)) continue;
          // a template declared more than once: one specialisation (the one with a body)
          const same = set.findIndex(o => o.targs && sameSignature(o, inst));
          if (same >= 0) { if (set[same]!.bodyStart < 0 && inst.bodyStart >= 0) set[same] = inst; continue; }
          set.push(inst);
        }
        if (set.length === 0 && failed) throw new Unsupported(failed);
        // a template with a trailing parameter pack is less specialised than one without: same parameters, the other wins
        const samePs = (a: FuncSym, b: FuncSym) => a.ty.params.length === b.ty.params.length && a.ty.params.every((x, i) => typeName(x) === typeName(b.ty.params[i]!));
        const packed = (f: FuncSym) => !!f.targs?.some(a => a.k === 'pack');
        set = set.filter(f => !packed(f) || !set.some(g => g !== f && !packed(g) && samePs(f, g)));
        if (set.length === 0) { this.u.error(pos - 1, 304, `no instance of function template "${callee.sym.name}" matches the argument list`); return errExpr(pos); }
      }
      const obj = (callee as Expr & { thisObj?: Expr }).thisObj;
      f = this.resolveOverload(set, args, pos, callee.sym.name, obj ?? null);
      if (!f) return errExpr(pos);
      // the template we could not read might have been the better match (std::pow(float, int) is libstdc++'s
      // promoting template, not powf): only an exact match is certainly the best
      // a candidate with a template template parameter is more specialised than a generic template that takes
      // any type there (cg::reduce's `TyOp<T> &&op` overloads use redux.sync; the `TyFn &&op` one a shuffle tree)
      if (unreadable === 'template template parameter' && f.targs) throw new Unsupported(unreadable);
      // a specialisation chosen while a candidate template could not be read: that one may be more specialised,
      // or the chosen one the `(...)` catch-all of a detection idiom (SFINAE on a return type we cannot read)
      if (unreadable && f.targs) throw new Unsupported(unreadable);
      if (unreadable && !f.targs && !args.every((a, i) => i >= f!.ty.params.length || convRank(this.u.conv, a, f!.ty.params[i]!) < 1)) {
        f = promotedMathOverload(callee.sym.name, set, args);
        if (!f) throw new Unsupported(unreadable);
      }
      if (f.cls && !f.staticMember) {
        if (!obj) { this.u.error(pos, 245, 'a nonstatic member reference must be relative to a specific object'); return errExpr(pos); }
        const c = this.buildCall(f, null, f.ty, args, pos, obj);
        if ((callee as Expr & { qualified?: boolean }).qualified) (c as Expr & { direct?: boolean }).direct = true;
        return c;
      }
      return this.buildCall(f, null, f.ty, args, pos);
    }
    if (callee.ty.k === 'record') {
      const r = this.userOperator('()', [callee, ...args], pos);
      if (r) return r;
      this.u.error(pos, 980, `call of an object of a class type without appropriate operator() or conversion functions to pointer-to-function type`);
      return errExpr(pos);
    }
    const c = rval(callee);
    if (c.ty.k === 'ptr' && c.ty.to.k === 'func') return this.buildCall(null, c, c.ty.to, args, pos);
    this.u.error(pos, 109, `expression preceding parentheses of apparent call must have (pointer-to-) function type`);
    return errExpr(pos);
  }
  /** `&e` of the built-in operator. */
  addressOf(this: Parser, e: Expr, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    if (e.k === 'func') return rval(e);
    if (!e.lv) { this.u.error(pos, 158, 'expression must be an lvalue or a function designator'); return errExpr(pos); }
    if (e.k === 'bvar' || e.k === 'bvarbase') throw new Unsupported('address of a builtin variable');
    return mk(ptrTo(e.ty), pos, false, { k: 'addr', e });
  }
  resolveOverload(this: Parser, set: FuncSym[], args: Expr[], pos: Pos, name: string, obj: Expr | null = null, afterAdl = false): FuncSym | null {
    const viable: Candidate[] = [];
    for (const f of set) {
      const ps = f.ty.params;
      const nDefaults = f.defaults.filter(d => d !== null).length;
      if (args.length > ps.length && !f.ty.variadic) continue;
      if (args.length < ps.length - nDefaults) continue;
      const ranks: number[] = [], refs: boolean[] = [];
      let ok = true;
      if (obj) {
        // the implicit object parameter: a const object needs a const member function
        const q = obj.ty.q & (Q.Const | Q.Volatile), tq = f.staticMember ? q : (f.thisQ ?? 0) & (Q.Const | Q.Volatile);
        if (q & ~tq) continue;
        ranks.push(q === tq ? 0 : 1);
        refs.push(false);
      }
      for (let i = 0; i < args.length; i++) {
        const r = i < ps.length ? convRank(this.u.conv, args[i]!, ps[i]!) : 3;
        if (r < 0) { ok = false; break; }
        ranks.push(r);
        refs.push(i < ps.length && ps[i]!.k === 'ref');
      }
      if (ok) viable.push({ f, ranks, refs });
    }
    if (viable.length === 0 && !obj && !afterAdl) {
      // argument-dependent lookup may find what ordinary lookup missed (cuda::experimental's
      // atomicAdd(fpmp2<...>*, ...) is declared only in its argument's namespace)
      const more = this.adlCandidates(name, args, set);
      if (more === null) throw new Unsupported(`argument-dependent lookup of ${name}`);
      if (more.length) return this.resolveOverload([...set, ...more], args, pos, name, obj, true);
    }
    if (viable.length === 0) {
      if (set.length === 1) {
        const f = set[0]!;
        const ps = f.ty.params;
        const nDefaults = f.defaults.filter(d => d !== null).length;
        if (args.length < ps.length - nDefaults) { this.u.error(pos + 1 < this.p ? this.p - 1 : pos, 165, 'too few arguments in function call'); return null; }
        if (args.length > ps.length && !f.ty.variadic) { this.u.error(args[ps.length]!.pos, 140, 'too many arguments in function call'); return null; }
        for (let i = 0; i < args.length && i < ps.length; i++) {
          if (convRank(this.u.conv, args[i]!, ps[i]!) < 0) {
            this.u.error(args[i]!.pos, 167, `argument of type "${typeName(args[i]!.ty)}" is incompatible with parameter of type "${typeName(ps[i]!)}"`);
            return null;
          }
        }
      }
      this.u.error(pos - 1, 304, `no instance of overloaded function "${name}" matches the argument list`);
      return null;
    }
    let best = viable[0]!;
    let ambiguous = false;
    for (let i = 1; i < viable.length; i++) {
      const c = viable[i]!;
      const cmp = compareCandidates(c, best);
      if (cmp < 0) { best = c; ambiguous = false; }
      else if (cmp === 0) ambiguous = true;
    }
    if (ambiguous) {
      // a non-template function beats a template specialisation with the same conversions
      const ties = viable.filter(v => v === best || compareCandidates(v, best) === 0 && compareCandidates(best, v) === 0);
      const plain = ties.filter(v => !v.f.targs);
      if (plain.length === 1 && ties.length > 1 && viable.every(v => ties.includes(v) || compareCandidates(best, v) < 0)) return plain[0]!.f;
      // re-check: best must beat every other
      const strictly = viable.every(v => v === best || compareCandidates(best, v) < 0);
      if (!strictly) {
        // template specialisations that tie: the more specialised template wins (partial ordering)
        const winner = ties.find(t => ties.every(o => o === t || this.u.templates.moreSpecialized(t.f, o.f)));
        if (winner && viable.every(v => ties.includes(v) || compareCandidates(best, v) < 0)) return winner.f;
        // a tie among the headers' own overloads is our misreading of them (cicc compiles such units), not
        // the user's error: fall back naming it
        if (ties.every(v => !this.u.isUserFile(v.f.pos))) throw new Unsupported(`overload resolution among header declarations of ${name}`);
        this.u.error(pos - 1, 308, `more than one instance of overloaded function "${name}" matches the argument list`); return null;
      }
    }
    return best.f;
  }
  /**
   * The functions `name` that the namespaces associated with the arguments ([basic.lookup.argdep]) add to `set`,
   * templates instantiated for the arguments; null when one of their templates could not be read.
   */
  adlCandidates(this: Parser, name: string, args: Expr[], set: FuncSym[]): FuncSym[] | null {
    const more: FuncSym[] = [];
    let unreadable = false;
    for (const ns of associatedNamespaces(args.map(a => a.ty))) {
      const path = ns ? ns.split('::') : [];
      for (const x of this.u.lookupIn(path, name)) if (x.kind === 'func' && !set.includes(x) && !more.includes(x)) more.push(x);
      if (!path.length) continue;
      for (const di of this.u.templateEntries(name, path, 'function', true)) {
        const inst = this.tryInstantiate(di, [], args, r => { if (!/substitution failed$/.test(r)) unreadable = true; });
        if (inst && !set.includes(inst) && !more.some(o => o === inst || (o.targs && sameSignature(o, inst)))) more.push(inst);
      }
    }
    return unreadable ? null : more;
  }
  buildCall(this: Parser, f: FuncSym | null, callee: Expr | null, fty: CType & { k: 'func' }, args: Expr[], pos: Pos, obj?: Expr): Expr {
    if (f && (isAuto(f.ty.ret) || (f.ty.ret.k === 'ref' && isAuto(f.ty.ret.to)))) {
      // a deduced return type: the body says what it is
      this.u.parseBody(f);
      if (isAuto(f.ty.ret)) f.ty = { ...f.ty, ret: f.body ? C.void : C.error };
      if (f.ty.ret.k === 'ref' && isAuto(f.ty.ret.to)) throw new Unsupported(`deduced reference return type of ${f.name}`);
      fty = f.ty;
    }
    if (f && this.hostCalls && !this.hostCalls.includes(f)) { this.hostCalls.push(f); this.hostCallSites?.push(pos); }
    if (f && f.deleted) { this.u.error(pos, 1776, `function "${this.u.prettyFunction(f).replace(/^\S+ /, '')}" cannot be referenced -- it is a deleted function`); return errExpr(pos); }
    const ps = fty.params;
    const conv: Expr[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (i < ps.length) {
        const c = implicitConvert(this.u.conv, a, ps[i]!);
        if (!c) { this.u.error(a.pos, 167, `argument of type "${typeName(a.ty)}" is incompatible with parameter of type "${typeName(ps[i]!)}"`); return errExpr(pos); }
        conv.push(c);
      } else {
        // default argument promotions for variadic arguments
        let r = rval(a);
        if (r.ty.k === 'float') r = convertArith(r, C.double);
        else if (isIntegral(r.ty)) r = promote(r);
        else if (r.ty.k === 'nullptr') r = cast(r, 'null', ptrTo(C.void));
        else if (r.ty.k === 'record') throw new Unsupported('struct passed through ...');
        conv.push(r);
      }
    }
    if (f && args.length < ps.length) {
      for (let i = args.length; i < ps.length; i++) {
        const d = f.defaults[i];
        if (d === null || d === undefined) { this.u.error(pos, 165, 'too few arguments in function call'); return errExpr(pos); }
        const sub = new Parser(this.u, d, this.u.toks.count, f.scope);
        sub.tscope = f.tscope ?? null;   // a default argument of a template (or a member of a class template) names its parameters
        sub.cls = f.cls ?? null;
        const e = sub.parseAssign();
        const c = implicitConvert(this.u.conv, e, ps[i]!);
        if (!c) return errExpr(pos);
        conv.push(c);
      }
    }
    let rt = fty.ret;
    let lv = false;
    if (rt.k === 'ref') { rt = rt.to; lv = true; }
    // a by-value parameter of a class with its own copy constructor is made by that constructor (a prvalue
    // argument initialises it directly)
    let argInits: (Init | undefined)[] | undefined;
    for (let i = 0; i < conv.length && i < ps.length; i++) {
      const pt = ps[i]!;
      if (pt.k !== 'record') continue;
      const a = args[i]!;
      if (!ownCopyCtor(pt.rec)) { this.checkTrivialCopy(pt); continue; }
      if (!a.lv && a.ty.k === 'record' && a.ty.rec === pt.rec) continue;
      // an xvalue argument picks the move constructor, an lvalue the copy constructor
      (argInits ??= [])[i] = this.initFromArgs(unqual(pt), [a], false, a.pos);
    }
    const thisPtr = obj ? mk(ptrTo(obj.ty), pos, false, { k: 'addr', e: obj }) : undefined;
    const call = mk(rt, pos, lv, { k: 'call', f, callee, args: conv, ...(thisPtr ? { thisPtr } : {}) });
    if (fty.ret.k === 'ref' && fty.ret.rv) markXvalue(call);
    if (argInits) (call as Expr & { argInits?: (Init | undefined)[] }).argInits = argInits;
    return call;
  }
  /**
   * An overloaded operator applied to operands at least one of which has class type: member candidates of the
   * first operand's class, and non-member `operator@` found from the current scope and the operands' namespaces.
   * Null when there is no candidate at all (the built-in operator applies or it is an error).
   */
  userOperator(this: Parser, op: string, args: Expr[], pos: Pos, postfix = false): Expr | null {
    const name = 'operator' + op;
    if (postfix) args = [...args, mk(C.int, pos, false, { k: 'int', v: 0n })];   // the dummy int of postfix ++/--
    const a0 = args[0]!;
    const members: FuncSym[] = [];
    /** An operator template we could not read (not a deduction/substitution failure): it might have matched. */
    let unreadable: string | null = null;
    const notViable = (r: string): void => { if (!/substitution failed$/.test(r)) unreadable ??= r; };
    let headerFailed: string | null = null;
    if (a0.ty.k === 'record') {
      const ms = this.classMember(a0.ty.rec, name, false).filter((m): m is FuncSym => m.kind === 'func');
      if (op === '()' && (a0.ty.rec as RecordDecl & { genericLambda?: unknown }).genericLambda) {
        const f = this.instantiateGenericLambda(a0.ty.rec, args.slice(1));
        if (f) ms.push(f);
      }
      for (const mt of memberTmplsOf(a0.ty.rec, name)) {
        // operator templates: the specialisations deduced from the other operands (a header's that fails to
        // substitute may be our misreading of its constraints: no match then falls back, like constructors)
        const f = this.tryInstantiateMember(mt, [], args.slice(1), r => { notViable(r); if (!this.u.isUserFile(mt.start)) headerFailed ??= r; });
        if (f && !ms.includes(f)) ms.push(f);
      }
      for (const m of ms) if (m.ty.params.length === args.length - 1 || (m.defaults.length && m.ty.params.length > args.length - 1 && m.defaults[args.length - 1] !== null)) members.push(m);
    }
    const free: FuncSym[] = [];
    if (op !== '=' && op !== '()' && op !== '[]' && op !== '->') {
      const add = (syms: Sym[]) => { for (const x of syms) if (x.kind === 'func' && !x.cls && x.ty.params.length === args.length && !free.includes(x)) free.push(x); };
      try {
        add(this.u.lookup(name, this.ns));
        for (const a of args) if (a.ty.k === 'record') add(this.u.lookupIn(a.ty.rec.scope.filter(c => c !== '(anonymous)'), name));
        // hidden friends of the operands' classes (argument-dependent lookup)
        const friends = (this.u as UnitApi & { hiddenFriendFns?: Map<string, FuncSym[]> }).hiddenFriendFns?.get(name) ?? [];
        add(friends.filter(f => args.some(a => a.ty.k === 'record' && a.ty.rec === (f as FuncSym & { friendOf?: RecordDecl }).friendOf)));
      } catch (e) { if (!(e instanceof Unsupported) || members.length === 0) throw e; }
      // operator templates: from the current scope and the namespaces of class operands
      const ents = new Set<number>(this.u.templateEntries(name, this.ns, 'function'));
      for (const a of args) if (a.ty.k === 'record') for (const di of this.u.templateEntries(name, a.ty.rec.scope.filter(c => c !== '(anonymous)'), 'function', true)) ents.add(di);
      for (const di of ents) {
        const f = this.tryInstantiate(di, [], args, notViable);
        if (f && !f.cls && f.ty.params.length === args.length && !free.some(o => sameSignature(o, f))) free.push(f);
      }
    }
    const cands: { f: FuncSym; ranks: number[] }[] = [];
    for (const m of members) {
      const q = a0.ty.q & (Q.Const | Q.Volatile), tq = m.staticMember ? q : (m.thisQ ?? 0) & (Q.Const | Q.Volatile);
      if (q & ~tq) continue;
      const rs = [q === tq ? 0 : 1];
      let ok = true;
      for (let i = 1; i < args.length; i++) { const r = convRank(this.u.conv, args[i]!, m.ty.params[i - 1]!); if (r < 0) { ok = false; break; } rs.push(r); }
      if (ok) cands.push({ f: m, ranks: rs });
    }
    for (const f of free) {
      const rs: number[] = [];
      let ok = true;
      for (let i = 0; i < args.length; i++) { const r = convRank(this.u.conv, args[i]!, f.ty.params[i]!); if (r < 0) { ok = false; break; } rs.push(r); }
      if (ok) cands.push({ f, ranks: rs });
    }
    if (unreadable && cands.length === 0) throw new Unsupported(unreadable);
    if (headerFailed && cands.length === 0) throw new Unsupported(`operator template ${name}: ${headerFailed}`);
    // none viable: the built-in operator on what the class operands convert to remains ([over.built]; `L{} >= 4`
    // with L an integral_constant), which the caller tries
    if (cands.length === 0) return null;
    let best = cands[0]!;
    for (const c of cands.slice(1)) if (compareRanks(c.ranks, best.ranks) < 0) best = c;
    if (!cands.every(c => c === best || compareRanks(best.ranks, c.ranks) < 0)) {
      // candidates with the same conversions: a non-template beats a template specialisation, then the more
      // specialised template wins (partial ordering: libstdc++'s two operator!= of __normal_iterator)
      const ties = cands.filter(c => c === best || (compareRanks(c.ranks, best.ranks) >= 0 && compareRanks(best.ranks, c.ranks) >= 0));
      const plain = ties.filter(t => !t.f.targs);
      const winner = plain.length === 1 ? plain[0] : ties.find(t => ties.every(o => o === t || this.u.templates.moreSpecialized(t.f, o.f)));
      if (winner && cands.every(c => ties.includes(c) || compareRanks(best.ranks, c.ranks) < 0)) best = winner;
      // a tie among the headers' own operators is our misreading of them (cicc compiles such units): fall back
      else if (ties.every(t => !this.u.isUserFile(t.f.pos))) throw new Unsupported(`overload resolution among header declarations of operator${op}`);
      else { this.u.error(pos, 350, `more than one operator "${op}" matches these operands`); return errExpr(pos); }
    }
    if (best.f.cls && !best.f.staticMember) return this.buildCall(best.f, null, best.f.ty, args.slice(1), pos, a0);
    return this.buildCall(best.f, null, best.f.ty, args, pos);
  }
}
declare module './parser-core' { interface Parser extends OverloadsRoom {} }
addRoom(OverloadsRoom);


/**
 * A user-defined conversion: a converting constructor of the target class, or a conversion function of the
 * source class, followed by a standard conversion. Null unless exactly one applies. No diagnostics.
 */
export function userConversion(uc: UserConversions, e: Expr, to: CType): Expr | null {
  const t = unqual(to.k === 'ref' ? to.to : to);
  const found: Expr[] = [], exact: Expr[] = [];
  // rank of the standard conversion each candidate needs (converting constructors: before, conversion
  // functions: after the user-defined conversion); the best rank wins when it is unique (__half(float) for a
  // float among __half's many converting constructors, operator float() for a double)
  const ranks: number[] = [];
  if (t.k === 'record' && !(e.ty.k === 'record' && e.ty.rec === t.rec)) {
    const viaTemplates: FuncSym[] = [];
    for (const mt of ctorTmplsOf(t.rec)) {
      // a converting constructor template: the specialisation for this argument
      if (!mt.instantiate) throw new Unsupported(`implicit conversion by a constructor template of ${t.rec.name}`);
      const c = mt.instantiate([e]);
      if (c) viaTemplates.push(c);
    }
    for (const c of [...ctorsOf(t.rec), ...viaTemplates]) {
      if (c.deleted || c.ty.params.length === 0) continue;
      if (c.ty.params.length > 1 && c.defaults[1] === null) continue;
      if ((c as FuncSym & { explicit?: boolean }).explicit) continue;
      const a = implicitConvert(uc, e, c.ty.params[0]!);
      if (!a) continue;
      if (c.ty.params.length > 1) return null;   // default arguments need the parser: leave it to overload resolution
      found.push(mk(t, e.pos, false, { k: 'construct', ctor: c, args: [a] }));
      ranks.push(convRank(uc, e, c.ty.params[0]!));
    }
  }
  if (e.ty.k === 'record') {
    const q = e.ty.q & (Q.Const | Q.Volatile);
    for (const m of preferExactThis(allMethods(e.ty.rec).filter(m => m.op === 'cv'), q)) {
      if ((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile)) continue;
      if ((m as FuncSym & { explicit?: boolean }).explicit) continue;
      const rt = m.ty.ret;
      const call = mk(rt.k === 'ref' ? rt.to : rt, e.pos, rt.k === 'ref', { k: 'call', f: m, callee: null, args: [], thisPtr: mk(ptrTo(e.ty), e.pos, false, { k: 'addr', e }) });
      const c = implicitConvert(uc, call, to);
      if (c) { found.push(c); ranks.push(convRank(uc, call, to)); if (typeName(unqual(call.ty)) === typeName(t)) exact.push(c); }
    }
  }
  if (found.length > 1 && exact.length === 1) return exact[0]!;
  if (found.length > 1) {
    const best = Math.min(...ranks.map(r => r < 0 ? Infinity : r));
    const bestOnes = found.filter((_, i) => ranks[i] === best);
    if (bestOnes.length === 1) return bestOnes[0]!;
  }
  return found.length === 1 ? found[0]! : null;
}
/** A device builtin known without a declaration: lowered by name (builtins.ts), never compiled. */
export function builtinSym(u: UnitApi, name: string, params: CType[], ret: CType, variadic: boolean, pos: Pos): FuncSym {
  return {
    kind: 'func', name, ty: { k: 'func', ret, params, variadic, q: 0 } as CType & { k: 'func' }, scope: [], paramNames: params.map(() => ''),
    defaults: params.map(() => null), isGlobal: false, isDevice: true, isHost: false, deviceBuiltin: true, isStatic: false, inAnon: false,
    externC: true, isInline: false, forceinline: false, noinline: false, bodyStart: -1, bodyEnd: -1, pos, file: u.fileOf(pos), id: u.nextId++,
  };
}
/**
 * GCC builtins EDG knows without a declaration (what builtins.ts lowerGcc lowers): `__builtin_unreachable()` after a
 * switch that covers every case, `__builtin_assume(x)`, `__builtin_assume_aligned(p, 16)`.
 */
export const GCC_IMPLICIT: Record<string, () => { params: CType[]; ret: CType; variadic: boolean }> = {
  __builtin_unreachable: () => ({ params: [], ret: C.void, variadic: false }),
  __builtin_trap: () => ({ params: [], ret: C.void, variadic: false }),
  __builtin_assume: () => ({ params: [C.bool], ret: C.void, variadic: false }),
  __builtin_prefetch: () => ({ params: [ptrTo(withQ(C.void, Q.Const))], ret: C.void, variadic: true }),
  __builtin_assume_aligned: () => ({ params: [ptrTo(withQ(C.void, Q.Const)), C.ulong], ret: ptrTo(C.void), variadic: true }),
};
/** GCC's bit builtins and the CUDA device functions that compute the same (defined where GCC's are). */
export const GCC_BIT_BUILTINS: Record<string, string> = {
  clz: '__clz', clzl: '__clzll', clzll: '__clzll', popcount: '__popc', popcountl: '__popcll', popcountll: '__popcll',
};
/** <cmath> functions whose mixed-type calls go to a promoting template (libstdc++'s __promote_2; for pow, CUDA's cudart builtin). */
export const PROMOTING_MATH = new Set(['pow', 'atan2', 'fmod', 'hypot', 'fmin', 'fmax', 'fdim', 'copysign', 'nextafter', 'remainder', 'fma']);
/**
 * What the promoting template of a <cmath> function does with arithmetic arguments: convert them all to double
 * when one is double or an integer, else to float, and call that overload (std::pow(float, int) is pow(double, double)).
 * Null when the arguments are not all arithmetic, one is long double, or no such overload is in the set.
 */
export function promotedMathOverload(name: string, set: FuncSym[], args: Expr[]): FuncSym | null {
  if (!PROMOTING_MATH.has(name)) return null;
  const ts = args.map(a => unqual(a.ty.k === 'ref' ? a.ty.to : a.ty));
  if (!ts.every(t => isArith(t)) || ts.some(t => t.k === 'ldouble')) return null;
  const p: CType = ts.some(t => t.k !== 'float') ? C.double : C.float;
  return set.find(f => !f.targs && f.ty.params.length === args.length && f.ty.params.every(q => unqual(q).k === p.k)) ?? null;
}
/**
 * Of member functions differing only in their cv-qualification (`operator __half_raw() const` and `... const
 * volatile`), the ones whose qualification equals the object's (q): the better implicit object parameter binding.
 */
export function preferExactThis(ms: FuncSym[], q: number): FuncSym[] {
  const cvOf = (m: FuncSym) => (m.thisQ ?? 0) & (Q.Const | Q.Volatile);
  return ms.filter(m => cvOf(m) === q || !ms.some(o => o !== m && o.name === m.name && cvOf(o) === q && sameParams(o, m)));
}
export function sameParams(a: FuncSym, b: FuncSym): boolean {
  return a.ty.params.length === b.ty.params.length && a.ty.params.every((p, i) => typeName(p) === typeName(b.ty.params[i]!));
}
/**
 * Can a declaration of this arity (null: unknown) be called with these arguments? A parameter of type
 * initializer_list<E> takes a braced list or an initializer_list object, nothing else deduces it.
 */
export function mayTake(a: { min: number; max: number; initLists: number[] } | null, args: Expr[]): boolean {
  if (a === null) return true;
  if (args.length < a.min || args.length > a.max) return false;
  return a.initLists.every(i => i >= args.length || args[i]!.k === 'initlist' || (args[i]!.ty.k === 'record' && args[i]!.ty.rec.name === 'initializer_list'));
}
/** <0 if a is better than b, >0 if worse, 0 if neither. */
/** A viable function, its conversions' ranks, and which of its parameters are references. */
export interface Candidate { f: FuncSym; ranks: number[]; refs: boolean[] }

/**
 * compareRanks of two candidates. A reference binding that adds cv-qualification (`int` lvalue to `const int &`)
 * loses only to another reference binding ([over.ics.rank] 3.2.3, 3.2.6: one that adds less, `T&&` for an
 * rvalue); against a parameter taken by value it is an identity like any other (CUB's
 * `ExclusiveScan(T, T&, const T&, ScanOp)` then wins by partial ordering).
 */
export function compareCandidates(a: Candidate, b: Candidate): number {
  const ra = a.ranks.map((r, i) => (r === 0.125 && a.refs[i] && !b.refs[i] ? 0 : r));
  const rb = b.ranks.map((r, i) => (r === 0.125 && b.refs[i] && !a.refs[i] ? 0 : r));
  return compareRanks(ra, rb);
}

export function compareRanks(a: number[], b: number[]): number {
  let better = false, worse = false;
  for (let i = 0; i < a.length; i++) { if (a[i]! < b[i]!) better = true; else if (a[i]! > b[i]!) worse = true; }
  return better && !worse ? -1 : worse && !better ? 1 : 0;
}

/** The namespaces of the classes and enums the argument types name (with their template arguments and bases). */
function associatedNamespaces(types: CType[]): Set<string> {
  const out = new Set<string>(), seen = new Set<RecordDecl>();
  const visit = (t: CType, depth: number): void => {
    if (depth > 16) return;
    switch (t.k) {
      case 'ptr': case 'ref': visit(t.to, depth + 1); return;
      case 'array': visit(t.elem, depth + 1); return;
      case 'func': visit(t.ret, depth + 1); for (const p of t.params) visit(p, depth + 1); return;
      case 'enum': out.add(t.en.scope.join('::')); return;
      case 'record': {
        const r = t.rec;
        if (seen.has(r)) return;
        seen.add(r);
        out.add(r.scope.join('::'));
        for (const a of r.targs ?? []) visitArg(a, depth + 1);
        for (const b of r.bases ?? []) visit({ k: 'record', rec: b.rec, q: 0 }, depth + 1);
        return;
      }
      default: return;
    }
  };
  const visitArg = (a: TArg, depth: number): void => {
    if (a.k === 'pack') for (const x of a.args) visitArg(x, depth + 1);
    else if (a.k === 'type') visit(a.ty, depth);
  };
  for (const t of types) visit(t, 0);
  return out;
}
