// bench/real-units.ts (a benchmark, not run by the suite): its command line, the order in which it tries
// corpus units, and the summary it reports.
import { describe, expect, it } from 'vitest';
import { candidateOrder, parseRealUnitsArgs, percentile, summariseRatios } from '../bench/real-units';
import type { CorpusUnit } from '../bench/corpus/manifest';

describe('real-units benchmark arguments', () => {
  it('defaults to 40 units, one run, three tries per unit', () => {
    const a = parseRealUnitsArgs([]);
    expect(a).toMatchObject({ units: 40, runs: 1, seed: 1, filter: null, timeoutS: 600, maxTries: 120 });
  });

  it('reads every option', () => {
    const a = parseRealUnitsArgs(['--units', '5', '--runs', '3', '--seed', '7', '--filter', 'mumax', '--timeout', '60', '--max-tries', '9']);
    expect(a).toMatchObject({ units: 5, runs: 3, seed: 7, timeoutS: 60, maxTries: 9 });
    expect(a.filter?.test('mumax/3:cuda/add.cu')).toBe(true);
  });

  it('refuses unknown options, missing values and bad counts', () => {
    expect(() => parseRealUnitsArgs(['--unit', '5'])).toThrow(/unknown option --unit/);
    expect(() => parseRealUnitsArgs(['--units'])).toThrow(/--units needs a value/);
    expect(() => parseRealUnitsArgs(['--units', '0'])).toThrow(/integer >= 1/);
    expect(() => parseRealUnitsArgs(['--runs', '1.5'])).toThrow(/integer >= 1/);
  });
});

describe('real-units benchmark order and summary', () => {
  const unit = (repo: string, p: string): CorpusUnit => ({ repo, path: p, flags: [], tier: 'C++' });
  const units = [unit('b/b', '1'), unit('b/b', '2'), unit('b/b', '3'), unit('a/a', '1'), unit('c/c', '1')];

  it('takes the repositories in turn, each unit once, the same order for the same seed', () => {
    const o = candidateOrder(units, 3);
    expect(o.map(u => u.repo).slice(0, 3)).toEqual(['a/a', 'b/b', 'c/c']);
    expect(new Set(o)).toEqual(new Set(units));
    expect(o).toHaveLength(units.length);
    expect(candidateOrder(units, 3)).toEqual(o);
  });

  it('reports the nearest-rank 90th percentile and the worst unit', () => {
    const xs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 2.0];
    expect(percentile(xs, 90)).toBe(0.9);
    expect(percentile(xs, 100)).toBe(2.0);
    const s = summariseRatios(xs.map((ratio, i) => ({ unit: `u${i}`, ratio })));
    expect(s).toEqual({ median: 0.55, p90: 0.9, worst: 2.0, worstUnit: 'u9' });
    expect(summariseRatios([])).toBeNull();
  });
});
