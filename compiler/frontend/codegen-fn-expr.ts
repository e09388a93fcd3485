// Code generation for one function, second layer: expressions (values, conversions, arithmetic, bitfields) and lvalues.

import {
  type Value, type Inst, T, cInt, cFP, cNull, sizeOf, type ICmpPred, type FCmpPred, type BinOp,
} from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { Expr, Init } from './ast';
import { type CType, type Field, C, Q, irType, sizeOfC, alignOfC, isSigned, isFloating, unqual } from './ctype';
import { lowerBuiltinVar } from './builtins';
import { isBitfield, intBitsOf } from './codegen-types';
import { FnBase } from './codegen-fn-base';

export abstract class FnExpr extends FnBase {
  // the layer above (codegen-fn-call.ts)
  protected abstract heapNew(e: Expr & { k: 'new' }): Value;
  protected abstract heapDelete(e: Expr & { k: 'delete' }): void;
  protected abstract initInto(addr: Value, init: Init, ty: CType): void;
  abstract copyRecord(dst: Value, src: Value, ty: CType, assign?: boolean): void;
  protected abstract call(e: Expr & { k: 'call' }, sretSlot?: Value): Value | undefined;
  protected abstract asm(e: Expr & { k: 'asm' }): Value | undefined;

  /** The address of the object holding a bitfield member. */
  protected bitsBase(e: Expr & { k: 'member' }): Value { return e.arrow ? this.rv(e.e) : this.addr(e.e); }
  protected unitAddr(base: Value, f: Field): Value { return f.offset === 0 ? base : this.b.gep(T.i8, base, [cInt(T.i64, f.offset)]); }
  /** The value of a bitfield: its bits of the storage unit, sign-extended for a signed type. */
  protected loadBits(e: Expr): Value {
    const m = e as Expr & { k: 'member' };
    const f = m.field, t = unqual(f.ty);
    const unit = this.b.load(irType(t), this.unitAddr(this.bitsBase(m), f), alignOfC(t), (e.ty.q & Q.Volatile) !== 0);
    return this.extractBits(unit, f, t);
  }
  protected extractBits(unit: Value, f: Field, t: CType): Value {
    const n = sizeOfC(t) * 8, w = f.bits!, off = f.bitOff!;
    if (isSigned(t)) {
      const up = n - off - w;
      const l = up ? this.b.bin('shl', unit, cInt(unit.ty, up)) : unit;
      return n - w ? this.b.bin('ashr', l, cInt(unit.ty, n - w)) : l;
    }
    const r = off ? this.b.bin('lshr', unit, cInt(unit.ty, off)) : unit;
    return w < n ? this.b.bin('and', r, cInt(unit.ty, (1n << BigInt(w)) - 1n)) : r;
  }
  /** Store v (of the field's type) into a bitfield; the value is the field's new value. */
  protected storeBits(e: Expr, v: Value): Value {
    const m = e as Expr & { k: 'member' };
    return this.storeBitsAt(this.bitsBase(m), m.field, v, (e.ty.q & Q.Volatile) !== 0);
  }
  protected storeBitsAt(base: Value, f: Field, v: Value, vol: boolean): Value {
    const t = unqual(f.ty), n = sizeOfC(t) * 8, w = f.bits!, off = f.bitOff!;
    const p = this.unitAddr(base, f);
    const old = this.b.load(irType(t), p, alignOfC(t), vol);
    const mask = ((1n << BigInt(w)) - 1n) << BigInt(off);
    const full = (1n << BigInt(n)) - 1n;
    const cleared = this.b.bin('and', old, cInt(old.ty, BigInt.asIntN(n, full & ~mask)));
    const shifted = off ? this.b.bin('shl', v, cInt(v.ty, off)) : v;
    const ins = this.b.bin('and', shifted, cInt(v.ty, BigInt.asIntN(n, mask)));
    const unit = this.b.bin('or', cleared, ins);
    this.b.store(unit, p, alignOfC(t), vol);
    return this.extractBits(unit, f, t);
  }
  /** Evaluate for side effects. */
  expr(e: Expr): void {
    if (e.ty.k === 'record') { this.addr(e); return; }
    this.value(e);
  }
  /** Rvalue of a scalar expression. */
  rv(e: Expr): Value { if ((e as { k: string }).k === 'raw') return (e as unknown as { v: Value }).v; return this.value(e)!; }
  /** Condition as i1. */
  cond(e: Expr): Value {
    if (e.k === 'cast' && e.ck === 'tobool') return this.toBool(this.rv(e.e), e.e.ty);
    if (e.k === 'unary' && e.op === '!') return this.b.bin('xor', this.cond(e.e), cInt(T.i1, 1));
    if (e.k === 'bin' && (e.op === '&&' || e.op === '||')) return this.logical(e.op, e.a, e.b);
    if (e.k === 'bin' && ['<', '>', '<=', '>=', '==', '!='].includes(e.op)) return this.compare(e.op, e.a, e.b);
    if (e.k === 'int') return cInt(T.i1, e.v !== 0n ? 1 : 0);
    return this.toBool(this.rv(e), e.ty);
  }
  protected toBool(v: Value, ty: CType): Value {
    if (ty.k === 'ptr' || ty.k === 'nullptr') return this.b.icmp('ne', v, cNull());
    if (isFloating(ty)) return this.b.fcmp('une', v, cFP(v.ty, 0));
    return this.b.icmp('ne', v, cInt(v.ty, 0));
  }
  protected logical(op: string, a: Expr, b: Expr): Value {
    const rhs = this.blk(op === '&&' ? 'land.rhs' : 'lor.rhs'), end = this.blk(op === '&&' ? 'land.end' : 'lor.end');
    const ca = this.cond(a);
    const from = this.b.block!;
    if (op === '&&') this.b.condbr(ca, rhs, end); else this.b.condbr(ca, end, rhs);
    this.enter(rhs);
    this.condDepth++;
    const cb = this.cond(b);
    this.condDepth--;
    const rhsEnd = this.b.block!;
    this.enter(end);
    return this.b.phi(T.i1, [[cInt(T.i1, op === '&&' ? 0 : 1), from], [cb, rhsEnd]]);
  }
  protected compare(op: string, a: Expr, b: Expr): Value {
    const x = this.rv(a), y = this.rv(b);
    const t = a.ty;
    if (isFloating(t)) {
      const p: Record<string, FCmpPred> = { '<': 'olt', '>': 'ogt', '<=': 'ole', '>=': 'oge', '==': 'oeq', '!=': 'une' };
      return this.b.fcmp(p[op]!, x, y);
    }
    const s = isSigned(t);
    const p: Record<string, ICmpPred> = { '<': s ? 'slt' : 'ult', '>': s ? 'sgt' : 'ugt', '<=': s ? 'sle' : 'ule', '>=': s ? 'sge' : 'uge', '==': 'eq', '!=': 'ne' };
    return this.b.icmp(p[op]!, x, y);
  }
  protected boolVal(c: Value): Value { return this.b.cast('zext', c, T.i8); }

