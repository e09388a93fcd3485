// Hand-built IR modules exercising the PTX backend (used by test/backend.test.ts).
import {
  T, AS, Builder, newModule, newFunc, newGlobal, funcTy, structTy, arrayTy, ptrTy, cInt, cFP, cZero, cUndef, cTrue,
  declareFunc, type Module, type Type, type Value, type Func, type FCmpPred, type InlineAsm,
} from '../../compiler/middle/ir';

const fty = (r: Type, ps: Type[]) => funcTy(r, ps) as Type & { k: 'func' };
const i32 = (n: number) => cInt(T.i32, n);
const i64 = (n: number) => cInt(T.i64, n);

function kernel(m: Module, name: string, ps: Type[]): [Func, Builder] {
  const f = newFunc(name, fty(T.void, ps)); f.isKernel = true; m.funcs.push(f);
  const b = new Builder(f); b.setBlock(b.newBlock('entry'));
  return [f, b];
}
function sreg(m: Module, b: Builder, n: string): Value {
  const f = declareFunc(m, `llvm.nvvm.read.ptx.sreg.${n}`, fty(T.i32, []), { readnone: true });
  return b.call(f, f.fnTy, []);
}
function gidx(m: Module, b: Builder): Value {
  return b.bin('add', b.bin('mul', sreg(m, b, 'ctaid.x'), sreg(m, b, 'ntid.x')), sreg(m, b, 'tid.x'));
}
const asm = (text: string, constraints: string, ret: Type, ps: Type[]): InlineAsm =>
  ({ kind: 'asm', ty: T.ptr, fnTy: fty(ret, ps), text, constraints, sideEffects: true });

/** saxpy with an if, global loads/stores through generic pointers and a call to a device function. */
export function saxpyModule(): Module {
  const m = newModule();
  const addf = newFunc('_Z4addfff', fty(T.f32, [T.f32, T.f32]), 'internal'); m.funcs.push(addf);
  { const b = new Builder(addf); b.setBlock(b.newBlock('e')); b.ret(b.bin('fadd', addf.params[0]!, addf.params[1]!)); }
  const [f, b] = kernel(m, '_Z5saxpyPfPKffi', [T.ptr, T.ptr, T.f32, T.i32]);
  const [y, x, a, n] = f.params as [Value, Value, Value, Value];
  const i = gidx(m, b);
  const then = b.newBlock('then'), done = b.newBlock('done');
  b.condbr(b.icmp('slt', i, n), then, done);
  b.setBlock(then);
  const px = b.gep(T.f32, x, [b.cast('sext', i, T.i64)]);
  const py = b.gep(T.f32, y, [b.cast('sext', i, T.i64)]);
  const xv = b.load(T.f32, px), yv = b.load(T.f32, py);
  const ax = b.bin('fmul', a, xv);
  const s = b.bin('fadd', ax, yv);
  const q = b.bin('fdiv', s, yv);
  const c = b.call(addf, addf.fnTy, [q, cFP(T.f32, 1.5)]);
  b.store(c, py);
  b.br(done);
  b.setBlock(done); b.ret();
  return m;
}

/** A loop with phis (sum and product, swapped each iteration to test parallel copies), and a diamond. */
export function loopModule(): Module {
  const m = newModule();
  const [f, b] = kernel(m, '_Z4loopPii', [T.ptr, T.i32]);
  const [out, n] = f.params as [Value, Value];
  const entry = b.block!;
  const head = b.newBlock('head'), body = b.newBlock('body'), exit = b.newBlock('exit');
  const l = b.newBlock('l'), r = b.newBlock('r'), j = b.newBlock('j');
  b.br(head);
  b.setBlock(head);
  const iv = b.phi(T.i32), x = b.phi(T.i32), y = b.phi(T.i32), acc = b.phi(T.i32);
  b.condbr(b.icmp('slt', iv, n), body, exit);
  b.setBlock(body);
  const inext = b.bin('add', iv, i32(1));
  b.condbr(b.icmp('eq', b.bin('and', iv, i32(1)), i32(0)), l, r);
  b.setBlock(l); const lv = b.bin('mul', x, i32(3)); b.br(j);
  b.setBlock(r); const rv = b.bin('sub', x, y); b.br(j);
  b.setBlock(j);
  const pv = b.phi(T.i32, [[lv, l], [rv, r]]);
  const accn = b.bin('add', acc, pv);
  b.br(head);
  iv.ops.push(i32(0), inext); iv.targets.push(entry, j);
  // swap: x' = y, y' = x (a copy cycle)
  x.ops.push(i32(1), y); x.targets.push(entry, j);
  y.ops.push(i32(2), x); y.targets.push(entry, j);
  acc.ops.push(i32(0), accn); acc.targets.push(entry, j);
  b.setBlock(exit);
  b.store(b.bin('add', x, y), out);
  b.store(iv, b.gep(T.i32, out, [i64(1)]));
  b.store(acc, b.gep(T.i32, out, [i64(2)]));
  b.ret();
  return m;
}

