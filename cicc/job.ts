// One cicc call, argv to outputs: parse and check argv, read the module id, build the unit request, and
// after the compile print the diagnostics and write the outputs (or fall back to the real cicc). Shared by
// the Node client, the in-process path (PTXD_DAEMON=0) and the daemon running the native client's calls.

import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { CompileOptions } from '../compiler/index';
import { cacheDir } from '../protocol/paths';
import { buildIdentity, parseMakeflags, pipeInherited, type JobserverAuth, type MakeJobs } from '../protocol/jobserver';
import type { UnitOrigin, UnitRequest, UnitResponse } from '../protocol/unit';
import { outputEnv } from '../service/unit-key';
import { baseDirSetting } from '../service/store/remote/config';
import { CiccArgError, defaultOutputPath, parseCiccArgs, type CiccArgs } from './args';
import { generateModuleId } from './module-id';
import { OutputError, writeOutputsAtomically, type OutputFile } from './outputs';
import { fallbackIdentity } from './fallback';
import { originOf } from './origin';
import { Exit, type CiccContext } from './context';
import { adjustDiagnostic, catastrophic, commandLineError, printDiagnostics, summaryLine } from './report';
import { confirmErrors, fallBack, fallbackEnabled, findRealCicc, replayReal, type FallbackInfo } from './real';

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

/** What a fallback needs to know of the call; filled in as the call is parsed (prepare()). */
export function newInfo(argv: readonly string[]): { v: FallbackInfo } {
  return { v: { argv, unitName: argv.find(a => !a.startsWith('-')) ?? 'ptxd-cicc', arch: '' } };
}

/** A parsed, checked cicc call that is ready to be compiled (in-process or by the daemon). */
export interface Prepared {
  args: CiccArgs;
  info: FallbackInfo;
  request: UnitRequest;
  /** make's jobserver, when the cicc call runs under make -jN. */
  make?: MakeJobs;
}

/** Everything before the compile: argv, rejected flags, module id. A number is the exit code. */
export function prepare(argv: readonly string[], ctx: CiccContext, info: { v: FallbackInfo }): Prepared | number | Promise<number> {
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
  const baseDir = baseDirSetting(ctx.env);
  if (baseDir) request.baseDir = baseDir;
  // The real cicc's cached result for this call is looked up with the unit (a fallback or a false error before).
  if (fallbackEnabled(ctx.env)) {
    const real = findRealCicc(ctx.env, ctx.realCicc, ctx.cwd);
    const id = real ? fallbackIdentity(real, argv, ctx.cwd, baseDir) : {};
    if (id.argvKey) request.fallback = { argvKey: id.argvKey, ...(id.freeKey ? { freeKey: id.freeKey } : {}) };
  }
  // Under make -jN the daemon runs this compile on our make job's token and admits at most N of the
  // build's compiles at once (protocol/jobserver.ts).
  const mj = parseMakeflags(ctx.env.MAKEFLAGS);
  if (mj) request.make = { build: buildIdentity(mj, ctx.pid), jobs: mj.jobs };
  return { args, info: info.v, request, ...(mj ? { make: mj } : {}) };
}

/** Everything after the compile: diagnostics, outputs, the exit code. */
export async function finish(p: Prepared, result: UnitResponse, ctx: CiccContext, start: number, end: number): Promise<number> {
  const { args, info } = p;
  const o = args.options;
  const unitName = o.origSrcFileName;
  for (const w of result.warnings) ctx.stderr(`${w}\n`);
  if (result.status === 'unreadable') catastrophic(ctx, `cannot open source file "${args.input}"`, unitName);
  if (result.status === 'real' && result.real) {
    const code = replayReal(ctx, result.real, info);
    if (code !== undefined) return code;
    return fallBack(ctx, 'the cached result of the real cicc does not fit this call', info, result.fallbackKey, result.fallbackPlace);
  }
  if (result.status === 'unsupported') return fallBack(ctx, result.reason ?? 'unsupported', info, result.fallbackKey, result.fallbackPlace);

  const failed = result.status !== 'ok' || result.diagnostics.some(d => {
    const a = adjustDiagnostic(d, o);
    return a?.severity === 'error' || a?.severity === 'catastrophic';
  });
  if (failed && fallbackEnabled(ctx.env)) {
    const code = await confirmErrors(ctx, info, result.diagnostics, result.fallbackKey, result.fallbackPlace);
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
export async function onFailure(e: unknown, ctx: CiccContext, info: FallbackInfo): Promise<number> {
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
export async function compileHere(req: UnitRequest, env: NodeJS.ProcessEnv): Promise<UnitResponse> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { UnitService } = require('../service/unit') as typeof import('../service/unit');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cacheSizeLimit } = require('../protocol/paths') as typeof import('../protocol/paths');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { compileBudgetMs } = require('../service/compile-budget') as typeof import('../service/compile-budget');
  const service = new UnitService({ cacheDir: cacheDir(env), sizeLimit: cacheSizeLimit(env), env, warnOnce: false, preludeMemo: true });
  try {
    const l = service.lookup(req);
    const budget = compileBudgetMs(env);
    if (budget === undefined) return service.compile(l);
    // A miss compiles on a thread the budget can stop, as the daemon's pool does (a hit never starts one).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { compileInThread } = require('../service/compile-thread') as typeof import('../service/compile-thread');
    return await service.compileWith(l, (text, o, rest) => compileInThread(text, o, rest, budget));
  } finally {
    service.close();
  }
}

/**
 * The whole cicc job for one argv (without the real-cicc path), compiled in this process: returns the
 * exit code. Never throws; never writes to stdout.
 */
export async function runCicc(argv: readonly string[], ctx: CiccContext): Promise<number> {
  const info = newInfo(argv);
  try {
    const p = prepare(argv, ctx, info);
    if (typeof p === 'number' || p instanceof Promise) return await p;
    const start = ctx.now();
    const res = await compileHere(p.request, ctx.env);
    return await finish(p, res, ctx, start, ctx.now());
  } catch (e) {
    return onFailure(e, ctx, info.v);
  }
}

/** Where this call came from (nvcc's command line), for `ptxd watch` without a compile database. */
export function originOfCall(argv: readonly string[], ctx: CiccContext): UnitOrigin {
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
  const info = newInfo(argv);
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
