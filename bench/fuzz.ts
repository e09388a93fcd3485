// Differential fuzzing of bad input: mutants of real .cpp1.ii files (bench/fuzz-mutate.ts) go through ptxd and
// through the real cicc, and what each would make of them is compared.
//
//   node dist/bench/fuzz.js --mutants N [--seed S] [--jobs N] [--kernels a,b] [--keep DIR] [--json FILE]
//
// --jobs N (default 2) runs N mutants at once, each lane a ptxd worker followed by the real cicc: a 20,000-mutant
// run wants one lane per core.
// ptxd compiles in a child process (bench/fuzz-worker.ts) with a per-mutant timeout (a hang) and a watch on its
// exit (a crash). What the client does follows from the result: PTX (exit 0), errors (exit 1), or unsupported:
// default mode falls back to the real cicc (so its exit code is cicc's by construction, and cicc need not run)
// and PTXD_FALLBACK=never exits 1 without PTX. The real cicc runs on every mutant ptxd compiled
// or rejected. Classes:
//   accepted-rejected: ptxd wrote PTX (in either mode) for a mutant cicc rejects. The one that matters.
//   rejected-accepted: ptxd reported errors for a mutant cicc compiles (default mode will confirm ptxd's errors
//                      with the real cicc, issue 23, which absorbs these).
//   internal: ptxd fell back with "internal error: ..." (a bug of ours, never printed in default mode, but counted).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { KERNELS_DIR, REPO_ROOT, ciccArgv, mkTempDir, prepareUnit, requireTool, tools, unitOptions, type PreparedUnit } from '../test/helpers/tools';
import { mutate, mutationBase, type MutationBase, type MutationKind, type Region } from './fuzz-mutate';
import type { FuzzJob, FuzzReply } from './fuzz-worker';

/** Small programs of different shapes (plain kernels, C++ classes and templates, CUDA headers' helpers). */
export const DEFAULT_KERNELS = ['saxpy', 'control_flow', 'kernel_params', 'reduce_shared', 'cxx_templates', 'cxx_classes', 'cuda_fp16_arith', 'cxx2_crtp'];

export interface FuzzOptions {
  mutants: number;
  seed: number;
  kernels: string[];
  /** ptxd's limit per mutant before it counts as a hang. */
  ptxdTimeoutMs: number;
  ciccTimeoutMs: number;
  /** Mutants in flight at once: ptxd workers, and real cicc runs. */
  jobs: number;
  /** Where to keep the mutants of each disagreement (a few per class), for triage; none when absent. */
  keep?: string;
  log?: (line: string) => void;
  /** Called every 100 mutants with the figures so far (a long run can be stopped and still report). */
  onProgress?: (s: FuzzStats) => void;
}

export interface Disagreement { kernel: string; seed: number; kind: MutationKind; region: Region; what: string; ptxd: string; cicc: string; file?: string }

export interface FuzzStats {
  mutants: number;
  ptxd: { ok: number; errors: number; unsupported: number };
  ciccRuns: number;
  ciccTimeouts: number;
  crashes: Disagreement[];
  hangs: Disagreement[];
  internal: Disagreement[];
  acceptedRejected: Disagreement[];
  rejectedAccepted: Disagreement[];
  /** ptxd's fallbacks by reason, with file names and numbers left out. */
  unsupportedReasons: Record<string, number>;
  /** ptxd's compile time per mutant (in the worker) and the run's wall time. */
  ptxdMs: number;
  wallMs: number;
}

export function defaultFuzzOptions(): FuzzOptions {
  return { mutants: 200, seed: 1, kernels: DEFAULT_KERNELS, ptxdTimeoutMs: 60_000, ciccTimeoutMs: 120_000, jobs: 2 };
}

interface Base { name: string; unit: PreparedUnit; mb: MutationBase }

