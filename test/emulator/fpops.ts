// Division, reciprocal and square root as the GPU computes them. The IEEE forms (.rn/.rz/.rm/.rp) round the
// exact value once in the asked mode: the f64 result (correctly rounded to nearest) is corrected with its exact
// remainder (a - q*b, a - s*s; an fma makes it exact), whose sign says on which side the exact value lies.
// The approximate forms (.approx, .full, ex2/lg2/sin/cos/tanh) are not specified bit for bit, only within an
// error bound (PTX ISA, "Floating-Point Instructions"). They are modelled as the exact value moved by a
// pseudo-random number of ulps within that bound, chosen by a hash of the operation and its input bits: a
// program gets the same result for the same input every time (both compilations of a program agree when they
// run the same instruction), while an approximation where cicc asks for an exact result shows as a difference.

import * as fp from './fp';
import { fma64, RN, RZ, RM, RP } from './fp';

const f32 = new Float32Array(1);
const f32i = new Int32Array(f32.buffer);
const f64 = new Float64Array(1);
const f64i = new Int32Array(f64.buffer);

function bits32(x: number): number { f32[0] = x; return f32i[0]!; }
function bits64(x: number): number { f64[0] = x; return (f64i[0]! ^ Math.imul(f64i[1]!, 0x9e3779b1)) | 0; }

/** Operation keys for the hash (any distinct constants). */
export const K_RCP = 1, K_SQRT = 2, K_RSQRT = 3, K_EX2 = 4, K_LG2 = 5, K_SIN = 6, K_COS = 7, K_TANH = 8, K_DIV = 9, K_DIV_FULL = 10;

/** A well-mixed 32-bit hash of an operation key and one or two input bit patterns. */
function mix(key: number, a: number, b: number): number {
  let h = Math.imul(key ^ 0x85ebca6b, 0x27d4eb2f) ^ a;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= b;
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  h ^= h >>> 15;
  return h >>> 0;
}

/** An offset in [-k, k] chosen by the hash. */
function offset(h: number, k: number): number { return (h % (2 * k + 1)) - k; }

/** The f32 nearest the exact value `x`, moved by up to k ulps (never across zero or to infinity). */
export function approx32(x: number, k: number, key: number, a: number, b = 0): number {
  let r = Math.fround(x);
  // an exactly representable result (ex2 of an integer, rcp of a power of two) is exact on the GPU, and
  // libdevice relies on it (ex2.approx.ftz.f32 builds the 2^n scale of f64 tanh)
  if (r !== r || r === 0 || !isFinite(r) || r === x) return r;
  let n = offset(mix(key, bits32(a), bits32(b)), k);
  while (n > 0) { const u = fp.nextUp32(r); if (!isFinite(u) || u === 0) break; r = u; n--; }
  while (n < 0) { const d = fp.nextDown32(r); if (!isFinite(d) || d === 0) break; r = d; n++; }
  return r;
}

/** The f64 value `x` moved by up to k ulps (f64 approximations: rcp/rsqrt.approx.ftz.f64 seeds). */
export function approx64(x: number, k: number, key: number, a: number): number {
  if (x !== x || x === 0 || !isFinite(x) || isPow2(a)) return x;
  let n = offset(mix(key, bits64(a), 0x5bd1e995), k);
  let r = x;
  while (n > 0) { const u = fp.nextUp64(r); if (!isFinite(u) || u === 0) break; r = u; n--; }
  while (n < 0) { const d = fp.nextDown64(r); if (!isFinite(d) || d === 0) break; r = d; n++; }
  return r;
}

/** A power of two (its reciprocal, and the square root of an even power, are exact). */
function isPow2(a: number): boolean { f64[0] = a; return f64i[0] === 0 && (f64i[1]! & 0xfffff) === 0; }

const MAX32 = 3.4028234663852886e38;

