// IR generation from the typed AST: functions (allocas for locals, blocks for control flow),
// globals with constant-folded initialisers, string literals, builtins and inline asm.

import {
  type Module, type Func, type Global, type Value, type Const, type Block, type Type as IRType, type Inst, type InlineAsm,
  Builder, T, AS, cInt, cFP, cNull, cZero, cUndef, newFunc, newGlobal, declareFunc, funcTy, arrayTy, ptrTy, structTy, alignOf, sizeOf,
  type ICmpPred, type FCmpPred, type BinOp,
} from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { CompileOptions } from '../options';
import type { Expr, Stmt, Init, VarSym, FuncSym } from './ast';
import { type CType, type Field, type RecordDecl, C, Q, irType, sizeOfC, alignOfC, isSigned, isFloating, isIntegral, unqual, baseOffset } from './ctype';
import { evalConst } from './consteval';
import { mangleFunction, mangleVariable, mangleLocalStatic, mangleTypeName } from './mangle';
import { ownCopyCtor, classAllocFn } from './parser';
import { vinfoOf, isDynamic, isVirtual, isPure, isFinalFunction, slotOf, dtorSlot, finalOverrider, primaryChain, secondaryBases, overriderOnPath, type VSlot } from './virtuals';
import { lowerBuiltinCall, lowerBuiltinVar, type BuiltinCtx } from './builtins';
import { lowerCudartBuiltin } from './builtins-std';
import { lowerTexSurf } from './builtins-tex';
import type { Unit } from './unit';

const AS_OF: Record<VarSym['space'], number> = { device: AS.global, constant: AS.const, shared: AS.shared, managed: AS.global, none: AS.global };

export class ModuleGen {
  m: Module;
  private fns = new Map<FuncSym, Func>();
  private globals = new Map<VarSym, Global>();
  private strings = new Map<string, Global>();
  private strCount = 0;
  private localStaticCount = new Map<string, number>();
  queue: FuncSym[] = [];
  constructor(public u: Unit, public opts: CompileOptions, m: Module) { this.m = m; }

  // ------------------------------------------------------------------ functions
  /** IR signature: [this], [sret], params. */
  lowerSig(f: CType & { k: 'func' }, hasThis = false, kernel = false): { fnTy: IRType & { k: 'func' }; sret: boolean; params: { ty: IRType; byval?: IRType; align?: number; deref?: number }[] } {
    // Itanium, as cicc: a class that is not trivially copyable or destructible is returned through a hidden
    // pointer to the caller's object; any other class by value (the PTX `func_retval0[N]` bytes)
    const sret = f.ret.k === 'record' && byInvisibleRef(f.ret.rec);
    const params: { ty: IRType; byval?: IRType; align?: number; deref?: number }[] = [];
    if (hasThis) params.push({ ty: T.ptr });
    if (sret) params.push({ ty: T.ptr });
    for (const p of f.params) {
      // Itanium: an object of a class that is not trivially copyable or destructible is passed by invisible
      // reference to a caller-made copy, which the caller destroys
      if (p.k === 'record' && !kernel && byInvisibleRef(p.rec)) params.push({ ty: T.ptr });
      else if (p.k === 'record') params.push({ ty: T.ptr, byval: irType(p), align: alignOfC(p) });
      // a reference is bound to an object: its bytes may be read wherever the callee could read them
      else if (p.k === 'ref' && p.to.k !== 'func' && p.to.k !== 'void' && !(p.to.k === 'record' && !p.to.rec.complete) && !(p.to.k === 'array' && p.to.n === null)) params.push({ ty: irType(p), deref: sizeOfC(p.to) });
      else params.push({ ty: irType(p) });
    }
    const ret = sret ? T.void : irType(f.ret);
    return { fnTy: funcTy(ret, params.map(p => p.ty), f.variadic) as IRType & { k: 'func' }, sret, params };
  }
  func(f: FuncSym): Func {
    let fn = this.fns.get(f);
    if (fn) return fn;
    if (f.cls && f.bodyStart < 0) this.u.findOutOfLine(f);
    const hasThis = !!f.cls && !f.staticMember;
    const sig = this.lowerSig(f.ty, hasThis, f.isGlobal);
    const name = mangleFunction(f, this.opts.moduleId);
    const internal = f.isGlobal ? (f.isStatic || f.inAnon) : (f.isStatic || f.inAnon || !this.opts.rdc);
    fn = newFunc(name, sig.fnTy, f.bodyStart >= 0 && internal ? 'internal' : 'external');
    fn.isKernel = f.isGlobal;
    sig.params.forEach((p, i) => {
      const a = fn!.params[i]!;
      if (p.byval) { a.byval = p.byval; a.align = p.align; }
      if (p.deref) a.attrs.push(`dereferenceable(${p.deref})`);
      if (sig.sret && i === (hasThis ? 1 : 0)) { a.sret = irType(f.ty.ret); a.align = alignOfC(f.ty.ret); }
    });
    if (f.forceinline) fn.attrs.alwaysinline = true;
    if (f.noinline) fn.attrs.noinline = true;
    if (f.isGlobal && f.launchBounds) { fn.attrs.maxntid = f.launchBounds[0]; if (f.launchBounds[1] !== undefined) fn.attrs.minctasm = f.launchBounds[1]; }
    this.fns.set(f, fn);
    this.m.funcs.push(fn);
    if (f.bodyStart >= 0 && !f.deviceBuiltin) this.queue.push(f);
    return fn;
  }
  emitBody(f: FuncSym): void {
    const fn = this.func(f);
    if (!f.body) return;
    // __restrict__ pointer parameters are noalias (a kernel's read-only ones are loaded with ld.global.nc)
    const ps = f.params ?? [], off = fn.params.length - ps.length;
    ps.forEach((v, k) => {
      const a = fn.params[off + k];
      if (a && v.ty.k === 'ptr' && (v.ty.q & Q.Restrict) && !a.attrs.includes('noalias')) a.attrs.push('noalias');
    });
    new FnGen(this, f, fn).run(f.body);
  }

