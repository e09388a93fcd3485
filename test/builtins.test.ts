// Tests for compiler/frontend/builtins.ts: every device builtin of the real CUDA headers is either lowered or
// listed as unsupported; each family lowers to the expected IR / inline asm; and, when the .ll printer and the
// PTX backend exist, the result is accepted by llvm-as (LLVM 14) and ptxas.
import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Builder, T, funcTy, newFunc, newModule, cInt, cFP, cNull } from '../compiler/middle/ir';
import type { Func, Inst, Module, Type, Value } from '../compiler/middle/ir';
import { defaultOptions } from '../compiler/options';
import { lowerBuiltinCall, lowerBuiltinVar, lowerPrintf, UNSUPPORTED_BUILTINS, dummyValue } from '../compiler/frontend/builtins';
import type { BuiltinCtx } from '../compiler/frontend/builtins';
import { findTool, libdeviceBytes } from './helpers/tools';

const ROOT = join(__dirname, '..');
const NVCC = findTool('nvcc') ?? 'nvcc';
const PTXAS = findTool('ptxas');
const LLVM_AS = findTool('llvm-as');

function kernel(name = 'k', params: Type[] = [T.ptr]): { m: Module; f: Func; ctx: BuiltinCtx } {
  const m = newModule();
  const f = newFunc(name, funcTy(T.void, params) as Type & { k: 'func' });
  f.isKernel = true;
  m.funcs.push(f);
  const b = new Builder(f);
  b.setBlock(b.newBlock('entry'));
  return { m, f, ctx: { b, m, opts: { ...defaultOptions(), arch: 90 } } };
}
function finish(ctx: BuiltinCtx): void { ctx.b.ret(); }
function insts(f: Func): Inst[] { return f.blocks.flatMap(bl => bl.insts); }
function asmTexts(f: Func): string[] {
  return insts(f).filter(i => i.op === 'call' && i.ops[0]!.kind === 'asm').map(i => (i.ops[0] as { text: string }).text);
}
function calls(f: Func): string[] {
  return insts(f).filter(i => i.op === 'call' && i.ops[0]!.kind === 'func').map(i => (i.ops[0] as Func).name);
}

// ---------------------------------------------------------------- optional oracles (printer, backend)

type Printer = (m: Module) => string;
async function loadPrinter(): Promise<Printer | null> {
  if (!existsSync(join(ROOT, 'compiler/middle/llprint.ts'))) return null;
  const mod = (await import('../compiler/middle/llprint' as string)) as Record<string, unknown>;
  return typeof mod.printModule === 'function' ? (mod.printModule as Printer) : null;
}
type PtxEmitter = (m: Module, opts: ReturnType<typeof defaultOptions>) => string;
async function loadBackend(): Promise<PtxEmitter | null> {
  if (!existsSync(join(ROOT, 'compiler/backend/ptx.ts'))) return null;
  const mod = (await import('../compiler/backend/ptx' as string)) as Record<string, unknown>;
  for (const n of ['emitPtxModule', 'emitModule', 'emitPTX', 'emitPtx', 'moduleToPtx', 'compileModule']) {
    if (typeof mod[n] === 'function') {
      const fn = mod[n] as (...a: unknown[]) => unknown;
      return (m, o) => { const r = fn(m, o); return typeof r === 'string' ? r : (r as { ptx: string }).ptx; };
    }
  }
  return null;
}

