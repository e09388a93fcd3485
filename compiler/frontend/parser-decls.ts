// Parser room: declarations: specifiers, declarators, parameter lists, enums, namespace-scope declarations.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, Sym, FuncSym, Pos } from './ast';
import { type CType, type RecordDecl, type EnumDecl, type IntName, C, Q, intT, ptrTo, refTo, arrayOf, withQ, unqual, AUTO, DECLTYPE_AUTO, isAuto, alignOfC, typeName, hasPack, withSugar } from './ctype';
import { isXvalue } from './sema';
import { dependent } from './template-facts';
import { SyntaxAbort, withPacks, packsOf, placeholderType, Attrs, DeclSpec, DeclaratorInfo, Suffix, PtrOp } from './parser-types';

/** Tokens no declarator holds: after a type and '(' they make the parentheses a functional cast's. */
const NOT_IN_DECLARATOR = new Set(['.', '->', '+', '-', '/', '%', '!', '~', '?', '|', '^', '||', '<<', '==', '!=', '<=', '>=']);
import { Parser, addRoom } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class DeclarationsRoom {

  // ------------------------------------------------------------------ attributes
  parseAttributes(this: Parser, a: Attrs): boolean {
    let any = false;
    for (;;) {
      if (this.at('__attribute__') || this.at('__attribute')) {
        any = true; this.p++;
        this.expect('('); this.expect('(');
        while (!this.at(')')) {
          if (this.at(',')) { this.p++; continue; }
          const name = this.tx().replace(/^__(.*)__$/, '$1'); this.p++;
          let args: Expr[] = [];
          if (this.at('(')) {
            if (name === 'launch_bounds' || name === 'aligned') {
              this.p++; args = [];
              while (!this.at(')')) { args.push(this.parseAssign()); if (!this.eat(',')) break; }
              this.expect(')');
            } else this.skipBalanced();
          }
          switch (name) {
            case 'device': a.device = true; break;
            case 'global': a.global = true; break;
            case 'host': a.host = true; break;
            case 'device_builtin': a.deviceBuiltin = true; break;
            case 'cudart_builtin': a.cudartBuiltin = true; break;
            case 'shared': a.shared = true; break;
            case 'constant': a.constant = true; break;
            case 'managed': a.managed = true; break;
            case 'always_inline': a.alwaysInline = true; break;
            case 'noinline': a.noinline = true; break;
            case 'aligned': a.aligned = args.length ? Number(this.constInt(args[0]!)) : 16; break;
            case 'launch_bounds': a.launchBounds = [Number(this.constInt(args[0]!)), args[1] ? Number(this.constInt(args[1])) : undefined]; break;
            case 'packed': throw new Unsupported('__attribute__((packed))');
            default: break;
          }
        }
        this.expect(')'); this.expect(')');
        continue;
      }
      if (this.at('__noinline__')) { any = true; a.noinline = true; this.p++; continue; }
      if (this.at('__declspec') || this.at('alignas')) {
        any = true; const isAl = this.at('alignas'); this.p++;
        if (isAl) { this.expect('('); if (this.startsType()) a.aligned = alignOfC(this.parseTypeName()); else a.aligned = Number(this.constInt(this.parseAssign())); this.expect(')'); }
        else this.skipBalanced();
        continue;
      }
      if (this.at('[') && this.at('[', 1)) { any = true; this.p++; this.skipBalanced(); this.expect(']'); continue; }
      return any;
    }
  }

  // ------------------------------------------------------------------ declaration specifiers
  parseDeclSpecs(this: Parser): DeclSpec {
    const ds: DeclSpec = { ty: null, typedef: false, extern: false, externC: false, static: false, inline: false, constexpr: false, auto: false, attrs: {}, tagOnly: false };
    let q = 0, signed: boolean | null = null, longs = 0, short = false, base: string | null = null;
    let named: CType | null = null;
    for (;;) {
      if (this.parseAttributes(ds.attrs)) continue;
      const k = this.kind();
      if (k !== Tok.Ident && !(k === Tok.Punct && this.tx() === '::')) break;
      const t = this.tx();
      switch (t) {
        case 'typedef': ds.typedef = true; this.p++; continue;
        case 'extern':
          ds.extern = true; this.p++;
          if (this.kind() === Tok.String) { ds.externC = this.tx() === '"C"'; ds.extern = !this.at('{', 1); this.p++; }
          continue;
        case 'static': ds.static = true; this.p++; continue;
        case 'inline': case '__inline__': case '__inline': ds.inline = true; this.p++; continue;
        case 'constexpr': case 'consteval': case 'constinit': ds.constexpr = true; this.p++; continue;
        case 'virtual': (ds as DeclSpec & { virt?: boolean }).virt = true; this.p++; continue;
        case 'explicit': (ds as DeclSpec & { explicit?: boolean }).explicit = true; this.p++; continue;
        case 'register': case 'friend': case 'mutable': case '__extension__': this.p++; continue;
        case 'thread_local': case '__thread': throw new Unsupported('thread_local');
        case 'const': case '__const': q |= Q.Const; this.p++; continue;
        case 'volatile': case '__volatile__': q |= Q.Volatile; this.p++; continue;
        case '__restrict__': case '__restrict': case 'restrict': q |= Q.Restrict; this.p++; continue;
        case 'signed': case '__signed__': case '__signed': signed = true; this.p++; continue;
        case 'unsigned': signed = false; this.p++; continue;
        case 'short': short = true; this.p++; continue;
        case 'long': longs++; this.p++; continue;
        case 'int': case 'char': case 'bool': case 'float': case 'double': case 'void': case 'wchar_t': case 'char16_t': case 'char32_t': case '__int128':
          if (base || named) break;
          base = t; this.p++; continue;
        case '_Bool': base = 'bool'; this.p++; continue;
        case 'auto': if (base || named) break; ds.auto = true; this.p++; continue;
        case '__builtin_va_list': throw new Unsupported('__builtin_va_list');
        case '_Float128': case '__float128': {
          // CCCL declares numeric_limits and traits for it on sm_100+: a type to name, not one we compute with
          if (base || named) break;
          named = { k: 'record', rec: this.u.float128Record(), q: 0 }; this.p++; continue;
        }
        case '__fp16': case '_Float16': throw new Unsupported(`type ${t}`);
        case '__underlying_type': {
          // the compiler's trait behind std::underlying_type: an enumeration's integer type
          if (base || named) break;
          this.p++; this.expect('(');
          const et = this.parseTypeName();
          this.expect(')');
          if (et.k === 'enum') named = et.en.underlying;
          else if (dependent(et)) named = et;   // still a pattern
          else this.syntax('expected an enumeration type', 79);
          continue;
        }
        case 'decltype': case '__typeof__': case 'typeof': case '__decltype': {
          if (base || named) break;
          named = this.decltypeSpec(ds, t);
          continue;
        }
        case 'typename': {
          if (base || named) break;
          named = this.typenameSpec();
          continue;
        }
        case 'struct': case 'class': case 'union': {
          if (base || named) break;
          named = this.parseRecordSpec(ds); continue;
        }
        case 'enum': {
          if (base || named) break;
          named = this.parseEnumSpec(ds); continue;
        }
        default: {
          if (base || named || signed !== null || short || longs || ds.auto) break;
          if (this.u.isKeyword(t)) break;
          const found = this.namedTypeSpec(t);
          if (found) { named = found; continue; }
          break;
        }
      }
      break;
    }
    let ty: CType | null = named ?? fundamentalType(base, signed, short, longs);
    // long double is fine in declarations device code never uses; its IR type is refused (irType)
    if (ty) ty = withQ(ty, q);
    else if (ds.auto) ty = null;
    ds.ty = ty;
    (ds as DeclSpec & { q: number }).q = q;
    return ds;
  }
  /** `decltype(e)` / `__typeof__(e)`: the type it names (null for decltype(auto), which sets ds.auto). */
  decltypeSpec(this: Parser, ds: DeclSpec, t: string): CType | null {
    this.p++;
    const open = this.p;
    this.expect('(');
    if (this.at('auto') && this.at(')', 1) && t === 'decltype') {
      // decltype(auto): a return type deduced keeping references (variables stay unsupported)
      this.p += 2; ds.auto = true; (ds as DeclSpec & { dcauto?: boolean }).dcauto = true;
      return null;
    }
    let e: Expr;
    if (this.packPatterns || this.patternTyping) {
      // in a partial specialisation's pattern (`void_t<decltype(declval<T>() + declval<U>())>`) the operands
      // have the parameters' types: an expression we cannot type there is a dependent type, checked again
      // with the deduced arguments (templates.ts partialSpecFor)
      const dl = this.u.diags.length, ec = this.u.errorCount;
      try { e = this.parseExpr(); if (this.u.errorCount > ec || e.ty.k === 'error') throw new SyntaxAbort(); }
      catch (x) {
        if (!(x instanceof SyntaxAbort) && !(x instanceof Unsupported)) throw x;
        this.u.diags.length = dl; this.u.errorCount = ec;
        this.p = open; this.skipBalanced();
        this.u.dependentDecltypes++;
        return { k: 'error', q: 0, dep: { base: C.void, names: ['decltype'] } } as CType;
      }
    } else e = this.parseExpr();
    this.expect(')');
    // decltype(id) is the declared type; of any other lvalue, a reference to its type; of an xvalue, an rvalue reference
    const paren = (e as { paren?: boolean }).paren === true;
    let named: CType;
    if (t !== 'decltype' && t !== '__decltype') named = e.ty;
    else if (e.k === 'var' && !paren) named = e.sym.ty;
    else if (e.k === 'member' && !paren) named = e.field.ty;
    else named = e.lv ? refTo(e.ty, isXvalue(e)) : e.ty;
    if (named.k === 'error') this.syntax('expected a type specifier', 79);
    return named;
  }
  /** `typename X::name`: the type, a dependent type in a declared signature, or a substitution failure. */
  typenameSpec(this: Parser): CType {
    this.p++;
    const q = this.qualifiedType(true);
    if (q) return q;
    // in a template's declared signature: `typename T::name` stays dependent (for mangling; never deduced)
    const ts = this.tscope?.get(this.tx());
    if (ts && ts.kind === 'type' && (ts.ty as { tparam?: number }).tparam !== undefined && this.at('::', 1)) {
      this.p++;
      const names: string[] = [];
      while (this.eat('::')) { if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40); names.push(this.tx()); this.p++; }
      return { k: 'error', q: 0, dep: { base: ts.ty, names } } as CType;
    }
    // a template parameter substituted by a type that is no class (`typename T::tag` with T = int): a
    // substitution failure (SFINAE drops the candidate), not a construct we cannot read
    if (ts && ts.kind === 'type' && this.at('::', 1) && (ts.ty as CType).k !== 'record') {
      this.syntax('name followed by "::" must be a class or namespace name', 276);
    }
    // `typename enable_if<false, T>::type`: a complete class without that member, also a substitution failure
    const missing = this.missingMemberType();
    if (missing) this.syntax(missing, 135);
    throw new Unsupported('dependent type name');
  }
  /** A type named by an identifier or a qualified name at the cursor (t), or null when it names none. */
  namedTypeSpec(this: Parser, t: string): CType | null {
    // a type name?
    const save = this.p;
    if (t === '::' || this.at('::', 1)) {
      const q = this.qualifiedType();
      if (q) return q;
      this.p = save; return null;
    }
    if (this.at('<', 1) && this.at('::', 1 + this.angleLength(1)) && this.isClassTemplateName(t)) {
      // `C<args>::member` naming a type
      const q = this.qualifiedType();
      if (q) return q;
      this.p = save;
    }
    const mct = this.at('<', 1) ? this.memberClassTmpl(t) : undefined;
    if (mct) return this.memberClassType(mct);
    const syms = this.lookup(t);
    if (syms.length && syms[0]!.kind === 'type') {
      const sugar = (syms[0] as Sym & { sugar?: string }).sugar;
      const named = sugar ? withSugar(syms[0]!.ty, sugar) : syms[0]!.ty; this.p++;
      if (this.at('<')) {
        // a template template parameter given its arguments (`Store<T>`): that class template's specialisation
        const tdi = (named as { tmplDecl?: number }).tmplDecl;
        if (tdi !== undefined && this.u.index.decls[tdi]!.kind === 'using') return this.u.templates.instantiateAlias(tdi, this.parseTemplateArgs(), this);
        if (tdi !== undefined) return { k: 'record', rec: this.u.templates.instantiateClass(tdi, this.parseTemplateArgs(), this), q: 0 };
        // the injected class name of a class template used with arguments, or a template found by name
        if (named.k === 'record' && named.rec.targs) { this.p--; const r = this.templateIdType(t, named.rec.scope, false); if (r) return r; this.p++; }
        throw new Unsupported(`template ${t}<...>`);
      }
      return named;
    }
    if (syms.length === 0 && this.at('<', 1)) {
      const r = this.templateIdType(t, this.ns, false);
      if (r) return r;
    }
    if (syms.length === 0 && this.at('<', 1) && this.u.isTemplateName(t, this.ns)) throw new Unsupported(`template ${t}`);
    return null;
  }

  parseEnumSpec(this: Parser, ds: DeclSpec): CType {
    this.p++;
    let scoped = false;
    if (this.at('class') || this.at('struct')) { scoped = true; this.p++; }
    this.parseAttributes({});
    let name = '';
    if (this.kind() === Tok.Ident && !this.at('{') && !this.at(':')) { name = this.tx(); this.p++; }
    let underlying: CType | null = null;
    if (this.eat(':')) underlying = this.parseTypeName();
    if (!this.at('{')) {
      const found = name ? this.lookup(name).find(s => s.kind === 'type' && s.ty.k === 'enum') : undefined;
      if (found && found.kind === 'type') return found.ty;
      const en = this.u.enumFor(name, this.ns, underlying ?? C.int, scoped);
      if (this.at(';')) ds.tagOnly = true;
      return { k: 'enum', en, q: 0 };
    }
    const en: EnumDecl = name && this.scopes.length === 0 ? this.u.enumFor(name, this.ns, underlying ?? C.int, scoped)
      : { name, scope: [...this.ns], underlying: underlying ?? C.int, scoped, consts: new Map() };
    const ety: CType = { k: 'enum', en, q: 0 };
    this.p++;
    const outerEnumBody = this.scopedEnumBody;
    // inside its own list an enumerator is named unqualified (`b = a`) before the enum is complete, scoped or not
    this.scopedEnumBody = { en };
    try { this.parseEnumerators(en, ety, scoped, underlying); } finally { this.scopedEnumBody = outerEnumBody; }
    ds.tagOnly = true;
    return ety;
  }

  /** The enumerator list after '{' (values, visibility) and the underlying type GCC picks when none is given. */
  parseEnumerators(this: Parser, en: EnumDecl, ety: CType, scoped: boolean, underlying: CType | null): void {
    let next = 0n, min = 0n, max = 0n;
    const vals: [string, bigint, Pos][] = [];
    while (!this.at('}')) {
      const nm = this.tx(); const npos = this.p;
      if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
      this.p++;
      this.parseAttributes({});
      if (this.eat('=')) next = this.constInt(this.parseCond());
      vals.push([nm, next, npos]);
      en.consts.set(nm, next);
      if (!scoped && this.scopes.length) this.declare({ kind: 'enumconst', name: nm, ty: ety, value: next });
      else if (!scoped && this.recordStack.length) (this.recordStack[this.recordStack.length - 1]!.enumerators ??= new Map()).set(nm, { ty: ety, value: next });
      if (next < min) min = next; if (next > max) max = next;
      next++;
      if (!this.eat(',')) break;
    }
    this.expect('}');
    if (!underlying) {
      // GCC: int if it fits, else unsigned int, long, unsigned long
      if (min >= -(1n << 31n) && max < (1n << 31n)) en.underlying = C.int;
      else if (min >= 0n && max < (1n << 32n)) en.underlying = C.uint;
      else if (min >= -(1n << 63n) && max < (1n << 63n)) en.underlying = C.long;
      else en.underlying = C.ulong;
    }
  }

  // ------------------------------------------------------------------ declarators
  parseDeclarator(this: Parser, base: CType, abstract: boolean): DeclaratorInfo {
    const info: DeclaratorInfo = { name: '', qual: [], pos: this.p, ty: base, paramNames: [], defaults: [], paramPos: [], attrs: {}, isFuncDeclarator: false };
    const build = this.parseDeclaratorInner(info, abstract, true);
    info.ty = build(base);
    // trailing things
    for (;;) {
      if (this.parseAttributes(info.attrs)) continue;
      if (this.at('__asm__') || this.at('asm') || this.at('__asm')) {
        this.p++; this.expect('(');
        // glibc's redirects spell the label as adjacent literals: `__asm__ ("" "__isoc99_fscanf")`
        let label = '';
        do { label += this.tx().slice(1, -1); this.p++; } while (this.kind() === Tok.String);
        info.asmLabel = label;
        this.expect(')'); continue;
      }
      break;
    }
    return info;
  }
  parseDeclaratorInner(this: Parser, info: DeclaratorInfo, abstract: boolean, outer: boolean): (t: CType) => CType {
    const ptrs: PtrOp[] = [];
    for (;;) {
      this.parseAttributes(info.attrs);
      if (this.at('*')) {
        this.p++; let q = 0;
        for (;;) {
          if (this.at('const') || this.at('__const')) q |= Q.Const;
          else if (this.at('volatile') || this.at('__volatile__')) q |= Q.Volatile;
          else if (this.at('__restrict__') || this.at('__restrict') || this.at('restrict')) q |= Q.Restrict;
          else if (this.parseAttributes(info.attrs)) continue;
          else break;
          this.p++;
        }
        ptrs.push({ k: 'ptr', q });
      } else if (this.at('&')) { this.p++; ptrs.push({ k: 'ref', q: 0 }); }
      else if (this.at('&&')) { this.p++; ptrs.push({ k: 'rref', q: 0 }); }
      else if (this.kind() === Tok.Ident && this.at('::', 1) && this.at('*', 2)) throw new Unsupported('pointer to member');
      else if (this.at('...') && this.inParams) { this.p++; this.sawPackDots = true; }   // `Ts... args`: a function parameter pack
      else break;
    }
    let inner: ((t: CType) => CType) | null = null;
    let direct = false;
    // a parameter's parenthesised name (`H h(int(a[3]))` declares a function taking `int *a`): a name that is not a
    // type in parentheses is a declarator there, not a function type's parameter list ([dcl.ambig.res])
    const parenName = (this.inParams || !abstract) && this.at('(') && this.kind(1) === Tok.Ident && !this.u.isKeyword(this.u.text(this.p + 1)) &&
      !this.startsType(1) && (this.at(')', 2) || this.at('[', 2));
    if (this.at('(') && (parenName || this.at('*', 1) || this.at('&', 1) || this.at('(', 1) || this.at('__attribute__', 1) || (this.at('^', 1)))) {
      this.p++;
      inner = this.parseDeclaratorInner(info, abstract, false);
      this.expect(')');
    } else if (this.kind() === Tok.Ident && !this.u.isKeyword(this.tx()) || this.at('::') || this.at('operator')) {
      // (qualified) declarator id
      if (this.at('::')) this.p++;
      for (;;) {
        if (this.kind() === Tok.Ident && this.at('::', 1)) {
          info.qual.push(this.tx()); this.p += 2;
          if (this.at('template')) this.p++;
          continue;
        }
        if (this.kind() === Tok.Ident && this.at('<', 1) && this.at('::', 1 + this.angleLength(1))) {
          // `C<T>::f` in an out-of-line member definition of a class template, read with C's arguments bound
          if (!this.outOfLineOf) throw new Unsupported('qualified name with template arguments');
          const name = this.tx();
          const t = this.templateIdType(name, this.ns, false);
          if (!t || t.k !== 'record' || t.rec !== this.outOfLineOf) throw new Unsupported('qualified name with template arguments');
          info.qual.push(name); (info as DeclaratorInfo & { qualRec?: RecordDecl }).qualRec = t.rec;
          this.cls = t.rec;   // the parameters that follow are in the class's scope (its injected name, member types)
          this.expect('::');
          continue;
        }
        break;
      }
      info.pos = this.p;
      if (this.at('~')) {
        this.p++;
        info.name = '~' + this.tx(); this.p++;
        (info as DeclaratorInfo & { dtor?: boolean }).dtor = true;
      } else if (this.at('operator')) {
        this.p++;
        const op = this.parseOperatorId();
        (info as DeclaratorInfo & { op?: string }).op = op.op;
        info.name = op.name;
        if (op.conv) (info as DeclaratorInfo & { convTy?: CType }).convTy = op.conv;
      } else {
        info.name = this.tx(); this.p++;
        if (info.qual.length && info.qual[info.qual.length - 1] === info.name) (info as DeclaratorInfo & { ctor?: boolean }).ctor = true;
      }
      direct = true;
      if (this.at('<')) {
        // an explicit specialisation being read for its template's arguments (templates.ts explicitFuncSpecFor)
        if (!this.instantiating) throw new Unsupported('template specialisation');
        this.p += this.angleLength(0);
      }
    } else if (!abstract) {
      this.syntax('expected an identifier', 40);
    }
    const suffixes: Suffix[] = [];
    for (;;) {
      if (this.at('[')) {
        this.p++;
        let n: number | null = null;
        if (!this.at(']')) n = Number(this.constInt(this.parseExpr()));
        this.expect(']');
        suffixes.push({ k: 'arr', n });
      } else if (this.at('(')) {
        // `T x(args)` declares an object initialised by args unless the parentheses can only hold parameters
        if (direct && suffixes.length === 0 && this.scopes.length > 0 && !this.at(')', 1) && !this.at('...', 1) && !(this.startsType(1) && !this.at('{', 2) && !this.functionalCastFirst()) && !this.at('__attribute__', 1)) break;
        const s = this.parseParams();
        suffixes.push(s);
        if (suffixes.length === 1 && (direct || (!inner && abstract)) && outer) {
          info.paramNames = s.names; info.defaults = s.defaults; info.paramPos = s.pos; info.isFuncDeclarator = true;
        } else if (suffixes.length === 1 && direct) { info.paramNames = s.names; info.defaults = s.defaults; info.paramPos = s.pos; info.isFuncDeclarator = true; }
        // cv/ref qualifiers, exception specs
        for (;;) {
          if (suffixes.length === 1) {
            const x = info as DeclaratorInfo & { fnQ?: number };
            if (this.at('const')) x.fnQ = (x.fnQ ?? 0) | Q.Const;
            if (this.at('volatile')) x.fnQ = (x.fnQ ?? 0) | Q.Volatile;
            if (this.at('final')) (info as DeclaratorInfo & { finalFn?: boolean }).finalFn = true;
          }
          if (this.at('const') || this.at('volatile') || this.at('&') || this.at('&&') || this.at('override') || this.at('final')) { this.p++; continue; }
          if (this.at('noexcept') || this.at('throw')) {
            // `noexcept`, `noexcept(true)`, `throw()`: what the noexcept operator asks of a call
            const nothrow = this.at('throw') ? this.at(')', 2) : !this.at('(', 1) || (this.at('true', 2) && this.at(')', 3));
            if (nothrow && suffixes.length === 1) (info as DeclaratorInfo & { nothrow?: boolean }).nothrow = true;
            this.p++; if (this.at('(')) this.skipBalanced(); continue;
          }
          if (this.at('->') && suffixes.length === 1) {
            this.p++;
            // the parameters are in scope in a trailing return type (`auto f(G const &g) -> decltype(g.size())`)
            const ps = new Map<string, Sym>();
            s.names.forEach((n, i) => { if (n && s.params[i]) ps.set(n, this.u.newVar(n, s.params[i]!, 'param', s.pos[i] ?? this.p)); });
            this.scopes.push(ps);
            try { (s as { trailing?: CType }).trailing = this.parseTypeName(); } finally { this.scopes.pop(); }
            continue;
          }
          if (this.at('->')) throw new Unsupported('trailing return type');
          break;
        }
      } else break;
    }
    const conv = (info as DeclaratorInfo & { convTy?: CType }).convTy;
    return (t: CType) => {
      if (conv && direct) t = conv;
      for (const pop of ptrs) t = pop.k === 'ptr' ? ptrTo(t, pop.q) : t.k === 'ref' ? (pop.k === 'ref' && t.rv ? refTo(t.to) : t) : refTo(t, pop.k === 'rref');
      for (let i = suffixes.length - 1; i >= 0; i--) {
        const s = suffixes[i]!;
        if (s.k === 'arr') t = arrayOf(t, s.n);
        else t = withPacks({ k: 'func', ret: (s as { trailing?: CType }).trailing && isAuto(t) ? (s as { trailing?: CType }).trailing! : t, params: s.params, variadic: s.variadic, q: 0 }, s);
      }
      return inner ? inner(t) : t;
    };
  }
  /** After `operator`: the operator (or conversion type) of an operator-function-id. */
  /**
   * At the '(' after a local declarator whose list starts with a type: is that type a functional cast whose
   * parentheses hold an expression (`H h(int(threadIdx.x))`, an object), not a parenthesised declarator
   * (`H h(int(a))`, a function)? A member access, a literal or an arithmetic operator cannot be in a declarator.
   */
  functionalCastFirst(this: Parser): boolean {
    let j = this.p + 1, angle = 0;
    for (; ; j++) {
      if (j >= this.end || this.u.toks.kind[j] === Tok.EOF) return false;
      const t = this.u.text(j);
      if (t === '<') angle++;
      else if (t === '>') angle--;
      else if (t === '>>') angle -= 2;
      else if (t === '(' && angle === 0) break;
      else if (angle === 0 && (t === ',' || t === ')' || t === ';' || t === '{' || t === '[')) return false;
    }
    if (j === this.p + 1) return false;
    // (an array bound inside is a constant expression either way: `int(a[N + 1])` declares a parameter)
    for (let depth = 0, bound = 0; j < this.end; j++) {
      const k = this.u.toks.kind[j], t = this.u.text(j);
      if (t === '(') depth++;
      else if (t === ')') { if (--depth === 0) return false; }
      else if (t === '[') bound++;
      else if (t === ']') bound--;
      else if (bound === 0 && (k === Tok.Number || k === Tok.Char || k === Tok.String || NOT_IN_DECLARATOR.has(t))) return true;
    }
    return false;
  }
  parseOperatorId(this: Parser): { op: string; name: string; conv?: CType } {
    if (this.at('(') && this.at(')', 1)) { this.p += 2; return { op: '()', name: 'operator()' }; }
    if (this.at('[') && this.at(']', 1)) { this.p += 2; return { op: '[]', name: 'operator[]' }; }
    if (this.at('new') || this.at('delete')) {
      // a class's own allocation functions (static members); the global ones stay unread
      if (!this.recordStack.length) throw new Unsupported(`operator ${this.tx()}`);
      const w = this.tx(); this.p++;
      if (this.at('[') && this.at(']', 1)) { this.p += 2; return { op: w + '[]', name: `operator ${w}[]` }; }
      return { op: w, name: `operator ${w}` };
    }
    if (this.kind() === Tok.Punct) { const op = this.tx(); this.p++; return { op, name: 'operator' + op }; }
    if (this.kind() === Tok.String) throw new Unsupported('user-defined literal');
    // conversion-type-id: type specifiers and pointer operators, no parentheses
    const start = this.p;
    const ds = this.parseDeclSpecs();
    if (!ds.ty) this.syntax('expected a type specifier', 79);
    let t = ds.ty;
    for (;;) {
      if (this.eat('*')) { let q = 0; for (;;) { if (this.eat('const')) q |= Q.Const; else if (this.eat('volatile')) q |= Q.Volatile; else break; } t = ptrTo(t, q); continue; }
      if (this.eat('&')) { t = refTo(t); continue; }
      if (this.eat('&&')) { t = refTo(t, true); continue; }
      break;
    }
    const words: string[] = [];
    for (let j = start; j < this.p; j++) words.push(this.u.text(j));
    return { op: 'cv', name: 'operator ' + words.join(' '), conv: t };
  }
  parseParams(this: Parser): Suffix & { k: 'fn' } {
    this.expect('(');
    const params: CType[] = [], names: string[] = [], defaults: (number | null)[] = [], pos: Pos[] = [];
    const packs: { name: string; first: number; count: number }[] = [];
    let variadic = false;
    if (this.at('void') && this.at(')', 1)) { this.p += 2; return { k: 'fn', params, variadic, names, defaults, pos }; }
    while (!this.at(')')) {
      if (this.eat('...')) { variadic = true; break; }
      const start = this.p;
      const one = () => {
        const savedIn = this.inParams;
        this.inParams = true; this.sawPackDots = false;
        try {
          const ds = this.parseDeclSpecs();
          if (!ds.ty && ds.auto && this.autoParams) {
            // a generic lambda's `auto` parameter: an invented template parameter (a placeholder, or its deduced type)
            const k = this.autoParams.n++;
            const t = this.autoParams.bound ? this.autoParams.bound[k] : placeholderType(k);
            if (!t) throw new Unsupported('generic lambda parameter');
            ds.ty = withQ(t, (ds as DeclSpec & { q: number }).q);
          }
          if (!ds.ty) { if (ds.auto) throw new Unsupported('auto parameter'); this.syntax('expected a type specifier', 79); }
          const d = this.parseDeclarator(ds.ty, true);
          let t = d.ty;
          if (t.k === 'array') t = ptrTo(t.elem, 0);
          else if (t.k === 'func') t = ptrTo(t);
          return { d, t, pack: this.sawPackDots };
        } finally { this.inParams = savedIn; }
      };
      const { d, t, pack } = one();
      if (pack && hasPack(t)) {
        // `Ts... args` of a specialisation: one parameter per element of the bound pack(s)
        const end = this.p;
        const elems = this.expandPack(start, end, () => { const r = one(); return r.t; }, false);
        this.p = end;
        packs.push({ name: d.name, first: params.length, count: elems.length });
        for (const et of elems) { params.push(et); names.push(d.name); pos.push(d.name ? d.pos : this.p); defaults.push(null); }
        if (!this.eat(',')) break;
        continue;
      }
      params.push(pack ? { k: 'error', q: 0, packExp: t } as CType : t); names.push(d.name); pos.push(d.name ? d.pos : this.p);
      if (this.eat('=')) {
        defaults.push(this.p);
        let depth = 0;
        while (this.kind() !== Tok.EOF) {
          const s = this.tx();
          if (depth === 0 && (s === ',' || s === ')')) break;
          if (s === '(' || s === '[' || s === '{') depth++;
          if (s === ')' || s === ']' || s === '}') depth--;
          this.p++;
        }
      } else defaults.push(null);
      if (!this.eat(',')) break;
    }
    this.expect(')');
    const r: Suffix & { k: 'fn' } = { k: 'fn', params, variadic, names, defaults, pos };
    if (packs.length) (r as { packs?: typeof packs }).packs = packs;
    return r;
  }
  parseTypeName(this: Parser): CType {
    const ds = this.parseDeclSpecs();
    if (!ds.ty) this.syntax('expected a type specifier', 79);
    const d = this.parseDeclarator(ds.ty, true);
    return d.ty;
  }

  // ------------------------------------------------------------------ namespace-scope declarations (on demand)
  /** Parse one top-level declaration (the skimmer's range) and return the entities it declares. */
  parseTopDecl(this: Parser, flagsInAnon: boolean): Sym[] {
    const out: Sym[] = [];
    if (this.at('template')) throw new Unsupported('template declaration');
    if (this.at('using')) {
      this.p++;
      if (this.at('namespace')) return out;
      // using-declaration (`using ::printf;`) or alias (`using T = int;`)
      if (this.kind() === Tok.Ident && this.at('=', 1)) {
        const name = this.tx(); this.p += 2;
        const defines = this.at('enum') && !this.at('class', 1) && !this.at('struct', 1);
        const ty = this.parseTypeName();
        // an alias declaration names its type like a typedef (sugarOf)
        out.push({ kind: 'type', name, ty, sugar: this.ns.includes('(anonymous)') ? undefined : [...this.ns, name].join('::') } as Sym);
        // `using E = enum E { a, b };`: the enum's tag and enumerators are declared here as well
        if (defines && ty.k === 'enum') out.push({ kind: 'type', name: ty.en.name, ty: unqual(ty) }, ...this.enumConsts(ty));
        return out;
      }
      let path: string[] = []; let abs = false;
      if (this.eat('::')) abs = true;
      while (this.kind() === Tok.Ident && this.at('::', 1)) { path.push(this.tx()); this.p += 2; }
      const name = this.tx(); this.p++;
      return this.u.lookupPath(path, name, this.ns, abs);
    }
    if (this.at('static_assert') || this.at('asm') || this.at('__asm__')) return out;
    if (this.atOutOfLineCtor()) {
      const ds: DeclSpec = { ty: C.void, typedef: false, extern: false, externC: false, static: false, inline: false, constexpr: false, auto: false, attrs: {}, tagOnly: false };
      for (;;) {
        if (this.parseAttributes(ds.attrs)) continue;
        if (this.at('inline') || this.at('__inline__') || this.at('constexpr') || this.at('explicit')) { this.p++; continue; }
        break;
      }
      const d = this.parseDeclarator(C.void, false);
      return this.defineOutOfLine(d, ds);
    }
    const ds = this.parseDeclSpecs();
    if (this.at(';')) {
      if (ds.ty && ds.ty.k === 'record') out.push({ kind: 'type', name: ds.ty.rec.name, ty: unqual(ds.ty) });
      if (ds.ty && ds.ty.k === 'enum') out.push({ kind: 'type', name: ds.ty.en.name, ty: unqual(ds.ty) }, ...this.enumConsts(ds.ty));
      return out;
    }
    if (ds.ty && ds.ty.k === 'enum' && ds.tagOnly) out.push(...this.enumConsts(ds.ty));
    if (!ds.ty) {
      if (!ds.auto) this.syntax('expected a type specifier', 79);
      // `auto f(...)`: a return type deduced from the body (or given after ->)
      ds.ty = withQ((ds as DeclSpec & { dcauto?: boolean }).dcauto ? DECLTYPE_AUTO : AUTO, (ds as DeclSpec & { q: number }).q);
    }
    for (;;) {
      const d = this.parseDeclarator(ds.ty, false);
      if (ds.auto && d.ty.k !== 'func') {
        // `constexpr auto begin = __begin::__fn{};` (CCCL's customization point objects): the initializer's type
        if (!isAuto(unqual(d.ty)) || !this.at('=')) throw new Unsupported('auto variable at namespace scope (form)');
        const save = this.p;
        this.p++;
        const e = this.parseAssign();
        this.p = save;
        if (e.ty.k === 'error') throw new Unsupported('auto variable at namespace scope (initializer) ' + this.u.diags.map(x => x.message).join(';') + ' @' + this.u.text(save - 2));
        const t = e.ty.k === 'array' ? ptrTo(e.ty.elem) : e.ty.k === 'func' ? ptrTo(e.ty) : unqual(e.ty);
        d.ty = withQ(t, d.ty.q);
      }
      if (d.qual.length) {
        if (d.ty.k === 'func') return this.defineOutOfLine(d, ds);
        throw new Unsupported('qualified declarator (out-of-line static data member)');
      }
      const attrs = { ...ds.attrs, ...d.attrs };
      if (ds.typedef) {
        const t = d.ty;
        if (t.k === 'record' && !t.rec.name && !t.rec.typedefName) t.rec.typedefName = d.name;
        if (t.k === 'enum' && !t.en.name && !t.en.typedefName) t.en.typedefName = d.name;
        // named through it, the type keeps the typedef's name for the host stub (sugarOf); cicc spells the
        // __device_builtin__ ones (cudaTextureObject_t) as their type
        const qual = [...this.ns.filter(s => s !== '(anonymous)'), d.name].join('::');
        const sugar = this.ns.includes('(anonymous)') || attrs.deviceBuiltin ? undefined : qual;
        out.push({ kind: 'type', name: d.name, ty: t, sugar } as Sym);
      } else if (d.ty.k === 'func') {
        const f = this.u.declareFunction(d, ds, attrs, this.ns, flagsInAnon, this.instantiating);
        if (this.at('{')) {
          f.bodyStart = this.p; this.skipBalanced(); f.bodyEnd = this.p - 1;
          (f as FuncSym & { bodyIsDevice?: boolean }).bodyIsDevice = !!(attrs.device || attrs.global);
          f.paramNames = d.paramNames; f.pos = d.pos;
          out.push(f);
          return out;
        }
        out.push(f);
      } else {
        const v = this.u.declareVariable(d, ds, attrs, this.ns, flagsInAnon, this);
        out.push(v);
      }
      if (!this.eat(',')) break;
    }
    return out;
  }
  /** At `[attrs] [inline] X::X(`, `X::~X(` or `X::operator T(` (an out-of-line constructor/destructor/conversion function definition)? */
  atOutOfLineCtor(this: Parser): boolean {
    let i = 0;
    for (;;) {
      const t = this.tx(i);
      if (t === '__attribute__') { let d = 0; let j = i + 1; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j; continue; }
      if (t === 'inline' || t === '__inline__' || t === 'constexpr' || t === 'explicit') { i++; continue; }
      break;
    }
    let last = '';
    for (;;) {
      if (this.kind(i) === Tok.Ident && this.at('::', i + 1)) { last = this.tx(i); i += 2; continue; }
      // `C<T>::C(` of a class template (read while loading its out-of-line members)
      if (this.outOfLineOf && this.kind(i) === Tok.Ident && this.at('<', i + 1) && this.at('::', i + 1 + this.angleLength(i + 1))) {
        last = this.tx(i); i += 2 + this.angleLength(i + 1); continue;
      }
      break;
    }
    if (!last) return false;
    if (this.at('~', i)) return this.tx(i + 1) === last;
    // `X::operator T() const`: a conversion function has no return type either
    if (this.tx(i) === 'operator' && this.kind(i + 1) !== Tok.Punct) return true;
    return this.tx(i) === last && this.at('(', i + 1);
  }
  /** An out-of-line member function definition `R C::f(...) {...}`: attach the body to the member declared in C. */
  defineOutOfLine(this: Parser, d: DeclaratorInfo, ds: DeclSpec): Sym[] {
    let rec: RecordDecl | null = null;
    const qualRec = (d as DeclaratorInfo & { qualRec?: RecordDecl }).qualRec;
    for (const q of qualRec ? [] : d.qual) {
      const syms: Sym[] = rec ? this.classMember(rec, q, true) : this.lookup(q);
      const t: Sym | undefined = syms.find((x: Sym) => x.kind === "type" && x.ty.k === "record");
      if (!t || t.kind !== 'type' || t.ty.k !== 'record') {
        if (!rec && this.u.resolveIn(this.ns, q).kind === 'ns') throw new Unsupported('namespace-qualified function definition');
        throw new Unsupported(`out-of-line definition in ${q}`);
      }
      rec = t.ty.rec;
    }
    if (qualRec) rec = qualRec;
    if (!rec) throw new Unsupported('qualified declarator');
    const fty = d.ty as CType & { k: 'func' };
    const fnQ = (d as DeclaratorInfo & { fnQ?: number }).fnQ ?? 0;
    const m = [...(rec.methods ?? []), ...(this.outOfLineTarget ? [this.outOfLineTarget] : [])].find(x => x.name === d.name && (x.thisQ ?? 0) === fnQ && x.ty.params.length === fty.params.length
      && x.ty.params.every((p, i) => typeName(unqual(p)) === typeName(unqual(fty.params[i]!))));
    if (!m) throw new Unsupported(`out-of-line definition of ${rec.name}::${d.name} not matched to a member`);
    const attrs = { ...ds.attrs, ...d.attrs };
    m.isDevice ||= !!attrs.device; m.isHost ||= !!attrs.host;
    m.forceinline ||= !!attrs.alwaysInline; m.noinline ||= !!attrs.noinline;
    m.defaults = m.defaults.map((x, i) => x ?? d.defaults[i] ?? null);
    if (this.at(':')) {
      m.initStart = this.p; this.p++;
      for (;;) {
        while (this.kind() !== Tok.EOF && !this.at('(') && !this.at('{')) this.p++;
        this.skipBalanced();
        this.eat('...');
        if (!this.eat(',')) break;
      }
    }
    if (this.at('{')) {
      m.bodyStart = this.p; this.skipBalanced(); m.bodyEnd = this.p - 1; m.paramNames = d.paramNames;
      if (qualRec || this.outOfLineTarget) m.tscope = this.tscope ?? undefined;   // the definition's own names for the template parameters
      if (packsOf(fty).length) m.ty = withPacks({ ...m.ty } as CType & { k: 'func' }, { packs: packsOf(fty) }) as typeof m.ty;   // its parameter packs, by the definition's names
    }
    return [];
  }
  enumConsts(this: Parser, t: CType): Sym[] {
    if (t.k !== 'enum' || t.en.scoped) return [];
    return [...t.en.consts].map(([name, value]) => ({ kind: 'enumconst' as const, name, ty: t, value }));
  }
}
declare module './parser-core' { interface Parser extends DeclarationsRoom {} }
addRoom(DeclarationsRoom);

/** The fundamental type the words `signed`/`unsigned`, `short`, `long`s and a base word (`int`, `char`, ...) spell, if any. */
function fundamentalType(base: string | null, signed: boolean | null, short: boolean, longs: number): CType | null {
  if (base === 'void') return C.void;
  if (base === 'bool') return C.bool;
  if (base === 'float') return C.float;
  if (base === 'double') return longs ? { k: 'ldouble', q: 0 } : C.double;
  if (base === 'char') return signed === null ? C.char : signed ? C.schar : C.uchar;
  if (base === 'wchar_t' || base === 'char16_t' || base === 'char32_t') return intT(base);
  if (base === '__int128') return intT(signed === false ? 'unsigned __int128' : '__int128');
  if (base === 'int' || signed !== null || short || longs) {
    const nm: IntName = short ? 'short' : longs >= 2 ? 'long long' : longs === 1 ? 'long' : 'int';
    return intT(signed === false ? ('unsigned ' + (nm === 'int' ? 'int' : nm)) as IntName : nm);
  }
  return null;
}
