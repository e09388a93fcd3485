// ptxd-cicc: the drop-in cicc. Use it as `nvcc --cicc-prefix=<path>/ptxd-cicc …`; nvcc then runs
// `ptxd-cicc <real cicc> <cicc args…>` (research/cicc-cli-contract.md §7.2).
//
// Contract with nvcc: nothing on stdout, diagnostics on stderr in EDG's format, exit 0 on success and 1
// on errors, outputs (PTX, stub, placeholder .c/.gpu, trace) written atomically. A unit our compiler
// cannot handle is compiled by the real cicc instead (unless PTXD_FALLBACK=never), visibly: a line on
// stderr with PTXD_VERBOSE=1 and a record in <cache dir>/fallbacks.jsonl.
//
// By default the unit is compiled by the daemon (daemon/, started on demand): this file parses argv,
// reads the module id, sends an absolute input path and the options, then prints the diagnostics and
// writes the outputs itself. If the daemon cannot be used (PTXD_DAEMON=0, unreachable twice, a newer
// ptxd) the same UnitService compiles here. The daemon client and the compiler are loaded lazily so
// that argv errors, fallbacks and cache hits cost no compiler start-up.

import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { CiccArgError, defaultOutputPath, parseCiccArgs, type CiccArgs } from '../cicc/args';
import { generateModuleId } from '../cicc/module-id';
import { OutputError, writeOutputsAtomically, type OutputFile } from '../cicc/outputs';
import type { CompileOptions } from '../compiler/options';
import type { Diagnostic } from '../compiler/diagnostics';
import { cacheDir } from '../protocol/paths';
import { makeDirs } from '../service/mkdirs';
import { outputEnv } from '../service/unit-key';
import { buildIdentity, parseMakeflags, pipeInherited, TokenPool, type JobserverAuth, type MakeJobs } from '../protocol/jobserver';
import type { UnitRequest, UnitResponse } from '../service/unit';
import { originOf } from '../cicc/origin';
import type { UnitOrigin } from '../protocol/unit';
import { NATIVE_CLIENT, SCRIPT_CLIENT } from '../protocol/version';
import { collectOutputs, fallbackIdentity, neutralStderr, placeOutputs, planCapture, removePlan, runReal, type RealRun } from '../cicc/fallback';
import type { RealOutputs } from '../protocol/unit';

export { cacheDir };

export interface CiccContext {
  /** The real cicc, when known (argv[1] under --cicc-prefix, or the capture of `ptxd compile`). */
  realCicc?: string;
  env: NodeJS.ProcessEnv;
  /** The cicc process's working directory, pid and parent (the daemon runs calls for other processes). */
  cwd: string;
  pid: number;
  ppid: number;
  stderr: (s: string) => void;
  /** Milliseconds since the process started, for the trace file. */
  now: () => number;
  /**
   * Set when the call runs inside the daemon for the native client: the last resort when the daemon
   * cannot run the real cicc itself, the fallback is handed back to the client (which execs it).
   */
  execReal?: (argv: readonly string[]) => number;
  /** How the real cicc is run and its results kept; the Node client's own when absent (realHooks). */
  real?: RealHooks;
}

