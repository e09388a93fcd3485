// Reassociation of integer sums (compiler/middle/passes/reassociate.ts). Random trees of adds, subtracts and
// products and shifts by constants (8, 32 and 64 bits, shared subtrees among them) are run by `lli` before
// and after the pass: the output must not change. The shape is checked against cicc's PTX for a unit whose
// fully unrolled loop sums `t + k`: cicc writes one shift and one add; so must we.
import { describe, it, expect } from 'vitest';
import { T, cInt } from '../compiler/middle/ir';
import type { Value } from '../compiler/middle/ir';
import { printModule } from '../compiler/middle/llprint';
import { reassociate } from '../compiler/middle/passes/reassociate';
import { HAVE_LLI, lli } from './helpers/llvm';
import { hostModule } from './helpers/host-module';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';
import { kernelLines, ptxas } from './helpers/ptx';

let seed = 1;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)]!;

/** A program printing random linear trees over values loaded from memory (so nothing folds them). */
function randomProgram(s: number): string[] {
  seed = s;
  const { m, main, b, print } = hostModule();
  for (const ty of [T.i8, T.i32, T.i64]) {
    const bits = (ty as { bits: number }).bits;
    const leaves: Value[] = [];
    for (let k = 0; k < 4; k++) {
      const a = b.alloca(ty, 8, `x${bits}_${k}`);
      b.store(cInt(ty, BigInt(Math.floor(rnd() * 2000) - 1000)), a);
      leaves.push(b.load(ty, a));
    }
    const pool: Value[] = [...leaves];
    const konst = (): Value => cInt(ty, BigInt(pick([0, 1, -1, 2, 3, 7, 10, 100, -8, 1000, 4096])));
    let prev: Value | null = null;
    for (let n = 0; n < 14; n++) {
      // mostly a chain (one tree), either side; sometimes a value from before (used twice: a leaf)
      const x: Value = prev && rnd() < 0.75 ? prev : pick(pool), y = rnd() < 0.3 ? konst() : pick(pool);
      const op = pick(['add', 'add', 'sub', 'mul', 'shl'] as const);
      const swap = rnd() < 0.5;
      const v: Value = op === 'mul' ? (swap ? b.bin('mul', x, konst()) : b.bin('mul', konst(), x))
        : op === 'shl' ? b.bin('shl', x, cInt(ty, BigInt(Math.floor(rnd() * bits))))
          : b.bin(op, swap ? y : x, swap ? x : y, rnd() < 0.5 ? { nsw: true } : {});
      if (rnd() < 0.15) pool.push(v);
      prev = v;
      if (rnd() < 0.25) print(bits === 64 ? v : b.cast('sext', v, T.i64));
    }
    const last = pool[pool.length - 1]!;
    print(bits === 64 ? last : b.cast('sext', last, T.i64));
  }
  b.ret(cInt(T.i32, 0));
  const before = printModule(m);
  const changed = reassociate(main);
  return [before, printModule(m), changed ? 'changed' : ''];
}

describe.skipIf(!HAVE_LLI)('reassociation on random linear trees (lli)', () => {
  it('keeps the output of every program and rewrites some (REASSOC_FUZZ, default 30)', () => {
    let rewritten = 0;
    for (let s = 1; s <= Number(process.env.REASSOC_FUZZ ?? 30); s++) {
      const [before, after, changed] = randomProgram(s);
      const x = lli(before!), y = lli(after!);
      expect(x.status, x.err).toBe(0);
      expect(y.err, `program ${s}`).toBe('');
      expect(y.out, `program ${s}:\n${after}`).toBe(x.out);
      if (changed) rewritten++;
    }
    expect(rewritten).toBeGreaterThan(5);
  });
});

const SRC = `
__global__ void sums(const int *in, int *out) {
  int t = in[threadIdx.x], s = 0;
#pragma unroll
  for (int k = 0; k < 16; k++) s += t + k;
  out[threadIdx.x] = s + ((t * 10) * 10 + 1) * 10;
}
`;
const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`reassociation, as cicc ${skip ?? ''}`, () => {
  const { r, refPtx } = skip === undefined ? compileWithReference('reassociate', SRC) : { r: null, refPtx: '' };
  it('an unrolled sum of t + k is one shift or product and adds, as in cicc\'s PTX', () => {
    expect(r!.ok, r!.diagnostics.join('\n') + (r!.unsupported ?? '')).toBe(true);
    expect(ptxas(r!.ptx, 90)).toBe('');
    const arith = (p: string): number => kernelLines(p, '_Z4sumsPKiPi').filter(l => /^(add|sub|mul|mad|shl)\.\S*(s32|b32|lo)/.test(l)).length;
    expect(arith(refPtx)).toBeLessThanOrEqual(4);
    expect(arith(r!.ptx)).toBeLessThanOrEqual(arith(refPtx));
  });
});
