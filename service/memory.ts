// The daemon's memory budget: what a compile worker keeps between compiles (prelude caches, recent compiles'
// unit levels and texts, decoded kernel pieces) is held under one least-recently-used order with a size
// limit. PTXD_MEMORY sets the limit for the whole daemon (bytes, or with a K, M or G suffix; default 512 MiB),
// shared evenly by the pool's workers; after a compile, a worker drops the least recently used items, across
// all its caches, until what they hold is within its share, and when it has been idle a while it drops them
// all. Dropping only makes a later compile slower (the LMDB store keeps every piece on disk), never different.

import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Evictable } from '../compiler/index';

export const DEFAULT_MEMORY = 512 * 1024 * 1024;

/** PTXD_MEMORY in bytes (`1073741824`, `768M`, `1G`, `65536K`), or the default when unset or unreadable. */
export function memoryBudget(env: NodeJS.ProcessEnv): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$/i.exec(env.PTXD_MEMORY ?? '');
  if (!m) return DEFAULT_MEMORY;
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.floor(Number(m[1]) * unit);
}

/** PTXD_MEMORY_IDLE_S in ms (default 60 s): how long a compile worker waits idle before it drops its caches. */
export function memoryIdleMs(env: NodeJS.ProcessEnv): number {
  const n = Number(env.PTXD_MEMORY_IDLE_S);
  return env.PTXD_MEMORY_IDLE_S !== undefined && Number.isFinite(n) && n >= 0 ? n * 1000 : 60_000;
}

/**
 * A compile worker's own heap (V8's figures for its isolate), beside what its caches hold: the caches are part of
 * it, the rest is the working memory of its last compile until the collector frees it. Bytes.
 */
export interface WorkerHeap {
  /** Committed for the isolate's heap (young generation included). */
  total: number;
  /** In use by live and not yet collected objects. */
  used: number;
  /** Committed for the young generation (its semi-spaces). */
  young: number;
  /** Array buffers and other memory outside the heap that its objects hold (token arrays). */
  external: number;
}

export function heapNow(): WorkerHeap {
  const h = getHeapStatistics();
  const young = getHeapSpaceStatistics().find(s => s.space_name === 'new_space')?.space_size ?? 0;
  return { total: h.total_heap_size, used: h.used_heap_size, young, external: h.external_memory };
}

/**
 * The young generation of a compile worker (MiB, `resourceLimits.maxYoungGenerationSizeMb`). V8's default grows
 * to 32 MiB of semi-spaces per thread (48 with the space for large new objects); a compile's objects either die
 * young or live as long as the unit, so smaller semi-spaces cost few extra scavenges and keep each worker's
 * resident memory that much lower.
 */
export const WORKER_YOUNG_MB = 8;

/**
 * A full collection of this thread's heap, for a worker releasing its memory when idle (the caches it dropped
 * and its last compile's garbage are otherwise kept until its next compile collects them). Node offers no call
 * for it without --expose-gc: the flag (V8's, for the whole process) gives the contexts made after it a `gc`
 * function, and a new context of this thread has the collector of this same isolate. Twice: the typed arrays'
 * backing stores (the prelude's token tables, most of what a worker frees) are released only by the array buffer
 * sweep the second collection completes; after one, `external_memory` still counts 40 MiB of dropped arrays.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}
let gc: (() => void) | undefined;

/** What each cache holds (`ptxd stats`). */
export type MemoryHeld = Record<string, { entries: number; bytes: number }>;

/** One LRU over several caches: each keeps its own items in use order; the oldest of all goes first. */
export class MemoryLru {
  /** Items dropped to keep within the limit, and to release memory when idle. */
  dropped = 0;

  /** `caches` is asked each time (a worker opens its piece store on its first compile). */
  constructor(private readonly caches: () => Record<string, Evictable | undefined>) {}

  held(): MemoryHeld {
    const out: MemoryHeld = {};
    for (const [name, c] of Object.entries(this.caches())) if (c) out[name] = c.held();
    return out;
  }

  /** Drops least recently used items, whichever cache holds them, until all hold at most `limit` bytes together; returns how many. */
  enforce(limit: number): number {
    const caches = Object.values(this.caches()).filter((c): c is Evictable => c !== undefined);
    const size = new Map(caches.map(c => [c, c.held().bytes]));
    let total = [...size.values()].reduce((a, b) => a + b, 0);
    let n = 0;
    while (total > limit) {
      let oldest: Evictable | undefined, at = Infinity;
      for (const c of caches) { const u = c.oldestUse(); if (u !== undefined && u < at) { at = u; oldest = c; } }
      if (!oldest) break;
      oldest.dropOldest();
      const now = oldest.held().bytes;
      total -= size.get(oldest)! - now;
      size.set(oldest, now);
      n++;
    }
    this.dropped += n;
    return n;
  }
}
