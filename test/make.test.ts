// A real multi-file project (make-integration/example: 9 .cu files and a shared header) built by real
// `make -j4` with ptxd as nvcc's cicc (PTXD_FALLBACK=never). Checks: the program links; a clean rebuild
// is served entirely from the unit cache (stats) and embeds byte-identical device code; the
// NVCC_APPEND_FLAGS recipe works with an unchanged Makefile; and killing the daemon (SIGKILL) in the
// middle of a make -j4 build does not break the build.
//
// Objects are compared by their .nv_fatbin section (the device code): the rest of a .o differs between
// any two nvcc builds (nvcc's temp file names end up in the host object's symbol table).

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, requireTool, skipReason } from './helpers/tools';
import { PTXD_CICC_BIN, alive, daemonPid, fatbinSection, runAsync, exampleProject, sleep, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const EXAMPLE = path.join(REPO_ROOT, 'make-integration', 'example');
const SOURCES = fs.readdirSync(EXAMPLE).filter(f => f.endsWith('.cu')).sort();
const skip = skipReason('nvcc', 'ptxas') ?? skipReason('make');

const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

const project = (name: string) => exampleProject(name, sandboxes);

function make(sb: DaemonSandbox, src: string, build: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return runAsync(requireTool('make'), ['-j4', `NVCC=${requireTool('nvcc')}`, `BUILD=${build}`, ...extra], { env: { ...sb.env, ...env }, cwd: src });
}

const prefix = `NVCCFLAGS_EXTRA=--cicc-prefix=${PTXD_CICC_BIN}`;

describe.skipIf(skip !== undefined)(`make -j4 with ptxd ${skip ?? ''}`, () => {
  it(`builds ${SOURCES.length} units and links; a clean rebuild is all cache hits with identical device code`, async () => {
    expect(SOURCES.length).toBeGreaterThanOrEqual(9);
    const { sb, src } = project('make');
    const r1 = await make(sb, src, 'build1', [prefix]);
    expect(r1.code, r1.out + r1.err).toBe(0);
    expect(fs.existsSync(path.join(src, 'build1', 'example'))).toBe(true);
    const s1 = stats(sb).counters;
    expect(s1).toMatchObject({ requests: SOURCES.length, misses: SOURCES.length, hits: 0, unsupported: 0 });

    const r2 = await make(sb, src, 'build2', [prefix]);
    expect(r2.code, r2.out + r2.err).toBe(0);
    expect(fs.existsSync(path.join(src, 'build2', 'example'))).toBe(true);
    const s2 = stats(sb).counters;
    expect(s2.hits - s1.hits).toBe(SOURCES.length);
    expect(s2.misses - s1.misses).toBe(0);
    for (const cu of SOURCES) {
      const o = cu.replace(/\.cu$/, '.o');
      expect(fatbinSection(path.join(src, 'build2', o)).equals(fatbinSection(path.join(src, 'build1', o))), o).toBe(true);
    }

    // NVCC_APPEND_FLAGS: the same build with the Makefile untouched.
    const r3 = await make(sb, src, 'build3', [], { NVCC_APPEND_FLAGS: `--cicc-prefix=${PTXD_CICC_BIN}` });
    expect(r3.code, r3.out + r3.err).toBe(0);
    expect(r3.out).not.toContain('--cicc-prefix');
    expect(stats(sb).counters.hits - s2.hits).toBe(SOURCES.length);
  });

  it('survives a SIGKILL of the daemon in the middle of a make -j4 build', async () => {
    const { sb, src } = project('kill');
    const build = make(sb, src, 'build', [prefix]);
    let done = false;
    void build.then(() => { done = true; });
    // Kill the daemon as soon as it is up: the first units are being compiled or queued then.
    let victim: number | undefined;
    for (let i = 0; i < 600 && !done && victim === undefined; i++) {
      const pid = daemonPid(sb);
      if (pid !== undefined && alive(pid)) victim = pid;
      else await sleep(25);
    }
    expect(victim, 'the daemon started while make was running').toBeDefined();
    const objsBefore = fs.existsSync(path.join(src, 'build')) ? fs.readdirSync(path.join(src, 'build')).filter(f => f.endsWith('.o')).length : 0;
    process.kill(victim!, 'SIGKILL');
    expect(done, 'make was still running when the daemon was killed').toBe(false);
    expect(objsBefore).toBeLessThan(SOURCES.length);
    const r = await build;
    expect(r.code, r.out + r.err).toBe(0);
    expect(fs.existsSync(path.join(src, 'build', 'example'))).toBe(true);
    expect(alive(victim!)).toBe(false);
    // The units were compiled by ptxd all the same (a replacement daemon or in-process), none fell back.
    expect(stats(sb).fallbacks.total).toBe(0);
  });
});
