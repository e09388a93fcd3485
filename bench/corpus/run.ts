// npm run corpus: builds every unit of the coverage corpus (bench/corpus/manifest.json, sources fetched by
// `npm run corpus:fetch`) with `nvcc -c -keep` twice: with the real cicc (the reference, cached by content in
// <corpus>/ref so that a rerun pays only ptxd) and through bin/ptxd-cicc with PTXD_FALLBACK=never and a private
// daemon with no cache. -keep leaves the PTX nvcc would write with -ptx, so one build gives both the object
// (ptxas and the host compile of the stub ran) and the PTX whose symbols are compared with cicc's.
// Writes bench/results/corpus.json and prints the tables by tier and by reason.
//
//   node dist/bench/corpus/run.js [--sample N] [--seed S] [--jobs J] [--filter REGEXP] [--timeout SECONDS]
//                                 [--tier TIER] [--results NAME] [--stock-only] [--prune]
// --tier TIER keeps only the units of that tier (C-like, C++ or library-heavy; repeatable).
// --results NAME writes bench/results/NAME.json (default corpus).
// --stock-only builds only the references; --prune then removes from the manifest the units stock nvcc fails on.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { PTXD_CICC, REPO_ROOT } from '../../test/helpers/tools';
import { ptxdCli, sandbox, writeResults, type Sandbox } from '../common';
import { corpusDir, loadManifest, MANIFEST_FILE, repoDir, unitId, type CorpusUnit, type Manifest } from './manifest';
import { classify, formatTables, mulberry32, ptxSymbols, reasonGroup, stratifiedSample, summarise, type NvccRun, type UnitResult } from './classify';

interface Args { results: string; sample: number | null; seed: number; jobs: number; filter: RegExp | null; tiers: string[]; timeoutS: number; stockOnly: boolean; prune: boolean }

function parseArgs(argv: string[]): Args {
  const a: Args = { results: 'corpus', sample: null, seed: 1, jobs: 2, filter: null, tiers: [], timeoutS: 900, stockOnly: false, prune: false };
  for (let i = 0; i < argv.length; i++) {
    const v = (): string => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return x;
    };
    switch (argv[i]) {
      case '--sample': a.sample = Number(v()); break;
      case '--results': a.results = v(); break;
      case '--seed': a.seed = Number(v()); break;
      case '--jobs': a.jobs = Math.max(1, Number(v())); break;
      case '--filter': a.filter = new RegExp(v()); break;
      case '--tier': a.tiers.push(v()); break;
      case '--timeout': a.timeoutS = Number(v()); break;
      case '--stock-only': a.stockOnly = true; break;
      case '--prune': a.prune = true; break;
      default: throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return a;
}

// Interrupted (SIGINT/SIGTERM): no new unit starts, the builds under way are killed and left out, and what
// is done is written as usual (marked interrupted).
let stopping = false;
const active = new Set<number>();
function interrupt(): void {
  stopping = true;
  for (const pid of active) { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } }
}

/** nvcc -c -keep for one unit in its repository; the symbols of the PTX it kept. */
function nvcc(u: CorpusUnit, arch: string, env: NodeJS.ProcessEnv, extra: string[], timeoutS: number): Promise<NvccRun> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-unit-'));
  const argv = ['-c', `-arch=${arch}`, '-keep', '-keep-dir', tmp, ...extra, ...u.flags, u.path, '-o', path.join(tmp, 'unit.o')];
  const t0 = Date.now();
  return new Promise(resolve => {
    const child = spawn('nvcc', argv, { cwd: repoDir(u.repo), env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '', killed = false;
    active.add(child.pid!);
    child.stderr.on('data', (d: Buffer) => { if (stderr.length < 1 << 20) stderr += d.toString('utf8'); });
    // nvcc runs its stages as children: the whole process group goes at the time limit.
    const timer = setTimeout(() => { killed = true; try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, timeoutS * 1000);
    child.on('close', status => {
      clearTimeout(timer);
      active.delete(child.pid!);
      let symbols: string[] | null = null;
      const ptx = fs.readdirSync(tmp).filter(f => f.endsWith('.ptx'));
      if (ptx.length) symbols = ptx.flatMap(f => ptxSymbols(fs.readFileSync(path.join(tmp, f), 'utf8'))).sort();
      fs.rmSync(tmp, { recursive: true, force: true });
      resolve({ status: killed ? null : status, stderr: stderr.slice(-8000), symbols, ms: Date.now() - t0 });
    });
  });
}

/** The reference build of a unit, from the cache when its key (toolkit, commit, path, flags, arch) was built. */
async function reference(m: Manifest, u: CorpusUnit, nvccVersion: string, timeoutS: number): Promise<NvccRun & { cached: boolean }> {
  const key = createHash('sha256').update(JSON.stringify([nvccVersion, m.repos[u.repo]!.commit, u.path, u.flags, m.arch])).digest('hex');
  const file = path.join(corpusDir(), 'ref', key.slice(0, 2), `${key}.json`);
  if (fs.existsSync(file)) return { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as NvccRun), cached: true };
  const env = { ...process.env };
  for (const k of ['NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS']) delete env[k];
  const r = await nvcc(u, m.arch, env, [], timeoutS);
  if (r.status !== null) { // a timeout may be the machine's load: not cached
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(r));
    fs.renameSync(`${file}.tmp`, file);
  }
  return { ...r, cached: false };
}

