// Daemon benchmark: what the daemon and the unit cache buy, each as a ratio to the real cicc on the same
// input in the same run.
//   unit cache hit (end to end): `bin/ptxd-cicc <real cicc> <argv>` as nvcc runs it, client process
//     included (the native client when it is built, see client/native/), answered from the cache by a warm
//     daemon; and the same through the Node client (PTXD_NATIVE=0), for comparison;
//   warm-daemon compile: the same, with the cache off (PTXD_CACHE=0), so the warm daemon compiles;
//   daemon memory: resident set of a daemon after it has compiled every program in test/kernels;
//   split compile: a 20-kernel unit through a warm daemon with 1 vs 3 pool workers, not under make (idle
//     workers are used; units are split only on 3 workers or more, see daemon/scheduler/split.ts), cold (a
//     file the daemon has not seen) and after an edit of every kernel (compiled kernel by kernel); the PTX
//     of both must be byte-identical. No real-cicc ratio: ptxd against itself.
// Each ptxd configuration has its own cache directory and socket; daemons are stopped at the end.
// PTXD_FALLBACK=never: a unit ptxd cannot compile is reported as failed, never timed.
//
// Usage: node dist/bench/daemon-bench.js [--runs N] [--arch 90] [--only name,name]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  KERNELS_DIR, PTXD_CICC, ciccArgv, ciccOutputs, kernelPrograms, mkTempDir, prepareUnit, prepareUnits, skipReason, type PreparedUnit,
} from '../test/helpers/tools';
import { median, multiKernelSource, parseBenchArgs, ptxdCli, sandbox, writeResults, type Sandbox } from './common';

const INPUTS = ['saxpy.cu', 'prelude_empty.cu', 'prelude_std.cu', 'matmul_tiled.cu', 'bitonic_sort.cu', 'atomics_unsigned.cu'];

interface Series { ok: boolean; medianMs: number | null; minMs: number | null; maxMs: number | null; samplesMs: number[]; error?: string }
interface Row { input: string; cicc: Series; hit: Series; hitNode: Series; warm: Series; hitRatio: number | null; hitNodeRatio: number | null; warmRatio: number | null }

function stopDaemon(sb: Sandbox): void {
  ptxdCli(sb, ['daemon', 'stop']);
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

function series(u: PreparedUnit, runs: number, which: 'cicc' | Sandbox, warmup: number): Series {
  const out = mkTempDir('dbench-out');
  const argv = ciccArgv(u, out);
  const [cmd, args, env] = which === 'cicc' ? [u.realCicc, argv, process.env] : [PTXD_CICC, [u.realCicc, ...argv], which.env];
  const ms: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const r = once(cmd, args, env, ciccOutputs(out).ptx);
    if ('error' in r) { fs.rmSync(out, { recursive: true, force: true }); return { ok: false, medianMs: null, minMs: null, maxMs: null, samplesMs: ms, error: r.error }; }
    if (i >= warmup) ms.push(Math.round(r.ms * 10) / 10);
  }
  fs.rmSync(out, { recursive: true, force: true });
  const s = [...ms].sort((a, b) => a - b);
  return { ok: true, medianMs: median(s), minMs: s[0]!, maxMs: s[s.length - 1]!, samplesMs: ms };
}

function daemonStatus(sb: Sandbox): { rssBytes: number; heapUsedBytes: number; served: number; ciccCalls: number } | null {
  const r = ptxdCli(sb, ['daemon', 'status', '--json']);
  try {
    const j = JSON.parse(r.stdout) as { running: boolean; rssBytes: number; heapUsedBytes: number; served: number; ciccCalls: number };
    return j.running ? j : null;
  } catch { return null; }
}

/** Compiles every test/kernels program through one daemon; its memory afterwards. */
function memoryAfterAllKernels(arch: number): { units: number; failed: string[]; rssMb: number | null; heapMb: number | null } {
  const sb = sandbox('mem');
  const failed: string[] = [];
  let units = 0;
  try {
    for (const cu of kernelPrograms()) {
      let u: PreparedUnit;
      try { u = prepareUnits(cu, [arch]).get(arch)!; } catch { failed.push(`${path.basename(cu)} (nvcc)`); continue; }
      const out = mkTempDir('dbench-mem');
      const r = once(PTXD_CICC, [u.realCicc, ...ciccArgv(u, out)], sb.env, ciccOutputs(out).ptx);
      fs.rmSync(out, { recursive: true, force: true });
      if ('error' in r) failed.push(path.basename(cu)); else units++;
    }
    const st = daemonStatus(sb);
    return { units, failed, rssMb: st ? st.rssBytes / 2 ** 20 : null, heapMb: st ? st.heapUsedBytes / 2 ** 20 : null };
  } finally {
    stopDaemon(sb);
  }
}


/** cpuOne/cpuTwo: median CPU ms the daemon process (all its threads) spent per compile. */
/** The many-worker daemon of the split comparison: the fewest workers a unit is split on (daemon/scheduler/split.ts). */
const SPLIT_WORKERS = 3;
interface SplitCase { one: Series; two: Series; ratio: number | null; cpuOne: number | null; cpuTwo: number | null }
interface SplitRow { cold: SplitCase; edit: SplitCase; splitUnits: number; peakWorkersPerUnit: number; identical: boolean }

