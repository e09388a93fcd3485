// Loop rotation (compiler/middle/passes/rotate.ts) and back-edge phi coalescing (compiler/backend/backedge.ts):
// a `for` loop over a run-time bound is tested at the bottom, as in cicc's PTX (a guard before the loop, one
// conditional branch back per iteration, no unconditional jump back), and an accumulator is computed straight
// into its register (no copy on the back edge). The oracle for the shape is cicc's PTX of the same unit.
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';

const SRC = `
__global__ void dot(int n, const float *__restrict__ a, const float *__restrict__ b, float *out) {
  float s = 0.f;
  for (int j = 0; j < n; j++) s += a[j] * b[j];
  out[threadIdx.x] = s;
}
__global__ void nested(int n, int m, const float *__restrict__ a, float *out) {
  float s = 0.f;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) s += a[i * m + j];
  out[threadIdx.x] = s;
}
__global__ void argmin(int n, const float *__restrict__ a, int *out) {
  float best = 3.0e38f;
  int at = 0;
  for (int j = 0; j < n; j++) { float v = a[j] * a[j]; if (v < best) { best = v; at = j; } }
  out[threadIdx.x] = at;
}
__global__ void tree(unsigned *x) {
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) x[threadIdx.x] += x[threadIdx.x + s]; __syncthreads(); }
}
__global__ void countdown(unsigned n, int *out) {
  int s = 0;
  while (n != 0) { s += n * n; n--; }
  out[threadIdx.x] = s;
}
__global__ void find(int n, const int *__restrict__ a, int key, int *out) {
  for (int j = 0; j < n; j++) if (a[j] == key) { out[threadIdx.x] = j; return; }
  out[threadIdx.x] = -1;
}
__global__ void collatz(unsigned x0, int *out) {
  unsigned x = x0 + threadIdx.x;
  int steps = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    if (++steps > 1000) { out[threadIdx.x] = -1; return; }
  }
  out[threadIdx.x] = steps;
}
__global__ void fir(int n, int taps, const float *__restrict__ x, const float *__restrict__ h, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + taps <= n; i += gridDim.x * blockDim.x) {
    float s = 0.f;
    for (int t = 0; t < taps; ++t) s += h[t] * x[i + t];
    y[i] = s;
  }
}
__global__ void insertion(const int *__restrict__ in, int *out) {
  int v[8];
  for (int i = 0; i < 8; i++) v[i] = in[threadIdx.x * 8 + i];
  for (int i = 1; i < 8; i++) {
    int x = v[i], j = i - 1;
    while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
    v[j + 1] = x;
  }
  for (int i = 0; i < 8; i++) out[threadIdx.x * 8 + i] = v[i];
}
`;

/** The body of one kernel's PTX. */
function kernel(ptx: string, name: string): string[] {
  const at = ptx.indexOf(`.entry ${name}(`);
  expect(at, `kernel ${name}`).toBeGreaterThanOrEqual(0);
  const end = ptx.indexOf('\n}', at);
  return ptx.slice(at, end).split('\n').map(l => l.trim());
}

/**
 * Every branch to a label above it (a loop's back edge): whether it is conditional, and the lines from the
 * label to the branch. A block of copies only that jumps back into a loop (an edge block placed after the
 * function's body) is an entry into the loop, not a back edge.
 */
