// Per-root incremental compilation (compiler/incremental/): after every step of a scripted series of edits,
// the PTX and stub built from cached roots are byte-identical to a clean compile of the same unit (the
// oracle: compileUnit without a piece store), ptxas accepts the PTX, and exactly the roots the edit
// affects are recompiled. The .ii files are what the real nvcc hands cicc; the fixture is always written
// to the same path, so its module id (which depends on the path only) stays the same across edits.

import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { compileUnit, type CompileResult } from '../compiler/compile';
import type { CompileOptions } from '../compiler/options';
import { PreludeCache } from '../compiler/frontend/prelude';
import { MemoryPieceStore } from '../compiler/incremental/store';
import { lastFallbackReason } from '../compiler/incremental/incremental';
import { KERNELS_DIR, prepareUnit, skipReason, unitOptions, libdeviceBytes, tools } from './helpers/tools';

process.env.PTXD_FALLBACK = 'never';

const skip = skipReason('nvcc', 'ptxas');
const ARCH = 90;

/** The multi-kernel fixture; each field is one edit of the series. */
interface Variant {
  blank?: boolean;        // blank lines and comments inserted everywhere
  body?: boolean;         // kBody's own body changed
  add?: boolean;          // a kernel added
  delPrint?: boolean;     // kPrint deleted (kPrint2's string constant is renumbered)
  inl?: boolean;          // the always-inlined callee of kInl changed
  slow?: boolean;         // the __noinline__ callee of kSlow changed
  shared?: boolean;       // the __noinline__ callee of kShared1 and kShared2 changed
  ginit?: boolean;        // a __device__ global's initialiser changed
  gtype?: boolean;        // ... and its type
  struct?: boolean;       // the struct kStruct uses changed
  trig?: boolean;         // kTrig2 (libdevice functions and their constant tables, shared with kTrig1) changed
}

function fixture(v: Variant): string {
  const nl = v.blank ? '\n\n  // a comment\n/* another\n   comment */\n' : '\n';
  const parts = [
    '#include <cstdio>',
    v.struct ? 'struct Pair { int pad; float a; float b; };' : 'struct Pair { float a; float b; };',
    v.gtype ? '__device__ long long gcount = 7;' : v.ginit ? '__device__ int gcount = 5;' : '__device__ int gcount = 3;',
    '__constant__ float coeffs[4] = {1.f, 2.f, 3.f, 4.f};',
    `__device__ __forceinline__ float inl(float x) { return x * ${v.inl ? '3.0f' : '2.0f'} + 1.0f; }`,
    `__device__ __noinline__ float slow(float x, int n) { float s = 0; for (int i = 0; i < n; ++i) s += x * i${v.slow ? ' + 1.0f' : ''}; return s; }`,
    `__device__ __noinline__ float sharedHelper(float x) { return x * x + ${v.shared ? '0.25f' : '0.5f'}; }`,
    '__global__ void kInl(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = inl(a[i]); }',
    '__global__ void kSlow(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = slow(a[i], n); }',
    '__global__ void kStruct(Pair* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i].a = p[i].b + 1.0f; }',
    '__global__ void kGlobal(int* o) { o[threadIdx.x] = (int)gcount + (int)coeffs[threadIdx.x & 3]; }',
    v.delPrint ? '' : '__global__ void kPrint(int v) { printf("kPrint %d\\n", v); }',
    '__global__ void kPrint2(float v) { printf("kPrint2 %f\\n", v); }',
    '__global__ void kShared1(float* o) { o[threadIdx.x] = sharedHelper(o[threadIdx.x]); }',
    '__global__ void kShared2(float* o) { o[threadIdx.x] = sharedHelper(o[threadIdx.x]) + 1.0f; }',
    `__global__ void kBody(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = i * ${v.body ? '4.0f' : '3.0f'}; }`,
    '__global__ void kMath(float* o) { o[threadIdx.x] = sqrtf(o[threadIdx.x]) + __sinf(o[threadIdx.x]); }',
    '__global__ void kTrig1(float* o) { o[threadIdx.x] = sinf(o[threadIdx.x]); }',
    `__global__ void kTrig2(double* o) { o[threadIdx.x] = cos(o[threadIdx.x]) + tanf((float)o[threadIdx.x])${v.trig ? ' * 2.0' : ''}; }`,
    v.add ? '__global__ void kNew(float* o) { o[threadIdx.x] = 42.0f; }' : '',
  ];
  return parts.join(nl) + '\n';
}