  // ------------------------------------------------------------------ virtual functions
  private vtables = new Map<RecordDecl, Global>();
  private dtorFns = new Map<RecordDecl, [Func, Func | null]>();
  /**
   * The vtable of a dynamic class, as cicc emits it: `{0, 0, slots...}` in .global (device code has no RTTI,
   * so the typeinfo word is 0; a pure virtual function's slot is 0 too).
   */
  vtable(rec: RecordDecl): Global {
    let g = this.vtables.get(rec);
    if (g) return g;
    const vi = vinfoOf(rec)!;
    const secs = secondaryBases(rec);
    const size = secs.reduce((n, b) => n + vinfoOf(b.rec)!.slots.length + 2, vi.slots.length + 2);
    // with secondary vtables the group holds negative offset-to-top words: an array of i64, as cicc's .u64
    const wide = secs.length > 0;
    const ty = arrayTy(size, wide ? T.i64 : T.ptr);
    const name = '_ZTV' + mangleTypeName({ k: 'record', rec, q: 0 }, this.opts.moduleId).slice(2);
    g = newGlobal(name, ty, AS.global, null, { linkage: 'linkonce_odr', isConstant: true, align: 8 });
    this.vtables.set(rec, g);
    this.m.globals.push(g);
    const word = (c: Const): Const => (wide ? (c.kind === 'null' ? cInt(T.i64, 0) : { kind: 'cexpr', ty: T.i64, op: 'ptrtoint', base: c } as Const) : c);
    const slotFn = (s: VSlot, owner: RecordDecl): Func | null => {
      if (s.k === 'dtor') return this.dtorFunc(owner, s.deleting);
      if (isPure(s.f)) return null;
      if (!s.f.isDevice) throw new Unsupported(`host virtual function ${s.f.name} in the vtable of ${rec.name}`);
      const fn = this.func(s.f);
      if (s.f.bodyStart < 0 && !s.f.body && !s.f.defaulted) throw new Unsupported(`virtual function ${s.f.name} of ${rec.name} without a definition`);
      return fn;
    };
    const elems: Const[] = [word(cNull()), word(cNull())];
    for (const s of vi.slots) { const fn = slotFn(s, rec); elems.push(word(fn ? this.genericAddr(fn) : cNull())); }
    for (const sec of secs) {
      elems.push(cInt(T.i64, -sec.off), cInt(T.i64, 0));
      const offs = sec.path.map(r => sec.off - baseOffset(r, sec.rec));
      for (const s of vinfoOf(sec.rec)!.slots) {
        // the final overrider in rec, and how far `this` moves from the secondary subobject to it
        const ov = s.k === 'dtor' ? { slot: s, off: 0 } : (() => { const o = overriderOnPath(s.f, sec.path, offs); return { slot: { k: 'fn', f: o.f } as VSlot, off: o.off }; })();
        const owner = s.k === 'dtor' ? rec : (ov.slot as { f: FuncSym }).f.cls!;
        const fn = slotFn(ov.slot, owner);
        elems.push(word(fn ? this.genericAddr(ov.off === sec.off ? fn : this.thunk(fn, sec.off - ov.off)) : cNull()));
      }
    }
    g.init = { kind: 'agg', ty, elems };
    return g;
  }
  /** Address-point offsets (bytes) of rec's vptrs: [subobject offset, offset in the vtable group] for each vptr. */
  vptrPoints(rec: RecordDecl): [number, number][] {
    const out: [number, number][] = [[0, 16]];
    let at = vinfoOf(rec)!.slots.length + 2;
    for (const sec of secondaryBases(rec)) { out.push([sec.off, 8 * at + 16]); at += vinfoOf(sec.rec)!.slots.length + 2; }
    return out;
  }
  private thunks = new Map<string, Func>();
  /** `_ZThn<delta>_<f>`: moves `this` back by delta bytes (a secondary base to the overrider's class), then calls f. */
  private thunk(f: Func, delta: number): Func {
    const name = `_ZThn${delta}_${f.name.slice(2)}`;
    let t = this.thunks.get(name);
    if (t) return t;
    t = newFunc(name, f.fnTy, f.linkage);
    this.thunks.set(name, t);
    this.m.funcs.push(t);
    const b = new Builder(t);
    b.setBlock(b.newBlock('entry'));
    t.params.forEach((p, i) => { p.name = i === 0 ? 'this' : `a${i}`; p.byval = f.params[i]!.byval; p.sret = f.params[i]!.sret; p.align = f.params[i]!.align; });
    const self = b.gep(T.i8, t.params[0]!, [cInt(T.i64, -delta)]);
    const r = b.call(f, f.fnTy, [self, ...t.params.slice(1)]);
    if (f.fnTy.ret.k === 'void') b.ret(); else b.ret(r);
    return t;
  }
  /**
   * The complete-object destructor (D1) of a dynamic class: sets the vptr, runs the body, destroys members
   * and bases. Its deleting destructor (D0, in the vtable) is D1 then free() (device operator delete).
   */
  dtorFunc(rec: RecordDecl, deleting: boolean): Func {
    let pair = this.dtorFns.get(rec);
    if (!pair) {
      let sym = (rec.methods ?? []).find(m => m.dtor);
      let fn = sym ? this.func(sym) : null;
      if (sym && sym.bodyStart < 0 && !sym.body && !sym.defaulted) throw new Unsupported(`destructor of ${rec.name} without a definition`);
      if (!sym || (sym.bodyStart < 0 && !sym.body)) {
        // implicit or defaulted: we write the body
        sym ??= {
          kind: 'func', name: '~' + rec.name, ty: { k: 'func', ret: C.void, params: [], variadic: false, q: 0 } as CType & { k: 'func' },
          scope: [...rec.scope], paramNames: [], defaults: [], isGlobal: false, isDevice: true, isHost: true, deviceBuiltin: false,
          isStatic: false, inAnon: rec.scope.includes('(anonymous)'), externC: false, isInline: true, forceinline: false, noinline: false,
          bodyStart: -1, bodyEnd: -1, pos: 0, file: '', id: -1, cls: rec, thisQ: 0, dtor: true,
        };
        fn ??= this.func(sym);
        pair = [fn, null];
        this.dtorFns.set(rec, pair);
        new FnGen(this, sym, fn).implicitDtor(rec);
      } else {
        pair = [fn!, null];
        this.dtorFns.set(rec, pair);
      }
    }
    if (!deleting) return pair[0];
    if (pair[1]) return pair[1];
    const d1 = pair[0];
    const d0 = newFunc(d1.name.replace(/D1Ev$/, 'D0Ev'), funcTy(T.void, [T.ptr]) as IRType & { k: 'func' }, d1.linkage);
    pair[1] = d0;
    this.m.funcs.push(d0);
    const b = new Builder(d0);
    b.setBlock(b.newBlock('entry'));
    d0.params[0]!.name = 'this';
    b.call(d1, d1.fnTy, [d0.params[0]!]);
    // the class's own operator delete when it declares one (looked up from the class, as a delete-expression would)
    const own = classAllocFn(rec, 'operator delete', 1);
    const free = own ? this.func(own) : declareFunc(this.m, 'free', funcTy(T.void, [T.ptr]) as IRType & { k: 'func' });
    b.call(free, free.fnTy, [d0.params[0]!]);
    b.ret();
    return d0;
  }

