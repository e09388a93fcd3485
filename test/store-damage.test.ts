// A damaged or unusable cache never breaks a build (issue 29): real units through bin/ptxd-cicc (the argv
// nvcc used), through the daemon and in-process (PTXD_DAEMON=0), with the store file damaged the ways an
// interrupted copy, a restore or a full disk leave it. Every build must succeed with the PTX the intact
// store gave, the damaged file must be moved aside (units.mdb.corrupt-<time>) with exactly one warning,
// and the next build must hit the rebuilt store. Then unusable directories (/proc, a read-only mount, a
// full file system, a file in the way): no hang, one warning, an uncached build.

import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KERNELS_DIR, REPO_ROOT, prepareUnits, skipReason, type PreparedUnit } from './helpers/tools';
import { buildThroughClient, ptxdWarnings, ptxd, sandbox, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const skip = skipReason('nvcc', 'ptxas');
const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

const SAXPY = path.join(KERNELS_DIR, 'saxpy.cu');
const PAGE = 4096;

function box(name: string, env: NodeJS.ProcessEnv = {}): DaemonSandbox {
  const sb = sandbox(name, env);
  sandboxes.push(sb);
  return sb;
}

const build = buildThroughClient;
const warnings = ptxdWarnings;

/** A store of 300 values written by another process, as other builds would leave it (it has a middle). */
function addFiller(cacheDir: string): void {
  const js = path.join(REPO_ROOT, 'dist', 'service', 'store', 'store.js');
  const script = `const { Store } = require(${JSON.stringify(js)});
    const s = Store.open(process.argv[1], 1 << 30);
    for (let i = 0; i < 300; i++) s.put('filler' + i, { ok: true, ptx: 'p'.repeat(500 + (i * 997) % 6000), stub: '', diagnostics: [], compileMs: 1 });
    s.close();`;
  const r = spawnSync(process.execPath, ['-e', script, cacheDir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`filler failed: ${r.stderr}`);
}

/** Bytes that look like nothing LMDB wrote (a fixed seed: the same bytes every run). */
function garbage(n: number, seed = 12345): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; b[i] = x >>> 24; }
  return b;
}

/**
 * The B-tree page nearest the middle of the file, found by its header alone (its own page number at
 * offset 0, the branch or leaf flag at offset 18): garbage there is garbage LMDB reads.
 */
function middleTreePage(file: string): number {
  const buf = fs.readFileSync(file);
  const pages = buf.length / PAGE;
  let best = -1;
  for (let p = 2; p < pages; p++) {
    const at = p * PAGE;
    if (Number(buf.readBigUInt64LE(at)) !== p || !(buf.readUInt16LE(at + 18) & 0x03)) continue;
    if (best < 0 || Math.abs(p - pages / 2) < Math.abs(best - pages / 2)) best = p;
  }
  if (best < 0) throw new Error('no tree page found');
  return best;
}

const DAMAGE: Record<string, (file: string) => void> = {
  'truncated to half': f => fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2 / PAGE) * PAGE),
  'truncated to 4 KiB': f => fs.truncateSync(f, PAGE),
  'first 8 KiB random': f => { const fd = fs.openSync(f, 'r+'); fs.writeSync(fd, garbage(2 * PAGE), 0, 2 * PAGE, 0); fs.closeSync(fd); },
  'whole file random': f => fs.writeFileSync(f, garbage(fs.statSync(f).size)),
  '4 KiB of garbage in the middle': f => {
    const p = middleTreePage(f);
    const fd = fs.openSync(f, 'r+'); fs.writeSync(fd, garbage(PAGE), 0, PAGE, p * PAGE); fs.closeSync(fd);
  },
  'a directory in its place': f => { fs.rmSync(f); fs.mkdirSync(f); fs.writeFileSync(path.join(f, 'x'), 'x'); },
};

