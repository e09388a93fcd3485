// Parser room: template argument lists, pack expansions and fold expressions; instantiating on use.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, VarSym, FuncSym } from './ast';
import { type CType, type RecordDecl, type MemberTmpl, type TArg, C, unqual, packOf, hasPack, valParam } from './ctype';
import { mk, errExpr, cast } from './sema';
import { evalInt } from './consteval';
import { SyntaxAbort, hasPlaceholder, packValsOf, valPackParamOf } from './parser-types';
import { BIN_PREC } from './parser-words';
import { Parser, addRoom } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class TemplateArgsRoom {
  /** `< args >` of a template-id (at '<'). Types where a type can start, else constant expressions. */
  parseTemplateArgs(this: Parser): TArg[] {
    const savedIn = this.inParams;
    this.inParams = false;   // a `...` in here is an expansion, not a function parameter pack
    try { return this.parseTemplateArgsIn(); } finally { this.inParams = savedIn; }
  }
  parseTemplateArgsIn(this: Parser): TArg[] {
    this.expect('<');
    const out: TArg[] = [];
    while (!this.at('>') && !this.at('>>')) {
      if (this.at('...')) throw new Unsupported('pack expansion');
      const start = this.p;
      const tt = this.templateNameArg();
      if (tt) { out.push({ k: 'type', ty: tt }); if (!this.eat(',')) break; continue; }
      // `is_same<T, Ts>...`: a pattern naming a bound type pack inside a template-id (no type holds the pack
      // itself), one type argument per element
      const tdots = this.packPatterns ? -1 : this.typeArgDotsAhead();
      if (tdots > this.p + 1 && this.namesTypePack(this.p, tdots)) {
        const dl = this.u.diags.length, ec = this.u.errorCount;
        let tys: CType[] | null = null;
        try { tys = this.expandPack(this.p, tdots, () => this.parseTypeName()); } catch (e) { if (!(e instanceof SyntaxAbort) && !(e instanceof Unsupported)) throw e; }
        if (tys && this.u.errorCount === ec) {
          out.push({ k: 'pack', args: tys.map(t => ({ k: 'type', ty: t })) });
          if (!this.eat(',')) break;
          continue;
        }
        // not types (`is_same_v<T, Ts>...` are values): read below
        this.u.diags.length = dl; this.u.errorCount = ec; this.p = start;
      }
      if (this.startsType() && !this.functionalCastArg()) {
        const ty = this.parseTypeName();
        if (this.at('...') && !hasPack(ty) && hasPlaceholder(ty)) {
          // `Rest...` in a declared signature or a partial specialisation's arguments: a pattern matching the remaining arguments
          this.p++;
          out.push({ k: 'pack', args: [{ k: 'type', ty: { k: 'error', q: 0, packExp: ty } as CType }] });
          if (!this.eat(',')) break;
          continue;
        }
        if (this.at('...') && hasPack(ty)) {
          // `Ts...` / `const Ts &...`: one argument per element
          const end = this.p;
          const tys = this.expandPack(start, end, () => this.parseTypeName());
          out.push({ k: 'pack', args: tys.map(t => ({ k: 'type', ty: t })) });
          if (!this.eat(',')) break;
          continue;
        }
        out.push({ k: 'type', ty });
      }
      else if (this.tmplArgDotsAhead() >= 0) {
        // `Is...` / `(Is * 2)...`: a non-type pack expansion, one argument per element
        const dots = this.tmplArgDotsAhead();
        const pi = dots === this.p + 1 ? valPackParamOf(this.tscope?.get(this.tx())) : undefined;
        if (pi !== undefined) {
          // `Is...` of a pattern (a partial specialisation's arguments, a declared signature): matches the remaining values
          out.push({ k: 'pack', args: [{ k: 'val', ty: C.int, v: valParam(pi), packExp: true } as TArg] });
          this.p = dots + 1;
        } else if (this.at('__integer_pack') && this.at('(', 1) && this.lookup('__integer_pack').length === 0) {
          // GCC's `__integer_pack(N)...` (libstdc++'s and libcu++'s make_integer_sequence): the values 0 .. N-1
          this.p += 2;
          const savedGt = this.gtEnds;
          this.gtEnds = false;
          let e: Expr;
          try { e = this.parseAssign(); } finally { this.gtEnds = savedGt; }
          this.expect(')');
          if (this.p !== dots) throw new Unsupported('__integer_pack in a larger pattern');
          const n = evalInt(e, this.u.consts);
          if (n === null) throw new Unsupported('__integer_pack of a value not known here');
          if (n < 0n || n > 1n << 16n) throw new Unsupported(`__integer_pack(${n})`);
          const ty = unqual(e.ty);
          const vals: TArg[] = [];
          for (let v = 0n; v < n; v++) vals.push({ k: 'val', ty, v });
          out.push({ k: 'pack', args: vals });
          this.p = dots + 1;
        } else {
          const vals = this.expandPack(this.p, dots, () => {
            const savedGt = this.gtEnds;
            this.gtEnds = true;
            try { const e = this.parseBinary(1); return { k: 'val' as const, ty: unqual(e.ty.k === 'error' ? C.int : e.ty), v: this.constInt(e) }; } finally { this.gtEnds = savedGt; }
          });
          out.push({ k: 'pack', args: vals });
        }
        if (!this.eat(',')) break;
        continue;
      }
      else {
        // a constant expression up to the `>` or `,` that ends it (`(N > 32) && (N <= 1024)`)
        const savedGt = this.gtEnds;
        this.gtEnds = true;
        let e: Expr;
        try { e = this.parseBinary(1); } finally { this.gtEnds = savedGt; }
        const v = this.constInt(e);
        out.push({ k: 'val', ty: unqual(e.ty.k === 'error' ? C.int : e.ty), v });
      }
      if (this.at('...')) throw new Unsupported('pack expansion');
      if (!this.eat(',')) break;
    }
    this.closeAngle();
    return out;
  }
  /**
   * A template template argument at the cursor: a class template's (qualified) name alone, up to the ',' or
   * '>' that ends the argument, or a template template parameter; the cursor moves past it. Null otherwise.
   */
  templateNameArg(this: Parser): CType | null {
    let j = this.p;
    const path: string[] = [];
    const global = this.u.text(j) === '::';
    if (global) j++;
    for (;;) {
      if (this.u.toks.kind[j] !== Tok.Ident || this.u.isKeyword(this.u.text(j))) return null;
      path.push(this.u.text(j)); j++;
      if (this.u.text(j) === '::') { j++; continue; }
      break;
    }
    const after = this.u.text(j);
    if (after !== ',' && after !== '>' && after !== '>>' && j < this.end) return null;
    const name = path[path.length - 1]!;
    if (path.length === 1 && !global) {
      const ts = this.tscope?.get(name);
      if (ts) { if (ts.kind === 'type' && (ts.ty as { tmplRec?: RecordDecl }).tmplRec) { this.p = j; return ts.ty; } return null; }
      // the injected class name inside its own template names the current specialisation (a type)
      if (this.recordStack.some(r => r.name === name) || this.cls?.name === name) return null;
      // a specialisation of the template itself (`policy<tag>`, read before) does not hide the template's name
      const ownSpec = (x: { kind: string; ty?: CType }) => x.kind === 'type' && x.ty?.k === 'record' && x.ty.rec.name === name && x.ty.rec.targs !== undefined;
      if (this.lookup(name).some(x => (x.kind === 'type' && !ownSpec(x)) || x.kind === 'var' || x.kind === 'enumconst')) return null;
    }
    // a class template, or an alias template (thrust's `lazy_trait<it_value_t, Base>`)
    const isRec = (di: number) => this.u.index.decls[di]!.kind === 'record' || this.u.index.decls[di]!.kind === 'using';
    let ents: number[] = [];
    if (global) ents = this.u.templateEntries(name, path.slice(0, -1), 'record', true).filter(isRec);
    else if (path.length === 1) ents = this.u.templateEntries(name, this.ns, 'record', false).filter(isRec);
    else {
      // the namespaces resolved one by one (inline namespaces included), as qualifiedType() does
      const r = this.resolveNamespaceOrType(path[0]!);
      if (r.kind !== 'ns') return null;
      let nsPath = r.path;
      for (const c of path.slice(1, -1)) { const rc = this.u.resolveIn(nsPath, c); if (rc.kind !== 'ns') return null; nsPath = rc.path; }
      ents = this.u.templateEntries(name, nsPath, 'record', true).filter(isRec);
    }
    if (!ents.length) return null;
    this.p = j;
    return this.u.templates.tmplRef(ents[0]!);
  }
  /** If the template argument at the cursor ends in `...` (before the ',' or '>' that ends it), the index of that `...`. */
  tmplArgDotsAhead(this: Parser): number {
    let depth = 0;
    for (let j = this.p; j < this.end; j++) {
      const t = this.u.text(j);
      if (this.u.toks.kind[j] === Tok.EOF) return -1;
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (--depth < 0) return -1; }
      else if (depth === 0 && (t === ',' || t === '>' || t === '>>')) return j > this.p && this.u.text(j - 1) === '...' ? j - 1 : -1;
      else if (t === ';') return -1;
    }
    return -1;
  }
  closeAngle(this: Parser): void {
    if (this.halfGt) { this.halfGt = false; this.p++; return; }
    if (this.at('>>')) { this.halfGt = true; return; }
    this.expect('>');
  }
  /** A class template name followed by `<args>` at the cursor (the name at offset 0): the specialisation's type. */
  templateIdType(this: Parser, name: string, ns: string[], exact: boolean): CType | null {
    const ents = !exact && ns === this.ns ? this.visibleTemplates(name, 'record') : this.u.templateEntries(name, ns, 'record', exact);
    if (!ents.length || !this.at('<', 1)) return null;
    this.p++;
    const args = this.parseTemplateArgs();
    if (this.u.index.decls[ents[0]!]!.kind === 'using') return this.u.templates.instantiateAlias(ents[0]!, args, this);
    return { k: 'record', rec: this.u.templates.instantiateClass(ents[0]!, args, this), q: 0 };
  }
  /**
   * A pack expansion whose pattern is the tokens [start, end): the pattern parsed once per element, with
   * the template parameter packs and function parameter packs it names bound to that element. With
   * `dots`, the token at `end` is the `...` and the cursor is left after it.
   */
  expandPack<T>(this: Parser, start: number, end: number, one: () => T, dots = true): T[] {
    const types = new Map<string, CType[]>(), vars = new Map<string, VarSym[]>(), vals = new Map<string, { ty: CType; vs: bigint[] }>();
    for (let j = start; j < end; j++) {
      if (this.u.toks.kind[j] !== Tok.Ident) continue;
      const n = this.u.text(j);
      const v = this.packVar(n);
      if (v) { vars.set(n, v); continue; }
      const ts = this.tscope?.get(n);
      const el = ts && ts.kind === 'type' ? packOf(ts.ty) : undefined;
      if (el) types.set(n, el);
      const pv = packValsOf(ts);
      if (pv) vals.set(n, { ty: (ts as { ty: CType }).ty, vs: pv });
      if (valPackParamOf(ts) !== undefined) throw new Unsupported('expansion of a non-type parameter pack in a pattern');
    }
    const lens = new Set([...[...types.values()].map(x => x.length), ...[...vars.values()].map(x => x.length), ...[...vals.values()].map(x => x.vs.length)]);
    if (lens.size !== 1) throw new Unsupported(lens.size ? 'pack expansion of packs of different lengths' : 'pack expansion without a parameter pack');
    const n = [...lens][0]!;
    const out: T[] = [];
    const savedT = this.tscope;
    for (let i = 0; i < n; i++) {
      const ts = new Map(savedT ?? []);
      for (const [name, el] of types) ts.set(name, { kind: 'type', name, ty: el[i]! });
      for (const [name, el] of vals) ts.set(name, { kind: 'enumconst', name, ty: el.ty, value: el.vs[i]! });
      this.tscope = ts;
      this.push();
      for (const [name, vs] of vars) this.scopes[this.scopes.length - 1]!.set(name, vs[i]!);
      try {
        this.p = start;
        out.push(one());
        if (this.p !== end) this.syntax('expected a "..."', 18);
      } finally { this.pop(); this.tscope = savedT; }
    }
    this.p = dots ? end + 1 : end;
    return out;
  }
  /**
   * If the template argument at the cursor, read as a type (its '<' '>' nest), is a pack expansion `pattern...`
   * ended by ',' or the list's '>', the index of its `...`; else -1.
   */
  typeArgDotsAhead(this: Parser): number {
    let angle = 0;
    for (let j = this.p; j < this.end; j++) {
      const t = this.u.text(j);
      if (this.u.toks.kind[j] === Tok.EOF || t === ';' || t === '{' || t === '}') return -1;
      if (t === '(' || t === '[') { j = this.balancedEnd(j); continue; }
      if (t === ')' || t === ']') return -1;
      if (t === '<') angle++;
      else if (t === '>' || t === '>>') { if (angle === 0) return -1; angle -= t.length; if (angle < 0) return -1; }
      else if (t === ',' && angle === 0) return -1;
      else if (t === '...' && angle === 0) { const n = this.u.text(j + 1); return n === ',' || n === '>' || n === '>>' ? j : -1; }
    }
    return -1;
  }
  /** Whether tokens [start, end) name a template type parameter pack bound to its elements. */
  namesTypePack(this: Parser, start: number, end: number): boolean {
    for (let j = start; j < end; j++) {
      if (this.u.toks.kind[j] !== Tok.Ident) continue;
      const ts = this.tscope?.get(this.u.text(j));
      if (ts && ts.kind === 'type' && packOf(ts.ty)) return true;
    }
    return false;
  }
  /** The elements of the function parameter pack named `name` in scope, if it is one. */
  packVar(this: Parser, name: string): VarSym[] | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (s) return s.kind === 'var' ? (s as VarSym & { packVars?: VarSym[] }).packVars : undefined;
    }
    return undefined;
  }
  /** If the argument at the cursor is a pack expansion `pattern...` (ended by ',' or a closing bracket), the index of its `...`. */
  packDotsAhead(this: Parser): number {
    let depth = 0;
    for (let j = this.p; ; j++) {
      const k = this.u.toks.kind[j];
      if (k === Tok.EOF || j >= this.end) return -1;
      const t = this.u.text(j);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (depth === 0) return j > this.p && this.u.text(j - 1) === '...' ? j - 1 : -1; depth--; }
      else if (depth === 0 && (t === ',' || t === ';')) return j > this.p && this.u.text(j - 1) === '...' ? j - 1 : -1;
    }
  }
  /**
   * Deduce and instantiate one function template for a call. A template whose declaration we cannot read or
   * instantiate for these arguments (SFINAE, features we lack) is no candidate; `failed` hears why.
   */
  tryInstantiate(this: Parser, di: number, explicit: TArg[], args: Expr[], failed: (reason: string) => void): FuncSym | null {
    const dl = this.u.diags.length, ec = this.u.errorCount;
    try {
      const f = this.u.templates.deduceAndInstantiate(di, explicit, args);
      if (this.u.errorCount > ec) { this.u.diags.length = dl; this.u.errorCount = ec; failed(`function template ${this.u.index.decls[di]!.name}: substitution failed`); return null; }
      return f;
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      this.u.diags.length = dl; this.u.errorCount = ec;
      failed(e instanceof Unsupported ? e.reason : `function template ${this.u.index.decls[di]!.name}: substitution failed`);
      return null;
    }
  }
  /** Deduce and instantiate a member function template for a call (like tryInstantiate). */
  tryInstantiateMember(this: Parser, mt: MemberTmpl, explicit: TArg[], args: Expr[], failed: (reason: string) => void): FuncSym | null {
    const dl = this.u.diags.length, ec = this.u.errorCount;
    try {
      const f = this.u.templates.deduceAndInstantiateMember(mt, explicit, args);
      if (this.u.errorCount > ec) { this.u.diags.length = dl; this.u.errorCount = ec; failed(`member template ${mt.name}: substitution failed`); return null; }
      return f;
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      this.u.diags.length = dl; this.u.errorCount = ec;
      failed(e instanceof Unsupported ? e.reason : `member template ${mt.name}: substitution failed`);
      return null;
    }
  }

  /** A fold expression `(pack op ...)`, `(... op pack)`, `(pack op ... op init)` or `(init op ... op pack)` at the '(' (null if it is none). */
  parseFold(this: Parser): Expr | null {
    const open = this.p;
    let depth = 0, dots = -1, close = -1;
    for (let j = open; j < this.end; j++) {
      const k = this.u.toks.kind[j];
      if (k === Tok.EOF) return null;
      const t = this.u.text(j);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { depth--; if (depth === 0) { close = j; break; } }
      else if (t === '...' && depth === 1 && dots < 0) dots = j;
    }
    if (dots < 0 || close < 0) return null;
    const isOp = (j: number) => this.u.toks.kind[j] === Tok.Punct && (BIN_PREC[this.u.text(j)] !== undefined || this.u.text(j) === ',');
    const pos = open;
    let op: string, pat: [number, number], init: [number, number] | null = null, right: boolean;
    if (dots === open + 1 && isOp(dots + 1)) { op = this.u.text(dots + 1); pat = [dots + 2, close]; right = false; }
    else if (isOp(dots - 1) && dots + 1 === close) { op = this.u.text(dots - 1); pat = [open + 1, dots - 1]; right = true; }
    else if (isOp(dots - 1) && isOp(dots + 1) && this.u.text(dots - 1) === this.u.text(dots + 1)) {
      op = this.u.text(dots - 1);
      const lhs: [number, number] = [open + 1, dots - 1], rhs: [number, number] = [dots + 2, close];
      const names = (r: [number, number]) => { for (let j = r[0]; j < r[1]; j++) { if (this.u.toks.kind[j] !== Tok.Ident) continue; const n = this.u.text(j); const ts = this.tscope?.get(n); if (this.packVar(n) || (ts && ts.kind === 'type' && packOf(ts.ty)) || packValsOf(ts)) return true; } return false; };
      right = names(lhs);
      pat = right ? lhs : rhs; init = right ? rhs : lhs;
    } else return null;
    const prec = op === ',' ? 0 : BIN_PREC[op]!;
    const operand = () => op === ',' ? this.parseAssign() : this.parseBinary(prec + 1);
    const elems = this.expandPack(pat[0], pat[1], operand, false);
    let initE: Expr | null = null;
    if (init) { this.p = init[0]; initE = operand(); if (this.p !== init[1]) this.syntax('expected a ")"', 18); }
    this.p = close + 1;
    const combine = (a: Expr, b: Expr): Expr => op === ',' ? mk(b.ty, pos, b.lv, { k: 'comma', a, b }) : this.binary(op, a, b, pos);
    const items = right ? [...elems, ...(initE ? [initE] : [])] : [...(initE ? [initE] : []), ...elems];
    if (items.length === 0) {
      // an empty unary fold: && is true, || is false, the comma operator is void()
      if (op === '&&') return mk(C.bool, pos, false, { k: 'int', v: 1n });
      if (op === '||') return mk(C.bool, pos, false, { k: 'int', v: 0n });
      if (op === ',') return cast(mk(C.int, pos, false, { k: 'int', v: 0n }), 'void', C.void);
      this.u.error(pos, 2963, `a unary fold expression over this operator must have a nonempty expansion`);
      return errExpr(pos);
    }
    if (right) { let e = items[items.length - 1]!; for (let i = items.length - 2; i >= 0; i--) e = combine(items[i]!, e); return e; }
    let e = items[0]!; for (let i = 1; i < items.length; i++) e = combine(e, items[i]!); return e;
  }
}
declare module './parser-core' { interface Parser extends TemplateArgsRoom {} }
addRoom(TemplateArgsRoom);
