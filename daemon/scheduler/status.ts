// What the daemon reports about its compile pool (`ptxd stats`).

import type { PhaseTimes } from '../../compiler/compile';
import type { SchedulerStats } from './scheduler';

export interface PoolStatus extends SchedulerStats {
  /** Most compile jobs (whole units, plans and shares of split units) running in workers at once: measured, not admitted. */
  busyPeak: number;
  /** Worker threads in the pool. */
  workers: number;
  /** Workers started so far (they start when work needs them). */
  started: number;
  /** Workers that died (their units fell back) and were replaced. */
  crashes: number;
  /** Units compiled by the pool, and the time their compiles spent in each phase (ms, summed). */
  compiled: number;
  phaseMs: PhaseTimes;
  /** Incremental compiles (compiler/incremental/): kernels compiled vs reused from the piece store, summed. */
  /** byText: the units among them whose edit since their last compile lay inside kernel bodies only (found by comparing texts). */
  roots?: { compiled: number; reused: number; byText?: number };
  /** The latest compile: its roots compiled and reused (absent when it compiled whole), whether by text, and its phase times (ms). */
  last?: { compiled?: string[]; reused?: string[]; byText?: boolean; phaseMs: PhaseTimes };
}
