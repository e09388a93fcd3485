// The emulator against the test programs' own expectations: the real cicc's PTX runs in the emulator with
// the differential spec's inputs, and the outputs are checked the way each program's host main() checks
// them (re-implemented here from the .cu source). This is the emulator's fidelity check where no GPU is
// lent: the differential test only shows that ptxd and cicc agree *in the emulator*.

import { describe, it, expect } from 'vitest';
import * as path from 'node:path';
import { KERNELS_DIR, expectedOutput, skipReason } from '../helpers/tools';
import { SPECS } from '../diff/specs';
import { referencePtx, runSpec, type RunOutput } from '../diff/harness';
import type { KernelSpec } from '../diff/spec';

const spec = (name: string): KernelSpec => SPECS.find(s => s.name === name)!;
const view = (r: RunOutput, b: string) => { const u = r.buffers.get(b)!; return new DataView(u.buffer, u.byteOffset, u.byteLength); };
const i32s = (r: RunOutput, b: string) => { const d = view(r, b); return Array.from({ length: d.byteLength / 4 }, (_, i) => d.getInt32(i * 4, true)); };
const u32s = (r: RunOutput, b: string) => i32s(r, b).map(x => x >>> 0);
const i64s = (r: RunOutput, b: string) => { const d = view(r, b); return Array.from({ length: d.byteLength / 8 }, (_, i) => d.getBigInt64(i * 8, true)); };
const inputI32 = (s: KernelSpec, b: string) => i32s(runInputsOnly(s), b);

/** The spec's initial buffers, without running anything. */
function runInputsOnly(s: KernelSpec): RunOutput {
  return runSpec({ ...s, launches: [] }, referencePtx(s.name));
}