/** The real cicc for a fallback or to confirm ptxd's errors: where it runs, where its result is cached. */
export interface RealHooks {
  /** Runs it (the daemon: as a compile slot, with the client's cwd and environment). */
  run(real: string, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RealRun>;
  /** Caches its result under a fallback key. */
  save(fallbackKey: string, real: RealOutputs, ms: number): void;
  /** Counts a ptxd error that the real cicc did not confirm. */
  falseError(): void;
}

/** Thrown to stop with an exit code after the message has been printed. */
class Exit extends Error {
  constructor(public readonly code: number) { super(`exit ${code}`); this.name = 'Exit'; }
}

// ---------------------------------------------------------------------------------------------------
// Messages in cicc's wording

function commandLineError(ctx: CiccContext, message: string): never {
  ctx.stderr(`Command-line error: ${message}\n\n1 catastrophic error detected in this compilation.\nCompilation terminated.\n`);
  throw new Exit(1);
}

function catastrophic(ctx: CiccContext, message: string, unitName: string): never {
  ctx.stderr(`Catastrophic error: ${message}\n\n1 catastrophic error detected in the compilation of "${unitName}".\nCompilation terminated.\n`);
  throw new Exit(1);
}

function summaryLine(errors: number, catastrophics: number, unitName: string): string {
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (catastrophics === 0) return `${plural(errors, 'error')} detected in the compilation of "${unitName}".\n`;
  const head = errors > 0 ? `${plural(errors, 'error')} and ` : '';
  return `${head}${plural(catastrophics, 'catastrophic error')} detected in the compilation of "${unitName}".\nCompilation terminated.\n`;
}

/** Applies -w, --promote_warnings and --diag_suppress/--diag_warn/--diag_error to one diagnostic. */
export function adjustDiagnostic(d: Diagnostic, o: CompileOptions): Diagnostic | undefined {
  const num = d.number === undefined ? undefined : String(d.number);
  let severity = d.severity;
  const listed = (l: string[]) => num !== undefined && l.includes(num);
  if (severity === 'warning' || severity === 'remark') {
    if (listed(o.diagSuppress)) return undefined;
    if (listed(o.diagError)) severity = 'error';
  } else if (severity === 'error' && listed(o.diagWarn)) {
    severity = 'warning';
  }
  if (severity === 'warning' || severity === 'remark') {
    if (o.suppressWarnings) return undefined;
    if (o.promoteWarnings && severity === 'warning') severity = 'error';
  }
  return severity === d.severity ? d : { ...d, severity };
}

/** Prints the diagnostics like EDG; returns the error and catastrophic-error counts. */
function printDiagnostics(ctx: CiccContext, diags: readonly Diagnostic[], o: CompileOptions,
  format: (d: Diagnostic, n: boolean) => string): { errors: number; catastrophics: number } {
  let errors = 0, catastrophics = 0, remarkShown = false;
  for (const raw of diags) {
    const d = adjustDiagnostic(raw, o);
    if (!d) continue;
    ctx.stderr(format(d, o.displayErrorNumber));
    if (d.severity === 'error') errors++;
    else if (d.severity === 'catastrophic') catastrophics++;
    else if (d.severity === 'warning' && d.number !== undefined && o.displayErrorNumber && !remarkShown) {
      ctx.stderr('Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"\n\n');
      remarkShown = true;
    }
  }
  return { errors, catastrophics };
}

// ---------------------------------------------------------------------------------------------------
// Finding the real cicc, and falling back to it

function isExecutableFile(p: string): boolean {
  try { return statSync(p).isFile(); } catch { return false; }
}

function sameFile(a: string, b: string): boolean {
  try { return realpathSync(a) === realpathSync(b); } catch { return false; }
}

/** True when `p` is (a link to) this client, as in a shadow toolkit whose cicc is ptxd-cicc. */
function isOurselves(p: string): boolean {
  const self = process.argv[1];
  if (self && sameFile(p, self)) return true;
  if (sameFile(p, NATIVE_CLIENT) || sameFile(p, SCRIPT_CLIENT)) return true;
  // Only the first bytes: the real cicc is a 60 MB binary.
  let fd: number | undefined;
  try {
    fd = openSync(p, 'r');
    const buf = Buffer.alloc(400);
    const head = buf.subarray(0, readSync(fd, buf, 0, 400, 0)).toString('latin1');
    return head.startsWith('#!') && head.includes('ptxd');
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The real cicc: the one nvcc named (relative to the call's cwd), else CICC_PATH, nvcc on PATH, CUDA_HOME… */
export function findRealCicc(env: NodeJS.ProcessEnv, fromArgv?: string, cwd = process.cwd()): string | undefined {
  const candidates: string[] = [];
  if (fromArgv) candidates.push(resolve(cwd, fromArgv));
  if (env.CICC_PATH) candidates.push(join(env.CICC_PATH, 'cicc'));
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, 'nvcc'))) {
      let nvcc = join(dir, 'nvcc');
      candidates.push(join(dir, '..', 'nvvm', 'bin', 'cicc'));
      try { nvcc = realpathSync(nvcc); candidates.push(join(dirname(nvcc), '..', 'nvvm', 'bin', 'cicc')); } catch { /* keep */ }
      break;
    }
  }
  if (env.CUDA_HOME) candidates.push(join(env.CUDA_HOME, 'nvvm', 'bin', 'cicc'));
  if (env.CUDA_PATH) candidates.push(join(env.CUDA_PATH, 'nvvm', 'bin', 'cicc'));
  candidates.push('/usr/local/cuda/nvvm/bin/cicc');
  return candidates.find(c => isExecutableFile(c) && !isOurselves(c));
}


