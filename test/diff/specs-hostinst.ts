// Differential specs of the programs test/kernels/cxx2_hostinst_*.cu (issue 8, hostinst): kernel template
// specialisations requested from host function templates, launched as each program's main() does.
import { type KernelSpec, buf, i32, f32, f64, u32, gen, struct } from './spec';

export const SPECS_HOSTINST: KernelSpec[] = [
  {
    name: 'cxx2_hostinst_streams',
    buffers: { dd: { type: 'f64', n: 40 }, di: { type: 'i32', n: 32 } },
    launches: [
      { kernel: '_Z10fillKernelIdEviT_PS0_', grid: 2, block: 32, args: [i32(40), f64(0.25), buf('dd')] },
      { kernel: '_Z4iotaPi', grid: 1, block: 32, args: [buf('di')] },
    ],
  },
  {
    name: 'cxx2_hostinst_member_names',
    buffers: { dd: { type: 'f64', n: 40 }, df: { type: 'f32', n: 40 } },
    launches: [
      { kernel: '_Z10fillKernelIdEviT_PS0_', grid: 2, block: 32, args: [i32(40), f64(3.0), buf('dd')] },
      { kernel: '_Z10fillKernelIfEviT_PS0_', grid: 2, block: 32, args: [i32(40), f32(0.5), buf('df')] },
    ],
  },
  {
    // also the corpus's false errors: a typedef-named function pointer, brace elision, anonymous unions in a block
    name: 'cxx2_corpus_constructs',
    buffers: {
      din: { type: 'u32', n: 32, init: gen(j => Number(BigInt.asUintN(32, BigInt(j) * 2654435761n))) }, dout: { type: 'u32', n: 32 * 6 },
      ff: { type: 'f32', n: 40 }, fd: { type: 'f64', n: 40 }, dtag: { type: 'i32', n: 8 },
    },
    launches: [
      { kernel: '_Z6kernelPjS_i', grid: 1, block: 32, args: [buf('din'), buf('dout'), i32(32)] },
      { kernel: '_Z5fillKIfEviT_PS0_', grid: 2, block: 32, args: [i32(40), f32(1.5), buf('ff')] },
      { kernel: '_Z5fillKIdEviT_PS0_', grid: 2, block: 32, args: [i32(40), f64(-2.25), buf('fd')] },
      { kernel: '_Z6taggedILi5ELb1EEv3TagIXT_EE4FlagIXT_EXT0_EEPi', grid: 1, block: 8, args: [{ bytes: struct(4, [[0, 'i32', 7]]) }, { bytes: struct(4, [[0, 'i32', 3]]) }, buf('dtag')] },
    ],
  },
  {
    name: 'cxx2_hostinst_templates',
    buffers: {
      fin: { type: 'f32', n: 128, init: gen(j => j % 7) }, fout: { type: 'f32', n: 64 },
      iin: { type: 'i32', n: 128, init: gen(j => j % 7) }, iout: { type: 'i32', n: 64 },
      din: { type: 'f64', n: 16, init: gen(j => j) }, dout: { type: 'f64', n: 16 },
      fsum: { type: 'f32', n: 2 }, isum: { type: 'i32', n: 2 }, ff: { type: 'f32', n: 32 }, uf: { type: 'u32', n: 32 },
    },
    launches: [
      { kernel: '_Z11scaleKernelIfEvPKT_PS0_i', grid: 1, block: 64, args: [buf('fin'), buf('fout'), i32(40)] },
      { kernel: '_Z8blockSumIfLj64ELb1EEvPKT_PS0_', grid: 2, block: 64, args: [buf('fin'), buf('fsum')] },
      { kernel: '_Z8blockSumIfLj32ELb0EEvPKT_PS0_', grid: 2, block: 32, args: [buf('fin'), buf('fsum')] },
      { kernel: '_Z11scaleKernelIiEvPKT_PS0_i', grid: 1, block: 64, args: [buf('iin'), buf('iout'), i32(40)] },
      { kernel: '_Z8blockSumIiLj64ELb1EEvPKT_PS0_', grid: 2, block: 64, args: [buf('iin'), buf('isum')] },
      { kernel: '_Z8blockSumIiLj32ELb0EEvPKT_PS0_', grid: 2, block: 32, args: [buf('iin'), buf('isum')] },
      { kernel: '_Z11scaleKernelIdEvPKT_PS0_i', grid: 1, block: 64, args: [buf('din'), buf('dout'), i32(16)] },
      { kernel: '_Z10fillKernelIfEvPT_S0_', grid: 1, block: 32, args: [buf('ff'), f32(2.5)] },
      { kernel: '_Z10fillKernelIjEvPT_S0_', grid: 1, block: 32, args: [buf('uf'), u32(7)] },
    ],
  },
  {
    name: 'cxx2_hostinst_levels',
    buffers: {
      iin: { type: 'i32', n: 32, init: gen(j => j * 2 + 1) }, iout: { type: 'i32', n: 32 },
      fin: { type: 'f32', n: 32, init: gen(j => j * 2 + 1) }, fout: { type: 'f32', n: 32 },
      din: { type: 'f64', n: 32, init: gen(j => j * 2 + 1) }, dout: { type: 'f64', n: 32 },
      pairs: { type: 'i32', n: 64, init: gen(j => (j % 2 === 0 ? j / 2 : 100 - (j - 1) / 2)) },
    },
    launches: [
      { kernel: '_Z7stridedIiLi5EEvPKT_PS0_', grid: 1, block: 32, args: [buf('iin'), buf('iout')] },
      { kernel: '_Z7stridedIfLi5EEvPKT_PS0_', grid: 1, block: 32, args: [buf('fin'), buf('fout')] },
      { kernel: '_Z7stridedIdLi5EEvPKT_PS0_', grid: 1, block: 32, args: [buf('din'), buf('dout')] },
      { kernel: '_Z9swapPairsI4PairEvPT_', grid: 1, block: 32, args: [buf('pairs')] },
    ],
  },
  {
    name: 'cxx2_hostinst_shadow',
    buffers: {
      iin: { type: 'i32', n: 64, init: gen(j => j % 5) }, sum: { type: 'i32', n: 1 },
      f: { type: 'f32', n: 32, init: gen(j => j - 10) }, l: { type: 'i64', n: 32, init: gen(j => j - 10) },
    },
    launches: [
      { kernel: '_Z8sumBlockILj64ELb1EEvPKiPi', grid: 1, block: 64, args: [buf('iin'), buf('sum')] },
      { kernel: '_Z8sumBlockILj32ELb0EEvPKiPi', grid: 1, block: 32, args: [buf('iin'), buf('sum')] },
      { kernel: '_ZN4work6negateIfEEvPT_', grid: 1, block: 32, args: [buf('f')] },
      { kernel: '_ZN4work6negateIxEEvPT_', grid: 1, block: 32, args: [buf('l')] },
    ],
  },
  {
    // overloaded host templates: explicit instantiations name their overload; calls with deduced arguments
    name: 'cxx2_hostinst_overloads',
    buffers: {
      wide: { type: 'i32', n: 8, init: gen(j => 4 * j - 9) }, narrow: { type: 'i8', n: 8, init: gen(j => j - 3) }, out: { type: 'i8', n: 8 },
      fb: { type: 'f32', n: 8, init: gen(j => j * 0.75) }, db: { type: 'f64', n: 8, init: gen(j => 2.5 - j) }, ib: { type: 'i32', n: 8, init: gen(j => j * 3 - 7) },
      sb: { type: 'i16', n: 8, init: gen(j => 5 - j * 2) },
    },
    launches: [
      { kernel: '_ZN3ops10scale_wideEPaPKiPKfi', grid: 1, block: 8, args: [buf('out'), buf('wide'), buf('fb'), i32(8)] },
      { kernel: '_ZN3ops12scale_narrowIfEEvPaPKaPKT_i', grid: 1, block: 8, args: [buf('out'), buf('narrow'), buf('fb'), i32(7)] },
      { kernel: '_ZN3ops12scale_narrowIdEEvPaPKaPKT_i', grid: 1, block: 8, args: [buf('out'), buf('narrow'), buf('db'), i32(6)] },
      { kernel: '_ZN3ops12scale_narrowIiEEvPaPKaPKT_i', grid: 1, block: 8, args: [buf('out'), buf('narrow'), buf('ib'), i32(8)] },
      { kernel: '_ZN3ops12scale_narrowIsEEvPaPKaPKT_i', grid: 1, block: 8, args: [buf('out'), buf('narrow'), buf('sb'), i32(8)] },
    ],
  },
  {
    // explicit specialisations of a host template: ordinary functions, whose launches count called or not
    name: 'cxx2_hostinst_host_spec',
    buffers: {
      fin: { type: 'f32', n: 8, init: gen(j => j * 1.25 - 2) }, fout: { type: 'f32', n: 8 },
      iin: { type: 'i32', n: 8, init: gen(j => 3 * j - 11) }, iout: { type: 'i32', n: 8 },
      din: { type: 'f64', n: 8, init: gen(j => j / 3) }, dout: { type: 'f64', n: 8 }, lout: { type: 'i64', n: 8, init: gen(j => j + 40) },
    },
    launches: [
      { kernel: '_ZN3att9scoreWideIfEEvPT_PKS1_iS1_', grid: 1, block: 8, args: [buf('fout'), buf('fin'), i32(7), f32(0.5)] },
      { kernel: '_ZN3att10scoreSmallIiEEvPT_PKS1_i', grid: 1, block: 8, args: [buf('iout'), buf('iin'), i32(8)] },
      { kernel: '_ZN3att10scoreSmallIdEEvPT_PKS1_i', grid: 1, block: 8, args: [buf('dout'), buf('din'), i32(6)] },
      { kernel: '_ZN3att6unusedIxEEvPT_', grid: 1, block: 4, args: [buf('lout')] },
    ],
  },
  {
    // specialisations reached through cudaLaunchKernel, a function pointer and a table of kernel pointers
    name: 'cxx2_hostinst_launch_ptrs',
    buffers: { f: { type: 'f32', n: 8, init: gen(j => j * 0.5 - 1) }, i: { type: 'i32', n: 8, init: gen(j => j * 5 - 17) } },
    launches: [
      { kernel: '_Z4axpbIfLi2EEvPT_S0_i', grid: 1, block: 8, args: [buf('f'), f32(3), i32(8)] },
      { kernel: '_Z4axpbIfLi1EEvPT_S0_i', grid: 1, block: 8, args: [buf('f'), f32(-2), i32(7)] },
      { kernel: '_Z6squareIiEvPT_i', grid: 1, block: 8, args: [buf('i'), i32(8)] },
      { kernel: '_Z4axpbIiLi5EEvPT_S0_i', grid: 1, block: 8, args: [buf('i'), i32(3), i32(6)] },
      { kernel: '_Z4axpbIiLi7EEvPT_S0_i', grid: 1, block: 8, args: [buf('i'), i32(1), i32(8)] },
    ],
  },
  {
    // operator-> on a class: in device code (drilled down) and in host code read for a member's launch
    name: 'cxx2_arrow_operator',
    buffers: { d: { type: 'f64', n: 40 }, pairs: { type: 'i32', n: 16, init: gen(j => (j % 2 === 0 ? j : 50 - j)) } },
    launches: [
      { kernel: '_Z8gpu_fillIdEviT_PS0_', grid: 2, block: 32, args: [i32(37), f64(2.5), buf('d')] },
      { kernel: '_Z9swapPairsP4Pairi', grid: 1, block: 8, args: [buf('pairs'), i32(7)] },
    ],
  },
  // Programs of the C++ corpus work (issue 24); also compared with the real cicc in test/cxx.test.ts and run with
  // their own host checks in test/cxx-run.test.ts.
  {
    name: 'cxx2_corpus_gpumd',
    buffers: { r: { type: 'f32', n: 40, init: gen(j => (j - 8) * 0.37) }, out: { type: 'f32', n: 40 } },
    launches: [{ kernel: '_Z8screenedPKfPfi', grid: 2, block: 32, args: [buf('r'), buf('out'), i32(37)] }],
  },
  {
    name: 'cxx2_corpus_trt',
    buffers: {
      o: { type: 'f32', n: 16 }, q: { type: 'i32', n: 8 }, r: { type: 'i32', n: 8 },
      boxes: { type: 'f32', n: 32, init: gen(j => ((j * 7) % 11) - 3) }, sizes: { type: 'f32', n: 8 },
      counts: { type: 'i32', n: 8, init: gen(j => j * 41 - 5) }, out: { type: 'i32', n: 8 },
    },
    launches: [
      { kernel: '_Z6bracesP6float4P4PairPi', grid: 1, block: 4, args: [buf('o'), buf('q'), buf('r')] },
      { kernel: '_Z6kernelPK4BboxIfEPfPKiPi', grid: 1, block: 8, args: [buf('boxes'), buf('sizes'), buf('counts'), buf('out')] },
    ],
  },
  {
    name: 'cxx2_hostinst_deduced_inst',
    buffers: {
      // 16 threads for 12 elements: the last four fail the kernel's `i < k`
      fs: { type: 'f32', n: 16, init: gen(j => j * 1.5) }, fd: { type: 'f32', n: 16 },
      is: { type: 'i32', n: 16, init: gen(j => j * 3 - 7) }, id: { type: 'i32', n: 16 },
    },
    launches: [
      { kernel: '_ZN2ft9transposeIfEEvPT_PKS1_ii', grid: 1, block: 16, args: [buf('fd'), buf('fs'), i32(3), i32(4)] },
      { kernel: '_ZN2ft9transposeIiEEvPT_PKS1_ii', grid: 1, block: 16, args: [buf('id'), buf('is'), i32(4), i32(3)] },
    ],
  },
  {
    name: 'cxx2_hostinst_enums',
    buffers: { in: { type: 'i32', n: 8, init: gen(j => j + 1) }, o4: { type: 'i32', n: 1 }, o8: { type: 'i32', n: 1 }, o2: { type: 'i32', n: 1 },
      t3: { type: 'i32', n: 2 }, t4: { type: 'i32', n: 2 } },
    launches: [
      { kernel: '_Z6rowSumILi4EEvPKiPi', grid: 1, block: 32, args: [buf('in'), buf('o4')] },
      { kernel: '_Z6rowSumILi8EEvPKiPi', grid: 1, block: 32, args: [buf('in'), buf('o8')] },
      { kernel: '_Z6rowSumILi2EEvPKiPi', grid: 1, block: 32, args: [buf('in'), buf('o2')] },
      { kernel: '_Z9tagKernelIL11color_space3EEvPi', grid: 1, block: 2, args: [buf('t3')] },
      { kernel: '_Z9tagKernelIL11color_space4EEvPi', grid: 1, block: 2, args: [buf('t4')] },
    ],
  },
  {
    name: 'cxx2_hostinst_specs',
    buffers: {
      fi: { type: 'i32', n: 32 }, fd: { type: 'f64', n: 32 }, ff: { type: 'f32', n: 32 },
      sin: { type: 'f32', n: 32, init: gen(j => j * 0.25 - 3) }, s11: { type: 'f32', n: 32 }, s10: { type: 'f32', n: 32 },
      iin: { type: 'i32', n: 32, init: gen(j => j * 5 - 40) }, i01: { type: 'i32', n: 32 }, i00: { type: 'i32', n: 32 },
    },
    launches: [
      { kernel: '_Z4fillIiEvPT_i', grid: 1, block: 32, args: [buf('fi'), i32(20)] },
      { kernel: '_Z4fillIdEvPT_i', grid: 1, block: 32, args: [buf('fd'), i32(20)] },
      { kernel: '_Z4fillIfEvPT_i', grid: 1, block: 32, args: [buf('ff'), i32(20)] },
      { kernel: '_Z6scaledIfLb1ELb1EEviPKT_PS0_', grid: 1, block: 32, args: [i32(25), buf('sin'), buf('s11')] },
      { kernel: '_Z6scaledIfLb1ELb0EEviPKT_PS0_', grid: 1, block: 32, args: [i32(25), buf('sin'), buf('s10')] },
      { kernel: '_Z6scaledIiLb0ELb1EEviPKT_PS0_', grid: 1, block: 32, args: [i32(30), buf('iin'), buf('i01')] },
      { kernel: '_Z6scaledIiLb0ELb0EEviPKT_PS0_', grid: 1, block: 32, args: [i32(30), buf('iin'), buf('i00')] },
    ],
  },
];
