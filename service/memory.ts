// The daemon's memory budget: what a compile worker keeps between compiles (prelude caches, recent compiles'
// unit levels and texts, decoded kernel pieces) is held under one least-recently-used order with a size
// limit. PTXD_MEMORY sets the limit for the whole daemon (bytes, or with a K, M or G suffix; default 512 MiB),
// shared evenly by the pool's workers; after a compile, a worker drops the least recently used items, across
// all its caches, until what they hold is within its share, and when it has been idle a while it drops them
// all. Dropping only makes a later compile slower (the LMDB store keeps every piece on disk), never different.

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
