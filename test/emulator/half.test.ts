// The emulator's 16-bit float rounding (half.ts) against a brute-force oracle: every finite f16 value is
// enumerated from its bit fields, and the rounded result must be the nearest one (ties to the even bit
// pattern) or, in the directed modes, the nearest one on the required side.
import { describe, it, expect } from 'vitest';
import { F16, BF16, decodeHalf, encodeHalf, roundHalf, RN, RZ, RM, RP, type HalfFormat } from './half';

/** All finite non-negative values of a format, ascending, from the bit fields (independent of roundHalf). */
function finiteValues(f: HalfFormat): number[] {
  const out: number[] = [];
  const emax = (1 << f.ebits) - 1;
  for (let e = 0; e < emax; e++) {
    for (let m = 0; m < 1 << f.mant; m++) out.push(e === 0 ? m * 2 ** (1 - f.bias - f.mant) : (1 + m / 2 ** f.mant) * 2 ** (e - f.bias));
  }
  return out;
}

function oracle(x: number, mode: number, vals: number[], f: HalfFormat): number {
  const a = Math.abs(x), neg = x < 0;
  let lo = 0, hi = vals.length - 1;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (vals[mid]! <= a) lo = mid; else hi = mid; }
  if (a >= vals[hi]!) lo = hi;
  const below = vals[lo]!, max = vals[vals.length - 1]!;
  const ulpAtMax = 2 ** (f.bias - f.mant);
  const above = a > max ? max + ulpAtMax : vals[hi]!;     // the first value past max stands for infinity
  let m: number;
  if (a === below) m = below;
  else if (mode === RN) m = a - below < above - a ? below : a - below > above - a ? above : ((lo & 1) === 0 ? below : above);
  else if (mode === RZ || (mode === RM && !neg) || (mode === RP && neg)) m = below;
  else m = above;
  if (m > max) m = mode === RN || (mode === RP && !neg) || (mode === RM && neg) ? Infinity : max;
  return neg ? -m : m;
}

describe('emulator: f16/bf16 rounding', () => {
  for (const [name, f] of [['f16', F16], ['bf16', BF16]] as [string, HalfFormat][]) {
    it(`${name}: one rounding in each mode, against the enumerated values`, () => {
      const vals = finiteValues(f);
      let seed = 12345;
      const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
      const max = vals[vals.length - 1]!;
      const xs: number[] = [];
      for (let k = 0; k < 3000; k++) {
        const v = vals[Math.floor(rnd() * vals.length)]!;
        const next = vals[vals.indexOf(v) + 1] ?? v * 2;
        xs.push(v, (v + next) / 2, v + (next - v) * rnd(), -(v + (next - v) * 0.25));
      }
      xs.push(max * 1.0001, -max * 1.01, 2 ** -30, 2 ** -140, 1 + 2 ** -11, 1 + 2 ** -8);
      for (const x of xs) for (const mode of [RN, RZ, RM, RP]) {
        const got = roundHalf(x, 0, mode, f);
        expect(Object.is(got, oracle(x, mode, vals, f)) || got === oracle(x, mode, vals, f), `${name} round(${x}, mode ${mode})`).toBe(true);
        if (isFinite(got)) expect(decodeHalf(encodeHalf(got, f), f), `${name} bits of ${got}`).toBe(got);
      }
    });
  }
  it('error terms decide ties and directed steps', () => {
    expect(roundHalf(1 + 2 ** -11, 1e-30, RN, F16)).toBe(1 + 2 ** -10);   // just above the tie
    expect(roundHalf(1 + 2 ** -11, -1e-30, RN, F16)).toBe(1);
    expect(roundHalf(1, -1e-30, RZ, F16)).toBe(1 - 2 ** -11);              // below a power of two: the finer binade
    expect(roundHalf(1, 1e-30, RP, F16)).toBe(1 + 2 ** -10);
  });
  it('bit patterns: signed zero, infinity, canonical NaN, subnormals', () => {
    expect(encodeHalf(-0, F16)).toBe(0x8000);
    expect(encodeHalf(Infinity, F16)).toBe(0x7c00);
    expect(encodeHalf(-Infinity, BF16)).toBe(0xff80);
    expect(encodeHalf(NaN, F16)).toBe(0x7fff);
    expect(encodeHalf(2 ** -24, F16)).toBe(1);
    expect(encodeHalf(65504, F16)).toBe(0x7bff);
    expect(encodeHalf(1, BF16)).toBe(0x3f80);
    expect(decodeHalf(0x3c00, F16)).toBe(1);
    expect(decodeHalf(0xc000, BF16)).toBe(-2);
  });
});
