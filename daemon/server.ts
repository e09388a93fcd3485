// The daemon: a unix-socket server that compiles units with the unit cache.
// - Cache hits are answered as soon as the request arrives; misses are compiled by a pool of worker
//   threads (scheduler/), as many at once as the pool has workers and the clients' make jobservers
//   allow, while the event loop keeps serving handshakes, hits and status requests.
// - Counters are written to the store shortly after requests (and on shutdown / a flush request).
// - Exits after PTXD_IDLE_TIMEOUT seconds without clients, on SIGTERM/SIGINT, or when a newer client
//   asks it to: stops listening, removes its socket, answers queued requests with an error (their
//   clients retry or compile in-process), flushes counters, closes the store.

import { chmodSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { encodeFrame, FrameReader, PROTOCOL, type DaemonStatus, type Message } from '../protocol/messages';
import { recordRequest } from '../watch/records';
import { UnitService, type UnitRequest, type UnitResponse } from '../service/unit';
import { DaemonUnavailable, runCiccForClient, splitRealCicc } from '../cicc/job';
import type { CiccContext, RealHooks } from '../cicc/context';
import { runReal } from '../cicc/fallback';
import type { JobserverAuth } from '../protocol/jobserver';
import type { UnitOrigin } from '../protocol/unit';
import { Pool, poolSize } from './scheduler/pool';
import { compileBudgetMs } from '../service/compile-budget';
import { Scheduler } from './scheduler/scheduler';
import { splitEnabled } from './scheduler/split';
import { seedDelayMs } from './scheduler/seed';
import { memoryBudget, memoryIdleMs } from '../service/memory';
import type { PoolStatus } from '../protocol/status';
import { DaemonConnection } from '../protocol/connection';
import { buildStamp, compilerHash, ptxdVersion } from '../protocol/version';
import { cacheDir, cacheSizeLimit, idleTimeoutMs, logPath, pidPath } from '../protocol/paths';
import { appendNoFollow, ensureSocketDir, newNonce, proof, proofOk, replaceFile, writeKey } from '../protocol/auth';
import { clientEnv } from './client-env';
import { Misses, type Job } from './miss';

/** A client that has not proven it holds the key within this time, or whose hello is larger than this, is refused. */
const HANDSHAKE_MS = 30_000;
const HANDSHAKE_BYTES = 64 * 1024;

export interface DaemonOptions { socket: string; env: NodeJS.ProcessEnv }

export class Daemon {
  private server: Server | undefined;
  private readonly service: UnitService;
  private pool: Pool | undefined;
  private readonly scheduler: Scheduler;
  private readonly conns = new Set<Socket>();
  private lastActivity = Date.now();
  private served = 0;
  /** Whole cicc calls from the native client. */
  private ciccCalls = 0;
  private hits = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private readonly started = Date.now();
  private readonly cacheDir: string;
  private readonly idleMs: number;
  private readonly log: string;
  /** Cache misses: joined, asked of the team cache, or compiled in the pool (miss.ts). */
  private readonly misses: Misses;
  /** The secret clients prove they hold (protocol/auth.ts); written once listening. */
  private key = '';
  /** The real cicc for the native client's fallbacks: a compile slot, results in the unit cache. */
  private readonly realHooks: RealHooks = {
    run: (real, argv, cwd, env) => this.scheduler.submit(undefined, () => runReal(real, argv, cwd, env)),
    save: (fk, real, ms, place) => { this.service.saveReal(fk, real, ms, place); this.scheduleFlush(); },
    falseError: () => { this.service.countFalseError(); this.scheduleFlush(); },
  };

  constructor(private readonly o: DaemonOptions) {
    this.cacheDir = cacheDir(o.env);
    this.idleMs = idleTimeoutMs(o.env);
    this.log = logPath(o.socket);
    this.service = new UnitService({
      cacheDir: this.cacheDir, sizeLimit: cacheSizeLimit(o.env), env: o.env, warnOnce: true, keepPrelude: true, remote: true, preludeMemo: true, log: s => this.logLine(s),
      // Once per daemon start, a full check of the store in a child: a damaged file heals on the next start.
      probe: 'always',
    });
    this.scheduler = new Scheduler(poolSize(o.env));
    const service = this.service, scheduler = this.scheduler;
    this.misses = new Misses({
      service, scheduler, split: splitEnabled(o.env), seedDelayMs: seedDelayMs(o.env),
      pool: () => this.pool!,
      send: (c, m) => this.send(c, m),
      logLine: s => this.logLine(s),
      stopping: () => this.stopping,
      hit: () => { this.hits++; },
      scheduleFlush: () => this.scheduleFlush(),
      touch: () => { this.lastActivity = Date.now(); this.scheduleFlush(); },
    });
  }

  private logLines = 0;

  logLine(s: string): void {
    try {
      // Keep the log bounded: past 10 MB it moves to <log>.1 (one generation kept).
      if (++this.logLines % 500 === 0 && statSync(this.log).size > 10 * 1024 * 1024) renameSync(this.log, `${this.log}.1`);
    } catch { /* no log yet */ }
    try { appendNoFollow(this.log, `${new Date().toISOString()} [${process.pid}] ${s}\n`); } catch { /* no log then */ }
  }

  async start(): Promise<void> {
    // Warm up what every compile needs, so the first request does not pay for it.
    compilerHash();
    this.service.getStore();
    this.pool = new Pool({ size: this.scheduler.capacity, keepPrelude: true, log: s => this.logLine(s), memory: { budget: memoryBudget(this.o.env), idleMs: memoryIdleMs(this.o.env) }, budgetMs: compileBudgetMs(this.o.env) });
    ensureSocketDir(this.o.socket);
    await this.listen();
    // Written before any connection is served (this runs before the next event): every welcome proves this key.
    this.key = writeKey(this.o.socket);
    replaceFile(pidPath(this.o.socket), `${process.pid}\n`);
    this.logLine(`started: ptxd ${ptxdVersion()} build ${buildStamp()}, socket ${this.o.socket}, cache ${this.cacheDir}, ` +
      `idle timeout ${this.idleMs / 1000} s, ${this.pool.size} compile workers`);
    process.on('SIGTERM', () => { void this.shutdown('SIGTERM'); });
    process.on('SIGINT', () => { void this.shutdown('SIGINT'); });
    process.on('SIGHUP', () => { /* detached: ignore the terminal going away */ });
    if (this.idleMs > 0) {
      this.idleTimer = setInterval(() => {
        if (this.conns.size === 0 && this.misses.idle() && Date.now() - this.lastActivity >= this.idleMs) {
          void this.shutdown('idle');
        }
      }, Math.max(250, Math.min(this.idleMs / 4, 10_000)));
    }
  }

  /** Listens on the socket; a leftover socket file of a dead daemon is removed, a live daemon wins. */
  private async listen(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await new Promise<void>((resolve, reject) => {
          const s = createServer(c => this.accept(c));
          s.once('error', reject);
          // The socket is created 0600 whatever the process umask (and chmod'ed again, belt and braces).
          const umask = process.umask(0o177);
          try {
            s.listen(this.o.socket, () => {
              s.removeListener('error', reject);
              this.server = s;
              try { chmodSync(this.o.socket, 0o600); resolve(); } catch (e) { s.close(); reject(e); }
            });
          } finally {
            process.umask(umask);
          }
        });
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt > 0) throw e;
        const live = await DaemonConnection.open(this.o.socket, 1000).catch(() => undefined);
        if (live) {
          live.close();
          throw Object.assign(new Error(`another daemon is listening on ${this.o.socket}`), { code: 'ELIVE' });
        }
        this.logLine(`removing stale socket ${this.o.socket}`);
        try { unlinkSync(this.o.socket); } catch { /* gone */ }
      }
    }
  }

  private accept(c: Socket): void {
    if (this.stopping) { c.destroy(); return; }
    this.conns.add(c);
    this.lastActivity = Date.now();
    const reader = new FrameReader();
    // hello → welcome (our nonce and proof) → the client's auth; until then nothing else is served.
    let greeted = false;
    let trusted = false;
    let clientNonce = '';
    const myNonce = newNonce();
    const refuse = (why: string): void => { this.logLine(`refused a client: ${why}`); c.destroy(); };
    // Until it has proven itself a client gets little: a bounded hello, and a handshake bounded in time.
    let unproven = 0;
    const handshakeTimer = setTimeout(() => { if (!trusted) refuse('no handshake'); }, HANDSHAKE_MS);
    handshakeTimer.unref();
    c.on('data', chunk => {
      this.lastActivity = Date.now();
      // (the client's proof may share a chunk with its first request, which may be large: only the hello is bounded)
      if (!greeted && (unproven += chunk.length) > HANDSHAKE_BYTES) { refuse('hello too large'); return; }
      let msgs: Message[];
      try {
        msgs = reader.push(chunk);
      } catch (e) {
        this.logLine(`bad frame from client: ${(e as Error).message}`);
        c.destroy();
        return;
      }
      for (const m of msgs) {
        if (c.destroyed) return;
        if (!greeted) {
          if (m.t !== 'hello') { refuse(`${m.t} before hello`); return; }
          greeted = true;
          clientNonce = typeof m.nonce === 'string' ? m.nonce : '';
          this.welcome(c, clientNonce, myNonce);
          continue;
        }
        if (!trusted) {
          if (m.t !== 'auth' || !proofOk(this.key, 'client', myNonce, clientNonce, m.proof)) { refuse(`no proof of the key (${m.t})`); return; }
          trusted = true;
          clearTimeout(handshakeTimer);
          continue;
        }
        try {
          this.onMessage(c, m);
        } catch (e) {
          const id = (m as { id?: number }).id ?? 0;
          this.logLine(`request failed: ${(e as Error).stack ?? String(e)}`);
          this.send(c, { t: 'error', id, message: (e as Error).message });
        }
      }
    });
    c.on('error', () => { /* the client went away; close follows */ });
    c.on('close', () => { clearTimeout(handshakeTimer); this.conns.delete(c); this.lastActivity = Date.now(); });
  }

  private send(c: Socket, m: Message): void {
    if (!c.destroyed) c.write(encodeFrame(m));
  }

  private onMessage(c: Socket, m: Message): void {
    switch (m.t) {
      case 'compile':
        this.compile({ conn: c, id: m.id, reply: r => this.send(c, r) }, m.req, m.origin);
        return;
      case 'cicc':
        this.cicc(c, m);
        return;
      case 'tokens-got': {
        const n = this.tokenCount(m.n, m.t);
        this.scheduler.extraTokensAcquired += n;
        this.misses.tokensGot(c, m.id, n);
        return;
      }
      case 'tokens-returned':
        this.scheduler.extraTokensReturned += this.tokenCount(m.n, m.t);
        return;
      case 'status':
        this.send(c, { t: 'status-reply', id: m.id, status: this.status() });
        return;
      case 'flush':
        this.service.flushCounters();
        this.send(c, { t: 'ok', id: m.id });
        return;
      case 'shutdown':
        this.logLine('shutdown requested by a client');
        void this.shutdown('client request', c, m.id);
        return;
      default:
        this.send(c, { t: 'error', id: (m as { id?: number }).id ?? 0, message: `unknown request ${(m as { t: string }).t}` });
    }
  }

  /** Our identity, nonce and proof of the key, answering a client's hello (protocol/auth.ts). */
  private welcome(c: Socket, clientNonce: string, myNonce: string): void {
    const p = /^[0-9a-f]{64}$/.test(clientNonce) ? { nonce: myNonce, proof: proof(this.key, 'daemon', clientNonce, myNonce) } : {};
    this.send(c, { t: 'welcome', proto: PROTOCOL, version: ptxdVersion(), stamp: buildStamp(), cacheDir: this.cacheDir, pid: process.pid, ...p });
  }

  /** A count of make tokens a client reports: a whole number within what a client can hold, else 0 (never junk in the stats). */
  private tokenCount(n: unknown, what: string): number {
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= 1 << 20) return n;
    this.logLine(`ignoring a bad token count in ${what}: ${JSON.stringify(n)?.slice(0, 40)}`);
    return 0;
  }

  /** One unit request: answered from the cache, joined to a compile of the same key, or compiled. */
  private compile(job: Job, req: UnitRequest, origin: UnitOrigin | undefined): void {
    if (this.stopping) { job.reply({ t: 'error', id: job.id, message: 'daemon is shutting down' }); return; }
    if (origin) recordRequest(this.cacheDir, req, origin);
    const lookup = this.service.lookup(req);
    this.served++;
    if (lookup.response) {
      if (lookup.response.cached && lookup.response.status !== 'unsupported') this.hits++;
      job.reply({ t: 'result', id: job.id, res: lookup.response });
      this.scheduleFlush();
      return;
    }
    this.misses.start(job, lookup);
  }

  /**
   * A whole cicc call of the native client: argv to outputs here (cicc/job.ts runCiccForClient), the
   * unit through compile() like any request. The client prints `stderr` and exits with `code`, or runs
   * `exec` (a fallback to the real cicc). An `error` answer makes it retry with the Node client.
   */
  private cicc(c: Socket, m: Extract<Message, { t: 'cicc' }>): void {
    this.ciccCalls++;
    const out: string[] = [];
    let fallback = false;
    const { realCicc, args } = splitRealCicc(m.argv);
    const ctx: CiccContext = {
      env: clientEnv(m.env ?? {}, args), cwd: m.cwd, pid: m.pid, ppid: m.ppid, realCicc,
      stderr: s => { out.push(s); },
      now: () => Date.now() - m.t0,
      // The daemon runs the real cicc itself; when it cannot, the client runs the real cicc it chooses
      // itself: we never name a program for it to run.
      real: this.realHooks,
      execReal: () => { fallback = true; return 0; },
    };
    const compile = (req: UnitRequest, origin: UnitOrigin, auth?: JobserverAuth) => new Promise<UnitResponse>((resolve, reject) => {
      this.compile({
        conn: c, id: m.id, ...(auth ? { auth } : {}),
        reply: r => {
          // A client that has gone (an interrupted build) gets no outputs written after it: nvcc has cleaned up.
          if (c.destroyed) reject(new DaemonUnavailable('the client has gone'));
          else if (r.t === 'result') resolve(r.res);
          else reject(new DaemonUnavailable(r.t === 'error' ? r.message : `unexpected ${r.t}`));
        },
      }, req, origin);
    });
    runCiccForClient(args, ctx, compile).then(code => {
      this.send(c, { t: 'cicc-done', id: m.id, code, stderr: out.join(''), ...(fallback ? { fallback: true } : {}) });
    }, e => {
      this.send(c, { t: 'error', id: m.id, message: (e as Error).message });
    });
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => { this.flushTimer = undefined; this.service.flushCounters(); }, 200);
  }

  status(): DaemonStatus {
    const mem = process.memoryUsage();
    return {
      proto: PROTOCOL, version: ptxdVersion(), stamp: buildStamp(), cacheDir: this.cacheDir,
      pid: process.pid, socket: this.o.socket, log: this.log, uptimeS: Math.round((Date.now() - this.started) / 1000),
      idleTimeoutS: this.idleMs / 1000, connections: this.conns.size, queued: this.scheduler.stats().queued,
      served: this.served, hits: this.hits, ciccCalls: this.ciccCalls, rssBytes: mem.rss, heapUsedBytes: mem.heapUsed,
      cacheEnabled: this.service.getStore() !== undefined,
      remote: this.service.getRemote()?.status(),
      scheduler: this.poolStatus(),
    };
  }

  private poolStatus(): PoolStatus {
    return {
      ...this.scheduler.stats(), busyPeak: this.pool?.peak ?? 0, workers: this.pool?.size ?? 0, started: this.pool?.started ?? 0, crashes: this.pool?.crashes ?? 0, overBudget: this.pool?.overBudget ?? 0,
      ...this.misses.stats(),
      memory: { budgetBytes: memoryBudget(this.o.env), ...(this.pool?.memory() ?? { held: {}, dropped: 0 }) },
    };
  }

  async shutdown(reason: string, requester?: Socket, id?: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.logLine(`shutting down (${reason}); ${this.served} requests served`);
    if (this.idleTimer) clearInterval(this.idleTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    // Unlink first, then close: from here on no client can reach this daemon, and a replacement can bind.
    try { if (statSync(this.o.socket).isSocket()) unlinkSync(this.o.socket); } catch { /* gone */ }
    this.server?.close();
    try { unlinkSync(pidPath(this.o.socket)); } catch { /* gone */ }
    this.scheduler.dropQueued();
    this.misses.failAll('daemon is shutting down');
    void this.pool?.close();
    // Queued team-cache writes get a moment to go out (a CI build's daemon must not lose them).
    await this.service.getRemote()?.flushed(1000);
    this.service.close();
    if (requester && id !== undefined) this.send(requester, { t: 'ok', id });
    for (const c of this.conns) c.end();
    setTimeout(() => process.exit(0), 50).unref();
    setTimeout(() => process.exit(0), 2000);
  }
}
