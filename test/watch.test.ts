// `ptxd watch` on a real CMake CUDA project: real files, real chokidar, real nvcc, PTXD_FALLBACK=never.
// Each edit must produce the right events (the edited unit; every unit including an edited header; an
// error with a cicc-style diagnostic and its fix; a unit added and removed by a reconfigure), and the
// build afterwards must be served entirely from the cache that watch filled, with device code equal to
// a clean build's (fresh cache). Also: a request for a unit that is already being compiled waits for
// that compile instead of compiling twice.

import { describe, it, expect, afterAll } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { connect } from 'node:net';
import * as path from 'node:path';
import { REPO_ROOT, KERNELS_DIR, requireTool, skipReason } from './helpers/tools';
import { PTXD, fatbinSection, handshake, runAsync, sandbox, stats, stopDaemon, waitFor, type DaemonSandbox } from './helpers/daemon';
import { encodeFrame, FrameReader, type Message } from '../protocol/messages';
import { planUnit } from '../watch/plan';
import { runUnit } from '../watch/run-unit';
import type { UnitRequest, UnitResponse } from '../service/unit';

const skip = skipReason('nvcc', 'ptxas') ?? skipReason('cmake');
const TOOLCHAIN = path.join(REPO_ROOT, 'make-integration', 'ptxd.cmake');
const EVENT_MS = 180_000;

const sandboxes: DaemonSandbox[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const sb of sandboxes) await stopDaemon(sb);
});

function box(name: string): DaemonSandbox {
  const sb = sandbox(name);
  sandboxes.push(sb);
  return sb;
}

const KERNEL = (name: string, body: string) =>
  `#include "common.h"\n__global__ void ${name}(float *x, int n)\n{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) ${body}\n}\n`;

function writeProject(src: string, units: string[]): void {
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, 'CMakeLists.txt'), 'cmake_minimum_required(VERSION 3.18)\nset(CMAKE_CUDA_ARCHITECTURES 75 86)\n' +
    `project(watched LANGUAGES CUDA)\nadd_library(watched STATIC ${units.join(' ')})\n`);
}

