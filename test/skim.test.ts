// Tests for compiler/frontend/skim.ts: the top-level declaration index. Small handwritten units, then real
// .cpp1.ii files produced by nvcc (empty unit, all-common-headers unit) with facts only a working skimmer gets.
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lex, tokText } from '../compiler/frontend/lexer';
import { skim } from '../compiler/frontend/skim';
import { DeclFlag } from '../compiler/frontend/index-types';
import type { DeclEntry, Index } from '../compiler/frontend/index-types';
import type { Tokens } from '../compiler/frontend/tokens';
import { findTool } from './helpers/tools';

function sk(src: string): { t: Tokens; ix: Index; d: (name: string, k?: number) => DeclEntry } {
  const t = lex(src);
  const ix = skim(t);
  const d = (name: string, k = 0): DeclEntry => {
    const l = ix.byName.get(name);
    if (!l || l.length <= k) throw new Error(`no decl ${name}#${k}; have ${[...ix.byName.keys()].join(',')}`);
    return ix.decls[l[k]];
  };
  return { t, ix, d };
}
const summary = (ix: Index): string[] => ix.decls.map((e) => `${e.kind} ${e.scope ? e.scope + '::' : ''}${e.qualifier ? e.qualifier + '::' : ''}${e.name}`);
const has = (e: DeclEntry, f: number): boolean => (e.flags & f) === f;

