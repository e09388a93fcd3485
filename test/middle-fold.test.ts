// Constant folding checked against LLVM itself: every folded instruction is also executed by `lli` (LLVM 14)
// on the host, and the printed results must agree bit for bit (NaNs: any NaN). Also whole functions are run
// before and after optimize() and must give the same output.
import { describe, it, expect } from 'vitest';
import { Builder, T, newFunc, newGlobal, cInt, cFP, arrayTy, structTy } from '../compiler/middle/ir';
import type { BinOp, CastOp, Const, FCmpPred, ICmpPred, Inst, Module, Type, Value } from '../compiler/middle/ir';
import { printModule } from '../compiler/middle/llprint';
import { simplifyInst, optimize } from '../compiler/middle/passes';
import { verifyModule } from '../compiler/middle/verify';
import { defaultOptions } from '../compiler/options';
import { HAVE_LLI, lli, llvmAccepts } from './helpers/llvm';
import { fty, hostModule } from './helpers/host-module';

const opts = { ...defaultOptions(), optLevel: 3 as const, ftz: false, precDiv: true };

const dv = new DataView(new ArrayBuffer(8));
function asI64(b: Builder, v: Value): Value {
  const t = v.ty;
  if (t.k === 'int') return t.bits === 64 ? v : b.cast(t.bits === 1 ? 'zext' : 'sext', v, T.i64);
  if (t.k === 'float') return b.cast('zext', b.cast('bitcast', v, T.i32), T.i64);
  if (t.k === 'double') return b.cast('bitcast', v, T.i64);
  throw new Error('asI64');
}
function expectedText(c: Const): string {
  if (c.kind === 'int') return (c.ty.k === 'int' && c.ty.bits === 1 ? c.value & 1n : c.value).toString();
  if (c.kind === 'fp') {
    if (Number.isNaN(c.value)) return 'NaN';
    if (c.ty.k === 'float') { dv.setFloat32(0, c.value); return BigInt(dv.getUint32(0)).toString(); }
    dv.setFloat64(0, c.value); return dv.getBigInt64(0).toString();
  }
  throw new Error('unexpected folded constant ' + c.kind);
}
function isNaNBits(s: string, ty: Type): boolean {
  const v = BigInt(s);
  if (ty.k === 'float') { const u = BigInt.asUintN(32, v); return (u & 0x7f800000n) === 0x7f800000n && (u & 0x7fffffn) !== 0n; }
  if (ty.k === 'double') { const u = BigInt.asUintN(64, v); return (u & 0x7ff0000000000000n) === 0x7ff0000000000000n && (u & 0xfffffffffffffn) !== 0n; }
  return false;
}

// deterministic PRNG
let seed = 12345;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)]!;

const INT_TYS = [T.i1, T.i8, T.i16, T.i32, T.i64];
function intVal(t: Type): Const {
  const bits = (t as { bits: number }).bits;
  const special = [0n, 1n, -1n, 2n, 7n, -8n, 1n << BigInt(bits - 1), (1n << BigInt(bits - 1)) - 1n, 31n, 32n, 63n];
  if (rnd() < 0.5) return cInt(t, pick(special));
  let v = 0n;
  for (let k = 0; k < bits; k += 16) v = (v << 16n) | BigInt(Math.floor(rnd() * 65536));
  return cInt(t, v);
}
const FP_SPECIAL = [0, -0, 1, -1, 0.5, -1.5, 0.1, 3, 1e30, -1e30, 3e38, 1e-45, 1e-40, 1.5e-38, 1e300, 5e-324, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 63, 65536.5, -2.5];
function fpVal(t: Type): Const {
  if (rnd() < 0.6) return cFP(t, pick(FP_SPECIAL));
  return cFP(t, (rnd() - 0.5) * 10 ** Math.floor(rnd() * 12 - 4));
}

const INT_BINOPS: BinOp[] = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor'];
const FP_BINOPS: BinOp[] = ['fadd', 'fsub', 'fmul', 'fdiv', 'frem'];
const ICMPS: ICmpPred[] = ['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle'];
const FCMPS: FCmpPred[] = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true'];

