// What a cache that lives between compiles shows a memory budget (service/memory.ts keeps one LRU over all of a
// worker's caches: preludes, recent compiles, decoded pieces). Ground floor: imports nothing.

/** A cache whose items a memory budget may drop, least recently used first. */
export interface Evictable {
  /** Items held and their estimated size in bytes. */
  held(): { entries: number; bytes: number };
  /** When the least recently used item was last used (performance.now()), or undefined when empty. */
  oldestUse(): number | undefined;
  /** Drops the least recently used item (a later compile that needed it only runs slower). */
  dropOldest(): void;
}
