// The daemon's memory budget (service/memory.ts): one least-recently-used order over a compile worker's caches
// (preludes, recent compiles, decoded pieces), kept within PTXD_MEMORY; `ptxd stats` shows what each holds.
// The LRU is checked on the real caches after real compiles, and end to end through a daemon with a tiny
// budget (no timed assertions: what is held and dropped, not how fast).

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_MEMORY, MemoryLru, WORKER_YOUNG_MB, memoryBudget, memoryIdleMs } from '../service/memory';
import type { Evictable } from '../compiler/memory';
import { compileUnit } from '../compiler/compile';
import { PreludeCache } from '../compiler/frontend/prelude';
import { MemoryPieceStore } from '../compiler/incremental/store';
import { KERNELS_DIR, ciccArgv, libdeviceBytes, mkTempDir, prepareUnits, skipReason, type PreparedUnit } from './helpers/tools';
import { PTXD_CICC_BIN, ptxd, runAsync, sandbox, stopDaemon, waitFor, type DaemonSandbox } from './helpers/daemon';
import { unitOptions } from './helpers/tools';

process.env.PTXD_FALLBACK = 'never';

/** A cache of named items with sizes and use times, as the real caches keep them (least recently used first). */
class Items implements Evictable {
  readonly items: { name: string; bytes: number; used: number }[] = [];
  add(name: string, bytes: number, used: number): this { this.items.push({ name, bytes, used }); return this; }
  held() { return { entries: this.items.length, bytes: this.items.reduce((a, i) => a + i.bytes, 0) }; }
  oldestUse() { return this.items[0]?.used; }
  dropOldest() { this.items.shift(); }
}

describe('PTXD_MEMORY and the idle release', () => {
  it('reads bytes and K/M/G suffixes; anything else is the default (512 MiB)', () => {
    expect(DEFAULT_MEMORY).toBe(512 * 1024 * 1024);
    expect(memoryBudget({})).toBe(DEFAULT_MEMORY);
    expect(memoryBudget({ PTXD_MEMORY: '1048576' })).toBe(1048576);
    expect(memoryBudget({ PTXD_MEMORY: '768M' })).toBe(768 * 1024 * 1024);
    expect(memoryBudget({ PTXD_MEMORY: '1G' })).toBe(1024 ** 3);
    expect(memoryBudget({ PTXD_MEMORY: '64KiB' })).toBe(64 * 1024);
    expect(memoryBudget({ PTXD_MEMORY: 'lots' })).toBe(DEFAULT_MEMORY);
    expect(memoryIdleMs({})).toBe(60_000);
    expect(memoryIdleMs({ PTXD_MEMORY_IDLE_S: '5' })).toBe(5000);
  });
});

describe('one LRU over several caches', () => {
  it('drops the least recently used item of all caches first, until within the limit', () => {
    const a = new Items().add('a1', 100, 1).add('a2', 100, 5).add('a3', 100, 9);
    const b = new Items().add('b1', 50, 2).add('b2', 50, 3).add('b3', 50, 8);
    const lru = new MemoryLru(() => ({ a, b, none: undefined }));
    expect(lru.held()).toEqual({ a: { entries: 3, bytes: 300 }, b: { entries: 3, bytes: 150 } });
    expect(lru.enforce(450)).toBe(0);
    // oldest first across both: a1 (1), b1 (2), b2 (3): 450 - 100 - 50 - 50 = 250 <= 260
    expect(lru.enforce(260)).toBe(3);
    expect(a.items.map(i => i.name)).toEqual(['a2', 'a3']);
    expect(b.items.map(i => i.name)).toEqual(['b3']);
    expect(lru.enforce(0)).toBe(3);
    expect(lru.held()).toEqual({ a: { entries: 0, bytes: 0 }, b: { entries: 0, bytes: 0 } });
    expect(lru.dropped).toBe(6);
  });
});

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`the real caches under the LRU ${skip ?? ''}`, () => {
  it('after compiles of two units: the first unit\'s items go first, the newest last', () => {
    const units = ['saxpy', 'reduce_shared'].map(n => prepareUnits(path.join(KERNELS_DIR, `${n}.cu`), [90]).get(90)!);
    const texts = units.map(u => ({ src: fs.readFileSync(u.ii, 'utf8'), opts: unitOptions(u) }));
    const prelude = new PreludeCache();
    const pieces = new MemoryPieceStore();
    const libdevice = libdeviceBytes();
    // each twice: the second compile of a file goes kernel by kernel and is remembered (recent compiles)
    for (const t of texts) for (let i = 0; i < 2; i++) expect(compileUnit(t.src, t.opts, { libdevice, prelude, pieces }).ok).toBe(true);
    const lru = new MemoryLru(() => ({ prelude, recent: pieces.recent }));
    const before = lru.held();
    expect(before.prelude!.entries).toBeGreaterThan(0);
    expect(before.recent!.entries).toBeGreaterThan(0);
    expect(before.prelude!.bytes + before.recent!.bytes).toBeGreaterThan(0);
    // dropping one item at a time: the use times of what is left never go down (oldest of all first)
    const sum = (h: ReturnType<MemoryLru['held']>) => Object.values(h).reduce((a, v) => a + v.bytes, 0);
    let last = -Infinity;
    while (sum(lru.held()) > 0) {
      const oldest = Math.min(prelude.oldestUse() ?? Infinity, pieces.recent.oldestUse() ?? Infinity);
      expect(oldest).toBeGreaterThanOrEqual(last);
      last = oldest;
      expect(lru.enforce(sum(lru.held()) - 1)).toBeGreaterThan(0);
    }
    expect(lru.held()).toEqual({ prelude: { entries: 0, bytes: 0 }, recent: { entries: 0, bytes: 0 } });
    // and a compile after that still gives the same output (a dropped cache only costs time)
    const again = compileUnit(texts[0]!.src, texts[0]!.opts, { libdevice, prelude, pieces });
    expect(again.ptx).toBe(compileUnit(texts[0]!.src, texts[0]!.opts, { libdevice }).ptx);
  }, 300_000);
});

