// Team-cache benchmark: what a remote hit costs end to end, and what a remote that is down costs, each
// next to the real cicc on the same input in the same run.
//   real cicc                the toolkit's cicc on the unit (nvcc's exact argv)
//   local hit                `node bin/ptxd-cicc …` answered from the local LMDB cache by a warm daemon
//   Redis hit / HTTP hit     the same with the local cache emptied before each run (untimed), so the
//                            daemon answers from the team cache (a real redis-server / `ptxd cache serve`
//                            on loopback), client process included
//   remote down              units compiled by a warm daemon whose remote is (a) a closed port, (b) a
//                            server that accepts connections and never answers (SIGSTOP), (c) a
//                            redis-server killed half-way through; the figure is the time the daemon's
//                            compiles waited for the remote (its own counter, `ptxd stats`), per unit,
//                            with the default timeouts (100 ms read, 50 ms connect, breaker after 3)
// Every daemon has its own cache directory and socket; daemons and servers are stopped at the end.
// PTXD_FALLBACK=never: a unit ptxd cannot compile is reported as failed, never timed.
//
// Usage: node dist/bench/remote-bench.js [--runs N] [--arch 90] [--only name,name]

import { spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KERNELS_DIR, PTXD_CICC, ciccArgv, ciccOutputs, mkTempDir, prepareUnit, skipReason, type PreparedUnit } from '../test/helpers/tools';
import { freePort, redisSkip, startRedis, startServe, type ObjectServer, type RedisServer } from '../test/helpers/remote-servers';
import { median, parseBenchArgs, ptxdCli, sandbox, writeResults, type Sandbox } from './common';

const INPUTS = ['saxpy.cu', 'prelude_empty.cu', 'prelude_std.cu', 'matmul_tiled.cu', 'bitonic_sort.cu', 'atomics_unsigned.cu'];
const TEAM = 'bench-team-key';

interface Series { ok: boolean; medianMs: number | null; minMs: number | null; maxMs: number | null; samplesMs: number[]; error?: string }
const ptxd = ptxdCli;

function counters(sb: Sandbox): Record<string, number> {
  const r = ptxd(sb, ['stats', '--json']);
  return (JSON.parse(r.stdout) as { counters: Record<string, number> }).counters;
}

/** One run of a compiler process; wall ms, or an error. */
function once(cmd: string, args: string[], env: NodeJS.ProcessEnv, ptx: string): { ms: number } | { error: string } {
  fs.rmSync(ptx, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 || !fs.existsSync(ptx)) return { error: `exit ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}` };
  return { ms };
}