async function checkWithOracles(m: Module, label: string): Promise<void> {
  const print = await loadPrinter();
  const dir = mkdtempSync(join(tmpdir(), 'ptxd-builtins-'));
  try {
    if (!print) {
      console.warn(`[builtins:${label}] compiler/middle/llprint.ts printModule not available yet: llvm-as check skipped`);
    } else if (LLVM_AS) {
      const ll = print(m);
      writeFileSync(join(dir, 'a.ll'), ll);
      try {
        execFileSync(LLVM_AS, ['-opaque-pointers', join(dir, 'a.ll'), '-o', join(dir, 'a.bc')], { stdio: 'pipe' });
      } catch (e) {
        throw new Error(`llvm-as rejected ${label}:\n${(e as { stderr?: Buffer }).stderr?.toString()}\n${ll}`);
      }
    }
    const emit = await loadBackend();
    if (!emit) {
      console.warn(`[builtins:${label}] compiler/backend/ptx.ts not available yet: ptxas check skipped`);
    } else if (PTXAS) {
      // the __nv_* calls need libdevice linked, as compileUnit does, or ptxas reports them unresolved
      const libdevice = libdeviceBytes();
      if (libdevice) {
        const { linkLibdevice } = await import('../compiler/middle/libdevice');
        linkLibdevice(m, libdevice, { arch: 90, ftz: false, precDiv: true, precSqrt: true, fastMath: false });
      }
      const ptx = emit(m, { ...defaultOptions(), arch: 90 });
      writeFileSync(join(dir, 'a.ptx'), ptx);
      try {
        // libdevice (__nv_*) is linked by compileUnit, not here: such calls stay extern, so compile those
        // modules as relocatable code (-c), where ptxas accepts unresolved extern functions.
        const needsLink = m.funcs.some(g => g.blocks.length === 0 && g.name.startsWith('__nv_'));
        execFileSync(PTXAS, ['-arch=sm_90', ...(needsLink ? ['-c'] : []), join(dir, 'a.ptx'), '-o', join(dir, 'a.cubin')], { stdio: 'pipe' });
      } catch (e) {
        throw new Error(`ptxas rejected ${label}:\n${(e as { stderr?: Buffer }).stderr?.toString()}\n${ptx}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- prototypes from the real headers

interface Proto { name: string; ret: Type; params: Type[]; text: string }

function cTypeToIR(t: string): Type | null {
  const s = t.replace(/\b(const|volatile|extern|static|inline|__inline__|register|restrict|__restrict__)\b/g, '').trim();
  if (s.includes('*')) return T.ptr;
  if (/\b(float2|float4|__int128|__nv_|struct|long double)\b/.test(s) || /\blong\s+double\b/.test(s)) return null;
  if (s === 'void' || s === '') return T.void;
  if (/\bdouble\b/.test(s)) return T.f64;
  if (/\bfloat\b/.test(s)) return T.f32;
  if (/\b(long|size_t|clock_t)\b/.test(s)) return T.i64;
  if (/\bshort\b/.test(s)) return T.i16;
  if (/\bchar\b/.test(s)) return T.i8;
  return T.i32;
}

/** Function declarations carrying __attribute__((device_builtin)), plus the bodiless helpers cicc knows. */
function extractBuiltins(src: string): Proto[] {
  const out = new Map<string, Proto>();
  const re = /__attribute__\(\(device_builtin\)\)/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const s = src.lastIndexOf('\n', m.index) + 1;
    let j = m.index + m[0].length, depth = 0;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === '(') depth++; else if (c === ')') depth--;
      else if ((c === ';' || c === '{') && depth === 0) break;
    }
    const decl = src.slice(s, j).trim();
    if (/^(typedef|struct|enum|union|class)\b/.test(decl)) continue;
    addProto(out, decl);
  }
  // bodiless __device__ helpers that the headers call but never define (cicc knows them)
  const re2 = /^\s*(?:extern\s+)?__attribute__\(\(device\)\)\s+([^;{()]*?\b(__nv_\w+_impl)\s*\([^;{]*\))\s*;/gm;
  for (let m = re2.exec(src); m; m = re2.exec(src)) addProto(out, m[1]!);
  return [...out.values()];
}
function addProto(out: Map<string, Proto>, decl: string): void {
  const d = decl.replace(/^#.*$/gm, ' ').replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/__attribute__\(\((?:[^()]|\([^()]*\))*\)\)/g, ' ').replace(/\bthrow\s*\(\)|noexcept\s*\(\s*true\s*\)/g, '').replace(/\s+/g, ' ').trim();
  const mm = /^(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)\s*$/.exec(d);
  if (!mm || out.has(mm[2]!)) return;
  const ret = cTypeToIR(mm[1]!);
  const ps = mm[3]!.trim() === '' || mm[3]!.trim() === 'void' ? [] : mm[3]!.split(',').map(p => p.replace(/\b[A-Za-z_]\w*$/, m0 =>
    /^(int|float|double|long|short|char|unsigned|signed|size_t|clock_t)$/.test(m0) ? m0 : ''));
  const params = ps.map(p => p.includes('...') ? null : cTypeToIR(p));
  if (!ret || params.some(p => p === null)) {
    out.set(mm[2]!, { name: mm[2]!, ret: T.void, params: [], text: '!' + d });
    return;
  }
  out.set(mm[2]!, { name: mm[2]!, ret, params: params as Type[], text: d });
}

/** Implicit builtins used by the headers without any declaration. */
const IMPLICIT: Proto[] = [
  { name: '__match32_any_sync', ret: T.i32, params: [T.i32, T.i32], text: '' },
  { name: '__match64_any_sync', ret: T.i32, params: [T.i32, T.i64], text: '' },
  { name: '__match32_all_sync', ret: T.i32, params: [T.i32, T.i32, T.ptr], text: '' },
  { name: '__match64_all_sync', ret: T.i32, params: [T.i32, T.i64, T.ptr], text: '' },
];

function makeIi(): string | null {
  try {
    const dir = mkdtempSync(join(tmpdir(), 'ptxd-ii-'));
    writeFileSync(join(dir, 'x.cu'), '#include <cuda_runtime.h>\n__global__ void k(int *p) { *p = 1; }\n');
    execFileSync(NVCC, ['-arch=sm_90', '-c', 'x.cu', '--keep', '--keep-dir', dir, '-o', 'x.o'], { cwd: dir, stdio: 'pipe' });
    const ii = readdirSync(dir).find(n => n.endsWith('.cpp1.ii'));
    return ii ? readFileSync(join(dir, ii), 'utf8') : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- tests

describe('builtins: coverage of the CUDA headers', () => {
  const src = makeIi();
  it.skipIf(!src)('every device_builtin function is lowered or listed as unsupported', async () => {
    const protos = [...extractBuiltins(src!), ...IMPLICIT];
    expect(protos.length).toBeGreaterThan(500);
    const missing: string[] = [];
    const { m, f, ctx } = kernel('cover');
    let handled = 0;
    for (const p of protos) {
      if (p.name === 'printf') continue; // lowerPrintf (tested below)
      if (UNSUPPORTED_BUILTINS.has(p.name)) continue;
      if (p.text.startsWith('!')) { missing.push(`${p.name} (unparsed prototype: ${p.text.slice(1)})`); continue; }
      const args: Value[] = p.params.map(t => dummyValue(t));
      if (p.name === '__prof_trigger') args[0] = cInt(T.i32, 3);
      const r = lowerBuiltinCall(ctx, p.name, args, p.ret);
      if (r === null) { missing.push(p.name); continue; }
      handled++;
      if (p.ret.k === 'void') expect(r, p.name).toBeUndefined();
      else { expect(r, p.name).toBeDefined(); expect(r!.ty, p.name).toBe(p.ret); }
    }
    expect(missing, 'builtins neither lowered nor in UNSUPPORTED_BUILTINS').toEqual([]);
    expect(handled).toBeGreaterThan(500);
    finish(ctx);
    expect(f.blocks[0]!.insts.length).toBeGreaterThan(500);
    await checkWithOracles(m, 'coverage');
  });
});

describe('builtins: atomics', () => {
  it('maps names to atomicrmw/cmpxchg with the scope convention', async () => {
    const { m, f, ctx } = kernel('atoms', [T.ptr]);
    const p = f.params[0]!;
    const i = cInt(T.i32, 5), l = cInt(T.i64, 5);
    expect(lowerBuiltinCall(ctx, '__iAtomicAdd', [p, i], T.i32)!.ty).toBe(T.i32);
    lowerBuiltinCall(ctx, '__uAtomicAdd_block', [p, i], T.i32);
    lowerBuiltinCall(ctx, '__ullAtomicAdd_system', [p, l], T.i64);
    lowerBuiltinCall(ctx, '__fAtomicAdd', [p, cFP(T.f32, 1)], T.f32);
    lowerBuiltinCall(ctx, '__dAtomicAdd_block', [p, cFP(T.f64, 1)], T.f64);
    lowerBuiltinCall(ctx, '__iAtomicMin', [p, i], T.i32);
    lowerBuiltinCall(ctx, '__uAtomicMax', [p, i], T.i32);
    lowerBuiltinCall(ctx, '__illAtomicMax_system', [p, l], T.i64);
    lowerBuiltinCall(ctx, '__fAtomicExch', [p, cFP(T.f32, 1)], T.f32);
    lowerBuiltinCall(ctx, '__llAtomicXor', [p, l], T.i64);
    expect(lowerBuiltinCall(ctx, '__iAtomicCAS_block', [p, i, i], T.i32)!.ty).toBe(T.i32);
    expect(lowerBuiltinCall(ctx, '__ullAtomicCAS', [p, l, l], T.i64)!.ty).toBe(T.i64);
    expect(lowerBuiltinCall(ctx, '__usAtomicCAS', [p, cInt(T.i16, 1), cInt(T.i16, 2)], T.i16)!.ty).toBe(T.i16);
    lowerBuiltinCall(ctx, '__uAtomicInc', [p, i], T.i32);
    lowerBuiltinCall(ctx, '__uAtomicDec_system', [p, i], T.i32);
    finish(ctx);
    const rmw = insts(f).filter(x => x.op === 'atomicrmw').map(x => `${x.rmw}:${x.scope}:${x.ordering}`);
    expect(rmw).toEqual(['add:device:monotonic', 'add:block:monotonic', 'add::monotonic', 'fadd:device:monotonic',
      'fadd:block:monotonic', 'min:device:monotonic', 'umax:device:monotonic', 'max::monotonic', 'xchg:device:monotonic',
      'xor:device:monotonic']);
    expect(insts(f).filter(x => x.op === 'cmpxchg').map(x => x.scope)).toEqual(['block', 'device']);
    expect(asmTexts(f)).toEqual(['atom.cas.b16 $0, [$1], $2, $3;', 'atom.inc.u32 $0, [$1], $2;', 'atom.sys.dec.u32 $0, [$1], $2;']);
    await checkWithOracles(m, 'atomics');
  });
});

describe('builtins: warp, barriers, fences, clocks', () => {
  it('lowers to barrier0 / fence / inline asm', async () => {
    const { m, f, ctx } = kernel('warp', [T.ptr, T.i32]);
    const v = f.params[1]!, mask = cInt(T.i32, -1);
    const out: Value[] = [];
    const put = (x: Value | undefined | null): void => { expect(x).not.toBeNull(); if (x) out.push(x); };
    put(lowerBuiltinCall(ctx, '__syncthreads', [], T.void) ?? cInt(T.i32, 0));
    put(lowerBuiltinCall(ctx, '__syncthreads_count', [v], T.i32));
    put(lowerBuiltinCall(ctx, '__syncthreads_and', [v], T.i32));
    put(lowerBuiltinCall(ctx, '__syncthreads_or', [v], T.i32));
    lowerBuiltinCall(ctx, '__threadfence', [], T.void);
    lowerBuiltinCall(ctx, '__threadfence_block', [], T.void);
    lowerBuiltinCall(ctx, '__threadfence_system', [], T.void);
    lowerBuiltinCall(ctx, '__nvvm_bar_warp_sync', [mask], T.void);
    lowerBuiltinCall(ctx, '__nvvm_barrier_sync', [cInt(T.i32, 1)], T.void);
    lowerBuiltinCall(ctx, '__nvvm_barrier_sync_cnt', [cInt(T.i32, 2), cInt(T.i32, 64)], T.void);
    for (const s of ['idx', 'up', 'down', 'bfly']) put(lowerBuiltinCall(ctx, `__nvvm_shfl_${s}_sync`, [mask, v, cInt(T.i32, 1), cInt(T.i32, 0x1f)], T.i32));
    for (const s of ['all', 'any', 'uni', 'ballot']) put(lowerBuiltinCall(ctx, `__nvvm_vote_${s}_sync`, [mask, v], T.i32));
    put(lowerBuiltinCall(ctx, '__match32_any_sync', [mask, v], T.i32));
    put(lowerBuiltinCall(ctx, '__match64_all_sync', [mask, cInt(T.i64, 3), f.params[0]!], T.i32));
    put(lowerBuiltinCall(ctx, '__reduce_add_sync_unsigned_impl', [mask, v], T.i32));
    put(lowerBuiltinCall(ctx, '__reduce_max_sync_signed_impl', [mask, v], T.i32));
    put(lowerBuiltinCall(ctx, '__nvvm_fns', [mask, cInt(T.i32, 0), v], T.i32));
    put(lowerBuiltinCall(ctx, 'clock64', [], T.i64));
    put(lowerBuiltinCall(ctx, 'clock', [], T.i64));
    lowerBuiltinCall(ctx, '__trap', [], T.void);
    finish(ctx);
    expect(calls(f)).toContain('llvm.nvvm.barrier0');
    // votes are LLVM's vote intrinsics (a predicate in, a predicate or the ballot out), as cicc's IR has them
    for (const s of ['ballot', 'uni', 'all', 'any']) expect(calls(f)).toContain(`llvm.nvvm.vote.${s}.sync`);
    expect(insts(f).filter(x => x.op === 'fence').map(x => `${x.ordering}:${x.scope}`)).toEqual(['seq_cst:device', 'seq_cst:block', 'seq_cst:']);
    const t = asmTexts(f).join('\n');
    for (const s of ['bar.red.popc.u32', 'bar.red.and.pred', 'bar.red.or.pred', 'bar.warp.sync $0;', 'barrier.sync $0, $1;',
      'shfl.sync.idx.b32 $0, $2, $3, $4, $1;', 'shfl.sync.bfly.b32',
      'match.any.sync.b32', 'match.all.sync.b64', 'redux.sync.add.u32', 'redux.sync.max.s32', 'fns.b32', '%clock64', 'trap;']) {
      expect(t).toContain(s);
    }
    // asm side effects: everything here must stay put
    for (const i of insts(f)) if (i.op === 'call' && i.ops[0]!.kind === 'asm') expect((i.ops[0] as { sideEffects: boolean }).sideEffects).toBe(true);
    await checkWithOracles(m, 'warp');
  });
});

describe('builtins: integer and bit helpers', () => {
  it('lowers to IR / intrinsics and pure asm', async () => {
    const { m, f, ctx } = kernel('bits', [T.ptr, T.i32, T.i64, T.f32, T.f64]);
    const [, x, y, fl, db] = f.params as [Value, Value, Value, Value, Value];
    const chk = (n: string, a: Value[], r: Type): void => { const v = lowerBuiltinCall(ctx, n, a, r); expect(v, n).not.toBeNull(); expect(v!.ty, n).toBe(r); };
    chk('__popc', [x], T.i32); chk('__popcll', [y], T.i32); chk('__clz', [x], T.i32); chk('__clzll', [y], T.i32);
    chk('__ffs', [x], T.i32); chk('__ffsll', [y], T.i32); chk('__brev', [x], T.i32); chk('__brevll', [y], T.i64);
    chk('__byte_perm', [x, x, cInt(T.i32, 0x3210)], T.i32);
    chk('__mulhi', [x, x], T.i32); chk('__umulhi', [x, x], T.i32); chk('__mul64hi', [y, y], T.i64); chk('__umul64hi', [y, y], T.i64);
    chk('__mul24', [x, x], T.i32); chk('__umul24', [x, x], T.i32); chk('__sad', [x, x, x], T.i32); chk('__usad', [x, x, x], T.i32);
    chk('__hadd', [x, x], T.i32); chk('__rhadd', [x, x], T.i32); chk('__uhadd', [x, x], T.i32); chk('__urhadd', [x, x], T.i32);
    chk('__float_as_int', [fl], T.i32); chk('__int_as_float', [x], T.f32); chk('__double_as_longlong', [db], T.i64);
    chk('__longlong_as_double', [y], T.f64); chk('__double2hiint', [db], T.i32); chk('__double2loint', [db], T.i32);
    chk('__hiloint2double', [x, x], T.f64);
    chk('min', [x, x], T.i32); chk('ullmax', [y, y], T.i64); chk('abs', [x], T.i32); chk('llabs', [y], T.i64);
    chk('fabsf', [fl], T.f32); chk('fma', [db, db, db], T.f64);
    chk('__vadd2', [x, x], T.i32); chk('__vcmpgts4', [x, x], T.i32); chk('__vsads2', [x, x], T.i32); chk('__vhaddu4', [x, x], T.i32);
    chk('__vabsss2', [x], T.i32); chk('__vneg4', [x], T.i32);
    chk('sinf', [fl], T.f32); chk('__sinf', [fl], T.f32); chk('__fdividef', [fl, fl], T.f32); chk('__float2int_rn', [fl], T.i32);
    chk('__builtin_sqrt', [db], T.f64); chk('__builtin_clz', [x], T.i32); chk('__builtin_bswap32', [x], T.i32);
    chk('__builtin_isnan', [db], T.i32); chk('__builtin_expect', [y, cInt(T.i64, 0)], T.i64);
    finish(ctx);
    const c = calls(f);
    for (const n of ['llvm.ctpop.i32', 'llvm.ctpop.i64', 'llvm.ctlz.i32', 'llvm.cttz.i32', 'llvm.bitreverse.i64', 'llvm.smin.i32',
      'llvm.umax.i64', 'llvm.fabs.f32', 'llvm.fma.f64', '__nv_sinf', '__nv_fast_sinf', '__nv_fast_fdividef', '__nv_float2int_rn', '__nv_sqrt']) {
      expect(c, n).toContain(n);
    }
    const t = asmTexts(f).join('\n');
    for (const s of ['prmt.b32 $0, $1, $2, $3;', 'mul.hi.s64', 'mul.hi.u64', 'vadd2.u32.u32.u32 $0', 'vset4.s32.s32.gt',
      'vabsdiff2.s32.s32.s32.add', 'vabsdiff2.s32.s32.s32.sat', 'vsub4.s32.s32.s32 ']) expect(t).toContain(s);
    for (const i of insts(f)) if (i.op === 'call' && i.ops[0]!.kind === 'asm') expect((i.ops[0] as { sideEffects: boolean }).sideEffects).toBe(false);
    await checkWithOracles(m, 'bits');
  });
});

describe('builtins: special variables and printf', () => {
  it('reads special registers through the sreg intrinsics', () => {
    const { f, ctx } = kernel('sregs');
    for (const v of ['threadIdx', 'blockIdx', 'blockDim', 'gridDim']) for (const c of ['x', 'y', 'z']) expect(lowerBuiltinVar(ctx, v, c)!.ty).toBe(T.i32);
    expect(lowerBuiltinVar(ctx, 'warpSize', null)!.ty).toBe(T.i32);
    expect(lowerBuiltinVar(ctx, 'threadIdx', 'w')).toBeNull();
    expect(lowerBuiltinVar(ctx, 'nope', null)).toBeNull();
    expect(lowerBuiltinCall(ctx, '__no_such_builtin', [], T.void)).toBeNull();
    finish(ctx);
    expect(calls(f)).toEqual(['llvm.nvvm.read.ptx.sreg.tid.x', 'llvm.nvvm.read.ptx.sreg.tid.y', 'llvm.nvvm.read.ptx.sreg.tid.z',
      'llvm.nvvm.read.ptx.sreg.ctaid.x', 'llvm.nvvm.read.ptx.sreg.ctaid.y', 'llvm.nvvm.read.ptx.sreg.ctaid.z',
      'llvm.nvvm.read.ptx.sreg.ntid.x', 'llvm.nvvm.read.ptx.sreg.ntid.y', 'llvm.nvvm.read.ptx.sreg.ntid.z',
      'llvm.nvvm.read.ptx.sreg.nctaid.x', 'llvm.nvvm.read.ptx.sreg.nctaid.y', 'llvm.nvvm.read.ptx.sreg.nctaid.z',
      'llvm.nvvm.read.ptx.sreg.warpsize']);
  });

  it('packs printf arguments like cicc (natural alignment) and calls vprintf', async () => {
    const { m, f, ctx } = kernel('pf', [T.ptr, T.i32, T.f64, T.i64]);
    const [fmt, a, d, l] = f.params as [Value, Value, Value, Value];
    const r = lowerPrintf(ctx, fmt, [a, d, cInt(T.i32, 99), l, fmt]);
    expect(r.ty).toBe(T.i32);
    const r2 = lowerPrintf(ctx, fmt, []);
    finish(ctx);
    const al = insts(f).find(i => i.op === 'alloca')!;
    // { i32, double, i32, i64, ptr } → offsets 0, 8, 16, 24, 32, size 40 (cicc's depot for this call is 40 bytes)
    expect(al.srcTy && (al.srcTy as { fields?: Type[] }).fields!.length).toBe(5);
    expect((r2 as Inst).ops[2]).toEqual(cNull());
    expect(calls(f).filter(n => n === 'vprintf').length).toBe(2);
    expect(m.funcs.find(g => g.name === 'vprintf')!.blocks.length).toBe(0);
    await checkWithOracles(m, 'printf');
  });
});
