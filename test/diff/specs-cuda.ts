// Differential specs for the CUDA-header programs (test/kernels/cuda_*.cu): <cmath> names, fp16/bf16
// (the emulator's 16-bit float instructions are in test/emulator/half.ts), __managed__ variables. Inputs
// follow each program's host main(). Cooperative groups are in specs-coop.ts, texture/surface objects in
// specs-tex.ts.

import { type KernelSpec, buf, i32, f32, gen, zero, struct, bytesInit } from './spec';
import { encodeHalf, F16, BF16 } from '../emulator/half';

const SPECIAL_F = [NaN, Infinity, -Infinity, -0, 0];
const SPECIAL_D = [-NaN, -Infinity, Infinity, 0, -0];

/** Inputs k/16 for k in [-128, 128] (exact in half precision), as the fp16/bf16 programs make them. */
const SIXTEENTHS = (i: number): number => (((i * 37) % 257) - 128) / 16;
const EIGHTHS = (i: number): number => (((i * 37) % 257) - 128) / 8;

export const CUDA_SPECS: KernelSpec[] = [
  {
    name: 'cuda_std_math_float',
    buffers: { din: { type: 'f32', n: 128, init: gen(i => (((i * 37) % 101) - 50) * Math.fround(0.0731)) }, dout: { type: 'f32', n: 128 * 16 } },
    launches: [{ kernel: 'std_math_float', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_std_math_double',
    buffers: { din: { type: 'f64', n: 128, init: gen(i => (((i * 37) % 101) - 50) * 0.0731) }, dout: { type: 'f64', n: 128 * 16 } },
    launches: [{ kernel: 'std_math_double', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_std_classify',
    buffers: {
      df: { type: 'f32', n: 64, init: gen(i => (i % 8 < 5 ? SPECIAL_F[i % 8]! : (i - 30) * Math.fround(0.37))) },
      dd: { type: 'f64', n: 64, init: gen(i => (i % 7 < 5 ? SPECIAL_D[i % 7]! : (20 - i) * 1.5e10)) },
      dout: { type: 'i32', n: 64 },
    },
    launches: [{ kernel: 'classify', grid: 1, block: 64, args: [buf('df'), buf('dd'), buf('dout')] }],
  },
  {
    name: 'cuda_std_abs',
    buffers: {
      di: { type: 'i32', n: 96, init: gen(i => ((i * 7919) % 20001) - 10000) },
      dl: { type: 'i64', n: 96, init: gen(i => (i % 2 ? -1n : 1n) * (BigInt(i) * 123456789123n + 17n)) },
      df: { type: 'f32', n: 96, init: gen(i => (i - 48) * 0.625) },
      dd: { type: 'f64', n: 96, init: gen(i => (47 - i) * 1.0e-3) },
      dout: { type: 'i64', n: 96 * 4 }, dfo: { type: 'f32', n: 96 }, ddo: { type: 'f64', n: 96 },
    },
    launches: [{ kernel: 'std_abs', grid: 1, block: 128, args: [buf('di'), buf('dl'), buf('df'), buf('dd'), buf('dout'), buf('dfo'), buf('ddo')] }],
  },
  {
    name: 'cuda_long_double_decl',
    buffers: {
      df: { type: 'f32', n: 100, init: gen(i => i * 0.25 - 7) }, dd: { type: 'f64', n: 100, init: gen(i => 3.5 - i * 0.125) }, dout: { type: 'f64', n: 100 },
    },
    launches: [{ kernel: 'ld_decl', grid: 2, block: 64, args: [buf('df'), buf('dd'), buf('dout'), i32(100)] }],
  },
  {
    name: 'cuda_fp16_arith',
    buffers: { din: { type: 'f32', n: 128, init: gen(SIXTEENTHS) }, dout: { type: 'f32', n: 128 * 10 }, draw: { type: 'u16', n: 128 * 10 } },
    launches: [{ kernel: 'fp16_arith', grid: 2, block: 64, args: [buf('din'), buf('dout'), buf('draw')] }],
  },
  {
    name: 'cuda_fp16_operators',
    buffers: { din: { type: 'f32', n: 128, init: gen(SIXTEENTHS) }, dout: { type: 'f32', n: 128 * 8 } },
    launches: [{ kernel: 'fp16_operators', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_fp16_compare',
    buffers: {
      dx: { type: 'f32', n: 64, init: gen(i => (i < 8 ? [NaN, Infinity, -Infinity, 0, -0, 1.5, -2.25, 65504][i]! : ((((i * 13) % 9) - 4) * 0.5))) },
      dy: { type: 'f32', n: 64, init: gen(i => (i < 8 ? [1, Infinity, 3, -0, 0, NaN, -2.25, 70000][i]! : ((((i * 7) % 9) - 4) * 0.5))) },
      dout: { type: 'i32', n: 64 },
    },
    launches: [{ kernel: 'fp16_compare', grid: 1, block: 64, args: [buf('dx'), buf('dy'), buf('dout')] }],
  },
  {
    name: 'cuda_fp16_convert',
    buffers: {
      df: { type: 'f32', n: 96, init: gen(i => Math.fround((i % 3 === 0 ? -1 : 1) * Math.fround(1 + Math.fround(i * 0.0009765625 * Math.fround(0.37))) * (1 << (i % 18)) * 0.125)) },
      di: { type: 'i32', n: 96, init: gen(i => Number(BigInt.asIntN(32, BigInt.asUintN(32, BigInt(i) * 2654435761n) >> BigInt(i % 16)))) },
      dout: { type: 'i32', n: 96 * 12 },
    },
    launches: [{ kernel: 'fp16_convert', grid: 1, block: 128, args: [buf('df'), buf('di'), buf('dout')] }],
  },
  {
    name: 'cuda_half2_arith',
    buffers: { din: { type: 'f32', n: 128, init: gen(SIXTEENTHS) }, dout: { type: 'f32', n: 128 * 9 * 2 } },
    launches: [{ kernel: 'half2_arith', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_bf16_arith',
    buffers: { din: { type: 'f32', n: 128, init: gen(EIGHTHS) }, dout: { type: 'f32', n: 128 * 12 } },
    launches: [{ kernel: 'bf16_arith', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_bf162_arith',
    buffers: { din: { type: 'f32', n: 128, init: gen(EIGHTHS) }, dout: { type: 'f32', n: 128 * 6 * 2 } },
    launches: [{ kernel: 'bf162_arith', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_fp16_math',
    buffers: { din: { type: 'f32', n: 128, init: gen(i => (((i * 37) % 257) - 128) / 32) }, dout: { type: 'f32', n: 128 * 15 } },
    launches: [{ kernel: 'fp16_math', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_fp16_dot',
    buffers: {
      dx: { type: 'u16', n: 2048, init: gen(i => encodeHalf((((i * 7) % 9) - 4) / 8, F16)) },
      dy: { type: 'u16', n: 2048, init: gen(i => encodeHalf((((i * 5) % 7) - 3) / 8, F16)) },
      ds: { type: 'f32', n: 4 },
    },
    launches: [{ kernel: 'fp16_dot', grid: 4, block: 256, args: [buf('dx'), buf('dy'), buf('ds'), i32(1024)] }],
  },
  {
    name: 'cuda_managed',
    buffers: { din: { type: 'i32', n: 500, init: gen(i => (i * 7919) % 1000) }, dout: { type: 'f32', n: 500 } },
    symbols: { launches: { type: 'i32', n: 1 }, scale: { type: 'f32', n: 1 }, hist: { type: 'u32', n: 16 }, total: { type: 'i64', n: 1 } },
    launches: [
      { kernel: 'managed_count', grid: 4, block: 128, args: [buf('din'), buf('dout'), i32(500)] },
      { kernel: 'managed_count', grid: 4, block: 128, args: [buf('din'), buf('dout'), i32(500)] },
    ],
  },
  {
    name: 'cuda_std_math_generic',
    buffers: {
      df: { type: 'f32', n: 200, init: gen(i => Math.fround((i - 100) * Math.fround(0.037))) }, dd: { type: 'f64', n: 200, init: gen(i => (i - 100) * 0.037) },
      dof: { type: 'f32', n: 600 }, dod: { type: 'f64', n: 600 },
    },
    launches: [{ kernel: 'std_generic', grid: 4, block: 64, args: [buf('df'), buf('dd'), buf('dof'), buf('dod'), i32(200)] }],
  },
  {
    name: 'cuda_std_rounding',
    buffers: {
      df: { type: 'f32', n: 128, init: gen(i => (i - 64) * 0.25 + (i % 3 === 0 ? 0.125 : 0)) }, dd: { type: 'f64', n: 128, init: gen(i => (i - 64) * 0.25 + (i % 3 === 0 ? 0.125 : 0)) },
      dof: { type: 'f32', n: 128 * 6 }, dod: { type: 'f64', n: 128 * 4 }, doi: { type: 'i64', n: 128 * 4 },
    },
    launches: [{ kernel: 'std_rounding', grid: 1, block: 128, args: [buf('df'), buf('dd'), buf('dof'), buf('dod'), buf('doi')] }],
  },
  {
    name: 'cuda_std_decompose',
    buffers: {
      df: { type: 'f32', n: 96, init: gen(i => Math.fround(Math.fround((i - 48) * Math.fround(0.3712)) + Math.fround(0.05))) },
      dd: { type: 'f64', n: 96, init: gen(i => (47 - i) * 1.23456 + 0.01) },
      dof: { type: 'f32', n: 96 * 4 }, dod: { type: 'f64', n: 96 * 3 }, doi: { type: 'i32', n: 96 * 5 },
    },
    launches: [{ kernel: 'std_decompose', grid: 1, block: 128, args: [buf('df'), buf('dd'), buf('dof'), buf('dod'), buf('doi')] }],
  },
  {
    name: 'cuda_std_special',
    buffers: { din: { type: 'f64', n: 128, init: gen(i => Math.fround((i - 64) * 0.0517)) }, df: { type: 'f32', n: 128 * 12 }, dd: { type: 'f64', n: 128 * 12 } },
    launches: [{ kernel: 'std_special', grid: 2, block: 64, args: [buf('din'), buf('df'), buf('dd')] }],
  },
  {
    name: 'cuda_cccl_cmath',
    buffers: {
      df: { type: 'f32', n: 128, init: gen(i => Math.fround((i - 64) * Math.fround(0.061))) }, dd: { type: 'f64', n: 128, init: gen(i => (i - 64) * 0.061) },
      dof: { type: 'f32', n: 128 * 4 }, dod: { type: 'f64', n: 128 * 4 },
    },
    launches: [{ kernel: 'cccl_cmath', grid: 2, block: 64, args: [buf('df'), buf('dd'), buf('dof'), buf('dod')] }],
  },
  {
    name: 'cuda_bf16_convert',
    buffers: {
      df: {
        type: 'f32', n: 96, init: gen(i => (i === 5 ? NaN : i === 6 ? Infinity : i === 7 ? 0
          : Math.fround(Math.fround((i % 3 === 0 ? -1 : 1) * Math.fround(1 + Math.fround(i * 0.00390625 * Math.fround(0.37)))) * (1 << (i % 20))) * 0.0625)),
      },
      dout: { type: 'i32', n: 96 * 9 },
    },
    launches: [{ kernel: 'bf16_convert', grid: 1, block: 128, args: [buf('df'), buf('dout')] }],
  },
  {
    name: 'cuda_fp16_stencil',
    buffers: { din: { type: 'u16', n: 1000, init: gen(i => encodeHalf(((i * 13) % 64) / 16, F16)) }, dout: { type: 'f32', n: 1000 } },
    launches: [{ kernel: 'fp16_stencil', grid: 16, block: 64, args: [buf('din'), buf('dout'), i32(1000)] }],
  },
  {
    name: 'cuda_fp16_warp',
    buffers: { din: { type: 'f32', n: 256, init: gen(i => (((i * 37) % 101) - 50) / 8) }, dout: { type: 'f32', n: 256 * 4 } },
    launches: [{ kernel: 'fp16_warp', grid: 4, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_half2_compare',
    buffers: {
      dx: { type: 'f32', n: 64, init: gen(i => (i < 4 ? [NaN, 1, -0, 2.5][i]! : ((((i * 5) % 7) - 3) * 0.5))) },
      dy: { type: 'f32', n: 64, init: gen(i => (i < 4 ? [1, NaN, 0, 2.5][i]! : ((((i * 3) % 7) - 3) * 0.5))) },
      dout: { type: 'f32', n: 64 * 8 }, dfl: { type: 'i32', n: 64 },
    },
    launches: [{ kernel: 'half2_compare', grid: 1, block: 64, args: [buf('dx'), buf('dy'), buf('dout'), buf('dfl')] }],
  },
  {
    name: 'cuda_managed_struct',
    buffers: {},
    symbols: {
      // Particle {float x, y, vx, vy; int hits} = 20 bytes; the host's initial values
      particles: {
        type: 'u8', n: 200 * 20, init: bytesInit(Array.from({ length: 200 }, (_, i) => struct(20, [[0, 'f32', (i % 20) - 9.5], [4, 'f32', Math.floor(i / 20) - 4.5],
          [8, 'f32', (((i * 7) % 11) - 5) * 0.75], [12, 'f32', (((i * 3) % 13) - 6) * 0.5], [16, 'i32', 0]])).flat()),
      },
      params: { type: 'u8', n: 16 }, bounces: { type: 'u32', n: 1, init: zero },
    },
    launches: [0, 1, 2].map(() => ({ kernel: 'managed_step', grid: 4, block: 64, args: [i32(200)] })),
  },
  {
    name: 'cuda_bf16_dot',
    buffers: {
      dx: { type: 'u16', n: 3000, init: gen(i => encodeHalf((((i * 7) % 17) - 8) / 8, BF16)) },
      dy: { type: 'u16', n: 3000, init: gen(i => encodeHalf((((i * 11) % 13) - 6) / 8, BF16)) },
      ds: { type: 'f32', n: 1, init: zero },
    },
    launches: [{ kernel: 'bf16_dot', grid: 3, block: 128, args: [buf('dx'), buf('dy'), buf('ds'), i32(3000)] }],
  },
  {
    name: 'cuda_half2_axpy',
    buffers: {
      dx: { type: 'u16', n: 1002, init: gen(i => (i < 1001 ? encodeHalf(((i * 5) % 32) / 8, F16) : 0)) },
      dy: { type: 'u16', n: 1002, init: gen(i => (i < 1001 ? encodeHalf(((i * 3) % 16) / 4, F16) : 0)) },
      dout: { type: 'f32', n: 1002 },
    },
    launches: [
      { kernel: 'half2_axpy', grid: 2, block: 128, args: [f32(0.5), buf('dx'), buf('dy'), i32(1001)] },
      { kernel: 'widen', grid: 2, block: 256, args: [buf('dy'), buf('dout'), i32(501)] },
    ],
  },
  {
    name: 'cuda_std_trig',
    buffers: { din: { type: 'f64', n: 128, init: gen(i => Math.fround((i - 64) * 0.117)) }, df: { type: 'f32', n: 128 * 9 }, dd: { type: 'f64', n: 128 * 9 } },
    launches: [{ kernel: 'std_trig', grid: 2, block: 64, args: [buf('din'), buf('df'), buf('dd')] }],
  },
  {
    name: 'cuda_half_bf16_mix',
    buffers: {
      din: { type: 'f32', n: 256, init: gen(j => { const i = j >> 1; return j % 2 === 0 ? Math.fround(Math.fround((i - 64) * Math.fround(0.3)) + Math.fround(0.01)) : Math.fround(Math.fround(((i * 7) % 50) * Math.fround(1.37)) - 20); }) },
      dout: { type: 'f32', n: 128 * 8 },
    },
    launches: [{ kernel: 'half_bf16_mix', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_std_pow',
    buffers: {
      df: { type: 'f32', n: 96, init: gen(i => 0.25 + i * 0.0625) }, dd: { type: 'f64', n: 96, init: gen(i => 0.5 + i * 0.03125) },
      dof: { type: 'f32', n: 96 * 2 }, dod: { type: 'f64', n: 96 * 3 },
    },
    launches: [{ kernel: 'std_pow', grid: 1, block: 128, args: [buf('df'), buf('dd'), buf('dof'), buf('dod')] }],
  },
  {
    name: 'cuda_fp16_atomic',
    buffers: {
      din: { type: 'f32', n: 128, init: gen(i => (((i * 5) % 9) - 4) / 8) },
      d2: { type: 'u32', n: 1, init: zero }, d1: { type: 'u16', n: 4, init: zero }, db: { type: 'u16', n: 1, init: zero },
    },
    launches: [{ kernel: 'fp16_atomic', grid: 2, block: 64, args: [buf('din'), buf('d2'), buf('d1'), buf('db')] }],
  },
  {
    name: 'cuda_asm_constraints',
    buffers: {
      dh: { type: 'u16', n: 64, init: gen(i => (65530 + i) & 0xffff) }, dl: { type: 'u64', n: 64, init: gen(i => 0xfffffffffn + BigInt(i) * 1000003n) },
      dd: { type: 'f64', n: 64, init: gen(i => i * 0.5 - 7) }, df: { type: 'f32', n: 64, init: gen(i => i * 1.25) }, di: { type: 'i32', n: 64, init: gen(i => i * i - 100) },
    },
    launches: [{ kernel: 'asm_constraints', grid: 1, block: 64, args: [buf('dh'), buf('dl'), buf('dd'), buf('df'), buf('di')] }],
  },
];
