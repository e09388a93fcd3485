// The daemon's cache-miss path: a request the unit cache did not answer joins a running compile of the
// same unit key, is asked of the team cache, or is compiled in the worker pool (split across workers where
// allowed) when the scheduler admits it; after a unit ptxd cannot compile, its prelude is probed.

import type { Socket } from 'node:net';
import type { PhaseTimes } from '../compiler/index';
import type { FunctionLists, Message } from '../protocol/messages';
import type { JobserverAuth } from '../protocol/jobserver';
import { preludeOf } from '../service/prelude-key';
import type { Lookup, UnitService } from '../service/unit';
import type { Pool } from './scheduler/pool';
import type { JobGroup, Scheduler } from './scheduler/scheduler';
import { compileSplit, type SplitContext } from './scheduler/split';
import { Seeds } from './scheduler/seed';
import type { PoolStatus } from '../protocol/status';

/** One unit request in the daemon. */
export interface Job {
  conn: Socket;
  id: number;
  /** Delivers the request's `result` or `error` (to the socket, or to the native client's cicc call). */
  reply: (m: Message) => void;
  /** make's jobserver as the native client must open it to take tokens (the Node client knows its own). */
  auth?: JobserverAuth;
  /** Set while the daemon waits for the client's answer to a `tokens` message. */
  tokenReply?: (n: number) => void;
}
export interface Waiter extends Job { lookup: Lookup }


/** What the miss path uses of the daemon. */
export interface MissHost {
  readonly service: UnitService;
  readonly scheduler: Scheduler;
  /** Units may be split across workers (scheduler/split.ts). */
  readonly split: boolean;
  pool(): Pool;
  send(c: Socket, m: Message): void;
  logLine(s: string): void;
  stopping(): boolean;
  /** A request answered from a cache (the team cache, or a compile another request shared). */
  hit(): void;
  /** Counters changed: written to the store shortly. */
  scheduleFlush(): void;
  /** Compiles finished: the daemon is in use (idle timer) and its counters changed. */
  touch(): void;
  /** How long the daemon waits idle before it compiles the kernels of units whose first compile was whole (null: never; scheduler/seed.ts). */
  readonly seedDelayMs: number | null;
}

export class Misses {
  /** Compile requests not answered yet (queued or compiling). */
  readonly inFlight = new Set<Job>();
  /** Requests waiting for a queued or running compile of the same unit key (e.g. a build during `ptxd watch`). */
  readonly waiting = new Map<string, Waiter[]>();
  /** Preludes being compiled alone to learn whether ptxd can compile them (unit.ts preludeProbe). */
  private readonly probes = new Set<string>();
  private readonly phaseMs: PhaseTimes = { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0, assemble: 0 };
  private compiled = 0;
  /** Kernels compiled and reused by per-kernel compiles; byText: units whose edit was found inside kernel bodies by comparing texts. */
  private readonly roots = { compiled: 0, reused: 0, byText: 0 };
  private last: PoolStatus['last'];

  /** Units whose first compile was whole, to be compiled kernel by kernel when the daemon is idle. */
  readonly seeds: Seeds;

  constructor(private readonly h: MissHost) {
    this.seeds = new Seeds({ pool: () => h.pool(), scheduler: h.scheduler, busy: () => !this.idle(), stopping: () => h.stopping(), logLine: s => h.logLine(s) }, h.seedDelayMs);
  }

  /** A request the unit cache did not answer. */
  start(job: Job, lookup: Lookup): void {
    // Headers being probed right now because a unit with the same ones was just beyond ptxd: straight to the
    // real cicc, rather than each unit of a parallel build paying its own attempt until the probe answers.
    // Only where the client falls back (never with PTXD_FALLBACK=never, where this would be an error).
    const prelude = this.probes.size > 0 && lookup.req.fallback && lookup.source ? preludeOf(lookup.source.toString('latin1')) : undefined;
    if (prelude && this.probes.has(prelude.hash)) {
      job.reply({ t: 'result', id: job.id, res: this.h.service.presumedUnsupported(lookup, 'headers that a unit just before could not compile (being checked)') });
      this.h.scheduleFlush();
      return;
    }
    const key = lookup.key;
    if (key !== undefined && this.waiting.has(key)) { this.waiting.get(key)!.push({ ...job, lookup }); return; }
    if (key !== undefined) this.waiting.set(key, []);
    this.compileMiss(job, lookup);
  }

