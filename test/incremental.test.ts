// Per-root incremental compilation (compiler/incremental/): after every step of a scripted series of edits,
// the PTX and stub built from cached roots are byte-identical to a clean compile of the same unit (the
// oracle: compileUnit without a piece store), ptxas accepts the PTX, and exactly the roots the edit
// affects are recompiled. The fixture and its edits: test/helpers/incremental-fixture.ts.

import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileUnit, type CompileResult } from '../compiler/compile';
import type { CompileOptions } from '../compiler/options';
import { PreludeCache } from '../compiler/frontend/prelude';
import { MemoryPieceStore } from '../compiler/incremental/store';
import { KERNELS_DIR, prepareUnit, skipReason, unitOptions, libdeviceBytes } from './helpers/tools';
import { ptxas } from './helpers/ptx';
import { ALL, ARCH, SERIES, prepareSource, prepareVariant, shortName, type Prepared } from './helpers/incremental-fixture';

process.env.PTXD_FALLBACK = 'never';

const skip = skipReason('nvcc', 'ptxas');

const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });

describe.skipIf(skip !== undefined)(`incremental compilation ${skip ?? ''}`, () => {
  const lib = libdeviceBytes();
  const units: Prepared[] = [];
  const clean: CompileResult[] = [];
  beforeAll(() => {
    for (const [, v] of SERIES) {
      const p = prepareVariant(v, 'series');
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
    // the first compile of a file is whole; from the second on, kernels are compiled one by one
    const first = compileUnit(units[0]!.src, units[0]!.opts, { libdevice: lib, prelude, pieces: store });
    expect(first.functions).toBeUndefined();
    expect(first.incremental?.fallback).toBe('first compile of this file');
    expect(outputs(first)).toEqual(outputs(clean[0]!));
    SERIES.forEach(([what, , expected], i) => {
      const r = compileUnit(units[i]!.src, units[i]!.opts, { libdevice: lib, prelude, pieces: store });
      expect(r.functions, `${what}: fell back (${r.incremental?.fallback})`).toBeDefined();
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
      const want = outputs(compileUnit(u.src, o, { libdevice: lib }));
      // new options: first compile whole, then every kernel compiled for these options
      if (what !== 'base again') expect(compileUnit(u.src, o, { libdevice: lib, pieces: store }).functions, what).toBeUndefined();
      const r = compileUnit(u.src, o, { libdevice: lib, pieces: store });
      expect(r.functions, `${what}: fell back (${r.incremental?.fallback})`).toBeDefined();
      expect(outputs(r), what).toEqual(want);
      expect(r.functions!.compiled.length, what).toBe(what === 'base again' ? 0 : ALL.length);
      expect(ptxas(r.ptx, o.arch), what).toBe('');
    }
  });

  it('the store shared across shuffled and reversed orders of the series: identical', () => {
    for (const order of [[...SERIES.keys()].reverse(), [5, 0, 9, 12, 2, 13, 11, 14, 7, 1, 10, 3, 8, 4, 6, 0, 12, 5, 13, 14]]) {
      const store = new MemoryPieceStore();
      compileUnit(units[order[0]!]!.src, units[order[0]!]!.opts, { libdevice: lib, pieces: store });   // marks the file
      for (const i of order) {
        const r = compileUnit(units[i]!.src, units[i]!.opts, { libdevice: lib, pieces: store });
        expect(r.functions, `${SERIES[i]![0]}: fell back (${r.incremental?.fallback})`).toBeDefined();
        expect(outputs(r), SERIES[i]![0]).toEqual(outputs(clean[i]!));
      }
    }
  });

  it('kernels that disagree about a shared function (argument promotion) compile whole, identical to clean', () => {
    const src = (addr: boolean) => [
      'struct Pair { float a; float b; };',
      '__device__ __noinline__ float usePair(const Pair& p) { return p.a * p.b + 1.0f; }',
      '__global__ void kDirect(float* o, const Pair* p) { o[threadIdx.x] = usePair(p[threadIdx.x]); }',
      `__global__ void kAddr(float* o, const Pair* p, unsigned long long* out) { ${addr ? 'out[0] = (unsigned long long)&usePair; ' : ''}o[0] = usePair(*p); }`,
    ].join('\n') + '\n';
    const [withAddr, direct] = [true, false].map(a => prepareSource(src(a), 'conflict'));
    const store = new MemoryPieceStore();
    const run = (u: Prepared) => {
      const r = compileUnit(u.src, u.opts, { libdevice: lib, pieces: store });
      expect(outputs(r)).toEqual(outputs(compileUnit(u.src, u.opts, { libdevice: lib })));
      expect(r.ok).toBe(true);
      return r;
    };
    run(withAddr);                                              // first compile of the file: whole
    // alone, kDirect promotes usePair's argument, kAddr (taking its address) cannot: they disagree
    const both = run(withAddr);
    expect(both.functions).toBeUndefined();
    expect(both.incremental?.fallback).toMatch(/usePair/);
    // without the address taken both agree: only kAddr is compiled again
    expect(run(direct).functions?.compiled.map(shortName)).toEqual(['kAddr']);
    expect(run(withAddr).functions, 'back: the stored entries disagree again').toBeUndefined();
  });

  it('test kernels: identical first (whole), cold and warm through the store; unsupported ones fall back visibly', () => {
    const programs = ['device_functions.cu', 'device_vars.cu', 'printf.cu', 'cxx_classes.cu', 'matmul_tiled.cu', 'histogram.cu',
      'math_float.cu', 'structs_nested.cu', 'struct_byvalue.cu', 'shared_static.cu', 'atomics_int.cu', 'cxx_namespaces.cu', 'cxx_template_kernels.cu', 'cxx_generic.cu', 'cxx_lambdas.cu', 'recursion.cu', 'constant_vars.cu']
      .filter(p => fs.existsSync(path.join(KERNELS_DIR, p)));
    expect(programs.length).toBeGreaterThanOrEqual(10);
    let incremental = 0;
    for (const p of programs) {
      const u = prepareUnit(path.join(KERNELS_DIR, p), ARCH);
      const src = fs.readFileSync(u.ii, 'utf8');
      const opts = unitOptions(u);
      const want = outputs(compileUnit(src, opts, { libdevice: lib }));
      const store = new MemoryPieceStore();
      const first = compileUnit(src, opts, { libdevice: lib, pieces: store });
      expect(first.functions, `${p} first`).toBeUndefined();
      expect(outputs(first), `${p} first`).toEqual(want);
      const cold = compileUnit(src, opts, { libdevice: lib, pieces: store });
      expect(outputs(cold), `${p} cold`).toEqual(want);
      const warm = compileUnit(src, opts, { libdevice: lib, pieces: store });
      expect(outputs(warm), `${p} warm`).toEqual(want);
      if (warm.functions) {
        incremental++;
        expect(warm.functions.compiled, p).toEqual([]);
        expect(warm.functions.reused.length, p).toBe(cold.functions!.compiled.length);
      } else {
        expect(warm.incremental?.fallback, p).not.toBe('');
        expect(warm.incremental?.fallback, p).not.toMatch(/^internal error/);
      }
    }
    // most of them take the per-root path
    expect(incremental, 'units compiled per root').toBeGreaterThanOrEqual(programs.length / 2);
  }, 600_000);
});
