// Memory benchmark: many distinct units through one daemon, its peak resident memory against the memory budget
// (PTXD_MEMORY, service/memory.ts). Each unit is a base unit preprocessed by the real nvcc with kernels of its own
// appended (so every unit is distinct and compiles). The bases are either generated (a few files with different
// headers, so their preludes differ) or, with --corpus N, N real units of the coverage corpus (bench/corpus/, the
// C-like and C++ tiers, picked round-robin over the repositories as bench/real-units.ts picks them; a base whose
// capture fails, that ptxd does not compile the first time it is used, or whose compile takes longer than
// --unit-budget seconds (PTXD_COMPILE_BUDGET_S of the daemon; default 60) is left out and listed; when those two
// tiers hold fewer than N units, library-heavy units follow. Captures are kept in --captures DIR (default: the
// tests' capture directory), so a second run does not run nvcc again; after --capture-s seconds of capturing only
// units captured before are taken (the others are listed as not captured). With fewer bases than --units, the
// bases are used in turn, each time with kernels of its own). They go through
// the client (bin/ptxd-cicc, the call nvcc makes) one after another; the daemon's resident memory is sampled
// meanwhile and its peak (VmHWM) read at the end, with what `ptxd stats` says each cache holds.
// Prints a Markdown table and writes bench/results/memory-bench.json (or --results NAME).
//
// Usage: node dist/bench/memory-bench.js [--units N (default 300)] [--memory SIZE (PTXD_MEMORY; default: its default)]
//        [--corpus N (real bases; PTXD_CORPUS_DIR)] [--captures DIR] [--capture-s S] [--unit-budget S] [--leave-out RE] [--seed S]
//        [--results NAME]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, ciccArgv, mkTempDir, prepareUnit, skipReason, type PreparedUnit } from '../test/helpers/tools';
import { DEFAULT_MEMORY, memoryBudget } from '../service/memory';
import { ptxdCli, sandbox, writeResults } from './common';
import { corpusDir, loadManifest, repoDir, unitId } from './corpus/manifest';
import { absoluteFlags, candidateOrder } from './real-units';

const BASES = ['', '#include <cstdio>', '#include <cuda_fp16.h>', '#include <cooperative_groups.h>', '#include <cuda_bf16.h>', '#include <cstdio>\n#include <cuda_fp16.h>'];

/** Kernels of unit i (distinct names and constants: a distinct unit, and several kernels as real files have). */
function ownCode(i: number): string {
  const out: string[] = [`__device__ float mix${i}(float x, int n) { float s = 0; for (int j = 0; j < n; ++j) s += x * j + ${i}.5f; return s; }`];
  for (let k = 0; k < 4; k++) out.push(`__global__ void u${i}k${k}(float* o, int n) { int t = blockIdx.x * blockDim.x + threadIdx.x; if (t < n) o[t] = mix${i}(o[t], ${k + 2}) * ${k}.25f; }`);
  return `\n${out.join('\n')}\n`;
}

