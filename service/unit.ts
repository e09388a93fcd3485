// One unit compile with the unit cache: the single place where ptxd compiles, used by the daemon and
// by the in-process client alike. Files are the client's business except the input, which is read
// here (the path is absolute; the daemon runs as the same user on the same machine).
//
// lookup() is cheap (read, hash, one LMDB read) so the daemon can answer hits at once; compile() is the
// expensive part.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompileOptions, CompileResult, Diagnostic } from '../compiler/index';
import { emptyCounters, repairWarning, Store, type Counters, type ProbePolicy } from './store/store';
import { quarantine } from './store/guard';
import { errorName, isCorruption } from './errno';
import { unitKey } from './unit-key';
import { baseDirFor, keyColumns, placeFreeKey, relocateDiagnostic, relocatePtx, relocateReal, relocateStub, samePlace, type Place } from './relocate';
import type { ColumnTable } from './relocate-strings';
import { compilerHash, ptxdVersion } from '../protocol/version';
import { findLibdevice, type Libdevice } from './libdevice-file';
import { RemoteTier } from './store/remote/tier';
import type { UnitValue } from './store/value';
import { preludeOf } from './prelude-key';
import { LmdbPieceStore, type PieceStoreRef } from './pieces';
import { fallbackKey, type RealOutputs, type UnitRequest, type UnitResponse } from '../protocol/unit';
import { HeaderCheck, VERDICTS_DIR } from './header-check';

export type { UnitRequest, UnitResponse } from '../protocol/unit';
export { LmdbPieceStore, pieceStoreAt, type PieceStoreRef } from './pieces';

/** Errors that say the cache cannot take writes (rather than that it is damaged). */
const UNWRITABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'MDB_MAP_FULL']);

/** A looked-up request: either answered already or ready to compile. */
export interface Lookup {
  req: UnitRequest;
  response?: UnitResponse;
  key?: string;
  /** The options the unit is compiled and keyed with (placeholder file names, see keyedOptions). */
  options?: CompileOptions;
  source?: Buffer;
  lib?: Libdevice;
  /** After compile(): the stub with the placeholder names, for requests that share this compile. */
  keyedStub?: string;
  fallbackKey?: string;
  /** Where the request compiles (its key leaves this out: a result from elsewhere is moved here). */
  place?: Place;
  /** Set when the key marked string literals under the base directory: their column table, made on first use. */
  columns?: () => ColumnTable;
  /** The fallback key leaves the place out: the real cicc's result there carries its place and is moved. */
  fallbackFree?: boolean;
  /** The unit's prelude, when the lookup hashed it (the header check keys its verdicts by it). */
  prelude?: { end: number; hash: string };
}

/** A result's outputs moved from where they were compiled to `to`; undefined when they cannot be moved exactly. */
function moved<T extends { ptx: string; stub: string; diagnostics: unknown[] }>(v: T, from: Place | undefined, to: Place | undefined,
  columns: (() => ColumnTable) | undefined): T | undefined {
  if (!from || !to || samePlace(from, to)) return v;
  const ptx = relocatePtx(v.ptx, from, to, columns);
  const stub = relocateStub(v.stub, from, to);
  if (ptx === undefined || stub === undefined) return undefined;
  const diagnostics: Diagnostic[] = [];
  for (const d of v.diagnostics) {
    const x = relocateDiagnostic(d as Diagnostic, from, to, columns !== undefined);
    if (!x) return undefined;
    diagnostics.push(x);
  }
  return { ...v, ptx, stub, diagnostics };
}

/** Where the real cicc's result for a looked-up call is cached (and the place it is saved with). */
function fallbackOf(l: Lookup): Pick<UnitResponse, 'fallbackKey' | 'fallbackPlace'> {
  if (!l.fallbackKey) return {};
  return l.fallbackFree && l.place ? { fallbackKey: l.fallbackKey, fallbackPlace: l.place } : { fallbackKey: l.fallbackKey };
}

