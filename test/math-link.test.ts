// libdevice linking and NVVMReflect on hand-built modules: reflected values pick the library's paths
// (__CUDA_FTZ, __CUDA_ARCH), only what the unit calls is linked (transitively), linked functions are
// internal, and the result prints as IR that llvm-as/opt accept. Oracles: libdevice's own code paths
// (which intrinsics each branch calls, as llvm-dis shows them) and LLVM's verifier.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { findTool, tools, skipReason, requireTool, run } from './helpers/tools';
import { newModule, newFunc, funcTy, declareFunc, Builder, T, type Module, type Func } from '../compiler/middle/ir';
import { linkLibdevice } from '../compiler/middle/libdevice';
import { reflectValue, type ReflectConfig } from '../compiler/middle/reflect';
import { printModule } from '../compiler/middle/llprint';
import { verifyModule } from '../compiler/middle/verify';

const LIB = tools().cudaHome ? path.join(tools().cudaHome!, 'nvvm', 'libdevice', 'libdevice.10.bc') : '';
const have = LIB !== '' && fs.existsSync(LIB);
const cfg = (p: Partial<ReflectConfig> = {}): ReflectConfig => ({ arch: 90, ftz: false, precDiv: true, precSqrt: true, fastMath: false, ...p });

/** A module whose kernel calls each of `names` (float → float). */
function unitCalling(names: string[]): Module {
  const m = newModule();
  const k = newFunc('k', funcTy(T.void, [T.f32]));
  k.isKernel = true;
  m.funcs.push(k);
  const b = new Builder(k);
  b.setBlock(b.newBlock('entry'));
  for (const n of names) b.call(declareFunc(m, n, funcTy(T.f32, [T.f32]) as Func['fnTy']), funcTy(T.f32, [T.f32]) as Func['fnTy'], [k.params[0]!]);
  b.ret();
  return m;
}
const calls = (f: Func): string[] => f.blocks.flatMap(b => b.insts).filter(i => i.op === 'call' && i.ops[0]!.kind === 'func').map(i => (i.ops[0] as Func).name);

