// Code generation for one function, third layer: calls (direct, virtual, builtin), inline asm, new/delete and object
// initialisation.

import {
  type Value, type Type as IRType, type InlineAsm, T, cInt, cNull, cZero, cUndef, declareFunc, funcTy, structTy,
} from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { Expr, Init, FuncSym } from './ast';
import { type CType, type Field, type RecordDecl, C, Q, irType, sizeOfC, alignOfC, unqual } from './ctype';
import { classAllocFn } from './parser';
import {
  vinfoOf, isDynamic, isVirtual, isPure, isFinalFunction, slotOf, dtorSlot, finalOverrider, primaryChain,
} from './virtuals';
import { lowerBuiltinCall } from './builtins';
import { lowerCudartBuiltin } from './builtins-std';
import { lowerTexSurf } from './builtins-tex';
import { byInvisibleRef, arrayCookie, needsDtor } from './codegen-types';
import { FnExpr } from './codegen-fn-expr';

export abstract class FnCall extends FnExpr {
  /** `new T(...)` / `new T[n]`: malloc (device operator new, never null to the caller), the cookie, the objects. */
  protected override heapNew(e: Expr & { k: 'new' }): Value {
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
  protected override heapDelete(e: Expr & { k: 'delete' }): void {
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
  /** Run constructor `ctor` on the object at addr. */
  protected override construct(addr: Value, ctor: FuncSym, args: Expr[]): void {
    const call = { k: 'call', f: ctor, callee: null, args, ty: C.void, lv: false, pos: ctor.pos, thisPtr: { k: 'raw', v: addr } } as unknown as Expr & { k: 'call' };
    this.call(call);
  }
  protected override initInto(addr: Value, init: Init, ty: CType): void {
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
  override copyRecord(dst: Value, src: Value, ty: CType, assign = false): void {
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

  protected override call(e: Expr & { k: 'call' }, sretSlot?: Value): Value | undefined {
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
  protected virtualCallee(e: Expr & { k: 'call' }, f: FuncSym, self: Value): Value {
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
  protected explicitDtor(e: Expr & { k: 'call' }, rec: RecordDecl): void {
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
  protected builtinCall(f: FuncSym, argsE: Expr[], retC: CType): Value | undefined {
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

  protected override asm(e: Expr & { k: 'asm' }): Value | undefined {
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