  /** Scalar-valued evaluation (undefined for void). */
  value(e: Expr): Value | undefined {
    switch (e.k) {
      case 'int': return e.ty.k === 'nullptr' ? cNull() : cInt(irType(e.ty), e.v);
      case 'fp': return cFP(irType(e.ty), e.v);
      case 'cast': return this.castExpr(e);
      case 'pnew': {
        const p = this.rv(e.place);
        const init = e.init, et = (e.ty as CType & { k: 'ptr' }).to;
        if (init && e.count) {
          const sz = sizeOfC(et);
          this.loopDyn(this.rv(e.count), false, i => this.initInto(this.b.gep(T.i8, p, [this.b.bin('mul', i, cInt(T.i64, sz))]), init, et));
        } else if (init) this.initInto(p, init, et);
        return p;
      }
      case 'new': return this.heapNew(e);
      case 'delete': this.heapDelete(e); return undefined;
      case 'unary': {
        if (e.op === '!') return this.boolVal(this.cond(e));
        const v = this.rv(e.e);
        if (e.op === '+') return v;
        if (e.op === '-') return isFloating(e.ty) ? this.b.fneg(v) : this.b.bin('sub', cInt(v.ty, 0), v);
        return this.b.bin('xor', v, cInt(v.ty, -1));
      }
      case 'addr': return this.generic(this.addr(e.e));
      case 'incdec': return this.incdec(e);
      case 'bin': return this.binary(e);
      case 'ptradd': {
        const p = this.rv(e.p), r = this.ptrAdd(p, e.p.ty, e.i, e.neg);
        // a class pointer adjusted between base and derived: null stays null
        return (e as { keepNull?: boolean }).keepNull ? this.b.select(this.b.icmp('eq', p, cNull(p.ty.k === 'ptr' ? (p.ty as { as: number }).as : 0)), p, r) : r;
      }
      case 'ptrdiff': {
        const a = this.b.cast('ptrtoint', this.rv(e.a), T.i64), b = this.b.cast('ptrtoint', this.rv(e.b), T.i64);
        const d = this.b.bin('sub', a, b);
        const sz = sizeOfC(e.elem.k === 'void' ? C.char : e.elem);
        return sz === 1 ? d : this.b.bin('sdiv', d, cInt(T.i64, sz), { exact: true });
      }
      case 'assign': {
        if (e.ty.k === 'record') { this.addr(e); return undefined; }
        const v = this.rv(e.b);
        if (isBitfield(e.a)) return this.storeBits(e.a, v);
        this.b.store(v, this.addr(e.a), alignOfC(e.a.ty), (e.a.ty.q & Q.Volatile) !== 0);
        return v;
      }
      case 'cassign': return this.compound(e).v;
      case 'cond': {
        if (e.lv || e.ty.k === 'record') return this.b.load(irType(e.ty), this.addr(e), alignOfC(e.ty));
        if (e.ty.k === 'void') {
          const t = this.blk('cond.true'), f = this.blk('cond.false'), end = this.blk('cond.end');
          this.b.condbr(this.cond(e.c), t, f);
          this.condDepth++;
          this.enter(t); this.expr(e.a); this.jump(end);
          this.enter(f); this.expr(e.b); this.enter(end);
          this.condDepth--;
          return undefined;
        }
        const t = this.blk('cond.true'), f = this.blk('cond.false'), end = this.blk('cond.end');
        this.b.condbr(this.cond(e.c), t, f);
        this.condDepth++;
        this.enter(t); const a = this.rv(e.a); const ab = this.b.block!; this.jump(end);
        this.enter(f); const b = this.rv(e.b); const bb = this.b.block!;
        this.condDepth--;
        this.enter(end);
        return this.b.phi(a.ty, [[a, ab], [b, bb]]);
      }
      case 'comma': this.expr(e.a); return this.value(e.b);
      case 'call': return this.call(e);
      case 'bvar': {
        const v = lowerBuiltinVar(this.ctx, e.name, e.field);
        if (!v) throw new Unsupported(`builtin variable ${e.name}`);
        return v;
      }
      case 'asm': return this.asm(e);
      case 'var': case 'deref': case 'index': case 'member': case 'str': case 'temp': case 'bvarbase': case 'func': case 'fname':
        // lvalue used directly as a value (only via casts normally)
        if (isBitfield(e)) return this.loadBits(e);
        return this.b.load(irType(e.ty), this.addr(e), alignOfC(e.ty), (e.ty.q & Q.Volatile) !== 0);
      case 'construct': this.addr(e); return undefined;
      case 'initlist': case 'error': throw new Unsupported(`codegen of ${e.k}`);
    }
  }
  protected castExpr(e: Expr & { k: 'cast' }): Value | undefined {
    const from = e.e.ty, to = e.ty;
    switch (e.ck) {
      case 'load': {
        if (e.e.k === 'var' && e.e.sym.constVal !== undefined && ((e.e.sym.storage === 'global' && e.e.sym.space === 'none') || (e.e.sym.storage === 'local' && !this.locals.has(e.e.sym)))) {
          const cv = e.e.sym.constVal;
          return isFloating(to) ? cFP(irType(to), Number(cv)) : cInt(irType(to), typeof cv === 'bigint' ? cv : BigInt(Math.trunc(cv)));
        }
        if (to.k === 'record') throw new Unsupported('record rvalue');
        if (isBitfield(e.e)) return this.loadBits(e.e);
        // the value of an assignment to a bitfield (an lvalue naming the bitfield)
        if ((e.e.k === 'assign' || e.e.k === 'cassign') && isBitfield(e.e.a)) return this.value(e.e)!;
        if (e.e.k === 'incdec' && e.e.prefix && isBitfield(e.e.e)) return this.incdec(e.e);
        return this.b.load(irType(to), this.addr(e.e), alignOfC(to), (from.q & Q.Volatile) !== 0);
      }
      case 'decay': return this.generic(this.addr(e.e));
      case 'fdecay': return e.e.k === 'func' ? this.g.func(e.e.sym) : this.rv(e.e);
      case 'noop': return this.value(e.e);
      case 'void': this.expr(e.e); return undefined;
      case 'null': { const v = this.value(e.e); void v; return cNull(); }
      case 'p2p': return this.rv(e.e);
      case 'p2i': return this.b.cast('ptrtoint', this.rv(e.e), irType(to));
      case 'i2p': { let v = this.rv(e.e); if (v.ty !== T.i64) v = this.b.cast(isSigned(from) ? 'sext' : 'zext', v, T.i64); return this.b.cast('inttoptr', v, T.ptr); }
      case 'tobool': return this.boolVal(this.toBool(this.rv(e.e), from));
      default: return this.arith(this.rv(e.e), from, to);
    }
  }
  /** Arithmetic conversion of an IR value between C types. */
  arith(v: Value, from: CType, to: CType): Value {
    const ft = irType(from), tt = irType(to);
    if (to.k === 'bool') return this.boolVal(this.toBool(v, from));
    if (isFloating(from) && isFloating(to)) {
      if (ft === tt) return v;
      if (v.kind === 'fp') return cFP(tt, v.value);
      return this.b.cast(sizeOf(ft) < sizeOf(tt) ? 'fpext' : 'fptrunc', v, tt);
    }
    if (isFloating(from)) return this.b.cast(isSigned(to) ? 'fptosi' : 'fptoui', v, tt);
    if (isFloating(to)) return this.b.cast(isSigned(from) ? 'sitofp' : 'uitofp', v, tt);
    if (ft === tt) return v;
    const fb = (ft as { bits: number }).bits, tb = (tt as { bits: number }).bits;
    if (v.kind === 'int') return cInt(tt, isSigned(from) ? v.value : BigInt.asUintN(fb, v.value));
    if (fb > tb) return this.b.cast('trunc', v, tt);
    return this.b.cast(isSigned(from) ? 'sext' : 'zext', v, tt);
  }
  protected ptrAdd(p: Value, pty: CType, i: Expr, neg: boolean): Value {
    const elem = pty.k === 'ptr' ? pty.to : C.char;
    let idx = this.rv(i);
    idx = this.arith(idx, i.ty, isSigned(i.ty) || i.ty.k === 'bool' ? C.long : C.ulong);
    if (neg) idx = idx.kind === 'int' ? cInt(T.i64, -idx.value) : this.b.bin('sub', cInt(T.i64, 0), idx);
    const et = elem.k === 'void' || elem.k === 'func' ? T.i8 : irType(elem);
    return this.b.gep(et, p, [idx]);
  }
  protected binary(e: Expr & { k: 'bin' }): Value {
    const op = e.op;
    if (op === '&&' || op === '||' || ['<', '>', '<=', '>=', '==', '!='].includes(op)) return this.boolVal(this.cond(e));
    return this.arithOp(op, this.rv(e.a), this.rv(e.b), e.ty, e.b.ty);
  }
  protected arithOp(op: string, a: Value, b: Value, ty: CType, bty: CType): Value {
    const fp = isFloating(ty), s = isSigned(ty);
    if ((op === '<<' || op === '>>') && b.ty !== a.ty) b = this.arith(b, bty, ty.k === 'int' && ty.bits === 64 ? C.ulong : C.uint);
    let bop: BinOp;
    switch (op) {
      case '+': bop = fp ? 'fadd' : 'add'; break;
      case '-': bop = fp ? 'fsub' : 'sub'; break;
      case '*': bop = fp ? 'fmul' : 'mul'; break;
      case '/': bop = fp ? 'fdiv' : s ? 'sdiv' : 'udiv'; break;
      case '%': bop = fp ? 'frem' : s ? 'srem' : 'urem'; break;
      case '&': bop = 'and'; break;
      case '|': bop = 'or'; break;
      case '^': bop = 'xor'; break;
      case '<<': bop = 'shl'; break;
      case '>>': bop = s ? 'ashr' : 'lshr'; break;
      default: throw new Unsupported(`operator ${op}`);
    }
    const extra: Partial<Inst> = {};
    if (s && !fp && (bop === 'add' || bop === 'sub' || bop === 'mul')) extra.nsw = true;
    if (fp && this.g.opts.fmad && !this.g.opts.fastMath) extra.fmf = ['contract'];
    if (fp && this.g.opts.fastMath) extra.fmf = ['fast'];
    return this.b.bin(bop, a, b, extra);
  }
  protected compound(e: Expr & { k: 'cassign' }): { v: Value; p: Value } {
    if (isBitfield(e.a)) {
      // x.bits op= v: read the field, compute in the operation's type, write it back
      const at = unqual(e.a.ty);
      const rhs = this.rv(e.b);
      const lhs = this.arith(this.loadBits(e.a), at, e.opTy);
      const v = this.storeBits(e.a, this.arith(this.arithOp(e.op, lhs, rhs, e.opTy, e.b.ty), e.opTy, at));
      return { v, p: cNull() };
    }
    const p = this.addr(e.a);
    const at = unqual(e.a.ty);
    const vol = (e.a.ty.q & Q.Volatile) !== 0;
    const rhs = this.rv(e.b);
    const old = this.b.load(irType(at), p, alignOfC(at), vol);
    let res: Value;
    if (at.k === 'ptr') {
      const ie = { ...e.b } as Expr;
      void ie;
      let idx = this.arith(rhs, e.b.ty, isSigned(e.b.ty) ? C.long : C.ulong);
      if (e.op === '-') idx = this.b.bin('sub', cInt(T.i64, 0), idx);
      res = this.b.gep(at.to.k === 'void' ? T.i8 : irType(at.to), old, [idx]);
    } else {
      const lhs = this.arith(old, at, e.opTy);
      const r = this.arithOp(e.op, lhs, rhs, e.opTy, e.b.ty);
      res = this.arith(r, e.opTy, at);
    }
    this.b.store(res, p, alignOfC(at), vol);
    return { v: res, p };
  }
  protected incdec(e: Expr & { k: 'incdec' }): Value {
    if (isBitfield(e.e)) {
      const t = unqual(e.e.ty);
      if (t.k === 'bool') throw new Unsupported('increment of a bool bitfield');
      const old = this.loadBits(e.e);
      const nv = this.storeBits(e.e, this.b.bin(e.op === '++' ? 'add' : 'sub', old, cInt(old.ty, 1)));
      return e.prefix ? nv : old;
    }
    const p = this.addr(e.e);
    const t = unqual(e.e.ty);
    const vol = (e.e.ty.q & Q.Volatile) !== 0;
    const old = this.b.load(irType(t), p, alignOfC(t), vol);
    let nv: Value;
    if (t.k === 'ptr') nv = this.b.gep(t.to.k === 'void' ? T.i8 : irType(t.to), old, [cInt(T.i64, e.op === '++' ? 1 : -1)]);
    else if (isFloating(t)) nv = this.b.bin('fadd', old, cFP(old.ty, e.op === '++' ? 1 : -1));
    else if (t.k === 'bool') nv = cInt(T.i8, 1);
    else nv = this.b.bin(e.op === '++' ? 'add' : 'sub', old, cInt(old.ty, 1), isSigned(t) && intBitsOf(t) >= 32 ? { nsw: true } : {});
    this.b.store(nv, p, alignOfC(t), vol);
    (e as { _addr?: Value })._addr = p;
    return e.prefix ? nv : old;
  }