/** An f32 overflow in a directed mode gives the largest finite value where the mode rounds toward zero. */
function overflow32(r: number, mode: number): number {
  if (r === Infinity && (mode === RZ || mode === RM)) return MAX32;
  if (r === -Infinity && (mode === RZ || mode === RP)) return -MAX32;
  return r;
}
function overflow64(r: number, mode: number): number {
  if (r === Infinity && (mode === RZ || mode === RM)) return Number.MAX_VALUE;
  if (r === -Infinity && (mode === RZ || mode === RP)) return -Number.MAX_VALUE;
  return r;
}

/** a / b for f32 operands, rounded once in mode. */
export function div32(a: number, b: number, mode: number): number {
  const q = a / b; // f32 operands: never over- or underflows in f64, and rounding q again to f32 is exact-rounding
  if (q !== q || !isFinite(q) || q === 0) return Math.fround(q);
  const rem = fma64(-q, b, a);                 // exact: the remainder of a correctly rounded quotient
  const err = rem / b;
  return overflow32(fp.round32(q, err, mode), mode);
}

/** x * 2^k, in steps that stay exact while the value moves toward 1 (scaling operands into a safe range). */
function ldexp(x: number, k: number): number {
  while (k > 1000) { x *= 2 ** 1000; k -= 1000; }
  while (k < -1000) { x *= 2 ** -1000; k += 1000; }
  return x * 2 ** k;
}
/** About the binary exponent of a finite non-zero x (within one: only used to scale into a safe range). */
function expOf(x: number): number { return Math.floor(Math.log2(Math.abs(x))); }

/**
 * The f64 remainders below are computed on operands scaled to about 1, so that the exact products inside
 * fma64 neither overflow nor underflow at the ends of the exponent range; only their sign is used.
 */

/** a / b in f64, rounded once in mode. */
export function div64(a: number, b: number, mode: number): number {
  const q = a / b;
  if (q !== q || a === 0 || !isFinite(a) || !isFinite(b) || b === 0) return q;
  if (q === 0) return fp.round64(q, a < 0 !== b < 0 ? -1 : 1, mode);   // underflow: the exact value is not zero
  if (!isFinite(q)) return overflow64(q, mode);
  if (mode === RN || mode === 0) return q;
  const ea = expOf(a), eb = expOf(b);
  const rem = fma64(-ldexp(q, eb - ea), ldexp(b, -eb), ldexp(a, -ea));
  return fp.round64(q, rem * Math.sign(b), mode);
}

/** a * b in f64, rounded once in mode. */
export function mul64(a: number, b: number, mode: number): number {
  const p = a * b;
  if (mode === RN || mode === 0 || p !== p || !isFinite(a) || !isFinite(b) || a === 0 || b === 0) return p;
  if (!isFinite(p)) return overflow64(p, mode);
  const ea = expOf(a), eb = expOf(b);
  return fp.round64(p, fma64(ldexp(a, -ea), ldexp(b, -eb), -ldexp(p, -ea - eb)), mode);
}

/** a + b in f64, rounded once in mode. */
export function add64(a: number, b: number, mode: number): number {
  const s = a + b;
  if (s === 0) return zeroSum(s, a, b, mode);
  if (!isFinite(s)) return isFinite(a) && isFinite(b) ? overflow64(s, mode) : s;
  return fp.round64(s, fp.twoSumErr(a, b, s), mode);
}

/** sqrt(a) for an f32 operand, rounded once in mode. */
export function sqrt32(a: number, mode: number): number {
  const s = Math.sqrt(a);
  if (s !== s || s === 0 || !isFinite(s)) return Math.fround(s);
  return fp.round32(s, fma64(-s, s, a) / (2 * s), mode);
}

export function sqrt64(a: number, mode: number): number {
  const s = Math.sqrt(a);
  if (s !== s || s === 0 || !isFinite(s) || mode === RN || mode === 0) return s;
  const m = Math.floor(expOf(a) / 2);
  const ss = ldexp(s, -m);
  return fp.round64(s, fma64(-ss, ss, ldexp(a, -2 * m)), mode);
}

