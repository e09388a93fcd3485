// The compile pool: worker_threads that each run compileUnit, so cache misses compile on several cores
// while the daemon's event loop keeps answering hits and handshakes. Jobs are independent pure
// compiles: a result depends only on the job, never on which worker ran it or in what order.
//
// A worker that dies (an uncaught throw, process.exit, out of memory) answers its job with an
// "unsupported: internal error" result (the client falls back to the real cicc) and is replaced: a
// crash is never a wrong output nor a hung request. A job that runs past the compile budget
// (PTXD_COMPILE_BUDGET_S) is given up the same way: its worker is stopped and replaced, and the unit falls
// back, so a compile ptxd is unexpectedly slow on costs the build that budget plus stock nvcc's time, not hours.

import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CompileOptions, CompileResult } from '../../compiler/index';
import { REPO_ROOT } from '../../protocol/version';
import { WORKER_YOUNG_MB, type MemoryHeld, type WorkerHeap } from '../../service/memory';
import { crashResult, overBudgetReason, unsupportedResult } from '../../service/compile-budget';

/** roots: a share of a split compile (split.ts): 'plan' lists the roots to compile, a list compiles those into the store. */
export interface WorkerJob { id: number; text: string; options: CompileOptions; rest: unknown[]; roots?: 'plan' | string[] }
/** roots: the answer to a share (null: the unit compiles whole); first: a plan found the file's first compile. */
export interface WorkerReply { id: number; result: CompileResult; ms: number; roots?: string[] | null; first?: boolean; memory?: MemoryHeld; dropped?: number; heap?: WorkerHeap }
/** A worker's caches after it released them (idle): sent without a job. */
export interface WorkerMemory { memory: MemoryHeld; dropped: number; heap: WorkerHeap }

export interface PoolResult { result: CompileResult; /** Wall time in the worker. */ ms: number; roots?: string[] | null; first?: boolean }

export interface PoolOptions {
  size: number;
  /** The module that exports compileUnit (absolute path of built JS). */
  compileModule?: string;
  /** Each worker keeps a prelude cache (compiler/frontend/prelude.ts) across its compiles. */
  keepPrelude?: boolean;
  log?: (line: string) => void;
  /**
   * The memory budget of all workers' caches together (service/memory.ts; each worker keeps within its even
   * share) and how long a worker waits idle before it drops them all. Absent: the caches' own limits only.
   */
  memory?: { budget: number; idleMs: number };
  /** Wall time a job may run in its worker before the worker is stopped and the unit falls back (ms; absent: no limit). */
  budgetMs?: number;
}

interface Slot {
  worker: Worker; ready: boolean; job?: { job: WorkerJob; resolve: (r: PoolResult) => void };
  /** The source files of its recent jobs, most recent last (see pump()). */
  recent: string[];
  /** What its caches held after its last job (or its idle release), and the items its budget dropped. */
  memory?: MemoryHeld;
  dropped?: number;
  heap?: WorkerHeap;
  /** The compile budget's timer for the job it runs, and why it was stopped (the budget ran out). */
  timer?: NodeJS.Timeout;
  stopped?: string;
}

/** Source files a worker remembers having compiled. */
const RECENT_FILES = 16;
/** What a job compiles, for a worker's memory of it: the source file and the target. */
const fileOf = (j: WorkerJob): string => `${j.options.origSrcFileName ?? ''}\n${j.options.arch}`;

/** PTXD_WORKERS, or the machine's cores. */
export function poolSize(env: NodeJS.ProcessEnv): number {
  const n = Number(env.PTXD_WORKERS);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 256) : Math.max(1, availableParallelism());
}

// Workers always run built code (also when the pool itself is loaded from sources by the tests).
const WORKER_MAIN = join(REPO_ROOT, 'dist', 'daemon', 'scheduler', 'worker.js');
const DEFAULT_COMPILER = join(REPO_ROOT, 'dist', 'compiler', 'index.js');
/** Workers in a row that died before they were ready: then the pool is broken and stops replacing them. */
const MAX_START_FAILURES = 3;

