// The team cache across checkouts: one CMake project (-lineinfo; units with anonymous namespaces, static
// and internal device variables, a device assert and printf of __FILE__) checked out at two absolute paths of different lengths, as on two
// developers' machines (separate daemons and local caches, each with PTXD_BASEDIR set to its own checkout
// root), sharing one team cache: a real redis-server, and with PTXD_LONG=1 `ptxd cache serve` too.
//   1. the first checkout builds (the writer): every unit a miss, offered to the team cache;
//   2. the second checkout builds: every unit a team hit (nothing compiled), although cudafe++ gave each
//      unit another module id and every line marker names another path;
// ptxd is the cicc of the project's target (target_compile_options), not of CMake's configure-time probes.
//   3. oracle for the moved results: the second checkout built again from scratch with the cache off (a
//      compile at that path). Objects are compared whole, byte for byte, with only nvcc's per-process temp
//      file name (tmpxft_<pid>_…, in the host object's file symbol) masked, as two stock builds differ there.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LONG, mkTempDir, requireTool, skipReason } from './helpers/tools';
import { PTXD_CICC_BIN, ptxd, runAsync, sandbox, stats, stopDaemon, waitFor, type DaemonSandbox } from './helpers/daemon';
import { redisSkip, startRedis, startServe } from './helpers/remote-servers';

const skip = skipReason('nvcc', 'ptxas') ?? skipReason('cmake') ?? redisSkip;

const UNITS: Record<string, string> = {
  'counter.cu': `
namespace { __device__ int hits; __global__ void count(int *out) { atomicAdd(&hits, 1); out[0] = hits; } }
void run_count(int *out) { count<<<1, 32>>>(out); }
`,
  'table.cu': `
static __device__ float table[8];
static __global__ void lookup(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = table[i % 8] * 2.0f; }
void run_lookup(float *x, int n) { lookup<<<1, 64>>>(x, n); }
`,
  'mixed.cu': `
namespace detail { namespace { __device__ unsigned seen[4]; } }
namespace { template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; atomicAdd(&detail::seen[threadIdx.x & 3], 1u); } }
void run_fill(float *p) { fill<<<1, 16>>>(p, 1.5f); }
void run_fill(int *p) { fill<<<1, 16>>>(p, 7); }
`,
  'plain.cu': `
__device__ int total;
__global__ void add(const int *in, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&total, in[i]); }
void run_add(const int *in, int n) { add<<<(n + 127) / 128, 128>>>(in, n); }
`,
  // A device assert and printf of __FILE__: the checkout's path in string literals (moved: service/relocate-strings.ts).
  'checks.cu': `
#include <cassert>
#include <cstdio>
__global__ void check(const int *in, int n) { int i = threadIdx.x; assert(in[i] < n); if (in[i] == 0) printf("%s: zero at %d\\n", __FILE__, i); }
void run_check(const int *in, int n) { check<<<1, 32>>>(in, n); }
`,
};
const N = Object.keys(UNITS).length;

const TEAM = 'team-key-for-tests';
const WRITE = 'ci-write-key-for-tests';
const sandboxes: DaemonSandbox[] = [];
const servers: { stop(): void }[] = [];
afterAll(async () => {
  for (const sb of sandboxes) await stopDaemon(sb);
  for (const s of servers) s.stop();
});

/** The project checked out under `root` (the checkout's base directory). */
function checkout(root: string): string {
  const src = path.join(root, 'src', 'gpu-lib');
  fs.mkdirSync(src, { recursive: true });
  for (const [f, text] of Object.entries(UNITS)) fs.writeFileSync(path.join(src, f), text);
  fs.writeFileSync(path.join(src, 'CMakeLists.txt'), `cmake_minimum_required(VERSION 3.18)
project(gpulib LANGUAGES CUDA)
add_library(gpulib STATIC ${Object.keys(UNITS).join(' ')})
target_compile_options(gpulib PRIVATE --cicc-prefix=${PTXD_CICC_BIN} -lineinfo)
`);
  return src;
}

function machine(name: string, url: string, baseDir: string, writer: boolean): DaemonSandbox {
  const sb = sandbox(name, {
    PTXD_REMOTE: url, PTXD_REMOTE_KEY: TEAM, PTXD_BASEDIR: baseDir, PTXD_CONFIG: path.join(mkTempDir('no-config'), 'none.json'),
    PTXD_REMOTE_TIMEOUT_MS: '5000', PTXD_REMOTE_CONNECT_TIMEOUT_MS: '2000',
  });
  if (writer) sb.env.PTXD_REMOTE_WRITE_KEY = WRITE; else delete sb.env.PTXD_REMOTE_WRITE_KEY;
  sandboxes.push(sb);
  return sb;
}

async function cmake(env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  const r = await runAsync(requireTool('cmake'), args, { env });
  expect(r.code, `cmake ${args.join(' ')}: ${r.out}${r.err}`).toBe(0);
}

const configure = (src: string, build: string, env: NodeJS.ProcessEnv) => cmake(env, ['-S', src, '-B', build, '-G', 'Unix Makefiles',
  `-DCMAKE_CUDA_COMPILER=${requireTool('nvcc')}`, '-DCMAKE_CUDA_ARCHITECTURES=75']);

