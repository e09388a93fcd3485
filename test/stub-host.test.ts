// Host stubs that gcc compiles, end to end: each unit is built twice with `nvcc -c --keep`, once stock and once
// with ptxd as its cicc (PTXD_FALLBACK=never, so the stub is ours), and the two `.cudafe1.stub.c` files are
// compared byte for byte. The host compile of the stub is part of `nvcc -c`, so a stub gcc rejects (an
// uninitialised `int *const __T0;`) fails the build here. Every test program's stub is also host-compiled by
// test/integration.test.ts (nvcc -c of each); this file covers the qualifier combinations one by one.
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PTXD_CICC, mkTempDir, requireTool, run, skipReason } from './helpers/tools';

const SKIP = skipReason('nvcc');

/** The stub nvcc keeps for `src`, built stock or through ptxd; fails the test when nvcc -c fails. */
function keptStub(name: string, src: string, viaPtxd: boolean): string {
  const dir = mkTempDir(`stub-host-${viaPtxd ? 'ptxd' : 'stock'}`);
  writeFileSync(join(dir, `${name}.cu`), src);
  // relative names, so that the line directives in both stubs name the same files
  const args = ['-arch=sm_90', '-c', '--keep', '-o', `${name}.o`, `${name}.cu`, ...(viaPtxd ? [`--cicc-prefix=${PTXD_CICC}`] : [])];
  const r = run(requireTool('nvcc'), args, { cwd: dir, env: { ...process.env, PTXD_FALLBACK: 'never' } });
  expect(r.status, `nvcc -c ${viaPtxd ? 'through ptxd' : 'stock'}:\n${r.stdout}${r.stderr}`).toBe(0);
  return readFileSync(join(dir, `${name}.cudafe1.stub.c`), 'utf8');
}

/** Stub lines that may differ, given by a test: the definition lines cicc spells from the declared types. */
function withoutLines(stub: string, drop: RegExp | undefined): string {
  return drop ? stub.split('\n').filter(l => !drop.test(l)).join('\n') : stub;
}

const QUALIFIERS = `struct S { int a; float b; };
__global__ void k1(int* const __restrict__ a, int* const __restrict__ b) { *a = *b; }
__global__ void k2(const int* __restrict__ a, int* __restrict__ b) { *b = *a; }
__global__ void k3(volatile int* __restrict__ a, int* volatile __restrict__ b) { *b = *a; }
__global__ void k4(const int a, const S s, int* const p) { *p = a + s.a; }
__global__ void k5(int (* __restrict__ p)[8], const float (* const __restrict__ q)[4]) { p[0][0] = q[0][0]; }
__global__ void k6(S* const __restrict__ s, const S* const __restrict__ t, int* const volatile __restrict__ r) { s->a = t->a; *r = 1; }
__global__ void k7(int * __restrict__ const c, const volatile int* const volatile __restrict__ d, char* __restrict__ const volatile e) { *c = *d + *e; }
__global__ void k8(int** __restrict__ a, const int* const* __restrict__ b, int* __restrict__* c) { **a = **b; }
__global__ void k9(const float4* const __restrict__ a, float4* __restrict__ b, const double2 c) { *b = *a; }
namespace ns { struct T { double d; }; enum E { A, B };
__global__ void n1(const E e, const T t, const T* __restrict__ u, E* const __restrict__ v) { *v = e; } }
`;

const TEMPLATES = `template <typename T> __global__ void m(T* const __restrict__ a, const T* __restrict__ b, const T c) { *a = *b + c; }
__global__ void z1(int* const __restrict__ a) { *a = 1; }
void launch(float* a, double* d) { m<<<1, 1>>>(a, a, 1.0f); m<<<1, 1>>>(d, d, 1.0); }
__global__ void z2(int* __restrict__ a) { *a = 1; }
template __global__ void m<int>(int* const __restrict__, const int* __restrict__, const int);
__global__ void z3(int* __restrict__ a) { *a = 1; }
`;

// Array parameters: cicc's host definition spells the declared array (`int __cuda_0[4]`), ours the
// adjusted pointer (`int *__cuda_0`); both are the same function to gcc. The stubs must still compile and
// agree everywhere else.
const ARRAYS = `__global__ void a1(int a[4], const int b[], int * __restrict__ const c) { c[0] = a[0] + b[0]; }
__global__ void a2(float* const __restrict__ x) { *x = 0; }
`;

