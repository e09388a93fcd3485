// Differential specs for the cuda::std, CUB and cooperative_groups/scan.h programs (test/kernels/cuda_std_*.cu,
// cuda_cub_*.cu, cuda_coop_scan_*.cu), and cxx2_aggregate_bases (the aggregate shape of libcu++'s closures).
// Inputs follow each program's host main().

import { type KernelSpec, buf, gen } from './spec';

export const SPECS_LIBS: KernelSpec[] = [
  {
    name: 'cuda_coop_scan_inclusive',
    buffers: {
      din: { type: 'i32', n: 256, init: gen(i => ((i * 7919) % 2001) - 1000) }, dfin: { type: 'f32', n: 256, init: gen(i => (((i * 37) % 64) - 32) * 0.25) },
      dio: { type: 'i32', n: 14 * 256 }, duo: { type: 'u32', n: 2 * 256 }, dfo: { type: 'f32', n: 2 * 256 },
    },
    launches: [{ kernel: '_Z11scan_kernelPKiPKfPiPjPf', grid: 2, block: 128, args: [buf('din'), buf('dfin'), buf('dio'), buf('duo'), buf('dfo')] }],
  },
  {
    name: 'cuda_coop_scan_exclusive',
    buffers: {
      din: { type: 'i32', n: 256, init: gen(i => ((i * 7919) % 2001) - 1000) }, dfin: { type: 'f32', n: 256, init: gen(i => (((i * 37) % 64) - 32) * 0.25) },
      dio: { type: 'i32', n: 12 * 256 }, duo: { type: 'u32', n: 2 * 256 }, dfo: { type: 'f32', n: 2 * 256 }, dco: { type: 'i32', n: 256 },
    },
    launches: [{ kernel: '_Z13exscan_kernelPKiPKfPiPjPfS3_', grid: 2, block: 128, args: [buf('din'), buf('dfin'), buf('dio'), buf('duo'), buf('dfo'), buf('dco')] }],
  },
  {
    name: 'cuda_cub_reduce',
    buffers: { din: { type: 'i32', n: 256, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i32', n: 6 }, dfout: { type: 'f32', n: 8 } },
    launches: [{ kernel: '_Z9cubReducePKiPiPf', grid: 2, block: 128, args: [buf('din'), buf('dout'), buf('dfout')] }],
  },
  {
    name: 'cuda_cub_scan',
    buffers: { din: { type: 'i32', n: 256, init: gen(i => ((i * 53) % 97) - 48) }, dout: { type: 'i32', n: 256 * 4 }, dout2: { type: 'i32', n: 256 } },
    launches: [
      { kernel: '_Z7cubScanPKiPi', grid: 2, block: 128, args: [buf('din'), buf('dout')] },
      { kernel: '_Z12cubScanItemsILi64ELi4EEvPKiPi', grid: 1, block: 64, args: [buf('din'), buf('dout2')] },
    ],
  },
  {
    name: 'cuda_std_iter_traits',
    buffers: { din: { type: 'i32', n: 64, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i64', n: 64 * 8 }, dflags: { type: 'i32', n: 64 } },
    launches: [{ kernel: '_Z13traits_kernelPKiPxPi', grid: 1, block: 64, args: [buf('din'), buf('dout'), buf('dflags')] }],
  },
  {
    name: 'cuda_std_array',
    buffers: { din: { type: 'i32', n: 128, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i32', n: 128 * 10 }, dfout: { type: 'f32', n: 128 } },
    launches: [{ kernel: '_Z12array_kernelPKiPiPf', grid: 2, block: 64, args: [buf('din'), buf('dout'), buf('dfout')] }],
  },
  {
    name: 'cuda_std_limits_traits',
    buffers: { din: { type: 'i32', n: 64, init: gen(i => ((i * 53) % 97) - 48) }, dout: { type: 'i64', n: 64 * 8 }, dfout: { type: 'f32', n: 64 * 3 }, ddout: { type: 'f64', n: 64 * 3 } },
    launches: [{ kernel: '_Z13limits_kernelPKiPxPfPd', grid: 2, block: 32, args: [buf('din'), buf('dout'), buf('dfout'), buf('ddout')] }],
  },
  {
    name: 'cuda_std_functional',
    buffers: { din: { type: 'i32', n: 128, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i32', n: 128 * 12 }, dfout: { type: 'f32', n: 128 } },
    launches: [{ kernel: '_Z17functional_kernelPKiPiPf', grid: 2, block: 64, args: [buf('din'), buf('dout'), buf('dfout')] }],
  },
  {
    name: 'cuda_std_crtp_closure',
    buffers: { din: { type: 'i32', n: 128, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i32', n: 128 * 4 } },
    launches: [{ kernel: '_Z14closure_kernelPKiPi', grid: 2, block: 64, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_aggregate_bases',
    buffers: { din: { type: 'i32', n: 128, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i32', n: 128 * 6 }, dfout: { type: 'f32', n: 128 } },
    launches: [{ kernel: '_Z11aggr_kernelPKiPiPf', grid: 2, block: 64, args: [buf('din'), buf('dout'), buf('dfout')] }],
  },
  {
    name: 'cuda_std_ranges_empty',
    buffers: { din: { type: 'i32', n: 64, init: gen(i => ((i * 37) % 101) - 50) }, dout: { type: 'i32', n: 64 * 2 } },
    launches: [{ kernel: '_Z12empty_kernelPKiPi', grid: 2, block: 32, args: [buf('din'), buf('dout')] }],
  },
];
