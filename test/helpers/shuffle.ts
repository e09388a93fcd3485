// A seeded shuffle for the tests that feed units in many orders: replayable from its seed, different per seed.
import { rng } from '../../bench/rng';

/** A copy of `xs` in the order a Fisher-Yates shuffle driven by the project's seeded generator (mulberry32) gives. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const a = xs.slice();
  const next = rng(seed);
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
