// What every benchmark shares: its command line (--runs N, --arch NN, --only a,b), the median, and how results are written.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fork, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { REPO_ROOT, mkTempDir } from '../test/helpers/tools';

export interface BenchArgs { runs: number; arch: number; only: string[] | null }

export function parseBenchArgs(argv: string[], defaultRuns: number): BenchArgs {
  let runs = defaultRuns, arch = 90, only: string[] | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Math.max(1, Number(argv[++i]));
    else if (argv[i] === '--arch') arch = Number(argv[++i]);
    else if (argv[i] === '--only') only = argv[++i]!.split(',');
  }
  return { runs, arch, only };
}

/** A private daemon for a benchmark: its own cache directory and socket, nothing of the user's set-up. */
export interface Sandbox { env: NodeJS.ProcessEnv; dir: string }

export function sandbox(name: string, extra: NodeJS.ProcessEnv = {}): Sandbox {
  const dir = mkTempDir(`bench-${name}`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['PTXD_DAEMON', 'PTXD_CACHE', 'PTXD_VERBOSE', 'PTXD_NATIVE', 'NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS',
    'PTXD_REMOTE', 'PTXD_REMOTE_KEY', 'PTXD_REMOTE_WRITE_KEY', 'MAKEFLAGS', 'MFLAGS', 'MAKELEVEL']) delete env[k];
  Object.assign(env, {
    PTXD_CACHE_DIR: path.join(dir, 'cache'), PTXD_SOCKET: path.join(dir, 'd.sock'), PTXD_FALLBACK: 'never', PTXD_IDLE_TIMEOUT: '600',
    PTXD_CONFIG: path.join(dir, 'no-config.json'),
  }, extra);
  return { env, dir };
}

/** `ptxd <args>` for a sandbox's daemon. */
export function ptxdCli(sb: Sandbox, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'ptxd'), ...args], { env: sb.env, encoding: 'utf8' });
}

/** A process run by processRunner(): wall ms, exit status, stderr. */
export interface RunResult { ms: number; status: number | null; stderr: string }
export interface ProcessRunner { run(cmd: string, argv: string[]): Promise<RunResult>; close(): void }

/**
 * Runs commands (the real cicc) from a child process, one at a time. A benchmark that times compiles in its own
 * process must not fork: a fork marks the whole heap copy-on-write, and the compiles timed after it pay a page
 * fault for every page they write first, which a daemon (it forks nothing per request) never pays.
 */
export function processRunner(): ProcessRunner {
  const child = fork(path.join(__dirname, 'process-runner.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    run: (cmd, argv) => new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the process runner exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (m: RunResult) => { child.off('exit', onExit); resolve(m); });
      child.send({ cmd, argv });
    }),
    close: () => { child.disconnect(); },
  };
}

/** Median of a non-empty sample (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** The machine a result was measured on (the figures mean little without it). */
export function hostInfo(): { cpus: number; model: string | null; node: string; load: number[] } {
  return { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? null, node: process.version, load: os.loadavg() };
}

/** Writes bench/results/<name>.json atomically (temp file + rename), stamped with name, date and host. */
export function writeResults(name: string, data: object): void {
  const dir = path.join(REPO_ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  const doc = { benchmark: name, date: new Date().toISOString(), host: hostInfo(), ...data };
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(doc, null, 2) + '\n');
  fs.renameSync(`${file}.tmp`, file);
  console.log(`\nwrote ${path.relative(REPO_ROOT, file)}`);
}

/**
 * The benchmarks' multi-kernel unit: `n` kernels of similar cost, each with its own inlined helper and a
 * shared-memory reduction; `edit` is appended to every kernel's last expression (an edit of every kernel).
 */
export function multiKernelSource(n = 20, edit = ''): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(`__device__ float helper${i}(float x, int n) { float s = 0; for (int j = 0; j < n; ++j) s += x * j + ${i}.0f; return s; }
__global__ void k${i}(const float* __restrict__ a, float* b, int n) {
  __shared__ float sh[256];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  float v = g < n ? a[g] : 0.f;
  sh[t] = helper${i}(v, ${i + 2});
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (t < s) sh[t] += sh[t + s]; __syncthreads(); }
  if (t == 0) b[blockIdx.x] = sh[0] * ${i}.5f + sqrtf(fabsf(sh[1]))${edit};
}
`);
  }
  return parts.join('\n');
}
