// Kernel pieces for the first edit. A file's first compile is whole (compiler/incremental/incremental.ts:
// compiling kernels one by one costs 1.4x to 1.9x a whole compile, and a fresh build's files may never
// change), so it leaves no per-kernel pieces, and without them the first edit of one kernel in a 20-kernel
// unit would compile all 20 one by one. The pieces cannot be cut out of the whole compile: its optimiser saw
// every kernel at once, while a piece must be what its kernel alone gives (only that makes an assembly of old
// and new pieces equal a clean compile). So the daemon compiles them when it has nothing else to do: after
// such a first compile, the unit is remembered, and once no request has been in flight for `delayMs`, the
// unit is compiled again (on one worker, through the scheduler like any job), now kernel by kernel into the
// piece store. The result is thrown away (it is the output already cached); the pieces and the worker's
// memory of the unit's text stay, so the first edit compiles only the kernels it touched.
//
// PTXD_SEED=0 turns this off; PTXD_SEED_DELAY_MS sets the wait (default 2000 ms).

import type { CompileOptions, CompileResult } from '../../compiler/index';
import type { Pool } from './pool';
import type { Scheduler } from './scheduler';
import { maySplit } from './split';

export interface SeedHost {
  pool(): Pool;
  readonly scheduler: Scheduler;
  /** Whether any request is in flight or waiting (then seeding waits). */
  busy(): boolean;
  stopping(): boolean;
  logLine(s: string): void;
}

interface Seed { text: string; options: CompileOptions; rest: unknown[] }

/** Units remembered for seeding at most (the most recent kept). */
const MAX_PENDING = 64;

/** PTXD_SEED_DELAY_MS, or 2000; null with PTXD_SEED=0 (no seeding). */
export function seedDelayMs(env: NodeJS.ProcessEnv): number | null {
  if (env.PTXD_SEED === '0') return null;
  const n = Number(env.PTXD_SEED_DELAY_MS);
  return env.PTXD_SEED_DELAY_MS !== undefined && Number.isFinite(n) && n >= 0 ? n : 2000;
}

/** A unit's identity for seeding: its options (the main file, its module id, the target) without the stub's file names. */
function seedKey(o: CompileOptions): string {
  const { includeFileName: _i, stubFileName: _s, ...rest } = o;
  return JSON.stringify(rest, Object.keys(rest).sort());
}

export class Seeds {
  private readonly pending = new Map<string, Seed>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Units seeded, and the kernels their seeding compiled into the piece store. */
  seeded = 0;
  kernels = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly h: SeedHost, private readonly delayMs: number | null) {}

  /** After a compile of `text` in the pool: remember it when it was its file's first (whole) compile, else forget it. */
  noteCompile(text: string, options: CompileOptions, rest: unknown[], result: CompileResult): void {
    if (this.delayMs === null) return;
    const key = seedKey(options);
    // compiled kernel by kernel (or not incrementally at all): nothing left to prepare
    this.pending.delete(key);
    if (result.incremental?.fallback !== 'first compile of this file' || !result.ok || !maySplit(text)) return;
    this.pending.set(key, { text, options, rest });
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    this.schedule();
  }

  /** Units waiting to be seeded. */
  get queued(): number { return this.pending.size; }

  /** Resolves once nothing is waiting to be seeded or seeding (or seeding is off). */
  drained(): Promise<void> {
    if (this.delayMs === null || (this.pending.size === 0 && !this.running)) return Promise.resolve();
    return new Promise(resolve => this.waiters.push(resolve));
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.wake();
  }

  private wake(): void {
    if (this.pending.size > 0 || this.running) return;
    for (const w of this.waiters.splice(0)) w();
  }

  /** (Re)starts the wait: every call moves seeding to `delayMs` after now. */
  private schedule(): void {
    if (this.delayMs === null || this.running || this.pending.size === 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; this.next(); }, this.delayMs);
    this.timer.unref();
  }

  /** Seeds the most recently compiled unit when the daemon is idle; then the next one. */
  private next(): void {
    if (this.h.stopping()) { this.close(); return; }
    if (this.h.busy() || this.h.scheduler.stats().running > 0) { this.schedule(); return; }
    const last = [...this.pending.keys()].pop();
    if (last === undefined) { this.wake(); return; }
    const seed = this.pending.get(last)!;
    this.pending.delete(last);
    this.running = true;
    this.h.scheduler.submit(undefined, () => this.h.pool().run(seed.text, seed.options, seed.rest)).then(r => {
      const f = r.result.functions;
      if (f) { this.seeded++; this.kernels += f.compiled.length; }
    }, e => this.h.logLine(`seeding failed: ${(e as Error).message}`)).finally(() => {
      this.running = false;
      // the next unit at once while the daemon stays idle (next() waits again otherwise)
      if (this.pending.size > 0) { this.timer = setTimeout(() => { this.timer = undefined; this.next(); }, 0); this.timer.unref(); }
      this.wake();
    });
  }
}
