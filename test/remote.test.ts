// The team cache end to end: real `make -j4` builds of make-integration/example with real nvcc and
// ptxd-cicc (PTXD_FALLBACK=never), daemons with separate local caches (separate PTXD_CACHE_DIR, as on
// separate machines) sharing one real server on loopback: redis-server, then `ptxd cache serve`.
// For each backend:
//   1. a writer (CI: has the write key) builds: all misses, and its compiles reach the server;
//   2. a read-only daemon with an empty local cache builds: every unit comes from the server (stats),
//      the device code is byte-identical to the writer's;
//   3. one server entry is tampered with (value changed, signature kept): a third daemon rejects it
//      (bad signature), recompiles that unit, gets the rest from the server, produces identical code,
//      and being read-only leaves the server untouched (the tampered bytes are still there);
//   4. the server is killed in the middle of a fourth daemon's build: the build succeeds with identical
//      device code (the cost of a dead remote is measured in bench/remote-bench.ts, not asserted here).
// The two builds share one source directory: cudafe++ derives the module id from the source's absolute
// path, so two machines share hits for the same checkout path (as CI containers and build farms have).
// The HTTP scenario runs against `ptxd cache serve` and against a stock nginx with its WebDAV module.
// Oracles: ptxas/nvcc accept the PTX (the build links), objects' .nv_fatbin sections compared byte for
// byte, the server's own view (redis-cli, the object directory).

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, mkTempDir, requireTool, skipReason } from './helpers/tools';
import {
  PTXD_CICC_BIN, exampleProject, fatbinSection, runAsync, sandbox, sleep, stats, stopDaemon, waitFor, type DaemonSandbox,
} from './helpers/daemon';
import { nginxSkip, redisSkip, startNginxDav, startRedis, startServe } from './helpers/remote-servers';
import { RedisBackend } from '../service/store/remote/redis';

const SOURCES = fs.readdirSync(path.join(REPO_ROOT, 'make-integration', 'example')).filter(f => f.endsWith('.cu')).sort();
const skip = skipReason('nvcc', 'ptxas') ?? skipReason('make');

const sandboxes: DaemonSandbox[] = [];
const servers: { stop(): void }[] = [];
afterAll(async () => {
  for (const sb of sandboxes) await stopDaemon(sb);
  for (const s of servers) s.stop();
});

const TEAM = 'team-key-for-tests';
const WRITE = 'ci-write-key-for-tests';

/** A daemon sandbox ("machine") using the remote at `url`; a writer has the write key. */
function machine(name: string, url: string, writer: boolean): DaemonSandbox {
  const sb = sandbox(name, {
    PTXD_REMOTE: url, PTXD_REMOTE_KEY: TEAM, PTXD_CONFIG: path.join(mkTempDir('no-config'), 'none.json'),
    // Generous: these builds run on a loaded machine and test what is served, not how fast (bench/remote-bench.ts does).
    PTXD_REMOTE_TIMEOUT_MS: '5000', PTXD_REMOTE_CONNECT_TIMEOUT_MS: '2000',
  });
  if (writer) sb.env.PTXD_REMOTE_WRITE_KEY = WRITE; else delete sb.env.PTXD_REMOTE_WRITE_KEY;
  sandboxes.push(sb);
  return sb;
}

function make(sb: DaemonSandbox, src: string, build: string) {
  return runAsync(requireTool('make'), ['-j4', `NVCC=${requireTool('nvcc')}`, `BUILD=${build}`, `NVCCFLAGS_EXTRA=--cicc-prefix=${PTXD_CICC_BIN}`],
    { env: sb.env, cwd: src });
}

function sameDeviceCode(src: string, a: string, b: string): void {
  for (const cu of SOURCES) {
    const o = cu.replace(/\.cu$/, '.o');
    expect(fatbinSection(path.join(src, b, o)).equals(fatbinSection(path.join(src, a, o))), `${b}/${o}`).toBe(true);
  }
}

interface Server {
  url: string;
  /** Names of the entries on the server, as the server itself sees them. */
  entries(): string[];
  read(name: string): Promise<Buffer>;
  write(name: string, value: Buffer): Promise<void>;
  kill(): void;
}

