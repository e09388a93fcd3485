// Virtual functions and class temporaries (issue 8): the per-root incremental path handles vtables (created
// with the functions they name, shared by roots, dropped where every call was devirtualised) and gives the
// same bytes as a clean compile; units whose virtual calls all bind statically have no vtable, like cicc's.
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { compileUnit, type CompileResult } from '../compiler/compile';
import { MemoryPieceStore } from '../compiler/incremental/store';
import { KERNELS_DIR, prepareUnit, skipReason, unitOptions, libdeviceBytes } from './helpers/tools';

process.env.PTXD_FALLBACK = 'never';
const skip = skipReason('nvcc');
const outputs = (r: CompileResult) => ({ ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported });
const vtables = (ptx: string): string[] => [...ptx.matchAll(/^\.global \.align 8 \.u64 (_ZTV\w+)\[/gm)].map(m => m[1]!).sort();

describe.skipIf(skip !== undefined)(`virtual functions and temporaries ${skip ?? ''}`, () => {
  const lib = libdeviceBytes();
  const programs = fs.readdirSync(KERNELS_DIR).filter(f => /^cxx2_(virtual|temporaries)_.*\.cu$/.test(f)).sort();

  it('there are programs', () => { expect(programs.length).toBeGreaterThanOrEqual(6); });

  it('several kernels sharing classes: each root keeps or drops vtables on its own, the unit has what cicc has', () => {
    const dir = path.join(os.tmpdir(), `ptxd-virtuals-${process.getuid?.() ?? 'u'}`);
    fs.mkdirSync(dir, { recursive: true });
    const cu = path.join(dir, 'roots.cu');
    fs.writeFileSync(cu, `struct Shape { __device__ virtual float area() const = 0; __device__ virtual ~Shape() {} };
struct Rect : Shape { float w, h; __device__ Rect(float a, float b) : w(a), h(b) {} __device__ float area() const override { return w * h; } };
struct Circ : Shape { float r; __device__ Circ(float a) : r(a) {} __device__ float area() const override { return 3 * r * r; } };
__device__ __noinline__ float viaPtr(const Shape *s) { return s->area(); }
__global__ void k1(const float *in, float *out) { Rect r(in[0], 2); Shape *p = &r; out[threadIdx.x] = p->area(); }
__global__ void k2(const float *in, float *out) { Rect r(in[0], 2); Circ c(in[1]); out[threadIdx.x] = viaPtr(threadIdx.x & 1 ? (Shape *)&r : &c); }
__global__ void k3(const float *in, float *out) { Circ c(in[1]); out[threadIdx.x] = c.area(); }
`);
    const u = prepareUnit(cu, 90);
    const src = fs.readFileSync(u.ii, 'utf8');
    const opts = unitOptions(u);
    const want = compileUnit(src, opts, { libdevice: lib });
    expect(vtables(want.ptx)).toEqual(['_ZTV4Circ', '_ZTV4Rect', '_ZTV5Shape']);
    expect(vtables(want.ptx)).toEqual(vtables(u.refPtx));
    const store = new MemoryPieceStore();
    compileUnit(src, opts, { libdevice: lib, pieces: store });
    const cold = compileUnit(src, opts, { libdevice: lib, pieces: store });
    expect(cold.incremental?.fallback).toBe('');
    expect(cold.functions?.compiled.length).toBe(3);
    expect(outputs(cold)).toEqual(outputs(want));
  }, 120_000);

  for (const p of programs) {
    it(`${p}: per root through the piece store, identical to a clean compile; the same vtables as cicc`, () => {
      const u = prepareUnit(path.join(KERNELS_DIR, p), 90);
      const src = fs.readFileSync(u.ii, 'utf8');
      const opts = unitOptions(u);
      const want = compileUnit(src, opts, { libdevice: lib });
      expect(want.unsupported, p).toBeUndefined();
      expect(vtables(want.ptx), `${p}: vtables`).toEqual(vtables(u.refPtx));
      const store = new MemoryPieceStore();
      compileUnit(src, opts, { libdevice: lib, pieces: store });   // the first compile of a file is whole
      const cold = compileUnit(src, opts, { libdevice: lib, pieces: store });
      expect(cold.incremental?.fallback, p).toBe('');
      expect(outputs(cold), `${p} cold`).toEqual(outputs(want));
      const warm = compileUnit(src, opts, { libdevice: lib, pieces: store });
      expect(outputs(warm), `${p} warm`).toEqual(outputs(want));
      expect(warm.functions?.compiled, p).toEqual([]);
    }, 120_000);
  }
});
