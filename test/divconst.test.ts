// Division by constants without a divide instruction (compiler/backend/divconst.ts): the emitted sequence
// is interpreted here with PTX's integer semantics and compared with BigInt division (truncating toward
// zero, as C and div.s/div.u) for many divisors and dividends, 32 and 64 bits, signed and unsigned.
import { describe, it, expect } from 'vitest';
import { emitDivByConst } from '../compiler/backend/divconst';

type Op = [string, string, ...string[]];

function run(ops: Op[], x: bigint, w: number): bigint {
  const W = BigInt(w);
  const U = (v: bigint) => BigInt.asUintN(w, v), S = (v: bigint) => BigInt.asIntN(w, v);
  const env = new Map<string, bigint>([['x', U(x)]]);
  const val = (s: string) => env.get(s) ?? U(BigInt(s));
  for (const [name, d, ...a] of ops) {
    const [p, q] = a.map(val) as [bigint, bigint];
    let r: bigint;
    switch (name.replace(/\d+$/, '')) {
      case 'shr.u': r = p >> q; break;
      case 'shr.s': r = U(S(p) >> q); break;
      case 'add.s': r = U(p + q); break;
      case 'sub.s': r = U(p - q); break;
      case 'neg.s': r = U(-p); break;
      case 'mov.b': r = p; break;
      case 'mul.hi.u': r = (p * q) >> W; break;
      case 'mul.hi.s': r = U((S(p) * S(q)) >> W); break;
      case 'setp.ge.u': r = p >= q ? 1n : 0n; break;
      case 'selp.u': r = val(a[2]!) ? p : q; break;
      default: throw new Error(`unexpected ${name}`);
    }
    env.set(d, r);
  }
  return env.get('dst')!;
}

describe('division by a constant', () => {
  for (const w of [32, 64] as const) {
    it(`${w}-bit quotients equal BigInt division for every divisor kind`, () => {
      const W = BigInt(w);
      const divisors = [2n, 3n, 5n, 6n, 7n, 9n, 10n, 12n, 25n, 100n, 125n, 641n, 1000n, 1023n, 1024n, 65535n, 65537n, 1000000007n,
        (1n << (W - 1n)) - 1n, (1n << (W - 1n)) + 1n, (1n << W) - 1n, (1n << W) - 3n];
      const xs = [0n, 1n, 2n, 3n, 6n, 7n, 99n, 100n, 101n, 12345n, (1n << (W - 1n)) - 1n, 1n << (W - 1n), (1n << W) - 1n, (1n << W) - 2n];
      let s = 0x9e3779b97f4a7c15n;
      for (let i = 0; i < 200; i++) { s ^= BigInt.asUintN(64, s << 13n); s ^= s >> 7n; s ^= BigInt.asUintN(64, s << 17n); xs.push(BigInt.asUintN(w, s >> BigInt(i % 40))); }
      let expanded = 0;
      for (const signed of [false, true]) for (const d0 of divisors) for (const d of signed ? [d0, -d0] : [d0]) {
        const ops: Op[] = [];
        let k = 0;
        const ok = emitDivByConst({ fresh: () => `t${k++}`, freshPred: () => `p${k++}`, op: (o, dst, ...src) => { ops.push([o, dst, ...src]); } }, 'dst', 'x', d, w, signed);
        if (!ok) continue;
        expanded++;
        expect(ops.some(o => o[0].startsWith('div.'))).toBe(false);
        for (const x of xs) {
          const want = signed ? BigInt.asUintN(w, BigInt.asIntN(w, x) / BigInt.asIntN(w, d)) : BigInt.asUintN(w, x) / BigInt.asUintN(w, d);
          expect(run(ops, x, w), `${signed ? 's' : 'u'}${w} ${x} / ${d}`).toBe(want);
        }
      }
      expect(expanded).toBeGreaterThan(60);
    });
  }
  it('leaves 0, ±1 and the signed minimum to the divide instruction', () => {
    const e = { fresh: () => 't', freshPred: () => 'p', op: () => {} };
    for (const [c, signed] of [[0n, false], [1n, false], [0n, true], [1n, true], [-1n, true], [-(1n << 31n), true]] as const) {
      expect(emitDivByConst(e, 'd', 'x', c, 32, signed)).toBe(false);
    }
  });
});