function backBranches(lines: string[]): { conditional: boolean; body: string[] }[] {
  const labels = new Map<string, number>();
  const out: { conditional: boolean; body: string[] }[] = [];
  let blockStart = 0;
  lines.forEach((l, k) => {
    const m = /^(\$L__BB\d+_\d+):$/.exec(l);
    if (m) { labels.set(m[1]!, k); blockStart = k + 1; return; }
    const b = /^(@%p\d+\s+)?bra(?:\.uni)?\s+(\$L__BB\d+_\d+);$/.exec(l);
    if (!b || !labels.has(b[2]!)) return;
    if (lines.slice(blockStart, k).every(x => x.startsWith('mov.'))) return;
    out.push({ conditional: b[1] !== undefined, body: lines.slice(labels.get(b[2]!)!, k) });
  });
  return out;
}

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`loop rotation: bottom-tested loops as cicc emits them ${skip ?? ''}`, () => {
  const { r, refPtx } = skip === undefined ? compileWithReference('loop-rotate', SRC) : { r: null, refPtx: '' };
  const cases: [string, string][] = [['dot', '_Z3dotiPKfS0_Pf'], ['nested', '_Z6nestediiPKfPf'], ['countdown', '_Z9countdownjPi'], ['tree (s >>= 1)', '_Z4treePj'],
    ['find (a return in the body)', '_Z4findiPKiiPi']];
  for (const [what, name] of cases) {
    it(`${what}: every loop ends in a conditional branch back, as cicc's`, () => {
      expect(r!.ok, r!.diagnostics.join('\n')).toBe(true);
      for (const ptx of [refPtx, r!.ptx]) {
        const back = backBranches(kernel(ptx, name));
        expect(back.length).toBeGreaterThan(0);
        expect(back.map(b => b.conditional)).toEqual(back.map(() => true));
      }
    });
  }
  it('argmin: the running minimum and its index are selected into their own registers (a branch back per loop, as cicc)', () => {
    const [cicc, ours] = [refPtx, r!.ptx].map(p => backBranches(kernel(p, '_Z6argminiPKfPi')));
    expect(cicc!.length).toBeGreaterThan(0);
    expect(ours!.length).toBe(cicc!.length);
    for (const b of ours!) {
      expect(b.conditional).toBe(true);
      expect(b.body.filter(l => l.startsWith('selp.')).length).toBeGreaterThan(0);
    }
  });
  it('dot: the accumulator is computed into its own register (no copy in its loops)', () => {
    const back = backBranches(kernel(r!.ptx, '_Z3dotiPKfS0_Pf'));
    expect(back.length).toBeGreaterThan(0);
    for (const b of back) {
      expect(b.body.filter(l => l.startsWith('mov.'))).toEqual([]);
      expect(b.body.filter(l => l.startsWith('fma.rn.f32')).length).toBeGreaterThan(0);
    }
  });
  // cicc unrolls collatz by 4 (each copy tests both exits); ptxd rotates it: the latch, which may leave too,
  // gets a block of its own for the header's test
  for (const [what, name] of [['find', '_Z4findiPKiiPi'], ['collatz (an exit in the latch)', '_Z7collatzjPi']] as const) {
    it(`${what}: one loop, tested at the bottom, its counters updated in their own registers (no copies)`, () => {
      const back = backBranches(kernel(r!.ptx, name));
      expect(back.length).toBe(1);
      expect(back[0]!.conditional).toBe(true);
      // register-to-register copies (an early exit's block laid out inside the loop reads %tid.x)
      expect(back[0]!.body.filter(l => /^mov\.\w+\s+%\w+,\s*%(r|rd|f|fd|rs)\d+;$/.test(l))).toEqual([]);
    });
  }
  it('insertion (while (j >= 0 && v[j] > x)): every loop tested at the bottom, j stepped in its own register, no jump back', () => {
    const lines = kernel(r!.ptx, '_Z9insertionPKiPi');
    const back = backBranches(lines);
    expect(back.length).toBeGreaterThan(0);
    expect(back.map(b => b.conditional)).toEqual(back.map(() => true));
    expect(lines.filter(l => l.startsWith('bra.uni'))).toEqual([]);
  });
  it('fir (an outer loop whose body starts with the inner loop): both loops tested at the bottom', () => {
    // (cicc unswitches the outer loop on taps > 0; its copy for taps <= 0 jumps back unconditionally)
    const back = backBranches(kernel(r!.ptx, '_Z3firiiPKfS0_Pf'));
    expect(back.length).toBeGreaterThanOrEqual(2);
    expect(back.map(b => b.conditional)).toEqual(back.map(() => true));
  });
});
