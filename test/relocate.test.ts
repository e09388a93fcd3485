// Path-independent unit keys (service/relocate.ts): one unit kept at two checkouts of different absolute
// paths and lengths, compiled by real nvcc with -lineinfo (--keep: the real cicc's .ii, module id, PTX and
// stub at each path). The real cicc is the oracle for the rewrite: its PTX and stub at the first path,
// moved to the second, must be byte-identical to its own output at the second (and back). ptxd's own
// outputs at the two paths must move the same way, and the two keys must be equal. Device code with
// __FILE__ as a pointer (an assert's file name, a printf argument) moves too, with and without -lineinfo
// (its `.loc` columns after the literal move with the path's length); __FILE__ whose length or bytes the
// compiler may fold (sizeof) keeps the path in the key.

import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PTXD_CICC, mkTempDir, requireTool, run, skipReason } from './helpers/tools';
import { baseDirFor, keyColumns, placeFreeKey, relocatePtx, relocateReal, relocateStub, type Place } from '../service/relocate';
import { defaultOptions } from '../compiler/options';
import { fallbackIdentity } from '../cicc/fallback';
import { UnitService } from '../service/unit';
import type { RealOutputs, UnitRequest } from '../protocol/unit';
import type { CompileResult } from '../compiler/index';

const skip = skipReason('nvcc', 'ptxas');

const RENAMES = `
namespace { __device__ int counter; __global__ void bump(int *p) { atomicAdd(&counter, 1); p[0] = counter; } }
static __device__ float table[4];
__device__ int shared_total;
__global__ void scale(float *x) { int i = threadIdx.x; if (i < 4) x[i] = table[i] * shared_total; }
void launch(float *x, int *p) { scale<<<1, 4>>>(x); bump<<<1, 1>>>(p); }
`;
// The file name in an assert and in printf (also from a macro), with code after the literal on the same
// line: ptxd's -lineinfo columns of that code move with the path's length (the real cicc's are coarser).
const ASSERTS = `
#include <cassert>
#include <cstdio>
__device__ __noinline__ int g(int x) { return x * 2; }
#define CHECK(x) do { if (!(x)) { printf("%s:%d: %s\\n", __FILE__, __LINE__, #x); p[5] = g(p[6]); } } while (0)
__global__ void check(int *p, int n) { assert(p[threadIdx.x] < n); printf("%s:%d\\n", __FILE__, __LINE__); p[1] = n * 3; }
__global__ void twice(float *x) { if (x[0] > 1.0f) printf("%s %s\\n", __FILE__, __FILE__), x[1] = 2.0f * x[2]; }
__global__ void k3(int *p, int n)
{
  printf("%s\\n", __FILE__); if (p[0] > n) { p[1] = g(n); printf("big\\n"); }
  CHECK(p[2] == n);
  assert(p[3]); p[4] = g(p[7]);
}
void launch(int *p, float *x) { check<<<1, 1>>>(p, 3); twice<<<1, 1>>>(x); k3<<<1, 1>>>(p, 2); }
`;
// sizeof(__FILE__) folds the path's length into the code: the key keeps the path.
const FOLDED = `
__global__ void size(int *p) { p[0] = sizeof(__FILE__); }
void launch(int *p) { size<<<1, 1>>>(p); }
`;

interface Kept { dir: string; base: string; ii: Buffer; moduleId: string; ptx: string; stub: string; file: string; real: RealOutputs; iiPath: string }

/** The unit at `<base>/proj/<name>`, built by real nvcc (-lineinfo unless told) with its intermediate files kept. */
function keep(base: string, name: string, text: string, lineInfo = true): Kept {
  const dir = path.join(base, 'proj');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const r = run(requireTool('nvcc'), [...(lineInfo ? ['-lineinfo'] : []), '-arch=sm_75', '-c', file, '-o', path.join(dir, 'u.o'), '--keep', '--keep-dir', dir], { cwd: dir });
  expect(r.status, r.stderr).toBe(0);
  const stem = name.replace(/\.cu$/, '');
  const read = (f: string) => fs.readFileSync(path.join(dir, f));
  const str = (f: string) => read(f).toString('latin1');
  // The real cicc's outputs by role, as a fallback caches them (cicc/fallback.ts collectOutputs).
  const real = { files: { out: str(`${stem}.ptx`), stub: str(`${stem}.cudafe1.stub.c`), genc: str(`${stem}.cudafe1.c`), gpu: str(`${stem}.cudafe1.gpu`),
    modid: str(`${stem}.module_id`) }, stderr: '' };
  return {
    dir, base, file, ii: read(`${stem}.cpp1.ii`), moduleId: str(`${stem}.module_id`).trim(), ptx: real.files.out, stub: real.files.stub, real,
    iiPath: path.join(dir, `${stem}.cpp1.ii`),
  };
}

