// The daemon's compile pool (daemon/scheduler/pool.ts) and scheduler (scheduler.ts), and the client's
// MAKEFLAGS parsing (client/jobserver.ts).
// - Determinism: units compiled by pools of 1, 2 and 4 workers, submitted in shuffled orders, give
//   exactly what compileUnit gives in this process (PTX, stub, diagnostics).
// - A worker that dies (process.exit, an uncaught throw) answers its unit with "unsupported: internal
//   error" and is replaced; the pool keeps compiling.
// - Admission: a make build's compiles never exceed its -j limit; the pool's size caps everything.
// The pool runs the built compiler (dist/), like the daemon.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KERNELS_DIR, REPO_ROOT, libdeviceBytes, mkTempDir, prepareUnit, skipReason } from './helpers/tools';
import { shuffled } from './helpers/shuffle';
import { defaultOptions, type CompileOptions } from '../compiler/options';
import { compileUnit } from '../compiler/compile';
import { Pool } from '../daemon/scheduler/pool';
import { Scheduler } from '../daemon/scheduler/scheduler';
import { maySplit } from '../daemon/scheduler/split';
import { parseMakeflags } from '../protocol/jobserver';

const DIST_COMPILER = path.join(REPO_ROOT, 'dist', 'compiler', 'compile.js');
const DIST_POOL = path.join(REPO_ROOT, 'dist', 'daemon', 'scheduler', 'worker.js');
const skip = skipReason('nvcc') ?? (fs.existsSync(DIST_POOL) && fs.existsSync(DIST_COMPILER) ? undefined : 'skipped: dist/ not built (npx tsc -p .)');

const KERNELS = ['math_float.cu', 'saxpy.cu', 'reduce_shared.cu', 'matmul_tiled.cu', 'atomics_int.cu', 'struct_byvalue.cu', 'scan.cu', 'warp_reduce.cu', 'printf.cu'];

const pools: Pool[] = [];
afterAll(async () => { for (const p of pools) await p.close(); });

function newPool(size: number, compileModule?: string, keepPrelude = false): Pool {
  const p = new Pool({ size, compileModule, keepPrelude });
  pools.push(p);
  return p;
}

