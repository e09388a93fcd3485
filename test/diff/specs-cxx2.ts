// Differential specs of the C++ language programs test/kernels/cxx2_*.cu (issue 8, cxxa): one per program,
// launched as each program's main() does (one block of 32 threads unless said otherwise).
import { type KernelSpec, buf, gen, i32, f32 } from './spec';

/** main()'s input of cxx2_class_member_templates: (j * 7) % 23 - 11. */
const MOD23 = gen(j => ((j * 7) % 23) - 11);

export const SPECS_CXX2: KernelSpec[] = [
  {
    name: 'cxx2_operator_partial_order',
    buffers: { din: { type: 'i32', n: 40, init: gen(j => (j * 5) % 11) }, dout: { type: 'i32', n: 32 * 4 } },
    launches: [{ kernel: '_Z20operatorPartialOrderPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_range_for_iterators',
    buffers: { din: { type: 'f32', n: 64, init: gen(j => (j % 9) * 0.5 - 1) }, dfo: { type: 'f32', n: 32 }, dio: { type: 'i32', n: 32 * 3 } },
    launches: [{ kernel: '_Z17rangeForIteratorsPKfPfPi', grid: 1, block: 32, args: [buf('din'), buf('dfo'), buf('dio')] }],
  },
  {
    name: 'cxx2_extern_c_block',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 13) - 6) }, dout: { type: 'i32', n: 32 * 3 } },
    launches: [
      { kernel: 'externCFirst', grid: 1, block: 32, args: [buf('din'), buf('dout')] },
      { kernel: 'externCSecond', grid: 1, block: 32, args: [buf('din'), buf('dout')] },
      { kernel: 'externCThird', grid: 1, block: 32, args: [buf('dout')] },
    ],
  },
  {
    name: 'cxx2_lambda_names',
    buffers: { dp: { type: 'f32', n: 32, init: gen(i => 0.5 * i - 4.0) }, dq: { type: 'i32', n: 32, init: gen(i => 3 * i - 20) } },
    launches: [{ kernel: 'lambdaNames', grid: 1, block: 32, args: [buf('dp'), buf('dq'), f32(1.5)] }],
  },
  {
    name: 'cxx2_cv_overloads',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 3) % 11) - 5) }, di: { type: 'i32', n: 32 * 4 } },
    launches: [{ kernel: 'cvOverloads', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_bitfields',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 19) - 9) }, di: { type: 'i32', n: 32 * 8 } },
    launches: [{ kernel: 'bitfields', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_template_statics',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 9) - 2) }, di: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: 'templateStatics', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_dependent_bases',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 13) % 23) - 11) }, di: { type: 'i32', n: 32 * 3 }, df: { type: 'f32', n: 32 * 2 } },
    launches: [{ kernel: 'dependentBases', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_lambdas_in_templates',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 3) % 7) - 3) }, di: { type: 'i32', n: 32 * 4 }, df: { type: 'f32', n: 32 * 2 } },
    launches: [{ kernel: 'lambdasInTemplates', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_variadic_utils',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 9) % 19) - 9) }, di: { type: 'i32', n: 32 * 7 } },
    launches: [{ kernel: 'variadicUtils', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_lambda_algorithms',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 11) % 17) - 8) }, di: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: 'lambdaAlgorithms', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_ctor_template_default',
    buffers: { dout: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'boxes', grid: 1, block: 32, args: [buf('dout')] }],
  },
  {
    name: 'cxx2_paren_param_names',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 23) - 11) }, dout: { type: 'i32', n: 32 } },
    launches: [{ kernel: 'paren_names', grid: 1, block: 32, args: [buf('dout'), buf('din')] }],
  },
  {
    name: 'cxx2_destructor_templates',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 7) - 3) }, dout: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: 'destructorTemplates', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_converting_ctors',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 10) - 4) }, di: { type: 'i32', n: 32 * 3 }, df: { type: 'f32', n: 32 * 3 } },
    launches: [{ kernel: 'convertingCtors', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_functor_compose',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 12) - 6) }, di: { type: 'i32', n: 32 * 4 }, df: { type: 'f32', n: 32 * 2 } },
    launches: [{ kernel: 'functorCompose', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_crtp',
    buffers: { din: { type: 'f32', n: 32, init: gen(j => (j % 9) * 0.5) }, df: { type: 'f32', n: 32 * 3 }, di: { type: 'i32', n: 32 * 3 } },
    launches: [{ kernel: 'crtp', grid: 1, block: 32, args: [buf('din'), buf('df'), buf('di')] }],
  },
  {
    name: 'cxx2_type_lists',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => j - 10) }, di: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: 'typeLists', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_variadic_printf',
    buffers: { din: { type: 'i32', n: 4, init: gen(j => [10, -3, 7, 42][j]!) } },
    launches: [{ kernel: 'variadicPrintf', grid: 1, block: 32, args: [buf('din')] }],
  },
  {
    name: 'cxx2_tuple',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 3) % 16) - 8) }, di: { type: 'i32', n: 32 * 4 }, df: { type: 'f32', n: 32 * 2 } },
    launches: [{ kernel: 'tuples', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_policy_classes',
    buffers: { din: { type: 'i32', n: 200, init: gen(j => ((j * 37) % 101) - 50) }, dout: { type: 'i32', n: 4 } },
    launches: [{ kernel: 'policyClasses', grid: 1, block: 64, args: [buf('din'), i32(200), buf('dout')] }],
  },
  {
    name: 'cxx2_enable_if',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 13) - 6) }, di: { type: 'i32', n: 32 * 5 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'enableIf', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_static_vector',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 15) - 7) }, di: { type: 'i32', n: 32 * 5 }, df: { type: 'f32', n: 32 * 2 } },
    launches: [{ kernel: 'staticVector', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_scope_exit',
    buffers: {
      din: { type: 'i32', n: 32, init: gen(j => (j % 3 === 0 ? 0 : j % 3 === 1 ? -j : j)) }, dout: { type: 'i32', n: 32 * 4 },
      dlock: { type: 'i32', n: 32 }, dshared: { type: 'i32', n: 1 },
    },
    launches: [{ kernel: 'scopeExit', grid: 1, block: 32, args: [buf('din'), buf('dout'), buf('dlock'), buf('dshared')] }],
  },

  {
    name: 'cxx2_fixed_matrix',
    // caught a miscompile: SROA kept only the first row of a 2-D local array in memory for a dynamic row index
    buffers: { din: { type: 'f32', n: 64, init: gen(j => ((j * 13) % 9) * 0.25 - 1) }, df: { type: 'f32', n: 32 * 4 }, di: { type: 'i32', n: 32 * 3 } },
    launches: [{ kernel: 'fixedMatrix', grid: 1, block: 32, args: [buf('din'), buf('df'), buf('di')] }],
  },
  {
    name: 'cxx2_generic_lambdas',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 3) % 11) - 5) }, di: { type: 'i32', n: 32 * 6 }, df: { type: 'f32', n: 32 * 3 } },
    launches: [{ kernel: 'genericLambdas', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_lambdas_more',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 17) - 8) }, di: { type: 'i32', n: 32 * 8 } },
    launches: [{ kernel: 'lambdasMore', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_anonymous_members',
    buffers: { din: { type: 'f32', n: 32, init: gen(j => (j % 7) * 0.5 - 1) }, di: { type: 'i32', n: 32 * 6 }, df: { type: 'f32', n: 32 * 3 } },
    launches: [{ kernel: 'anonymousMembers', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_deduced_returns',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 12) - 5) }, di: { type: 'i32', n: 32 * 6 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'deducedReturns', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_destructors',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 9) - 4) }, dout: { type: 'i32', n: 32 * 8 } },
    launches: [{ kernel: 'destructors', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'cxx2_variadic_forward',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 9) % 14) - 6) }, di: { type: 'i32', n: 32 * 8 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'variadicForward', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_fold_expressions',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 7) % 13) - 5) }, di: { type: 'i32', n: 32 * 12 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'foldExpressions', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_variadic_recursion',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 11) % 19) - 9) }, di: { type: 'i32', n: 32 * 8 }, df: { type: 'f32', n: 32 } },
    launches: [{ kernel: 'variadicRecursion', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_dependent_names',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 3) % 10) - 2) }, di: { type: 'i32', n: 32 * 5 }, dd: { type: 'f64', n: 32 } },
    launches: [{ kernel: 'dependentNames', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('dd')] }],
  },
  {
    name: 'cxx2_out_of_line',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 13) % 17) - 8) }, di: { type: 'i32', n: 32 * 6 }, df: { type: 'f32', n: 32 * 2 } },
    launches: [{ kernel: 'outOfLine', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_partial_spec',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => ((j * 5) % 11) - 3) }, di: { type: 'i32', n: 32 * 6 } },
    launches: [{ kernel: 'partialSpec', grid: 1, block: 32, args: [buf('din'), buf('di')] }],
  },
  {
    name: 'cxx2_class_member_templates',
    buffers: { din: { type: 'i32', n: 128, init: MOD23 }, di: { type: 'i32', n: 32 * 3 }, df: { type: 'f32', n: 32 * 3 } },
    launches: [{ kernel: 'classMemberTemplates', grid: 1, block: 32, args: [buf('din'), buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_member_templates',
    buffers: { di: { type: 'i32', n: 32 * 8 }, df: { type: 'f32', n: 32 * 2 } },
    launches: [{ kernel: 'memberTemplates', grid: 1, block: 32, args: [buf('di'), buf('df')] }],
  },
  {
    name: 'cxx2_constinit_ctors',
    buffers: { dout: { type: 'i32', n: 31 } },
    launches: [{ kernel: '_Z11readGlobalsPi', grid: 1, block: 1, args: [buf('dout')] }],
  },
  {
    name: 'cxx2_noexcept_op',
    buffers: { din: { type: 'i32', n: 32, init: gen(j => j * 3 - 7) }, dout: { type: 'i32', n: 32 } },
    launches: [{ kernel: '_Z10noexceptOpPKiPi', grid: 1, block: 32, args: [buf('din'), buf('dout')] }],
  },
  {
    name: 'rdc_statics',
    compileOnly: 'its kernels are named by the module id (__nv_static_, -rdc) and read a variable the host writes; test/rdc.test.ts compares the names with cicc and links two units, the GPU check runs it',
    buffers: {}, launches: [],
  },
];
