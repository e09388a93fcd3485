// The emulator's f32/f64 arithmetic in the four IEEE rounding modes against the host CPU: a C program built
// with gcc computes the same operations on the same inputs under fesetround() (x86 SSE and glibc round in
// the mode asked for), and every .rn/.rz/.rm/.rp result of add, sub, mul, div, rcp, sqrt, fma and cvt must
// agree bit for bit. The approximate forms must stay within their documented bound of the correctly rounded
// value and must differ from it on some inputs (an emulator that computed them exactly could not tell
// div.approx from div.rn). .ftz and .sat are checked against the oracle's value flushed / clamped.

import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Machine } from './machine';
import { mkTempDir, run, skipReason } from '../helpers/tools';
import { rng } from '../../bench/rng';

const MODES = ['rn', 'rz', 'rm', 'rp'] as const;
const OPS = ['add', 'sub', 'mul', 'div', 'rcp', 'sqrt', 'fma'] as const;
const N = 512;

const ORACLE_C = String.raw`
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#pragma STDC FENV_ACCESS ON
static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
static uint32_t b32(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static uint64_t b64(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static float f32(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
static double f64(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }
int main(int argc, char **argv) {
  char kind = argv[1][0];
  if (kind == 's') {                       /* f32: a b c per line */
    unsigned a, b, c;
    while (scanf("%x %x %x", &a, &b, &c) == 3) {
      volatile float x = f32(a), y = f32(b), z = f32(c), one = 1.0f;
      for (int m = 0; m < 4; m++) {
        fesetround(modes[m]);
        volatile float r[7];
        r[0] = x + y; r[1] = x - y; r[2] = x * y; r[3] = x / y; r[4] = one / x; r[5] = sqrtf(fabsf(x)); r[6] = fmaf(x, y, z);
        for (int k = 0; k < 7; k++) printf("%08x ", b32(r[k]));
      }
      fesetround(FE_TONEAREST);
      printf("\n");
    }
  } else if (kind == 'd') {                /* f64: a b c per line */
    unsigned long long a, b, c;
    while (scanf("%llx %llx %llx", &a, &b, &c) == 3) {
      volatile double x = f64(a), y = f64(b), z = f64(c), one = 1.0;
      for (int m = 0; m < 4; m++) {
        fesetround(modes[m]);
        volatile double r[7];
        r[0] = x + y; r[1] = x - y; r[2] = x * y; r[3] = x / y; r[4] = one / x; r[5] = sqrt(fabs(x)); r[6] = fma(x, y, z);
        for (int k = 0; k < 7; k++) printf("%016llx ", (unsigned long long)b64(r[k]));
      }
      fesetround(FE_TONEAREST);
      printf("\n");
    }
  } else {                                 /* conversions: f64 bits, s64 value per line */
    unsigned long long a; long long i;
    while (scanf("%llx %lld", &a, &i) == 2) {
      volatile double x = f64(a); volatile long long v = i;
      for (int m = 0; m < 4; m++) {
        fesetround(modes[m]);
        volatile float f = (float)x, g = (float)v; volatile double h = (double)v;
        printf("%08x %08x %016llx ", b32(f), b32(g), (unsigned long long)b64(h));
      }
      fesetround(FE_TONEAREST);
      printf("\n");
    }
  }
  return 0;
}
`;

// ---- inputs

/** f32 operand triples: random magnitudes, operands of close exponents (real rounding work), subnormals, extremes. */
function inputs32(): Uint32Array {
  const r = rng(7);
  const out = new Uint32Array(N * 3);
  const bits = () => (Math.floor(r() * 2 ** 32) >>> 0);
  const finite = (e: number) => (((r() < 0.5 ? 1 : 0) << 31) | (e << 23) | (bits() & 0x7fffff)) >>> 0;
  for (let i = 0; i < N; i++) {
    const kind = i % 4;
    const e = kind === 3 ? (r() < 0.5 ? 0 : 1 + Math.floor(r() * 3)) : kind === 2 ? 250 + Math.floor(r() * 4) : 100 + Math.floor(r() * 54);
    const a = finite(e);
    const eb = kind === 0 ? 1 + Math.floor(r() * 253) : Math.max(0, Math.min(254, e + Math.floor(r() * 5) - 2));
    const b = (e === 0 && kind !== 3) ? finite(127) : finite(eb);
    const c = finite(Math.max(0, Math.min(254, e + eb - 127 + Math.floor(r() * 5) - 2)));
    out[3 * i] = a; out[3 * i + 1] = b; out[3 * i + 2] = c;
  }
  return out;
}

