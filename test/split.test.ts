// A unit's kernels compiled on several workers at once (daemon/scheduler/split.ts): the request's own
// worker plans, each worker compiles a share of the missing kernels into one shared LMDB piece store,
// then the unit's ordinary compile only assembles. With pools of 1, 2 and 4 workers, from an empty store
// and along edits of test/helpers/incremental-fixture.ts (15 kernels), the output is byte-identical to a clean
// whole compile; the split uses exactly the workers that are free, and happens only on 3 workers or more
// (below, a first compile stays whole and later ones go kernel by kernel on the request's own worker). The pool runs the built compiler (dist/), like the daemon.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KERNELS_DIR, REPO_ROOT, libdeviceBytes, mkTempDir, prepareUnit, skipReason, unitOptions } from './helpers/tools';
import { compileUnit, type CompileResult } from '../compiler/compile';
import { Pool } from '../daemon/scheduler/pool';
import { Scheduler } from '../daemon/scheduler/scheduler';
import { MIN_SPLIT_WORKERS, compileSplit } from '../daemon/scheduler/split';
import { ALL, prepareVariant, shortName, type Variant } from './helpers/incremental-fixture';

process.env.PTXD_FALLBACK = 'never';

const DIST_WORKER = path.join(REPO_ROOT, 'dist', 'daemon', 'scheduler', 'worker.js');
const skip = skipReason('nvcc') ?? (fs.existsSync(DIST_WORKER) ? undefined : 'skipped: dist/ not built (npx tsc -p .)');

const pools: Pool[] = [];
afterAll(async () => { for (const p of pools) await p.close(); });

const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });

// From an empty store, then two edits: one that recompiles two kernels (a shared callee: split in two
// when two workers are free) and one that recompiles one (never split).
const STEPS: [string, Variant, number][] = [
  ['empty store', {}, ALL.length],
  ['shared noinline callee', { shared: true }, 2],
  ['one kernel body', { shared: true, body: true }, 1],
];

