// Differential specs of the class programs test/kernels/cxx2_bases_*.cu, cxx2_new_*.cu, cxx2_moves_*.cu and
// cxx2_membertmpl_*.cu (issue 8, cxxb): one per program, launched as each program's main() does.
import { type KernelSpec, buf, gen } from './spec';

export const SPECS_CXXB: KernelSpec[] = [
  {
    name: 'cxx2_new_objects',
    buffers: { din: { type: 'i32', n: 32, init: gen(t => ((t * 5) % 13) - 4) }, dout: { type: 'i32', n: 32 * 12 } },
    launches: [{ kernel: '_Z10newObjectsPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_bases_multiple',
    buffers: { din: { type: 'i32', n: 32, init: gen(t => ((t * 7) % 9) - 3) }, dout: { type: 'i32', n: 32 * 10 } },
    launches: [{ kernel: '_Z13basesMultiplePKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_bases_casts',
    buffers: { din: { type: 'i32', n: 32, init: gen(t => ((t * 11) % 7) - 2) }, dout: { type: 'i32', n: 32 * 10 } },
    launches: [{ kernel: '_Z10basesCastsPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_moves_byvalue',
    buffers: { din: { type: 'i32', n: 32, init: gen(t => (t % 5) + 1) }, dout: { type: 'i32', n: 32 * 10 } },
    launches: [{ kernel: '_Z12movesByValuePKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_membertmpl_nested',
    buffers: { din: { type: 'i32', n: 32, init: gen(t => ((t * 3) % 10) - 4) }, fout: { type: 'f32', n: 32 * 3 }, iout: { type: 'i32', n: 32 * 5 } },
    launches: [{ kernel: '_Z16membertmplNestedPKiPfPi', grid: 1, block: 32, args: [buf('din'), buf('fout'), buf('iout')] }],
  },
  {
    name: 'cxx2_bases_deep',
    buffers: { din: { type: 'i32', n: 32, init: gen(t => ((t * 13) % 11) - 5) }, dout: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: '_Z9basesDeepPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_new_operators',
    buffers: { din: { type: 'i32', n: 32, init: gen(t => ((t * 9) % 14) - 6) }, dout: { type: 'i32', n: 32 * 8 } },
    symbols: { arenaUsed: { type: 'i32', n: 32 }, released: { type: 'i32', n: 32 } },
    launches: [{ kernel: '_Z12newOperatorsPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
];
