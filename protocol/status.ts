// What the daemon reports about itself beyond its identity (`ptxd stats`, `ptxd daemon status`): its
// scheduler and compile pool, and its team cache.

import type { PhaseTimes } from '../compiler/index';

export interface SchedulerStats {
  capacity: number;
  running: number;
  queued: number;
  /** Most jobs running at once, over all clients. */
  peakRunning: number;
  /** Most jobs of one make build running at once. */
  peakPerBuild: number;
  /** Jobs that ran on a make jobserver token (their client's), and the most such tokens in use at once. */
  tokensUsed: number;
  peakTokens: number;
  jobs: number;
  /** Extra slots taken by running jobs for their helpers: all, and those backed by make tokens (acquired by clients; returned as clients report). */
  extraSlots: number;
  extraTokensAcquired: number;
  extraTokensReturned: number;
  /** Most slots one job held at once (its own and its helpers'), and the jobs that used more than one. */
  peakSlotsPerJob: number;
  splitJobs: number;
}

export interface PoolStatus extends SchedulerStats {
  /** Most compile jobs (whole units, plans and shares of split units) running in workers at once: measured, not admitted. */
  busyPeak: number;
  /** Worker threads in the pool. */
  workers: number;
  /** Workers started so far (they start when work needs them). */
  started: number;
  /** Workers that died (their units fell back) and were replaced. */
  crashes: number;
  /** Of those, workers stopped because their compile ran past PTXD_COMPILE_BUDGET_S. */
  overBudget?: number;
  /** Units compiled by the pool, and the time their compiles spent in each phase (ms, summed). */
  compiled: number;
  phaseMs: PhaseTimes;
  /** Incremental compiles (compiler/incremental/): kernels compiled vs reused from the piece store, summed. */
  /** byText: the units among them whose edit since their last compile lay inside kernel bodies only (found by comparing texts). */
  /** seeded: units whose kernels the daemon compiled while idle after a whole first compile (seededKernels kernels); seedsQueued: units waiting for that. */
  roots?: { compiled: number; reused: number; byText?: number; seeded?: number; seededKernels?: number; seedsQueued?: number };
  /** The latest compile: its roots compiled and reused (absent when it compiled whole), whether by text, and its phase times (ms). */
  last?: { compiled?: string[]; reused?: string[]; byText?: boolean; phaseMs: PhaseTimes };
  /**
   * The compile workers' caches under the memory budget (service/memory.ts): PTXD_MEMORY, what each cache holds
   * (summed over the workers, as of their last job or idle release; bytes are estimates), and the items dropped.
   */
  memory?: {
    budgetBytes: number; held: Record<string, { entries: number; bytes: number }>; dropped: number;
    /** The workers' heaps (V8's figures, bytes), summed over those that reported one: committed, in use, young generation, outside the heap. */
    heaps?: { workers: number; total: number; used: number; young: number; external: number };
  };
}

/** The team cache (service/store/remote/), when one is configured. */
export interface RemoteStatus {
  where: string;
  write: boolean;
  breaker: 'closed' | 'open' | 'half-open';
  queued: number;
}
