// Units split across workers on extra GNU make jobserver tokens (daemon/scheduler/split.ts), with real
// make 4.3, real nvcc and PTXD_FALLBACK=never. The recipes are `+` recipes, so the jobserver pipe fds
// reach ptxd-cicc through nvcc and the client can take tokens for the daemon.
// - One 8-kernel unit alone under `make -j4`: the client takes the 3 free tokens, the daemon compiles the
//   unit on 4 workers, the client returns the 3 tokens; the PTX equals a whole compile in-process.
// - 6 multi-kernel units and one broken unit under `make -j4`: the daemon never runs more than 4 compile
//   jobs at once (measured in its pool), every PTX equals the whole compile, every token is back.
// - A client killed by SIGTERM or SIGINT while it holds extra tokens gives them back (its signal handler).
// - Under make with ordinary recipes (the pipe fds are closed on exec: no tokens to take) no unit is split;
//   not under make, a unit is split across the idle pool workers.
// - make 4.4's fifo jobserver (`--jobserver-auth=fifo:PATH`), with the test in make's place (make 4.4 is not
//   on this machine): the tokens are taken from the named fifo and are all in it again afterwards.
// Tokens are checked at the end of each make run by a last `+` recipe that takes exactly the 3 free
// tokens of -j4 and finds no 4th; make 4.3 itself complains "INTERNAL: Exiting with N jobserver tokens
// available" when tokens were lost.
//
// SIGKILL is not tested: a process killed by SIGKILL cannot give back what it read from make's pipe, in
// ptxd as in any make job (make loses such tokens too). The daemon does not hold tokens, only slots:
// they are freed when the shares finish, whether or not the client is still there.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, requireTool, skipReason } from './helpers/tools';
import { CHECK_TOKENS, JOBSERVER_JS } from './helpers/jobserver-scripts';
import { HAVE_CC, PTXD_CICC_BIN, runAsync, sandbox, startDaemon, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const DAEMON_CLIENT_JS = path.join(REPO_ROOT, 'dist', 'protocol', 'connection.js');
const skip = skipReason('nvcc', 'ptxas') ??
  skipReason('make') ??
  (fs.existsSync(JOBSERVER_JS) ? undefined : 'skipped: dist/ not built (npx tsc -p .)');

/** A unit of `kernels` kernels, each with an inlined helper and a shared-memory reduction. */
function unit(u: number, kernels: number, broken = false): string {
  const parts = [`// unit ${u}`];
  for (let i = 0; i < kernels; i++) {
    parts.push(`__device__ float h${u}_${i}(float x, int n) { float s = 0; for (int j = 0; j < n; ++j) s += x * j + ${i}.0f; return s; }
__global__ void k${u}_${i}(const float* __restrict__ a, float* b, int n) {
  __shared__ float sh[256];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  float v = g < n ? a[g] : 0.f;
  sh[t] = h${u}_${i}(v, ${i + 2 + u});
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (t < s) sh[t] += sh[t + s]; __syncthreads(); }
  if (t == 0) b[blockIdx.x] = sh[0] * ${i}.5f + sqrtf(fabsf(sh[1]))${broken && i === 1 ? ' +' : ''};
}`);
  }
  return parts.join('\n') + '\n';
}


// A cicc prefix that runs ptxd-cicc (passing on make's pipe fds), waits until the daemon reports that a
// client took extra tokens, then sends ptxd-cicc the signal $KILL_WITH and fails like a killed cicc; or,
// with KILL_WITH=daemon, kills the daemon (SIGKILL) and lets ptxd-cicc go on (it retries with a new one).
// ptxd-cicc runs as nvcc runs it (the native client when a daemon is up), or with KILL_CLIENT=node as
// `node bin/ptxd-cicc` (the Node client). Without KILL_WITH it only runs ptxd-cicc.
const KILLER = `#!${process.execPath}
const { spawn } = require('node:child_process');
const { parseMakeflags } = require(${JSON.stringify(JOBSERVER_JS)});
const { connectDaemon } = require(${JSON.stringify(DAEMON_CLIENT_JS)});
const sig = process.env.KILL_WITH;
const mj = parseMakeflags(process.env.MAKEFLAGS);
const stdio = ['inherit', 'inherit', 'inherit'];
if (mj && mj.auth.kind === 'pipe') for (const fd of [mj.auth.r, mj.auth.w]) { while (stdio.length < fd) stdio.push('ignore'); stdio[fd] = fd; }
const child = process.env.KILL_CLIENT === 'node'
  ? spawn(process.execPath, [${JSON.stringify(PTXD_CICC_BIN)}, ...process.argv.slice(2)], { stdio })
  : spawn(${JSON.stringify(PTXD_CICC_BIN)}, process.argv.slice(2), { stdio });
let done = false;
child.on('exit', (code, signal) => {
  done = true;
  console.log('killer: ptxd-cicc ended by ' + (signal ?? 'exit ' + code));
  process.exit(sig === 'daemon' || !sig ? code : 1);
});
(async () => {
  if (!sig) return;   // only runs ptxd-cicc
  for (let i = 0; i < 6000 && !done; i++) {
    const conn = await connectDaemon(process.env, { autostart: false }).catch(() => undefined);
    if (conn) {
      const s = await conn.status().catch(() => undefined);
      conn.close();
      const got = s && s.scheduler ? s.scheduler.extraTokensAcquired : 0;
      if (got > 0) {
        console.log('killer: client holds ' + got + ' extra tokens; ' + sig);
        if (sig === 'daemon') process.kill(s.pid, 'SIGKILL'); else child.kill(sig);
        return;
      }
    }
    await new Promise(r => setTimeout(r, 10));
  }
})();
`;

const MAKEFILE = `NVCC ?= nvcc
NODE ?= node
BUILD ?= build
PLUS ?= +
SRCS = $(sort $(wildcard u*.cu))
PTX = $(SRCS:%.cu=$(BUILD)/%.ptx)

all: $(PTX)
\t+$(NODE) check-tokens.js 3

$(BUILD)/%.ptx: %.cu | $(BUILD)
\t-$(PLUS)$(NVCC) -arch=sm_90 -O3 -ptx $(NVCCFLAGS_EXTRA) $< -o $@

$(BUILD):
\tmkdir -p $@

.PHONY: all
`;

const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

/**
 * A project of `units`; its daemon is started first (client 'native', so that every call of bin/ptxd-cicc
 * goes through the native client) or by the first call (client 'node': the Node client starts it).
 */
function project(name: string, units: { kernels: number; broken?: boolean }[], env: NodeJS.ProcessEnv = {}, client: Client = 'native'): { sb: DaemonSandbox; src: string } {
  const sb = sandbox(name, { PTXD_WORKERS: '8', ...env });
  sandboxes.push(sb);
  if (client === 'native') startDaemon(sb);
  const src = path.join(sb.dir, 'src');
  fs.mkdirSync(src, { recursive: true });
  units.forEach((u, i) => fs.writeFileSync(path.join(src, `u${i}.cu`), unit(i, u.kernels, u.broken)));
  fs.writeFileSync(path.join(src, 'Makefile'), MAKEFILE);
  fs.writeFileSync(path.join(src, 'check-tokens.js'), CHECK_TOKENS);
  fs.writeFileSync(path.join(src, 'killer'), KILLER, { mode: 0o755 });
  return { sb, src };
}

function make(sb: DaemonSandbox, src: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runAsync(requireTool('make'), ['-j4', `NVCC=${requireTool('nvcc')}`, `NODE=${process.execPath}`, ...args], { env: { ...sb.env, ...env }, cwd: src });
}

const LOST = /jobserver tokens/;

type Client = 'native' | 'node';
/** Calls the native client handed to the daemon (with a C compiler the native client is built: client/native/). */
const nativeCalls = (sb: DaemonSandbox) => stats(sb).daemon?.ciccCalls ?? 0;

type Sched = Record<string, number>;
const scheduler = (sb: DaemonSandbox) => (stats(sb) as unknown as { daemon: { scheduler: Sched } }).daemon.scheduler;

/** The PTX of every unit compiled whole in-process (no daemon, no cache: no per-kernel path), for comparison. */
async function wholePtx(sb: DaemonSandbox, src: string): Promise<void> {
  const r = await make(sb, src, ['BUILD=whole', `NVCCFLAGS_EXTRA=--cicc-prefix=${PTXD_CICC_BIN}`], { PTXD_DAEMON: '0', PTXD_CACHE: '0' });
  expect(r.code, r.out + r.err).toBe(0);
}

function samePtx(src: string, names: string[]): void {
  for (const n of names) {
    const got = fs.readFileSync(path.join(src, 'build', `${n}.ptx`), 'utf8');
    expect(got, `${n}.ptx`).toBe(fs.readFileSync(path.join(src, 'whole', `${n}.ptx`), 'utf8'));
  }
}

describe.skipIf(skip !== undefined)(`units split across workers on make jobserver tokens ${skip ?? ''}`, () => {
  it('one 8-kernel unit under make -j4 runs on 4 workers with the 3 free tokens, returns them, same PTX', async () => {
    const { sb, src } = project('jsplit1', [{ kernels: 8 }]);
    const r = await make(sb, src, [`NVCCFLAGS_EXTRA=--cicc-prefix=${PTXD_CICC_BIN}`]);
    expect(r.code, r.out + r.err).toBe(0);
    if (HAVE_CC) expect(nativeCalls(sb), 'the native client took the tokens').toBe(1);
    expect(r.out).toContain('tokens ok 3');
    expect(r.err).not.toMatch(LOST);
    const p = scheduler(sb);
    expect(p.extraTokensAcquired).toBe(3);
    expect(p.extraTokensReturned).toBe(3);
    expect(p.splitJobs).toBe(1);
    expect(p.peakSlotsPerJob).toBe(4);
    expect(p.peakRunning).toBe(4);
    // jobs in workers at once: up to 4 (fewer when a share ends before a new worker has started)
    expect(p.busyPeak).toBeGreaterThanOrEqual(2);
    expect(p.busyPeak).toBeLessThanOrEqual(4);
    await wholePtx(sb, src);
    samePtx(src, ['u0']);
  }, 600_000);

  it('6 multi-kernel units and a broken one under make -j4: at most 4 compile jobs at once, same PTX, every token back', async () => {
    const units = [8, 3, 6, 1, 8, 5].map(kernels => ({ kernels }));
    const { sb, src } = project('jsplit6', [...units, { kernels: 4, broken: true }]);
    const r = await make(sb, src, [`NVCCFLAGS_EXTRA=--cicc-prefix=${PTXD_CICC_BIN}`]);
    expect(r.code, r.out + r.err).toBe(0);   // the unit recipes ignore errors, so the token check runs
    expect(r.err).toMatch(/u6\.cu.*error/);
    expect(r.out).toContain('tokens ok 3');
    expect(r.err).not.toMatch(LOST);
    expect(r.err).not.toMatch(/falling back|fallback/i);
    const p = scheduler(sb);
    expect(p.busyPeak, 'compile jobs in workers at once').toBeLessThanOrEqual(4);
    expect(p.peakRunning).toBeLessThanOrEqual(4);
    expect(p.peakPerBuild).toBeLessThanOrEqual(4);
    expect(p.extraTokensReturned).toBe(p.extraTokensAcquired);
    expect(p.crashes).toBe(0);
    console.log(`make -j4, 6 units: ${p.splitJobs} split, ${p.extraTokensAcquired} extra tokens, at most ${p.busyPeak} jobs at once`);
    fs.rmSync(path.join(src, 'u6.cu'));
    await wholePtx(sb, src);
    samePtx(src, units.map((_, i) => `u${i}`));
  }, 600_000);

  it('ordinary recipes under make: no split; not under make: split across idle workers; same PTX', async () => {
    const { sb, src } = project('jsplitplain', [{ kernels: 8 }]);
    const r = await make(sb, src, ['PLUS=', `NVCCFLAGS_EXTRA=--cicc-prefix=${PTXD_CICC_BIN}`, 'build/u0.ptx']);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.err).not.toMatch(LOST);
    expect(scheduler(sb)).toMatchObject({ splitJobs: 0, extraTokensAcquired: 0, busyPeak: 1 });
    await wholePtx(sb, src);
    samePtx(src, ['u0']);
    // the same unit edited (every kernel changes), built by nvcc alone: both free workers
    fs.writeFileSync(path.join(src, 'u0.cu'), unit(0, 8).replace(/\.5f/g, '.75f'));
    const env = { ...sb.env };
    for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL']) delete env[k];
    const out = path.join(src, 'build', 'u0.ptx');
    const n = await runAsync(requireTool('nvcc'), ['-arch=sm_90', '-O3', '-ptx', `--cicc-prefix=${PTXD_CICC_BIN}`, 'u0.cu', '-o', out], { env, cwd: src });
    expect(n.code, n.out + n.err).toBe(0);
    expect(scheduler(sb)).toMatchObject({ splitJobs: 1, extraTokensAcquired: 0, peakSlotsPerJob: 8 });
    // every kernel counts as compiled, though the unit's own compile found them in the store
    const last = (scheduler(sb) as unknown as { last: { compiled: string[]; reused: string[] } }).last;
    expect(last.compiled.length).toBe(8);
    expect(last.reused).toEqual([]);
    await wholePtx(sb, src);
    samePtx(src, ['u0']);
  }, 600_000);

  it('PTXD_SPLIT=0: never split', async () => {
    const { sb, src } = project('jsplitoff', [{ kernels: 8 }], { PTXD_SPLIT: '0' });
    const env = { ...sb.env };
    for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL']) delete env[k];
    const out = path.join(src, 'u0.ptx');
    for (const text of [unit(0, 8), unit(0, 8).replace(/\.5f/g, '.75f')]) {
      fs.writeFileSync(path.join(src, 'u0.cu'), text);
      const n = await runAsync(requireTool('nvcc'), ['-arch=sm_90', '-O3', '-ptx', `--cicc-prefix=${PTXD_CICC_BIN}`, 'u0.cu', '-o', out], { env, cwd: src });
      expect(n.code, n.out + n.err).toBe(0);
    }
    expect(scheduler(sb)).toMatchObject({ splitJobs: 0, busyPeak: 1, compiled: 2 });
  }, 600_000);

  for (const [sig, client] of [['SIGTERM', 'native'], ['SIGINT', 'native'], ['SIGTERM', 'node']] as const) {
    it(`a client (${client}) killed by ${sig} while it holds extra tokens gives them back`, async () => {
      const { sb, src } = project(`jsplitkill-${sig}-${client}`, [{ kernels: 12 }], {}, client);
      const r = await make(sb, src, [`NVCCFLAGS_EXTRA=--cicc-prefix=${path.join(src, 'killer')}`], { KILL_WITH: sig, KILL_CLIENT: client });
      if (HAVE_CC) expect(nativeCalls(sb)).toBe(client === 'native' ? 1 : 0);
      expect(r.code, r.out + r.err).toBe(0);
      expect(r.out).toMatch(/killer: client holds [1-3] extra tokens/);
      expect(r.out).toContain(`killer: ptxd-cicc ended by ${sig}`);
      expect(r.out).toContain('tokens ok 3');
      expect(r.err).not.toMatch(LOST);
      // the daemon saw the client go and freed its slots once the shares were done
      let p = scheduler(sb);
      for (let i = 0; i < 200 && p.running > 0; i++) { await new Promise(res => setTimeout(res, 100)); p = scheduler(sb); }
      expect(p.running).toBe(0);
      expect(p.extraTokensReturned).toBe(0);
    }, 600_000);
  }

  // make 4.4 passes `--jobserver-auth=fifo:PATH`: a named fifo holding the free tokens, which every job opens
  // by name. make 4.4 is not on this machine (Debian bookworm has 4.3), so the test plays make's part with
  // the same protocol: it creates the fifo, puts the 3 free tokens of -j4 in it, and runs nvcc with the
  // MAKEFLAGS make 4.4 would export; afterwards exactly those 3 tokens must be in the fifo again.
  function fifoJobserver(dir: string): { path: string; fd: number; tokens: () => number } {
    const fifo = path.join(dir, 'GMfifo');
    const mk = spawnSync('mkfifo', [fifo]);
    expect(mk.status, String(mk.stderr)).toBe(0);
    const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    fs.writeSync(fd, Buffer.from('+++'));
    const tokens = () => {
      const b = Buffer.alloc(16);
      let n = 0;
      for (;;) {
        try { const got = fs.readSync(fd, b, 0, b.length, null); if (got <= 0) break; n += got; } catch { break; }
      }
      return n;
    };
    return { path: fifo, fd, tokens };
  }

  for (const [kill, client] of [[undefined, 'native'], [undefined, 'node'], ['SIGTERM', 'native']] as const) {
    it(`make 4.4's fifo jobserver (${client} client): ${kill ? `a client killed by ${kill} gives its tokens back` : 'an 8-kernel unit takes the 3 free tokens and returns them, same PTX'}`, async () => {
      const { sb, src } = project(`jsplitfifo${kill ?? ''}-${client}`, [{ kernels: kill ? 12 : 8 }], {}, client);
      fs.mkdirSync(path.join(src, 'build'), { recursive: true });
      const js = fifoJobserver(src);
      try {
        const env = { ...sb.env, MAKEFLAGS: ` -j4 --jobserver-auth=fifo:${js.path}`, MAKELEVEL: '1', ...(kill ? { KILL_WITH: kill } : {}), KILL_CLIENT: client };
        const prefix = kill || client === 'node' ? path.join(src, 'killer') : PTXD_CICC_BIN;
        const n = await runAsync(requireTool('nvcc'), ['-arch=sm_90', '-O3', '-ptx', `--cicc-prefix=${prefix}`, 'u0.cu', '-o', path.join(src, 'build', 'u0.ptx')], { env, cwd: src });
        const p = scheduler(sb);
        if (HAVE_CC) expect(nativeCalls(sb)).toBe(client === 'native' ? 1 : 0);
        if (kill) {
          expect(n.code).not.toBe(0);
          expect(n.out).toMatch(/killer: client holds [1-3] extra tokens/);
          expect(n.out).toContain(`killer: ptxd-cicc ended by ${kill}`);
        } else {
          expect(n.code, n.out + n.err).toBe(0);
          expect(p).toMatchObject({ extraTokensAcquired: 3, extraTokensReturned: 3, splitJobs: 1, peakSlotsPerJob: 4 });
          await wholePtx(sb, src);
          samePtx(src, ['u0']);
        }
        expect(js.tokens(), 'tokens in the fifo after the build').toBe(3);
      } finally {
        fs.closeSync(js.fd);
      }
    }, 600_000);
  }

  for (const client of ['native', 'node'] as const) {
  it(`a daemon killed while a client (${client}) holds extra tokens for it: the client gives them back and compiles anyway`, async () => {
    const { sb, src } = project(`jsplitdaemon-${client}`, [{ kernels: 12 }], {}, client);
    const r = await make(sb, src, [`NVCCFLAGS_EXTRA=--cicc-prefix=${path.join(src, 'killer')}`], { KILL_WITH: 'daemon', KILL_CLIENT: client });
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/killer: client holds [1-3] extra tokens; daemon/);
    expect(r.out).toContain('killer: ptxd-cicc ended by exit 0');
    expect(r.out).toContain('tokens ok 3');
    expect(r.err).not.toMatch(LOST);
    await wholePtx(sb, src);
    samePtx(src, ['u0']);
  }, 600_000);
  }
});
