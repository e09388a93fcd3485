// Full unrolling of constant-trip loops around __syncthreads(), as the real cicc does it: a shared-memory
// tree reduction (`stride >>= 1`) becomes straight-line code with one bar.sync per step, and the
// reads of s[t + stride] use the address of s[t] plus a constant (`[%r+512]`). `#pragma unroll 1` keeps
// the loop in both compilers. The oracle is cicc's PTX for the same .ii: per kernel, the number of
// bar.sync instructions and of shared-memory accesses with a constant offset.
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';

const SRC = `
__global__ void tree(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
template <unsigned B> __global__ void treeU(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[B];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned k = B / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) *out = s[0];
}
template __global__ void treeU<64>(const unsigned *, unsigned *);
__global__ void rolled(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
#pragma unroll 1
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) *out = s[0];
}
`;

function shape(ptx: string): Record<string, { barriers: number; offsets: number }> {
  const out: Record<string, { barriers: number; offsets: number }> = {};
  for (const m of ptx.matchAll(/\.entry (\w+)\([\s\S]*?\n\}\n/g)) {
    out[m[1]!] = {
      barriers: (m[0].match(/\bbar\.sync\b/g) ?? []).length,
      offsets: (m[0].match(/\b(?:ld|st)\.shared\S*\s+[^;]*\[%\w+\+\d+\]/g) ?? []).length,
    };
  }
  return out;
}

const skip = skipReason('nvcc');
describe.skipIf(skip !== undefined)(`unrolling around barriers ${skip ?? ''}`, () => {
  it('unrolls where the real cicc unrolls, with the same barriers and constant offsets', () => {
    const { r, refPtx } = compileWithReference('unroll_barrier', SRC);
    expect(r.ok, r.unsupported).toBe(true);
    const theirs = shape(refPtx), ours = shape(r.ptx);
    expect(Object.keys(theirs).sort()).toEqual(['_Z4treePKfPf', '_Z5treeUILj64EEvPKjPj', '_Z6rolledPKfPf']);
    expect(theirs._Z4treePKfPf!.barriers).toBe(9);       // the first barrier and one per unrolled step
    expect(theirs._Z6rolledPKfPf!.barriers).toBe(2);
    expect(ours).toEqual(theirs);
  });
});
