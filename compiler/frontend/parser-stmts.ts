// Parser room: statements and function bodies.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, Stmt, Init, VarSym, FuncSym, Pos, Sym } from './ast';
import { type CType, type RecordDecl, C, Q, ptrTo, refTo, arrayOf, withQ, unqual, AUTO, isAuto, isDecltypeAuto, hasAuto, isArith, isIntegral } from './ctype';
import { mk, errExpr, rval, promote, implicitConvert, toCond, wrapInt, markXvalue } from './sema';
import { noteConstInit } from './consteval';
import { SyntaxAbort, packsOf, DeclSpec } from './parser-types';
import { isByteCopy, ownCopyCtor, ownMoveCtor } from './parser-classes';
import { BUILTIN_TYPE_WORDS } from './parser-words';
import { Parser, addRoom } from './parser-core';
import { mentions, statementEnd } from './host-tokens';

/** Methods of Parser (installed on its prototype below). */
export class StatementsRoom {

  // ------------------------------------------------------------------ function bodies
  parseFunctionBody(this: Parser, f: FuncSym): Stmt {
    this.fn = f;
    const fty = f.ty;
    this.retTy = fty.ret;
    this.push();
    if (f.cls) {
      this.cls = f.cls;
      if (!f.staticMember) {
        const recTy: CType = withQ({ k: 'record', rec: f.cls, q: 0 }, f.thisQ ?? 0);
        f.thisVar = this.u.newVar('this', ptrTo(recTy), 'param', f.pos);
      }
    }
    f.params = fty.params.map((t, i) => {
      const v = this.u.newVar(f.paramNames[i] ?? '', t, 'param', f.pos);
      if (v.name) this.declare(v);
      return v;
    });
    for (const pk of packsOf(fty)) {
      // a function parameter pack: its name stands for its elements (only inside expansions and sizeof...)
      const pv = this.u.newVar(pk.name, C.int, 'param', f.pos) as VarSym & { packVars?: VarSym[] };
      pv.packVars = f.params.slice(pk.first, pk.first + pk.count);
      if (pk.name) this.declare(pv);
    }
    const pre: Stmt[] = f.ctor ? this.parseMemInitializers(f) : [];
    const body = this.parseBlock();
    if (isAuto(f.ty.ret)) f.ty = { ...f.ty, ret: C.void };   // no return statement with a value
    this.pop();
    for (const g of this.gotos) if (!this.labels.has(g.label)) this.u.error(g.pos, 114, `label "${g.label}" was referenced but not defined`);
    return pre.length ? { k: 'block', body: [...pre, body] } : body;
  }
  parseBlock(this: Parser): Stmt {
    this.expect('{');
    this.push();
    const body: Stmt[] = [];
    while (!this.at('}')) {
      if (this.kind() === Tok.EOF) this.syntax('expected a "}"', 67);
      const s = this.parseStmtRecover();
      if (s) body.push(s);
    }
    this.p++;
    this.pop();
    return { k: 'block', body };
  }
  parseStmtRecover(this: Parser): Stmt | null {
    const start = this.p;
    if (this.hostNames) return this.hostStmt(start, this.hostNames);
    try { return this.parseStmt(); } catch (e) {
      if (!(e instanceof SyntaxAbort)) throw e;
      if (this.p === start) this.p++;
      // skip to the end of the statement
      let depth = 0;
      while (this.kind() !== Tok.EOF) {
        const t = this.tx();
        if (depth === 0 && t === ';') { this.p++; break; }
        if (depth === 0 && t === '}') break;
        if (t === '{' || t === '(' || t === '[') depth++;
        if (t === ')' || t === ']') depth = Math.max(0, depth - 1);
        if (t === '}') { depth--; if (depth === 0) { this.p++; break; } }
        this.p++;
      }
      return null;
    }
  }
  /** A statement of host code being read for its calls (hostNames): one we cannot read that names none of them is skipped. */
  hostStmt(this: Parser, start: number, names: Set<string>): Stmt | null {
    const depth = this.scopes.length, diags = this.u.diags.length, errs = this.u.errorCount, nesting = this.u.nesting;
    let failure: unknown = null;
    try {
      const s = this.parseStmt();
      if (this.u.errorCount === errs) return s;
    } catch (e) {
      if (!(e instanceof SyntaxAbort) && !(e instanceof Unsupported)) throw e;
      failure = e;
    }
    const end = statementEnd(this.u, start);
    if (end < 0 || mentions(this.u, start, end, names)) {
      if (failure) throw failure;
      return null;
    }
    this.u.diags.length = diags; this.u.errorCount = errs; this.u.nesting = nesting;
    this.scopes.length = depth;
    this.p = end + 1;
    return null;
  }
  parseStmt(this: Parser): Stmt {
    return this.nested(() => this.parseStmtAt());
  }
  parseStmtAt(this: Parser): Stmt {
    const pos = this.p;
    const k = this.kind();
    if (k === Tok.Pragma) {
      const text = this.tx();
      this.p++;
      const m = /^\s*pragma\s+unroll\s*(\(?\s*(\d+)\s*\)?)?/.exec(text);
      if (m) this.pendingUnroll = m[2] ? Number(m[2]) : 0;
      return { k: 'null' };
    }
    // attributes of a statement (`[[likely]] { ... }`, `[[fallthrough]];`) change nothing we compile
    if (this.at('[') && this.at('[', 1)) {
      while (this.at('[') && this.at('[', 1)) { this.p++; this.skipBalanced(); this.expect(']'); }
      return this.parseStmtAt();
    }
    if (k === Tok.Ident) {
      const t = this.tx();
      switch (t) {
        case 'if': return this.parseIf(pos);
        case 'while': {
          const unroll = this.takeUnroll();
          this.p++; this.expect('(');
          this.push();
          const c = this.parseCondition(); this.expect(')');
          const body = this.loopBody();
          this.pop();
          return { k: 'while', c, body, pos, unroll };
        }
        case 'do': {
          const unroll = this.takeUnroll();
          this.p++;
          const body = this.loopBody();
          this.expect('while'); this.expect('(');
          const c = this.cond(this.parseExpr()); this.expect(')'); this.expect(';');
          return { k: 'do', c, body, pos, unroll };
        }
        case 'for': return this.parseFor(pos);
        case 'switch': return this.parseSwitch(pos);
        case 'case': return this.parseCaseLabel(pos);
        case 'default': {
          this.p++; this.expect(':');
          const sw = this.switches[this.switches.length - 1];
          if (!sw) { this.u.error(pos, 128, 'a default label may only be used within a switch'); return { k: 'null' }; }
          const id = this.caseId++;
          sw.cases.push({ v: null, id });
          return { k: 'case', id, pos };
        }
        case 'break':
          this.p++; this.expect(';');
          if (!this.breakable) this.u.error(pos, 116, 'a break statement may only be used within a loop or switch');
          return { k: 'break', pos };
        case 'continue':
          this.p++; this.expect(';');
          if (!this.continuable) this.u.error(pos, 115, 'a continue statement may only be used within a loop');
          return { k: 'continue', pos };
        case 'return': return this.parseReturn(pos);
        case 'goto': {
          this.p++;
          const label = this.tx(); this.p++; this.expect(';');
          this.gotos.push({ label, pos });
          return { k: 'goto', label, pos };
        }
        case 'asm': case '__asm__': case '__asm': {
          const e = this.parseAsm(); this.expect(';');
          return { k: 'expr', e, pos };
        }
        case 'try': case 'throw': throw new Unsupported('exceptions');
        case 'static_assert': return this.parseStaticAssertStmt(pos);
        case 'using': return this.parseUsingStmt(pos);
        default:
          if (this.at(':', 1) && !this.u.isKeyword(t)) {
            this.p += 2;
            if (this.labels.has(t)) this.u.error(pos, 1580, `label "${t}" already defined`);
            this.labels.add(t);
            return { k: 'label', label: t, pos };
          }
          if (this.startsType() && !this.functionalCastStatement()) return this.parseLocalDecl();
      }
    }
    // `::ns::T v;` (CCCL's generated PTX wrappers declare their locals fully qualified)
    if (this.at('::') && this.startsType()) return this.parseLocalDecl();
    if (this.at('{')) return this.parseBlock();
    if (this.eat(';')) return { k: 'null' };
    const e = this.parseExpr();
    this.expect(';');
    return { k: 'expr', e, pos };
  }
  /** `if (init; cond) ...`, `if constexpr` (the discarded branch skipped, not instantiated). */
  parseIf(this: Parser, pos: Pos): Stmt {
    this.p++;
    const isConstexpr = this.eat('constexpr');
    this.expect('(');
    const init = this.parseInitStatement();
    const c = this.parseCondition();
    this.expect(')');
    let st: Stmt;
    if (isConstexpr) {
      // the discarded statement is not instantiated: it may be ill-formed for these template arguments
      const taken = this.constInt(c) !== 0n;
      let th: Stmt = { k: 'null' }, el: Stmt | null = null;
      if (taken) th = this.parseSubStmt(); else this.skipStmt();
      if (this.eat('else')) { if (taken) this.skipStmt(); else el = this.parseSubStmt(); }
      st = { k: 'if', c, t: th, e: el, pos };
    } else {
      const th = this.parseSubStmt();
      let el: Stmt | null = null;
      if (this.eat('else')) el = this.parseSubStmt();
      st = { k: 'if', c, t: th, e: el, pos };
    }
    return this.withInitStatement(init, st);
  }
  /** `for (init; cond; inc) body` or a range-based for. */
  parseFor(this: Parser, pos: Pos): Stmt {
    const unroll = this.takeUnroll();
    this.p++; this.expect('(');
    this.push();
    let init: Stmt | null = null;
    if (this.isRangeFor()) { const r = this.parseRangeFor(pos, unroll); this.pop(); return r; }
    if (!this.eat(';')) {
      if (this.startsType()) init = this.parseLocalDecl();
      else { const e = this.parseExpr(); this.expect(';'); init = { k: 'expr', e, pos }; }
    }
    if (this.at(':')) throw new Unsupported('range-based for');
    const c = this.at(';') ? null : this.parseCondition();
    this.expect(';');
    const inc = this.at(')') ? null : this.parseExpr();
    this.expect(')');
    const body = this.loopBody();
    this.pop();
    return { k: 'for', init, c, inc, body, pos, unroll };
  }
  parseSwitch(this: Parser, pos: Pos): Stmt {
    this.p++; this.expect('(');
    const init = this.parseInitStatement();
    const c0 = this.parseExpr(); this.expect(')');
    let c = promote(c0);
    if (!isIntegral(c.ty) && c.ty.k !== 'error') { this.u.error(c0.pos, 847, 'expression must have integral or enum type'); c = errExpr(c0.pos); }
    const sw = { cases: [] as { v: bigint | null; id: number }[], ty: c.ty };
    this.switches.push(sw); this.breakable++;
    const body = this.parseSubStmt();
    this.switches.pop(); this.breakable--;
    return this.withInitStatement(init, { k: 'switch', c, body, cases: sw.cases, pos });
  }
  parseCaseLabel(this: Parser, pos: Pos): Stmt {
    this.p++;
    const e = this.parseCond();
    // GNU's case range `case 1 ... 5:`: cicc 13.0 accepts it but its code tests the first value only
    // (`case 1 ... 5` is `case 1`); rather than copy that, the real cicc compiles such a unit
    if (this.at('...')) throw new Unsupported('a GNU case range (cicc 13.0 keeps only its first value)');
    this.expect(':');
    const sw = this.switches[this.switches.length - 1];
    if (!sw) { this.u.error(pos, 127, 'a case label may only be used within a switch'); return { k: 'null' }; }
    const v = this.constInt(e);
    const id = this.caseId++;
    const vv = wrapInt(v, sw.ty.k === 'error' ? C.int : sw.ty);
    if (sw.cases.some(c => c.v === vv)) this.u.error(pos, 1578, `case label value has already appeared in this switch`);
    sw.cases.push({ v: vv, id });
    return { k: 'case', id, pos };
  }
  /** `return e;` (deducing an auto return type from the first one; a local returned by name is moved from). */
  parseReturn(this: Parser, pos: Pos): Stmt {
    this.p++;
    if (this.eat(';')) {
      if (isAuto(this.retTy) && this.fn) { this.retTy = C.void; this.fn.ty = { ...this.fn.ty, ret: C.void }; }
      if (this.retTy.k !== 'void') this.u.error(pos, 940, 'missing return value'); // EDG: warning in C++? keep as error-free
      return { k: 'return', e: null, pos };
    }
    const epos = this.p;
    const e = this.at('{') ? null : this.parseExpr();
    if (e && this.retTy.k === 'ref' && isAuto(this.retTy.to) && this.fn) {
      // `auto &` / `const auto &`: a reference to the returned lvalue's type
      this.retTy = refTo(withQ(e.ty, this.retTy.to.q), this.retTy.rv);
      this.fn.ty = { ...this.fn.ty, ret: this.retTy };
    }
    if (e && isAuto(this.retTy) && this.fn) {
      // a lambda without a trailing return type: the first return statement decides it
      // (decltype(auto): the declared type of a name, a reference for another lvalue)
      this.retTy = e.ty.k === 'void' ? C.void : !isDecltypeAuto(this.retTy) ? unqual(rval(e).ty)
        : (e as { paren?: boolean }).paren !== true && e.k === 'var' ? e.sym.ty : (e as { paren?: boolean }).paren !== true && e.k === 'member' ? e.field.ty : e.lv ? refTo(e.ty) : unqual(e.ty);
      this.fn.ty = { ...this.fn.ty, ret: this.retTy };
    }
    if (!e) { const init = this.parseInitList(this.retTy); this.expect(';'); return { k: 'return', e: null, init, pos }; }
    this.expect(';');
    if (this.retTy.k === 'void') {
      if (e.ty.k !== 'void' && e.ty.k !== 'error') this.u.error(epos, 118, 'a void function may not return a value');
      return { k: 'return', e: e.ty.k === 'void' ? e : null, pos };
    }
    const c = implicitConvert(this.u.conv, e, this.retTy);
    if (!c) { this.u.error(epos, 120, `return value type does not match the function type`); return { k: 'return', e: errExpr(epos), pos }; }
    if (this.retTy.k === 'record' && c.lv) {
      if (ownMoveCtor(this.retTy.rec) && !isByteCopy(this.retTy.rec) && e.k === 'var' && (e.sym.storage === 'local' || e.sym.storage === 'param') && e.sym.ty.k === 'record' && e.sym.ty.rec === this.retTy.rec) {
        // a local returned by name is moved from ([class.copy.elision]: first treated as an rvalue)
        const x = markXvalue({ ...e } as Expr);
        return { k: 'return', e: c, init: this.initFromArgs(unqual(this.retTy), [x], false, epos), pos };
      }
      if (ownCopyCtor(this.retTy.rec) && !isByteCopy(this.retTy.rec)) {
        // the copy constructor makes the returned object
        return { k: 'return', e: c, init: this.initFromArgs(unqual(this.retTy), [e], false, epos), pos };
      }
      this.checkTrivialCopy(this.retTy);
    }
    return { k: 'return', e: c, pos };
  }
  parseStaticAssertStmt(this: Parser, pos: Pos): Stmt {
    this.p++; this.expect('(');
    const e = this.parseAssign();
    const v = this.constInt(e);
    if (this.eat(',')) { this.p++; }
    this.expect(')'); this.expect(';');
    if (v === 0n) this.u.error(pos, 1574, 'static assertion failed');
    return { k: 'null' };
  }
  /** `using namespace N;`, `using T = type;`, `using N::name;` in a block. */
  parseUsingStmt(this: Parser, pos: Pos): Stmt {
    this.p++;
    if (this.at('namespace')) {
      this.p++;
      const path: string[] = [];
      if (this.eat('::')) { /* from the global namespace */ }
      while (this.kind() === Tok.Ident) { path.push(this.tx()); this.p++; if (!this.eat('::')) break; }
      this.expect(';');
      const ns = this.namespacePath(path, false);
      if (ns === null) { this.u.error(pos, 725, `name must be a namespace name`); return { k: 'null' }; }
      this.usingNs.push({ depth: this.scopes.length, path: ns });
      return { k: 'null' };
    }
    // `using T = type;`, also `using T [[maybe_unused]] = type;`
    const attrAt = this.at('[', 1) && this.at('[', 2) || this.at('__attribute__', 1);
    if (this.kind() === Tok.Ident && (this.at('=', 1) || attrAt)) {
      const name = this.tx(); this.p++;
      this.parseAttributes({});
      this.expect('=');
      const ty = this.parseTypeName(); this.expect(';'); this.declare({ kind: 'type', name, ty }); return { k: 'null' };
    }
    let path: string[] = []; let abs = false;
    if (this.eat('::')) abs = true;
    while (this.kind() === Tok.Ident && this.at('::', 1)) { path.push(this.tx()); this.p += 2; }
    const name = this.tx(); this.p++; this.expect(';');
    const syms = this.u.lookupPath(path, name, this.ns, abs);
    if (syms.length) this.scopes[this.scopes.length - 1]!.set(name, syms[0]!);
    // a function or class template: found by that name in this block from here on
    const ns = this.namespacePath(path, abs);
    if (ns !== null && (this.u.templateEntries(name, ns, 'function', true).length || this.u.templateEntries(name, ns, 'record', true).length)) this.usingTmpls.push({ depth: this.scopes.length, name, path: ns });
    return { k: 'null' };
  }
  /**
   * `T(x).f();` / `T(x)->g();` at the start of a statement: an expression (a member of the object the functional
   * cast makes), not the declaration of x that `T(x);` is.
   */
  functionalCastStatement(this: Parser): boolean {
    const j = this.parenAfterType(false);
    return j >= 0 && (this.u.text(j + 1) === '.' || this.u.text(j + 1) === '->');
  }
  /**
   * A condition that starts with a type but is an expression: a functional cast (`if (float(b.x) < 0)`,
   * `while (int(n))`). A declaration there needs an initialiser right after its declarator (`T (x) = ...`).
   */
  functionalCastCondition(this: Parser): boolean {
    const j = this.parenAfterType(true);
    return j >= 0 && this.u.text(j + 1) !== '=' && this.u.text(j + 1) !== '{';
  }
  /**
   * After a type at the cursor, the ')' closing the first '(' outside template arguments, or -1 when none comes
   * before the end of the statement (or, inCondition, of the condition).
   */
  parenAfterType(this: Parser, inCondition: boolean): number {
    let j = this.p, angle = 0;
    for (; ; j++) {
      const k = this.u.toks.kind[j], t = this.u.text(j);
      if (j >= this.end || k === Tok.EOF) return -1;
      if (t === '<') angle++;
      else if (t === '>') angle--;
      else if (t === '>>') angle -= 2;
      else if (t === '(' && angle === 0) break;
      else if (t === ';' || t === '{' || t === '}' || t === '=' || t === '[' || (inCondition && t === ')')) return -1;
    }
    if (j === this.p) return -1;
    let depth = 0;
    for (; j < this.end; j++) {
      const t = this.u.text(j);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { depth--; if (depth === 0) break; }
    }
    return j;
  }
  /** A template argument at the cursor that is a functional cast (`int{WARPS}`, `unsigned(N)`): a value, not a type. */
  functionalCastArg(this: Parser): boolean {
    const k = this.kind();
    if (k !== Tok.Ident || !BUILTIN_TYPE_WORDS.has(this.tx())) return false;
    let j = 0;
    while (this.kind(j) === Tok.Ident && BUILTIN_TYPE_WORDS.has(this.tx(j))) j++;
    return this.at('{', j) || this.at('(', j);
  }
  /** After `for (`: is this a range-based for (a ':' at depth 0 before the first ';')? */
  isRangeFor(this: Parser): boolean {
    let depth = 0;
    for (let i = 0; ; i++) {
      const k = this.kind(i);
      if (k === Tok.EOF) return false;
      if (k !== Tok.Punct) continue;
      const t = this.tx(i);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (depth === 0) return false; depth--; }
      else if (depth === 0 && t === ';') return false;
      else if (depth === 0 && t === '?') return false;
      else if (depth === 0 && t === ':') return true;
    }
  }
  /** `for (decl : range) body` over an array, as `for (T *b = range, *e = b + n; b != e; ++b) { decl = *b; body }`. */
  parseRangeFor(this: Parser, pos: Pos, unroll: number | undefined): Stmt {
    const ds = this.parseDeclSpecs();
    if (!ds.ty && !ds.auto) this.syntax('expected a type specifier', 79);
    const d = this.parseDeclarator(ds.ty ?? withQ(AUTO, (ds as DeclSpec & { q: number }).q), false);
    this.expect(':');
    const range = this.parseExpr();
    this.expect(')');
    if (range.ty.k === 'error') { this.loopBody(); return { k: 'null' }; }
    if (range.ty.k !== 'array' || range.ty.n === null) {
      if (range.ty.k === 'record') return this.rangeForClass(d, range, pos, unroll);
      this.u.error(range.pos, 2291, `this range-based "for" statement requires a suitable "begin" function and none was found`);
      this.loopBody(); return { k: 'null' };
    }
    const elem = range.ty.elem;
    const pty = ptrTo(elem);
    const b = this.u.newVar('__begin', pty, 'local', pos), e = this.u.newVar('__end', pty, 'local', pos);
    const bref = (): Expr => mk(pty, pos, true, { k: 'var', sym: b });
    const eref = (): Expr => mk(pty, pos, true, { k: 'var', sym: e });
    const n = mk(C.long, pos, false, { k: 'int', v: BigInt(range.ty.n) });
    const initB: Stmt = { k: 'decl', v: b, init: { k: 'expr', e: rval(range) }, pos };
    const initE: Stmt = { k: 'decl', v: e, init: { k: 'expr', e: mk(pty, pos, false, { k: 'ptradd', p: rval(bref()), i: n, neg: false }) }, pos };
    const c = mk(C.bool, pos, false, { k: 'bin', op: '!=', a: rval(bref()), b: rval(eref()) });
    const inc = mk(pty, pos, true, { k: 'incdec', op: '++', prefix: true, e: bref() });
    const cur = mk(elem, pos, true, { k: 'deref', e: rval(bref()) });
    return this.rangeForLoop(d, cur, [initB, initE], c, inc, pos, unroll);
  }
  /** `for (decl : range)` over a class object with begin()/end() members, as
   *  `{ auto &__range = range; auto __begin = __range.begin(), __end = __range.end();
   *     for (; __begin != __end; ++__begin) { decl = *__begin; body } }`. */
  rangeForClass(this: Parser, d: { name: string; ty: CType; pos: Pos }, range: Expr, pos: Pos, unroll: number | undefined): Stmt {
    const rt = range.ty;
    // `auto &&__range = range;`: a prvalue (a class temporary) initialises the object itself, which lives to the
    // end of the loop as the temporary the reference would extend; an lvalue or xvalue is referred to
    const rty = range.lv ? refTo(rt) : rt;
    const r = this.u.newVar('__range', rty, 'local', pos);
    const rref = (): Expr => mk(rt, pos, true, { k: 'var', sym: r });
    const initR: Stmt = { k: 'decl', v: r, init: this.initFromExpr(range, rty, pos), pos };
    const bcall = this.call(this.member(rref(), 'begin', false, pos), [], pos);
    const ecall = this.call(this.member(rref(), 'end', false, pos), [], pos);
    if (bcall.ty.k === 'error' || ecall.ty.k === 'error') { this.loopBody(); return { k: 'null' }; }
    const it = unqual(bcall.ty), et = unqual(ecall.ty);
    const b = this.u.newVar('__begin', it, 'local', pos), e = this.u.newVar('__end', et, 'local', pos);
    const bref = (): Expr => mk(it, pos, true, { k: 'var', sym: b });
    const eref = (): Expr => mk(et, pos, true, { k: 'var', sym: e });
    const initB: Stmt = { k: 'decl', v: b, init: this.initFromExpr(bcall, it, pos), pos };
    const initE: Stmt = { k: 'decl', v: e, init: this.initFromExpr(ecall, et, pos), pos };
    const c = this.binary('!=', bref(), eref(), pos);
    // a class iterator's ++ and * are its operator functions (!= goes through binary(), which finds them)
    const inc = it.k === 'record' ? this.userOperator('++', [bref()], pos) ?? this.noOperator('++', pos) : this.incdec('++', true, bref(), pos);
    const cur = it.k === 'record' ? this.userOperator('*', [bref()], pos) ?? this.noOperator('*', pos) : this.deref(bref(), pos);
    return { k: 'block', body: [initR, this.rangeForLoop(d, cur, [initB, initE], c, inc, pos, unroll)] };
  }
  /** The loop of a range-based for: `for (inits; c; inc) { decl = cur; body }`, the declaration's auto deduced from cur. */
  rangeForLoop(this: Parser, d: { name: string; ty: CType; pos: Pos }, cur: Expr, inits: Stmt[], c: Expr, inc: Expr, pos: Pos, unroll: number | undefined): Stmt {
    this.push();
    let ty = d.ty;
    if (hasAuto(ty)) ty = this.deduceAuto(ty, cur);
    const v = this.u.newVar(d.name, ty, 'local', d.pos);
    const vinit = this.initFromExpr(cur, ty, pos);
    this.declare(v);
    const body = this.loopBody();
    this.pop();
    return { k: 'for', init: { k: 'block', body: inits }, c, inc, body: { k: 'block', body: [{ k: 'decl', v, init: vinit, pos }, body] }, pos, unroll };
  }
  parseSubStmt(this: Parser): Stmt {
    this.push();
    try { return this.parseStmt(); } finally { this.pop(); }
  }
  loopBody(this: Parser): Stmt {
    this.breakable++; this.continuable++;
    const sw = this.switches; this.switches = [];
    try { return this.parseSubStmt(); } finally { this.breakable--; this.continuable--; this.switches = sw; }
  }
  cond(this: Parser, e: Expr): Expr {
    if (e.ty.k === 'record') e = this.fromClass(e);
    const c = toCond(e);
    if (!c) { this.u.error(e.pos, 711, `expression must have bool type (or be convertible to bool)`); return errExpr(e.pos); }
    return c;
  }
  /** A condition: expression, or a declaration with initialiser (`if (int x = f())`). */
  /**
   * The init-statement of `if (init; cond)` / `switch (init; cond)`, when there is one (a `;` before the
   * closing parenthesis): declared in a scope of its own around the statement (withInitStatement ends it).
   */
  parseInitStatement(this: Parser): Stmt | null {
    let depth = 0, i = this.p;
    for (; i < this.u.toks.count; i++) {
      const t = this.u.text(i);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (depth === 0) return null; depth--; }
      else if (t === ';' && depth === 0) break;
    }
    if (i >= this.u.toks.count) return null;
    this.push();
    if (this.eat(';')) return { k: 'null' };
    if (this.startsType()) return this.parseLocalDecl();
    const pos = this.p;
    const e = this.parseExpr();
    this.expect(';');
    return { k: 'expr', e, pos };
  }
  withInitStatement(this: Parser, init: Stmt | null, st: Stmt): Stmt {
    if (!init) return st;
    this.pop();
    return { k: 'block', body: [init, st] };
  }
  parseCondition(this: Parser): Expr {
    if (this.startsType() && !this.functionalCastCondition()) {
      const pos = this.p;
      const ds = this.parseDeclSpecs();
      const d = this.parseDeclarator(ds.ty ?? C.int, false);
      this.expect('=');
      const v = this.u.newVar(d.name, d.ty, 'local', d.pos);
      const init = this.parseInitializer(d.ty);
      this.declare(v);
      // represent as (v = init, v)
      const ve = mk(v.ty, pos, true, { k: 'var', sym: v });
      const ie = init.k === 'expr' ? init.e : errExpr(pos);
      return this.cond(mk(v.ty, pos, true, { k: 'comma', a: mk(v.ty, pos, true, { k: 'assign', a: ve, b: ie }), b: ve }));
    }
    return this.cond(this.parseExpr());
  }

  parseLocalDecl(this: Parser): Stmt {
    const pos = this.p;
    const ds = this.parseDeclSpecs();
    const stmts: Stmt[] = [];
    if (this.at(';') && ds.tagOnly) {
      this.p++;
      const t = ds.ty;
      if (t?.k === 'record' && !t.rec.name && !t.rec.typedefName && !ds.typedef) return this.anonymousLocal(t, ds, pos);
      return { k: 'null' };
    }
    if (!ds.ty && !ds.auto) this.syntax('expected a type specifier', 79);
    for (;;) {
      const d = this.parseDeclarator(ds.ty ?? (ds.auto ? withQ(AUTO, (ds as DeclSpec & { q: number }).q) : C.int), false);
      const attrs = { ...ds.attrs, ...d.attrs };
      if (ds.typedef) { this.declare({ kind: 'type', name: d.name, ty: d.ty }); if (!this.eat(',')) break; continue; }
      if (d.ty.k === 'func') {
        // block-scope function declaration (e.g. extern __device__ builtin in CUDA headers)
        const f = this.u.declareFunction(d, ds, attrs, this.ns, false);
        this.declare(f);
        if (!this.eat(',')) break;
        continue;
      }
      if (ds.extern || attrs.shared || ds.static || attrs.constant || attrs.device) {
        const v = this.u.declareLocalStatic(d, ds, attrs, this);
        this.declare(v);
        if (!this.eat(',')) break;
        continue;
      }
      let ty: CType = d.ty;
      // `void(x);` is a declaration too ([stmt.ambig]): an object of type void, as cicc says
      if (ty.k === 'void') this.u.error(d.pos, 70, 'incomplete type "void" is not allowed');
      let init: Init | null = null;
      if ((ds as DeclSpec & { dcauto?: boolean }).dcauto) throw new Unsupported('decltype(auto) variable');
      if (hasAuto(ty)) {
        let e: Expr;
        if (this.eat('=')) e = this.at('{') ? this.braceExpr() : this.parseAssign();
        else if (this.at('(')) { this.p++; e = this.parseExpr(); this.expect(')'); }
        else if (this.at('{')) { this.p++; e = this.parseAssign(); this.expect('}'); }
        else this.syntax('expected a "="', 65);
        ty = this.deduceAuto(ty, e);
        init = this.initFromExpr(e, ty, e.pos);
      } else if (this.eat('=')) {
        init = this.parseInitializer(ty);
      } else if (this.at('{')) {
        init = this.parseInitList(ty);
      } else if (this.at('(')) {
        this.p++;
        if (ty.k === 'record') {
          const args = this.parseArgs(')');
          this.expect(')');
          init = this.initFromArgs(ty, args, false, d.pos);
        } else { const e = this.parseExpr(); this.expect(')'); init = this.initFromExpr(e, ty, e.pos); }
      } else if (ty.k === 'record' || ty.k === 'array') {
        init = this.defaultInit(ty, d.pos);
      }
      if (ty.k !== 'record' && ty.k !== 'array') this.checkDestructor(ty);   // a class object's destructor runs at scope exit (codegen)
      if (ty.k === 'array' && ty.n === null && init) {
        if (init.k === 'list') ty = arrayOf(ty.elem, init.items.length);
        else if (init.k === 'expr' && init.e.ty.k === 'array') ty = arrayOf(ty.elem, init.e.ty.n);
        if (init.k === 'list') init.ty = ty;
      }
      if (ty.k === 'ref' && !init) this.u.error(d.pos, 252, `reference variable "${d.name}" requires an initializer`);
      if (ty.k === 'record' && !ty.rec.complete) this.u.error(d.pos, 70, `incomplete type is not allowed`);
      if (ds.constexpr && !(ty.q & Q.Const)) ty = withQ(ty, Q.Const);
      const v = this.u.newVar(d.name, ty, 'local', d.pos);
      if (ds.constexpr || (ty.q & Q.Const)) {
        if (init && init.k === 'expr' && isArith(ty)) noteConstInit(v, init.e, this.u.consts);
      }
      if (this.scopes[this.scopes.length - 1]!.has(d.name)) {
        const prev = this.scopes[this.scopes.length - 1]!.get(d.name)!;
        if (prev.kind === 'var' && prev.storage !== 'param') this.u.error(d.pos, 101, `"${d.name}" has already been declared in the current scope`);
      }
      this.declare(v);
      stmts.push({ k: 'decl', v, init, pos });
      if (!this.eat(',')) break;
    }
    this.expect(';');
    return stmts.length === 1 ? stmts[0]! : { k: 'block', body: stmts };
  }
  /**
   * `union { int32_t w; int16_t h[2]; };` in a block: an unnamed object whose members are named as variables
   * of the block ([class.union.anon]); each name reads as a member of the object.
   */
  anonymousLocal(this: Parser, t: CType & { k: 'record' }, ds: DeclSpec, pos: Pos): Stmt {
    if (ds.static || ds.extern || ds.attrs.shared || ds.attrs.constant || ds.attrs.device) throw new Unsupported('static anonymous union in a block');
    if ((t.rec.methods ?? []).length) throw new Unsupported('anonymous union with member functions');
    const v = this.u.newVar('', t, 'local', pos);
    const names = (rec: RecordDecl): string[] => rec.fields.filter(f => !f.pad).flatMap(f => f.name ? [f.name] : f.ty.k === 'record' ? names(f.ty.rec) : []);
    for (const name of names(t.rec)) this.declare({ kind: 'field', name, ty: C.int, rec: t.rec, anonVar: v, anonFn: this.fn } as Sym);
    return { k: 'decl', v, init: this.defaultInit(t, pos), pos };
  }
  parseAsm(this: Parser): Expr {
    const pos = this.p;
    this.p++;
    let vol = false;
    for (;;) {
      if (this.at('volatile') || this.at('__volatile__') || this.at('__volatile')) { vol = true; this.p++; continue; }
      if (this.at('goto') || this.at('inline')) { this.p++; continue; }
      break;
    }
    this.expect('(');
    let text = '';
    while (this.kind() === Tok.String) { text += this.u.stringValue(this.p); this.p++; }
    const outs: { c: string; e: Expr }[] = [], ins: { c: string; e: Expr }[] = [], clobbers: string[] = [];
    const operands = (list: { c: string; e: Expr }[], out: boolean) => {
      while (this.kind() === Tok.String) {
        const c = this.u.stringValue(this.p); this.p++;
        this.expect('(');
        const e = this.parseExpr();
        this.expect(')');
        if (out && !e.lv) this.u.error(e.pos, 137, 'expression must be a modifiable lvalue');
        list.push({ c, e });
        if (!this.eat(',')) break;
      }
    };
    // sections separated by ':' (the lexer makes '::' of two adjacent colons)
    let pendingColon = 0;
    const colon = (): boolean => {
      if (pendingColon) { pendingColon--; return true; }
      if (this.eat(':')) return true;
      if (this.eat('::')) { pendingColon = 1; return true; }
      return false;
    };
    if (colon()) { if (!pendingColon) operands(outs, true); }
    if (colon()) { if (!pendingColon) operands(ins, false); }
    if (colon()) {
      while (this.kind() === Tok.String) { clobbers.push(this.u.stringValue(this.p)); this.p++; if (!this.eat(',')) break; }
    }
    if (this.at(':')) throw new Unsupported('asm goto');
    this.expect(')');
    return mk(C.void, pos, false, { k: 'asm', text, outs, ins, clobbers, vol: vol || outs.length === 0 });
  }
}
declare module './parser-core' { interface Parser extends StatementsRoom {} }
addRoom(StatementsRoom);
