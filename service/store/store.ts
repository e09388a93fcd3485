// The LMDB cache (lmdb-js). One environment per cache directory, shared safely by any number of
// daemons and in-process clients (LMDB serialises writers with its own lock; readers never block).
//   units  key → value bytes (value.ts: length + hash checked on read)
//   lru    key → [last access (ms), size]      for least-recently-used eviction
//   meta   'total' → bytes of all values; 'stats' → counters (see Counters)
// Nothing here may fail a compile: callers catch and carry on without the cache.

import { linkSync, lstatSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { decodeValue, encodeValue, type UnitValue } from './value';
import { checkFile, checkLockFile, isStamped, quarantine, stamp, walkFile } from './guard';
import { makeDirs } from '../mkdirs';
import { errorName, isCorruption } from '../errno';

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
  /** Milliseconds of compiling that team hits avoided (their original compile times; part of savedMs). */
  remoteSavedMs: number;
  /** Hits (local or team) compiled at another checkout path or with another module id, moved here (service/relocate.ts). */
  movedHits: number;
}

export function emptyCounters(): Counters {
  return {
    requests: 0, hits: 0, misses: 0, corrupt: 0, unsupported: 0, errors: 0, falseErrors: 0, fallbackHits: 0, compileMs: 0, savedMs: 0, evictions: 0,
    remoteHits: 0, remoteMisses: 0, remoteErrors: 0, remoteBadSignatures: 0, remoteSkipped: 0, remoteWrites: 0, remoteWriteErrors: 0,
    remoteDropped: 0, remoteBytesIn: 0, remoteBytesOut: 0, remoteMs: 0, remoteWriteMs: 0, remoteSavedMs: 0, movedHits: 0,
  };
}

/** Keys of per-root entries of incremental compiles (service/unit.ts LmdbPieceStore); every other key is a unit. */
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

/**
 * When to walk the whole file in a child process before mapping it (guard.ts): 'always' (the daemon, once
 * at start), 'auto' (only a file never probed), 'never' (the cheap check only).
 */
export type ProbePolicy = 'always' | 'auto' | 'never';

/** A damaged store found at open: why, and where the damaged file was moved. */
export interface Repair { why: string; keptAs: string }

export const STORE_FILE = 'units.mdb';

/** Store files this thread has open (how many times): see vetStoreFile. */
const openHere = new Map<string, number>();

/** The one warning a repair gives. */
export function repairWarning(path: string, r: Repair): string {
  return `ptxd: warning: the unit cache "${path}" was damaged (${r.why}); it was moved aside to "${r.keptAs}" and an empty cache started in its place`;
}

/**
 * Checks the store file before anything maps it; moves it aside when damaged. `vouched`: the deep check
 * (or a stamp of an earlier one) found it sound, so this process may stamp it again after its writes.
 */
export function vetStoreFile(path: string, policy: ProbePolicy): { repaired?: Repair; vouched: boolean } {
  const c = checkFile(path);
  if (c.state === 'absent') return { vouched: true };
  if (c.state === 'bad') return { repaired: { why: c.why, keptAs: quarantine(path) }, vouched: true };
  // Reading the lock file means opening and closing it, and closing any descriptor of a file drops every
  // POSIX lock this process holds on it (LMDB's among them): only where this process does not have it open.
  const lock = policy === 'never' || openHere.has(path) ? undefined : checkLockFile(path);
  if (lock !== undefined) return { repaired: { why: lock, keptAs: quarantine(path) }, vouched: true };
  if (policy === 'never') return { vouched: false };
  if (policy === 'auto' && isStamped(path)) return { vouched: true };
  const w = walkFile(path);
  if (w.state === 'bad') return { repaired: { why: w.why, keptAs: quarantine(path) }, vouched: true };
  return { vouched: true };
}

export class Store {
  private lastStamp = 0;
  /** Set when open found the file damaged and replaced it. */
  repaired: Repair | undefined;
  /** The file was found sound at open (or created by us): our writes keep it so. */
  private vouched = false;
  /** The device and inode of the file opened: a file removed or replaced underneath is noticed (replaced()). */
  private readonly identity: string;

  private constructor(
    readonly path: string,
    private readonly root: RootDatabase,
    private readonly units: Database<Buffer, string>,
    private readonly lru: Database<[number, number], string>,
    private readonly meta: Database<unknown, string>,
    readonly limit: number,
    private readonly atimeGranularityMs: number,
  ) {
    this.identity = fileIdentity(path) ?? '';
  }

