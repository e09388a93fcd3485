// The service edge of the system-header check (compiler/frontend/header-regions.ts): reads the header files a
// unit names (kept, prepared, by path, size and modification time) and remembers what it verified.
//
// Nearly every unit starts with the same prelude (service/prelude-key.ts: the text up to the last return into
// the main file, the main file's name left out), so the check is keyed by it: a prelude whose regions matched
// the headers is remembered with the identity (path, size, mtime) of every file it names and the macro names
// they define, in memory and in a small file under the cache directory (headers/, written atomically, with a
// checksum). A unit whose prelude is known, with none of those files changed, pays a stat per file; only the
// regions after its prelude (a system macro expanded in the main file, a late #include) are compared. A
// damaged or foreign record is no verdict: the prelude is checked again. A file that cannot be read (a unit
// preprocessed on another machine) or is named by a relative path leaves the unit unverified.
//
// Left unchecked: regions of the main file itself inside the prelude (a system macro used before the main
// file's last #include); the prelude's verdict is shared by units whose main files differ.

import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { createHash } from 'node:crypto';
import { headerRegions, mainFile, prepareHeader, regionMismatch, type HeaderRegion, type PreparedHeader } from '../compiler/frontend/header-regions';
import { preludeOf } from './prelude-key';
import { makeDirs } from './mkdirs';

interface Known { size: number; mtimeMs: number; prepared: PreparedHeader | null }

/** A file as a verdict saw it: path, size, modification time. */
type Identity = [string, number, number];

/** A prelude whose regions matched: the files it names (its main file left out) and the macros they define. */
interface Verdict { files: Identity[]; macros: Set<string> }

export interface HeaderCheckStats {
  /** Header files read and prepared. */
  filesRead: number;
  /** Preludes compared with their headers. */
  preludesChecked: number;
  /** Units whose prelude verdict was in memory, or in a record on disk. */
  verdictsInMemory: number;
  verdictsOnDisk: number;
  /** Records on disk that were unreadable, damaged or for another prelude (ignored). */
  recordsIgnored: number;
}

/** The directory under the cache directory where the verdicts are kept (`ptxd cache clear` removes it). */
export const VERDICTS_DIR = 'headers';

/** Bumped when a record's meaning changes. */
const FORMAT = 'ptxd-header-verdict-1';

/** Bounds on what is kept (a long-lived daemon): past them the memo starts over. */
const MAX_FILES = 4000;
const MAX_VERIFIED = 500_000;
const MAX_VERDICTS = 256;

/**
 * A file's size and time; undefined when it is no file or its name is relative (cccl's `libcudacxx/include/...`:
 * the request does not say against which directory, and a daemon's own would find another file or none).
 */