  // ------------------------------------------------------------------ globals
  global(v: VarSym): Global {
    let g = this.globals.get(v);
    if (g) return g;
    if ((v as VarSym & { unevaluatedOnly?: boolean }).unevaluatedOnly) throw new Unsupported(`${v.name} used outside an unevaluated operand`);
    const as = AS_OF[v.space];
    let name: string;
    if (v.storage === 'static-local') {
      const owner = (v as VarSym & { owner?: FuncSym | null }).owner ?? null;
      const base = owner ? mangleLocalStatic(owner, v.name, this.opts.moduleId, 0) : v.name;
      const n = this.localStaticCount.get(base) ?? 0;
      this.localStaticCount.set(base, n + 1);
      name = v.isExtern ? v.name : n === 0 ? base : mangleLocalStatic(owner, v.name, this.opts.moduleId, n);
    } else name = mangleVariable(v, this.opts.moduleId);
    let vt = irType(v.ty);
    const align = Math.max((v as VarSym & { align?: number }).align ?? 0, alignOfC(v.ty));
    if (v.space === 'shared' && v.isExtern) {
      vt = arrayTy(0, irType(v.ty.k === 'array' ? v.ty.elem : v.ty));
      g = newGlobal(name, vt, AS.shared, null, { linkage: 'external', align: Math.max(align, 16) });
    } else if (v.space === 'shared') {
      g = newGlobal(name, vt, AS.shared, cUndef(vt), { linkage: 'internal', align });
    } else if (v.isExtern) {
      g = newGlobal(name, vt, as, null, { linkage: 'external', align });
    } else {
      const init = v.init ? this.constInit(v.init, v.ty) : cZero(vt);
      const internal = v.isStatic || v.storage === 'static-local';
      g = newGlobal(name, vt, as, init, { linkage: internal ? 'internal' : 'external', align, externallyInitialized: !internal && (v.space === 'device' || v.space === 'constant' || v.space === 'managed') });
      if (v.space === 'none') { g.isConstant = true; g.linkage = 'internal'; g.addrSpace = AS.const; (g as { ty: IRType }).ty = ptrTy(AS.const); }
      // a const __device__ object is never written by device code (as cicc: its loads may use the read-only cache)
      else if (v.space === 'device' && constObject(v.ty)) g.isConstant = true;
    }
    if (v.space === 'managed') g.managed = true;
    this.globals.set(v, g);
    this.m.globals.push(g);
    return g;
  }
  string(bytes: Uint8Array): Global {
    const key = Buffer.from(bytes).toString('latin1');
    let g = this.strings.get(key);
    if (g) return g;
    const name = this.strCount === 0 ? '$str' : `$str.${this.strCount}`;
    this.strCount++;
    const ty = arrayTy(bytes.length, T.i8);
    g = newGlobal(name, ty, AS.global, { kind: 'bytes', ty, bytes }, { linkage: 'private', isConstant: true, align: 1, unnamedAddr: true });
    this.strings.set(key, g);
    this.m.globals.push(g);
    return g;
  }
  /** Generic-address constant of a global. */
  genericAddr(g: Global | Func): Const {
    if (g.kind === 'func' || g.addrSpace === 0) return { kind: 'cexpr', ty: T.ptr, op: 'bitcast', base: g } as Const;
    return { kind: 'cexpr', ty: T.ptr, op: 'addrspacecast', base: g };
  }

  // ------------------------------------------------------------------ constant initialisers
  constInit(init: Init, ty: CType): Const {
    const it = irType(ty);
    if (init.k === 'zero') return cZero(it);
    if (init.k === 'ctor') throw new Unsupported('dynamic initialization of a device variable (constructor)');
    if (init.k === 'expr') {
      const e = init.e;
      if (ty.k === 'array' && e.k === 'str') {
        const bytes = new Uint8Array(ty.n ?? e.bytes.length);
        bytes.set(e.bytes.subarray(0, bytes.length));
        return { kind: 'bytes', ty: it, bytes };
      }
      // an object of an empty class (CCCL's customization point objects, `__device__ constexpr auto begin = __fn{};`):
      // a constant initialiser has nothing to store
      if (ty.k === 'record' && emptyClass(ty.rec)) return cZero(it);
      if (ty.k === 'record') throw new Unsupported('struct copy in a global initializer');
      if (ty.k === 'ref') throw new Unsupported('a reference in a global initializer');
      return this.constScalar(e, ty);
    }
    // list
    if (ty.k === 'array') {
      const n = ty.n ?? init.items.length;
      const et = irType(ty.elem);
      const elems: Const[] = [];
      for (let i = 0; i < n; i++) {
        const item = init.items.find(x => x.path[0] === i);
        elems.push(item ? this.constInit(item.init, ty.elem) : cZero(et));
      }
      if (elems.every(e => e.kind === 'zero')) return cZero(it);
      return { kind: 'agg', ty: it, elems };
    }
    if (ty.k === 'record') {
      const rec = ty.rec;
      const st = it as IRType & { k: 'struct' };
      const elems: Const[] = st.fields.map(f => cZero(f));
      for (const item of init.items) {
        const f = rec.fields[item.path[0]!]!;
        if (f.irIndex < 0) throw new Unsupported('union initializer of a non-leading member');
        elems[f.irIndex] = this.constInit(item.init, f.ty);
      }
      if (elems.every(e => e.kind === 'zero')) return cZero(it);
      return { kind: 'agg', ty: it, elems };
    }
    return cZero(it);
  }
  /** Constant generic address of a static-storage lvalue (global, element, member), or null. */
  private constAddr(e: Expr): Const | null {
    if (e.k === 'var' && e.sym.storage !== 'local' && e.sym.storage !== 'param') return this.genericAddr(this.global(e.sym));
    if (e.k === 'str') return this.genericAddr(this.string(e.bytes));
    if (e.k === 'index' && e.base.k === 'cast' && e.base.ck === 'decay') {
      const b = this.constAddr(e.base.e); const i = evalConst(e.idx, this.u.consts);
      if (b && typeof i === 'bigint') return this.offsetConst(b, i * BigInt(sizeOfC(e.ty)));
    }
    if (e.k === 'member' && !e.arrow) { const b = this.constAddr(e.e); if (b) return this.offsetConst(b, BigInt(e.field.offset)); }
    return null;
  }
  private offsetConst(base: Const, off: bigint): Const {
    if (off === 0n) return base;
    // gep on the global in its own address space, then the cast to generic
    if (base.kind === 'cexpr' && base.op === 'addrspacecast' && base.base.kind === 'global') {
      const g = base.base;
      const gep: Const = { kind: 'cexpr', ty: g.ty, op: 'gep', base: g, srcTy: T.i8, indices: [cInt(T.i64, off)] };
      return { kind: 'cexpr', ty: T.ptr, op: 'addrspacecast', base: gep };
    }
    return { kind: 'cexpr', ty: T.ptr, op: 'gep', base, srcTy: T.i8, indices: [cInt(T.i64, off)] };
  }
  constScalar(e: Expr, ty: CType): Const {
    const it = irType(ty);
    const v = evalConst(e, this.u.consts);
    if (v !== null) {
      if (isFloating(ty)) return cFP(it, Number(v));
      if (ty.k === 'ptr') { if (v === 0n) return cNull(); throw new Unsupported('integer-to-pointer constant'); }
      return cInt(it, typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));
    }
    // address constants
    let x = e;
    while (x.k === 'cast' && (x.ck === 'p2p' || x.ck === 'noop' || x.ck === 'decay' || x.ck === 'fdecay')) {
      if (x.ck === 'decay' || x.ck === 'fdecay') break;
      x = x.e;
    }
    if (x.k === 'cast' && x.ck === 'null') return cNull();
    if (x.k === 'cast' && x.ck === 'decay' && x.e.k === 'str') return this.genericAddr(this.string(x.e.bytes));
    if (x.k === 'cast' && x.ck === 'decay' && x.e.k === 'var' && x.e.sym.storage !== 'local') return this.genericAddr(this.global(x.e.sym));
    if (x.k === 'addr') { const c = this.constAddr(x.e); if (c) return c; }
    if (x.k === 'ptradd' && x.p.k === 'cast' && x.p.ck === 'decay') {
      const i = evalConst(x.i, this.u.consts);
      const base = this.constAddr(x.p.e);
      const el = x.ty.k === 'ptr' ? x.ty.to : C.char;
      if (base && typeof i === 'bigint') return this.offsetConst(base, (x.neg ? -i : i) * BigInt(sizeOfC(el)));
    }
    if (x.k === 'cast' && x.ck === 'fdecay' && x.e.k === 'func') return this.genericAddr(this.func(x.e.sym));
    throw new Unsupported('non-constant global initializer');
  }
}

