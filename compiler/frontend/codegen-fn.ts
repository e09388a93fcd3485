// Code generation for one function, top layer: the function's prologue and epilogue, statements and local
// declarations.

import { type Const, type Block, T, cInt, cFP } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { Stmt, Init, VarSym } from './ast';
import { type CType, type Field, type RecordDecl, irType, alignOfC, isFloating, isIntegral } from './ctype';
import { isDynamic } from './virtuals';
import { arrayElems, byInvisibleRef, needsDtor } from './codegen-types';
import { FnCall } from './codegen-fn-call';

export class FnGen extends FnCall {
  run(body: Stmt): void {
    const entry = this.b.newBlock('entry');
    this.b.setBlock(entry);
    if (this.g.opts.lineInfo) { this.fn.loc = { ...this.g.u.locOf(this.f.pos), col: 0 }; this.b.loc = this.fn.loc; }
    const ps = this.f.params ?? [];
    let ai = 0;
    const tv = this.f.thisVar;
    if (this.f.cls && !this.f.staticMember) {
      const a = this.fn.params[0]!;
      a.name = 'this';
      if (tv) { const slot = this.b.alloca(T.ptr, 8, 'this.addr'); this.b.store(a, slot, 8); this.locals.set(tv, slot); }
      ai = 1;
    }
    const rt = this.f.ty.ret;
    if (rt.k === 'record' && byInvisibleRef(rt.rec)) { this.sret = this.fn.params[ai]!; this.fn.params[ai]!.name = 'agg.result'; ai++; }
    // a class returned by value is built in a local object, loaded whole at the return
    else if (rt.k === 'record') this.sret = this.b.alloca(irType(rt), alignOfC(rt), 'agg.result');
    ps.forEach((v, i) => {
      const a = this.fn.params[ai + i]!;
      a.name = v.name || `p${i}`;
      if (v.ty.k === 'record' || v.ty.k === 'ref') { this.locals.set(v, a); return; }
      const slot = this.b.alloca(irType(v.ty), alignOfC(v.ty), v.name ? `${v.name}.addr` : '');
      this.b.store(a, slot, alignOfC(v.ty));
      this.locals.set(v, slot);
    });
    const ra = rt.k === 'ref' ? 8 : alignOfC(rt);
    if (rt.k !== 'void' && rt.k !== 'record') this.retSlot = this.b.alloca(irType(rt), ra, 'retval');
    this.retBlock = this.b.detachedBlock('return');
    const dyn = this.f.cls && !this.f.staticMember && isDynamic(this.f.cls) ? this.f.cls : null;
    if (dyn && this.f.ctor) this.ctorBody(body, dyn);
    else if (dyn && this.f.dtor) { this.storeVptr(this.fn.params[0]!, dyn); this.stmt(body); }
    else this.stmt(body);
    this.at(this.f.bodyEnd);
    this.enter(this.retBlock);
    // a dynamic class's destructor is its complete-object destructor (the vtable's D1): members and bases too
    if (dyn && this.f.dtor) this.destroyParts(this.fn.params[0]!, dyn);
    if (this.retSlot) {
      this.b.ret(this.b.load(irType(rt), this.retSlot, ra));
    } else if (rt.k === 'record' && this.sret && this.sret.kind === 'inst') {
      this.b.ret(this.b.load(irType(rt), this.sret, ra));
    } else this.b.ret();
  }

