// The unit level of an incremental compile (roots, device variables, host stub: compiler/incremental/
// incremental.ts unitLevel) is remembered across compiles. After every step of a series of edits that touch
// what it reads (kernel signatures, prototypes, lines the stub names, types and device variables found by
// lookup), the PTX and stub equal a clean compile of the same unit (the oracle: compileUnit without a piece
// store), and an edit inside a kernel's body that moves no line reuses it.

import { describe, it, expect, beforeAll } from 'vitest';
import { compileUnit, type CompileResult } from '../compiler/compile';
import { PreludeCache } from '../compiler/frontend/prelude';
import { MemoryPieceStore } from '../compiler/incremental/store';
import { skipReason, libdeviceBytes } from './helpers/tools';
import { prepareSource, type Prepared } from './helpers/incremental-fixture';

process.env.PTXD_FALLBACK = 'never';

const skip = skipReason('nvcc');

interface V {
  body?: boolean;    // kB's body changed, same lines
  lines?: boolean;   // kB's body grows by two lines (kB's closing brace and every later kernel move)
  top?: boolean;     // blank lines before every kernel
  struct?: boolean;  // the struct kA takes by value changed (its size in the stub)
  tdef?: boolean;    // the typedef kC's parameter is declared with changed
  ginit?: boolean;   // a __device__ variable's initialiser changed
  gtype?: boolean;   // ... and its type
  proto?: boolean;   // a prototype of kB before the kernels
  sig?: boolean;     // kC's parameters changed (its mangled name too)
  add?: boolean;     // a kernel added
  dbody?: boolean;   // kD's body changed (it prints a string literal), same lines
}

function unit(v: V): string {
  return [
    '#include <cstdio>',
    v.top ? '\n\n' : '',
    v.struct ? 'struct P { double a; int b; };' : 'struct P { float a; int b; };',
    v.tdef ? 'typedef double real;' : 'typedef float real;',
    v.gtype ? '__device__ double gval = 2.0;' : v.ginit ? '__device__ float gval = 3.0f;' : '__device__ float gval = 2.0f;',
    v.proto ? '__global__ void kB(float* o, int n);' : '',
    '__global__ void kA(P p, float* o) { o[threadIdx.x] = p.a + p.b + gval; }',
    `__global__ void kB(float* o, int n) { int i = threadIdx.x;${v.lines ? '\n\n' : ' '}if (i < n) o[i] = i * ${v.body ? '4.0f' : '3.0f'}; }`,
    v.sig ? '__global__ void kC(real* o, int n) { o[threadIdx.x] = (real)n; }' : '__global__ void kC(real* o) { o[threadIdx.x] = 1; }',
    `__global__ void kD(int v) { printf("kD %d\\n", v${v.dbody ? ' + 1' : ''}); }`,
    v.add ? '__global__ void kE(float* o) { o[threadIdx.x] = gval; }' : '',
  ].join('\n') + '\n';
}

/** The steps, and whether the unit level must be reused (undefined: either is right). */
const STEPS: [string, V, boolean | undefined][] = [
  ['start', {}, undefined],
  ['same unit', {}, true],
  ['kernel body', { body: true }, true],
  ['kernel body, more lines', { body: true, lines: true }, false],
  ['back to the start', {}, true],
  ['blank lines before the kernels', { top: true }, false],
  ['struct of a parameter', { struct: true }, false],
  ['typedef of a parameter', { tdef: true }, false],
  ['device variable initialiser', { ginit: true }, false],
  ['device variable type', { gtype: true }, false],
  ['prototype', { proto: true }, false],
  ['kernel parameters', { sig: true }, false],
  ['kernel added', { add: true }, false],
  ['everything', { body: true, lines: true, top: true, struct: true, tdef: true, gtype: true, proto: true, sig: true, add: true }, false],
  ['kernel body again', { body: true }, true],
  ['two kernel bodies, one printing a string', { dbody: true }, true],
];

const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });

describe.skipIf(skip !== undefined)(`incremental roots and inline namespaces ${skip ?? ''}`, () => {
  // every root's Unit over one index sees the inline namespaces (template lookup through cuda::std::__4-like
  // namespaces), whichever Unit built the index's namespace tables first
  it('kernels calling a function template of an inline namespace compile per root, identical to clean', () => {
    const lib = libdeviceBytes();
    const text = (c: string) => [
      'namespace lib { inline namespace v1 { template <typename T> __device__ T twice(T x) { return x * (T)2; } } }',
      '__global__ void kA(float* o) { o[threadIdx.x] = lib::twice(o[threadIdx.x]); }',
      `__global__ void kB(float* o) { o[threadIdx.x] = lib::twice(o[threadIdx.x]) + ${c}; }`,
      '__global__ void kC(int* o) { o[threadIdx.x] = lib::twice(o[threadIdx.x]); }',
    ].join('\n') + '\n';
    const store = new MemoryPieceStore();
    const prelude = new PreludeCache();
    for (const [i, c] of ['1.0f', '1.0f', '2.0f', '3.0f'].entries()) {
      const p = prepareSource(text(c), 'inline-ns');
      const r = compileUnit(p.src, p.opts, { libdevice: lib, prelude, pieces: store });
      if (i > 0) expect(r.functions, `step ${i}: fell back (${r.incremental?.fallback})`).toBeDefined();
      expect(outputs(r), `step ${i}`).toEqual(outputs(compileUnit(p.src, p.opts, { libdevice: lib })));
    }
  });
});

describe.skipIf(skip !== undefined)(`incremental unit level ${skip ?? ''}`, () => {
  const lib = libdeviceBytes();
  const units: Prepared[] = [];
  const clean: CompileResult[] = [];
  beforeAll(() => {
    for (const [, v] of STEPS) {
      const p = prepareSource(unit(v), 'unit-level');
      units.push(p);
      clean.push(compileUnit(p.src, p.opts, { libdevice: lib }));
    }
  }, 600_000);

  it('the steps compile cleanly, and those that change what the unit level reads change the stub or the kernels', () => {
    STEPS.forEach(([what], i) => expect(clean[i]!.ok, `${what}: ${clean[i]!.unsupported ?? JSON.stringify(clean[i]!.diagnostics)}`).toBe(true));
    // the stub names two files of the nvcc run, which differ in every run
    const stubOf = (what: string) => {
      const i = STEPS.findIndex(s => s[0] === what);
      return clean[i]!.stub.split(units[i]!.opts.includeFileName).join('<include>').split(units[i]!.opts.stubFileName).join('<stub>');
    };
    expect(units[0]!.opts.stubFileName).not.toBe(units[2]!.opts.stubFileName);
    // so that equality with the clean compile below is no accident
    for (const what of ['kernel body, more lines', 'blank lines before the kernels', 'struct of a parameter', 'kernel parameters', 'kernel added'])
      expect(stubOf(what), what).not.toBe(stubOf('start'));
    expect(stubOf('kernel body')).toBe(stubOf('start'));
  });

  it('through a warm store and prelude cache, every step equals a clean compile', () => {
    for (const order of ['in order', 'reversed']) {
      const store = new MemoryPieceStore();
      const prelude = new PreludeCache();
      const steps = order === 'in order' ? STEPS.map((s, i) => [s, i] as const) : STEPS.map((s, i) => [s, i] as const).reverse();
      compileUnit(units[steps[0]![1]]!.src, units[0]!.opts, { libdevice: lib, prelude, pieces: store });   // the first compile is whole
      for (const [[what, , reuse], i] of steps) {
        const r = compileUnit(units[i]!.src, units[i]!.opts, { libdevice: lib, prelude, pieces: store });
        expect(r.functions, `${order}, ${what}: fell back (${r.incremental?.fallback})`).toBeDefined();
        expect(outputs(r), `${order}, ${what}`).toEqual(outputs(clean[i]!));
        if (order === 'in order' && reuse !== undefined) expect(r.incremental?.unitLevelReused, `${order}, ${what}`).toBe(reuse);
        // a kept unit level whose kernels keep their shape: the last module with the new kernels' texts put in
        if (order === 'in order' && reuse === true) expect(r.incremental?.assemblyReused, `${order}, ${what}`).toBe(true);
      }
    }
  });
});

// Between two compiles of a unit, an edit that changes nothing but kernel bodies (and moves no line after them) is
// found by comparing the texts (incremental.ts bodyEdits): the other roots and the unit level are taken from the
// last compile without hashing anything. Every step must still equal a clean compile, and the edits it must not
// take that way (a helper changed, a line moved, an overloaded kernel, broken braces) must not be taken that way.
interface B {
  a?: string;       // kA's body
  b?: string;       // kB's body
  helper?: boolean; // the device function kH calls changed
  over?: boolean;   // the body of one of two overloaded kernels kO changed (the other's trace names kO)
}

