// Division by a constant without a divide instruction, as LLVM's instruction selection (and so cicc)
// does it: a power of two is a shift (with a rounding bias for signed values), anything else a multiply
// by a "magic" reciprocal taking the high half, then shifts (Granlund & Montgomery; Hacker's Delight 10).
// A remainder is x - (x / c) * c, formed in the middle end so that the quotient is shared.

export interface UnsignedMagic { magic: bigint; shift: number; add: boolean }
export interface SignedMagic { magic: bigint; shift: number }

const mask = (bits: number): bigint => (1n << BigInt(bits)) - 1n;

/** Is c (unsigned, c > 1) a power of two; its log2 or -1. */
export function log2Exact(c: bigint): number {
  return c > 0n && (c & (c - 1n)) === 0n ? c.toString(2).length - 1 : -1;
}

/** Magic for the unsigned quotient x / d (d > 1, not a power of two), `bits` wide. */
export function unsignedMagic(d: bigint, bits: number): UnsignedMagic {
  const m = mask(bits);
  const smin = 1n << BigInt(bits - 1), smax = smin - 1n;
  const nc = (m - ((m - d) % d)) & m;
  let p = bits - 1;
  let q1 = smin / nc, r1 = (smin - q1 * nc) & m;
  let q2 = smax / d, r2 = (smax - q2 * d) & m;
  let add = false;
  let delta: bigint;
  do {
    p++;
    if (r1 >= ((nc - r1) & m)) { q1 = (2n * q1 + 1n) & m; r1 = (2n * r1 - nc) & m; }
    else { q1 = (2n * q1) & m; r1 = (2n * r1) & m; }
    if (((r2 + 1n) & m) >= ((d - r2) & m)) {
      if (q2 >= smax) add = true;
      q2 = (2n * q2 + 1n) & m; r2 = (2n * r2 + 1n - d) & m;
    } else {
      if (q2 >= smin) add = true;
      q2 = (2n * q2) & m; r2 = (2n * r2 + 1n) & m;
    }
    delta = (d - 1n - r2) & m;
  } while (p < bits * 2 && (q1 < delta || (q1 === delta && r1 === 0n)));
  return { magic: (q2 + 1n) & m, shift: p - bits, add };
}

/** Magic for the signed quotient x / d (|d| > 1, not a power of two), `bits` wide; magic is unsigned. */
export function signedMagic(d: bigint, bits: number): SignedMagic {
  const m = mask(bits);
  const smin = 1n << BigInt(bits - 1);
  const ad = d < 0n ? -d : d;
  const t = smin + (d < 0n ? 1n : 0n);
  const anc = t - 1n - (t % ad);
  let p = bits - 1;
  let q1 = smin / anc, r1 = smin - q1 * anc;
  let q2 = smin / ad, r2 = smin - q2 * ad;
  let delta: bigint;
  do {
    p++;
    q1 = (q1 << 1n) & m; r1 = (r1 << 1n) & m;
    if (r1 >= anc) { q1 = (q1 + 1n) & m; r1 = (r1 - anc) & m; }
    q2 = (q2 << 1n) & m; r2 = (r2 << 1n) & m;
    if (r2 >= ad) { q2 = (q2 + 1n) & m; r2 = (r2 - ad) & m; }
    delta = (ad - r2) & m;
  } while (q1 < delta || (q1 === delta && r1 === 0n));
  let magic = (q2 + 1n) & m;
  if (d < 0n) magic = (-magic) & m;
  return { magic, shift: p - bits };
}

/** The instructions a division needs, in terms of the target's operations (so isel can emit them). */
export interface DivEmitter {
  fresh(): string;
  freshPred(): string;
  op(name: string, dst: string, ...srcs: string[]): void;
}

/**
 * Emits x / c (c a constant, neither 0 nor ±1) into dst with `w`-bit instructions; returns false when the
 * division is left to the divide instruction. `signed` selects sdiv; c is the constant as a signed value.
 */
export function emitDivByConst(e: DivEmitter, dst: string, x: string, c: bigint, w: 32 | 64, signed: boolean): boolean {
  const wb = BigInt(w);
  const imm = (v: bigint): string => BigInt.asIntN(w, v).toString();
  if (!signed) {
    const d = BigInt.asUintN(w, c);
    if (d <= 1n) return false;
    const k = log2Exact(d);
    if (k >= 0) { e.op(`shr.u${w}`, dst, x, String(k)); return true; }
    if (d > (1n << (wb - 1n))) {
      // a divisor above half the range: the quotient is 0 or 1
      const p = e.freshPred();
      e.op(`setp.ge.u${w}`, p, x, imm(d));
      e.op(`selp.u${w}`, dst, '1', '0', p);
      return true;
    }
    const mg = unsignedMagic(d, w);
    const q = e.fresh();
    e.op(`mul.hi.u${w}`, q, x, imm(mg.magic));
    if (!mg.add) { if (mg.shift > 0) e.op(`shr.u${w}`, dst, q, String(mg.shift)); else e.op(`mov.b${w}`, dst, q); return true; }
    const t = e.fresh(), u = e.fresh(), v = e.fresh();
    e.op(`sub.s${w}`, t, x, q);
    e.op(`shr.u${w}`, u, t, '1');
    e.op(`add.s${w}`, v, u, q);
    e.op(`shr.u${w}`, dst, v, String(mg.shift - 1));
    return true;
  }
  const d = BigInt.asIntN(w, c);
  if (d === 0n || d === 1n || d === -1n || d === -(1n << (wb - 1n))) return false;
  const ad = d < 0n ? -d : d;
  const k = log2Exact(ad);
  if (k >= 0) {
    // round toward zero: add 2^k - 1 to negative dividends before the arithmetic shift
    const s = e.fresh(), b = e.fresh(), t = e.fresh();
    e.op(`shr.s${w}`, s, x, String(w - 1));
    e.op(`shr.u${w}`, b, s, String(w - k));
    e.op(`add.s${w}`, t, x, b);
    if (d > 0n) { e.op(`shr.s${w}`, dst, t, String(k)); return true; }
    const q = e.fresh();
    e.op(`shr.s${w}`, q, t, String(k));
    e.op(`neg.s${w}`, dst, q);
    return true;
  }
  const mg = signedMagic(d, w);
  const magicSigned = BigInt.asIntN(w, mg.magic);
  let q = e.fresh();
  e.op(`mul.hi.s${w}`, q, x, imm(mg.magic));
  if (d > 0n && magicSigned < 0n) { const t = e.fresh(); e.op(`add.s${w}`, t, q, x); q = t; }
  if (d < 0n && magicSigned > 0n) { const t = e.fresh(); e.op(`sub.s${w}`, t, q, x); q = t; }
  if (mg.shift > 0) { const t = e.fresh(); e.op(`shr.s${w}`, t, q, String(mg.shift)); q = t; }
  const sign = e.fresh();
  e.op(`shr.u${w}`, sign, q, String(w - 1));
  e.op(`add.s${w}`, dst, q, sign);
  return true;
}