/** The ptxd worker: one compile at a time; restarted after a crash or a hang. */
class Worker {
  private child: ChildProcess | null = null;
  private waiting: { id: number; resolve: (r: FuzzReply | 'crash' | 'hang') => void; timer: NodeJS.Timeout } | null = null;
  private libdevice: string;
  constructor(private timeoutMs: number) {
    const home = tools().cudaHome;
    this.libdevice = home ? path.join(home, 'nvvm', 'libdevice', 'libdevice.10.bc') : '';
  }
  private start(): ChildProcess {
    const c = fork(path.join(REPO_ROOT, 'dist', 'bench', 'fuzz-worker.js'), [], {
      env: { ...process.env, PTXD_FUZZ_LIBDEVICE: this.libdevice }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    c.stderr!.resume();
    c.on('message', (r: FuzzReply) => {
      const w = this.waiting;
      if (w && w.id === r.id) { clearTimeout(w.timer); this.waiting = null; w.resolve(r); }
    });
    c.on('exit', () => {
      if (this.child === c) this.child = null;
      const w = this.waiting;
      if (w) { clearTimeout(w.timer); this.waiting = null; w.resolve('crash'); }
    });
    return c;
  }
  compile(job: FuzzJob): Promise<FuzzReply | 'crash' | 'hang'> {
    const c = this.child ?? (this.child = this.start());
    return new Promise(resolve => {
      const timer = setTimeout(() => {
        this.waiting = null;
        this.child = null;
        c.kill('SIGKILL');
        resolve('hang');
      }, this.timeoutMs);
      this.waiting = { id: job.id, resolve, timer };
      c.send(job);
    });
  }
  stop(): void { this.child?.kill('SIGKILL'); this.child = null; }
}

/** The real cicc on a mutant: its exit code (null: timed out) and first diagnostic line. */
function runCicc(cicc: string, argv: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; first: string }> {
  return new Promise(resolve => {
    const p = spawn(cicc, argv, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr!.on('data', (d: Buffer) => { if (err.length < 4096) err += d.toString('utf8'); });
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal === 'SIGKILL' ? null : code, first: err.split('\n').find(l => l.trim() !== '') ?? '' });
    });
  });
}

function loadBases(kernels: string[]): Base[] {
  return kernels.map(name => {
    const unit = prepareUnit(path.join(KERNELS_DIR, `${name}.cu`), 90);
    return { name, unit, mb: mutationBase(fs.readFileSync(unit.ii), `${name}.cu`) };
  });
}

export async function runFuzz(o: FuzzOptions): Promise<FuzzStats> {
  const t0 = performance.now();
  const cicc = requireTool('cicc');
  const bases = loadBases(o.kernels);
  const work = mkTempDir('fuzz');
  const stats: FuzzStats = {
    mutants: 0, ptxd: { ok: 0, errors: 0, unsupported: 0 }, ciccRuns: 0, ciccTimeouts: 0,
    crashes: [], hangs: [], internal: [], acceptedRejected: [], rejectedAccepted: [], unsupportedReasons: {}, ptxdMs: 0, wallMs: 0,
  };
  const keep = (d: Disagreement, file: string, list: Disagreement[]): void => {
    list.push(d);
    if (o.keep && list.filter(x => x.kind === d.kind && x.region === d.region).length <= 5) {
      fs.mkdirSync(o.keep, { recursive: true });
      d.file = path.join(o.keep, `${d.kernel}-${d.seed}.cpp1.ii`);
      fs.copyFileSync(file, d.file);
    }
  };
  // `jobs` lanes, each a ptxd worker and then the real cicc on its mutants (k = lane, lane + jobs, ...): the
  // mutants are the same whatever the number of lanes.
  const workers: Worker[] = [];
  const lane = async (j: number): Promise<void> => {
    const worker = new Worker(o.ptxdTimeoutMs);
    workers.push(worker);
    const slot = path.join(work, String(j));
    fs.mkdirSync(slot, { recursive: true });
    for (let k = j; k < o.mutants; k += o.jobs) {
      const base = bases[k % bases.length]!;
      const seed = o.seed * 1_000_003 + k;
      const m = mutate(base.mb, seed);
      const file = path.join(slot, `m${k}.cpp1.ii`);
      fs.writeFileSync(file, m.bytes);
      const d = (ptxd: string, c = ''): Disagreement => ({ kernel: base.name, seed, kind: m.kind, region: m.region, what: m.what, ptxd, cicc: c });
      try {
        const r = await worker.compile({ id: k, file, options: unitOptions(base.unit), base: base.name });
        if (r === 'crash' || r === 'hang') {
          keep(d(r), file, r === 'crash' ? stats.crashes : stats.hangs);
          continue;
        }
        stats.ptxdMs += r.ms;
        stats.ptxd[r.outcome]++;
        if (r.outcome === 'unsupported') {
          stats.unsupportedReasons[reasonKind(r.reason ?? '')] = (stats.unsupportedReasons[reasonKind(r.reason ?? '')] ?? 0) + 1;
          // default mode: the real cicc decides; never mode: exit 1, no PTX
          if (r.reason?.startsWith('internal error')) keep(d(`unsupported: ${r.reason}`), file, stats.internal);
          continue;
        }
        const argv = ciccArgv(base.unit, slot).map(a => (a === base.unit.ii ? file : a));
        const c = await runCicc(cicc, argv, slot, o.ciccTimeoutMs);
        stats.ciccRuns++;
        if (c.code === null) { stats.ciccTimeouts++; continue; }
        const ptxd = r.outcome === 'ok' ? 'ok' : `errors: ${r.firstError ?? ''}`;
        if (r.outcome === 'ok' && c.code !== 0) keep(d(ptxd, c.first), file, stats.acceptedRejected);
        else if (r.outcome === 'errors' && c.code === 0) keep(d(ptxd, 'ok'), file, stats.rejectedAccepted);
      } finally {
        fs.rmSync(file, { force: true });
        if (++stats.mutants % 100 === 0) {
          stats.wallMs = performance.now() - t0;
          o.log?.(progress(stats, stats.wallMs));
          o.onProgress?.(stats);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.jobs, o.mutants)) }, (_, j) => lane(j)));
  } finally {
    for (const w of workers) w.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  stats.wallMs = performance.now() - t0;
  return stats;
}