/** The objects of a build, with nvcc's per-process temp name masked (same length). */
function objects(build: string): Map<string, Buffer> {
  const dir = path.join(build, 'CMakeFiles', 'gpulib.dir');
  const r = new Map<string, Buffer>();
  for (const f of Object.keys(UNITS)) {
    const b = Buffer.from(fs.readFileSync(path.join(dir, `${f}.o`)).toString('latin1').replace(/tmpxft_[0-9a-f]{8}_[0-9a-f]{8}/g, 'tmpxft_XXXXXXXX_XXXXXXXX'), 'latin1');
    r.set(f, b);
  }
  return r;
}

async function scenario(kind: string, url: string, entries: () => number): Promise<void> {
  const root = mkTempDir(`team-${kind}`);
  const alice = path.join(root, 'alice'), bob = path.join(root, 'home', 'bob', 'checkouts', 'b');
  const srcA = checkout(alice), srcB = checkout(bob);

  // 1. The first checkout fills the team cache.
  const a = machine(`${kind}-a`, url, alice, true);
  await configure(srcA, path.join(srcA, 'build'), a.env);
  const a0 = stats(a).counters;
  await cmake(a.env, ['--build', path.join(srcA, 'build'), '-j2']);
  const a1 = stats(a).counters;
  expect(a1.misses - a0.misses, 'the first checkout compiles every unit').toBe(N);
  expect(await waitFor(() => stats(a).counters.remoteWrites - a0.remoteWrites >= N, 60_000), 'its results reach the team cache').toBe(true);
  const before = entries();

  // 2. The second checkout, elsewhere: all team hits.
  const b = machine(`${kind}-b`, url, bob, false);
  const buildB = path.join(srcB, 'build');
  await configure(srcB, buildB, b.env);
  const b0 = stats(b).counters;
  await cmake(b.env, ['--build', buildB, '-j2']);
  const b1 = stats(b).counters;
  expect({ misses: b1.misses - b0.misses, hits: b1.hits - b0.hits, remoteHits: b1.remoteHits - b0.remoteHits, unsupported: b1.unsupported })
    .toEqual({ misses: 0, hits: N, remoteHits: N, unsupported: 0 });
  expect(entries(), 'a read-only checkout writes nothing').toBe(before);
  // What `ptxd stats` tells the team: hits by origin, results moved from the other checkout, time saved.
  expect(b1.movedHits - b0.movedHits).toBe(N);
  expect(b1.remoteSavedMs - b0.remoteSavedMs).toBeGreaterThan(0);
  const text = ptxd(b, ['stats']).out;
  expect(text).toContain(`${b1.hits} hits (${b1.hits - b1.remoteHits} local, ${b1.remoteHits} team)`);
  expect(text).toContain(`other checkouts   ${b1.movedHits} hits compiled at another path`);
  expect(text).toMatch(/saved {11}\d+\.\d s of compiling by team hits/);
  const hit = objects(buildB);

  // 3. The same checkout compiled at its own path with no cache at all: the same objects.
  const cold = sandbox(`${kind}-cold`, { PTXD_CACHE: '0', PTXD_REMOTE: '', PTXD_DAEMON: '0', PTXD_BASEDIR: bob });
  await cmake(cold.env, ['--build', buildB, '--target', 'clean']);
  await cmake(cold.env, ['--build', buildB, '-j2']);
  const compiled = objects(buildB);
  for (const f of Object.keys(UNITS)) expect(hit.get(f)!.equals(compiled.get(f)!), `${f}.o byte-identical to a compile at ${bob}`).toBe(true);
  // The anonymous namespaces really were renamed between the checkouts (else this test proves nothing).
  const idA = fs.readFileSync(path.join(srcA, 'build', 'CMakeFiles', 'gpulib.dir', 'counter.cu.o')).toString('latin1').match(/_GLOBAL__N__[0-9a-f]{8}_/)?.[0];
  const idB = hit.get('counter.cu')!.toString('latin1').match(/_GLOBAL__N__[0-9a-f]{8}_/)?.[0];
  expect(idA && idB && idA !== idB, `${idA} vs ${idB}`).toBe(true);
  // So were the assert's file names (each object holds its own checkout's path).
  const checksA = fs.readFileSync(path.join(srcA, 'build', 'CMakeFiles', 'gpulib.dir', 'checks.cu.o')).toString('latin1');
  expect(checksA.includes(path.join(srcA, 'checks.cu')) && hit.get('checks.cu')!.toString('latin1').includes(path.join(srcB, 'checks.cu'))).toBe(true);
}

describe.skipIf(skip !== undefined)(`two checkouts at different paths, one team cache ${skip ?? ''}`, () => {
  it('redis-server: the second checkout is all team hits, its objects byte-identical to a compile at its path', async () => {
    const redis = await startRedis(mkTempDir('team-redis'));
    servers.push(redis);
    await scenario('redis', redis.url, () => redis.cli('DBSIZE').length > 0 ? Number(redis.cli('DBSIZE')) : 0);
  });

  // The HTTP backend doubles the time (CMake configures and builds): with PTXD_LONG=1 (test/remote.test.ts covers it at one path).
  it.skipIf(!LONG)(`ptxd cache serve: the same${LONG ? '' : ' (skipped: set PTXD_LONG=1)'}`, async () => {
    const serve = await startServe(mkTempDir('team-serve'), { ...process.env, PTXD_REMOTE_WRITE_KEY: WRITE });
    servers.push(serve);
    await scenario('serve', serve.url, () => serve.objects().length);
  });
});