const ALL = ['kInl', 'kSlow', 'kStruct', 'kGlobal', 'kPrint', 'kPrint2', 'kShared1', 'kShared2', 'kBody', 'kMath', 'kTrig1', 'kTrig2'];

/** The series: the edit, then the kernels it must recompile (relative to the previous step). */
const SERIES: [string, Variant, string[]][] = [
  ['clean start', {}, ALL],
  ['blank lines and comments', { blank: true }, []],
  ['one kernel body', { blank: true, body: true }, ['kBody']],
  ['add a kernel', { blank: true, body: true, add: true }, ['kNew']],
  ['delete a kernel', { blank: true, body: true, add: true, delPrint: true }, []],
  ['inlined callee', { blank: true, body: true, add: true, delPrint: true, inl: true }, ['kInl']],
  ['noinline callee', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true }, ['kSlow']],
  ['shared noinline callee', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true, shared: true }, ['kShared1', 'kShared2']],
  ['global initializer', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true, shared: true, ginit: true }, ['kGlobal']],
  ['global type', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true, shared: true, gtype: true }, ['kGlobal']],
  ['struct', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true, shared: true, gtype: true, struct: true }, ['kStruct']],
  ['libdevice caller', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true, shared: true, gtype: true, struct: true, trig: true }, ['kTrig2']],
  ['back to the start', {}, []],
];

/** `_Z4kInlPfPKfi` → kInl. */
function shortName(mangled: string): string {
  const m = /^_Z(\d+)/.exec(mangled);
  return m ? mangled.slice(m[0].length, m[0].length + Number(m[1])) : mangled;
}

interface Prepared { src: string; opts: CompileOptions }

const FIXTURE_DIR = path.join(os.tmpdir(), `ptxd-incr-fixture-${process.getuid?.() ?? 'u'}`);
function prepareVariant(v: Variant): Prepared {
  fs.mkdirSync(FIXTURE_DIR, { recursive: true });
  const file = path.join(FIXTURE_DIR, 'incr.cu');
  fs.writeFileSync(file, fixture(v));
  const u = prepareUnit(file, ARCH);
  return { src: fs.readFileSync(u.ii, 'utf8'), opts: unitOptions(u) };
}

let ptxasDir = '';
function ptxas(ptx: string, arch: number): string {
  if (!ptxasDir) ptxasDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptxd-incr-'));
  const f = path.join(ptxasDir, `k${Math.random().toString(36).slice(2)}.ptx`);
  fs.writeFileSync(f, ptx);
  const r = spawnSync(tools().ptxas!, [`-arch=sm_${arch}`, f, '-o', '/dev/null'], { encoding: 'utf8' });
  fs.rmSync(f, { force: true });
  return r.status === 0 ? '' : (r.stderr || r.stdout || `exit ${r.status}`);
}

const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });

