// Prelude reuse: nearly every unit nvcc hands cicc starts with the same long run of toolkit and
// libstdc++ headers. A PreludeCache (kept in memory by its caller, e.g. the daemon) remembers the
// lexed tokens and the skimmed index of units it has seen, with the lexer's and skimmer's state at
// checkpoints: top-level declaration boundaries at the start of a line, about every `spacing` chars (every
// spacing/16 in the main file, which is what gets edited, up to 64 times).
// A new unit finds the last checkpoint up to which its text equals a remembered unit's text, copies the
// tokens and index of that prefix, and lexes and skims only the rest.
//
// Why the result equals a clean lex + skim (the invariant; test/prelude-cache.test.ts checks it):
// - The text before the cut is the same, the cut is where a clean lex sits at the start of a line in
//   its main loop, and no token before it looks past it; names are interned in order of first
//   appearance, so the resumed lex, starting from the prefix's names, gives every spelling the same id.
// - Only units whose lex and skim reported no error are remembered. In such a unit, at a checkpoint,
//   the open brackets are exactly the '{' of the open namespaces / linkage blocks; every declaration
//   before the cut ended before it and its brackets matched before it; so the prefix's bracket matches,
//   declarations and namespaces do not depend on what follows, and the skim resumes with that stack.
// - The first line of a .ii is nvcc's marker naming the main file (`# 0 "/path/x.cu"`), which differs
//   between units. It is compared without the name, the name becomes files[0], and a cut is only used
//   before any other mention of either unit's main-file name (a later marker naming it would map to
//   file 0 in one lex and to a new file in the other), unless both units name the same main file.
// Pure code, no I/O.

import { PRE_INTERNED, lexFrom, nameTable, trimNameTable, type LexResume, type NameTable, type TokenArrays, type TokensWithErrors } from './lexer';
import { skim, nameMap, type Frame, type NamespaceMap } from './skim';
import { Tok } from './tokens';
import type { DeclEntry, Index } from './index-types';

export interface PreludeOptions {
  /** Units remembered at most (least recently used dropped first). Default 4. */
  maxEntries?: number;
  /** Estimated bytes held at most. Default 256 MiB. */
  maxBytes?: number;
  /** Chars of text between checkpoints, at least. Default 16 KiB. */
  spacing?: number;
  /** A unit is remembered when at least this many of its chars were not covered by a cached prefix. Default 64 KiB. */
  minGain?: number;
}

export interface PreludeStats {
  lookups: number;
  hits: number;
  /** Chars of text whose lexing and skimming were reused, summed over lookups. */
  reusedChars: number;
  recorded: number;
  evicted: number;
  entries: number;
  bytes: number;
}

interface Checkpoint {
  tok: number;
  offset: number;
  line: number;
  curFile: number;
  names: number;
  files: number;
  decls: number;
  frames: Frame[];
  stack: number[];
  namespaces: [string, boolean, number[]][];
}

interface Entry {
  text: string;
  head: Head;
  /** Offset of the first mention of `"<main file>"` after the head (text.length if none). */
  mainLimit: number;
  kind: Uint8Array; start: Uint32Array; end: Uint32Array; id: Int32Array;
  line: Uint32Array; file: Uint16Array; spaceBefore: Uint8Array;
  names: string[];
  /** Interning table of `names`, so a resumed lex copies it instead of hashing every name again. */
  table: NameTable;
  /** `table` trimmed to the names of the checkpoint last resumed from (trimming scans the whole table). */
  trimmed?: NameTable;
  files: string[];
  fileAt: number[];
  match: Int32Array;
  decls: DeclEntry[];
  cps: Checkpoint[];
  bytes: number;
  /** When a lookup last used it (performance.now()). */
  used: number;
  /**
   * Token arrays of a released lex resumed from this entry (see release()): the next resume writes into them,
   * copying only the part of the prefix they do not already hold, instead of allocating and copying it all.
   */
  spare?: TokenArrays & { valid: number; shift: number };
  /** The bracket array of the last skim resumed from this entry (dead once skim() returns), for the next one. */
  spareMatch?: { match?: Int32Array; valid: number };
  /** byName of the first `count` declarations (built on first need; count: the fewest a resume needed). */
  byNameAt?: { count: number; map: ReadonlyMap<string, readonly number[]> };
}

/** The first line when it is a line marker naming the main file: its length, the name and the rest. */
interface Head { len: number; main: string | null; shape: string }

const HEAD_RE = /^#[ \t]*(\d+)[ \t]+"((?:[^"\\\n]|\\.)*)"([^\n]*)\n/;

