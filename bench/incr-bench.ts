// One-function edit benchmark: a unit with 20 kernels (each with its own inlined helper) as the real nvcc
// hands it to cicc. In the same run, medians of:
//   full  - a warm whole-unit compile in-process of the unit after an edit (prelude cached, no piece store):
//           what an edit costs without per-root caching;
//   edit  - the same unit after editing one kernel's body (a new constant each run, so exactly one kernel is
//           recompiled), through a warm piece store (compiler/incremental/);
//   first - the first edit after a clean build: a fresh piece store, the unit's first compile (whole, as a fresh
//           build compiles it), the daemon's compile of its kernels while idle (daemon/scheduler/seed.ts; timed
//           apart as `seed`: idle time, not an edit's), then the edit of one kernel;
//   first0 - the same first edit without that seeding (how the first edit went before it: every kernel compiled);
//   cicc  - the real cicc on the unchanged unit (a process per run, as nvcc runs it, started from a child process:
//           processRunner() in common.ts says why).
// The reported figure is the median of each round's edit / full (each round times its full compile and its edit
// back to back, so a slow stretch of the machine hits both); the ratio of the medians is printed after it. On Linux
// it also prints the same per-round medians of the time the main thread spent on a CPU, which a loaded machine
// distorts less than wall time, and the time V8's collector paused each timed compile (GC work that an earlier
// compile's garbage left, mostly the whole compile's: the edit pays it in wall time).
// Each timed compile runs in an event-loop turn of its own, as the daemon serves each request: V8 runs the
// young-generation collections it schedules as tasks between turns (in one synchronous loop they would fall into
// whichever compile comes next, mostly an edit after a full compile's garbage).
// Every edited compile is checked against a clean compile of the same text (byte-identical PTX), after the
// timed runs; a difference fails the benchmark. Prints a Markdown table and writes bench/results/incr-bench.json.
//
// Two variants of the unit: plain, and built with -lineinfo -rdc=true (CMake's RelWithDebInfo with separable
// compilation), each measured as above in its own rounds.
//
// Usage: node dist/bench/incr-bench.js [--runs N (default 21: the median of fewer moves with the machine)] [--arch 90]
//        [--only plain,lineinfo-rdc]

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { compileUnit, type CompileResult } from '../compiler/compile';
import { PreludeCache } from '../compiler/frontend/prelude';
import { MemoryPieceStore } from '../compiler/incremental/store';
import { ciccArgv, ciccOutputs, libdeviceBytes, mkTempDir, prepareUnit, skipReason, unitOptions } from '../test/helpers/tools';
import { median, multiKernelSource, parseBenchArgs, processRunner, writeResults } from './common';

const KERNELS = 20;


/**
 * The unit with kernel k's final constant changed to a value no earlier run used. As one flat string, as a
 * compile gets a unit read from its file (replace() makes a rope, which the first read of the text flattens).
 */
function edited(ii: string, k: number, run: number): string {
  const from = `sh[0] * ${k}.5f`;
  if (!ii.includes(from)) throw new Error(`incr-bench: ${from} not in the unit`);
  return Buffer.from(ii.replace(from, `sh[0] * ${k}.${run + 1}25f`), 'utf8').toString('utf8');
}

/**
 * The main thread's time on a CPU so far, in ms (Linux: its scheduler statistics), or null. On a machine shared
 * with other work, wall time also counts the time the thread waited for a CPU; this does not. The kernel updates
 * it at scheduler ticks, so one sample is coarse, but the mean over many is not biased.
 */
function onCpuMs(): number | null {
  try { return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6; } catch { return null; }
}

/** The collector's pauses (start and duration, ms on performance.now()'s clock), as V8 reports them. */
const gcPauses: [number, number][] = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) gcPauses.push([e.startTime, e.duration]); }).observe({ entryTypes: ['gc'] });

/** Windows of timed compiles: [from, to, the list their GC pause time goes to once the entries have arrived, index]. */
const windows: [number, number, number[], number][] = [];