/** switch, i8/i16/i1 values, selects, all fcmp predicates, conversions. */
export function scalarsModule(): Module {
  const m = newModule();
  const [f, b] = kernel(m, '_Z7scalarsPiPfPdPaPtib', [T.ptr, T.ptr, T.ptr, T.ptr, T.ptr, T.i32, T.i1]);
  const [out, fp, dp, cp, sp, n, flag] = f.params as [Value, Value, Value, Value, Value, Value, Value];
  const c1 = b.newBlock('c1'), c7 = b.newBlock('c7'), def = b.newBlock('def'), join = b.newBlock('join');
  b.switch_(n, def, [[i32(1), c1], [i32(7), c7], [i32(100), c1]]);
  b.setBlock(c1); b.br(join);
  b.setBlock(c7); b.br(join);
  b.setBlock(def); b.br(join);
  b.setBlock(join);
  const sel = b.phi(T.i32, [[i32(5), c1], [i32(9), c7], [n, def]]);
  b.store(sel, out);
  const f0 = b.load(T.f32, fp), f1 = b.load(T.f32, b.gep(T.f32, fp, [i64(1)]));
  const d0 = b.load(T.f64, dp), d1 = b.load(T.f64, b.gep(T.f64, dp, [i64(1)]));
  const preds: FCmpPred[] = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true'];
  preds.forEach((p, k) => {
    const c = b.fcmp(p, f0, f1);
    const cd = b.fcmp(p, d0, d1);
    const v = b.bin('add', b.cast('zext', c, T.i32), b.cast('sext', cd, T.i32));
    b.store(v, b.gep(T.i32, out, [i64(2 + k)]));
  });
  // i8 / i16
  const c8 = b.load(T.i8, cp), s16 = b.load(T.i16, sp);
  const c8b = b.bin('add', c8, cInt(T.i8, 3));
  const q8 = b.bin('sdiv', c8b, cInt(T.i8, -2));
  const sh8 = b.bin('lshr', c8b, cInt(T.i8, 2));
  b.store(b.bin('xor', q8, sh8), b.gep(T.i8, cp, [i64(1)]));
  const s2 = b.bin('mul', s16, cInt(T.i16, 5));
  b.store(b.bin('udiv', s2, b.cast('zext', c8, T.i16)), b.gep(T.i16, sp, [i64(1)]));
  const lt8 = b.icmp('slt', c8, cInt(T.i8, 10));
  const both = b.bin('and', lt8, flag);
  const either = b.bin('or', both, b.icmp('ugt', s16, cInt(T.i16, 7)));
  b.store(b.select(either, b.cast('sext', c8, T.i32), b.cast('zext', s16, T.i32)), b.gep(T.i32, out, [i64(20)]));
  b.store(b.select(flag, lt8, both), b.gep(T.i8, cp, [i64(2)]));
  b.store(b.cast('sext', b.cast('trunc', n, T.i8), T.i64), b.gep(T.i64, dp, [i64(5)]));
  // conversions
  b.store(b.cast('fptosi', f0, T.i32), b.gep(T.i32, out, [i64(21)]));
  b.store(b.cast('fptoui', d0, T.i32), b.gep(T.i32, out, [i64(22)]));
  b.store(b.cast('fpext', f0, T.f64), b.gep(T.f64, dp, [i64(2)]));
  b.store(b.cast('fptrunc', d0, T.f32), b.gep(T.f32, fp, [i64(2)]));
  b.store(b.cast('sitofp', n, T.f32), b.gep(T.f32, fp, [i64(3)]));
  b.store(b.cast('uitofp', n, T.f64), b.gep(T.f64, dp, [i64(3)]));
  b.store(b.cast('sitofp', b.cast('sext', n, T.i64), T.f32), b.gep(T.f32, fp, [i64(4)]));
  b.store(b.cast('sitofp', c8, T.f32), b.gep(T.f32, fp, [i64(5)]));
  b.store(b.cast('fptosi', d0, T.i16), b.gep(T.i16, sp, [i64(3)]));
  b.store(b.cast('bitcast', b.cast('bitcast', f0, T.i32), T.f32), b.gep(T.f32, fp, [i64(6)]));
  b.store(b.fneg(d0), b.gep(T.f64, dp, [i64(4)]));
  const h = b.cast('fptrunc', f0, T.half);
  b.store(b.cast('fpext', b.bin('fmul', h, h), T.f32), b.gep(T.f32, fp, [i64(7)]));
  b.store(b.bin('shl', b.cast('zext', n, T.i64), b.cast('zext', n, T.i64)), b.gep(T.i64, dp, [i64(6)]));
  b.store(b.bin('ashr', b.cast('sext', n, T.i64), i64(3)), b.gep(T.i64, dp, [i64(7)]));
  b.store(b.bin('urem', n, i32(7)), b.gep(T.i32, out, [i64(23)]));
  b.ret();
  return m;
}

