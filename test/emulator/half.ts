// 16-bit floating point (IEEE binary16 `.f16` and bfloat16 `.bf16`) for the emulator: decode, round the
// exact value (an f64 plus its error term) once in any IEEE mode, encode. Every f16/bf16 value is exact in
// f64, so an operation computes in f64 (with the two-sum error where the f64 result is not exact) and
// rounds once here.
import { RN, RZ, RM, RP } from './fp';

export interface HalfFormat {
  /** Stored mantissa bits. */
  mant: number;
  /** Exponent bias; the smallest normal exponent is 1 - bias, the largest bias. */
  bias: number;
  /** Exponent field width. */
  ebits: number;
}
export const F16: HalfFormat = { mant: 10, bias: 15, ebits: 5 };
export const BF16: HalfFormat = { mant: 7, bias: 127, ebits: 8 };

/** The canonical NaN that PTX f16/bf16 arithmetic produces. */
const CANONICAL_NAN = 0x7fff;

/** floor(log2(a)) for a finite a > 0, exactly. */
function exponentOf(a: number): number {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  return e;
}

export function decodeHalf(bits: number, f: HalfFormat): number {
  const sign = (bits >> 15) & 1 ? -1 : 1;
  const emask = (1 << f.ebits) - 1;
  const e = (bits >> f.mant) & emask;
  const m = bits & ((1 << f.mant) - 1);
  if (e === emask) return m ? NaN : sign * Infinity;
  if (e === 0) return sign * m * 2 ** (1 - f.bias - f.mant);
  return sign * (1 + m / 2 ** f.mant) * 2 ** (e - f.bias);
}

/** Bits of a value already representable in the format (±0, ±inf, NaN included). */
export function encodeHalf(v: number, f: HalfFormat): number {
  if (v !== v) return CANONICAL_NAN;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  const emask = (1 << f.ebits) - 1;
  if (a === Infinity) return sign | (emask << f.mant);
  if (a === 0) return sign;
  const emin = 1 - f.bias;
  if (a < 2 ** emin) return sign | Math.round(a / 2 ** (emin - f.mant));
  const e = exponentOf(a);
  const m = Math.round((a / 2 ** e - 1) * 2 ** f.mant);
  return sign | ((e + f.bias) << f.mant) | m;
}

/**
 * Round the exact value x + err (x an f64, err its tiny error term, 0 when x is exact) to the format in
 * mode (0 or RN: nearest even). Returns the rounded value as a Number (±inf on overflow where the mode says so).
 */
export function roundHalf(x: number, err: number, mode: number, f: HalfFormat): number {
  if (x !== x || x === Infinity || x === -Infinity) return x;
  if (x === 0 && err === 0) return x;
  const neg = x < 0 || (x === 0 && err < 0);
  const a = Math.abs(x), ea = neg ? -err : err;          // exact magnitude = a + ea
  const emin = 1 - f.bias;
  const e = a === 0 ? emin : Math.max(exponentOf(a), emin);
  const q = 2 ** (e - f.mant);
  const sc = a / q;
  const lo = Math.floor(sc);
  const rem = sc - lo;
  const up = mode === RP ? !neg : mode === RM ? neg : false;  // directed mode rounding the magnitude up
  let m: number;
  if (mode === RN || mode === 0) {
    if (rem > 0.5 || (rem === 0.5 && (ea > 0 || (ea === 0 && lo % 2 === 1)))) m = lo + 1;
    else m = lo;
  } else if (up) {
    m = rem > 0 || (rem === 0 && ea > 0) ? lo + 1 : lo;
  } else {
    m = lo;
    if (rem === 0 && ea < 0) {
      // just below a representable value: one step down (a half step below a power of two in a normal binade)
      const v = lo * q - (lo === 2 ** f.mant && e > emin ? q / 2 : q);
      return neg ? -v : v;
    }
  }
  let v = m * q;
  const max = (2 - 2 ** -f.mant) * 2 ** f.bias;
  if (v > max) v = mode === RN || mode === 0 || up ? Infinity : max;
  return neg ? -v : v;
}

export { RN, RZ, RM, RP };
