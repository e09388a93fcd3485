// make benchmark: a project of 16 units (programs from test/kernels) built with `make -j4` and the real nvcc,
// through the real cicc and through ptxd (`--cicc-prefix=bin/ptxd-cicc`, as a user's build runs it), in the
// same run, interleaved. Two kinds of build:
//   -c    nvcc's whole job per unit (host compile, ptxas, fatbinary): what a user waits for;
//   -ptx  the device side only (nvcc's preprocessing and cicc): where the compiler's share is largest.
// and two ptxd configurations, each with its own warm daemon:
//   compile  the unit cache off (PTXD_CACHE=0): every unit is compiled;
//   hit      a rebuild into a clean output directory, every unit answered from the unit cache.
// PTXD_FALLBACK=never: a unit ptxd cannot compile fails the build (and the benchmark), it is never timed.
// The PTX of every ptxd build of the -ptx kind must be byte-identical to the first one.
//
// Usage: node dist/bench/make-bench.js [--runs N] [--arch 90]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PTXD_CICC, kernelPrograms, mkTempDir, programNvccFlags, requireTool, skipReason } from '../test/helpers/tools';
import { median, parseBenchArgs, ptxdCli, sandbox, writeResults, type Sandbox } from './common';

const UNITS = 16;
const JOBS = 4;

const MAKEFILE = `NVCC ?= nvcc
ARCH ?= 90
KIND ?= c
OUT ?= out
FLAGS ?=
SRCS = $(sort $(wildcard *.cu))
EXT = $(if $(filter ptx,$(KIND)),ptx,o)

all: $(SRCS:%.cu=$(OUT)/%.$(EXT))

$(OUT)/%.$(EXT): %.cu | $(OUT)
\t$(NVCC) -arch=sm_$(ARCH) -$(KIND) $(FLAGS) $< -o $@

$(OUT):
\tmkdir -p $@
`;

/** 16 programs spread over test/kernels (none that needs its own nvcc flags). */
function pickUnits(): string[] {
  const all = kernelPrograms().filter(cu => programNvccFlags(cu).length === 0);
  const step = all.length / UNITS;
  return Array.from({ length: UNITS }, (_, i) => all[Math.floor(i * step)]!);
}

const ptxd = (sb: Sandbox, args: string[]): string => ptxdCli(sb, args).stdout;

type Config = 'cicc' | 'compile' | 'hit';
type Kind = 'c' | 'ptx';

