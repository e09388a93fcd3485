// ptxd-cicc: the drop-in cicc. Use it as `nvcc --cicc-prefix=<path>/ptxd-cicc …`; nvcc then runs
// `ptxd-cicc <real cicc> <cicc args…>` (research/cicc-cli-contract.md §7.2).
//
// Contract with nvcc: nothing on stdout, diagnostics on stderr in EDG's format, exit 0 on success and 1
// on errors, outputs (PTX, stub, placeholder .c/.gpu, trace) written atomically. A unit our compiler
// cannot handle is compiled by the real cicc instead (unless PTXD_FALLBACK=never), visibly: a line on
// stderr with PTXD_VERBOSE=1 and a record in <cache dir>/fallbacks.jsonl.
//
// By default the unit is compiled by the daemon (daemon/, started on demand): the call (cicc/job.ts)
// parses argv, reads the module id, sends an absolute input path and the options, then prints the
// diagnostics and writes the outputs itself. If the daemon cannot be used (PTXD_DAEMON=0, unreachable
// twice, a newer ptxd) the same UnitService compiles here. The daemon connection and the compiler are
// loaded lazily so that argv errors, fallbacks and cache hits cost no compiler start-up.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCiccArgs } from '../cicc/args';
import { TokenPool } from '../protocol/jobserver';
import type { UnitOrigin, UnitRequest, UnitResponse } from '../protocol/unit';
import type { CiccContext } from '../cicc/context';
import { compileHere, finish, newInfo, onFailure, originOfCall, prepare, runCicc, splitRealCicc } from '../cicc/job';

export { cacheDir } from '../protocol/paths';
export type { CiccContext, RealHooks } from '../cicc/context';
export { adjustDiagnostic } from '../cicc/report';
export { findRealCicc } from '../cicc/real';
export { runCicc, runCiccForClient, DaemonUnavailable, splitRealCicc } from '../cicc/job';

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
  const info = newInfo(argv);
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
      res = await compileHere(p.request, ctx.env);
    }
    return await finish(p, res, ctx, start, ctx.now());
  } catch (e) {
    return onFailure(e, ctx, info.v);
  }
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