describe.skipIf(skip !== undefined)(`incremental compilation ${skip ?? ''}`, () => {
  const lib = libdeviceBytes();
  const units: Prepared[] = [];
  const clean: CompileResult[] = [];
  beforeAll(() => {
    for (const [, v] of SERIES) {
      const p = prepareVariant(v);
      units.push(p);
      clean.push(compileUnit(p.src, p.opts, { libdevice: lib }));
    }
  }, 600_000);

  it('the fixture compiles cleanly at every step', () => {
    for (let i = 0; i < SERIES.length; i++) {
      expect(clean[i]!.ok, `${SERIES[i]![0]}: ${clean[i]!.unsupported ?? JSON.stringify(clean[i]!.diagnostics)}`).toBe(true);
      // the fixture's edits really change the clean PTX where they should (so equality below is no accident)
      if (i > 0 && SERIES[i]![2].length > 0) expect(clean[i]!.ptx, SERIES[i]![0]).not.toBe(clean[i - 1]!.ptx);
    }
    expect(units[0]!.opts.moduleId).toBe(units[1]!.opts.moduleId);
  });

  it('edit series: identical to a clean compile, accepted by ptxas, recompiling only what the edit affects', () => {
    const store = new MemoryPieceStore();
    const prelude = new PreludeCache();
    SERIES.forEach(([what, , expected], i) => {
      const r = compileUnit(units[i]!.src, units[i]!.opts, { libdevice: lib, prelude, pieces: store });
      expect(r.functions, `${what}: fell back (${lastFallbackReason()})`).toBeDefined();
      expect(outputs(r), what).toEqual(outputs(clean[i]!));
      expect(r.functions!.compiled.map(shortName).sort(), what).toEqual([...expected].sort());
      expect(r.functions!.compiled.length + r.functions!.reused.length, what).toBe(ALL.length - (SERIES[i]![1].delPrint ? 1 : 0) + (SERIES[i]![1].add ? 1 : 0));
      expect(ptxas(r.ptx, ARCH), what).toBe('');
    });
  });

  it('options: -arch, -ftz, -O recompile every root and match a clean compile', () => {
    const store = new MemoryPieceStore();
    const u = units[0]!;
    const variants: [string, CompileOptions][] = [
      ['base', u.opts], ['-arch 75', { ...u.opts, arch: 75 }], ['-ftz', { ...u.opts, ftz: true }], ['-O1', { ...u.opts, optLevel: 1 }], ['base again', u.opts],
    ];
    for (const [what, o] of variants) {
      const r = compileUnit(u.src, o, { libdevice: lib, pieces: store });
      expect(r.functions, `${what}: fell back (${lastFallbackReason()})`).toBeDefined();
      expect(outputs(r), what).toEqual(outputs(compileUnit(u.src, o, { libdevice: lib })));
      expect(r.functions!.compiled.length, what).toBe(what === 'base again' ? 0 : ALL.length);
      expect(ptxas(r.ptx, o.arch), what).toBe('');
    }
  });

  it('the store shared across shuffled and reversed orders of the series: identical', () => {
    for (const order of [[...SERIES.keys()].reverse(), [5, 0, 9, 12, 2, 11, 7, 1, 10, 3, 8, 4, 6, 0, 12, 5]]) {
      const store = new MemoryPieceStore();
      for (const i of order) {
        const r = compileUnit(units[i]!.src, units[i]!.opts, { libdevice: lib, pieces: store });
        expect(r.functions, `${SERIES[i]![0]}: fell back (${lastFallbackReason()})`).toBeDefined();
        expect(outputs(r), SERIES[i]![0]).toEqual(outputs(clean[i]!));
      }
    }
  });

  it('test kernels: identical cold and warm through the store; unsupported ones fall back visibly', () => {
    const programs = ['device_functions.cu', 'device_vars.cu', 'printf.cu', 'cxx_classes.cu', 'matmul_tiled.cu', 'histogram.cu',
      'math_float.cu', 'structs_nested.cu', 'struct_byvalue.cu', 'shared_static.cu', 'atomics_int.cu', 'cxx_namespaces.cu', 'cxx_template_kernels.cu', 'recursion.cu', 'constant_vars.cu']
      .filter(p => fs.existsSync(path.join(KERNELS_DIR, p)));
    expect(programs.length).toBeGreaterThanOrEqual(10);
    let incremental = 0;
    for (const p of programs) {
      const u = prepareUnit(path.join(KERNELS_DIR, p), ARCH);
      const src = fs.readFileSync(u.ii, 'utf8');
      const opts = unitOptions(u);
      const want = outputs(compileUnit(src, opts, { libdevice: lib }));
      const store = new MemoryPieceStore();
      const cold = compileUnit(src, opts, { libdevice: lib, pieces: store });
      expect(outputs(cold), `${p} cold`).toEqual(want);
      const warm = compileUnit(src, opts, { libdevice: lib, pieces: store });
      expect(outputs(warm), `${p} warm`).toEqual(want);
      if (warm.functions) {
        incremental++;
        expect(warm.functions.compiled, p).toEqual([]);
        expect(warm.functions.reused.length, p).toBe(cold.functions!.compiled.length);
      } else {
        expect(lastFallbackReason(), p).not.toBe('');
      }
    }
    // most of them take the per-root path
    expect(incremental, 'units compiled per root').toBeGreaterThanOrEqual(programs.length / 2);
  }, 600_000);
});