describe.skipIf(skip !== undefined)(`a damaged store never breaks a build ${skip ?? ''}`, () => {
  let unit: PreparedUnit;
  let reference: string | undefined;
  const getUnit = () => (unit ??= prepareUnits(SAXPY, [90]).get(90)!);
  /** The unit's PTX from an uncached in-process build (what every build below must reproduce). */
  async function referencePtx(): Promise<string> {
    if (reference === undefined) {
      const r = await build(box('ref', { PTXD_DAEMON: '0', PTXD_CACHE: '0' }), getUnit());
      if (r.code !== 0) throw new Error(r.err);
      reference = r.ptx;
    }
    return reference;
  }

  for (const inProcess of [false, true]) {
    const how = inProcess ? 'in-process (PTXD_DAEMON=0)' : 'through the daemon';
    for (const [name, damage] of Object.entries(DAMAGE)) {
      it(`${name}, ${how}: the build succeeds, the file is moved aside with one warning, the next build hits`, async () => {
        const u = getUnit();
        const ref = await referencePtx();
        const sb = box(name.replace(/\W+/g, '-'), inProcess ? { PTXD_DAEMON: '0' } : {});
        const store = path.join(sb.cacheDir, 'units.mdb');
        // A store written by other builds (no daemon running: the next build starts one, which checks the file).
        addFiller(sb.cacheDir);
        damage(store);
        const second = await build(sb, u);
        expect(second.code, second.err).toBe(0);
        expect(second.ptx).toBe(ref);
        const w = warnings(second.err);
        expect(w, second.err).toHaveLength(1);
        const m = /the unit cache "(.*)" was damaged \((.+)\); it was moved aside to "(.*)" and an empty cache started in its place$/.exec(w[0]!);
        expect(m, w[0]).not.toBeNull();
        expect(m![1]).toBe(store);
        expect(path.basename(m![3]!)).toMatch(/^units\.mdb\.corrupt-\d{8}T\d{6}Z$/);
        expect(fs.existsSync(m![3]!)).toBe(true);

        const third = await build(sb, u);
        expect(third.code, third.err).toBe(0);
        expect(third.ptx).toBe(ref);
        expect(warnings(third.err)).toEqual([]);
        const s = stats(sb);
        expect(s.cache).toMatchObject({ entries: 1 });
        expect(s.counters.hits).toBeGreaterThanOrEqual(1);
      });
    }
  }

  it('a garbage lock file nobody holds is rebuilt by LMDB: the store is kept (a hit), no warning', async () => {
    const u = getUnit();
    const sb = box('lock-idle', { PTXD_DAEMON: '0' });
    const first = await build(sb, u);
    expect(first.code, first.err).toBe(0);
    fs.writeFileSync(path.join(sb.cacheDir, 'units.mdb-lock'), garbage(8272));
    const second = await build(sb, u);
    expect(second.code, second.err).toBe(0);
    expect(second.ptx).toBe(first.ptx);
    expect(warnings(second.err)).toEqual([]);
    expect(stats(sb).counters.hits).toBe(1);
  });

  it('a garbage lock file while a daemon holds the store: an in-process build moves the store aside with one warning', async () => {
    const u = getUnit();
    const sb = box('lock-held');
    const first = await build(sb, u);   // starts the daemon, which keeps the store open
    expect(first.code, first.err).toBe(0);
    fs.writeFileSync(path.join(sb.cacheDir, 'units.mdb-lock'), garbage(8272));
    const second = await build(sb, u, { PTXD_DAEMON: '0' });
    expect(second.code, second.err).toBe(0);
    expect(second.ptx).toBe(first.ptx);
    const w = warnings(second.err);
    expect(w, second.err).toHaveLength(1);
    expect(w[0]).toMatch(/was damaged \(its lock file is damaged while in use\); it was moved aside to ".*units\.mdb\.corrupt-/);
    const third = await build(sb, u, { PTXD_DAEMON: '0' });
    expect(third.code, third.err).toBe(0);
    expect(warnings(third.err)).toEqual([]);
  });

  it('`cache info`, `verify` and `stats` report a damaged store (and repair it); `cache clear` removes it without opening it', () => {
    const sb = box('cli');
    fs.mkdirSync(sb.cacheDir, { recursive: true });
    const store = path.join(sb.cacheDir, 'units.mdb');
    for (const cmd of [['cache', 'info'], ['cache', 'verify'], ['stats']]) {
      fs.writeFileSync(store, garbage(64 * PAGE, cmd.length));
      const r = ptxd(sb, cmd);
      expect(r.code, `${cmd.join(' ')}: ${r.err}`).toBe(0);
      expect(r.err).toMatch(/^ptxd: warning: the unit cache ".*units\.mdb" was damaged \(.+\); it was moved aside to/m);
    }
    fs.writeFileSync(store, garbage(64 * PAGE, 7));
    const c = ptxd(sb, ['cache', 'clear', '--json']);
    expect(c.code, c.err).toBe(0);
    expect(c.err).toBe('');
    expect(JSON.parse(c.out).removed).toContain('units.mdb');
    expect(fs.readdirSync(sb.cacheDir).filter(n => n.startsWith('units.mdb'))).toEqual([]);
  });
});
