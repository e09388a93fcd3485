// Differential specs for the cooperative-groups programs (test/kernels/cuda_coop_*.cu). Inputs follow each
// program's host main(). A grid-wide barrier (this_grid().sync()) needs every block resident at once: the
// emulator runs blocks one after another, so that program is compile-only here (ptxas and symbols only).

import { type KernelSpec, buf, i32, gen } from './spec';

export const SPECS_COOP: KernelSpec[] = [
  {
    name: 'cuda_coop_block_reduce',
    buffers: { din: { type: 'i32', n: 3000, init: gen(i => ((i * 7919) % 2001) - 1000) }, dsums: { type: 'i32', n: 5 }, dinfo: { type: 'u32', n: 20 } },
    launches: [{ kernel: '_Z12block_reducePKiPiPji', grid: 5, block: 256, args: [buf('din'), buf('dsums'), buf('dinfo'), i32(3000)] }],
  },
  {
    name: 'cuda_coop_tile_scan',
    buffers: { din: { type: 'i32', n: 512, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i32', n: 12 * 512 } },
    launches: [{ kernel: '_Z9tile_scanPKiPi', grid: 4, block: 128, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_coop_coalesced',
    buffers: { din: { type: 'i32', n: 256, init: gen(i => ((i * 7919) % 61) - 30) }, dout: { type: 'i32', n: 256 * 4 }, dcount: { type: 'i32', n: 1 }, dslots: { type: 'i32', n: 256, unordered: true } },
    launches: [{ kernel: '_Z9coalescedPKiPiS1_S1_', grid: 4, block: 64, args: [buf('din'), buf('dout'), buf('dcount'), buf('dslots')] }],
  },
  {
    name: 'cuda_coop_vote',
    buffers: { din: { type: 'i32', n: 256, init: gen(i => ((i * 7919) % 97) - 48) }, dout: { type: 'u32', n: 256 * 15 } },
    launches: [{ kernel: '_Z4votePKiPj', grid: 2, block: 128, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cuda_coop_dynamic_tile',
    buffers: { dout: { type: 'u32', n: 256 * 12 } },
    launches: [{ kernel: '_Z12dynamic_tilePjii', grid: 4, block: 64, args: [buf('dout'), i32(4), i32(8)] }],
  },
  {
    name: 'cuda_coop_tile_reduce',
    buffers: {
      din: { type: 'i32', n: 256, init: gen(i => ((i * 7919) % 2001) - 1000) }, dfin: { type: 'f32', n: 256, init: gen(i => (((i * 37) % 64) - 32) * 0.25) },
      dio: { type: 'i32', n: 40 * 6 }, duo: { type: 'u32', n: 40 * 3 }, dfo: { type: 'f32', n: 40 * 3 }, dro: { type: 'i32', n: 8 * 9 },
    },
    launches: [{ kernel: '_Z18tile_reduce_kernelPKiPKfPiPjPfS3_', grid: 2, block: 128, args: [buf('din'), buf('dfin'), buf('dio'), buf('duo'), buf('dfo'), buf('dro')] }],
  },
  {
    // unnamed bitfields (what cooperative_groups.h's group_data needed first)
    name: 'cxx2_unnamed_bitfields',
    buffers: { d: { type: 'i32', n: 64 * 16 } },
    launches: [{ kernel: '_Z6kernelPii', grid: 1, block: 64, args: [buf('d'), i32(64)] }],
  },
  {
    // the template forms cooperative_groups.h needed (alias templates, using-directives, '>' in arguments, ...)
    name: 'cxx2_template_forms',
    buffers: { d: { type: 'i32', n: 32 * 12 } },
    launches: [{ kernel: '_Z6kernelPi', grid: 1, block: 32, args: [buf('d')] }],
  },
  {
    name: 'cuda_coop_grid_sync',
    compileOnly: 'grid.sync() waits until every block of the grid arrives; the emulator runs blocks one after another, so the first block would spin forever',
    buffers: {}, launches: [],
  },
];
