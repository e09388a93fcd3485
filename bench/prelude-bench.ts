// Prelude benchmark: in-process compileUnit() cold (no cache) against warm (a PreludeCache holding the
// headers' prefix), and both against the real cicc process on the same .cpp1.ii, in the same run.
//
// - cold: compileUnit(src, opts), a fresh lex and skim of the whole unit (the process is already warm:
//   this is the daemon's cost without prelude reuse, not a cold node start).
// - warm (other unit): a fresh PreludeCache warmed, untimed, by prelude_empty.cu (another unit that
//   only includes cuda_runtime.h), then the unit compiled through it: what a daemon that has seen any
//   CUDA unit pays.
// - warm (same unit): the cache warmed by the unit itself (a recompile after an edit near the end).
// - cicc: the real cicc with nvcc's argv, as a process (wall clock).
// Medians of --runs runs (default 7). The target from issue 7: warm / cicc <= 0.25.
//
// Usage: node dist/bench/prelude-bench.js [--runs N] [--arch 90] [--only name,name]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileUnit } from '../compiler/compile';
import { PreludeCache } from '../compiler/frontend/prelude';
import { parseCiccArgs } from '../cicc/args';
import type { CompileOptions } from '../compiler/options';
import {
  KERNELS_DIR, ciccArgv, ciccOutputs, mkTempDir, prepareUnit, skipReason, type PreparedUnit,
} from '../test/helpers/tools';
import { median, parseBenchArgs, writeResults } from './common';

const INPUTS = ['saxpy.cu', 'prelude_empty.cu', 'prelude_std.cu', 'matmul_tiled.cu', 'bitonic_sort.cu', 'atomics_unsigned.cu', 'printf.cu', 'reduce_shared.cu'];
const WARMER = 'prelude_empty.cu';

function optionsFor(u: PreparedUnit): CompileOptions {
  const o = parseCiccArgs(ciccArgv(u, os.tmpdir())).options;
  if (!o.moduleId) o.moduleId = u.moduleId;
  return o;
}

/** ms of one compileUnit; throws when the compile fails, so a failure is never timed as ours. */
function timeCompile(src: string, opts: CompileOptions, cache?: PreludeCache): { ms: number; lexSkim: number; ptx: string } {
  const t0 = performance.now();
  const r = compileUnit(src, opts, cache ? { prelude: cache } : undefined);
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`compile failed: ${r.unsupported ?? r.diagnostics.map(d => d.message).join('; ')}`);
  return { ms, lexSkim: r.times.lex + r.times.skim, ptx: r.ptx };
}

function timeCicc(u: PreparedUnit, runs: number): number[] {
  const out = mkTempDir('prelude-bench-cicc');
  const argv = ciccArgv(u, out);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(u.realCicc, argv, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 0 || !fs.existsSync(ciccOutputs(out).ptx)) throw new Error(`real cicc failed on ${u.ii}: ${r.stderr}`);
  }
  fs.rmSync(out, { recursive: true, force: true });
  return ms;
}

interface Row {
  input: string; iiKB: number; reusedKB: number;
  coldMs: number; warmOtherMs: number; warmSameMs: number; ciccMs: number;
  coldLexSkimMs: number; warmLexSkimMs: number;
}

function main(): number {
  const { runs, arch, only } = parseBenchArgs(process.argv.slice(2), 7);
  const skip = skipReason('nvcc', 'cicc');
  if (skip) { console.error(`prelude-bench: ${skip}`); return 2; }
  const warmer = prepareUnit(path.join(KERNELS_DIR, WARMER), arch);
  const warmerSrc = fs.readFileSync(warmer.ii, 'utf8');
  const warmerOpts = optionsFor(warmer);
  // JIT warm-up: the daemon is a long-lived process.
  for (let i = 0; i < 3; i++) timeCompile(warmerSrc, warmerOpts);

  const rows: Row[] = [];
  for (const input of INPUTS.filter(i => !only || only.includes(i.replace(/\.cu$/, '')) || only.includes(i))) {
    const u = prepareUnit(path.join(KERNELS_DIR, input), arch);
    const src = fs.readFileSync(u.ii, 'utf8');
    const opts = optionsFor(u);
    const cold: number[] = [], coldLs: number[] = [], other: number[] = [], otherLs: number[] = [], same: number[] = [];
    let reused = 0;
    const ref = timeCompile(src, opts).ptx;
    const sameCache = new PreludeCache();
    timeCompile(src, opts, sameCache);
    for (let i = 0; i < runs; i++) {
      const c = timeCompile(src, opts);
      cold.push(c.ms); coldLs.push(c.lexSkim);
      const cache = new PreludeCache();
      timeCompile(warmerSrc, warmerOpts, cache);
      const before = cache.stats().reusedChars;
      const w = timeCompile(src, opts, cache);
      reused = cache.stats().reusedChars - before;
      other.push(w.ms); otherLs.push(w.lexSkim);
      const s = timeCompile(src, opts, sameCache);
      same.push(s.ms);
      if (w.ptx !== ref || s.ptx !== ref) throw new Error(`${input}: warm PTX differs from cold PTX`);
    }
    const cicc = timeCicc(u, runs);
    rows.push({
      input, iiKB: src.length / 1024, reusedKB: reused / 1024,
      coldMs: median(cold), warmOtherMs: median(other), warmSameMs: median(same), ciccMs: median(cicc),
      coldLexSkimMs: median(coldLs), warmLexSkimMs: median(otherLs),
    });
    process.stderr.write(`prelude-bench: ${input} done\n`);
  }

  const f = (x: number) => x.toFixed(1);
  const r2 = (x: number) => x.toFixed(2);
  const lines = [
    `prelude-bench: ${runs} runs each, compute_${arch}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), medians, ms`,
    `warm = PreludeCache warmed by ${WARMER}; same = warmed by the unit itself; lex+skim = those phases only`,
    '',
    '| input | .ii KB | reused KB | cicc | cold | warm | same | cold lex+skim | warm lex+skim | cold/cicc | warm/cicc | same/cicc | warm/cold |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.input} | ${r.iiKB.toFixed(0)} | ${r.reusedKB.toFixed(0)} | ${f(r.ciccMs)} | ${f(r.coldMs)} | ${f(r.warmOtherMs)} | ${f(r.warmSameMs)} | ${f(r.coldLexSkimMs)} | ${f(r.warmLexSkimMs)} | ${r2(r.coldMs / r.ciccMs)} | ${r2(r.warmOtherMs / r.ciccMs)} | ${r2(r.warmSameMs / r.ciccMs)} | ${r2(r.warmOtherMs / r.coldMs)} |`);
  }
  const geo = (k: (r: Row) => number) => Math.exp(rows.reduce((a, r) => a + Math.log(k(r)), 0) / rows.length);
  lines.push('', `geometric mean: cold/cicc ${r2(geo(r => r.coldMs / r.ciccMs))}, warm/cicc ${r2(geo(r => r.warmOtherMs / r.ciccMs))} (target <= 0.25), same/cicc ${r2(geo(r => r.warmSameMs / r.ciccMs))}`);
  console.log(lines.join('\n'));

  writeResults('prelude-bench', { runs, arch, rows });
  return 0;
}

process.exitCode = main();
