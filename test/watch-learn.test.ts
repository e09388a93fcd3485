// `ptxd watch` without a compile database: it learns each unit's nvcc command from the builds that went
// through ptxd (daemon/watch/records.ts). Real make, real nvcc, real chokidar, PTXD_FALLBACK=never.
// The build passes ptxd to nvcc through NVCC_APPEND_FLAGS together with -ftz=true (it changes cicc's
// flags, so the cache key), so watch's first round can only be all cache hits if it replays the exact command and its
// environment. Then an edit is compiled (and the next build is a cache hit), and a unit built while
// watch runs is picked up. Plus the records file and the function report on their own.

import { describe, it, expect, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mkTempDir, requireTool, skipReason } from './helpers/tools';
import { PTXD, PTXD_CICC_BIN, exampleProject, runAsync, stats, stopDaemon, waitFor, type DaemonSandbox } from './helpers/daemon';
import { appendRecord, learnedUnits, loadRecords, MAX_BYTES, RECORDS_FILE, type UnitRecord } from '../watch/records';
import { functionsText } from '../watch/report';
import { definedFunctions, type ArchResult } from '../watch/run-unit';

const skip = skipReason('nvcc', 'ptxas') ?? skipReason('make');
const EVENT_MS = 180_000;

const sandboxes: DaemonSandbox[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const sb of sandboxes) await stopDaemon(sb);
});

interface Ev { event: string; unit?: string; ok?: boolean; from?: string; units?: number; message?: string;
  archs?: { arch: string; cached: boolean; status: string; functions?: { compiled: string[]; reused: string[] }; functionCount?: number }[] }

