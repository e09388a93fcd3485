// Parser room: name lookup (scopes, classes, namespaces, qualified names) and the types names denote.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, Sym, Pos } from './ast';
import { type CType, type RecordDecl, typeName, anonPath, withSugar } from './ctype';
import { errExpr, rval } from './sema';
import { dependent, type MemberClassTmpl } from './template-facts';
import { SyntaxAbort, TmplRef } from './parser-types';
import { memberTmplsOf, patternArgs, declaresNothing, lacksMember, memberClassTmplOf } from './parser-classes';
import { TYPE_KW, SPEC_KW } from './parser-words';
import { Parser, addRoom, type UnitApi } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class LookupRoom {
  /** The namespace a qualifier `a::b::` names (from the global namespace when `abs`), or null when it names none. */
  namespacePath(this: Parser, names: readonly string[], abs: boolean): string[] | null {
    let r: ReturnType<UnitApi['resolveIn']> = { kind: 'ns', path: [] };
    for (const c of names) {
      r = r.kind === 'ns' && (r.path.length || abs) ? this.u.resolveIn(r.path, c) : r.kind === 'ns' ? this.resolveNamespaceOrType(c) : r;
      if (r.kind !== 'ns') return null;
    }
    return r.path;
  }
  /** Templates of a kind named `name` in the current namespace, or brought into this block by a using-declaration. */
  visibleTemplates(this: Parser, name: string, kind: 'function' | 'record'): number[] {
    const ents = this.u.templateEntries(name, this.ns, kind);
    for (let i = this.usingTmpls.length - 1; i >= 0 && ents.length === 0; i--) {
      const ut = this.usingTmpls[i]!;
      if (ut.name === name) return this.u.templateEntries(name, ut.path, kind, true);
    }
    return ents;
  }
  lookup(this: Parser, name: string): Sym[] {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (!s) continue;
      if (this.lambda && i < this.lambda.base && s.kind === 'var' && (s.storage === 'local' || s.storage === 'param') && !s.constVal) return [this.capture(s)];
      return [s];
    }
    if (this.tscope) { const s = this.tscope.get(name); if (s) return [s]; }
    this.foundMemberTmpls = null;
    for (let i = this.recordStack.length - 1; i >= 0; i--) {
      const r = this.classMember(this.recordStack[i]!, name, true);
      if (r.length) return r;
      // a static data member declared earlier in the class body (`static const int b = a + 1;`)
      const sv = this.recordStack[i]!.statics?.get(name);
      if (sv) return [sv];
      // a static member function template declared earlier (`typedef decltype(__test<F, T>(0)) type;`)
      const mts = memberTmplsOf(this.recordStack[i]!, name);
      if (mts.length) { this.foundMemberTmpls = mts; return []; }
    }
    for (let c: RecordDecl | null | undefined = this.cls; c; c = c.parent) {
      const r = this.classMember(c, name, false);
      // member function templates, with the member functions of that name they overload
      const mts = r.every(m => m.kind === 'func') ? memberTmplsOf(c, name) : [];
      if (mts.length) this.foundMemberTmpls = mts;
      if (r.length || mts.length) return r;
    }
    // in a lambda in a member function: the members of the enclosing class
    for (let c: RecordDecl | null | undefined = this.lambda?.outerCls; c; c = c.parent) {
      const r = this.classMember(c, name, false);
      if (r.length) return r;
      const mts = memberTmplsOf(c, name);
      if (mts.length) { this.foundMemberTmpls = mts; return []; }
    }
    const r = this.u.lookup(name, this.ns);
    if (r.length || !this.usingNs.length) return r;
    for (let i = this.usingNs.length - 1; i >= 0; i--) { const x = this.u.lookupIn(this.usingNs[i]!.path, name); if (x.length) return x; }
    return r;
  }
  /** Members of a class (and its bases) named `name`: types, static data members, fields, member functions. */
  classMember(this: Parser, rec: RecordDecl, name: string, typesOnly: boolean): Sym[] {
    if (name === rec.name && !rec.targs) return [{ kind: 'type', name, ty: { k: 'record', rec, q: 0 } }];
    if (name === rec.name && rec.targs) return [{ kind: 'type', name, ty: { k: 'record', rec, q: 0 } }];
    const t = rec.types?.get(name);
    if (t) return [{ kind: 'type', name, ty: t }];
    const badType = (rec as RecordDecl & { badTypes?: Map<string, string> }).badTypes?.get(name);
    if (badType) throw new Unsupported(`${badType} (member type ${name} of ${rec.name})`);
    const en = rec.enumerators?.get(name);
    if (en) return [{ kind: 'enumconst', name, ty: en.ty, value: en.value }];
    if (!typesOnly) {
      const sv = rec.statics?.get(name);
      if (sv) return [sv];
      const f = rec.fields.find(x => x.name === name && !x.isBase) ?? anonPath(rec, name)?.at(-1);
      if (f) return [{ kind: 'field', name, ty: f.ty, rec }];
      const ms = (rec.methods ?? []).filter(m => m.name === name);
      if (ms.length) return ms;
      const bad = (rec as RecordDecl & { badMembers?: Map<string, string> }).badMembers?.get(name);
      if (bad) throw new Unsupported(`${bad} (member ${name} of ${rec.name})`);
      if (rec.mtmpls?.some(m => m.name === name)) {
        if (ms.length) throw new Unsupported(`member template ${rec.name}::${name} overloaded with member functions`);
        return [];
      }
      if (rec.memberTemplates?.has(name)) throw new Unsupported(`member template ${rec.name}::${name}`);
    }
    for (const b of rec.bases ?? []) { const r = this.classMember(b.rec, name, typesOnly); if (r.length) return r; }
    for (const v of rec.vbases ?? []) {
      // types, enumerators and static members of a virtual base need no subobject; its other members do
      const r = this.classMember(v, name, typesOnly);
      if (r.some(s => s.kind === 'field' || (s.kind === 'func' && !s.staticMember))) throw new Unsupported(`member ${name} of a virtual base class`);
      if (r.length) return r;
    }
    return [];
  }
  /** Parse an optionally qualified name; returns the syms it denotes (may be empty) and the last name. */
  qualifiedLookup(this: Parser): { name: string; syms: Sym[]; pos: Pos; tmpl?: TmplRef; value?: Expr } {
    const pos = this.p;
    let path: string[] | null = null;
    if (this.at('::')) { this.p++; path = []; }
    for (;;) {
      const name = this.tx();
      if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
      this.p++;
      if (this.at('::') && this.kind(1) === Tok.Ident) {
        // namespace or enum/class qualifier
        const base = path === null ? this.resolveNamespaceOrType(name) : this.u.resolveIn(path, name);
        this.p++;
        if (base.kind === 'ns') { path = base.path; continue; }
        if (base.kind === 'enum') {
          const n2 = this.tx(); this.p++;
          const v = base.en.consts.get(n2);
          if (v === undefined) { this.u.error(this.p - 1, 135, `enum "${base.en.name}" has no member "${n2}"`); return { name: n2, syms: [], pos }; }
          return { name: n2, syms: [{ kind: 'enumconst', name: n2, ty: { k: 'enum', en: base.en, q: 0 }, value: v }], pos };
        }
        if (base.kind === 'record') return this.recordMemberLookup(base.rec, pos);
        this.u.error(this.p - 2, 276, `name followed by "::" must be a class or namespace name`);
        this.p++;
        return { name, syms: [], pos };
      }
      const mct = path === null && this.at('<') ? this.memberClassTmpl(name) : undefined;
      if (mct && !mct.alias) {
        // `IsMultiple<int>::IS_MULTIPLE` of a member class template of the class being defined (or of the member function's class)
        this.p--;
        const t = this.memberClassType(mct);
        if (t.k === 'record' && this.at('::') && this.kind(1) === Tok.Ident) { this.p++; return this.recordMemberLookup(t.rec, pos); }
        throw new Unsupported(`member class template ${name} in an expression`);
      }
      if (this.at('<') && (path === null ? this.visibleTemplates(name, 'record') : this.u.templateEntries(name, path, 'record', true)).length) {
        this.p--;
        const t = this.templateIdType(name, path ?? this.ns, path !== null);
        if (t && t.k === 'record' && this.at('::')) { this.p++; return this.recordMemberLookup(t.rec, pos); }
        this.syntax('expected an expression', 29);
      }
      if (this.at('<') && !(path === null && this.lookup(name).some(x => x.kind === 'var'))) {
        // a variable template (`is_same_v<T, U>`, not hidden by a local of that name): its value for these arguments
        const vents = this.u.templateEntries(name, path ?? this.ns, 'variable', path !== null);
        if (vents.length) { const args = this.parseTemplateArgs(); return { name, syms: [], pos, value: this.u.templates.instantiateVariable(vents[0]!, args, this, pos) }; }
      }
      this.foundMemberTmpls = null;
      const syms = path === null ? this.lookup(name) : this.u.lookupIn(path, name);
      if (path === null && this.foundMemberTmpls && syms.every(x => x.kind === 'func')) {
        const members = this.foundMemberTmpls;
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        return { name, syms, pos, tmpl: { ents: [], explicit, members } };
      }
      if (syms.length && syms[0]!.kind !== 'func' && !(syms[0]!.kind === 'type')) return { name, syms, pos };
      const ents = path === null ? this.visibleTemplates(name, 'function') : this.u.templateEntries(name, path, 'function', true);
      if (ents.length) {
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        return { name, syms: syms.filter(x => x.kind === 'func'), pos, tmpl: { ents, explicit } };
      }
      if (this.at('<') && this.u.isTemplateName(name, path ?? this.ns) && !(syms.length && syms[0]!.kind === 'type')) throw new Unsupported(`template ${name}<...>`);
      return { name, syms, pos };
    }
  }
  /** `C::name` (after the '::'): a member of class C, or a nested class/enum member. */
  recordMemberLookup(this: Parser, rec0: RecordDecl, pos: Pos): { name: string; syms: Sym[]; pos: Pos; tmpl?: TmplRef } {
    let rec = rec0;
    for (;;) {
      this.eat('template');   // `C::template f<N>` disambiguator
      const n2 = this.tx(); this.p++;
      if (n2 === '~') throw new Unsupported('explicit destructor call');
      const ms = this.classMember(rec, n2, false);
      const mts = ms.length === 0 && !this.at('::') ? memberTmplsOf(rec, n2) : [];
      if (mts.length) {
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        return { name: n2, syms: [], pos, tmpl: { ents: [], explicit, members: mts } };
      }
      if (this.at('::') && ms.length === 1 && ms[0]!.kind === 'type' && ms[0]!.ty.k === 'record') { rec = ms[0]!.ty.rec; this.p++; continue; }
      if (this.at('::') && ms.length === 1 && ms[0]!.kind === 'type' && ms[0]!.ty.k === 'enum') {
        const en = ms[0]!.ty.en; this.p++;
        const n3 = this.tx(); this.p++;
        const v = en.consts.get(n3);
        if (v === undefined) { this.u.error(this.p - 1, 135, `enum "${en.name}" has no member "${n3}"`); return { name: n3, syms: [], pos }; }
        return { name: n3, syms: [{ kind: 'enumconst', name: n3, ty: ms[0]!.ty, value: v }], pos };
      }
      return { name: n2, syms: ms, pos };
    }
  }
  resolveNamespaceOrType(this: Parser, name: string): ReturnType<UnitApi['resolveIn']> {
    const ts = this.tscope?.get(name);
    if (ts && ts.kind === 'type' && ts.ty.k === 'record') return { kind: 'record', rec: ts.ty.rec };
    for (const r of [...this.recordStack].reverse().concat(this.cls ? [this.cls] : [])) {
      const m = this.classMember(r, name, true);
      if (m.length && m[0]!.kind === 'type' && m[0]!.ty.k === 'record') return { kind: 'record', rec: m[0]!.ty.rec };
      if (m.length && m[0]!.kind === 'type' && m[0]!.ty.k === 'enum') return { kind: 'enum', en: m[0]!.ty.en };
    }
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (s && s.kind === 'type' && s.ty.k === 'enum') return { kind: 'enum', en: s.ty.en };
      if (s && s.kind === 'type' && s.ty.k === 'record') return { kind: 'record', rec: s.ty.rec };
    }
    for (let d = this.ns.length; d >= 0; d--) {
      // a nested namespace of that name opened only after this point is not visible yet (outside templates,
      // whose names bind where they are defined: their tokens are read later than that)
      const r = this.u.resolveIn(this.ns.slice(0, d), name, this.tscope ? -1 : this.p);
      if (r.kind !== 'none') return r;
    }
    return { kind: 'none' };
  }

  /** A class template's name (or the injected name of the specialisation being parsed), before `<args>`. */
  isClassTemplateName(this: Parser, t: string): boolean {
    if (this.memberClassTmpl(t)) return true;
    const s = this.lookup(t);
    if (s.length) return s[0]!.kind === 'type' && s[0]!.ty.k === 'record' && !!s[0]!.ty.rec.targs;
    return this.visibleTemplates(t, 'record').length > 0;
  }
  /** Is the token at offset i the start of a type (decl-specifier)? */
  startsType(this: Parser, i = 0): boolean {
    const k = this.kind(i);
    if (k !== Tok.Ident && !(k === Tok.Punct && this.tx(i) === '::')) return false;
    const t = this.tx(i);
    if (TYPE_KW.has(t) || SPEC_KW.has(t)) return t !== 'auto' || this.isIdent(i + 1) || this.at('&', i + 1) || this.at('&&', i + 1) || this.at('*', i + 1);
    if (t === '::' || this.at('::', i + 1) || (this.at('<', i + 1) && this.kind(i) === Tok.Ident && this.isClassTemplateName(t))) {
      // qualified name: try to read it as a type
      const save = this.p, dl = this.u.diags.length, ec = this.u.errorCount;
      this.p += i;
      try { return this.qualifiedType() !== null; }
      catch (e) {
        if (!(e instanceof SyntaxAbort)) throw e;
        // user code naming a header's template whose instantiation we could not read: our limit, not the
        // user's error (reading on as an expression would report a false one)
        const at = save + i;
        const inHeader = this.u.isUserFile(at) ? this.u.diags.slice(dl).find(d => d.severity === 'error' && d.file !== this.u.fileOf(at)) : undefined;
        if (inHeader) throw new Unsupported(`${inHeader.file}:${inHeader.line}: ${inHeader.message}`);
        return false;
      }
      finally { this.p = save; this.u.diags.length = dl; this.u.errorCount = ec; this.halfGt = false; }
    }
    if (this.u.isKeyword(t)) return false;
    const s = this.lookup(t);
    if (s.length === 0 && this.at('<', i + 1)) return this.visibleTemplates(t, 'record').length > 0;
    return s.length > 0 && s[0]!.kind === 'type';
  }
  /**
   * The name a member class or alias template declares (`template <class U> struct IsMultiple {...}`,
   * `template <class U> using X = ...`) from its `template` token at j, or ''. Such members are not
   * instantiated yet: a use of the name falls back naming them instead of reading as undefined.
   */
  memberClassTemplateName(this: Parser, j: number): string {
    let depth = 0;
    for (j++; j < this.end; j++) {
      const t = this.u.text(j);
      if (t === '(' || t === '[') { let d = 0; do { const x = this.u.text(j); if (x === '(' || x === '[') d++; else if (x === ')' || x === ']') d--; j++; } while (d > 0 && j < this.end); j--; continue; }
      if (t === '<') depth++;
      else if (t === '>') { if (--depth === 0) break; }
      else if (t === '>>') { depth -= 2; if (depth <= 0) break; }
      else if (t === ';' || t === '{') return '';
    }
    const k = this.u.text(j + 1);
    if ((k === 'struct' || k === 'class' || k === 'union' || k === 'using') && this.u.toks.kind[j + 2] === Tok.Ident) return this.u.text(j + 2);
    return '';
  }
  /**
   * At `[ns::]enable_if<false, T>::type`, or a member of a class that declares nothing at all
   * (`__cccl_select<false>::template type<T>`): the error to report, a substitution failure (the cursor is
   * unchanged). Null otherwise: elsewhere a class without the member may be a trait we compute wrongly (a fold
   * in decltype), and dropping the candidate would pick another.
   */
  missingMemberType(this: Parser): string | null {
    const save = this.p;
    try {
      // an optional namespace qualification: `std::enable_if<...>::type`, `::cuda::std::enable_if<...>::type`
      let ns = this.ns, exact = false;
      if (this.at('::') || (this.kind() === Tok.Ident && this.at('::', 1))) {
        const abs = this.eat('::');
        const names: string[] = [];
        while (this.kind() === Tok.Ident && this.at('::', 1)) { names.push(this.tx()); this.p += 2; }
        const path = this.namespacePath(names, abs);
        if (path === null) return null;
        ns = path; exact = true;
      }
      if (this.kind() !== Tok.Ident || !this.at('<', 1)) return null;
      // enable_if's members are read as everywhere; any other class only when it declares nothing at all
      // (`template <bool> struct __cccl_select {};`), so a member we failed to read is never taken for a missing one
      const enableIf = /^_*enable_if$/.test(this.tx());
      const before = this.u.diags.length, errs = this.u.errorCount;
      let rec: RecordDecl | null = null;
      try {
        const t = this.templateIdType(this.tx(), ns, exact);
        if (t && t.k === 'record' && t.rec.complete && !patternArgs(t.rec.targs ?? [])) rec = t.rec;
      } catch (e) {
        if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      } finally { this.u.diags.length = before; this.u.errorCount = errs; }
      if (!rec || !this.at('::')) return null;
      const member = this.at('template', 1) ? 2 : 1;
      if (this.kind(member) !== Tok.Ident) return null;
      const name = this.tx(member);
      if (!enableIf) return declaresNothing(rec) || lacksMember(rec, name) ? `class "${rec.name}" has no member "${name}"` : null;
      const m = this.classMember(rec, name, true);
      return m.length && m[0]!.kind === 'type' ? null : `class "${rec.name}" has no member "${name}"`;
    } finally { this.p = save; this.halfGt = false; }
  }
  /** A qualified type name `A::B::C` / `ns::T<args>` / `::T` at the cursor, or null (cursor unchanged). */
  /**
   * `A::B<args>::type` and the like. With depOk (after `typename`), a member of a class template named with
   * a template's own parameters (`typename helper_traits<T>::fill_argument_type` in a declared signature)
   * reads as a dependent name: never deduced from, mangled as written.
   */
  qualifiedType(this: Parser, depOk = false): CType | null {
    const save = this.p;
    let path: string[] = [];
    let rec: RecordDecl | null = null;
    if (this.eat('::')) path = [];
    else {
      const first = this.tx();
      const r = this.at('<', 1) ? { kind: 'none' as const } : this.resolveNamespaceOrType(first);
      if (r.kind === 'record') { rec = r.rec; this.p += 2; }
      else if (r.kind === 'ns') { path = r.path; this.p += 2; }
      else if (this.at('<', 1)) {
        const mct = this.memberClassTmpl(first);
        const t = mct ? this.memberClassType(mct) : this.templateIdType(first, this.ns, false);
        if (!t) { this.p = save; return null; }
        if (t.k === 'record' && this.at('::') && this.kind(1) === Tok.Ident) { rec = t.rec; this.p++; }
        else return t;
      }
      else { this.p = save; return null; }
    }
    for (;;) {
      if (this.eat('template')) { /* disambiguator */ }
      if (this.kind() !== Tok.Ident) { this.p = save; return null; }
      const n = this.tx();
      let ty: CType | null = null;
      const mct = rec && this.at('<', 1) ? memberClassTmplOf(rec, n) : undefined;
      if (mct) ty = this.memberClassType(mct);
      else if (rec) {
        const m = this.classMember(rec, n, true);
        if (m.length && m[0]!.kind === 'type') { ty = m[0]!.ty; this.p++; }
        else if (depOk && !m.length && !this.at('<', 1) && dependent({ k: 'record', rec, q: 0 })) {
          const names = [n];
          this.p++;
          while (this.at('::') && this.kind(1) === Tok.Ident && !this.at('<', 2)) { names.push(this.tx(1)); this.p += 2; }
          if (this.at('::') || this.at('<')) { this.p = save; return null; }
          return { k: 'error', q: 0, dep: { base: { k: 'record', rec, q: 0 }, names } } as CType;
        }
      } else if (this.at('<', 1) && this.u.templateEntries(n, path, 'record', true).length) {
        ty = this.templateIdType(n, path, true);
      } else {
        const r = this.u.resolveIn(path, n);
        if (r.kind === 'ns' && this.at('::', 1)) { path = r.path; this.p += 2; continue; }
        const syms = this.u.lookupIn(path, n);
        if (syms.length && syms[0]!.kind === 'type') {
          const sugar = (syms[0] as Sym & { sugar?: string }).sugar;
          ty = sugar ? withSugar(syms[0]!.ty, sugar) : syms[0]!.ty; this.p++;
        }
      }
      if (!ty) { this.p = save; return null; }
      if (this.at('<')) throw new Unsupported(`template ${n}<...>`);
      if (this.at('::') && this.kind(1) === Tok.Ident && ty.k === 'record') { rec = ty.rec; this.p++; continue; }
      if (this.at('::')) { this.p = save; return null; }   // E::enumerator, not a type
      return ty;
    }
  }
  /** A member class template named `t` of a class we are in (its body, or a member function's). */
  memberClassTmpl(this: Parser, t: string): MemberClassTmpl | undefined {
    for (let i = this.recordStack.length - 1; i >= 0; i--) { const m = memberClassTmplOf(this.recordStack[i]!, t); if (m) return m; }
    for (let c: RecordDecl | null | undefined = this.cls; c; c = c.parent) { const m = memberClassTmplOf(c, t); if (m) return m; }
    return undefined;
  }
  /** At `N<args>` of a member class template: its specialisation (the cursor moves past the arguments). */
  memberClassType(this: Parser, mct: MemberClassTmpl): CType {
    this.p++;
    const args = this.parseTemplateArgs();
    if (mct.alias) return this.u.templates.instantiateMemberAlias(mct, args);
    return { k: 'record', rec: this.u.templates.instantiateMemberClass(mct, args), q: 0 };
  }
  /** `obj.Base::m` / `p->Base::m` (after `Base`): the member of base class Base (or the class itself), a call of it not virtual. */
  qualifiedMember(this: Parser, e: Expr, cls: string, arrow: boolean, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    const obj = arrow ? this.deref(rval(e), pos) : e;
    const rt = obj.ty;
    if (rt.k !== 'record') { this.u.error(pos, 153, `expression must have class type but it has type "${typeName(rt)}"`); return errExpr(pos); }
    const find = (r: RecordDecl): RecordDecl | null => {
      if (r.name === cls) return r;
      for (const b of r.bases ?? []) { const x = find(b.rec); if (x) return x; }
      return null;
    };
    const target = find(rt.rec);
    if (!target) throw new Unsupported(`qualified member name ${cls}::${this.tx(1)}`);
    this.p++;
    const name = this.tx(), npos = this.p;
    this.p++;
    const sub = target === rt.rec ? obj : this.baseSubobject(obj, rt.rec, target, pos);
    const m = this.member(sub, name, false, npos);
    (m as Expr & { qualified?: boolean }).qualified = true;
    return m;
  }
}
declare module './parser-core' { interface Parser extends LookupRoom {} }
addRoom(LookupRoom);
