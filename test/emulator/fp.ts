// Floating-point helpers: bit casts, f32 rounding in the four IEEE modes, flush-to-zero, exact f64 fma.
// JavaScript computes in f64; an f32 result is the f64 result rounded once more, which is exact for
// add/sub/mul/div/sqrt of f32 inputs under round-to-nearest. For fma and the directed modes the f64
// result is corrected with its exact error term (two-sum), so every mode rounds the exact value once.

const f32 = new Float32Array(1);
const f32i = new Int32Array(f32.buffer);
const f64 = new Float64Array(1);
const f64i = new Int32Array(f64.buffer);

export function bitsToF32(b: number): number { f32i[0] = b; return f32[0]!; }
/** f32 value -> bits; NaN becomes the canonical 0x7fffffff that PTX arithmetic produces. */
export function f32ToBits(x: number): number {
  if (x !== x) return 0x7fffffff;
  f32[0] = x;
  return f32i[0]!;
}
/** Bits of an f32 value without canonicalising NaN (moves, loads). */
export function f32RawBits(x: number): number { f32[0] = x; return f32i[0]!; }
export function bitsToF64(lo: number, hi: number): number { f64i[0] = lo; f64i[1] = hi; return f64[0]!; }
export let outLo = 0;
export let outHi = 0;
/** f64 -> bits in outLo/outHi; NaN canonical (0x7fffffff_ffffffff... PTX uses 0x7fffffffffffffff). */
export function f64ToBits(x: number): void {
  if (x !== x) { outLo = -1; outHi = 0x7fffffff; return; }
  f64[0] = x;
  outLo = f64i[0]!;
  outHi = f64i[1]!;
}

const MIN_NORMAL32 = 1.1754943508222875e-38;
const MIN_NORMAL64 = 2.2250738585072014e-308;
export function ftz32(x: number): number {
  return x !== 0 && x > -MIN_NORMAL32 && x < MIN_NORMAL32 ? (x < 0 ? -0 : 0) : x;
}
export function ftz64(x: number): number {
  return x !== 0 && x > -MIN_NORMAL64 && x < MIN_NORMAL64 ? (x < 0 ? -0 : 0) : x;
}

export function nextUp32(x: number): number {
  if (x !== x || x === Infinity) return x;
  if (x === 0) return bitsToF32(1);
  f32[0] = x;
  if (x > 0) f32i[0] = f32i[0]! + 1; else f32i[0] = f32i[0]! - 1;
  return f32[0]!;
}
export function nextDown32(x: number): number { return -nextUp32(-x); }

export function nextUp64(x: number): number {
  if (x !== x || x === Infinity) return x;
  if (x === 0) return 5e-324;
  f64[0] = x;
  let lo = f64i[0]! >>> 0;
  let hi = f64i[1]!;
  if (x > 0) { lo += 1; if (lo > 0xffffffff) { lo = 0; hi += 1; } } else { if (lo === 0) { lo = 0xffffffff; hi -= 1; } else lo -= 1; }
  f64i[0] = lo | 0; f64i[1] = hi;
  return f64[0]!;
}
export function nextDown64(x: number): number { return -nextUp64(-x); }

/** Rounding modes as in module.ts flags. */
export const RN = 1, RZ = 2, RM = 4, RP = 8;

/** Error term of a + b computed in f64 (two-sum): a + b == s + err exactly. */
export function twoSumErr(a: number, b: number, s: number): number {
  const bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

/** Round the exact value d + err (d an f64, |err| tiny next to d) to f32 in mode. */
export function round32(d: number, err: number, mode: number): number {
  if (d !== d) return d;
  let r = Math.fround(d);
  if (err === 0 && r === d) return r;
  if (mode === RN || mode === 0) {
    if (err === 0 || !isFinite(r)) return r;
    const other = d > r ? nextUp32(r) : d < r ? nextDown32(r) : r;
    if (other !== r && d - r === other - d) {
      // d is a tie between two f32 values: the true value lies on err's side.
      return err > 0 ? Math.max(r, other) : Math.min(r, other);
    }
    if (d === r) {
      // d itself is representable; err may push the exact value past half an ulp only if huge: not possible.
      return r;
    }
    return r;
  }
  const c = (r - d) - err; // sign of r - exact
  if (c > 0) {
    if (mode === RM || (mode === RZ && d + err > 0)) r = nextDown32(r);
  } else if (c < 0) {
    if (mode === RP || (mode === RZ && d + err < 0)) r = nextUp32(r);
  }
  return r;
}

/** Round the exact value d + err to f64 in a directed mode (d already round-to-nearest). */
export function round64(d: number, err: number, mode: number): number {
  if (mode === RN || mode === 0 || err === 0 || d !== d || !isFinite(d)) return d;
  if (err < 0) {
    if (mode === RM || (mode === RZ && d > 0)) return nextDown64(d);
  } else if (mode === RP || (mode === RZ && d < 0)) return nextUp64(d);
  return d;
}

// Exact product a*b = p + e (Dekker/Veltkamp), valid when no overflow.
const SPLIT = 134217729; // 2^27 + 1
let prodErr = 0;
function twoProd(a: number, b: number): number {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a), al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b), bl = b - bh;
  prodErr = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return p;
}

/** fma in f64 with one rounding (to nearest), except in extreme exponent ranges. */
export function fma64(a: number, b: number, c: number): number {
  if (!isFinite(a) || !isFinite(b) || !isFinite(c)) return a * b + c;
  const p = twoProd(a, b);
  const pe = prodErr;
  if (!isFinite(p)) return a * b + c;
  const s = p + c;
  const se = twoSumErr(p, c, s);
  // exact = s + se + pe; add the small terms then round once more.
  const tail = se + pe;
  const r = s + tail;
  if (r === 0 && s === 0) return p + c; // keep the sign rules of exact zero sums
  return r;
}

/** f32 fma with a single rounding in mode. The product of two f32 is exact in f64. */
export function fma32(a: number, b: number, c: number, mode: number): number {
  const p = a * b;
  const s = p + c;
  if (!isFinite(s) || s !== s) return Math.fround(s);
  const err = twoSumErr(p, c, s);
  if (s === 0 && err === 0) return mode === RM && !(Object.is(p, 0) && Object.is(c, 0)) ? -0 : s;
  return round32(s, err, mode);
}

/** Round to integer, ties to even. */
export function rint(x: number): number {
  if (!isFinite(x)) return x;
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f === 0 && x < 0 ? -0 : f;
  return f % 2 === 0 ? f : f + 1;
}
