// The <cmath> overloads the CUDA headers redeclare `__host__ __device__ __cudart_builtin__` (std::sqrt(float),
// std::abs(double), std::isnan(float), ...). They carry the C name of the double version, so the device
// function that implements them depends on the parameter types: std::sqrt(float) is sqrtf, std::abs(float)
// is fabsf, std::isnan(double) is __isnan. cicc maps them the same way (same libdevice calls in its PTX).
import { Unsupported } from '../diagnostics';
import { T, cInt } from '../middle/ir';
import type { Type, Value } from '../middle/ir';
import type { CType } from './ctype';
import { lowerBuiltinCall, type BuiltinCtx } from './builtins';

/** Classification functions: [float builtin, double builtin]. */
const CLASSIFY: Record<string, [string, string]> = {
  isnan: ['__isnanf', '__isnan'], isinf: ['__isinff', '__isinf'], isfinite: ['__finitef', '__finite'], signbit: ['__signbitf', '__signbit'],
};

/** The CUDA builtin implementing cudart_builtin `name` for these parameter types. */
export function cudartBuiltinName(name: string, params: readonly CType[]): string {
  const p0 = params[0];
  if (params.some(p => p.k === 'ldouble')) throw new Unsupported('long double');
  const cls = CLASSIFY[name];
  if (cls && p0) return p0.k === 'float' ? cls[0] : cls[1];
  if (name === 'abs' && p0) {
    if (p0.k === 'float') return 'fabsf';
    if (p0.k === 'double') return 'fabs';
    if (p0.k === 'int' && p0.bits === 64) return 'llabs';
    return 'abs';
  }
  // the float overload of a C math function is the C name with an f suffix (sqrt → sqrtf, frexp(float, int*) → frexpf)
  if (p0 && p0.k === 'float') return name + 'f';
  return name;
}

/**
 * Lower a call of a cudart_builtin function whose result has IR type retTy (bool: retBool, retTy i8). null if
 * no builtin implements it.
 */
export function lowerCudartBuiltin(ctx: BuiltinCtx, name: string, params: readonly CType[], args: Value[], retTy: Type, retBool: boolean): Value | undefined | null {
  const r = lowerBuiltinCall(ctx, cudartBuiltinName(name, params), args, retBool ? T.i32 : retTy);
  // the classification builtins return int (0/1 in libdevice); bool is "not zero"
  if (r && retBool && r.ty.k === 'int') return ctx.b.cast('zext', ctx.b.icmp('ne', r, cInt(r.ty, 0)), retTy);
  return r;
}