function recordFallback(env: NodeJS.ProcessEnv, reason: string, input: string, arch: string, extra: Record<string, unknown> = {}): void {
  try {
    const dir = cacheDir(env);
    makeDirs(dir);
    const rec = { time: new Date().toISOString(), reason, input, arch, ...extra };
    appendFileSync(join(dir, 'fallbacks.jsonl'), JSON.stringify(rec) + '\n');
  } catch {
    // The stats record is best effort: never fail a build over it.
  }
}

interface FallbackInfo { argv: readonly string[]; unitName: string; arch: string }

/** Whether ptxd's errors and unsupported units go to the real cicc (not with PTXD_FALLBACK=never, nor inside a fallback). */
function fallbackEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.PTXD_FALLBACK !== 'never' && !env.PTXD_IN_FALLBACK;
}

/** The Node client's own way: the real cicc as a child process, its result stored in the local cache. */
function localHooks(env: NodeJS.ProcessEnv): RealHooks {
  const withStore = (f: (s: import('../service/store/store').Store) => void): void => {
    if (env.PTXD_CACHE === '0') return;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Store } = require('../service/store/store') as typeof import('../service/store/store');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { cacheSizeLimit } = require('../protocol/paths') as typeof import('../protocol/paths');
      const store = Store.open(cacheDir(env), cacheSizeLimit(env));
      try { f(store); } finally { store.close(); }
    } catch { /* the cache is best effort: never fail a build over it */ }
  };
  return {
    run: runReal,
    save: (fk, real, ms) => withStore(s => { s.put(fk, { ok: true, ptx: '', stub: '', diagnostics: [], compileMs: Math.round(ms * 10) / 10, real }); }),
    falseError: () => withStore(s => { s.addCounters({ falseErrors: 1 }); }),
  };
}

/**
 * Runs the real cicc on this call with its outputs captured (daemon/fallback.ts), then writes them
 * atomically and replays its stderr; caches the result under `fallbackKey` when it succeeded. Returns
 * cicc's exit code, or undefined when cicc could not be run at all (execReal, when there, hands it to
 * the client instead).
 */
async function runRealCicc(ctx: CiccContext, real: string, info: FallbackInfo, fallbackKey: string | undefined): Promise<number | undefined> {
  const hooks = ctx.real ?? localHooks(ctx.env);
  const plan = planCapture(info.argv);
  const t0 = performance.now();
  try {
    const r = await hooks.run(real, plan ? plan.argv : info.argv, ctx.cwd, ctx.env);
    if (r.error !== undefined) {
      if (ctx.execReal) return ctx.execReal([real, ...info.argv]);
      if (ctx.env.PTXD_VERBOSE === '1') ctx.stderr(`ptxd: could not run the real cicc (${real}): ${r.error}\n`);
      return undefined;
    }
    if (!plan) { ctx.stderr(r.stderr); return r.code; }
    const files = collectOutputs(plan);
    const stderr = files ? neutralStderr(r.stderr, plan) : r.stderr;
    const placed = files ? placeOutputs(files, info.argv, ctx.cwd, stderr) : undefined;
    ctx.stderr(placed ? placed.stderr : r.stderr);
    if (r.code !== 0 || !files || !placed) return r.code;
    writePlaced(ctx, placed, info.unitName);
    if (fallbackKey) hooks.save(fallbackKey, { files, stderr }, performance.now() - t0);
    return 0;
  } finally {
    if (plan) removePlan(plan);
  }
}

/** The real cicc's result from the cache, replayed; undefined when this call cannot use it. */
function replayReal(ctx: CiccContext, real: RealOutputs, info: FallbackInfo): number | undefined {
  const placed = placeOutputs(real.files, info.argv, ctx.cwd, real.stderr);
  if (!placed) return undefined;
  ctx.stderr(placed.stderr);
  writePlaced(ctx, placed, info.unitName);
  return 0;
}

