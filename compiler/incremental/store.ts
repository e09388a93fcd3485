// Where per-root results live between compiles. The compiler only gets and puts; the daemon backs this with
// LMDB (service/unit.ts), tests with a Map.

import type { Ev } from './record';

/** A function of a root's optimised module: its definition piece, or only a declaration. */
export interface EntryFunc {
  kernel?: 1;
  /** `.func` prototype for a forward or `.extern` declaration; null where none can be written (intrinsics). */
  header: string | null;
  /** Definition text (FN_MARK for the ordinal, string globals under this compile's names) and the functions it names. */
  text?: string;
  funcRefs?: string[];
}

/** Everything one root (kernel) contributed to its unit, and what it depended on. */
export interface RootEntry {
  /** Lookup keys the front end used (compiler/frontend/unit.ts trace) and their digest at compile time. */
  trace: string[];
  digest: string;
  /** IR-generation order (compiler/incremental/record.ts). */
  events: Record<string, Ev[]>;
  queued: Record<string, 1>;
  creation: Record<string, Ev[]>;
  strs: Record<string, string>;
  /** Per function body: the libdevice functions it calls, in the order linking sees them. */
  nvRefs: Record<string, string[]>;
  /** The optimised module: functions and globals by name. */
  funcs: Record<string, EntryFunc>;
  globals: Record<string, { text: string; funcRefs: string[] }>;
  /** Globals IR generation made that the optimiser removed (nothing referred to them any more). */
  dropped?: string[];
}

/**
 * The lookup-key lists a root (by its own declaration) was compiled with, most recent first. Each list's
 * digest over the current index names the entry to use, so earlier versions stay reachable (an edit undone
 * is a hit) and entries are immutable.
 */
export interface RootTraces { traces: string[][] }

export type StoreValue = RootEntry | RootTraces;

export interface PieceStore {
  get(key: string): StoreValue | undefined;
  put(key: string, value: StoreValue): void;
  /** Atomic read-modify-write (stores shared by several threads or processes need it for the trace lists). */
  update?(key: string, f: (old: StoreValue | undefined) => StoreValue): void;
  /** Runs f, whose writes the store may commit together. */
  batch?(f: () => void): void;
}

/** In-memory store (tests, and the in-process compile without a daemon). */
export class MemoryPieceStore implements PieceStore {
  readonly map = new Map<string, StoreValue>();
  get(key: string): StoreValue | undefined { return this.map.get(key); }
  put(key: string, value: StoreValue): void { this.map.set(key, value); }
}
