// Per-root incremental compilation in the modes real builds use besides the plain one: -lineinfo (CMake's
// RelWithDebInfo), -rdc=true (separable compilation) and both, each for two architectures of one nvcc run
// (nvcc runs cicc once per arch, each arch with its own text and options, through one piece store). After
// every step of the incremental series (test/helpers/incremental-fixture.ts), in order, reversed and
// shuffled, the PTX and stub equal a clean compile of the same unit (the oracle: compileUnit without a piece
// store), and in order exactly the kernels the edit affects are recompiled: with -lineinfo, the series' blank
// lines and comments (every line moves) recompile nothing, as without it.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { compileUnit, type CompileResult } from '../compiler/compile';
import { PreludeCache } from '../compiler/frontend/prelude';
import { MemoryPieceStore } from '../compiler/incremental/store';
import { REPO_ROOT, skipReason, libdeviceBytes } from './helpers/tools';
import type { Pool } from '../daemon/scheduler/pool';
import { cleanBuild, daemonParts } from './helpers/seeding';
import { multiKernelSource } from '../bench/common';
import { ptxas } from './helpers/ptx';
import { shuffled } from './helpers/shuffle';
import { ALL, SERIES, fixture, prepareSourceFor, shortName, type Prepared } from './helpers/incremental-fixture';

process.env.PTXD_FALLBACK = 'never';

const skip = skipReason('nvcc', 'ptxas');

const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });

const ARCHS = [75, 90] as const;
// Both modes take the path that puts new kernel texts into the last assembly (with -lineinfo, only the new texts'
// `.loc` files and names are numbered while the order of first appearance holds: the last test);
// -lineinfo alone (PTXD_LONG=1) adds little to both together.
const MODES: [string, string[]][] = [
  ['-rdc=true', ['-rdc=true']],
  ['-lineinfo -rdc=true', ['-lineinfo', '-rdc=true']],
  ...(process.env.PTXD_LONG === '1' ? [['-lineinfo', ['-lineinfo']] as [string, string[]]] : []),
];
// Lambdas are numbered across the unit, and -rdc keeps every lambda's operator() in the module (external
// linkage) while -lineinfo names inlined ones in `.loc` lines: such units compile whole (visibly, see the last
// test), so the series here leaves out the fixture's two lambda kernels.
const LAMBDAS = ['kLam1', 'kLam2'];
const KERNELS = ALL.filter(k => !LAMBDAS.includes(k));