// Kernel templates launched with deduced arguments from member functions of a class template: only the
// specialisations whose members host code calls (Vec<int>::fill never is), in the order EDG instantiates them.
const MEMBERS = `template <typename T> __global__ void fillK(const unsigned n, const T v, T* d) { if (threadIdx.x < n) d[threadIdx.x] = v; }
__global__ void z1(int* a) { *a = 1; }
template <typename T> class Vec {
public:
  Vec() : n_(0), d_(nullptr) {}
  Vec(unsigned n, T v) { resize(n, v); }
  void resize(unsigned n) { n_ = n; }
  void resize(unsigned n, T v) { resize(n); fill(v); }
  void fill(T v) { fillK<<<1, 32>>>(n_, v, d_); }
private:
  unsigned n_;
  T* d_;
};
struct Holder { Vec<int> a; Vec<double> b; void go() { b.resize(8, 2.5); a.resize(4); } };
void run(Vec<float>& f, Holder& h) { f.fill(1.5f); h.go(); Vec<short> s(3, 7); }
`;

// Class template specialisations among kernel parameters: cudafe++ spells their non-type arguments as casts with
// C's literal suffixes and class-type arguments from the global scope (`Box<    ::Tag<(int)4> , (int)1>`).
const TEMPLATE_ARGS = `
template <int N> struct Tag { int v; };
template <unsigned N, long L, char C> struct U { int v; };
template <short A, unsigned char B, long long C, unsigned long D, unsigned long long E, bool F, signed char G, unsigned short H> struct V { int v; };
template <typename T, int N> struct Box { T v[N]; };
template <int N> struct Outer { Tag<N> t; };
template <bool B> struct W { int v; };
__global__ void k1(Tag<5> a, Tag<-3> b, int *o) { o[0] = a.v + b.v; }
__global__ void k2(U<5u, -7L, 'a'> a, V<-2, 200, -5, 6, 7, true, -1, 9> b, int *o) { o[0] = a.v + b.v; }
__global__ void k3(Box<float, 2> a, Box<Tag<4>, 1> b, Outer<2> c, W<false> d, int *o) { o[0] = (int)a.v[1] + b.v[0].v + c.t.v + d.v; }
`;

// Enumerations as non-type template arguments (of a kernel template and of a class template among kernel parameters)
// and a namespace's class template specialisation: before, gcc rejected the stub (`En<1, 1>`, `typedef ns::R<3> _ZN2ns4R<3>E;`).
const ENUM_ARGS = `
enum E { e0, e1 };
enum class G { g0, g1 };
namespace ns { enum class F : short { f0, f1 }; enum H { h0, h1 }; template <int N> struct R { int v; }; }
template <E e, ns::F f> struct En { int v; };
template <int N> struct T2 { int v; };
__global__ void k3(En<e1, ns::F::f1> a, int *o) { o[0] = a.v; }
template <E e> __global__ void kt(int *o) { o[0] = (int)e; }
template <ns::F f, E e> __global__ void kt2(En<e, f> a, int *o) { o[0] = (int)f + a.v; }
template <G g> __global__ void ka(int *o) { o[0] = (int)g; }
template <ns::H h> __global__ void kb(int *o) { o[0] = (int)h; }
__global__ void kc(ns::R<3> r, T2<1> t, int *o) { o[0] = r.v + t.v; }
void host(int *o) { kt<e1><<<1, 1>>>(o); En<e0, ns::F::f1> x{}; kt2<<<1, 1>>>(x, o); ka<G::g1><<<1, 1>>>(o); kb<ns::h1><<<1, 1>>>(o); }
`;

const CASES: { name: string; src: string; drop?: RegExp }[] = [
  { name: 'template-arguments', src: TEMPLATE_ARGS },
  { name: 'enum-template-arguments', src: ENUM_ARGS },
  { name: 'class-template-members', src: MEMBERS },
  { name: 'qualifiers', src: QUALIFIERS },
  { name: 'templates', src: TEMPLATES },
  { name: 'arrays', src: ARRAYS, drop: /^void a1\(/ },
];

describe.skipIf(SKIP !== undefined)(`host stubs of every qualifier combination compile and match cicc's ${SKIP ?? ''}`, () => {
  for (const c of CASES) {
    it(`${c.name}: nvcc -c through ptxd succeeds and the stub equals cicc's`, () => {
      const stock = keptStub(c.name, c.src, false);
      const ours = keptStub(c.name, c.src, true);
      expect(withoutLines(ours, c.drop)).toBe(withoutLines(stock, c.drop));
    });
  }
});
