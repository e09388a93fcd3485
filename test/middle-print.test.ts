// llprint.ts + verify.ts + passes.ts on hand-built modules, with llvm-as / opt -passes=verify as oracles.
import { describe, it, expect } from 'vitest';
import {
  Builder, T, AS, funcTy, newFunc, newModule, newGlobal, cInt, cFP, cNull, cUndef, cZero, arrayTy, structTy, vectorTy,
  declareFunc, ptrTy,
} from '../compiler/middle/ir';
import type { Const, Func, Inst, InlineAsm, Module, Type } from '../compiler/middle/ir';
import { printModule, fpConstStr } from '../compiler/middle/llprint';
import { verifyModule } from '../compiler/middle/verify';
import { optimize } from '../compiler/middle/passes';
import { defaultOptions } from '../compiler/options';
import { llvmAccepts } from './helpers/llvm';

const fty = (ret: Type, params: Type[], varargs = false) => funcTy(ret, params, varargs) as Type & { k: 'func' };

function addFunc(m: Module, name: string, ret: Type, params: Type[], linkage: Func['linkage'] = 'external'): { f: Func; b: Builder } {
  const f = newFunc(name, fty(ret, params), linkage);
  m.funcs.push(f);
  const b = new Builder(f);
  b.setBlock(b.newBlock('entry'));
  return { f, b };
}