/** `runs` timed runs after one warm-up; `before` runs (untimed) ahead of each. */
function series(u: PreparedUnit, runs: number, which: 'cicc' | Sandbox, before?: () => void): Series {
  const out = mkTempDir('rbench-out');
  const argv = ciccArgv(u, out);
  const [cmd, args, env] = which === 'cicc' ? [u.realCicc, argv, process.env] : [process.execPath, [PTXD_CICC, u.realCicc, ...argv], which.env];
  const ms: number[] = [];
  try {
    for (let i = 0; i < 1 + runs; i++) {
      before?.();
      const r = once(cmd, args, env, ciccOutputs(out).ptx);
      if ('error' in r) return { ok: false, medianMs: null, minMs: null, maxMs: null, samplesMs: ms, error: r.error };
      if (i >= 1) ms.push(Math.round(r.ms * 10) / 10);
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
  const s = [...ms].sort((a, b) => a - b);
  return { ok: true, medianMs: median(s), minMs: s[0]!, maxMs: s[s.length - 1]!, samplesMs: ms };
}

/**
 * Remote hits: the local cache is emptied before each run, and every timed run is checked to have been
 * served by the remote (the daemon's counters), so a miss can never pass for a hit.
 */
function remoteHits(u: PreparedUnit, runs: number, sb: Sandbox): Series {
  let run = 0, wrong = 0;
  const s = series(u, runs, sb, () => {
    // `ptxd stats` first: it makes the daemon write its pending counters, so the clear leaves none behind.
    const c = counters(sb);
    if (run++ >= 2 && (c.remoteHits !== 1 || c.misses !== 0)) wrong++;   // after a timed run (run 1 is the warm-up)
    ptxd(sb, ['cache', 'clear']);
  });
  const c = counters(sb);
  if (s.ok && runs > 0 && (c.remoteHits !== 1 || c.misses !== 0)) wrong++;
  return wrong > 0 ? { ...s, ok: false, error: `${wrong} timed runs were not remote hits` } : s;
}

const failed = (error: string): Series => ({ ok: false, medianMs: null, minMs: null, maxMs: null, samplesMs: [], error });

interface DownCase { case: string; units: number; waitedMs: number; perUnitMs: number; maxUnitMs: number; errors: number; skipped: number; hits: number; compiled: number }

/**
 * Compiles every unit once with a warm daemon and an empty local cache; `during(i)` runs before unit i
 * (e.g. kills the server). Returns the daemon's own account of the time spent waiting for the remote.
 */
function downCase(name: string, units: PreparedUnit[], sb: Sandbox, during?: (i: number) => void): DownCase {
  const waits: number[] = [];
  let errors = 0, skipped = 0, hits = 0, compiled = 0;
  for (let i = 0; i < units.length; i++) {
    during?.(i);
    counters(sb);   // makes the daemon write pending counters before the clear
    ptxd(sb, ['cache', 'clear']);
    const out = mkTempDir('rbench-down');
    const r = once(process.execPath, [PTXD_CICC, units[i]!.realCicc, ...ciccArgv(units[i]!, out)], sb.env, ciccOutputs(out).ptx);
    fs.rmSync(out, { recursive: true, force: true });
    if ('error' in r) throw new Error(`${name}: unit ${i} failed: ${r.error}`);
    const c = counters(sb);
    waits.push(c.remoteMs ?? 0);
    errors += c.remoteErrors ?? 0; skipped += c.remoteSkipped ?? 0; hits += c.remoteHits ?? 0; compiled += c.misses ?? 0;
  }
  const total = waits.reduce((a, b) => a + b, 0);
  return {
    case: name, units: units.length, waitedMs: Math.round(total * 10) / 10, perUnitMs: Math.round((total / units.length) * 100) / 100,
    maxUnitMs: Math.round(Math.max(...waits) * 10) / 10, errors, skipped, hits, compiled,
  };
}

const f0 = (x: number | null) => (x === null ? '–' : x.toFixed(0));
const f2 = (x: number | null) => (x === null ? '–' : x.toFixed(2));
const cell = (s: Series) => (s.ok ? `${f0(s.medianMs)} (${f0(s.minMs)}–${f0(s.maxMs)})` : 'FAILED');

async function main(): Promise<number> {
  const { runs, arch, only } = parseBenchArgs(process.argv.slice(2), 5);
  const skip = skipReason('nvcc', 'cicc');
  if (skip) { console.error(`remote-bench: ${skip}`); return 2; }
  if (redisSkip) console.error(`remote-bench: Redis figures ${redisSkip}`);
  const inputs = INPUTS.filter(i => !only || only.includes(i.replace(/\.cu$/, '')) || only.includes(i));
  const units = inputs.map(i => prepareUnit(path.join(KERNELS_DIR, i), arch));

  const sandboxes: Sandbox[] = [];
  const procs: { stop(): void }[] = [];
  const box = (name: string, extra: NodeJS.ProcessEnv = {}) => { const s = sandbox(name, extra); sandboxes.push(s); return s; };
  const rows: { input: string; cicc: Series; local: Series; redis: Series; http: Series }[] = [];
  const down: DownCase[] = [];
  try {
    const redis: RedisServer | undefined = redisSkip ? undefined : await startRedis(path.join(mkTempDir('rbench-redis'), 'redis'));
    if (redis) procs.push(redis);
    const http: ObjectServer = await startServe(mkTempDir('rbench-http'), process.env);
    procs.push(http);
    const remote = (url: string, write: boolean) => ({ PTXD_REMOTE: url, PTXD_REMOTE_KEY: TEAM, ...(write ? { PTXD_REMOTE_WRITE_KEY: 'w' } : {}) });
    const local = box('local');
    const redisWriter = redis ? box('redis-w', remote(redis.url, true)) : undefined;
    const redisReader = redis ? box('redis-r', remote(redis.url, false)) : undefined;
    const httpWriter = box('http-w', remote(http.url, true));
    const httpReader = box('http-r', remote(http.url, false));

    for (const [i, u] of units.entries()) {
      const input = inputs[i]!;
      // Fill the team caches (a writer's compile; its writes are asynchronous: `daemon stop` waits for them).
      for (const w of [redisWriter, httpWriter]) if (w) series(u, 0, w);
      const cicc = series(u, runs, 'cicc');
      const loc = series(u, runs, local);
      const rh = redisReader ? remoteHits(u, runs, redisReader) : failed(redisSkip!);
      const hh = remoteHits(u, runs, httpReader);
      rows.push({ input, cicc, local: loc, redis: rh, http: hh });
      process.stderr.write(`remote-bench: ${input} done\n`);
    }
    for (const w of [redisWriter, httpWriter]) if (w) ptxd(w, ['daemon', 'stop']);

    // A remote that is down, with the default timeouts.
    const closed = `redis://127.0.0.1:${await freePort()}/0`;
    down.push(downCase('closed port (connection refused)', units, box('down-refused', remote(closed, false))));
    if (redis) {
      const stopped = await startRedis(path.join(mkTempDir('rbench-stopped'), 'redis'));
      procs.push(stopped);
      (stopped.proc as ChildProcess).kill('SIGSTOP');
      down.push(downCase('server not answering (SIGSTOP)', units, box('down-stopped', remote(stopped.url, false))));
      (stopped.proc as ChildProcess).kill('SIGCONT');
      // The team's server (it holds every unit) dies half-way: the first half are remote hits.
      const half = Math.floor(units.length / 2);
      down.push(downCase(`redis-server killed after ${half} units`, units, box('down-killed', remote(redis.url, false)), i => { if (i === half) redis.stop(); }));
    }
  } finally {
    for (const sb of sandboxes) ptxd(sb, ['daemon', 'stop']);
    for (const p of procs) p.stop();
  }

  const ratio = (s: Series, c: Series) => (s.medianMs !== null && c.medianMs !== null ? s.medianMs / c.medianMs : null);
  const lines = [
    `remote-bench: ${runs} runs each (after 1 warm-up), compute_${arch}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), wall ms, median (min–max)`,
    '',
    '| input | real cicc | ptxd local hit | local/cicc | Redis hit | Redis/cicc | HTTP hit | HTTP/cicc |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(r => `| ${r.input} | ${cell(r.cicc)} | ${cell(r.local)} | ${f2(ratio(r.local, r.cicc))} | ${cell(r.redis)} | ${f2(ratio(r.redis, r.cicc))} | ` +
      `${cell(r.http)} | ${f2(ratio(r.http, r.cicc))} |`),
    '',
    'Remote down (default timeouts: read 100 ms, connect 50 ms, breaker opens after 3 failures for 30 s): time compiles waited for the remote',
    '',
    '| case | units | waited in all (ms) | per unit (ms) | worst unit (ms) | remote errors | skipped (breaker) | remote hits | compiled |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...down.map(d => `| ${d.case} | ${d.units} | ${d.waitedMs} | ${d.perUnitMs} | ${d.maxUnitMs} | ${d.errors} | ${d.skipped} | ${d.hits} | ${d.compiled} |`),
  ];
  const failures = rows.flatMap(r => (['cicc', 'local', 'redis', 'http'] as const).filter(k => !r[k].ok).map(k => `- ${r.input} (${k}): ${r[k].error}`));
  if (failures.length) lines.push('', 'Failures:', ...failures);
  lines.push('', 'Hits: a local miss answered by the team cache; every timed run is checked to be one (daemon counters). ' +
    '"waited": the daemon\'s own remoteMs counter, i.e. what the remote added to those compiles.');
  console.log(lines.join('\n'));

  writeResults('remote-bench', { runs, arch, ptxdFallback: 'never', rows, remoteDown: down });
  return 0;
}

main().then(c => { process.exitCode = c; }, e => { console.error(`remote-bench: ${(e as Error).stack ?? e}`); process.exitCode = 1; });