describe.skipIf(!have)('libdevice linking', () => {
  const bytes = have ? new Uint8Array(fs.readFileSync(LIB)) : new Uint8Array();

  it('reflect values follow the flags (cicc-cli-contract §5)', () => {
    expect(reflectValue('__CUDA_ARCH', cfg({ arch: 86 }))).toBe(860);
    expect(reflectValue('__CUDA_FTZ', cfg({ ftz: true }))).toBe(1);
    expect(reflectValue('__CUDA_FTZ', cfg())).toBe(0);
    expect(reflectValue('__CUDA_PREC_SQRT', cfg({ precSqrt: false }))).toBe(0);
    expect(reflectValue('__CUDA_PREC_DIV', cfg())).toBe(1);
    expect(reflectValue('__SOMETHING_ELSE', cfg())).toBe(0);
  });

  it('__CUDA_FTZ selects the .ftz intrinsics in __nv_sinf, and no reflect call survives', () => {
    for (const ftz of [false, true]) {
      const m = unitCalling(['__nv_sinf']);
      linkLibdevice(m, bytes, cfg({ ftz }));
      const sinf = m.funcs.find(f => f.name === '__nv_sinf')!;
      expect(sinf.blocks.length).toBeGreaterThan(0);
      expect(sinf.linkage).toBe('internal');
      const nv = m.funcs.flatMap(calls).filter(n => /^llvm\.nvvm\.(fma|mul|fabs)\./.test(n) && n.endsWith('.f'));
      expect(nv.length).toBeGreaterThan(3);
      expect(nv.every(n => n.includes('.ftz.') === ftz)).toBe(true);
      expect(m.funcs.flatMap(calls)).not.toContain('__nvvm_reflect');
    }
  });

  it('__CUDA_ARCH selects tanh.approx.f32 in __nv_fast_tanhf from compute_73 on', () => {
    for (const [arch, want] of [[70, false], [75, true], [90, true]] as const) {
      const m = unitCalling(['__nv_fast_tanhf']);
      linkLibdevice(m, bytes, cfg({ arch }));
      expect(m.funcs.flatMap(calls).includes('llvm.nvvm.tanh.approx.f32')).toBe(want);
    }
  });

  it('links only what the unit calls, transitively, and leaves other units untouched', () => {
    const m = unitCalling(['__nv_expf']);
    linkLibdevice(m, bytes, cfg());
    const defined = m.funcs.filter(f => f.blocks.length > 0).map(f => f.name).sort();
    expect(defined).toEqual(['__nv_expf', 'k']);
    const none = unitCalling([]);
    linkLibdevice(none, bytes, cfg());
    expect(none.funcs.map(f => f.name)).toEqual(['k']);
    // __nv_sin calls the trig slow path and uses the 2/pi table: both come along
    const d = newModule();
    const k = newFunc('k', funcTy(T.void, [T.f64])); k.isKernel = true; d.funcs.push(k);
    const b = new Builder(k); b.setBlock(b.newBlock('entry'));
    const sig = funcTy(T.f64, [T.f64]) as Func['fnTy'];
    b.call(declareFunc(d, '__nv_sin', sig), sig, [k.params[0]!]); b.ret();
    linkLibdevice(d, bytes, cfg());
    expect(d.funcs.filter(f => f.blocks.length > 0).length).toBeGreaterThan(2);
    expect(d.globals.map(g => g.name)).toContain('__cudart_i2opi_d');
    expect(d.funcs.filter(f => f.blocks.length > 0 && f !== k).every(f => f.linkage === 'internal')).toBe(true);
  });

  it('the same configuration twice gives the same module text (the prepared library is cached, not mutated)', () => {
    const a = unitCalling(['__nv_expf', '__nv_logf', '__nv_tanf']);
    linkLibdevice(a, bytes, cfg({ ftz: true }));
    const b = unitCalling(['__nv_expf', '__nv_logf', '__nv_tanf']);
    linkLibdevice(b, bytes, cfg({ ftz: true }));
    expect(printModule(b)).toBe(printModule(a));
  });

  it('a signature mismatch or an unknown __nv_ name is unsupported, not a crash', () => {
    const m = newModule();
    const k = newFunc('k', funcTy(T.void, [])); k.isKernel = true; m.funcs.push(k);
    const bb = new Builder(k); bb.setBlock(bb.newBlock('entry'));
    const bad = funcTy(T.f64, [T.f32]) as Func['fnTy'];
    bb.call(declareFunc(m, '__nv_sinf', bad), bad, [{ kind: 'fp', ty: T.f32, value: 1 }]); bb.ret();
    expect(() => linkLibdevice(m, bytes, cfg())).toThrow(/different signature/);
    expect(() => linkLibdevice(unitCalling(['__nv_no_such_fn']), bytes, cfg())).toThrow(/not in libdevice/);
  });

  it('a linked unit passes our verifier and prints as IR that llvm-as and opt -passes=verify accept', () => {
    const m = unitCalling(['__nv_sinf', '__nv_tgammaf', '__nv_erfinvf', '__nv_fast_tanhf', '__nv_rsqrtf', '__nv_cbrtf']);
    linkLibdevice(m, bytes, cfg({ ftz: true, precSqrt: false }));
    expect(verifyModule(m)).toEqual([]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'math-link-'));
    try {
      const f = path.join(dir, 'u.ll');
      fs.writeFileSync(f, printModule(m));
      const llvmAs = findTool('llvm-as');
      if (!llvmAs) return; // llvm-as absent: the rest of the test still ran
      const as = spawnSync(llvmAs, ['-opaque-pointers', f, '-o', path.join(dir, 'u.bc')], { encoding: 'utf8' });
      expect(as.status, as.stderr).toBe(0);
      const opt = spawnSync(requireTool('opt'), ['-opaque-pointers', '-passes=verify', path.join(dir, 'u.bc'), '-o', '/dev/null'], { encoding: 'utf8' });
      expect(opt.status, opt.stderr).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!have)('the frontend builtin table and libdevice agree', () => {
  it('every CUDA name routed to libdevice names a function libdevice defines', async () => {
    const { libdeviceBuiltinNames, libdeviceName } = await import('../compiler/frontend/builtins-libdevice');
    const { readBitcode } = await import('../compiler/middle/bitcode/reader');
    const lib = readBitcode(new Uint8Array(fs.readFileSync(LIB))).module;
    const defined = new Set(lib.funcs.filter(f => f.blocks.length > 0).map(f => f.name));
    const missing = libdeviceBuiltinNames().map(n => [n, libdeviceName(n)!] as const).filter(([, l]) => !defined.has(l));
    expect(missing).toEqual([]);
  });
});

describe.skipIf(!have || skipReason('ptxas') !== undefined)('every libdevice function through the backend', () => {
  // One kernel per __nv_* function: arguments are kernel parameters, the result is stored through an
  // out pointer. Linked, optimized and emitted for the oldest and newest targets under both ftz settings;
  // ptxas must accept the PTX. This covers every intrinsic, inline asm and instruction form libdevice uses.
  for (const [arch, ftz, optLevel] of [[75, false, 3], [120, true, 3], [90, false, 0]] as const) {
    it(`sm_${arch}${ftz ? ' -ftz=1' : ''} -O${optLevel}`, async () => {
      const { readBitcode } = await import('../compiler/middle/bitcode/reader');
      const { optimize } = await import('../compiler/middle/passes');
      const { emitPtx } = await import('../compiler/backend/ptx');
      const { defaultOptions } = await import('../compiler/options');
      const bytes = new Uint8Array(fs.readFileSync(LIB));
      const names = readBitcode(bytes).module.funcs.filter(f => f.blocks.length > 0 && f.name.startsWith('__nv_'));
      const m = newModule();
      for (const [k, lf] of names.entries()) {
        const out = T.ptr;
        const kern = newFunc(`k${k}`, funcTy(T.void, [...lf.fnTy.params, out]));
        kern.isKernel = true;
        m.funcs.push(kern);
        const b = new Builder(kern);
        b.setBlock(b.newBlock('entry'));
        const r = b.call(declareFunc(m, lf.name, lf.fnTy), lf.fnTy, kern.params.slice(0, -1));
        if (lf.fnTy.ret.k !== 'void') b.store(r, kern.params[kern.params.length - 1]!);
        b.ret();
      }
      expect(m.funcs.length).toBeGreaterThan(300);
      const opts = { ...defaultOptions(), arch, ftz, optLevel };
      linkLibdevice(m, bytes, { arch, ftz, precDiv: true, precSqrt: true, fastMath: false });
      optimize(m, opts);
      const ptx = emitPtx(m, opts);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'all-libdevice-'));
      try {
        const f = path.join(dir, 'all.ptx');
        fs.writeFileSync(f, ptx);
        const r = run(requireTool('ptxas'), ['-arch', `sm_${arch}`, f, '-o', path.join(dir, 'all.cubin')]);
        expect(r.status, r.stderr.slice(0, 4000)).toBe(0);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