function inputs64(): BigUint64Array {
  const r = rng(11);
  const out = new BigUint64Array(N * 3);
  const mant = () => (BigInt(Math.floor(r() * 2 ** 20)) << 32n) | BigInt(Math.floor(r() * 2 ** 32));
  const finite = (e: number) => ((r() < 0.5 ? 1n : 0n) << 63n) | (BigInt(e) << 52n) | mant();
  for (let i = 0; i < N; i++) {
    const kind = i % 4;
    const e = kind === 3 ? (r() < 0.5 ? 0 : 1 + Math.floor(r() * 3)) : kind === 2 ? 2040 + Math.floor(r() * 6) : 900 + Math.floor(r() * 246);
    const eb = kind === 0 ? 1 + Math.floor(r() * 2045) : Math.max(0, Math.min(2046, e + Math.floor(r() * 5) - 2));
    const a = finite(e), b = e === 0 && kind !== 3 ? finite(1023) : finite(eb);
    const c = finite(Math.max(0, Math.min(2046, e + eb - 1023 + Math.floor(r() * 5) - 2)));
    out[3 * i] = a; out[3 * i + 1] = b; out[3 * i + 2] = c;
  }
  return out;
}

/** cvt inputs: f64 values around the f32 range (normal, subnormal, overflowing) and s64 values past 2^24 / 2^53. */
function inputsCvt(): { f: BigUint64Array; s: BigInt64Array } {
  const r = rng(13);
  const f = new BigUint64Array(N), s = new BigInt64Array(N);
  for (let i = 0; i < N; i++) {
    const e = i % 8 === 0 ? 1023 + 127 + Math.floor(r() * 3) : i % 8 === 1 ? 1023 - 150 + Math.floor(r() * 25) : 1023 - 60 + Math.floor(r() * 120);
    f[i] = ((r() < 0.5 ? 1n : 0n) << 63n) | (BigInt(e) << 52n) | (BigInt(Math.floor(r() * 2 ** 20)) << 32n) | BigInt(Math.floor(r() * 2 ** 32));
    const width = 20 + Math.floor(r() * 43);
    const v = (BigInt(Math.floor(r() * 2 ** 32)) << 32n | BigInt(Math.floor(r() * 2 ** 32))) & ((1n << BigInt(width)) - 1n);
    s[i] = r() < 0.5 ? -v : v;
  }
  return { f, s };
}

// ---- the emulator side: one thread per input, every op in every mode stored in order

function kernelPtx(body: string): string {
  return `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out, .param .u64 k_in)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<64>;
  .reg .f64 %fd<64>;
  ld.param.u64 %rd1, [k_out];
  ld.param.u64 %rd2, [k_in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r1, %r2, %r3, %r1;
${body}
  ret;
}
`;
}

/** Per thread: loads three operands (size bytes each), runs `ops` (each writes one result), stores them in order. */
function opsKernel(size: 4 | 8, ops: string[]): string {
  const t = size === 4 ? 'f32' : 'f64', r = size === 4 ? '%f' : '%fd';
  const lines = [
    `  mul.wide.u32 %rd3, %r1, ${3 * size};`, `  add.s64 %rd4, %rd2, %rd3;`,
    `  ld.global.${t} ${r}1, [%rd4];`, `  ld.global.${t} ${r}2, [%rd4+${size}];`, `  ld.global.${t} ${r}3, [%rd4+${2 * size}];`,
    `  abs.${t} ${r}4, ${r}1;`,
    `  mul.wide.u32 %rd5, %r1, ${ops.length * size};`, `  add.s64 %rd6, %rd1, %rd5;`,
  ];
  ops.forEach((op, k) => {
    const [opc, ...args] = op.split(' ');
    const srcs = args.length ? args : ['a', 'b'];
    const reg = (s: string) => ({ a: `${r}1`, b: `${r}2`, c: `${r}3`, abs: `${r}4` })[s as 'a'] ?? s;
    lines.push(`  ${opc} ${r}10, ${srcs.map(reg).join(', ')};`, `  st.global.${t} [%rd6+${k * size}], ${r}10;`);
  });
  return kernelPtx(lines.join('\n'));
}