function parseHead(src: string): Head {
  if (src.charCodeAt(0) !== 35) return { len: 0, main: null, shape: '' };
  const m = HEAD_RE.exec(src.slice(0, Math.min(src.length, 8192)));
  if (!m) return { len: 0, main: null, shape: '' };
  return { len: m[0].length, main: m[2], shape: `${m[1]}\0${m[3]}` };
}

/** What a lookup found: the entry, the checkpoint and how far the new text is shifted against it. */
interface Hit { entry: Entry; cp: number; delta: number }

/** The result of PreludeCache.lex(), to be passed to PreludeCache.skim(). */
export interface PreludeLexed {
  readonly tokens: TokensWithErrors;
  /** @internal */ readonly hit: Hit | null;
  /** @internal */ readonly head: Head;
  /** @internal */ readonly fileAt: number[];
  /** @internal */ released?: boolean;
}

/**
 * What lex() found of `lexed`'s text in the cache: text[head, end) equals the cached entry's text shifted by
 * `delta`. Two texts with the same `entry` and `delta` and the same first `head` characters are therefore equal
 * up to the smaller `end` (no need to compare that part again). Null when no cached prefix was used.
 */
export function verifiedPrefix(lexed: PreludeLexed): { entry: object; delta: number; head: number; end: number } | null {
  const hit = lexed.hit;
  return hit ? { entry: hit.entry, delta: hit.delta, head: lexed.head.len, end: hit.entry.cps[hit.cp].offset + hit.delta } : null;
}

export class PreludeCache {
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly spacing: number;
  private readonly minGain: number;
  /** Least recently used first. */
  private entries: Entry[] = [];
  private st = { lookups: 0, hits: 0, reusedChars: 0, recorded: 0, evicted: 0 };

  constructor(opts: PreludeOptions = {}) {
    this.maxEntries = Math.max(1, opts.maxEntries ?? 4);
    this.maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
    this.spacing = Math.max(256, opts.spacing ?? 16 * 1024);
    this.minGain = opts.minGain ?? 64 * 1024;
  }

  stats(): PreludeStats {
    return { ...this.st, ...this.held() };
  }

  clear(): void { this.entries = []; }

  // what a memory budget needs (compiler/memory.ts Evictable): entries are kept least recently used first
  held(): { entries: number; bytes: number } { return { entries: this.entries.length, bytes: this.entries.reduce((a, e) => a + entryBytes(e), 0) }; }
  oldestUse(): number | undefined { return this.entries[0]?.used; }
  dropOldest(): void { if (this.entries.shift()) this.st.evicted++; }

  /** Lex src, reusing the longest cached prefix. */
  lex(src: string): PreludeLexed {
    this.st.lookups++;
    const head = parseHead(src);
    const hit = this.find(src, head);
    if (!hit) {
      const r = lexFrom(src);
      return { tokens: r.tokens, hit: null, head, fileAt: r.fileAt };
    }
    this.st.hits++;
    const e = hit.entry, cp = e.cps[hit.cp], d = hit.delta;
    this.st.reusedChars += cp.offset + d;
    const files = e.files.slice(0, cp.files);
    const fileAt = e.fileAt.slice(0, cp.files);
    if (head.main !== null) files[0] = head.main;
    for (let k = 1; k < fileAt.length; k++) fileAt[k] += d;
    const resume: LexResume = {
      offset: cp.offset + d, count: cp.tok, line: cp.line, curFile: cp.curFile,
      names: e.names.slice(0, cp.names), files, fileAt,
      kind: e.kind, start: e.start, end: e.end, id: e.id, line_: e.line, file: e.file, spaceBefore: e.spaceBefore,
      shift: d, table: this.tableAt(e, cp.names), ownNames: true, into: e.spare,
    };
    e.spare = undefined;   // lent to this lex until release()
    const r = lexFrom(src, resume);
    return { tokens: r.tokens, hit, head, fileAt: r.fileAt };
  }

  /** e's name table holding its first `n` names (the last one made is kept). */
  private tableAt(e: Entry, n: number): NameTable {
    if (n >= e.table.count) return e.table;
    if (e.trimmed?.count !== n) e.trimmed = trimNameTable(e.table, n);
    return e.trimmed;
  }

  /**
   * The caller is done with `lexed` and with everything that reads its tokens: a later lex() from the same
   * prefix may write over its token arrays. Optional (without it every lex allocates its own arrays).
   */
  release(lexed: PreludeLexed): void {
    const hit = lexed.hit;
    if (lexed.released) return;
    lexed.released = true;
    // spare arrays serve the next lex of the unit just compiled (an edit of it); those of the other entries (as
    // large as their own token arrays) would only hold memory for units compiled before it
    for (const e of this.entries) if (e !== hit?.entry) { e.spare = undefined; e.spareMatch = undefined; }
    if (!hit) return;
    const t = lexed.tokens;
    hit.entry.spare = { kind: t.kind, start: t.start, end: t.end, id: t.id, line: t.line, file: t.file, spaceBefore: t.spaceBefore, valid: hit.entry.cps[hit.cp].tok, shift: hit.delta };
  }

