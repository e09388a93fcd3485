// -rdc=true against the real cicc: the PTX names of internal kernels and variables (__nv_static_<id>_ prefix,
// the names the host stub registers), device functions of external linkage emitted whether used or not, and a
// device link of two units where one calls a function the other defines but never uses.
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KERNELS_DIR, PTXD_CICC, mkTempDir, requireTool, run, skipReason } from './helpers/tools';
import { ptxFuncs, ptxSymbols } from './helpers/ptx';

const skip = skipReason('nvcc', 'ptxas');

function build(nvcc: string, dir: string, cu: string, ptxd: boolean, extra: string[] = []): { ptx: string; stub: string; obj: string } {
  const keep = path.join(dir, ptxd ? 'ptxd' : 'cicc');
  fs.mkdirSync(keep, { recursive: true });
  const obj = path.join(keep, path.basename(cu, '.cu') + '.o');
  const r = run(nvcc, ['-rdc=true', '-arch=sm_90', '-c', cu, '-o', obj, '--keep', '--keep-dir', keep, ...extra, ...(ptxd ? [`--cicc-prefix=${PTXD_CICC}`] : [])],
    { env: { ...process.env, PTXD_FALLBACK: 'never', PTXD_DAEMON: '0', PTXD_CACHE: '0' } });
  expect(r.status, `nvcc ${ptxd ? 'with ptxd' : ''} on ${cu}:\n${r.stderr}`).toBe(0);
  const base = path.join(keep, path.basename(cu, '.cu'));
  return { ptx: fs.readFileSync(`${base}.ptx`, 'utf8'), stub: fs.readFileSync(`${base}.cudafe1.stub.c`, 'utf8'), obj };
}

describe.skipIf(skip !== undefined)(`-rdc=true against the real cicc ${skip ?? ''}`, () => {
  it('internal kernels and variables carry the module id prefix; unused external device functions are emitted', () => {
    const nvcc = requireTool('nvcc');
    const dir = mkTempDir('rdc');
    const cu = path.join(KERNELS_DIR, 'rdc_statics.cu');
    const ours = build(nvcc, dir, cu, true), ref = build(nvcc, dir, cu, false);
    expect(ptxSymbols(ours.ptx)).toEqual(ptxSymbols(ref.ptx));
    expect(ptxSymbols(ours.ptx).some(s => s.startsWith('__nv_static_'))).toBe(true);
    const funcs = ptxFuncs(ours.ptx);
    for (const f of ptxFuncs(ref.ptx)) expect(funcs, `.func ${f}`).toContain(f);
    expect(funcs).toContain('_Z10unusedHerei');
    expect(funcs).toContain('unusedC');
    const norm = (stub: string) => stub.replace(/__T\d+/g, '__T').replace(/^# 1 ".*\.stub\.c"$/gm, '# 1 "stub"');
    expect(norm(ours.stub)).toBe(norm(ref.stub));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a device link finds a function another unit defines and does not use itself', () => {
    const nvcc = requireTool('nvcc');
    const dir = mkTempDir('rdc-link');
    const lib = path.join(dir, 'lib.cu'), app = path.join(dir, 'app.cu');
    fs.writeFileSync(lib, '__device__ int triple(int x) { return 3 * x; }\n__global__ void libKernel(int *p) { p[0] = 1; }\n');
    fs.writeFileSync(app, 'extern __device__ int triple(int x);\n__global__ void k(int *p) { p[threadIdx.x] = triple(threadIdx.x); }\n'
      + 'int main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); return 0; }\n');
    const a = build(nvcc, dir, lib, true), b = build(nvcc, dir, app, true);
    const l = run(nvcc, ['-rdc=true', '-arch=sm_90', a.obj, b.obj, '-o', path.join(dir, 'app')]);
    expect(l.status, `device link:\n${l.stderr}`).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an out-of-class device member definition falls back, named, under -rdc (cicc emits it unused too)', () => {
    const nvcc = requireTool('nvcc');
    const dir = mkTempDir('rdc-member');
    const cu = path.join(dir, 'm.cu');
    fs.writeFileSync(cu, 'struct S { __device__ int f(int x); };\n__device__ int S::f(int x) { return x + 13; }\n__global__ void k(int *p) { p[0] = 1; }\n');
    const r = run(nvcc, ['-rdc=true', '-arch=sm_90', '-c', cu, '-o', path.join(dir, 'm.o'), `--cicc-prefix=${PTXD_CICC}`],
      { env: { ...process.env, PTXD_FALLBACK: 'never', PTXD_DAEMON: '0', PTXD_CACHE: '0' } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('-rdc: a device member function defined out of its class');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