/** The cache value of the real cicc's result for a call. */
export function realValueOf(real: RealOutputs, ms: number, place?: Place): UnitValue {
  return { ok: true, ptx: '', stub: '', diagnostics: [], compileMs: Math.round(ms * 10) / 10, real, ...(place ? { place } : {}) };
}

/** The column table of a marked key source, made once and only when a result moves. */
function lazyColumns(source: Buffer): () => ColumnTable {
  let t: ColumnTable | undefined;
  return () => (t ??= keyColumns(source));
}

// nvcc names the stub and the fatbin include after its temp directory (tmpxft_<pid>_…), so these two
// options differ on every nvcc run although nothing but the stub's `#include "…"` and `# 1 "…"` lines
// depend on them. The unit is compiled and keyed with placeholders instead, and the real names are put
// into the stub of each response: that is what makes a rebuild a cache hit.
const INCLUDE_MARK = '\u0001ptxd-include-file-name\u0001';
const STUB_MARK = '\u0001ptxd-stub-file-name\u0001';
/** Names the compiler prints verbatim (no escaping could differ between placeholder and real name). */
const PLAIN_NAME = /^[A-Za-z0-9_./+@~-]*$/;

function keyedOptions(o: CompileOptions): CompileOptions {
  // The compiler never reads origSrcPathName (an absolute path: the client derives the module id from
  // it, and the id is keyed); blank, it keeps absolute paths out of keys shared with a team.
  const p = { ...o, origSrcPathName: '' };
  if (!PLAIN_NAME.test(o.includeFileName) || !PLAIN_NAME.test(o.stubFileName)) return p;
  return { ...p, includeFileName: INCLUDE_MARK, stubFileName: STUB_MARK };
}

function realStub(stub: string, o: CompileOptions): string {
  return stub.split(INCLUDE_MARK).join(o.includeFileName).split(STUB_MARK).join(o.stubFileName);
}

function empty(status: UnitResponse['status'], extra: Partial<UnitResponse> = {}): UnitResponse {
  return { status, ptx: '', stub: '', diagnostics: [], cached: false, compileMs: 0, warnings: [], ...extra };
}

export interface ServiceOptions {
  cacheDir: string;
  sizeLimit: number;
  env: NodeJS.ProcessEnv;
  /** Warn about a disabled cache in every response (in-process) or only the first (daemon). */
  warnOnce: boolean;
  log?: (line: string) => void;
  /** The compiler entry; loaded lazily by default (a cache hit does not need it). */
  compileUnit?: typeof import('../compiler/index').compileUnit;
  /** Keep lexed/skimmed prefixes between compiles (a long-lived daemon; useless to a one-shot client). */
  keepPrelude?: boolean;
  /** Use the team cache configured in `env` (store/remote/config.ts): the daemon does, one-shot clients do not. */
  remote?: boolean;
  /** When to probe the store file in a child before mapping it (store.ts ProbePolicy; default 'auto'). */
  probe?: ProbePolicy;
  /** Look up (and let the daemon learn) preludes ptxd cannot compile (prelude-key.ts). */
  preludeMemo?: boolean;
}

export class UnitService {
  private store: Store | undefined;
  private storeTried = false;
  private warning: string | undefined;
  private warned = false;
  private pending: Counters = emptyCounters();
  private prelude: import('../compiler/index').PreludeCache | undefined;
  private remote: RemoteTier | undefined;
  private pieces: LmdbPieceStore | undefined;
  private headers: HeaderCheck | undefined;

  constructor(private readonly o: ServiceOptions) {}