async function scenario(kind: string, server: Server): Promise<void> {
  const { src } = exampleProject(`remote-${kind}`, sandboxes);
  const N = SOURCES.length;

  // 1. CI builds and fills the team cache.
  const ci = machine(`${kind}-ci`, server.url, true);
  let r = await make(ci, src, 'build-ci');
  expect(r.code, r.out + r.err).toBe(0);
  expect(stats(ci).counters).toMatchObject({ requests: N, misses: N, hits: 0, remoteMisses: N, remoteHits: 0, remoteErrors: 0 });
  expect(await waitFor(() => server.entries().length === N, 60_000), `${N} entries reach the server`).toBe(true);
  expect(stats(ci).counters).toMatchObject({ remoteWrites: N, remoteWriteErrors: 0, remoteDropped: 0 });
  const names = server.entries();
  expect(names.every(n => /unit-[0-9a-f]{64}$/.test(n)), names.join(' ')).toBe(true);

  // 2. A developer's machine (read-only, empty local cache): every unit from the team cache.
  const dev = machine(`${kind}-dev`, server.url, false);
  r = await make(dev, src, 'build-dev');
  expect(r.code, r.out + r.err).toBe(0);
  const d = stats(dev).counters;
  expect(d).toMatchObject({ requests: N, hits: N, misses: 0, remoteHits: N, remoteBadSignatures: 0, remoteWrites: 0 });
  expect(d.remoteBytesIn).toBeGreaterThan(0);
  sameDeviceCode(src, 'build-ci', 'build-dev');
  // And what came from the server is in its own local cache now (a rebuild would be served locally:
  // test/daemon.test.ts covers local hits).
  expect(stats(dev).cache?.entries).toBe(N);

  // 3. A tampered entry: the last byte of the value changed, the signature kept.
  const victim = names[0]!;
  const good = await server.read(victim);
  const bad = Buffer.from(good);
  bad[bad.length - 1]! ^= 0x5a;
  await server.write(victim, bad);
  const dev2 = machine(`${kind}-dev2`, server.url, false);
  r = await make(dev2, src, 'build-dev2');
  expect(r.code, r.out + r.err).toBe(0);
  expect(stats(dev2).counters).toMatchObject({ requests: N, remoteBadSignatures: 1, misses: 1, remoteHits: N - 1, hits: N - 1, remoteWrites: 0 });
  sameDeviceCode(src, 'build-ci', 'build-dev2');
  // Read-only: it recompiled that unit but wrote nothing back.
  expect(server.entries()).toEqual(names);
  expect((await server.read(victim)).equals(bad)).toBe(true);

  // 4. The server dies in the middle of a build (after the first object is written).
  const dev3 = machine(`${kind}-dev3`, server.url, true);
  const build = make(dev3, src, 'build-dev3');
  let done = false;
  void build.then(() => { done = true; });
  const dir = path.join(src, 'build-dev3');
  const objects = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.o')).length : 0);
  while (!done && objects() === 0) await sleep(10);
  const before = objects();
  server.kill();
  expect(done, 'make was still running when the server was killed').toBe(false);
  expect(before).toBeLessThan(N);
  r = await build;
  expect(r.code, r.out + r.err).toBe(0);
  sameDeviceCode(src, 'build-ci', 'build-dev3');
  const k = stats(dev3).counters;
  expect(k.hits + k.misses).toBe(N);
  expect(k.remoteHits, 'some units came from the server before it died').toBeGreaterThan(0);
  expect(k.remoteErrors + k.remoteSkipped, 'later units found it dead').toBeGreaterThan(0);
  expect(k.misses).toBeGreaterThan(0);
  expect(stats(dev3).fallbacks.total).toBe(0);
}

describe.skipIf(skip !== undefined || redisSkip !== undefined)(`team cache with redis-server ${skip ?? redisSkip ?? ''}`, () => {
  it('CI writes, developers read: hits from Redis, a tampered entry rejected, a read-only client never writes, a dead server changes nothing', async () => {
    const redis = await startRedis(path.join(mkTempDir('remote-redis'), 'redis'));
    servers.push(redis);
    const admin = new RedisBackend(redis.url, { timeoutMs: 10_000, writeTimeoutMs: 10_000, connectTimeoutMs: 10_000, ttlSeconds: 0 });
    try {
      await scenario('redis', {
        url: redis.url,
        entries: () => redis.cli('--raw', 'KEYS', 'ptxd:*').split('\n').filter(Boolean).map(k => k.replace(/^ptxd:/, '')).sort(),
        read: async n => (await admin.get(n))!,
        write: (n, v) => admin.put(n, v),
        kill: () => { admin.close(); redis.stop(); },
      });
    } finally {
      admin.close();
    }
  });
});

describe.skipIf(skip !== undefined)(`team cache with ptxd cache serve ${skip ?? ''}`, () => {
  it('the same over HTTP, with the server enforcing the write key', async () => {
    const dir = mkTempDir('remote-http');
    const srv = await startServe(dir, { ...process.env, PTXD_REMOTE_WRITE_KEY: WRITE });
    servers.push(srv);
    const file = (n: string) => path.join(srv.dir, n.slice(0, 2), n);
    await scenario('http', {
      url: srv.url,
      entries: () => srv.objects(),
      read: async n => fs.readFileSync(file(n)),
      write: async (n, v) => { fs.writeFileSync(`${file(n)}.t`, v); fs.renameSync(`${file(n)}.t`, file(n)); },
      kill: () => srv.stop(),
    });
  });
});

describe.skipIf(skip !== undefined || nginxSkip !== undefined)(`team cache with nginx's WebDAV module ${skip ?? nginxSkip ?? ''}`, () => {
  it('the same against a stock WebDAV server (PUT refused without the write key by its own configuration)', async () => {
    const srv = await startNginxDav(mkTempDir('remote-nginx'), WRITE);
    servers.push(srv);
    // The server's own check: a PUT without the write key is refused and stores nothing.
    const refused = await fetch(`${srv.url}/unit-${'0'.repeat(64)}`, { method: 'PUT', body: 'x', headers: { authorization: 'Bearer guess' } });
    expect(refused.status).toBe(403);
    expect(srv.objects()).toEqual([]);
    await scenario('nginx', {
      url: srv.url,
      entries: () => srv.objects(),
      read: async n => fs.readFileSync(path.join(srv.dir, n)),
      write: async (n, v) => { fs.writeFileSync(path.join(srv.dir, `${n}.t`), v); fs.renameSync(path.join(srv.dir, `${n}.t`), path.join(srv.dir, n)); },
      kill: () => srv.stop(),
    });
  });
});
