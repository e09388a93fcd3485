// Loop strength reduction (compiler/middle/passes/lsr.ts) and the 64-bit arithmetic around it, against the
// shape of cicc's PTX for the same unit: in cicc's loops an array walked by a counter is a pointer stepped
// each iteration (no mul.wide, no cvt of the counter), the other elements of the same row are `[p+imm]`,
// a column walk is a pointer stepped by the row's width; a 64-bit product of two ints is one mul.wide.s32
// (backend/patterns.ts findWideMuls). What the loops compute is checked by the differential tests
// (test/differential.test.ts runs every test program, matmul_naive's loop among them, in the emulator).
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';
import { kernelLines, loopBodies, loopCounts, ptxas } from './helpers/ptx';

const SRC = `
__global__ void matmul(const int *A, const int *B, long long *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  long long acc = 0;
  for (int k = 0; k < K; k++) acc += (long long)A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
__constant__ float coef[64];
__global__ void horner(int n, int deg, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], s = coef[deg];
  for (int j = deg - 1; j >= 0; --j) s = s * v + coef[j];
  y[i] = s;
}
__global__ void fir(int n, int taps, const float *x, float *y) {
  extern __shared__ float hs[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + taps > n) return;
  float s = 0.f;
#pragma unroll 1
  for (int t = 0; t < taps; ++t) s += hs[t] * x[i + t];
  y[i] = s;
}
`;

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`strength reduction: pointers stepped in loops, as cicc ${skip ?? ''}`, () => {
  const { r, refPtx } = skip === undefined ? compileWithReference('strength-reduce', SRC) : { r: null, refPtx: '' };
  const both = (name: string, re: RegExp): number[][] => [refPtx, r!.ptx].map(p => loopCounts(kernelLines(p, name), re));
  const MATMUL = '_Z6matmulPKiS0_Pxiii', HORNER = '_Z6horneriiPKfPf', FIR = '_Z3firiiPKfPf';

  it('the unit compiles and ptxas accepts it', () => {
    expect(r!.ok, r!.diagnostics.join('\n') + (r!.unsupported ?? '')).toBe(true);
    expect(ptxas(r!.ptx, 90)).toBe('');
  });
  it('matmul: no address recomputed from the counter in either loop (no mul.wide of an index, no mad)', () => {
    const [cicc, ours] = both(MATMUL, /^(mul\.wide\.s32\s+%rd\d+, %r\d+, 4;|mad\.lo)/);
    expect(cicc).toEqual([0, 0]);
    expect(ours).toEqual(cicc);
  });
  it('matmul: the row of A read as [p], [p+4], [p+8], [p+12] in the main loop', () => {
    const [cicc, ours] = both(MATMUL, /^ld\.global\.u32\s+%r\d+, \[%rd\d+\+(4|8|12)\];/);
    expect(cicc).toEqual([3, 0]);
    expect(ours).toEqual(cicc);
  });
  it('matmul: each 64-bit product is one mul.wide.s32 of the loaded ints (no cvt.s64.s32 in the loops)', () => {
    expect(both(MATMUL, /^mul\.wide\.s32\s+%rd\d+, %r\d+, %r\d+;/)).toEqual([[4, 1], [4, 1]]);
    expect(both(MATMUL, /^cvt\.s64\.s32/)).toEqual([[0, 0], [0, 0]]);
  });
  it('matmul: the loops step pointers with 64-bit adds (A by 16 and 4 bytes, B by a register)', () => {
    const steps = (p: string): string[][] => loopBodies(kernelLines(p, MATMUL)).map(b => b.filter(l => /^add\.s64/.test(l)).map(l => l.replace(/%rd\d+/g, 'R').replace(/\s+/g, ' ')).sort());
    const [cicc, ours] = [refPtx, r!.ptx].map(steps);
    // cicc adds A's invariant row offset to its pointer before each access of the main loop, one add more
    // than needed: the remainder loop, with one access per array, is the same in both
    expect(ours![1]).toEqual(cicc![1]);
    expect(ours![0]!.filter(l => l === 'add.s64 R, R, 16;')).toEqual(['add.s64 R, R, 16;']);
  });
  it('horner: a counter counting down steps its pointer by -4 (the decrement keeps nsw)', () => {
    const [cicc, ours] = [refPtx, r!.ptx].map(p => loopBodies(kernelLines(p, HORNER)));
    expect(cicc!.flat().some(l => /^add\.s64\s+%rd\d+, %rd\d+, -16;$/.test(l))).toBe(true);
    expect(ours!.flat().some(l => /^add\.s64\s+%rd\d+, %rd\d+, -(4|16);$/.test(l))).toBe(true);
    expect(ours!.flat().filter(l => /^mul\.wide/.test(l))).toEqual([]);
  });
  it('fir (#pragma unroll 1): both arrays walked by pointers, the loop body without index arithmetic', () => {
    const [cicc, ours] = both(FIR, /^(mul\.wide|cvt\.|shl\.|mad\.)/);
    expect(cicc).toEqual([0]);
    expect(ours).toEqual(cicc);
  });
});
