// The <cmath> overloads the CUDA headers redeclare `__host__ __device__ __cudart_builtin__` (std::sqrt(float),
// std::abs(double), std::isnan(float), ...). They carry the C name of the double version, so the device
// function that implements them depends on the parameter types: std::sqrt(float) is sqrtf, std::abs(float)
// is fabsf, std::isnan(double) is __isnan. cicc maps them the same way (same libdevice calls in its PTX).
import { Unsupported } from '../diagnostics';
import { T, cInt, cFP } from '../middle/ir';
import { callIntrinsic } from './builtins-util';
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
  const p0 = params[0];
  if (CLASSIFY[name] && retBool && args.length === 1 && p0 && (p0.k === 'float' || p0.k === 'double')) {
    // what libdevice's __nv_isnanf & co. compute, as one comparison (cicc's PTX after inlining is the same)
    const b = ctx.b, x = args[0]!, fty = p0.k === 'float' ? T.f32 : T.f64;
    let c: Value;
    if (name === 'isnan') c = b.fcmp('uno', x, x);
    else if (name === 'signbit') { const it = p0.k === 'float' ? T.i32 : T.i64; c = b.icmp('slt', b.cast('bitcast', x, it), cInt(it, 0)); }
    else {
      const ax = callIntrinsic(b, ctx.m, `llvm.fabs.${p0.k === 'float' ? 'f32' : 'f64'}`, fty, [x]);
      c = b.fcmp(name === 'isinf' ? 'oeq' : 'olt', ax, cFP(fty, Infinity));
    }
    return b.cast('zext', c, retTy);
  }
  const r = lowerBuiltinCall(ctx, cudartBuiltinName(name, params), args, retBool ? T.i32 : retTy);
  // the classification builtins return int (0/1 in libdevice); bool is "not zero"
  if (r && retBool && r.ty.k === 'int') return ctx.b.cast('zext', ctx.b.icmp('ne', r, cInt(r.ty, 0)), retTy);
  return r;
}
