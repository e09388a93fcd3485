// Address arithmetic folded into the load/store offset (`[%rd6+8]`), as the real cicc does: an index
// `i + C` also used elsewhere (the bounds test), and indices built on threadIdx.x, whose hardware limit
// (< 1024) makes `tid + C` free of overflow so that its constant can move into the offset. The oracle is
// cicc's PTX for the same .ii: per kernel, the number of memory accesses with a constant offset.
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';

const SRC = `
__global__ void guarded(const float *__restrict__ p, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 2 < n) q[i] = p[i] + p[i + 1] * 2.f + p[i + 2] * 3.f;
}
#define R 3
__constant__ int c_w[2 * R + 1];
__global__ void stencil(const int *__restrict__ in, int *__restrict__ out, int n) {
  __shared__ int s[128 + 2 * R];
  int g = blockIdx.x * 128 + threadIdx.x, l = threadIdx.x + R;
  s[l] = in[g < n ? g : n - 1];
  if (threadIdx.x < R) { s[l - R] = in[g - R < 0 ? 0 : g - R]; s[l + 128] = in[g + 128 >= n ? n - 1 : g + 128]; }
  __syncthreads();
  if (g >= n) return;
  int acc = 0;
#pragma unroll
  for (int k = -R; k <= R; k++) acc += c_w[k + R] * s[l + k];
  out[g] = acc;
}
`;

function offsetAccesses(ptx: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of ptx.matchAll(/\.entry (\w+)\([\s\S]*?\n\}\n/g)) out[m[1]!] = (m[0].match(/\b(?:ld|st)\.(?:global|shared)\S*\s+[^;]*\[%\w+\+\d+\]/g) ?? []).length;
  return out;
}

const skip = skipReason('nvcc');
describe.skipIf(skip !== undefined)(`constant offsets in addresses ${skip ?? ''}`, () => {
  it('fold where the real cicc folds them, kernel by kernel', () => {
    const { r, refPtx } = compileWithReference('addressing', SRC);
    expect(r.ok, r.unsupported).toBe(true);
    const theirs = offsetAccesses(refPtx), ours = offsetAccesses(r.ptx);
    expect(Object.keys(theirs)).toEqual(['_Z7guardedPKfPfi', '_Z7stencilPKiPii']);
    expect(theirs._Z7stencilPKiPii).toBeGreaterThan(6);
    expect(ours).toEqual(theirs);
  });
});