/** The cicc call nvcc made for the kept unit (ptxd's outputs to p.ptx and p.stub.c). */
function ciccArgv(k: Kept, stem: string, lineInfo: boolean): string[] {
  return ['--c++17', '--static-host-stub', '--device-hidden-visibility', '--gnu_version=120200', '--display_error_number',
    '--orig_src_file_name', k.file, '--orig_src_path_name', k.file, '--allow_managed', '-arch', 'compute_75', '-m64', '--no-version-ident',
    '-ftz=0', '-prec_div=1', '-prec_sqrt=1', '-fmad=1', '--include_file_name', `${stem}.fatbin.c`, ...(lineInfo ? ['-generate-line-info'] : []), '-tused',
    '--module_id_file_name', `${stem}.module_id`, '--gen_c_file_name', `${stem}.cudafe1.c`, '--stub_file_name', 'p.stub.c',
    '--gen_device_file_name', `${stem}.cudafe1.gpu`, `${stem}.cpp1.ii`, '-o', 'p.ptx'];
}

/** ptxd's PTX and stub for the kept unit, from the same cicc call nvcc made (cache off, no fallback). */
function ptxd(k: Kept, stem: string, lineInfo = true): { ptx: string; stub: string } {
  const r = run(PTXD_CICC, ciccArgv(k, stem, lineInfo), { cwd: k.dir, env: { ...process.env, PTXD_FALLBACK: 'never', PTXD_DAEMON: '0', PTXD_CACHE: '0' } });
  expect(r.status, r.stderr).toBe(0);
  return { ptx: fs.readFileSync(path.join(k.dir, 'p.ptx'), 'latin1'), stub: fs.readFileSync(path.join(k.dir, 'p.stub.c'), 'latin1') };
}

function optionsOf(k: Kept, lineInfo: boolean) {
  return { ...defaultOptions(), moduleId: k.moduleId, origSrcFileName: k.file, lineInfo, ...(lineInfo ? { compDir: k.dir } : {}) };
}

function keyOf(k: Kept, lineInfo = true) {
  const o = optionsOf(k, lineInfo);
  return placeFreeKey(k.ii, o, baseDirFor(k.base, o));
}