  /** No request in flight or waiting. */
  idle(): boolean { return this.inFlight.size === 0 && this.waiting.size === 0; }

  /** The client's answer to a `tokens` message of request `id`. */
  tokensGot(c: Socket, id: number, n: number): void {
    for (const j of this.inFlight) if (j.conn === c && j.id === id) j.tokenReply?.(n);
  }

  /** Answers every request in flight or waiting with an error (shutdown). */
  failAll(message: string): void {
    this.seeds.close();
    const waiters = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const job of [...this.inFlight, ...waiters]) job.reply({ t: 'error', id: job.id, message });
    this.inFlight.clear();
  }

  /** The compiles' part of `ptxd stats` (scheduler/status.ts). */
  stats(): Pick<PoolStatus, 'compiled' | 'phaseMs' | 'roots'> & Partial<Pick<PoolStatus, 'last'>> {
    const round = (x: number) => Math.round(x * 10) / 10;
    const p = this.phaseMs;
    return {
      compiled: this.compiled,
      phaseMs: { lex: round(p.lex), skim: round(p.skim), irgen: round(p.irgen), optimize: round(p.optimize), emit: round(p.emit), assemble: round(p.assemble ?? 0) },
      roots: { ...this.roots, seeded: this.seeds.seeded, seededKernels: this.seeds.kernels, seedsQueued: this.seeds.queued }, ...(this.last ? { last: this.last } : {}),
    };
  }

  /** A cache miss: asked of the team cache, else compiled in the pool when the scheduler admits it. */
  private compileMiss(job: Job, lookup: Lookup): void {
    const { conn: c, id } = job;
    this.inFlight.add(job);
    const make = lookup.req.make;
    const group = make ? { key: make.build, limit: make.jobs } : undefined;
    const key = lookup.key;
    let functions: FunctionLists | undefined;
    // The remote is asked before the unit is queued: a remote hit never waits for a compile slot.
    this.h.service.fromRemote(lookup).then(hit => hit ?? this.h.scheduler.submit(group, async () => {
      // A client that has gone away (killed build) does not need its unit compiled, unless others wait for it.
      const waiters = key !== undefined ? this.waiting.get(key) ?? [] : [];
      if ((c.destroyed && waiters.every(w => w.conn.destroyed)) || this.h.stopping()) return undefined;
      return this.h.service.compileWith(lookup, async (text, o, rest) => {
        // Under make without a reachable jobserver, make's -j fills the machine already: no extra workers.
        const split = this.h.split && (!make || make.tokens) ? await compileSplit(this.splitContext(job, group), text, o, rest) : undefined;
        if (split) this.h.scheduler.noteSlots(split.slots);
        const r = await this.h.pool().run(text, o, rest);
        // kernels the shares compiled were found in the store by the unit's compile: they count as compiled
        const f = r.result.functions;
        if (split?.compiled.length && f) {
          const byShares = new Set(split.compiled);
          r.result.functions = { ...f, compiled: [...split.compiled, ...f.compiled.filter(k => !byShares.has(k))], reused: f.reused.filter(k => !byShares.has(k)) };
        }
        functions = r.result.functions;
        this.seeds.noteCompile(text, o, rest, r.result);
        this.compiled++;
        for (const k of Object.keys(this.phaseMs) as (keyof PhaseTimes)[]) this.phaseMs[k] = (this.phaseMs[k] ?? 0) + (r.result.times[k] ?? 0);
        const fns = r.result.functions;
        if (fns) { this.roots.compiled += fns.compiled.length; this.roots.reused += fns.reused.length; if (fns.byText) this.roots.byText++; }
        this.last = { ...(fns ? { compiled: fns.compiled, reused: fns.reused, ...(fns.byText ? { byText: true } : {}) } : {}), phaseMs: { ...r.result.times } };
        return r;
      });
    })).then(res => {
      const waiters = key !== undefined ? this.waiting.get(key) ?? [] : [];
      if (key !== undefined) this.waiting.delete(key);
      if (!this.inFlight.delete(job)) return;   // answered by shutdown
      if (res?.cached) this.h.hit();   // from the team cache
      if (res?.status === 'unsupported' && !res.cached) this.probePrelude(lookup);
      // no result: the client went away before its compile started (a socket client gets nothing; the
      // native client's call ends, writing no outputs)
      job.reply(res ? { t: 'result', id, res, ...(functions ? { functions } : {}) } : { t: 'error', id, message: 'the client has gone' });
      for (const w of waiters.filter(x => !x.conn.destroyed)) {
        const shared = res ? this.h.service.shared(lookup, res, w.lookup) : undefined;
        if (shared) { this.h.hit(); w.reply({ t: 'result', id: w.id, res: shared }); } else this.startMiss(w);
      }
      this.h.touch();
    }, e => {
      const waiters = key !== undefined ? this.waiting.get(key) ?? [] : [];
      if (key !== undefined) this.waiting.delete(key);
      if (!this.inFlight.delete(job)) return;
      this.h.logLine(`compile failed: ${(e as Error).stack ?? String(e)}`);
      for (const w of [job, ...waiters]) w.reply({ t: 'error', id: w.id, message: (e as Error).message });
    });
  }

  /**
   * How a request's compile may take extra workers: idle pool slots, or under make, slots backed by
   * tokens its client takes from make's jobserver. The client holds the tokens and gives them back (on
   * `tokens-back`, at the end of its request, on its signals and exit); if it is killed by SIGKILL its
   * tokens are lost to make, as any killed make job's are. The daemon's slots are freed when the
   * shares finish, also when the client has gone.
   */
  private splitContext(job: Job, group: JobGroup | undefined): SplitContext {
    const { conn: c, id } = job;
    if (!group) return { pool: this.h.pool(), scheduler: this.h.scheduler };
    return {
      pool: this.h.pool(), scheduler: this.h.scheduler, group,
      tokens: want => new Promise<number>(resolve => {
        if (c.destroyed) { resolve(0); return; }
        const done = (n: number): void => {
          clearTimeout(timer);
          c.removeListener('close', gone);
          job.tokenReply = undefined;
          resolve(n);
        };
        const gone = (): void => done(0);
        // The client answers at once (it never waits for a token); a late answer only leaves its tokens unused until its request ends.
        const timer = setTimeout(gone, 5000);
        c.once('close', gone);
        job.tokenReply = done;
        this.h.send(c, { t: 'tokens', id, want, ...(job.auth ? { auth: job.auth } : {}) });
      }),
      giveBack: () => this.h.send(c, { t: 'tokens-back', id }),
    };
  }

  /**
   * After a unit ptxd cannot compile: its prelude (headers) compiled alone, in the background once the
   * unit's fallback has its compile slot. If the prelude alone is beyond ptxd, every later unit with the
   * same prelude goes straight to the real cicc (unit.ts preludeMemo); if not, nothing is remembered and
   * such units are tried as before.
   */
  private probePrelude(lookup: Lookup): void {
    const probe = this.h.service.preludeProbe(lookup);
    if (!probe || this.probes.has(probe.hash) || this.h.stopping()) return;
    this.probes.add(probe.hash);
    setImmediate(() => {
      this.h.scheduler.submit(undefined, () => this.h.pool().run(probe.text, probe.options, probe.rest)).then(r => {
        if (r.result.unsupported !== undefined) {
          probe.remember(r.result.unsupported);
          this.h.logLine(`prelude ${probe.hash.slice(0, 12)} is beyond ptxd: ${r.result.unsupported}`);
        }
      }, () => { /* a failed probe only means nothing is learned */ }).finally(() => this.probes.delete(probe.hash));
    });
  }

  /** A waiter whose compile could not be shared compiles on its own (again the first of its key). */
  private startMiss(w: Waiter): void {
    const key = w.lookup.key;
    if (key !== undefined && this.waiting.has(key)) { this.waiting.get(key)!.push(w); return; }
    if (key !== undefined) this.waiting.set(key, []);
    this.compileMiss(w, w.lookup);
  }
}
