// The coverage corpus runner's judgement (bench/corpus/classify.ts): the symbols it reads from PTX agree with
// the symbol table readelf reads from the cubin ptxas made of the same PTX, and the messages real nvcc,
// cicc and ptxas print are sorted into the right outcome.
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasTool, mkTempDir, run, skipReason } from './helpers/tools';
import { classify, withoutRunId, ptxSymbols, reasonGroup, stratifiedSample, summarise, type NvccRun } from '../bench/corpus/classify';
import type { CorpusUnit } from '../bench/corpus/manifest';

const UNIT = `
__device__ int counter;
__constant__ float table[4] = {1, 2, 3, 4};
static __device__ __noinline__ float helper(float x) { return x * table[1] + counter; }
namespace ns { template <typename T> __global__ void scale(T *p) { p[threadIdx.x] = helper(p[threadIdx.x]); } }
template __global__ void ns::scale<float>(float *);
extern "C" __global__ void plain(int *p) { atomicAdd(&counter, p[0]); }
`;

const ok = (symbols: string[] | null = []): NvccRun => ({ status: 0, stderr: '', symbols, ms: 1 });
const failed = (stderr: string): NvccRun => ({ status: 1, stderr, symbols: null, ms: 1 });

describe.skipIf(!hasTool('nvcc') || !hasTool('ptxas'))(`corpus runner on real tool output${skipReason('nvcc', 'ptxas') ? ` (skipped: ${skipReason('nvcc', 'ptxas')})` : ''}`, () => {
  it('reads the symbols readelf finds in the cubin of the same PTX', () => {
    const dir = mkTempDir('corpus-classify');
    fs.writeFileSync(path.join(dir, 'u.cu'), UNIT);
    const ptx = run('nvcc', ['-ptx', '-arch=sm_90', '-rdc=true', 'u.cu', '-o', 'u.ptx'], { cwd: dir });
    expect(ptx.stderr).toBe('');
    const asm = run('ptxas', ['-arch=sm_90', '-c', 'u.ptx', '-o', 'u.cubin'], { cwd: dir });
    expect(asm.status, asm.stderr).toBe(0);
    // readelf (binutils) reads the cubin's ELF symbol table: the defined symbols that are not sections are
    // the kernels, functions and variables the module defines.
    const elf = run('readelf', ['-sW', 'u.cubin'], { cwd: dir });
    expect(elf.status, elf.stderr).toBe(0);
    const fromElf = new Set<string>();
    for (const line of elf.stdout.split('\n')) {
      const cols = line.trim().split(/\s+/);
      if (!/^\d+:$/.test(cols[0] ?? '') || line.includes(' SECTION ') || line.includes(' UND ')) continue;
      if (/^\d+$/.test(cols[cols.length - 2]!)) fromElf.add(cols[cols.length - 1]!);
    }
    const names = ptxSymbols(fs.readFileSync(path.join(dir, 'u.ptx'), 'utf8')).map(s => s.split(' ')[1]!);
    expect(names.length).toBe(5);
    expect(new Set(names)).toEqual(fromElf);
  });

  it('tells a ptxas rejection and a front-end error apart in real nvcc output', () => {
    const dir = mkTempDir('corpus-classify-err');
    fs.writeFileSync(path.join(dir, 'asm.cu'), '__global__ void k(int *p) { asm volatile("bogus.op %0;" :: "r"(p[0])); }\n');
    fs.writeFileSync(path.join(dir, 'fe.cu'), '__global__ void k(int *p) { p[0] = undeclared_name; }\n');
    const a = run('nvcc', ['-c', '-arch=sm_90', 'asm.cu', '-o', 'asm.o'], { cwd: dir });
    const f = run('nvcc', ['-c', '-arch=sm_90', 'fe.cu', '-o', 'fe.o'], { cwd: dir });
    expect(a.status).not.toBe(0);
    expect(f.status).not.toBe(0);
    expect(classify(ok(), failed(a.stderr)).outcome).toBe('ptxas-rejects');
    const fe = classify(ok(), failed(f.stderr));
    expect(fe.outcome).toBe('false-error');
    expect(fe.reason).toContain('undeclared_name');
    expect(classify(failed(f.stderr), ok()).outcome).toBe('stock-fails');
  });
});

