// IR generation from the typed AST, module level: function declarations and signatures, globals with
// constant-folded initialisers, string literals, vtables, thunks and destructors. Function bodies: codegen-fn.ts
// (statements) on codegen-fn-call.ts (calls), codegen-fn-expr.ts (expressions) and codegen-fn-base.ts (lifetimes).

import {
  type Module, type Func, type Global, type Const, type Type as IRType, Builder, T, AS, cInt, cFP, cNull, cZero,
  cUndef, newFunc, newGlobal, declareFunc, funcTy, arrayTy, ptrTy,
} from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { CompileOptions } from '../options';
import type { Expr, Init, VarSym, FuncSym } from './ast';
import { type CType, type RecordDecl, C, Q, irType, sizeOfC, alignOfC, isFloating, baseOffset } from './ctype';
import { evalConst } from './consteval';
import { initRunsConstructor, staticObjectConst } from './constinit';
import { mangleFunction, mangleVariable, mangleLocalStatic, mangleTypeName, nvStaticName, kernelSymbol } from './mangle';
import { classAllocFn } from './parser';
import { vinfoOf, isPure, secondaryBases, overriderOnPath, type VSlot } from './virtuals';
import type { Unit } from './unit';
import { AS_OF, constObject, byInvisibleRef, emptyClass } from './codegen-types';
import { FnGen } from './codegen-fn';
import type { FnHost, LoweredSig } from './codegen-fn-base';

export class ModuleGen implements FnHost {
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
  lowerSig(f: CType & { k: 'func' }, hasThis = false, kernel = false): LoweredSig {
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
    const internal = f.isGlobal ? (f.isStatic || f.inAnon) : (f.isStatic || f.inAnon || !this.opts.rdc);
    const name = f.isGlobal ? kernelSymbol(f, this.opts) : mangleFunction(f, this.opts.moduleId);
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
    } else {
      name = mangleVariable(v, this.opts.moduleId);
      if (this.opts.rdc && !v.isExtern && (v.isStatic || v.scope.includes('(anonymous)'))) name = nvStaticName(this.opts.moduleId, name);
    }
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
      const init = v.init ? this.varInit(v, v.init) : cZero(vt);
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
  /** A static variable's initialiser; one that runs constructors is evaluated (constinit.ts) or rejected as cicc does. */
  private varInit(v: VarSym, init: Init): Const {
    if (!initRunsConstructor(init)) return this.constInit(init, v.ty);
    const c = staticObjectConst(init, v.ty, this.u.consts);
    if (c !== 'dynamic') return c;
    const space = v.space === 'constant' ? '__constant__' : v.space === 'managed' ? '__managed__' : '__device__';
    this.u.error(v.pos, 3510, v.storage === 'static-local'
      ? `dynamic initialization is not supported for a function-scope static ${space} variable within a __device__/__global__ function`
      : `dynamic initialization is not supported for a ${space} variable`);
    return cZero(irType(v.ty));
  }
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
