// The real cicc: finding it, falling back to it (its outputs captured, cached and written atomically), and
// letting it confirm the errors ptxd found.

import { appendFileSync, closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../compiler/index';
import { cacheDir } from '../protocol/paths';
import { NATIVE_CLIENT, SCRIPT_CLIENT } from '../protocol/version';
import type { RealOutputs } from '../protocol/unit';
import { makeDirs } from '../service/mkdirs';
import { collectOutputs, neutralStderr, placeOutputs, planCapture, removePlan, runReal } from './fallback';
import { OutputError, writeOutputsAtomically, type OutputFile } from './outputs';
import type { CiccContext, Place, RealHooks } from './context';
import { catastrophic } from './report';

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


export function recordFallback(env: NodeJS.ProcessEnv, reason: string, input: string, arch: string, extra: Record<string, unknown> = {}): void {
  try {
    const dir = cacheDir(env);
    makeDirs(dir);
    const rec = { time: new Date().toISOString(), reason, input, arch, ...extra };
    appendFileSync(join(dir, 'fallbacks.jsonl'), JSON.stringify(rec) + '\n');
  } catch {
    // The stats record is best effort: never fail a build over it.
  }
}

export interface FallbackInfo { argv: readonly string[]; unitName: string; arch: string }

/** Whether ptxd's errors and unsupported units go to the real cicc (not with PTXD_FALLBACK=never, nor inside a fallback). */
export function fallbackEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.PTXD_FALLBACK !== 'never' && !env.PTXD_IN_FALLBACK;
}

/** The Node client's own way: the real cicc as a child process, its result stored in the local cache. */
export function localHooks(env: NodeJS.ProcessEnv): RealHooks {
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
    save: (fk, real, ms, place) => withStore(s => { s.put(fk, { ok: true, ptx: '', stub: '', diagnostics: [], compileMs: Math.round(ms * 10) / 10, real, ...(place ? { place } : {}) }); }),
    falseError: () => withStore(s => { s.addCounters({ falseErrors: 1 }); }),
  };
}

/**
 * Runs the real cicc on this call with its outputs captured (cicc/fallback.ts), then writes them
 * atomically and replays its stderr; caches the result under `fallbackKey` when it succeeded. Returns
 * cicc's exit code, or undefined when cicc could not be run at all (execReal, when there, hands it to
 * the client instead).
 */
export async function runRealCicc(ctx: CiccContext, real: string, info: FallbackInfo, fallbackKey: string | undefined, place?: Place): Promise<number | undefined> {
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
    if (fallbackKey) hooks.save(fallbackKey, { files, stderr }, performance.now() - t0, place);
    return 0;
  } finally {
    if (plan) removePlan(plan);
  }
}

/** The real cicc's result from the cache, replayed; undefined when this call cannot use it. */
export function replayReal(ctx: CiccContext, real: RealOutputs, info: FallbackInfo): number | undefined {
  const placed = placeOutputs(real.files, info.argv, ctx.cwd, real.stderr);
  if (!placed) return undefined;
  ctx.stderr(placed.stderr);
  writePlaced(ctx, placed, info.unitName);
  return 0;
}

/** Writes outputs atomically; a file that cannot be written is cicc's catastrophic error, named as the call gave it. */
export function writePlaced(ctx: CiccContext, placed: { files: OutputFile[]; given: string[] }, unitName: string): void {
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
export async function fallBack(ctx: CiccContext, reason: string, info: FallbackInfo, fallbackKey?: string, place?: Place): Promise<number> {
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
  const code = await runRealCicc(ctx, real, info, fallbackKey, place);
  if (code !== undefined) return code;
  ctx.stderr(`${info.unitName}: error: ptxd cannot compile this unit (${reason}) and the real cicc (${real}) could not be run\n`);
  return 1;
}

/**
 * ptxd found errors: the real cicc decides. If it compiles the unit, its outputs are used and ptxd's
 * error is recorded as a false error (a ptxd defect); if it fails too, the user sees exactly cicc's
 * diagnostics and exit code, as with stock nvcc. Undefined: no real cicc, ptxd's diagnostics stand.
 */
export async function confirmErrors(ctx: CiccContext, info: FallbackInfo, diags: readonly Diagnostic[], fallbackKey?: string, place?: Place):
Promise<number | undefined> {
  const real = findRealCicc(ctx.env, ctx.realCicc, ctx.cwd);
  if (!real) return undefined;
  const code = await runRealCicc(ctx, real, info, fallbackKey, place);
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
