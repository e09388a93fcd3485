// The per-root piece store of incremental compiles (compiler/incremental/store.ts PieceStore) kept in the
// LMDB unit store, and the one a worker thread opens for a cache directory.

import type { Evictable, PieceStore, StoreValue } from '../compiler/index';
// the store's own module, not the compiler entry: a cache hit must not load the compiler
import { RecentCompiles } from '../compiler/incremental/store';
import { Store, PIECE_PREFIX } from './store/store';
import type { UnitValue } from './store/value';
import { compilerHash } from '../protocol/version';

/**
 * Per-root entries in the LMDB unit store, under their own key prefix. Each is kept as a unit value whose
 * ptx field holds the entry's JSON, so the store's checks (length + hash on read, `cache verify`) and its
 * size limit and LRU eviction apply to them unchanged; a corrupt or evicted entry is only a miss.
 */
export class LmdbPieceStore implements PieceStore, Evictable {
  /**
   * Decoded entries (immutable, content-addressed), most recently used last, with their JSON's length (their
   * estimated size: UTF-16 strings, and objects about as big as their text) and when last used; trace lists
   * change and are always read.
   */
  private readonly entries = new Map<string, { v: StoreValue; bytes: number; used: number }>();
  private bytes = 0;
  readonly recent = new RecentCompiles();
  constructor(private readonly store: Store, private readonly prefix = compilerHash()) {}

  /** The file under this store was removed or replaced (see Store.replaced). */
  stale(): boolean { return this.store.replaced(); }

  close(): void { this.store.close(); }
  get(key: string): StoreValue | undefined {
    const c = this.entries.get(key);
    if (c) { this.entries.delete(key); this.entries.set(key, c); c.used = performance.now(); return c.v; }
    try {
      const { value } = this.store.get(`${PIECE_PREFIX}${this.prefix}:${key}`);
      const v = value ? JSON.parse(value.ptx) as StoreValue : undefined;
      if (v && !('traces' in v)) this.remember(key, v, value!.ptx.length * 2);
      return v;
    } catch { return undefined; }
  }
  private remember(key: string, v: StoreValue, bytes: number): void {
    const old = this.entries.get(key);
    if (old) { this.bytes -= old.bytes; this.entries.delete(key); }
    this.entries.set(key, { v, bytes, used: performance.now() });
    this.bytes += bytes;
    if (this.entries.size > 4096) this.dropOldest();
  }
  put(key: string, v: StoreValue): void {
    const value = asUnitValue(v);
    if (!('traces' in v)) this.remember(key, v, value.ptx.length * 2);
    try { this.store.put(`${PIECE_PREFIX}${this.prefix}:${key}`, value); }
    catch { /* a full disk never fails a compile */ }
  }

  // Evictable (compiler/memory.ts): the decoded entries
  held(): { entries: number; bytes: number } { return { entries: this.entries.size, bytes: this.bytes }; }
  oldestUse(): number | undefined { return this.entries.values().next().value?.used; }
  dropOldest(): void {
    const first = this.entries.entries().next().value;
    if (!first) return;
    this.entries.delete(first[0]);
    this.bytes -= first[1].bytes;
  }
  batch(f: () => void): void {
    try { this.store.batch(f); } catch { /* a full disk never fails a compile */ }
  }
  update(key: string, f: (old: StoreValue | undefined) => StoreValue): void {
    try {
      this.store.update(`${PIECE_PREFIX}${this.prefix}:${key}`, old => {
        let v: StoreValue | undefined;
        try { v = old ? JSON.parse(old.ptx) as StoreValue : undefined; } catch { v = undefined; }
        return asUnitValue(f(v));
      });
    } catch { /* a full disk never fails a compile */ }
  }
}

function asUnitValue(v: StoreValue): UnitValue {
  return { ok: true, ptx: JSON.stringify(v), stub: '', diagnostics: [], compileMs: 0 };
}

/** Where a compile worker finds the piece store (plain data: it opens the LMDB environment itself). */
export interface PieceStoreRef { dir: string; limit: number }

const openedStores = new Map<string, LmdbPieceStore | null>();
/** The piece store of a cache directory, opened once per thread (null when it cannot be opened). */
export function pieceStoreAt(ref: PieceStoreRef): LmdbPieceStore | undefined {
  let s = openedStores.get(ref.dir);
  if (s?.stale()) s = undefined;
  if (s === undefined) {
    // The daemon's main thread checked the file when it opened it, and holds LMDB's lock: a check here
    // would read the lock file and so drop that lock (store.ts vetStoreFile).
    try { s = new LmdbPieceStore(Store.open(ref.dir, ref.limit, undefined, { probe: 'never' })); } catch { s = null; }
    openedStores.set(ref.dir, s);
    if (s) closeWhenStale(ref.dir, s);
  }
  return s ?? undefined;
}

/**
 * A worker between compiles must not keep a removed cache file open (its disk space stays in use, and a
 * later write would go nowhere): check now and then, close it once replaced; the next compile reopens.
 */
function closeWhenStale(dir: string, s: LmdbPieceStore): void {
  const t = setInterval(() => {
    if (!s.stale()) return;
    clearInterval(t);
    if (openedStores.get(dir) === s) openedStores.delete(dir);
    s.close();
  }, 1000);
  t.unref();
}
