// `ptxd watch`: keeps a project's device code compiled as files are saved.
//
// Directories (not single files) are watched, so editors that save by writing a temp file and renaming
// it, new files and deleted files all arrive as events on a known path; each path maps to the units
// that read it (their .cu and every header in their .ii line markers, recomputed on every compile).
// Events are debounced; one unit compiles at a time, and a unit changed while compiling runs again.
// The unit list (a compile_commands.json, or the records of builds that went through ptxd) is watched as
// well: units added or removed by a reconfigure or a new build follow.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import { loadUnits, type WatchUnit } from './compile-db';
import { learnedUnits, RECORDS_FILE } from './records';
import { planUnit, type UnitPlan } from './plan';
import { confirmErrors, runUnit, type Compile, type UnitOutcome } from './run-unit';
import { makeDirs } from '../service/mkdirs';

export type WatchEvent =
  /** db: the file the units come from; from: a compile database, or the builds ptxd served. */
  | { event: 'watching'; db: string; from: UnitSource['kind']; units: number; files: number }
  | { event: 'compiling'; unit: string; reason: string[] }
  | ({ event: 'result'; unit: string; reason: string[] } & Omit<UnitOutcome, 'includes'>)
  | { event: 'removed'; unit: string }
  /** Every change seen so far is compiled; `failing`: units whose last compile had errors. */
  | { event: 'idle'; units: number; files: number; failing: number }
  | { event: 'failed'; unit?: string; message: string };

/** Where the units come from: load() is called at the start and whenever `file` changes. */
export interface UnitSource {
  kind: 'compile_commands' | 'builds';
  file: string;
  /** Throws with a readable message when the file is unusable. */
  load(): WatchUnit[];
}

export function compileDbSource(db: string): UnitSource {
  return { kind: 'compile_commands', file: db, load: () => loadUnits(db) };
}

/**
 * The units built from under `root` with ptxd as cicc (watch/records.ts), each with the exact
 * nvcc command and NVCC_APPEND/PREPEND_FLAGS of its newest build. `missing` hears of sources recorded
 * without an nvcc command (they cannot be re-run).
 */
export function learnedSource(cacheDir: string, root: string, missing?: (sources: string[]) => void): UnitSource {
  return {
    kind: 'builds', file: RECORDS_FILE(cacheDir),
    load: () => {
      const l = learnedUnits(cacheDir, root);
      if (l.missing.length > 0) missing?.(l.missing);
      // The build's flags replace watch's own: unset in the build means unset.
      return l.units.map(u => ({ ...u, env: { NVCC_APPEND_FLAGS: '', NVCC_PREPEND_FLAGS: '', ...u.env } }));
    },
  };
}

export interface WatchOptions {
  source: UnitSource;
  env: NodeJS.ProcessEnv;
  compile: Compile;
  emit: (e: WatchEvent) => void;
  debounceMs: number;
}

interface Tracked {
  unit: WatchUnit;
  id: string;
  dir: string;
  plan?: UnitPlan;
  files: Set<string>;
  failing?: boolean;
}

const unitId = (u: WatchUnit) => `${u.file}\0${u.directory}\0${u.command.join('\0')}\0${JSON.stringify(u.env ?? {})}`;

export class Watcher {
  private readonly units = new Map<string, Tracked>();
  private readonly dirty = new Map<string, Set<string>>();
  private readonly tmp = mkdtempSync(join(tmpdir(), 'ptxd-watch-'));
  private fs: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly watchedDirs = new Set<string>();
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private n = 0;
  private dbChanged = false;

  constructor(private readonly o: WatchOptions) {}

  async start(): Promise<void> {
    this.fs = chokidarWatch([], { ignoreInitial: true, depth: 0, atomic: true });
    this.fs.on('all', (_ev, path) => this.onPath(path));
    this.fs.on('error', e => this.o.emit({ event: 'failed', message: `watcher: ${e instanceof Error ? e.message : String(e)}` }));
    this.reloadDb();
    makeDirs(dirname(this.o.source.file));
    this.watchDir(dirname(this.o.source.file));
    await new Promise<void>(r => this.fs!.once('ready', () => r()));
    this.o.emit({ event: 'watching', db: this.o.source.file, from: this.o.source.kind, units: this.units.size, files: this.fileCount() });
  }

