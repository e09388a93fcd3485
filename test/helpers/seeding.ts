// The daemon's parts that seed a unit's kernels while idle (daemon/scheduler/seed.ts), for tests that run
// them without a daemon: a real worker pool (dist/ built), its scheduler and an LMDB piece store.
import { expect } from 'vitest';
import type { CompileResult } from '../../compiler/compile';
import { Pool } from '../../daemon/scheduler/pool';
import { Scheduler } from '../../daemon/scheduler/scheduler';
import { Seeds } from '../../daemon/scheduler/seed';
import { libdeviceBytes, mkTempDir } from './tools';
import type { Prepared } from './incremental-fixture';

export interface DaemonParts { pool: Pool; seeds: Seeds; env: unknown; dir: string }

/** A pool of one worker with its scheduler and seeding (no wait: the test is the only user); pushed to `pools` to be closed. */
export function daemonParts(name: string, pools: Pool[]): DaemonParts {
  const dir = mkTempDir(`incr-seed-${name}`);
  const pool = new Pool({ size: 1, keepPrelude: true });
  pools.push(pool);
  const scheduler = new Scheduler(1);
  const seeds = new Seeds({ pool: () => pool, scheduler, busy: () => false, stopping: () => false, logLine: () => {} }, 0);
  return { pool, seeds, env: { libdevice: libdeviceBytes(), pieceStore: { dir, limit: 1 << 30 } }, dir };
}

/** A clean build of `u` (the file's first compile, whole), then the daemon's seeding of it. */
export async function cleanBuild(parts: DaemonParts, u: Prepared): Promise<CompileResult> {
  const first = (await parts.pool.run(u.src, u.opts, [parts.env])).result;
  expect(first.functions, 'a first compile is whole').toBeUndefined();
  expect(first.incremental?.fallback).toBe('first compile of this file');
  parts.seeds.noteCompile(u.src, u.opts, [parts.env], first);
  await parts.seeds.drained();
  return first;
}