interface Loop { brk: Block; cont: Block | null; depth: number }

/** A const-qualified object type (an array of const elements too). */
const constObject = (t: CType): boolean => (t.k === 'array' ? constObject(t.elem) : (t.q & Q.Const) !== 0);

const isBitfield = (e: Expr): boolean => e.k === 'member' && (e.field as Field).bits !== undefined;

/** The user-provided destructor of a class that does something (not `= default`, not `{}`). */
function userDtor(rec: RecordDecl): FuncSym | undefined {
  return (rec.methods ?? []).find(m => m.dtor && !m.defaulted && !(m.bodyStart >= 0 && m.bodyEnd === m.bodyStart + 1));
}
const dtorMemo = new WeakMap<RecordDecl, boolean>();
/** An array of class objects (any depth): its class and total element count. */
function arrayElems(t: CType): { rec: RecordDecl; n: number } | null {
  if (t.k !== 'array') return null;
  let n = 1, e: CType = t;
  while (e.k === 'array') { if (e.n === null) throw new Unsupported('array of unknown size of objects with destructors'); n *= e.n; e = e.elem; }
  return e.k === 'record' ? { rec: e.rec, n } : null;
}
/** Passed by invisible reference (not byval): a user copy constructor, a destructor to run, or a vptr. */
function byInvisibleRef(rec: RecordDecl): boolean {
  return ownCopyCtor(rec) || needsDtor({ k: 'record', rec, q: 0 }) || isDynamic(rec);
}
/** Itanium array cookie size of new T[n]: the count, padded to T's alignment, when T is not trivially destructible. */
function arrayCookie(t: CType): number {
  return nonTrivialDtor(t) ? Math.max(8, alignOfC(t)) : 0;
}
/** A destructor that is not trivial in the language's sense (user-provided or virtual, or a member's or base's). */
function nonTrivialDtor(t: CType): boolean {
  if (t.k === 'array') return nonTrivialDtor(t.elem);
  if (t.k !== 'record') return false;
  if ((t.rec.methods ?? []).some(m => m.dtor && (!m.defaulted || isVirtual(m)))) return true;
  return t.rec.fields.some(f => nonTrivialDtor(f.ty)) || (t.rec.bases ?? []).some(b => nonTrivialDtor({ k: 'record', rec: b.rec, q: 0 }));
}
/** Do objects of this type need destructor calls (a non-trivial destructor of the class, its members or bases)? */
export function needsDtor(t: CType): boolean {
  if (t.k === 'array') return needsDtor(t.elem);
  if (t.k !== 'record') return false;
  let r = dtorMemo.get(t.rec);
  if (r === undefined) {
    dtorMemo.set(t.rec, false);
    r = !!userDtor(t.rec) || t.rec.fields.some(f => needsDtor(f.ty)) || (t.rec.bases ?? []).some(b => needsDtor({ k: 'record', rec: b.rec, q: 0 }));
    dtorMemo.set(t.rec, r);
  }
  return r;
}

class FnGen {
  b: Builder;
  locals = new Map<VarSym, Value>();
  private loops: Loop[] = [];
  private caseBlocks = new Map<number, Block>();
  private labels = new Map<string, Block>();
  private retSlot: Value | null = null;
  private sret: Value | null = null;
  private retBlock: Block | null = null;
  private names = new Map<string, number>();
  /** Local objects whose destructors run at scope exit, innermost last. */
  private cleanups: { addr: Value; rec: RecordDecl; n?: number }[] = [];
  /** Temporaries with destructors of the full-expressions being evaluated, in order of construction. */
  private temps: { addr: Value; rec: RecordDecl; flag?: Value }[] = [];
  private fullDepth = 0;
  /** Where each full-expression being evaluated starts (a conditional temporary's flag is cleared there). */
  private fullStarts: { block: Block; after: Inst | null }[] = [];
  private fullStart(): { block: Block; after: Inst | null } { const bl = this.b.block!; return { block: bl, after: bl.insts[bl.insts.length - 1] ?? null }; }
  /** Inside a branch of ?:, && or ||: a temporary there might not be constructed. */
  private condDepth = 0;
  ctx: BuiltinCtx;

  constructor(private g: ModuleGen, private f: FuncSym, private fn: Func) {
    this.b = new Builder(fn);
    this.ctx = { b: this.b, m: g.m, opts: g.opts };
  }
  private blk(base: string): Block {
    const n = this.names.get(base) ?? 0;
    this.names.set(base, n + 1);
    return this.b.detachedBlock(n === 0 ? base : `${base}${n}`);
  }
  /** Continue emitting in block `bl` (falling through from the current block if it is open). */
  private enter(bl: Block): void {
    if (!this.b.terminated()) this.b.br(bl);
    this.b.placeBlock(bl);
    this.b.setBlock(bl);
  }
  /** After a terminator: a fresh (unreachable) block for any following code. */
  private ensureOpen(): void {
    if (this.b.terminated()) { const d = this.blk('dead'); this.b.placeBlock(d); this.b.setBlock(d); }
  }

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

