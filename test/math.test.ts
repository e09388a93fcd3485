// CUDA math in device code: every test/kernels/math_*.cu compiles through compileUnit with libdevice linked
// (never `unsupported`, as under PTXD_FALLBACK=never) for every target, and ptxas accepts the PTX.
// Also: under --use_fast_math's flags, and at -O0 where the libdevice functions stay separate .func.
// Oracle: ptxas. (The programs' own checks run on a GPU through the integration build.)
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { compileUnit } from '../compiler/compile';
import { defaultOptions, type CompileOptions } from '../compiler/options';
import { ALL_ARCHS, KERNELS_DIR, prepareUnits, skipReason, tools, type PreparedUnit } from './helpers/tools';
import { ptxas } from './helpers/ptx';

const skip = skipReason('nvcc', 'ptxas');
const MATH = fs.readdirSync(KERNELS_DIR).filter(f => /^math_.*\.cu$/.test(f)).sort();

function libdevice(): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(tools().cudaHome!, 'nvvm', 'libdevice', 'libdevice.10.bc')));
}

function compile(u: PreparedUnit, patch: Partial<CompileOptions> = {}): string {
  const o = { ...defaultOptions(), arch: u.archNum, moduleId: u.moduleId, ...patch };
  const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), o, { libdevice: libdevice() });
  expect(r.unsupported).toBeUndefined();
  expect(r.diagnostics.filter(d => d.severity !== 'warning' && d.severity !== 'remark')).toEqual([]);
  expect(r.ok).toBe(true);
  return r.ptx;
}

/** Floating-point instruction forms (opcode with all its modifiers) used anywhere in the PTX. */
function fpFormSet(ptx: string): Set<string> {
  const out = new Set<string>();
  for (const l of ptx.split('\n')) {
    const m = /^\s+(?:@!?%p\d+\s+)?([a-z0-9]+(?:\.[a-z0-9]+)*)\s/.exec(l);
    if (m && /\.f(16|32|64)\b/.test(m[1]!) && !/^(ld|st|mov|setp|selp|cvta)\b/.test(m[1]!)) out.add(m[1]!);
  }
  return out;
}

describe.skipIf(skip !== undefined)(`math kernels compile for every target ${skip ?? ''}`, () => {
  it('has the math kernels', () => {
    expect(MATH).toEqual(expect.arrayContaining(['math_double.cu', 'math_fast.cu', 'math_flags.cu', 'math_float.cu']));
  });

  for (const file of MATH) {
    describe(file, () => {
      let units: Map<number, PreparedUnit> | undefined;
      const get = () => (units ??= prepareUnits(path.join(KERNELS_DIR, file), ALL_ARCHS));
      for (const arch of ALL_ARCHS) {
        it(`sm_${arch}`, () => {
          const ptx = compile(get().get(arch)!);
          expect(ptx).not.toMatch(/__nv_\w+/);       // all inlined at -O3, as cicc does
          expect(ptx).not.toMatch(/__nvvm_reflect/);
          expect(ptxas(ptx, arch)).toBe('');
        });
      }
    });
  }

  // The same libdevice paths as cicc: every floating-point instruction form (ex2.approx.ftz.f32, rcp.approx.ftz.f64,
  // copysign.f32, cvt.rmi.f64.f64, ...) in the real cicc's PTX for the unit appears in ours and vice versa.
  // A wrong reflect value (__CUDA_ARCH, __CUDA_FTZ, ...) or a missed library path shows up here.
  for (const file of ['math_float.cu', 'math_double.cu', 'math_fast.cu']) {
    it(`${file}: the same floating-point instruction forms as cicc (sm_75, sm_90, sm_120)`, () => {
      const units = prepareUnits(path.join(KERNELS_DIR, file), ALL_ARCHS);
      for (const arch of [75, 90, 120]) {
        const u = units.get(arch)!;
        expect(u.refPtx).toContain('.entry');
        const ours = fpFormSet(compile(u)), ref = fpFormSet(u.refPtx);
        expect({ arch, onlyOurs: [...ours].filter(x => !ref.has(x)), onlyCicc: [...ref].filter(x => !ours.has(x)) })
          .toEqual({ arch, onlyOurs: [], onlyCicc: [] });
      }
    });
  }

  it('math_float.cu under --use_fast_math flags (sm_80, sm_120)', () => {
    const units = prepareUnits(path.join(KERNELS_DIR, 'math_float.cu'), ALL_ARCHS);
    for (const arch of [80, 120]) {
      const ptx = compile(units.get(arch)!, { ftz: true, precDiv: false, precSqrt: false, fmad: true, fastMath: true, genDivApproxFtz: true });
      expect(ptx).toMatch(/sin\.approx\.ftz\.f32/);
      expect(ptx).toMatch(/div\.approx\.ftz\.f32/);
      expect(ptx).toMatch(/sqrt\.approx\.ftz\.f32/);
      expect(ptxas(ptx, arch)).toBe('');
    }
  });

  it('math_double.cu at -O0 keeps libdevice functions as internal .func (sm_90)', () => {
    const u = prepareUnits(path.join(KERNELS_DIR, 'math_double.cu'), ALL_ARCHS).get(90)!;
    const ptx = compile(u, { optLevel: 0 });
    expect(ptx).toMatch(/^\.func .*__nv_sin\b/m);
    expect(ptx).not.toMatch(/^\.visible \.func .*__nv_/m);
    expect(ptxas(ptx, 90)).toBe('');
  });

  it('without libdevice bytes, a unit calling libdevice is unsupported (falls back), not wrong', () => {
    const u = prepareUnits(path.join(KERNELS_DIR, 'math_flags.cu'), ALL_ARCHS).get(90)!;
    const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), { ...defaultOptions(), arch: 90, moduleId: u.moduleId });
    expect(r.unsupported).toMatch(/libdevice not available: .*__nv_/);
  });
});