  /** The store, opened on first use; undefined (with one warning) when the cache dir is unusable. */
  getStore(): Store | undefined {
    this.noticeReplaced();
    if (!this.storeTried) {
      this.storeTried = true;
      if (this.o.env.PTXD_CACHE === '0') return undefined;   // turned off on purpose (benchmarks): no warning
      try {
        this.store = Store.open(this.o.cacheDir, this.o.sizeLimit, undefined, { probe: this.o.probe });
        if (this.store.repaired) this.setWarning(repairWarning(this.store.path, this.store.repaired));
      } catch (e) {
        this.setWarning(`ptxd: warning: unit cache disabled: cannot use cache directory "${this.o.cacheDir}" (${errorName(e)})`);
      }
      if (this.o.remote && !this.remote) this.remote = RemoteTier.fromEnv(this.o.env, s => this.o.log?.(s));
    }
    return this.store;
  }

  private setWarning(w: string): void {
    this.warning = w;
    this.warned = false;
    this.o.log?.(w);
  }

  /**
   * The store file removed under us (`rm -rf` of the cache, `ptxd cache clear`) or moved aside by another
   * process: writing on would go into a deleted file, so the next use opens what is there now. The counters
   * not yet written were counted against the old file; its statistics went with it, so they go too.
   */
  private noticeReplaced(): void {
    if (!this.store?.replaced()) return;
    this.o.log?.(`cache file ${this.store.path} was removed or replaced; reopening`);
    this.dropStore();
    this.pending = emptyCounters();
  }

  private dropStore(): void {
    this.store?.close();
    this.store = undefined;
    this.pieces = undefined;
    this.storeTried = false;
  }

  /**
   * A store operation failed. LMDB saying the file is damaged (found only when reading deep in it) moves the
   * file aside, with the one warning; the next use opens a fresh store. Anything else is logged and ignored.
   */
  private storeFailed(what: string, e: unknown): void {
    this.o.log?.(`cache ${what} failed: ${errorName(e)}${e instanceof Error && errorName(e) !== e.message ? ` (${e.message})` : ''}`);
    const store = this.store;
    if (!store) return;
    if (!isCorruption(e)) {
      // A full disk, a quota, a file system gone read-only: this unit builds uncached, and the user hears of it.
      const name = errorName(e);
      if (UNWRITABLE.has(name)) {
        const w = `ptxd: warning: cannot write to the unit cache in "${this.o.cacheDir}" (${name}); building without caching`;
        if (w !== this.warning) this.setWarning(w);
      }
      return;
    }
    let keptAs = '(already moved by another process)';
    try { if (!store.replaced()) keptAs = quarantine(store.path); } catch (q) { keptAs = `(not moved: ${errorName(q)})`; }
    this.dropStore();
    this.setWarning(repairWarning(store.path, { why: `LMDB reports ${errorName(e)}`, keptAs }));
  }

  /** The team cache, when configured (opened with the store). */
  getRemote(): RemoteTier | undefined {
    if (this.o.remote && !this.storeTried) this.getStore();
    return this.remote;
  }

  private warnings(): string[] {
    if (this.warning === undefined || (this.o.warnOnce && this.warned)) return [];
    this.warned = true;
    return [this.warning];
  }

