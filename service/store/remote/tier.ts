// The remote tier: a team cache behind the local LMDB store, shared through Redis or HTTP.
// - Read: after a local miss, before compiling. A value is used only when its signature (sign.ts) is
//   valid for its key and it passes the local value check (value.ts); anything else is a miss.
// - Write: after a compile, queued and sent in the background; only a client with the write key writes.
// - Never slower than no cache: short timeouts (backend), a circuit breaker that stops asking a
//   remote after `breakerFailures` failures or slow answers in a row for `breakerCooldownMs`, then lets one
//   probe through; a bounded write queue that drops (and counts) rather than waits.
// Counters are gathered here and drained into the store's statistics by the UnitService.

import type { Counters } from '../store';
import type { RemoteStatus } from '../../../protocol/status';
import { decodeValue, encodeValue, type UnitValue } from '../value';
import type { RemoteBackend } from './backend';
import { remoteConfig, type RemoteConfig } from './config';
import { HttpBackend } from './http';
import { RedisBackend } from './redis';
import { sign, verify } from './sign';

export type RemoteCounters = Pick<Counters,
  'remoteHits' | 'remoteMisses' | 'remoteErrors' | 'remoteBadSignatures' | 'remoteSkipped' | 'remoteWrites' | 'remoteWriteErrors' |
  'remoteDropped' | 'remoteBytesIn' | 'remoteBytesOut' | 'remoteMs' | 'remoteWriteMs'>;

export function emptyRemoteCounters(): RemoteCounters {
  return {
    remoteHits: 0, remoteMisses: 0, remoteErrors: 0, remoteBadSignatures: 0, remoteSkipped: 0, remoteWrites: 0, remoteWriteErrors: 0,
    remoteDropped: 0, remoteBytesIn: 0, remoteBytesOut: 0, remoteMs: 0, remoteWriteMs: 0,
  };
}


/** Writes sent at once; more wait in the queue. */
const WRITERS = 2;

/** The name of a unit's entry on the server. */
export const unitName = (key: string) => `unit-${key}`;

export function openBackend(c: RemoteConfig): RemoteBackend {
  const o = {
    timeoutMs: c.timeoutMs, writeTimeoutMs: Math.max(1000, c.timeoutMs * 10), connectTimeoutMs: c.connectTimeoutMs,
    ttlSeconds: c.ttlSeconds, writeKey: c.writeKey,
  };
  return c.url.startsWith('redis:') ? new RedisBackend(c.url, o) : new HttpBackend(c.url, o);
}

export class RemoteTier {
  private counters = emptyRemoteCounters();
  private failures = 0;
  private openUntil = 0;
  private probing = false;
  private readonly queue: { name: string; value: UnitValue }[] = [];
  private writing = 0;
  private idle: (() => void)[] = [];
  private warnedBad = 0;

  constructor(private readonly c: RemoteConfig, private readonly backend: RemoteBackend, private readonly log: (s: string) => void = () => {}) {}

  /** The tier configured by `env`, undefined when none is (a configuration error is logged once). */
  static fromEnv(env: NodeJS.ProcessEnv, log: (s: string) => void): RemoteTier | undefined {
    const c = remoteConfig(env);
    if (c === undefined) return undefined;
    if ('error' in c) { log(`ptxd: warning: ${c.error}`); return undefined; }
    try {
      const t = new RemoteTier(c, openBackend(c), log);
      log(`remote cache ${t.backend.where} (${c.writeKey ? 'read-write' : 'read-only'}), timeout ${c.timeoutMs} ms, connect ${c.connectTimeoutMs} ms`);
      return t;
    } catch (e) {
      log(`ptxd: warning: remote cache off: ${(e as Error).message}`);
      return undefined;
    }
  }

  get canWrite(): boolean { return this.c.writeKey !== undefined; }

  status(): RemoteStatus {
    const now = Date.now();
    return {
      where: this.backend.where, write: this.canWrite, queued: this.queue.length + this.writing,
      breaker: this.failures < this.c.breakerFailures ? 'closed' : now < this.openUntil ? 'open' : 'half-open',
    };
  }

  /** Whether a request may go out now (false while the breaker is open or a probe is out). */
  private admit(): boolean {
    if (this.failures < this.c.breakerFailures) return true;
    if (Date.now() < this.openUntil || this.probing) return false;
    this.probing = true;
    return true;
  }