/**
 * Each run compiles a copy of the unit at a path of its own (a new module id: a file the daemon has not
 * seen), then the copy with every kernel edited, once through a daemon with 1 worker and once through one
 * with 2, alternating; a warm-up file first.
 */
/** CPU time the sandbox's daemon has used so far (all threads; Linux /proc), or null. */
function daemonCpuMs(sb: Sandbox): number | null {
  try {
    const pid = Number(fs.readFileSync(`${sb.env.PTXD_SOCKET}.pid`, 'utf8'));
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;   // utime + stime, in clock ticks of 10 ms
  } catch { return null; }
}

function splitCompile(arch: number, runs: number): SplitRow {
  const dir = mkTempDir('dbench-split');
  const units: [PreparedUnit, PreparedUnit][] = [];
  for (let i = 0; i <= runs; i++) {
    const cu = path.join(dir, `r${i}`, 'u20.cu');
    fs.mkdirSync(path.dirname(cu), { recursive: true });
    fs.writeFileSync(cu, multiKernelSource(20));
    const cold = prepareUnit(cu, arch);
    fs.writeFileSync(cu, multiKernelSource(20, ' + 1.0f'));
    units.push([cold, prepareUnit(cu, arch)]);
  }
  const boxes = [sandbox('split1', { PTXD_WORKERS: '1' }), sandbox('split3', { PTXD_WORKERS: String(SPLIT_WORKERS) })] as const;
  // ms[case][workers - 1], and the daemon's CPU time for the same compiles
  const ms: [number[], number[]][] = [[[], []], [[], []]];
  const cpu: [number[], number[]][] = [[[], []], [[], []]];
  let identical = true, error: string | undefined;
  try {
    units.forEach((pair, i) => {
      const ptx: string[][] = [[], []];
      boxes.forEach((b, w) => pair.forEach((u, c) => {
        const out = mkTempDir('dbench-split-out');
        const c0 = daemonCpuMs(b);
        const r = once(PTXD_CICC, [u.realCicc, ...ciccArgv(u, out)], b.env, ciccOutputs(out).ptx);
        const c1 = daemonCpuMs(b);
        if ('error' in r) error ??= r.error;
        else {
          if (i > 0) ms[c]![w]!.push(Math.round(r.ms * 10) / 10);
          if (i > 0 && c0 !== null && c1 !== null) cpu[c]![w]!.push(c1 - c0);
          ptx[c]!.push(fs.readFileSync(ciccOutputs(out).ptx, 'utf8'));
        }
        fs.rmSync(out, { recursive: true, force: true });
      }));
      for (const p of ptx) if (p.length === 2 && p[0] !== p[1]) identical = false;
    });
    const st = ptxdCli(boxes[1], ['stats', '--json']);
    const sched = (JSON.parse(st.stdout) as { daemon?: { scheduler?: { splitJobs: number; peakSlotsPerJob: number } } }).daemon?.scheduler;
    const ser = (x: number[]): Series => {
      const s = [...x].sort((a, b) => a - b);
      return error || !s.length ? { ok: false, medianMs: null, minMs: null, maxMs: null, samplesMs: x, error: error ?? 'no samples' }
        : { ok: true, medianMs: median(s), minMs: s[0]!, maxMs: s[s.length - 1]!, samplesMs: x };
    };
    const both = ([a, b]: [number[], number[]], [ca, cb]: [number[], number[]]): SplitCase => {
      const one = ser(a), two = ser(b);
      return {
        one, two, ratio: one.medianMs && two.medianMs ? two.medianMs / one.medianMs : null,
        cpuOne: ca.length ? median(ca) : null, cpuTwo: cb.length ? median(cb) : null,
      };
    };
    return { cold: both(ms[0]!, cpu[0]!), edit: both(ms[1]!, cpu[1]!), splitUnits: sched?.splitJobs ?? 0, peakWorkersPerUnit: sched?.peakSlotsPerJob ?? 0, identical };
  } finally {
    for (const b of boxes) stopDaemon(b);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const f0 = (x: number | null) => (x === null ? '–' : x.toFixed(0));
const f2 = (x: number | null) => (x === null ? '–' : x.toFixed(2));
const cell = (s: Series) => (s.ok ? `${f0(s.medianMs)} (${f0(s.minMs)}–${f0(s.maxMs)})` : 'FAILED');

function main(): number {
  const { runs, arch, only } = parseBenchArgs(process.argv.slice(2), 7);
  const skip = skipReason('nvcc', 'cicc');
  if (skip) { console.error(`daemon-bench: ${skip}`); return 2; }
  const wants = (what: string) => !only || only.includes(what);
  const hitBox = sandbox('hit');
  const warmBox = sandbox('warm', { PTXD_CACHE: '0' });
  const rows: Row[] = [];
  // calls the native client handed to the daemon, of all calls (0 when it is not built)
  let native = { calls: 0, served: 0 };
  try {
    for (const input of INPUTS.filter(i => !only || only.includes(i.replace(/\.cu$/, '')) || only.includes(i))) {
      const u = prepareUnit(path.join(KERNELS_DIR, input), arch);
      const cicc = series(u, runs, 'cicc', 1);
      const hit = series(u, runs, hitBox, 1);     // the warm-up run fills the cache (and starts the daemon)
      const hitNode = series(u, runs, { ...hitBox, env: { ...hitBox.env, PTXD_NATIVE: '0' } }, 0);
      const warm = series(u, runs, warmBox, 1);   // the warm-up run starts the daemon and warms it on this input
      const ratio = (s: Series) => (cicc.medianMs !== null && s.medianMs !== null ? s.medianMs / cicc.medianMs : null);
      rows.push({ input, cicc, hit, hitNode, warm, hitRatio: ratio(hit), hitNodeRatio: ratio(hitNode), warmRatio: ratio(warm) });
      process.stderr.write(`daemon-bench: ${input} done\n`);
    }
    for (const b of [hitBox, warmBox]) {
      const st = daemonStatus(b);
      if (st) native = { calls: native.calls + st.ciccCalls, served: native.served + st.served };
    }
  } finally {
    stopDaemon(hitBox);
    stopDaemon(warmBox);
  }
  let split: SplitRow | undefined;
  if (wants('split')) {
    process.stderr.write(`daemon-bench: cold 20-kernel unit, 1 vs ${SPLIT_WORKERS} workers\n`);
    split = splitCompile(arch, runs);
  }
  let mem: ReturnType<typeof memoryAfterAllKernels> | undefined;
  if (wants('memory')) {
    process.stderr.write('daemon-bench: compiling all test kernels for the memory figure\n');
    mem = memoryAfterAllKernels(arch);
  }

  const lines = [
    `daemon-bench: ${runs} runs each (after 1 warm-up), compute_${arch}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), wall ms, median (min–max)`,
    '',
    `bin/ptxd-cicc ran the native client for ${native.calls} of the daemons' ${native.served} requests` +
      (native.calls === 0 ? ' (not built: no C compiler at `npm run build`?)' : ' (the rest: the Node client, PTXD_NATIVE=0, and first calls that start a daemon)'),
    '',
    '| input | real cicc | ptxd unit cache hit (client process incl.) | hit/cicc | hit, Node client | hit (Node)/cicc | ptxd warm-daemon compile | warm/cicc |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(r => `| ${r.input} | ${cell(r.cicc)} | ${cell(r.hit)} | ${f2(r.hitRatio)} | ${cell(r.hitNode)} | ${f2(r.hitNodeRatio)} | ${cell(r.warm)} | ${f2(r.warmRatio)} |`),
  ];
  if (split) {
    const cpuCell = (x: SplitCase) => `${f0(x.cpuOne)} / ${f0(x.cpuTwo)}`;
    lines.push('', `| 20-kernel unit, warm daemon, not under make (ptxd-cicc, client process incl.) | 1 worker | ${SPLIT_WORKERS} workers | ${SPLIT_WORKERS}/1 | daemon CPU ms, 1 / ${SPLIT_WORKERS} workers |`,
      '|---|---:|---:|---:|---:|',
      `| cold: a file the daemon has not seen | ${cell(split.cold.one)} | ${cell(split.cold.two)} | ${f2(split.cold.ratio)} | ${cpuCell(split.cold)} |`,
      `| every kernel edited | ${cell(split.edit.one)} | ${cell(split.edit.two)} | ${f2(split.edit.ratio)} | ${cpuCell(split.edit)} |`,
      '', `${SPLIT_WORKERS}-worker daemon: ${split.splitUnits} units split, at most ${split.peakWorkersPerUnit} workers for one unit; PTX of 1 and ${SPLIT_WORKERS} workers identical: ${split.identical ? 'yes' : 'NO'}`);
  }
  if (mem) {
    lines.push('', `Daemon after compiling ${mem.units} test kernel programs (compute_${arch}): RSS ${f0(mem.rssMb)} MB, JS heap ${f0(mem.heapMb)} MB` +
      (mem.failed.length ? `; not compiled (PTXD_FALLBACK=never): ${mem.failed.join(', ')}` : ''));
  }
  const failures = rows.flatMap(r => (['cicc', 'hit', 'hitNode', 'warm'] as const).filter(k => !r[k].ok).map(k => `- ${r.input} (${k}): ${r[k].error}`));
  if (split && !split.cold.one.ok) failures.push(`- split compile: ${split.cold.one.error}`);
  if (split && !split.identical) failures.push(`- split compile: the PTX of 1 and ${SPLIT_WORKERS} workers differs`);
  if (failures.length) lines.push('', 'Failures:', ...failures);
  console.log(lines.join('\n'));

  writeResults('daemon-bench', { runs, arch, ptxdFallback: 'never', nativeClient: native, rows, ...(mem ? { daemonMemory: mem } : {}), ...(split ? { splitCompile: split } : {}) });
  return split && !split.identical ? 1 : 0;
}

process.exitCode = main();