/** Struct returns, by-value struct params (kernel and device), calls with i8/i1 args. */
export function structModule(): Module {
  const m = newModule();
  const Q = structTy([T.i8, T.i16, T.i64]);
  const P = structTy([T.f32, T.f32, T.f32]);
  const mkp = newFunc('_Z3mkpf', fty(P, [T.f32]), 'internal'); m.funcs.push(mkp);
  {
    const b = new Builder(mkp); b.setBlock(b.newBlock('e'));
    const a = mkp.params[0]!;
    let v: Value = cUndef(P);
    v = b.insertvalue(v, a, [0]); v = b.insertvalue(v, b.bin('fmul', a, cFP(T.f32, 2)), [1]); v = b.insertvalue(v, cFP(T.f32, 3), [2]);
    b.ret(v);
  }
  const mkq = newFunc('_Z3mkq1Qc', fty(T.void, [T.ptr, T.ptr, T.i8, T.i1]), 'internal'); m.funcs.push(mkq);
  mkq.params[0]!.sret = Q; mkq.params[1]!.byval = Q; mkq.params[1]!.align = 8;
  {
    const b = new Builder(mkq); b.setBlock(b.newBlock('e'));
    const [ret, q, c, fl] = mkq.params as [Value, Value, Value, Value];
    const qc = b.load(T.i8, q);
    const qs = b.load(T.i16, b.gep(Q, q, [i32(0), i32(1)]));
    const ql = b.load(T.i64, b.gep(Q, q, [i32(0), i32(2)]));
    b.store(b.bin('add', qc, c), ret);
    b.store(b.bin('mul', qs, cInt(T.i16, 3)), b.gep(Q, ret, [i32(0), i32(1)]));
    b.store(b.select(fl, ql, i64(-5)), b.gep(Q, ret, [i32(0), i32(2)]));
    b.ret();
  }
  const [f, b] = kernel(m, '_Z2k21QPf', [T.ptr, T.ptr]);
  f.params[0]!.byval = Q; f.params[0]!.align = 8;
  const [q, out] = f.params as [Value, Value];
  const p = b.call(mkp, mkp.fnTy, [b.load(T.f32, out)]);
  b.store(b.extractvalue(p, [1], T.f32), out);
  const tmp = b.alloca(Q, 8);
  const r = b.alloca(Q, 8);
  b.call(mkq, mkq.fnTy, [r, q, cInt(T.i8, 7), cTrue]);
  const rl = b.load(T.i64, b.gep(Q, r, [i32(0), i32(2)]));
  b.store(b.cast('sitofp', rl, T.f32), b.gep(T.f32, out, [i64(1)]));
  // whole-struct load/store through the local copy
  const whole = b.load(Q, r);
  b.store(whole, tmp);
  b.store(b.cast('sitofp', b.load(T.i16, b.gep(Q, tmp, [i32(0), i32(1)])), T.f32), b.gep(T.f32, out, [i64(2)]));
  // kernel byval param read directly
  b.store(b.cast('sitofp', b.load(T.i64, b.gep(Q, q, [i32(0), i32(2)])), T.f32), b.gep(T.f32, out, [i64(3)]));
  b.ret();
  return m;
}

