// Helpers for the daemon, make and CMake tests: a private daemon per test (own cache directory and
// socket, so tests never share one), the `ptxd` CLI, and stats.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, ciccArgv, ciccOutputs, mkTempDir, type PreparedUnit } from './tools';
import type { Counters } from '../../service/store/store';
import { encodeFrame, type Message } from '../../protocol/messages';
import { clientIdentity } from '../../protocol/connection';
import { newNonce, proof, proofOk, readKey } from '../../protocol/auth';

export const PTXD = path.join(REPO_ROOT, 'bin', 'ptxd');
export const PTXD_CICC_BIN = path.join(REPO_ROOT, 'bin', 'ptxd-cicc');
/** `npm run build` builds the native client (client/native/) when a C compiler is present (scripts/build-native.js tries these). */
export const HAVE_CC = (process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang']).some(cc => spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0);

export interface DaemonSandbox {
  dir: string;
  cacheDir: string;
  socket: string;
  env: NodeJS.ProcessEnv;
}

/** A fresh cache dir and socket path; the daemon itself starts on the first request. */
export function sandbox(name: string, extraEnv: NodeJS.ProcessEnv = {}): DaemonSandbox {
  const dir = mkTempDir(`d-${name}`);
  const cacheDir = path.join(dir, 'cache');
  const socket = path.join(dir, 'd.sock');
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The test runner compiles in-process and uncached by default (vitest.config.ts); these tests are about the daemon and the cache.
  for (const k of ['PTXD_DAEMON', 'PTXD_CACHE', 'NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS', 'PTXD_VERBOSE']) delete env[k];
  // No compiles of their own while idle (daemon/scheduler/seed.ts) unless a test asks: tests count jobs and compiles.
  Object.assign(env, { PTXD_CACHE_DIR: cacheDir, PTXD_SOCKET: socket, PTXD_FALLBACK: 'never', PTXD_IDLE_TIMEOUT: '300', PTXD_SEED: '0' }, extraEnv);
  return { dir, cacheDir, socket, env };
}

export function ptxd(sb: DaemonSandbox, args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [PTXD, ...args], { env: { ...sb.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export interface Stats {
  counters: Counters;
  cache: { entries: number; bytes: number } | null;
  fallbacks: { total: number };
  /** ciccCalls: calls of the native client (client/native/), which hands the whole cicc call to the daemon. */
  daemon: { pid: number; rssBytes: number; served: number; ciccCalls: number } | null;
}

export function stats(sb: DaemonSandbox): Stats {
  const r = ptxd(sb, ['stats', '--json']);
  if (r.code !== 0) throw new Error(`ptxd stats failed: ${r.err}`);
  return JSON.parse(r.out) as Stats;
}

/**
 * Starts the sandbox's daemon, so that bin/ptxd-cicc's first call already goes through the native client
 * (with no daemon running, it hands the call to the Node client, which starts one).
 */
export function startDaemon(sb: DaemonSandbox): void {
  const r = ptxd(sb, ['daemon', 'start']);
  if (r.code !== 0) throw new Error(`ptxd daemon start failed: ${r.err}`);
}

export function daemonPid(sb: DaemonSandbox): number | undefined {
  try { return Number(fs.readFileSync(`${sb.socket}.pid`, 'utf8')) || undefined; } catch { return undefined; }
}

export function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/** Stops the sandbox's daemon (politely, then by force) — for afterAll. */
export async function stopDaemon(sb: DaemonSandbox): Promise<void> {
  const pid = daemonPid(sb);
  ptxd(sb, ['daemon', 'stop']);
  if (pid !== undefined && alive(pid)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

export function runAsync(cmd: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string }):
Promise<{ code: number | null; out: string; err: string }> {
  return new Promise(resolve => {
    const p = spawn(cmd, args, { env: opts.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    p.stdout.on('data', d => { out += d; });
    p.stderr.on('data', d => { err += d; });
    p.on('error', e => resolve({ code: -1, out, err: err + String(e) }));
    p.on('close', code => resolve({ code, out, err }));
  });
}

/** The identity this build's client sends (computed by the built client in dist/, as the real one does). */
export function builtIdentity(sb: DaemonSandbox): ReturnType<typeof clientIdentity> {
  const js = path.join(REPO_ROOT, 'dist', 'protocol', 'connection.js');
  const r = spawnSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(js)}).clientIdentity(process.env)))`],
    { env: sb.env, encoding: 'utf8' });
  return JSON.parse(r.stdout) as ReturnType<typeof clientIdentity>;
}

export const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** Polls `f` until it is true or `ms` pass; returns the last value (tests assert on it, not on time). */
export async function waitFor(f: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (f()) return true;
    await sleep(50);
  }
  return f();
}

/** The .nv_fatbin section of an object (the device code nvcc embedded), via objcopy. */
export function fatbinSection(obj: string): Buffer {
  const out = `${obj}.fatbin.bin`;
  const r = spawnSync('objcopy', ['-O', 'binary', '--only-section=.nv_fatbin', obj, out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`objcopy failed on ${obj}: ${r.stderr}`);
  const b = fs.readFileSync(out);
  fs.rmSync(out, { force: true });
  return b;
}

/** A sandbox (recorded in `sandboxes` for teardown) holding a copy of make-integration/example under src/. */
export function exampleProject(name: string, sandboxes: DaemonSandbox[]): { sb: DaemonSandbox; src: string } {
  const sb = sandbox(name);
  sandboxes.push(sb);
  const src = path.join(sb.dir, 'src');
  fs.cpSync(path.join(REPO_ROOT, 'make-integration', 'example'), src, { recursive: true });
  return { sb, src };
}

/**
 * The handshake of a hand-made client (daemon/auth.ts): `hello` carries our nonce; once the daemon's
 * welcome is in `got`, `auth` proves we hold the key beside the socket (as the real clients do).
 */
export function handshake(sb: DaemonSandbox): { hello: Buffer; auth: (got: readonly Message[]) => Buffer } {
  const nonce = newNonce();
  return {
    hello: encodeFrame({ t: 'hello', ...clientIdentity(sb.env), nonce }),
    auth: got => {
      const w = got.find(m => m.t === 'welcome') as Extract<Message, { t: 'welcome' }>;
      const key = readKey(sb.socket);
      if (!key || !w.nonce || !proofOk(key, 'daemon', nonce, w.nonce, w.proof)) throw new Error('the daemon did not prove it holds its key');
      return encodeFrame({ t: 'auth', proof: proof(key, 'client', w.nonce, nonce) });
    },
  };
}

/** One cicc call of a prepared unit through bin/ptxd-cicc in a sandbox (outputs in a fresh folder of it): exit code, stderr and the PTX written, if any. */
let clientRuns = 0;
export async function buildThroughClient(sb: DaemonSandbox, u: PreparedUnit, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; err: string; ptx: string }> {
  const out = path.join(sb.dir, `o${clientRuns++}`);
  fs.mkdirSync(out, { recursive: true });
  const r = await runAsync(process.execPath, [PTXD_CICC_BIN, u.realCicc, ...ciccArgv(u, out)], { env: { ...sb.env, ...env } });
  let ptx = '';
  try { ptx = fs.readFileSync(ciccOutputs(out).ptx, 'utf8'); } catch { /* none written */ }
  return { code: r.code, err: r.err, ptx };
}

/** The `ptxd: warning:` lines of a client's stderr. */
export const ptxdWarnings = (stderr: string): string[] => stderr.split('\n').filter(l => l.startsWith('ptxd: warning:'));