describe.skipIf(skip !== undefined)(`compiles split across workers ${skip ?? ''}`, () => {
  it('1, 2 and 4 workers: byte-identical to a clean compile, using every free worker from 3 workers on', async () => {
    const libdevice = libdeviceBytes();
    const steps = STEPS.map(([name, v, need]) => ({ name, need, ...prepareVariant(v, 'split') }));
    const clean = steps.map(s => outputs(compileUnit(s.src, s.opts, { libdevice })));
    expect(clean[0]!.ok).toBe(true);
    for (const size of [1, 2, 4]) {
      const dir = mkTempDir(`split-${size}`);
      const pool = new Pool({ size, keepPrelude: true });
      pools.push(pool);
      const scheduler = new Scheduler(size);
      const rest = [{ libdevice, pieceStore: { dir, limit: 1 << 30 } }];
      for (const [i, s] of steps.entries()) {
        const what = `${s.name}, ${size} workers`;
        // the request's own slot, as the daemon's scheduler admits it
        const r = await scheduler.submit(undefined, async () => {
          const split = await compileSplit({ pool, scheduler }, s.src, s.opts, rest);
          return { slots: split.slots, byShares: split.compiled, main: (await pool.run(s.src, s.opts, rest)).result };
        });
        expect(outputs(r.main), what).toEqual(clean[i]);
        // a unit is split only on 3 workers or more; otherwise a first compile is whole and leaves no kernels in the store
        const splits = size >= MIN_SPLIT_WORKERS;
        const need = i === 0 || (i === 1 && !splits) ? ALL.length : s.need;
        const want = splits && need >= 2 ? Math.min(size, need) : 1;
        expect(r.slots, `${what}: workers used`).toBe(want);
        if (r.slots > 1) {
          // the shares compiled every missing kernel: the unit's own compile only assembled
          expect(r.main.functions, what).toBeDefined();
          expect(r.main.functions!.compiled, what).toEqual([]);
          expect(r.byShares.length, `${what}: kernels the shares compiled`).toBe(need);
        } else if (i === 0) {
          expect(r.main.functions, `${what}: a first compile on fewer than 3 workers is whole`).toBeUndefined();
        } else {
          expect(r.main.functions!.compiled.length, what).toBe(need);
        }
        // every extra slot was given back (the request's own slot is freed just after it resolves)
        await new Promise(r => setImmediate(r));
        expect(scheduler.stats().running, what).toBe(0);
        expect(scheduler.free(undefined), what).toBe(size);
      }
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);

  it('every multi-kernel test program compiled kernel by kernel on 4 workers: identical to a clean compile', async () => {
    const libdevice = libdeviceBytes();
    const files = fs.readdirSync(KERNELS_DIR).filter(f => f.endsWith('.cu'))
      .filter(f => (fs.readFileSync(path.join(KERNELS_DIR, f), 'utf8').match(/__global__/g) ?? []).length >= 2).sort();
    expect(files.length).toBeGreaterThanOrEqual(10);
    const dir = mkTempDir('split-kernels');
    const pool = new Pool({ size: 4, keepPrelude: true });
    pools.push(pool);
    const scheduler = new Scheduler(4);
    const rest = [{ libdevice, pieceStore: { dir, limit: 1 << 30 } }];
    let split = 0;
    for (const f of files) {
      const u = prepareUnit(path.join(KERNELS_DIR, f), 90);
      const src = fs.readFileSync(u.ii, 'utf8'), opts = unitOptions(u);
      const clean = outputs(compileUnit(src, opts, { libdevice }));
      // a first compile (whole, it marks the file), so that the next goes kernel by kernel even for 2 kernels
      expect(outputs((await pool.run(src, opts, rest)).result), `${f}, first compile`).toEqual(clean);
      const r = await scheduler.submit(undefined, async () => {
        const sp = await compileSplit({ pool, scheduler }, src, opts, rest);
        return { slots: sp.slots, main: (await pool.run(src, opts, rest)).result };
      });
      expect(outputs(r.main), f).toEqual(clean);
      if (r.slots > 1) split++;
    }
    // most of them go kernel by kernel (the others compile whole: lambdas, diagnostics, unsupported, ...)
    console.log(`multi-kernel test programs: ${split} of ${files.length} split across workers`);
    expect(split).toBeGreaterThanOrEqual(files.length / 2);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 900_000);

  it('a plan lists exactly the kernels the store lacks; a busy pool is not split', async () => {
    const libdevice = libdeviceBytes();
    const { src, opts } = prepareVariant({ body: true }, 'split-plan');
    const dir = mkTempDir('split-plan');
    const pool = new Pool({ size: 2, keepPrelude: true });
    pools.push(pool);
    const rest = [{ libdevice, pieceStore: { dir, limit: 1 << 30 } }];
    const plan = await pool.run(src, opts, rest, 'plan');
    expect(plan.roots!.map(shortName).sort()).toEqual([...ALL].sort());
    expect(plan.first, 'the file\'s first compile').toBe(true);
    // a share compiles only what it is given (and what is still missing)
    const share = await pool.run(src, opts, rest, ['_Z5kBodyPfi', '_Z4kInlPfPKfi']);
    expect(share.roots!.map(shortName).sort()).toEqual(['kBody', 'kInl']);
    const again = await pool.run(src, opts, rest, 'plan');
    expect(again.first, 'a share marks the file').toBeUndefined();
    expect(again.roots!.map(shortName).sort()).toEqual(ALL.filter(k => k !== "kBody" && k !== "kInl").sort());
    // both slots taken by other jobs: nothing free, no plan, no split
    const scheduler = new Scheduler(2);
    const busy = scheduler.reserve(undefined, 2);
    expect(busy.count).toBe(2);
    expect(await compileSplit({ pool, scheduler }, src, opts, rest)).toEqual({ slots: 1, compiled: [] });
    busy.give();
    expect(scheduler.stats().running).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 600_000);
});