/** A module that uses every construct the printer knows. */
export function everythingModule(): Module {
  const m = newModule();
  const i32x4 = arrayTy(4, T.i32);
  const g1 = newGlobal('g1', i32x4, AS.global, { kind: 'agg', ty: i32x4, elems: [1, 2, 3, -4].map(v => cInt(T.i32, v)) }, { externallyInitialized: true });
  const c4 = newGlobal('c4', T.f32, AS.const, cFP(T.f32, 1.1), { isConstant: true, linkage: 'internal' });
  const smem = newGlobal('smem', arrayTy(256, T.f32), AS.shared, cUndef(arrayTy(256, T.f32)), { linkage: 'internal' });
  const strTy = arrayTy(7, T.i8);
  const str = newGlobal('$str', strTy, AS.const, { kind: 'bytes', ty: strTy, bytes: new Uint8Array([...Buffer.from('hi %d\n"'), 0].slice(0, 7)) },
    { isConstant: true, linkage: 'private', unnamedAddr: true });
  const stTy = structTy([T.i32, T.f32, arrayTy(2, T.i16)]);
  const st = newGlobal('st', stTy, AS.global, { kind: 'agg', ty: stTy, elems: [cInt(T.i32, 7), cFP(T.f32, 2.5), { kind: 'agg', ty: arrayTy(2, T.i16), elems: [cInt(T.i16, 1), cInt(T.i16, -1)] }] });
  const pptr = newGlobal('pptr', T.ptr, AS.global, { kind: 'cexpr', ty: T.ptr, op: 'addrspacecast', base: g1 });
  const pgep = newGlobal('pgep', ptrTy(1), AS.global, { kind: 'cexpr', ty: ptrTy(1), op: 'gep', base: g1, srcTy: i32x4, indices: [cInt(T.i64, 0), cInt(T.i64, 2)] });
  const h = newGlobal('h', T.half, AS.global, cFP(T.half, 1.0));
  const bf = newGlobal('bf', T.bfloat, AS.global, cFP(T.bfloat, -2.5));
  const d = newGlobal('d', T.f64, AS.global, cFP(T.f64, 0.1));
  const z = newGlobal('zs', stTy, AS.global, cZero(stTy), { linkage: 'internal' });
  const ext = newGlobal('ext', T.i32, AS.global, null);
  const v4 = vectorTy(4, T.f32);
  const vec = newGlobal('vec', v4, AS.global, { kind: 'agg', ty: v4, elems: [1, 2, 3, 4].map(x => cFP(T.f32, x)) });
  const weird = newGlobal('weird name.1', T.i64, AS.global, cInt(T.i64, -1n << 63n), { linkage: 'weak' });
  m.globals.push(g1, c4, smem, str, st, pptr, pgep, h, bf, d, z, ext, vec, weird);

  const tid = declareFunc(m, 'llvm.nvvm.read.ptx.sreg.tid.x', fty(T.i32, []), { readnone: true });
  const bar = declareFunc(m, 'llvm.nvvm.barrier0', fty(T.void, []), { convergent: true });
  const vprintf = declareFunc(m, 'vprintf', fty(T.i32, [T.ptr, T.ptr]));

  // internal device function with if/else and a phi
  const { f: add3, b: a } = addFunc(m, 'add3', T.i32, [T.i32, T.i32, T.i16], 'internal');
  add3.params[2]!.attrs.push('signext');
  add3.params[0]!.name = 'x';
  const then = a.newBlock('then'), els = a.newBlock('else'), join = a.newBlock('join');
  const c = a.icmp('slt', add3.params[0]!, add3.params[1]!);
  a.condbr(c, then, els);
  a.setBlock(then); const t1 = a.bin('add', add3.params[0]!, cInt(T.i32, 3), { nsw: true }); a.br(join);
  a.setBlock(els); const e1 = a.bin('sub', add3.params[1]!, a.cast('sext', add3.params[2]!, T.i32)); a.br(join);
  a.setBlock(join); const ph = a.phi(T.i32, [[t1, then], [e1, els]]); a.ret(ph);

  // kernel
  const { f: k, b } = addFunc(m, 'kern', T.void, [ptrTy(1), T.i32, T.ptr]);
  k.isKernel = true; k.attrs.maxntid = 256; k.attrs.minctasm = 2;
  k.params[0]!.name = 'out'; k.params[1]!.name = 'n'; k.params[0]!.attrs.push('noalias');
  k.params[2]!.byval = stTy; k.params[2]!.align = 4;
  const [out, n, sv] = k.params as [typeof k.params[0], typeof k.params[0], typeof k.params[0]];
  const iv = b.alloca(T.i32, 4, 'i');
  const acc = b.alloca(T.f32, 4, 'acc');
  const arr = b.alloca(arrayTy(8, T.f32), 4, 'arr');
  const t = b.call(tid, tid.fnTy, []); t.name = 'tid';
  const sp = b.gep(arrayTy(256, T.f32), smem, [cInt(T.i64, 0), b.cast('zext', t, T.i64)]);
  b.store(cFP(T.f32, 0.5), sp);
  b.call(bar, bar.fnTy, []);
  const sl = b.load(T.f32, sp);
  b.store(cInt(T.i32, 0), iv);
  b.store(sl, acc);
  const head = b.newBlock('loop'), body = b.newBlock('body'), exit = b.newBlock('exit');
  b.br(head);
  b.setBlock(head);
  const ci = b.load(T.i32, iv);
  b.condbr(b.icmp('slt', ci, n), body, exit);
  b.setBlock(body);
  const ci2 = b.load(T.i32, iv);
  const fi = b.cast('sitofp', ci2, T.f32);
  const ac = b.load(T.f32, acc);
  const nx = b.bin('fadd', ac, b.bin('fmul', fi, cFP(T.f32, 0.25), { fmf: ['contract'] }), { fmf: ['contract'] });
  b.store(nx, acc);
  const ep = b.gep(arrayTy(8, T.f32), arr, [cInt(T.i32, 0), b.bin('and', ci2, cInt(T.i32, 7))]);
  b.store(nx, ep);
  b.store(b.bin('add', ci2, cInt(T.i32, 1), { nsw: true }), iv);
  b.br(head);
  b.setBlock(exit);
  // switch
  const s1 = b.newBlock('s1'), s2 = b.newBlock('s2'), sdef = b.newBlock('sdef'), after = b.newBlock('after');
  b.switch_(b.load(T.i32, iv), sdef, [[cInt(T.i32, 1), s1], [cInt(T.i32, 5), s2], [cInt(T.i32, 9), s2]]);
  b.setBlock(s1); b.br(after);
  b.setBlock(s2); const x2 = b.call(add3, add3.fnTy, [n, cInt(T.i32, 4), cInt(T.i16, -3)]); b.br(after);
  b.setBlock(sdef); b.br(after);
  b.setBlock(after);
  const sw = b.phi(T.i32, [[cInt(T.i32, 10), s1], [x2, s2], [cUndef(T.i32), sdef]]);
  // atomics, fence, asm, struct gep through the byval param
  const f1 = b.gep(stTy, sv, [cInt(T.i64, 0), cInt(T.i32, 2), cInt(T.i64, 1)]);
  const hv = b.load(T.i16, f1, 2);
  const og = b.gep(T.i32, out, [b.cast('sext', b.cast('sext', hv, T.i32), T.i64)]);
  const old = b.atomicrmw('add', og, sw, 'monotonic', 'device');
  b.atomicrmw('fadd', og, b.load(T.f32, c4), 'monotonic', 'block');
  const cx = b.cmpxchg(og, old, cInt(T.i32, 0), 'acq_rel', 'device');
  const okb = b.extractvalue(cx, [1], T.i1);
  b.fence('seq_cst', 'block');
  const asmTy = fty(T.i32, [T.i32]);
  const ia: InlineAsm = { kind: 'asm', ty: T.ptr, fnTy: asmTy, text: 'mov.u32 $0, $1; // "q"', constraints: '=r,r', sideEffects: true };
  const ar = b.call(ia, asmTy, [b.select(okb, old, cInt(T.i32, 1))]);
  const gen = b.cast('addrspacecast', og, T.ptr);
  b.store(ar, gen, 4, true);
  const dv = b.load(T.f64, d);
  const tr = b.cast('fptrunc', dv, T.f32);
  const sel = b.fcmp('olt', tr, b.fneg(sl));
  const hx = b.load(T.half, h, 2);
  const hh = b.bin('fadd', hx, cFP(T.half, 0.5));
  b.store(hh, h, 2);
  const vv = b.load(v4, vec, 16);
  const e2 = b.insert({ op: 'extractelement', ty: T.f32, ops: [vv, cInt(T.i32, 2)] });
  const v2 = b.insert({ op: 'insertelement', ty: v4, ops: [vv, e2, cInt(T.i32, 0)] });
  b.store(v2, vec, 16);
  const iv2 = b.insertvalue(cUndef(stTy), cFP(T.f32, 3), [1]);
  b.store(b.extractvalue(iv2, [1], T.f32), acc);
  const pargs = b.alloca(structTy([T.i32]), 4);
  b.store(b.cast('zext', sel, T.i32), pargs);
  b.call(vprintf, vprintf.fnTy, [{ kind: 'cexpr', ty: T.ptr, op: 'addrspacecast', base: str }, pargs]);
  const le = b.load(T.i32, ext);
  b.store(b.bin('udiv', le, cInt(T.i32, 3), { exact: true }), ext);
  b.store(b.load(T.f32, arr), acc);
  b.store(b.load(T.f32, acc), b.gep(T.f32, sp, [cInt(T.i32, 1)]));
  b.store(cNull(0), b.cast('addrspacecast', pptr, T.ptr));
  b.ret();
  return m;
}