  /** Evaluate a full-expression: its temporaries are destroyed at its end, last constructed first. */
  private full<R>(fn: () => R): R {
    const mark = this.temps.length;
    this.fullDepth++;
    this.fullStarts.push(this.fullStart());
    let r: R;
    try { r = fn(); } finally { this.fullDepth--; this.fullStarts.pop(); }
    this.endTemps(mark);
    return r;
  }
  private endTemps(mark: number): void {
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
  private tempMade(slot: Value, ty: CType): void {
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
  /** A dynamic class's constructor: the vptr is set once the bases are constructed, before the members. */
  private ctorBody(body: Stmt, rec: RecordDecl): void {
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
  /** *addr's vptr = the address point of rec's vtable (past its offset-to-top and typeinfo words). */
  private storeVptr(addr: Value, rec: RecordDecl): void {
    const g = this.g.genericAddr(this.g.vtable(rec));
    for (const [off, point] of this.g.vptrPoints(rec)) {
      const vt = this.b.gep(T.i8, g, [cInt(T.i64, point)]);
      this.b.store(vt, off === 0 ? this.generic(addr) : this.b.gep(T.i8, this.generic(addr), [cInt(T.i64, off)]), 8);
    }
  }

  // ------------------------------------------------------------------ statements
  /** -lineinfo: the instructions generated from here on come from the token at `pos`. */
  private at(pos: number): void { if (this.g.opts.lineInfo && pos >= 0) this.b.loc = this.g.u.locOf(pos); }

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
  private jump(bl: Block): void { if (!this.b.terminated()) this.b.br(bl); }
  /** The address of the object holding a bitfield member. */
  private bitsBase(e: Expr & { k: 'member' }): Value { return e.arrow ? this.rv(e.e) : this.addr(e.e); }
  private unitAddr(base: Value, f: Field): Value { return f.offset === 0 ? base : this.b.gep(T.i8, base, [cInt(T.i64, f.offset)]); }
  /** The value of a bitfield: its bits of the storage unit, sign-extended for a signed type. */
  private loadBits(e: Expr): Value {
    const m = e as Expr & { k: 'member' };
    const f = m.field, t = unqual(f.ty);
    const unit = this.b.load(irType(t), this.unitAddr(this.bitsBase(m), f), alignOfC(t), (e.ty.q & Q.Volatile) !== 0);
    return this.extractBits(unit, f, t);
  }
  private extractBits(unit: Value, f: Field, t: CType): Value {
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
  private storeBits(e: Expr, v: Value): Value {
    const m = e as Expr & { k: 'member' };
    return this.storeBitsAt(this.bitsBase(m), m.field, v, (e.ty.q & Q.Volatile) !== 0);
  }
  private storeBitsAt(base: Value, f: Field, v: Value, vol: boolean): Value {
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
  /** Leaving a scope normally: destroy its objects (in reverse order of construction) and forget them. */
  private endScope(mark: number): void {
    if (!this.b.terminated()) this.runCleanups(mark);
    this.cleanups.length = mark;
  }
  /** Destructor calls for the live objects above `depth` (a jump out of their scopes). */
  private runCleanups(depth: number): void {
    for (let i = this.cleanups.length - 1; i >= depth; i--) {
      if (this.b.terminated()) return;
      const c = this.cleanups[i]!;
      if (c.n !== undefined) this.destroyArray(c.addr, c.rec, c.n); else this.destroy(c.addr, c.rec);
    }
  }
  /** The destructor of the object at addr: the class's own, then its members' and bases' (reverse order). */
  private destroy(addr: Value, rec: RecordDecl): void {
    if (isDynamic(rec)) { const d1 = this.g.dtorFunc(rec, false); this.b.call(d1, d1.fnTy, [this.generic(addr)]); return; }
    const d = userDtor(rec);
    if (d) this.construct(addr, d, []);
    this.destroyParts(addr, rec);
  }
  /** Destroy n objects of class rec stored one after another at addr, last first. */
  private destroyArray(addr: Value, rec: RecordDecl, n: number): void {
    this.loopDyn(n, true, i => this.destroy(this.b.gep(T.i8, addr, [this.b.bin('mul', i, cInt(T.i64, sizeOfC({ k: 'record', rec, q: 0 })))]), rec));
  }
  /** `new T(...)` / `new T[n]`: malloc (device operator new, never null to the caller), the cookie, the objects. */
  private heapNew(e: Expr & { k: 'new' }): Value {
    const et = e.elem, sz = sizeOfC(et);
    const malloc = e.alloc ? this.g.func(e.alloc) : declareFunc(this.g.m, 'malloc', funcTy(T.ptr, [T.i64]) as IRType & { k: 'func' });
    if (!e.count) {
      const p = this.b.call(malloc, malloc.fnTy, [cInt(T.i64, Math.max(sz, 1))]);
      if (e.init) this.initInto(p, e.init, et);
      return p;
    }
    const cookie = arrayCookie(et);
    const n = this.rv(e.count);
    let bytes = this.b.bin('mul', n, cInt(T.i64, sz));
    if (cookie) bytes = this.b.bin('add', bytes, cInt(T.i64, cookie));
    const base = this.b.call(malloc, malloc.fnTy, [bytes]);
    let arr = base;
    if (cookie) {
      this.b.store(n, cookie === 8 ? base : this.b.gep(T.i8, base, [cInt(T.i64, cookie - 8)]), 8);
      arr = this.b.gep(T.i8, base, [cInt(T.i64, cookie)]);
    }
    const init = e.init;
    if (init) this.loopDyn(n, false, i => this.initInto(this.b.gep(T.i8, arr, [this.b.bin('mul', i, cInt(T.i64, sz))]), init, et));
    return arr;
  }
  /** `delete p` / `delete[] p`: nothing for null; else the destructor(s) then free (D0 through the vtable for a virtual destructor). */
  private heapDelete(e: Expr & { k: 'delete' }): void {
    const p = this.generic(this.rv(e.e));
    const et = (e.e.ty as CType & { k: 'ptr' }).to;
    const rec = et.k === 'record' ? et.rec : null;
    const own = rec ? classAllocFn(rec, e.array ? 'operator delete[]' : 'operator delete', 1) : undefined;
    const free = own ? this.g.func(own) : declareFunc(this.g.m, 'free', funcTy(T.void, [T.ptr]) as IRType & { k: 'func' });
    const live = this.blk('del.notnull'), done = this.blk('del.end');
    this.b.condbr(this.b.icmp('ne', p, cNull()), live, done);
    this.enter(live);
    if (!e.array) {
      const slot = rec ? dtorSlot(rec) : -1;
      if (rec && slot >= 0 && !vinfoOf(rec)!.final) {
        const vptr = this.b.load(T.ptr, p, 8);
        const fp = this.b.load(T.ptr, this.b.gep(T.i8, vptr, [cInt(T.i64, 8 * (slot + 1))]), 8);
        this.b.call(fp, funcTy(T.void, [T.ptr]) as IRType & { k: 'func' }, [p]);
      } else {
        if (rec && (needsDtor(et) || isDynamic(rec))) this.destroy(p, rec);
        this.b.call(free, free.fnTy, [p]);
      }
    } else {
      const cookie = arrayCookie(et);
      if (cookie && rec) {
        const n = this.b.load(T.i64, this.b.gep(T.i8, p, [cInt(T.i64, -8)]), 8);
        const sz = sizeOfC(et);
        if (needsDtor(et) || isDynamic(rec)) this.loopDyn(n, true, i => this.destroy(this.b.gep(T.i8, p, [this.b.bin('mul', i, cInt(T.i64, sz))]), rec));
        this.b.call(free, free.fnTy, [this.b.gep(T.i8, p, [cInt(T.i64, -cookie)])]);
      } else this.b.call(free, free.fnTy, [p]);
    }
    this.enter(done);
  }
  /**
   * A loop over element indices 0..n-1 (i64), forwards or backwards; nothing when n is 0. With a constant
   * n, a few elements are straight-line code (what unrolling would make of the loop) and no test guards it.
   */
  private loopDyn(n: Value | number, backwards: boolean, body: (i: Value) => void): void {
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
  private destroyParts(addr: Value, rec: RecordDecl): void {
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
  private label(name: string): Block {
    let bl = this.labels.get(name);
    if (!bl) { bl = this.blk(name); this.labels.set(name, bl); }
    return bl;
  }
  private decl(v: VarSym, init: Init | null): void {
    const mark = this.temps.length;
    this.fullDepth++;
    this.fullStarts.push(this.fullStart());
    try { this.declInner(v, init, mark); } finally { this.fullDepth--; this.fullStarts.pop(); }
    this.endTemps(mark);
  }
  private declInner(v: VarSym, init: Init | null, mark: number): void {
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
  /** Run constructor `ctor` on the object at addr. */
  private construct(addr: Value, ctor: FuncSym, args: Expr[]): void {
    const call = { k: 'call', f: ctor, callee: null, args, ty: C.void, lv: false, pos: ctor.pos, thisPtr: { k: 'raw', v: addr } } as unknown as Expr & { k: 'call' };
    this.call(call);
  }
  private initInto(addr: Value, init: Init, ty: CType): void {
    const each = (init as { each?: Init }).each;
    if (each && ty.k === 'array' && ty.n !== null) {
      // default initialisation of an array of class objects: each element in order
      const et = ty.elem;
      this.loopDyn(ty.n, false, i => this.initInto(this.b.gep(T.i8, addr, [this.b.bin('mul', i, cInt(T.i64, sizeOfC(et)))]), each, et));
      return;
    }
    if (init.k === 'zero') { this.b.store(cZero(irType(ty)), addr, alignOfC(ty)); if (ty.k === 'record' && isDynamic(ty.rec)) this.storeVptr(addr, ty.rec); return; }
    if (init.k === 'ctor') { this.construct(addr, init.f, init.args); return; }
    if (init.k === 'expr') {
      const e = init.e;
      // a reference member (or element of an aggregate): its slot holds the address it is bound to
      if (ty.k === 'ref') { this.b.store(this.generic(this.addr(e)), addr, 8); return; }
      if (ty.k === 'array' && e.k === 'str') {
        const bytes = new Uint8Array(ty.n ?? e.bytes.length); bytes.set(e.bytes.subarray(0, bytes.length));
        this.b.store({ kind: 'bytes', ty: irType(ty), bytes }, addr, alignOfC(ty));
        return;
      }
      if (ty.k === 'record' && needsDtor(ty) && !e.lv) {
        // a class prvalue initialises the object directly (no temporary to destroy)
        if (e.k === 'construct') { this.construct(addr, e.ctor, e.args); return; }
        if (e.k === 'temp') { this.initInto(addr, e.init, ty); return; }
        if (e.k === 'call') { this.call(e, addr); return; }
      }
      if (ty.k === 'record') { this.copyRecord(addr, this.addr(e), ty); return; }
      this.b.store(this.rv(e), addr, alignOfC(ty), (ty.q & Q.Volatile) !== 0);
      return;
    }
    if (!(init as { partial?: boolean }).partial) this.b.store(cZero(irType(ty)), addr, alignOfC(ty));
    for (const item of init.items) {
      const fld = ty.k === 'record' ? ty.rec.fields[item.path[0]!] : undefined;
      if (fld && fld.bits !== undefined) {
        // a bitfield's initialiser goes into its bits of the (already zeroed or copied) storage unit
        if (item.init.k !== 'expr' && item.init.k !== 'zero') throw new Unsupported('bitfield initialiser');
        const v = item.init.k === 'expr' ? this.rv(item.init.e) : cInt(irType(unqual(fld.ty)), 0);
        this.storeBitsAt(addr, fld, v, false);
        continue;
      }
      const ety = ty.k === 'array' ? ty.elem : ty.k === 'record' ? ty.rec.fields[item.path[0]!]!.ty : ty;
      const p = item.off === 0 ? addr : this.b.gep(T.i8, addr, [cInt(T.i64, item.off)]);
      this.initInto(p, item.init, ety);
    }
    // the implicit default constructor of a dynamic class: bases first (they set their vptrs), then its own
    if (ty.k === 'record' && isDynamic(ty.rec)) this.storeVptr(addr, ty.rec);
  }
  /**
   * Copy a class object. A dynamic class's implicit copy constructor gives the new object its own class's
   * vptr (a copy from a derived object slices); its copy assignment leaves the target's vptr alone.
   */
  copyRecord(dst: Value, src: Value, ty: CType, assign = false): void {
    const memcpy = declareFunc(this.g.m, 'llvm.memcpy.p0.p0.i64', funcTy(T.void, [T.ptr, T.ptr, T.i64, T.i1]) as IRType & { k: 'func' });
    let d = dst.ty.k === 'ptr' && dst.ty.as !== 0 ? this.b.cast('addrspacecast', dst, T.ptr) : dst;
    let s = src.ty.k === 'ptr' && src.ty.as !== 0 ? this.b.cast('addrspacecast', src, T.ptr) : src;
    const dyn = ty.k === 'record' && isDynamic(ty.rec) ? ty.rec : null;
    let size = sizeOfC(ty);
    if (dyn && assign) { d = this.b.gep(T.i8, d, [cInt(T.i64, 8)]); s = this.b.gep(T.i8, s, [cInt(T.i64, 8)]); size -= 8; }
    // both sides are objects of this type: their alignment lets SROA copy small ones as one integer
    if (size > 0) this.b.call(memcpy, memcpy.fnTy, [d, s, cInt(T.i64, size), cInt(T.i1, (ty.q & Q.Volatile) ? 1 : 0)]).align = alignOfC(ty);
    if (dyn && !assign) this.storeVptr(d, dyn);
  }

  // ------------------------------------------------------------------ expressions
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
  private toBool(v: Value, ty: CType): Value {
    if (ty.k === 'ptr' || ty.k === 'nullptr') return this.b.icmp('ne', v, cNull());
    if (isFloating(ty)) return this.b.fcmp('une', v, cFP(v.ty, 0));
    return this.b.icmp('ne', v, cInt(v.ty, 0));
  }
  private logical(op: string, a: Expr, b: Expr): Value {
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
  private compare(op: string, a: Expr, b: Expr): Value {
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
  private boolVal(c: Value): Value { return this.b.cast('zext', c, T.i8); }

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
  private generic(p: Value): Value {
    if (p.ty.k === 'ptr' && p.ty.as !== 0) {
      if (p.kind === 'global') return this.g.genericAddr(p);
      return this.b.cast('addrspacecast', p, T.ptr);
    }
    return p;
  }
  private castExpr(e: Expr & { k: 'cast' }): Value | undefined {
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
  private ptrAdd(p: Value, pty: CType, i: Expr, neg: boolean): Value {
    const elem = pty.k === 'ptr' ? pty.to : C.char;
    let idx = this.rv(i);
    idx = this.arith(idx, i.ty, isSigned(i.ty) || i.ty.k === 'bool' ? C.long : C.ulong);
    if (neg) idx = idx.kind === 'int' ? cInt(T.i64, -idx.value) : this.b.bin('sub', cInt(T.i64, 0), idx);
    const et = elem.k === 'void' || elem.k === 'func' ? T.i8 : irType(elem);
    return this.b.gep(et, p, [idx]);
  }
  private binary(e: Expr & { k: 'bin' }): Value {
    const op = e.op;
    if (op === '&&' || op === '||' || ['<', '>', '<=', '>=', '==', '!='].includes(op)) return this.boolVal(this.cond(e));
    return this.arithOp(op, this.rv(e.a), this.rv(e.b), e.ty, e.b.ty);
  }
  private arithOp(op: string, a: Value, b: Value, ty: CType, bty: CType): Value {
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
  private compound(e: Expr & { k: 'cassign' }): { v: Value; p: Value } {
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
  private incdec(e: Expr & { k: 'incdec' }): Value {
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

  // ------------------------------------------------------------------ lvalues
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
  private addrOrTemp(e: Expr): Value { return e.lv || e.ty.k === 'record' ? this.generic(this.addr(e)) : this.temp(e); }
  private temp(e: Expr): Value {
    if (e.ty.k === 'record') throw new Unsupported(`record temporary of ${e.k}`);
    const slot = this.b.alloca(irType(e.ty), alignOfC(e.ty), 'tmp');
    this.b.store(this.rv(e), slot, alignOfC(e.ty));
    return slot;
  }

  // ------------------------------------------------------------------ calls
  private call(e: Expr & { k: 'call' }, sretSlot?: Value): Value | undefined {
    const dtorOf = (e as { dtorOf?: RecordDecl }).dtorOf;
    if (dtorOf) { this.explicitDtor(e, dtorOf); return undefined; }
    const f = e.f;
    const texOp = (e as { texOp?: string }).texOp;
    if (texOp !== undefined) { lowerTexSurf(this.ctx, texOp, e.args.map(a => a.ty), e.args.map(a => this.rv(a))); return undefined; }
    if (f && f.deviceBuiltin) return this.builtinCall(f, e.args, e.ty);
    // the bodiless `__nv_*_impl` helpers the CUDA headers declare without device_builtin (cicc knows them):
    // lowered by builtins.ts, or a fallback naming the builtin
    if (f && f.bodyStart < 0 && !f.cls && f.scope.length === 0 && /^__nv_\w+_impl$/.test(f.name) && !this.g.u.isUserFile(f.pos)) return this.builtinCall(f, e.args, e.ty);
    // (and the pipeline headers' extern "C" shared-window address, declared inside their namespaces)
    if (f && f.bodyStart < 0 && !f.cls && f.externC && f.name === '__nvvm_get_smem_pointer' && !this.g.u.isUserFile(f.pos)) return this.builtinCall(f, e.args, e.ty);
    if (f && (f as FuncSym & { cudartBuiltin?: boolean }).cudartBuiltin && !(f.bodyStart >= 0 && (f as FuncSym & { bodyIsDevice?: boolean }).bodyIsDevice) && !e.thisPtr && f.ty.params.every(p => p.k !== 'record' && p.k !== 'ref') && f.ty.ret.k !== 'record') {
      // a cudart_builtin (e.g. std::abs(long long) redeclared __host__ __device__ by the CUDA headers): the
      // compiler provides the device side; the body, if any, is the host library's
      const vals = e.args.map(a => this.rv(a));
      const rt = irType(e.ty);
      const r = lowerCudartBuiltin(this.ctx, f.name, f.ty.params, vals, e.ty.k === 'void' ? T.void : rt, e.ty.k === 'bool');
      if (r === null) throw new Unsupported(`builtin ${f.name}`);
      if (r === undefined) return e.ty.k === 'void' ? undefined : cUndef(rt);
      if (r.ty !== rt && r.ty.k === 'int' && rt.k === 'int') return this.b.cast(r.ty.bits < rt.bits ? 'zext' : 'trunc', r, rt);
      return r;
    }
    // --expt-relaxed-constexpr (cicc's --relaxed_constexpr): constexpr host functions are callable from device code
    // std::move and std::forward are callable anyway (cicc exempts them; not std::addressof, std::as_const...)
    const stdCast = !!f && f.isConstexpr && f.scope.length === 1 && f.scope[0] === 'std' && (f.name === 'move' || f.name === 'forward');
    if (f && !f.isDevice && !f.isGlobal && !(this.g.opts.relaxedConstexpr && f.isConstexpr) && !stdCast) {
      const u = this.g.u;
      const sig = (x: FuncSym) => u.prettyFunction(x).replace(/^\S+ /, '');
      u.error(e.pos, 20014, `calling a __host__ function("${sig(f)}") from a ${this.f.isGlobal ? '__global__' : '__device__'} function("${sig(this.f)}") is not allowed`);
    }
    if (f && f.isGlobal) throw new Unsupported('kernel launch from device code');
    const fty = f ? f.ty : ((e.callee!.ty as CType & { k: 'ptr' }).to as CType & { k: 'func' });
    const hasThis = !!f && !!f.cls && !f.staticMember;
    const sig = this.g.lowerSig(fty, hasThis);
    const args: Value[] = [];
    if (hasThis) args.push(e.thisPtr ? this.generic(this.rv(e.thisPtr)) : cNull());
    let slot: Value | undefined;
    if (sig.sret) { slot = sretSlot ?? this.b.alloca(irType(fty.ret), alignOfC(fty.ret), 'agg.tmp'); args.push(slot); }
    e.args.forEach((a, i) => {
      const pt = i < fty.params.length ? fty.params[i]! : a.ty;
      if (pt.k === 'record' && byInvisibleRef(pt.rec)) {
        // the caller makes the parameter object (a prvalue directly, else by its copy constructor) and
        // destroys it at the end of the full-expression
        const tmp = this.b.alloca(irType(pt), alignOfC(pt), 'agg.tmp');
        const ai = (e as { argInits?: (Init | undefined)[] }).argInits?.[i];
        this.initInto(tmp, ai ?? { k: 'expr', e: a }, unqual(pt));
        this.tempMade(tmp, pt);
        args.push(this.generic(tmp));
      } else if (pt.k === 'record') {
        const tmp = this.b.alloca(irType(pt), alignOfC(pt), 'agg.tmp');
        this.copyRecord(tmp, this.addr(a), pt);
        args.push(tmp);
      } else if (pt.k === 'ref') args.push(this.generic(this.addr(a)));
      else args.push(this.rv(a));
    });
    const callee: Value = f && hasThis && isVirtual(f) ? this.virtualCallee(e, f, args[0]!) : f ? this.g.func(f) : this.rv(e.callee!);
    const r = this.b.call(callee, sig.fnTy, args);
    if (sig.sret) return slot;
    if (fty.ret.k === 'record') {
      // a class returned by value: stored into the object the caller wanted built (or a temporary)
      const to = sretSlot ?? this.b.alloca(irType(fty.ret), alignOfC(fty.ret), 'agg.tmp');
      this.b.store(r, to, alignOfC(fty.ret));
      return to;
    }
    return fty.ret.k === 'void' ? undefined : r;
  }
  /**
   * The function a call of virtual f runs: bound statically when the object's dynamic type is known (a named
   * object or member, a final class, a qualified name), else loaded from the object's vtable.
   */
  private virtualCallee(e: Expr & { k: 'call' }, f: FuncSym, self: Value): Value {
    if ((e as { direct?: boolean }).direct || isFinalFunction(f)) return this.g.func(f);
    const tp = e.thisPtr;
    const obj = tp && tp.k === 'addr' ? tp.e : null;
    let known: RecordDecl | null = null;
    if (obj && obj.ty.k === 'record') {
      if (obj.k === 'var' && obj.sym.ty.k === 'record') known = obj.sym.ty.rec;
      else if (obj.k === 'member' && !(obj.field as Field).isBase && unqual(obj.field.ty).k === 'record') known = obj.ty.rec;
      else if (vinfoOf(obj.ty.rec)?.final) known = obj.ty.rec;
    }
    if (known && primaryChain(known).includes(f.cls!)) {
      const t = finalOverrider(f, known);
      if (isPure(t)) throw new Unsupported(`call of pure virtual function ${f.name}`);
      return this.g.func(t);
    }
    const vptr = this.b.load(T.ptr, self, 8);
    const k = slotOf(f);
    return this.b.load(T.ptr, k === 0 ? vptr : this.b.gep(T.i8, vptr, [cInt(T.i64, 8 * k)]), 8);
  }
  /** `p->~T()`: through the vtable's D1 slot when T's destructor is virtual and the object's type is not known. */
  private explicitDtor(e: Expr & { k: 'call' }, rec: RecordDecl): void {
    const self = this.generic(this.rv(e.thisPtr!));
    const slot = dtorSlot(rec);
    const tp = e.thisPtr!;
    const obj = tp.k === 'addr' ? tp.e : null;
    const known = !!obj && ((obj.k === 'var' && obj.sym.ty.k === 'record') || !!vinfoOf(rec)?.final);
    if (slot < 0 || known) { if (needsDtor({ k: 'record', rec, q: 0 }) || isDynamic(rec)) this.destroy(self, rec); return; }
    const vptr = this.b.load(T.ptr, self, 8);
    const fp = this.b.load(T.ptr, slot === 0 ? vptr : this.b.gep(T.i8, vptr, [cInt(T.i64, 8 * slot)]), 8);
    this.b.call(fp, funcTy(T.void, [T.ptr]) as IRType & { k: 'func' }, [self]);
  }
  private builtinCall(f: FuncSym, argsE: Expr[], retC: CType): Value | undefined {
    const args = argsE.map((a, i) => {
      const pt = f.ty.params[i];
      if (pt && pt.k === 'ref') return this.generic(this.addr(a));
      if (a.ty.k === 'record') throw new Unsupported(`struct argument to builtin ${f.name}`);
      return this.rv(a);
    });
    if (f.name === '__assert_fail') {
      const af = declareFunc(this.g.m, '__assertfail', funcTy(T.void, [T.ptr, T.ptr, T.i32, T.ptr, T.i64]) as IRType & { k: 'func' });
      this.b.call(af, af.fnTy, [args[0]!, args[1]!, args[2]!, args[3]!, cInt(T.i64, 1)]);
      return undefined;
    }
    const rt = retC.k === 'ref' ? T.ptr : irType(retC);
    const r = lowerBuiltinCall(this.ctx, f.name, args, rt);
    if (r === null) throw new Unsupported(`builtin ${f.name}`);
    if (r === undefined) return retC.k === 'void' ? undefined : cUndef(rt);
    if (r.ty !== rt && r.ty.k === 'int' && rt.k === 'int') return this.b.cast(r.ty.bits < rt.bits ? 'zext' : 'trunc', r, rt);
    return r;
  }

  // ------------------------------------------------------------------ inline asm
  private asm(e: Expr & { k: 'asm' }): Value | undefined {
    const outs: { c: string; p: Value; ty: IRType; t: CType }[] = [];
    const cons: string[] = [];
    const inVals: Value[] = [];
    const inCons: string[] = [];
    // a read-write "+r" operand is an output plus a tied input that comes after the explicit inputs (as clang
    // emits it: "=r,r,0"), so that %1 in the text still names the first explicit input
    const tiedVals: Value[] = [];
    const tiedCons: string[] = [];
    for (const o of e.outs) {
      const p = this.addr(o.e);
      const t = unqual(o.e.ty);
      const rw = o.c.startsWith('+');
      const c = o.c.replace(/^[=+]&?/, '');
      outs.push({ c, p, ty: irType(t), t });
      cons.push('=' + (o.c.includes('&') ? '&' : '') + c);
      if (rw) { tiedVals.push(this.b.load(irType(t), p, alignOfC(t))); tiedCons.push(String(outs.length - 1)); }
    }
    for (const i of e.ins) {
      let v: Value;
      if (i.c.includes('m')) throw new Unsupported('asm memory operand');
      if (i.e.ty.k === 'bool') v = this.b.cast('zext', this.rv(i.e), T.i32);
      else v = this.rv(i.e);
      inVals.push(v); inCons.push(i.c);
    }
    inVals.push(...tiedVals); inCons.push(...tiedCons);
    const clob = e.clobbers.map(c => `~{${c}}`);
    const constraints = [...cons, ...inCons, ...clob].join(',');
    const text = e.text.replace(/\$/g, '$$$$').replace(/%(\d+)/g, '$$$1').replace(/%%/g, '%').replace(/%=/g, '${:uid}');
    const retTy = outs.length === 0 ? T.void : outs.length === 1 ? outs[0]!.ty : structTy(outs.map(o => o.ty));
    const fnTy = funcTy(retTy, inVals.map(v => v.ty)) as IRType & { k: 'func' };
    const ia: InlineAsm = { kind: 'asm', ty: T.ptr, fnTy, text, constraints, sideEffects: e.vol };
    const r = this.b.call(ia, fnTy, inVals);
    if (outs.length === 1) this.b.store(r, outs[0]!.p, alignOfC(outs[0]!.t));
    else outs.forEach((o, i) => this.b.store(this.b.extractvalue(r, [i], o.ty), o.p, alignOfC(o.t)));
    return undefined;
  }
}

function intBitsOf(t: CType): number { return t.k === 'int' ? t.bits : 32; }
void isIntegral; void alignOf;

/** A class without data: no members but bases without data, no virtual functions. */
function emptyClass(rec: RecordDecl): boolean {
  return !isDynamic(rec) && rec.fields.every(f => f.isBase === true && f.ty.k === 'record' && emptyClass(f.ty.rec));
}