function vm(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch { return 0; }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const at = (f: string) => { const i = args.indexOf(f); return i >= 0 ? args[i + 1] : undefined; };
  const units = Number(at('--units') ?? 300);
  const memory = at('--memory');
  const corpus = at('--corpus') === undefined ? 0 : Number(at('--corpus'));
  const seed = Number(at('--seed') ?? 1);
  const captures = at('--captures');
  // after this many seconds of capturing, only units captured before are taken
  const captureS = Number(at('--capture-s') ?? Infinity);
  const unitBudget = at('--unit-budget') ?? (corpus ? '60' : undefined);
  const skip = skipReason('nvcc', 'cicc');
  if (skip) { console.error(`memory-bench: ${skip}`); return 2; }
  const dir = mkTempDir('memory-bench');
  const skipped: { base: string; reason: string }[] = [];
  // --leave-out RE: real bases left out by name (a run compared with another keeps the same bases whatever the load)
  const leaveOut = at('--leave-out') === undefined ? undefined : new RegExp(at('--leave-out')!);
  const bases = (corpus ? corpusBases(corpus, seed, skipped, captures, captureS) : generatedBases(dir)).filter(b => !leaveOut?.test(b.name));
  if (bases.length === 0) { console.error(`memory-bench: no base unit (corpus: ${corpusDir()})`); return 2; }
  const texts = bases.map(b => fs.readFileSync(b.u.ii, 'utf8'));
  const live = bases.map(() => true);
  const firstUse = bases.map(() => true);
  const sb = sandbox('memory', { ...(memory ? { PTXD_MEMORY: memory } : {}), ...(unitBudget ? { PTXD_COMPILE_BUDGET_S: unitBudget } : {}), PTXD_WORKERS: '2' });
  const budget = memory ? memoryBudget({ PTXD_MEMORY: memory }) : DEFAULT_MEMORY;
  if (ptxdCli(sb, ['daemon', 'start']).status !== 0) { console.error('memory-bench: the daemon did not start'); return 1; }
  const pid = Number(fs.readFileSync(`${sb.env.PTXD_SOCKET}.pid`, 'utf8'));
  let sampledPeak = 0;
  const samples: number[] = [];
  const timer = setInterval(() => { const r = vm(pid, 'VmRSS'); sampledPeak = Math.max(sampledPeak, r); }, 200);
  let failed = 0, done = 0;
  const t0 = performance.now();
  try {
    for (let i = 0, turn = 0; i < units && live.some(x => x); turn++) {
      const b = turn % bases.length;
      if (!live[b]) continue;
      const ii = path.join(dir, `unit${i}.ii`);
      fs.writeFileSync(ii, texts[b]! + ownCode(i));
      const out = path.join(dir, `out${i}`);
      fs.mkdirSync(out, { recursive: true });
      const u = bases[b]!.u;
      const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'ptxd-cicc'), u.realCicc, ...ciccArgv({ ...u, ii }, out)], { env: sb.env, encoding: 'utf8' });
      fs.rmSync(ii, { force: true });
      fs.rmSync(out, { recursive: true, force: true });
      // a real base ptxd does not compile (PTXD_FALLBACK=never) is left out the first time: not a failure of the budget
      if (r.status !== 0 && corpus && firstUse[b]) { live[b] = false; skipped.push({ base: bases[b]!.name, reason: `ptxd: ${lastLine(r.stderr)}` }); continue; }
      firstUse[b] = false;
      i++;
      done++;
      if (r.status !== 0) { failed++; if (failed <= 3) console.error(`memory-bench: unit ${i} failed: ${r.stderr.slice(0, 400)}`); }
      if (i % 25 === 0) { samples.push(vm(pid, 'VmRSS')); console.error(`memory-bench: ${i} units, resident ${(samples[samples.length - 1]! / 1048576).toFixed(0)} MiB`); }
    }
  } finally { clearInterval(timer); }
  const wallS = (performance.now() - t0) / 1000;
  const peak = Math.max(vm(pid, 'VmHWM'), sampledPeak);
  const end = vm(pid, 'VmRSS');
  const stats = JSON.parse(ptxdCli(sb, ['stats', '--json']).stdout) as {
    counters: { compileMs: number; misses: number };
    daemon: { heapUsedBytes: number; scheduler: { memory?: { held: Record<string, { entries: number; bytes: number }>; dropped: number; heaps?: { workers: number; total: number; used: number; young: number; external: number } } } } | null;
  };
  ptxdCli(sb, ['daemon', 'stop']);
  fs.rmSync(dir, { recursive: true, force: true });
  const mib = (b: number) => +(b / 1048576).toFixed(1);
  // null when the daemon did not answer (it is gone): the samples above still hold its peak
  const mem = stats.daemon?.scheduler.memory;
  console.log([
    `memory-bench: ${done} distinct units on ${corpus ? `${live.filter(x => x).length} real corpus units` : `${bases.length} generated units (header sets)`} through one daemon of 2 workers, budget ${mib(budget)} MiB${memory ? ` (PTXD_MEMORY=${memory})` : ' (default)'}`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| peak resident memory (MiB) | ${mib(peak)} |`,
    `| resident memory at the end (MiB) | ${mib(end)} |`,
    `| budget + 100 MiB | ${mib(budget + 100 * 1048576)} |`,
    `| caches held at the end (MiB, estimated) | ${mem ? mib(Object.values(mem.held).reduce((a, v) => a + v.bytes, 0)) : '?'} |`,
    ...Object.entries(mem?.held ?? {}).map(([name, v]) => `| ${name} at the end: items, MiB (estimated) | ${v.entries}, ${mib(v.bytes)} |`),
    `| cache items dropped by the budget | ${mem?.dropped ?? '?'} |`,
    ...(mem?.heaps ? [`| worker heaps at the end (${mem.heaps.workers} workers): committed, young generation, in use, outside the heap (MiB) | ${[mem.heaps.total, mem.heaps.young, mem.heaps.used, mem.heaps.external].map(mib).join(', ')} |`] : []),
    ...(stats.daemon ? [`| main thread's heap in use at the end (MiB) | ${mib(stats.daemon.heapUsedBytes)} |`] : []),
    `| compile time, summed (s) | ${(stats.counters.compileMs / 1000).toFixed(1)} |`,
    `| wall time (s) | ${wallS.toFixed(1)} |`,
    `| units failed | ${failed} |`,
    ...(skipped.length ? ['', 'bases left out:', ...skipped.filter(x => !notCaptured(x)).map(x => `  ${x.base}: ${x.reason}`)] : []),
    ...(skipped.some(notCaptured) ? [`  ${skipped.filter(notCaptured).length} units not captured before (--capture-s)`] : []),
    '',
    `peak <= 600 MiB: ${peak <= 600 * 1048576}; peak <= budget + 100 MiB: ${peak <= budget + 100 * 1048576}`,
  ].join('\n'));
  writeResults(at('--results') ?? 'memory-bench', {
    units: done, bases: bases.filter((_, b) => live[b]).map(x => x.name), skipped, budgetBytes: budget, peakRssBytes: peak, endRssBytes: end, rssSamplesBytes: samples,
    held: mem?.held ?? null, dropped: mem?.dropped ?? null, workerHeaps: mem?.heaps ?? null, mainHeapUsedBytes: stats.daemon?.heapUsedBytes ?? null, compileMsSum: stats.counters.compileMs, wallS, failed,
  });
  return failed > 0 ? 1 : 0;
}

