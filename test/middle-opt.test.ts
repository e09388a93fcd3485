// The optimizer's newer passes checked against LLVM: random programs over struct/array allocas (SROA,
// struct copies through llvm.memcpy, memset, loads through phi/select of allocas) and calls to small
// functions with by-value aggregates (inliner) are run by `lli` before and after optimize(); the output
// must not change, and the allocas must be gone. Address-space inference is checked on the IR shape.
import { describe, it, expect } from 'vitest';
import { Builder, T, AS, newFunc, newModule, newGlobal, cInt, arrayTy, structTy, declareFunc, ptrTy } from '../compiler/middle/ir';
import type { BinOp, Block, Func, Inst, Module, Type, Value } from '../compiler/middle/ir';
import { printModule } from '../compiler/middle/llprint';
import { optimize, inlineSummary } from '../compiler/middle/passes';
import { sroa } from '../compiler/middle/passes/sroa';
import { inferAddressSpaces } from '../compiler/middle/passes/addrspace';
import { verifyModule } from '../compiler/middle/verify';
import { defaultOptions } from '../compiler/options';
import { HAVE_LLI, lli, llvmAccepts } from './helpers/llvm';
import { fty, hostModule } from './helpers/host-module';

const opts = { ...defaultOptions(), optLevel: 3 as const };
const structural = (m: Module): string[] => verifyModule(m).filter(e => !e.includes('triple') && !e.includes('data layout'));

let seed = 1;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)]!;

function hostModuleWithMem(): { m: Module; b: Builder; print: (v: Value) => void; memcpy: Func; memset: Func } {
  const { m, b, print } = hostModule();
  const memcpy = declareFunc(m, 'llvm.memcpy.p0.p0.i64', fty(T.void, [T.ptr, T.ptr, T.i64, T.i1]));
  const memset = declareFunc(m, 'llvm.memset.p0.i64', fty(T.void, [T.ptr, T.i8, T.i64, T.i1]));
  return { m, b, print, memcpy, memset };
}

// { i32, { i16, i32 }, [3 x i32], i64 }: leaves at 0, 4, 8, 12, 16, 20, 24
const INNER = structTy([T.i16, T.i32]);
const AGG = structTy([T.i32, INNER, arrayTy(3, T.i32), T.i64]);
const FIELDS: { path: number[]; ty: Type }[] = [
  { path: [0], ty: T.i32 }, { path: [1, 0], ty: T.i16 }, { path: [1, 1], ty: T.i32 },
  { path: [2, 0], ty: T.i32 }, { path: [2, 1], ty: T.i32 }, { path: [2, 2], ty: T.i32 }, { path: [3], ty: T.i64 },
];

/** A random program over two aggregate allocas, printing every field at the end. */
function randomAggProgram(s: number, stmts = 8, regions = false): Module {
  seed = s;
  const { m, b, print, memcpy, memset } = hostModuleWithMem();
  const aggs = [b.alloca(AGG, 8, 'a'), b.alloca(AGG, 8, 'b')];
  const fieldPtr = (a: Value, f: { path: number[] }): Value => b.gep(AGG, a, [cInt(T.i64, 0), ...f.path.map(x => cInt(T.i32, x))]);
  const asI64 = (v: Value): Value => (v.ty === T.i64 ? v : b.cast('sext', v, T.i64));
  const fromI64 = (v: Value, t: Type): Value => (t === T.i64 ? v : b.cast('trunc', v, t));
  for (const a of aggs) b.call(memset, memset.fnTy, [a, cInt(T.i8, 0), cInt(T.i64, 32), cInt(T.i1, 0)]);
  let blockNo = 0;
  let depth = 0;
  const stmt = (): void => {
    const r = rnd();
    if (regions && r < 0.25) {
      // a dynamic index into the [3 x i32] member (stays in memory), or a copy between two of its parts
      const a = pick(aggs);
      if (rnd() < 0.5) {
        const k = b.bin('urem', b.load(T.i32, fieldPtr(a, FIELDS[0]!)), cInt(T.i32, 3));
        const p = b.gep(AGG, a, [cInt(T.i64, 0), cInt(T.i32, 2), b.cast('zext', k, T.i64)]);
        b.store(b.bin('add', b.load(T.i32, p), cInt(T.i32, 5)), rnd() < 0.5 ? p : fieldPtr(a, FIELDS[2]!));
      } else {
        // decayed pointer to the member, indexed through an i8 gep
        const base = b.gep(T.i8, a, [cInt(T.i64, 12)]);
        const k = b.bin('and', b.load(T.i32, fieldPtr(a, FIELDS[2]!)), cInt(T.i32, 2));
        const p = b.gep(T.i32, base, [b.cast('zext', k, T.i64)]);
        b.store(b.bin('xor', b.load(T.i32, p), cInt(T.i32, 9)), fieldPtr(a, FIELDS[0]!));
      }
      return;
    }
    if (regions && r < 0.35) {
      // member struct assignment inside one aggregate: the two i32 fields of the inner pair ↔ array
      const a = pick(aggs);
      const [d, sOff] = rnd() < 0.5 ? [16, 12] : [24, 4];
      void sOff;
      if (d === 16) b.call(memcpy, memcpy.fnTy, [b.gep(T.i8, a, [cInt(T.i64, 20)]), b.gep(T.i8, a, [cInt(T.i64, 16)]), cInt(T.i64, 4), cInt(T.i1, 0)]);
      else b.call(memcpy, memcpy.fnTy, [a, b.gep(T.i8, a, [cInt(T.i64, 8)]), cInt(T.i64, 4), cInt(T.i1, 0)]);
      return;
    }
    if (r < 0.45 || depth > 2) {
      const f = pick(FIELDS), g = pick(FIELDS);
      const x = asI64(b.load(g.ty, fieldPtr(pick(aggs), g)));
      const op = pick<BinOp>(['add', 'sub', 'mul', 'xor', 'or']);
      const v = b.bin(op, x, cInt(T.i64, Math.floor(rnd() * 100) - 30));
      b.store(fromI64(v, f.ty), fieldPtr(pick(aggs), f));
    } else if (r < 0.55) {
      const [d, s2] = rnd() < 0.5 ? [aggs[0]!, aggs[1]!] : [aggs[1]!, aggs[0]!];
      b.call(memcpy, memcpy.fnTy, [d, s2, cInt(T.i64, 32), cInt(T.i1, 0)]);
    } else if (r < 0.62) {
      // copy the inner struct only (bytes 4..12) through i8 geps, as the front end does for members
      const d = b.gep(T.i8, aggs[0]!, [cInt(T.i64, 4)]), s2 = b.gep(T.i8, aggs[1]!, [cInt(T.i64, 4)]);
      b.call(memcpy, memcpy.fnTy, [d, s2, cInt(T.i64, 8), cInt(T.i1, 0)]);
    } else if (r < 0.7) {
      // whole-aggregate load and store
      const v = b.load(AGG, pick(aggs), 8);
      b.store(v, pick(aggs), 8);
    } else if (r < 0.8) {
      // std::max-style: load through a select of two field pointers
      const f = FIELDS[pick([0, 2, 3, 4])]!;
      const p0 = fieldPtr(aggs[0]!, f), p1 = fieldPtr(aggs[1]!, f);
      const c = b.icmp('sgt', b.load(T.i32, p0), b.load(T.i32, p1));
      const v = b.load(T.i32, b.select(c, p0, p1));
      b.store(b.bin('add', v, cInt(T.i32, 1)), fieldPtr(pick(aggs), FIELDS[0]!));
    } else {
      depth++;
      const t = b.newBlock(`then${blockNo}`), e = b.newBlock(`else${blockNo}`), j = b.newBlock(`join${blockNo++}`);
      const c = b.icmp('slt', b.load(T.i32, fieldPtr(aggs[0]!, FIELDS[0]!)), b.load(T.i32, fieldPtr(aggs[1]!, FIELDS[2]!)));
      b.condbr(c, t, e);
      b.setBlock(t); stmt(); const p0 = fieldPtr(aggs[0]!, FIELDS[3]!); const tEnd = b.block!; b.br(j);
      b.setBlock(e); stmt(); const p1 = fieldPtr(aggs[1]!, FIELDS[4]!); const eEnd = b.block!; b.br(j);
      b.setBlock(j);
      // a phi of pointers into the two allocas, loaded right away
      const ph = b.phi(T.ptr, [[p0, tEnd], [p1, eEnd]]);
      b.store(b.load(T.i32, ph), fieldPtr(pick(aggs), FIELDS[5]!));
      depth--;
    }
  };
  for (let k = 0; k < stmts; k++) stmt();
  for (const a of aggs) for (const f of FIELDS) print(asI64(b.load(f.ty, fieldPtr(a, f))));
  b.ret(cInt(T.i32, 0));
  return m;
}

