// What the daemon reports about its compile pool (`ptxd stats`).

import type { PhaseTimes } from '../../compiler/compile';
import type { SchedulerStats } from './scheduler';

export interface PoolStatus extends SchedulerStats {
  /** Worker threads in the pool. */
  workers: number;
  /** Workers started so far (they start when work needs them). */
  started: number;
  /** Workers that died (their units fell back) and were replaced. */
  crashes: number;
  /** Units compiled by the pool, and the time their compiles spent in each phase (ms, summed). */
  compiled: number;
  phaseMs: PhaseTimes;
}