function run(name: string): RunOutput {
  return runSpec(spec(name), referencePtx(name));
}

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`the emulator running the real cicc's PTX meets the programs' own checks ${skip ?? ''}`, () => {
  it('printf: the expected lines, and printf returns the argument count', () => {
    const r = run('printf');
    for (const line of expectedOutput(path.join(KERNELS_DIR, 'printf.cu'))) expect(r.printf).toContain(line);
    expect(i32s(r, 'd')[0]).toBe(7);
  });

  it('assert_fail: thread 13 fails its assertion', () => {
    const r = run('assert_fail');
    expect(r.trap).toMatch(/assertion failed: .*assert_fail\.cu:\d+: .*in\[t\] != 13 .*thread 13,0,0/);
  });

  it('saxpy: y = 2.5 * x + y with one rounding (fma)', () => {
    const s = spec('saxpy');
    const before = runInputsOnly(s), after = run('saxpy');
    const x = view(before, 'x'), y0 = view(before, 'y'), y = view(after, 'y');
    for (let i = 0; i < 1000; i++) {
      const want = Math.fround(2.5 * x.getFloat32(i * 4, true) + y0.getFloat32(i * 4, true)); // exact product, one rounding
      expect(y.getFloat32(i * 4, true)).toBe(want);
    }
  });

  it('reduce_shared: per-block sums, minima and maxima', () => {
    const s = spec('reduce_shared');
    const inp = inputI32(s, 'din');
    const r = run('reduce_shared');
    const sums = i64s(r, 'sums'), mins = i32s(r, 'mins'), maxs = i32s(r, 'maxs');
    for (let b = 0; b < 6; b++) {
      let acc = 0n, mn = 2147483647, mx = -2147483648;
      for (let i = b * 256; i < inp.length; i += 6 * 256) {
        for (let t = 0; t < 256 && i + t < inp.length; t++) { const v = inp[i + t]!; acc += BigInt(v); mn = Math.min(mn, v); mx = Math.max(mx, v); }
      }
      expect([sums[b], mins[b], maxs[b]]).toEqual([acc, mn, mx]);
    }
  });

  it('bitonic_sort: each block of 1024 keys sorted, values follow keys', () => {
    const s = spec('bitonic_sort');
    const k0 = inputI32(s, 'dk'), v0 = inputI32(s, 'dv');
    const r = run('bitonic_sort');
    const k = i32s(r, 'dk'), v = i32s(r, 'dv');
    for (let b = 0; b < 2; b++) {
      const want = k0.slice(b * 1024, (b + 1) * 1024).sort((p, q) => p - q);
      expect(k.slice(b * 1024, (b + 1) * 1024)).toEqual(want);
      const pairs = new Map<number, number[]>();
      for (let i = b * 1024; i < (b + 1) * 1024; i++) pairs.set(k0[i]!, [...(pairs.get(k0[i]!) ?? []), v0[i]!]);
      for (let i = b * 1024; i < (b + 1) * 1024; i++) expect(pairs.get(k[i]!)).toContain(v[i]);
    }
  });

  it('scan: inclusive prefix sums over the whole array', () => {
    const inp = u32s(runInputsOnly(spec('scan')), 'din');
    const out = u32s(run('scan'), 'dout');
    let acc = 0;
    for (let i = 0; i < inp.length; i++) { acc = (acc + inp[i]!) >>> 0; expect(out[i]).toBe(acc); }
  });

  it('shfl: broadcast, permutation, width-8 rotate, up/down edges, butterfly sum', () => {
    const inp = inputI32(spec('shfl'), 'din');
    const o = i64s(run('shfl'), 'dout');
    for (let t = 0; t < 256; t++) {
      const lane = t & 31, w = inp.slice(t - lane, t - lane + 32);
      const g8 = lane & ~7, l8 = lane & 7;
      const sum = w.reduce((p, q) => p + q, 0);
      expect(o[t * 9]).toBe(BigInt(w[7]!));
      expect(o[t * 9 + 1]).toBe(BigInt(w[(lane * 5 + 3) & 31]!));
      expect(o[t * 9 + 2]).toBe(BigInt(w[g8 + ((l8 + 1) & 7)]!));
      expect(o[t * 9 + 3]).toBe(BigInt(lane < 3 ? w[lane]! : w[lane - 3]!));
      expect(o[t * 9 + 4]).toBe(BigInt(Math.imul(lane > 26 ? w[lane]! : w[lane + 5]!, 3) >>> 0));
      expect(o[t * 9 + 8]).toBe(BigInt(sum));
    }
  });

  it('vote: ballot, any, all, popc of ballot, activemask in a branch, partial-mask ballot', () => {
    const inp = inputI32(spec('vote'), 'din');
    const o = u32s(run('vote'), 'dout');
    for (let t = 0; t < 128; t++) {
      const lane = t & 31, w = inp.slice(t - lane, t - lane + 32);
      let ballot = 0, odd = 0;
      w.forEach((v, k) => { if (v > 0) ballot |= 1 << k; if (v & 1) odd++; });
      const want = [ballot >>> 0, w.some(v => v === 77) ? 1 : 0, w.every(v => v > -1000) ? 1 : 0, odd, lane < 20 ? 1 : 2, 0xffff];
      expect(o.slice(t * 6, t * 6 + 6)).toEqual(want);
    }
  });

  it('sync_count: __syncthreads_count/and/or per block', () => {
    const inp = inputI32(spec('sync_count'), 'din');
    const o = i32s(run('sync_count'), 'dout');
    for (let b = 0; b < 5; b++) {
      const v = inp.slice(b * 192, (b + 1) * 192);
      const want = [v.filter(x => x > 0).length, v.filter(x => x % 3 === 0).length, v.every(x => x > -1000000) ? 1 : 0,
        v.every(x => x > 0) ? 1 : 0, v.some(x => x === 12345) ? 1 : 0, v.some(x => x > 1000000) ? 1 : 0];
      expect(o.slice(b * 6, b * 6 + 6)).toEqual(want);
    }
  });

  it('histogram: byte counts of all words', () => {
    const words = u32s(runInputsOnly(spec('histogram')), 'dw');
    const bins = u32s(run('histogram'), 'db');
    const want = new Array(256).fill(0);
    for (const w of words) for (let k = 0; k < 4; k++) want[(w >>> (8 * k)) & 0xff]++;
    expect(bins).toEqual(want);
  });

  it('warp_reduce: total sum and maximum of v >> 1', () => {
    const inp = u32s(runInputsOnly(spec('warp_reduce')), 'd');
    const r = run('warp_reduce');
    const sum = view(r, 'sum').getBigUint64(0, true), mx = i32s(r, 'mx')[0];
    expect(sum).toBe(inp.reduce((p, q) => p + BigInt(q), 0n));
    expect(mx).toBe(Math.max(...inp.map(v => v >>> 1)));
  });

  it('recursion: fib, gcd, mutual recursion', () => {
    const o = i32s(run('recursion'), 'out');
    const fib = (n: number): number => (n < 2 ? n : fib(n - 1) + fib(n - 2));
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
    for (let t = 0; t < 64; t++) {
      expect(o[t * 4]).toBe(fib(t % 18));
      expect(o[t * 4 + 1]).toBe(gcd(t * 84 + 36, 1260));
      expect(o[t * 4 + 2]).toBe((t % 2 === 0 ? 1 : 0) * 2 + ((t + 3) % 2 === 1 ? 1 : 0));
    }
  });
});
