// Parser room: class definitions: bases, members, member functions, static members, hidden friends.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, VarSym, FuncSym } from './ast';
import { type CType, type RecordDecl, type MemberTmpl, C, Q, withQ, unqual, AUTO, DECLTYPE_AUTO, hasAuto, isArith, isIntegral, sizeOfC, layoutRecord } from './ctype';
import { noteConstInit } from './consteval';
import { setupVirtuals, markVirtual, markFinalClass, markFinalFunction, noteUnreadableVirtual } from './virtuals';
import { type MemberClassTmpl } from './template-facts';
import { SyntaxAbort, withPacks, Attrs, DeclSpec, DeclaratorInfo } from './parser-types';
import { OPERAND_KW } from './parser-words';
import { Parser, addRoom, type UnitApi } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class RecordsRoom {

  parseRecordSpec(this: Parser, ds: DeclSpec): CType {
    const tag = this.tx() as 'struct' | 'class' | 'union'; this.p++;
    const attrs: Attrs = {};
    this.parseAttributes(attrs);
    let name = '';
    let namePos = this.p;
    if (this.kind() === Tok.Ident && !this.at('{')) {
      if (this.at('::', 1)) throw new Unsupported('qualified class name');
      name = this.tx(); namePos = this.p; this.p++;
    }
    const inst = this.instRecord && name === this.instRecord.name ? this.instRecord : null;
    if (inst) { this.instRecord = null; if (this.at('<')) this.p += this.angleLength(0); }
    if (this.at('<')) throw new Unsupported('template specialisation');
    this.parseAttributes(attrs);
    const isFinal = this.at('final') && (this.at('{', 1) || this.at(':', 1));
    if (isFinal) this.p++;
    const hasBody = this.at('{') || this.at(':');
    let rec: RecordDecl;
    if (inst) {
      rec = inst; rec.tag = tag;
      if (this.recordStack.length) rec.parent = this.recordStack[this.recordStack.length - 1];
      if (isFinal) markFinalClass(rec);
      this.parseRecordBody(rec, attrs.aligned ?? 1);
      ds.tagOnly = true;
    } else if (hasBody) {
      rec = name ? this.declareRecordHere(tag, name, true) : this.u.newRecord(tag, '', this.ns, this.outerRecords());
      if (this.recordStack.length) rec.parent = this.recordStack[this.recordStack.length - 1];
      if (isFinal) markFinalClass(rec);
      this.parseRecordBody(rec, attrs.aligned ?? 1);
      ds.tagOnly = true;
    } else {
      if (!name) this.syntax('expected an identifier', 40);
      // reference (or forward declaration when followed by ';')
      const fwd = this.at(';');
      const found = this.lookup(name).find(s => s.kind === 'type' && s.ty.k === 'record');
      if (found && found.kind === 'type' && !fwd) rec = (found.ty as CType & { k: 'record' }).rec;
      else rec = this.declareRecordHere(tag, name, false);
      if (fwd) ds.tagOnly = true;
    }
    void namePos;
    return { k: 'record', rec, q: 0 };
  }
  outerRecords(this: Parser): string[] { return this.recordStack.map(r => r.name); }
  declareRecordHere(this: Parser, tag: RecordDecl['tag'], name: string, defining: boolean): RecordDecl {
    if (this.scopes.length > 0) {
      // block scope record
      const cur = this.scopes[this.scopes.length - 1]!.get(name);
      if (cur && cur.kind === 'type' && cur.ty.k === 'record') return cur.ty.rec;
      const rec = this.u.newRecord(tag, name, this.ns, []);
      this.declare({ kind: 'type', name, ty: { k: 'record', rec, q: 0 } });
      return rec;
    }
    if (this.recordStack.some(r => r.targs)) {
      // a member class of a class template specialisation belongs to that specialisation
      const outer = this.recordStack[this.recordStack.length - 1]!;
      const cur = outer.types?.get(name);
      if (cur && cur.k === 'record') return cur.rec;
      const rec = this.u.newRecord(tag, name, this.ns, this.outerRecords());
      (outer.types ??= new Map()).set(name, { k: 'record', rec, q: 0 });
      return rec;
    }
    return this.u.recordFor(tag, name, this.ns, this.outerRecords(), defining);
  }

  parseRecordBody(this: Parser, rec: RecordDecl, minAlign: number): void {
    const at = this.p;
    if (this.at(':')) { this.parseBaseClause(rec); }
    this.expect('{');
    if (rec.complete) { this.p--; this.skipBalanced(); return; }
    rec.fields = (rec.bases ?? []).filter(b => b.rec.fields.length > 0).map(b => b.field);   // empty bases take no space
    rec.methods = [];
    rec.types ??= new Map();
    rec.statics ??= new Map();
    this.recordStack.push(rec);
    while (!this.at('}') && this.kind() !== Tok.EOF) {
      if (this.at('public') || this.at('private') || this.at('protected')) { this.p++; this.expect(':'); continue; }
      if (this.eat(';')) continue;
      if (this.kind() === Tok.Pragma) { this.p++; continue; }   // `#pragma nv_exec_check_disable` before a member
      if (this.at('static_assert')) { this.skipToSemi(); continue; }
      if (this.friendAhead()) { this.parseFriendMember(rec); continue; }
      if (this.at('template')) { this.parseMemberTemplate(rec); continue; }
      if (this.at('typedef') || (this.at('using') && this.kind(1) === Tok.Ident && this.at('=', 2))) { this.parseMemberTypedef(rec); continue; }
      if (this.at('using')) { this.skipToSemi(); continue; }
      if (this.isMemberFunction() || this.isCtorOrDtor(rec)) { rec.hasMethods = true; this.parseMethodDecl(rec); continue; }
      const ds = this.parseDeclSpecs();
      if (ds.static) { this.parseStaticMember(rec, ds); continue; }
      if (!ds.ty) throw new Unsupported('member declaration without a type');
      if (ds.tagOnly && this.at(';')) {
        // nested type or anonymous struct/union member
        const t = ds.ty;
        if (t.k === 'record' && !t.rec.name) {
          // an anonymous struct/union: a member without a name whose members belong to this class
          if (t.rec.hasMethods || (t.rec.methods ?? []).length) throw new Unsupported('anonymous struct/union member with member functions');
          rec.fields.push({ name: '', ty: t, offset: 0, irIndex: -1, anon: true });
          this.p++; continue;
        }
        if (t.k === 'record') rec.types.set(t.rec.name, t);
        if (t.k === 'enum' && t.en.name) rec.types.set(t.en.name, t);
        this.p++; continue;
      }
      if (ds.ty.k === 'record' && ds.tagOnly && ds.ty.rec.name) rec.types.set(ds.ty.rec.name, ds.ty);
      for (;;) {
        if (this.eat(':')) {
          // an unnamed bitfield: padding (`unsigned int : 0` starts a new unit)
          const w = Number(this.constInt(this.parseCond()));
          const ft = unqual(ds.ty);
          if (!(isIntegral(ft) || ft.k === 'bool' || ft.k === 'enum') || w < 0 || w > sizeOfC(ft) * 8) throw new Unsupported('bitfield of this type or width');
          rec.fields.push({ name: '', ty: ds.ty, offset: 0, irIndex: -1, bits: w, pad: true });
          if (!this.eat(',')) break;
          continue;
        }
        const d = this.parseDeclarator(ds.ty, false);
        if (d.ty.k === 'func') throw new Unsupported('member function declaration form');
        if (this.eat(':')) {
          // a bitfield of an integral (or enum) type
          const w = Number(this.constInt(this.parseCond()));
          const ft = unqual(d.ty);
          if (!(isIntegral(ft) || ft.k === 'bool' || ft.k === 'enum') || w <= 0 || w > sizeOfC(ft) * 8) throw new Unsupported('bitfield of this type or width');
          if (this.at('=') || this.at('{')) throw new Unsupported('default member initializer of a bitfield');
          rec.fields.push({ name: d.name, ty: d.ty, offset: 0, irIndex: -1, bits: w });
          if (!this.eat(',')) break;
          continue;
        }
        let defaultInit: number | undefined;
        if (this.at('=') || this.at('{')) {
          if (this.eat('=')) defaultInit = this.p; else defaultInit = this.p;
          this.skipInitializerTokens();
        }
        if (d.ty.k === 'array' && d.ty.n === null) throw new Unsupported('flexible array member');
        if (d.attrs.aligned) throw new Unsupported('aligned member');
        rec.fields.push({ name: d.name, ty: d.ty, offset: 0, irIndex: -1, defaultInit });
        if (!this.eat(',')) break;
      }
      if (this.at('}')) continue;
      if (this.recordStack.length && this.tx(-1) === '}') continue;
      this.expect(';');
    }
    this.expect('}');
    this.recordStack.pop();
    try { setupVirtuals(rec); }
    catch (e) {
      // a system header's class whose vtable we cannot build (libstdc++'s stream buffers) is still named by host
      // code: it is left without a layout (device code that needs one falls back); the user's own class falls back
      if (!(e instanceof Unsupported) || this.u.isUserFile(at)) throw e;
      rec.noLayout = e.reason;
    }
    layoutRecord(rec, minAlign);
    const after: Attrs = {};
    this.parseAttributes(after);
    if (after.aligned) layoutRecord(rec, Math.max(minAlign, after.aligned));
  }
  /** A friend declaration in a class body (skipped; a hidden friend defined here is remembered). */
  parseFriendMember(this: Parser, rec: RecordDecl): void {
    // friends are not members; a friend function defined here (a hidden friend, found only by
    // argument-dependent lookup) is remembered by name so that a call of it falls back naming that
    const start = this.p;
    this.skipMember();
    for (let j = start; j < this.p; j++) {
      const x = this.u.text(j);
      if (x === '__attribute__' || x === '__declspec') { let d = 0; j++; do { const y = this.u.text(j); if (y === '(') d++; else if (y === ')') d--; j++; } while (d > 0 && j < this.p); j--; continue; }
      if (x === '{' || x === ';' || x === '=') break;
      // `friend Box operator+(const Box &, const Box &) {...}`: found through its operands' class
      if (x === 'operator' && this.u.text(j + 1) !== '(' ) {
        let k = j + 1, op = '';
        while (k < this.p && this.u.text(k) !== '(') op += this.u.text(k++);
        if (this.u.toks.kind[j + 1] === Tok.Punct && this.u.text(this.p - 1) === '}') this.declareHiddenFriend('operator' + op, start, this.p, rec);
        break;
      }
      if (x === '(' && this.u.toks.kind[j - 1] === Tok.Ident && !this.u.isKeyword(this.u.text(j - 1))) {
        const fname = this.u.text(j - 1);
        ((this.u as UnitApi & { hiddenFriends?: Set<string> }).hiddenFriends ??= new Set()).add(fname);
        if (this.u.text(this.p - 1) === '}') this.declareHiddenFriend(fname, start, this.p, rec);
        break;
      }
    }
  }
  /** A member template: a member class or alias template, or a member function template instantiated on use. */
  parseMemberTemplate(this: Parser, rec: RecordDecl): void {
    // member template: remembered by name; using it is unsupported for now
    const save = this.p;
    this.skipMember();
    let name = '';
    // a member class template `template <...> struct N {...}`: instantiated when named with arguments
    // (N<args>, Outer<...>::N<args>); a forward declaration or a specialisation stays unusable (falls back)
    let j0 = save + 1;
    if (this.u.text(j0) === '<') { let d = 0; do { const x = this.u.text(j0); if (x === '<') d++; else if (x === '>') d--; else if (x === '>>') d -= 2; j0++; } while (d > 0 && j0 < this.p); }
    const tagKw = this.u.text(j0);
    if (tagKw === 'using' && this.u.toks.kind[j0 + 1] === Tok.Ident && this.u.text(j0 + 2) === '=') {
      // a member alias template `template <class A, class B> using N = ...;`: instantiated when named
      name = this.u.text(j0 + 1);
      (rec.memberTemplates ??= new Set()).add(name);
      const mat: MemberClassTmpl = { name, start: save, end: this.p, outer: rec, tscope: this.tscope, ns: this.ns, insts: new Map(), alias: true };
      ((rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl> }).mctmpls ??= new Map()).set(name, mat);
      return;
    }
    if ((tagKw === 'struct' || tagKw === 'class' || tagKw === 'union') && this.u.toks.kind[j0 + 1] === Tok.Ident) {
      name = this.u.text(j0 + 1);
      (rec.memberTemplates ??= new Set()).add(name);
      if (tagKw !== 'union' && (this.u.text(j0 + 2) === '{' || this.u.text(j0 + 2) === ':')) {
        const mct: MemberClassTmpl = { name, start: save, end: this.p, outer: rec, tscope: this.tscope, ns: this.ns, insts: new Map() };
        ((rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl> }).mctmpls ??= new Map()).set(name, mct);
      }
      return;
    }
    // the declarator's name: the identifier before the parameter list, after the template header and outside
    // what the specifiers hold in parentheses or angle brackets (`static decltype(g(declval<T>())) f(int)`,
    // `enable_if_t<(N > 0), int> f()`, `template <class T, class = decltype(h(T()))>`)
    let angle = 0;
    for (let j = save; j < this.p; j++) {
      const t = this.u.text(j);
      if (t === '(' || t === '[') {
        const prev = this.u.text(j - 1);
        if (t === '(' && angle === 0 && this.u.toks.kind[j - 1] === Tok.Ident && !this.u.isKeyword(prev)) { name = prev; break; }
        j = this.balancedEnd(j);
        continue;
      }
      if (t === '<') { angle++; continue; }
      if (t === '>' || t === '>>') { angle = Math.max(0, angle - t.length); continue; }
      if (t === 'operator' && angle === 0) {
        // an operator template: named like its member function (`operator()`, `operator+`); conversions stay unusable
        const a = this.u.text(j + 1), b = this.u.text(j + 2);
        name = a === '(' && b === ')' ? 'operator()' : a === '[' && b === ']' ? 'operator[]' : this.u.toks.kind[j + 1] === Tok.Punct && b === '(' ? 'operator' + a : 'operator';
        break;
      }
    }
    (rec.memberTemplates ??= new Set()).add(name);
    const cname = this.memberClassTemplateName(save);
    if (cname) (this.u as UnitApi & { memberClassTemplates?: Set<string> }).memberClassTemplates = ((this.u as UnitApi & { memberClassTemplates?: Set<string> }).memberClassTemplates ?? new Set()).add(cname);
    // a member function template (not a constructor or operator): instantiated on use
    if (name && name !== 'operator') {
      const mt: MemberTmpl = { name, start: save, end: this.p, rec, tscope: this.tscope };
      mt.instantiate = args => this.tryInstantiateMember(mt, [], args as Expr[], () => { /* not viable */ });
      (rec.mtmpls ??= []).push(mt);
    }
  }
  /** A member typedef or alias declaration (a member type we cannot read leaves the class usable). */
  parseMemberTypedef(this: Parser, rec: RecordDecl): void {
    const save = this.p, before = this.u.diags.length, errs = this.u.errorCount;
    try {
      if (this.eat('using')) { const name = this.tx(); this.p += 2; rec.types!.set(name, this.parseTypeName()); this.expect(';'); }
      else {
        const ds = this.parseDeclSpecs();
        for (;;) { const d = this.parseDeclarator(ds.ty ?? C.int, false); rec.types!.set(d.name, d.ty); if (!this.eat(',')) break; }
        this.expect(';');
      }
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      // a member type we cannot express yet: unusable, but the class still is; naming it is unsupported (not
      // an error: `is_convertible<...>::value` through a helper's `type` must not read as undefined)
      this.u.diags.length = before; this.u.errorCount = errs; this.p = save; this.skipMember();
      const name = this.u.text(save) === 'using' ? this.u.text(save + 1) : this.u.toks.kind[this.p - 2] === Tok.Ident && this.u.text(this.p - 1) === ';' ? this.u.text(this.p - 2) : '';
      if (name) ((rec as RecordDecl & { badTypes?: Map<string, string> }).badTypes ??= new Map()).set(name, e instanceof Unsupported ? e.reason : 'member type we cannot parse');
    }
  }
  /** `: public A, B` — non-virtual bases become leading subobjects; virtual ones are only looked into (rec.vbases). */
  parseBaseClause(this: Parser, rec: RecordDecl): void {
    this.expect(':');
    rec.bases = [];
    for (;;) {
      let virt = false;
      for (;;) {
        if (this.at('public') || this.at('private') || this.at('protected')) { this.p++; continue; }
        if (this.eat('virtual')) { virt = true; continue; }
        break;
      }
      // the class's own name is visible here (`struct S : Base<S>`)
      this.recordStack.push(rec);
      let t: CType;
      try { t = this.parseTypeName(); } finally { this.recordStack.pop(); }
      if (t.k !== 'record' || !t.rec.complete) {
        // in a system header (libstdc++'s ctype<char> : locale::facet, defined out of its class): the class is
        // left without a layout, and a name not found in it may be the base's (classMember falls back then)
        if (this.u.isUserFile(this.p)) throw new Unsupported('base class that is not a complete class');
        rec.noLayout = rec.badBase = 'base class that is not a complete class';
        if (!this.eat(',')) break;
        continue;
      }
      if (virt) { (rec.vbases ??= []).push(t.rec); if (!this.eat(',')) break; continue; }
      // a class whose base has virtual bases has them too (layoutRecord leaves it without a layout)
      if (t.rec.vbases?.length) (rec.vbases ??= []).push(...t.rec.vbases.filter(v => !rec.vbases!.includes(v)));
      rec.bases.push({ rec: t.rec, field: { name: '', ty: unqual(t), offset: 0, irIndex: -1, isBase: true } });
      if (!this.eat(',')) break;
    }
  }
  /** Is the member at the cursor a constructor or destructor of rec (after specifiers/attributes)? */
  isCtorOrDtor(this: Parser, rec: RecordDecl): boolean {
    let i = 0;
    for (;;) {
      const t = this.tx(i);
      if (t === '__attribute__') { let d = 0; let j = i + 1; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j; continue; }
      if (t === 'inline' || t === '__inline__' || t === 'constexpr' || t === 'explicit' || t === 'virtual' || t === '__noinline__' || t === '__forceinline__') { i++; continue; }
      break;
    }
    if (this.at('~', i)) return true;
    return this.tx(i) === rec.name && this.at('(', i + 1);
  }
  /** A member function declaration or definition in a class body. A signature we cannot read makes the member unusable, not the class. */
  parseMethodDecl(this: Parser, rec: RecordDecl): void {
    const save = this.p, before = this.u.diags.length, errs = this.u.errorCount;
    try { this.parseMethodDeclInner(rec); }
    catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      if (e instanceof Unsupported && e.reason === 'virtual functions') throw e;
      this.u.diags.length = before; this.u.errorCount = errs;
      this.p = save;
      let name = '';
      for (let i = 0; this.kind(i) !== Tok.EOF && !this.at('{', i) && !this.at(';', i); i++) {
        // (`__attribute__((device)) int f(...)`: the attribute's parentheses name nothing)
        if (this.at('__attribute__', i)) { let d = 0; do { if (this.at('(', i + 1)) d++; else if (this.at(')', i + 1)) d--; i++; } while (d > 0 && this.kind(i + 1) !== Tok.EOF); continue; }
        if (this.at('(', i)) { name = i > 0 ? this.tx(i - 1) : ''; break; }
      }
      (rec.memberTemplates ??= new Set()).add(name);
      ((rec as RecordDecl & { badMembers?: Map<string, string> }).badMembers ??= new Map()).set(name, e instanceof Unsupported ? e.reason : 'member declaration we cannot parse');
      const from = this.p;
      this.skipMember();
      // a virtual function or destructor we cannot read would leave a wrong vtable or destruction: see setupVirtuals
      for (let j = from; j < this.p; j++) if (this.u.text(j) === 'virtual' || this.u.text(j) === '~') { noteUnreadableVirtual(rec, e instanceof Unsupported ? e.reason : 'a declaration we cannot parse', this.u.text(j) === 'virtual'); break; }
    }
  }
  /** A member function template's declaration (after its header), instantiated: a method of rec not listed among its members. */
  parseMemberTemplateInstance(this: Parser, rec: RecordDecl): FuncSym {
    const n = rec.methods?.length ?? 0;
    this.recordStack.push(rec);
    try { this.parseMethodDeclInner(rec); } finally { this.recordStack.pop(); }
    const f = rec.methods?.[n];
    if (!f) throw new Unsupported(`member template of ${rec.name}`);
    rec.methods!.splice(n, 1);
    return f;
  }
  parseMethodDeclInner(this: Parser, rec: RecordDecl): void {
    const attrs: Attrs = {};
    const ds: DeclSpec = { ty: null, typedef: false, extern: false, externC: false, static: false, inline: false, constexpr: false, auto: false, attrs, tagOnly: false };
    let virt = false, nothrow = false;
    let d: DeclaratorInfo;
    if (this.isCtorOrDtor(rec)) {
      for (;;) {
        if (this.parseAttributes(attrs)) continue;
        if (this.at('inline') || this.at('__inline__')) { ds.inline = true; this.p++; continue; }
        if (this.at('constexpr')) { ds.constexpr = true; this.p++; continue; }
        if (this.at('virtual')) { virt = true; this.p++; continue; }
        if (this.at('explicit')) { (ds as DeclSpec & { explicit?: boolean }).explicit = true; this.p++; continue; }
        break;
      }
      const dtor = this.eat('~');
      const pos = this.p; this.p++;
      const ps = this.parseParams();
      for (;;) {
        if (this.at('noexcept') || this.at('throw')) {
          if (this.at('throw') ? this.at(')', 2) : !this.at('(', 1) || (this.at('true', 2) && this.at(')', 3))) nothrow = true;
          this.p++; if (this.at('(')) this.skipBalanced(); continue;
        }
        if (this.at('override') || this.at('final')) { this.p++; continue; }   // a virtual destructor's virt-specifiers
        if (this.parseAttributes(attrs)) continue;
        break;
      }
      d = { name: dtor ? '~' + rec.name : rec.name, qual: [], pos, ty: withPacks({ k: 'func', ret: C.void, params: ps.params, variadic: ps.variadic, q: 0 }, ps), paramNames: ps.names, defaults: ps.defaults, paramPos: ps.pos, attrs: {}, isFuncDeclarator: true };
      (d as DeclaratorInfo & { ctor?: boolean; dtor?: boolean }).ctor = !dtor;
      (d as DeclaratorInfo & { ctor?: boolean; dtor?: boolean }).dtor = dtor;
    } else {
      const sds = this.parseDeclSpecs();
      Object.assign(ds, { ...sds, attrs: { ...sds.attrs } });
      virt = !!(sds as DeclSpec & { virt?: boolean }).virt;
      if (!ds.ty && !ds.auto && this.at('operator')) ds.ty = C.void;   // conversion function: the declarator gives the type
      if (!ds.ty && ds.auto) ds.ty = withQ((sds as DeclSpec & { dcauto?: boolean }).dcauto ? DECLTYPE_AUTO : AUTO, (sds as DeclSpec & { q: number }).q);   // deduced (or trailing) return type
      if (!ds.ty) this.syntax('expected a type specifier', 79);
      d = this.parseDeclarator(ds.ty, false);
      if (d.ty.k !== 'func') throw new Unsupported('member declaration form');
    }
    let initStart = -1;
    const f = this.u.declareMethod(rec, d, ds, { ...ds.attrs, ...d.attrs });
    if (nothrow) f.noexcept = true;
    if (virt) markVirtual(f, this.at('=') && this.tx(1) === '0' && this.at(';', 2));
    if ((d as DeclaratorInfo & { finalFn?: boolean }).finalFn) markFinalFunction(f);
    if (this.at(':')) {
      initStart = this.p; this.p++;
      for (;;) {
        while (this.kind() !== Tok.EOF && !this.at('(') && !this.at('{')) this.p++;   // the member or base name
        this.skipBalanced();                                                            // (args) or {args}
        this.eat('...');
        if (!this.eat(',')) break;
      }
    }
    if (this.at('{')) {
      f.initStart = initStart;
      f.bodyStart = this.p; this.skipBalanced(); f.bodyEnd = this.p - 1;
      f.paramNames = d.paramNames;
      this.eat(';');
      return;
    }
    if (this.eat('=')) {
      if (this.eat('default')) f.defaulted = true;
      else if (this.eat('delete')) f.deleted = true;
      else if (virt && this.tx() === '0') this.p++;   // pure virtual
      else throw new Unsupported('member function declaration with an initialiser');
    }
    this.expect(';');
  }
  /** `static T x = v;` / `static constexpr T x = v;` in a class. */
  parseStaticMember(this: Parser, rec: RecordDecl, ds: DeclSpec): void {
    // `static constexpr auto ALIGN = AlignBytes<T>::ALIGN_BYTES;` (cub): the type comes from the initializer
    const autoVar = !ds.ty && ds.auto && !(ds as DeclSpec & { dcauto?: boolean }).dcauto;
    if (!ds.ty && !autoVar) throw new Unsupported('static data member without a type');
    for (;;) {
      const d = this.parseDeclarator(ds.ty ?? withQ(AUTO, (ds as DeclSpec & { q: number }).q), false);
      if (autoVar) {
        if (d.ty.k === 'func' || !hasAuto(d.ty) || !this.eat('=')) throw new Unsupported('static data member without a type');
        const e = this.at('{') ? this.braceExpr() : this.parseAssign();
        const ty = this.deduceAuto(d.ty, e);
        const v = this.u.newVar(d.name, ds.constexpr ? withQ(ty, Q.Const) : ty, 'global', d.pos);
        v.scope = [...rec.scope];
        (v as VarSym & { cls?: RecordDecl }).cls = rec;
        v.isConstexpr = ds.constexpr;
        v.space = ds.attrs.device ? 'device' : ds.attrs.constant ? 'constant' : ds.attrs.shared ? 'shared' : 'none';
        v.init = this.initFromExpr(e, v.ty, e.pos);
        if (isArith(v.ty)) noteConstInit(v, e, this.u.consts);
        rec.statics!.set(d.name, v);
        if (!this.eat(',')) break;
        continue;
      }
      if (d.ty.k === 'func') {
        // static member function
        const f = this.u.declareMethod(rec, d, ds, { ...ds.attrs, ...d.attrs });
        f.staticMember = true;
        if (this.at('{')) { f.bodyStart = this.p; this.skipBalanced(); f.bodyEnd = this.p - 1; f.paramNames = d.paramNames; this.eat(';'); return; }
        if (this.eat('=')) { this.eat('delete'); this.eat('default'); }
        break;
      }
      const v = this.u.newVar(d.name, ds.constexpr ? withQ(d.ty, Q.Const) : d.ty, 'global', d.pos);
      v.scope = [...rec.scope];
      (v as VarSym & { cls?: RecordDecl }).cls = rec;
      v.isConstexpr = ds.constexpr;
      v.space = ds.attrs.device ? 'device' : ds.attrs.constant ? 'constant' : ds.attrs.shared ? 'shared' : 'none';
      if (this.eat('=') || this.at('{')) {
        const init = this.parseInitializer(v.ty);
        v.init = init;
        if (init.k === 'expr' && isArith(v.ty)) noteConstInit(v, init.e, this.u.consts);
      } else v.isExtern = true;
      rec.statics!.set(d.name, v);
      if (!this.eat(',')) break;
    }
    this.expect(';');
  }
  /** A member function declaration/definition (incl. constructors, operators): `name (` before any `;`/`{`/`=` at depth 0. */
  /**
   * A friend function defined in a class body (a hidden friend): a function of the class's namespace that
   * only argument-dependent lookup finds. Declared here, with the class's template parameters bound; a call
   * that ordinary lookup cannot resolve tries these (what ADL would find for arguments of that class).
   */
  declareHiddenFriend(this: Parser, name: string, start: number, end: number, rec: RecordDecl): void {
    const q = new Parser(this.u, start, end, this.ns);
    q.tscope = this.tscope;
    q.recordStack = [...this.recordStack, rec];
    q.instantiating = this.instantiating;
    const before = this.u.diags.length, errs = this.u.errorCount;
    try {
      for (const sym of q.parseTopDecl(false)) {
        if (sym.kind !== 'func' || sym.name !== name) continue;
        if (this.tscope) sym.tscope = this.tscope;
        (sym as FuncSym & { friendOf?: RecordDecl }).friendOf = rec;
        const all = ((this.u as UnitApi & { hiddenFriendFns?: Map<string, FuncSym[]> }).hiddenFriendFns ??= new Map());
        const list = all.get(name) ?? [];
        if (!list.includes(sym)) list.push(sym);
        all.set(name, list);
      }
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      this.u.diags.length = before; this.u.errorCount = errs;   // stays a fallback by name
    }
  }
  /** A `friend` declaration at the cursor, after any attributes (`__attribute__((device)) friend void f(...)`). */
  friendAhead(this: Parser): boolean {
    let i = 0;
    for (;;) {
      const t = this.tx(i);
      if (t === 'friend') return true;
      if ((t === '__attribute__' || t === '__declspec') && this.at('(', i + 1)) {
        let d = 0, j = i + 1;
        do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF);
        i = j; continue;
      }
      if (t === 'inline' || t === '__inline__' || t === 'constexpr' || t === 'static') { i++; continue; }
      return false;
    }
  }
  isMemberFunction(this: Parser): boolean {
    for (let i = 0; ; i++) {
      const k = this.kind(i);
      if (k === Tok.EOF) return false;
      const t = this.tx(i);
      if (k === Tok.Punct && (t === ';' || t === '{' || t === '=' || t === '}' || t === ':')) return false;
      if (t === 'operator') return true;
      if (t === '__attribute__' && this.at('(', i + 1)) { let d = 0; let j = i + 1; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j - 1; continue; }
      // `sizeof(int)` in a template argument of the member's type (`helper<N - sizeof(int)> next;`) is no parameter list
      if (t === '(' && OPERAND_KW.has(this.tx(i - 1))) { let d = 0; let j = i; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j - 1; continue; }
      if (t === '(' ) return this.kind(i - 1) === Tok.Ident && !this.at('*', i + 1) && !this.at('&', i + 1) && !this.at('^', i + 1);
      // an attribute (`[[nodiscard]] constexpr T operator()(...)`), not an array declarator
      if (t === '[' && this.at('[', i + 1)) { let d = 0; let j = i; do { const x = this.tx(j); if (x === '[') d++; else if (x === ']') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j - 1; continue; }
      if (t === '[' ) return false;
    }
  }
}
declare module './parser-core' { interface Parser extends RecordsRoom {} }
addRoom(RecordsRoom);
