// Admission of compile jobs to the pool. Every job needs one slot; there are `capacity` slots (the
// pool's workers). A job from a client running under a GNU make jobserver runs on that client's own
// token (its make job): make never runs more recipes than it has tokens, and on top of that the
// daemon admits at most `limit` (make's -jN) jobs of one make build at once, so a `make -j4` build
// never has more than 4 compiles running even when the pool has more workers. Jobs without a
// jobserver just share the pool.
//
// A running job may take extra slots for its own helpers (a compile split across workers, split.ts):
// only slots free now, never ahead of a queued job, and within its build's -j limit; under make, each
// such slot is backed by a token the client took from make's jobserver for it (else given back at once).
//
// Admission is first come, first served, except that a job whose build is at its limit lets later
// jobs of other builds pass. Only timing depends on this: results never do.

import type { SchedulerStats } from '../../protocol/status';

export interface JobGroup {
  /** Identifies one make build (its jobserver). */
  key: string;
  /** make's -jN; 0 when make gave no number (-j without a limit). */
  limit: number;
}


/** Extra slots held by a running job; give() returns some or all of them. */
export interface Extra { readonly count: number; give(n?: number): void }

interface Waiting { group?: JobGroup; start: () => void }

export class Scheduler {
  private readonly queue: Waiting[] = [];
  private readonly perGroup = new Map<string, number>();
  private running = 0;
  private tokens = 0;
  private peakRunning = 0;
  private peakPerBuild = 0;
  private peakTokens = 0;
  private tokensUsed = 0;
  private jobs = 0;
  private extraSlots = 0;
  private peakSlotsPerJob = 1;
  private splitJobs = 0;
  /** Counted by the daemon from its clients' reports. */
  extraTokensAcquired = 0;
  extraTokensReturned = 0;

  constructor(readonly capacity: number) {}

  /** Runs `job` once a slot is free (and its make build is under its -j limit). */
  submit<T>(group: JobGroup | undefined, job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        group, start: () => {
          job().then(resolve, reject).finally(() => this.finish(group));
        },
      });
      this.pump();
    });
  }

  private admissible(w: Waiting): boolean {
    if (!w.group || w.group.limit <= 0) return true;
    return (this.perGroup.get(w.group.key) ?? 0) < w.group.limit;
  }

  private pump(): void {
    for (let i = 0; i < this.queue.length && this.running < this.capacity;) {
      const w = this.queue[i]!;
      if (!this.admissible(w)) { i++; continue; }
      this.queue.splice(i, 1);
      this.running++;
      this.jobs++;
      this.peakRunning = Math.max(this.peakRunning, this.running);
      if (w.group) {
        const n = (this.perGroup.get(w.group.key) ?? 0) + 1;
        this.perGroup.set(w.group.key, n);
        this.peakPerBuild = Math.max(this.peakPerBuild, n);
        this.tokens++;
        this.tokensUsed++;
        this.peakTokens = Math.max(this.peakTokens, this.tokens);
      }
      w.start();
    }
  }

  private finish(group: JobGroup | undefined, n = 1): void {
    this.running -= n;
    if (group) {
      this.tokens -= n;
      const left = (this.perGroup.get(group.key) ?? n) - n;
      if (left <= 0) this.perGroup.delete(group.key); else this.perGroup.set(group.key, left);
    }
    this.pump();
  }

  /** How many extra slots a running job of `group` could take now (free, none queued, under the build's limit). */
  free(group: JobGroup | undefined): number {
    if (this.queue.length > 0) return 0;
    let n = this.capacity - this.running;
    if (group && group.limit > 0) n = Math.min(n, group.limit - (this.perGroup.get(group.key) ?? 0));
    return Math.max(0, n);
  }

  /** Takes up to `want` extra slots for a running job of `group` (see free()); the job must give them all back. */
  reserve(group: JobGroup | undefined, want: number): Extra {
    const n = Math.min(want, this.free(group));
    let held = n;
    if (n > 0) {
      this.running += n;
      this.peakRunning = Math.max(this.peakRunning, this.running);
      if (group) {
        const g = (this.perGroup.get(group.key) ?? 0) + n;
        this.perGroup.set(group.key, g);
        this.peakPerBuild = Math.max(this.peakPerBuild, g);
        this.tokens += n;
        this.peakTokens = Math.max(this.peakTokens, this.tokens);
      }
    }
    return {
      get count() { return held; },
      give: (k = held) => {
        const m = Math.min(k, held);
        if (m <= 0) return;
        held -= m;
        this.finish(group, m);
      },
    };
  }

  /** Records that a job ran on `slots` slots at most (its own and extra ones it used). */
  noteSlots(slots: number): void {
    if (slots <= 1) return;
    this.splitJobs++;
    this.extraSlots += slots - 1;
    this.peakSlotsPerJob = Math.max(this.peakSlotsPerJob, slots);
  }

  stats(): SchedulerStats {
    return {
      capacity: this.capacity, running: this.running, queued: this.queue.length, peakRunning: this.peakRunning,
      peakPerBuild: this.peakPerBuild, tokensUsed: this.tokensUsed, peakTokens: this.peakTokens, jobs: this.jobs,
      extraSlots: this.extraSlots, extraTokensAcquired: this.extraTokensAcquired, extraTokensReturned: this.extraTokensReturned,
      peakSlotsPerJob: this.peakSlotsPerJob, splitJobs: this.splitJobs,
    };
  }

  /** Drops queued jobs (shutdown); they never start. Returns how many. */
  dropQueued(): number {
    return this.queue.splice(0).length;
  }
}