  lookup(req: UnitRequest): Lookup {
    this.noticeReplaced();
    this.pending.requests++;
    let source: Buffer;
    try {
      source = readFileSync(req.input);
    } catch {
      return { req, response: empty('unreadable', { reason: `cannot open source file "${req.input}"` }) };
    }
    const lib = findLibdevice(req.realCicc, this.o.env);
    const options = keyedOptions(req.options);
    const store = this.getStore();
    if (!store) return { req, source, lib, options };
    const keyParts = { version: ptxdVersion(), compilerHash: compilerHash(), libdeviceHash: lib?.hash ?? '', options, env: req.env };
    const free = placeFreeKey(source, options, baseDirFor(req.baseDir, req.options));
    const place: Place = { baseDir: free.baseDir, moduleId: req.options.moduleId };
    const key = unitKey({ ...keyParts, options: free.options, source: free.source });
    const columns = free.strings ? lazyColumns(free.source) : undefined;
    const fallbackFree = !!(free.baseDir && req.fallback?.freeKey);
    const fk = req.fallback ? fallbackKey(key, fallbackFree ? req.fallback.freeKey! : req.fallback.argvKey) : undefined;
    const fkTo = (r: UnitResponse): UnitResponse => fk ? { ...r, fallbackKey: fk, ...(fallbackFree ? { fallbackPlace: place } : {}) } : r;
    const moveReal = (v: UnitValue | undefined): UnitValue | undefined => this.movedReal(v, fallbackFree, place, columns);
    const withKeys = (response: UnitResponse): Lookup => ({ req, key, place, response: fkTo(response) });
    let prelude: { end: number; hash: string } | undefined;
    try {
      const { value, corrupt } = store.get(key);
      if (corrupt) {
        this.pending.corrupt++;
        this.o.log?.(`corrupt cache value ${key.slice(0, 16)} removed; recompiling`);
      }
      const here = value ? moved(value, value.place, place, columns) : undefined;
      if (here && here !== value && value?.unsupported === undefined) this.pending.movedHits++;
      if (value && !here) this.o.log?.(`cached unit ${key.slice(0, 16)} cannot be moved from ${value.place?.baseDir} to ${place.baseDir}; recompiling`);
      if (here) {
        const value = here;
        // A remembered "ptxd cannot compile this" is no compile saved: not a hit.
        if (value.unsupported === undefined) {
          this.pending.hits++;
          this.pending.savedMs += value.compileMs;
        }
        // A unit ptxd rejected or cannot compile: the real cicc's result for this call, when it ran before.
        const real = !value.ok && fk ? this.realValue(fk, moveReal) : undefined;
        if (real) return withKeys(real);
        return withKeys(this.fromValue(value, req.options));
      }
      // A unit whose headers ptxd already knows it cannot compile goes straight to the real cicc.
      prelude = this.o.preludeMemo ? preludeOf(source.toString('latin1')) : undefined;
      const memo = prelude && this.preludeMemo(prelude.hash, keyParts);
      if (memo) {
        this.pending.unsupported++;
        const real = fk ? this.realValue(fk, moveReal) : undefined;
        return withKeys(real ?? empty('unsupported', { reason: memo, cached: true, warnings: this.warnings() }));
      }
    } catch (e) {
      this.storeFailed('read', e);
    }
    return { req, key, source, lib, options, place, ...(columns ? { columns } : {}), ...(fk ? { fallbackKey: fk, fallbackFree } : {}), ...(prelude ? { prelude } : {}) };
  }

  private fromValue(value: UnitValue, o: CompileOptions): UnitResponse {
    if (value.unsupported !== undefined) {
      this.pending.unsupported++;
      return empty('unsupported', { reason: value.unsupported, cached: true, compileMs: value.compileMs, warnings: this.warnings() });
    }
    return {
      status: value.ok ? 'ok' : 'errors', ptx: value.ptx, stub: realStub(value.stub, o), diagnostics: value.diagnostics as Diagnostic[],
      cached: true, compileMs: value.compileMs, warnings: this.warnings(),
    };
  }

  /**
   * For a missed unit whose prelude another unit just showed to be beyond ptxd (its probe still running):
   * the real cicc, without an attempt of ours (a wrong guess only costs what stock cicc costs).
   */
  presumedUnsupported(l: Lookup, reason: string): UnitResponse {
    this.pending.unsupported++;
    const response = empty('unsupported', { reason, warnings: this.warnings() });
    return { ...response, ...fallbackOf(l) };
  }

  /** The real cicc's cached result under a fallback key, moved here, as a response (counted as a fallback hit). */
  private realValue(fk: string, move: (v: UnitValue | undefined) => UnitValue | undefined): UnitResponse | undefined {
    const value = move(this.store!.get(fk).value);
    if (!value?.real) return undefined;
    this.pending.fallbackHits++;
    this.pending.savedMs += value.compileMs;
    return empty('real', { real: value.real, cached: true, compileMs: value.compileMs, warnings: this.warnings() });
  }