/** Writes outputs atomically; a file that cannot be written is cicc's catastrophic error, named as the call gave it. */
function writePlaced(ctx: CiccContext, placed: { files: OutputFile[]; given: string[] }, unitName: string): void {
  try {
    writeOutputsAtomically(placed.files);
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    const why = (e.cause as NodeJS.ErrnoException | undefined)?.code;
    const given = placed.given[placed.files.indexOf(e.file)] ?? e.file.path;
    catastrophic(ctx, `cannot open ${e.file.what} "${given}"${why ? ` (${why})` : ''}`, unitName);
  }
}

/** Runs the real cicc with the same argv (or reports the unit as not compilable with PTXD_FALLBACK=never). */
async function fallBack(ctx: CiccContext, reason: string, info: FallbackInfo, fallbackKey?: string): Promise<number> {
  const env = ctx.env;
  if (env.PTXD_FALLBACK === 'never') {
    ctx.stderr(`${info.unitName}: error: ptxd cannot compile this unit: ${reason}\n`);
    return 1;
  }
  const real = env.PTXD_IN_FALLBACK ? undefined : findRealCicc(env, ctx.realCicc, ctx.cwd);
  if (!real) {
    ctx.stderr(`${info.unitName}: error: ptxd cannot compile this unit (${reason}) and the real cicc was not found ` +
      '(set CICC_PATH or CUDA_HOME)\n');
    return 1;
  }
  if (env.PTXD_VERBOSE === '1') ctx.stderr(`ptxd: falling back to the real cicc: ${reason}\n`);
  recordFallback(env, reason, info.unitName, info.arch);
  const code = await runRealCicc(ctx, real, info, fallbackKey);
  if (code !== undefined) return code;
  ctx.stderr(`${info.unitName}: error: ptxd cannot compile this unit (${reason}) and the real cicc (${real}) could not be run\n`);
  return 1;
}

/**
 * ptxd found errors: the real cicc decides. If it compiles the unit, its outputs are used and ptxd's
 * error is recorded as a false error (a ptxd defect); if it fails too, the user sees exactly cicc's
 * diagnostics and exit code, as with stock nvcc. Undefined: no real cicc, ptxd's diagnostics stand.
 */
async function confirmErrors(ctx: CiccContext, info: FallbackInfo, diags: readonly Diagnostic[], fallbackKey?: string): Promise<number | undefined> {
  const real = findRealCicc(ctx.env, ctx.realCicc, ctx.cwd);
  if (!real) return undefined;
  const code = await runRealCicc(ctx, real, info, fallbackKey);
  if (code === 0) {
    const first = diags.find(d => d.severity === 'error' || d.severity === 'catastrophic') ?? diags[0];
    const where = first && first.file ? `${first.file}:${first.line}` : '';
    const message = first?.message ?? 'errors';
    if (ctx.env.PTXD_VERBOSE === '1') ctx.stderr(`ptxd: false error (the real cicc compiled the unit): ${where ? `${where}: ` : ''}${message}\n`);
    recordFallback(ctx.env, `false error: ${message}`, info.unitName, info.arch, {
      kind: 'false-error', diagnostic: message, file: first?.file ?? '', line: first?.line ?? 0, construct: (first?.sourceLine ?? '').trim(),
    });
    (ctx.real ?? localHooks(ctx.env)).falseError();
  }
  return code;
}

// ---------------------------------------------------------------------------------------------------
// One compile

function archName(o: CompileOptions): string {
  return `compute_${o.arch}${o.archSuffix}`;
}

function traceJson(args: CiccArgs, ctx: CiccContext, t: { start: number; feEnd: number; end: number }): string {
  const offsetMs = Number(args.traceEnv ? ctx.env[args.traceEnv] ?? 0 : 0) || 0;
  const pid = args.tracePid ?? ctx.pid;
  const us = (ms: number) => Math.round((offsetMs + ms) * 1000);
  const ev = (name: string, from: number, to: number, detail?: string) => ({
    ...(detail !== undefined ? { args: { detail } } : {}),
    dur: Math.max(1, us(to) - us(from)), name, ph: 'X', pid, tid: 0, ts: us(from),
  });
  // ptxas (run with --ftrace-phase-after=LibNVVM) needs an event named LibNVVM in this file.
  return JSON.stringify({
    traceEvents: [
      ev('CUDA C++ Front-End', t.start, t.feEnd, args.input),
      ev('LibNVVM', t.feEnd, t.end, args.input),
    ],
  });
}

