// Watch benchmark: save-to-result latency of `ptxd watch` for a one-function edit, beside the real
// cicc's compile of the same unit (the same .ii and argv nvcc gives it) and a whole `nvcc -c` of it.
//   watch: the file is written, chokidar reports it, the debounce (--debounce, default 100 ms) passes,
//     nvcc's preprocessing steps run again and the warm daemon compiles the unit (cache miss: the edit is new);
//   real cicc: the cicc step alone, on the .ii watch produced (no preprocessing);
//   nvcc -c: the unit's whole build command without ptxd (preprocessing, cicc, ptxas, host compile).
// Own cache directory and socket; the daemon is stopped at the end. PTXD_FALLBACK=never.
//
// Usage: node dist/bench/watch-bench.js [--runs N] [--arch 90] [--unit make-integration/example/stencil.cu] [--debounce 100]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PTXD_CICC, REPO_ROOT, mkTempDir, requireTool } from '../test/helpers/tools';
import { compileDbSource, Watcher, type WatchEvent } from '../watch/watch';
import { connectDaemon, stopDaemon } from '../protocol/connection';
import type { UnitRequest, UnitResponse } from '../service/unit';
import { median } from './common';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
}

const round = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const runs = Number(arg('runs', '5'));
  const arch = arg('arch', '90');
  const debounce = Number(arg('debounce', '100'));
  const unitSrc = path.resolve(REPO_ROOT, arg('unit', 'make-integration/example/stencil.cu'));
  const nvcc = requireTool('nvcc');

  const dir = mkTempDir('watch-bench');
  const env: NodeJS.ProcessEnv = { ...process.env, PTXD_CACHE_DIR: path.join(dir, 'cache'), PTXD_SOCKET: path.join(dir, 'd.sock'),
    PTXD_FALLBACK: 'never', PTXD_IDLE_TIMEOUT: '300' };
  for (const k of ['PTXD_DAEMON', 'PTXD_CACHE', 'NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS']) delete env[k];
  for (const f of fs.readdirSync(path.dirname(unitSrc))) if (/\.(h|cuh)$/.test(f)) fs.copyFileSync(path.join(path.dirname(unitSrc), f), path.join(dir, f));
  const cu = path.join(dir, path.basename(unitSrc));
  const original = fs.readFileSync(unitSrc, 'utf8');
  // The edited function: one small kernel whose body changes on every save.
  const withEdit = (k: number) => `${original}\n__global__ void watch_bench_edit(float *x) { x[threadIdx.x] *= ${k}.5f; }\n`;
  fs.writeFileSync(cu, withEdit(0));
  const build = [nvcc, `-arch=sm_${arch}`, '-c', cu, '-o', path.join(dir, 'x.o')];
  const db = path.join(dir, 'compile_commands.json');
  fs.writeFileSync(db, JSON.stringify([{ directory: dir, file: cu, arguments: [build[0], `--cicc-prefix=${PTXD_CICC}`, ...build.slice(1)] }]));

  const conn = await connectDaemon(env, { autostart: true });
  if (!conn) throw new Error('no daemon');
  const compile = async (req: UnitRequest) => (await conn.request<{ t: 'result'; id: number; res: UnitResponse }>({ t: 'compile', id: 0, req })).res;
  let onResult: ((e: WatchEvent) => void) | undefined;
  const w = new Watcher({ source: compileDbSource(db), env, compile, debounceMs: debounce, emit: e => { if (e.event === 'result' || e.event === 'failed') onResult?.(e); } });
  const next = () => new Promise<WatchEvent>(r => { onResult = r; });
  let first = next();
  await w.start();
  const e0 = await first;
  if (e0.event !== 'result' || !e0.ok) throw new Error(`initial compile failed: ${JSON.stringify(e0)}`);

  const watchMs: number[] = [];
  const compileMs: number[] = [];
  for (let k = 1; k <= runs; k++) {
    first = next();
    const t0 = performance.now();
    fs.writeFileSync(cu, withEdit(k));
    const e = await first;
    watchMs.push(performance.now() - t0);
    if (e.event !== 'result' || !e.ok || e.archs.some(a => a.cached)) throw new Error(`unexpected event ${JSON.stringify(e)}`);
    compileMs.push(e.archs.reduce((s, a) => s + a.compileMs, 0));
  }

  // The real cicc on the same .ii and argv: from the unit's dry run, run as nvcc would run it.
  const { planUnit } = await import('../watch/plan');
  const tmp = path.join(dir, 'plan');
  fs.mkdirSync(tmp);
  const plan = planUnit(build, dir, tmp, env);
  const ciccMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const s of plan.steps) {
      const t0 = performance.now();
      const r = spawnSync(s.argv[0], s.argv.slice(1), { cwd: dir, env: plan.env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${s.argv[0]} failed: ${r.stderr}`);
      if (s.kind === 'cicc') ciccMs.push(performance.now() - t0);
    }
  }
  const nvccMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(build[0], build.slice(1), { cwd: dir, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`nvcc failed: ${r.stderr}`);
    nvccMs.push(performance.now() - t0);
  }
  await w.close();
  await stopDaemon(conn);

  const out = {
    unit: path.relative(REPO_ROOT, unitSrc), arch: `sm_${arch}`, runs, debounceMs: debounce,
    watchSaveToResultMs: round(median(watchMs)), watchSamplesMs: watchMs.map(round),
    daemonCompileMs: round(median(compileMs)),
    realCiccMs: round(median(ciccMs)), realCiccSamplesMs: ciccMs.map(round),
    nvccWholeUnitMs: round(median(nvccMs)),
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch(e => { process.stderr.write(`watch-bench: ${e instanceof Error ? e.stack : String(e)}\n`); process.exitCode = 1; });
