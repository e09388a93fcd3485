// Runtime unrolling (compiler/middle/passes/runtime-unroll.ts): an innermost loop over a run-time bound is
// unrolled by 4 into a main loop, with the remaining iterations in a loop of one copy after it, as cicc
// does (also around a barrier, as cicc); `#pragma unroll 1` keeps the loop as it is. The oracle for the shape is
// cicc's PTX of the same unit (the loops found in both, their loads counted); what the loops compute is
// checked by the differential tests (test/differential.test.ts runs every test program in the emulator).
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';
import { kernelLines as kernel, loopCounts } from './helpers/ptx';

const SRC = `
__global__ void dot(int n, const float *__restrict__ a, const float *__restrict__ b, float *out) {
  float s = 0.f;
  for (int j = 0; j < n; j++) s += a[j] * b[j];
  out[threadIdx.x] = s;
}
__global__ void kept(int n, const float *__restrict__ a, float *out) {
  float s = 0.f;
#pragma unroll 1
  for (int j = 0; j < n; j++) s += a[j];
  out[threadIdx.x] = s;
}
__global__ void barrier(int n, const float *__restrict__ a, float *out) {
  __shared__ float t[256];
  float s = 0.f;
  for (int j = 0; j < n; j++) { t[threadIdx.x] = a[j]; __syncthreads(); s += t[(threadIdx.x + 1) & 255]; __syncthreads(); }
  out[threadIdx.x] = s;
}
__global__ void share(int n, const int *__restrict__ a, int *out) {
  int s = 0, b = blockIdx.x;
  for (int i = b * 32; i < (b + 1) * 32 && i < n; i++) s += a[i];
  out[b] = s;
}
__global__ void horner(int n, const float *__restrict__ c, const float *__restrict__ x, float *out) {
  float v = x[threadIdx.x], s = 0.f;
  for (int j = n - 1; j >= 0; --j) s = s * v + c[j];
  out[threadIdx.x] = s;
}
`;

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`runtime unrolling: by 4 with a remainder loop, as cicc ${skip ?? ''}`, () => {
  const { r, refPtx } = skip === undefined ? compileWithReference('runtime-unroll', SRC) : { r: null, refPtx: '' };
  const both = (name: string, re: RegExp): number[][] => [refPtx, r!.ptx].map(p => loopCounts(kernel(p, name), re));

  it('dot: a main loop of 4 copies (8 loads) and a remainder loop of one (2 loads)', () => {
    expect(r!.ok, r!.diagnostics.join('\n')).toBe(true);
    const [cicc, ours] = both('_Z3dotiPKfS0_Pf', /^ld\.global/);
    expect(cicc).toEqual([8, 2]);
    expect(ours).toEqual(cicc);
  });
  it('#pragma unroll 1: one loop of one copy', () => {
    const [cicc, ours] = both('_Z4keptiPKfPf', /^ld\.global/);
    expect(cicc).toEqual([1]);
    expect(ours).toEqual(cicc);
  });
  it('a barrier in the body: unrolled as well (8 barriers in the main loop, 2 in the remainder)', () => {
    const [cicc, ours] = both('_Z7barrieriPKfPf', /^bar\.sync/);
    expect(cicc).toEqual([8, 2]);
    expect(ours).toEqual(cicc);
  });
  it('two bounds (i < A && i < n): one test against their minimum, unrolled as cicc unrolls it', () => {
    const [cicc, ours] = both('_Z5shareiPKiPi', /^ld\.global/);
    expect(cicc).toEqual([4, 1]);
    expect(ours).toEqual(cicc);
    const lines = kernel(r!.ptx, '_Z5shareiPKiPi');
    expect(lines.filter(l => l.startsWith('min.s32')).length).toBe(1);
    expect(lines.filter(l => l.startsWith('and.pred'))).toEqual([]);
  });
  it('counting down (j >= 0; --j): a main loop of 4 copies and a remainder loop of one, as cicc', () => {
    // cicc runs this remainder before the main loop (a prologue), ptxd after it, as for loops counting up
    const [cicc, ours] = both('_Z6horneriPKfS0_Pf', /^ld\.global/);
    expect(cicc).toEqual([1, 4]);
    expect([...ours!].sort()).toEqual([...cicc!].sort());
  });
});
