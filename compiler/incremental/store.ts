// Where per-root results live between compiles. The compiler only gets and puts; the daemon backs this with
// LMDB (service/pieces.ts), tests with a Map. The store also holds what recent compiles remember in memory.

import type { Ev, Recording } from './record';
import type { Evictable } from '../memory';
import type { LineTables } from '../backend/lineinfo';

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
  /** -lineinfo: the traced declarations its `.loc` lines lie in, and where (compiler/incremental/lines.ts). */
  anchors?: LineAnchor[];
}

/** A traced declaration (trace key's position, position in that key's declarations), its file, first and last line. */
export type LineAnchor = [key: number, at: number, file: string, first: number, last: number];

/**
 * The lookup-key lists a root (by its own declaration) was compiled with, most recent first. Each list's
 * digest over the current index names the entry to use, so earlier versions stay reachable (an edit undone
 * is a hit) and entries are immutable.
 */
export interface RootTraces { traces: string[][] }

export type StoreValue = RootEntry | RootTraces;

export interface PieceStore {
  /** What compiles through this store remember in memory (unit levels, last compiles and assemblies). */
  readonly recent: RecentCompiles;
  get(key: string): StoreValue | undefined;
  put(key: string, value: StoreValue): void;
  /** Atomic read-modify-write (stores shared by several threads or processes need it for the trace lists). */
  update?(key: string, f: (old: StoreValue | undefined) => StoreValue): void;
  /** Runs f, whose writes the store may commit together. */
  batch?(f: () => void): void;
}

/** The unit-level part compiled fresh every time: device variables (their globals) and the kernels in order. */
export interface Preamble {
  rec: Recording;
  globals: Record<string, { text: string; funcRefs: string[] }>;
  kernels: string[];
  /** -rdc: the device functions of external linkage the module must define, reached by a kernel or not. */
  deviceFns?: string[];
}

/** What the unit level gives the roots: the kernels (by declaration, or a template specialisation by template name) and the rest. */
export interface UnitLevel {
  preamble: Preamble;
  /** With placeholders for the file names (stubTemplate()). */
  stub: string;
  kernelDecls: (number | string)[];
  varDecls: number[];
  templates: Map<string, number[]>;
}

/**
 * The last incremental compile of each unit (by options, libdevice and main file), for the commonest edit: one
 * inside kernel bodies. The skimmer indexes nothing inside a body, so such an edit changes no declaration but
 * those kernels': the unit level and every other root's entry still hold (their traces are checked for the
 * kernels' names) and need no hashing.
 */
export interface LastCompile {
  src: string;
  /** What lex() found of it in the prelude cache (the entry weakly: the cache may drop it). */
  prefix: { entry: WeakRef<object>; delta: number; head: number; end: number } | null;
  level: UnitLevel;
  base: string;
  entries: RootEntry[];
  /** Per root: its declaration, name, the offsets of its body's braces and the closing brace's line and file. */
  bodies: { di: number; name: string; open: number; close: number; line: number; file: number }[];
  /** Root positions by the offset of their bodies. */
  order: number[];
  decls: number;
  /** When it was made (performance.now()): the map holds them least recently used first. */
  used: number;
}

/** A unit level slot (RecentCompiles.unitLevels): recent lookup lists, the unit level per digest, and when last used. */
export interface UnitLevels { traces: string[][]; byDigest: Map<string, UnitLevel>; used: number }

/**
 * The last assembly per preamble. An edit inside kernel bodies changes their entries' function texts and nothing
 * else an assembly reads (the order, names, declarations and globals all come from the recordings, prototypes and
 * global texts): such a compile only puts the new texts in place of the old.
 */
export interface LastAssembly {
  libdevice: Uint8Array | undefined;
  entries: readonly RootEntry[];
  shapes: string[];
  head: string;
  bodies: string[];
  /** String globals' numbers, by content. */
  strNum: ReadonlyMap<string, number>;
  /** Per function defined with a text: its position in bodies and how many entries define it with a text. */
  bodyOf: Map<string, { at: number; owners: number }>;
  ptx: string;
  /**
   * -lineinfo: per body, the files and names its `.loc` lines name (backend/lineinfo.ts lineInfoKeys()), the bodies
   * with them numbered, the numbering and what follows the bodies (the `.file` table, `.debug_str`).
   */
  lines?: { keys: string[][]; resolved: string[]; tables: LineTables; tail: string };
}

/**
 * What incremental compiles through one piece store remember in memory between compiles (never changes
 * outputs, only what a compile can skip). Held by the store, so that no compile depends on hidden state.
 */
export class RecentCompiles implements Evictable {
  /**
   * Unit levels of recent compiles, as root entries are kept: by slot (the options but the stub's file names, the namespace shape, and
   * each root declaration's position in the index, signature and lines), then by the digest of the lookups the
   * unit level made (the slot's recent lists of lookups, hashed over the current index, name the one to use). Units with kernel templates are not
   * remembered (finding their specialisations reads every token of the user's code).
   */
  readonly unitLevels = new Map<string, UnitLevels>();
  /** The last incremental compile of each unit (LastCompile). */
  readonly lastCompiles = new Map<string, LastCompile>();
  /** The last assembly per preamble (LastAssembly). */
  readonly assemblies = new WeakMap<Preamble, LastAssembly>();

  // Evictable (compiler/memory.ts): both maps hold their values least recently used first. Sizes are estimates:
  // a last compile holds its unit's text and (shared with the piece store) its entries; an assembly is freed with its preamble.
  held(): { entries: number; bytes: number } {
    let bytes = 0;
    for (const l of this.lastCompiles.values()) bytes += lastCompileBytes(l);
    for (const u of this.unitLevels.values()) bytes += unitLevelsBytes(u);
    return { entries: this.lastCompiles.size + this.unitLevels.size, bytes };
  }
  oldestUse(): number | undefined {
    const l = this.lastCompiles.values().next().value, u = this.unitLevels.values().next().value;
    if (!l || !u) return l?.used ?? u?.used;
    return Math.min(l.used, u.used);
  }
  dropOldest(): void {
    const l = this.lastCompiles.entries().next().value, u = this.unitLevels.entries().next().value;
    if (l && (!u || l[1].used <= u[1].used)) this.lastCompiles.delete(l[0]);
    else if (u) this.unitLevels.delete(u[0]);
  }
}

/** Estimated bytes of a unit level: its stub (UTF-16) and its recordings (a fixed guess per kernel). */
function levelBytes(l: UnitLevel): number { return l.stub.length * 2 + 4096 + l.preamble.kernels.length * 2048; }
function unitLevelsBytes(u: UnitLevels): number { let b = 0; for (const l of u.byDigest.values()) b += levelBytes(l); return b; }
/** Estimated bytes of a last compile: the unit's text (one byte a character), its level, its last assembly's PTX. */
function lastCompileBytes(l: LastCompile): number { return l.src.length + levelBytes(l.level) + l.entries.length * 8192; }

/** In-memory store (tests, and the in-process compile without a daemon). */
export class MemoryPieceStore implements PieceStore {
  readonly map = new Map<string, StoreValue>();
  readonly recent = new RecentCompiles();
  get(key: string): StoreValue | undefined { return this.map.get(key); }
  put(key: string, value: StoreValue): void { this.map.set(key, value); }
}