/**
 * fma in f64 rounded once in mode. Round to nearest in the common exponent range uses the fast double-double
 * fma64; the directed modes and the ends of the range compute a*b + c exactly in BigInt and round that.
 */
export function fma64r(a: number, b: number, c: number, mode: number): number {
  if (!isFinite(a) || !isFinite(b) || !isFinite(c) || a === 0 || b === 0) return zeroSum(a * b + c, a * b, c, mode);
  if (mode === RN || mode === 0) {
    const ea = expOf(a), eb = expOf(b), ec = c === 0 ? 0 : expOf(c);
    if (Math.abs(ea) < 500 && Math.abs(eb) < 500 && Math.abs(ec) < 900 && Math.abs(ea + eb) < 900) return fma64(a, b, c);
  }
  const x = split64(a), y = split64(b), z = split64(c);
  const ep = x.e + y.e;
  const e = Math.min(ep, z.e);
  const n = ((x.m * y.m) << BigInt(ep - e)) + (z.m << BigInt(z.e - e));
  if (n === 0n) return zeroSum(0, a * b, c, mode);
  return roundExact64(n, e, mode);
}

/** A finite double as m * 2^e with an integer m (BigInt, signed). */
function split64(x: number): { m: bigint; e: number } {
  f64[0] = x;
  const hi = f64i[1]!, lo = f64i[0]! >>> 0;
  const ef = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (ef !== 0) m |= 1n << 52n;
  return { m: hi < 0 ? -m : m, e: (ef === 0 ? 1 : ef) - 1075 };
}

/** The exact value n * 2^e (n a non-zero BigInt) rounded to f64 in mode, subnormals and overflow included. */
function roundExact64(n: bigint, e: number, mode: number): number {
  const neg = n < 0n;
  const m = neg ? -n : n;
  const len = m.toString(2).length;
  const lsb = Math.max(len - 1 + e - 52, -1074);   // weight of the last bit the result keeps
  const shift = lsb - e;
  let q: bigint;
  if (shift <= 0) q = m << BigInt(-shift);
  else {
    q = m >> BigInt(shift);
    const rem = m - (q << BigInt(shift)), half = 1n << BigInt(shift - 1);
    const up = mode === RN || mode === 0 ? rem > half || (rem === half && (q & 1n) === 1n)
      : mode === RZ ? false : rem !== 0n && (mode === RP ? !neg : neg);
    if (up) q += 1n;
  }
  const v = ldexp(Number(q), shift <= 0 ? e : lsb);
  const r = neg ? -v : v;
  return isFinite(r) ? r : overflow64(r, mode);
}

/**
 * div.approx.f32 and div.full.f32: within 2 ulps of a / b (PTX ISA); for 2^126 < |b| < 2^128 div.approx's
 * reciprocal is below the normal range and the result is zero, which div.full avoids by scaling.
 */
export function divApprox32(a: number, b: number, full: boolean): number {
  if (a !== a || b !== b) return NaN;
  if (!isFinite(a) || !isFinite(b) || a === 0 || b === 0) return Math.fround(a / b);
  if (!full && Math.abs(b) > 2 ** 126) return a < 0 !== b < 0 ? -0 : 0;
  return approx32(a / b, 2, full ? K_DIV_FULL : K_DIV, a, b);
}

/**
 * The sign of an exact zero sum a + b (IEEE 754 6.3): +0 in every mode but round-down, where only the sum of
 * two +0 stays +0. `s` is the sum JavaScript computed (to nearest).
 */
export function zeroSum(s: number, a: number, b: number, mode: number): number {
  if (s !== 0 || mode !== RM || Object.is(s, -0)) return s;
  return Object.is(a, 0) && Object.is(b, 0) ? 0 : -0;
}

export { RN, RZ, RM, RP };