function bodies(v: B): string {
  return [
    '#include <cstdio>',
    `__device__ float h(float x) { return x * ${v.helper ? '5.0f' : '4.0f'}; }`,
    `__global__ void kA(float* o) { ${v.a ?? 'o[threadIdx.x] = 1.0f;'} }`,
    `__global__ void kB(float* o, int n) { ${v.b ?? 'int i = threadIdx.x; if (i < n) o[i] = i * 3.0f;'} }`,
    '__global__ void kH(float* o) { o[threadIdx.x] = h(o[threadIdx.x]); }',
    `__global__ void kO(int* o) { o[threadIdx.x] = ${v.over ? '8' : '7'}; }`,
    '__global__ void kO(float* o) { o[threadIdx.x] = 7.0f; }',
    '__global__ void kP(int v) { printf("kP %d\\n", v); }',
  ].join('\n') + '\n';
}

/** The steps, whether each is found to change only kernel bodies, and the roots it then compiles. */
const BODY_STEPS: [string, B, boolean, string[]?][] = [
  ['start', {}, false],
  ['the same text', {}, true, []],
  ['kB body', { b: 'int i = threadIdx.x; if (i < n) o[i] = i * 4.0f;' }, true, ['_Z2kBPfi']],
  // kB as at the start is in the store: found there, not compiled
  ['kA body, kB back', { a: 'o[threadIdx.x] = 2.0f;' }, true, ['_Z2kAPf']],
  ['kA body with a brace in a comment and in a string', { a: 'o[threadIdx.x] = 2.0f; /* } */ printf("}{");' }, true, ['_Z2kAPf']],
  ['kB body one line longer', { b: 'int i = threadIdx.x;\nif (i < n) o[i] = i * 4.0f;' }, false],
  ['kB body on one line again', { b: 'int i = threadIdx.x; if (i < n) o[i] = i * 5.0f;' }, false],
  ['the helper of kH', { b: 'int i = threadIdx.x; if (i < n) o[i] = i * 5.0f;', helper: true }, false],
  ['one of two overloaded kernels', { b: 'int i = threadIdx.x; if (i < n) o[i] = i * 5.0f;', helper: true, over: true }, false],
  // (nvcc does not make such a unit: it is the previous one with a brace put in)
  ['kB with an unclosed brace', { b: 'int i = threadIdx.x; if (i < n) o[i] = i * 5.0f;', helper: true, over: true }, false],
  ['kB closed again', { b: 'int i = threadIdx.x; if (i < n) o[i] = i * 6.0f;', helper: true, over: true }, true, ['_Z2kBPfi']],
];

describe.skipIf(skip !== undefined)(`incremental edits inside kernel bodies ${skip ?? ''}`, () => {
  const lib = libdeviceBytes();
  const units: Prepared[] = [];
  const clean: CompileResult[] = [];
  beforeAll(() => {
    for (const [what, v] of BODY_STEPS) {
      const p = prepareSource(bodies(v), 'body-edits');
      if (what === 'kB with an unclosed brace') {
        const from = 'if (i < n) o[i] = i * 5.0f;';
        expect(p.src).toContain(from);
        p.src = p.src.replace(from, 'if (i < n) { o[i] = i * 5.0f;');
      }
      units.push(p);
      clean.push(compileUnit(p.src, p.opts, { libdevice: lib }));
    }
  }, 600_000);

  it('each step equals a clean compile, and only body edits are taken for one', () => {
    // the unclosed brace is an error for both; every other step compiles
    BODY_STEPS.forEach(([what], i) => expect(clean[i]!.ok, what).toBe(what !== 'kB with an unclosed brace'));
    const store = new MemoryPieceStore();
    const prelude = new PreludeCache();
    compileUnit(units[0]!.src, units[0]!.opts, { libdevice: lib, prelude, pieces: store });   // the first compile is whole
    BODY_STEPS.forEach(([what, , body, compiled], i) => {
      const r = compileUnit(units[i]!.src, units[i]!.opts, { libdevice: lib, prelude, pieces: store });
      expect(outputs(r), what).toEqual(outputs(clean[i]!));
      expect(r.incremental?.bodyEdit ?? false, what).toBe(body);
      if (compiled) expect(r.functions?.compiled, what).toEqual(compiled);
    });
  });
});
