// Parser room: initialisation: initializers, braced lists, constructors, member initializers, temporaries.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, Stmt, Init, FuncSym, Pos } from './ast';
import { type CType, type Field, type RecordDecl, C, Q, ptrTo, refTo, withQ, unqual, isAuto, sizeOfC, typeName, basePath, anonPath } from './ctype';
import { mk, errExpr, rval, implicitConvert, cast, isXvalue } from './sema';
import { isDynamic } from './virtuals';
import { InitItems } from './parser-types';
import { isByteCopy, ctorsOf, ctorTmplsOf } from './parser-classes';
import { Parser, addRoom } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class InitialisationRoom {

  /** Parse an initialiser for a global/local of type ty ('=' already consumed or at '{'). */
  parseInitializer(this: Parser, ty: CType): Init {
    if (this.at('{')) return this.parseInitList(ty);
    const pos = this.p;
    const e = this.parseAssign();
    return this.initFromExpr(e, ty, pos);
  }
  initFromExpr(this: Parser, e: Expr, ty: CType, pos: Pos): Init {
    if (ty.k === 'array' && e.k === 'str' && e.ty.k === 'array') return { k: 'expr', e };
    const c = implicitConvert(this.u.conv, e, ty);
    if (!c && e.ty.k === 'record' && ty.k !== 'record') { this.u.error(pos, 415, `no suitable conversion function from "${typeName(e.ty)}" to "${typeName(ty)}" exists`); return { k: 'expr', e: errExpr(pos) }; }
    if (!c) { this.u.error(pos, 144, `a value of type "${typeName(e.ty)}" cannot be used to initialize an entity of type "${typeName(ty)}"`); return { k: 'expr', e: errExpr(pos) }; }
    return { k: 'expr', e: c };
  }
  parseInitList(this: Parser, ty: CType): Init {
    const pos = this.p;
    this.expect('{');
    const items: { off: number; path: number[]; init: Init }[] = [];
    if (ty.k === 'array') {
      let i = 0;
      const es = sizeOfC(ty.elem);
      // `{Is...}`, `{f(xs)...}`: one element per element of the pack
      const src = this.initItems();
      while (!src.end()) {
        if (this.at('[') && !src.expanded()) throw new Unsupported('designated initializer');
        items.push({ off: i * es, path: [i], init: this.takeAggregateItem(ty.elem, src) });
        i++;
      }
      this.expect('}');
      // elements without an initialiser: the default constructor of a class element
      const d = ty.n !== null && i < ty.n ? this.defaultInit(ty.elem, pos) : null;
      if (d) for (let j = i; j < ty.n!; j++) items.push({ off: j * es, path: [j], init: d });
      return { k: 'list', ty, items, pos };
    }
    if (ty.k === 'record' && (ctorsOf(ty.rec).length || ctorTmplsOf(ty.rec).length)) {
      const args = this.parseArgs('}', 'braced argument to a constructor');
      this.expect('}');
      return this.initFromArgs(ty, args, true, pos);
    }
    if (ty.k === 'record') {
      const fields = ty.rec.fields;
      const src = this.initItems();
      let i = 0;
      // the bases come first in the list ([dcl.init.aggr], C++17), an empty one too though it has no field
      for (const b of ty.rec.bases ?? []) {
        if (src.end() || (this.at('.') && !src.expanded())) break;
        if (b.rec.fields.length === 0) { this.emptyBaseItem(b.field.ty, src); continue; }
        if (fields[i] !== b.field) throw new Unsupported('aggregate initializer of a class whose bases are laid out out of order');
        items.push({ off: b.field.offset, path: [i], init: this.takeAggregateItem(b.field.ty, src) });
        i++;
      }
      while (!src.end()) {
        if (this.at('.') && !src.expanded()) throw new Unsupported('designated initializer');
        while (fields[i]?.pad) i++;
        const f = fields[i];
        if (!f) { this.u.error(this.p, 146, 'too many initializer values'); this.skipInitTail(); break; }
        // `std::array<int, 4> a = {1, 2, 3, 4}`: the inner braces of the array member elided
        items.push({ off: f.offset, path: [i], init: this.takeAggregateItem(f.ty, src) });
        i++;
        if (ty.rec.tag === 'union') break;
      }
      this.expect('}');
      return { k: 'list', ty, items, pos };
    }
    // scalar in braces
    if (this.at('}')) { this.p++; return { k: 'zero', ty }; }
    const init = this.parseInitializer(ty);
    this.eat(',');
    this.expect('}');
    return init;
  }
  /** An array member initialised from the enclosing list without its own braces ([dcl.init.aggr] brace
   *  elision): it takes as many of the list's following initializers as it has elements. */
  parseElidedArray(this: Parser, ty: CType & { k: 'array' }, src: InitItems): Init {
    const pos = this.p;
    const items: { off: number; path: number[]; init: Init }[] = [];
    const es = sizeOfC(ty.elem);
    const n = ty.n ?? 0;
    for (let j = 0; j < n && !src.end(); j++) items.push({ off: j * es, path: [j], init: this.takeAggregateItem(ty.elem, src) });
    const d = items.length < n ? this.defaultInit(ty.elem, pos) : null;
    if (d) for (let j = items.length; j < n; j++) items.push({ off: j * es, path: [j], init: d });
    return { k: 'list', ty, items, pos };
  }
  /**
   * One element or member of an aggregate from its enclosing list. A sub-aggregate whose initializer is not in
   * braces of its own takes its elements from the list ([dcl.init.aggr] brace elision): always an array (no
   * expression has an array type), a class when the expression is not of a class type (`uint2x4 a[2] = {1, 2, ...}`).
   */
  /** The initializer of an empty base in an aggregate's list: read and checked, nothing to store (`{}` only). */
  emptyBaseItem(this: Parser, t: CType, src: InitItems): void {
    const init = this.takeAggregateItem(t, src);
    if (!(init.k === 'zero' || (init.k === 'list' && init.items.length === 0))) throw new Unsupported('initializer of an empty base class other than {}');
  }
  takeAggregateItem(this: Parser, t: CType, src: InitItems): Init {
    if (t.k === 'array' && t.n !== 0 && !src.braced()) return this.parseElidedArray(t, src);
    if (t.k === 'record' && !src.braced()) {
      const e = src.peek();
      if (e && e.ty.k !== 'record' && e.ty.k !== 'error') {
        const rec = t.rec;
        const plain = !ctorsOf(rec).length && !ctorTmplsOf(rec).length && !(rec.bases ?? []).length && rec.tag !== 'union';
        if (!plain || !rec.fields.some(f => !f.pad) || isDynamic(rec)) throw new Unsupported('brace elision in an aggregate initializer');
        return this.parseElidedRecord(t, src);
      }
    }
    return src.take(t);
  }
  /** A class member or element initialised from the enclosing list without its own braces: its members in turn. */
  parseElidedRecord(this: Parser, ty: CType & { k: 'record' }, src: InitItems): Init {
    const pos = this.p;
    const items: { off: number; path: number[]; init: Init }[] = [];
    const fields = ty.rec.fields;
    for (let i = 0; i < fields.length && !src.end(); i++) {
      const f = fields[i]!;
      if (f.pad) continue;
      items.push({ off: f.offset, path: [i], init: this.takeAggregateItem(f.ty, src) });
    }
    return { k: 'list', ty, items, pos };
  }
  /**
   * The initializers of the braced list at the cursor (after its '{'), one at a time, each with the ',' after it:
   * a pack expansion (`A{static_cast<T>(in[Is])...}`) gives one expression per element.
   */
  initItems(this: Parser): InitItems {
    const pending: Expr[] = [];
    let closed = false;
    const fill = (): void => {
      while (pending.length === 0 && !closed && !this.at('}')) {
        const dots = this.at('{') ? -1 : this.packDotsAhead();
        if (dots < 0) return;
        pending.push(...this.expandPack(this.p, dots, () => this.parseAssign()));
        if (!this.eat(',')) closed = true;
      }
    };
    return {
      end: () => { fill(); return pending.length === 0 && (closed || this.at('}')); },
      expanded: () => pending.length > 0,
      braced: () => { fill(); return pending.length === 0 && (this.at('{') || this.kind() === Tok.String); },
      peek: () => {
        fill();
        if (pending.length === 0 && !closed && !this.at('}') && !this.at('{') && this.kind() !== Tok.String) {
          pending.push(this.parseAssign());
          if (!this.eat(',')) closed = true;
        }
        return pending[0] ?? null;
      },
      take: (t: CType) => {
        fill();
        if (pending.length) { const e = pending.shift()!; return this.initFromExpr(e, t, e.pos); }
        const init = this.parseInitializer(t);
        if (!this.eat(',')) closed = true;
        return init;
      },
    };
  }
  /** `*this` as an lvalue. */
  thisObj(this: Parser, pos: Pos): Expr {
    const tv = this.fn?.thisVar;
    if (!tv) { this.u.error(pos, 245, 'a nonstatic member reference must be relative to a specific object'); return errExpr(pos); }
    const pt = tv.ty as CType & { k: 'ptr' };
    return mk(pt.to, pos, true, { k: 'deref', e: rval(mk(tv.ty, pos, true, { k: 'var', sym: tv })) });
  }
  /** A constructor's mem-initializers (bases and members, in declaration order) and default member initialisers. */
  parseMemInitializers(this: Parser, f: FuncSym): Stmt[] {
    const rec = f.cls!;
    type Given = { args: Expr[]; braced: boolean; pos: Pos };
    const given = new Map<string, Given>();
    const givenBase = new Map<RecordDecl, Given>();
    let delegate: Given | undefined;
    let count = 0;
    if (f.initStart !== undefined && f.initStart >= 0) {
      const save = this.p;
      this.p = f.initStart + 1;
      for (;;) {
        const pos = this.p;
        this.eat('::');
        let name = this.tx(); this.p++;
        while (this.at('::')) { this.p++; name = this.tx(); this.p++; }
        if (this.at('<')) this.p += this.angleLength(0);
        const braced = this.at('{');
        const cls = this.memInitClass(rec, name, pos);
        this.p++;
        const close = braced ? '}' : ')';
        const args = this.parseArgs(close);
        this.expect(close);
        const g = { args, braced, pos };
        if (cls === rec) delegate = g;
        else if (cls) givenBase.set(cls, g);
        else given.set(name, g);
        count++;
        if (!this.eat(',')) break;
      }
      this.p = save;
    }
    const out: Stmt[] = [];
    const self = this.thisObj(f.pos);
    if (delegate) {
      // a delegating constructor: the target constructor initialises the whole object (nothing else may be named)
      if (count > 1) throw new Unsupported(`delegating constructor of ${rec.name} with other mem-initializers`);
      out.push({ k: 'init', target: self, init: this.initFromArgs({ k: 'record', rec, q: 0 }, delegate.args, delegate.braced, delegate.pos), pos: f.pos });
      return out;
    }
    const used = new Set<string>();
    for (const b of rec.bases ?? []) {
      let g = givenBase.get(b.rec);
      if (!g && given.has(b.rec.name)) { g = given.get(b.rec.name); used.add(b.rec.name); }
      const target = this.baseSubobject(self, rec, b.rec, f.pos);
      const init = g ? this.initFromArgs(b.field.ty, g.args, g.braced, g.pos) : this.defaultInit(b.field.ty, f.pos);
      if (init) out.push({ k: 'init', target, init, pos: f.pos });
    }
    for (const fld of rec.fields) {
      if (fld.isBase) continue;
      if (fld.anon && this.anonMemInits(rec, fld, self, given, used, out, f.pos)) continue;
      const g = given.get(fld.name);
      if (g) used.add(fld.name);
      const target = mk(fld.ty, f.pos, true, { k: 'member', e: self, field: fld, arrow: false });
      let init: Init | null;
      if (g) init = this.initFromArgs(fld.ty, g.args, g.braced, g.pos);
      else if (fld.defaultInit !== undefined) init = this.memberDefault(fld);
      else init = this.defaultInit(fld.ty, f.pos);
      if (init) out.push({ k: 'init', target, init, pos: f.pos });
    }
    // a mem-initializer we could not place must not be dropped silently
    for (const name of given.keys()) if (!used.has(name)) throw new Unsupported(`mem-initializer ${name} of ${rec.name}`);
    return out;
  }
  /**
   * Mem-initializers naming members of the anonymous union `fld` (`U(int x) : a(x) {}` with `union { int a;
   * float f; }`): the named member is initialised through the unnamed one. False when none names one.
   */
  anonMemInits(this: Parser, rec: RecordDecl, fld: Field, self: Expr, given: Map<string, { args: Expr[]; braced: boolean; pos: Pos }>, used: Set<string>, out: Stmt[], pos: Pos): boolean {
    const named = [...given.keys()].filter(n => anonPath(rec, n)?.[0] === fld);
    if (named.length === 0) return false;
    if (fld.ty.k !== 'record' || fld.ty.rec.tag !== 'union' || named.length > 1) throw new Unsupported(`mem-initializers of members of an anonymous ${fld.ty.k === 'record' ? fld.ty.rec.tag : 'member'}`);
    const g = given.get(named[0]!)!;
    used.add(named[0]!);
    let target = self;
    for (const fl of anonPath(rec, named[0]!)!) target = mk(fl.ty, pos, true, { k: 'member', e: target, field: fl, arrow: false });
    out.push({ k: 'init', target, init: this.initFromArgs(target.ty, g.args, g.braced, g.pos), pos });
    return true;
  }
  /**
   * The class a mem-initializer names: the constructor's own class (a delegating constructor), or a base
   * named other than by its own name, through an alias template or a typedef (libcu++'s
   * `__atomic_ref_impl<_Tp>(__ref)`), read as a type. Undefined for members and bases named by their name.
   */
  memInitClass(this: Parser, rec: RecordDecl, name: string, at: number): RecordDecl | undefined {
    const bases = rec.bases ?? [];
    if (bases.some(b => b.rec.name === name)) return undefined;
    if (name === rec.name) return rec;
    if (bases.length === 0 || rec.fields.some(fl => !fl.isBase && fl.name === name) || anonPath(rec, name)) return undefined;
    const save = this.p, dl = this.u.diags.length, ec = this.u.errorCount;
    try {
      this.p = at;
      const t = this.parseDeclSpecs().ty;
      return t && t.k === 'record' ? (t.rec === rec ? rec : bases.find(b => b.rec === t.rec)?.rec) : undefined;
    } catch {
      return undefined;   // not a type: a name nothing matches is reported below, not dropped
    } finally {
      this.p = save; this.u.diags.length = dl; this.u.errorCount = ec;
    }
  }
  /** A default member initialiser, parsed in the class's scope. */
  memberDefault(this: Parser, fld: { ty: CType; defaultInit?: number }): Init | null {
    if (fld.defaultInit === undefined) return null;
    const save = this.p, end = this.end;
    this.p = fld.defaultInit; this.end = this.u.toks.count;
    try {
      if (this.at('{')) return this.parseInitList(fld.ty);
      return this.parseInitializer(fld.ty);
    } finally { this.p = save; this.end = end; }
  }
  /**
   * Adds to ctors the specialisations of ty's constructor templates deduced from args; gives the reason a header's
   * template could not be used, if one could not: its constraints (libcu++'s concept emulation, SFINAE on
   * expressions) may be our misreading, so no match then is a fallback, not an error.
   */
  addCtorTemplates(this: Parser, ty: CType & { k: 'record' }, args: Expr[], ctors: FuncSym[]): string | null {
    let headerTmplFailed: string | null = null;
    for (const mt of ctorTmplsOf(ty.rec)) {
      const f = this.tryInstantiateMember(mt, [], args, r => { if (!this.u.isUserFile(mt.start)) headerTmplFailed ??= r; });
      if (!f || ctors.includes(f)) continue;
      const p0 = f.ty.params[0];
      const a0 = args.length === 1 ? unqual(args[0]!.ty) : null;
      if (p0 && a0 && a0.k === 'record' && a0.rec === ty.rec) {
        // a copy: the copy constructor wins over a template's `(const C&)` and `(C)`; a forwarding `(U&&)` would beat it
        const pt = p0.k === 'ref' ? p0.to : p0;
        // (a `(C&)` template cannot bind a const or an rvalue argument: not viable then, the copy constructor serves)
        const binds = !(p0.k === 'ref' && p0.rv) && args[0]!.lv && !isXvalue(args[0]!) && !(args[0]!.ty.q & Q.Const);
        if (p0.k === 'ref' && !(pt.q & Q.Const) && pt.k === 'record' && pt.rec === ty.rec && binds) throw new Unsupported(`constructor template of ${ty.rec.name} taking it by non-const reference`);
        continue;
      }
      ctors.push(f);
    }
    return headerTmplFailed;
  }
  /** Initialisation of an object of type ty from `(args)` or `{args}`. */
  initFromArgs(this: Parser, ty: CType, args: Expr[], braced: boolean, pos: Pos): Init {
    if (ty.k === 'record') {
      const ctors = ctorsOf(ty.rec);
      const rec = ty.rec;
      const copyArg = (t: CType | undefined) => !!t && (t.k === 'ref' ? t.to : t).k === 'record' && ((t.k === 'ref' ? t.to : t) as CType & { k: 'record' }).rec === rec;
      if (args.length === 1 && args[0]!.ty.k === 'record' && args[0]!.ty.rec === rec && !ctors.some(c => c.ty.params.length >= 1 && copyArg(c.ty.params[0]))) {
        // the implicit copy constructor (an exact match; converting constructors cannot beat it)
        return { k: 'expr', e: args[0]! };
      }
      const headerTmplFailed = this.addCtorTemplates(ty, args, ctors);
      const unusable = () => new Unsupported(`constructor template of ${ty.rec.name}: ${headerTmplFailed}`);
      if (ctors.length) {
        const dl = this.u.diags.length, ec = this.u.errorCount;
        const f = this.resolveOverload(ctors, args, pos, ty.rec.name);
        if (!f && headerTmplFailed) { this.u.diags.length = dl; this.u.errorCount = ec; throw unusable(); }
        if (!f) return { k: 'expr', e: errExpr(pos) };
        if (f.defaulted && f.bodyStart < 0) {
          if (args.length === 0) return this.implicitDefault(ty, pos) ?? { k: 'zero', ty };
          if (args.length === 1) return { k: 'expr', e: args[0]! };
        }
        return { k: 'ctor', ty, f, args: this.convertArgs(f, args, pos) };
      }
      if (args.length === 0) return this.defaultInit(ty, pos) ?? { k: 'zero', ty };
      if (args.length === 1 && args[0]!.ty.k === 'record' && args[0]!.ty.rec === ty.rec) return { k: 'expr', e: args[0]! };
      if (args.length === 1 && !braced && args[0]!.ty.k === 'record') {
        // another class's conversion function (`__half_raw(h)`)
        const c = implicitConvert(this.u.conv, args[0]!, ty);
        if (c) return { k: 'expr', e: c };
      }
      if (headerTmplFailed && args.length > 0) throw unusable();
      if (!braced) { this.u.error(pos, 289, `no instance of constructor "${ty.rec.name}::${ty.rec.name}" matches the argument list`); return { k: 'expr', e: errExpr(pos) }; }
      // aggregate initialisation from a braced list of expressions
      const items: { off: number; path: number[]; init: Init }[] = [];
      const fields = ty.rec.fields;
      let i = 0, k = 0;
      // an array member takes as many of the expressions as it has elements (brace elision: `array<T, N>{a, b, c}`)
      const elided = (t: CType & { k: 'array' }): Init => {
        const els: { off: number; path: number[]; init: Init }[] = [];
        const es = sizeOfC(t.elem);
        for (let j = 0; j < (t.n ?? 0) && k < args.length; j++) {
          const a = args[k]!;
          els.push({ off: j * es, path: [j], init: t.elem.k === 'array' && a.ty.k !== 'array' ? elided(t.elem) : (k++, this.initFromExpr(a, t.elem, a.pos)) });
        }
        const d = t.n !== null && els.length < t.n ? this.defaultInit(t.elem, pos) : null;
        if (d) for (let j = els.length; j < t.n!; j++) els.push({ off: j * es, path: [j], init: d });
        return { k: 'list', ty: t, items: els, pos };
      };
      while (k < args.length) {
        while (fields[i]?.pad) i++;
        const fl = fields[i];
        if (!fl) { this.u.error(args[k]!.pos, 146, 'too many initializer values'); return { k: 'expr', e: errExpr(pos) }; }
        const a = args[k]!;
        items.push({ off: fl.offset, path: [i], init: fl.ty.k === 'array' && a.ty.k !== 'array' ? elided(fl.ty) : (k++, this.initFromExpr(a, fl.ty, a.pos)) });
        i++;
      }
      return { k: 'list', ty, items, pos };
    }
    if (args.length === 0) return { k: 'zero', ty };
    if (braced && ty.k === 'array' && ty.elem.k !== 'array' && !(args.length === 1 && args[0]!.ty.k === 'array')) {
      // an array member's braced mem-initializer (`arr{1, 2, 3}`): its elements in order
      if (ty.n !== null && args.length > ty.n) { this.u.error(args[ty.n]!.pos, 146, 'too many initializer values'); return { k: 'expr', e: errExpr(pos) }; }
      const es = sizeOfC(ty.elem);
      return { k: 'list', ty, items: args.map((a, i) => ({ off: i * es, path: [i], init: this.initFromExpr(a, ty.elem, a.pos) })), pos };
    }
    if (args.length > 1) { this.u.error(pos, 146, 'too many initializer values'); return { k: 'expr', e: errExpr(pos) }; }
    return this.initFromExpr(args[0]!, ty, pos);
  }
  /** Default initialisation of a class object: its default constructor, or member defaults; null when nothing to do. */
  defaultInit(this: Parser, ty: CType, pos: Pos): Init | null {
    if (ty.k === 'array') {
      const each = ty.n !== null ? this.defaultInit(ty.elem, pos) : null;
      return each ? { k: 'list', ty, items: [], pos, partial: true, each } as Init : null;
    }
    if (ty.k !== 'record') return null;
    const ctors = ctorsOf(ty.rec);
    // a constructor template may be the default constructor (libstdc++'s unique_ptr: `template <class D = _Dp,
    // class = _DeleterConstraint<D>> unique_ptr()`), beside a copy and a move constructor
    const headerTmplFailed = ctors.length ? this.addCtorTemplates(ty, [], ctors) : null;
    if (ctors.length) {
      const dl = this.u.diags.length, ec = this.u.errorCount;
      const f = this.resolveOverload(ctors, [], pos, ty.rec.name);
      if (!f && headerTmplFailed) { this.u.diags.length = dl; this.u.errorCount = ec; throw new Unsupported(`constructor template of ${ty.rec.name}: ${headerTmplFailed}`); }
      if (!f) return { k: 'expr', e: errExpr(pos) };
      if (f.defaulted && !f.body && f.bodyStart < 0) return this.implicitDefault(ty, pos);
      return { k: 'ctor', ty, f, args: this.convertArgs(f, [], pos) };
    }
    return this.implicitDefault(ty, pos);
  }
  /** The implicit default constructor: bases and members with default initialisation. */
  implicitDefault(this: Parser, ty: CType & { k: 'record' }, pos: Pos): Init | null {
    const items: { off: number; path: number[]; init: Init }[] = [];
    ty.rec.fields.forEach((fl, i) => {
      const init = fl.defaultInit !== undefined ? this.memberDefault(fl) : this.defaultInit(fl.ty, pos);
      if (init) items.push({ off: fl.offset, path: [i], init });
    });
    if (!items.length && !isDynamic(ty.rec)) return null;   // a dynamic class's constructor at least sets the vptr
    return { k: 'list', ty, items, pos, partial: true } as Init;
  }
  convertArgs(this: Parser, f: FuncSym, args: Expr[], pos: Pos): Expr[] {
    const e = this.buildCall(f, null, f.ty, args, pos);
    return e.k === 'call' ? e.args : [];
  }
  /** The base-class subobject `b` of the object `obj` (an lvalue of class type `from`). */
  baseSubobject(this: Parser, obj: Expr, from: RecordDecl, b: RecordDecl, pos: Pos): Expr {
    const path = basePath(from, b);
    if (!path) return errExpr(pos);
    let e = obj;
    let cur = from;
    for (const step of path) {
      const fld = cur.fields.find(x => x.isBase && x.ty.k === 'record' && x.ty.rec === step);
      const bty = withQ({ k: 'record', rec: step, q: 0 }, e.ty.q & (Q.Const | Q.Volatile));
      if (fld) e = mk(bty, pos, e.lv, { k: 'member', e, field: fld, arrow: false });
      else e = mk(bty, pos, true, { k: 'deref', e: cast(mk(ptrTo(e.ty), pos, false, { k: 'addr', e }), 'p2p', ptrTo(bty)) });   // empty base at offset 0
      cur = step;
    }
    return e;
  }

  /** The declared type `pattern` (containing `auto`) deduced from the initialiser e (C++ [dcl.type.auto.deduct]). */
  deduceAuto(this: Parser, pattern: CType, e: Expr): CType {
    if (e.ty.k === 'error') return C.error;
    if (e.ty.k === 'void') { this.u.error(e.pos, 1593, 'cannot deduce "auto" type'); return C.error; }
    const leaf = (pat: CType, arg: CType): CType | null => {
      if (isAuto(pat)) return withQ(arg, pat.q);
      if (pat.k === 'ptr' && arg.k === 'ptr') { const t = leaf(pat.to, arg.to); return t && ptrTo(t, pat.q); }
      return null;
    };
    let r: CType | null;
    if (pattern.k === 'ref') {
      // auto&& is a forwarding reference: an lvalue makes it an lvalue reference
      if (pattern.rv && isAuto(pattern.to) && e.lv) return refTo(e.ty);
      const t = leaf(pattern.to, pattern.rv || (pattern.to.q & Q.Const) && !e.lv ? unqual(rval(e).ty) : e.ty);
      r = t && refTo(t, pattern.rv);
    } else r = leaf(pattern, unqual(rval(e).ty));
    if (!r) { this.u.error(e.pos, 1593, 'cannot deduce "auto" type'); return C.error; }
    return r;
  }
  /** `T(args)` / `T{args}` for a class type T: a temporary made by a constructor or aggregate/value initialisation. */
  constructTemp(this: Parser, ty: CType & { k: 'record' }, pos: Pos): Expr {
    const braced = this.at('{');
    if (!braced && !this.at('(')) this.syntax('expected a "("', 125);
    this.p++;
    const close = braced ? '}' : ')';
    const args = this.parseArgs(close, braced ? 'nested braced initializer in a temporary' : undefined);
    this.expect(close);
    return this.makeTemp(unqual(ty) as CType & { k: 'record' }, args, braced, pos);
  }
  makeTemp(this: Parser, ty: CType & { k: 'record' }, args: Expr[], braced: boolean, pos: Pos): Expr {
    if (args.some(a => a.ty.k === 'error')) return errExpr(pos);
    if (!ty.rec.complete) { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
    // a temporary of a class with a destructor: codegen refuses it unless it initialises an object directly
    const init = this.initFromArgs(ty, args, braced, pos);
    if (init.k === 'expr') return init.e.ty.k === 'record' && !init.e.lv ? init.e : init.e.k === 'error' ? init.e : mk(ty, pos, false, { k: 'temp', init });
    if (init.k === 'ctor') return mk(ty, pos, false, { k: 'construct', ctor: init.f, args: init.args });
    return mk(ty, pos, false, { k: 'temp', init });
  }
  /** Objects of classes with a non-trivial destructor need destructor calls at scope exit: not supported yet. */
  checkDestructor(this: Parser, t: CType): void {
    if (t.k === 'array') return this.checkDestructor(t.elem);
    if (t.k !== 'record') return;
    for (const m of t.rec.methods ?? []) {
      if (!m.dtor || m.defaulted) continue;
      if (m.bodyStart >= 0 && m.bodyEnd === m.bodyStart + 1) continue;   // `~S() {}`
      throw new Unsupported(`non-trivial destructor of ${t.rec.name}`);
    }
    for (const f of t.rec.fields) this.checkDestructor(f.ty);
  }
  /** Passing or returning a class object by value copies its bytes: a class with its own copy constructor is unsupported there. */
  checkTrivialCopy(this: Parser, t: CType): void {
    if (t.k !== 'record') return;
    if (isByteCopy(t.rec)) return;
    for (const m of t.rec.methods ?? []) {
      if (!m.ctor || m.defaulted || m.ty.params.length < 1) continue;
      const p0 = m.ty.params[0]!;
      if (p0.k === 'ref' && p0.to.k === 'record' && p0.to.rec === t.rec && m.ty.params.length - m.defaults.filter(d => d !== null).length <= 1)
        throw new Unsupported(`user-provided copy/move constructor of ${t.rec.name} in a by-value copy`);
    }
    for (const f of t.rec.fields) if (f.ty.k === 'record') this.checkTrivialCopy(f.ty);
  }
}
declare module './parser-core' { interface Parser extends InitialisationRoom {} }
addRoom(InitialisationRoom);