  private succeeded(ms: number): void {
    this.probing = false;
    // An answer that took more than half the timeout counts against the remote like a failure.
    if (ms > this.c.timeoutMs / 2) { this.failed(`slow answer (${ms.toFixed(0)} ms)`); return; }
    if (this.failures >= this.c.breakerFailures) this.log(`remote cache ${this.backend.where} answers again`);
    this.failures = 0;
  }

  private failed(why: string): void {
    this.probing = false;
    this.failures++;
    if (this.failures >= this.c.breakerFailures) {
      if (Date.now() >= this.openUntil) {
        this.log(`remote cache ${this.backend.where}: ${why}; not asked for ${this.c.breakerCooldownMs / 1000} s`);
      }
      this.openUntil = Date.now() + this.c.breakerCooldownMs;
    }
  }

  /** The value stored remotely for a unit key; undefined on a miss, an error, a bad signature or an open breaker. */
  async get(key: string): Promise<UnitValue | undefined> {
    if (!this.admit()) { this.counters.remoteSkipped++; return undefined; }
    const name = unitName(key);
    const t0 = performance.now();
    let signed: Buffer | undefined;
    try {
      signed = await this.backend.get(name);
    } catch (e) {
      this.counters.remoteMs += performance.now() - t0;
      this.counters.remoteErrors++;
      this.failed((e as Error).message);
      return undefined;
    }
    const ms = performance.now() - t0;
    this.counters.remoteMs += ms;
    this.succeeded(ms);
    if (signed === undefined) { this.counters.remoteMisses++; return undefined; }
    this.counters.remoteBytesIn += signed.length;
    const raw = verify(this.c.key, name, signed);
    const value = raw && decodeValue(raw);
    if (!value) {
      // Tampered, written with another team key, or damaged: never used. Warn (a few times, then only count).
      this.counters.remoteBadSignatures++;
      if (this.warnedBad++ < 5) this.log(`ptxd: warning: remote cache entry ${key.slice(0, 16)}… has a bad signature; ignored (recompiling)`);
      return undefined;
    }
    this.counters.remoteHits++;
    return value;
  }

  /** Queues a compiled value for writing (a no-op on a read-only client). Never waits. */
  offer(key: string, value: UnitValue): void {
    if (!this.canWrite) return;
    if (this.queue.length >= this.c.queueLimit) { this.counters.remoteDropped++; return; }
    this.queue.push({ name: unitName(key), value });
    // Encoding and signing happen off the compile's path too.
    setImmediate(() => this.pump());
  }

  private pump(): void {
    while (this.writing < WRITERS && this.queue.length > 0) {
      const job = this.queue.shift()!;
      if (!this.admit()) { this.counters.remoteDropped++; continue; }
      this.writing++;
      const signed = sign(this.c.key, job.name, encodeValue(job.value));
      const t0 = performance.now();
      this.backend.put(job.name, signed).then(() => {
        this.counters.remoteWrites++;
        this.counters.remoteBytesOut += signed.length;
        this.probing = false;
        this.failures = 0;
      }, e => {
        this.counters.remoteWriteErrors++;
        this.failed(`write failed: ${(e as Error).message}`);
      }).finally(() => {
        this.counters.remoteWriteMs += performance.now() - t0;
        this.writing--;
        if (this.queue.length > 0) this.pump();
        else if (this.writing === 0) for (const f of this.idle.splice(0)) f();
      });
    }
    if (this.writing === 0 && this.queue.length === 0) for (const f of this.idle.splice(0)) f();
  }

  /** Resolves when every queued write has been sent (or after `ms`). */
  flushed(ms: number): Promise<void> {
    if (this.writing === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise(resolve => {
      const t = setTimeout(resolve, ms);
      this.idle.push(() => { clearTimeout(t); resolve(); });
    });
  }

  /** The counters gathered since the last drain (times rounded to 0.1 ms). */
  drain(): RemoteCounters {
    const c = this.counters;
    this.counters = emptyRemoteCounters();
    c.remoteMs = Math.round(c.remoteMs * 10) / 10;
    c.remoteWriteMs = Math.round(c.remoteWriteMs * 10) / 10;
    return c;
  }

  close(): void {
    this.backend.close();
  }
}