function launch(ptx: string, input: Uint8Array, outBytes: number): DataView {
  const m = new Machine(ptx);
  const out = m.alloc(outBytes), inp = m.alloc(input.length);
  m.write(inp, input);
  const params = new Uint8Array(16);
  const dv = new DataView(params.buffer);
  dv.setBigUint64(0, BigInt(out), true);
  dv.setBigUint64(8, BigInt(inp), true);
  const r = m.launch('k', { grid: { x: N / 128, y: 1, z: 1 }, block: { x: 128, y: 1, z: 1 }, params });
  expect(r.trap).toBeNull();
  const b = m.read(out, outBytes);
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** The PTX of op in a mode, with its operands (as opsKernel names them). */
function ptxOp(op: (typeof OPS)[number], mode: string, t: string): string {
  switch (op) {
    case 'rcp': return `rcp.${mode}.${t} a`;
    case 'sqrt': return `sqrt.${mode}.${t} abs`;
    case 'fma': return `fma.${mode}.${t} a b c`;
    default: return `${op}.${mode}.${t} a b`;
  }
}

const isNaN32 = (u: number) => (u & 0x7f800000) === 0x7f800000 && (u & 0x7fffff) !== 0;
const isNaN64 = (u: bigint) => (u & 0x7ff0000000000000n) === 0x7ff0000000000000n && (u & 0xfffffffffffffn) !== 0n;
const same32 = (x: number, y: number) => x === y || (isNaN32(x) && isNaN32(y));
const same64 = (x: bigint, y: bigint) => x === y || (isNaN64(x) && isNaN64(y));
/** Distance in ulps between two f32 bit patterns (ordered integer line). */
const ulps32 = (x: number, y: number) => { const o = (u: number) => (u | 0) < 0 ? -2147483648 - (u | 0) : u | 0; return Math.abs(o(x) - o(y)); };
const hex32 = (u: number) => `0x${(u >>> 0).toString(16)}`;
const f32of = (u: number) => new Float32Array(new Uint32Array([u]).buffer)[0]!;

const skip = skipReason('gcc');

describe.skipIf(skip !== undefined)(`emulator rounding against the host CPU under fesetround ${skip ?? ''}`, () => {
  let oracle = '';
  beforeAll(() => {
    const dir = mkTempDir('rounding-');
    fs.writeFileSync(path.join(dir, 'oracle.c'), ORACLE_C);
    oracle = path.join(dir, 'oracle');
    const r = run('gcc', ['-O0', '-frounding-math', '-ffp-contract=off', '-fno-builtin', path.join(dir, 'oracle.c'), '-o', oracle, '-lm']);
    expect(r.status, r.stderr).toBe(0);
  });
  const ask = (kind: string, lines: string[]): string[][] => {
    const r = spawnSync(oracle, [kind], { encoding: 'utf8', input: lines.join('\n') + '\n', maxBuffer: 64 * 1024 * 1024 });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.trim().split('\n').map(l => l.trim().split(/\s+/));
  };

  it('f32 add, sub, mul, div, rcp, sqrt, fma: one rounding in each of .rn .rz .rm .rp', () => {
    const inp = inputs32();
    const want = ask('s', [...Array(N).keys()].map(i => [0, 1, 2].map(k => inp[3 * i + k]!.toString(16)).join(' ')));
    const ops = MODES.flatMap(m => OPS.map(op => ptxOp(op, m, 'f32')));
    const got = launch(opsKernel(4, ops), new Uint8Array(inp.buffer), N * ops.length * 4);
    const bad: string[] = [];
    for (let i = 0; i < N; i++) {
      ops.forEach((op, k) => {
        const g = got.getUint32((i * ops.length + k) * 4, true), w = parseInt(want[i]![k]!, 16);
        if (!same32(g, w)) bad.push(`${op} on ${[0, 1, 2].map(j => hex32(inp[3 * i + j]!)).join(' ')}: emulator ${hex32(g)}, CPU ${hex32(w)}`);
      });
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('f64 add, sub, mul, div, rcp, sqrt, fma: one rounding in each of .rn .rz .rm .rp', () => {
    const inp = inputs64();
    const want = ask('d', [...Array(N).keys()].map(i => [0, 1, 2].map(k => inp[3 * i + k]!.toString(16)).join(' ')));
    const ops = MODES.flatMap(m => OPS.map(op => ptxOp(op, m, 'f64')));
    const got = launch(opsKernel(8, ops), new Uint8Array(inp.buffer), N * ops.length * 8);
    const bad: string[] = [];
    for (let i = 0; i < N; i++) {
      ops.forEach((op, k) => {
        const g = got.getBigUint64((i * ops.length + k) * 8, true), w = BigInt(`0x${want[i]![k]!}`);
        if (!same64(g, w)) bad.push(`${op} on ${[0, 1, 2].map(j => inp[3 * i + j]!.toString(16)).join(' ')}: emulator ${g.toString(16)}, CPU ${w.toString(16)}`);
      });
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('cvt.f32.f64, cvt.f32.s64, cvt.f64.s64: one rounding in each mode', () => {
    const { f, s } = inputsCvt();
    const want = ask('c', [...Array(N).keys()].map(i => `${f[i]!.toString(16)} ${s[i]!}`));
    const input = new Uint8Array(N * 16);
    const dv = new DataView(input.buffer);
    for (let i = 0; i < N; i++) { dv.setBigUint64(16 * i, f[i]!, true); dv.setBigInt64(16 * i + 8, s[i]!, true); }
    const lines = [`  mul.wide.u32 %rd3, %r1, 16;`, `  add.s64 %rd4, %rd2, %rd3;`, `  ld.global.f64 %fd1, [%rd4];`, `  ld.global.s64 %rd7, [%rd4+8];`,
      `  mul.wide.u32 %rd5, %r1, 64;`, `  add.s64 %rd6, %rd1, %rd5;`];
    MODES.forEach((m, k) => {
      lines.push(`  cvt.${m}.f32.f64 %f1, %fd1;`, `  st.global.f32 [%rd6+${16 * k}], %f1;`,
        `  cvt.${m}.f32.s64 %f2, %rd7;`, `  st.global.f32 [%rd6+${16 * k + 4}], %f2;`,
        `  cvt.${m}.f64.s64 %fd2, %rd7;`, `  st.global.f64 [%rd6+${16 * k + 8}], %fd2;`);
    });
    const got = launch(kernelPtx(lines.join('\n')), input, N * 64);
    const bad: string[] = [];
    for (let i = 0; i < N; i++) {
      MODES.forEach((m, k) => {
        const o = 64 * i + 16 * k;
        const w = want[i]!;
        const pairs: [string, string, string][] = [
          [`cvt.${m}.f32.f64 ${f[i]!.toString(16)}`, got.getUint32(o, true).toString(16).padStart(8, '0'), w[3 * k]!],
          [`cvt.${m}.f32.s64 ${s[i]}`, got.getUint32(o + 4, true).toString(16).padStart(8, '0'), w[3 * k + 1]!],
          [`cvt.${m}.f64.s64 ${s[i]}`, got.getBigUint64(o + 8, true).toString(16).padStart(16, '0'), w[3 * k + 2]!],
        ];
        for (const [what, g, x] of pairs) if (g !== x) bad.push(`${what}: emulator ${g}, CPU ${x}`);
      });
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('.ftz flushes subnormal operands and results, .sat clamps to [0, 1]', () => {
    const inp = inputs32();
    // for .ftz the oracle sees the operands as .ftz flushes them
    const fl = (u: number) => ((u & 0x7f800000) === 0 ? u & 0x80000000 : u) >>> 0;
    const flushedIn = ask('s', [...Array(N).keys()].map(i => [0, 1, 2].map(k => fl(inp[3 * i + k]!).toString(16)).join(' ')));
    const plainIn = ask('s', [...Array(N).keys()].map(i => [0, 1, 2].map(k => inp[3 * i + k]!.toString(16)).join(' ')));
    const ops = ['add.rn.ftz.f32 a b', 'mul.rz.ftz.f32 a b', 'div.rn.ftz.f32 a b', 'fma.rm.ftz.f32 a b c', 'add.rn.sat.f32 a b', 'mul.rp.sat.f32 a b'];
    const col = [0, 7 + 2, 3, 14 + 6, 0, 21 + 2];    // the same op and mode among the oracle's columns
    const got = launch(opsKernel(4, ops), new Uint8Array(inp.buffer), N * ops.length * 4);
    const bad: string[] = [];
    let flushed = 0, clamped = 0;
    for (let i = 0; i < N; i++) {
      ops.forEach((op, k) => {
        let w = parseInt((op.includes('.ftz') ? flushedIn : plainIn)[i]![col[k]!]!, 16) >>> 0;
        if (op.includes('.ftz') && (w & 0x7f800000) === 0 && (w & 0x7fffff) !== 0) { w = (w & 0x80000000) >>> 0; flushed++; }
        if (op.includes('.sat')) {
          const x = f32of(w);
          const c = x !== x ? 0 : Math.min(1, Math.max(0, x));
          if (c !== x) clamped++;
          w = new Uint32Array(new Float32Array([c]).buffer)[0]!;
        }
        const g = got.getUint32((i * ops.length + k) * 4, true);
        if (!same32(g, w)) bad.push(`${op} on ${[0, 1, 2].map(j => hex32(inp[3 * i + j]!)).join(' ')}: emulator ${hex32(g)}, expected ${hex32(w)}`);
      });
    }
    expect(bad.slice(0, 10)).toEqual([]);
    expect(flushed).toBeGreaterThan(0);
    expect(clamped).toBeGreaterThan(0);
  });

  it('.approx and .full stay within the documented bound of the exact value, and are not the exact value', () => {
    const inp = inputs32();
    const want = ask('s', [...Array(N).keys()].map(i => [0, 1, 2].map(k => inp[3 * i + k]!.toString(16)).join(' ')));
    // [op, column of the correctly rounded value, ulps allowed (PTX ISA: rcp/sqrt.approx 1, div.approx/full 2)]
    const ops: [string, number, number][] = [['rcp.approx.f32 a', 4, 1], ['sqrt.approx.f32 abs', 5, 1], ['div.approx.f32 a b', 3, 2], ['div.full.f32 a b', 3, 2]];
    const got = launch(opsKernel(4, ops.map(o => o[0])), new Uint8Array(inp.buffer), N * ops.length * 4);
    ops.forEach(([op, c, k], j) => {
      let inexact = 0, checked = 0;
      const bad: string[] = [];
      for (let i = 0; i < N; i++) {
        const a = f32of(inp[3 * i]!), b = f32of(inp[3 * i + 1]!);
        const w = parseInt(want[i]![c]!, 16) >>> 0, wf = f32of(w);
        // the bounds hold for normal results; div.approx's range ends at |b| = 2^126 (it gives 0 beyond)
        if (!isFinite(wf) || Math.abs(wf) < 2 ** -126 || wf === 0) continue;
        if (op.startsWith('div.approx') && Math.abs(b) > 2 ** 126) continue;
        if (op.startsWith('rcp') && Math.abs(a) > 2 ** 126) continue;
        const g = got.getUint32((i * ops.length + j) * 4, true);
        checked++;
        if (g !== w) inexact++;
        if (ulps32(g, w) > k) bad.push(`${op} on ${hex32(inp[3 * i]!)} ${hex32(inp[3 * i + 1]!)}: ${hex32(g)} is ${ulps32(g, w)} ulps from ${hex32(w)}`);
      }
      expect(bad.slice(0, 5), op).toEqual([]);
      expect(checked, op).toBeGreaterThan(N / 2);
      expect(inexact, `${op} never differs from the exact value`).toBeGreaterThan(checked / 4);
    });
  });

  it('div.approx.f32 gives zero for a divisor beyond 2^126 (PTX ISA)', () => {
    const inp = new Uint32Array(N * 3);
    for (let i = 0; i < N; i++) { inp[3 * i] = 0x3fc00000; inp[3 * i + 1] = 0x7e800000 + i; inp[3 * i + 2] = 0; }   // 1.5 / (2^126 .. )
    const got = launch(opsKernel(4, ['div.approx.f32 a b', 'div.full.f32 a b']), new Uint8Array(inp.buffer), N * 8);
    for (let i = 1; i < N; i++) {
      expect(got.getUint32(i * 8, true)).toBe(0);
      expect(got.getUint32(i * 8 + 4, true)).not.toBe(0);
    }
  });
});
