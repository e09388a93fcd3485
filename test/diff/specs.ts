// One differential spec per program in test/kernels/ (see spec.ts). Launch shapes follow each program's
// host main(), often with fewer elements/blocks so the emulator stays fast; inputs use fixed seeds or the
// program's own formulas. Float buffers compare bitwise unless a ULP bound is given with its reason.

import {
  type KernelSpec, buf, i32, u32, f32, i8, u8, i16, u16, i64, u64, f64,
  zero, iota, rand, bits, values, fill, gen, struct, bytesInit,
} from './spec';
import { CUDA_SPECS } from './specs-cuda';
import { SPECS_CXX2 } from './specs-cxx2';
import { TEX_SPECS } from './specs-tex';
import { SPECS_VIRT } from './specs-virt';
import { SPECS_XLAM } from './specs-xlam';
import { SPECS_COOP } from './specs-coop';
import { SPECS_TMPL } from './specs-tmpl';
import { SPECS_CXXB } from './specs-cxxb';
import { SPECS_LIBS } from './specs-libs';
import { SPECS_HOSTINST } from './specs-hostinst';
import { SPECS_PERF } from './specs-perf';

/** n values of the programs' xorshift64 sequence (precomputed: an init must give the same data every call). */
const xorshift64 = (seed: bigint, n: number): bigint[] => {
  let s = seed;
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) { s ^= (s << 13n) & 0xffffffffffffffffn; s ^= s >> 7n; s ^= (s << 17n) & 0xffffffffffffffffn; out.push(s); }
  return out;
};

// kernel_params: Small {char c; short s;}, Big {int v[20]; double d;}
const SMALL = struct(4, [[0, 'i8', 'z'.charCodeAt(0)], [2, 'i16', -1234]]);
const BIG = struct(88, [...Array.from({ length: 20 }, (_, j) => [j * 4, 'i32', 100 - j] as [number, 'i32', number]), [80, 'f64', 12.5]]);

// struct_byvalue: Params {Mode mode; u32 seed; short bias; Coeffs c@16 {int a[4]; double scale@16; char op@24}; long long offset@48}
const PARAMS = struct(56, [[0, 'i32', 7], [4, 'u32', 0xdeadbeef], [8, 'i16', -300], [16, 'i32', 3], [20, 'i32', -2], [24, 'i32', 7], [28, 'i32', 11],
  [32, 'f64', 0.5], [40, 'i8', 'x'.charCodeAt(0)], [48, 'i64', 1n << 40n]]);
const COEFFS = struct(32, [[0, 'i32', 1], [4, 'i32', 0], [8, 'i32', -1], [12, 'i32', 5], [16, 'f64', 2.0], [24, 'i8', 3]]);

// structs_nested: Particle {Box bounds {Vec3 lo, hi; short tag@24; char name[6]@26}; Vec3 vel[2]@32; long long id@56} = 64 bytes
const PARTICLES = (() => {
  const out: number[] = [];
  for (let i = 0; i < 100; i++) {
    out.push(...struct(64, [[0, 'i32', i], [4, 'i32', -i], [8, 'i32', 2 * i], [12, 'i32', i + 3], [16, 'i32', 4 - i], [20, 'i32', 2 * i + 5],
      [24, 'i16', 0], ...Array.from({ length: 6 }, (_, k) => [26 + k, 'i8', 97 + k] as [number, 'i8', number]),
      [32, 'i32', 1], [36, 'i32', 2], [40, 'i32', -1], [44, 'i32', i % 3], [48, 'i32', -(i % 4)], [52, 'i32', i % 5], [56, 'i64', 1000 + i]]));
  }
  return out;
})();

// unions_punning: Tagged {int kind; union {int i; float f; double d;} val@8} = 16 bytes
const TAGGED = (() => {
  const out: number[] = [];
  for (let i = 0; i < 48; i++) {
    const k = i % 3;
    out.push(...struct(16, [[0, 'i32', k], k === 0 ? [8, 'i32', -i * 1000] : k === 1 ? [8, 'f32', i * 0.5] : [8, 'f64', i * -3.5]]));
  }
  return out;
})();

// math_double/math_float/math_fast: main()'s inputs x, y, p, u (and q: NaN, ±inf, 0 or x), N = 256 of each.
const SPECIALS = [NaN, Infinity, -Infinity, 0];
function mathDoubleInput(j: number): number {
  const i = j % 256;
  const x = (((i * 37) % 200) - 100) * 0.0731;
  switch (Math.floor(j / 256)) {
    case 0: return x;
    case 1: return (((i * 53) % 150) - 75) * 0.0417 + 0.013;
    case 2: return (((i * 29) % 250) + 1) * 0.0357;
    case 3: return (((i * 41) % 200) - 100) * 0.00999;
    default: return i % 8 < 4 ? SPECIALS[i % 4]! : x;
  }
}
/** The float inputs, rounded like main()'s float arithmetic (math_fast scales x by 0.0311 and has no q). */
function mathFloatInput(j: number, xScale = 0.0731): number {
  const fr = Math.fround;
  const i = j % 256;
  const x = fr((((i * 37) % 200) - 100) * fr(xScale));
  switch (Math.floor(j / 256)) {
    case 0: return x;
    case 1: return fr(fr((((i * 53) % 150) - 75) * fr(0.0417)) + fr(0.013));
    case 2: return fr((((i * 29) % 250) + 1) * fr(0.0357));
    case 3: return fr((((i * 41) % 200) - 100) * fr(0.00999));
    default: return i % 8 < 4 ? SPECIALS[i % 4]! : x;
  }
}

