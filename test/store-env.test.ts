// Cache directories that cannot be used (issue 29) and a cache removed under a running daemon (issue 23):
// real units through bin/ptxd-cicc, through the daemon and in-process. A directory under /proc (where
// Node's recursive mkdir spun forever), a read-only mount, a full file system and a file in the way give
// one warning that names the error, and a build with the right PTX; nothing hangs (a hang fails the test
// by its timeout). Mounts need root: those tests say so in their names and skip otherwise.

import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KERNELS_DIR, mkTempDir, prepareUnits, skipReason, type PreparedUnit } from './helpers/tools';
import { buildThroughClient, ptxdWarnings, daemonPid, ptxd, sandbox, stats, stopDaemon, waitFor, type DaemonSandbox } from './helpers/daemon';

const skip = skipReason('nvcc', 'ptxas');
const sandboxes: DaemonSandbox[] = [];
const mounts: string[] = [];
afterAll(async () => {
  for (const sb of sandboxes) await stopDaemon(sb);
  for (const m of mounts) spawnSync('umount', [m]);
});

const SAXPY = path.join(KERNELS_DIR, 'saxpy.cu');

function box(name: string, env: NodeJS.ProcessEnv = {}): DaemonSandbox {
  const sb = sandbox(name, env);
  sandboxes.push(sb);
  return sb;
}

const build = buildThroughClient;
const warnings = ptxdWarnings;

/** Why a tmpfs cannot be mounted here (not root, no mount), or undefined when it can. */
function noMount(): string | undefined {
  if (process.getuid?.() !== 0) return 'skipped: mounting a tmpfs needs root';
  const d = mkTempDir('mount-probe');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', d], { encoding: 'utf8' });
  if (r.status !== 0) return `skipped: cannot mount a tmpfs (${(r.stderr || String(r.error)).trim()})`;
  spawnSync('umount', [d]);
  return undefined;
}

