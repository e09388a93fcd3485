// Differential specs for the extended-lambda programs (test/kernels/cxx2_xlambda_*.cu): each closure is passed
// as the bytes of its captures (cicc's kernel parameter layout; a __host__ __device__ closure with captures
// has 8 more bytes after them, which device code never reads).

import { type KernelSpec, buf, i32, gen, struct, values } from './spec';

const N64 = 64;
// cxx2_xlambda_hd: Range {float lo, hi; char tag} = {-4, 6, 2}
const RANGE: [number, 'f32' | 'i8', number][] = [[0, 'f32', -4.0], [4, 'f32', 6.0], [8, 'i8', 2]];
const capture = {
  d: { type: 'f32' as const, n: N64, init: gen(i => 0.25 * i - 5.0) },
  bias: { type: 'f32' as const, n: N64, init: gen(i => (i % 7) - 3.0) },
};

export const SPECS_XLAM: KernelSpec[] = [
  {
    name: 'cxx2_xlambda_capture',
    buffers: capture,
    launches: [
      { kernel: '_Z4mapfIZ4mainEUlfE_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(4, [[0, 'f32', 1.5]]) }, buf('d'), i32(N64)] },
      // [=] { bias[0] * s }: the pointer (a device address the harness fills in) then the scalar
      { kernel: '_Z4mapfIZ4mainEUlfE0_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(16, [[8, 'f32', 1.5]]), ptrs: [[0, 'bias']] }, buf('d'), i32(N64)] },
      { kernel: '_Z4mapfIZ4mainEUlfE1_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(8, [[0, 'f32', 0.5], [4, 'i32', 3]]) }, buf('d'), i32(N64)] },
      { kernel: '_Z4mapfIZ4mainEUlfE2_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: [0] }, buf('d'), i32(N64)] },
      { kernel: '_Z5mapAsIfZ4mainEUlfE3_EvT0_PT_i', grid: 2, block: 32, args: [{ bytes: struct(4, [[0, 'f32', 1.5]]) }, buf('d'), i32(N64)] },
    ],
  },
  {
    name: 'cxx2_xlambda_hd',
    buffers: { d: { type: 'f32', n: N64, init: gen(i => 0.5 * i - 9.0) } },
    launches: [
      { kernel: '_Z5applyIZ4mainEUlfE_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(16, [[0, 'f32', 0.75]]) }, buf('d'), i32(N64)] },
      { kernel: '_Z5applyIZ4mainEUlfE0_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(24, [...RANGE, [12, 'f32', 0.75]]) }, buf('d'), i32(N64)] },
      { kernel: '_Z5applyIZ4mainEUlfE1_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: [0] }, buf('d'), i32(N64)] },
      { kernel: '_Z5applyIZ4mainEUlfE2_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(16, [[0, 'f32', 0.75]]) }, buf('d'), i32(N64)] },
      { kernel: '_Z5applyIZ4mainEUlfE3_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(24, RANGE) }, buf('d'), i32(N64)] },
      // [tg, q4]: the char at 0, the float4 at 16, 8 bytes after them, rounded to 48 (align 16)
      { kernel: '_Z5applyIZ4mainEUlfE4_EvT_Pfi', grid: 2, block: 32, args: [{ bytes: struct(48, [[0, 'i8', 3], [16, 'f32', 0.5], [20, 'f32', 1], [24, 'f32', 1.5], [28, 'f32', 2]]) }, buf('d'), i32(N64)] },
    ],
  },
  {
    // stepA writes d and d + n, ops::stepB d + 2n and d + 3n: one buffer each here
    name: 'cxx2_xlambda_funcs',
    buffers: { o0: { type: 'i32', n: N64 }, o1: { type: 'i32', n: N64 }, o2: { type: 'i32', n: N64 }, o3: { type: 'i32', n: N64 },
      table: { type: 'i32', n: 8, init: values(5, -3, 8, 1, 0, 7, -9, 2) } },
    launches: [
      { kernel: '_Z4fillIZ5stepAPii4GridEUliE0_EvT_S0_i', grid: 1, block: 64, args: [{ bytes: struct(8, [[0, 'i32', 8], [4, 'i32', 5]]) }, buf('o0'), i32(N64)] },
      { kernel: '_Z4fillIZ5stepAPii4GridEUliE1_EvT_S0_i', grid: 1, block: 64, args: [{ bytes: struct(12, [[0, 'i32', N64], [4, 'i32', 8], [8, 'i32', 5]]) }, buf('o1'), i32(N64)] },
      { kernel: '_Z4fillIZN3ops5stepBEPiiPKiEUliE_EvT_S1_i', grid: 1, block: 64, args: [{ bytes: struct(16, [[0, 'i32', 3]]), ptrs: [[8, 'table']] }, buf('o2'), i32(N64)] },
      { kernel: '_Z4fillIZN3ops5stepBEPiiPKiEUliE0_EvT_S1_i', grid: 1, block: 64, args: [{ bytes: struct(4, [[0, 'i32', 3]]) }, buf('o3'), i32(N64)] },
    ],
  },
  {
    name: 'cxx2_xlambda_devfn',
    buffers: { din: { type: 'f32', n: N64, init: gen(i => 0.125 * i - 2.0) }, lin: { type: 'f32', n: N64 }, sq: { type: 'f32', n: N64 }, comp: { type: 'f32', n: N64 } },
    launches: [
      { kernel: '_Z10reduceWithIZ4mainEUlfE_EvT_PKfPfi', grid: 2, block: 32, args: [{ bytes: struct(8, [[0, 'f32', 1.25], [4, 'f32', -0.5]]) }, buf('din'), buf('lin'), i32(N64)] },
      { kernel: '_Z10reduceWithIZ4mainEUlfE0_EvT_PKfPfi', grid: 2, block: 32, args: [{ bytes: struct(16, [[0, 'f32', -0.5]]) }, buf('din'), buf('sq'), i32(N64)] },
      { kernel: '_Z7composeIZ4mainEUlfE_Z4mainEUlfE0_EvT_T0_PKfPfi', grid: 2, block: 32,
        args: [{ bytes: struct(8, [[0, 'f32', 1.25], [4, 'f32', -0.5]]) }, { bytes: struct(16, [[0, 'f32', -0.5]]) }, buf('din'), buf('comp'), i32(N64)] },
    ],
  },
  {
    name: 'cxx2_xlambda_types',
    buffers: {
      df: { type: 'f32', n: N64, init: gen(i => 0.75 * i - 20.0) }, di: { type: 'i32', n: N64, init: gen(i => 7 * i - 200) },
      du: { type: 'u32', n: N64, init: gen(i => 37 * i * i) },
      dq: { type: 'i32', n: N64 }, dd: { type: 'f64', n: N64 }, db: { type: 'u8', n: N64 }, dp: { type: 'i32', n: 2 * N64 },   // Pair {int q; float r}
    },
    launches: [
      { kernel: '_Z9transformIZ4mainEUlfE_fiEvT_PKT0_PT1_i', grid: 2, block: 32, args: [{ bytes: struct(4, [[0, 'i32', 3]]) }, buf('df'), buf('dq'), i32(N64)] },
      // [=] { v * half + step }: half, then step
      { kernel: '_Z9transformIZ4mainEUliE_idEvT_PKT0_PT1_i', grid: 2, block: 32, args: [{ bytes: struct(16, [[0, 'f64', 0.5], [8, 'i32', 3]]) }, buf('di'), buf('dd'), i32(N64)] },
      { kernel: '_Z9transformIZ4mainEUljE_jbEvT_PKT0_PT1_i', grid: 2, block: 32, args: [{ bytes: struct(4, [[0, 'u32', 0x40]]) }, buf('du'), buf('db'), i32(N64)] },
      { kernel: '_Z9transformIZ4mainEUliE0_i4PairEvT_PKT0_PT1_i', grid: 2, block: 32, args: [{ bytes: struct(16, [[0, 'i16', 6]]) }, buf('di'), buf('dp'), i32(N64)] },
    ],
  },
  {
    name: 'cxx2_xlambda_members',
    buffers: { d: { type: 'f32', n: N64, init: gen(i => 0.5 * i - 7.0) } },
    launches: [
      { kernel: '_Z4eachIZN6Scaler5applyEPfiEUlfiE_EvT_S1_i', grid: 2, block: 32, args: [{ bytes: struct(4, [[0, 'f32', 1.5]]) }, buf('d'), i32(N64)] },
      { kernel: '_Z4eachIZN6Scaler4bumpEPfiEUlfiE_EvT_S1_i', grid: 2, block: 32, args: [{ bytes: struct(16, [[0, 'f32', 1.5]]) }, buf('d'), i32(N64)] },
      { kernel: '_Z4eachIZN3sol6Solver4stepEPfiiEUlfiE_EvT_S2_i', grid: 2, block: 32, args: [{ bytes: struct(8, [[0, 'f32', 0.5], [4, 'i32', 3]]) }, buf('d'), i32(N64)] },
      { kernel: '_Z4eachIZN3sol6Solver4stepEPfiiEUlfiE0_EvT_S2_i', grid: 2, block: 32, args: [{ bytes: struct(16, [[0, 'f32', 0.5]]) }, buf('d'), i32(N64)] },
    ],
  },
];
