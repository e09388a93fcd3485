// The service edge of the system-header check (compiler/frontend/header-regions.ts): reads the header files a
// unit names (kept, prepared, by path, size and modification time) and remembers the regions it verified (by
// file, line and a hash of their text), so a warm daemon pays only a stat per file and a hash per region.
// A file that cannot be read (a unit preprocessed on another machine) leaves its regions unverified.

import { readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { headerRegions, prepareHeader, regionMismatch, type PreparedHeader } from '../compiler/frontend/header-regions';

interface Known { size: number; mtimeMs: number; prepared: PreparedHeader | null }

/** Bounds on what is kept (a long-lived daemon): past them the memo starts over. */
const MAX_FILES = 4000;
const MAX_VERIFIED = 500_000;

export class HeaderCheck {
  private files = new Map<string, Known>();
  private verified = new Set<string>();

  /** The header file as on disk now (null: unreadable), read again when its size or time changed. */
  private file(path: string): Known {
    let size = -1, mtimeMs = -1;
    try {
      const st = statSync(path);
      if (!st.isFile()) return { size, mtimeMs, prepared: null };
      size = st.size;
      mtimeMs = st.mtimeMs;
    } catch {
      return { size, mtimeMs, prepared: null };
    }
    const known = this.files.get(path);
    if (known && known.size === size && known.mtimeMs === mtimeMs) return known;
    let prepared: PreparedHeader | null = null;
    try { prepared = prepareHeader(readFileSync(path, 'latin1')); } catch { /* unreadable: unverified */ }
    if (this.files.size >= MAX_FILES) this.files.clear();
    const k = { size, mtimeMs, prepared };
    this.files.set(path, k);
    return k;
  }

  /**
   * Why the unit's system-header regions are not what the headers on disk say ("system header region differs
   * from <file>:<line>"), or undefined. `source` is the .ii's bytes (read as latin1, as the headers are).
   */
  check(source: Buffer): string | undefined {
    const ii = source.toString('latin1');
    const { regions, files } = headerRegions(ii);
    if (regions.length === 0) return undefined;
    const known = new Map<string, Known>();
    for (const f of files) known.set(f, this.file(f));
    // A file whose #define names are unknown could define a macro that expands in a header: nothing is verifiable.
    for (const k of known.values()) if (!k.prepared) return undefined;
    let macros: Set<string> | undefined;
    const isMacro = (name: string): boolean => {
      if (!macros) {
        macros = new Set();
        for (const k of known.values()) for (const m of k.prepared!.macros) macros.add(m);
      }
      return macros.has(name);
    };
    for (const r of regions) {
      const k = known.get(r.file)!;
      const key = `${r.file}\0${k.size}\0${k.mtimeMs}\0${r.line}\0${createHash('sha1').update(source.subarray(r.start, r.end)).digest('base64')}`;
      if (this.verified.has(key)) continue;
      const bad = regionMismatch(ii, r, k.prepared!, isMacro);
      if (bad !== undefined) return `system header region differs from ${r.file}:${bad}`;
      if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
      this.verified.add(key);
    }
    return undefined;
  }
}