  addr(e: Expr): Value {
    switch (e.k) {
      case 'var': {
        const v = e.sym;
        const l = this.locals.get(v);
        if (l) return l;
        if (v.storage === 'local' || v.storage === 'param') throw new Error(`internal: local ${v.name} without storage`);
        if (v.space === 'none' && v.constVal === undefined && !v.isConstexpr) throw new Unsupported(`host variable ${v.name} in device code`);
        return this.generic(this.g.global(v));
      }
      case 'str': return this.generic(this.g.string(e.bytes));
      case 'bvarbase': {
        // threadIdx/blockIdx/... as a whole uint3/dim3 (`dim3 d = threadIdx`): a local copy of its three parts
        if (e.ty.k !== 'record' || e.ty.rec.fields.length !== 3) throw new Unsupported(`builtin variable ${e.name} as a whole`);
        const slot = this.b.alloca(irType(e.ty), alignOfC(e.ty), 'bvar.tmp');
        for (const f of e.ty.rec.fields) {
          const v = lowerBuiltinVar(this.ctx, e.name, f.name);
          if (!v) throw new Unsupported(`builtin variable ${e.name}`);
          this.b.store(v, f.offset ? this.b.gep(T.i8, slot, [cInt(T.i64, f.offset)]) : slot, 4);
        }
        return this.generic(slot);
      }
      case 'deref': return this.rv(e.e);
      case 'index': return this.ptrAdd(this.rv(e.base), e.base.ty, e.idx, false);
      case 'member': {
        if ((e.field as Field).bits !== undefined) throw new Unsupported('address of a bitfield (reference, compound lvalue)');
        const base = e.arrow ? this.rv(e.e) : this.addr(e.e);
        if (e.field.offset === 0) return base;
        return this.b.gep(T.i8, base, [cInt(T.i64, e.field.offset)]);
      }
      case 'assign': {
        const p = this.addr(e.a);
        if (e.ty.k === 'record') this.copyRecord(p, this.addr(e.b), e.ty, true);
        else this.b.store(this.rv(e.b), p, alignOfC(e.a.ty), (e.a.ty.q & Q.Volatile) !== 0);
        return p;
      }
      case 'cassign': return this.compound(e).p;
      case 'incdec': { this.incdec(e); return (e as { _addr?: Value })._addr!; }
      case 'comma': this.expr(e.a); return this.addr(e.b);
      case 'cond': {
        const t = this.blk('cond.true'), f = this.blk('cond.false'), end = this.blk('cond.end');
        this.b.condbr(this.cond(e.c), t, f);
        this.condDepth++;
        this.enter(t); const a = this.addrOrTemp(e.a); const ab = this.b.block!; this.jump(end);
        this.enter(f); const b = this.addrOrTemp(e.b); const bb = this.b.block!;
        this.condDepth--;
        this.enter(end);
        return this.b.phi(T.ptr, [[a, ab], [b, bb]]);
      }
      case 'cast':
        if (e.ck === 'load' || e.ck === 'noop' || e.ck === 'p2p') return this.addr(e.e);
        return this.temp(e);
      case 'call': {
        if (e.lv) return this.call(e)!;   // a call returning a reference (of class type too: `a.add(1).add(2)`)
        if (e.ty.k === 'record') {
          const slot = this.b.alloca(irType(e.ty), alignOfC(e.ty), 'agg.tmp');
          this.call(e, slot);
          this.tempMade(slot, e.ty);
          return slot;
        }
        if (e.lv) return this.call(e)!;
        return this.temp(e);
      }
      case 'temp': {
        const slot = this.b.alloca(irType(e.ty), alignOfC(e.ty), 'ref.tmp');
        this.initInto(slot, e.init, e.ty);
        this.tempMade(slot, e.ty);
        return slot;
      }
      case 'construct': {
        const slot = this.b.alloca(irType(e.ty), alignOfC(e.ty), 'agg.tmp');
        this.construct(slot, e.ctor, e.args);
        this.tempMade(slot, e.ty);
        return slot;
      }
      default: return this.temp(e);
    }
  }
  protected addrOrTemp(e: Expr): Value { return e.lv || e.ty.k === 'record' ? this.generic(this.addr(e)) : this.temp(e); }
  protected temp(e: Expr): Value {
    if (e.ty.k === 'record') throw new Unsupported(`record temporary of ${e.k}`);
    const slot = this.b.alloca(irType(e.ty), alignOfC(e.ty), 'tmp');
    this.b.store(this.rv(e), slot, alignOfC(e.ty));
    return slot;
  }
}
