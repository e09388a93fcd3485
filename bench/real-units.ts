// Real-unit benchmark (issue 32): units of the coverage corpus (bench/corpus/manifest.json, C-like and
// ordinary C++ tiers, sources fetched by `npm run corpus:fetch`), each compiled through bin/ptxd-cicc as nvcc
// runs it, against the real cicc on the same captured .cpp1.ii and argv, in the same run:
//   cold: a fresh daemon (stopped before the compile, started by the client), nothing cached;
//   warm: one daemon kept up, the unit compiled for the first time after other units (their preludes are
//         loaded), the unit cache off (PTXD_CACHE=0) so the daemon compiles;
//   cicc: the real cicc process (wall clock).
// Units are picked round-robin over the repositories (shuffled by --seed) and kept when stock nvcc captures
// them and ptxd compiles them (PTXD_FALLBACK=never); the others are listed as skipped with the reason.
// Reports the median, 90th percentile and worst of warm/cicc and cold/cicc; writes bench/results/real-units.json.
// Not part of `npm test` (it runs nvcc on every unit and takes minutes).
//
//   node dist/bench/real-units.js [--units N] [--runs R] [--seed S] [--filter REGEXP] [--timeout SECONDS]
//                                 [--max-tries M]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PTXD_CICC, ciccArgv, ciccOutputs, mkTempDir, prepareUnit, skipReason, type PreparedUnit } from '../test/helpers/tools';
import { median, processRunner, ptxdCli, sandbox, writeResults, type ProcessRunner, type Sandbox } from './common';
import { corpusDir, loadManifest, repoDir, unitId, type CorpusUnit } from './corpus/manifest';
import { rng } from './rng';

export interface RealUnitsArgs { units: number; runs: number; seed: number; filter: RegExp | null; timeoutS: number; maxTries: number }