describe('skim: basic declarations', () => {
  it('records functions, variables, typedefs, records', () => {
    const { ix, d, t } = sk(`
      int a, *b, c[3] = {1,2,3};
      static float f(int x, float y);
      extern int g(void) { return 1; }
      typedef unsigned int uint;
      typedef int (*fp_t)(int);
      void (*handler)(int);
      struct S { int m; void meth() {} };
      struct T;
      struct U *mk(void);
      typedef struct { int q; } Anon;
      struct V { int z; } v1, v2;
      using Alias = S;
      std::map<int, float> m1;
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual([
      'variable a', 'variable b', 'variable c', 'function f', 'function g', 'typedef uint', 'typedef fp_t',
      'variable handler', 'record S', 'record T', 'function mk', 'record ', 'typedef Anon', 'record V',
      'variable v1', 'variable v2', 'using Alias', 'variable m1',
    ]);
    expect(has(d('f'), DeclFlag.Static)).toBe(true);
    expect(d('f').bodyStart).toBe(-1);
    const g = d('g');
    expect(has(g, DeclFlag.HasBody | DeclFlag.Extern)).toBe(true);
    expect(tokText(t, g.bodyStart)).toBe('{');
    expect(tokText(t, g.bodyEnd)).toBe('}');
    expect(tokText(t, g.first)).toBe('extern');
    expect(g.last).toBe(g.bodyEnd);
    const s = d('S');
    expect(tokText(t, s.bodyStart)).toBe('{');
    expect(tokText(t, s.last)).toBe(';');
    expect(ix.byName.has('m')).toBe(false);     // class bodies are not entered
    expect(ix.byName.has('meth')).toBe(false);
    expect(d('T').bodyStart).toBe(-1);
    expect(has(d('uint'), DeclFlag.Typedef)).toBe(true);
    expect(d('v1').first).toBe(d('V').first);
  });

  it('handles declarators in parentheses, brace initializers and lambdas', () => {
    const { ix, d } = sk(`
      void (*signal(int sig, void (*handler)(int)))(int);
      int (*table)[4];
      int braced{3};
      auto lam = [](int v) { return v + 1; };
      __attribute__((device)) int after = 1;
      decltype(auto) deduce(int a) noexcept(true) -> int { return a; }
      char buf[sizeof(int) * 2], *ptr;
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual(['function signal', 'variable table', 'variable braced', 'variable lam', 'variable after',
      'function deduce', 'variable buf', 'variable ptr']);
    expect(d('signal').bodyStart).toBe(-1);
    expect(d('lam').bodyStart).toBe(-1);
    expect(has(d('after'), DeclFlag.Device)).toBe(true);
    expect(has(d('deduce'), DeclFlag.HasBody)).toBe(true);
  });

  it('reads a type name directly before a parenthesised declarator as the type (typedef U(*fp)(U *))', () => {
    const { ix } = sk(`
      typedef unsigned U;
      typedef U(*fp)(U *v);
      U (&ref)[4] = arr;
      ns::U(*qual)(int);
      U make(U *v);
      int v(*q);
      struct S { S(int); S(S *p); };
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual(['typedef U', 'typedef fp', 'variable ref', 'variable qual', 'function make', 'function v', 'record S']);
  });

  it('handles operators, destructors, conversion functions and qualified names', () => {
    const { ix, d } = sk(`
      inline S operator+(S a, S b) { return a; }
      bool operator()(int);
      void *operator new[](unsigned long n);
      void operator delete(void *p) noexcept;
      A::A() : x(1), y{2} { }
      A::~A() { }
      A::operator bool() const { return true; }
      template<typename T> void A<T>::f(int) { }
      template<typename T> template<typename U> typename B<T>::R ns::B<T>::g(U) const { }
      int A::counter = 0;
      bool operator<(X, X);
      long double operator""_km(long double);
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual([
      'function operator+', 'function operator()', 'function operator new[]', 'function operator delete',
      'function A::A', 'function A::~A', 'function A::operator bool', 'function A::f', 'function ns::B::g',
      'variable A::counter', 'function operator<', 'function operator""_km',
    ]);
    expect(has(d('A'), DeclFlag.HasBody)).toBe(true);
    expect(has(d('f'), DeclFlag.Template | DeclFlag.HasBody)).toBe(true);
    expect(has(d('operator+'), DeclFlag.Inline | DeclFlag.HasBody)).toBe(true);
  });

  it('handles templates, explicit instantiations and specializations', () => {
    const { ix, d } = sk(`
      template<typename T, int N = (3 > 2)> struct Arr { T v[N]; };
      template<class T> struct Arr<T*, 1> : Base<T, (1>0)> { };
      template<> struct Arr<int, 2>;
      template<typename T> T maxOf(T a, T b) { return a > b ? a : b; }
      template float maxOf<float>(float, float);
      extern template class Arr<double, 4>;
      template<typename T> using Vec = Arr<T, 4>;
      template<typename T> constexpr bool is_big = sizeof(T) > 4;
      template<class T> Arr(T) -> Arr<T, 1>;
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual(['record Arr', 'record Arr', 'record Arr', 'function maxOf', 'function maxOf',
      'record Arr', 'using Vec', 'variable is_big', 'function Arr']);
    expect(has(d('Arr', 0), DeclFlag.Template)).toBe(true);
    expect(d('Arr', 1).bodyStart).toBeGreaterThan(0);
    expect(has(d('maxOf', 0), DeclFlag.Template | DeclFlag.HasBody)).toBe(true);
    expect(has(d('maxOf', 1), DeclFlag.ExplicitInst)).toBe(true);
    expect(has(d('maxOf', 1), DeclFlag.HasBody)).toBe(false);
    expect(has(d('Arr', 3), DeclFlag.ExplicitInst)).toBe(true);
    expect(has(d('is_big'), DeclFlag.Constexpr | DeclFlag.Template)).toBe(true);
  });

  it('records enums and their enumerators', () => {
    const { ix, d } = sk(`
      enum Color { Red, Green = 2, Blue = (1 << 3) };
      enum class Mode : int { On, Off };
      enum { Anon1, Anon2 } anonVar;
      enum Fwd : unsigned char;
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual(['enum Color', 'enumerator Color::Red', 'enumerator Color::Green', 'enumerator Color::Blue',
      'enum Mode', 'enum ', 'enumerator Anon1', 'enumerator Anon2', 'variable anonVar', 'enum Fwd']);
    expect(ix.byName.has('On')).toBe(false);
    expect(d('Green').bodyStart).toBe(d('Color').bodyStart);
  });

  it('records using-declarations, directives, aliases, static_assert, asm', () => {
    const { ix, d } = sk(`
      using ::printf;
      using std::vector;
      using namespace std::chrono;
      namespace fs = std::filesystem;
      static_assert(sizeof(int) == 4, "int");
      asm(".globl x");
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual(['using printf', 'using std::vector', 'using-directive std::chrono::', 'namespace-alias fs',
      'static_assert ', 'asm ']);
    expect(d('vector').qualifier).toBe('std');
  });
});

describe('skim: scopes', () => {
  it('descends into namespaces and linkage blocks', () => {
    const { ix, d } = sk(`
      namespace a { int x; namespace b { void f(); } }
      namespace a::c { int y; }
      inline namespace v1 { int z; }
      namespace std __attribute__ ((__visibility__ ("default"))) { template<class T> class vector { int q; }; }
      namespace { int hidden; namespace inner { int deep; } }
      extern "C" { int cfun(int); extern "C++" { int cppfun(); } }
      extern "C" int single(void);
      int top;
    `);
    expect(ix.errors).toEqual([]);
    expect(summary(ix)).toEqual(['variable a::x', 'function a::b::f', 'variable a::c::y', 'variable v1::z', 'record std::vector',
      'variable (anonymous)::hidden', 'variable (anonymous)::inner::deep', 'function cfun', 'function cppfun',
      'function single', 'variable top']);
    expect(has(d('hidden'), DeclFlag.InAnonNamespace)).toBe(true);
    expect(has(d('deep'), DeclFlag.InAnonNamespace)).toBe(true);
    expect(has(d('x'), DeclFlag.InAnonNamespace)).toBe(false);
    expect(has(d('cfun'), DeclFlag.ExternC)).toBe(true);
    expect(has(d('cppfun'), DeclFlag.ExternC)).toBe(false);
    expect(has(d('single'), DeclFlag.ExternC | DeclFlag.Extern)).toBe(true);
    expect(has(d('top'), DeclFlag.ExternC)).toBe(false);
    expect(has(d('vector'), DeclFlag.Template)).toBe(true);
    const ns = ix.namespaces!;
    expect([...ns.keys()]).toEqual(['a', 'a::b', 'a::c', 'v1', 'std', '(anonymous)', '(anonymous)::inner']);
    expect(ns.get('v1')!.inline).toBe(true);
    expect(ns.get('a')!.inline).toBe(false);
    expect(ns.get('a')!.opens.length).toBe(1);
    expect(sk('namespace x::inline y { int q; }').ix.namespaces!.get('x::y')!.inline).toBe(true);
  });
});

describe('skim: CUDA attributes', () => {
  it('reads flags from __attribute__ spellings as they appear in .ii files', () => {
    const { ix, d } = sk(`
      __attribute__((shared)) int s1;
      __attribute__((managed)) int m1;
      __attribute__((constant)) float c1 = 2.0f;
      __attribute__((device)) int g1;
      __attribute__((device)) __inline__ __attribute__((always_inline)) int f1(int x){return x;}
      __attribute__((device)) __noinline__ int f2(int x){return x;}
      __attribute__((global)) void __attribute__((launch_bounds(256,2))) k2(const __attribute__((grid_constant)) int a){ }
      static __inline__ __attribute__((host)) __attribute__((device)) int hd(int);
      extern __attribute__((device)) __attribute__((device_builtin)) int __iAtomicAdd(int *address, int val);
      uint3 __attribute__((device_builtin)) extern const threadIdx;
      extern __attribute__((host)) __attribute__((device)) __attribute__((cudart_builtin)) int printf(const char*, ...);
      __attribute__((__noreturn__, device)) void dies(void);
      __attribute__((noinline, host)) void ni(void);
      struct __attribute__((device_builtin)) __attribute__((aligned(8))) int2 { int x, y; };
      __location__(device) int old;
    `);
    expect(ix.errors).toEqual([]);
    expect(has(d('s1'), DeclFlag.Shared)).toBe(true);
    expect(has(d('m1'), DeclFlag.Managed)).toBe(true);
    expect(has(d('c1'), DeclFlag.Constant)).toBe(true);
    expect(has(d('g1'), DeclFlag.Device)).toBe(true);
    expect(has(d('f1'), DeclFlag.Device | DeclFlag.Forceinline | DeclFlag.Inline | DeclFlag.HasBody)).toBe(true);
    expect(has(d('f2'), DeclFlag.Device | DeclFlag.Noinline)).toBe(true);
    expect(d('k2').kind).toBe('function');
    expect(has(d('k2'), DeclFlag.Global | DeclFlag.HasBody)).toBe(true);
    expect(has(d('hd'), DeclFlag.Host | DeclFlag.Device | DeclFlag.Static | DeclFlag.Inline)).toBe(true);
    expect(has(d('__iAtomicAdd'), DeclFlag.Device | DeclFlag.DeviceBuiltin | DeclFlag.Extern)).toBe(true);
    expect(d('threadIdx').kind).toBe('variable');
    expect(has(d('threadIdx'), DeclFlag.DeviceBuiltin | DeclFlag.Extern)).toBe(true);
    expect(has(d('printf'), DeclFlag.Host | DeclFlag.Device | DeclFlag.CudartBuiltin)).toBe(true);
    expect(has(d('dies'), DeclFlag.Device)).toBe(true);
    expect(has(d('ni'), DeclFlag.Noinline | DeclFlag.Host)).toBe(true);
    expect(d('ni').flags & DeclFlag.Device).toBe(0);
    expect(d('int2').kind).toBe('record');
    expect(has(d('int2'), DeclFlag.DeviceBuiltin)).toBe(true);
    expect(has(d('old'), DeclFlag.Device)).toBe(true);
  });
});

describe('skim: robustness', () => {
  it('reports unbalanced brackets without throwing', () => {
    const r1 = sk('namespace a { int x; void f() { if (1) { }');
    expect(r1.ix.errors!.length).toBeGreaterThan(0);
    expect(r1.d('x').scope).toBe('a');
    const r2 = sk('int a }; int b; ) ] int c');
    expect(r2.ix.errors!.length).toBeGreaterThan(0);
    expect(r2.ix.byName.has('b')).toBe(true);
    const r3 = sk('namespace q { int x }');
    expect(r3.ix.errors!.length).toBe(1);
    expect(r3.d('x').scope).toBe('q');
  });

  it('never throws on token soup', () => {
    let seed = 99;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed; };
    const words = ['namespace', 'extern', '"C"', '{', '}', '(', ')', '[', ']', '<', '>', '>>', ';', ',', '=', ':', '::', 'int',
      'x', 'f', 'template', 'struct', 'enum', 'class', 'operator', '+', 'using', 'typedef', '__attribute__', 'static_assert',
      'asm', '~', '*', '&', 'inline', 'static', 'new', '[[', ']]', '"s"', '1', 'decltype', 'noexcept', 'const'];
    for (let k = 0; k < 500; k++) {
      const n = rnd() % 60;
      const parts: string[] = [];
      for (let j = 0; j < n; j++) parts.push(words[rnd() % words.length]);
      const t = lex(parts.join(' '));
      const ix = skim(t);
      for (const e of ix.decls) {
        expect(e.first).toBeGreaterThanOrEqual(0);
        expect(e.last).toBeLessThan(Math.max(1, t.count));
      }
      expect(ix.errors!.every((e) => !/internal/.test(e.message))).toBe(true);
    }
  });
});

// ---- real toolkit output
const NVCC = findTool('nvcc') ?? 'nvcc';
let hasNvcc = false;
try { execFileSync(NVCC, ['--version'], { stdio: 'ignore' }); hasNvcc = true; } catch { hasNvcc = false; }

const ALL_CU = `#include <vector>
#include <iostream>
#include <chrono>
#include <random>
#include <algorithm>
#include <map>
#include <string>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cassert>
__global__ void k(int *p) { p[threadIdx.x] = 1; }
`;

function nvccIi(name: string, src: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptxd-skim-'));
  try {
    writeFileSync(join(dir, `${name}.cu`), src);
    execFileSync(NVCC, ['-arch=sm_90', '-c', `${name}.cu`, '--keep', '--keep-dir', dir, '-o', join(dir, `${name}.o`)],
      { cwd: dir, stdio: 'pipe' });
    return readFileSync(join(dir, `${name}.cpp1.ii`), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!hasNvcc)('skim: real prelude from nvcc', () => {
  const check = (ii: string): { t: Tokens; ix: Index; all: (name: string) => DeclEntry[] } => {
    const t = lex(ii);
    expect(t.errors).toEqual([]);
    const ix = skim(t);
    expect(ix.errors).toEqual([]);
    const all = (name: string): DeclEntry[] => (ix.byName.get(name) ?? []).map((k) => ix.decls[k]);
    // facts about the CUDA prelude
    const aa = all('atomicAdd').filter((e) => e.kind === 'function');
    expect(aa.length).toBeGreaterThan(3);
    expect(aa.some((e) => has(e, DeclFlag.Device | DeclFlag.HasBody) && e.scope === '')).toBe(true);
    for (const e of aa) expect(tokText(t, e.bodyStart >= 0 ? e.bodyStart : e.last)).toMatch(/^[{;]$/);
    const ia = all('__iAtomicAdd');
    expect(ia.length).toBeGreaterThan(0);
    expect(ia.every((e) => e.kind === 'function' && has(e, DeclFlag.DeviceBuiltin | DeclFlag.Device))).toBe(true);
    for (const b of ['threadIdx', 'blockIdx', 'blockDim', 'gridDim', 'warpSize']) {
      const v = all(b);
      expect(v.length, b).toBe(1);
      expect(v[0].kind).toBe('variable');
      expect(has(v[0], DeclFlag.DeviceBuiltin), b).toBe(true);
    }
    const pf = all('printf');
    expect(pf.some((e) => e.kind === 'function' && has(e, DeclFlag.Device | DeclFlag.ExternC) && e.scope === '')).toBe(true);
    expect(pf.some((e) => e.kind === 'function' && (e.flags & DeclFlag.Device) === 0)).toBe(true); // glibc's
    expect(all('uint3').some((e) => e.kind === 'record' && has(e, DeclFlag.DeviceBuiltin) && e.bodyStart > 0)).toBe(true);
    expect(all('uint3').some((e) => e.kind === 'typedef')).toBe(true);
    expect(all('cudaSuccess').some((e) => e.kind === 'enumerator' && e.qualifier === 'cudaError')).toBe(true);
    expect(all('sqrtf').some((e) => e.kind === 'function' && has(e, DeclFlag.Device))).toBe(true);
    expect(all('__nv_sqrtf').length).toBe(0); // libdevice names are not declared in the .ii
    // the std namespace exists and contains the usual suspects
    expect(all('size_t').some((e) => e.kind === 'typedef' && e.scope === '')).toBe(true);
    expect(all('size_t').some((e) => e.kind === 'typedef' && e.scope === 'std')).toBe(true);
    // every entry's token range is sane
    for (const e of ix.decls) {
      expect(e.first <= e.last && e.last < t.count).toBe(true);
      if (e.bodyStart >= 0) expect(tokText(t, e.bodyStart) + tokText(t, e.bodyEnd)).toBe('{}');
    }
    return { t, ix, all };
  };

  it('empty unit', () => {
    const ii = nvccIi('empty', '\n');
    const { all } = check(ii);
    expect(all('k').length).toBe(0);
  });

  it('unit including common std headers', () => {
    const ii = nvccIi('all', ALL_CU);
    const { t, ix, all } = check(ii);
    const k = all('k');
    expect(k.length).toBe(1);
    expect(k[0].kind).toBe('function');
    expect(k[0].scope).toBe('');
    expect(has(k[0], DeclFlag.Global | DeclFlag.HasBody)).toBe(true);
    expect(t.files[t.file[k[0].first]]).toMatch(/all\.cu$/);
    expect(t.line[k[0].first]).toBe(13);
    expect(ix.decls[ix.decls.length - 1]).toBe(k[0]);
    const vec = all('vector').filter((e) => e.kind === 'record' && e.scope === 'std');
    expect(vec.some((e) => e.bodyStart > 0 && has(e, DeclFlag.Template))).toBe(true);
    expect(all('map').some((e) => e.kind === 'record' && e.scope === 'std' && e.bodyStart > 0)).toBe(true);
    expect(all('basic_string').some((e) => e.kind === 'record' && e.scope === 'std::__cxx11' && e.bodyStart > 0)).toBe(true);
    expect(all('string').some((e) => e.kind === 'typedef' && e.scope === 'std')).toBe(true);
    expect(all('cout').some((e) => e.kind === 'variable' && e.scope === 'std' && has(e, DeclFlag.Extern))).toBe(true);
    expect(all('sort').some((e) => e.kind === 'function' && e.scope === 'std' && has(e, DeclFlag.Template | DeclFlag.HasBody))).toBe(true);
    expect(all('printf').some((e) => e.kind === 'using' && e.scope === 'std')).toBe(true);
    expect(all('steady_clock').some((e) => e.kind === 'record' && e.scope === 'std::chrono::_V2' && e.bodyStart > 0)).toBe(true);
    expect(ix.namespaces!.get('std::chrono::_V2')?.inline).toBe(true);
    expect(ix.namespaces!.get('std::__cxx11')?.inline).toBe(true);
    expect(ix.namespaces!.get('std')?.inline).toBe(false);
    expect(ix.namespaces!.get('std')!.opens.length).toBeGreaterThan(10);
    expect(all('mt19937').some((e) => e.kind === 'typedef' && e.scope === 'std')).toBe(true);
    expect(all('__assert_fail').some((e) => e.kind === 'function' && has(e, DeclFlag.ExternC))).toBe(true);
    // out-of-line member definitions carry their class as qualifier
    expect(ix.decls.some((e) => e.kind === 'function' && e.scope === 'std' && e.qualifier === 'vector' && has(e, DeclFlag.HasBody))).toBe(true);
  });
});
