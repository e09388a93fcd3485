// ptxd beside ccache: Debian's ccache as CMAKE_CUDA_COMPILER_LAUNCHER, ptxd as nvcc's cicc (--cicc-prefix,
// the daemon with its unit cache). ccache caches whole nvcc calls; ptxd caches and compiles cicc's part.
// What each build must show (ccache's own counters from `ccache --print-stats`, ptxd's from `ptxd stats`):
//   1. cold: ccache misses every unit, ptxd compiles each once (ccache's preprocessing runs no cicc);
//   2. clean rebuild: ccache hits every unit, ptxd is not called at all (no double work);
//   3. one unit edited: ccache misses that unit only, ptxd compiles that unit only;
//   4. ccache's cache emptied: ccache misses every unit, ptxd serves every one from its unit cache.
// Correctness: every object equals, byte for byte (nvcc's per-process temp name masked), the object of a
// build of the same sources without ccache (CCACHE_DISABLE) and with ptxd's cache off.

import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findTool, mkTempDir, requireTool, skipReason } from './helpers/tools';
import { PTXD_CICC_BIN, runAsync, sandbox, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const CCACHE = findTool('ccache') ?? undefined;
const skip = skipReason('nvcc', 'ptxas') ?? skipReason('cmake') ??
  (CCACHE ? undefined : 'skipped: ccache not found (Debian: apt-get install ccache)');

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

/** ccache's counters that say what it did with the units (hits of either mode, misses). */
function ccacheStats(env: NodeJS.ProcessEnv): { hits: number; misses: number } {
  const r = spawnSync(CCACHE!, ['--print-stats'], { env, encoding: 'utf8' });
  const v = (k: string) => Number(new RegExp(`^${k}\\t(\\d+)$`, 'm').exec(r.stdout)?.[1] ?? NaN);
  return { hits: v('direct_cache_hit') + v('preprocessed_cache_hit'), misses: v('cache_miss') };
}

describe.skipIf(skip !== undefined)(`ccache in front of nvcc, ptxd as its cicc ${skip ?? ''}`, () => {
  it('cold, clean rebuild, one-unit edit, emptied ccache: each cache does its part once, objects as without caches', async () => {
    const root = mkTempDir('ccache');
    const src = path.join(root, 'src'), build = path.join(src, 'build');
    write(src, 2);
    const sb = sandbox('ccache', { CCACHE_DIR: path.join(root, 'ccache'), PTXD_REMOTE: '' });
    sandboxes.push(sb);
    await cmake(sb.env, ['-S', src, '-B', build, '-G', 'Unix Makefiles', `-DCMAKE_CUDA_COMPILER=${requireTool('nvcc')}`,
      '-DCMAKE_CUDA_ARCHITECTURES=75', `-DCMAKE_CUDA_COMPILER_LAUNCHER=${CCACHE}`]);
    const step = async (what: () => Promise<void>) => {
      const p0 = stats(sb).counters, c0 = ccacheStats(sb.env);
      await what();
      const p1 = stats(sb).counters, c1 = ccacheStats(sb.env);
      return { ccacheHits: c1.hits - c0.hits, ccacheMisses: c1.misses - c0.misses, ptxdRequests: p1.requests - p0.requests,
        ptxdHits: p1.hits - p0.hits, ptxdMisses: p1.misses - p0.misses };
    };
    const rebuild = async () => {
      await cmake(sb.env, ['--build', build, '--target', 'clean']);
      await cmake(sb.env, ['--build', build, '-j2']);
    };

    expect(await step(() => cmake(sb.env, ['--build', build, '-j2'])), 'cold')
      .toEqual({ ccacheHits: 0, ccacheMisses: N, ptxdRequests: N, ptxdHits: 0, ptxdMisses: N });
    const cold = objects(build);
    expect(await step(rebuild), 'clean rebuild').toEqual({ ccacheHits: N, ccacheMisses: 0, ptxdRequests: 0, ptxdHits: 0, ptxdMisses: 0 });
    const rebuilt = objects(build);
    for (const f of Object.keys(UNITS)) expect(rebuilt.get(f)!.equals(cold.get(f)!), f).toBe(true);

    fs.writeFileSync(path.join(src, 'scale.cu'), UNITS['scale.cu']!(3));
    expect(await step(() => cmake(sb.env, ['--build', build, '-j2'])), 'one unit edited')
      .toEqual({ ccacheHits: 0, ccacheMisses: 1, ptxdRequests: 1, ptxdHits: 0, ptxdMisses: 1 });
    const edited = objects(build);

    const r = spawnSync(CCACHE!, ['--clear'], { env: sb.env });
    expect(r.status).toBe(0);
    expect(await step(rebuild), 'ccache emptied').toEqual({ ccacheHits: 0, ccacheMisses: N, ptxdRequests: N, ptxdHits: N, ptxdMisses: 0 });
    const fromPtxd = objects(build);

    // The oracle: the edited sources built again without either cache (CCACHE_DISABLE: ccache runs nvcc as is).
    const plain = sandbox('ccache-plain', { PTXD_CACHE: '0', PTXD_DAEMON: '0', PTXD_REMOTE: '', CCACHE_DISABLE: '1', CCACHE_DIR: path.join(root, 'ccache') });
    const c0 = ccacheStats(plain.env);
    await cmake(plain.env, ['--build', build, '--target', 'clean']);
    await cmake(plain.env, ['--build', build, '-j2']);
    expect(ccacheStats(plain.env), 'ccache stood aside').toEqual(c0);
    const plainBuild = build;
    const expected = objects(plainBuild);
    for (const f of Object.keys(UNITS)) {
      expect(edited.get(f)!.equals(expected.get(f)!), `${f} after the edit`).toBe(true);
      expect(fromPtxd.get(f)!.equals(expected.get(f)!), `${f} from ptxd's cache`).toBe(true);
    }
  });
});
