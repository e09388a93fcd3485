// Loads through the read-only (non-coherent) cache: `ld.global.nc` where the real cicc uses it, for
// `const T *__restrict__` kernel parameters the kernel only reads, constant tables and string literals,
// and plain `ld.global` everywhere else (a restrict pointer written through, or passed to a call, a
// pointer without __restrict__). The oracle is cicc's PTX for the same .ii, kernel by kernel.
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';

const SRC = `
__device__ const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__device__ __noinline__ float peek(const float *p, int i) { return p[i]; }

__global__ void readOnly(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0f + in[(i + 1) % n];
}
__global__ void notRestrict(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}
__global__ void writtenThrough(float *__restrict__ io, int n) {
  int i = threadIdx.x;
  if (i < n) io[i] = io[i] + io[(i + 1) % n];
}
__global__ void passedOn(const float *__restrict__ in, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = peek(in, i) + in[i];
}
__device__ __noinline__ void poke(float *p, int i) { p[i] = 0.0f; }
__global__ void passedToWriter(float *__restrict__ in, float *out, int n) {
  int i = threadIdx.x;
  out[i] = in[i];
  poke(in, (i + 1) % n);
}
__global__ void tables(const int *__restrict__ idx, int *out) {
  int i = threadIdx.x;
  out[i] = table[idx[i] & 7];
}
__global__ void pointerLoop(const int *__restrict__ in, int *out, int n) {
  int s = 0;
  for (const int *p = in; p < in + n; p++) s += *p;
  out[threadIdx.x] = s;
}
`;

function ncPerKernel(ptx: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of ptx.matchAll(/\.entry (\w+)\([\s\S]*?\n\}\n/g)) out[m[1]!] = (m[0].match(/ld\.global\.nc/g) ?? []).length;
  return out;
}

const skip = skipReason('nvcc');
describe.skipIf(skip !== undefined)(`ld.global.nc ${skip ?? ''}`, () => {
  it('is used exactly where the real cicc uses it, kernel by kernel', () => {
    const { r, refPtx } = compileWithReference('ldnc', SRC);
    expect(r.ok, r.unsupported).toBe(true);
    const theirs = ncPerKernel(refPtx), ours = ncPerKernel(r.ptx);
    expect(Object.keys(theirs).length).toBe(7);
    expect(theirs._Z8readOnlyPKfPfi).toBeGreaterThan(0);
    expect(theirs._Z14passedToWriterPfS_i).toBe(0);
    expect(ours).toEqual(theirs);
  });
});
