// C++ in device code (issue 8): every test/kernels/cxx_*.cu, cxx2_*.cu and cuda_*.cu (CUDA headers) is captured with the real nvcc, compiled by
// compileUnit (no fallback: an unsupported unit fails the test) for two archs, checked by ptxas, and the
// symbols our PTX defines (.entry/.func/.global/.const/.shared) must equal the real cicc's for the same .ii.
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { compileUnit } from '../compiler/compile';
import { formatDiagnostic } from '../compiler/diagnostics';
import { parseCiccArgs } from '../cicc/args';
import { KERNELS_DIR, ciccArgv, libdeviceBytes, mkTempDir, prepareUnits, requireTool, run, skipReason } from './helpers/tools';
import { ptxFuncs, ptxSymbols } from './helpers/ptx';

/** Features not implemented yet: the unit must come back unsupported, with a reason naming the feature. */
const UNSUPPORTED: [string, string, RegExp][] = [
  ['virtual_base_class', `struct A { __device__ virtual int f() { return 1; } }; struct B : virtual A { int x; };
__device__ __noinline__ int call(A *a) { return a->f(); } __global__ void k(int *p) { B b; p[0] = call(&b); }`, /virtual base class/],
  // a host template called with deduced arguments compiles (test/kernels/cxx2_hostinst_overloads.cu); one whose address is taken does not yet
  ['host_template_address', `template <typename T> __global__ void k(T *p) { p[0] = 1; }\ntemplate <typename T> void run(T *p) { k<<<1, 1>>>(p); }\nint main() { float *f = 0; void (*fp)(float *) = run; fp(f); return 0; }`, /deduced template arguments/],
  ['class_operator_new_overloads', `struct M { int v; __device__ static void *operator new(unsigned long n) { return nullptr; }
  __device__ static void *operator new(unsigned long n, int k) { return nullptr; } };
__global__ void k(int *p) { M *m = new M; p[0] = m != nullptr; }`, /operator new of class M/],
  // extended lambdas compile (test/kernels/cxx2_xlambda_*.cu); one capturing a class template specialisation with a value argument does not yet
  ['xlambda_value_template_capture', `// nvcc-flags: --extended-lambda\ntemplate <int N> struct Arr { float v[N]; };\ntemplate <typename F> __global__ void k(F f, float *p) { p[0] = f(p[0]); }\nint main() { Arr<2> t{{2, 3}}; k<<<1, 1>>>([t] __device__ (float x) { return x * t.v[1]; }, (float *)0); return 0; }`, /extended lambda capturing a class template specialisation with value arguments/],
  // a compiler builtin we do not know is no error of the user's (cicc knows the generic __nv_atomic_load)
  ['unknown_compiler_builtin', `__global__ void k(int *p) { int r; __nv_atomic_load(p, &r, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE); p[1] = r; }`, /compiler builtin __nv_atomic_load/],
  ['forwarding_ctor_template', `struct S { int v; template <typename T> __device__ S(T &&t) : v(1) {} __device__ S(const S &o) : v(o.v) {} }; __global__ void k(int *p) { S a(2); S b(a); p[0] = b.v; }`, /constructor template/],
];

const ARCHS = [75, 90] as const;
const files = fs.readdirSync(KERNELS_DIR).filter(f => /^(cxx2?|cuda)_.*\.cu$/.test(f)).sort();

const skip = skipReason('nvcc', 'ptxas');

describe.skipIf(skip !== undefined)(`C++ device code: test/kernels/cxx_*.cu, cxx2_*.cu ${skip ?? ''}`, () => {
  it('there are C++ test kernels', () => { expect(files.length).toBeGreaterThanOrEqual(6); });
  it('features still missing make the unit unsupported, naming the feature', () => {
    // a fixed directory, so that prepareUnits' cache (keyed by path and content) is reused between runs
    const dir = path.join(os.tmpdir(), `ptxd-cxx-unsupported-${process.getuid?.() ?? 'u'}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, src, reason] of UNSUPPORTED) {
      const cu = path.join(dir, `${name}.cu`);
      fs.writeFileSync(cu, src + '\n');
      const u = prepareUnits(cu, [90]).get(90)!;
      const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), parseCiccArgs(ciccArgv(u, dir)).options);
      expect(r.ok, name).toBe(false);
      expect(r.unsupported ?? `(diagnostics: ${r.diagnostics.map(d => d.message).join('; ')})`, name).toMatch(reason);
    }
  });
  for (const f of files) {
    it(f, () => {
      const units = prepareUnits(path.join(KERNELS_DIR, f), ARCHS);
      const ptxas = requireTool('ptxas');
      const out = mkTempDir('cxx');
      for (const a of ARCHS) {
        const u = units.get(a)!;
        const args = parseCiccArgs(ciccArgv(u, out));
        args.options.moduleId = u.moduleId;   // the client reads it from --module_id_file_name
        const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), args.options, { libdevice: libdeviceBytes() });
        const diags = r.diagnostics.map(d => formatDiagnostic(d, false)).join('');
        expect(r.unsupported, `${f} sm_${a}: unsupported`).toBeUndefined();
        expect(r.ok, `${f} sm_${a}:\n${diags}`).toBe(true);
        const ptxFile = path.join(out, `${path.basename(f, '.cu')}.${a}.ptx`);
        fs.writeFileSync(ptxFile, r.ptx);
        const p = run(ptxas, [`-arch=sm_${a}`, ptxFile, '-o', path.join(out, 'out.cubin')]);
        expect(p.status, `ptxas sm_${a} on ${f}:\n${p.stderr}`).toBe(0);
        expect(ptxSymbols(r.ptx), `symbols of ${f} sm_${a}`).toEqual(ptxSymbols(u.refPtx));
        // functions the real cicc kept out of line (the tests mark them __noinline__) have the same names in ours
        // the host stub registers the same kernels under the same names (EDG's temporary numbers aside)
        const norm = (stub: string) => stub.replace(/__T\d+/g, '__T').replace(/^# 1 ".*\.stub\.c"$/gm, '# 1 "stub"');
        expect(norm(r.stub), `${f} sm_${a}: stub`).toBe(norm(u.refStub));
        const ours = ptxFuncs(r.ptx);
        for (const fn of ptxFuncs(u.refPtx)) expect(ours, `${f} sm_${a}: .func ${fn}`).toContain(fn);
      }
      fs.rmSync(out, { recursive: true, force: true });
    });
  }
});