/** One `make -j4` into a fresh output directory; wall ms, or the error. */
function build(project: string, kind: Kind, config: Config, boxes: Record<'compile' | 'hit', Sandbox>, out: string, arch: number): { ms: number } | { error: string } {
  fs.rmSync(out, { recursive: true, force: true });
  const env = config === 'cicc' ? { ...process.env, MAKEFLAGS: '', NVCC_APPEND_FLAGS: '' } : boxes[config].env;
  const args = ['-s', `-j${JOBS}`, `NVCC=${requireTool('nvcc')}`, `ARCH=${arch}`, `KIND=${kind}`, `OUT=${out}`,
    ...(config === 'cicc' ? [] : [`FLAGS=--cicc-prefix=${PTXD_CICC}`])];
  const t0 = process.hrtime.bigint();
  const r = spawnSync('make', args, { cwd: project, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) return { error: `make exit ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-4).join(' | ')}` };
  return { ms };
}

function ptxFiles(out: string): Map<string, string> {
  return new Map(fs.readdirSync(out).filter(f => f.endsWith('.ptx')).sort().map(f => [f, fs.readFileSync(path.join(out, f), 'utf8')]));
}

function main(): number {
  const { runs, arch } = parseBenchArgs(process.argv.slice(2), 3);
  const skip = skipReason('nvcc', 'cicc', 'ptxas');
  if (skip) { console.error(`make-bench: ${skip}`); return 2; }
  if (spawnSync('make', ['--version']).status !== 0) { console.error('make-bench: make not found'); return 2; }
  const project = mkTempDir('mbench-project');
  const units = pickUnits();
  for (const cu of units) fs.copyFileSync(cu, path.join(project, path.basename(cu)));
  fs.writeFileSync(path.join(project, 'Makefile'), MAKEFILE);
  const boxes = { compile: sandbox('compile', { PTXD_CACHE: '0' }), hit: sandbox('hit', {}) };
  const kinds: Kind[] = ['c', 'ptx'];
  const configs: Config[] = ['cicc', 'compile', 'hit'];
  const ms: Record<Kind, Record<Config, number[]>> = { c: { cicc: [], compile: [], hit: [] }, ptx: { cicc: [], compile: [], hit: [] } };
  const failures: string[] = [];
  let firstPtx: Map<string, string> | undefined;
  let identical = true;
  const daemons: Partial<Record<'compile' | 'hit', { served: number; hits: number; ciccCalls: number }>> = {};
  try {
    // warm-up: starts both daemons, fills the hit daemon's cache (cicc's argv differs between -c and -ptx)
    for (const [config, kind] of [['compile', 'ptx'], ['hit', 'ptx'], ['hit', 'c']] as const) {
      const w = build(project, kind, config, boxes, path.join(project, `warm-${config}-${kind}`), arch);
      if ('error' in w) { console.error(`make-bench: warm-up (${config}, -${kind}) failed: ${w.error}`); return 1; }
    }
    for (let r = 0; r < runs; r++) {
      for (const kind of kinds) {
        for (const config of configs) {
          const out = path.join(project, `out-${kind}-${config}`);
          const b = build(project, kind, config, boxes, out, arch);
          if ('error' in b) { failures.push(`${kind} ${config}: ${b.error}`); continue; }
          ms[kind][config].push(Math.round(b.ms));
          if (kind === 'ptx' && config !== 'cicc') {
            const p = ptxFiles(out);
            if (!firstPtx) firstPtx = p;
            else if (p.size !== firstPtx.size || [...p].some(([f, t]) => firstPtx!.get(f) !== t)) identical = false;
          }
        }
      }
      process.stderr.write(`make-bench: run ${r + 1}/${runs} done\n`);
    }
    for (const k of ['compile', 'hit'] as const) {
      try { daemons[k] = JSON.parse(ptxd(boxes[k], ['daemon', 'status', '--json'])) as { served: number; hits: number; ciccCalls: number }; } catch { /* not running */ }
    }
  } finally {
    for (const b of Object.values(boxes)) ptxd(b, ['daemon', 'stop']);
  }
  const f0 = (x: number | null) => (x === null ? '–' : x.toFixed(0));
  const f2 = (x: number | null) => (x === null ? '–' : x.toFixed(2));
  const med = (xs: number[]) => (xs.length ? median(xs) : null);
  const ratio = (a: number | null, b: number | null) => (a !== null && b !== null ? a / b : null);
  const rows = kinds.map(kind => {
    const c = med(ms[kind].cicc), comp = med(ms[kind].compile), hit = med(ms[kind].hit);
    return { kind, ciccMs: c, compileMs: comp, hitMs: hit, compileRatio: ratio(comp, c), hitRatio: ratio(hit, c), samplesMs: ms[kind] };
  });
  console.log([
    `make-bench: ${UNITS} units from test/kernels, make -j${JOBS}, compute_${arch}, ${runs} runs, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), wall ms, median`,
    `units: ${units.map(u => path.basename(u, '.cu')).join(', ')}`,
    '',
    '| nvcc kind | real cicc | ptxd, every unit compiled (warm daemon) | compile/cicc | ptxd, unit cache hits | hit/cicc |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(r => `| -${r.kind} | ${f0(r.ciccMs)} | ${f0(r.compileMs)} | ${f2(r.compileRatio)} | ${f0(r.hitMs)} | ${f2(r.hitRatio)} |`),
    '',
    `PTX of every ptxd -ptx build identical: ${identical ? 'yes' : 'NO'}`,
    ...(['compile', 'hit'] as const).map(k => `${k} daemon: ${daemons[k]?.served ?? '?'} requests, ${daemons[k]?.hits ?? '?'} hits, ` +
      `${daemons[k]?.ciccCalls ?? '?'} through the native client`),
    ...(failures.length ? ['', 'Failures:', ...failures.map(f => `- ${f}`)] : []),
  ].join('\n'));
  writeResults('make-bench', { runs, arch, units: units.map(u => path.basename(u)), jobs: JOBS, rows, identical, failures, daemons });
  fs.rmSync(project, { recursive: true, force: true });
  return failures.length || !identical ? 1 : 0;
}

process.exitCode = main();
