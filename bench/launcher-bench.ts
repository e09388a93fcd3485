// Launcher benchmark: ptxd beside ccache and sccache. One project of 16 units (programs from test/kernels),
// `make -j2` with the real nvcc (-c: nvcc's whole job per unit), built by each configuration side by side in
// one run:
//   nvcc            stock nvcc and cicc
//   ccache          ccache in front of nvcc (as CMAKE_CUDA_COMPILER_LAUNCHER does)
//   sccache         sccache in front of nvcc (when installed)
//   ptxd            nvcc with --cicc-prefix=bin/ptxd-cicc (a daemon with its unit cache)
//   ccache + ptxd   both;   sccache + ptxd   both (when sccache is installed)
// Each configuration starts with empty caches (its own CCACHE_DIR / SCCACHE_DIR / ptxd cache and daemon)
// and times three builds in a row:
//   cold     empty caches, a fresh output directory;
//   rebuild  the same sources into a fresh output directory (a clean rebuild);
//   edit     one unit edited (one kernel appended to it) and built into the same output directory.
// PTXD_FALLBACK=never: a unit ptxd cannot compile fails the benchmark. Units whose objects differ between the
// configurations with the same compiler (nvcc vs ccache vs sccache; ptxd vs its launcher pairs) are reported.
//
// Usage: node dist/bench/launcher-bench.js [--runs N] [--arch 90]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PTXD_CICC, findTool, kernelPrograms, mkTempDir, programNvccFlags, requireTool, skipReason } from '../test/helpers/tools';
import { median, parseBenchArgs, ptxdCli, sandbox, writeResults } from './common';

const UNITS = 16;
const JOBS = 2;
const MAKEFILE = `NVCC ?= nvcc
ARCH ?= 90
OUT ?= out
FLAGS ?=
SRCS = $(sort $(wildcard *.cu))
all: $(SRCS:%.cu=$(OUT)/%.o)
$(OUT)/%.o: %.cu | $(OUT)
\t$(NVCC) -arch=sm_$(ARCH) -c $(FLAGS) $< -o $@
$(OUT):
\tmkdir -p $@
`;

type Launcher = 'none' | 'ccache' | 'sccache';
interface Config { name: string; launcher: Launcher; ptxd: boolean }
type Step = 'cold' | 'rebuild' | 'edit';
const STEPS: Step[] = ['cold', 'rebuild', 'edit'];

function pickUnits(): string[] {
  const all = kernelPrograms().filter(cu => programNvccFlags(cu).length === 0);
  const step = all.length / UNITS;
  return Array.from({ length: UNITS }, (_, i) => all[Math.floor(i * step)]!);
}