function stat(path: string): { size: number; mtimeMs: number } | undefined {
  if (!isAbsolute(path)) return undefined;
  try {
    const st = statSync(path);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** A record's text: its JSON and that JSON's checksum, so a torn or damaged file is told from a verdict. */
function encodeRecord(prelude: string, v: Verdict): string {
  const body = JSON.stringify({ format: FORMAT, prelude, files: v.files, macros: [...v.macros] });
  return `${body}\n${sha256(body)}\n`;
}

function isIdentity(x: unknown): x is Identity {
  return Array.isArray(x) && x.length === 3 && typeof x[0] === 'string' && typeof x[1] === 'number' && typeof x[2] === 'number';
}

/** The verdict a record holds for `prelude`; undefined when the text is not a whole, intact record for it. */
function decodeRecord(text: string, prelude: string): Verdict | undefined {
  const cut = text.lastIndexOf('\n', text.length - 2);
  if (cut < 0 || !text.endsWith('\n')) return undefined;
  const body = text.slice(0, cut);
  if (sha256(body) !== text.slice(cut + 1, -1)) return undefined;
  let r: { format?: unknown; prelude?: unknown; files?: unknown; macros?: unknown };
  try { r = JSON.parse(body) as typeof r; } catch { return undefined; }
  if (r.format !== FORMAT || r.prelude !== prelude || !Array.isArray(r.files) || !Array.isArray(r.macros)) return undefined;
  if (!r.files.every(isIdentity) || !r.macros.every(m => typeof m === 'string')) return undefined;
  return { files: r.files, macros: new Set(r.macros as string[]) };
}

export class HeaderCheck {
  readonly stats: HeaderCheckStats = { filesRead: 0, preludesChecked: 0, verdictsInMemory: 0, verdictsOnDisk: 0, recordsIgnored: 0 };
  private files = new Map<string, Known>();
  private verified = new Set<string>();
  private verdicts = new Map<string, Verdict>();

  /**
   * `dir`: where prelude verdicts are kept between processes (undefined: in memory only); `salt`: what else
   * a verdict depends on (the checker's code: a verdict of another checker is not reused).
   */
  constructor(private readonly dir?: string, private readonly salt = '') {}

  /** The header file as on disk now (null: unreadable), read again when its size or time changed. */
  private file(path: string): Known {
    const st = stat(path);
    if (!st) return { size: -1, mtimeMs: -1, prepared: null };
    const known = this.files.get(path);
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known;
    let prepared: PreparedHeader | null = null;
    this.stats.filesRead++;
    try { prepared = prepareHeader(readFileSync(path, 'latin1')); } catch { /* unreadable: unverified */ }
    if (this.files.size >= MAX_FILES) this.files.clear();
    const k = { ...st, prepared };
    this.files.set(path, k);
    return k;
  }

  /**
   * Why the unit's system-header regions are not what the headers on disk say ("system header region differs
   * from <file>:<line>"), or undefined. `source` is the .ii's bytes (read as latin1, as the headers are);
   * `prelude` its prelude when the caller already hashed it.
   */
  check(source: Buffer, prelude?: { end: number; hash: string }): string | undefined {
    let ii = prelude ? undefined : source.toString('latin1');
    const p = prelude ?? preludeOf(ii!);
    if (!p) return this.compare(source, ii!, new Set());
    const v = this.knownVerdict(p.hash) ?? this.preludeVerdict(ii ??= source.toString('latin1'), p);
    if (!v) return this.compare(source, ii ?? source.toString('latin1'), new Set());
    // only the text after the prelude is needed (and decoded): a known prelude costs no pass over its text
    return this.compare(source.subarray(p.end), source.toString('latin1', p.end), v.macros);
  }

  /** Where the record of a prelude's verdict lives. */
  private recordPath(prelude: string): string | undefined {
    return this.dir === undefined ? undefined : join(this.dir, `${sha256(`${FORMAT}\0${this.salt}\0${prelude}`).slice(0, 40)}.json`);
  }

  private unchanged(files: Identity[]): boolean {
    for (const [path, size, mtimeMs] of files) {
      const st = stat(path);
      if (!st || st.size !== size || st.mtimeMs !== mtimeMs) return false;
    }
    return true;
  }

  private remember(prelude: string, v: Verdict): void {
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
    this.verdicts.set(prelude, v);
  }

  /** The prelude's verdict from memory or its record, when none of its files changed since. */
  private knownVerdict(prelude: string): Verdict | undefined {
    const mem = this.verdicts.get(prelude);
    if (mem && this.unchanged(mem.files)) {
      this.stats.verdictsInMemory++;
      return mem;
    }
    const path = this.recordPath(prelude);
    if (path === undefined) return undefined;
    let text: string;
    try { text = readFileSync(path, 'utf8'); } catch { return undefined; }
    const v = decodeRecord(text, `${this.salt}\0${prelude}`);
    if (!v) {
      this.stats.recordsIgnored++;
      return undefined;
    }
    if (!this.unchanged(v.files)) return undefined;
    this.stats.verdictsOnDisk++;
    this.remember(prelude, v);
    return v;
  }

  /** Writes the record (best effort: a full disk or an unusable directory only costs the next process a check). */
  private save(prelude: string, v: Verdict): void {
    const path = this.recordPath(prelude);
    if (path === undefined) return;
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      makeDirs(this.dir!);
      writeFileSync(tmp, encodeRecord(`${this.salt}\0${prelude}`, v));
      renameSync(tmp, path);
    } catch {
      try { unlinkSync(tmp); } catch { /* never written */ }
    }
  }

  /**
   * The verdict on the prelude's regions (the main file's own left out), compared with the macros of the files
   * it names other than the main file; undefined when they do not all match (the whole unit is then compared,
   * with the main file's macros too) or a file cannot be read.
   */
  private preludeVerdict(ii: string, p: { end: number; hash: string }): Verdict | undefined {
    this.stats.preludesChecked++;
    const main = mainFile(ii);
    const { regions, files } = headerRegions(ii, 0, p.end);
    const ids: Identity[] = [];
    const macros = new Set<string>();
    const prepared = new Map<string, PreparedHeader>();
    for (const f of files) {
      if (f === main) continue;
      const k = this.file(f);
      if (!k.prepared) return undefined;
      ids.push([f, k.size, k.mtimeMs]);
      prepared.set(f, k.prepared);
      for (const m of k.prepared.macros) macros.add(m);
    }
    const isMacro = (name: string): boolean => macros.has(name);
    for (const r of regions) {
      if (r.file === main) continue;
      if (regionMismatch(ii, r, prepared.get(r.file)!, isMacro) !== undefined) return undefined;
    }
    const v = { files: ids, macros };
    this.remember(p.hash, v);
    this.save(p.hash, v);
    return v;
  }

  /** Compares the system-header regions of `ii` (`source` decoded); `macros`: names defined by files before it. */
  private compare(source: Buffer, ii: string, macros: Set<string>): string | undefined {
    const { regions, files } = headerRegions(ii);
    if (regions.length === 0) return undefined;
    const known = new Map<string, Known>();
    for (const f of files) known.set(f, this.file(f));
    // A file whose #define names are unknown could define a macro that expands in a header: nothing is verifiable.
    for (const k of known.values()) if (!k.prepared) return undefined;
    let all: Set<string> | undefined;
    const isMacro = (name: string): boolean => {
      if (!all) {
        all = new Set(macros);
        for (const k of known.values()) for (const m of k.prepared!.macros) all.add(m);
      }
      return all.has(name);
    };
    for (const r of regions) {
      const k = known.get(r.file)!;
      const bad = this.regionBad(source, ii, r, k, isMacro);
      if (bad !== undefined) return `system header region differs from ${r.file}:${bad}`;
    }
    return undefined;
  }

  /** One region's first differing line, remembered by file identity, line and a hash of its text when it matched. */
  private regionBad(source: Buffer, ii: string, r: HeaderRegion, k: Known, isMacro: (name: string) => boolean): number | undefined {
    const key = `${r.file}\0${k.size}\0${k.mtimeMs}\0${r.line}\0${createHash('sha1').update(source.subarray(r.start, r.end)).digest('base64')}`;
    if (this.verified.has(key)) return undefined;
    const bad = regionMismatch(ii, r, k.prepared!, isMacro);
    if (bad !== undefined) return bad;
    if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
    this.verified.add(key);
    return undefined;
  }
}
