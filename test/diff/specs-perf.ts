// Differential specs of the programs that carry bench/gpu-perf's shapes into CI (test/kernels/loop_nests.cu,
// perf_mix.cu, and fp_contract.cu: where cicc contracts a multiply-add into an fma): loop nests over run-time bounds, block scans and reductions, a warp-per-row SpMV, a softmax,
// Floyd-Warshall launched once per k, Horner over __constant__ coefficients. Sizes are small for the emulator.
import { type KernelSpec, buf, i32, f32, rand, bits, gen } from './spec';

const SPMV_ROWS = 60;
const SPMV_PTR = (() => { const p = [0]; for (let r = 0; r < SPMV_ROWS; r++) p.push(p[r]! + ((r * 37) % 71)); return p; })();
const SPMV_NNZ = SPMV_PTR[SPMV_ROWS]!;
const FLOYD_N = 24;

export const SPECS_PERF: KernelSpec[] = [
  {
    // bitwise: a contraction one compiler makes and the other does not shows as a last-bit difference
    name: 'fp_contract',
    buffers: { p: { type: 'f32', n: 48 * 64, init: rand(-2, 2, 51) }, q: { type: 'f64', n: 9 * 64, init: rand(-2, 2, 52) }, o: { type: 'f32', n: 12 * 64 }, od: { type: 'f64', n: 3 * 64 } },
    launches: [{ kernel: 'contract', grid: 2, block: 32, args: [buf('p'), buf('q'), buf('o'), buf('od')] }],
  },
  {
    name: 'loop_nests',
    buffers: {
      A: { type: 'f32', n: 64 * 64, init: rand(-0.5, 0.5, 11) }, B: { type: 'f32', n: 64 * 64, init: rand(-0.5, 0.5, 12) }, C: { type: 'f32', n: 64 * 64 },
      M: { type: 'f32', n: 40 * 70, init: rand(0, 1, 13) }, x: { type: 'f32', n: 70, init: rand(0, 1, 14) }, w: { type: 'f32', n: 40, init: rand(0, 1, 15) },
      y: { type: 'f32', n: 40 }, z: { type: 'f32', n: 70 },
      sin: { type: 'f32', n: 20 * 12 * 6, init: rand(0, 1, 16) }, sout: { type: 'f32', n: 20 * 12 * 6 },
      img: { type: 'f32', n: 30 * 20, init: rand(0, 1, 17) }, filt: { type: 'f32', n: 25, init: rand(-0.5, 0.5, 18) }, cout: { type: 'f32', n: 30 * 20 },
      fx: { type: 'f32', n: 700, init: rand(0, 1, 19) }, fh: { type: 'f32', n: 13, init: rand(-0.25, 0.75, 20) }, fy: { type: 'f32', n: 700 },
      pts: { type: 'f32', n: 300 * 5, init: rand(0, 1, 21) }, cent: { type: 'f32', n: 7 * 5, init: rand(0, 1, 22) }, asg: { type: 'i32', n: 300 },
    },
    launches: [
      { kernel: 'gemm_rb', grid: [2, 2, 1], block: 64, args: [i32(64), buf('A'), buf('B'), buf('C')] },
      { kernel: 'gemv_rows', grid: 10, block: 128, args: [i32(40), i32(70), buf('M'), buf('x'), buf('y')] },
      { kernel: 'gemv_cols', grid: 2, block: 64, args: [i32(40), i32(70), buf('M'), buf('w'), buf('z')] },
      { kernel: 'stencil7', grid: [2, 2, 1], block: [16, 8, 1], args: [i32(20), i32(12), i32(6), f32(0.4), f32(0.1), buf('sin'), buf('sout')] },
      { kernel: 'conv2d', grid: [2, 3, 1], block: [16, 8, 1], args: [i32(30), i32(20), i32(2), buf('img'), buf('filt'), buf('cout')] },
      { kernel: 'fir', grid: 3, block: 64, dynShared: 13 * 4, args: [i32(700), i32(13), buf('fx'), buf('fh'), buf('fy')] },
      { kernel: 'kmeans', grid: 3, block: 128, dynShared: 7 * 5 * 4, args: [i32(300), i32(7), i32(5), buf('pts'), buf('cent'), buf('asg')] },
    ],
  },
  {
    name: 'perf_mix',
    buffers: {
      sin: { type: 'i32', n: 64 * 4 * 3, init: rand(-300, 699, 31) }, sout: { type: 'i32', n: 64 * 4 * 3 },
      u: { type: 'u32', n: 3000, init: bits(32) }, usum: { type: 'u32', n: 1 },
      hf: { type: 'f32', n: 3000, init: rand(0, 1, 33) }, bins: { type: 'u32', n: 64 },
      rowptr: { type: 'i32', n: SPMV_ROWS + 1, init: gen(i => SPMV_PTR[i]!) },
      col: { type: 'i32', n: SPMV_NNZ, init: gen(e => (e * 131 + 7) % SPMV_ROWS) }, val: { type: 'f32', n: SPMV_NNZ, init: rand(0, 1, 34) },
      vx: { type: 'f32', n: SPMV_ROWS, init: rand(0, 1, 35) }, vy: { type: 'f32', n: SPMV_ROWS },
      sx: { type: 'f32', n: 3 * 300, init: rand(-5, 5, 36) }, sy: { type: 'f32', n: 3 * 300 },
      dist: { type: 'i32', n: FLOYD_N * FLOYD_N, init: gen(e => { const i = Math.floor(e / FLOYD_N), j = e % FLOYD_N; const h = (e * 2654435761) >>> 0; return i === j ? 0 : h % 5 === 0 ? 1 + (h % 100) : 1 << 29; }) },
      hash: { type: 'u32', n: 500 },
      px: { type: 'f32', n: 300, init: rand(-1, 1, 37) }, py: { type: 'f32', n: 300 },
      mset: { type: 'i32', n: 32 * 16 },
      S: { type: 'f32', n: 200, init: rand(5, 30, 38) }, X: { type: 'f32', n: 200, init: rand(1, 100, 39) }, T: { type: 'f32', n: 200, init: rand(0.25, 10, 40) },
      call: { type: 'f32', n: 200 }, put: { type: 'f32', n: 200 },
    },
    symbols: { coef: { type: 'f32', n: 16, init: rand(-0.5, 0.5, 41) } },
    launches: [
      { kernel: 'scan4', grid: 3, block: 64, dynShared: 2 * 64 * 4, args: [buf('sin'), buf('sout')] },
      { kernel: 'reduce_tree', grid: 4, block: 128, dynShared: 128 * 4, args: [i32(3000), buf('u'), buf('usum')] },
      { kernel: 'hist64', grid: 3, block: 128, args: [i32(3000), buf('hf'), buf('bins')] },
      { kernel: 'spmv_warp', grid: 8, block: 256, args: [i32(SPMV_ROWS), buf('rowptr'), buf('col'), buf('val'), buf('vx'), buf('vy')] },
      { kernel: 'softmax', grid: 3, block: 96, args: [i32(300), buf('sx'), buf('sy')] },
      ...Array.from({ length: FLOYD_N }, (_, k) => ({ kernel: 'floyd_step', grid: [1, FLOYD_N, 1] as [number, number, number], block: 32, args: [i32(FLOYD_N), i32(k), buf('dist')] })),
      { kernel: 'hash_rounds', grid: 2, block: 128, args: [i32(500), i32(64), buf('hash')] },
      { kernel: 'horner', grid: 2, block: 64, args: [i32(300), i32(11), buf('px'), buf('py')] },
      { kernel: 'mandel', grid: [1, 2, 1], block: [32, 8, 1], args: [i32(32), i32(16), i32(100), f32(-2), f32(-1), f32(3 / 32), f32(2 / 16), buf('mset')] },
      { kernel: 'black_scholes', grid: 2, block: 64, args: [i32(200), f32(0.02), f32(0.3), buf('S'), buf('X'), buf('T'), buf('call'), buf('put')] },
    ],
  },
];