function randomInst(b: Builder): Inst {
  const kind = rnd();
  if (kind < 0.35) {
    const t = pick(INT_TYS);
    const op = pick(INT_BINOPS);
    const bv = (op === 'shl' || op === 'lshr' || op === 'ashr') && rnd() < 0.7 ? cInt(t, Math.floor(rnd() * (t as { bits: number }).bits)) : intVal(t);
    return b.insert({ op, ty: t, ops: [intVal(t), bv] });
  }
  if (kind < 0.45) { const t = pick(INT_TYS); return b.insert({ op: 'icmp', ty: T.i1, ops: [intVal(t), intVal(t)], pred: pick(ICMPS) }); }
  if (kind < 0.65) { const t = pick([T.f32, T.f64]); return b.insert({ op: pick(FP_BINOPS), ty: t, ops: [fpVal(t), fpVal(t)] }); }
  if (kind < 0.72) { const t = pick([T.f32, T.f64]); return b.insert({ op: 'fcmp', ty: T.i1, ops: [fpVal(t), fpVal(t)], pred: pick(FCMPS) }); }
  if (kind < 0.75) { const t = pick([T.f32, T.f64]); return b.insert({ op: 'fneg', ty: t, ops: [fpVal(t)] }); }
  // casts
  const c = pick<CastOp>(['trunc', 'zext', 'sext', 'sitofp', 'uitofp', 'fptosi', 'fptoui', 'fptrunc', 'fpext', 'bitcast']);
  switch (c) {
    case 'trunc': case 'zext': case 'sext': {
      const a = pick(INT_TYS.slice(0, 4)), z = pick(INT_TYS.filter(x => (x as { bits: number }).bits > (a as { bits: number }).bits));
      return c === 'trunc' ? b.insert({ op: c, ty: a, ops: [intVal(z)] }) : b.insert({ op: c, ty: z, ops: [intVal(a)] });
    }
    case 'sitofp': case 'uitofp': return b.insert({ op: c, ty: pick([T.f32, T.f64]), ops: [intVal(pick(INT_TYS))] });
    case 'fptosi': case 'fptoui': {
      const t = pick([T.f32, T.f64]);
      const v = rnd() < 0.5 ? cFP(t, (rnd() - 0.3) * 2 ** Math.floor(rnd() * 40)) : fpVal(t);
      return b.insert({ op: c, ty: pick(INT_TYS.slice(1)), ops: [v] });
    }
    case 'fptrunc': return b.insert({ op: c, ty: T.f32, ops: [fpVal(T.f64)] });
    case 'fpext': return b.insert({ op: c, ty: T.f64, ops: [fpVal(T.f32)] });
    default: {
      if (rnd() < 0.5) { const t = pick([T.f32, T.f64]); return b.insert({ op: 'bitcast', ty: t === T.f32 ? T.i32 : T.i64, ops: [fpVal(t)] }); }
      const t = pick([T.i32, T.i64]); return b.insert({ op: 'bitcast', ty: t === T.i32 ? T.f32 : T.f64, ops: [intVal(t)] });
    }
  }
}

