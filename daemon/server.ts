// The daemon: a unix-socket server that compiles units with the unit cache.
// - Cache hits are answered as soon as the request arrives; misses go through a queue, one compile per
//   event-loop turn, so handshakes, hits and status requests are served between long compiles.
// - Counters are written to the store shortly after requests (and on shutdown / a flush request).
// - Exits after PTXD_IDLE_TIMEOUT seconds without clients, on SIGTERM/SIGINT, or when a newer client
//   asks it to: stops listening, removes its socket, answers queued requests with an error (their
//   clients retry or compile in-process), flushes counters, closes the store.

import { appendFileSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { encodeFrame, FrameReader, PROTOCOL, type DaemonStatus, type Message } from './protocol';
import { UnitService, type Lookup } from './unit';
import { DaemonConnection } from './client';
import { buildStamp, compilerHash, ptxdVersion } from './version';
import { cacheDir, cacheSizeLimit, idleTimeoutMs, logPath, pidPath } from './paths';

export interface DaemonOptions { socket: string; env: NodeJS.ProcessEnv }

interface Job { lookup: Lookup; conn: Socket; id: number }

export class Daemon {
  private server: Server | undefined;
  private readonly service: UnitService;
  private readonly queue: Job[] = [];
  /** Requests waiting for a queued or running compile of the same unit key (e.g. a build during `ptxd watch`). */
  private readonly waiting = new Map<string, Job[]>();
  private draining = false;
  private readonly conns = new Set<Socket>();
  private lastActivity = Date.now();
  private served = 0;
  private hits = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private readonly started = Date.now();
  private readonly cacheDir: string;
  private readonly idleMs: number;
  private readonly log: string;

  constructor(private readonly o: DaemonOptions) {
    this.cacheDir = cacheDir(o.env);
    this.idleMs = idleTimeoutMs(o.env);
    this.log = logPath(o.socket);
    this.service = new UnitService({
      cacheDir: this.cacheDir, sizeLimit: cacheSizeLimit(o.env), env: o.env, warnOnce: true, keepPrelude: true, log: s => this.logLine(s),
    });
  }

  private logLines = 0;

  logLine(s: string): void {
    try {
      // Keep the log bounded: past 10 MB it moves to <log>.1 (one generation kept).
      if (++this.logLines % 500 === 0 && statSync(this.log).size > 10 * 1024 * 1024) renameSync(this.log, `${this.log}.1`);
    } catch { /* no log yet */ }
    try { appendFileSync(this.log, `${new Date().toISOString()} [${process.pid}] ${s}\n`); } catch { /* no log then */ }
  }

  async start(): Promise<void> {
    // Warm up what every compile needs, so the first request does not pay for it.
    compilerHash();
    this.service.getStore();
    require('../compiler/compile');
    mkdirSync(dirname(this.o.socket), { recursive: true, mode: 0o700 });
    await this.listen();
    writeFileSync(pidPath(this.o.socket), `${process.pid}\n`);
    this.logLine(`started: ptxd ${ptxdVersion()} build ${buildStamp()}, socket ${this.o.socket}, cache ${this.cacheDir}, ` +
      `idle timeout ${this.idleMs / 1000} s`);
    process.on('SIGTERM', () => { void this.shutdown('SIGTERM'); });
    process.on('SIGINT', () => { void this.shutdown('SIGINT'); });
    process.on('SIGHUP', () => { /* detached: ignore the terminal going away */ });
    if (this.idleMs > 0) {
      this.idleTimer = setInterval(() => {
        if (this.conns.size === 0 && this.queue.length === 0 && Date.now() - this.lastActivity >= this.idleMs) {
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
          s.listen(this.o.socket, () => { s.removeListener('error', reject); this.server = s; resolve(); });
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
    let greeted = false;
    c.on('data', chunk => {
      this.lastActivity = Date.now();
      let msgs: Message[];
      try {
        msgs = reader.push(chunk);
      } catch (e) {
        this.logLine(`bad frame from client: ${(e as Error).message}`);
        c.destroy();
        return;
      }
      for (const m of msgs) {
        if (!greeted && m.t !== 'hello') { c.destroy(); return; }
        greeted = true;
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
    c.on('close', () => { this.conns.delete(c); this.lastActivity = Date.now(); });
  }

  private send(c: Socket, m: Message): void {
    if (!c.destroyed) c.write(encodeFrame(m));
  }

  private onMessage(c: Socket, m: Message): void {
    switch (m.t) {
      case 'hello':
        this.send(c, { t: 'welcome', proto: PROTOCOL, version: ptxdVersion(), stamp: buildStamp(), cacheDir: this.cacheDir, pid: process.pid });
        return;
      case 'compile': {
        if (this.stopping) { this.send(c, { t: 'error', id: m.id, message: 'daemon is shutting down' }); return; }
        const lookup = this.service.lookup(m.req);
        this.served++;
        if (lookup.response) {
          if (lookup.response.cached) this.hits++;
          this.send(c, { t: 'result', id: m.id, res: lookup.response });
          this.scheduleFlush();
          return;
        }
        const key = lookup.key;
        if (key !== undefined && this.waiting.has(key)) { this.waiting.get(key)!.push({ lookup, conn: c, id: m.id }); return; }
        if (key !== undefined) this.waiting.set(key, []);
        this.queue.push({ lookup, conn: c, id: m.id });
        this.drain();
        return;
      }
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

  /** Compiles queued misses one per event-loop turn. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    const step = () => {
      const job = this.queue.shift();
      if (!job || this.stopping) { this.draining = false; return; }
      const key = job.lookup.key;
      const waiters = key !== undefined ? this.waiting.get(key) ?? [] : [];
      if (key !== undefined) this.waiting.delete(key);
      // A client that has gone away (killed build) does not need its unit compiled, unless others wait for it.
      const live = waiters.filter(w => !w.conn.destroyed);
      if (!job.conn.destroyed || live.length > 0) {
        const res = this.service.compile(job.lookup);
        this.send(job.conn, { t: 'result', id: job.id, res });
        for (const w of live) {
          const shared = this.service.shared(job.lookup, res, w.lookup);
          if (shared) { this.hits++; this.send(w.conn, { t: 'result', id: w.id, res: shared }); } else this.queue.push(w);
        }
        this.lastActivity = Date.now();
        this.scheduleFlush();
      }
      setImmediate(step);
    };
    setImmediate(step);
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
      idleTimeoutS: this.idleMs / 1000, connections: this.conns.size, queued: this.queue.length,
      served: this.served, hits: this.hits, rssBytes: mem.rss, heapUsedBytes: mem.heapUsed,
      cacheEnabled: this.service.getStore() !== undefined,
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
    const waiters = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const job of [...this.queue.splice(0), ...waiters]) this.send(job.conn, { t: 'error', id: job.id, message: 'daemon is shutting down' });
    this.service.close();
    if (requester && id !== undefined) this.send(requester, { t: 'ok', id });
    for (const c of this.conns) c.end();
    setTimeout(() => process.exit(0), 50).unref();
    setTimeout(() => process.exit(0), 2000);
  }
}
