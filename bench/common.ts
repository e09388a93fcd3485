// What every benchmark shares: its command line (--runs N, --arch NN, --only a,b) and the median.

export interface BenchArgs { runs: number; arch: number; only: string[] | null }

export function parseBenchArgs(argv: string[], defaultRuns: number): BenchArgs {
  let runs = defaultRuns, arch = 90, only: string[] | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Math.max(1, Number(argv[++i]));
    else if (argv[i] === '--arch') arch = Number(argv[++i]);
    else if (argv[i] === '--only') only = argv[++i]!.split(',');
  }
  return { runs, arch, only };
}

/** Median of a non-empty sample (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