describe.skipIf(!HAVE_LLI)('constant folding agrees with LLVM (lli)', () => {
  it('folds random constant instructions exactly like LLVM executes them', () => {
    const { m, b, print } = hostModule();
    const expected: { text: string; ty: Type; desc: string }[] = [];
    let declined = 0;
    for (let n = 0; n < 3000; n++) {
      const i = randomInst(b);
      const r = simplifyInst(i, opts);
      if (r === null || (r.kind !== 'int' && r.kind !== 'fp')) {
        // not folded (UB/poison or unsupported): drop it so lli never executes UB
        b.block!.insts.pop(); declined++; continue;
      }
      expected.push({ text: expectedText(r), ty: r.ty, desc: `${i.op} ${i.pred ?? ''} ${i.ops.map(o => `${(o as Const).kind === 'int' ? (o as { value: bigint }).value : (o as { value: number }).value}`).join(', ')} : ${i.ty.k}` });
      print(asI64(b, i));
    }
    b.ret(cInt(T.i32, 0));
    const text = printModule(m);
    const run = lli(text);
    expect(run.err).toBe('');
    const lines = run.out.trimEnd().split('\n');
    expect(lines.length).toBe(expected.length);
    const bad: string[] = [];
    lines.forEach((l, k) => {
      const e = expected[k]!;
      if (e.text === 'NaN' ? !isNaNBits(l, e.ty) : l !== e.text) bad.push(`${e.desc}: lli ${l}, folded ${e.text}`);
    });
    expect(bad.slice(0, 20)).toEqual([]);
    expect(declined).toBeLessThan(1500);
  });

  it('folds extractvalue of constant aggregates (zeroinitializer, {…}, c"…", nested) exactly like LLVM executes them', () => {
    const { m, b, print } = hostModule();
    const inner = structTy([arrayTy(3, T.i8), T.i16, T.f32]);
    const outer = structTy([T.i32, inner, arrayTy(2, T.i64), arrayTy(4, T.i8)]);
    const bytesTy = arrayTy(4, T.i8);
    const agg: Const = { kind: 'agg', ty: outer, elems: [
      cInt(T.i32, -7),
      { kind: 'agg', ty: inner, elems: [{ kind: 'bytes', ty: arrayTy(3, T.i8), bytes: new Uint8Array([200, 1, 127]) }, cInt(T.i16, 12345), cFP(T.f32, 2.5)] },
      { kind: 'zero', ty: arrayTy(2, T.i64) },
      { kind: 'bytes', ty: bytesTy, bytes: new Uint8Array([0x80, 0, 0xff, 9]) },
    ] };
    const paths: [Type, number[]][] = [
      [T.i32, [0]], [T.i8, [1, 0, 0]], [T.i8, [1, 0, 2]], [T.i16, [1, 1]], [T.f32, [1, 2]], [T.i64, [2, 1]], [T.i8, [3, 0]], [T.i8, [3, 3]],
    ];
    const expected: string[] = [];
    for (const c of [agg, { kind: 'zero', ty: outer } as Const]) {
      for (const [ty, idx] of paths) {
        const i = b.extractvalue(c, idx, ty);
        const r = simplifyInst(i, opts);
        expect(r && (r.kind === 'int' || r.kind === 'fp'), `extractvalue ${idx.join(',')} of ${c.kind} folds`).toBeTruthy();
        expected.push(expectedText(r as Const));
        print(asI64(b, i));
      }
    }
    b.ret(cInt(T.i32, 0));
    const run = lli(printModule(m));
    expect(run.err).toBe('');
    expect(run.out.trimEnd().split('\n')).toEqual(expected);
  });
});

/** The bytes of a value only known at run time, split and put back together in several ways. */
function progBytes(): Module {
  const { m, b, print } = hostModule();
  const g = newGlobal('g', T.i32, 0, cInt(T.i32, 0x8a3c51f7), {});
  m.globals.push(g);
  const x = b.load(T.i32, g);
  const byte = (k: number): Value => b.cast('trunc', k === 0 ? x : b.bin('lshr', x, cInt(T.i32, 8 * k)), T.i8);
  const bs = [0, 1, 2, 3].map(byte);
  const put = (ty: Type, parts: [number, number][]): Value =>
    parts.map(([k, at]) => { const z = b.cast('zext', bs[k]!, ty); return at === 0 ? z : b.bin('shl', z, cInt(ty, at)); })
      .reduce((a, v) => b.bin('or', a, v));
  print(b.cast('zext', put(T.i32, [[2, 16], [0, 0], [3, 24], [1, 8]]), T.i64));   // x
  print(b.cast('zext', put(T.i16, [[2, 0], [3, 8]]), T.i64));                      // trunc(x >> 16)
  print(b.cast('zext', put(T.i16, [[1, 0], [2, 8]]), T.i64));                      // trunc(x >> 8)
  print(b.cast('zext', put(T.i16, [[0, 0], [2, 8]]), T.i64));                      // a gap: stays
  b.ret(cInt(T.i32, 0));
  return m;
}

