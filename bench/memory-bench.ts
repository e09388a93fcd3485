// Memory benchmark: many distinct units through one daemon, its peak resident memory against the memory budget
// (PTXD_MEMORY, service/memory.ts). The units are generated: a few base files with different headers (so their
// preludes differ) preprocessed by the real nvcc, each copy given kernels of its own appended (so every unit is
// distinct and compiles). They go through the client (bin/ptxd-cicc, the call nvcc makes) one after another;
// the daemon's resident memory is sampled meanwhile and its peak (VmHWM) read at the end.
// Prints a Markdown table and writes bench/results/memory-bench.json.
//
// Usage: node dist/bench/memory-bench.js [--units N (default 300)] [--memory SIZE (PTXD_MEMORY; default: its default)]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, ciccArgv, mkTempDir, prepareUnit, skipReason, type PreparedUnit } from '../test/helpers/tools';
import { DEFAULT_MEMORY, memoryBudget } from '../service/memory';
import { ptxdCli, sandbox, writeResults } from './common';

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
  const skip = skipReason('nvcc', 'cicc');
  if (skip) { console.error(`memory-bench: ${skip}`); return 2; }
  const dir = mkTempDir('memory-bench');
  const bases: PreparedUnit[] = BASES.map((inc, b) => {
    const cu = path.join(dir, `base${b}.cu`);
    fs.writeFileSync(cu, `${inc}\n__global__ void base${b}(int* o) { o[threadIdx.x] = ${b}; }\n`);
    return prepareUnit(cu, 90);
  });
  const texts = bases.map(u => fs.readFileSync(u.ii, 'utf8'));
  const sb = sandbox('memory', { ...(memory ? { PTXD_MEMORY: memory } : {}), PTXD_WORKERS: '2' });
  const budget = memory ? memoryBudget({ PTXD_MEMORY: memory }) : DEFAULT_MEMORY;
  if (ptxdCli(sb, ['daemon', 'start']).status !== 0) { console.error('memory-bench: the daemon did not start'); return 1; }
  const pid = Number(fs.readFileSync(`${sb.env.PTXD_SOCKET}.pid`, 'utf8'));
  let sampledPeak = 0;
  const samples: number[] = [];
  const timer = setInterval(() => { const r = vm(pid, 'VmRSS'); sampledPeak = Math.max(sampledPeak, r); }, 200);
  let failed = 0;
  const t0 = performance.now();
  try {
    for (let i = 0; i < units; i++) {
      const b = i % bases.length;
      const ii = path.join(dir, `unit${i}.ii`);
      fs.writeFileSync(ii, texts[b]! + ownCode(i));
      const out = path.join(dir, `out${i}`);
      fs.mkdirSync(out, { recursive: true });
      const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'ptxd-cicc'), bases[b]!.realCicc, ...ciccArgv({ ...bases[b]!, ii }, out)], { env: sb.env, encoding: 'utf8' });
      if (r.status !== 0) { failed++; if (failed <= 3) console.error(`memory-bench: unit ${i} failed: ${r.stderr.slice(0, 400)}`); }
      fs.rmSync(ii, { force: true });
      fs.rmSync(out, { recursive: true, force: true });
      if (i % 25 === 24) { samples.push(vm(pid, 'VmRSS')); console.error(`memory-bench: ${i + 1} units, resident ${(samples[samples.length - 1]! / 1048576).toFixed(0)} MiB`); }
    }
  } finally { clearInterval(timer); }
  const wallS = (performance.now() - t0) / 1000;
  const peak = Math.max(vm(pid, 'VmHWM'), sampledPeak);
  const end = vm(pid, 'VmRSS');
  const stats = JSON.parse(ptxdCli(sb, ['stats', '--json']).stdout) as { counters: { compileMs: number; misses: number }; daemon: { scheduler: { memory?: { held: Record<string, { entries: number; bytes: number }>; dropped: number } } } };
  ptxdCli(sb, ['daemon', 'stop']);
  fs.rmSync(dir, { recursive: true, force: true });
  const mib = (b: number) => +(b / 1048576).toFixed(1);
  const mem = stats.daemon.scheduler.memory;
  console.log([
    `memory-bench: ${units} distinct units (${bases.length} header sets) through one daemon of 2 workers, budget ${mib(budget)} MiB${memory ? ` (PTXD_MEMORY=${memory})` : ' (default)'}`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| peak resident memory (MiB) | ${mib(peak)} |`,
    `| resident memory at the end (MiB) | ${mib(end)} |`,
    `| budget + 100 MiB | ${mib(budget + 100 * 1048576)} |`,
    `| caches held at the end (MiB, estimated) | ${mem ? mib(Object.values(mem.held).reduce((a, v) => a + v.bytes, 0)) : '?'} |`,
    `| cache items dropped by the budget | ${mem?.dropped ?? '?'} |`,
    `| compile time, summed (s) | ${(stats.counters.compileMs / 1000).toFixed(1)} |`,
    `| wall time (s) | ${wallS.toFixed(1)} |`,
    `| units failed | ${failed} |`,
    '',
    `peak <= 600 MiB: ${peak <= 600 * 1048576}; peak <= budget + 100 MiB: ${peak <= budget + 100 * 1048576}`,
  ].join('\n'));
  writeResults('memory-bench', {
    units, bases: bases.length, budgetBytes: budget, peakRssBytes: peak, endRssBytes: end, rssSamplesBytes: samples,
    held: mem?.held ?? null, dropped: mem?.dropped ?? null, compileMsSum: stats.counters.compileMs, wallS, failed,
  });
  return failed > 0 ? 1 : 0;
}

void main().then(code => { process.exitCode = code; });
