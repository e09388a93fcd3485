// `ptxd watch [PATH]`: recompiles a project's CUDA units through the daemon as files are saved, so the
// next build is served from the unit cache. Runs until interrupted (SIGINT/SIGTERM).
// The units come from PATH's compile_commands.json; without PATH, from ./compile_commands.json or
// ./build/… when there is one, else from the builds of this directory that went through ptxd (the
// daemon records each unit's nvcc command: watch/records.ts).

import type { UnitRequest } from '../service/unit';
import type { CompileReply } from '../watch/run-unit';
import type { DaemonConnection } from '../protocol/connection';
import { findCompileDb } from '../watch/compile-db';
import { compileDbSource, learnedSource, Watcher, type UnitSource, type WatchEvent } from '../watch/watch';
import { cacheDir } from '../protocol/paths';
import { humanLines, jsonLine } from '../watch/report';

/** Compiles through the daemon (reconnecting once if it went away); in-process when it cannot be used. */
function daemonCompiler(env: NodeJS.ProcessEnv, say: (s: string) => void): { compile: (r: UnitRequest) => Promise<CompileReply>; close: () => void } {
  // One connection shared by concurrent compiles (each arch of a unit compiles at once).
  let conn: Promise<DaemonConnection | undefined> | undefined;
  let local: import('../service/unit').UnitService | undefined;
  const connect = async () => {
    const { connectDaemon } = await import('../protocol/connection');
    return connectDaemon(env, { autostart: env.PTXD_DAEMON !== '0' });
  };
  const inProcess = (req: UnitRequest): CompileReply => {
    if (!local) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { UnitService } = require('../service/unit') as typeof import('../service/unit');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { cacheDir, cacheSizeLimit } = require('../protocol/paths') as typeof import('../protocol/paths');
      local = new UnitService({ cacheDir: cacheDir(env), sizeLimit: cacheSizeLimit(env), env, warnOnce: true });
    }
    const r = local.handle(req);
    local.flushCounters();
    return r;
  };
  const compile = async (req: UnitRequest): Promise<CompileReply> => {
    if (env.PTXD_DAEMON !== '0') {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          const c = await (conn ??= connect());
          if (!c) break;
          const m = await c.request<Extract<import('../protocol/messages').Message, { t: 'result' }>>({ t: 'compile', id: 0, req });
          return m.functions ? { ...m.res, functions: m.functions } : m.res;
        } catch (e) {
          const c = conn;
          conn = undefined;
          void c?.then(x => x?.close(), () => undefined);
          if (attempt === 1) say(`daemon unavailable (${e instanceof Error ? e.message : String(e)}); compiling in this process`);
        }
      }
    }
    return inProcess(req);
  };
  return { compile, close: () => { void conn?.then(x => x?.close(), () => undefined); local?.close(); } };
}

export async function watchCommand(path: string | undefined, json: boolean, debounceMs: number): Promise<number> {
  const db = findCompileDb(path ?? '.');
  if (!db && path !== undefined) {
    process.stderr.write(`ptxd: error: no compile_commands.json at "${path}" (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, ` +
      'and give the build directory, the file, or a project directory with build/; or build once with ptxd as cicc ' +
      'and run `ptxd watch` without a path)\n');
    return 1;
  }
  const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const cwd = process.cwd();
  const emit = (e: WatchEvent) => {
    const s = json ? `${jsonLine(e)}\n` : humanLines(e, cwd, colour);
    if (s) process.stdout.write(s);
  };
  let told = '';
  const source: UnitSource = db ? compileDbSource(db) : learnedSource(cacheDir(process.env), cwd, missing => {
    const key = missing.join('\n');
    if (key === told) return;
    told = key;
    for (const f of missing) emit({ event: 'failed', unit: f, message: 'built without nvcc above ptxd-cicc: its build command is unknown, not watched' });
  });
  const backend = daemonCompiler(process.env, m => emit({ event: 'failed', message: m }));
  const w = new Watcher({ source, env: process.env, compile: backend.compile, emit, debounceMs });
  await w.start();
  await new Promise<void>(resolve => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await w.close();
  backend.close();
  // Nothing should be left running; if something is (a compiler step mid-way), do not hang on it.
  setTimeout(() => process.exit(0), 2000).unref();
  return 0;
}
