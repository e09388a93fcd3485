// generateStub() against the real cicc: each case is a .cu file compiled by the real nvcc (--keep, with a
// logging --cicc-prefix that records cicc's exact argv), and a hand-built StubInput describing the same
// kernels and variables. The argv goes through our parseCiccArgs, so this also checks that the options
// that shape the stub (--device-c, hidden visibility, include/stub names, module id) are parsed right.
import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateStub, type StubKernelExtras } from '../compiler/frontend/stub';
import type { HostType, StubInput, StubKernel, StubParam, StubVariable } from '../compiler/frontend/stub-types';
import { parseCiccArgs } from '../cicc/args';
import { findTool } from './helpers/tools';

const NVCC = findTool('nvcc') ?? 'nvcc';
const HAVE_NVCC = (() => { try { execFileSync(NVCC, ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();

// ---- type and entity builders --------------------------------------------------------------------
const b = (name: string, q: { const?: boolean; volatile?: boolean } = {}): HostType => ({ k: 'builtin', name, ...q });
const ptr = (to: HostType, q: { const?: boolean; volatile?: boolean; restrict?: boolean } = {}): HostType => ({ k: 'ptr', to, ...q });
const rec = (qualName: string, tag: 'struct' | 'class' | 'union' = 'struct', q: { const?: boolean } = {}): HostType => ({ k: 'record', tag, qualName, ...q });
const en = (qualName: string): HostType => ({ k: 'enum', qualName });
const td = (qualName: string, target: HostType, q: { const?: boolean } = {}): HostType => ({ k: 'typedef', qualName, target, ...q });
const fn = (ret: HostType, ps: HostType[], variadic = false): HostType => ({ k: 'func', ret, params: ps, variadic });

/** Parameters with their (size, align); offsets are laid out like the kernel parameter buffer. */
function params(...ps: [HostType, number, number][]): StubParam[] {
  let off = 0;
  return ps.map(([type, size, align]) => {
    off = Math.ceil(off / align) * align;
    const p = { type, size, align, offset: off };
    off += size;
    return p;
  });
}
const INT: [HostType, number, number] = [b('int'), 4, 4];
const P8 = (t: HostType): [HostType, number, number] => [t, 8, 8];

function kernel(file: string, mangled: string, name: string, line: number, ps: StubParam[],
  more: Partial<StubKernel> & StubKernelExtras = {}): StubKernel & StubKernelExtras {
  return { mangled, name, namespaces: [], isStatic: false, file, line, params: ps, ...more };
}
function variable(name: string, size: number, more: Partial<StubVariable> = {}): StubVariable {
  return { name, namespaces: [], deviceName: name, size, isConstant: false, isManaged: false, isStatic: false, isShared: false, ...more };
}

interface Case {
  name: string;
  src: string;
  flags?: string[];
  input: (id: string) => StubInput;
}

const anonNs = (id: string) => `_GLOBAL__N_${id}`;
const nestedName = (parts: string[], tail: string) => `_ZN${parts.map(p => `${p.length}${p}`).join('')}${tail}`;

const NS_SRC = `namespace a { namespace b { __global__ void k1(int *p) { *p = 1; } } __global__ void k2(float x, double y) {} }
static __global__ void s1(char c, bool b) {}
namespace { __global__ void an(long long v, unsigned u) {} }
__global__ void top(void) {}
`;
const nsInput = (id: string): StubInput => ({
  kernels: [
    kernel('x.cu', '_ZN1a1b2k1EPi', 'k1', 1, params(P8(ptr(b('int')))), { namespaces: ['a', 'b'] }),
    kernel('x.cu', '_ZN1a2k2Efd', 'k2', 1, params([b('float'), 4, 4], [b('double'), 8, 8]), { namespaces: ['a'] }),
    kernel('x.cu', '_Z2s1cb', 's1', 2, params([b('char'), 1, 1], [b('bool'), 1, 1]), { isStatic: true }),
    kernel('x.cu', nestedName([anonNs(id), 'an'], 'Exj'), 'an', 3, params([b('long long'), 8, 8], [b('unsigned int'), 4, 4]), { namespaces: ['_NV_ANON_NAMESPACE'] }),
    kernel('x.cu', '_Z3topv', 'top', 4, []),
  ],
  variables: [],
});

const VARS_SRC = `__device__ int g1;
__constant__ float c1[16];
__managed__ int m1;
static __device__ double sg;
namespace ns { __device__ int nv; __constant__ int nc = 3; static __device__ int snv[4]; }
namespace { __device__ int av; }
__device__ __managed__ float mf[8];
struct V { int a, b; };
__device__ V gv;
__global__ void use(int *p) { *p = g1 + (int)c1[0] + m1 + (int)sg + ns::nv + ns::nc + ns::snv[0] + av + (int)mf[0] + gv.a; }
`;
const varsInput = (id: string): StubInput => ({
  kernels: [kernel('x.cu', '_Z3usePi', 'use', 10, params(P8(ptr(b('int')))))],
  variables: [
    variable('g1', 4),
    variable('c1', 64, { isConstant: true }),
    variable('m1', 4, { isManaged: true }),
    variable('sg', 8, { isStatic: true }),
    variable('nv', 4, { namespaces: ['ns'], deviceName: '_ZN2ns2nvE' }),
    variable('nc', 4, { namespaces: ['ns'], deviceName: '_ZN2ns2ncE', isConstant: true }),
    variable('snv', 16, { namespaces: ['ns'], deviceName: nestedName([`_INTERNAL${id}`, 'ns', 'snv'], 'E'), isStatic: true }),
    variable('av', 4, { namespaces: ['_NV_ANON_NAMESPACE'], deviceName: nestedName([`_INTERNAL${id}`, anonNs(id), 'av'], 'E') }),
    variable('mf', 32, { isManaged: true }),
    variable('gv', 8),
  ],
});

const CASES: Case[] = [
  { name: 'no device code', src: 'int main() { return 0; }\n', input: () => ({ kernels: [], variables: [] }) },
  {
    name: 'only variables (compact callback)',
    src: '__device__ float onlyv[3];\nstatic __constant__ int sc;\nint main(){return 0;}\n',
    input: () => ({ kernels: [], variables: [variable('onlyv', 12), variable('sc', 4, { isConstant: true, isStatic: true })] }),
  },
  {
    name: 'static, restrict, struct by value, anonymous namespace, variables',
    src: `struct P { int a; float b; };
__constant__ float cscale = 2.0f;
__device__ int gcount;
static __global__ void sk(float *x) { x[0] = 2.0f; }
__global__ void saxpy(int n, float a, const float * __restrict__ x, float *y, P p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] + p.b * cscale;
  gcount = 1;
}
namespace { __global__ void anon(int *p) { *p = 1; } }
`,
    input: id => ({
      kernels: [
        kernel('x.cu', '_Z2skPf', 'sk', 4, params(P8(ptr(b('float')))), { isStatic: true }),
        kernel('x.cu', '_Z5saxpyifPKfPf1P', 'saxpy', 5, params(INT, [b('float'), 4, 4], P8(ptr(b('float', { const: true }), { restrict: true })),
          P8(ptr(b('float'))), [rec('P'), 8, 4]), { endLine: 9 }),
        kernel('x.cu', nestedName([anonNs(id), 'anon'], 'EPi'), 'anon', 10, params(P8(ptr(b('int')))), { namespaces: ['_NV_ANON_NAMESPACE'] }),
      ],
      variables: [variable('cscale', 4, { isConstant: true }), variable('gcount', 4)],
    }),
  },
  { name: 'namespaces, static and anonymous kernels', src: NS_SRC, input: nsInput },
  { name: 'device, constant, managed, static and namespaced variables', src: VARS_SRC, input: varsInput },
  { name: 'variables with --device-c (rdc)', src: VARS_SRC, flags: ['-rdc=true'], input: varsInput },
  { name: 'namespaces with --device-c (rdc)', src: NS_SRC, flags: ['-rdc=true'], input: nsInput },
  { name: 'no hidden visibility, explicit template stub linkage', src: NS_SRC,
    flags: ['--device-entity-has-hidden-visibility=false', '-static-global-template-stub=false'], input: nsInput },
  {
    name: 'parameter types and offsets',
    src: `struct S { int a; double d; };
enum E { E0, E1 };
enum class EC : short { A };
typedef float real;
typedef struct { int q; } TS;
union U { int i; float f; };
__global__ void t1(S s, E e, EC ec, real r, const int *cp, int * __restrict__ rp, bool b, char c, signed char sc, unsigned char uc, short sh, unsigned short us) {}
__global__ void t2(double d, long long ll, unsigned long long ull, long l, unsigned long ul, float f, int i, unsigned int u, U un, TS ts, const S *csp, int **pp) {}
__global__ void t3(char a, double b, char c, int d, char e, S f, char g) {}
__global__ void t4(volatile int *vp, const volatile float *cvp, int *const cpp, const real *crp, float2 f2, float4 f4, int3 i3) {}
`,
    input: () => {
      const S = rec('S'), real = td('real', b('float'));
      return {
        kernels: [
          kernel('x.cu', '_Z2t11S1E2ECfPKiPibcahst', 't1', 7, params([S, 16, 8], [en('E'), 4, 4], [en('EC'), 2, 2], [real, 4, 4],
            P8(ptr(b('int', { const: true }))), P8(ptr(b('int'), { restrict: true })), [b('bool'), 1, 1], [b('char'), 1, 1],
            [b('signed char'), 1, 1], [b('unsigned char'), 1, 1], [b('short'), 2, 2], [b('unsigned short'), 2, 2])),
          kernel('x.cu', '_Z2t2dxylmfij1U2TSPK1SPPi', 't2', 8, params([b('double'), 8, 8], [b('long long'), 8, 8], [b('unsigned long long'), 8, 8],
            [b('long'), 8, 8], [b('unsigned long'), 8, 8], [b('float'), 4, 4], INT, [b('unsigned int'), 4, 4], [rec('U', 'union'), 4, 4],
            [td('TS', rec('TS')), 4, 4], P8(ptr(rec('S', 'struct', { const: true }))), P8(ptr(ptr(b('int')))))),
          kernel('x.cu', '_Z2t3cdcic1Sc', 't3', 9, params([b('char'), 1, 1], [b('double'), 8, 8], [b('char'), 1, 1], INT, [b('char'), 1, 1], [S, 16, 8], [b('char'), 1, 1])),
          kernel('x.cu', '_Z2t4PViPVKfPiPKf6float26float44int3', 't4', 10, params(P8(ptr(b('int', { volatile: true }))),
            P8(ptr(b('float', { const: true, volatile: true }))), P8(ptr(b('int'), { const: true })), P8(ptr(td('real', b('float'), { const: true }))),
            [rec('float2'), 8, 8], [rec('float4'), 16, 16], [rec('int3'), 12, 4])),
        ],
        variables: [],
      };
    },
  },
  {
    name: 'types in namespaces and classes (typedef aliases)',
    src: `namespace ns { struct S { int a; }; enum E { X }; typedef int I; class C { public: int c; }; typedef struct { float f; } AT;
  namespace in { struct T { double d; }; } }
typedef ns::S NS;
__global__ void k(ns::S s, ns::E e, ns::I i, ns::C c, const ns::S *ps, ns::in::T t, NS n, ns::AT at, const int ci, int *arr, short2 s2, const char *const *ppc) {}
namespace ns { __global__ void k2(S s, C *pc, in::T *pt) {} }
class GC { public: int c; };
struct Outer { struct Inner { int x; }; };
__global__ void k3(GC c, Outer::Inner in) {}
`,
    input: () => {
      const S = rec('ns::S'), C = rec('ns::C', 'class'), T = rec('ns::in::T');
      return {
        kernels: [
          kernel('x.cu', '_Z1kN2ns1SENS_1EEiNS_1CEPKS0_NS_2in1TES0_NS_2ATEiPi6short2PKPKc', 'k', 4, params([S, 4, 4], [en('ns::E'), 4, 4],
            [td('ns::I', b('int')), 4, 4], [C, 4, 4], P8(ptr(rec('ns::S', 'struct', { const: true }))), [T, 8, 8], [td('NS', S), 4, 4],
            [td('ns::AT', rec('ns::AT')), 4, 4], [b('int', { const: true }), 4, 4], P8(ptr(b('int'))), [rec('short2'), 4, 4],
            P8(ptr(ptr(b('char', { const: true }), { const: true }))))),
          kernel('x.cu', '_ZN2ns2k2ENS_1SEPNS_1CEPNS_2in1TE', 'k2', 5, params([S, 4, 4], P8(ptr(C)), P8(ptr(T))), { namespaces: ['ns'] }),
          kernel('x.cu', '_Z2k32GCN5Outer5InnerE', 'k3', 8, params([rec('GC', 'class'), 4, 4], [rec('Outer::Inner'), 4, 4])),
        ],
        variables: [],
        classScopes: ['Outer'],
      } as StubInput;
    },
  },
  {
    name: 'scope order of kernels and variables',
    src: `__global__ void g1(){}
namespace A { __global__ void a1(){} namespace B { __global__ void b1(){} } __global__ void a2(){} namespace C { __global__ void c1(){} } }
__global__ void g2(){}
namespace D { __global__ void d1(){} }
namespace A { __global__ void a3(){} namespace B { __global__ void b2(){} } }
namespace { __global__ void n1(){} }
__global__ void g3(){}
__device__ int v1;
namespace A { __device__ int va; namespace B { __device__ int vb; } __device__ int va2; }
__device__ int v2;
namespace D { __device__ int vd; }
`,
    input: id => ({
      kernels: [
        kernel('x.cu', '_Z2g1v', 'g1', 1, []),
        kernel('x.cu', '_ZN1A2a1Ev', 'a1', 2, [], { namespaces: ['A'] }),
        kernel('x.cu', '_ZN1A1B2b1Ev', 'b1', 2, [], { namespaces: ['A', 'B'] }),
        kernel('x.cu', '_ZN1A2a2Ev', 'a2', 2, [], { namespaces: ['A'] }),
        kernel('x.cu', '_ZN1A1C2c1Ev', 'c1', 2, [], { namespaces: ['A', 'C'] }),
        kernel('x.cu', '_Z2g2v', 'g2', 3, []),
        kernel('x.cu', '_ZN1D2d1Ev', 'd1', 4, [], { namespaces: ['D'] }),
        kernel('x.cu', '_ZN1A2a3Ev', 'a3', 5, [], { namespaces: ['A'] }),
        kernel('x.cu', '_ZN1A1B2b2Ev', 'b2', 5, [], { namespaces: ['A', 'B'] }),
        kernel('x.cu', nestedName([anonNs(id), 'n1'], 'Ev'), 'n1', 6, [], { namespaces: ['_NV_ANON_NAMESPACE'] }),
        kernel('x.cu', '_Z2g3v', 'g3', 7, []),
      ],
      variables: [
        variable('v1', 4),
        variable('va', 4, { namespaces: ['A'], deviceName: '_ZN1A2vaE' }),
        variable('vb', 4, { namespaces: ['A', 'B'], deviceName: '_ZN1A1B2vbE' }),
        variable('va2', 4, { namespaces: ['A'], deviceName: '_ZN1A3va2E' }),
        variable('v2', 4),
        variable('vd', 4, { namespaces: ['D'], deviceName: '_ZN1D2vdE' }),
      ],
    }),
  },
  {
    name: 'multi-line kernels (line directives, closing brace)',
    src: `__global__ void
multi(int a,
      float *b,
      double c)
{
  b[0] = a;
  b[1] = c;
}
__global__ void d5(float *x) {
  x[0] = 1;
  x[1] = 1;
  x[2] = 1;
  x[3] = 1;
}
__global__ void d6(float *x) {
  x[0] = 1;
  x[1] = 1;
  x[2] = 1;
  x[3] = 1;
  x[4] = 1;
}
static __global__ void two(int * __restrict__ p, const float * __restrict__ q) {}
`,
    input: () => ({
      kernels: [
        kernel('x.cu', '_Z5multiiPfd', 'multi', 2, params(INT, P8(ptr(b('float'))), [b('double'), 8, 8]), { braceLine: 5, endLine: 8 }),
        kernel('x.cu', '_Z2d5Pf', 'd5', 9, params(P8(ptr(b('float')))), { endLine: 14 }),
        kernel('x.cu', '_Z2d6Pf', 'd6', 15, params(P8(ptr(b('float')))), { endLine: 21 }),
        kernel('x.cu', '_Z3twoPiPKf', 'two', 22, params(P8(ptr(b('int'), { restrict: true })), P8(ptr(b('float', { const: true }), { restrict: true }))), { isStatic: true }),
      ],
      variables: [],
    }),
  },
  {
    name: 'function pointer parameters',
    src: `__global__ void fp(float (*g)(float), unsigned char (*h)(unsigned char, float), void (*v)(void), int *p) {}
`,
    input: () => ({
      kernels: [kernel('x.cu', '_Z2fpPFffEPFhhfEPFvvEPi', 'fp', 1, params(
        P8(ptr(fn(b('float'), [b('float')]))), P8(ptr(fn(b('unsigned char'), [b('unsigned char'), b('float')]))),
        P8(ptr(fn(b('void'), []))), P8(ptr(b('int')))))],
      variables: [],
    }),
  },
  {
    name: 'temporaries used by device code (firstTemp)',
    src: `__device__ int gcount;
__global__ void k1(int *p) { atomicAdd(&gcount, 1); }
__global__ void k2(int *__restrict__ p) {}
`,
    input: () => ({
      kernels: [kernel('x.cu', '_Z2k1Pi', 'k1', 2, params(P8(ptr(b('int'))))), kernel('x.cu', '_Z2k2Pi', 'k2', 3, params(P8(ptr(b('int'), { restrict: true }))))],
      variables: [variable('gcount', 4)],
      firstTemp: 2,
    } as StubInput),
  },
];

describe.skipIf(!HAVE_NVCC)('generateStub matches the real cicc', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ptxd-stub-'));
    const log = join(dir, 'log.sh');
    writeFileSync(log, '#!/bin/sh\nprintf "%s\\0" "$@" > "$PTXD_TEST_ARGV"\nexec "$@"\n');
    chmodSync(log, 0o755);
  });

  CASES.forEach((c, n) => {
    it(c.name, () => {
      const cwd = join(dir, `case${n}`);
      execFileSync('mkdir', ['-p', join(cwd, 'kd')]);
      writeFileSync(join(cwd, 'x.cu'), c.src);
      const argvFile = join(cwd, 'argv');
      execFileSync(NVCC, ['-arch=sm_90', '-c', 'x.cu', '-o', 'kd/x.o', '--keep', '--keep-dir', 'kd', '-w', ...(c.flags ?? []),
        `--cicc-prefix=${join(dir, 'log.sh')}`], { cwd, env: { ...process.env, PTXD_TEST_ARGV: argvFile, NVCC_APPEND_FLAGS: '', NVCC_PREPEND_FLAGS: '' }, stdio: 'pipe' });
      const argv = readFileSync(argvFile, 'utf8').split('\0').filter(s => s !== '');
      expect(argv[0]).toMatch(/\/cicc$/);
      const args = parseCiccArgs(argv.slice(1));
      const opts = args.options;
      opts.moduleId = readFileSync(resolve(cwd, args.moduleIdFile!), 'utf8').trim();
      const real = readFileSync(resolve(cwd, args.stubFile!), 'utf8');
      expect(generateStub(c.input(opts.moduleId), opts)).toBe(real);
    });
  });
});