async function pool<T>(items: readonly T[], jobs: number, work: (x: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => { while (next < items.length && !stopping) { const i = next++; await work(items[i]!, i); } };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
}

function startDaemon(): Sandbox {
  const sb = sandbox('corpus', { PTXD_CACHE: '0', PTXD_FALLBACK: 'never' });
  const r = ptxdCli(sb, ['daemon', 'start']);
  if (r.status !== 0) throw new Error(`ptxd daemon start failed: ${r.stderr}`);
  return sb;
}

/** Removes from the manifest the units whose reference build failed, counting them by reason in `dropped`. */
function prune(m: Manifest, failed: Map<string, string>): void {
  m.units = m.units.filter(u => !failed.has(unitId(u)));
  for (const reason of failed.values()) {
    const g = `stock nvcc -c fails: ${reasonGroup(reason)}`;
    m.dropped[g] = (m.dropped[g] ?? 0) + 1;
  }
  fs.writeFileSync(`${MANIFEST_FILE}.tmp`, JSON.stringify(m, null, 1) + '\n');
  fs.renameSync(`${MANIFEST_FILE}.tmp`, MANIFEST_FILE);
  process.stdout.write(`corpus: dropped ${failed.size} units stock nvcc fails on; ${m.units.length} remain\n`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const m = loadManifest();
  const missing = Object.keys(m.repos).filter(r => !fs.existsSync(path.join(repoDir(r), '.corpus-commit')));
  if (missing.length) throw new Error(`sources missing for ${missing.join(', ')} in ${corpusDir()}/src: run npm run corpus:fetch`);
  let units = m.units.filter(u => (!args.filter || args.filter.test(unitId(u))) && (!args.tiers.length || args.tiers.includes(u.tier)));
  if (args.sample !== null) units = stratifiedSample(units, args.sample, args.seed);
  // Built in a seeded random order, so that the part of an interrupted run is a fair sample of the whole.
  const rand = mulberry32(args.seed);
  units = units.map(u => ({ u, k: rand() })).sort((a, b) => a.k - b.k).map(x => x.u);
  const nvccVersion = spawnSync('nvcc', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const sb = args.stockOnly ? null : startDaemon();
  const results: (UnitResult & { stockCached: boolean; ptxdStderr?: string })[] = [];
  const stockFailed = new Map<string, string>();
  const t0 = Date.now();
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    await pool(units, args.jobs, async (u, i) => {
      const stock = await reference(m, u, nvccVersion, args.timeoutS);
      if (stopping) return;
      if (stock.status !== 0) stockFailed.set(unitId(u), stock.status === null ? 'timeout' : classify(stock, stock).reason ?? '');
      let line: string;
      if (sb) {
        const ptxd = stock.status === 0
          ? await nvcc(u, m.arch, { ...sb.env, PTXD_FALLBACK: 'never' }, [`--cicc-prefix=${PTXD_CICC}`], args.timeoutS)
          : { status: 1, stderr: '', symbols: null, ms: 0 };
        if (stopping) return;
        const v = classify(stock, ptxd);
        results.push({ id: unitId(u), tier: u.tier, ...v, stockMs: stock.ms, ptxdMs: ptxd.ms, stockCached: stock.cached,
          ...(v.outcome === 'compiled' || v.outcome === 'stock-fails' ? {} : { ptxdStderr: ptxd.stderr.slice(-2000) }) });
        line = `${v.outcome}${v.reason ? `: ${v.reason.slice(0, 120)}` : ''}`;
      } else {
        line = stock.status === 0 ? 'stock ok' : `stock fails: ${stockFailed.get(unitId(u))!.slice(0, 120)}`;
      }
      process.stderr.write(`[${i + 1}/${units.length}] ${unitId(u)} (${u.tier}, stock ${stock.cached ? 'cached' : `${(stock.ms / 1000).toFixed(1)} s`}): ${line}\n`);
    });
  } finally {
    if (sb) ptxdCli(sb, ['daemon', 'stop']);
  }
  const elapsedS = Math.round((Date.now() - t0) / 1000);
  if (args.prune && !stopping) prune(m, stockFailed);
  if (!sb) return;
  results.sort((a, b) => a.id.localeCompare(b.id));
  const summary = summarise(results);
  writeResults(args.results, {
    arch: m.arch, nvcc: nvccVersion.split('\n').pop(), repos: m.repos, manifestUnits: m.units.length, units: results.length,
    sample: args.sample, seed: args.seed, jobs: args.jobs, filter: args.filter?.source ?? null, tiers: args.tiers, elapsedS, interrupted: stopping,
    summary, results,
  });
  process.stdout.write(`corpus: ${results.length} units${stopping ? ' (interrupted)' : ''} in ${elapsedS} s (jobs ${args.jobs}); bench/results/${args.results}.json\n\n${formatTables(summary)}`);
}

main().catch(err => { process.stderr.write(`corpus: ${(err as Error).message}\n`); process.exit(1); });