  /**
   * Opens (creating) the store in `dir`. A damaged file is moved aside and replaced by an empty store
   * (`repaired` says so). Throws, with the errno name as `code`, when the directory cannot be used.
   */
  static open(dir: string, limit: number, atimeGranularityMs = ATIME_GRANULARITY_MS, o: { probe?: ProbePolicy } = {}): Store {
    makeDirs(dir);
    const path = join(dir, STORE_FILE);
    const vet = vetStoreFile(path, o.probe ?? 'auto');
    let repaired = vet.repaired;
    let store: Store;
    try {
      store = Store.openChecked(path, limit, atimeGranularityMs);
    } catch (e) {
      // Damage the checks could not see (LMDB says so itself): once more with a fresh file.
      if (!isCorruption(e) && errorName(e) !== 'EISDIR') throw named(e);
      repaired = { why: `LMDB reports ${errorName(e)}`, keptAs: quarantine(path) };
      store = Store.openChecked(path, limit, atimeGranularityMs);
    }
    openHere.set(path, (openHere.get(path) ?? 0) + 1);
    store.repaired = repaired;
    store.vouched = vet.vouched || repaired !== undefined;
    store.restamp();
    return store;
  }

  private static openChecked(path: string, limit: number, atimeGranularityMs: number): Store {
    let root: RootDatabase | undefined;
    try {
      ensureLockFile(path);
      root = open({ path, maxDbs: 8, compression: false, noSubdir: true });
      const units = root.openDB<Buffer, string>({ name: 'units', encoding: 'binary' });
      const lru = root.openDB<[number, number], string>({ name: 'lru', encoding: 'msgpack' });
      const meta = root.openDB<unknown, string>({ name: 'meta', encoding: 'msgpack' });
      // Opening does not prove we can write (a read-only directory with an existing store): do it now.
      root.transactionSync(() => { meta.putSync('opened', Date.now()); });
      return new Store(path, root, units, lru, meta, limit, atimeGranularityMs);
    } catch (e) {
      try { void root?.close(); } catch { /* already unusable */ }
      throw e;
    }
  }

  /**
   * After our own writes to a file we vouched for: remember its new state as checked, so that the next
   * in-process open need not walk it again (guard.ts stamp). Best effort.
   */
  restamp(): void {
    if (this.vouched && !this.replaced()) stamp(this.path);
  }

  /** True when the store file is no longer the one opened (removed, moved aside, replaced): reopen it. */
  replaced(): boolean {
    return fileIdentity(this.path) !== this.identity;
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
    const n = (openHere.get(this.path) ?? 1) - 1;
    if (n > 0) openHere.set(this.path, n); else openHere.delete(this.path);
    try { void this.root.close(); } catch { /* a damaged environment: nothing left to flush */ }
  }
}

/** Bytes of the lock file we create: LMDB's header and reader table (8272 bytes for lmdb-js's 126 readers), with room. */
const LOCK_FILE_BYTES = 16384;

/**
 * LMDB creates its lock file with ftruncate (a hole) and writes to it through a memory map: on a full file
 * system the first write to a hole is SIGBUS, not ENOSPC. So a missing lock file is created here with real
 * zeros first (a full disk is then an ENOSPC error); LMDB initialises a zeroed lock file as its own.
 */
function ensureLockFile(path: string): void {
  const lock = `${path}-lock`;
  if (lstatSync(lock, { throwIfNoEntry: false })) return;
  const tmp = `${lock}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.alloc(LOCK_FILE_BYTES));
    try { linkSync(tmp, lock); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; }   // EEXIST: another process won
  } finally {
    try { unlinkSync(tmp); } catch { /* not created */ }
  }
}

function fileIdentity(path: string): string | undefined {
  const s = lstatSync(path, { throwIfNoEntry: false });
  return s ? `${s.dev}:${s.ino}` : undefined;
}

/** lmdb-js errors carry numbers (`30`); give them the errno name as `code` like Node's own errors. */
function named(e: unknown): unknown {
  if (e instanceof Error && typeof (e as NodeJS.ErrnoException).code !== 'string') {
    try { (e as NodeJS.ErrnoException).code = errorName(e); } catch { /* frozen */ }
  }
  return e;
}