  /** Skim the tokens of lex(), reusing the prefix's index; remembers the unit when that pays. */
  skim(lexed: PreludeLexed): Index {
    const t = lexed.tokens, hit = lexed.hit;
    const covered = hit ? hit.entry.cps[hit.cp].offset + hit.delta : 0;
    const record = t.errors.length === 0 && t.src.length - covered >= this.minGain;
    const rec = record ? new Recorder(t, lexed.fileAt, this.spacing, hit) : null;
    let resume;
    if (hit) {
      const e = hit.entry, cp = e.cps[hit.cp];
      const namespaces: NamespaceMap = new Map();
      for (const [nm, inline, opens] of cp.namespaces) namespaces.set(nm, { inline, opens: opens.slice() });
      const spare = e.spareMatch ?? { valid: 0 };
      e.spareMatch = undefined;
      // one prefix map per entry, over the fewest declarations a resume has needed (skim adds the rest on top)
      if (!e.byNameAt || e.byNameAt.count > cp.decls) e.byNameAt = { count: cp.decls, map: nameMap(e.decls, cp.decls) };
      resume = { tok: cp.tok, match: e.match, stack: cp.stack, frames: cp.frames, decls: e.decls, declCount: cp.decls, namespaces, spare, byName: e.byNameAt };
    }
    const index = skim(t, { resume, atTop: rec ? rec.atTop : undefined });
    if (rec && (index.errors?.length ?? 0) === 0) {
      const entry = rec.finish(index, lexed.head);
      if (entry) this.insert(entry);
    }
    if (hit && resume?.spare?.match) {
      // skim set the openers open at the cut to -1 and matched them anew: restore them to the prefix's partners
      const m = resume.spare.match, e = hit.entry;
      for (const o of resume.stack) m[o] = e.match[o];
      resume.spare.valid = resume.tok;
      e.spareMatch = resume.spare;
    }
    return index;
  }

  private find(src: string, head: Head): Hit | null {
    let best: Hit | null = null, bestOffset = 0, bestAt = -1;
    for (let x = 0; x < this.entries.length; x++) {
      const e = this.entries[x];
      if (e.head.shape !== head.shape) continue;
      const d = head.len - e.head.len;
      let bound = Infinity;
      if (e.head.main !== head.main) {
        bound = e.mainLimit;
        const occ = src.indexOf(`"${head.main}"`, head.len);
        if (occ >= 0) bound = Math.min(bound, occ - d);
      }
      let k = -1, prev = e.head.len;
      for (let c = 0; c < e.cps.length; c++) {
        const off = e.cps[c].offset;
        if (off > bound || off + d > src.length) break;
        // Equality of two slices is a flat memory compare in V8 (startsWith is a char loop, ~50x slower).
        if (src.slice(prev + d, off + d) !== e.text.slice(prev, off)) break;
        k = c; prev = off;
      }
      if (k >= 0 && e.cps[k].offset + d > bestOffset) { best = { entry: e, cp: k, delta: d }; bestOffset = e.cps[k].offset + d; bestAt = x; }
    }
    if (best) { this.entries.splice(bestAt, 1); this.entries.push(best.entry); best.entry.used = performance.now(); }
    return best;
  }

  private insert(e: Entry): void {
    e.used = performance.now();
    this.entries.push(e);
    this.st.recorded++;
    let bytes = this.entries.reduce((a, x) => a + entryBytes(x), 0);
    while (this.entries.length > 1 && (this.entries.length > this.maxEntries || bytes > this.maxBytes)) {
      bytes -= entryBytes(this.entries.shift()!);
      this.st.evicted++;
    }
  }
}

/** What an entry holds: its estimate, with the token and bracket arrays lent back to it (exact sizes). */
function entryBytes(e: Entry): number {
  const s = e.spare;
  const spare = s ? s.kind.byteLength + s.start.byteLength + s.end.byteLength + s.id.byteLength + s.line.byteLength + s.file.byteLength + s.spaceBefore.byteLength : 0;
  return e.bytes + spare + (e.spareMatch?.match?.byteLength ?? 0);
}