/** A parsed, checked cicc call that is ready to be compiled (in-process or by the daemon). */
interface Prepared {
  args: CiccArgs;
  info: FallbackInfo;
  request: UnitRequest;
  /** make's jobserver, when the cicc call runs under make -jN. */
  make?: MakeJobs;
}

/** Everything before the compile: argv, rejected flags, module id. A number is the exit code. */
function prepare(argv: readonly string[], ctx: CiccContext, info: { v: FallbackInfo }): Prepared | number | Promise<number> {
  let args: CiccArgs;
  try {
    args = parseCiccArgs(argv);
  } catch (e) {
    if (!(e instanceof CiccArgError)) throw e;
    if (e.kind === 'missing-input') {
      ctx.stderr('Missing input file\nRecognized input file extensions are: .bc .ci .i .cup .optixir\n');
      return 1;
    }
    commandLineError(ctx, e.message);
  }
  const o = args.options;
  // Line info names source files by absolute path: cicc resolves the .ii's relative names against its cwd.
  if (o.lineInfo) o.compDir = ctx.cwd;
  const unitName = o.origSrcFileName;
  info.v = { argv, unitName, arch: archName(o) };

  if (args.rejected.length > 0) return fallBack(ctx, `unsupported option ${args.rejected.join(', ')}`, info.v);
  if (args.inputKind !== 'ii') return fallBack(ctx, `input kind not supported: ${basename(args.input)}`, info.v);

  if (args.genModuleIdFile || args.moduleIdFile === undefined) {
    o.moduleId = generateModuleId(o.origSrcPathName, o.origSrcFileName);
  } else {
    try {
      o.moduleId = readFileSync(resolve(ctx.cwd, args.moduleIdFile), 'utf8').trim();
    } catch {
      catastrophic(ctx, `cannot open module id file "${args.moduleIdFile}"`, unitName);
    }
  }
  // The daemon has another cwd: it gets an absolute input path.
  const request: UnitRequest = { input: resolve(ctx.cwd, args.input), options: o, realCicc: ctx.realCicc, env: outputEnv(ctx.env) };
  // The real cicc's cached result for this call is looked up with the unit (a fallback or a false error before).
  if (fallbackEnabled(ctx.env)) {
    const real = findRealCicc(ctx.env, ctx.realCicc, ctx.cwd);
    const id = real ? fallbackIdentity(real, argv, ctx.cwd) : {};
    if (id.argvKey) request.fallback = { argvKey: id.argvKey };
  }
  // Under make -jN the daemon runs this compile on our make job's token and admits at most N of the
  // build's compiles at once (client/jobserver.ts).
  const mj = parseMakeflags(ctx.env.MAKEFLAGS);
  if (mj) request.make = { build: buildIdentity(mj, ctx.pid), jobs: mj.jobs };
  return { args, info: info.v, request, ...(mj ? { make: mj } : {}) };
}