function make(project: string, env: NodeJS.ProcessEnv, nvcc: string, flags: string, out: string, arch: number): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('make', ['-s', `-j${JOBS}`, `NVCC=${nvcc}`, `ARCH=${arch}`, `OUT=${out}`, `FLAGS=${flags}`],
    { cwd: project, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`make exit ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-4).join(' | ')}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** What the caches did in one configuration's run (ccache/sccache counters, ptxd's daemon). */
interface Work { launcherHits: number; launcherMisses: number; ptxdRequests: number; ptxdHits: number; ptxdMisses: number }

function launcherCounts(l: Launcher, env: NodeJS.ProcessEnv): { hits: number; misses: number } {
  if (l === 'ccache') {
    const t = spawnSync(findTool('ccache')!, ['--print-stats'], { env, encoding: 'utf8' }).stdout;
    const v = (k: string) => Number(new RegExp(`^${k}\\t(\\d+)$`, 'm').exec(t)?.[1] ?? 0);
    return { hits: v('direct_cache_hit') + v('preprocessed_cache_hit'), misses: v('cache_miss') };
  }
  if (l === 'sccache') {
    const t = spawnSync(findTool('sccache')!, ['--show-stats'], { env, encoding: 'utf8' }).stdout;
    const v = (k: string) => Number(new RegExp(`^${k}\\s+(\\d+)$`, 'm').exec(t)?.[1] ?? 0);
    return { hits: v('Cache hits'), misses: v('Cache misses') };
  }
  return { hits: 0, misses: 0 };
}

function objects(out: string): Map<string, Buffer> {
  return new Map(fs.readdirSync(out).filter(f => f.endsWith('.o')).sort().map(f => [f,
    Buffer.from(fs.readFileSync(path.join(out, f)).toString('latin1').replace(/tmpxft_[0-9a-f]{8}_[0-9a-f]{8}/g, 'tmpxft_XXXXXXXX_XXXXXXXX'), 'latin1')]));
}

function runConfig(c: Config, units: string[], arch: number, run: number): { ms: Record<Step, number>; work: Record<Step, Work>; out: Map<string, Buffer> } {
  const project = mkTempDir(`lbench-${c.name.replace(/\W+/g, '-')}`);
  for (const cu of units) fs.copyFileSync(cu, path.join(project, path.basename(cu)));
  fs.writeFileSync(path.join(project, 'Makefile'), MAKEFILE);
  const sb = sandbox(`launcher-${run}`, { CCACHE_DIR: path.join(project, '.ccache'), SCCACHE_DIR: path.join(project, '.sccache'),
    ...(c.ptxd ? {} : { PTXD_DAEMON: '0' }) });
  const env = sb.env;
  const nvcc = c.launcher === 'none' ? requireTool('nvcc') : `${findTool(c.launcher)!} ${requireTool('nvcc')}`;
  const flags = c.ptxd ? `--cicc-prefix=${PTXD_CICC}` : '';
  if (c.launcher === 'sccache') spawnSync(findTool('sccache')!, ['--start-server'], { env, stdio: 'ignore' });
  const ms = {} as Record<Step, number>;
  const work = {} as Record<Step, Work>;
  const counts = (): Work => {
    const l = launcherCounts(c.launcher, env);
    const k = c.ptxd ? (JSON.parse(ptxdCli(sb, ['stats', '--json']).stdout) as { counters: { requests: number; hits: number; misses: number } }).counters : undefined;
    return { launcherHits: l.hits, launcherMisses: l.misses, ptxdRequests: k?.requests ?? 0, ptxdHits: k?.hits ?? 0, ptxdMisses: k?.misses ?? 0 };
  };
  try {
    for (const step of STEPS) {
      if (step === 'edit') {
        const f = path.join(project, path.basename(units[0]!));
        fs.appendFileSync(f, `\n__global__ void launcher_bench_edit(int *p) { p[threadIdx.x] = ${run + 7}; }\n`);
      }
      const out = path.join(project, step === 'cold' ? 'out1' : 'out2');
      const before = counts();
      ms[step] = Math.round(make(project, env, nvcc, flags, out, arch));
      const after = counts();
      work[step] = Object.fromEntries(Object.keys(after).map(k => [k, after[k as keyof Work] - before[k as keyof Work]])) as unknown as Work;
    }
    return { ms, work, out: objects(path.join(project, 'out2')) };
  } finally {
    if (c.ptxd) ptxdCli(sb, ['daemon', 'stop']);
    if (c.launcher === 'sccache') spawnSync(findTool('sccache')!, ['--stop-server'], { env, stdio: 'ignore' });
    fs.rmSync(project, { recursive: true, force: true });
  }
}

function main(): number {
  const { runs, arch } = parseBenchArgs(process.argv.slice(2), 1);
  const skip = skipReason('nvcc', 'cicc', 'ptxas') ?? skipReason('make');
  if (skip) { console.error(`launcher-bench: ${skip}`); return 2; }
  const have = (t: 'ccache' | 'sccache') => findTool(t) !== null;
  const configs: Config[] = [
    { name: 'nvcc', launcher: 'none', ptxd: false },
    ...(have('ccache') ? [{ name: 'ccache', launcher: 'ccache', ptxd: false } as Config] : []),
    ...(have('sccache') ? [{ name: 'sccache', launcher: 'sccache', ptxd: false } as Config] : []),
    { name: 'ptxd', launcher: 'none', ptxd: true },
    ...(have('ccache') ? [{ name: 'ccache + ptxd', launcher: 'ccache', ptxd: true } as Config] : []),
    ...(have('sccache') ? [{ name: 'sccache + ptxd', launcher: 'sccache', ptxd: true } as Config] : []),
  ];
  const units = pickUnits();
  const ms: Record<string, Record<Step, number[]>> = {};
  const work: Record<string, Record<Step, Work>> = {};
  const differing: string[] = [];
  for (let r = 0; r < runs; r++) {
    const outs = new Map<string, Map<string, Buffer>>();
    for (const c of configs) {
      const res = runConfig(c, units, arch, r);
      ms[c.name] ??= { cold: [], rebuild: [], edit: [] };
      for (const s of STEPS) ms[c.name]![s].push(res.ms[s]);
      work[c.name] = res.work;
      outs.set(c.name, res.out);
      process.stderr.write(`launcher-bench: run ${r + 1}/${runs}, ${c.name}: ${STEPS.map(s => `${s} ${res.ms[s]} ms`).join(', ')}\n`);
    }
    // The same compiler behind any launcher gives the same objects.
    for (const [a, b] of [['nvcc', 'ccache'], ['nvcc', 'sccache'], ['ptxd', 'ccache + ptxd'], ['ptxd', 'sccache + ptxd']]) {
      const x = outs.get(a!), y = outs.get(b!);
      if (!x || !y) continue;
      for (const [f, buf] of x) if (!y.get(f)?.equals(buf)) differing.push(`${f}: ${a} vs ${b}`);
    }
  }
  const med = (xs: number[]) => Math.round(median(xs));
  const base = ms.nvcc!;
  const rows = configs.map(c => {
    const m = ms[c.name]!;
    return { config: c.name, ...Object.fromEntries(STEPS.map(s => [s, med(m[s])])), ratios: Object.fromEntries(STEPS.map(s => [s, med(m[s]) / med(base[s])])),
      work: work[c.name], samplesMs: m };
  });
  const w = (x: Work | undefined) => (x ? `${x.launcherHits}/${x.launcherMisses} launcher hit/miss, ${x.ptxdHits}/${x.ptxdMisses} ptxd hit/miss` : '');
  console.log([
    `launcher-bench: ${UNITS} units from test/kernels, make -j${JOBS}, nvcc -c sm_${arch}, ${runs} run(s), ${os.cpus().length} CPUs ` +
    `(${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg()[0]!.toFixed(1)}, wall ms (median), ratio to stock nvcc in brackets`,
    '',
    '| configuration | cold build | clean rebuild | one-kernel edit |',
    '|---|---:|---:|---:|',
    ...rows.map(r => `| ${r.config} | ${STEPS.map(s => `${(r as unknown as Record<Step, number>)[s]} (${r.ratios[s]!.toFixed(2)})`).join(' | ')} |`),
    '',
    'What each cache did (last run): ',
    ...rows.map(r => `- ${r.config}: ${STEPS.map(s => `${s}: ${w(r.work?.[s])}`).join('; ')}`),
    '',
    `objects identical behind each launcher: ${differing.length === 0 ? 'yes' : `NO (${differing.join(', ')})`}`,
  ].join('\n'));
  writeResults('launcher-bench', { runs, arch, jobs: JOBS, units: units.map(u => path.basename(u)), rows, differing });
  return differing.length ? 1 : 0;
}

process.exitCode = main();