/** Takes checkpoints while a unit is skimmed (atTop), then builds its cache entry. */
class Recorder {
  private cps: Checkpoint[] = [];
  private swept = 0;
  private open = 0;
  private maxId = -1;
  private filesSeen = 0;
  private match: Int32Array | null = null;
  private lastOffset: number;
  /** Checkpoints still to take at the main file's spacing. */
  private denseLeft = 64;

  constructor(private t: TokensWithErrors, private fileAt: number[], private spacing: number, hit: Hit | null) {
    this.lastOffset = -spacing;
    if (hit) {
      // The checkpoints of the reused prefix hold for this unit too (same text before them).
      const e = hit.entry;
      for (let c = 0; c <= hit.cp; c++) {
        const cp = e.cps[c];
        this.cps.push({ ...cp, offset: cp.offset + hit.delta });
      }
      this.lastOffset = this.cps[this.cps.length - 1].offset;
    }
  }

  readonly atTop = (i: number, frames: readonly Frame[], declCount: number, namespaces: NamespaceMap, match: Int32Array, reach: number): void => {
    this.match = match;
    const t = this.t;
    // Sweep to i: open brackets, highest name id and files introduced before the cut.
    const kind = t.kind, id = t.id;
    for (let j = this.swept; j < i; j++) {
      const v = id[j];
      if (kind[j] === Tok.Punct) {
        if (v === 0 || v === 2 || v === 4) this.open++;           // { [ (
        else if ((v === 1 || v === 3 || v === 5) && match[j] >= 0 && match[j] < j) this.open--;
      } else if (v > this.maxId) this.maxId = v;
    }
    this.swept = i;
    if (i === 0 || i >= t.count) return;
    const s = t.start[i];
    // the main file (file 0) is what gets edited: denser there (a bounded number of times), so that an edit
    // relexes and reskims little more than what follows it
    const dense = t.file[i] === 0 && this.denseLeft > 0;
    if (s - this.lastOffset < (dense ? Math.max(256, this.spacing >> 4) : this.spacing)) return;
    // The cut: the start of token i's line, with only blanks before the token, not after a line splice.
    const src = t.src;
    let q = s;
    while (q > 0 && (src.charCodeAt(q - 1) === 32 || src.charCodeAt(q - 1) === 9)) q--;
    if (q === 0 || src.charCodeAt(q - 1) !== 10) return;
    let b = q - 2;
    if (b >= 0 && src.charCodeAt(b) === 13) b--;
    if (b >= 0 && src.charCodeAt(b) === 92) return;
    if (q <= t.end[i - 1]) return;
    if (reach >= i) return; // a declaration before the cut looked past it
    if (this.open !== frames.length) return;
    for (const f of frames) if (match[f.open] >= 0 && match[f.open] < i) return;
    while (this.filesSeen < this.fileAt.length && this.fileAt[this.filesSeen] < q) this.filesSeen++;
    const ns: [string, boolean, number[]][] = [];
    for (const [nm, v] of namespaces) ns.push([nm, v.inline, v.opens.slice()]);
    this.cps.push({
      tok: i, offset: q, line: t.line[i], curFile: t.file[i],
      names: Math.max(this.maxId + 1, PRE_INTERNED.length), files: this.filesSeen, decls: declCount,
      frames: frames.slice(), stack: frames.map(f => f.open), namespaces: ns,
    });
    this.lastOffset = q;
    if (dense) this.denseLeft--;
  };

  finish(index: Index, head: Head): Entry | null {
    const cps = this.cps, t = this.t;
    if (cps.length === 0 || !this.match) return null;
    const last = cps[cps.length - 1];
    const n = last.tok;
    const decls = index.decls.slice(0, last.decls);
    for (const d of decls) Object.freeze(d); // shared by every unit that reuses this prefix
    const mention = head.main !== null ? t.src.indexOf(`"${head.main}"`, head.len) : -1;
    const names = t.names.slice(0, Math.max(...cps.map(c => c.names)));
    const bytes = t.src.length * 2 + n * 21 + n * 4 + decls.length * 120 + cps.length * 4096
      + names.reduce((a, s) => a + 2 * s.length + 16, 0) + names.length * 12;
    return {
      text: t.src, head, mainLimit: mention < 0 ? t.src.length : mention,
      kind: t.kind.slice(0, n), start: t.start.slice(0, n), end: t.end.slice(0, n), id: t.id.slice(0, n),
      line: t.line.slice(0, n), file: t.file.slice(0, n), spaceBefore: t.spaceBefore.slice(0, n),
      names, table: nameTable(names), files: t.files.slice(0, last.files), fileAt: this.fileAt.slice(0, last.files),
      match: this.match.slice(0, n), decls, cps, bytes, used: 0,
    };
  }
}