/** A 5-bit field at bit 3 written into a word known only at run time, then that field and others read back. */
function progBitfields(): Module {
  const { m, b, print } = hostModule();
  const gw = newGlobal('word', T.i32, 0, cInt(T.i32, 0x5a5a5a5a), {});
  const gv = newGlobal('val', T.i32, 0, cInt(T.i32, 0x7b), {});
  m.globals.push(gw, gv);
  const word = b.load(T.i32, gw), v = b.load(T.i32, gv);
  const w = b.bin('or', b.bin('and', word, cInt(T.i32, ~(0x1f << 3))), b.bin('and', b.bin('shl', v, cInt(T.i32, 3)), cInt(T.i32, 0x1f << 3)));
  print(b.cast('zext', b.bin('and', b.bin('lshr', w, cInt(T.i32, 3)), cInt(T.i32, 0x1f)), T.i64));   // the field: v & 31
  print(b.cast('zext', b.bin('and', b.bin('lshr', w, cInt(T.i32, 8)), cInt(T.i32, 0xff)), T.i64));   // above it: the word's
  print(b.cast('zext', b.bin('and', w, cInt(T.i32, 7)), T.i64));                                      // below it: the word's
  b.ret(cInt(T.i32, 0));
  return m;
}

/** Two local objects; members read through a phi of their addresses (`(c ? a : b).y`) and a select. */
function progChosenObject(): Module {
  const { m, b, main, print } = hostModule();
  const g = newGlobal('flag', T.i32, 0, cInt(T.i32, 1), {});
  m.globals.push(g);
  const pair = structTy([T.i32, T.i32]);
  const x = b.alloca(pair, 4, 'x'), y = b.alloca(pair, 4, 'y');
  b.store(cInt(T.i32, 11), x); b.store(cInt(T.i32, 12), b.gep(T.i8, x, [cInt(T.i64, 4)]));
  b.store(cInt(T.i32, 21), y); b.store(cInt(T.i32, 22), b.gep(T.i8, y, [cInt(T.i64, 4)]));
  const c = b.icmp('ne', b.load(T.i32, g), cInt(T.i32, 0));
  const from = b.block!, t = b.newBlock('t'), j = b.newBlock('j');
  b.condbr(c, t, j);
  b.setBlock(t); b.br(j);
  b.setBlock(j);
  const p: Inst = { kind: 'inst', op: 'phi', ty: T.ptr, ops: [y, x], targets: [from, t], parent: j, name: 'p' };
  j.insts.push(p);
  const v1 = b.load(T.i32, b.gep(T.i8, p, [cInt(T.i64, 4)])), v2 = b.load(T.i32, p);
  const s = b.select(c, y, x);
  const v3 = b.load(T.i32, b.gep(T.i8, s, [cInt(T.i64, 4)]));
  for (const v of [v1, v2, v3]) print(b.cast('sext', v, T.i64));
  b.ret(cInt(T.i32, 0));
  void main;
  return m;
}

/** A union of a pointer and two 32-bit words: the words are written, the pointer read, and the bytes after it. */
function progPointerUnion(): Module {
  const { m, b, print } = hostModule();
  const g = newGlobal('word', T.i32, 0, cInt(T.i32, 0x12345), {});
  m.globals.push(g);
  const u = b.alloca(structTy([T.ptr, arrayTy(8, T.i8)]), 8, 'u');
  const w = b.load(T.i32, g);
  b.store(b.bin('or', w, cInt(T.i32, 1)), u);
  b.store(cInt(T.i32, 0x7f00), b.gep(T.i8, u, [cInt(T.i64, 4)]));
  b.store(cInt(T.i8, 9), b.gep(T.i8, u, [cInt(T.i64, 8)]));
  const p = b.load(T.ptr, u);
  const hi = b.load(T.i32, b.gep(T.i8, u, [cInt(T.i64, 4)]));
  const byte = b.load(T.i8, b.gep(T.i8, u, [cInt(T.i64, 8)]));
  print(b.cast('ptrtoint', p, T.i64));
  print(b.cast('sext', hi, T.i64));
  print(b.cast('sext', byte, T.i64));
  b.ret(cInt(T.i32, 0));
  return m;
}

