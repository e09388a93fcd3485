// The multi-kernel fixture of the incremental tests and its scripted series of edits, as the real nvcc
// hands it to cicc. The fixture is always written to the same path (per test file), so its module id
// (which depends on the path only) stays the same across edits.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CompileOptions } from '../../compiler/options';
import { prepareUnit, prepareUnits, unitOptions } from './tools';

export const ARCH = 90;

/** The multi-kernel fixture; each field is one edit of the series. */
export interface Variant {
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
  tmpl?: boolean;         // the body of a kernel template (specialised for a launch in host code) changed
  lam?: boolean;          // a lambda in kLam2 changed (kLam1 has one too; lambdas are numbered across the unit)
  noLam?: boolean;        // without kLam1 and kLam2 (-rdc keeps lambdas' operator() in the module: such units compile whole)
}

export function fixture(v: Variant): string {
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
    `template <typename T> __global__ void kTmpl(T* o) { o[threadIdx.x] = (T)${v.tmpl ? '2' : '1'}; }`,
    'void launchTmpl(float* p) { kTmpl<float><<<1, 32>>>(p); }',
    v.noLam ? '' : '__global__ void kLam1(float* o) { auto f = [](float x) { return x * 2.0f; }; o[threadIdx.x] = f(o[threadIdx.x]); }',
    v.noLam ? '' : `__global__ void kLam2(float* o) { auto g = [](float x) { return x + ${v.lam ? '4.0f' : '3.0f'}; }; o[threadIdx.x] = g(o[threadIdx.x]); }`,
    v.add ? '__global__ void kNew(float* o) { o[threadIdx.x] = 42.0f; }' : '',
  ];
  return parts.join(nl) + '\n';
}

export const ALL = ['kInl', 'kSlow', 'kStruct', 'kGlobal', 'kPrint', 'kPrint2', 'kShared1', 'kShared2', 'kBody', 'kMath', 'kTrig1', 'kTrig2', 'kTmpl', 'kLam1', 'kLam2'];

/** The series: the edit, then the kernels it must recompile (relative to the previous step). */
export const SERIES: [string, Variant, string[]][] = [
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
  ['kernel template', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true, shared: true, gtype: true, struct: true, trig: true, tmpl: true }, ['kTmpl']],
  ['lambda', { blank: true, body: true, add: true, delPrint: true, inl: true, slow: true, shared: true, gtype: true, struct: true, trig: true, tmpl: true, lam: true }, ['kLam2']],
  ['back to the start', {}, []],
];

/** `_Z4kInlPfPKfi` → kInl. */
export function shortName(mangled: string): string {
  const m = /^_Z(\d+)/.exec(mangled);
  return m ? mangled.slice(m[0].length, m[0].length + Number(m[1])) : mangled;
}

export interface Prepared { src: string; opts: CompileOptions }

/** The variant's unit; `slot` names the fixture's directory (one per test file: files run in parallel). */
export function prepareVariant(v: Variant, slot: string): Prepared {
  return prepareSource(fixture(v), slot);
}

/** The unit nvcc makes of `text`, always from the same path for one `slot` (so the module id stays). */
export function prepareSource(text: string, slot: string): Prepared {
  const dir = path.join(os.tmpdir(), `ptxd-incr-fixture-${process.getuid?.() ?? 'u'}-${slot}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'incr.cu');
  fs.writeFileSync(file, text);
  const u = prepareUnit(file, ARCH);
  return { src: fs.readFileSync(u.ii, 'utf8'), opts: unitOptions(u) };
}


/**
 * The unit nvcc makes of `text` with extra nvcc flags (-lineinfo, -rdc=true), once per arch of one nvcc run
 * (nvcc runs cicc once per arch), always from the same path for one `slot`.
 */
export function prepareSourceFor(text: string, slot: string, nvccFlags: string[], archs: readonly number[]): Prepared[] {
  const dir = path.join(os.tmpdir(), `ptxd-incr-fixture-${process.getuid?.() ?? 'u'}-${slot}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'incr.cu');
  fs.writeFileSync(file, text);
  const units = prepareUnits(file, archs, { nvccFlags });
  return archs.map(a => { const u = units.get(a)!; return { src: fs.readFileSync(u.ii, 'utf8'), opts: unitOptions(u) }; });
}