/** Wall time of f, and its main-thread time on a CPU pushed to `cpu` (when known); the GC pauses inside it go to `gc` (gcSettle()). */
function timeMs(f: () => void, cpu: number[], gc?: number[]): number {
  const c0 = onCpuMs();
  const p0 = performance.now();
  const t0 = process.hrtime.bigint();
  f();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const c1 = onCpuMs();
  if (c0 !== null && c1 !== null) cpu.push(c1 - c0);
  if (gc) { windows.push([p0, performance.now(), gc, gc.length]); gc.push(0); }
  return wall;
}

/** Adds each GC pause to the timed compile it fell in (the observer's entries arrive after the compile). */
async function gcSettle(): Promise<void> {
  await new Promise(resolve => setTimeout(resolve, 50));
  for (const [from, to, list, at] of windows) for (const [t, d] of gcPauses) if (t >= from && t <= to) list[at]! += d;
  windows.length = 0;
  gcPauses.length = 0;
}

/** The next event-loop turn (after the tasks already queued, V8's included). */
const turn = (): Promise<void> => new Promise(resolve => setImmediate(resolve));

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The unit as nvcc builds it: plainly, and as CMake's RelWithDebInfo with separable compilation builds it. */
const VARIANTS: { name: string; label: string; flags: string[] }[] = [
  { name: 'plain', label: '', flags: [] },
  { name: 'lineinfo-rdc', label: ' -lineinfo -rdc=true', flags: ['-lineinfo', '-rdc=true'] },
];

/** A variant's samples (ms): in-process compiles, their phases, the real cicc, and main-thread CPU times. */
interface Samples {
  full: number[]; edit: number[]; cicc: number[]; first: number[]; first0: number[]; seed: number[];
  fullCpu: number[]; editCpu: number[]; firstCpu: number[]; fullGc: number[]; editGc: number[]; phases: CompileResult['times'][];
}

/** Times one variant's compiles (see the file comment); a number is an exit code (the reason printed). */
async function measure(flags: string[], arch: number, runs: number, libdevice: Uint8Array | undefined): Promise<Samples | number> {
  const dir = path.join(os.tmpdir(), `ptxd-incr-bench-${process.getuid?.() ?? 'u'}`);
  fs.mkdirSync(dir, { recursive: true });
  const cu = path.join(dir, 'u20.cu');
  fs.writeFileSync(cu, multiKernelSource(KERNELS));
  const u = prepareUnit(cu, arch, { nvccFlags: flags });
  const ii = fs.readFileSync(u.ii, 'utf8');
  const opts = unitOptions(u);

  // warm-up: the prelude cache, libdevice, the JIT, and the piece store for the unedited unit
  const prelude = new PreludeCache();
  const store = new MemoryPieceStore();
  const ref = compileUnit(ii, opts, { libdevice, prelude });
  if (!ref.ok) { console.error(`incr-bench: the unit does not compile: ${ref.unsupported ?? JSON.stringify(ref.diagnostics)}`); return 1; }
  compileUnit(ii, opts, { libdevice, prelude, pieces: store });   // the first compile of a file is whole
  compileUnit(ii, opts, { libdevice, prelude, pieces: store });   // then every kernel is compiled and stored
  for (let i = 0; i < 2; i++) compileUnit(ii, opts, { libdevice, prelude });

  const m: Samples = { full: [], edit: [], cicc: [], first: [], first0: [], seed: [], fullCpu: [], editCpu: [], firstCpu: [], fullGc: [], editGc: [], phases: [] };
  const unused: number[] = [];
  // edited texts and their incremental PTX, checked against clean compiles after the timed runs (a cold compile
  // in between would leave garbage that the next timed compiles collect)
  const checks: [string, string][] = [];
  const out = mkTempDir('incr-bench-cicc');
  const argv = ciccArgv(u, out);
  const runner = processRunner();
  try {
    for (let r = 0; r < runs; r++) {
      // interleaved, so that load on the machine hits all three alike
      // the same kind of edit for both: a text neither the prelude cache nor the piece store has seen
      const other = edited(ii, (r * 7 + 3) % KERNELS, r + 1000);
      const text = edited(ii, (r * 7) % KERNELS, r);
      await turn();
      m.full.push(timeMs(() => { compileUnit(other, opts, { libdevice, prelude }); }, m.fullCpu, m.fullGc));
      await turn();
      let res: CompileResult | undefined;
      m.edit.push(timeMs(() => { res = compileUnit(text, opts, { libdevice, prelude, pieces: store }); }, m.editCpu, m.editGc));
      await turn();
      if (!res!.functions || res!.functions.compiled.length !== 1) { console.error(`incr-bench: expected one kernel recompiled, got ${JSON.stringify(res!.functions ?? res!.incremental)}`); return 1; }
      checks.push([text, res!.ptx]);
      m.phases.push(res!.times);
      // the first edit after a clean build, seeded and not (each on a store of its own)
      for (const seeded of [true, false]) {
        const fresh = new MemoryPieceStore();
        compileUnit(ii, opts, { libdevice, prelude, pieces: fresh });   // the clean build: whole
        await turn();
        if (seeded) m.seed.push(timeMs(() => { compileUnit(ii, opts, { libdevice, prelude, pieces: fresh }); }, unused));
        await turn();
        let fr: CompileResult | undefined;
        (seeded ? m.first : m.first0).push(timeMs(() => { fr = compileUnit(text, opts, { libdevice, prelude, pieces: fresh }); }, seeded ? m.firstCpu : unused));
        await turn();
        const want = seeded ? 1 : KERNELS;
        if (fr!.functions?.compiled.length !== want) { console.error(`incr-bench: first edit${seeded ? '' : ' unseeded'}: expected ${want} kernels compiled, got ${JSON.stringify(fr!.functions)}`); return 1; }
        checks.push([text, fr!.ptx]);
      }
      fs.rmSync(ciccOutputs(out).ptx, { force: true });
      const c = await runner.run(u.realCicc, argv);
      m.cicc.push(c.ms);
      if (c.status !== 0) { console.error(`incr-bench: the real cicc failed: ${c.stderr}`); return 1; }
    }
  } finally { runner.close(); }
  await gcSettle();
  fs.rmSync(out, { recursive: true, force: true });
  for (const [text, ptx] of checks) {
    if (ptx !== compileUnit(text, opts, { libdevice }).ptx) { console.error('incr-bench: incremental PTX differs from a clean compile'); return 1; }
  }
  return m;
}

