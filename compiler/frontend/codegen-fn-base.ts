// Code generation for one function, first layer: the builder, blocks, lifetimes (scopes, full-expressions and
// their temporaries, destructor calls) and the module services a function body uses (FnHost).

import {
  type Module, type Func, type Global, type Value, type Const, type Block, type Type as IRType, type Inst, Builder,
  T, cInt,
} from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { CompileOptions } from '../options';
import type { Expr, VarSym, FuncSym } from './ast';
import { type CType, type RecordDecl, sizeOfC } from './ctype';
import { isDynamic } from './virtuals';
import { type BuiltinCtx } from './builtins';
import type { Unit } from './unit';
import { userDtor, arrayElems, needsDtor } from './codegen-types';

/** An IR signature: [this], [sret], params. */
export interface LoweredSig { fnTy: IRType & { k: 'func' }; sret: boolean; params: { ty: IRType; byval?: IRType; align?: number; deref?: number }[] }

/** What a function body asks of the module being generated (ModuleGen). */
export interface FnHost {
  readonly m: Module;
  readonly opts: CompileOptions;
  readonly u: Unit;
  func(f: FuncSym): Func;
  global(v: VarSym): Global;
  string(bytes: Uint8Array): Global;
  genericAddr(g: Global | Func): Const;
  lowerSig(f: CType & { k: 'func' }, hasThis?: boolean, kernel?: boolean): LoweredSig;
  vtable(rec: RecordDecl): Global;
  vptrPoints(rec: RecordDecl): [number, number][];
  dtorFunc(rec: RecordDecl, deleting: boolean): Func;
}

export interface Loop { brk: Block; cont: Block | null; depth: number }

/** The state of one function being generated; the layers above (expressions, calls, statements) extend it. */
export abstract class FnBase {
  /** A constructor (or destructor) call on the object at addr (codegen-fn-call.ts). */
  protected abstract construct(addr: Value, ctor: FuncSym, args: Expr[]): void;

  b: Builder;
  locals = new Map<VarSym, Value>();
  protected loops: Loop[] = [];
  protected caseBlocks = new Map<number, Block>();
  protected labels = new Map<string, Block>();
  protected retSlot: Value | null = null;
  protected sret: Value | null = null;
  protected retBlock: Block | null = null;
  protected names = new Map<string, number>();
  /** Local objects whose destructors run at scope exit, innermost last. */
  protected cleanups: { addr: Value; rec: RecordDecl; n?: number }[] = [];
  /** Temporaries with destructors of the full-expressions being evaluated, in order of construction. */
  protected temps: { addr: Value; rec: RecordDecl; flag?: Value }[] = [];
  protected fullDepth = 0;
  /** Where each full-expression being evaluated starts (a conditional temporary's flag is cleared there). */
  protected fullStarts: { block: Block; after: Inst | null }[] = [];
  protected fullStart(): { block: Block; after: Inst | null } { const bl = this.b.block!; return { block: bl, after: bl.insts[bl.insts.length - 1] ?? null }; }
  /** Inside a branch of ?:, && or ||: a temporary there might not be constructed. */
  protected condDepth = 0;
  ctx: BuiltinCtx;

  constructor(protected readonly g: FnHost, protected readonly f: FuncSym, protected readonly fn: Func) {
    this.b = new Builder(fn);
    this.ctx = { b: this.b, m: g.m, opts: g.opts };
  }
  protected blk(base: string): Block {
    const n = this.names.get(base) ?? 0;
    this.names.set(base, n + 1);
    return this.b.detachedBlock(n === 0 ? base : `${base}${n}`);
  }
  /** Continue emitting in block `bl` (falling through from the current block if it is open). */
  protected enter(bl: Block): void {
    if (!this.b.terminated()) this.b.br(bl);
    this.b.placeBlock(bl);
    this.b.setBlock(bl);
  }
  /** After a terminator: a fresh (unreachable) block for any following code. */
  protected ensureOpen(): void {
    if (this.b.terminated()) { const d = this.blk('dead'); this.b.placeBlock(d); this.b.setBlock(d); }
  }