/** Saves like editors that write a temp file and rename it over the original. */
function saveByRename(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.swp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

interface Ev { event: string; unit?: string; ok?: boolean; archs?: { arch: string; cached: boolean; status: string }[];
  diagnostics?: { file: string; line: number; severity: string; message: string; text: string }[]; message?: string }

describe.skipIf(skip !== undefined)(`ptxd watch ${skip ?? ''}`, () => {
  it('recompiles on edits, reports errors, follows the compile database; the next build is all cache hits', async () => {
    const sb = box('watch');
    const src = path.join(sb.dir, 'src');
    const build = path.join(sb.dir, 'build');
    writeProject(src, ['a.cu', 'b.cu', 'c.cu']);
    fs.writeFileSync(path.join(src, 'common.h'), '#define SCALE 2.0f\n');
    fs.writeFileSync(path.join(src, 'a.cu'), KERNEL('ka', 'x[i] = x[i] * SCALE;'));
    fs.writeFileSync(path.join(src, 'b.cu'), KERNEL('kb', 'x[i] = x[i] + SCALE;'));
    fs.writeFileSync(path.join(src, 'c.cu'), `__global__ void kc(int *p) { p[threadIdx.x] += 1; }\n`);
    const configure = ['-S', src, '-B', build, '-G', 'Unix Makefiles', '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON',
      `-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN}`, `-DCMAKE_CUDA_COMPILER=${requireTool('nvcc')}`];
    const c = await runAsync(requireTool('cmake'), configure, { env: sb.env });
    expect(c.code, c.out + c.err).toBe(0);

    const w = spawn(process.execPath, [PTXD, 'watch', build, '--json'], { env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(w);
    const events: Ev[] = [];
    let partial = '';
    let stderr = '';
    w.stderr!.on('data', d => { stderr += d; });
    w.stdout!.on('data', d => {
      partial += d;
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const l of lines) if (l.trim()) events.push(JSON.parse(l) as Ev);
    });
    const unit = (f: string) => path.join(src, f);
    /** Results after `from` for each named unit; waits for all of them. */
    const results = async (from: number, files: string[]): Promise<Map<string, Ev>> => {
      const found = () => {
        const m = new Map<string, Ev>();
        for (const e of events.slice(from)) if (e.event === 'result' && files.some(f => unit(f) === e.unit)) m.set(e.unit!, e);
        return m;
      };
      await waitFor(() => found().size === files.length, EVENT_MS);
      const m = found();
      expect([...m.keys()].sort(), `events: ${JSON.stringify(events.slice(from))}\n${stderr}`).toEqual(files.map(unit).sort());
      return m;
    };
    const resultUnits = (from: number) => events.slice(from).filter(e => e.event === 'result').map(e => e.unit);

    // Initial compile of every unit, both archs.
    const first = await results(0, ['a.cu', 'b.cu', 'c.cu']);
    for (const e of first.values()) {
      expect(e.ok, JSON.stringify(e)).toBe(true);
      expect(e.archs!.map(a => a.arch)).toEqual(['compute_75', 'compute_86']);
    }
    expect(events[0].event).toBe('watching');
    // The watched set: the three sources and the header (toolkit and system headers left out).
    expect(await waitFor(() => events.some(e => e.event === 'idle'), EVENT_MS)).toBe(true);
    expect(events.find(e => e.event === 'idle')).toMatchObject({ units: 3, files: 4, failing: 0 });

    // A kernel body: that unit only.
    let mark = events.length;
    fs.writeFileSync(unit('a.cu'), KERNEL('ka', 'x[i] = x[i] * SCALE + 1.0f;'));
    const ra = (await results(mark, ['a.cu'])).get(unit('a.cu'))!;
    expect(ra.ok).toBe(true);
    expect(ra.archs!.every(a => !a.cached), 'a new body is compiled, not found in the cache').toBe(true);
    expect(resultUnits(mark)).toEqual([unit('a.cu')]);

    // The shared header, saved by rename: the two units that include it, not c.cu.
    mark = events.length;
    saveByRename(path.join(src, 'common.h'), '#define SCALE 3.0f\n');
    const rh = await results(mark, ['a.cu', 'b.cu']);
    for (const e of rh.values()) expect(e.ok).toBe(true);
    expect(resultUnits(mark)).not.toContain(unit('c.cu'));

    // A syntax error: an error event with a problem-matcher diagnostic; then the fix.
    mark = events.length;
    fs.writeFileSync(unit('b.cu'), KERNEL('kb', 'x[i] = x[i] + SCALE +;'));
    const rb = (await results(mark, ['b.cu'])).get(unit('b.cu'))!;
    expect(rb.ok).toBe(false);
    const errs = rb.diagnostics!.filter(d => d.severity === 'error');
    expect(errs.length, JSON.stringify(rb)).toBeGreaterThan(0);
    expect(errs[0].file).toBe(unit('b.cu'));
    expect(errs[0].line).toBe(5);
    expect(errs[0].text).toMatch(/b\.cu\(5\): error: /);
    mark = events.length;
    fs.writeFileSync(unit('b.cu'), KERNEL('kb', 'x[i] = x[i] + SCALE * 0.5f;'));
    expect((await results(mark, ['b.cu'])).get(unit('b.cu'))!.ok).toBe(true);

    // A deleted header: both including units report the preprocessor's error; restoring it fixes them.
    mark = events.length;
    fs.rmSync(path.join(src, 'common.h'));
    const gone = await results(mark, ['a.cu', 'b.cu']);
    for (const e of gone.values()) {
      expect(e.ok).toBe(false);
      expect(e.diagnostics!.some(d => d.file.endsWith('.cu') && /common\.h/.test(d.message)), JSON.stringify(e)).toBe(true);
    }
    mark = events.length;
    fs.writeFileSync(path.join(src, 'common.h'), '#define SCALE 3.0f\n');
    for (const e of (await results(mark, ['a.cu', 'b.cu'])).values()) expect(e.ok).toBe(true);

    // Renaming a unit's first kernel changes its module id (cudafe++ derives it from that name).
    mark = events.length;
    fs.writeFileSync(unit('c.cu'), `__global__ void kc_renamed(int *p) { p[threadIdx.x] += 2; }\n`);
    expect((await results(mark, ['c.cu'])).get(unit('c.cu'))!.ok).toBe(true);

    // A new unit: added by a reconfigure (compile_commands.json changes), then removed again.
    mark = events.length;
    fs.writeFileSync(unit('d.cu'), KERNEL('kd', 'x[i] = -x[i];'));
    writeProject(src, ['a.cu', 'b.cu', 'c.cu', 'd.cu']);
    expect((await runAsync(requireTool('cmake'), configure, { env: sb.env })).code).toBe(0);
    expect((await results(mark, ['d.cu'])).get(unit('d.cu'))!.ok).toBe(true);
    mark = events.length;
    writeProject(src, ['a.cu', 'b.cu', 'c.cu']);
    fs.rmSync(unit('d.cu'));
    expect((await runAsync(requireTool('cmake'), configure, { env: sb.env })).code).toBe(0);
    expect(await waitFor(() => events.slice(mark).some(e => e.event === 'removed' && e.unit === unit('d.cu')), EVENT_MS),
      JSON.stringify(events.slice(mark))).toBe(true);

    w.kill('SIGTERM');
    expect(await waitFor(() => w.exitCode !== null, 30_000), 'watch exits on SIGTERM').toBe(true);
    expect(events.filter(e => e.event === 'failed'), stderr).toEqual([]);

    // The build: every device compile (3 units x 2 archs) is served from the cache.
    const before = stats(sb).counters;
    const b = await runAsync(requireTool('cmake'), ['--build', build, '-j2'], { env: sb.env });
    expect(b.code, b.out + b.err).toBe(0);
    const after = stats(sb).counters;
    expect(after.misses - before.misses, 'nothing recompiled').toBe(0);
    expect(after.hits - before.hits).toBe(6);

    // A clean build of the same sources with a fresh cache embeds the same device code.
    const ref = box('watch-ref');
    const refBuild = path.join(sb.dir, 'build-ref');
    const rc = await runAsync(requireTool('cmake'), configure.map(a => a === build ? refBuild : a), { env: ref.env });
    expect(rc.code, rc.out + rc.err).toBe(0);
    const rbuild = await runAsync(requireTool('cmake'), ['--build', refBuild, '-j2'], { env: ref.env });
    expect(rbuild.code, rbuild.out + rbuild.err).toBe(0);
    for (const cu of ['a.cu', 'b.cu', 'c.cu']) {
      const obj = (dir: string) => path.join(dir, 'CMakeFiles', 'watched.dir', `${cu}.o`);
      expect(fatbinSection(obj(build)).equals(fatbinSection(obj(refBuild))), cu).toBe(true);
    }
  }, 900_000);

  it('a request for a unit already being compiled waits for that compile (one compile, one shared hit)', async () => {
    const sb = box('watch-dedupe');
    // The exact requests of a real build's cicc steps (from nvcc --dryrun), without sending them.
    const tmp = path.join(sb.dir, 'tmp');
    fs.mkdirSync(tmp);
    const cu = path.join(KERNELS_DIR, 'saxpy.cu');
    const plan = planUnit([requireTool('nvcc'), '-arch=sm_75', '-c', cu, '-o', path.join(sb.dir, 'x.o')], sb.dir, tmp, sb.env);
    const reqs: UnitRequest[] = [];
    await runUnit(plan, sb.dir, async r => { reqs.push(r); return { status: 'ok', diagnostics: [], cached: false, compileMs: 0 } as unknown as UnitResponse; });
    expect(reqs.length).toBe(1);
    // A second build of the same unit: same .ii bytes at another path, other nvcc temp names.
    const copy = path.join(sb.dir, 'copy.cpp1.ii');
    fs.copyFileSync(reqs[0].input, copy);
    const other: UnitRequest = { ...reqs[0], input: copy, options: { ...reqs[0].options, includeFileName: 'tmpxft_other.fatbin.c', stubFileName: 'tmpxft_other.stub.c' } };

    // Start the daemon, then send both requests in one write: the second arrives while the first is queued.
    expect(spawnSync(process.execPath, [PTXD, 'daemon', 'start'], { env: sb.env, encoding: 'utf8' }).status).toBe(0);
    const sock = connect(sb.env.PTXD_SOCKET!);
    const reader = new FrameReader();
    const got: Message[] = [];
    sock.on('data', d => { got.push(...reader.push(d)); });
    await new Promise<void>(r => sock.once('connect', () => r()));
    const hs = handshake(sb);
    sock.write(hs.hello);
    await waitFor(() => got.some(m => m.t === 'welcome'), 30_000);
    sock.write(hs.auth(got));
    sock.write(Buffer.concat([encodeFrame({ t: 'compile', id: 1, req: reqs[0] }), encodeFrame({ t: 'compile', id: 2, req: other })]));
    await waitFor(() => got.filter(m => m.t === 'result').length === 2, EVENT_MS);
    sock.destroy();
    const res = (id: number) => (got.find(m => m.t === 'result' && m.id === id) as Extract<Message, { t: 'result' }>).res;
    expect(res(1).status).toBe('ok');
    expect(res(1).cached).toBe(false);
    expect(res(2).cached).toBe(true);
    expect(res(2).ptx).toBe(res(1).ptx);
    // Each gets the stub with its own file names.
    expect(res(1).stub).toContain(reqs[0].options.stubFileName);
    expect(res(2).stub).toContain('tmpxft_other.stub.c');
    expect(res(2).stub).not.toContain(reqs[0].options.stubFileName);
    await waitFor(() => stats(sb).counters.requests === 2, 10_000);
    const s = stats(sb).counters;
    expect(s.misses).toBe(1);
    expect(s.hits).toBe(1);
  }, 300_000);
});