/** Everything after the compile: diagnostics, outputs, the exit code. */
async function finish(p: Prepared, result: UnitResponse, ctx: CiccContext, start: number, end: number): Promise<number> {
  const { args, info } = p;
  const o = args.options;
  const unitName = o.origSrcFileName;
  for (const w of result.warnings) ctx.stderr(`${w}\n`);
  if (result.status === 'unreadable') catastrophic(ctx, `cannot open source file "${args.input}"`, unitName);
  if (result.status === 'real' && result.real) {
    const code = replayReal(ctx, result.real, info);
    if (code !== undefined) return code;
    return fallBack(ctx, 'the cached result of the real cicc does not fit this call', info, result.fallbackKey);
  }
  if (result.status === 'unsupported') return fallBack(ctx, result.reason ?? 'unsupported', info, result.fallbackKey);

  const failed = result.status !== 'ok' || result.diagnostics.some(d => {
    const a = adjustDiagnostic(d, o);
    return a?.severity === 'error' || a?.severity === 'catastrophic';
  });
  if (failed && fallbackEnabled(ctx.env)) {
    const code = await confirmErrors(ctx, info, result.diagnostics, result.fallbackKey);
    if (code !== undefined) return code;
  }

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { formatDiagnostic } = require('../compiler/diagnostics') as typeof import('../compiler/diagnostics');
  const { errors, catastrophics } = printDiagnostics(ctx, result.diagnostics, o, formatDiagnostic);
  if (errors > 0 || catastrophics > 0 || result.status !== 'ok') {
    ctx.stderr(summaryLine(Math.max(errors, catastrophics === 0 && result.status !== 'ok' ? 1 : 0), catastrophics, unitName));
    return 1;
  }

  const files: OutputFile[] = [{ path: args.output ?? defaultOutputPath(args.input), data: result.ptx, what: 'output file' }];
  if (args.stubFile !== undefined) files.push({ path: args.stubFile, data: result.stub, what: 'generated C file' });
  if (args.genCFile !== undefined) files.push({ path: args.genCFile, data: `# 1 "${o.origSrcFileName}"\n`, what: 'generated C file' });
  if (args.genDeviceFile !== undefined) files.push({ path: args.genDeviceFile, data: 'typedef char __nv_bool;\n', what: 'generated device file' });
  if (args.traceFile !== undefined) {
    const t = result.times;
    const fe = t ? t.lex + t.skim + t.irgen : 0;
    const feEnd = Math.min(end, start + fe);
    files.push({ path: args.traceFile, data: traceJson(args, ctx, { start, feEnd, end }), what: 'output file' });
  }
  // Paths are relative to the cicc call's cwd; messages name them as given.
  const placed = files.map(f => ({ ...f, path: resolve(ctx.cwd, f.path) }));
  try {
    writeOutputsAtomically(placed);
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    const why = (e.cause as NodeJS.ErrnoException | undefined)?.code;
    const given = files[placed.indexOf(e.file)]?.path ?? e.file.path;
    catastrophic(ctx, `cannot open ${e.file.what} "${given}"${why ? ` (${why})` : ''}`, unitName);
  }
  return 0;
}

/** Exit codes for the ways a cicc job ends early; a bug in ptxd falls back (never a broken build). */
async function onFailure(e: unknown, ctx: CiccContext, info: FallbackInfo): Promise<number> {
  if (e instanceof Exit) return e.code;
  const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  if (ctx.env.PTXD_VERBOSE === '1' && e instanceof Error && e.stack) ctx.stderr(`${e.stack}\n`);
  try {
    return await fallBack(ctx, `internal error: ${msg}`, info);
  } catch (e2) {
    return e2 instanceof Exit ? e2.code : 1;
  }
}

/** The compile in this process (the daemon uses the same UnitService). */
function compileHere(req: UnitRequest, env: NodeJS.ProcessEnv): UnitResponse {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { UnitService } = require('../service/unit') as typeof import('../service/unit');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cacheSizeLimit } = require('../protocol/paths') as typeof import('../protocol/paths');
  const service = new UnitService({ cacheDir: cacheDir(env), sizeLimit: cacheSizeLimit(env), env, warnOnce: false, preludeMemo: true });
  try {
    return service.handle(req);
  } finally {
    service.close();
  }
}

/**
 * The whole cicc job for one argv (without the real-cicc path), compiled in this process: returns the
 * exit code. Never throws; never writes to stdout.
 */
export async function runCicc(argv: readonly string[], ctx: CiccContext): Promise<number> {
  const info = { v: { argv, unitName: argv.find(a => !a.startsWith('-')) ?? 'ptxd-cicc', arch: '' } as FallbackInfo };
  try {
    const p = prepare(argv, ctx, info);
    if (typeof p === 'number' || p instanceof Promise) return await p;
    const start = ctx.now();
    const res = compileHere(p.request, ctx.env);
    return await finish(p, res, ctx, start, ctx.now());
  } catch (e) {
    return onFailure(e, ctx, info.v);
  }
}

/** Whether this call should use the daemon (PTXD_DAEMON=0 turns it off). */
export function daemonEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.PTXD_DAEMON !== '0' && env.PTXD_DAEMON !== 'off' && env.PTXD_DAEMON !== 'false';
}