/** Hand-written programs: output before and after optimize() must match (and match the expected value). */
function progLoopSum(): Module {
  const { m, main, b, print } = hostModule();
  void main;
  const i = b.alloca(T.i32, 4, 'i'), s = b.alloca(T.i32, 4, 's'), f = b.alloca(T.f32, 4, 'f');
  b.store(cInt(T.i32, 0), i); b.store(cInt(T.i32, 0), s); b.store(cFP(T.f32, 1), f);
  const h = b.newBlock('h'), body = b.newBlock('body'), odd = b.newBlock('odd'), even = b.newBlock('even'), latch = b.newBlock('latch'), x = b.newBlock('x');
  b.br(h);
  b.setBlock(h); b.condbr(b.icmp('slt', b.load(T.i32, i), cInt(T.i32, 10)), body, x);
  b.setBlock(body);
  const iv = b.load(T.i32, i);
  b.condbr(b.icmp('ne', b.bin('and', iv, cInt(T.i32, 1)), cInt(T.i32, 0)), odd, even);
  b.setBlock(odd); b.store(b.bin('add', b.load(T.i32, s), b.bin('mul', iv, iv)), s); b.br(latch);
  b.setBlock(even); b.store(b.bin('sub', b.load(T.i32, s), iv), s); b.store(b.bin('fmul', b.load(T.f32, f), cFP(T.f32, 1.1)), f); b.br(latch);
  b.setBlock(latch); b.store(b.bin('add', b.load(T.i32, i), cInt(T.i32, 1)), i); b.br(h);
  b.setBlock(x);
  print(b.cast('sext', b.load(T.i32, s), T.i64));
  print(asI64(b, b.load(T.f32, f)));
  // switch on a loop-carried value, wraparound in i8
  const sw = b.load(T.i32, i);
  const c1 = b.newBlock('c1'), c2 = b.newBlock('c2'), dd = b.newBlock('dd'), j = b.newBlock('j');
  b.switch_(sw, dd, [[cInt(T.i32, 10), c1], [cInt(T.i32, 3), c2]]);
  b.setBlock(c1); b.store(cInt(T.i32, 200), s); b.br(j);
  b.setBlock(c2); b.store(cInt(T.i32, 3), s); b.br(j);
  b.setBlock(dd); b.br(j);
  b.setBlock(j);
  const t8 = b.cast('trunc', b.load(T.i32, s), T.i8);
  print(b.cast('sext', b.bin('add', t8, t8), T.i64));
  b.ret(cInt(T.i32, 0));
  return m;
}

function progCalls(): Module {
  const { m, b, print } = hostModule();
  const sq = newFunc('sq', fty(T.i64, [T.i64]), 'internal');
  m.funcs.splice(1, 0, sq);
  const sb = new Builder(sq); sb.setBlock(sb.newBlock('entry'));
  const tmp = sb.alloca(T.i64, 8);
  sb.store(sq.params[0]!, tmp);
  sb.ret(sb.bin('mul', sb.load(T.i64, tmp), sb.load(T.i64, tmp)));
  const acc = b.alloca(T.i64, 8, 'acc');
  b.store(cInt(T.i64, 1), acc);
  for (let k = 0; k < 4; k++) b.store(b.call(sq, sq.fnTy, [b.bin('add', b.load(T.i64, acc), cInt(T.i64, 1))]), acc);
  print(b.load(T.i64, acc));
  const d = b.select(b.icmp('ugt', b.load(T.i64, acc), cInt(T.i64, 0)), cFP(T.f64, 0.1), cFP(T.f64, 0.2));
  print(asI64(b, b.bin('fadd', d, cFP(T.f64, 0.2))));
  b.ret(cInt(T.i32, 0));
  return m;
}