interface Base { name: string; u: PreparedUnit }

/** The generated bases: one small kernel under each header set. */
function generatedBases(dir: string): Base[] {
  return BASES.map((inc, b) => {
    const cu = path.join(dir, `base${b}.cu`);
    fs.writeFileSync(cu, `${inc}\n__global__ void base${b}(int* o) { o[threadIdx.x] = ${b}; }\n`);
    return { name: inc || '(no header)', u: prepareUnit(cu, 90) };
  });
}

/** n real bases: C-like and C++ units of the corpus that nvcc captures, then library-heavy ones (tried at most 3n). */
function corpusBases(n: number, seed: number, skipped: { base: string; reason: string }[], cacheDir: string | undefined, captureS: number): Base[] {
  const manifest = loadManifest();
  const arch = Number(manifest.arch.replace(/^sm_/, ''));
  const present = manifest.units.filter(u => fs.existsSync(path.join(repoDir(u.repo), u.path)));
  const ordinary = present.filter(u => u.tier === 'C-like' || u.tier === 'C++');
  const order = [...candidateOrder(ordinary, seed), ...candidateOrder(present.filter(u => !ordinary.includes(u)), seed)];
  const out: Base[] = [];
  const until = performance.now() + captureS * 1000;
  for (const u of order.slice(0, 3 * n)) {
    if (out.length >= n) break;
    try {
      const capturedOnly = performance.now() > until;
      out.push({ name: unitId(u), u: prepareUnit(path.join(repoDir(u.repo), u.path), arch, { nvccFlags: absoluteFlags(u), capturedOnly, ...(cacheDir ? { cacheDir: path.resolve(cacheDir) } : {}) }) });
      console.error(`memory-bench: captured ${unitId(u)}`);
    } catch (e) { skipped.push({ base: unitId(u), reason: `capture: ${lastLine((e as Error).message)}` }); }
  }
  return out;
}

const notCaptured = (x: { reason: string }): boolean => x.reason.startsWith('capture: not captured before');

const lastLine = (s: string): string => s.trim().split('\n').filter(l => l.trim()).pop()?.slice(0, 200) ?? '';

void main().then(code => { process.exitCode = code; });