  /**
   * The key under which a prelude's "ptxd cannot compile these headers" is remembered: the options without
   * the names that differ from unit to unit (the module id and file names), which the headers cannot see.
   */
  private preludeKey(preludeHash: string, parts: Omit<import('./unit-key').KeyParts, 'source'>): string {
    const options = { ...parts.options, moduleId: '', origSrcFileName: '', origSrcPathName: '', includeFileName: '', stubFileName: '', compDir: '', prelude: true };
    return unitKey({ ...parts, options: options as CompileOptions, source: Buffer.from(`prelude\0${preludeHash}`) });
  }

  /** The reason ptxd cannot compile this unit's prelude, when a unit with the same prelude showed it. */
  private preludeMemo(preludeHash: string, parts: Omit<import('./unit-key').KeyParts, 'source'>): string | undefined {
    return this.store!.get(this.preludeKey(preludeHash, parts)).value?.unsupported;
  }

  /**
   * For a unit ptxd could not compile: its prelude as a unit of its own (text and where to remember it),
   * to be compiled in the background; undefined when the unit has no prelude or it is known.
   */
  preludeProbe(l: Lookup): { hash: string; text: string; options: CompileOptions; rest: unknown[]; remember: (reason: string) => void } | undefined {
    const store = this.store;
    if (!this.o.preludeMemo || !store || !l.source || !l.options) return undefined;
    const text = l.source.toString('latin1');
    const p = preludeOf(text);
    if (!p) return undefined;
    const parts = { version: ptxdVersion(), compilerHash: compilerHash(), libdeviceHash: l.lib?.hash ?? '', options: l.options, env: l.req.env };
    const key = this.preludeKey(p.hash, parts);
    try { if (store.get(key).value) return undefined; } catch { return undefined; }
    return {
      hash: p.hash, text: l.source.subarray(0, p.end).toString('utf8'), options: l.options, rest: this.compileArgs(l),
      remember: reason => { this.put(key, { ok: false, ptx: '', stub: '', diagnostics: [], compileMs: 0, unsupported: reason }); },
    };
  }