/**
 * The daemon's answer, or undefined when it cannot be had: the connection fails or drops mid-request
 * twice (a killed daemon is restarted by the retry), or the daemon runs a newer ptxd.
 */
async function compileViaDaemon(req: UnitRequest, ctx: CiccContext, origin?: UnitOrigin, tokens?: TokenPool): Promise<UnitResponse | undefined> {
  // msgpackr's native add-on costs more to load (~10 ms) than it saves on a few small frames.
  process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED ??= 'true';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { connectDaemon } = require('../protocol/connection') as typeof import('../protocol/connection');
  const verbose = ctx.env.PTXD_VERBOSE === '1' ? ctx.stderr : () => {};
  for (let attempt = 1; attempt <= 2; attempt++) {
    let conn: import('../protocol/connection').DaemonConnection | undefined;
    try {
      conn = await connectDaemon(ctx.env, { autostart: true, verbose });
      if (!conn) return undefined;
      const c = conn;
      // The daemon may ask for make tokens to compile this unit on more workers (daemon/scheduler/split.ts):
      // take only what is free now, and give them back when it says so or the request ends, whatever the end.
      const note = (m: import('../protocol/messages').Message): void => {
        if (m.t === 'tokens') {
          let n = 0;
          while (tokens && n < m.want && tokens.tryAcquire()) n++;
          c.send({ t: 'tokens-got', id: m.id, n });
        } else if (m.t === 'tokens-back') {
          const n = tokens?.count ?? 0;
          tokens?.releaseAll();
          c.send({ t: 'tokens-returned', id: m.id, n });
        }
      };
      const m = await conn.request<{ t: 'result'; id: number; res: UnitResponse }>({ t: 'compile', id: 0, req, ...(origin ? { origin } : {}) }, note);
      return m.res;
    } catch (e) {
      verbose(`ptxd: daemon request failed (attempt ${attempt}): ${e instanceof Error ? e.message : String(e)}\n`);
    } finally {
      tokens?.releaseAll();
      conn?.close();
    }
  }
  return undefined;
}

/** The cicc job through the daemon (started on demand); in-process when the daemon cannot be used. */
export async function runCiccAsync(argv: readonly string[], ctx: CiccContext): Promise<number> {
  if (!daemonEnabled(ctx.env)) return runCicc(argv, ctx);
  const info = { v: { argv, unitName: argv.find(a => !a.startsWith('-')) ?? 'ptxd-cicc', arch: '' } as FallbackInfo };
  try {
    const p = prepare(argv, ctx, info);
    if (typeof p === 'number' || p instanceof Promise) return await p;
    const start = ctx.now();
    const origin = originOfCall(argv, ctx);
    // make's jobserver, when this process can reach it: extra tokens for the daemon are taken from it.
    const tokens = p.make ? TokenPool.open(p.make) : undefined;
    if (tokens) p.request.make!.tokens = true;
    let res: UnitResponse | undefined;
    try {
      res = await compileViaDaemon(p.request, ctx, origin, tokens);
    } finally {
      tokens?.close();
    }
    if (!res) {
      if (ctx.env.PTXD_VERBOSE === '1') ctx.stderr('ptxd: daemon unavailable; compiling in-process\n');
      res = compileHere(p.request, ctx.env);
    }
    return await finish(p, res, ctx, start, ctx.now());
  } catch (e) {
    return onFailure(e, ctx, info.v);
  }
}

/** Where this call came from (nvcc's command line), for `ptxd watch` without a compile database. */
function originOfCall(argv: readonly string[], ctx: CiccContext): UnitOrigin {
  return originOf(ctx.realCicc ? [ctx.realCicc, ...argv] : argv, ctx.env, ctx.cwd, ctx.ppid);
}

/**
 * The cicc job of the native client (client/native/ptxd-cicc.c), run inside the daemon: the client sent
 * its argv (without the real cicc), environment, cwd and pids; the unit is compiled by `compile` (the
 * daemon's own request path) and the outputs are written here, as the Node client would write them.
 * ctx.execReal hands a fallback back to the client. Returns the exit code.
 */
