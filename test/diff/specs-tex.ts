// Differential specs for the texture- and surface-object programs (test/kernels/cuda_tex_*.cu,
// cuda_surf_*.cu). Each texture / surface is a buffer described as the CUDA array or linear memory the
// program's host main() creates (test/emulator/texsurf.ts); inputs follow the host code.

import { type KernelSpec, buf, i32, f32, gen, tex, surf } from './spec';

const W2 = 13, H2 = 9;   // cuda_tex_2d_clamp
const uchar4Texel = (i: number): number => {
  const t = i >> 2, x = t % W2, y = Math.floor(t / W2);
  return [(x * 11 + 1) & 255, (y * 13 + 2) & 255, (x * y) & 255, (200 + x) & 255][i & 3]!;
};

export const TEX_SPECS: KernelSpec[] = [
  {
    name: 'cuda_tex_fetch',
    buffers: {
      fin: { type: 'f32', n: 300, init: gen(i => (i % 37) * 0.25 - 3) },
      iin: { type: 'i32', n: 400, init: gen(i => ((i * 7919) % 2001) - 1000) },
      fout: { type: 'f32', n: 308 }, iout: { type: 'i32', n: 100 },
    },
    textures: {
      tf: { buf: 'fin', kind: 'linear', format: 'f32', channels: 1, width: 300 },
      ti: { buf: 'iin', kind: 'linear', format: 'i32', channels: 4, width: 100 },
    },
    launches: [
      { kernel: 'tex_fetch_float', grid: 3, block: 128, args: [tex('tf'), buf('fout'), i32(300)] },
      { kernel: 'tex_fetch_int4', grid: 1, block: 128, args: [tex('ti'), buf('iout'), i32(100)] },
    ],
  },
  {
    name: 'cuda_tex_2d_clamp',
    buffers: {
      af: { type: 'f32', n: W2 * H2, init: gen(i => Math.floor(i / W2) * 100 + (i % W2) + 0.5) },
      ac: { type: 'u8', n: W2 * H2 * 4, init: gen(uchar4Texel) },
      au: { type: 'u8', n: W2 * H2, init: gen(i => ((i % W2) * 17 + Math.floor(i / W2) * 5) & 255) },
      dof: { type: 'f32', n: 17 * 13 }, doc: { type: 'u32', n: 17 * 13 }, dou: { type: 'f32', n: W2 * H2 },
    },
    textures: {
      tf: { buf: 'af', kind: 'array', format: 'f32', channels: 1, width: W2, height: H2, address: 'clamp' },
      tc: { buf: 'ac', kind: 'array', format: 'u8', channels: 4, width: W2, height: H2, address: 'border' },
      tu: { buf: 'au', kind: 'array', format: 'u8', channels: 1, width: W2, height: H2, address: 'clamp', normalizedFloat: true },
    },
    launches: [
      { kernel: 'tex2d_clamp', grid: [3, 2, 1], block: [8, 8, 1], args: [tex('tf'), buf('dof'), i32(W2), i32(H2)] },
      { kernel: 'tex2d_border', grid: [3, 2, 1], block: [8, 8, 1], args: [tex('tc'), buf('doc'), i32(W2), i32(H2)] },
      { kernel: 'tex2d_unorm', grid: 1, block: [16, 16, 1], args: [tex('tu'), buf('dou'), i32(W2), i32(H2)] },
    ],
  },
  {
    name: 'cuda_surf_roundtrip',
    buffers: {
      a2: { type: 'f32', n: 20 * 6 }, a1: { type: 'i16', n: 2 * 40 },
      dc: { type: 'f32', n: 23 * 8 }, dz: { type: 'f32', n: 23 * 8 }, d1: { type: 'i32', n: 40 },
      dm: { type: 'f32', n: 3 }, dm3: { type: 'f32', n: 3, init: gen(() => 7) },
    },
    surfaces: {
      s2: { buf: 'a2', elemSize: 4, width: 20, height: 6 },
      s1: { buf: 'a1', elemSize: 4, width: 40 },
    },
    launches: [
      { kernel: 'surf_write2d', grid: [3, 2, 1], block: [8, 4, 1], args: [surf('s2'), i32(20), i32(6)] },
      { kernel: 'surf_read2d', grid: [3, 2, 1], block: [8, 4, 1], args: [surf('s2'), buf('dc'), buf('dz'), i32(20), i32(6)] },
      { kernel: 'surf_1d', grid: 1, block: 64, args: [surf('s1'), buf('d1'), i32(40)] },
      { kernel: 'surf_mode', grid: 1, block: 3, args: [surf('s2'), buf('dm'), i32(20), i32(1)] },
      { kernel: 'surf_mode', grid: 1, block: 3, args: [surf('s2'), buf('dm3'), i32(20), i32(0)] },
    ],
  },
  {
    name: 'cuda_tex_stencil',
    buffers: {
      grid: { type: 'f32', n: 40 * 24, init: gen(i => (((i % 40) * 7 + Math.floor(i / 40) * 3) % 16) * 0.125) },
      out: { type: 'f32', n: 40 * 24 },
    },
    textures: { t: { buf: 'grid', kind: 'array', format: 'f32', channels: 1, width: 40, height: 24, address: 'clamp' } },
    launches: [{ kernel: 'tex_stencil', grid: [3, 3, 1], block: [16, 8, 1], args: [tex('t'), buf('out'), i32(40), i32(24), f32(0.125)] }],
  },
  {
    name: 'cuda_tex_normalized',
    buffers: {
      img: { type: 'f32', n: 16 * 8, init: gen(i => i) },
      line: { type: 'f32', n: 32, init: gen(i => i * 1.5 - 7) },
      d2: { type: 'f32', n: 3 * 16 * 8 }, d1: { type: 'f32', n: 48 },
    },
    textures: {
      t2: { buf: 'img', kind: 'array', format: 'f32', channels: 1, width: 16, height: 8, address: ['wrap', 'mirror'], normalizedCoords: true },
      t1: { buf: 'line', kind: 'array', format: 'f32', channels: 1, width: 32, address: 'clamp', normalizedCoords: true },
    },
    launches: [
      { kernel: 'tex_wrap_mirror', grid: 3, block: [16, 8, 1], args: [tex('t2'), buf('d2'), i32(16), i32(8)] },
      { kernel: 'tex_1d_norm', grid: 1, block: 48, args: [tex('t1'), buf('d1'), i32(32)] },
    ],
  },
  {
    name: 'cuda_tex_layered',
    buffers: {
      al: { type: 'f32', n: 12 * 10 * 3 },
      ag: { type: 'i32', n: 2 * 12 * 10, init: gen(i => { const t = i >> 1, x = t % 12, y = Math.floor(t / 12); return i & 1 ? -(x * 7 + y) | 0 : y * 100 + x; }) },
      dl: { type: 'f32', n: 12 * 10 * 3 }, dg: { type: 'i32', n: 4 * 13 * 11 },
      dc: { type: 'i32', n: 8 }, dc2: { type: 'i32', n: 8 },
    },
    surfaces: { s: { buf: 'al', elemSize: 4, width: 12, height: 10, layers: 3 } },
    textures: {
      tl: { buf: 'al', kind: 'array', format: 'f32', channels: 1, width: 12, height: 10, layers: 3, address: 'clamp' },
      tg: { buf: 'ag', kind: 'array', format: 'i32', channels: 2, width: 12, height: 10, address: 'clamp' },
    },
    launches: [
      { kernel: 'surf_fill_layers', grid: 3, block: [16, 16, 1], args: [surf('s'), i32(12), i32(10), i32(3)] },
      { kernel: 'tex_layered_read', grid: 3, block: [16, 16, 1], args: [tex('tl'), buf('dl'), i32(12), i32(10), i32(3)] },
      { kernel: 'tex_gather', grid: 1, block: [16, 16, 1], args: [tex('tg'), buf('dg'), i32(12), i32(10)] },
      { kernel: 'tex_gather_comp', grid: 1, block: 2, args: [tex('tg'), buf('dc'), i32(1)] },
      { kernel: 'tex_gather_comp', grid: 1, block: 2, args: [tex('tg'), buf('dc2'), i32(0)] },
    ],
  },
];
