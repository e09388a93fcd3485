// A unit's kernels compiled on several workers at once. The request's own job runs a plan in a worker
// (which kernels the piece store lacks); when two or more are missing and extra slots can be had, it
// takes them (idle pool workers, or under make one jobserver token per slot, acquired by the client),
// hands each worker a share of the missing kernels to compile into the shared piece store, and gives the
// slots back when the shares are done. The unit's ordinary compile follows and finds every kernel in
// the store: it only assembles, so the output is the one compile would give alone, whatever the split.
//
// Compiling kernels one by one costs more than compiling the unit whole: 1.4x to 1.9x on one core for
// the 20-kernel unit of bench/daemon-bench.ts, measured in a warm pool worker (whole 211 ms, its 20
// kernels one by one 400 ms, median of 8). Two workers do not win that back, and the plan itself (an
// extra lex and skim) costs every miss it runs for: on a 2-core machine, a daemon of 2 workers was 1.23x
// slower than one of 1 on a cold 20-kernel unit, and 1.30x on one with every kernel edited
// (bench/daemon-bench.ts). So a unit is planned and split only when at least 3 workers can run it.
// PTXD_SPLIT=0 turns splitting off (the daemon then runs each unit on one worker, as before): on a
// machine whose cores are busy with other work, idle pool workers do not mean idle cores.

import type { CompileOptions } from '../../compiler/index';
import type { Pool } from './pool';
import type { JobGroup, Scheduler } from './scheduler';

export interface SplitContext {
  pool: Pool;
  scheduler: Scheduler;
  /** The request's make build, when it has one. */
  group?: JobGroup;
  /**
   * Under make: asks the client to take up to n tokens from make's jobserver for this request and
   * resolves with how many it holds (0 when it cannot, or goes away). Absent: idle pool slots are used.
   */
  tokens?: (n: number) => Promise<number>;
  /** Under make: tells the client to give back the tokens it took for this request. */
  giveBack?: () => void;
}

export interface SplitResult {
  /** Workers that ran at once for the unit (1: not split). */
  slots: number;
  /** Kernels the shares compiled, in the unit's order. */
  compiled: string[];
}

/** Whether the daemon may split units across workers (PTXD_SPLIT=0: never). */
export function splitEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.PTXD_SPLIT !== '0';
}

const NOT_SPLIT: SplitResult = { slots: 1, compiled: [] };
/** Workers a unit needs at least to be split (see above). */
export const MIN_SPLIT_WORKERS = 3;

/**
 * Compiles the unit's missing kernels into the piece store on extra workers, if that pays. Never changes
 * the output, only where kernels compile.
 */
export async function compileSplit(cx: SplitContext, text: string, options: CompileOptions, rest: unknown[]): Promise<SplitResult> {
  if (!hasPieceStore(rest) || cx.scheduler.free(cx.group) < MIN_SPLIT_WORKERS - 1 || !maySplit(text)) return NOT_SPLIT;
  const plan = await cx.pool.run(text, options, rest, 'plan');
  const roots = plan.roots;
  // the fewest extra workers that make the split pay (see above)
  const least = plan.first ? MIN_SPLIT_WORKERS - 1 : 1;
  if (!roots || roots.length < least + 1) return NOT_SPLIT;
  const extra = cx.scheduler.reserve(cx.group, roots.length - 1);
  let asked = false;
  try {
    if (extra.count < least) return NOT_SPLIT;
    let n = extra.count;
    if (cx.tokens) {
      asked = true;
      n = Math.max(0, Math.min(n, await cx.tokens(n)));
      extra.give(extra.count - n);
    }
    if (n < least) return NOT_SPLIT;
    // Round robin over the unit's order: neighbouring kernels (often alike in cost) go to different workers.
    const shares: string[][] = Array.from({ length: n + 1 }, () => []);
    roots.forEach((r, i) => shares[i % (n + 1)]!.push(r));
    const done = await Promise.all(shares.map(s => cx.pool.run(text, options, rest, s)));
    const compiled = new Set(done.flatMap(d => d.roots ?? []));
    return { slots: n + 1, compiled: roots.filter(r => compiled.has(r)) };
  } finally {
    extra.give();
    if (asked) cx.giveBack?.();
  }
}

/** Whether the compile arguments name a piece store (without one there is nothing to share). */
function hasPieceStore(rest: unknown[]): boolean {
  const env = rest[0] as { pieceStore?: unknown } | undefined;
  return env?.pieceStore !== undefined;
}

/**
 * False when the unit certainly has fewer than two kernels, so the plan need not run: in the .ii nvcc
 * gives cicc, `__global__` is spelled `__attribute__((global))` and the toolkit headers declare no
 * kernel. One such attribute after `template` may still give several specialisations.
 */
export function maySplit(text: string): boolean {
  const first = text.indexOf(GLOBAL_ATTR);
  if (first < 0) return false;
  if (text.indexOf(GLOBAL_ATTR, first + GLOBAL_ATTR.length) >= 0) return true;
  const t = text.lastIndexOf('template', first);
  return t >= 0 && first - t <= 400;
}

const GLOBAL_ATTR = '__attribute__((global';
