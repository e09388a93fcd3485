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
];