  private fileCount(): number {
    const all = new Set<string>();
    for (const t of this.units.values()) for (const f of t.files) all.add(f);
    return all.size;
  }

  private watchDir(d: string): void {
    if (this.watchedDirs.has(d)) return;
    this.watchedDirs.add(d);
    this.fs!.add(d);
  }

  /** Units added to the compile database compile; units gone from it are dropped. */
  private reloadDb(): void {
    let list: WatchUnit[];
    try {
      list = this.o.source.load();
    } catch (e) {
      this.o.emit({ event: 'failed', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    const now = new Set<string>();
    for (const u of list) {
      const id = unitId(u);
      now.add(id);
      if (this.units.has(id)) continue;
      const t: Tracked = { unit: u, id, dir: join(this.tmp, `u${this.n++}`), files: new Set([u.file]) };
      this.units.set(id, t);
      this.watchDir(dirname(u.file));
      this.markDirty(id, 'new unit');
    }
    for (const [id, t] of this.units) {
      if (now.has(id)) continue;
      this.units.delete(id);
      this.dirty.delete(id);
      rmSync(t.dir, { recursive: true, force: true });
      this.o.emit({ event: 'removed', unit: t.unit.file });
    }
  }

  private onPath(path: string): void {
    if (this.closed) return;
    // A reconfigure may rewrite the database in steps: read it once things settle.
    if (path === this.o.source.file) { this.dbChanged = true; this.schedule(); return; }
    let hit = false;
    for (const t of this.units.values()) {
      if (t.files.has(path)) { this.markDirty(t.id, path); hit = true; }
    }
    if (hit) this.schedule();
  }

  private markDirty(id: string, why: string): void {
    let s = this.dirty.get(id);
    if (!s) this.dirty.set(id, s = new Set());
    s.add(why);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.dbChanged) { this.dbChanged = false; this.reloadDb(); }
      void this.drain();
    }, this.o.debounceMs);
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed) {
        const next = this.dirty.entries().next();
        if (next.done) break;
        const [id, why] = next.value;
        this.dirty.delete(id);
        const t = this.units.get(id);
        if (t) await this.compileUnit(t, [...why]);
      }
    } finally {
      this.running = false;
    }
    if (this.dirty.size > 0 && !this.timer) this.schedule();
    else if (this.dirty.size === 0 && !this.timer && !this.closed) {
      const failing = [...this.units.values()].filter(t => t.failing).length;
      this.o.emit({ event: 'idle', units: this.units.size, files: this.fileCount(), failing });
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private async compileUnit(t: Tracked, reason: string[]): Promise<void> {
    this.o.emit({ event: 'compiling', unit: t.unit.file, reason });
    try {
      if (!t.plan) {
        rmSync(t.dir, { recursive: true, force: true });
        makeDirs(t.dir);
        t.plan = planUnit(t.unit.command, t.unit.directory, t.dir, { ...this.o.env, ...t.unit.env });
      }
      const r = await runUnit(t.plan, t.unit.directory, this.o.compile);
      if (r.includes.length > 0) {
        t.files = new Set([t.unit.file, ...r.includes]);
        for (const f of t.files) this.watchDir(dirname(f));
      }
      t.failing = !r.ok;
      const { includes: _i, pending, ...rest } = r;
      void _i;
      this.o.emit({ event: 'result', unit: t.unit.file, reason, ...rest });
      // ptxd's errors, shown unconfirmed: the real cicc's verdict follows as a second result.
      if (pending) {
        const c = await confirmErrors(rest, pending);
        if (c) {
          t.failing = !c.ok;
          this.o.emit({ event: 'result', unit: t.unit.file, reason, ...c });
        }
      }
    } catch (e) {
      t.failing = true;
      this.o.emit({ event: 'failed', unit: t.unit.file, message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Resolves when nothing is pending (for tests and benchmarks). */
  idle(): Promise<void> {
    if (this.dirty.size === 0 && !this.timer && !this.running) return Promise.resolve();
    return new Promise(r => this.idleWaiters.push(r));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.fs?.close();
    rmSync(this.tmp, { recursive: true, force: true });
  }
}

