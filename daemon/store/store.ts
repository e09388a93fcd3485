// The LMDB cache (lmdb-js). One environment per cache directory, shared safely by any number of
// daemons and in-process clients (LMDB serialises writers with its own lock; readers never block).
//   units  key → value bytes (value.ts: length + hash checked on read)
//   lru    key → [last access (ms), size]      for least-recently-used eviction
//   meta   'total' → bytes of all values; 'stats' → counters (see Counters)
// Nothing here may fail a compile: callers catch and carry on without the cache.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { decodeValue, encodeValue, type UnitValue } from './value';

export interface Counters {
  requests: number;
  hits: number;
  misses: number;
  /** Values that failed validation (treated as misses and rewritten). */
  corrupt: number;
  /** Units our compiler could not handle (the client fell back or failed). */
  unsupported: number;
  /** Units with compile errors. */
  errors: number;
  /** Errors of ptxd that the real cicc did not confirm (it compiled the unit): ptxd defects, see fallbacks.jsonl. */
  falseErrors: number;
  /** Fallbacks answered from the cache (the real cicc's stored outputs) instead of running it. */
  fallbackHits: number;
  /** Milliseconds spent compiling misses. */
  compileMs: number;
  /** Milliseconds of compiling that hits avoided (the original compile time of each hit). */
  savedMs: number;
  evictions: number;
  // The remote tier (remote/tier.ts). Hits served from it count in `hits` as well.
  remoteHits: number;
  remoteMisses: number;
  /** Reads that failed (connection refused, timeout, server error). */
  remoteErrors: number;
  /** Entries rejected: signature not valid for their key (tampered, another team key) or not a valid value. */
  remoteBadSignatures: number;
  /** Reads not attempted while the circuit breaker was open. */
  remoteSkipped: number;
  remoteWrites: number;
  remoteWriteErrors: number;
  /** Writes dropped: queue full or breaker open. */
  remoteDropped: number;
  remoteBytesIn: number;
  remoteBytesOut: number;
  /** Milliseconds compiles waited for remote reads. */
  remoteMs: number;
  /** Milliseconds of background writes. */
  remoteWriteMs: number;
}

export function emptyCounters(): Counters {
  return {
    requests: 0, hits: 0, misses: 0, corrupt: 0, unsupported: 0, errors: 0, falseErrors: 0, fallbackHits: 0, compileMs: 0, savedMs: 0, evictions: 0,
    remoteHits: 0, remoteMisses: 0, remoteErrors: 0, remoteBadSignatures: 0, remoteSkipped: 0, remoteWrites: 0, remoteWriteErrors: 0,
    remoteDropped: 0, remoteBytesIn: 0, remoteBytesOut: 0, remoteMs: 0, remoteWriteMs: 0,
  };
}

/** Keys of per-root entries of incremental compiles (daemon/unit.ts LmdbPieceStore); every other key is a unit. */
export const PIECE_PREFIX = 'root:';
const isPiece = (k: string): boolean => k.startsWith(PIECE_PREFIX);

export interface StoreInfo {
  path: string;
  /** Cached units (not counting per-root entries). */
  entries: number;
  /** Per-root entries of incremental compiles. */
  pieces?: number;
  bytes: number; limit: number; fileBytes: number;
}

/** Only touch the access time of a hit this often: a hit should not cost a write every time. */
const ATIME_GRANULARITY_MS = 60_000;

export class Store {
  private lastStamp = 0;

  private constructor(
    readonly path: string,
    private readonly root: RootDatabase,
    private readonly units: Database<Buffer, string>,
    private readonly lru: Database<[number, number], string>,
    private readonly meta: Database<unknown, string>,
    readonly limit: number,
    private readonly atimeGranularityMs: number,
  ) {}