/** Globals of every space with initialisers, atomics of every kind and scope, fences, inline asm, local array. */
export function memoryModule(): Module {
  const m = newModule();
  const cscale = newGlobal('cscale', T.f32, AS.const, cFP(T.f32, 2), { isConstant: true });
  const carr = newGlobal('carr', arrayTy(4, T.i32), AS.const, { kind: 'agg', ty: arrayTy(4, T.i32), elems: [i32(1), i32(2), i32(3), i32(4)] }, { isConstant: true });
  const gcount = newGlobal('gcount', T.i32, AS.global, cZero(T.i32));
  const gptr = newGlobal('gptr', T.ptr, AS.global, { kind: 'cexpr', ty: T.ptr, op: 'addrspacecast', base: gcount });
  const msg = newGlobal('.str', arrayTy(6, T.i8), AS.global, { kind: 'bytes', ty: arrayTy(6, T.i8), bytes: new TextEncoder().encode('hello\0') }, { linkage: 'private', isConstant: true });
  const sh = newGlobal('sh', arrayTy(32, T.f32), AS.shared, cUndef(arrayTy(32, T.f32)), { linkage: 'internal' });
  const dyn = newGlobal('dyn', arrayTy(0, T.f32), AS.shared, null, { align: 16 });
  const gd = newGlobal('gd', T.f64, AS.global, cFP(T.f64, -0.5));
  m.globals.push(cscale, carr, gcount, gptr, msg, sh, dyn, gd);
  const [f, b] = kernel(m, '_Z3memPfPdPii', [T.ptr, T.ptr, T.ptr, T.i32]);
  const [fo, dout, io, n] = f.params as [Value, Value, Value, Value];
  const tid = sreg(m, b, 'tid.x');
  const gen = (g: typeof gcount): Value => ({ kind: 'cexpr', ty: T.ptr, op: 'addrspacecast', base: g });
  b.store(b.load(T.f32, cscale), fo);
  const ci = b.load(T.i32, b.gep(arrayTy(4, T.i32), carr, [i32(0), b.bin('and', n, i32(3))]));
  b.store(ci, io);
  const shp = b.gep(arrayTy(32, T.f32), sh, [i32(0), tid]);
  b.store(b.load(T.f32, fo), shp);
  const bar = declareFunc(m, 'llvm.nvvm.barrier0', fty(T.void, []));
  b.call(bar, bar.fnTy, []);
  b.store(b.load(T.f32, b.gep(T.f32, dyn, [tid])), b.gep(T.f32, fo, [i64(1)]));
  const gp = b.load(T.ptr, gptr);
  b.store(i32(5), gp);
  b.store(b.load(T.i8, gen(msg)), b.gep(T.i8, io, [i64(9)]));
  b.store(b.load(T.f64, gd), dout);
  // atomics
  let k = 10;
  const put = (v: Value): void => { b.store(v.ty === T.i64 ? b.cast('trunc', v, T.i32) : v.ty.k === 'float' ? b.cast('fptosi', v, T.i32) : v.ty.k === 'double' ? b.cast('fptosi', v, T.i32) : v, b.gep(T.i32, io, [i64(k++)])); };
  for (const scope of ['device', 'block', ''] as const) {
    for (const rmw of ['add', 'sub', 'xchg', 'and', 'or', 'xor', 'max', 'min', 'umax', 'umin', 'nand'] as const) {
      put(b.atomicrmw(rmw, gen(gcount), i32(3), 'monotonic', scope));
      put(b.atomicrmw(rmw, io, n, 'monotonic', scope));
    }
    put(b.atomicrmw('add', b.cast('addrspacecast', dout, ptrTy(1)), i64(1), 'monotonic', scope));
    put(b.atomicrmw('fadd', fo, cFP(T.f32, 1), 'monotonic', scope));
    put(b.atomicrmw('fadd', dout, cFP(T.f64, 1), 'monotonic', scope));
    put(b.atomicrmw('fadd', b.gep(arrayTy(32, T.f32), sh, [i32(0), i32(1)]), cFP(T.f32, 1), 'monotonic', scope));
    const x = b.cmpxchg(io, i32(1), n, 'monotonic', scope);
    put(b.extractvalue(x, [0], T.i32));
    put(b.cast('zext', b.extractvalue(x, [1], T.i1), T.i32));
    put(b.atomicrmw('add', io, i32(1), 'seq_cst', scope));
    put(b.atomicrmw('add', io, i32(1), 'acq_rel', scope));
    b.fence('seq_cst', scope);
    b.fence('acq_rel', scope);
  }
  // inline asm with one and two outputs
  const a1 = b.call(asm('mov.u32 $0, %laneid;', '=r', T.i32, []), fty(T.i32, []), []);
  put(a1);
  const st2 = structTy([T.i32, T.i32]);
  const a2 = b.call(asm('{ .reg .pred %bp0; add.cc.u32 $0, $2, $3; addc.u32 $1, 0, 0; }', '=r,=r,r,r', st2, [T.i32, T.i32]), fty(st2, [T.i32, T.i32]), [n, tid]);
  put(b.extractvalue(a2, [0], T.i32)); put(b.extractvalue(a2, [1], T.i32));
  const a3 = b.call(asm('ld.global.nc.f32 $0, [$1];', '=f,l', T.f32, [T.ptr]), fty(T.f32, [T.ptr]), [fo]);
  b.store(a3, b.gep(T.f32, fo, [i64(2)]));
  const a4 = b.call(asm('add.s16 $0, $1, $2;', '=h,h,n', T.i16, [T.i16, T.i16]), fty(T.i16, [T.i16, T.i16]), [b.cast('trunc', n, T.i16), cInt(T.i16, 4)]);
  put(b.cast('sext', a4, T.i32));
  // local array indexed dynamically
  const arr = b.alloca(arrayTy(16, T.i32), 16);
  for (let j = 0; j < 16; j++) b.store(b.bin('mul', n, i32(j)), b.gep(arrayTy(16, T.i32), arr, [i32(0), i32(j)]));
  put(b.load(T.i32, b.gep(arrayTy(16, T.i32), arr, [i32(0), b.bin('and', n, i32(15))])));
  // memcpy / memset
  const mc = declareFunc(m, 'llvm.memcpy.p0.p0.i64', fty(T.void, [T.ptr, T.ptr, T.i64, T.i1]));
  const ms = declareFunc(m, 'llvm.memset.p0.i64', fty(T.void, [T.ptr, T.i8, T.i64, T.i1]));
  const arr2 = b.alloca(arrayTy(16, T.i32), 16);
  b.call(mc, mc.fnTy, [arr2, arr, i64(64), cInt(T.i1, 0)]);
  b.call(mc, mc.fnTy, [fo, dout, b.cast('sext', n, T.i64), cInt(T.i1, 0)]);
  b.call(ms, ms.fnTy, [arr2, cInt(T.i8, 1), i64(32), cInt(T.i1, 0)]);
  b.call(ms, ms.fnTy, [io, cInt(T.i8, 0), b.cast('zext', n, T.i64), cInt(T.i1, 0)]);
  put(b.load(T.i32, b.gep(arrayTy(16, T.i32), arr2, [i32(0), b.bin('and', n, i32(15))])));
  // intrinsics
  const intr = (name: string, r: Type, args: Value[]): Value => { const fn = declareFunc(m, name, fty(r, args.map(a => a.ty))); return b.call(fn, fn.fnTy, args); };
  put(intr('llvm.ctpop.i32', T.i32, [n])); put(intr('llvm.ctlz.i32', T.i32, [n, cTrue])); put(intr('llvm.cttz.i32', T.i32, [n, cTrue]));
  put(intr('llvm.ctpop.i64', T.i64, [b.cast('sext', n, T.i64)])); put(intr('llvm.ctlz.i64', T.i64, [b.cast('sext', n, T.i64), cTrue]));
  put(intr('llvm.cttz.i64', T.i64, [b.cast('sext', n, T.i64), cTrue])); put(intr('llvm.bitreverse.i32', T.i32, [n]));
  put(intr('llvm.smin.i32', T.i32, [n, tid])); put(intr('llvm.umax.i32', T.i32, [n, tid])); put(intr('llvm.smax.i64', T.i64, [b.cast('sext', n, T.i64), i64(3)]));
  put(intr('llvm.bswap.i32', T.i32, [n])); put(intr('llvm.abs.i32', T.i32, [n, cTrue]));
  const fv = b.load(T.f32, fo);
  put(intr('llvm.fabs.f32', T.f32, [fv])); put(intr('llvm.fma.f32', T.f32, [fv, fv, fv])); put(intr('llvm.sqrt.f32', T.f32, [fv]));
  put(intr('llvm.minnum.f32', T.f32, [fv, cFP(T.f32, 2)])); put(intr('llvm.floor.f64', T.f64, [b.load(T.f64, dout)]));
  put(intr('llvm.copysign.f32', T.f32, [fv, cFP(T.f32, -1)]));
  put(intr('llvm.nvvm.read.ptx.sreg.warpsize', T.i32, []));
  b.ret();
  return m;
}