function constFoldModule(): Module {
  const m = newModule();
  const { f, b } = addFunc(m, 'cf', T.i32, []);
  const x = b.alloca(T.i32, 4, 'x');
  b.store(cInt(T.i32, 6), x);
  const v = b.bin('add', b.bin('mul', b.load(T.i32, x), cInt(T.i32, 7)), cInt(T.i32, 1));
  const yes = b.newBlock('yes'), no = b.newBlock('no');
  b.condbr(b.icmp('sgt', v, cInt(T.i32, 40)), yes, no);
  b.setBlock(yes); b.ret(v);
  b.setBlock(no); b.ret(cInt(T.i32, 0));
  void f;
  return m;
}

describe('llprint', () => {
  it('prints a module with every construct that llvm-as and opt accept', () => {
    const m = everythingModule();
    expect(verifyModule(m)).toEqual([]);
    const text = printModule(m);
    expect(text).toContain('target triple = "nvptx64-nvidia-cuda"');
    expect(text).toContain('@smem = internal addrspace(3) global [256 x float] undef, align 4');
    expect(text).toContain('!{ptr @kern, !"kernel", i32 1}');
    expect(text).toContain('!{ptr @kern, !"maxntidx", i32 256}');
    expect(text).toContain('syncscope("device") monotonic');
    expect(text).toContain('call i32 asm sideeffect "mov.u32 $0, $1; // \\22q\\22", "=r,r"(i32');
    expect(text).toContain('@"weird name.1" = weak addrspace(1) global i64 -9223372036854775808');
    expect(text).toContain('0xH3C00');
    llvmAccepts(text);
  });

  it('prints float constants as LLVM hex doubles', () => {
    expect(fpConstStr(T.f32, 1)).toBe('0x3FF0000000000000');
    expect(fpConstStr(T.f32, 0.1)).toBe('0x3FB99999A0000000');
    expect(fpConstStr(T.f64, 0.1)).toBe('0x3FB999999999999A');
    expect(fpConstStr(T.f32, -0)).toBe('0x8000000000000000');
    expect(fpConstStr(T.f32, Infinity)).toBe('0x7FF0000000000000');
    expect(fpConstStr(T.half, 1)).toBe('0xH3C00');
    expect(fpConstStr(T.half, 65504)).toBe('0xH7BFF');
    expect(fpConstStr(T.half, 2 ** -24)).toBe('0xH0001');
    expect(fpConstStr(T.half, 1e6)).toBe('0xH7C00');
    expect(fpConstStr(T.bfloat, 1)).toBe('0xR3F80');
    // round to nearest even for half: 1 + 2^-11 is a tie -> 1.0; 1 + 3*2^-11 -> 1 + 2^-9
    expect(fpConstStr(T.half, 1 + 2 ** -11)).toBe('0xH3C00');
    expect(fpConstStr(T.half, 1 + 3 * 2 ** -11)).toBe('0xH3C02');
  });

  it('numbers unnamed values and uniquifies duplicate names', () => {
    const m = newModule();
    const { f, b } = addFunc(m, 'u', T.i32, [T.i32, T.i32]);
    f.params[1]!.name = '7';
    const a1 = b.bin('add', f.params[0]!, f.params[1]!); a1.name = 'v';
    const a2 = b.bin('add', a1, a1); a2.name = 'v';
    const a3 = b.bin('mul', a2, a1);
    const nb = b.newBlock('');
    b.br(nb); b.setBlock(nb); b.ret(a3);
    const text = printModule(m);
    expect(text).toContain('%v.1 = add i32 %v, %v');
    llvmAccepts(text);
  });
});