/** Prints a variant's table and returns what the results file records of it. */
function report(label: string, arch: number, runs: number, m: Samples): Record<string, unknown> {
  const { full, edit, cicc, first, first0, seed, fullCpu, editCpu, firstCpu, fullGc, editGc, phases } = m;
  const mf = median(full), me = median(edit), mc = median(cicc);
  const m1 = median(first), m0 = median(first0), ms = median(seed);
  // each round times its full compile and its edit back to back: the median of their ratios does not mix a
  // fast stretch of the machine's with a slow one, as a ratio of medians over the whole run can
  const paired = median(edit.map((e, r) => e / full[r]!));
  const firstPaired = median(first.map((e, r) => e / full[r]!));
  const phaseMedian = Object.fromEntries(Object.keys(phases[0]!).map(k => [k, +median(phases.map(p => (p as unknown as Record<string, number>)[k] ?? 0)).toFixed(2)]));
  const f1 = (x: number) => x.toFixed(1);
  const spread = (xs: number[]) => `${f1(Math.min(...xs))}–${f1(Math.max(...xs))}`;
  const cpu = editCpu.length === runs && fullCpu.length === runs && firstCpu.length === runs;
  const cpuPaired = cpu ? median(editCpu.map((e, r) => e / fullCpu[r]!)) : NaN;
  const cpuFirstPaired = cpu ? median(firstCpu.map((e, r) => e / fullCpu[r]!)) : NaN;
  const f3 = (x: number) => x.toFixed(3);
  const target = (x: number) => (x <= 0.1 ? 'meets <= 0.10' : 'target <= 0.10');
  console.log([
    `incr-bench: ${KERNELS}-kernel unit${label}, compute_${arch}, ${runs} runs, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), wall ms, load ${os.loadavg()[0]!.toFixed(1)}`,
    '',
    '| measure | median ms | min–max |',
    '|---|---:|---:|',
    `| full warm compile after an edit (in-process, prelude cached) | ${f1(mf)} | ${spread(full)} |`,
    `| one-kernel edit (in-process, piece store warm) | ${f1(me)} | ${spread(edit)} |`,
    `| first edit after a clean build, seeded while idle | ${f1(m1)} | ${spread(first)} |`,
    `| first edit after a clean build, not seeded (before) | ${f1(m0)} | ${spread(first0)} |`,
    `| the idle seeding compile (off the edit's path) | ${f1(ms)} | ${spread(seed)} |`,
    `| real cicc, whole unit (process) | ${f1(mc)} | ${spread(cicc)} |`,
    '',
    `edit / full, median of each round's ratio = ${f3(paired)} (${target(paired)}); ratio of the medians = ${f3(me / mf)}; edit / cicc = ${f3(me / mc)}; full / cicc = ${f3(mf / mc)}`,
    `first edit / full, median of each round's ratio = ${f3(firstPaired)} (${target(firstPaired)}); ratio of the medians = ${f3(m1 / mf)}; unseeded first edit / full = ${f3(m0 / mf)}; seeding / full = ${f3(ms / mf)}`,
    `edit phases (median ms): ${JSON.stringify(phaseMedian)}`,
    ...(cpu ? [`main thread on a CPU (not counting waits for a CPU), median of each round's ratio: edit / full = ${f3(cpuPaired)}, first edit / full = ${f3(cpuFirstPaired)}; means: edit ${mean(editCpu).toFixed(2)} ms, full ${mean(fullCpu).toFixed(2)} ms`] : []),
    `GC pauses inside the timed compiles (median ms): edit ${median(editGc).toFixed(2)}, full ${median(fullGc).toFixed(2)}; edit minus its GC pauses / full, per round = ${f3(median(edit.map((e, r) => (e - editGc[r]!) / full[r]!)))}`,
    '',
  ].join('\n'));
  return {
    medianMs: { full: mf, edit: me, cicc: mc, firstEdit: m1, firstEditUnseeded: m0, seed: ms },
    reported: { editOverFullPerRound: paired, firstEditOverFullPerRound: firstPaired, ...(cpu ? { onCpuEditOverFullPerRound: cpuPaired, onCpuFirstEditOverFullPerRound: cpuFirstPaired } : {}) },
    ratios: { editOverFull: me / mf, editOverFullPerRound: paired, editOverCicc: me / mc, fullOverCicc: mf / mc, firstEditOverFull: m1 / mf, firstEditOverFullPerRound: firstPaired, firstEditUnseededOverFull: m0 / mf, seedOverFull: ms / mf },
    samplesMs: { full, edit, cicc, firstEdit: first, firstEditUnseeded: first0, seed }, editPhasesMedianMs: phaseMedian,
    gcPauseSamplesMs: { full: fullGc, edit: editGc },
    ...(cpu ? { onCpuMeanMs: { full: mean(fullCpu), edit: mean(editCpu), firstEdit: mean(firstCpu) }, onCpuEditOverFull: mean(editCpu) / mean(fullCpu), onCpuSamplesMs: { full: fullCpu, edit: editCpu, firstEdit: firstCpu } } : {}),
  };
}

async function main(): Promise<number> {
  const { runs, arch, only } = parseBenchArgs(process.argv.slice(2), 21);
  const skip = skipReason('nvcc', 'cicc');
  if (skip) { console.error(`incr-bench: ${skip}`); return 2; }
  process.env.PTXD_FALLBACK = 'never';
  const libdevice = libdeviceBytes();
  const variants: Record<string, unknown> = {};
  for (const v of VARIANTS) {
    if (only && !only.includes(v.name)) continue;
    const m = await measure(v.flags, arch, runs, libdevice);
    if (typeof m === 'number') return m;
    variants[v.name] = { flags: v.flags, ...report(v.label, arch, runs, m) };
  }
  // the plain variant's figures stay at the top level, as before the variants
  writeResults('incr-bench', { runs, arch, kernels: KERNELS, ...(variants.plain as object | undefined), variants });
  return 0;
}

void main().then(code => { process.exitCode = code; });