// math_flags: float kernels k_<name> and their input buffers (a = 0.75, b = 1.5, c = 0.25), as main() launches them.
const MATH_FLAGS_F: [string, string[]][] = [
  ['div', ['a', 'b']], ['rcp', ['b']], ['sqrt', ['b']], ['fma', ['a', 'b', 'c']], ['exp', ['a']], ['sin', ['a']], ['log', ['b']],
  ['fdividef', ['a', 'b']], ['exp2', ['a']], ['exp10', ['a']], ['log2', ['b']], ['log10', ['b']], ['pow', ['a', 'b']], ['cos', ['a']],
  ['tan', ['a']], ['sincos', ['a']], ['tanh', ['a']], ['rsqrt', ['b']], ['expm1', ['a']], ['log1p', ['b']],
];

/** Bits of a small integer (or half-integer) as an IEEE half / a bfloat16 (exact for the values used). */
function f16bits(x: number): number {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0, a = Math.abs(x), e = Math.floor(Math.log2(a));
  return sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}
function bf16bits(x: number): number {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, x);
  return dv.getUint32(0) >>> 16;
}

export const SPECS: KernelSpec[] = [
  {
    name: 'assert_fail', expectTrap: true,
    buffers: { din: { type: 'i32', n: 32, init: iota() }, dout: { type: 'i32', n: 32 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'assert_pass',
    buffers: { din: { type: 'i32', n: 200, init: gen(i => (i % 37) + 1) }, dout: { type: 'i32', n: 200 } },
    launches: [{ kernel: 'kernel', grid: 4, block: 64, args: [buf('din'), buf('dout'), i32(200)] }],
  },
  {
    name: 'atomics_float',
    buffers: { df: { type: 'f32', n: 4 }, dd: { type: 'f64', n: 3, init: values(0.5, 0, 0) } },
    launches: [{ kernel: 'kernel', grid: 8, block: 256, args: [buf('df'), buf('dd'), i32(2000)] }],
  },
  {
    name: 'atomics_int',
    buffers: {
      // [2] is the last atomicExch and [5] the CAS winner: which thread that is depends on the order
      dg: { type: 'i32', n: 14, init: values(10, 0, 0, 0x7fffffff, -0x80000000, 0, 0, -1, 0, 0, 0, 0, 0, 0), racy: [2, 5] },
      // the old values of atomicExch: a permutation but for the last exchanger's value (the program checks that)
      dolds: { type: 'i32', n: 1500, compare: false },
    },
    launches: [{ kernel: 'kernel', grid: 6, block: 256, args: [buf('dg'), buf('dolds'), i32(1500)] }],
  },
  {
    name: 'atomics_scoped',
    buffers: {
      di: { type: 'i32', n: 5 }, du: { type: 'u32', n: 7, init: values(0, 0, 0xffffffff, 0, 0, 0, 0) },
      dq: { type: 'u64', n: 2 }, df: { type: 'f32', n: 1 }, dd: { type: 'f64', n: 1 },
    },
    launches: [{ kernel: 'kernel', grid: 8, block: 100, args: [buf('di'), buf('du'), buf('dq'), buf('df'), buf('dd')] }],
  },
  {
    name: 'atomics_unsigned',
    buffers: {
      du: { type: 'u32', n: 11, init: values(0, 0, 0, 0xffffffff, 0, 0, 3, 0, 0xffffffff, 0, 0) },
      dq: { type: 'u64', n: 9, init: values(0n, 0n, 0xffffffffffffffffn, 0n, 1n, 0xffffffffffffffffn, 0n, 0n, 0n) },
    },
    launches: [{ kernel: 'kernel', grid: 12, block: 128, args: [buf('du'), buf('dq'), i32(1500)] }],
  },
  {
    name: 'bitonic_sort',
    buffers: { dk: { type: 'i32', n: 2048, init: rand(-50000, 49999, 99) }, dv: { type: 'i32', n: 2048, init: rand(-1000, 1000, 98) } },
    launches: [{ kernel: 'bitonic', grid: 2, block: 256, args: [buf('dk'), buf('dv')] }],
  },
  {
    name: 'bits_byteperm_mul',
    buffers: {
      din: { type: 'u64', n: 512, init: (() => { const r = xorshift64(88172645463325252n, 512); return gen(i => (i % 17 === 0 ? BigInt.asUintN(64, -(r[i]! >> 3n)) : r[i]!)); })() },
      dout: { type: 'u64', n: 256 * 8 },
    },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('din'), buf('dout'), i32(256)] }],
  },
  {
    name: 'bits_popc_clz',
    buffers: {
      din: { type: 'u64', n: 200, init: (() => { const r = xorshift64(0x9E3779B97F4A7C15n, 200); return gen(i => { const s = r[i]!; return i < 64 ? 1n << BigInt(i) : i === 64 ? 0n : i === 65 ? (1n << 64n) - 1n : i % 5 === 0 ? s >> BigInt(i % 60) : s; }); })() },
      dout: { type: 'u64', n: 200 * 8 },
    },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('din'), buf('dout'), i32(200)] }],
  },
  {
    name: 'bits_sad_funnel',
    buffers: {
      din: { type: 'i32', n: 900, init: (() => { const edge = [-0x80000000, 0x7fffffff, 0, -1, 1, -0x7fffffff]; return gen(i => (i % 7 === 0 ? edge[Math.floor(i / 7) % 6]! : (Math.imul(i + 1, 2654435761) ^ (i << 7)) | 0)); })() },
      dout: { type: 'u32', n: 3000 },
    },
    launches: [{ kernel: 'kernel', grid: 3, block: 128, args: [buf('din'), buf('dout'), i32(300)] }],
  },
  {
    name: 'clock',
    buffers: { dok: { type: 'i32', n: 256 }, dw: { type: 'u32', n: 256 } },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('dok'), buf('dw'), i32(50)] }],
  },
  {
    name: 'const_volatile',
    buffers: { din: { type: 'i32', n: 64, init: gen(i => i * i - 30) }, dc: { type: 'i32', n: 1 }, dout: { type: 'i32', n: 64 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 64, args: [buf('din'), buf('dc'), buf('dout'), i32(64)] }],
  },
  {
    name: 'constant_vars',
    buffers: { d: { type: 'i64', n: 64 } },
    symbols: { c_runtime: { type: 'i32', n: 4, init: values(9, -9, 99, -99) } },
    launches: [{ kernel: 'kernel', grid: 1, block: 64, args: [buf('d'), i32(64)] }],
  },
  {
    name: 'control_flow',
    buffers: { d: { type: 'i32', n: 333 * 3 } },
    launches: [{ kernel: 'kernel', grid: 11, block: 32, args: [buf('d'), i32(333)] }],
  },
  {
    name: 'conversions',
    buffers: { d: { type: 'i64', n: 200 * 20 } },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('d'), i32(200)] }],
  },
  {
    name: 'cxx_classes',
    buffers: { fout: { type: 'f32', n: 32 * 6 }, iout: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: 'classes', grid: 1, block: 32, args: [buf('fout'), buf('iout')] }],
  },
  {
    name: 'cxx_constexpr',
    buffers: { iout: { type: 'i32', n: 32 * 6 }, fout: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'consteval_kernel', grid: 1, block: 32, args: [buf('iout'), buf('fout')] }],
  },
  {
    name: 'cxx_generic',
    buffers: { df: { type: 'f32', n: 32 * 2 }, dd: { type: 'f64', n: 32 * 2 }, di: { type: 'i32', n: 32 * 4 }, di2: { type: 'i32', n: 32 * 4 } },
    launches: [
      { kernel: '_Z7genericIfEvPT_Pi', grid: 1, block: 32, args: [buf('df'), buf('di')] },
      { kernel: '_Z7genericIdEvPT_Pi', grid: 1, block: 32, args: [buf('dd'), buf('di2')] },
    ],
  },
  {
    name: 'cxx_inherit',
    buffers: { d: { type: 'i32', n: 32 * 8 } },
    launches: [{ kernel: 'inherit', grid: 1, block: 32, args: [buf('d')] }],
  },
  {
    name: 'cxx_lambdas',
    buffers: { d: { type: 'i32', n: 32 * 6 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'lambdas', grid: 1, block: 32, args: [buf('d'), buf('df')] }],
  },
  {
    name: 'cxx_namespaces',
    buffers: { df: { type: 'f32', n: 32 * 4 }, di: { type: 'i32', n: 32 * 2 } },
    // an anonymous-namespace variable: found by its unmangled name (the mangled prefix depends on the source path)
    symbols: { anonCounter: { type: 'i32', n: 1 } },
    launches: [{ kernel: 'namespaces', grid: 1, block: 32, args: [buf('df'), buf('di')] }],
  },
  {
    name: 'cxx_operators',
    buffers: { di: { type: 'i32', n: 32 * 6 }, df: { type: 'f32', n: 32 }, dm: { type: 'f32', n: 32 * 4 } },
    launches: [{ kernel: 'operators', grid: 1, block: 32, args: [buf('di'), buf('df'), buf('dm')] }],
  },
  {
    name: 'cxx_refs',
    buffers: { d: { type: 'i32', n: 32 * 8 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'refs', grid: 1, block: 32, args: [buf('d'), buf('df')] }],
  },
  {
    name: 'cxx_template_kernels',
    buffers: {
      df: { type: 'f32', n: 32, init: gen(i => 0.5 * i) }, di: { type: 'i32', n: 32, init: iota() }, dd: { type: 'f64', n: 32, init: iota() },
      acc: { type: 'u32', n: 2 }, // Acc<float> {float sum; int n;}
      dfill: { type: 'i32', n: 32 },
    },
    launches: [
      { kernel: '_Z10accumulateIfLi32EEvPKT_P3AccIS0_E', grid: 1, block: 32, args: [buf('df'), buf('acc')] },
      { kernel: '_Z6scaleNIfLi4EEvPT_S0_', grid: 1, block: 32, args: [buf('df'), f32(1)] },
      { kernel: '_Z6scaleNIiLi3EEvPT_S0_', grid: 1, block: 32, args: [buf('di'), i32(-1)] },
      { kernel: '_ZN3ops6negateIdEEvPT_', grid: 1, block: 32, args: [buf('dd')] },
      { kernel: '_Z4fillIiEvPT_S0_', grid: 1, block: 32, args: [buf('dfill'), i32(7)] },
    ],
  },
  {
    name: 'cxx_templates',
    buffers: { di: { type: 'i32', n: 32 * 8 }, df: { type: 'f32', n: 32 }, dd: { type: 'f64', n: 32 } },
    launches: [{ kernel: 'templates', grid: 1, block: 32, args: [buf('di'), buf('df'), buf('dd')] }],
  },
  {
    name: 'cxx_traits',
    buffers: { di: { type: 'i32', n: 32 * 5 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'traits', grid: 1, block: 32, args: [buf('di'), buf('df')] }],
  },
  {
    name: 'device_functions',
    buffers: { d: { type: 'i32', n: 1000 } },
    launches: [{ kernel: 'kernel', grid: 4, block: 64, args: [buf('d'), i32(200)] }],
  },
  {
    name: 'device_vars',
    buffers: { d: { type: 'i64', n: 16 } },
    symbols: { g_counter: { type: 'i32', n: 1 }, g_bytes: { type: 'u8', n: 5 } },
    launches: [
      { kernel: 'writer', grid: 1, block: 16, args: [i32(5)] },
      { kernel: 'writer', grid: 1, block: 16, args: [i32(3)] },
      { kernel: 'reader', grid: 1, block: 16, args: [buf('d')] },
    ],
  },
  {
    name: 'double_ops',
    buffers: { dx: { type: 'f64', n: 256, init: gen(i => (i - 128) / 64) }, dout: { type: 'f64', n: 768 }, di: { type: 'i64', n: 512 } },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('dx'), buf('dout'), buf('di'), i32(256)] }],
  },
  {
    name: 'enums_switch',
    buffers: { d: { type: 'i32', n: 96 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 96, args: [buf('d'), i32(96)] }],
  },
  {
    name: 'expressions',
    buffers: { d: { type: 'i32', n: 200 * 16 } },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('d'), i32(200)] }],
  },
  {
    name: 'goto_stmt',
    buffers: { da: { type: 'i32', n: 20, init: gen(i => ((i * i) % 23) + i) }, dout: { type: 'i32', n: 128 * 3 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 128, args: [buf('da'), buf('dout'), i32(20)] }],
  },
  {
    name: 'grid_2d',
    buffers: { d: { type: 'i32', n: 40 * 25 } },
    launches: [
      { kernel: 'fill', grid: [3, 4, 1], block: [16, 8, 1], args: [buf('d'), i32(40), i32(25)] },
      { kernel: 'stride2d', grid: [2, 3, 1], block: [8, 4, 1], args: [buf('d'), i32(40), i32(25)] },
    ],
  },
  {
    name: 'grid_3d',
    buffers: { d: { type: 'i32', n: 24 * 60 * 6 } },
    launches: [{ kernel: 'kernel', grid: [3, 2, 4], block: [4, 5, 3], args: [buf('d')] }],
  },
  {
    name: 'histogram',
    buffers: { dw: { type: 'u32', n: 6000, init: bits(7) }, db: { type: 'u32', n: 256 } },
    launches: [{ kernel: 'hist', grid: 8, block: 192, args: [buf('dw'), i32(6000), buf('db')] }],
  },
  {
    name: 'kernel_params',
    buffers: { dsrc: { type: 'i32', n: 20, init: gen(j => j * j) }, ddst: { type: 'i64', n: 3 }, dbig: { type: 'u8', n: 88, init: bytesInit(BIG) } },
    symbols: { g_flag: { type: 'i32', n: 1 } },
    launches: [
      { kernel: 'no_params', grid: 1, block: 1, args: [] },
      {
        kernel: 'many', grid: 1, block: 1,
        args: [u8(1), i8('q'.charCodeAt(0)), i8(-100), u8(250), i16(-30000), u16(65000), i32(-123456789), u32(4000000000), i64(-9876543210n),
          i64(0x123456789abcn), u64(0xfedcba9876543210n), f32(2.25), f64(-3.0625), i32(9), buf('dsrc'), buf('ddst'), { bytes: SMALL }, { bytes: BIG }, buf('dbig')],
      },
    ],
  },
  {
    name: 'launch_bounds_unroll',
    buffers: { d1: { type: 'u32', n: 512 }, d2: { type: 'u32', n: 512 } },
    launches: [
      { kernel: 'k1', grid: 4, block: 128, args: [buf('d1'), i32(13)] },
      { kernel: 'k2', grid: 2, block: 256, args: [buf('d2'), i32(6)] },
    ],
  },
  {
    name: 'ldg',
    buffers: {
      c: { type: 'i8', n: 300, init: gen(t => t - 128) }, s: { type: 'i16', n: 300, init: gen(t => t * 100 - 15000) },
      i: { type: 'i32', n: 300, init: gen(t => t * 12345 - 1000000) }, ll: { type: 'i64', n: 300, init: gen(t => BigInt(t) << 35n) },
      u: { type: 'u32', n: 300, init: gen(t => 4000000000 - t) }, f: { type: 'f32', n: 300, init: gen(t => t * 0.5 - 3) },
      d: { type: 'f64', n: 300, init: gen(t => t * -0.25) }, i2: { type: 'i32', n: 600, init: gen(k => (k & 1 ? -2 * (k >> 1) : k >> 1)) },
      f4: { type: 'f32', n: 1200, init: gen(k => [k >> 2, 1, -0.5, 0.25 * (k >> 2)][k & 3]!) }, out: { type: 'i64', n: 300 },
    },
    launches: [{ kernel: 'kernel', grid: 3, block: 128, args: [buf('c'), buf('s'), buf('i'), buf('ll'), buf('u'), buf('f'), buf('d'), buf('i2'), buf('f4'), buf('out'), i32(300)] }],
  },
  {
    name: 'local_array_dynamic',
    buffers: { din: { type: 'i32', n: 200 * 12, init: rand(-500, 499, 12345) }, dout: { type: 'i32', n: 200 * 21 } },
    launches: [{ kernel: 'kernel', grid: 4, block: 64, args: [buf('din'), buf('dout'), i32(200)] }],
  },
  {
    name: 'math_double',
    buffers: { din: { type: 'f64', n: 5 * 256, init: gen(mathDoubleInput) }, dout: { type: 'f64', n: 69 * 256 } },
    launches: [{ kernel: 'math_double', grid: 2, block: 128, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'math_fast',
    buffers: { din: { type: 'f32', n: 4 * 256, init: gen(j => mathFloatInput(j, 0.0311)) }, dout: { type: 'f32', n: 27 * 256 } },
    launches: [{ kernel: 'math_fast', grid: 2, block: 128, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'math_flags',
    // One output buffer per kernel (main() reuses one), so every launch's result is compared.
    buffers: {
      a: { type: 'f32', n: 1, init: values(0.75) }, b: { type: 'f32', n: 1, init: values(1.5) }, c: { type: 'f32', n: 1, init: values(0.25) },
      x: { type: 'f64', n: 1, init: values(2.0) }, y: { type: 'f64', n: 1, init: values(3.0) },
      ...Object.fromEntries(MATH_FLAGS_F.map(([k]) => [`o_${k}`, { type: 'f32' as const, n: 1 }])),
      o_intrinsics: { type: 'f32', n: 15 },
      z_dexp: { type: 'f64', n: 1 }, z_ddiv: { type: 'f64', n: 1 }, z_dsqrt: { type: 'f64', n: 1 },
    },
    launches: [
      ...MATH_FLAGS_F.map(([k, ins]) => ({ kernel: `k_${k}`, grid: 1, block: 1, args: [...ins.map(n => buf(n)), buf(`o_${k}`)] })),
      { kernel: 'k_dexp', grid: 1, block: 1, args: [buf('x'), buf('z_dexp')] },
      { kernel: 'k_ddiv', grid: 1, block: 1, args: [buf('x'), buf('y'), buf('z_ddiv')] },
      { kernel: 'k_dsqrt', grid: 1, block: 1, args: [buf('x'), buf('z_dsqrt')] },
      { kernel: 'k_intrinsics', grid: 1, block: 1, args: [buf('a'), buf('b'), buf('o_intrinsics')] },
    ],
  },
  {
    name: 'math_float',
    buffers: { din: { type: 'f32', n: 5 * 256, init: gen(mathFloatInput) }, dout: { type: 'f32', n: 62 * 256 } },
    launches: [{ kernel: 'math_float', grid: 2, block: 128, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'matmul_tiled',
    buffers: {
      A: { type: 'i32', n: 37 * 40, init: gen(i => ((i * 7) % 201) - 100) }, B: { type: 'i32', n: 40 * 29, init: gen(i => ((i * 13) % 1999) - 1000) },
      C: { type: 'i64', n: 37 * 29 }, C2: { type: 'i64', n: 37 * 29 },
    },
    launches: [
      { kernel: 'matmul_tiled', grid: [2, 3, 1], block: [16, 16, 1], args: [buf('A'), buf('B'), buf('C'), i32(37), i32(29), i32(40)] },
      { kernel: 'matmul_naive', grid: [2, 3, 1], block: [16, 16, 1], args: [buf('A'), buf('B'), buf('C2'), i32(37), i32(29), i32(40)] },
    ],
  },
  {
    name: 'overloads_defaults',
    buffers: { d: { type: 'i32', n: 64 * 12 }, d64: { type: 'i64', n: 64 * 3 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 64, args: [buf('d'), buf('d64'), i32(64)] }],
  },
  {
    name: 'pointers_arrays',
    buffers: { dg: { type: 'i32', n: 128, init: gen(i => Math.floor(i / 16) * 100 + (i % 16) * 3 - 7) }, dout: { type: 'i32', n: 32 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 32, args: [buf('dg'), buf('dout')] }],
  },
  {
    name: 'prelude_empty', compileOnly: 'the program has no kernel (cuda_runtime.h only)',
    buffers: {}, launches: [],
  },
  {
    name: 'prelude_std',
    buffers: { d: { type: 'i32', n: 32 } },
    launches: [{ kernel: 'prelude_std_kernel', grid: 1, block: 32, args: [buf('d')] }],
  },
  {
    name: 'printf',
    buffers: { d: { type: 'i32', n: 1 } },
    launches: [{ kernel: 'kernel', grid: 2, block: 8, args: [buf('d')] }],
  },
  {
    name: 'recursion',
    buffers: { tree: { type: 'i32', n: 63, init: gen(i => (((i * 7) % 11 === 3 && i > 2) ? -1 : i)) }, out: { type: 'i32', n: 256 }, out2: { type: 'i64', n: 64 } },
    stackSize: 16384,   // as the program sets it: the default stack overflows on a GPU
    launches: [{ kernel: 'kernel', grid: 1, block: 64, args: [buf('tree'), i32(63), buf('out'), buf('out2'), i32(64)] }],
  },
  {
    name: 'reduce_shared',
    buffers: { din: { type: 'i32', n: 20000, init: rand(-(1 << 27), (1 << 27) - 1, 7) }, sums: { type: 'i64', n: 6 }, mins: { type: 'i32', n: 6 }, maxs: { type: 'i32', n: 6 } },
    launches: [{ kernel: 'reduce', grid: 6, block: 256, args: [buf('din'), i32(20000), buf('sums'), buf('mins'), buf('maxs')] }],
  },
  {
    name: 'saxpy',
    buffers: { x: { type: 'f32', n: 1000, init: gen(i => (i % 97) * 0.25) }, y: { type: 'f32', n: 1000, init: rand(-6, 6, 3) } },
    launches: [{ kernel: 'saxpy', grid: 4, block: 256, args: [i32(1000), f32(2.5), buf('x'), buf('y')] }],
  },
  {
    name: 'scalar_float_double',
    buffers: { d: { type: 'f64', n: 257 * 12 } },
    launches: [{ kernel: 'kernel', grid: 3, block: 96, args: [buf('d'), i32(257)] }],
  },
  {
    name: 'scalar_int_types',
    buffers: { d: { type: 'i64', n: 300 * 24 } },
    launches: [{ kernel: 'kernel', grid: 3, block: 128, args: [buf('d'), i32(300)] }],
  },
  {
    name: 'scan',
    buffers: { din: { type: 'u32', n: 3000, init: gen(i => Math.imul(i, 2654435761) >>> 20) }, dout: { type: 'u32', n: 3000 }, dsums: { type: 'u32', n: 12 } },
    launches: [
      { kernel: 'block_scan', grid: 12, block: 256, args: [buf('din'), buf('dout'), buf('dsums'), i32(3000)] },
      { kernel: 'add_offsets', grid: 12, block: 256, args: [buf('dout'), buf('dsums'), i32(3000)] },
    ],
  },
  {
    name: 'shared_dynamic',
    buffers: { din: { type: 'i32', n: 1000, init: gen(i => i * 3 - 700) }, dout: { type: 'i32', n: 1000 }, dout2: { type: 'i64', n: 1000 } },
    launches: [
      { kernel: 'reverse_block', grid: 11, block: 96, dynShared: 96 * 4, args: [buf('din'), buf('dout'), i32(1000)] },
      { kernel: 'carve', grid: 16, block: 64, dynShared: 64 * 13, args: [buf('din'), buf('dout2'), i32(1000)] },
    ],
  },
  {
    name: 'shared_static',
    buffers: { din: { type: 'i32', n: 37 * 50, init: gen(i => ((i * 7919) % 1000) - 500) }, dout: { type: 'i32', n: 37 * 50 }, dout2: { type: 'i32', n: 37 * 50 } },
    launches: [
      { kernel: 'transpose', grid: [3, 4, 1], block: [16, 16, 1], args: [buf('din'), buf('dout'), i32(37), i32(50)] },
      { kernel: 'neighbours', grid: 15, block: 128, args: [buf('din'), buf('dout2'), i32(37 * 50)] },
    ],
  },
  {
    name: 'shfl',
    buffers: { din: { type: 'i32', n: 256, init: gen(i => ((i * 7919) % 2001) - 1000) }, dout: { type: 'i64', n: 256 * 9 } },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_class_enums',
    buffers: {
      din: { type: 'i32', n: 32, init: gen(i => i * 7 - 50) },
      dout: { type: 'i32', n: 32 * 6 },
      dd: { type: 'f64', n: 128, init: gen(i => (Math.floor(i / 4) % 5) * 0.5 + (i % 4) - 1.25 * ((i % 4) & 1)) },
      dex: { type: 'u32', n: 32 },
    },
    launches: [{ kernel: 'classEnums', grid: 1, block: 32, args: [buf('din'), buf('dout'), buf('dd'), buf('dex')] }],
  },
  {
    name: 'cxx2_constexpr_headers',
    buffers: { din: { type: 'i32', n: 8, init: gen(i => i * 5 - 12) }, dout: { type: 'i32', n: 8 * 8 } },
    launches: [{ kernel: 'constexprHeaders', grid: 1, block: 8, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_reference_members',
    buffers: { din: { type: 'i32', n: 4, init: values(5, -7, 11, 20) }, dout: { type: 'i32', n: 4 * 5 } },
    // ByValue {int &r; int k;}: an address (never read), then k
    launches: [{ kernel: 'referenceMembers', grid: 1, block: 4, args: [buf('din'), buf('dout'), { bytes: struct(16, [[0, 'i64', 0], [8, 'i32', 42]]) }] }],
  },
  {
    name: 'cxx2_trial_traits',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => i * 3 - 40) }, dout: { type: 'i32', n: 32 * 8 }, dfout: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'trialTraits', grid: 1, block: 32, args: [buf('din'), buf('dout'), buf('dfout')] }],
  },
  {
    name: 'cxx2_cicc_accepts',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => ((i * 37) % 29) - (i === 4 ? 4 : 0)) }, dout: { type: 'i32', n: 32 * 5 }, dd: { type: 'f64', n: 1 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 32, args: [buf('din'), buf('dout'), buf('dd'), i32(32)] }],
  },
  {
    name: 'cxx2_lookups',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => ((i * 29) % 31) - 12) }, dout: { type: 'i32', n: 32 * 5 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 32, args: [buf('din'), buf('dout'), i32(32)] }],
  },
  {
    name: 'cxx2_library_idioms',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => i * 7 - 50) }, dout: { type: 'i32', n: 32 * 12 }, dv: { type: 'f32', n: 64 * 4, init: gen(i => [i >> 2, (i >> 2) + 0.5, -(i >> 2), (i >> 2) * 2][i & 3]!) } },
    launches: [{ kernel: '_Z6idiomsILi64ELi17EEvPKiPiP6float4', grid: 1, block: 32, args: [buf('din'), buf('dout'), buf('dv')] }],
  },
  {
    name: 'cxx2_type_traits',
    buffers: { d: { type: 'i32', n: 4 * 11 } },
    launches: [{ kernel: 'typeTraits', grid: 1, block: 4, args: [buf('d')] }],
  },
  {
    name: 'divide_by_constants',
    buffers: {
      din: { type: 'u64', n: 64, init: (() => {
        const edges = [0n, 1n, 2n, 3n, 6n, 7n, 9n, 10n, 99n, 100n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0xfffffffen, 0x80000001n,
          0xffffffff80000000n, 0xffffffffffffffffn, 0x7fffffffffffffffn, 0x8000000000000000n, 0x8000000000000001n,
          0xfffffffffffffff9n, 0xffffffffffffff9cn];
        const r = xorshift64(0x9e3779b97f4a7c15n, 64);
        return gen(i => (i < edges.length ? edges[i]! : i & 1 ? r[i]! : r[i]! >> BigInt(i % 40)));
      })() },
      dout: { type: 'i64', n: 64 * 40 },
    },
    launches: [{ kernel: 'divide', grid: 2, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_coop_shfl_struct',
    buffers: { din: { type: 'i32', n: 64, init: gen(i => i * 11 - 300) }, dout: { type: 'i32', n: 64 * 6 }, dd: { type: 'f64', n: 64 } },
    launches: [{ kernel: 'shflStruct', grid: 1, block: 64, args: [buf('din'), buf('dout'), buf('dd')] }],
  },
  {
    name: 'cxx2_if_constexpr',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => i * 29 - 400) }, df: { type: 'f32', n: 32 * 4 }, di: { type: 'i32', n: 32 * 3 } },
    launches: [{ kernel: 'ifConstexpr', grid: 1, block: 32, args: [buf('din'), buf('df'), buf('di')] }],
  },
  {
    name: 'cxx2_placement_array',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => i * 13 + 5) }, dout: { type: 'i32', n: 32 * 4 } },
    launches: [{ kernel: 'placementArray', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_wmma',
    buffers: {
      ha: { type: 'u16', n: 256, init: gen(t => f16bits(((Math.floor(t / 16) * 3 + t % 16) % 7) - 3)) },
      hb: { type: 'u16', n: 256, init: gen(t => f16bits(((t % 16 + 2 * Math.floor(t / 16)) % 5) - 2)) },   // column-major
      hc: { type: 'f32', n: 256, init: gen(t => (Math.floor(t / 16) - t % 16) * 0.5) },
      hd: { type: 'f32', n: 256 },
      ha2: { type: 'u16', n: 512, init: gen(t => f16bits(((Math.floor(t / 16) * 3 + t % 16) % 7) - 3)) },
      hb2: { type: 'u16', n: 128, init: gen(t => f16bits(((Math.floor(t / 8) + 2 * (t % 8)) % 5) - 2)) },
      hd2: { type: 'u16', n: 256 },
      abf: { type: 'u16', n: 256, init: gen(t => bf16bits(((Math.floor(t / 16) * 3 + t % 16) % 7) - 3)) },
      bbf: { type: 'u16', n: 256, init: gen(t => bf16bits(((Math.floor(t / 16) + 2 * (t % 16)) % 5) - 2)) },
      a8: { type: 'i8', n: 256, init: gen(t => (((Math.floor(t / 16) * 3 + t % 16) % 7) - 3) * 5) },
      b8: { type: 'i8', n: 256, init: gen(t => (((t % 16 + 2 * Math.floor(t / 16)) % 5) - 2) * 7) },
      a64: { type: 'f64', n: 32, init: gen(t => ((((Math.floor(t / 4) * 3 + t % 4) % 7) - 3) * 0.5)) },
      b64: { type: 'f64', n: 32, init: gen(t => ((((t % 4 + 2 * Math.floor(t / 4)) % 5) - 2) * 0.25)) },
      obf: { type: 'f32', n: 256 }, o8: { type: 'i32', n: 256 }, o64: { type: 'f64', n: 64 },
    },
    launches: [
      { kernel: 'wmmaF32', grid: 1, block: 32, args: [buf('ha'), buf('hb'), buf('hc'), buf('hd')] },
      { kernel: 'wmmaF16', grid: 1, block: 32, args: [buf('ha2'), buf('hb2'), buf('hd2')] },
      { kernel: 'wmmaOther', grid: 1, block: 32, args: [buf('abf'), buf('bbf'), buf('a8'), buf('b8'), buf('a64'), buf('b64'), buf('obf'), buf('o8'), buf('o64')] },
    ],
  },
  {
    name: 'cxx2_nttp_spellings',
    buffers: { d1: { type: 'i64', n: 4 }, d2: { type: 'i64', n: 4 }, d3: { type: 'i64', n: 4 }, d4: { type: 'i64', n: 4 } },
    launches: [
      { kernel: '_Z4wideILl5ELxn7ELm9ELs3ELh4ELc97EEvPx', grid: 1, block: 4, args: [buf('d1')] },
      { kernel: '_Z4wideILln9000000000ELx9000000000ELm18000000000000000000ELsn3ELh200ELcn5EEvPx', grid: 1, block: 4, args: [buf('d2')] },
      { kernel: '_Z6narrowILin5ELj7ELan3ELt65535ELb1ELc10EEvPx', grid: 1, block: 4, args: [buf('d3')] },
      { kernel: '_Z6narrowILi5ELj0ELa100ELt0ELb0ELc32EEvPx', grid: 1, block: 4, args: [buf('d4')] },
    ],
  },
  {
    name: 'cxx2_typedef_params',
    buffers: {
      du: { type: 'u32', n: 32 }, dh: { type: 'u16', n: 32, init: gen(i => i) }, dr: { type: 'f32', n: 32 },
      dc: { type: 'f64', n: 32, init: gen(i => i * 0.25) },
    },
    launches: [{
      kernel: '_Z13typedefParamsmPjPKtPf4PairPKdN3geo2PtEi', grid: 1, block: 32,
      args: [u64(32n), buf('du'), buf('dh'), buf('dr'), { bytes: [5, 0, 0, 0, 7, 0, 0, 0] }, buf('dc'), { bytes: [0, 0, 0xc0, 0x3f, 0, 0, 0, 0x40] }, i32(100)],
    }],
  },
  {
    name: 'cuda_libcu_misc',
    buffers: {
      din: { type: 'u32', n: 64, init: gen(i => (i === 3 ? 0 : i === 5 ? 64 : i === 7 ? 0xffffffff : Number(BigInt.asUintN(32, BigInt(i) * 2654435761n) >> BigInt(i % 29)))) },
      dout: { type: 'i64', n: 64 * 8 },
    },
    launches: [{ kernel: 'libcuMisc', grid: 1, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_explicit_spec',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => i * 5 - 40) }, dout: { type: 'i64', n: 32 * 8 } },
    launches: [{ kernel: 'explicitSpec', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_wide_nttp',
    buffers: {
      din: { type: 'u64', n: 32, init: gen(i => BigInt.asUintN(64, 0x0123456789abcdefn * BigInt(i + 1))) }, dout: { type: 'u64', n: 32 }, dout2: { type: 'u64', n: 32 },
      dio: { type: 'i32', n: 32, init: gen(i => i * 7 - 50) },
    },
    launches: [
      { kernel: '_Z8wideMaskILy18374686479671623680EEvPKyPy', grid: 1, block: 32, args: [buf('din'), buf('dout')] },
      { kernel: '_Z8wideMaskILy1152921504606846976EEvPKyPy', grid: 1, block: 32, args: [buf('din'), buf('dout2')] },
      { kernel: '_Z5spansPii', grid: 1, block: 32, args: [buf('dio'), i32(32)] },
    ],
  },
  {
    name: 'cxx2_hidden_friends',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => i * 7 - 50) }, dout: { type: 'i32', n: 32 * 4 }, dfo: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'hiddenFriends', grid: 1, block: 32, args: [buf('din'), buf('dout'), buf('dfo')] }],
  },
  {
    name: 'cxx2_member_alias',
    buffers: { din: { type: 'i32', n: 32, init: gen(i => i * 37 - 500) }, dout: { type: 'i64', n: 32 * 8 }, dsl: { type: 'i32', n: 32 } },
    launches: [
      { kernel: 'memberAlias', grid: 1, block: 32, args: [buf('din'), buf('dout')] },
      { kernel: 'sliced', grid: 1, block: 32, args: [buf('din'), buf('dsl')] },
    ],
  },
  {
    name: 'min_max_select',
    buffers: {
      din: { type: 'u64', n: 64, init: (() => {
        const edges = [0n, 1n, 2n, 7n, 8n, 99n, 100n, 101n, 0x7fffn, 0x8000n, 0xffffn, 0x7fffffffn, 0x80000000n, 0xffffffffn,
          0xffffffffffffff9cn, 0xffffff9bn, 0xffffffffffffffffn, 0x7fffffffffffffffn, 0x8000000000000000n, 0x8000000000000001n];
        const r = xorshift64(0x9e3779b97f4a7c15n, 64);
        return gen(i => (i < edges.length ? edges[i]! : i & 1 ? r[i]! : r[i]! >> BigInt(i % 40)));
      })() },
      dout: { type: 'i64', n: 64 * 16 },
    },
    launches: [{ kernel: 'minmax', grid: 2, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'shifts_divmod',
    buffers: { d: { type: 'i64', n: 256 * 22 } },
    launches: [{ kernel: 'kernel', grid: 4, block: 64, args: [buf('d'), i32(256), i32(5)] }],
  },
  {
    name: 'sizeof_casts',
    buffers: { d: { type: 'i32', n: 18 }, din: { type: 'u32', n: 16, init: gen(i => (Math.imul(0x89abcdef, i + 1) + 0x1234567) >>> 0) }, dout: { type: 'i32', n: 64 } },
    launches: [
      { kernel: 'sizes', grid: 1, block: 1, args: [buf('d')] },
      { kernel: 'casts', grid: 1, block: 32, args: [buf('din'), buf('dout'), i32(16)] },
    ],
  },
  {
    name: 'stencil_1d',
    buffers: { din: { type: 'i32', n: 1000, init: gen(i => ((i * i) % 1013) - 500) }, dout: { type: 'i32', n: 1000 } },
    launches: [{ kernel: 'stencil', grid: 8, block: 128, args: [buf('din'), buf('dout'), i32(1000)] }],
  },
  {
    name: 'struct_byvalue',
    buffers: { d: { type: 'i64', n: 150 } },
    launches: [{ kernel: 'kernel', grid: 3, block: 64, args: [{ bytes: PARAMS }, { bytes: COEFFS }, buf('d'), i32(150)] }],
  },
  {
    name: 'structs_nested',
    buffers: { d: { type: 'u8', n: 6400, init: bytesInit(PARTICLES) } },
    launches: [{ kernel: 'kernel', grid: 2, block: 64, args: [buf('d'), i32(100)] }],
  },
  {
    name: 'switch_fallthrough',
    buffers: {
      din: { type: 'i32', n: 256, init: gen(i => (i % 10 < 6 ? [-1000000, -7, 0, 42, 65536, 0x7fffffff][i % 10]! : i * 7 - 500)) },
      dout: { type: 'i32', n: 768 },
    },
    launches: [{ kernel: 'kernel', grid: 2, block: 128, args: [buf('din'), buf('dout'), i32(256)] }],
  },
  {
    name: 'sync_count',
    buffers: {
      din: { type: 'i32', n: 5 * 192, init: gen(i => { const b = Math.floor(i / 192); if (b === 3 && i % 192 === 77) return 12345; return b === 0 ? i + 1 : b === 1 ? -(i % 50) : ((i * 37) % 1001) - 300; }) },
      dout: { type: 'i32', n: 30 },
    },
    launches: [{ kernel: 'kernel', grid: 5, block: 192, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'syncwarp_fence',
    buffers: { din: { type: 'i32', n: 1280, init: gen(i => i * 5 - 333) }, dout: { type: 'i32', n: 256 }, dpart: { type: 'i32', n: 40 }, dres: { type: 'i32', n: 1 } },
    symbols: { g_ticket: { type: 'u32', n: 1 } },
    launches: [
      { kernel: 'warp_exchange', grid: 4, block: 64, args: [buf('din'), buf('dout')] },
      { kernel: 'last_block', grid: 40, block: 32, args: [buf('din'), buf('dpart'), buf('dres'), i32(1280)] },
      { kernel: 'last_block', grid: 40, block: 32, args: [buf('din'), buf('dpart'), buf('dres'), i32(1280)] },
    ],
  },
  {
    name: 'type_punning_intrinsics',
    buffers: {
      f: { type: 'f32', n: 64, init: gen(i => [-0, Infinity, -1e30][i] ?? (i - 30) * 0.375) },
      d: { type: 'f64', n: 64, init: gen(i => [-0, -Infinity, 1e300][i] ?? (i - 20) * 1024.5 + 0.0625) },
      out: { type: 'u64', n: 512 },
    },
    launches: [{ kernel: 'kernel', grid: 1, block: 64, args: [buf('f'), buf('d'), buf('out'), i32(64)] }],
  },
  {
    name: 'unions_punning',
    buffers: { din: { type: 'f32', n: 48, init: gen(i => (i - 20) * 1.25) }, tg: { type: 'u8', n: 48 * 16, init: bytesInit(TAGGED) }, out: { type: 'u32', n: 48 * 6 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 64, args: [buf('din'), buf('tg'), buf('out'), i32(48)] }],
  },
  {
    name: 'vote',
    buffers: { din: { type: 'i32', n: 128, init: gen(i => (i === 40 ? 77 : i === 100 ? -2000 : Math.floor(i / 32) === 2 ? 5 : ((i * 37) % 101) - 50)) }, dout: { type: 'u32', n: 128 * 6 } },
    launches: [{ kernel: 'kernel', grid: 1, block: 128, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'warp_reduce',
    buffers: { d: { type: 'u32', n: 20000, init: bits(3) }, sum: { type: 'u64', n: 1 }, mx: { type: 'i32', n: 1, init: fill(-1) } },
    launches: [{ kernel: 'reduce', grid: 4, block: 320, args: [buf('d'), i32(20000), buf('sum'), buf('mx')] }],
  },
  ...CUDA_SPECS,
  ...SPECS_CXX2,
  ...TEX_SPECS,
  ...SPECS_VIRT,
  ...SPECS_TMPL,
  ...SPECS_XLAM,
  ...SPECS_COOP,
  ...SPECS_CXXB,
  ...SPECS_LIBS,
  ...SPECS_HOSTINST,
  ...SPECS_PERF,
];

void zero; void f64;