describe.skipIf(skip !== undefined)(`a unit at two checkout paths ${skip ?? ''}`, () => {
  const root = mkTempDir('relocate');
  const a = keep(path.join(root, 'alice'), 'renames.cu', RENAMES);
  const b = keep(path.join(root, 'home', 'bob', 'work'), 'renames.cu', RENAMES);
  const place = (k: Kept): Place => ({ baseDir: k.base, moduleId: k.moduleId });

  it('the two compiles differ only by renames the real cicc shows, and the keys are equal', () => {
    expect(a.moduleId).not.toBe(b.moduleId);
    expect(a.ptx).toContain(a.moduleId);            // anonymous namespace names in PTX
    expect(a.ptx).toContain(`.file\t1 "${a.file}"`);  // -lineinfo names the source by absolute path
    expect(a.stub).toContain(a.moduleId);
    expect(a.ptx).not.toBe(b.ptx);
    const ka = keyOf(a), kb = keyOf(b);
    expect(ka.baseDir).toBe(a.base);
    expect(ka.source.equals(kb.source)).toBe(true);
    expect(ka.options).toEqual(kb.options);
  });

  it('the real cicc\'s PTX and stub moved to the other checkout are byte-identical to its compile there', () => {
    expect(relocatePtx(a.ptx, place(a), place(b))).toBe(b.ptx);
    expect(relocateStub(a.stub, place(a), place(b))).toBe(b.stub);
    expect(relocatePtx(b.ptx, place(b), place(a))).toBe(a.ptx);
    expect(relocateStub(b.stub, place(b), place(a))).toBe(a.stub);
  });

  it('ptxd\'s PTX and stub move the same way', () => {
    const pa = ptxd(a, 'renames'), pb = ptxd(b, 'renames');
    expect(pa.ptx).toContain(a.moduleId);
    expect(relocatePtx(pa.ptx, place(a), place(b))).toBe(pb.ptx);
    expect(relocateStub(pa.stub, place(a), place(b))).toBe(pb.stub);
  });

  const kept = new Map<boolean, [Kept, Kept]>();
  const asserts = (lineInfo: boolean): [Kept, Kept] => {
    const sub = lineInfo ? 'li' : 'plain';
    if (!kept.has(lineInfo)) kept.set(lineInfo, [keep(path.join(root, 'alice', sub), 'asserts.cu', ASSERTS, lineInfo),
      keep(path.join(root, 'home', 'bob', 'work', sub), 'asserts.cu', ASSERTS, lineInfo)]);
    return kept.get(lineInfo)!;
  };
  for (const lineInfo of [false, true]) {
    const how = lineInfo ? 'with -lineinfo' : 'without -lineinfo';
    it(`an assert and printf of __FILE__ ${how}: equal keys, the real cicc's outputs move byte for byte, and ptxd's`, () => {
      const [x, y] = asserts(lineInfo);
      // The path really is in the PTX, and with -lineinfo the columns after it differ (else this proves nothing).
      const bytes = (s: string) => [...Buffer.from(s, 'latin1')].join(', ');
      expect(x.ptx).toContain(bytes(x.file));
      expect(x.ptx).toMatch(/\$str(\$\d+)?\[/);
      const kx = keyOf(x, lineInfo), ky = keyOf(y, lineInfo);
      expect(kx.baseDir).toBe(x.base);
      expect(kx.strings).toBe(true);
      expect(kx.source.equals(ky.source)).toBe(true);
      expect(kx.options).toEqual(ky.options);
      const cols = () => keyColumns(kx.source);
      expect(relocatePtx(x.ptx, place(x), place(y), cols)).toBe(y.ptx);
      expect(relocatePtx(y.ptx, place(y), place(x), cols)).toBe(x.ptx);
      expect(relocateStub(x.stub, place(x), place(y))).toBe(y.stub);
      // Without the column table (a key that did not mark the literals) nothing with the path moves.
      expect(relocatePtx(x.ptx, place(x), place(y))).toBeUndefined();
      const px = ptxd(x, 'asserts', lineInfo), py = ptxd(y, 'asserts', lineInfo);
      expect(px.ptx).toContain(bytes(x.file));
      const locs = (p: string) => p.split('\n').filter(l => /^\s*\.loc\s/.test(l));
      if (lineInfo) expect(locs(px.ptx)).not.toEqual(locs(py.ptx));
      expect(relocatePtx(px.ptx, place(x), place(y), cols)).toBe(py.ptx);
      expect(relocatePtx(py.ptx, place(y), place(x), cols)).toBe(px.ptx);
      expect(relocateStub(px.stub, place(x), place(y))).toBe(py.stub);
    });
  }

  it('a cached fallback (the real cicc\'s outputs) moves to the other checkout byte for byte', () => {
    const [x, y] = asserts(true);
    const cols = () => keyColumns(keyOf(x).source);
    for (const f of Object.keys(x.real.files)) expect(x.real.files[f], f).not.toBe(y.real.files[f]);
    expect(relocateReal(x.real, place(x), place(y), cols)).toEqual(y.real);
    expect(relocateReal(y.real, place(y), place(x), cols)).toEqual(x.real);
    // The call's part of the key: different with the path, equal without it.
    const cicc = requireTool('nvcc').replace(/bin\/nvcc$/, 'nvvm/bin/cicc');
    const ix = fallbackIdentity(cicc, ciccArgv(x, 'asserts', true), x.dir, x.base), iy = fallbackIdentity(cicc, ciccArgv(y, 'asserts', true), y.dir, y.base);
    expect(ix.argvKey).not.toBe(iy.argvKey);
    expect(ix.freeKey).toBeDefined();
    expect(ix.freeKey).toBe(iy.freeKey);
    // Through the service: a unit ptxd gives up on (a stand-in compiler says so) at the first checkout, the real
    // cicc's result saved with its place; at the second checkout the same lookup answers it, moved.
    const service = new UnitService({ cacheDir: mkTempDir('relocate-cache'), sizeLimit: 1 << 28, env: {}, warnOnce: false,
      compileUnit: (): CompileResult => ({ ok: false, ptx: '', stub: '', diagnostics: [], unsupported: 'stand-in: not compiled', times: {} as CompileResult['times'] }) });
    const req = (k: Kept, id: typeof ix): UnitRequest => ({ input: k.iiPath, options: optionsOf(k, true), env: {}, baseDir: k.base,
      fallback: { argvKey: id.argvKey!, freeKey: id.freeKey! } });
    const first = service.handle(req(x, ix));
    expect(first.status).toBe('unsupported');
    expect(first.fallbackPlace).toEqual(place(x));
    service.saveReal(first.fallbackKey!, x.real, 100, first.fallbackPlace);
    const second = service.handle(req(y, iy));
    expect(second.status).toBe('real');
    expect(second.real).toEqual(y.real);
    service.close();
  });

  it('sizeof(__FILE__) in device code keeps the path in the key; output naming the old place is never moved', () => {
    const x = keep(path.join(root, 'alice'), 'folded.cu', FOLDED, false);
    const y = keep(path.join(root, 'home', 'bob', 'work'), 'folded.cu', FOLDED, false);
    expect(x.ptx).not.toBe(y.ptx);   // the literal's length is in the code
    const kx = keyOf(x, false), ky = keyOf(y, false);
    expect(kx.baseDir).toBe('');
    expect(kx.source.equals(ky.source) && JSON.stringify(kx.options) === JSON.stringify(ky.options)).toBe(false);
  });
});