/** fdiv variants: plain, 1/x, arcp (the __fdividef marker), f64. */
export function fdivModule(): Module {
  const m = newModule();
  const [f, b] = kernel(m, '_Z4divsPfPdff', [T.ptr, T.ptr, T.f32, T.f32]);
  const [fo, dout, x, y] = f.params as [Value, Value, Value, Value];
  b.store(b.bin('fdiv', x, y), fo);
  b.store(b.bin('fdiv', cFP(T.f32, 1), y), b.gep(T.f32, fo, [i64(1)]));
  b.store(b.bin('fdiv', x, y, { fmf: ['arcp', 'afn'] }), b.gep(T.f32, fo, [i64(2)]));
  b.store(b.bin('fadd', b.bin('fmul', x, y), x), b.gep(T.f32, fo, [i64(3)]));
  const dx = b.cast('fpext', x, T.f64), dy = b.cast('fpext', y, T.f64);
  b.store(b.bin('fdiv', dx, dy), dout);
  b.ret();
  return m;
}

/** Device functions calling each other before definition, by pointer, and vprintf/__assertfail externs. */
export function callsModule(): Module {
  const m = newModule();
  const later = newFunc('_Z5laterib', fty(T.i1, [T.i32, T.i1]), 'internal');
  const vprintf = declareFunc(m, 'vprintf', fty(T.i32, [T.ptr, T.ptr]));
  const af = declareFunc(m, '__assertfail', fty(T.void, [T.ptr, T.ptr, T.i32, T.ptr, T.i64]));
  const str = newGlobal('$str', arrayTy(4, T.i8), AS.global, { kind: 'bytes', ty: arrayTy(4, T.i8), bytes: new Uint8Array([104, 105, 10, 0]) }, { linkage: 'private' });
  const tblTy = arrayTy(1, T.ptr);
  const tbl = newGlobal('tbl', tblTy, AS.global, { kind: 'agg', ty: tblTy, elems: [later as never] });
  m.globals.push(str, tbl);
  const [f, b] = kernel(m, '_Z5callsPi', [T.ptr]);
  const out = f.params[0]!;
  const v = b.load(T.i32, out);
  const r = b.call(later, later.fnTy, [v, b.icmp('sgt', v, i32(0))]);
  b.store(b.cast('zext', r, T.i32), out);
  const fp = b.load(T.ptr, tbl);
  const r2 = b.call(fp, later.fnTy, [v, cTrue]);
  b.store(b.cast('zext', r2, T.i32), b.gep(T.i32, out, [i64(1)]));
  const gstr = { kind: 'cexpr', ty: T.ptr, op: 'addrspacecast', base: str } as const;
  b.call(vprintf, vprintf.fnTy, [gstr, { kind: 'null', ty: T.ptr }]);
  const bad = b.newBlock('bad'), ok = b.newBlock('ok');
  b.condbr(b.icmp('eq', v, i32(42)), bad, ok);
  b.setBlock(bad);
  b.call(af, af.fnTy, [gstr, gstr, i32(7), gstr, i64(1)]);
  b.unreachable();
  b.setBlock(ok);
  b.ret();
  m.funcs.push(later);
  const lb = new Builder(later); lb.setBlock(lb.newBlock('e'));
  lb.ret(lb.bin('xor', lb.icmp('ult', later.params[0]!, i32(10)), later.params[1]!));
  return m;
}

export const ALL_MODULES: [string, () => Module][] = [
  ['saxpy', saxpyModule], ['loop', loopModule], ['scalars', scalarsModule], ['struct', structModule],
  ['memory', memoryModule], ['fdiv', fdivModule], ['calls', callsModule],
];