describe.skipIf(skip !== undefined)(`incremental compilation with -lineinfo, -rdc=true, two archs ${skip ?? ''}`, () => {
  const lib = libdeviceBytes();
  // per mode: per step, per arch
  const units = new Map<string, Prepared[][]>();
  const clean = new Map<string, CompileResult[][]>();
  beforeAll(() => {
    for (const [mode, flags] of MODES) {
      const u: Prepared[][] = [], c: CompileResult[][] = [];
      for (const [, v] of SERIES) {
        const p = prepareSourceFor(fixture({ ...v, noLam: true }), `modes-${flags.join('')}`, flags, ARCHS);
        u.push(p);
        c.push(p.map(x => compileUnit(x.src, x.opts, { libdevice: lib })));
      }
      units.set(mode, u);
      clean.set(mode, c);
    }
  }, 600_000);

  it('the fixture compiles cleanly in every mode; the modes and archs change the PTX', () => {
    for (const [mode, flags] of MODES) {
      const c = clean.get(mode)!;
      SERIES.forEach(([what], i) => c[i]!.forEach((r, a) => expect(r.ok, `${mode} ${what} sm_${ARCHS[a]}: ${r.unsupported ?? JSON.stringify(r.diagnostics)}`).toBe(true)));
      const ptx = c[0]![1]!.ptx;
      expect(ptx).not.toBe(c[0]![0]!.ptx);
      if (flags.includes('-lineinfo')) {
        expect(ptx).toMatch(/^\t\.loc\t1 \d+ \d+$/m);
        expect(ptx).toMatch(/inlined_at 1 \d+ \d+$/m);
        expect(ptx).toMatch(/^\t\.file\t1 "/m);
        // blank lines and comments move the kernels: the clean PTX says so
        expect(c[1]![1]!.ptx).not.toBe(ptx);
      }
      if (flags.includes('-rdc=true')) expect(ptx).toMatch(/^\.visible \.func/m);
    }
  });

  for (const [mode] of MODES) {
    it(`${mode}, two archs: every step identical to a clean compile, recompiling only what the edit affects`, () => {
      const u = units.get(mode)!, c = clean.get(mode)!;
      const store = new MemoryPieceStore();
      const prelude = new PreludeCache();
      // the first compile of a file (per arch) is whole
      for (const x of u[0]!) expect(compileUnit(x.src, x.opts, { libdevice: lib, prelude, pieces: store }).functions).toBeUndefined();
      SERIES.forEach(([what, v, expected], i) => {
        u[i]!.forEach((x, a) => {
          const at = `${mode} sm_${ARCHS[a]} ${what}`;
          const r = compileUnit(x.src, x.opts, { libdevice: lib, prelude, pieces: store });
          expect(r.functions, `${at}: fell back (${r.incremental?.fallback})`).toBeDefined();
          expect(outputs(r), at).toEqual(outputs(c[i]![a]!));
          expect(r.functions!.compiled.map(shortName).sort(), at).toEqual(expected.filter(k => !LAMBDAS.includes(k)).sort());
          expect(r.functions!.compiled.length + r.functions!.reused.length, at).toBe(KERNELS.length - (v.delPrint ? 1 : 0) + (v.add ? 1 : 0));
        });
      });
      const last = SERIES.length - 2;
      u[last]!.forEach((x, a) => expect(ptxas(compileUnit(x.src, x.opts, { libdevice: lib, prelude, pieces: store }).ptx, ARCHS[a]!), `${mode} sm_${ARCHS[a]}`).toBe(''));
    });

    it(`${mode}, two archs: reversed and shuffled orders through one store, identical to a clean compile`, () => {
      const u = units.get(mode)!, c = clean.get(mode)!;
      const steps = [...SERIES.keys()];
      for (const [name, order] of [['reversed', steps.slice().reverse()], ['shuffled', shuffled(steps, 26)]] as const) {
        const store = new MemoryPieceStore();
        const prelude = new PreludeCache();
        for (const x of u[order[0]!]!) compileUnit(x.src, x.opts, { libdevice: lib, prelude, pieces: store });   // marks the file
        for (const i of order) {
          u[i]!.forEach((x, a) => {
            const at = `${mode} ${name} sm_${ARCHS[a]} ${SERIES[i]![0]}`;
            const r = compileUnit(x.src, x.opts, { libdevice: lib, prelude, pieces: store });
            expect(r.functions, `${at}: fell back (${r.incremental?.fallback})`).toBeDefined();
            expect(outputs(r), at).toEqual(outputs(c[i]![a]!));
          });
        }
      }
    });
  }

  it('kernels with lambdas: with -lineinfo (inlined, named in .loc) or -rdc=true (kept) the unit compiles whole, visibly, identical to clean', () => {
    for (const [flags, why] of [[['-lineinfo'], /lambda inlined/], [['-rdc=true'], /lambda left in the module/]] as const) {
      const [x] = prepareSourceFor(fixture({}), `modes-lambda${flags.join('')}`, [...flags], [90]);
      const want = outputs(compileUnit(x!.src, x!.opts, { libdevice: lib }));
      const store = new MemoryPieceStore();
      compileUnit(x!.src, x!.opts, { libdevice: lib, pieces: store });   // the first compile of the file
      const r = compileUnit(x!.src, x!.opts, { libdevice: lib, pieces: store });
      expect(r.functions, flags.join(' ')).toBeUndefined();
      expect(r.incremental?.fallback, flags.join(' ')).toMatch(why);
      expect(outputs(r), flags.join(' ')).toEqual(want);
    }
  });
});

describe.skipIf(skip !== undefined)(`-lineinfo: the last assembly's .loc numbering ${skip ?? ''}`, () => {
  const lib = libdeviceBytes();
  it('-lineinfo body edits that change which inlined function a kernel names first: renumbered in the last assembly, identical to clean', () => {
    // kA calls f1 in every step, so what IR generation records stays; whether f1's inlined code survives the
    // optimiser decides whether kA's `.loc` lines name f1, ahead of the f2 that kB names
    const unit = (cond: string) => `static __device__ __forceinline__ float f1(float x) { return x * 3.5f + 1.0f; }
static __device__ __forceinline__ float f2(float x) { return x * 5.5f - 2.0f; }
__global__ void kA(float* o, int c) {
  int t = threadIdx.x;
  float x = o[t];
  if (${cond}) x = f1(x);
  o[t] = x;
}
__global__ void kB(float* o) { o[threadIdx.x] = f2(o[threadIdx.x]); }
__global__ void kC(float* o) { o[threadIdx.x] += 2.0f; }
`;
    const steps: [string, string][] = [
      ['kA names no inlined function', 'c != c'],
      ['kA names f1: numbered before f2', 'c > 1'],
      ['kA names f1, another condition', 'c > 2'],
      ['kA names no inlined function again', 't != t'],
    ];
    const names = (ptx: string) => ptx.match(/function_name \$L__info_string\d+/g) ?? [];
    for (const [flags, arch] of [[['-lineinfo'], 90], [['-lineinfo', '-rdc=true'], 75]] as const) {
      const units = steps.map(([, cond]) => prepareSourceFor(unit(cond), `modes-lines${flags.join('')}`, [...flags], [arch])[0]!);
      const want = units.map(x => outputs(compileUnit(x.src, x.opts, { libdevice: lib })));
      // the steps renumber kB's inlined function (otherwise this tests nothing new)
      expect(names(want[0]!.ptx), flags.join(' ')).toContain('function_name $L__info_string0');
      expect(names(want[0]!.ptx), flags.join(' ')).not.toContain('function_name $L__info_string1');
      expect(names(want[1]!.ptx), flags.join(' ')).toContain('function_name $L__info_string1');
      const store = new MemoryPieceStore();
      const prelude = new PreludeCache();
      compileUnit(units[0]!.src, units[0]!.opts, { libdevice: lib, prelude, pieces: store });   // the first compile of the file
      compileUnit(units[0]!.src, units[0]!.opts, { libdevice: lib, prelude, pieces: store });
      units.forEach((x, i) => {
        const at = `${flags.join(' ')}: ${steps[i]![0]}`;
        const r = compileUnit(x.src, x.opts, { libdevice: lib, prelude, pieces: store });
        expect(outputs(r), at).toEqual(want[i]);
        expect(r.functions?.compiled.map(shortName), `${at} (${r.incremental?.fallback})`).toEqual(i === 0 ? [] : ['kA']);
        expect(r.incremental?.assemblyReused, at).toBe(true);
      });
    }
  });
});

const DIST_WORKER = path.join(REPO_ROOT, 'dist', 'daemon', 'scheduler', 'worker.js');
const poolSkip = skip ?? (fs.existsSync(DIST_WORKER) ? undefined : 'skipped: dist/ not built (npx tsc -p .)');
const pools: Pool[] = [];
afterAll(async () => { for (const p of pools) await p.close(); });

describe.skipIf(poolSkip !== undefined)(`the daemon's pool and LMDB piece store, -lineinfo -rdc=true, two archs ${poolSkip ?? ''}`, () => {
  it('a seeded clean build of a 20-kernel unit, then one kernel edited and every line moved: per arch that kernel alone compiles, identical to clean', async () => {
    const lib = libdeviceBytes();
    const flags = ['-lineinfo', '-rdc=true'];
    const before = prepareSourceFor(multiKernelSource(20), 'modes-u20', flags, ARCHS);
    const after = prepareSourceFor(`// three lines above every kernel\n\n\n${multiKernelSource(20).replace('sh[0] * 7.5f', 'sh[0] * 7.25f')}`, 'modes-u20', flags, ARCHS);
    const parts = daemonParts('modes-u20', pools);
    for (const [a, u] of before.entries()) {
      const first = await cleanBuild(parts, u);
      expect(outputs(first), `sm_${ARCHS[a]}`).toEqual(outputs(compileUnit(u.src, u.opts, { libdevice: lib })));
    }
    // each arch's unit seeded on its own: the pieces of one arch are no pieces of the other
    expect(parts.seeds.seeded).toBe(2);
    expect(parts.seeds.kernels).toBe(40);
    for (const [a, u] of after.entries()) {
      const want = outputs(compileUnit(u.src, u.opts, { libdevice: lib }));
      // the unchanged first kernel's `.loc` lines moved (so reusing its piece as it was would be wrong)
      const locs = (ptx: string) => (ptx.match(/^\t\.loc\t1 \d+/gm) ?? []).slice(0, 5);
      expect(locs(want.ptx).length).toBe(5);
      expect(locs(want.ptx), 'the lines moved').not.toEqual(locs(compileUnit(before[a]!.src, before[a]!.opts, { libdevice: lib }).ptx));
      const r = (await parts.pool.run(u.src, u.opts, [parts.env])).result;
      expect(outputs(r), `sm_${ARCHS[a]}`).toEqual(want);
      expect(r.functions?.compiled.map(shortName), `sm_${ARCHS[a]} (${r.incremental?.fallback})`).toEqual(['k7']);
      expect(r.functions?.reused.length, `sm_${ARCHS[a]}`).toBe(19);
    }
    fs.rmSync(parts.dir, { recursive: true, force: true });
  }, 600_000);
});
