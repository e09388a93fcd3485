// The daemon under a real GNU make jobserver: a project of 16 small units built with `make -j4`
// through ptxd (real nvcc, PTXD_FALLBACK=never, a pool of 8 workers) never runs more than 4 compiles
// at once (measured by the daemon's scheduler, read from `ptxd stats`), every compile runs on a make
// token, and make ends with all its tokens (a last `+` target takes exactly the 3 free tokens of -j4
// with client/jobserver.ts and finds no 4th; make 4.3 itself complains "INTERNAL: Exiting with N
// jobserver tokens available" when tokens were lost) — also when one unit has a compile error, and
// when a process holding extra tokens ends by an exception, process.exit or SIGTERM.
//
// Found on this machine (make 4.3): ordinary recipes do not inherit the jobserver pipe fds (make sets
// close-on-exec), `+` recipes do, and through nvcc they reach the cicc process.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireTool, skipReason } from './helpers/tools';
import { CHECK_TOKENS, JOBSERVER_JS } from './helpers/jobserver-scripts';
import { PTXD_CICC_BIN, runAsync, sandbox, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const skip = skipReason('nvcc', 'ptxas') ??
  skipReason('make') ??
  (fs.existsSync(JOBSERVER_JS) ? undefined : 'skipped: dist/ not built (npx tsc -p .)');

const UNITS = 16;

/** A small C-like kernel, different per unit. */
function unit(i: number, broken = false): string {
  return `// unit ${i}
__device__ float f${i}(float x) { return x * ${i + 1}.5f + ${i}.0f; }

__global__ void k${i}(float *out, const float *in, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < ${(i % 4) + 2}; j++) {
        if (t + j < n) acc += f${i}(in[t + j]);
    }
    if (t < n) out[t] = acc${broken ? ' +' : ''};
}
`;
}


// Takes 1 token and ends in the way argv[2] says; the helpers must give the tokens back every time.
const HOLD_TOKENS = `const { parseMakeflags, TokenPool } = require(${JSON.stringify(JOBSERVER_JS)});
(async () => {
  const pool = TokenPool.open(parseMakeflags(process.env.MAKEFLAGS));
  let n = 0;
  while (n < 1 && await pool.acquire(5000)) n++;
  if (n !== 1) { console.log('hold: got ' + n); process.exit(1); }
  const how = process.argv[2];
  if (how === 'throw') setTimeout(() => { throw new Error('held tokens, then threw'); }, 10);
  else if (how === 'exit') process.exit(0);
  else if (how === 'sigterm') process.kill(process.pid, 'SIGTERM');
  else { pool.close(); }
})();
`;

const MAKEFILE = `NVCC ?= nvcc
NODE ?= node
BUILD ?= build
SRCS = $(sort $(wildcard u*.cu))
OBJS = $(SRCS:%.cu=$(BUILD)/%.o)

all: $(OBJS)
\t+$(NODE) check-tokens.js 3

$(BUILD)/%.o: %.cu | $(BUILD)
\t$(NVCC) -arch=sm_90 -O3 $(NVCCFLAGS_EXTRA) -c $< -o $@

$(BUILD):
\tmkdir -p $@

ids: id-a id-b id-plus-a id-plus-b

id-plus-%:
\t+@$(NODE) -e 'const j = require(process.argv[1]); console.log("id $@ " + j.buildIdentity(j.parseMakeflags(process.env.MAKEFLAGS)))' $(JOBSERVER)

id-%:
\t@$(NODE) -e 'const j = require(process.argv[1]); console.log("id $@ " + j.buildIdentity(j.parseMakeflags(process.env.MAKEFLAGS)))' $(JOBSERVER)

holders: hold-normal hold-throw hold-exit hold-sigterm
\t+$(NODE) check-tokens.js 7

hold-%:
\t-+$(NODE) hold-tokens.js $*

.PHONY: all holders ids
`;

const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

function project(name: string, broken?: number): { sb: DaemonSandbox; src: string } {
  const sb = sandbox(name, { PTXD_WORKERS: '8' });
  sandboxes.push(sb);
  const src = path.join(sb.dir, 'src');
  fs.mkdirSync(src, { recursive: true });
  for (let i = 0; i < UNITS; i++) fs.writeFileSync(path.join(src, `u${String(i).padStart(2, '0')}.cu`), unit(i, i === broken));
  fs.writeFileSync(path.join(src, 'Makefile'), MAKEFILE);
  fs.writeFileSync(path.join(src, 'check-tokens.js'), CHECK_TOKENS);
  fs.writeFileSync(path.join(src, 'hold-tokens.js'), HOLD_TOKENS);
  return { sb, src };
}

function make(sb: DaemonSandbox, src: string, args: string[]) {
  return runAsync(requireTool('make'), ['-j4', `NVCC=${requireTool('nvcc')}`, `NODE=${process.execPath}`, ...args], { env: sb.env, cwd: src });
}

const viaPtxd = `NVCCFLAGS_EXTRA=--cicc-prefix=${PTXD_CICC_BIN}`;
const LOST = /jobserver tokens/;

describe.skipIf(skip !== undefined)(`make -j4 through ptxd with a jobserver ${skip ?? ''}`, () => {
  it('all jobs of one make build name the same build, with or without the pipe fds; two builds differ', async () => {
    const { sb, src } = project('jsid');
    const ids = async () => {
      const r = await make(sb, src, [`JOBSERVER=${JOBSERVER_JS}`, 'ids']);
      expect(r.code, r.out + r.err).toBe(0);
      return new Map([...r.out.matchAll(/^id (\S+) (\S+)$/gm)].map(m => [m[1]!, m[2]!]));
    };
    const one = await ids();
    expect(one.size).toBe(4);
    // Ordinary recipes do not get the pipe (make 4.3 sets close-on-exec): the build is the topmost make.
    expect(one.get('id-a')).toMatch(/^make:\d+$/);
    expect(one.get('id-b')).toBe(one.get('id-a'));
    // `+` recipes do: the build is the pipe itself.
    expect(one.get('id-plus-a')).toMatch(/^pipe:\d+:\d+$/);
    expect(one.get('id-plus-b')).toBe(one.get('id-plus-a'));
    const two = await ids();
    expect(two.get('id-a')).not.toBe(one.get('id-a'));
    expect(two.get('id-plus-a')).not.toBe(one.get('id-plus-a'));
  });

  it(`builds ${UNITS} units with at most 4 compiles at once and returns every token`, async () => {
    const { sb, src } = project('js');
    const t0 = performance.now();
    const r = await make(sb, src, ['BUILD=b-ptxd', viaPtxd]);
    const ptxdMs = performance.now() - t0;
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('tokens ok 3');
    expect(r.err).not.toMatch(LOST);
    for (let i = 0; i < UNITS; i++) expect(fs.existsSync(path.join(src, 'b-ptxd', `u${String(i).padStart(2, '0')}.o`))).toBe(true);
    const s = stats(sb) as ReturnType<typeof stats> & { daemon: { scheduler: Record<string, number> } };
    expect(s.counters).toMatchObject({ misses: UNITS, unsupported: 0, errors: 0 });
    const p = s.daemon.scheduler;
    expect(p.workers).toBe(8);
    expect(p.jobs).toBe(UNITS);
    expect(p.tokensUsed, 'every compile ran on its make job\'s token').toBe(UNITS);
    expect(p.peakPerBuild).toBeGreaterThanOrEqual(1);
    expect(p.peakPerBuild).toBeLessThanOrEqual(4);
    expect(p.peakRunning).toBeLessThanOrEqual(4);
    expect(p.crashes).toBe(0);

    // The same build with the real cicc, for the figure in the log (not asserted: no timed assertions).
    const t1 = performance.now();
    const real = await make(sb, src, ['BUILD=b-real']);
    const realMs = performance.now() - t1;
    expect(real.code, real.out + real.err).toBe(0);
    console.log(`cold make -j4 of ${UNITS} units: ptxd daemon ${(ptxdMs / 1000).toFixed(1)} s (daemon start included), ` +
      `real cicc ${(realMs / 1000).toFixed(1)} s, ratio ${(ptxdMs / realMs).toFixed(2)}; peak ${p.peakRunning} compiles at once`);
  });

  it('returns every token when a unit has a compile error', async () => {
    const { sb, src } = project('jserr', 5);
    const r = await make(sb, src, ['-k', 'BUILD=b', viaPtxd]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/u05\.cu.*error/);
    expect(r.err).not.toMatch(LOST);
    expect(r.err).not.toMatch(/falling back|fallback/i);
    // nvcc's own front end (cudafe++, before cicc) reports the error: the other 15 reach ptxd.
    const s = stats(sb) as ReturnType<typeof stats> & { daemon: { scheduler: Record<string, number> } };
    expect(s.counters).toMatchObject({ requests: UNITS - 1, misses: UNITS - 1, unsupported: 0 });
    expect(s.daemon.scheduler.peakPerBuild).toBeLessThanOrEqual(4);
    // The other 15 units were built.
    expect(fs.readdirSync(path.join(src, 'b')).filter(f => f.endsWith('.o')).length).toBe(UNITS - 1);
  });

  it('client token helpers give back extra tokens on a normal end, a throw, process.exit and SIGTERM', async () => {
    const { sb, src } = project('jshold');
    // -j8: the four holders run at once on 4 of the 8 tokens, and each takes one more.
    const r = await make(sb, src, ['-j8', 'holders']);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('tokens ok 7');
    expect(r.out).not.toContain('hold: got');
    expect(r.err).not.toMatch(LOST);
  });
});
