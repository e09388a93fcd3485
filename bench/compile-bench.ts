// Compile benchmark: the real cicc against ptxd on the same units, in the same run.
//
// For each input, the real nvcc makes the .cpp1.ii, the module id and the exact cicc argv once (a capturing
// --cicc-prefix). Then each compiler runs N times as a separate process with that argv (outputs to temp
// files): the real cicc directly, and ours as `node bin/ptxd-cicc <real cicc> <argv>` with
// PTXD_FALLBACK=never, so a fallback can never be timed as ours (a failed compile is reported as failed).
// Wall clock per run; median, min and max; peak RSS of the process via GNU time (-f %M) where available
// (for ptxd that is the client only, not a daemon it talks to). Prints a Markdown table and writes
// bench/results/compile-bench.json.
//
// Usage: node dist/bench/compile-bench.js [--runs N] [--arch 90] [--only name,name]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  KERNELS_DIR, PTXD_CICC, ciccArgv, ciccOutputs, mkTempDir, prepareUnit, skipReason, tools, type PreparedUnit,
} from '../test/helpers/tools';
import { median, parseBenchArgs, writeResults } from './common';

const INPUTS = ['saxpy.cu', 'prelude_empty.cu', 'prelude_std.cu', 'matmul_tiled.cu', 'bitonic_sort.cu', 'atomics_unsigned.cu'];

interface Sample { ok: boolean; wallMs: number; rssKb: number | null; error?: string }
interface Stats { runs: number; ok: boolean; medianMs: number | null; minMs: number | null; maxMs: number | null; firstMs: number | null; peakRssKb: number | null; error?: string; samplesMs: number[] }
interface Row { input: string; arch: number; iiBytes: number; cicc: Stats; ptxd: Stats; ratio: number | null }

function timeOne(cmd: string, args: string[], env: NodeJS.ProcessEnv, expectPtx: string): Sample {
  const gnuTime = tools().gnuTime;
  const rssFile = path.join(path.dirname(expectPtx), 'rss.txt');
  const [c, a] = gnuTime ? [gnuTime, ['-f', '%M', '-o', rssFile, cmd, ...args]] : [cmd, args];
  fs.rmSync(expectPtx, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c, a, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  let rssKb: number | null = null;
  if (gnuTime && fs.existsSync(rssFile)) {
    const m = /(\d+)\s*$/.exec(fs.readFileSync(rssFile, 'utf8').trim());
    rssKb = m ? Number(m[1]) : null;
  }
  if (r.status !== 0 || !fs.existsSync(expectPtx)) {
    const why = r.error ? r.error.message : `exit ${r.status}${fs.existsSync(expectPtx) ? '' : ', no PTX written'}`;
    return { ok: false, wallMs, rssKb, error: `${why}: ${(r.stderr || r.stdout || '').trim().split('\n').slice(-5).join(' | ')}` };
  }
  return { ok: true, wallMs, rssKb };
}

function stats(samples: Sample[]): Stats {
  const ok = samples.every(s => s.ok);
  const ms = samples.filter(s => s.ok).map(s => s.wallMs);
  const sorted = [...ms].sort((x, y) => x - y);
  const mid = sorted.length ? median(sorted) : null;
  const rss = samples.map(s => s.rssKb).filter((x): x is number => x !== null);
  return {
    runs: samples.length,
    ok,
    medianMs: ok ? mid : null,
    minMs: ok && sorted.length ? sorted[0]! : null,
    maxMs: ok && sorted.length ? sorted[sorted.length - 1]! : null,
    firstMs: ok && ms.length ? ms[0]! : null,
    peakRssKb: rss.length ? Math.max(...rss) : null,
    error: samples.find(s => !s.ok)?.error,
    samplesMs: ms.map(x => Math.round(x * 10) / 10),
  };
}

function bench(u: PreparedUnit, runs: number, which: 'cicc' | 'ptxd', cacheDir: string): Stats {
  const out = mkTempDir(`bench-${which}`);
  const argv = ciccArgv(u, out);
  // ptxd: a cold compile in the client process every run (no daemon, no unit cache); bench/daemon-bench.ts
  // measures the daemon and the cache.
  const env = which === 'ptxd' ? { ...process.env, PTXD_FALLBACK: 'never', PTXD_CACHE_DIR: cacheDir, PTXD_DAEMON: '0', PTXD_CACHE: '0' } : process.env;
  const [cmd, args] = which === 'cicc' ? [u.realCicc, argv] : [process.execPath, [PTXD_CICC, u.realCicc, ...argv]];
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const s = timeOne(cmd, args, env, ciccOutputs(out).ptx);
    samples.push(s);
    if (!s.ok) break; // a failing compiler is reported as failed, not timed further
  }
  fs.rmSync(out, { recursive: true, force: true });
  return stats(samples);
}