export class Pool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly waiting: { job: WorkerJob; resolve: (r: PoolResult) => void }[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  /** Set when workers cannot even start (e.g. dist/ missing): every job gets a fallback result. */
  broken: string | undefined;
  /** Workers that died and were replaced (stopped by the compile budget included). */
  crashes = 0;
  /** Jobs given up because they ran past the compile budget. */
  overBudget = 0;
  /** Jobs in workers now, and the most at once. */
  running = 0;
  peak = 0;

  constructor(private readonly o: PoolOptions) {
    this.size = Math.max(1, o.size);
    // Workers start when work needs them: each loads the compiler and warms up its JIT on its own, so
    // a build that keeps 4 busy does not pay for 16.
  }

  /** Workers started so far. */
  get started(): number { return this.slots.length; }

  /**
   * What the workers' caches hold, summed per cache (as of each worker's last report), the items budgets dropped,
   * and the workers' heaps summed (those that reported one).
   */
  memory(): { held: MemoryHeld; dropped: number; heaps?: WorkerHeap & { workers: number } } {
    const held: MemoryHeld = {};
    let dropped = 0;
    let heaps: (WorkerHeap & { workers: number }) | undefined;
    for (const s of this.slots) {
      dropped += s.dropped ?? 0;
      if (s.heap) {
        heaps ??= { workers: 0, total: 0, used: 0, young: 0, external: 0 };
        heaps.workers++; heaps.total += s.heap.total; heaps.used += s.heap.used; heaps.young += s.heap.young; heaps.external += s.heap.external;
      }
      for (const [k, v] of Object.entries(s.memory ?? {})) {
        const h = held[k] ??= { entries: 0, bytes: 0 };
        h.entries += v.entries; h.bytes += v.bytes;
      }
    }
    return { held, dropped, ...(heaps ? { heaps } : {}) };
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_MAIN, {
      workerData: {
        compileModule: this.o.compileModule ?? DEFAULT_COMPILER, keepPrelude: this.o.keepPrelude === true,
        ...(this.o.memory ? { memory: { share: Math.floor(this.o.memory.budget / this.size), idleMs: this.o.memory.idleMs } } : {}),
      },
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    const slot: Slot = { worker, ready: false, recent: [] };
    worker.on('message', (m: WorkerReply | WorkerMemory | { ready: true }) => {
      if ('ready' in m) { slot.ready = true; this.startFailures = 0; this.pump(); return; }
      if (!('id' in m)) { slot.memory = m.memory; slot.dropped = m.dropped; slot.heap = m.heap; return; }
      if (m.memory) { slot.memory = m.memory; slot.dropped = m.dropped; slot.heap = m.heap; }
      const cur = slot.job;
      if (!cur || cur.job.id !== m.id) return;
      clearTimeout(slot.timer);
      slot.job = undefined;
      this.running--;
      cur.resolve({ result: m.result, ms: m.ms, ...(m.roots !== undefined ? { roots: m.roots } : {}), ...(m.first ? { first: true } : {}) });
      this.pump();
    });
    let died = false;
    const die = (why: string) => {
      if (died) return;
      died = true;
      const i = this.slots.indexOf(slot);
      if (this.closed || i < 0) return;
      this.crashes++;
      clearTimeout(slot.timer);
      const cur = slot.job;
      slot.job = undefined;
      if (cur) { this.running--; cur.resolve({ result: slot.stopped ? unsupportedResult(slot.stopped) : crashResult(why), ms: 0 }); }
      if (!slot.ready && ++this.startFailures >= MAX_START_FAILURES && !this.broken) {
        this.broken = why;
        this.o.log?.(`compile workers cannot start (${why}); units fall back`);
        for (const w of this.waiting.splice(0)) w.resolve({ result: crashResult(why), ms: 0 });
      }
      if (this.broken) { this.slots.splice(i, 1); return; }
      this.o.log?.(slot.stopped ? `compile worker ${worker.threadId} stopped: ${slot.stopped}; its unit falls back; replacing it`
        : `compile worker ${worker.threadId} died (${why})${cur ? '; its unit falls back' : ''}; replacing it`);
      this.slots[i] = this.spawn();
      this.pump();
    };
    worker.on('error', e => die(e instanceof Error ? e.message : String(e)));
    worker.on('exit', code => die(`exit code ${code}`));
    // An idle worker must not keep a process alive (the daemon exits through shutdown anyway).
    worker.unref();
    return slot;
  }

  /** Compiles one unit; always resolves (a dead worker gives an "unsupported" result). */
  run(text: string, options: CompileOptions, rest: unknown[] = [], roots?: 'plan' | string[]): Promise<PoolResult> {
    if (this.closed || this.broken) return Promise.resolve({ result: crashResult(this.broken ?? 'pool closed'), ms: 0 });
    return new Promise(resolve => {
      this.waiting.push({ job: { id: this.nextId++, text, options, rest, ...(roots !== undefined ? { roots } : {}) }, resolve });
      this.pump();
    });
  }

  private pump(): void {
    // Jobs start in order. A job goes to a free worker that compiled its file recently when there is one: that
    // worker's caches hold its prelude and its last compile (an edit since then compiles what changed only).
    for (;;) {
      if (this.waiting.length === 0) return;
      const free = this.slots.filter(x => x.ready && !x.job);
      if (free.length === 0) break;
      const next = this.waiting.shift()!;
      const file = fileOf(next.job);
      const slot = free.find(x => x.recent.includes(file)) ?? free[0]!;
      slot.recent = [...slot.recent.filter(f => f !== file), file].slice(-RECENT_FILES);
      slot.job = next;
      this.running++;
      if (this.running > this.peak) this.peak = this.running;
      slot.worker.postMessage(next.job);
      if (this.o.budgetMs !== undefined) slot.timer = this.budgetTimer(slot, this.o.budgetMs);
    }
    const starting = this.slots.filter(x => !x.ready).length;
    for (let n = this.waiting.length - starting; n > 0 && this.slots.length < this.size && !this.broken && !this.closed; n--) {
      this.slots.push(this.spawn());
    }
  }

  /** Stops the slot's worker when its job runs past the budget: die() answers the job and replaces the worker. */
  private budgetTimer(slot: Slot, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => {
      if (!slot.job) return;
      this.overBudget++;
      slot.stopped = overBudgetReason(ms);
      void slot.worker.terminate();
    }, ms);
    t.unref();
    return t;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.resolve({ result: crashResult('pool closed'), ms: 0 });
    for (const s of this.slots) {
      clearTimeout(s.timer);
      if (s.job) { s.job.resolve({ result: crashResult('pool closed'), ms: 0 }); s.job = undefined; }
    }
    await Promise.all(this.slots.map(s => s.worker.terminate()));
  }
}