  /** Evaluate a full-expression: its temporaries are destroyed at its end, last constructed first. */
  protected full<R>(fn: () => R): R {
    const mark = this.temps.length;
    this.fullDepth++;
    this.fullStarts.push(this.fullStart());
    let r: R;
    try { r = fn(); } finally { this.fullDepth--; this.fullStarts.pop(); }
    this.endTemps(mark);
    return r;
  }
  protected endTemps(mark: number): void {
    if (!this.b.terminated()) {
      for (let i = this.temps.length - 1; i >= mark; i--) {
        const t = this.temps[i]!;
        if (!t.flag) { this.destroy(t.addr, t.rec); continue; }
        // made in a branch of ?:, && or ||: destroyed only if that branch ran
        const d = this.blk('cleanup.tmp'), go = this.blk('cleanup.cont');
        this.b.condbr(this.b.icmp('ne', this.b.load(T.i8, t.flag, 1), cInt(T.i8, 0)), d, go);
        this.enter(d); this.destroy(t.addr, t.rec); this.enter(go);
      }
    }
    this.temps.length = mark;
  }
  /** A temporary of class type just constructed at slot: destroyed at the end of its full-expression. */
  protected tempMade(slot: Value, ty: CType): void {
    if (!needsDtor(ty)) return;
    const name = ty.k === 'record' ? ty.rec.name : '';
    if (ty.k !== 'record') throw new Unsupported(`temporary array of class ${name} with a destructor`);
    if (this.fullDepth === 0) throw new Unsupported(`temporary of class ${name} with a destructor outside a statement`);
    let flag: Value | undefined;
    if (this.condDepth > 0) {
      // cleared where the full-expression starts, set once the temporary exists
      flag = this.b.alloca(T.i8, 1, 'cleanup.cond');
      const st = this.fullStarts[this.fullStarts.length - 1]!;
      let at = st.after ? st.block.insts.indexOf(st.after) + 1 : 0;
      while (at < st.block.insts.length && st.block.insts[at]!.op === 'alloca') at++;
      st.block.insts.splice(at, 0, { kind: 'inst', op: 'store', ty: T.void, ops: [cInt(T.i8, 0), flag], targets: [], parent: st.block, name: '', align: 1 });
      this.b.store(cInt(T.i8, 1), flag, 1);
    }
    this.temps.push({ addr: slot, rec: ty.rec, flag });
  }
  /** *addr's vptr = the address point of rec's vtable (past its offset-to-top and typeinfo words). */
  protected storeVptr(addr: Value, rec: RecordDecl): void {
    const g = this.g.genericAddr(this.g.vtable(rec));
    for (const [off, point] of this.g.vptrPoints(rec)) {
      const vt = this.b.gep(T.i8, g, [cInt(T.i64, point)]);
      this.b.store(vt, off === 0 ? this.generic(addr) : this.b.gep(T.i8, this.generic(addr), [cInt(T.i64, off)]), 8);
    }
  }

  /** -lineinfo: the instructions generated from here on come from the token at `pos`. */
  protected at(pos: number): void { if (this.g.opts.lineInfo && pos >= 0) this.b.loc = this.g.u.locOf(pos); }