  /** A dynamic class's constructor: the vptr is set once the bases are constructed, before the members. */
  protected ctorBody(body: Stmt, rec: RecordDecl): void {
    const isBaseInit = (x: Stmt): boolean => x.k === 'init' && (x.target.k === 'deref' || (x.target.k === 'member' && !!(x.target.field as Field).isBase));
    if (body.k !== 'block') { this.storeVptr(this.fn.params[0]!, rec); this.stmt(body); return; }
    const mark = this.cleanups.length;
    let set = false;
    for (const x of body.body) {
      if (!set && !isBaseInit(x)) { this.ensureOpen(); this.storeVptr(this.fn.params[0]!, rec); set = true; }
      this.stmt(x);
    }
    if (!set) { this.ensureOpen(); this.storeVptr(this.fn.params[0]!, rec); }
    this.endScope(mark);
  }
  /** The body of an implicit (or defaulted) destructor of a dynamic class. */
  implicitDtor(rec: RecordDecl): void {
    const entry = this.b.newBlock('entry');
    this.b.setBlock(entry);
    const self = this.fn.params[0]!;
    self.name = 'this';
    this.storeVptr(self, rec);
    this.destroyParts(self, rec);
    this.b.ret();
  }
  stmt(s: Stmt): void {
    if (s.k !== 'label' && s.k !== 'case' && s.k !== 'block' && s.k !== 'null') this.ensureOpen();
    if ('pos' in s) this.at(s.pos);
    switch (s.k) {
      case 'null': return;
      case 'expr': this.full(() => this.expr(s.e)); return;
      case 'block': {
        const mark = this.cleanups.length;
        for (const x of s.body) this.stmt(x);
        this.endScope(mark);
        return;
      }
      case 'decl': this.decl(s.v, s.init); return;
      case 'if': {
        const th = this.blk('if.then'), en = this.blk('if.end');
        const el = s.e ? this.blk('if.else') : en;
        this.b.condbr(this.full(() => this.cond(s.c)), th, el);
        this.enter(th); this.stmt(s.t);
        if (s.e) { this.jump(en); this.enter(el); this.stmt(s.e); }
        this.enter(en);
        return;
      }
      case 'while': {
        const c = this.blk('while.cond'), body = this.blk('while.body'), end = this.blk('while.end');
        this.enter(c);
        this.b.condbr(this.full(() => this.cond(s.c)), body, end).unroll = s.unroll;
        this.loops.push({ brk: end, cont: c, depth: this.cleanups.length });
        this.enter(body); this.stmt(s.body); this.jump(c);
        this.loops.pop();
        this.enter(end);
        return;
      }
      case 'do': {
        const body = this.blk('do.body'), c = this.blk('do.cond'), end = this.blk('do.end');
        this.enter(body);
        this.loops.push({ brk: end, cont: c, depth: this.cleanups.length });
        this.stmt(s.body);
        this.loops.pop();
        this.at(s.c.pos);
        this.enter(c);
        this.b.condbr(this.full(() => this.cond(s.c)), body, end);
        this.enter(end);
        return;
      }
      case 'for': {
        const mark = this.cleanups.length;   // a variable of the init statement lives until the loop ends
        if (s.init) this.stmt(s.init);
        this.ensureOpen();
        const c = this.blk('for.cond'), body = this.blk('for.body'), inc = this.blk('for.inc'), end = this.blk('for.end');
        this.at(s.pos);
        this.enter(c);
        if (s.c) this.b.condbr(this.full(() => this.cond(s.c!)), body, end).unroll = s.unroll; else this.b.br(body);
        this.loops.push({ brk: end, cont: inc, depth: this.cleanups.length });
        this.enter(body); this.stmt(s.body);
        this.loops.pop();
        this.enter(inc);
        if (s.inc) { this.at(s.inc.pos); this.full(() => this.expr(s.inc!)); this.at(s.pos); }
        this.jump(c);
        this.enter(end);
        this.endScope(mark);
        return;
      }
      case 'switch': {
        const v = this.full(() => this.rv(s.c));
        const end = this.blk('sw.epilog');
        let def = end;
        const cases: [Const, Block][] = [];
        for (const c of s.cases) {
          const bl = this.blk(c.v === null ? 'sw.default' : 'sw.bb');
          this.caseBlocks.set(c.id, bl);
          if (c.v === null) def = bl; else cases.push([cInt(v.ty, c.v), bl]);
        }
        this.b.switch_(v, def, cases);
        this.loops.push({ brk: end, cont: this.loops.length ? this.loops[this.loops.length - 1]!.cont : null, depth: this.cleanups.length });
        this.stmt(s.body);
        this.loops.pop();
        this.enter(end);
        return;
      }
      case 'case': this.enter(this.caseBlocks.get(s.id)!); return;
      case 'break': { const l = this.loops[this.loops.length - 1]!; this.runCleanups(l.depth); this.jump(l.brk); return; }
      case 'continue': {
        for (let i = this.loops.length - 1; i >= 0; i--) {
          const c = this.loops[i]!.cont;
          // the continue target of a switch is its loop's: leave the scopes of that loop's body
          if (c) { let d = this.loops[i]!.depth; for (let j = i; j >= 0; j--) if (this.loops[j]!.cont === c) d = this.loops[j]!.depth; this.runCleanups(d); this.jump(c); return; }
        }
        return;
      }
      case 'return': {
        this.full(() => {
          if (s.init && this.sret) { this.initInto(this.sret, s.init, this.f.ty.ret); }
          // `return {};` / `return {v};` for a type returned by value in registers (cg's exclusive scan returns {})
          else if (s.init && this.retSlot && this.f.ty.ret.k !== 'ref') this.initInto(this.retSlot, s.init, this.f.ty.ret);
          else if (s.e && this.sret && !s.e.lv && needsDtor(this.f.ty.ret)) this.initInto(this.sret, { k: 'expr', e: s.e }, this.f.ty.ret);
          else if (s.e) {
            if (this.sret) this.copyRecord(this.sret, this.addr(s.e), this.f.ty.ret);
            else if (this.retSlot && this.f.ty.ret.k === 'ref') this.b.store(this.generic(this.addr(s.e)), this.retSlot, 8);   // a reference returns the address
            else if (this.retSlot) this.b.store(this.rv(s.e), this.retSlot, alignOfC(this.f.ty.ret));
            else this.expr(s.e);
          }
        });
        this.runCleanups(0);
        this.jump(this.retBlock!);
        return;
      }
      case 'goto':
        if (this.cleanups.length) throw new Unsupported('goto in a scope with destructors to run');
        this.jump(this.label(s.label)); return;
      case 'label': this.enter(this.label(s.label)); return;
      case 'init': this.full(() => this.initInto(this.addr(s.target), s.init, s.target.ty)); return;
    }
  }
  protected decl(v: VarSym, init: Init | null): void {
    const mark = this.temps.length;
    this.fullDepth++;
    this.fullStarts.push(this.fullStart());
    try { this.declInner(v, init, mark); } finally { this.fullDepth--; this.fullStarts.pop(); }
    this.endTemps(mark);
  }
  protected declInner(v: VarSym, init: Init | null, mark: number): void {
    if (v.ty.k === 'ref') {
      if (init && init.k === 'expr') {
        const a = this.addr(init.e);
        this.locals.set(v, a);
        // a temporary bound to the reference lives as long as the reference
        const k = this.temps.findIndex((t, i) => i >= mark && t.addr === a);
        if (k >= 0) { this.cleanups.push(this.temps[k]!); this.temps.splice(k, 1); }
      }
      return;
    }
    const slot = this.b.alloca(irType(v.ty), alignOfC(v.ty), v.name);
    this.locals.set(v, slot);
    if (needsDtor(v.ty)) {
      if (init) this.initInto(slot, init, v.ty);
      const a = arrayElems(v.ty);
      this.cleanups.push(a ? { addr: slot, rec: a.rec, n: a.n } : { addr: slot, rec: (v.ty as CType & { k: 'record' }).rec });
      return;
    }
    if (v.constVal !== undefined && (isIntegral(v.ty) || isFloating(v.ty))) {
      // a constant (e.g. from a constexpr call, which need not be a device function) is stored, not computed
      const cv = v.constVal;
      this.b.store(isFloating(v.ty) ? cFP(irType(v.ty), Number(cv)) : cInt(irType(v.ty), typeof cv === 'bigint' ? cv : BigInt(Math.trunc(cv))), slot, alignOfC(v.ty));
      return;
    }
    if (init) this.initInto(slot, init, v.ty);
  }
}