describe.skipIf(skip !== undefined)(`compile pool ${skip ?? ''}`, () => {
  const units = KERNELS.map(k => {
    const u = prepareUnit(path.join(KERNELS_DIR, k), 90);
    const options: CompileOptions = { ...defaultOptions(), arch: 90, moduleId: u.moduleId, includeFileName: 'x.fatbin.c', stubFileName: 'x.stub.c' };
    return { name: k, text: fs.readFileSync(u.ii, 'utf8'), options };
  });
  // What the daemon passes: libdevice bytes (math_float.cu links it); the workers add prelude caches.
  const env = { libdevice: libdeviceBytes() };

  it('gives what compileUnit gives here, with 1, 2 and 4 workers and in any order', async () => {
    const expected = new Map(units.map(u => {
      const r = compileUnit(u.text, u.options, env);
      return [u.name, { ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported }];
    }));
    // The comparison means something only if the units really compile.
    expect([...expected.values()].filter(r => r.ok && r.ptx.includes('.entry')).length).toBeGreaterThanOrEqual(7);
    expect(expected.get('math_float.cu')!.ptx, 'libdevice is linked').toContain('.entry');
    for (const [size, seed] of [[1, 1], [2, 2], [4, 3]] as const) {
      const pool = newPool(size, undefined, true);
      // Twice each: the second compile of a unit in a worker starts from its prelude cache.
      const order = shuffled([...units, ...units], seed);
      const got = await Promise.all(order.map(u => pool.run(u.text, u.options, [env])));
      order.forEach((u, i) => {
        const r = got[i]!.result;
        expect({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported }, `${u.name} with ${size} workers`)
          .toEqual(expected.get(u.name));
        expect(Object.keys(r.times).sort()).toEqual(['emit', 'irgen', 'lex', 'optimize', 'skim']);
      });
      expect(pool.started, 'all units were submitted at once: every worker started').toBe(size);
      expect(pool.peak).toBeLessThanOrEqual(size);
      expect(pool.crashes).toBe(0);
    }
  });

  it('gives a unit to a free worker that compiled the same file before, if any (its caches hold that file)', async () => {
    const dir = mkTempDir('affinity-worker');
    const wrapper = path.join(dir, 'which-worker.js');
    // Answers with the thread it ran on, after holding its worker for the time the text asks.
    fs.writeFileSync(wrapper, `const { threadId } = require('node:worker_threads');
exports.compileUnit = (text) => {
  const until = Date.now() + Number(text);
  while (Date.now() < until) {}
  return { ok: true, ptx: String(threadId), stub: '', diagnostics: [], times: { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 } };
};\n`);
    const pool = newPool(2, wrapper);
    const opts = (file: string): CompileOptions => ({ ...defaultOptions(), arch: 90, origSrcFileName: file });
    // both workers busy, each with one file; then each file again, one at a time, and both at once reversed
    const [a, b] = await Promise.all([pool.run('300', opts('a.cu')), pool.run('300', opts('b.cu'))]);
    expect(a!.result.ptx).not.toBe(b!.result.ptx);
    expect((await pool.run('0', opts('b.cu'))).result.ptx).toBe(b!.result.ptx);
    expect((await pool.run('0', opts('a.cu'))).result.ptx).toBe(a!.result.ptx);
    const [b2, a2] = await Promise.all([pool.run('50', opts('b.cu')), pool.run('50', opts('a.cu'))]);
    expect([a2!.result.ptx, b2!.result.ptx]).toEqual([a!.result.ptx, b!.result.ptx]);
    // the same file for another target is another unit: any free worker
    expect([a!.result.ptx, b!.result.ptx]).toContain((await pool.run('0', { ...opts('c.cu'), arch: 80 })).result.ptx);
  });

  it('turns a dying worker into an internal-error fallback and keeps working', async () => {
    const dir = mkTempDir('crash-worker');
    const wrapper = path.join(dir, 'crashing-compile.js');
    // Dies on marker texts, otherwise the real compiler.
    fs.writeFileSync(wrapper, `const real = require(${JSON.stringify(DIST_COMPILER)});
exports.compileUnit = (text, o, ...rest) => {
  if (text.includes('CRASH_BY_EXIT')) process.exit(7);
  if (text.includes('CRASH_BY_THROW')) throw new Error('boom from a test');
  return real.compileUnit(text, o, ...rest);
};\n`);
    const pool = newPool(2, wrapper);
    const good = units[0]!;
    const expected = compileUnit(good.text, good.options);
    const [a, b, c, d] = await Promise.all([
      pool.run('// CRASH_BY_EXIT\n', good.options),
      pool.run(good.text, good.options),
      pool.run('// CRASH_BY_THROW\n', good.options),
      pool.run(good.text, good.options),
    ]);
    for (const crashed of [a!, c!]) {
      expect(crashed.result.ok).toBe(false);
      expect(crashed.result.ptx).toBe('');
      expect(crashed.result.unsupported).toMatch(/^internal error: compile worker died/);
    }
    expect(a!.result.unsupported).toContain('exit code 7');
    expect(c!.result.unsupported).toContain('boom from a test');
    for (const ok of [b!, d!]) expect(ok.result.ptx).toBe(expected.ptx);
    expect(pool.crashes).toBe(2);
    // The replacements work: more units than workers, all right.
    const again = await Promise.all([0, 1, 2, 3].map(() => pool.run(good.text, good.options)));
    for (const r of again) expect(r.result.ptx).toBe(expected.ptx);
    expect(pool.crashes).toBe(2);
  });
});

describe('scheduler admission', () => {
  /** Jobs that finish when the test says so. */
  function controllable(s: Scheduler, group: { key: string; limit: number } | undefined, n: number) {
    const finishers: (() => void)[] = [];
    let started = 0;
    const done = Array.from({ length: n }, () => s.submit(group, () => new Promise<void>(r => { started++; finishers.push(r); })));
    return { finishers, started: () => started, done };
  }

  it('runs at most -jN compiles of one make build, and at most capacity in all', async () => {
    const s = new Scheduler(8);
    const a = controllable(s, { key: 'make:1', limit: 4 }, 10);
    const b = controllable(s, { key: 'make:2', limit: 2 }, 5);
    const free = controllable(s, undefined, 5);
    expect(a.started()).toBe(4);
    expect(b.started()).toBe(2);
    expect(free.started()).toBe(2);   // 4 + 2 + 2 = the 8 slots
    expect(s.stats()).toMatchObject({ running: 8, queued: 12, peakPerBuild: 4, peakTokens: 6 });
    // Drain everything, finishing whatever runs; the limits hold at every step.
    for (let guard = 0; guard < 100; guard++) {
      const running = [...a.finishers.splice(0), ...b.finishers.splice(0), ...free.finishers.splice(0)];
      if (running.length === 0) break;
      running.forEach(f => f());
      await new Promise(r => setImmediate(r));
      expect(s.stats().running).toBeLessThanOrEqual(8);
      expect(s.stats().peakPerBuild).toBe(4);
    }
    await Promise.all([...a.done, ...b.done, ...free.done]);
    expect(s.stats()).toMatchObject({ running: 0, queued: 0, jobs: 20, tokensUsed: 15, peakRunning: 8, peakPerBuild: 4 });
  });

  it('without make, uses all of its capacity', () => {
    const s = new Scheduler(3);
    const x = controllable(s, undefined, 5);
    expect(x.started()).toBe(3);
    expect(s.stats()).toMatchObject({ running: 3, queued: 2, tokensUsed: 0 });
    x.finishers.forEach(f => f());
  });
});

