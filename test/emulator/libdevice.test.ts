// The emulator runs libdevice math as the real cicc inlines it (nvcc -ptx on a small math kernel): carry
// chains of the trig argument reduction, approximate instructions, f64 fma. Results are checked against
// JavaScript's Math within the CUDA Programming Guide's maximum ULP errors (plus half an ULP for the
// reference's own rounding), so both the emulator's instruction semantics and its coverage are tested.

import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mkTempDir, requireTool, run, skipReason } from '../helpers/tools';
import { Machine } from './machine';

const SRC = `
__global__ void k(const float *x, const double *y, float *of, double *od, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float a = x[t]; double b = y[t];
  of[t * 10 + 0] = sinf(a); of[t * 10 + 1] = cosf(a); of[t * 10 + 2] = expf(a); of[t * 10 + 3] = logf(fabsf(a) + 1.0f);
  of[t * 10 + 4] = sqrtf(fabsf(a)); of[t * 10 + 5] = powf(fabsf(a), 1.7f); of[t * 10 + 6] = tanhf(a); of[t * 10 + 7] = atan2f(a, 1.5f);
  of[t * 10 + 8] = __expf(a); of[t * 10 + 9] = a / 3.0f;
  od[t * 8 + 0] = sin(b); od[t * 8 + 1] = cos(b); od[t * 8 + 2] = exp(b); od[t * 8 + 3] = log(fabs(b) + 1.0);
  od[t * 8 + 4] = sqrt(fabs(b)); od[t * 8 + 5] = pow(fabs(b), 1.7); od[t * 8 + 6] = tanh(b); od[t * 8 + 7] = b / 3.0;
}
`;

const INPUTS = [...Array.from({ length: 90 }, (_, i) => -4 + i * 0.0937), 1e5, 1.23e6, 3.7e7, -8.8e8, 12345.678, 0, -0.5, 1e-3, 30, -30, 5e9, -2.2e13, 1e22];

function ulps32(a: number, b: number): number {
  if (a === b) return 0;
  if (!isFinite(a) || !isFinite(b) || a !== a || b !== b) return a === b || (a !== a && b !== b) ? 0 : Infinity;
  const f = new Float32Array([a, b]);
  const i = new Int32Array(f.buffer);
  const ord = (x: number) => (x < 0 ? -2147483648 - x : x);
  return Math.abs(ord(i[0]!) - ord(i[1]!));
}
function ulps64(a: number, b: number): number {
  if (a === b) return 0;
  if (!isFinite(a) || !isFinite(b) || a !== a || b !== b) return (a !== a && b !== b) ? 0 : Infinity;
  const f = new Float64Array([a, b]);
  const i = new BigInt64Array(f.buffer);
  const ord = (x: bigint) => (x < 0n ? -(2n ** 63n) - x : x);
  const d = ord(i[0]!) - ord(i[1]!);
  return Number(d < 0n ? -d : d);
}

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`libdevice math from the real cicc runs in the emulator within CUDA's ULP bounds ${skip ?? ''}`, () => {
  it('f32 and f64 functions', () => {
    const dir = mkTempDir('emu-math');
    fs.writeFileSync(path.join(dir, 'math.cu'), SRC);
    const r = run(requireTool('nvcc'), ['-ptx', '-arch=sm_90', path.join(dir, 'math.cu'), '-o', path.join(dir, 'math.ptx')]);
    expect(r.status, r.stderr).toBe(0);
    const m = new Machine(fs.readFileSync(path.join(dir, 'math.ptx'), 'utf8'));
    const n = INPUTS.length;
    const x = m.alloc(n * 4), y = m.alloc(n * 8), of = m.alloc(n * 40), od = m.alloc(n * 64);
    m.write(x, new Uint8Array(new Float32Array(INPUTS).buffer));
    m.write(y, new Uint8Array(new Float64Array(INPUTS).buffer));
    const params = new Uint8Array(36);
    const pv = new DataView(params.buffer);
    [x, y, of, od].forEach((a, k) => pv.setBigUint64(k * 8, BigInt(a), true));
    pv.setInt32(32, n, true);
    const res = m.launch('_Z1kPKfPKdPfPdi', { grid: { x: 1, y: 1, z: 1 }, block: { x: 128, y: 1, z: 1 }, params });
    expect(res.trap).toBeNull();
    const F = new Float32Array(m.read(of, n * 40).buffer), D = new Float64Array(m.read(od, n * 64).buffer);
    const fr = Math.fround;
    const bad: string[] = [];
    INPUTS.forEach((v, t) => {
      const a = fr(v);
      // [reference, max ulp] per output: CUDA guide bounds + 1 for the reference's rounding.
      const f32: [number, number][] = [
        [Math.sin(a), 3], [Math.cos(a), 3], [Math.exp(a), 3], [Math.log(fr(Math.abs(a) + 1)), 2],
        [Math.sqrt(Math.abs(a)), 0], [Math.pow(Math.abs(a), fr(1.7)), 5], [Math.tanh(a), 3], [Math.atan2(a, 1.5), 4],
        [Math.exp(a), 3 + Math.floor(Math.abs(1.16 * a))], [a / 3, 0],
      ];
      f32.forEach(([want, tol], k) => {
        const got = F[t * 10 + k]!;
        if (Math.abs(a) > 1e4 && k === 8) return; // __expf bound grows with |x|; overflow both ways is checked by k=2
        if (ulps32(got, fr(want)) > tol) bad.push(`f32 out ${k} x=${a}: got ${got} want ${fr(want)}`);
      });
      const f64: [number, number][] = [
        [Math.sin(v), 2], [Math.cos(v), 2], [Math.exp(v), 2], [Math.log(Math.abs(v) + 1), 2],
        [Math.sqrt(Math.abs(v)), 0], [Math.pow(Math.abs(v), 1.7), 3], [Math.tanh(v), 3], [v / 3, 0],
      ];
      f64.forEach(([want, tol], k) => {
        const got = D[t * 8 + k]!;
        if (ulps64(got, want) > tol) bad.push(`f64 out ${k} x=${v}: got ${got} want ${want}`);
      });
    });
    expect(bad).toEqual([]);
  });
});
