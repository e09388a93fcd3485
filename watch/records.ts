// The builds that went through ptxd, remembered so that `ptxd watch` without a compile database can
// re-run each unit's device steps exactly as the build did.
//
// The client sends each call's origin (cicc/origin.ts) with its compile request; the daemon appends one
// JSON line per request to <cache dir>/watch/units.jsonl. The file is bounded: past MAX_BYTES it is
// rewritten with the newest record per (source, arch).

import { appendFileSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { makeDirs } from '../service/mkdirs';
import type { UnitOrigin } from '../protocol/unit';

export type { UnitOrigin } from '../protocol/unit';
export { originOf, findNvcc } from '../cicc/origin';

export interface UnitRecord extends UnitOrigin {
  time: string;
  /** Absolute path of the .cu (--orig_src_path_name). */
  source: string;
  /** compute_NN[a|f] */
  arch: string;
  /** The .cpp1.ii the build compiled (gone once nvcc finishes; kept for diagnostics). */
  ii: string;
}

export const RECORDS_FILE = (cacheDir: string): string => join(cacheDir, 'watch', 'units.jsonl');
/** Past this size the file is compacted to the newest record per (source, arch). */
export const MAX_BYTES = 1024 * 1024;

const recordKey = (r: UnitRecord) => `${r.source}\0${r.arch}`;

function parse(text: string): UnitRecord[] {
  const out: UnitRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as UnitRecord;
      if (r && typeof r.source === 'string' && typeof r.arch === 'string' && Array.isArray(r.cicc)) out.push(r);
    } catch { /* a torn line (a writer died mid-append): skip it */ }
  }
  return out;
}

/** The newest record per (source, arch), oldest first. */
function newest(all: UnitRecord[]): UnitRecord[] {
  const m = new Map<string, UnitRecord>();
  for (const r of all) { m.delete(recordKey(r)); m.set(recordKey(r), r); }
  return [...m.values()];
}

/** Appends a record (best effort: a build never fails over it); compacts the file when it grew too big. */
export function appendRecord(cacheDir: string, r: UnitRecord): void {
  const f = RECORDS_FILE(cacheDir);
  try {
    makeDirs(dirname(f));
    appendFileSync(f, `${JSON.stringify(r)}\n`);
    if (statSync(f).size > MAX_BYTES) {
      const tmp = `${f}.${process.pid}.tmp`;
      writeFileSync(tmp, newest(parse(readFileSync(f, 'utf8'))).map(x => `${JSON.stringify(x)}\n`).join(''));
      renameSync(tmp, f);
    }
  } catch { /* unwritable cache dir: watch just learns nothing */ }
}

/** The newest record per (source, arch); empty when nothing was recorded. */
export function loadRecords(cacheDir: string): UnitRecord[] {
  try {
    return newest(parse(readFileSync(RECORDS_FILE(cacheDir), 'utf8')));
  } catch { return []; }
}

const within = (p: string, root: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

export interface LearnedUnit {
  file: string;
  directory: string;
  command: string[];
  env: Record<string, string>;
}

/**
 * The units built from under `root` (nvcc's directory or the source inside it), one per nvcc command:
 * the archs of one nvcc call share its command. `missing`: sources whose cicc calls were recorded without
 * an nvcc above them (cicc run by hand or by another driver), which watch cannot re-run.
 */
export function learnedUnits(cacheDir: string, root: string): { units: LearnedUnit[]; missing: string[] } {
  const top = resolve(root);
  const units = new Map<string, LearnedUnit>();
  const missing = new Set<string>();
  for (const r of loadRecords(cacheDir)) {
    const dir = r.nvccCwd ?? r.cwd;
    if (!within(dir, top) && !within(r.source, top)) continue;
    if (!r.nvcc) { missing.add(r.source); continue; }
    const u: LearnedUnit = { file: r.source, directory: dir, command: r.nvcc, env: r.env ?? {} };
    units.set(JSON.stringify([u.file, u.directory, u.command, u.env]), u);
  }
  for (const u of units.values()) missing.delete(u.file);
  return { units: [...units.values()], missing: [...missing].sort() };
}

/** The daemon's record of one compile request that carried its origin. */
export function recordRequest(cacheDir: string, req: { input: string; options: { arch: number; archSuffix: string; origSrcPathName: string; origSrcFileName: string } }, origin: UnitOrigin): void {
  const o = req.options;
  const src = o.origSrcPathName || o.origSrcFileName;
  if (!src) return;
  appendRecord(cacheDir, {
    time: new Date().toISOString(), source: resolve(origin.nvccCwd ?? origin.cwd, src), arch: `compute_${o.arch}${o.archSuffix}`, ii: req.input,
    cwd: origin.cwd, cicc: origin.cicc, nvcc: origin.nvcc, nvccCwd: origin.nvccCwd, env: origin.env,
  });
}
