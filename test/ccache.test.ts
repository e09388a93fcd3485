// ptxd beside ccache and sccache: Debian's ccache, then (PTXD_LONG=1) Debian's sccache (0.4: it caches whole
// nvcc calls as ccache does), as CMAKE_CUDA_COMPILER_LAUNCHER, ptxd as nvcc's cicc (--cicc-prefix, the daemon with its unit
// cache). The launcher caches whole nvcc calls; ptxd caches and compiles cicc's part.
// What each build must show (the launcher's own counters, `ccache --print-stats` / `sccache --show-stats`;
// ptxd's from `ptxd stats`):
//   1. cold: ccache misses every unit, ptxd compiles each once (ccache's preprocessing runs no cicc);
//   2. clean rebuild: ccache hits every unit, ptxd is not called at all (no double work);
//   3. one unit edited: ccache misses that unit only, ptxd compiles that unit only;
//   4. the launcher's cache emptied: it misses every unit, ptxd serves every one from its unit cache.
// Correctness: every object equals, byte for byte (nvcc's per-process temp name masked), the object of a
// build of the same sources without a launcher and with ptxd's cache off.

import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LONG, findTool, mkTempDir, requireTool, skipReason } from './helpers/tools';
import { freePort } from './helpers/remote-servers';
import { PTXD_CICC_BIN, runAsync, sandbox, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const skip = skipReason('nvcc', 'ptxas') ?? skipReason('cmake');

const UNITS: Record<string, (v: number) => string> = {
  'scale.cu': v => `__global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= ${v}.0f; }
void run_scale(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
`,
  'count.cu': () => `namespace { __device__ int seen; __global__ void count(int *o) { atomicAdd(&seen, 1); o[0] = seen; } }
void run_count(int *o) { count<<<1, 32>>>(o); }
`,
  'table.cu': () => `static __device__ float table[8];
__global__ void lookup(float *x) { x[threadIdx.x] = table[threadIdx.x & 7]; }
void run_lookup(float *x) { lookup<<<1, 64>>>(x); }
`,
};
const N = Object.keys(UNITS).length;

const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

function write(src: string, v: number): void {
  fs.mkdirSync(src, { recursive: true });
  for (const [f, text] of Object.entries(UNITS)) fs.writeFileSync(path.join(src, f), text(v));
  fs.writeFileSync(path.join(src, 'CMakeLists.txt'), `cmake_minimum_required(VERSION 3.18)
project(cc LANGUAGES CUDA)
add_library(cc STATIC ${Object.keys(UNITS).join(' ')})
target_compile_options(cc PRIVATE --cicc-prefix=${PTXD_CICC_BIN})
`);
}

async function cmake(env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  const r = await runAsync(requireTool('cmake'), args, { env });
  expect(r.code, `cmake ${args.join(' ')}: ${r.out}${r.err}`).toBe(0);
}

function objects(build: string): Map<string, Buffer> {
  const r = new Map<string, Buffer>();
  for (const f of Object.keys(UNITS)) {
    const text = fs.readFileSync(path.join(build, 'CMakeFiles', 'cc.dir', `${f}.o`)).toString('latin1');
    r.set(f, Buffer.from(text.replace(/tmpxft_[0-9a-f]{8}_[0-9a-f]{8}/g, 'tmpxft_XXXXXXXX_XXXXXXXX'), 'latin1'));
  }
  return r;
}

interface Launcher {
  name: 'ccache' | 'sccache';
  /** Its counters: hits of any kind, misses. */
  counts(env: NodeJS.ProcessEnv): { hits: number; misses: number };
  start(env: NodeJS.ProcessEnv): void;
  /** Empties its cache. */
  clear(env: NodeJS.ProcessEnv): void;
  stop(env: NodeJS.ProcessEnv): void;
}

const tool = (name: 'ccache' | 'sccache', args: string[], env: NodeJS.ProcessEnv): string => {
  const r = spawnSync(findTool(name)!, args, { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const counter = (text: string, re: string) => Number(new RegExp(re, 'm').exec(text)?.[1] ?? NaN);

const CCACHE: Launcher = {
  name: 'ccache',
  counts: env => {
    const t = tool('ccache', ['--print-stats'], env);
    return { hits: counter(t, '^direct_cache_hit\\t(\\d+)$') + counter(t, '^preprocessed_cache_hit\\t(\\d+)$'), misses: counter(t, '^cache_miss\\t(\\d+)$') };
  },
  start: () => {},
  clear: env => { tool('ccache', ['--clear'], env); },
  stop: () => {},
};

// sccache runs a server per SCCACHE_DIR (and port): started and stopped here, emptied by restarting it on an empty directory.
const SCCACHE: Launcher = {
  name: 'sccache',
  counts: env => {
    const t = tool('sccache', ['--show-stats'], env);
    return { hits: counter(t, '^Cache hits\\s+(\\d+)$'), misses: counter(t, '^Cache misses\\s+(\\d+)$') };
  },
  start: env => { tool('sccache', ['--start-server'], env); },
  clear: env => {
    spawnSync(findTool('sccache')!, ['--stop-server'], { env, stdio: 'ignore' });
    fs.rmSync(env.SCCACHE_DIR!, { recursive: true, force: true });
    tool('sccache', ['--start-server'], env);
  },
  stop: env => { spawnSync(findTool('sccache')!, ['--stop-server'], { env, stdio: 'ignore' }); },
};

const running: { l: Launcher; env: NodeJS.ProcessEnv }[] = [];
afterAll(() => { for (const r of running) r.l.stop(r.env); });

async function scenario(l: Launcher): Promise<void> {
  const root = mkTempDir(l.name);
  const src = path.join(root, 'src'), build = path.join(src, 'build');
  write(src, 2);
  const sb = sandbox(l.name, {
    CCACHE_DIR: path.join(root, 'ccache'), SCCACHE_DIR: path.join(root, 'sccache'), PTXD_REMOTE: '',
    // A private sccache server (the default port may be another's).
    SCCACHE_SERVER_PORT: String(await freePort()), SCCACHE_IDLE_TIMEOUT: '0',
  });
  sandboxes.push(sb);
  l.start(sb.env);
  running.push({ l, env: sb.env });
  await cmake(sb.env, ['-S', src, '-B', build, '-G', 'Unix Makefiles', `-DCMAKE_CUDA_COMPILER=${requireTool('nvcc')}`,
    '-DCMAKE_CUDA_ARCHITECTURES=75', `-DCMAKE_CUDA_COMPILER_LAUNCHER=${findTool(l.name)}`]);
  const step = async (what: () => Promise<void>) => {
    const p0 = stats(sb).counters, c0 = l.counts(sb.env);
    await what();
    const p1 = stats(sb).counters, c1 = l.counts(sb.env);
    return { launcherHits: c1.hits - c0.hits, launcherMisses: c1.misses - c0.misses, ptxdRequests: p1.requests - p0.requests,
      ptxdHits: p1.hits - p0.hits, ptxdMisses: p1.misses - p0.misses };
  };
  const rebuild = async () => {
    await cmake(sb.env, ['--build', build, '--target', 'clean']);
    await cmake(sb.env, ['--build', build, '-j2']);
  };

  expect(await step(() => cmake(sb.env, ['--build', build, '-j2'])), 'cold')
    .toEqual({ launcherHits: 0, launcherMisses: N, ptxdRequests: N, ptxdHits: 0, ptxdMisses: N });
  const cold = objects(build);
  expect(await step(rebuild), 'clean rebuild').toEqual({ launcherHits: N, launcherMisses: 0, ptxdRequests: 0, ptxdHits: 0, ptxdMisses: 0 });
  const rebuilt = objects(build);
  for (const f of Object.keys(UNITS)) expect(rebuilt.get(f)!.equals(cold.get(f)!), f).toBe(true);

  fs.writeFileSync(path.join(src, 'scale.cu'), UNITS['scale.cu']!(3));
  expect(await step(() => cmake(sb.env, ['--build', build, '-j2'])), 'one unit edited')
    .toEqual({ launcherHits: 0, launcherMisses: 1, ptxdRequests: 1, ptxdHits: 0, ptxdMisses: 1 });
  const edited = objects(build);

  l.clear(sb.env);
  expect(await step(rebuild), 'launcher cache emptied').toEqual({ launcherHits: 0, launcherMisses: N, ptxdRequests: N, ptxdHits: N, ptxdMisses: 0 });
  const fromPtxd = objects(build);

  // The oracle: the edited sources built in a build directory without a launcher, ptxd's cache off.
  const plain = sandbox(`${l.name}-plain`, { PTXD_CACHE: '0', PTXD_DAEMON: '0', PTXD_REMOTE: '' });
  const plainBuild = path.join(src, 'plain');
  await cmake(plain.env, ['-S', src, '-B', plainBuild, '-G', 'Unix Makefiles', `-DCMAKE_CUDA_COMPILER=${requireTool('nvcc')}`, '-DCMAKE_CUDA_ARCHITECTURES=75']);
  const c0 = l.counts(sb.env);
  await cmake(plain.env, ['--build', plainBuild, '-j2']);
  expect(l.counts(sb.env), 'no launcher').toEqual(c0);
  const expected = objects(plainBuild);
  for (const f of Object.keys(UNITS)) {
    expect(edited.get(f)!.equals(expected.get(f)!), `${f} after the edit`).toBe(true);
    expect(fromPtxd.get(f)!.equals(expected.get(f)!), `${f} from ptxd's cache`).toBe(true);
  }
}

const launcherSkip = (name: 'ccache' | 'sccache') => skip ?? (findTool(name) ? undefined : `skipped: ${name} not found (Debian: apt-get install ${name})`);

describe('ptxd as the cicc behind a compiler launcher', () => {
  it.skipIf(launcherSkip('ccache') !== undefined)(`ccache: cold, clean rebuild, one-unit edit, emptied cache: each cache does its part once, objects as without caches ${launcherSkip('ccache') ?? ''}`,
    () => scenario(CCACHE));
  // The same again with sccache doubles the file's time: with PTXD_LONG=1.
  const sccacheSkip = launcherSkip('sccache') ?? (LONG ? undefined : 'skipped: set PTXD_LONG=1');
  it.skipIf(sccacheSkip !== undefined)(`sccache: the same ${sccacheSkip ?? ''}`, () => scenario(SCCACHE));
});