describe('corpus runner bookkeeping', () => {
  it('sorts ptxd declining a unit, a stub error and differing symbols', () => {
    const unsup = classify(ok(), failed("k.cu: error: ptxd cannot compile this unit: unsupported statement 'co_await'\n"));
    expect(unsup).toEqual({ outcome: 'unsupported', reason: "unsupported statement 'co_await'" });
    expect(classify(ok(), failed('/tmp/x/k.cudafe1.stub.c:12:3: error: expected expression\n')).outcome).toBe('stub-fails');
    expect(classify(ok(['entry a', 'entry b']), ok(['entry a'])).outcome).toBe('symbols-differ');
    expect(classify(ok(['entry a']), ok(['entry a'])).outcome).toBe('compiled');
    // a variable the stub registers counts; an internal function one compiler inlined and generated strings do not
    expect(classify(ok(['entry a', 'var counter']), ok(['entry a'])).outcome).toBe('symbols-differ');
    expect(classify(ok(['entry a', 'var __unnamed_1', 'var $str$1']), ok(['entry a', 'func _Z6helperf', 'var $str'])).outcome).toBe('compiled');
    expect(classify(ok(['entry a', 'var __unnamed_counter']), ok(['entry a'])).outcome).toBe('symbols-differ');
    expect(classify(ok(), { status: null, stderr: '', symbols: null, ms: 1 }).outcome).toBe('timeout');
    expect(reasonGroup("unsupported type 'Foo<3>' at 12")).toBe("unsupported type '…' at N");
    expect(reasonGroup('kernel template gpu_fill launched with deduced template arguments')).toBe('kernel template X launched with deduced template arguments');
    expect(reasonGroup('overloaded host template transform launching a kernel template')).toBe('overloaded host template X launching a kernel template');
    expect(reasonGroup('out-of-line definition of Foo::bar we cannot read')).toBe('out-of-line definition of X we cannot read');
  });

  it('ignores the run-dependent end of an anonymous namespace name (two real nvcc runs of one unit)', () => {
    // no external function to name the module after: cudafe++ ends the module id with a number of the run
    const dir = mkTempDir('corpus-anon');
    fs.writeFileSync(path.join(dir, 'a.cu'), 'namespace { template <typename T> __global__ void k(T *p) { p[0] = 1; } }\n'
      + 'template <typename T> static void go(T *p) { k<<<1, 1>>>(p); }\ntemplate void go<float>(float *);\n');
    const syms = [1, 2].map(i => {
      const r = run('nvcc', ['-ptx', '-arch=sm_90', 'a.cu', '-o', `a${i}.ptx`], { cwd: dir });
      expect(r.status, r.stderr).toBe(0);
      return ptxSymbols(fs.readFileSync(path.join(dir, `a${i}.ptx`), 'utf8'));
    });
    const [one, two] = syms as [string[], string[]];
    expect(one.some(s => s.includes('_GLOBAL__N__'))).toBe(true);
    expect(one).not.toEqual(two);
    expect(one.map(withoutRunId)).toEqual(two.map(withoutRunId));
    expect(classify(ok(one), ok(two)).outcome).toBe('compiled');
    // the rest of the name still counts: another kernel in the namespace differs
    expect(classify(ok(one), ok(two.map(s => s.replace('1kIfE', '1kIiE')))).outcome).toBe('symbols-differ');
    expect(withoutRunId('entry _ZN70_GLOBAL__N__51554810_32_modulatedDeformConvCudaHelper_cu_bf4463a5_712317copyPermuteKernelIfEEvPT_'))
      .toBe('entry _ZN65_GLOBAL__N__51554810_32_modulatedDeformConvCudaHelper_cu_bf4463a517copyPermuteKernelIfEEvPT_');
  });

  it('draws the same stratified sample for a seed, every tier represented', () => {
    const units: CorpusUnit[] = Array.from({ length: 300 }, (_, i) => ({
      repo: 'o/r', path: `u${i}.cu`, flags: [], tier: i < 200 ? 'C-like' : i < 290 ? 'C++' : 'library-heavy',
    }));
    const a = stratifiedSample(units, 30, 7), b = stratifiedSample(units, 30, 7), c = stratifiedSample(units, 30, 8);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a.filter(u => u.tier === 'C-like').length).toBe(20);
    expect(a.filter(u => u.tier === 'C++').length).toBe(9);
    expect(a.filter(u => u.tier === 'library-heavy').length).toBe(1);
    const s = summarise([
      { id: 'a', tier: 'C-like', outcome: 'compiled', reason: null, stockMs: 1, ptxdMs: 1 },
      { id: 'b', tier: 'C-like', outcome: 'unsupported', reason: "x 'y'", stockMs: 1, ptxdMs: 1 },
      { id: 'c', tier: 'C++', outcome: 'unsupported', reason: "x 'z'", stockMs: 1, ptxdMs: 1 },
      { id: 'd', tier: 'C++', outcome: 'stock-fails', reason: 'e', stockMs: 1, ptxdMs: 1 },
    ]);
    expect(s.byTier['C-like']!.compiledPct).toBe(50);
    expect(s.byTier['C++']!.counted).toBe(1);
    expect(s.reasons).toEqual([{ outcome: 'unsupported', reason: "x '…'", units: 2, tiers: { 'C-like': 1, 'C++': 1 }, example: 'b' }]);
  });
});