  protected jump(bl: Block): void { if (!this.b.terminated()) this.b.br(bl); }
  /** Leaving a scope normally: destroy its objects (in reverse order of construction) and forget them. */
  protected endScope(mark: number): void {
    if (!this.b.terminated()) this.runCleanups(mark);
    this.cleanups.length = mark;
  }
  /** Destructor calls for the live objects above `depth` (a jump out of their scopes). */
  protected runCleanups(depth: number): void {
    for (let i = this.cleanups.length - 1; i >= depth; i--) {
      if (this.b.terminated()) return;
      const c = this.cleanups[i]!;
      if (c.n !== undefined) this.destroyArray(c.addr, c.rec, c.n); else this.destroy(c.addr, c.rec);
    }
  }
  /** The destructor of the object at addr: the class's own, then its members' and bases' (reverse order). */
  protected destroy(addr: Value, rec: RecordDecl): void {
    if (isDynamic(rec)) { const d1 = this.g.dtorFunc(rec, false); this.b.call(d1, d1.fnTy, [this.generic(addr)]); return; }
    const d = userDtor(rec);
    if (d) this.construct(addr, d, []);
    this.destroyParts(addr, rec);
  }
  /** Destroy n objects of class rec stored one after another at addr, last first. */
  protected destroyArray(addr: Value, rec: RecordDecl, n: number): void {
    this.loopDyn(n, true, i => this.destroy(this.b.gep(T.i8, addr, [this.b.bin('mul', i, cInt(T.i64, sizeOfC({ k: 'record', rec, q: 0 })))]), rec));
  }
  /**
   * A loop over element indices 0..n-1 (i64), forwards or backwards; nothing when n is 0. With a constant
   * n, a few elements are straight-line code (what unrolling would make of the loop) and no test guards it.
   */
  protected loopDyn(n: Value | number, backwards: boolean, body: (i: Value) => void): void {
    if (typeof n === 'number') {
      if (n === 0) return;
      if (n <= 8) { for (let k = 0; k < n; k++) body(cInt(T.i64, backwards ? n - 1 - k : k)); return; }
    }
    const count = typeof n === 'number' ? cInt(T.i64, n) : n;
    const ctr = this.b.alloca(T.i64, 8, 'arr.idx');
    this.b.store(backwards ? count : cInt(T.i64, 0), ctr, 8);
    const head = this.blk('arr.loop'), done = this.blk('arr.done');
    if (typeof n === 'number') this.enter(head);
    else { this.b.condbr(this.b.icmp('eq', count, cInt(T.i64, 0)), done, head); this.enter(head); }
    let i: Value = this.b.load(T.i64, ctr, 8);
    if (backwards) i = this.b.bin('add', i, cInt(T.i64, -1));
    body(i);
    const next = backwards ? i : this.b.bin('add', i, cInt(T.i64, 1));
    this.b.store(next, ctr, 8);
    this.b.condbr(this.b.icmp('ne', next, backwards ? cInt(T.i64, 0) : count), head, done);
    this.enter(done);
  }
  /** Destroy the members and bases of the object at addr (after its own destructor's body). */
  protected destroyParts(addr: Value, rec: RecordDecl): void {
    const fields = rec.fields.filter(f => needsDtor(f.ty));
    for (let i = fields.length - 1; i >= 0; i--) {
      const f = fields[i]!;
      const fa = f.offset === 0 ? addr : this.b.gep(T.i8, addr, [cInt(T.i64, f.offset)]);
      const a = arrayElems(f.ty);
      if (a) this.destroyArray(fa, a.rec, a.n);
      else this.destroy(fa, (f.ty as CType & { k: 'record' }).rec);
    }
    // empty bases take no field but may still have a destructor
    const empty = (rec.bases ?? []).filter(b => b.rec.fields.length === 0 && needsDtor({ k: 'record', rec: b.rec, q: 0 }));
    for (let i = empty.length - 1; i >= 0; i--) this.destroy(addr, empty[i]!.rec);
  }
  protected label(name: string): Block {
    let bl = this.labels.get(name);
    if (!bl) { bl = this.blk(name); this.labels.set(name, bl); }
    return bl;
  }
  protected generic(p: Value): Value {
    if (p.ty.k === 'ptr' && p.ty.as !== 0) {
      if (p.kind === 'global') return this.g.genericAddr(p);
      return this.b.cast('addrspacecast', p, T.ptr);
    }
    return p;
  }
}
