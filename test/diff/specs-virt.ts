// Differential specs of the virtual-function and class-temporary programs test/kernels/cxx2_virtual_*.cu and
// cxx2_temporaries_*.cu (issue 8, virt): one per program, launched as each program's main() does.
import { type KernelSpec, buf, gen } from './spec';

export const SPECS_VIRT: KernelSpec[] = [
  {
    name: 'cxx2_virtual_shapes',
    buffers: { din: { type: 'f32', n: 32, init: gen(j => (j % 9) * 0.5 - 1) }, df: { type: 'f32', n: 32 * 4 }, di: { type: 'i32', n: 32 * 2 } },
    launches: [{ kernel: '_Z13virtualShapesPKfPfPi', grid: 1, block: 32, args: [buf('din'), buf('df'), buf('di')] }],
  },
  {
    name: 'cxx2_virtual_loop',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 13) - 6) }, dout: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: '_Z11virtualLoopPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_virtual_final',
    buffers: { din: { type: 'f32', n: 32, init: gen(j => (j % 7) * 0.25 - 0.5) }, dout: { type: 'f32', n: 32 * 5 } },
    launches: [{ kernel: '_Z12virtualFinalPKfPf', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_virtual_dtor',
    buffers: { dout: { type: 'i32', n: 32 * 4 } },
    launches: [{ kernel: '_Z11virtualDtorPi', grid: 1, block: 32, args: [buf('dout')] }],
  },
  {
    name: 'cxx2_temporaries_raii',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => (j * 5) % 11) }, dout: { type: 'i32', n: 32 * 8 } },
    launches: [{ kernel: '_Z15temporariesRaiiPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_temporaries_byvalue',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 3) % 17) - 8) }, dout: { type: 'i32', n: 32 * 8 } },
    launches: [{ kernel: '_Z18temporariesByValuePKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_temporaries_arrays',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => (j % 3) - 1) }, dout: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: '_Z17temporariesArraysPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
];