export async function runCiccForClient(argv: readonly string[], ctx: CiccContext,
  compile: (req: UnitRequest, origin: UnitOrigin, jobserver?: JobserverAuth) => Promise<UnitResponse>): Promise<number> {
  const info = { v: { argv, unitName: argv.find(a => !a.startsWith('-')) ?? 'ptxd-cicc', arch: '' } as FallbackInfo };
  try {
    const p = prepare(argv, ctx, info);
    if (typeof p === 'number' || p instanceof Promise) return await p;
    // The client can take make tokens when make's jobserver is open in it (a fifo it can open, or the
    // pipe fds inherited by a `+` recipe).
    if (p.make && (p.make.auth.kind === 'fifo' || pipeInherited(p.make.auth, ctx.pid))) p.request.make!.tokens = true;
    const start = ctx.now();
    const res = await compile(p.request, originOfCall(argv, ctx), p.request.make?.tokens ? p.make!.auth : undefined);
    return await finish(p, res, ctx, start, ctx.now());
  } catch (e) {
    if (e instanceof DaemonUnavailable) throw e;
    return onFailure(e, ctx, info.v);
  }
}

/** The daemon could not answer a request (shutting down, compile crashed): the client retries its own way. */
export class DaemonUnavailable extends Error {
  constructor(message: string) { super(message); this.name = 'DaemonUnavailable'; }
}

/** Splits off the real cicc that `--cicc-prefix` puts before the cicc arguments. */
export function splitRealCicc(argv: readonly string[]): { realCicc?: string; args: readonly string[] } {
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-') && (first === 'cicc' || first.endsWith('/cicc'))) {
    return { realCicc: first, args: argv.slice(1) };
  }
  return { args: argv };
}

// ---------------------------------------------------------------------------------------------------
// Capture mode, used by `ptxd compile` on a .cu: nvcc runs us with PTXD_CAPTURE_DIR set; we record the
// exact cicc argv and copies of its inputs, then stop nvcc (exit 1) before anything else runs.

export interface Capture {
  argv: string[];
  realCicc?: string;
  cwd: string;
  /** Absolute paths of the copies. */
  input: string;
  moduleIdFile?: string;
}

function capture(dir: string, realCicc: string | undefined, argv: readonly string[]): number {
  const { writeFileSync, copyFileSync } = require('node:fs') as typeof import('node:fs');
  const cwd = process.cwd();
  const args = parseCiccArgs(argv);
  const n = Date.now().toString(36) + '-' + process.pid;
  const input = join(dir, `unit-${n}.cpp1.ii`);
  copyFileSync(resolve(cwd, args.input), input);
  let moduleIdFile: string | undefined;
  if (args.moduleIdFile !== undefined && !args.genModuleIdFile && existsSync(resolve(cwd, args.moduleIdFile))) {
    moduleIdFile = join(dir, `unit-${n}.module_id`);
    copyFileSync(resolve(cwd, args.moduleIdFile), moduleIdFile);
  }
  const cap: Capture = { argv: [...argv], realCicc, cwd, input, moduleIdFile };
  writeFileSync(join(dir, `capture-${n}.json`), JSON.stringify(cap));
  return 1;
}

export function main(): void {
  const t0 = Date.now();
  const env = process.env;
  const ctx: CiccContext = {
    env,
    cwd: process.cwd(),
    pid: process.pid,
    ppid: process.ppid,
    stderr: s => { process.stderr.write(s); },
    now: () => Date.now() - t0,
  };
  let code = 1;
  try {
    const { realCicc, args } = splitRealCicc(process.argv.slice(2));
    ctx.realCicc = realCicc;
    if (env.PTXD_CAPTURE_DIR) {
      code = capture(env.PTXD_CAPTURE_DIR, realCicc, args);
    } else {
      runCiccAsync(args, ctx).then(c => { process.exitCode = c; }, e => {
        ctx.stderr(`ptxd-cicc: error: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 1;
      });
      return;
    }
  } catch (e) {
    if (env.PTXD_VERBOSE === '1' && e instanceof Error && e.stack) ctx.stderr(`${e.stack}\n`);
    else ctx.stderr(`ptxd-cicc: error: ${e instanceof Error ? e.message : String(e)}\n`);
    code = 1;
  }
  process.exitCode = code;
}

if (require.main === module) main();