export function parseRealUnitsArgs(argv: readonly string[]): RealUnitsArgs {
  const a: RealUnitsArgs = { units: 40, runs: 1, seed: 1, filter: null, timeoutS: 600, maxTries: 0 };
  const count = (name: string, v: string, min: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} needs an integer >= ${min}, not '${v}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const opt = argv[i]!;
    const v = (): string => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${opt} needs a value`);
      return x;
    };
    switch (opt) {
      case '--units': a.units = count(opt, v(), 1); break;
      case '--runs': a.runs = count(opt, v(), 1); break;
      case '--seed': a.seed = count(opt, v(), 0); break;
      case '--filter': a.filter = new RegExp(v()); break;
      case '--timeout': a.timeoutS = count(opt, v(), 1); break;
      case '--max-tries': a.maxTries = count(opt, v(), 1); break;
      default: throw new Error(`unknown option ${opt}`);
    }
  }
  if (!a.maxTries) a.maxTries = a.units * 3;
  return a;
}

/** Nearest-rank percentile (p in 0..100) of a non-empty sample. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export interface RatioSummary { median: number; p90: number; worst: number; worstUnit: string }

export function summariseRatios(rows: readonly { unit: string; ratio: number }[]): RatioSummary | null {
  if (!rows.length) return null;
  const worst = rows.reduce((w, r) => (r.ratio > w.ratio ? r : w));
  const xs = rows.map(r => r.ratio);
  return { median: median(xs), p90: percentile(xs, 90), worst: worst.ratio, worstUnit: worst.unit };
}

/** The corpus units in the order they are tried: each repository's units shuffled, then taken in turn. */
export function candidateOrder(units: readonly CorpusUnit[], seed: number): CorpusUnit[] {
  const rand = rng(seed);
  const byRepo = new Map<string, CorpusUnit[]>();
  for (const u of units) {
    let l = byRepo.get(u.repo);
    if (!l) { l = []; byRepo.set(u.repo, l); }
    l.push(u);
  }
  const lists = [...byRepo.keys()].sort().map(r => byRepo.get(r)!);
  for (const l of lists) {
    for (let i = l.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [l[i], l[j]] = [l[j]!, l[i]!];
    }
  }
  const out: CorpusUnit[] = [];
  for (let k = 0; out.length < units.length; k++) for (const l of lists) if (k < l.length) out.push(l[k]!);
  return out;
}

/** The unit's nvcc flags with relative include paths made absolute (the capture runs outside the repository). */
export function absoluteFlags(u: CorpusUnit): string[] {
  const root = repoDir(u.repo);
  const out: string[] = [];
  for (let i = 0; i < u.flags.length; i++) {
    const f = u.flags[i]!;
    if ((f === '-I' || f === '-isystem' || f === '--include-path') && i + 1 < u.flags.length) {
      out.push(f, path.resolve(root, u.flags[++i]!));
    } else if (f.startsWith('-I') && f.length > 2) out.push('-I' + path.resolve(root, f.slice(2)));
    else out.push(f);
  }
  return out;
}

interface Timed { ms: number; ptx: string }

/** One compile by `cmd argv` (the real cicc or the ptxd client); throws with its stderr when it fails. */
async function timeOnce(runner: ProcessRunner | null, cmd: string, argv: string[], env: NodeJS.ProcessEnv, out: string, timeoutS: number): Promise<Timed> {
  const ptx = ciccOutputs(out).ptx;
  fs.rmSync(ptx, { force: true });
  let ms: number, status: number | null, stderr: string;
  if (runner) ({ ms, status, stderr } = await runner.run(cmd, argv));
  else {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, argv, { env, encoding: 'utf8', maxBuffer: 64 << 20, timeout: timeoutS * 1000 });
    ms = Number(process.hrtime.bigint() - t0) / 1e6;
    status = r.status;
    stderr = r.error ? `${r.error.message}` : r.stderr;
  }
  if (status !== 0 || !fs.existsSync(ptx)) throw new Error(`exit ${status}: ${stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`);
  return { ms, ptx: fs.readFileSync(ptx, 'utf8') };
}

interface Row { unit: string; tier: string; iiKB: number; ciccMs: number; coldMs: number; warmMs: number; warmRatio: number; coldRatio: number }

async function main(): Promise<number> {
  const args = parseRealUnitsArgs(process.argv.slice(2));
  const skip = skipReason('nvcc', 'cicc');
  if (skip) { console.error(`real-units: ${skip}`); return 2; }
  const manifest = loadManifest();
  const pool = manifest.units.filter(u => (u.tier === 'C-like' || u.tier === 'C++') && fs.existsSync(path.join(repoDir(u.repo), u.path))
    && (!args.filter || args.filter.test(unitId(u))));
  if (!pool.length) { console.error(`real-units: no corpus unit found under ${corpusDir()} (run \`npm run corpus:fetch\`, or set PTXD_CORPUS_DIR)`); return 2; }
  const arch = Number(manifest.arch.replace(/^sm_/, ''));
  const cold = sandbox('real-units-cold', { PTXD_CACHE: '0' });
  const warm = sandbox('real-units-warm', { PTXD_CACHE: '0' });
  const runner = processRunner();
  const out = mkTempDir('real-units-out');
  const rows: Row[] = [];
  const skipped: { unit: string; reason: string }[] = [];
  const kept: { u: CorpusUnit; p: PreparedUnit; ciccMs: number; coldMs: number; ptx: string }[] = [];
  const stop = (sb: Sandbox): void => { ptxdCli(sb, ['daemon', 'stop']); };
  try {
    // pass 1: capture, the real cicc, and ptxd cold (which also decides whether ptxd compiles the unit)
    for (const u of candidateOrder(pool, args.seed)) {
      if (kept.length >= args.units || kept.length + skipped.length >= args.maxTries) break;
      const id = unitId(u);
      let p: PreparedUnit;
      try {
        p = prepareUnit(path.join(repoDir(u.repo), u.path), arch, { nvccFlags: absoluteFlags(u) });
      } catch (e) { skipped.push({ unit: id, reason: `capture: ${lastLine((e as Error).message)}` }); continue; }
      const argv = ciccArgv(p, out);
      try {
        const cicc: number[] = [], coldMs: number[] = [];
        let ptx = '';
        for (let r = 0; r < args.runs; r++) {
          cicc.push((await timeOnce(runner, p.realCicc, argv, process.env, out, args.timeoutS)).ms);
          stop(cold);
          const c = await timeOnce(null, PTXD_CICC, [p.realCicc, ...argv], cold.env, out, args.timeoutS);
          coldMs.push(c.ms);
          ptx = c.ptx;
        }
        kept.push({ u, p, ciccMs: median(cicc), coldMs: median(coldMs), ptx });
        process.stderr.write(`real-units: ${id}: cicc ${median(cicc).toFixed(0)} ms, cold ${median(coldMs).toFixed(0)} ms\n`);
      } catch (e) {
        skipped.push({ unit: id, reason: `ptxd: ${(e as Error).message}` });
        process.stderr.write(`real-units: ${id}: skipped (${(e as Error).message})\n`);
      }
    }
    stop(cold);
    // pass 2: one warm daemon; each unit is compiled for the first time after the others before it (the first after
    // an untimed compile of the last unit), so what it finds loaded is other units' preludes
    if (kept.length) {
      const first = kept[kept.length - 1]!;
      await timeOnce(null, PTXD_CICC, [first.p.realCicc, ...ciccArgv(first.p, out)], warm.env, out, args.timeoutS);
    }
    for (const k of kept) {
      const argv = ciccArgv(k.p, out);
      const ms: number[] = [];
      let ptx = '';
      for (let r = 0; r < args.runs; r++) {
        const w = await timeOnce(null, PTXD_CICC, [k.p.realCicc, ...argv], warm.env, out, args.timeoutS);
        ms.push(w.ms);
        ptx = w.ptx;
      }
      const id = unitId(k.u);
      if (ptx !== k.ptx) throw new Error(`${id}: the warm daemon's PTX differs from the cold one's`);
      const warmMs = median(ms);
      rows.push({
        unit: id, tier: k.u.tier, iiKB: Math.round(fs.statSync(k.p.ii).size / 1024), ciccMs: round(k.ciccMs), coldMs: round(k.coldMs), warmMs: round(warmMs),
        warmRatio: round(warmMs / k.ciccMs, 3), coldRatio: round(k.coldMs / k.ciccMs, 3),
      });
    }
  } finally {
    stop(warm);
    stop(cold);
    runner.close();
    fs.rmSync(out, { recursive: true, force: true });
  }

  const warmS = summariseRatios(rows.map(r => ({ unit: r.unit, ratio: r.warmRatio })));
  const coldS = summariseRatios(rows.map(r => ({ unit: r.unit, ratio: r.coldRatio })));
  const lines = [`real-units: ${rows.length} units (${skipped.length} skipped), compute_${arch}, ${args.runs} run(s) each, ms`, '',
    '| unit | tier | .ii KB | cicc | cold | warm | cold/cicc | warm/cicc |', '|---|---|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.unit} | ${r.tier} | ${r.iiKB} | ${r.ciccMs} | ${r.coldMs} | ${r.warmMs} | ${r.coldRatio} | ${r.warmRatio} |`);
  const fmt = (s: RatioSummary | null): string => (s ? `median ${s.median.toFixed(3)}, p90 ${s.p90.toFixed(3)}, worst ${s.worst.toFixed(3)} (${s.worstUnit})` : 'none');
  lines.push('', `warm/cicc: ${fmt(warmS)}  (targets: median <= 0.10, p90 <= 0.25, worst <= 1.0)`, `cold/cicc: ${fmt(coldS)}  (target: median <= 0.5)`);
  if (skipped.length) lines.push('', 'skipped:', ...skipped.map(s => `  ${s.unit}: ${s.reason}`));
  console.log(lines.join('\n'));
  writeResults('real-units', { arch, runs: args.runs, seed: args.seed, warm: warmS, cold: coldS, rows, skipped });
  return rows.length ? 0 : 1;
}

const lastLine = (s: string): string => s.trim().split('\n').filter(l => l.trim()).pop()?.slice(0, 300) ?? '';
const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

if (require.main === module) {
  main().then(code => { process.exitCode = code; }, e => { console.error(`real-units: ${(e as Error).stack ?? e}`); process.exitCode = 1; });
}