function progInline(): Module {
  const { m, b, print } = hostModule();
  // clamp(x): multiple returns, alwaysinline
  const clamp = newFunc('clamp', fty(T.i32, [T.i32]), 'internal');
  clamp.attrs.alwaysinline = true;
  m.funcs.splice(1, 0, clamp);
  const cb = new Builder(clamp); cb.setBlock(cb.newBlock('entry'));
  const lo = cb.newBlock('lo'), hi = cb.newBlock('hi'), mid = cb.newBlock('mid'), ok = cb.newBlock('ok');
  cb.condbr(cb.icmp('slt', clamp.params[0]!, cInt(T.i32, 0)), lo, mid);
  cb.setBlock(lo); cb.ret(cInt(T.i32, 0));
  cb.setBlock(mid); cb.condbr(cb.icmp('sgt', clamp.params[0]!, cInt(T.i32, 100)), hi, ok);
  cb.setBlock(hi); cb.ret(cInt(T.i32, 100));
  cb.setBlock(ok); cb.ret(clamp.params[0]!);
  // rec(n) = n <= 0 ? 0 : n + rec(n - 1), alwaysinline and recursive: must not loop forever
  const rec = newFunc('rec', fty(T.i32, [T.i32]), 'internal');
  rec.attrs.alwaysinline = true;
  m.funcs.splice(1, 0, rec);
  const rb = new Builder(rec); rb.setBlock(rb.newBlock('entry'));
  const base = rb.newBlock('base'), step = rb.newBlock('step');
  rb.condbr(rb.icmp('sle', rec.params[0]!, cInt(T.i32, 0)), base, step);
  rb.setBlock(base); rb.ret(cInt(T.i32, 0));
  rb.setBlock(step); rb.ret(rb.bin('add', rec.params[0]!, rb.call(rec, rec.fnTy, [rb.bin('sub', rec.params[0]!, cInt(T.i32, 1))])));
  // main: sum of clamp(i*37 - 50) for i in 0..9, then rec(6)
  const i = b.alloca(T.i32, 4, 'i'), s = b.alloca(T.i32, 4, 's');
  b.store(cInt(T.i32, 0), i); b.store(cInt(T.i32, 0), s);
  const h = b.newBlock('h'), body = b.newBlock('body'), x = b.newBlock('x');
  b.br(h);
  b.setBlock(h); b.condbr(b.icmp('slt', b.load(T.i32, i), cInt(T.i32, 10)), body, x);
  b.setBlock(body);
  const v = b.call(clamp, clamp.fnTy, [b.bin('sub', b.bin('mul', b.load(T.i32, i), cInt(T.i32, 37)), cInt(T.i32, 50))]);
  b.store(b.bin('add', b.load(T.i32, s), v), s);
  b.store(b.bin('add', b.load(T.i32, i), cInt(T.i32, 1)), i);
  b.br(h);
  b.setBlock(x);
  print(b.cast('sext', b.load(T.i32, s), T.i64));
  print(b.cast('sext', b.call(rec, rec.fnTy, [cInt(T.i32, 6)]), T.i64));
  b.ret(cInt(T.i32, 0));
  return m;
}

describe.skipIf(!HAVE_LLI)('optimize preserves program output (lli)', () => {
  for (const [name, build, want] of [
    ['loop/if/switch', progLoopSum, null],
    ['calls', progCalls, null],
    ['bytes', progBytes, null],
    ['bitfields', progBitfields, null],
    ['chosen object', progChosenObject, null],
    ['pointer union', progPointerUnion, null],
    ['inlining', progInline, '683\n21\n'],
  ] as const) {
    it(name, () => {
      const m = build();
      const before = lli(printModule(m));
      expect(before.status).toBe(0);
      optimize(m, opts);
      expect(verifyModule(m).filter(e => !e.includes('triple') && !e.includes('data layout'))).toEqual([]);
      const text = printModule(m);
      const after = lli(text);
      expect(after.status).toBe(0);
      expect(after.out).toBe(before.out);
      if (want) expect(after.out).toBe(want);
      if (name === 'inlining') expect(m.funcs.map(f => f.name)).not.toContain('clamp');
      if (name === 'calls') expect(m.funcs.map(f => f.name)).not.toContain('sq');
      // the three contiguous reassemblies are gone; the one with a gap keeps its `or`
      if (name === 'bytes') expect(text.match(/ = or /g)?.length).toBe(1);
      // fields read back from the word they were written into: the word itself is never built
      if (name === 'bitfields') expect(text).not.toMatch(/ = or /);
      // members of `c ? a : b` over two local objects: both objects leave memory
      if (name === 'chosen object') expect(text).not.toMatch(/alloca/);
      // a pointer member written through two 32-bit bitfield words (cooperative groups' handles)
      if (name === 'pointer union') expect(text).not.toMatch(/alloca/);
      // scalar allocas are gone
      expect(text).not.toMatch(/alloca (i32|i64|float)/);
      // and the nvptx form of the same module is valid too
      m.triple = 'nvptx64-nvidia-cuda'; m.dataLayout = 'e-i64:64-i128:128-v16:16-v32:32-n16:32:64';
      llvmAccepts(printModule(m));
    });
  }
});

