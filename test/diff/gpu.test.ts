// The GPU check's parts that need no GPU (scripts/GPU-CHECK.md): the bundle builds for every spec; the
// runner (scripts/gpu-runner.cpp) compiles and links without libcuda; run against a stand-in driver
// (fake-libcuda.c: host memory, launches logged, not run) it loads each module, patches each buffer
// address into the right parameter, reads every buffer back, falls back to the cubin when the PTX is
// refused and reports a trap; and the comparer finds full agreement on emulator-vs-emulator outputs and
// a difference when one output byte is flipped.

import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, findCudaHome, mkTempDir, skipReason } from '../helpers/tools';
import { SPECS } from './specs';
import { buildBundle, type BundleSummary } from './gpu-bundle';
import { compareBundle } from './gpu-compare';

const has = (cmd: string) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0;
const skip = skipReason('nvcc', 'ptxas') ?? (has('g++') && has('gcc') ? undefined : 'skipped: g++/gcc not found');
const SCRIPTS = path.join(REPO_ROOT, 'scripts');

describe.skipIf(skip !== undefined)(`GPU check without a GPU ${skip ?? ''}`, () => {
  let work = '';
  let bundle = '';
  let summary: BundleSummary;
  let runner = '';

  beforeAll(() => {
    work = mkTempDir('gpu-check');
    bundle = path.join(work, 'bundle');
    summary = buildBundle(bundle);
  });

  it('bundles both PTX versions of every spec that runs', () => {
    // specs with texture/surface objects are not bundled: the runner does not create them (gpu-bundle.ts)
    const runnable = SPECS.filter(s => !s.gap && !s.compileOnly && !s.textures && !s.surfaces).map(s => s.name).sort();
    expect(runnable.length).toBeGreaterThanOrEqual(30);
    // Every runnable spec has both cases; the rest are skipped for their listed reason only.
    expect([...new Set(summary.cases.map(([s]) => s))].sort()).toEqual(runnable);
    expect(summary.cases.length).toBe(2 * runnable.length);
    for (const [s, why] of summary.skipped) expect(why, s).toMatch(/^(gap|compile only): |^texture\/surface objects: /);
    const cases = fs.readFileSync(path.join(bundle, 'cases.txt'), 'utf8').trim().split('\n');
    expect(cases.length).toBe(summary.cases.length);
    for (const [s, v] of summary.cases) {
      const d = path.join(bundle, s);
      expect(fs.readFileSync(path.join(d, `${v}.ptx`), 'utf8')).toContain('.entry');
      // ptxas (an oracle we did not write) accepted each PTX: the cubin is there.
      expect(fs.statSync(path.join(d, `${v}.cubin`)).size, `${s} ${v}`).toBeGreaterThan(0);
      expect(fs.readFileSync(path.join(d, 'emu', v, 'status.txt'), 'utf8')).toMatch(/^(ok|trap) emulator/);
    }
  });

  it('the runner compiles and links without libcuda, and says so when no driver is there', () => {
    runner = path.join(bundle, 'gpu-runner');
    const b = spawnSync('bash', [path.join(SCRIPTS, 'gpu-diff.sh'), 'runner', runner], { encoding: 'utf8', env: { ...process.env, CUDA_HOME: findCudaHome()! } });
    expect(b.status, b.stderr).toBe(0);
    const ldd = spawnSync('ldd', [runner], { encoding: 'utf8' });
    expect(ldd.stdout).not.toMatch(/libcuda/);
    const r = spawnSync(runner, [path.join(bundle, 'saxpy', 'ptxd.case'), work], { encoding: 'utf8', env: { ...process.env, LD_LIBRARY_PATH: work } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot load the CUDA driver \(libcuda\.so\.1\)/);
    const bad = spawnSync(runner, [], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/usage: gpu-runner/);
  });

  it('runs every case against a stand-in driver: modules, parameter patches, read-back, cubin fallback, traps', () => {
    expect(runner, 'the runner test ran first').not.toBe('');
    const fake = path.join(work, 'fake');
    fs.mkdirSync(fake);
    const cc = spawnSync('gcc', ['-shared', '-fPIC', `-I${path.join(findCudaHome()!, 'include')}`, path.join(__dirname, 'fake-libcuda.c'), '-o', path.join(fake, 'libcuda.so.1')], { encoding: 'utf8' });
    expect(cc.status, cc.stderr).toBe(0);
    const log = path.join(work, 'launches.log');
    const out = path.join(work, 'fake-out');
    const env = { ...process.env, LD_LIBRARY_PATH: fake, FAKE_CUDA_LOG: log };
    const r = spawnSync('bash', [path.join(SCRIPTS, 'gpu-run.sh'), bundle, out], { encoding: 'utf8', env });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`${summary.cases.length} cases ran, 0 failed`);

    // The launches the driver saw are the case files' launches, each buffer address at its patch offset.
    const want: string[] = [];
    for (const [s, v] of summary.cases) {
      for (const l of fs.readFileSync(path.join(bundle, s, `${v}.case`), 'utf8').split('\n').filter(x => x.startsWith('launch '))) {
        const f = l.split(' ');
        const params = fs.statSync(path.join(bundle, s, f[9]!)).size;
        const n = Number(f[10]);
        const patches = Array.from({ length: n }, (_, i) => [Number(f[11 + 2 * i]), Number(f[12 + 2 * i])]).sort((a, b) => a[0]! - b[0]!);
        want.push(`launch ${f.slice(1, 9).join(' ')} size=${params}${patches.map(([o, i]) => ` ${o}:${i}`).join('')}`);
      }
    }
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual(want);
    expect(want.some(l => /size=\d+ \d+:1/.test(l)), 'some launch takes a second buffer').toBe(true);

    // Nothing ran, so every buffer read back equals its input: the copies in and out are whole and in order.
    for (const [s, v] of summary.cases) {
      expect(fs.readFileSync(path.join(out, s, v, 'status.txt'), 'utf8')).toBe('ok ptx\n');
      const inputs = fs.readdirSync(path.join(bundle, s, 'in')).filter(f => f.startsWith('b'));
      for (const f of inputs) expect(fs.readFileSync(path.join(out, s, v, f)).equals(fs.readFileSync(path.join(bundle, s, 'in', f))), `${s} ${v} ${f}`).toBe(true);
    }

    // A driver that refuses the PTX gets the cubin; a failing launch is reported as a trap.
    const one = path.join(work, 'one');
    fs.mkdirSync(one);
    const cubin = spawnSync(runner, [path.join(bundle, 'saxpy', 'cicc.case'), one], { encoding: 'utf8', env: { ...env, FAKE_CUDA_REFUSE_PTX: '1' } });
    expect(cubin.status, cubin.stderr).toBe(0);
    expect(fs.readFileSync(path.join(one, 'status.txt'), 'utf8')).toBe('ok cubin (ptx refused: CUDA_ERROR_UNSUPPORTED_PTX_VERSION)\n');
    const kernel = fs.readFileSync(path.join(bundle, 'saxpy', 'cicc.case'), 'utf8').split('\n').find(l => l.startsWith('launch '))!.split(' ')[1]!;
    const trap = spawnSync(runner, [path.join(bundle, 'saxpy', 'cicc.case'), one], { encoding: 'utf8', env: { ...env, FAKE_CUDA_TRAP: kernel } });
    expect(trap.status, trap.stderr).toBe(0);
    expect(fs.readFileSync(path.join(one, 'status.txt'), 'utf8')).toBe('trap 0 CUDA_ERROR_LAUNCH_FAILED\n');

    // The stand-in ran nothing, so the comparer must find the GPU's outputs wrong wherever a kernel writes.
    const rep = compareBundle(bundle, out);
    expect(rep.total).toBe(summary.cases.length / 2);
    expect(rep.agree).toBeLessThan(rep.total / 2);
  });

  it('the comparer: emulator vs emulator agrees everywhere; one flipped output byte is a difference', () => {
    const gpu = path.join(work, 'emu-as-gpu');
    for (const s of new Set(summary.cases.map(([x]) => x))) fs.cpSync(path.join(bundle, s, 'emu'), path.join(gpu, s), { recursive: true });
    const all = compareBundle(bundle, gpu);
    expect(all.total).toBe(summary.cases.length / 2);
    expect(all.verdicts.filter(v => !v.agree).map(v => `${v.spec}: ${[...v.gpuVsEmu.ptxd, ...v.gpuVsEmu.cicc, ...v.ptxdVsCicc].join('; ')}`)).toEqual([]);
    expect(all.agree).toBe(all.total);

    // saxpy's y (buffer 1) on the "GPU" for ptxd's PTX: one byte (the top byte of y[10]) flipped.
    const f = path.join(gpu, 'saxpy', 'ptxd', 'b1.bin');
    const b = fs.readFileSync(f);
    b[43] ^= 0x01;
    fs.writeFileSync(f, b);
    const one = compareBundle(bundle, gpu);
    expect(one.agree).toBe(all.total - 1);
    const v = one.verdicts.find(x => x.spec === 'saxpy')!;
    expect(v.agree).toBe(false);
    expect(v.gpuVsEmu.ptxd.join('\n')).toMatch(/^y\[10\]: GPU\(ptxd\) .* vs emulator\(ptxd\) /);
    expect(v.gpuVsEmu.cicc).toEqual([]);
    expect(v.ptxdVsCicc.join('\n')).toMatch(/^y\[10\]: ptxd .* vs cicc /);

    // The command line prints the table and the agreement figure, and fails.
    const cli = spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist', 'test', 'diff', 'gpu-compare.js'), bundle, gpu], { encoding: 'utf8' });
    expect(cli.status, `${cli.stderr} (npm run build first)`).toBe(1);
    expect(cli.stdout).toContain(`gpu-compare: ${all.total - 1} kernels agree GPU==emulator, ptxd==cicc on GPU (of ${all.total} run)`);
    expect(cli.stdout).toMatch(/\| saxpy +\| NO +\| yes +\| NO +\| y\[10\]/);
  });
});
