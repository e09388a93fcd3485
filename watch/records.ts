// The builds that went through ptxd, remembered so that `ptxd watch` without a compile database can
// re-run each unit's device steps exactly as the build did.
//
// ptxd-cicc only sees cicc's argv, but nvcc is its grandparent (nvcc runs each step through `sh -c`):
// /proc gives nvcc's command line, executable and working directory. The client sends that origin with
// its compile request; the daemon appends one JSON line per request to <cache dir>/watch/units.jsonl.
// The file is bounded: past MAX_BYTES it is rewritten with the newest record per (source, arch).
// Imports nothing but node: the thin client loads this file on every compile.

import { appendFileSync, readFileSync, readlinkSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve, sep } from 'node:path';
import { makeDirs } from '../service/mkdirs';

/** What the client knows about where a cicc call came from. */
export interface UnitOrigin {
  /** cicc's working directory (nvcc's: nvcc does not change directory). */
  cwd: string;
  /** The cicc argv, the real cicc first when nvcc ran us under --cicc-prefix. */
  cicc: string[];
  /** nvcc's argv with argv[0] the absolute nvcc executable; absent when nvcc was not found above us. */
  nvcc?: string[];
  /** nvcc's working directory. */
  nvccCwd?: string;
  /** NVCC_APPEND_FLAGS / NVCC_PREPEND_FLAGS of the build (they change what nvcc runs but are not in its argv). */
  env: Record<string, string>;
}

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

const ENV_KEYS = ['NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS'];

function procArgv(pid: number): string[] | undefined {
  try {
    const a = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
    if (a[a.length - 1] === '') a.pop();
    return a.length > 0 ? a : undefined;
  } catch { return undefined; }
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const s = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const ppid = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
    return ppid > 1 ? ppid : undefined;
  } catch { return undefined; }
}

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ksh', 'busybox']);

/**
 * The path nvcc was started by, made absolute (relative to its cwd, or found on its PATH), when it is
 * the running executable: nvcc writes the toolkit's include paths as it was called
 * (/usr/local/cuda/bin/../targets/…), so its realpath would give other .ii bytes and miss the cache.
 */
function invokedAs(arg0: string, exe: string, cwd: string, pid: number): string {
  const same = (p: string) => { try { return realpathSync(p) === exe; } catch { return false; } };
  if (arg0.includes('/')) { const p = resolve(cwd, arg0); return same(p) ? p : exe; }
  let path = '';
  try {
    path = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').find(v => v.startsWith('PATH='))?.slice(5) ?? '';
  } catch { /* not readable: use the executable */ }
  for (const d of path.split(delimiter)) if (d && same(join(resolve(cwd, d), arg0))) return join(resolve(cwd, d), arg0);
  return exe;
}

/**
 * nvcc above this process: the nearest ancestor that is not a shell (nvcc runs `sh -c "ptxd-cicc …"`),
 * accepted only when its executable is nvcc. Linux /proc only; undefined elsewhere.
 */
export function findNvcc(ppid: number): { argv: string[]; cwd: string } | undefined {
  let pid: number | undefined = ppid;
  for (let depth = 0; pid !== undefined && depth < 4; depth++) {
    let exe: string;
    try { exe = readlinkSync(`/proc/${pid}/exe`); } catch { return undefined; }
    const name = basename(exe);
    if (SHELLS.has(name)) { pid = parentOf(pid); continue; }
    if (name !== 'nvcc') return undefined;
    const argv = procArgv(pid);
    if (!argv) return undefined;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      return { argv: [invokedAs(argv[0]!, exe, cwd, pid), ...argv.slice(1)], cwd };
    } catch { return undefined; }
  }
  return undefined;
}

/** The origin of this cicc call (the client calls it with its own argv, env and parent pid). */
export function originOf(cicc: readonly string[], env: NodeJS.ProcessEnv, cwd: string, ppid: number): UnitOrigin {
  const o: UnitOrigin = { cwd, cicc: [...cicc], env: {} };
  for (const k of ENV_KEYS) if (env[k] !== undefined) o.env[k] = env[k]!;
  const nvcc = findNvcc(ppid);
  if (nvcc) { o.nvcc = nvcc.argv; o.nvccCwd = nvcc.cwd; }
  return o;
}

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