/** Random structured programs over a few i32 variables in allocas: output must not change under optimize(). */
export function randomProgram(seedIn: number, stmts = 6): Module {
  seed = seedIn;
  const { m, b, print } = hostModule();
  const vars = [0, 1, 2, 3].map(k => b.alloca(T.i32, 4, `v${k}`));
  vars.forEach((v, k) => b.store(cInt(T.i32, k * 3 + 1), v));
  let depth = 0;
  let blockNo = 0;
  const nb = (n: string) => b.newBlock(`${n}${blockNo++}`);
  const operand = (): Value => (rnd() < 0.4 ? cInt(T.i32, Math.floor(rnd() * 20) - 5) : b.load(T.i32, pick(vars)));
  const stmt = (): void => {
    const r = rnd();
    if (r < 0.5 || depth > 2) {
      const op = pick<BinOp>(['add', 'sub', 'mul', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr', 'udiv', 'srem']);
      const rhs = op === 'shl' || op === 'lshr' || op === 'ashr' ? cInt(T.i32, Math.floor(rnd() * 31))
        : op === 'udiv' || op === 'srem' ? cInt(T.i32, Math.floor(rnd() * 7) + 1) : operand();
      b.store(b.bin(op, operand(), rhs), pick(vars));
      return;
    }
    depth++;
    if (r < 0.7) {
      const t = nb('then'), e = nb('else'), j = nb('join');
      b.condbr(b.icmp(pick(ICMPS), operand(), operand()), t, e);
      b.setBlock(t); block(); b.br(j);
      b.setBlock(e); if (rnd() < 0.5) block(); b.br(j);
      b.setBlock(j);
    } else if (r < 0.85) {
      const ctr = b.alloca(T.i32, 4, 'ctr');
      b.store(cInt(T.i32, 0), ctr);
      const h = nb('head'), body = nb('body'), x = nb('exit');
      b.br(h);
      b.setBlock(h); b.condbr(b.icmp('slt', b.load(T.i32, ctr), cInt(T.i32, 1 + Math.floor(rnd() * 4))), body, x);
      b.setBlock(body); block(); b.store(b.bin('add', b.load(T.i32, ctr), cInt(T.i32, 1)), ctr); b.br(h);
      b.setBlock(x);
    } else {
      const cases = [nb('case'), nb('case'), nb('case')], d = nb('default'), j = nb('join');
      b.switch_(b.bin('and', operand(), cInt(T.i32, 3)), d, [[cInt(T.i32, 0), cases[0]!], [cInt(T.i32, 1), cases[1]!], [cInt(T.i32, 3), cases[2]!], [cInt(T.i32, 2), cases[0]!]]);
      for (const c of cases) { b.setBlock(c); if (rnd() < 0.7) block(); b.br(rnd() < 0.3 ? d : j); }
      b.setBlock(d); if (rnd() < 0.5) block(); b.br(j);
      b.setBlock(j);
    }
    depth--;
  };
  const block = (): void => { const n = 1 + Math.floor(rnd() * 3); for (let k = 0; k < n; k++) stmt(); };
  for (let k = 0; k < stmts; k++) stmt();
  for (const v of vars) print(b.cast('sext', b.load(T.i32, v), T.i64));
  b.ret(cInt(T.i32, 0));
  return m;
}

describe.skipIf(!HAVE_LLI)('optimize on random programs (lli)', () => {
  it('keeps the output of random programs (MIDDLE_FUZZ, default 40)', () => {
    for (let s = 1; s <= Number(process.env.MIDDLE_FUZZ ?? 40); s++) {
      const m = randomProgram(s * 7919);
      expect(verifyModule(m).filter(e => !e.includes('triple') && !e.includes('data layout'))).toEqual([]);
      const before = lli(printModule(m));
      expect(before.status, before.err).toBe(0);
      optimize(m, opts);
      expect(verifyModule(m).filter(e => !e.includes('triple') && !e.includes('data layout'))).toEqual([]);
      const text = printModule(m);
      const after = lli(text);
      expect(after.err).toBe('');
      expect(after.out, `program ${s}`).toBe(before.out);
      expect(text).not.toMatch(/alloca i32/);
    }
  });
});
