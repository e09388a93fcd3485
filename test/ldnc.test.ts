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
// object copies (llvm.memcpy) read their source like a load
struct Two { double a, b; };
__global__ void copyVec(const float4 *__restrict__ in, float4 *__restrict__ out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void copyStruct(const Two *__restrict__ in, Two *out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void copyNotRestrict(const float4 *in, float4 *out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void copyTile(const float4 *__restrict__ in, float *out) {
  __shared__ float4 sh[64];
  int t = threadIdx.x;
  sh[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < 64; k++) s += sh[k].x * sh[k].w;
  out[blockIdx.x * 64 + t] = s;
}
`;

/** Per kernel, how often `re` occurs in its body. */
function countPerKernel(ptx: string, re: RegExp): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of ptx.matchAll(/\.entry (\w+)\([\s\S]*?\n\}\n/g)) out[m[1]!] = (m[0].match(re) ?? []).length;
  return out;
}
const ncPerKernel = (ptx: string) => countPerKernel(ptx, /ld\.global\.nc/g);

const skip = skipReason('nvcc');
describe.skipIf(skip !== undefined)(`ld.global.nc ${skip ?? ''}`, () => {
  it('is used exactly where the real cicc uses it, kernel by kernel', () => {
    const { r, refPtx } = compileWithReference('ldnc', SRC);
    expect(r.ok, r.unsupported).toBe(true);
    const theirs = ncPerKernel(refPtx), ours = ncPerKernel(r.ptx);
    expect(Object.keys(theirs).length).toBe(11);
    expect(theirs._Z7copyVecPK6float4PS_).toBeGreaterThan(0);
    expect(theirs._Z15copyNotRestrictPK6float4PS_).toBe(0);
    expect(theirs._Z8readOnlyPKfPfi).toBeGreaterThan(0);
    expect(theirs._Z14passedToWriterPfS_i).toBe(0);
    expect(ours).toEqual(theirs);
  });

  it('leaves no generic pointer made only to be copied through (cvta.global), as the real cicc', () => {
    const { r, refPtx } = compileWithReference('ldnc', SRC);
    const generic = /cvta\.global/g;
    expect(countPerKernel(r.ptx, generic)).toEqual(countPerKernel(refPtx, generic));
  });
});
