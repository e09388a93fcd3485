// Which CUDA math/conversion builtins are calls into libdevice (nvvm/libdevice/libdevice.10.bc).
// A device_builtin function NAME from the CUDA headers maps to the libdevice function
// `__nv_${NAME without leading underscores}` with the same prototype, except for the renames below.
// Builtins that builtins.ts lowers to IR or inline asm itself are not listed here.

/** CUDA builtin names whose libdevice function is `__nv_` + the name with its leading `__` removed. */
const DIRECT =
  'fminf fmin fmaxf fmax sin cos sincos sincosf tan sqrt rsqrt rsqrtf log2 exp2 exp2f exp10 exp10f expm1 expm1f ' +
  'log2f log10 log log1p log1pf floor exp cosh sinh tanh acosh acoshf asinh asinhf atanh atanhf ldexp ldexpf ' +
  'logb logbf ilogb ilogbf scalbn scalbnf frexp frexpf round roundf llround llroundf rint rintf llrint llrintf ' +
  'nearbyint nearbyintf ceil trunc truncf fdim fdimf atan2 atan acos asin hypot rhypot hypotf rhypotf norm3d ' +
  'rnorm3d norm4d rnorm4d norm rnorm rnormf normf norm3df rnorm3df norm4df rnorm4df cbrt cbrtf rcbrt rcbrtf ' +
  'sinpi sinpif cospi cospif sincospi sincospif pow modf fmod remainder remainderf remquo remquof j0 j0f j1 j1f ' +
  'jn jnf y0 y0f y1 y1f yn ynf cyl_bessel_i0 cyl_bessel_i0f cyl_bessel_i1 cyl_bessel_i1f erf erff erfinv erfinvf ' +
  'erfc erfcf lgamma erfcinv erfcinvf normcdfinv normcdfinvf normcdf normcdff erfcx erfcxf lgammaf tgamma ' +
  'tgammaf copysign copysignf nextafter nextafterf nan nanf __isinff __isnanf __finitef __signbitf acosf asinf ' +
  'atanf atan2f cosf sinf tanf coshf sinhf tanhf logf expf log10f modff powf sqrtf ceilf floorf fmodf ' +
  '__saturatef __float2int_rn __float2int_rz __float2int_ru __float2int_rd __float2uint_rn __float2uint_rz ' +
  '__float2uint_ru __float2uint_rd __int2float_rn __int2float_rz __int2float_ru __int2float_rd __uint2float_rn ' +
  '__uint2float_rz __uint2float_ru __uint2float_rd __float2ll_rn __float2ll_rz __float2ll_ru __float2ll_rd ' +
  '__float2ull_rn __float2ull_rz __float2ull_ru __float2ull_rd __ll2float_rn __ll2float_rz __ll2float_ru ' +
  '__ll2float_rd __ull2float_rn __ull2float_rz __ull2float_ru __ull2float_rd __fadd_rn __fadd_rz __fadd_ru ' +
  '__fadd_rd __fsub_rn __fsub_rz __fsub_ru __fsub_rd __fmul_rn __fmul_rz __fmul_ru __fmul_rd __fmaf_rn __fmaf_rz ' +
  '__fmaf_ru __fmaf_rd __frcp_rn __frcp_rz __frcp_ru __frcp_rd __fsqrt_rn __fsqrt_rz __fsqrt_ru __fsqrt_rd ' +
  '__frsqrt_rn __fdiv_rn __fdiv_rz __fdiv_ru __fdiv_rd __double2int_rz __double2uint_rz __double2ll_rz ' +
  '__double2ull_rz __fma_rn __fma_rz __fma_ru __fma_rd __dadd_rn __dadd_rz __dadd_ru __dadd_rd __dsub_rn ' +
  '__dsub_rz __dsub_ru __dsub_rd __dmul_rn __dmul_rz __dmul_ru __dmul_rd __double2float_rn __double2float_rz ' +
  '__double2float_ru __double2float_rd __double2int_rn __double2int_ru __double2int_rd __double2uint_rn ' +
  '__double2uint_ru __double2uint_rd __double2ll_rn __double2ll_ru __double2ll_rd __double2ull_rn ' +
  '__double2ull_ru __double2ull_rd __int2double_rn __uint2double_rn __ll2double_rn __ll2double_rz __ll2double_ru ' +
  '__ll2double_rd __ull2double_rn __ull2double_rz __ull2double_ru __ull2double_rd __ddiv_rn __ddiv_rz __ddiv_ru ' +
  '__ddiv_rd __drcp_rn __drcp_rz __drcp_ru __drcp_rd __dsqrt_rn __dsqrt_rz __dsqrt_ru __dsqrt_rd __fmaf_ieee_rn ' +
  '__fmaf_ieee_rd __fmaf_ieee_ru __fmaf_ieee_rz ' +  '';

/** CUDA names whose libdevice function is spelled differently. */
export const LIBDEVICE_RENAMES: ReadonlyMap<string, string> = new Map([
  ['__sinf', '__nv_fast_sinf'], ['__cosf', '__nv_fast_cosf'], ['__tanf', '__nv_fast_tanf'],
  ['__tanhf', '__nv_fast_tanhf'], ['__sincosf', '__nv_fast_sincosf'], ['__expf', '__nv_fast_expf'],
  ['__exp10f', '__nv_fast_exp10f'], ['__log2f', '__nv_fast_log2f'], ['__log10f', '__nv_fast_log10f'],
  ['__logf', '__nv_fast_logf'], ['__powf', '__nv_fast_powf'],
  ['__fdividef', '__nv_fast_fdividef'], ['fdividef', '__nv_fast_fdividef'],
  // long is 64-bit on the device
  ['labs', '__nv_llabs'], ['lround', '__nv_llround'], ['lroundf', '__nv_llroundf'],
  ['lrint', '__nv_llrint'], ['lrintf', '__nv_llrintf'],
  // glibc classification helpers declared device_builtin by the CUDA headers
  ['__finite', '__nv_isfinited'], ['__isnan', '__nv_isnand'], ['__isinf', '__nv_isinfd'], ['__signbit', '__nv_signbitd'],
]);

const DIRECT_SET: ReadonlySet<string> = new Set(DIRECT.split(' ').filter(s => s !== ''));

/** The libdevice function implementing CUDA builtin `name`, or null. */
export function libdeviceName(name: string): string | null {
  const r = LIBDEVICE_RENAMES.get(name);
  if (r) return r;
  if (DIRECT_SET.has(name)) return '__nv_' + name.replace(/^__/, '');
  return null;
}

/** All CUDA names handled by a libdevice call (for tests and coverage reports). */
export function libdeviceBuiltinNames(): string[] { return [...DIRECT_SET, ...LIBDEVICE_RENAMES.keys()]; }