  /** Stores a value locally and offers it to the team cache; a full disk never fails a compile. */
  private put(key: string, value: UnitValue): void {
    const store = this.getStore();
    if (!store) return;
    try {
      this.pending.evictions += store.put(key, value);
    } catch (e) {
      this.o.log?.(`cache write failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.remote?.offer(key, value);
  }

  /** Caches the real cicc's result for a call (under the response's fallbackKey, with its fallbackPlace). */
  saveReal(fk: string, real: RealOutputs, ms: number, place?: Place): void {
    this.put(fk, realValueOf(real, ms, place));
  }

  /**
   * A cached real cicc's result for a request at `place`: as it is under a key with the path, moved when
   * the key leaves the place out (a value without its place there is never used); undefined when not exact.
   */
  private movedReal(v: UnitValue | undefined, free: boolean, place: Place, columns: (() => ColumnTable) | undefined): UnitValue | undefined {
    if (!v?.real || !free) return v;
    if (!v.place) return undefined;
    if (samePlace(v.place, place)) return v;
    const real = relocateReal(v.real, v.place, place, columns);
    if (!real) return undefined;
    this.pending.movedHits++;
    return { ...v, real, place };
  }

  /** A ptxd error the real cicc did not confirm (it compiled the unit). */
  countFalseError(): void {
    this.pending.falseErrors++;
  }

  /**
   * After a local miss: the unit from the team cache (stored locally too), or undefined. Resolves at once
   * when there is no remote tier.
   */
  async fromRemote(l: Lookup): Promise<UnitResponse | undefined> {
    if (l.response || !l.key || !this.remote) return undefined;
    const got = await this.remote.get(l.key);
    if (!got) return undefined;
    const v = moved(got, got.place, l.place, l.columns);
    if (!v) return undefined;
    this.pending.hits++;
    this.pending.savedMs += v.compileMs;
    this.pending.remoteSavedMs += v.compileMs;
    if (v !== got) this.pending.movedHits++;
    l.keyedStub = v.stub;
    try { this.pending.evictions += this.store!.put(l.key, { ...v, ...(l.place ? { place: l.place } : {}) }); } catch (e) { this.o.log?.(`cache write failed: ${e instanceof Error ? e.message : String(e)}`); }
    const res = this.fromValue(v, l.req.options);
    if (!v.ok && l.fallbackKey) {
      // The real cicc's result for this call, when a teammate's build ran it.
      const real = l.place ? this.movedReal(await this.remote.get(l.fallbackKey), !!l.fallbackFree, l.place, l.columns) : undefined;
      if (real?.real) {
        try { this.pending.evictions += this.store!.put(l.fallbackKey, real); } catch { /* a full disk never fails a compile */ }
        this.pending.fallbackHits++;
        return empty('real', { real: real.real, cached: true, compileMs: real.compileMs, warnings: this.warnings(), ...fallbackOf(l) });
      }
    }
    return { ...res, ...fallbackOf(l) };
  }

  /**
   * Before a compile: a unit whose system-header regions differ from the headers on disk (a damaged .ii) is
   * left to the real cicc, which parses the declarations ptxd skips.
   */
  private headersDiffer(l: Lookup): UnitResponse | undefined {
    const t0 = performance.now();
    // Verdicts persist beside the store, also with the unit cache off (PTXD_CACHE=0): they say nothing about a
    // unit's outputs, and a compile timed without the unit cache is then timed as a user's compile is.
    this.headers ??= new HeaderCheck(join(this.o.cacheDir, VERDICTS_DIR), compilerHash());
    const reason = this.headers.check(l.source!, l.prelude);
    if (reason === undefined) return undefined;
    return this.finish(l, { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: reason, times: { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 } }, performance.now() - t0);
  }

  compile(l: Lookup): UnitResponse {
    if (l.response) return l.response;
    const differ = this.headersDiffer(l);
    if (differ) return differ;
    // Lazy: loading the compiler is the expensive part of a cold client.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const compileUnit = this.o.compileUnit ?? (require('../compiler/index') as typeof import('../compiler/index')).compileUnit;
    const t0 = performance.now();
    const text = l.source!.toString('utf8');
    // THE call of the compiler in-process (the daemon's pool makes the same call in its workers, which
    // keep prelude caches of their own).
    if (this.o.keepPrelude && !this.prelude) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      this.prelude = new (require('../compiler/index') as typeof import('../compiler/index')).PreludeCache();
    }
    const store = this.getStore();
    const env = { libdevice: l.lib?.bytes, prelude: this.prelude, pieces: store ? (this.pieces ??= new LmdbPieceStore(store)) : undefined };
    let options = l.options ?? l.req.options;
    let r = compileUnit(text, options, env);
    if (this.leaked(l, options, r)) {
      options = l.req.options;
      r = compileUnit(text, options, env);
    }
    return this.finish(l, r, performance.now() - t0);
  }

  /**
   * The same compile with the compiler run elsewhere (the daemon's worker pool); `ms` is the time the
   * compile itself took there (not the wait for a worker).
   */
  async compileWith(l: Lookup, run: (text: string, o: CompileOptions, rest: unknown[]) => Promise<{ result: CompileResult; ms: number }>):
  Promise<UnitResponse> {
    if (l.response) return l.response;
    const differ = this.headersDiffer(l);
    if (differ) return differ;
    const text = l.source!.toString('utf8');
    let options = l.options ?? l.req.options;
    let { result: r, ms } = await run(text, options, this.compileArgs(l));
    if (this.leaked(l, options, r)) {
      options = l.req.options;
      const again = await run(text, options, this.compileArgs(l));
      r = again.result;
      ms += again.ms;
    }
    return this.finish(l, r, ms);
  }

  /** compileUnit's arguments after the options, as plain data (a worker adds its own prelude cache). */
  private compileArgs(l: Lookup): unknown[] {
    const pieceStore: PieceStoreRef | undefined = this.getStore() ? { dir: this.o.cacheDir, limit: this.o.sizeLimit } : undefined;
    return [{ libdevice: l.lib?.bytes, pieceStore }];
  }

  /**
   * Whether the placeholder file names leaked beyond the stub (never expected): then the unit is
   * compiled again with the real names and not cached.
   */
  private leaked(l: Lookup, options: CompileOptions, r: CompileResult): boolean {
    if (options === l.req.options) return false;
    if (!(r.ptx.includes(INCLUDE_MARK) || r.ptx.includes(STUB_MARK) ||
      r.diagnostics.some(d => d.message.includes(INCLUDE_MARK) || d.message.includes(STUB_MARK)))) return false;
    l.key = undefined;
    return true;
  }

  private finish(l: Lookup, r: CompileResult, ms: number): UnitResponse {
    const { req } = l;
    const compileMs = Math.round(ms * 10) / 10;
    this.pending.compileMs += compileMs;
    const fk = fallbackOf(l);
    if (r.unsupported !== undefined) {
      this.pending.unsupported++;
      // Remembered: the next request for this unit goes straight to the real cicc.
      if (l.key) this.put(l.key, { ok: false, ptx: '', stub: '', diagnostics: [], compileMs, unsupported: r.unsupported });
      return empty('unsupported', { reason: r.unsupported, times: r.times, compileMs, warnings: this.warnings(), ...fk });
    }
    this.pending.misses++;
    if (!r.ok) this.pending.errors++;
    if (l.key) l.keyedStub = r.stub;
    const store = this.store;
    if (store && l.key) {
      const value = { ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, compileMs, ...(l.place ? { place: l.place } : {}) };
      try {
        this.pending.evictions += store.put(l.key, value);
      } catch (e) {
        // A full map or disk never fails a compile.
        this.storeFailed('write', e);
      }
      this.remote?.offer(l.key, value);
    }
    return {
      status: r.ok ? 'ok' : 'errors', ptx: r.ptx, stub: realStub(r.stub, req.options), diagnostics: r.diagnostics, times: r.times,
      cached: false, compileMs, warnings: this.warnings(), ...(r.functions ? { functions: r.functions } : {}), ...fk,
    };
  }

  /**
   * The answer for `waiter`, a request with the same key as `owner` that waited for owner's compile
   * (counted as a hit: it was served without compiling). Undefined when the compile cannot be shared.
   */
  shared(owner: Lookup, res: UnitResponse, waiter: Lookup): UnitResponse | undefined {
    if (!owner.key || owner.key !== waiter.key) return undefined;
    const fk = fallbackOf(waiter);
    if (res.status === 'unsupported') return { ...res, cached: true, warnings: this.warnings(), ...fk };
    if (owner.keyedStub === undefined) return undefined;
    const mine = { ...res, stub: owner.keyedStub };
    const here = moved(mine, owner.place, waiter.place, waiter.columns);
    if (!here) return undefined;
    if (here !== mine) this.pending.movedHits++;
    this.pending.hits++;
    this.pending.savedMs += res.compileMs;
    return { ...here, stub: realStub(here.stub, waiter.req.options), cached: true, warnings: this.warnings(), ...fk };
  }

  handle(req: UnitRequest): UnitResponse {
    return this.compile(this.lookup(req));
  }

  /** Writes the counters gathered since the last flush into the store. */
  flushCounters(): void {
    if (this.remote) Object.assign(this.pending, this.remote.drain());
    this.noticeReplaced();
    const d = this.pending;
    if (Object.values(d).every(v => v === 0)) return;
    this.pending = emptyCounters();
    const store = this.getStore();
    if (!store) return;
    try {
      store.addCounters(d);
      store.restamp();
    } catch (e) {
      this.storeFailed('stats write', e);
    }
  }

  close(): void {
    this.flushCounters();
    this.remote?.close();
    this.store?.close();
  }
}