const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

function cicc(sb: DaemonSandbox, u: PreparedUnit, out: string) {
  fs.mkdirSync(out, { recursive: true });
  return runAsync(process.execPath, [PTXD_CICC_BIN, u.realCicc, ...ciccArgv(u, out)], { env: sb.env });
}

/** A daemon sandbox (stopped after the file) that has compiled two test programs. */
async function daemonAfterTwoUnits(name: string, env: NodeJS.ProcessEnv): Promise<DaemonSandbox> {
  const sb = sandbox(name, env);
  sandboxes.push(sb);
  const units = ['saxpy', 'reduce_shared'].map(n => prepareUnits(path.join(KERNELS_DIR, `${n}.cu`), [90]).get(90)!);
  for (const [i, u] of units.entries()) {
    const r = await cicc(sb, u, mkTempDir(`${name}-out-${i}`));
    expect(r.code, r.err).toBe(0);
  }
  return sb;
}

describe.skipIf(skip !== undefined)(`ptxd stats shows the budget and what each cache holds ${skip ?? ''}`, () => {
  it('a daemon with a 64 KiB budget keeps its caches within it and says so', async () => {
    const sb = await daemonAfterTwoUnits('memory', { PTXD_MEMORY: '64K', PTXD_WORKERS: '1', PTXD_SEED: '0' });
    const json = JSON.parse(ptxd(sb, ['stats', '--json']).out) as { daemon: { scheduler: { memory: { budgetBytes: number; held: Record<string, { entries: number; bytes: number }>; dropped: number } } } };
    const m = json.daemon.scheduler.memory;
    expect(m.budgetBytes).toBe(64 * 1024);
    // a prelude alone is far over 64 KiB: the budget dropped it, and what is left fits
    expect(m.dropped).toBeGreaterThan(0);
    expect(Object.keys(m.held)).toContain('prelude');
    expect(Object.values(m.held).reduce((a, v) => a + v.bytes, 0)).toBeLessThanOrEqual(64 * 1024);
    const text = ptxd(sb, ['stats']).out;
    expect(text).toMatch(/memory caches\s+[\d.]+ MiB of a 0\.1 MiB budget \(PTXD_MEMORY\); [1-9]\d* items dropped/);
    expect(text).toMatch(/\n {2}prelude\s+\d+ entries, [\d.]+ MiB\n/);
  }, 300_000);
});

interface Heaps { workers: number; total: number; used: number; young: number; external: number }
interface MemoryStatus { held: Record<string, { entries: number; bytes: number }>; heaps?: Heaps }
const memoryStatus = (sb: DaemonSandbox): MemoryStatus =>
  (JSON.parse(ptxd(sb, ['stats', '--json']).out) as { daemon: { scheduler: { memory: MemoryStatus } } }).daemon.scheduler.memory;

describe.skipIf(skip !== undefined)(`the workers' heaps: a small young generation, collected when idle ${skip ?? ''}`, () => {
  it('ptxd stats shows the worker\'s heap; its young generation stays within WORKER_YOUNG_MB; the idle release collects its garbage', async () => {
    const sb = await daemonAfterTwoUnits('memory-heap', { PTXD_WORKERS: '1', PTXD_SEED: '0', PTXD_MEMORY_IDLE_S: '2' });
    const after = memoryStatus(sb);
    const h = after.heaps!;
    expect(h.workers).toBe(1);
    expect(h.used).toBeGreaterThan(0);
    expect(h.total).toBeGreaterThanOrEqual(h.used);
    // V8's default young generation for a thread grows to 32 MiB of semi-spaces
    expect(h.young).toBeGreaterThan(0);
    expect(h.young).toBeLessThanOrEqual(WORKER_YOUNG_MB * 1048576);
    expect(ptxd(sb, ['stats']).out).toMatch(/\nworker heaps\s+[\d.]+ MiB committed \([\d.]+ MiB young generation\), [\d.]+ MiB in use, [\d.]+ MiB outside the heap \(1 workers\)\n/);
    // the idle release: its caches dropped, then its heap collected (the caches and the compiles' garbage gone)
    let idle: MemoryStatus = after;
    expect(await waitFor(() => { idle = memoryStatus(sb); return Object.values(idle.held).every(v => v.entries === 0); }, 120_000)).toBe(true);
    const held = Object.values(after.held).reduce((a, v) => a + v.bytes, 0);
    expect(held).toBeGreaterThan(0);
    // the token arrays of the dropped prelude are outside the heap: only a collection frees them
    expect(h.external - idle.heaps!.external).toBeGreaterThan(1048576);
  }, 300_000);
});