describe('extra slots for split compiles', () => {
  it('takes only free slots, within the build\'s -j limit, never ahead of a queued job, and gives them back', async () => {
    const s = new Scheduler(6);
    const build = { key: 'make:1', limit: 4 };
    let finish!: () => void;
    const own = s.submit(build, () => new Promise<void>(r => { finish = r; }));
    // the running job's build has 3 of its 4 left; the pool has 5 free
    expect(s.free(build)).toBe(3);
    expect(s.free(undefined)).toBe(5);
    const extra = s.reserve(build, 10);
    expect(extra.count).toBe(3);
    expect(s.stats()).toMatchObject({ running: 4, peakRunning: 4, peakPerBuild: 4, peakTokens: 4 });
    // another job of that build must wait for the slots; a job of no build takes a free one
    let second = false;
    const other = s.submit(build, async () => { second = true; });
    expect(second).toBe(false);
    const loose = s.submit(undefined, async () => {});
    await loose;
    // a queued job: nothing may be taken past it
    expect(s.free(undefined)).toBe(0);
    expect(s.reserve(undefined, 1).count).toBe(0);
    extra.give(2);                // the build now holds 2 of its 4: the queued job of that build starts
    expect(extra.count).toBe(1);
    await other;
    expect(second).toBe(true);
    await new Promise(r => setImmediate(r));
    expect(s.stats().running).toBe(2);
    extra.give();
    extra.give();                 // giving back twice gives nothing
    expect(s.stats().running).toBe(1);
    finish();
    await own;
    await new Promise(r => setImmediate(r));
    expect(s.stats()).toMatchObject({ running: 0, queued: 0, peakPerBuild: 4 });
    s.noteSlots(1);
    s.noteSlots(4);
    expect(s.stats()).toMatchObject({ splitJobs: 1, extraSlots: 3, peakSlotsPerJob: 4 });
  });

  it('plans only units that may have two kernels (nvcc spells __global__ as __attribute__((global)))', () => {
    const k = (n: string) => `extern "C" __attribute__((global)) void ${n}(int *p) { *p = 1; }\n`;
    expect(maySplit('int f();\n')).toBe(false);
    expect(maySplit(k('a'))).toBe(false);
    expect(maySplit(k('a') + k('b'))).toBe(true);
    expect(maySplit(`template <typename T>\n__attribute__((global)) void t(T *p) { *p = 1; }\n`)).toBe(true);
  });
});

describe('MAKEFLAGS', () => {
  it('finds the jobserver of make 4.3 (pipe fds) and 4.4 (fifo), and -jN', () => {
    expect(parseMakeflags(' -j4 --jobserver-auth=3,4')).toEqual({ jobs: 4, auth: { kind: 'pipe', r: 3, w: 4 } });
    expect(parseMakeflags('ks -j16 --jobserver-auth=fifo:/tmp/GMfifo123')).toEqual({ jobs: 16, auth: { kind: 'fifo', path: '/tmp/GMfifo123' } });
    expect(parseMakeflags(' -j --jobserver-fds=5,6')).toEqual({ jobs: 0, auth: { kind: 'pipe', r: 5, w: 6 } });
    expect(parseMakeflags('s -- X=--jobserver-auth=3,4')).toBeUndefined();
    expect(parseMakeflags(' -j1')).toBeUndefined();
    expect(parseMakeflags(' --jobserver-auth=-2,-2')).toBeUndefined();
    expect(parseMakeflags(undefined)).toBeUndefined();
  });
});