/** Runs program s before and after optimize() in lli: same output, well-formed IR. The optimised text. */
function sameOutputOptimised(m: Module, s: number): string {
  expect(structural(m)).toEqual([]);
  const before = lli(printModule(m));
  expect(before.status, before.err).toBe(0);
  optimize(m, opts);
  expect(structural(m)).toEqual([]);
  const text = printModule(m);
  const after = lli(text);
  expect(after.err).toBe('');
  expect(after.out, `program ${s}`).toBe(before.out);
  return text;
}

describe.skipIf(!HAVE_LLI)('SROA and load speculation on random programs (lli)', () => {
  it('keep the output and remove the aggregate allocas (MIDDLE_FUZZ, default 40)', () => {
    let split = 0;
    for (let s = 1; s <= Number(process.env.MIDDLE_FUZZ ?? 40); s++) {
      const text = sameOutputOptimised(randomAggProgram(s * 104729), s);
      if (!/alloca/.test(text)) split++;
    }
    // every program only uses constant offsets and whole-aggregate copies: all of them must be promoted
    expect(split).toBe(Number(process.env.MIDDLE_FUZZ ?? 40));
  });
});

describe.skipIf(!HAVE_LLI)('SROA with array members indexed dynamically (lli)', () => {
  it('keeps the output; only the indexed member stays in memory (MIDDLE_FUZZ, default 40)', () => {
    const n = Number(process.env.MIDDLE_FUZZ ?? 40);
    for (let s = 1; s <= n; s++) {
      const m = randomAggProgram(s * 15485863, 10, true);
      const before = lli(printModule(m));
      expect(before.status, before.err).toBe(0);
      optimize(m, opts);
      expect(structural(m)).toEqual([]);
      const text = printModule(m);
      const after = lli(text);
      expect(after.err).toBe('');
      expect(after.out, `program ${s}`).toBe(before.out);
      // the aggregate itself is gone; at most [12 x i8] pieces (the array member) remain
      expect(text).not.toMatch(/alloca \{/);
      for (const mm of text.matchAll(/alloca (\[\d+ x i8\])/g)) expect(mm[1]).toBe('[12 x i8]');
    }
  });
});

describe('SROA leaves what it cannot split', () => {
  it('keeps an alloca with a dynamic index or an escaping address', () => {
    const m = newModule();
    const f = newFunc('f', fty(T.i32, [T.i32, T.ptr]));
    m.funcs.push(f);
    const b = new Builder(f);
    b.setBlock(b.newBlock('entry'));
    const dyn = b.alloca(arrayTy(4, T.i32), 4, 'dyn');
    const esc = b.alloca(AGG, 8, 'esc');
    b.store(cInt(T.i32, 1), b.gep(arrayTy(4, T.i32), dyn, [cInt(T.i64, 0), b.cast('sext', f.params[0]!, T.i64)]));
    b.store(esc, f.params[1]!);
    b.ret(b.load(T.i32, dyn));
    expect(sroa(f)).toBe(false);
    expect(f.blocks[0]!.insts.filter(i => i.op === 'alloca').length).toBe(2);
    expect(structural(m)).toEqual([]);
  });
});

describe.skipIf(!HAVE_LLI)('inliner (lli)', () => {
  it('inlines a callee taking a struct by value and keeps the output', () => {
    const { m, b, print } = hostModule();
    const S = structTy([T.i32, T.i64]);
    const callee = newFunc('use_s', fty(T.i64, [T.ptr, T.i32]), 'internal');
    callee.params[0]!.byval = S; callee.params[0]!.align = 8;
    m.funcs.push(callee);
    const cb = new Builder(callee);
    cb.setBlock(cb.newBlock('entry'));
    const p = callee.params[0]!;
    const f1 = cb.gep(S, p, [cInt(T.i64, 0), cInt(T.i32, 1)]);
    // the callee writes its private copy: the caller's struct must not change
    cb.store(cb.bin('add', cb.load(T.i64, f1), cInt(T.i64, 5)), f1);
    const x = cb.cast('sext', cb.bin('mul', cb.load(T.i32, p), callee.params[1]!), T.i64);
    cb.ret(cb.bin('add', x, cb.load(T.i64, f1)));
    const s = b.alloca(S, 8, 's');
    b.store(cInt(T.i32, 7), s);
    b.store(cInt(T.i64, 100), b.gep(S, s, [cInt(T.i64, 0), cInt(T.i32, 1)]));
    print(b.call(callee, callee.fnTy, [s, cInt(T.i32, 3)]));
    print(b.call(callee, callee.fnTy, [s, cInt(T.i32, -2)]));
    print(b.load(T.i64, b.gep(S, s, [cInt(T.i64, 0), cInt(T.i32, 1)])));
    b.ret(cInt(T.i32, 0));
    const before = lli(printModule(m));
    expect(before.out).toBe('126\n91\n100\n');
    optimize(m, opts);
    expect(structural(m)).toEqual([]);
    expect(m.funcs.map(f => f.name)).not.toContain('use_s');
    const text = printModule(m);
    expect(lli(text).out).toBe(before.out);
    expect(text).not.toMatch(/alloca/);
  });

  it('passes what a noinline callee only reads as scalars, never past a write or a conditional load', () => {
    const { m, b, print } = hostModule();
    const S = structTy([T.i32, T.i64]);
    const mk = (name: string, params: Type[]): { f: Func; fb: Builder } => {
      const f = newFunc(name, fty(T.i64, params), 'internal');
      f.attrs.noinline = true;
      m.funcs.push(f);
      const fb = new Builder(f); fb.setBlock(fb.newBlock('entry'));
      return { f, fb };
    };
    const field1 = (bb: Builder, p: Value): Value => bb.gep(S, p, [cInt(T.i64, 0), cInt(T.i32, 1)]);
    // rd(const S &p): loads only -> promoted
    const rd = mk('rd', [T.ptr]);
    rd.fb.ret(rd.fb.bin('add', rd.fb.cast('sext', rd.fb.load(T.i32, rd.f.params[0]!), T.i64), rd.fb.load(T.i64, field1(rd.fb, rd.f.params[0]!))));
    // alias(const i64 &a, i64 *w): the write may change *a -> stays a pointer
    const al = mk('alias', [T.ptr, T.ptr]);
    al.fb.store(cInt(T.i64, 5), al.f.params[1]!);
    al.fb.ret(al.fb.load(T.i64, al.f.params[0]!));
    // cond(i64 *p, i32 c): loads p only when c != 0 (p may be null) -> stays a pointer
    const cd = mk('cond', [T.ptr, T.i32]);
    const yes = cd.fb.newBlock('yes'), no = cd.fb.newBlock('no');
    cd.fb.condbr(cd.fb.icmp('ne', cd.f.params[1]!, cInt(T.i32, 0)), yes, no);
    cd.fb.setBlock(yes); cd.fb.ret(cd.fb.load(T.i64, cd.f.params[0]!));
    cd.fb.setBlock(no); cd.fb.ret(cInt(T.i64, 0));
    // bv(S s by value, i32 c): its private copy may be loaded anywhere -> promoted
    const bv = mk('bv', [T.ptr, T.i32]);
    bv.f.params[0]!.byval = S; bv.f.params[0]!.align = 8;
    const y2 = bv.fb.newBlock('yes'), n2 = bv.fb.newBlock('no');
    bv.fb.condbr(bv.fb.icmp('ne', bv.f.params[1]!, cInt(T.i32, 0)), y2, n2);
    bv.fb.setBlock(y2); bv.fb.ret(bv.fb.load(T.i64, field1(bv.fb, bv.f.params[0]!)));
    bv.fb.setBlock(n2); bv.fb.ret(cInt(T.i64, -1));

    const s = b.alloca(S, 8, 's');
    b.store(cInt(T.i32, 7), s);
    b.store(cInt(T.i64, 100), field1(b, s));
    print(b.call(rd.f, rd.f.fnTy, [s]));
    print(b.call(bv.f, bv.f.fnTy, [s, cInt(T.i32, 1)]));
    print(b.call(bv.f, bv.f.fnTy, [s, cInt(T.i32, 0)]));
    const x = b.alloca(T.i64, 8, 'x');
    b.store(cInt(T.i64, 1), x);
    print(b.call(al.f, al.f.fnTy, [x, x]));
    print(b.call(cd.f, cd.f.fnTy, [{ kind: 'null', ty: T.ptr }, cInt(T.i32, 0)]));
    print(b.call(cd.f, cd.f.fnTy, [x, cInt(T.i32, 1)]));
    b.ret(cInt(T.i32, 0));
    const before = lli(printModule(m));
    expect(before.out).toBe('107\n100\n-1\n5\n0\n5\n');
    optimize(m, opts);
    expect(structural(m)).toEqual([]);
    const text = printModule(m);
    expect(lli(text).out).toBe(before.out);
    const ptrParams = (f: Func): number => f.params.filter(a => a.ty.k === 'ptr').length;
    expect([rd.f, bv.f, al.f, cd.f].map(ptrParams)).toEqual([0, 0, 2, 1]);
    expect(rd.f.params.map(a => a.ty)).toEqual([T.i32, T.i64]);
    // the struct no longer needs memory in the caller
    expect(text).not.toMatch(/alloca \{ i32, i64 \}/);
  });

  it('decides from summaries: recursive and noinline callees stay calls', () => {
    const m = newModule();
    const rec = newFunc('rec', fty(T.i32, [T.i32]), 'internal');
    const rb = new Builder(rec); rb.setBlock(rb.newBlock('entry'));
    rb.ret(rb.call(rec, rec.fnTy, [rec.params[0]!]));
    const no = newFunc('no', fty(T.i32, [T.i32]), 'internal');
    no.attrs.noinline = true;
    const nb = new Builder(no); nb.setBlock(nb.newBlock('entry')); nb.ret(no.params[0]!);
    const k = newFunc('k', fty(T.void, [T.ptr]));
    k.isKernel = true;
    const kb = new Builder(k); kb.setBlock(kb.newBlock('entry'));
    kb.store(kb.bin('add', kb.call(rec, rec.fnTy, [cInt(T.i32, 1)]), kb.call(no, no.fnTy, [cInt(T.i32, 2)])), k.params[0]!);
    kb.ret();
    m.funcs.push(rec, no, k);
    expect(inlineSummary(rec).recursive).toBe(true);
    expect(inlineSummary(no).inlinable).toBe(false);
    optimize(m, opts);
    const calls = k.blocks.flatMap(b => b.insts).filter(i => i.op === 'call').map(i => (i.ops[0] as Func).name).sort();
    expect(calls).toEqual(['no', 'rec']);
    expect(verifyModule(m)).toEqual([]);
    llvmAccepts(printModule(m));
  });
});

describe('address-space inference', () => {
  function kernelWith(build: (b: Builder, k: Func, m: Module) => void): { m: Module; k: Func } {
    const m = newModule();
    const k = newFunc('k', fty(T.void, [T.ptr, T.ptr, T.i32]));
    k.isKernel = true;
    m.funcs.push(k);
    const b = new Builder(k);
    b.setBlock(b.newBlock('entry'));
    build(b, k, m);
    return { m, k };
  }
  const memOps = (f: Func): Inst[] => f.blocks.flatMap(b => b.insts).filter(i => i.op === 'load' || i.op === 'store' || i.op === 'atomicrmw');
  const spaceOfAccess = (i: Inst): number => ((i.op === 'store' ? i.ops[1]! : i.ops[0]!).ty as { as: number }).as;

  it('kernel pointer params and __shared__ variables get their space; phis agree or stay generic', () => {
    const { m, k } = kernelWith((b, k, m) => {
      const sh = newGlobal('tile', arrayTy(64, T.i32), AS.shared, { kind: 'undef', ty: arrayTy(64, T.i32) }, { linkage: 'internal' });
      m.globals.push(sh);
      const shGen = b.cast('addrspacecast', sh, T.ptr);
      const i64 = b.cast('sext', k.params[2]!, T.i64);
      const src = b.gep(T.i32, k.params[0]!, [i64]);
      const v = b.load(T.i32, src);
      b.store(v, b.gep(arrayTy(64, T.i32), shGen, [cInt(T.i64, 0), i64]));
      const t = b.newBlock('t'), e = b.newBlock('e'), j = b.newBlock('j');
      b.condbr(b.icmp('sgt', v, cInt(T.i32, 0)), t, e);
      b.setBlock(t); const pt = b.gep(T.i32, k.params[1]!, [cInt(T.i64, 1)]); b.br(j);
      b.setBlock(e); b.br(j);
      b.setBlock(j);
      const same = b.phi(T.ptr, [[pt, t], [k.params[1]!, e]]);          // both global
      const mixed = b.phi(T.ptr, [[pt, t], [shGen, e]]);               // global or shared: ambiguous
      b.store(cInt(T.i32, 1), same);
      b.atomicrmw('add', mixed, cInt(T.i32, 1));
      b.ret();
    });
    expect(inferAddressSpaces(k)).toBe(true);
    expect(verifyModule(m)).toEqual([]);
    llvmAccepts(printModule(m));
    expect(memOps(k).map(spaceOfAccess)).toEqual([AS.global, AS.shared, AS.global, AS.generic]);
  });

  it('accesses to an alloca are local (atomics on it stay generic)', () => {
    const m = newModule();
    const f = newFunc('dev', fty(T.i32, [T.i32]));
    m.funcs.push(f);
    const b = new Builder(f);
    b.setBlock(b.newBlock('entry'));
    const arr = b.alloca(arrayTy(4, T.i32), 4, 'arr');
    const p = b.gep(arrayTy(4, T.i32), arr, [cInt(T.i64, 0), b.cast('sext', f.params[0]!, T.i64)]);
    b.store(cInt(T.i32, 3), p);
    b.atomicrmw('add', p, cInt(T.i32, 1));
    b.ret(b.load(T.i32, b.gep(arrayTy(4, T.i32), arr, [cInt(T.i64, 0), cInt(T.i64, 1)])));
    expect(inferAddressSpaces(f)).toBe(true);
    expect(verifyModule(m)).toEqual([]);
    llvmAccepts(printModule(m));
    expect(memOps(f).map(spaceOfAccess)).toEqual([AS.local, AS.generic, AS.local]);
  });

  it('never assumes a space for a device function parameter or a loaded pointer', () => {
    const m = newModule();
    const f = newFunc('dev', fty(T.void, [T.ptr]));
    m.funcs.push(f);
    const b = new Builder(f);
    b.setBlock(b.newBlock('entry'));
    const q = b.load(T.ptr, f.params[0]!);
    b.store(cInt(T.i32, 3), q);
    b.ret();
    expect(inferAddressSpaces(f)).toBe(false);
    expect(memOps(f).map(spaceOfAccess)).toEqual([AS.generic, AS.generic]);
    void ptrTy;
  });
});

/** for (i = start; i <pred> end; i += step) { body(i) } with a per-iteration local array and invariant maths. */
function loopProgram(start: number, end: number, step: number, pred: 'slt' | 'ne' | 'sle', withBreak: boolean, pragma?: number): Module {
  const { m, b, print } = hostModule();
  const arr = b.alloca(arrayTy(8, T.i32), 4, 'arr');
  const g = newGlobal('gv', T.i32, 0, cInt(T.i32, 11), { linkage: 'internal' });
  m.globals.push(g);
  for (let k = 0; k < 8; k++) b.store(cInt(T.i32, k * 3), b.gep(arrayTy(8, T.i32), arr, [cInt(T.i64, 0), cInt(T.i64, k)]));
  const acc = b.alloca(T.i32, 4, 'acc');
  b.store(cInt(T.i32, 1), acc);
  const iv = b.alloca(T.i32, 4, 'i');
  b.store(cInt(T.i32, start), iv);
  const cond = b.newBlock('for.cond'), body = b.newBlock('for.body'), inc = b.newBlock('for.inc'), end_ = b.newBlock('for.end');
  b.br(cond);
  b.setBlock(cond);
  b.condbr(b.icmp(pred, b.load(T.i32, iv), cInt(T.i32, end)), body, end_).unroll = pragma;
  b.setBlock(body);
  const i = b.load(T.i32, iv);
  const inv = b.bin('mul', b.load(T.i32, g), cInt(T.i32, 7));          // loop-invariant load and maths
  const slot = b.gep(arrayTy(8, T.i32), arr, [cInt(T.i64, 0), b.cast('sext', b.bin('and', i, cInt(T.i32, 7)), T.i64)]);
  const v = b.bin('add', b.load(T.i32, slot), b.bin('mul', i, inv));
  b.store(v, slot);
  b.store(b.bin('xor', b.bin('mul', b.load(T.i32, acc), cInt(T.i32, 3)), v), acc);
  if (withBreak) {
    const more = b.newBlock('more');
    b.condbr(b.icmp('sgt', b.load(T.i32, acc), cInt(T.i32, 1 << 20)), end_, more);
    b.setBlock(more);
  }
  b.br(inc);
  b.setBlock(inc);
  b.store(b.bin('add', b.load(T.i32, iv), cInt(T.i32, step)), iv);
  b.br(cond);
  b.setBlock(end_);
  print(b.cast('sext', b.load(T.i32, acc), T.i64));
  print(b.cast('sext', b.load(T.i32, iv), T.i64));
  for (let k = 0; k < 8; k++) print(b.cast('sext', b.load(T.i32, b.gep(arrayTy(8, T.i32), arr, [cInt(T.i64, 0), cInt(T.i64, k)])), T.i64));
  b.ret(cInt(T.i32, 0));
  return m;
}

const succ = (b: Block): Block[] => b.insts[b.insts.length - 1]!.targets;
function onCycle(b: Block): boolean {
  const seen = new Set<Block>(); const work = [...succ(b)];
  while (work.length) { const x = work.pop()!; if (x === b) return true; if (!seen.has(x)) { seen.add(x); work.push(...succ(x)); } }
  return false;
}

describe.skipIf(!HAVE_LLI)('loop unrolling and LICM (lli)', () => {
  const cases: [string, number, number, number, 'slt' | 'ne' | 'sle', boolean, boolean, number?][] = [
    // name, start, end, step, predicate, break inside, expected fully unrolled, #pragma unroll
    ['8 trips', 0, 8, 1, 'slt', false, true],
    ['8 trips, #pragma unroll 1', 0, 8, 1, 'slt', false, false, 1],
    ['100 trips, #pragma unroll', 0, 100, 1, 'slt', false, true, 0],
    ['100 trips, #pragma unroll 8 (does not cover the trips)', 0, 100, 1, 'slt', false, false, 8],
    ['zero trips', 5, 5, 1, 'slt', false, true],
    ['step 3, inclusive bound', -4, 11, 3, 'sle', false, true],
    ['ne with step 2', 0, 12, 2, 'ne', false, true],
    ['too many trips', 0, 1000, 1, 'slt', false, false],
    // early exits are kept in every copy; the local array the loop indexes leaves memory
    ['break inside', 0, 8, 1, 'slt', true, true],
    ['break inside, too many trips', 0, 1000, 1, 'slt', true, false],
  ];
  it.each(cases)('%s: same output; the local array leaves memory when unrolled', (_n, s, e, st, p, brk, unrolled, pragma) => {
    const m = loopProgram(s, e, st, p, brk, pragma);
    const before = lli(printModule(m));
    expect(before.status, before.err).toBe(0);
    optimize(m, opts);
    expect(structural(m)).toEqual([]);
    const text = printModule(m);
    const after = lli(text);
    expect(after.err).toBe('');
    expect(after.out).toBe(before.out);
    const main = m.funcs.find(f => f.name === 'main')!;
    // a loop is left when some block is on a cycle (the early exits of an unrolled loop merge in phis,
    // so phis alone do not tell)
    const hasLoop = main.blocks.some(onCycle);
    expect(!/alloca/.test(text) && !hasLoop).toBe(unrolled);
    if (!unrolled) {
      // LICM: the invariant load of @gv left the loop: no block on a cycle loads it any more
      const loopBlocks = main.blocks.filter(onCycle);
      expect(loopBlocks.length).toBeGreaterThan(0);
      expect(main.blocks.some(b => b.insts.some(i => i.op === 'load' && i.ops[0]!.kind === 'global'))).toBe(true);
      for (const b of loopBlocks) expect(b.insts.some(i => i.op === 'load' && i.ops[0]!.kind === 'global')).toBe(false);
    }
  });
});

/** Type punning through a union { double; { float, float } } read and written as i8/i16/i32/i64/float/double. */
function randomUnionProgram(s: number, stmts = 12): Module {
  seed = s;
  const { m, b, print } = hostModule();
  const U = structTy([T.f64]);
  const u = b.alloca(U, 8, 'u');
  const w = b.alloca(structTy([T.f32, T.f32]), 8, 'w');
  b.store(cInt(T.i64, 0x0123456789abcdefn), u);
  b.store(cInt(T.i64, 0x3f8000004048f5c3n), w);
  const views: [Type, number[]][] = [[T.i8, [0, 1, 2, 3, 4, 5, 6, 7]], [T.i16, [0, 2, 4, 6]], [T.i32, [0, 4]], [T.f32, [0, 4]], [T.i64, [0]], [T.f64, [0]]];
  const at = (p: Value, off: number): Value => (off === 0 ? p : b.gep(T.i8, p, [cInt(T.i64, off)]));
  const toI64 = (v: Value): Value => {
    if (v.ty === T.i64) return v;
    if (v.ty === T.f64) return b.cast('bitcast', v, T.i64);
    if (v.ty === T.f32) return b.cast('zext', b.cast('bitcast', v, T.i32), T.i64);
    return b.cast('zext', v, T.i64);
  };
  const fromI64 = (v: Value, t: Type): Value => {
    if (t === T.i64) return v;
    if (t === T.f64) return b.cast('bitcast', v, T.f64);
    if (t === T.f32) return b.cast('bitcast', b.cast('trunc', v, T.i32), T.f32);
    return b.cast('trunc', v, t);
  };
  for (let k = 0; k < stmts; k++) {
    const [t, offs] = pick(views);
    const off = pick(offs);
    const p = at(pick([u, w]), off);
    if (rnd() < 0.5) {
      const [t2, offs2] = pick(views.filter(x => x[0] !== T.f64 && x[0] !== T.f32));
      const src = b.load(t2, at(pick([u, w]), pick(offs2)));
      const v = b.bin('add', toI64(src), cInt(T.i64, Math.floor(rnd() * 1000)));
      b.store(fromI64(v, t), p);
    } else print(toI64(b.load(t, p)));
  }
  for (const p of [u, w]) print(b.load(T.i64, p));
  b.ret(cInt(T.i32, 0));
  return m;
}

describe.skipIf(!HAVE_LLI)('unrolling a range-for over a local array (lli)', () => {
  it('counts the trips of a pointer stepping to the end pointer; the array leaves memory', () => {
    const { m, b, print } = hostModule();
    const A = arrayTy(6, T.i32);
    const arr = b.alloca(A, 4, 'arr');
    for (let k = 0; k < 6; k++) b.store(cInt(T.i32, k * k + 1), b.gep(A, arr, [cInt(T.i64, 0), cInt(T.i64, k)]));
    const sum = b.alloca(T.i32, 4, 'sum');
    b.store(cInt(T.i32, 0), sum);
    const it = b.alloca(T.ptr, 8, '__begin');
    b.store(arr, it);
    const endp = b.gep(T.i32, arr, [cInt(T.i64, 6)]);
    const cond = b.newBlock('for.cond'), body = b.newBlock('for.body'), done = b.newBlock('for.end');
    b.br(cond);
    b.setBlock(cond);
    b.condbr(b.icmp('ne', b.load(T.ptr, it), endp), body, done);
    b.setBlock(body);
    const cur = b.load(T.ptr, it);
    // v *= 2 in place, then s += v
    const v = b.bin('mul', b.load(T.i32, cur), cInt(T.i32, 2));
    b.store(v, cur);
    b.store(b.bin('add', b.load(T.i32, sum), v), sum);
    b.store(b.gep(T.i32, cur, [cInt(T.i64, 1)]), it);
    b.br(cond);
    b.setBlock(done);
    print(b.load(T.i32, sum));
    print(b.load(T.i32, b.gep(A, arr, [cInt(T.i64, 0), cInt(T.i64, 5)])));
    b.ret(cInt(T.i32, 0));
    expect(optimizedText(m, '122\n52\n')).not.toMatch(/alloca|br label/);
  });
});

/** Runs m with lli before and after optimize() (the same output, `out`, both times); the optimised module's text. */
function optimizedText(m: Module, out: string): string {
  const before = lli(printModule(m));
  expect(before.out).toBe(out);
  optimize(m, opts);
  expect(structural(m)).toEqual([]);
  const text = printModule(m);
  expect(lli(text).out).toBe(out);
  return text;
}

describe.skipIf(!HAVE_LLI)('unrolling std::equal over two local arrays (lli)', () => {
  // cuda::std::array's operator==: two pointers step together until the end pointer, leaving early at the
  // first difference; unrolled fully (each copy keeps its exit), both arrays leave local memory, as with cicc
  for (const [what, differ, expected] of [['arrays that differ', true, '0\n4\n'], ['equal arrays', false, '1\n4\n']] as const) {
    it(`${what}: same output, no alloca left`, () => {
      const { m, b, print } = hostModule();
      const A = arrayTy(4, T.i32);
      const a = b.alloca(A, 4, 'a'), c = b.alloca(A, 4, 'c');
      for (let k = 0; k < 4; k++) {
        b.store(cInt(T.i32, k * 3 + 1), b.gep(A, a, [cInt(T.i64, 0), cInt(T.i64, k)]));
        b.store(cInt(T.i32, differ && k === 2 ? 99 : k * 3 + 1), b.gep(A, c, [cInt(T.i64, 0), cInt(T.i64, k)]));
      }
      const p = b.alloca(T.ptr, 8, 'first1'), q = b.alloca(T.ptr, 8, 'first2'), res = b.alloca(T.i32, 4, 'res');
      b.store(a, p);
      b.store(c, q);
      const endp = b.gep(T.i32, a, [cInt(T.i64, 4)]);
      const cond = b.newBlock('cond'), body = b.newBlock('body'), step = b.newBlock('step');
      const yes = b.newBlock('yes'), no = b.newBlock('no'), done = b.newBlock('done');
      b.br(cond);
      b.setBlock(cond);
      b.condbr(b.icmp('ne', b.load(T.ptr, p), endp), body, yes);
      b.setBlock(body);
      b.condbr(b.icmp('ne', b.load(T.i32, b.load(T.ptr, p)), b.load(T.i32, b.load(T.ptr, q))), no, step);
      b.setBlock(step);
      b.store(b.gep(T.i32, b.load(T.ptr, p), [cInt(T.i64, 1)]), p);
      b.store(b.gep(T.i32, b.load(T.ptr, q), [cInt(T.i64, 1)]), q);
      b.br(cond);
      b.setBlock(yes);
      b.store(cInt(T.i32, 1), res);
      b.br(done);
      b.setBlock(no);
      b.store(cInt(T.i32, 0), res);
      b.br(done);
      b.setBlock(done);
      print(b.load(T.i32, res));
      print(b.load(T.i32, b.gep(A, c, [cInt(T.i64, 0), cInt(T.i64, 1)])));
      b.ret(cInt(T.i32, 0));
      expect(optimizedText(m, expected)).not.toMatch(/alloca/);
    });
  }
});

describe.skipIf(!HAVE_LLI)('SROA with type punning (lli)', () => {
  it('keeps the output of union punning programs and promotes them (MIDDLE_FUZZ, default 40)', () => {
    const n = Number(process.env.MIDDLE_FUZZ ?? 40);
    let promoted = 0;
    for (let s = 1; s <= n; s++) {
      const m = randomUnionProgram(s * 7727);
      const before = lli(printModule(m));
      expect(before.status, before.err).toBe(0);
      optimize(m, opts);
      expect(structural(m)).toEqual([]);
      const text = printModule(m);
      const after = lli(text);
      expect(after.err).toBe('');
      expect(after.out, `program ${s}`).toBe(before.out);
      if (!/alloca/.test(text)) promoted++;
    }
    expect(promoted).toBe(n);
  });
});

describe('load CSE across blocks (EarlyCSE generations)', () => {
  function build(shape: 'straight' | 'diamond-store' | 'barrier'): { m: Module; f: Func } {
    const m = newModule();
    const bar = declareFunc(m, 'llvm.nvvm.barrier0', fty(T.void, []), { convergent: true });
    const f = newFunc('k', fty(T.void, [ptrTy(1), ptrTy(1), T.i32]));
    f.isKernel = true;
    m.funcs.push(f);
    const b = new Builder(f);
    b.setBlock(b.newBlock('entry'));
    const [p, q, n] = f.params as [Value, Value, Value];
    const l1 = b.load(T.i32, p);
    let l2: Value;
    if (shape === 'straight') {
      const nb = b.newBlock('next');
      const other = b.newBlock('other');
      b.condbr(b.icmp('sgt', n, cInt(T.i32, 0)), nb, other);
      b.setBlock(other); b.ret();
      b.setBlock(nb); l2 = b.load(T.i32, p);                     // only reachable through entry: reuse l1
    } else if (shape === 'diamond-store') {
      const t = b.newBlock('t'), e = b.newBlock('e'), j = b.newBlock('j');
      b.condbr(b.icmp('sgt', n, cInt(T.i32, 0)), t, e);
      b.setBlock(t); b.store(cInt(T.i32, 7), q); b.br(j);        // q may alias p
      b.setBlock(e); b.br(j);
      b.setBlock(j); l2 = b.load(T.i32, p);
    } else {
      b.call(bar, bar.fnTy, []);                                  // another thread may have written *p
      l2 = b.load(T.i32, p);
    }
    b.store(b.bin('add', l1, l2), q);
    b.ret();
    return { m, f };
  }
  const loads = (f: Func): number => f.blocks.flatMap(b => b.insts).filter(i => i.op === 'load').length;
  it('reuses a load in a block reached only from the dominating one', () => {
    const { m, f } = build('straight');
    optimize(m, opts);
    expect(verifyModule(m)).toEqual([]);
    expect(loads(f)).toBe(1);
  });
  it('does not reuse it past a possible write on another path, or past a barrier', () => {
    for (const shape of ['diamond-store', 'barrier'] as const) {
      const { m, f } = build(shape);
      optimize(m, opts);
      expect(verifyModule(m)).toEqual([]);
      expect(loads(f), shape).toBe(2);
    }
  });
});

describe.skipIf(!HAVE_LLI)('clearing low bits (lli)', () => {
  it('(x / 2^C) * 2^C, (x >> C) * 2^C and (x >> C) << C become x & -2^C; other constants stay; values kept', () => {
    const { m, b, print } = hostModule();
    const srcs = [0n, 1n, 7n, 8n, 9n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0x12345678n, 0xdeadbeefn];
    const g = newGlobal('vals', arrayTy(srcs.length, T.i32), 0, { kind: 'agg', ty: arrayTy(srcs.length, T.i32), elems: srcs.map(v => cInt(T.i32, v)) }, { linkage: 'internal' });
    m.globals.push(g);
    // [inner op, inner constant, outer op, outer constant, becomes a mask]
    const forms: [BinOp, bigint, BinOp, bigint, boolean][] = [
      ['udiv', 8n, 'mul', 8n, true], ['lshr', 4n, 'mul', 16n, true], ['lshr', 5n, 'shl', 5n, true], ['udiv', 1n << 31n, 'mul', 1n << 31n, true],
      ['udiv', 6n, 'mul', 6n, false], ['lshr', 3n, 'mul', 4n, false], ['lshr', 3n, 'shl', 2n, false], ['udiv', 8n, 'mul', 16n, false],
    ];
    for (let k = 0; k < srcs.length; k++) {
      const x = b.load(T.i32, b.gep(arrayTy(srcs.length, T.i32), g, [cInt(T.i64, 0), cInt(T.i64, k)]), 4, true);
      for (const [inner, c1, outer, c2] of forms) print(b.cast('zext', b.bin(outer, b.bin(inner, x, cInt(T.i32, c1)), cInt(T.i32, c2)), T.i64));
    }
    b.ret(cInt(T.i32, 0));
    sameOutputOptimised(m, 0);
    const main = m.funcs.find(f => f.name === 'main')!;
    const ops = main.blocks.flatMap(bb => bb.insts).map(i => i.op);
    const masks = forms.filter(f => f[4]).length, kept = forms.length - masks;
    expect(ops.filter(o => o === 'and').length).toBe(masks * srcs.length);
    expect(ops.filter(o => o === 'mul' || o === 'shl').length).toBe(kept * srcs.length);
  });
});

describe.skipIf(!HAVE_LLI)('cast chains (lli)', () => {
  it('random zext/sext/trunc chains and pointer round trips keep their values', () => {
    seed = 4242;
    const { m, b, print } = hostModule();
    const ints = [T.i1, T.i8, T.i16, T.i32, T.i64];
    const srcs = [0x80n, 0x7fn, 0xfffen, 0x8001n, 0x12345678n, -1n, 0n, 1n, 0x80000000n, -0x123456789an];
    const g = newGlobal('vals', arrayTy(srcs.length, T.i64), 0, { kind: 'agg', ty: arrayTy(srcs.length, T.i64), elems: srcs.map(v => cInt(T.i64, v)) }, { linkage: 'internal' });
    m.globals.push(g);
    for (let k = 0; k < 60; k++) {
      // a volatile load keeps the value opaque to constant folding
      let v: Value = b.load(T.i64, b.gep(arrayTy(srcs.length, T.i64), g, [cInt(T.i64, 0), cInt(T.i64, k % srcs.length)]), 8, true);
      const steps = 2 + Math.floor(rnd() * 3);
      for (let s = 0; s < steps; s++) {
        const to = pick(ints);
        const from = (v.ty as { bits: number }).bits, tb = (to as { bits: number }).bits;
        if (tb < from) v = b.cast('trunc', v, to);
        else if (tb > from) v = b.cast(rnd() < 0.5 ? 'zext' : 'sext', v, to);
      }
      if (rnd() < 0.2) {
        const w = v.ty === T.i64 ? v : b.cast('zext', v, T.i64);
        v = b.cast('ptrtoint', b.cast('inttoptr', w, T.ptr), T.i64);
      }
      print(v.ty === T.i64 ? v : b.cast(rnd() < 0.5 ? 'zext' : 'sext', v, T.i64));
    }
    b.ret(cInt(T.i32, 0));
    const before = lli(printModule(m));
    expect(before.status, before.err).toBe(0);
    optimize(m, opts);
    expect(structural(m)).toEqual([]);
    const after = lli(printModule(m));
    expect(after.err).toBe('');
    expect(after.out).toBe(before.out);
  });
});

/**
 * A random program over two global arrays and one local array passed to nothing: stores and loads at
 * constant and variable indices, through a pointer chosen at run time (it may be either array), across
 * blocks. Memory CSE (forwarding, places as base + offset, objects and address spaces kept apart) and
 * dead-store elimination (overwritten stores, stores to locals before the return) must keep what it prints.
 */

function randomMemProgram(s: number, stmts = 24): Module {
  seed = s;
  const { m, b, print } = hostModule();
  const ARR = arrayTy(8, T.i32);
  const gs = ['g1', 'g2'].map(n => { const g = newGlobal(n, ARR, 0, { kind: 'zero', ty: ARR }); m.globals.push(g); return g; });
  const loc = b.alloca(ARR, 4, 'l');
  const objs: Value[] = [...gs, loc];
  const vals: Value[] = [cInt(T.i32, 7)];
  const at = (base: Value, k: Value): Value => b.gep(ARR, base, [cInt(T.i64, 0), k]);
  const constIdx = (): Value => cInt(T.i64, Math.floor(rnd() * 8));
  const varIdx = (): Value => b.cast('sext', b.bin('and', pick(vals), cInt(T.i32, 7)), T.i64);
  const chosen = (): Value => b.select(b.icmp('slt', pick(vals), cInt(T.i32, 40)), pick(objs), pick(objs));
  for (const o of objs) for (let k = 0; k < 8; k++) b.store(cInt(T.i32, k + 1), at(o, cInt(T.i64, k)));
  for (let n = 0; n < stmts; n++) {
    const r = rnd();
    const base = r < 0.2 ? chosen() : pick(objs);
    const idx = rnd() < 0.25 ? varIdx() : constIdx();
    if (r < 0.5) b.store(rnd() < 0.5 ? cInt(T.i32, Math.floor(rnd() * 100)) : b.bin('add', pick(vals), cInt(T.i32, 3)), at(base, idx));
    else { const v = b.load(T.i32, at(base, idx)); vals.push(v); print(b.cast('sext', v, T.i64)); }
    if (rnd() < 0.15) {
      // a diamond: one side stores, both join
      const t = b.newBlock(`t${n}`), j = b.newBlock(`j${n}`);
      b.condbr(b.icmp('sgt', pick(vals), cInt(T.i32, 50)), t, j);
      b.setBlock(t);
      b.store(pick(vals), at(pick(objs), constIdx()));
      b.br(j);
      b.setBlock(j);
    }
  }
  for (const g of gs) for (let k = 0; k < 8; k++) print(b.cast('sext', b.load(T.i32, at(g, cInt(T.i64, k))), T.i64));
  b.ret(cInt(T.i32, 0));
  return m;
}

describe.skipIf(!HAVE_LLI)('memory CSE and dead stores on random programs (lli)', () => {
  it('keep the output (MIDDLE_FUZZ, default 40)', () => {
    for (let s = 1; s <= Number(process.env.MIDDLE_FUZZ ?? 40); s++) sameOutputOptimised(randomMemProgram(s * 7919), s);
  });
});

describe.skipIf(!HAVE_LLI)('memory CSE: a store through a pointer that may be either array (lli)', () => {
  it.each([[0], [1]])('the value read back is the one stored through the chosen pointer (choice %i)', (which) => {
    const { m, b, print } = hostModule();
    const ARR = arrayTy(4, T.i32);
    const gs = ['g1', 'g2'].map(n => { const g = newGlobal(n, ARR, 0, { kind: 'zero', ty: ARR }); m.globals.push(g); return g; });
    const at = (base: Value, k: number): Value => b.gep(ARR, base, [cInt(T.i64, 0), cInt(T.i64, k)]);
    b.store(cInt(T.i32, which), at(gs[1]!, 3));
    b.store(cInt(T.i32, 1), at(gs[0]!, 2));
    const c = b.icmp('eq', b.load(T.i32, at(gs[1]!, 3)), cInt(T.i32, 0));
    const p = b.select(c, gs[0]!, gs[1]!);
    b.store(cInt(T.i32, 5), at(p, 2));
    print(b.cast('sext', b.load(T.i32, at(gs[0]!, 2)), T.i64));
    b.ret(cInt(T.i32, 0));
    const before = lli(printModule(m));
    expect(before.out).toBe(which === 0 ? '5\n' : '1\n');
    optimize(m, opts);
    expect(lli(printModule(m)).out).toBe(before.out);
  });
});