  /** Opens (creating) the store in `dir`. Throws when the directory cannot be used. */
  static open(dir: string, limit: number, atimeGranularityMs = ATIME_GRANULARITY_MS): Store {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'units.mdb');
    const root = open({ path, maxDbs: 8, compression: false, noSubdir: true });
    const units = root.openDB<Buffer, string>({ name: 'units', encoding: 'binary' });
    const lru = root.openDB<[number, number], string>({ name: 'lru', encoding: 'msgpack' });
    const meta = root.openDB<unknown, string>({ name: 'meta', encoding: 'msgpack' });
    // Opening does not prove we can write (a read-only directory with an existing store): do it now.
    root.transactionSync(() => { meta.putSync('opened', Date.now()); });
    return new Store(path, root, units, lru, meta, limit, atimeGranularityMs);
  }

  /** Access times, strictly increasing within a process so that eviction order follows use order. */
  private stamp(): number {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return this.lastStamp;
  }

  /** The value for `key`; a value that fails validation is deleted and reported as corrupt. */
  get(key: string): { value?: UnitValue; corrupt: boolean } {
    const raw = this.units.getBinary(key);
    if (raw === undefined) return { corrupt: false };
    const value = decodeValue(raw);
    if (!value) {
      this.remove(key);
      return { corrupt: true };
    }
    const now = this.stamp();
    const at = this.lru.get(key);
    if (!at || now - at[0] >= this.atimeGranularityMs) {
      // Asynchronous (batched by lmdb-js): a hit does not wait for a write.
      this.lru.put(key, [now, raw.length]).catch(() => { /* best effort */ });
    }
    return { value, corrupt: false };
  }

  /** Stores a value; evicts least recently used values when over the limit. Returns evictions. */
  put(key: string, value: UnitValue): number {
    const buf = encodeValue(value);
    if (buf.length > this.limit) return 0;
    return this.root.transactionSync(() => {
      const old = this.lru.get(key);
      const total = this.total() - (old ? old[1] : 0) + buf.length;
      this.units.putSync(key, buf);
      this.lru.putSync(key, [this.stamp(), buf.length]);
      this.meta.putSync('total', total);
      return total > this.limit ? this.evict(total, key) : 0;
    });
  }

  /** Runs f in one write transaction: the puts and updates inside commit together (one sync to disk). */
  batch(f: () => void): void {
    this.root.transactionSync(f);
  }

  /**
   * Read-modify-write of one value in a single write transaction (atomic across threads and processes):
   * `f` gets the current value (undefined when absent or corrupt) and returns the new one.
   */
  update(key: string, f: (old: UnitValue | undefined) => UnitValue): number {
    return this.root.transactionSync(() => {
      const raw = this.units.getBinary(key);
      const old = raw === undefined ? undefined : decodeValue(raw);
      return this.put(key, f(old));
    });
  }

  /** Writes raw bytes as a value (tests and `cache verify` use it to inspect corruption handling). */
  putRaw(key: string, bytes: Buffer): void {
    this.root.transactionSync(() => {
      const old = this.lru.get(key);
      this.units.putSync(key, bytes);
      this.lru.putSync(key, [this.stamp(), bytes.length]);
      this.meta.putSync('total', this.total() - (old ? old[1] : 0) + bytes.length);
    });
  }

  getRaw(key: string): Buffer | undefined {
    const b = this.units.getBinary(key);
    return b === undefined ? undefined : Buffer.from(b);
  }

  keys(): string[] {
    return [...this.units.getKeys()] as string[];
  }

  private total(): number {
    const t = this.meta.get('total');
    return typeof t === 'number' ? t : 0;
  }

  /** Inside a write transaction: drop the oldest entries until the total is 90% of the limit. */
  private evict(total: number, keep: string): number {
    const entries: { key: string; at: number; size: number }[] = [];
    for (const { key, value } of this.lru.getRange()) entries.push({ key: key as string, at: value[0], size: value[1] });
    entries.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
    const target = Math.floor(this.limit * 0.9);
    let n = 0;
    for (const e of entries) {
      if (total <= target) break;
      if (e.key === keep) continue;
      this.units.removeSync(e.key);
      this.lru.removeSync(e.key);
      total -= e.size;
      n++;
    }
    this.meta.putSync('total', Math.max(0, total));
    return n;
  }

  remove(key: string): void {
    this.root.transactionSync(() => {
      const old = this.lru.get(key);
      this.units.removeSync(key);
      this.lru.removeSync(key);
      if (old) this.meta.putSync('total', Math.max(0, this.total() - old[1]));
    });
  }

  /** Adds counter deltas (one write transaction, safe against other processes doing the same). */
  addCounters(d: Partial<Counters>): void {
    this.root.transactionSync(() => {
      const c = { ...emptyCounters(), ...(this.meta.get('stats') as Partial<Counters> | undefined) };
      for (const k of Object.keys(d) as (keyof Counters)[]) c[k] += d[k] ?? 0;
      this.meta.putSync('stats', c);
    });
  }

  counters(): Counters {
    return { ...emptyCounters(), ...(this.meta.get('stats') as Partial<Counters> | undefined) };
  }

  info(): StoreInfo {
    let entries = 0, pieces = 0;
    for (const k of this.units.getKeys()) if (isPiece(k as string)) pieces++; else entries++;
    const s = this.root.getStats() as { treeBranchPageCount?: number; mapSize?: number; lastPageNumber?: number; pageSize?: number };
    const fileBytes = (s.lastPageNumber ?? 0) * (s.pageSize ?? 4096);
    return { path: this.path, entries, pieces, bytes: this.total(), limit: this.limit, fileBytes };
  }

  /** Removes every value (counters too when `counters`); returns the number of units removed. */
  clear(counters: boolean): number {
    return this.root.transactionSync(() => {
      let n = 0;
      for (const k of this.units.getKeys()) { this.units.removeSync(k); if (!isPiece(k as string)) n++; }
      for (const k of this.lru.getKeys()) this.lru.removeSync(k);
      this.meta.putSync('total', 0);
      if (counters) this.meta.removeSync('stats');
      return n;
    });
  }

  /** Checks every value (per-root entries too); removes the corrupt ones. `checked` counts the units among them. */
  verify(progress?: (done: number, total: number) => void): { checked: number; corrupt: string[] } {
    const keys = this.keys();
    const corrupt: string[] = [];
    keys.forEach((k, i) => {
      const raw = this.units.getBinary(k);
      if (raw !== undefined && !decodeValue(raw)) corrupt.push(k);
      if (progress && (i % 64 === 0 || i === keys.length - 1)) progress(i + 1, keys.length);
    });
    for (const k of corrupt) this.remove(k);
    return { checked: keys.filter(k => !isPiece(k)).length, corrupt };
  }

  async flushed(): Promise<void> {
    await this.root.flushed;
  }

  close(): void {
    void this.root.close();
  }
}