function mountTmpfs(dir: string, opts: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount failed: ${r.stderr}`);
  mounts.push(dir);
}

describe.skipIf(skip !== undefined)(`unusable cache directories and a cache removed under the daemon ${skip ?? ''}`, () => {
  let unit: PreparedUnit;
  let reference: string;
  const getUnit = () => (unit ??= prepareUnits(SAXPY, [90]).get(90)!);
  async function referencePtx(): Promise<string> {
    if (reference === undefined) {
      const r = await build(box('ref', { PTXD_DAEMON: '0', PTXD_CACHE: '0' }), getUnit());
      if (r.code !== 0) throw new Error(r.err);
      reference = r.ptx;
    }
    return reference;
  }

  /** One build in `cacheDir`, in-process and through a daemon: exit 0, the reference PTX, one warning matching `warning`. */
  async function buildsUncached(name: string, cacheDir: string, warning: RegExp): Promise<void> {
    const ref = await referencePtx();
    for (const inProcess of [true, false]) {
      const sb = box(`${name}-${inProcess ? 'inproc' : 'daemon'}`, { PTXD_CACHE_DIR: cacheDir, ...(inProcess ? { PTXD_DAEMON: '0' } : {}) });
      const r = await build(sb, getUnit());
      expect(r.code, r.err).toBe(0);
      expect(r.ptx).toBe(ref);
      const w = warnings(r.err);
      expect(w, `${inProcess ? 'in-process' : 'daemon'}: ${r.err}`).toHaveLength(1);
      expect(w[0]).toMatch(warning);
      await stopDaemon(sb);
    }
  }

  it('a cache directory under /proc: no hang, one warning (ENOENT), the build succeeds', async () => {
    await buildsUncached('proc', '/proc/ptxd-test/cache', /unit cache disabled: cannot use cache directory "\/proc\/ptxd-test\/cache" \(ENOENT\)$/);
  });

  it('a file where the cache directory should be: one warning (ENOTDIR), the build succeeds', async () => {
    const dir = mkTempDir('file-in-way');
    fs.writeFileSync(path.join(dir, 'cache'), 'not a directory');
    await buildsUncached('file', path.join(dir, 'cache', 'ptxd'), /unit cache disabled: cannot use cache directory ".*" \(ENOTDIR\)$/);
  });

  const mountSkip = noMount();
  it.skipIf(mountSkip !== undefined)(`a read-only mount: one warning naming EROFS, the build succeeds ${mountSkip ?? ''}`, async () => {
    const m = path.join(mkTempDir('ro'), 'mnt');
    mountTmpfs(m, 'size=1m,ro');
    await buildsUncached('ro', path.join(m, 'cache'), /unit cache disabled: cannot use cache directory ".*" \(EROFS\)$/);
  });

  it.skipIf(mountSkip !== undefined)(`a full file system: one warning naming ENOSPC, the build succeeds ${mountSkip ?? ''}`, async () => {
    const m = path.join(mkTempDir('full'), 'mnt');
    mountTmpfs(m, 'size=256k');
    fs.mkdirSync(path.join(m, 'cache'));
    // Fill it to the last byte.
    const fd = fs.openSync(path.join(m, 'fill'), 'w');
    try { for (;;) fs.writeSync(fd, Buffer.alloc(4096)); } catch (e) { expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC'); }
    fs.closeSync(fd);
    await buildsUncached('full', path.join(m, 'cache'), /\(ENOSPC\)/);
  });

  it('a cache directory removed under a running daemon: the daemon opens a fresh store there; stats and the daemon agree', async () => {
    const u = getUnit();
    const sb = box('rmrf');
    const first = await build(sb, u);
    expect(first.code, first.err).toBe(0);
    const pid = daemonPid(sb);
    expect(stats(sb).counters.requests).toBe(1);   // the daemon has written its counters: they go with the directory
    fs.rmSync(sb.cacheDir, { recursive: true, force: true });

    const second = await build(sb, u);
    expect(second.code, second.err).toBe(0);
    expect(second.ptx).toBe(first.ptx);
    expect(warnings(second.err)).toEqual([]);
    expect(daemonPid(sb)).toBe(pid);
    expect(fs.existsSync(path.join(sb.cacheDir, 'units.mdb'))).toBe(true);
    expect(fs.readFileSync(`${sb.socket}.log`, 'utf8')).toMatch(/cache file .*units\.mdb was removed or replaced; reopening/);
    // The unit went into the new store (not into the deleted file): the next build hits it, and what
    // `ptxd stats` reads from the store is what the daemon counted since it reopened.
    const third = await build(sb, u);
    expect(third.code, third.err).toBe(0);
    const s = stats(sb);
    expect(s.cache).toMatchObject({ entries: 1 });
    expect(s.counters).toMatchObject({ requests: 2, misses: 1, hits: 1 });
    expect(s.daemon).toMatchObject({ pid, served: 3 });
    // The daemon lets go of the deleted files: its compile workers close theirs between compiles (bounded wait).
    const deleted = () => fs.readdirSync(`/proc/${pid}/fd`)
      .map(f => { try { return fs.readlinkSync(`/proc/${pid}/fd/${f}`); } catch { return ''; } })
      .filter(l => l.includes('units.mdb') && l.endsWith('(deleted)'));
    await waitFor(() => deleted().length === 0, 20_000);
    expect(deleted()).toEqual([]);
  });

  it('`ptxd cache clear` under a running daemon: the daemon notices, the next build stores into the new file', async () => {
    const u = getUnit();
    const sb = box('clear');
    const first = await build(sb, u);
    expect(first.code, first.err).toBe(0);
    const c = ptxd(sb, ['cache', 'clear']);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toMatch(/^removed the unit cache and the statistics \(\d+ files, .*\) in /);
    const second = await build(sb, u);
    expect(second.code, second.err).toBe(0);
    expect(second.ptx).toBe(first.ptx);
    const s = stats(sb);
    expect(s.cache).toMatchObject({ entries: 1 });
    expect(s.counters).toMatchObject({ requests: 1, misses: 1 });
  });
});