const fmt = (x: number | null) => (x === null ? '–' : x.toFixed(0));
const fmtMb = (kb: number | null) => (kb === null ? '–' : (kb / 1024).toFixed(0));

function main(): number {
  const { runs, arch, only } = parseBenchArgs(process.argv.slice(2), 5);
  const skip = skipReason('nvcc', 'cicc');
  if (skip) {
    console.error(`compile-bench: ${skip}`);
    return 2;
  }
  const ptxdAvailable = fs.existsSync(PTXD_CICC);
  // A fresh cache directory for this run: ptxd's first run per input is a cold compile, later ones may hit.
  const cacheDir = mkTempDir('bench-cache');
  const rows: Row[] = [];
  for (const input of INPUTS.filter(i => !only || only.includes(i.replace(/\.cu$/, '')) || only.includes(i))) {
    const u = prepareUnit(path.join(KERNELS_DIR, input), arch);
    const cicc = bench(u, runs, 'cicc', cacheDir);
    const ptxd: Stats = ptxdAvailable
      ? bench(u, runs, 'ptxd', cacheDir)
      : { runs: 0, ok: false, medianMs: null, minMs: null, maxMs: null, firstMs: null, peakRssKb: null, error: `${PTXD_CICC} not found`, samplesMs: [] };
    const ratio = cicc.medianMs !== null && ptxd.medianMs !== null ? ptxd.medianMs / cicc.medianMs : null;
    rows.push({ input, arch, iiBytes: fs.statSync(u.ii).size, cicc, ptxd, ratio });
    process.stderr.write(`compile-bench: ${input} done\n`);
  }
  fs.rmSync(cacheDir, { recursive: true, force: true });

  const lines = [
    `compile-bench: ${runs} runs each, compute_${arch}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), wall ms`,
    '',
    '| input | .ii KB | cicc median (min–max) | ptxd median (min–max) | ptxd first run | ours/cicc | cicc RSS MB | ptxd client RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const c = r.cicc.ok ? `${fmt(r.cicc.medianMs)} (${fmt(r.cicc.minMs)}–${fmt(r.cicc.maxMs)})` : `FAILED`;
    const p = r.ptxd.ok ? `${fmt(r.ptxd.medianMs)} (${fmt(r.ptxd.minMs)}–${fmt(r.ptxd.maxMs)})` : `FAILED`;
    lines.push(`| ${r.input} | ${(r.iiBytes / 1024).toFixed(0)} | ${c} | ${p} | ${fmt(r.ptxd.firstMs)} | ${r.ratio === null ? '–' : r.ratio.toFixed(2)} | ${fmtMb(r.cicc.peakRssKb)} | ${fmtMb(r.ptxd.peakRssKb)} |`);
  }
  const failures = rows.flatMap(r => [r.cicc, r.ptxd].filter(s => !s.ok).map(s => `- ${r.input} (${s === r.cicc ? 'cicc' : 'ptxd'}): ${s.error}`));
  if (failures.length) lines.push('', 'Failures:', ...failures);
  console.log(lines.join('\n'));

  writeResults('compile-bench', { runs, arch, ptxdFallback: 'never', rssNote: 'ptxd RSS is the client process only', rows });
  return 0;
}

process.exitCode = main();
