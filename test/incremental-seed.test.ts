// The first edit after a clean build (daemon/scheduler/seed.ts): a file's first compile is whole and leaves no
// kernel pieces; the daemon then compiles the unit kernel by kernel while idle, so that the first edit compiles
// only the kernels it touched. Through the real worker pool and scheduler (as the daemon runs them) and one
// LMDB piece store: after seeding, every edit of the incremental series, in its order, reversed and shuffled,
// is byte-identical to a clean compile (the oracle: compileUnit without a piece store), and the first edit of
// one kernel of a 20-kernel unit compiles that kernel alone (without seeding it would compile all 20).

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, libdeviceBytes, mkTempDir, skipReason } from './helpers/tools';
import { shuffled } from './helpers/shuffle';
import { compileUnit, type CompileResult } from '../compiler/compile';
import { Pool } from '../daemon/scheduler/pool';
import { seedDelayMs } from '../daemon/scheduler/seed';
import { cleanBuild, daemonParts } from './helpers/seeding';
import { SERIES, prepareSource, prepareVariant, shortName, type Prepared } from './helpers/incremental-fixture';
import { multiKernelSource } from '../bench/common';
import { PTXD_CICC_BIN, ptxd, runAsync, sandbox, stopDaemon, waitFor, type DaemonSandbox } from './helpers/daemon';
import { ciccArgv, prepareUnit } from './helpers/tools';

process.env.PTXD_FALLBACK = 'never';

const DIST_WORKER = path.join(REPO_ROOT, 'dist', 'daemon', 'scheduler', 'worker.js');
const skip = skipReason('nvcc') ?? (fs.existsSync(DIST_WORKER) ? undefined : 'skipped: dist/ not built (npx tsc -p .)');

const pools: Pool[] = [];
const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const p of pools) await p.close(); for (const sb of sandboxes) await stopDaemon(sb); });

const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });

describe('seeding switches', () => {
  it('PTXD_SEED=0 turns it off; PTXD_SEED_DELAY_MS sets the wait', () => {
    expect(seedDelayMs({})).toBe(2000);
    expect(seedDelayMs({ PTXD_SEED: '0' })).toBeNull();
    expect(seedDelayMs({ PTXD_SEED_DELAY_MS: '50' })).toBe(50);
    expect(seedDelayMs({ PTXD_SEED_DELAY_MS: 'soon' })).toBe(2000);
  });
});

describe.skipIf(skip !== undefined)(`the first edit after a clean build ${skip ?? ''}`, () => {
  it('a 20-kernel unit: after seeding, the first edit of one kernel compiles that kernel alone', async () => {
    const parts = daemonParts('u20', pools);
    const u0 = prepareSource(multiKernelSource(20), 'seed-u20');
    const u1 = prepareSource(multiKernelSource(20).replace('sh[0] * 7.5f', 'sh[0] * 7.25f'), 'seed-u20');
    const first = await cleanBuild(parts, u0);
    expect(outputs(first)).toEqual(outputs(compileUnit(u0.src, u0.opts, { libdevice: libdeviceBytes() })));
    expect(parts.seeds.seeded).toBe(1);
    expect(parts.seeds.kernels).toBe(20);
    const edit = (await parts.pool.run(u1.src, u1.opts, [parts.env])).result;
    expect(outputs(edit)).toEqual(outputs(compileUnit(u1.src, u1.opts, { libdevice: libdeviceBytes() })));
    expect(edit.functions?.compiled.map(shortName)).toEqual(['k7']);
    expect(edit.functions?.reused.length).toBe(19);
    // a unit compiled kernel by kernel is not seeded again
    parts.seeds.noteCompile(u1.src, u1.opts, [parts.env], edit);
    expect(parts.seeds.queued).toBe(0);
    fs.rmSync(parts.dir, { recursive: true, force: true });
  }, 600_000);

  it('the edit series in order, reversed and shuffled after a seeded clean build: identical to clean compiles', async () => {
    const libdevice = libdeviceBytes();
    const units = SERIES.map(([name, v, expected]) => ({ name, expected, ...prepareVariant(v, 'seed-series') }));
    const clean = new Map(units.map(u => [u.name, outputs(compileUnit(u.src, u.opts, { libdevice }))]));
    const orders: [string, typeof units][] = [['in order', units], ['reversed', units.slice().reverse()], ['shuffled', shuffled(units, 26)]];
    // the three orders at once, each on its own pool and store
    await Promise.all(orders.map(async ([how, order]) => {
      const parts = daemonParts(how.replace(/ /g, '-'), pools);
      await cleanBuild(parts, order[0]!);
      expect(parts.seeds.seeded, `${how}: seeded`).toBe(1);
      for (const [i, u] of order.slice(1).entries()) {
        const r = (await parts.pool.run(u.src, u.opts, [parts.env])).result;
        expect(outputs(r), `${how}, edit ${i + 1}: ${u.name}`).toEqual(clean.get(u.name));
        expect(r.functions, `${how}, edit ${i + 1}: ${u.name} compiled kernel by kernel (${r.incremental?.fallback})`).toBeDefined();
        // in order, each edit compiles what it touched (the first, blank lines and comments, nothing at all)
        if (how === 'in order') expect(r.functions!.compiled.map(shortName).sort(), `edit ${i + 1}: ${u.name}`).toEqual([...u.expected].sort());
      }
      fs.rmSync(parts.dir, { recursive: true, force: true });
    }));
  }, 900_000);
});

type Roots = { seeded?: number; seededKernels?: number; seedsQueued?: number };
const daemonStats = (sb: DaemonSandbox) => JSON.parse(ptxd(sb, ['stats', '--json']).out) as { daemon: { scheduler: { roots?: Roots; last?: { compiled?: string[]; reused?: string[] } } } };

describe.skipIf(skip !== undefined)(`the daemon seeds while idle ${skip ?? ''}`, () => {
  it('a clean build of a 20-kernel unit, the daemon idle, then one kernel edited: that kernel alone compiles', async () => {
    const sb = sandbox('seed', { PTXD_SEED: '1', PTXD_SEED_DELAY_MS: '0', PTXD_WORKERS: '1' });
    sandboxes.push(sb);
    const dir = mkTempDir('seed-daemon');
    const cu = path.join(dir, 'u20.cu');
    const build = async (text: string, out: string) => {
      fs.writeFileSync(cu, text);
      const u = prepareUnit(cu, 90);
      fs.mkdirSync(out, { recursive: true });
      const r = await runAsync(process.execPath, [PTXD_CICC_BIN, u.realCicc, ...ciccArgv(u, out)], { env: sb.env });
      expect(r.code, r.err).toBe(0);
    };
    await build(multiKernelSource(20), path.join(dir, 'o1'));
    // not a timed assertion: the seeding compile takes what it takes; this only bounds a hang
    expect(await waitFor(() => daemonStats(sb).daemon.scheduler.roots?.seeded === 1, 240_000)).toBe(true);
    expect(daemonStats(sb).daemon.scheduler.roots).toMatchObject({ seeded: 1, seededKernels: 20, seedsQueued: 0 });
    await build(multiKernelSource(20).replace('sh[0] * 7.5f', 'sh[0] * 7.25f'), path.join(dir, 'o2'));
    const last = daemonStats(sb).daemon.scheduler.last!;
    expect(last.compiled?.map(shortName)).toEqual(['k7']);
    expect(last.reused?.length).toBe(19);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 600_000);
});
