// Parser room: expressions: assignment, conditional, binary, unary, cast, postfix, new/delete, member access.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, Init, FuncSym, Pos } from './ast';
import { type CType, type TArg, C, Q, ptrTo, withQ, unqual, isArith, isIntegral, isScalar, sizeOfC, alignOfC, typeName, packOf, anonPath, badBaseOf } from './ctype';
import { mk, errExpr, rval, promote, usualArithType, convertArith, implicitConvert, explicitConvert, cast, wrapInt, isNullConst, markXvalue } from './sema';
import { evalInt, unevaluated } from './consteval';
import { TYPE_TRAITS } from './traits';
import { preferExactThis } from './parser-overload';
import { SyntaxAbort, TmplRef, packValsOf } from './parser-types';
import { isByteCopy, memberTmplsOf, allMethods, sameSignature, classAllocator, classAllocFn, promotedType0, sameUnq } from './parser-classes';
import { BIN_PREC, ASSIGN_OPS } from './parser-words';
import { Parser, addRoom } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class ExpressionsRoom {
  /** The type of a new-expression (`new T*`): decl-specifiers and pointer declarators, no parentheses. */
  newTypeId(this: Parser): CType {
    if (this.at('(')) throw new Unsupported('operator new with a parenthesised type');
    const ds = this.parseDeclSpecs();
    if (!ds.ty) this.syntax('expected a type specifier', 79);
    let ty = ds.ty!;
    while (this.at('*')) { this.p++; ty = ptrTo(ty); }
    return ty;
  }
  /** The initializer of a new-expression's object: `(args)`, `{args}`, or default-initialisation. */
  newInitializer(this: Parser, ty: CType, pos: Pos): Init | null {
    if (!this.at('(') && !this.at('{')) return this.defaultInit(ty, pos);
    const braced = this.at('{');
    this.p++;
    const args = this.parseArgs(braced ? '}' : ')');
    this.expect(braced ? '}' : ')');
    return ty.k === 'record' ? this.initFromArgs(ty, args, braced, pos) : args.length ? this.initFromExpr(args[0]!, ty, pos) : { k: 'zero', ty };
  }
  constInt(this: Parser, e: Expr): bigint {
    const v = evalInt(e, this.u.consts);
    if (v === null) {
      // a call our evaluator could not finish may well be a constant (a constexpr function of a header): never an
      // error of ours, and never a 0 that a speculative parse keeps after dropping the error
      if (unevaluated(e)) throw new Unsupported('a constant expression calling a function we cannot evaluate');
      if (e.ty.k !== 'error') this.u.error(e.pos, 28, 'expression must have a constant value');
      return 0n;
    }
    return v;
  }
  /** Call/constructor arguments up to `close`, pack expansions expanded. */
  parseArgs(this: Parser, close: string, noBrace?: string): Expr[] {
    const args: Expr[] = [];
    while (!this.at(close)) {
      if (noBrace && this.at('{')) throw new Unsupported(noBrace);
      const dots = this.packDotsAhead();
      if (dots >= 0) args.push(...this.expandPack(this.p, dots, () => this.parseAssign()));
      else args.push(this.parseAssign());
      if (this.at('...')) throw new Unsupported('pack expansion');
      if (!this.eat(',')) break;
    }
    return args;
  }

  // ------------------------------------------------------------------ expressions
  parseExpr(this: Parser): Expr {
    let e = this.parseAssign();
    while (this.at(',')) {
      const pos = this.p; this.p++;
      const b = this.parseAssign();
      e = mk(b.ty, pos, b.lv, { k: 'comma', a: e, b: b });
    }
    return e;
  }
  parseAssign(this: Parser): Expr {
    // nested in template arguments (`X<(a > b)>`, `X<f(a > b)>`, `X<a[i > j]>`): a `>` compares again
    if (this.gtEnds) { this.gtEnds = false; try { return this.parseAssign(); } finally { this.gtEnds = true; } }
    return this.nested(() => this.parseAssignAt());
  }
  parseAssignAt(this: Parser): Expr {
    const lhs = this.parseCond();
    const op = this.tx();
    if (this.kind() === Tok.Punct && ASSIGN_OPS.has(op)) {
      const pos = this.p; this.p++;
      const rhs = this.at('{') ? (op === '=' ? this.assignedBraces(lhs, pos) : this.braceExpr()) : this.parseAssign();
      return this.assign(op, lhs, rhs, pos);
    }
    return lhs;
  }
  braceExpr(this: Parser): Expr { throw new Unsupported('braced initializer in expression'); }
  /**
   * `x = {0, 0, 0, 0}` (TensorRT's `pillarSumSM[i] = {0,0,0,0};` on a float4): for a class, a temporary of x's
   * type initialised from the list, then assigned; for a scalar, `{v}` is v and `{}` is zero.
   */
  assignedBraces(this: Parser, lhs: Expr, pos: Pos): Expr {
    const ty = unqual(lhs.ty);
    if (ty.k === 'record') return this.constructTemp(ty, pos);
    if (!isScalar(ty)) return this.braceExpr();
    this.p++;
    if (this.eat('}')) return convertArith(mk(C.int, pos, false, { k: 'int', v: 0n }), isArith(ty) ? ty : C.int);
    const v = this.parseAssign();
    this.eat(',');
    if (!this.at('}')) return this.braceExpr();
    this.p++;
    return v;
  }
  modifiable(this: Parser, e: Expr, pos: Pos): boolean {
    if (e.ty.k === 'error') return false;
    if (!e.lv) { this.u.error(e.pos, 137, 'expression must be a modifiable lvalue'); return false; }
    if (e.ty.q & Q.Const || e.ty.k === 'array') { this.u.error(e.pos, 137, 'expression must be a modifiable lvalue'); return false; }
    void pos;
    return true;
  }
  assign(this: Parser, op: string, a: Expr, b: Expr, pos: Pos): Expr {
    if (a.ty.k === 'error' || b.ty.k === 'error') return errExpr(pos);
    if (a.ty.k === 'record') {
      const rec = a.ty.rec;
      const userAssign = allMethods(rec).filter(m => m.op === '=' && !m.defaulted && m.cls === rec);
      // the implicit copy assignment (an exact match) is used for an operand of the class itself unless the
      // class declares its own copy/move assignment (operator=(const __half_raw &) does not hide it)
      const isCopyParam = (t: CType | undefined) => !!t && (t.k === 'ref' ? t.to : t).k === 'record' && ((t.k === 'ref' ? t.to : t) as CType & { k: 'record' }).rec === rec;
      const implicitCopy = op === '=' && b.ty.k === 'record' && b.ty.rec === rec && (!userAssign.some(m => isCopyParam(m.ty.params[0])) || isByteCopy(rec));
      const user = op !== '=' || (userAssign.length > 0 && !implicitCopy);
      if (user) { const r = this.userOperator(op, [a, b], pos); if (r) return r; }
      if (op !== '=') { this.badOperands(pos, a, b); return errExpr(pos); }
      this.checkTrivialCopy(a.ty);
    } else if (b.ty.k === 'record') {
      const r = this.userOperator(op, [a, b], pos);
      if (r) return r;
      // plain assignment: the conversion function to the target type (a float from a __half: operator float)
      const c = op === '=' ? implicitConvert(this.u.conv, b, unqual(a.ty)) : null;
      b = c ?? this.fromClass(b);
      if (b.ty.k === 'error') return b;
    }
    if (!this.modifiable(a, pos)) return errExpr(pos);
    if (op === '=') {
      const c = implicitConvert(this.u.conv, b, unqual(a.ty));
      if (!c) { this.u.error(b.pos, 513, `a value of type "${typeName(b.ty)}" cannot be assigned to an entity of type "${typeName(a.ty)}"`); return errExpr(pos); }
      return mk(a.ty, pos, true, { k: 'assign', a, b: c });
    }
    const bop = op.slice(0, -1);
    const at = unqual(a.ty);
    if (at.k === 'ptr' && (bop === '+' || bop === '-')) {
      const r = promote(b);
      if (!isIntegral(r.ty)) { this.badOperands(pos, a, b); return errExpr(pos); }
      return mk(a.ty, pos, true, { k: 'cassign', op: bop, a, b: r, opTy: at });
    }
    const r = rval(b);
    if (!isArith(at) || !isArith(r.ty)) { this.badOperands(pos, a, b); return errExpr(pos); }
    if ((bop === '%' || bop === '&' || bop === '|' || bop === '^' || bop === '<<' || bop === '>>') && (!isIntegral(at) || !isIntegral(r.ty))) { this.badOperands(pos, a, b); return errExpr(pos); }
    if (bop === '<<' || bop === '>>') return mk(a.ty, pos, true, { k: 'cassign', op: bop, a, b: promote(r), opTy: promotedType0(at) });
    const opTy = usualArithType(at, r.ty);
    return mk(a.ty, pos, true, { k: 'cassign', op: bop, a, b: convertArith(r, opTy), opTy });
  }
  badOperands(this: Parser, pos: Pos, a: Expr, b: Expr): void {
    this.u.error(pos, 2140, `operand types are incompatible ("${typeName(a.ty)}" and "${typeName(b.ty)}")`);
  }
  parseCond(this: Parser): Expr {
    const c = this.parseBinary(1);
    if (!this.at('?')) return c;
    const pos = this.p; this.p++;
    const a = this.parseExpr();
    this.expect(':');
    const b = this.parseAssign();
    return this.condExpr(c, a, b, pos);
  }
  condExpr(this: Parser, c0: Expr, a: Expr, b: Expr, pos: Pos): Expr {
    const c = this.cond(c0);
    if (a.ty.k === 'error' || b.ty.k === 'error') return errExpr(pos);
    if (sameUnq(a.ty, b.ty) && (a.ty.k === 'enum' || a.ty.k === 'bool') && !(a.lv && b.lv)) return mk(unqual(a.ty), pos, false, { k: 'cond', c, a: rval(a), b: rval(b) });
    // lvalue conditional when both are lvalues of the same type
    if (a.lv && b.lv && sameUnq(a.ty, b.ty) && a.ty.k !== 'array') return mk(a.ty, pos, true, { k: 'cond', c, a, b });
    const ra = rval(a), rb = rval(b);
    if (isArith(ra.ty) && isArith(rb.ty)) { const t = usualArithType(ra.ty, rb.ty); return mk(t, pos, false, { k: 'cond', c, a: convertArith(ra, t), b: convertArith(rb, t) }); }
    if (ra.ty.k === 'void' && rb.ty.k === 'void') return mk(C.void, pos, false, { k: 'cond', c, a: ra, b: rb });
    if (ra.ty.k === 'ptr' || rb.ty.k === 'ptr') {
      const t = ra.ty.k === 'ptr' && !isNullConst(ra) ? ra.ty : rb.ty;
      const x = implicitConvert(this.u.conv, ra, t), y = implicitConvert(this.u.conv, rb, t);
      if (x && y) return mk(t, pos, false, { k: 'cond', c, a: x, b: y });
      const t2 = rb.ty;
      const x2 = implicitConvert(this.u.conv, ra, t2), y2 = implicitConvert(this.u.conv, rb, t2);
      if (x2 && y2) return mk(t2, pos, false, { k: 'cond', c, a: x2, b: y2 });
    }
    if (ra.ty.k === 'record' && rb.ty.k === 'record' && ra.ty.rec === rb.ty.rec) return mk(unqual(ra.ty), pos, false, { k: 'cond', c, a: ra, b: rb });
    this.u.error(pos, 42, `operand types are incompatible ("${typeName(a.ty)}" and "${typeName(b.ty)}")`);
    return errExpr(pos);
  }
  parseBinary(this: Parser, minPrec: number): Expr {
    let lhs = this.parseUnary();
    for (;;) {
      if (this.kind() !== Tok.Punct) break;
      const op = this.tx();
      const prec = BIN_PREC[op];
      if (prec === undefined || prec < minPrec || (this.gtEnds && (op === '>' || op === '>>'))) break;
      const pos = this.p; this.p++;
      const rhs = this.parseBinary(prec + 1);
      lhs = this.binary(op, lhs, rhs, pos);
    }
    return lhs;
  }
  binary(this: Parser, op: string, a0: Expr, b0: Expr, pos: Pos): Expr {
    if (a0.ty.k === 'error' || b0.ty.k === 'error') return errExpr(pos);
    if (a0.ty.k === 'record' || b0.ty.k === 'record') {
      const r = this.userOperator(op, [a0, b0], pos);
      if (r) return r;
      a0 = this.fromClass(a0); b0 = this.fromClass(b0);
      if (a0.ty.k === 'error' || b0.ty.k === 'error') return errExpr(pos);
    }
    if (op === '&&' || op === '||') {
      const a = this.cond(a0), b = this.cond(b0);
      return mk(C.bool, pos, false, { k: 'bin', op, a, b });
    }
    const a = rval(a0), b = rval(b0);
    const at = a.ty, bt = b.ty;
    const bad = (): Expr => { this.badOperands(pos, a0, b0); return errExpr(pos); };
    switch (op) {
      case '+': case '-':
        if (at.k === 'ptr' && isIntegral(bt)) return this.ptrAdd(a, promote(b), op === '-', pos);
        if (op === '+' && bt.k === 'ptr' && isIntegral(at)) return this.ptrAdd(b, promote(a), false, pos);
        if (op === '-' && at.k === 'ptr' && bt.k === 'ptr') {
          if (!sameUnq(at.to, bt.to)) return bad();
          return mk(C.long, pos, false, { k: 'ptrdiff', a, b, elem: at.to });
        }
        return this.arithBin(op, a, b, bad, pos);
      case '*': case '/': return this.arithBin(op, a, b, bad, pos);
      case '%': case '&': case '|': case '^': {
        if (!isIntegral(at) || !isIntegral(bt)) return bad();
        const t = usualArithType(at, bt);
        return mk(t, pos, false, { k: 'bin', op, a: convertArith(a, t), b: convertArith(b, t) });
      }
      case '<<': case '>>': {
        if (!isIntegral(at) || !isIntegral(bt)) return bad();
        const pa = promote(a), pb = promote(b);
        return mk(pa.ty, pos, false, { k: 'bin', op, a: pa, b: pb });
      }
      default: {
        // comparisons
        if (isArith(at) && isArith(bt)) {
          const t = usualArithType(at, bt);
          return mk(C.bool, pos, false, { k: 'bin', op, a: convertArith(a, t), b: convertArith(b, t) });
        }
        if ((at.k === 'ptr' || at.k === 'nullptr') && (bt.k === 'ptr' || bt.k === 'nullptr' || isNullConst(b))) {
          const t = at.k === 'ptr' ? at : bt.k === 'ptr' ? bt : ptrTo(C.void);
          const x = at.k === 'ptr' ? a : cast(a, 'null', t);
          const y = bt.k === 'ptr' ? b : cast(b, 'null', t);
          return mk(C.bool, pos, false, { k: 'bin', op, a: x, b: y });
        }
        if (isNullConst(a) && bt.k === 'ptr') return mk(C.bool, pos, false, { k: 'bin', op, a: cast(a, 'null', bt), b });
        return bad();
      }
    }
  }
  noOperator(this: Parser, op: string, pos: Pos): Expr { this.u.error(pos, 349, `no operator "${op}" matches these operands`); return errExpr(pos); }
  /** A class operand of a built-in operator: through its (single) conversion function to a scalar. */
  fromClass(this: Parser, e: Expr): Expr {
    if (e.ty.k !== 'record') return e;
    const q = e.ty.q & (Q.Const | Q.Volatile);
    const cvs = allMethods(e.ty.rec).filter(m => m.op === 'cv' && !((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile)));
    if (cvs.length !== 1) { this.u.error(e.pos, 29, `expression must have arithmetic type`); return errExpr(e.pos); }
    return this.buildCall(cvs[0]!, null, cvs[0]!.ty, [], e.pos, e);
  }
  arithBin(this: Parser, op: string, a: Expr, b: Expr, bad: () => Expr, pos: Pos): Expr {
    if (!isArith(a.ty) || !isArith(b.ty)) return bad();
    const t = usualArithType(a.ty, b.ty);
    return mk(t, pos, false, { k: 'bin', op, a: convertArith(a, t), b: convertArith(b, t) });
  }
  ptrAdd(this: Parser, p: Expr, i: Expr, neg: boolean, pos: Pos): Expr {
    const pt = p.ty as CType & { k: 'ptr' };
    if (pt.to.k === 'void' || pt.to.k === 'func') { /* GNU extension: void* arithmetic uses size 1 */ }
    if (pt.to.k === 'record' && !pt.to.rec.complete) { this.u.error(pos, 833, `pointer to incomplete class type "${typeName(pt.to)}" is not allowed`); return errExpr(pos); }
    return mk(unqual(p.ty), pos, false, { k: 'ptradd', p, i, neg });
  }
  parseUnary(this: Parser): Expr {
    return this.nested(() => this.parseUnaryAt());
  }
  parseUnaryAt(this: Parser): Expr {
    const pos = this.p;
    const t = this.tx();
    if (this.kind() === Tok.Punct) {
      switch (t) {
        case '++': case '--': {
          this.p++; const e = this.parseUnary();
          if (e.ty.k === 'record') return this.userOperator(t, [e], pos) ?? this.noOperator(t, pos);
          return this.incdec(t, true, e, pos);
        }
        case '-': case '+': case '~': {
          this.p++; let e0 = this.parseCastExpr();
          if (e0.ty.k === 'error') return e0;
          if (e0.ty.k === 'record') { const r = this.userOperator(t, [e0], pos); if (r) return r; e0 = this.fromClass(e0); if (e0.ty.k === 'error') return e0; }
          const e = promote(e0);
          if (t === '~' ? !isIntegral(e.ty) : !(isArith(e.ty) || (t === '+' && e.ty.k === 'ptr'))) { this.u.error(pos, 29, t === '~' ? 'expression must have integral or unscoped enum type' : 'expression must have arithmetic type'); return errExpr(pos); }
          if (e.k === 'int' && t === '-') return mk(e.ty, pos, false, { k: 'int', v: wrapInt(-e.v, e.ty) });
          if (e.k === 'fp' && t === '-') return mk(e.ty, pos, false, { k: 'fp', v: -e.v });
          return mk(e.ty, pos, false, { k: 'unary', op: t, e });
        }
        case '!': {
          this.p++; const e = this.parseCastExpr();
          if (e.ty.k === 'error') return e;
          if (e.ty.k === 'record') { const r = this.userOperator('!', [e], pos); if (r) return r; }
          return mk(C.bool, pos, false, { k: 'unary', op: '!', e: this.cond(e) });
        }
        case '*': {
          this.p++; const e0 = this.parseCastExpr();
          if (e0.ty.k === 'record') return this.userOperator('*', [e0], pos) ?? this.noOperator('*', pos);
          return this.deref(e0, pos);
        }
        case '&': {
          this.p++;
          return this.addressOf(this.parseCastExpr(), pos);
        }
        case '&&': throw new Unsupported('label address');
        case '(': if (this.startsType(1) && this.p !== this.notCastAt) return this.parseCastExpr(); break;
        case '::': break;
        default: break;
      }
    }
    if (this.kind() === Tok.Ident) {
      switch (t) {
        case 'sizeof': {
          this.p++;
          if (this.eat('...')) {
            // sizeof...(pack): the number of elements of a template or function parameter pack
            this.expect('(');
            const n = this.tx(); this.p++;
            this.expect(')');
            const ts = this.tscope?.get(n);
            const el: unknown[] | undefined = this.packVar(n) ?? (ts && ts.kind === 'type' ? packOf(ts.ty) : undefined) ?? packValsOf(ts);
            if (!el) throw new Unsupported(`sizeof... of ${n}`);
            return mk(C.ulong, pos, false, { k: 'int', v: BigInt(el.length) });
          }
          let ty: CType;
          if (this.at('(') && this.startsType(1)) { this.p++; ty = this.parseTypeName(); this.expect(')'); }
          else { const e = this.parseUnary(); ty = e.ty; if (e.ty.k === 'error') return e; }
          if (ty.k === 'ref') ty = ty.to;
          if ((ty.k === 'record' && !ty.rec.complete) || ty.k === 'void' || ty.k === 'func') { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
          return mk(C.ulong, pos, false, { k: 'int', v: BigInt(sizeOfC(ty)) });
        }
        case 'alignof': case '__alignof__': case '_Alignof': case '__alignof': {
          this.p++;
          this.expect('(');
          let ty: CType;
          if (this.startsType()) ty = this.parseTypeName(); else ty = this.parseExpr().ty;
          this.expect(')');
          return mk(C.ulong, pos, false, { k: 'int', v: BigInt(alignOfC(ty.k === 'ref' ? ty.to : ty)) });
        }
        case 'noexcept': if (this.at('(', 1)) return this.parseNoexceptOperator(pos); break;
        case '__extension__': this.p++; return this.parseCastExpr();
        case 'new': if (this.at('(', 1)) return this.parsePlacementNew(); return this.parseNew();
        case 'delete': return this.parseDelete();
        case '__builtin_offsetof': {
          this.p++; this.expect('(');
          const ty = this.parseTypeName(); this.expect(',');
          let off = 0; let cur = ty;
          for (;;) {
            const name = this.tx(); this.p++;
            if (cur.k !== 'record') throw new Unsupported('offsetof');
            const f = cur.rec.fields.find(x => x.name === name);
            if (!f) throw new Unsupported('offsetof');
            off += f.offset; cur = f.ty;
            if (this.eat('.')) continue;
            if (this.at('[')) throw new Unsupported('offsetof with array index');
            break;
          }
          this.expect(')');
          return mk(C.ulong, pos, false, { k: 'int', v: BigInt(off) });
        }
        default:
          if (TYPE_TRAITS.has(t) && this.at('(', 1) && this.lookup(t).length === 0) return this.parseTypeTrait(t, pos);
          break;
      }
    }
    return this.parsePostfix(this.parsePrimary());
  }
  deref(this: Parser, e0: Expr, pos: Pos): Expr {
    if (e0.ty.k === 'error') return e0;
    const e = rval(e0);
    if (e.ty.k !== 'ptr') { this.u.error(pos, 75, 'operand of "*" must be a pointer but has type "' + typeName(e0.ty) + '"'); return errExpr(pos); }
    if (e.ty.to.k === 'func') return e;
    if (e.ty.to.k === 'void') { this.u.error(pos, 75, 'operand of "*" must be a pointer to a complete object type'); return errExpr(pos); }
    return mk(e.ty.to, pos, true, { k: 'deref', e });
  }
  incdec(this: Parser, op: string, prefix: boolean, e: Expr, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    if (!this.modifiable(e, pos)) return errExpr(pos);
    if (!isScalar(e.ty) || e.ty.k === 'nullptr') { this.u.error(pos, 29, 'expression must be a modifiable lvalue'); return errExpr(pos); }
    return mk(e.ty, pos, prefix, { k: 'incdec', op: op as '++', prefix, e });
  }
  parseCastExpr(this: Parser): Expr {
    if (this.at('(') && this.startsType(1)) {
      const pos = this.p;
      // `(T(3) - x)`, `(L{} >= 4)`: starts like a cast but is a parenthesised expression, not a type-id followed by
      // ')' (`(T(&x, 1).f())` too: only reading the type tells `(T(&)[3])` from it; `(T())` reads as a function
      // type, which no cast can name: a parenthesised temporary)
      const callLike = this.kind(1) === Tok.Ident && this.at('(', 2) && !this.at('*', 3) && !this.at('^', 3);
      const before = this.u.diags.length, errs = this.u.errorCount;
      let ty: CType | null = null;
      try { this.p = pos + 1; ty = this.parseTypeName(); } catch (e) { if (!(e instanceof SyntaxAbort) && !(e instanceof Unsupported)) throw e; }
      const read = ty !== null && this.u.errorCount === errs;
      if (read ? !this.at(')') || (callLike && ty!.k === 'func') : callLike) {
        this.u.diags.length = before; this.u.errorCount = errs; this.p = pos; this.halfGt = false;
        this.notCastAt = pos;
        return this.parseUnary();
      }
      // a type we cannot read: read it again to report why
      if (!read) { this.u.diags.length = before; this.u.errorCount = errs; this.p = pos + 1; this.halfGt = false; ty = this.parseTypeName(); }
      this.expect(')');
      if (this.at('{')) throw new Unsupported('compound literal');
      const e = this.parseCastExpr();
      return this.explicitCast(e, ty!, pos);
    }
    return this.parseUnary();
  }
  explicitCast(this: Parser, e: Expr, ty: CType, pos: Pos, reinterpret = false): Expr {
    if (e.ty.k === 'error') return e;
    if (ty.k === 'record' && e.ty.k === 'record' && e.ty.rec !== ty.rec) {
      // a conversion function of the operand's class to exactly the target class (static_cast<__nv_bfloat16_raw>(b))
      const q = e.ty.q & (Q.Const | Q.Volatile), rec = ty.rec;
      const cvs = allMethods(e.ty.rec).filter(m => m.op === 'cv' && !((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile))
        && unqual(m.ty.ret).k === 'record' && (unqual(m.ty.ret) as CType & { k: 'record' }).rec === rec);
      const pick = preferExactThis(cvs, q);
      if (pick.length === 1) return this.buildCall(pick[0]!, null, pick[0]!.ty, [], pos, e);
    }
    if (ty.k === 'record' && !(e.ty.k === 'record' && e.ty.rec === ty.rec)) return this.makeTemp(unqual(ty) as CType & { k: 'record' }, [e], false, pos);
    if (e.ty.k === 'record' && ty.k !== 'record' && ty.k !== 'ref' && unqual(ty).k !== 'void') {
      // explicit conversion functions count here; the one to exactly the target type wins
      const q = e.ty.q & (Q.Const | Q.Volatile);
      const cvs = preferExactThis(allMethods(e.ty.rec).filter(m => m.op === 'cv' && !((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile))), q);
      const exact = cvs.filter(m => typeName(unqual(m.ty.ret)) === typeName(unqual(ty)));
      const pick = exact.length === 1 ? exact[0]! : cvs.length === 1 ? cvs[0]! : null;
      if (!pick) { this.u.error(pos, 171, `invalid type conversion`); return errExpr(pos); }
      e = this.buildCall(pick, null, pick.ty, [], pos, e);
      if (e.ty.k === 'error') return e;
    }
    const r = explicitConvert(this.u.conv, e, ty, reinterpret);
    if (!r) { this.u.error(pos, 171, `invalid type conversion`); return errExpr(pos); }
    if (r === e && ty.k !== 'ref' && e.lv) return rval(e);
    if (ty.k === 'ref' && ty.rv && r.lv) return markXvalue({ ...r, pos: r.pos } as Expr);
    return { ...r, pos: r.pos } as Expr;
  }
  /** `kernel<<<config>>>(args)` in host code: deduce and instantiate a kernel template's arguments. */
  parseLaunch(this: Parser, callee: Expr, pos: Pos): Expr {
    this.p += 2;
    while (!this.at('>>')) { this.parseBinary(9); if (!this.eat(',')) break; }
    this.expect('>>'); this.expect('>');
    this.expect('(');
    const args = this.parseArgs(')');
    this.expect(')');
    const tmpl = (callee as Expr & { templates?: { ents: number[]; explicit: TArg[] } }).templates;
    if (tmpl && this.hostLaunches) {
      const found: FuncSym[] = [];
      for (const di of tmpl.ents) {
        const f = this.tryInstantiate(di, tmpl.explicit, args, r => { throw new Unsupported(r); });
        if (!f) continue;
        const same = found.findIndex(o => sameSignature(o, f));
        if (same >= 0) { if (found[same]!.bodyStart < 0 && f.bodyStart >= 0) found[same] = f; continue; }
        found.push(f);
      }
      if (found.length !== 1) throw new Unsupported(`launch of kernel template ${callee.k === 'func' ? callee.sym.name : ''}: ${found.length} candidates`);
      if (!this.hostLaunches.includes(found[0]!)) this.hostLaunches.push(found[0]!);
      if (this.hostCalls && !this.hostCalls.includes(found[0]!)) { this.hostCalls.push(found[0]!); this.hostCallSites?.push(pos); }
    }
    return mk(C.void, pos, false, { k: 'int', v: 0n });
  }
  parsePostfix(this: Parser, e: Expr): Expr {
    for (;;) {
      const pos = this.p;
      if (this.at('<<') && this.at('<', 1) && e.k === 'func') { e = this.parseLaunch(e, pos); continue; }
      if (this.at('[')) {
        this.p++;
        const i = this.parseExpr();
        this.expect(']');
        e = this.index(e, i, pos);
      } else if (this.at('(')) {
        this.p++;
        const args = this.parseArgs(')');
        this.expect(')');
        e = this.call(e, args, pos);
      } else if (this.at('.') || this.at('->')) {
        const arrow = this.at('->'); this.p++;
        if (this.at('~')) { e = this.explicitDtorCall(e, arrow, pos); continue; }
        this.eat('template');
        const name = this.tx(); const npos = this.p;
        if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
        this.p++;
        if (this.at('::') && this.kind(1) === Tok.Ident) { e = this.qualifiedMember(e, name, arrow, npos); continue; }
        e = this.member(e, name, arrow, npos);
      } else if (this.at('++') || this.at('--')) {
        const op = this.tx(); this.p++;
        if (e.ty.k === 'record') e = this.userOperator(op, [e], pos, true) ?? this.noOperator(op, pos);
        else e = this.incdec(op, false, e, pos);
      } else return e;
    }
  }
  /**
   * `new T`, `new T(args)`, `new T{args}`, `new T[n]`, `new T[n]()`: an object or array on the device heap
   * (cicc calls malloc). Arrays of classes with destructors get the Itanium array cookie (the count).
   */
  parseNew(this: Parser): Expr {
    const pos = this.p;
    this.p++;
    const ty = this.newTypeId();
    if (ty.k === 'record' && !ty.rec.complete) { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
    if (ty.k === 'record' && classAllocator(ty.rec, 'new')) throw new Unsupported(`operator new of class ${ty.rec.name}`);
    const alloc = (arr: boolean): FuncSym | undefined => (ty.k === 'record' ? classAllocFn(ty.rec, arr ? 'operator new[]' : 'operator new', 1) : undefined);
    if (this.at('[')) {
      this.p++;
      const n = rval(this.parseExpr());
      this.expect(']');
      if (this.at('[')) throw new Unsupported('new of a multidimensional array');
      if (!isIntegral(n.ty)) { this.u.error(n.pos, 32, 'expression must have integral or unscoped enum type'); return errExpr(pos); }
      let init: Init | null = this.defaultInit(ty, pos);
      if (this.at('{')) throw new Unsupported('new[] with an initializer list');
      if (this.at('(')) { this.p++; this.expect(')'); if (ty.k !== 'record') init = { k: 'zero', ty }; }
      return mk(ptrTo(ty), pos, false, { k: 'new', elem: ty, count: convertArith(n, C.ulong), init, alloc: alloc(true) });
    }
    const init = this.newInitializer(ty, pos);
    return mk(ptrTo(ty), pos, false, { k: 'new', elem: ty, count: null, init, alloc: alloc(false) });
  }
  /** `delete p` / `delete[] p`: destructor(s) then free; a virtual destructor deletes through the vtable. */
  parseDelete(this: Parser): Expr {
    const pos = this.p;
    this.p++;
    let array = false;
    if (this.at('[') && this.at(']', 1)) { this.p += 2; array = true; }
    const e = rval(this.parseCastExpr());
    if (e.ty.k === 'error') return e;
    if (e.ty.k !== 'ptr') { this.u.error(pos, 1005, 'expression must be a pointer to a complete object type'); return errExpr(pos); }
    const t = e.ty.to;
    if (t.k === 'record') {
      if (!t.rec.complete) { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
      if (classAllocator(t.rec, 'delete')) throw new Unsupported(`operator delete of class ${t.rec.name}`);
    }
    return mk(C.void, pos, false, { k: 'delete', e, array });
  }
  /** `new (place) T(args)` / `new (place) T{args}` / `new (place) T`: construct a T in given storage. */
  parsePlacementNew(this: Parser): Expr {
    const pos = this.p;
    this.p += 2;
    const place = rval(this.parseAssign());
    if (!this.at(')')) throw new Unsupported('operator new with several placement arguments');
    this.p++;
    const ty = this.newTypeId();
    if (place.ty.k !== 'ptr') { this.u.error(pos, 167, `argument of type "${typeName(place.ty)}" is incompatible with parameter of type "void *"`); return errExpr(pos); }
    if (this.at('[')) {
      // `new (buf) T[n]`: the reserved placement form takes no array cookie (Itanium ABI): n elements at buf
      this.p++;
      const n = rval(this.parseExpr());
      this.expect(']');
      if (this.at('[')) throw new Unsupported('placement new of a multidimensional array');
      if (!isIntegral(n.ty)) { this.u.error(n.pos, 32, 'expression must have integral or unscoped enum type'); return errExpr(pos); }
      if (this.at('{')) throw new Unsupported('placement new[] with an initializer list');
      let init: Init | null = this.defaultInit(ty, pos);
      if (this.at('(')) { this.p++; this.expect(')'); if (ty.k !== 'record') init = { k: 'zero', ty }; }
      return mk(ptrTo(ty), pos, false, { k: 'pnew', place: cast(place, 'p2p', ptrTo(ty)), init, count: convertArith(n, C.ulong) });
    }
    const init = this.newInitializer(ty, pos);
    return mk(ptrTo(ty), pos, false, { k: 'pnew', place: cast(place, 'p2p', ptrTo(ty)), init });
  }
  /** `obj.~T()` / `p->~T()`: the destructor (virtual when the class's is), or nothing for a scalar type. */
  explicitDtorCall(this: Parser, e: Expr, arrow: boolean, pos: Pos): Expr {
    this.p++;
    const obj = arrow ? this.deref(rval(e), pos) : e;
    if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
    this.p++;
    if (this.at('<')) throw new Unsupported('explicit destructor call naming a template');
    this.expect('('); this.expect(')');
    const t = obj.ty;
    if (t.k !== 'record') return mk(C.void, pos, false, { k: 'cast', ck: 'void', e: obj });   // a pseudo-destructor
    const c = mk(C.void, pos, false, { k: 'call', f: null, callee: null, args: [], thisPtr: mk(ptrTo(t), pos, false, { k: 'addr', e: obj }) });
    (c as Expr & { dtorOf?: unknown }).dtorOf = t.rec;
    return c;
  }
  index(this: Parser, a: Expr, i: Expr, pos: Pos): Expr {
    if (a.ty.k === 'error' || i.ty.k === 'error') return errExpr(pos);
    if (a.ty.k === 'record') return this.userOperator('[]', [a, i], pos) ?? this.noOperator('[]', pos);
    let base = rval(a), idx = rval(i);
    if (base.ty.k !== 'ptr' && idx.ty.k === 'ptr') [base, idx] = [idx, base];
    if (base.ty.k !== 'ptr') { this.u.error(pos, 31, 'expression must have pointer-to-object type but it has type "' + typeName(a.ty) + '"'); return errExpr(pos); }
    if (!isIntegral(idx.ty)) { this.u.error(i.pos, 32, 'expression must have integral or unscoped enum type'); return errExpr(pos); }
    return mk(base.ty.to, pos, true, { k: 'index', base, idx: promote(idx) });
  }
  member(this: Parser, e: Expr, name: string, arrow: boolean, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    if (e.k === 'bvarbase') {
      if (!['x', 'y', 'z'].includes(name)) { this.u.error(pos, 135, `class "uint3" has no member "${name}"`); return errExpr(pos); }
      return mk(C.uint, pos, false, { k: 'bvar', name: e.name, field: name });
    }
    let rt: CType = e.ty;
    let base: Expr = e;
    if (arrow && e.ty.k === 'record') {
      // `p->m` on a class: `p.operator->()->m`, drilled down while operator-> gives a class (a smart pointer)
      const r = this.userOperator('->', [e], pos);
      if (!r || r.ty.k === 'error') throw new Unsupported('overloaded operator->');
      return this.member(r, name, true, pos);
    }
    if (arrow) {
      base = rval(e);
      if (base.ty.k !== 'ptr') { this.u.error(pos, 131, `expression must have pointer-to-class type but it has type "${typeName(e.ty)}"`); return errExpr(pos); }
      rt = base.ty.to;
    }
    if (rt.k !== 'record') { this.u.error(pos, 153, `expression must have class type but it has type "${typeName(rt)}"`); return errExpr(pos); }
    const f = rt.rec.fields.find(x => x.name === name && !x.isBase);
    const anon = f ? null : anonPath(rt.rec, name);
    if (anon) {
      // a member of an anonymous struct/union: through the unnamed members
      let cur: Expr = e, arrowHere = arrow;
      let q = rt.q & (Q.Const | Q.Volatile);
      for (const fl of anon) {
        const fty = withQ(fl.ty, q);
        cur = mk(fty, pos, arrowHere || cur.lv, { k: 'member', e: arrowHere ? base : cur, field: fl, arrow: arrowHere });
        arrowHere = false; q = fty.q & (Q.Const | Q.Volatile);
      }
      return cur;
    }
    if (!f) {
      const obj = arrow ? mk(rt, pos, true, { k: 'deref', e: base }) : e;
      const ms = this.classMember(rt.rec, name, false);
      // member function templates, with the member functions of that name they overload
      const mts = ms.every(m => m.kind === 'func') ? memberTmplsOf(rt.rec, name) : [];
      if (mts.length) {
        const fs = ms as FuncSym[];
        const owner = mts[0]!.rec;
        if (fs.some(m => m.cls !== owner)) throw new Unsupported(`member template ${name} overloaded with member functions of another class`);
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        const cal = mk(C.int, pos, false, { k: 'func', sym: fs[0] ?? { name } as FuncSym });
        (cal as Expr & { overloads?: FuncSym[] }).overloads = fs;
        (cal as Expr & { templates?: TmplRef }).templates = { ents: [], explicit, members: mts };
        (cal as Expr & { thisObj?: Expr }).thisObj = owner !== rt.rec ? this.baseSubobject(obj, rt.rec, owner, pos) : obj;
        if (!this.at('(')) throw new Unsupported(`member template ${name} used other than in a call`);
        return cal;
      }
      if (ms.length) {
        const m = ms[0]!;
        if (m.kind === 'field') {
          // a member of a base class
          const b = this.baseSubobject(obj, rt.rec, m.rec, pos);
          return this.member(b, name, false, pos);
        }
        if (m.kind === 'var') { this.u.noteVarUse(m, this.fn, pos); return mk(m.ty.k === 'ref' ? m.ty.to : m.ty, pos, true, { k: 'var', sym: m }); }
        if (m.kind === 'enumconst') return mk(m.ty, pos, false, { k: 'int', v: m.value });
        if (m.kind === 'func') {
          const fs = ms.filter((x): x is FuncSym => x.kind === 'func');
          const owner = fs[0]!.cls!;
          const cal = mk(m.ty, pos, true, { k: 'func', sym: m });
          (cal as Expr & { overloads?: FuncSym[] }).overloads = fs;
          (cal as Expr & { thisObj?: Expr }).thisObj = owner !== rt.rec ? this.baseSubobject(obj, rt.rec, owner, pos) : obj;
          return cal;
        }
      }
      const bad = badBaseOf(rt.rec);
      if (bad) throw new Unsupported(`${bad} (member ${name} of ${rt.rec.name})`);
      this.u.error(pos, 135, `class "${typeName(unqual(rt))}" has no member "${name}"`); return errExpr(pos);
    }
    if (f.ty.k === 'ref') {
      // a reference member names the object it refers to (whatever the constness of the object holding it): the
      // member's slot holds its address
      const slot = mk(ptrTo(f.ty.to), pos, true, { k: 'member', e: base, field: f, arrow });
      return mk(f.ty.to, pos, true, { k: 'deref', e: rval(slot) });
    }
    const fty = withQ(f.ty, rt.q & (Q.Const | Q.Volatile));
    return mk(fty, pos, arrow || e.lv, { k: 'member', e: base, field: f, arrow });
  }
}
declare module './parser-core' { interface Parser extends ExpressionsRoom {} }
addRoom(ExpressionsRoom);
