// Incremental compiles in the daemon's compile pool (daemon/scheduler/pool.ts): worker threads share one
// LMDB piece store (daemon/unit.ts LmdbPieceStore). For pools of 1, 2 and 4 workers, the edit series of
// test/helpers/incremental-fixture.ts submitted all at once in shuffled order (so entries are written by
// different workers, concurrently, in any order) gives exactly the clean compile of each unit; a second
// round finds every kernel in the store. The pool runs the built compiler (dist/), like the daemon.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, libdeviceBytes, mkTempDir, skipReason } from './helpers/tools';
import { shuffled } from './helpers/shuffle';
import { compileUnit, type CompileResult } from '../compiler/compile';
import { Pool } from '../daemon/scheduler/pool';
import { SERIES, prepareSource, prepareVariant, type Prepared } from './helpers/incremental-fixture';

process.env.PTXD_FALLBACK = 'never';

const DIST_WORKER = path.join(REPO_ROOT, 'dist', 'daemon', 'scheduler', 'worker.js');
const skip = skipReason('nvcc') ?? (fs.existsSync(DIST_WORKER) ? undefined : 'skipped: dist/ not built (npx tsc -p .)');

const pools: Pool[] = [];
afterAll(async () => { for (const p of pools) await p.close(); });

const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });

describe.skipIf(skip !== undefined)(`incremental compiles in the worker pool ${skip ?? ''}`, () => {
  it('1, 2 and 4 workers, shuffled, one shared LMDB store: identical to clean compiles; the second round reuses every kernel', async () => {
    const libdevice = libdeviceBytes();
    const units: (Prepared & { name: string })[] = SERIES.map(([name, v]) => ({ name, ...prepareVariant(v, 'pool') }));
    const clean = new Map(units.map(u => [u.name, outputs(compileUnit(u.src, u.opts, { libdevice }))]));
    for (const [size, seed] of [[1, 11], [2, 22], [4, 33]] as const) {
      const dir = mkTempDir(`incr-pool-${size}`);
      const pool = new Pool({ size, keepPrelude: true });
      pools.push(pool);
      const env = { libdevice, pieceStore: { dir, limit: 1 << 30 } };
      // the first compile of the file compiles it whole and marks it; then kernels are compiled one by one
      const mark = await pool.run(units[0]!.src, units[0]!.opts, [env]);
      expect(mark.result.functions).toBeUndefined();
      for (const round of [1, 2]) {
        const order = shuffled(units, seed + round);
        const got = await Promise.all(order.map(u => pool.run(u.src, u.opts, [env])));
        order.forEach((u, i) => {
          const r = got[i]!.result;
          expect(outputs(r), `${u.name}, ${size} workers, round ${round}`).toEqual(clean.get(u.name));
          expect(r.functions, `${u.name}, ${size} workers, round ${round}: per-root path`).toBeDefined();
          if (round === 2) expect(r.functions!.compiled, `${u.name}, ${size} workers, round 2`).toEqual([]);
        });
      }
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);

  it('an edit inside a kernel body is found by comparing texts in the worker that compiled the unit before', async () => {
    const libdevice = libdeviceBytes();
    const text = (c: string) => `__global__ void kA(float* o) { o[threadIdx.x] = 1.0f; }\n__global__ void kB(float* o) { o[threadIdx.x] = ${c}; }\n`;
    const [u0, u1] = ['2.0f', '3.0f'].map(c => prepareSource(text(c), 'pool-body'));
    const other = prepareSource('__global__ void kC(int* o) { o[threadIdx.x] = 7; }\n__global__ void kD(int* o) { o[threadIdx.x] = 8; }\n', 'pool-other');
    const dir = mkTempDir('incr-pool-body');
    const pool = new Pool({ size: 2, keepPrelude: true });
    pools.push(pool);
    const env = { libdevice, pieceStore: { dir, limit: 1 << 30 } };
    await pool.run(u0!.src, u0!.opts, [env]);   // whole: marks the file
    // both workers busy: the unit compiles in one of them, another unit in the other
    const [again] = await Promise.all([pool.run(u0!.src, u0!.opts, [env]), pool.run(other.src, other.opts, [env])]);
    expect(again!.result.functions?.byText, 'the first per-kernel compile has no last compile to compare with').toBeUndefined();
    const edit = (await pool.run(u1!.src, u1!.opts, [env])).result;
    expect(outputs(edit)).toEqual(outputs(compileUnit(u1!.src, u1!.opts, { libdevice })));
    expect(edit.functions).toEqual({ compiled: ['_Z2kBPf'], reused: ['_Z2kAPf'], byText: true });
    await pool.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 600_000);
});