describe.skipIf(skip !== undefined)(`ptxd watch learns build commands ${skip ?? ''}`, () => {
  it('replays the exact nvcc command of each unit built through ptxd; edits compile; new builds are picked up', async () => {
    const { sb, src } = exampleProject('watch-learn', sandboxes);
    const buildEnv = { ...sb.env, NVCC_APPEND_FLAGS: `--cicc-prefix=${PTXD_CICC_BIN} -ftz=true` };
    const make = (targets: string[]) => runAsync(requireTool('make'), ['-j2', `NVCC=${requireTool('nvcc')}`, ...targets], { env: buildEnv, cwd: src });
    const objs = ['saxpy', 'dot', 'reduce'];
    const b1 = await make(objs.map(o => `build/${o}.o`));
    expect(b1.code, b1.out + b1.err).toBe(0);
    const s1 = stats(sb).counters;
    expect(s1).toMatchObject({ misses: 3, hits: 0, unsupported: 0 });
    // What the daemon recorded: nvcc's own argv (the flags from the environment are not in it) and the environment.
    const recs = loadRecords(sb.cacheDir);
    expect(recs.map(r => path.basename(r.source)).sort()).toEqual(['dot.cu', 'reduce.cu', 'saxpy.cu']);
    for (const r of recs) {
      expect(r.nvcc?.[0]).toBe(requireTool('nvcc'));
      expect(r.nvcc).toContain(`build/${path.basename(r.source, '.cu')}.o`);
      expect(r.nvcc!.join(' ')).not.toContain('ftz');
      expect(r.env.NVCC_APPEND_FLAGS).toBe(buildEnv.NVCC_APPEND_FLAGS);
      expect(r.nvccCwd).toBe(fs.realpathSync(src));
      expect(r.arch).toBe('compute_90');
    }

    // Watch, with no PATH, from the project directory (its environment has no NVCC_APPEND_FLAGS).
    const w = spawn(process.execPath, [PTXD, 'watch', '--json'], { env: sb.env, cwd: src, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(w);
    const events: Ev[] = [];
    let partial = '', stderr = '';
    w.stderr!.on('data', d => { stderr += d; });
    w.stdout!.on('data', d => {
      partial += d;
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const l of lines) if (l.trim()) events.push(JSON.parse(l) as Ev);
    });
    const unit = (f: string) => path.join(fs.realpathSync(src), f);
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

    const first = await results(0, objs.map(o => `${o}.cu`));
    expect(events[0]).toMatchObject({ event: 'watching', from: 'builds', units: 3 });
    for (const e of first.values()) {
      expect(e.ok, JSON.stringify(e)).toBe(true);
      expect(e.archs!.map(a => [a.arch, a.cached]), 'the build\'s exact command: a cache hit').toEqual([['compute_90', true]]);
    }

    // Edit a kernel: that unit is compiled again (not a hit), and says what it compiled.
    let mark = events.length;
    const cu = path.join(src, 'saxpy.cu');
    const text = fs.readFileSync(cu, 'utf8');
    expect(text).toContain('y[i] = a * x[i] + y[i];');
    fs.writeFileSync(cu, text.replace('y[i] = a * x[i] + y[i];', 'y[i] = a * x[i] - y[i];'));
    const r = (await results(mark, ['saxpy.cu'])).get(unit('saxpy.cu'))!;
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const arch = r.archs![0]!;
    expect(arch.cached).toBe(false);
    // the build compiled the file whole; this edit goes kernel by kernel, and the daemon names what it compiled
    expect(arch.functions, JSON.stringify(arch)).toBeDefined();
    expect(arch.functions!.compiled.filter(f => f.includes('saxpy')).length, JSON.stringify(arch)).toBe(1);
    expect(events.slice(mark).filter(e => e.event === 'result').map(e => e.unit)).toEqual([unit('saxpy.cu')]);

    // A unit built while watch runs: learned from the new record, and its first watch compile is a hit.
    mark = events.length;
    const b2 = await make(['build/histogram.o']);
    expect(b2.code, b2.out + b2.err).toBe(0);
    const h = (await results(mark, ['histogram.cu'])).get(unit('histogram.cu'))!;
    expect(h.ok).toBe(true);
    expect(h.archs!.every(a => a.cached)).toBe(true);

    w.kill('SIGTERM');
    expect(await waitFor(() => w.exitCode !== null, 30_000), 'watch exits on SIGTERM').toBe(true);
    expect(events.filter(e => e.event === 'failed'), stderr).toEqual([]);

    // The edit's result is in the cache: the rebuild of saxpy.o compiles nothing.
    const before = stats(sb).counters;
    const b3 = await make(['build/saxpy.o']);
    expect(b3.code, b3.out + b3.err).toBe(0);
    const after = stats(sb).counters;
    expect(after.misses - before.misses, 'nothing recompiled').toBe(0);
    expect(after.hits - before.hits).toBe(1);
  }, 900_000);
});

describe('build records and the function report', () => {
  const rec = (source: string, arch: string, nvcc: string[] | undefined, dir: string): UnitRecord => ({
    time: new Date().toISOString(), source, arch, ii: '/tmp/x.cpp1.ii', cwd: dir, cicc: ['cicc', '-arch', arch], nvcc, nvccCwd: nvcc ? dir : undefined, env: {},
  });

  it('keeps the newest record per (source, arch); one unit per nvcc command under the root; compacts past its bound', () => {
    const cache = mkTempDir('records');
    const proj = '/work/proj', other = '/elsewhere';
    appendRecord(cache, rec(`${proj}/a.cu`, 'compute_75', ['nvcc', '-c', 'a.cu', '-o', 'old.o'], proj));
    appendRecord(cache, rec(`${proj}/a.cu`, 'compute_75', ['nvcc', '-c', 'a.cu', '-o', 'a.o', '-arch=all'], proj));
    appendRecord(cache, rec(`${proj}/a.cu`, 'compute_86', ['nvcc', '-c', 'a.cu', '-o', 'a.o', '-arch=all'], proj));
    appendRecord(cache, rec(`${other}/b.cu`, 'compute_75', ['nvcc', '-c', 'b.cu'], other));
    appendRecord(cache, rec(`${proj}/c.cu`, 'compute_75', undefined, proj));
    fs.appendFileSync(RECORDS_FILE(cache), '{"torn": \n');
    expect(loadRecords(cache).length).toBe(4);
    const l = learnedUnits(cache, proj);
    expect(l.units).toEqual([{ file: `${proj}/a.cu`, directory: proj, command: ['nvcc', '-c', 'a.cu', '-o', 'a.o', '-arch=all'], env: {} }]);
    expect(l.missing).toEqual([`${proj}/c.cu`]);
    expect(learnedUnits(cache, '/work/pro').units).toEqual([]);

    // Many builds of the same units: the file stays bounded and keeps the newest of each.
    const big = Array.from({ length: 200 }, (_, i) => `-DPAD${i}=${'x'.repeat(40)}`);
    for (let i = 0; i < 150; i++) appendRecord(cache, rec(`${proj}/d.cu`, 'compute_90', ['nvcc', `-DN=${i}`, ...big], proj));
    expect(fs.statSync(RECORDS_FILE(cache)).size).toBeLessThanOrEqual(MAX_BYTES + 20_000);
    const d = loadRecords(cache).filter(r => r.source.endsWith('d.cu'));
    expect(d.length).toBe(1);
    expect(d[0]!.nvcc![1]).toBe('-DN=149');
    expect(loadRecords(cache).some(r => r.source === `${proj}/a.cu` && r.arch === 'compute_86')).toBe(true);
  });

  it('reports the compiled functions when the compiler names them, else the count the PTX defines', () => {
    const ptx = '.version 9.0\n.target sm_90\n.address_size 64\n.extern .func (.param .b32 r) vprintf\n(\n.param .b64 a\n)\n;\n' +
      '.func _Z3fooi(\n.param .b32 p\n)\n;\n.visible .entry _Z1kPf(\n.param .u64 p\n)\n.maxntid 128, 1, 1\n{\nret;\n}\n.func _Z3fooi(\n.param .b32 p\n)\n{\nret;\n}\n';
    expect(definedFunctions(ptx)).toBe(2);
    const a = (o: Partial<ArchResult>): ArchResult => ({ arch: 'compute_90', status: 'ok', cached: false, compileMs: 1, ...o });
    expect(functionsText([a({ functions: { compiled: ['_Z1kPf'], reused: ['_Z3fooi', '_Z3bari'] } }),
      a({ arch: 'compute_75', functions: { compiled: ['_Z3fooi'], reused: ['_Z1kPf'] } })])).toBe(' recompiled _Z1kPf, _Z3fooi, 1 reused');
    expect(functionsText([a({ functionCount: 2 })])).toBe(' 2 functions compiled');
    expect(functionsText([a({ cached: true, functionCount: 2 })])).toBe('');
  });
});