describe('verifyModule', () => {
  it('accepts valid modules', () => {
    expect(verifyModule(constFoldModule())).toEqual([]);
  });
  it('catches broken modules', () => {
    const errsOf = (build: (m: Module) => void): string[] => { const m = newModule(); build(m); return verifyModule(m); };
    // missing terminator
    expect(errsOf(m => { const { b } = addFunc(m, 'f', T.void, []); b.bin('add', cInt(T.i32, 1), cInt(T.i32, 2)); }).join()).toMatch(/terminator/);
    // use before def
    expect(errsOf(m => {
      const { b } = addFunc(m, 'f', T.i32, [T.i32]);
      const x = b.bin('add', cInt(T.i32, 1), cInt(T.i32, 2));
      const y = b.bin('add', x, x);
      const bl = b.block!; bl.insts.reverse(); bl.insts.push(b.ret(y)); bl.insts.splice(bl.insts.length - 2, 1);
    }).join()).toMatch(/before its definition/);
    // non-dominating use
    expect(errsOf(m => {
      const { f, b } = addFunc(m, 'f', T.i32, [T.i1]);
      const l = b.newBlock('l'), r = b.newBlock('r'), j = b.newBlock('j');
      b.condbr(f.params[0]!, l, r);
      b.setBlock(l); const v = b.bin('add', cInt(T.i32, 1), cInt(T.i32, 2)); b.br(j);
      b.setBlock(r); b.br(j);
      b.setBlock(j); b.ret(v);
    }).join()).toMatch(/does not dominate/);
    // phi not matching predecessors
    expect(errsOf(m => {
      const { f, b } = addFunc(m, 'f', T.i32, [T.i1]);
      const l = b.newBlock('l'), j = b.newBlock('j');
      b.condbr(f.params[0]!, l, j);
      b.setBlock(l); b.br(j);
      b.setBlock(j); b.ret(b.phi(T.i32, [[cInt(T.i32, 1), l]]));
    }).join()).toMatch(/do not match predecessors/);
    // kernel returning a value, store to constant memory, type mismatch, ret type
    const e = errsOf(m => {
      const { f, b } = addFunc(m, 'k', T.i32, [ptrTy(4), T.i64]);
      f.isKernel = true;
      b.store(cInt(T.i32, 1), f.params[0]!);
      b.insert({ op: 'add', ty: T.i32, ops: [cInt(T.i32, 1), f.params[1]!] });
      b.ret(f.params[1]!);
    }).join('\n');
    expect(e).toMatch(/kernels must return void/);
    expect(e).toMatch(/constant memory/);
    expect(e).toMatch(/rhs has type i64/);
    expect(e).toMatch(/return value has type i64/);
    // addrspacecast between two specific spaces, cmpxchg on i16, narrow param without ext attr
    const e2 = errsOf(m => {
      const { f, b } = addFunc(m, 'g', T.void, [ptrTy(1), T.i16]);
      b.cast('addrspacecast', f.params[0]!, ptrTy(3));
      b.cmpxchg(f.params[0]!, f.params[1]!, f.params[1]!);
      b.ret();
    }).join('\n');
    expect(e2).toMatch(/two non-generic/);
    expect(e2).toMatch(/cmpxchg on i16/);
    expect(e2).toMatch(/zeroext or signext/);
    // dangling operand (instruction deleted from its block)
    expect(errsOf(m => {
      const { b } = addFunc(m, 'f', T.i32, []);
      const x = b.bin('add', cInt(T.i32, 1), cInt(T.i32, 2));
      b.ret(x);
      b.block!.insts.shift();
    }).join()).toMatch(/not in this function/);
  });
});

