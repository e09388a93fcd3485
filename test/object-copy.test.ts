// Copies of class objects (`q[i] = p[j]` of a float4, a struct of two doubles, an 8-byte-aligned pair) move in
// accesses as wide as the type's alignment allows, as the real cicc's do: a float4 in one 16-byte access, not
// sixteen byte loads and stores (the copy's own alignment, which the pointers' provenance alone does not show).
// The oracle is cicc's PTX for the same .ii: per kernel, the widths of its global and shared accesses.
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';

const SRC = `
struct D2 { double a, b; };
struct __align__(8) P { int x, y; };
__global__ void copyFloat4(const float4 *__restrict__ p, float4 *q, int i) { q[i] = p[i + 1]; }
__global__ void copyShared(const float4 *__restrict__ p, float4 *q, int i) {
  extern __shared__ float4 tile[];
  tile[threadIdx.x] = p[i];
  __syncthreads();
  q[i] = tile[threadIdx.x ^ 1];
}
__global__ void copyD2(const D2 *p, D2 *q, int i) { q[i] = p[i + 2]; }
__global__ void copyP(const P *p, P *q, int i) { q[i] = p[i ^ 3]; }
`;

/** Per kernel: the sorted list of `width` of each global/shared access (vector width × element bytes). */
function accessWidths(ptx: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const m of ptx.matchAll(/\.entry (\w+)\([\s\S]*?\n\}\n/g)) {
    const ws: number[] = [];
    for (const a of m[0].matchAll(/\b(?:ld|st)\.(?:global|shared)(?:\.nc)?(?:\.v(\d))?\.[a-z](\d+)\s/g)) ws.push(Number(a[1] ?? 1) * Number(a[2]) / 8);
    out[m[1]!] = ws.sort((x, y) => x - y);
  }
  return out;
}

const skip = skipReason('nvcc');
describe.skipIf(skip !== undefined)(`object copies ${skip ?? ''}`, () => {
  it('use the accesses cicc uses, kernel by kernel', () => {
    const { r, refPtx } = compileWithReference('object-copy', SRC);
    expect(r.ok, r.unsupported).toBe(true);
    const theirs = accessWidths(refPtx), ours = accessWidths(r.ptx);
    expect(theirs['_Z10copyFloat4PK6float4PS_i']).toEqual([16, 16]);
    expect(ours).toEqual(theirs);
  });
});