/** A fallback reason without the parts that differ from mutant to mutant (paths, line numbers, quoted tokens). */
function reasonKind(reason: string): string {
  return reason.replace(/ at \S+$/, '').replace(/ from \S+:\d+$/, ' from <file>:<line>').replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 80);
}

function progress(s: FuzzStats, ms: number): string {
  return `${s.mutants} mutants in ${(ms / 1000).toFixed(0)} s: ptxd ok ${s.ptxd.ok}, errors ${s.ptxd.errors}, unsupported ${s.ptxd.unsupported}; `
    + `accepted-rejected ${s.acceptedRejected.length}, rejected-accepted ${s.rejectedAccepted.length}, internal ${s.internal.length}, crashes ${s.crashes.length}, hangs ${s.hangs.length}`;
}

/** Counts of a class of disagreements by mutation kind and region (`delete/user: 3`). */
export function byKind(list: Disagreement[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of list) out[`${d.kind}/${d.region}`] = (out[`${d.kind}/${d.region}`] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort());
}

export function summary(s: FuzzStats): string {
  const lines = [
    progress(s, s.wallMs),
    `cicc runs ${s.ciccRuns} (timeouts ${s.ciccTimeouts}); ptxd compile time ${(s.ptxdMs / 1000).toFixed(1)} s`,
    `accepted-rejected by kind: ${JSON.stringify(byKind(s.acceptedRejected))}`,
    `rejected-accepted by kind: ${JSON.stringify(byKind(s.rejectedAccepted))}`,
    `ptxd fallbacks by reason: ${JSON.stringify(s.unsupportedReasons)}`,
  ];
  for (const [name, list] of [['accepted-rejected', s.acceptedRejected], ['internal', s.internal], ['crash', s.crashes], ['hang', s.hangs]] as const) {
    for (const d of list.slice(0, 30)) lines.push(`  ${name}: ${d.kernel} seed ${d.seed} ${d.kind}/${d.region} ${d.what} | ptxd ${d.ptxd} | cicc ${d.cicc}${d.file ? ` | ${d.file}` : ''}`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const o = defaultFuzzOptions();
  let json: string | undefined;
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--mutants') o.mutants = Number(argv[++i]);
    else if (a === '--seed') o.seed = Number(argv[++i]);
    else if (a === '--kernels') o.kernels = argv[++i]!.split(',');
    else if (a === '--keep') o.keep = argv[++i];
    else if (a === '--jobs') o.jobs = Number(argv[++i]);
    else if (a === '--json') json = argv[++i];
    else { process.stderr.write(`fuzz: unknown argument ${a}\nusage: node dist/bench/fuzz.js --mutants N [--seed S] [--jobs N] [--kernels a,b] [--keep DIR] [--json FILE]\n`); return 2; }
  }
  o.log = line => process.stderr.write(`${line}\n`);
  if (json) o.onProgress = s => fs.writeFileSync(json!, JSON.stringify(s, null, 1));
  const s = await runFuzz(o);
  process.stdout.write(`${summary(s)}\n`);
  if (json) fs.writeFileSync(json, JSON.stringify(s, null, 1));
  return s.crashes.length + s.hangs.length + s.internal.length > 0 ? 1 : 0;
}

if (require.main === module) main().then(c => { process.exitCode = c; }, e => { process.stderr.write(`fuzz: ${e instanceof Error ? e.stack : String(e)}\n`); process.exitCode = 2; });