describe('optimize', () => {
  const opts = { ...defaultOptions(), optLevel: 3 as const };
  it('keeps the everything module valid and promotes scalar allocas', () => {
    const m = everythingModule();
    optimize(m, opts);
    expect(verifyModule(m)).toEqual([]);
    const text = printModule(m);
    llvmAccepts(text);
    const k = m.funcs.find(f => f.name === 'kern')!;
    const allocas = k.blocks.flatMap(b => b.insts).filter(i => i.op === 'alloca').map(i => i.srcTy!.k);
    expect(allocas).not.toContain('int');
    expect(allocas).not.toContain('float');
    // the loop still exists (trip count unknown) and has a phi
    expect(k.blocks.flatMap(b => b.insts).some(i => i.op === 'phi')).toBe(true);
  });

  it('folds a constant function down to ret', () => {
    const m = constFoldModule();
    // -rdc keeps the uncalled external function (without it, whole-program mode drops it, as cicc does)
    optimize(m, { ...opts, rdc: true });
    expect(verifyModule(m)).toEqual([]);
    const f = m.funcs[0]!;
    expect(f.blocks.length).toBe(1);
    expect(f.blocks[0]!.insts.length).toBe(1);
    const r = f.blocks[0]!.insts[0]! as Inst;
    expect(r.op).toBe('ret');
    expect((r.ops[0] as Const & { kind: 'int' }).value).toBe(43n);
    llvmAccepts(printModule(m));
  });

  it('does nothing at O0', () => {
    const m = constFoldModule();
    const before = printModule(m);
    optimize(m, { ...opts, optLevel: 0 });
    expect(printModule(m)).toBe(before);
  });

  it('CSEs pure values and sreg reads but not atomics; a load after a store gets the stored value', () => {
    const m = newModule();
    const tid = declareFunc(m, 'llvm.nvvm.read.ptx.sreg.tid.x', fty(T.i32, []), { readnone: true });
    const { f, b } = addFunc(m, 'c', T.void, [ptrTy(1)]);
    const p = f.params[0]!;
    const t1 = b.call(tid, tid.fnTy, []), t2 = b.call(tid, tid.fnTy, []);
    const g1 = b.gep(T.i32, p, [b.cast('zext', t1, T.i64)]), g2 = b.gep(T.i32, p, [b.cast('zext', t2, T.i64)]);
    const l1 = b.load(T.i32, g1), l2 = b.load(T.i32, g2);
    b.store(b.bin('add', l1, l2), g1);
    const l3 = b.load(T.i32, g2);
    const a1 = b.atomicrmw('add', g1, l3), a2 = b.atomicrmw('add', g1, l3);
    b.store(b.bin('add', a1, a2), g2);
    b.ret();
    optimize(m, opts);
    expect(verifyModule(m)).toEqual([]);
    const ops = f.blocks[0]!.insts.map(i => i.op);
    expect(ops.filter(o => o === 'call').length).toBe(1);
    expect(ops.filter(o => o === 'gep').length).toBe(1);
    // l2 = l1 (same address, no write between); l3 after the store reads the stored sum, not l1
    expect(ops.filter(o => o === 'load').length).toBe(1);
    const rmws = f.blocks[0]!.insts.filter(i => i.op === 'atomicrmw');
    expect(rmws.length).toBe(2);
    for (const r of rmws) expect((r.ops[1] as Inst).op).toBe('add');
    llvmAccepts(printModule(m));
  });

  it('simplifies the CFG: constant switch, forwarding blocks, block merging', () => {
    const m = newModule();
    const { f, b } = addFunc(m, 's', T.i32, [T.i32]);
    const x = b.alloca(T.i32, 4, 'x');
    b.store(cInt(T.i32, 2), x);
    const c1 = b.newBlock('c1'), c2 = b.newBlock('c2'), d = b.newBlock('d'), fw = b.newBlock('fw'), j = b.newBlock('j');
    b.switch_(b.load(T.i32, x), d, [[cInt(T.i32, 1), c1], [cInt(T.i32, 2), c2]]);
    b.setBlock(c1); b.store(cInt(T.i32, 100), x); b.br(j);
    b.setBlock(c2); b.store(b.bin('mul', f.params[0]!, cInt(T.i32, 3)), x); b.br(fw);
    b.setBlock(fw); b.br(j);
    b.setBlock(d); b.br(j);
    b.setBlock(j); b.ret(b.load(T.i32, x));
    optimize(m, opts);
    expect(verifyModule(m)).toEqual([]);
    expect(f.blocks.length).toBe(1);
    expect(f.blocks[0]!.insts.map(i => i.op)).toEqual(['mul', 'ret']);
    llvmAccepts(printModule(m));
  });
});
