// Differential specs of the heavy-template programs (issue 8, tmpl): non-type parameter packs (cxx2_packs_*),
// template template parameters (cxx2_tmpltmpl_*), cub and thrust device code (cuda_cub_*, cuda_thrust_*).
// Launched as each program's main() does.
import { type KernelSpec, buf, gen } from './spec';

export const SPECS_TMPL: KernelSpec[] = [
  {
    name: 'cxx2_packs_nontype',
    buffers: { din: { type: 'i32', n: 48, init: gen(j => ((j * 7) % 13) - 6) }, dout: { type: 'i32', n: 32 * 8 } },
    launches: [{ kernel: 'packsNontype', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_tmpltmpl_basic',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 11) - 4) }, dout: { type: 'i32', n: 32 * 4 } },
    launches: [
      { kernel: '_Z8tmplTmplIN3ops4PlusEEvPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] },
      { kernel: '_Z8tmplTmplIN3ops3MaxEEvPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] },
    ],
  },
  {
    name: 'cxx2_tmpltmpl_policy',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 3) % 7) - 2) }, dout: { type: 'i32', n: 32 * 4 } },
    launches: [{ kernel: 'tmplTmplPolicy', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
];
