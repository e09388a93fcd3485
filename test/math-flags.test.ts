// Floating-point flags against the real cicc: for each flag set of research/cicc-cli-contract.md §5, every
// kernel of test/kernels/math_flags.cu must use the same floating-point instruction forms (div.rn/div.full/
// div.approx.ftz, rcp.rn/approx, sqrt.rn/approx, fma contraction vs mul.rn+add.rn, ex2/lg2/sin.approx, .ftz)
// in our PTX as in the real cicc's PTX for the same unit and flags. Oracle: the real cicc, run here.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { compileUnit } from '../compiler/compile';
import { parseCiccArgs } from '../cicc/args';
import { KERNELS_DIR, prepareUnit, ciccArgv, ciccOutputs, mkTempDir, run, skipReason, tools } from './helpers/tools';

const skip = skipReason('nvcc', 'cicc', 'ptxas');
const ARCH = 90;

/** The flag sets: nvcc's explicit defaults are replaced by these (as nvcc itself would send them). */
const CONFIGS: Record<string, string[]> = {
  default: ['-ftz=0', '-prec_div=1', '-prec_sqrt=1', '-fmad=1'],
  ftz: ['-ftz=1', '-prec_div=1', '-prec_sqrt=1', '-fmad=1'],
  'prec_div=0': ['-ftz=0', '-prec_div=0', '-prec_sqrt=1', '-fmad=1'],
  'prec_sqrt=0': ['-ftz=0', '-prec_div=1', '-prec_sqrt=0', '-fmad=1'],
  'fmad=0': ['-ftz=0', '-prec_div=1', '-prec_sqrt=1', '-fmad=0'],
  'gen_div_approx_ftz': ['-ftz=1', '-prec_div=0', '-prec_sqrt=1', '-fmad=1', '--gen_div_approx_ftz'],
  'gen_div_approx_ftz (ftz=0)': ['-ftz=0', '-prec_div=0', '-prec_sqrt=1', '-fmad=1', '--gen_div_approx_ftz'],
  'fast-math': ['-ftz=0', '-prec_div=1', '-prec_sqrt=1', '-fmad=1', '-fast-math'],
  // what nvcc --use_fast_math sends
  use_fast_math: ['-ftz=1', '-prec_div=0', '-prec_sqrt=0', '-fmad=1', '-fast-math', '--gen_div_approx_ftz'],
};

const FP_OP = /^\s+(?:@!?%p\d+\s+)?((?:div|rcp|sqrt|rsqrt|fma|mul|add|sub|ex2|lg2|sin|cos|tanh|neg|abs|min|max)\.[a-z0-9.]*f(?:32|64)|cvt\.sat\.f32\.f32|cvt(?:\.rn)?(?:\.ftz)?\.f32\.f64)\b/;

/** Per kernel: the set of floating-point instruction forms it uses. */
function fpForms(ptx: string): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  let cur: Set<string> | null = null;
  for (const line of ptx.split('\n')) {
    const k = /^\.visible \.entry (\w+)\(/.exec(line);
    if (k) { cur = new Set(); out.set(k[1]!, cur); continue; }
    const m = FP_OP.exec(line);
    if (m && cur) cur.add(m[1]!);
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}

function withFlags(argv: readonly string[], flags: string[]): string[] {
  const drop = /^(-ftz=|-prec_div=|-prec_sqrt=|-fmad=|-fast-math$|--gen_div_approx_ftz$)/;
  const out = argv.filter(a => !drop.test(a));
  const at = out.indexOf('--include_file_name');
  out.splice(at, 0, ...flags);
  return out;
}

/** The instruction forms that decide each flag's effect (contraction shows as fma vs mul.rn/add.rn). */
const KEY = /^(div|rcp|sqrt|rsqrt|ex2|lg2|sin|cos|tanh|fma|mul\.rn|add\.rn)\./;

describe.skipIf(skip !== undefined)(`FP flags match the real cicc (math_flags.cu, sm_${ARCH}) ${skip ?? ''}`, () => {
  const lib = tools().cudaHome ? new Uint8Array(fs.readFileSync(path.join(tools().cudaHome!, 'nvvm', 'libdevice', 'libdevice.10.bc'))) : undefined;
  let unit: ReturnType<typeof prepareUnit> | undefined;
  const get = () => (unit ??= prepareUnit(path.join(KERNELS_DIR, 'math_flags.cu'), ARCH));

  for (const [name, flags] of Object.entries(CONFIGS)) {
    it(name, () => {
      const u = get();
      const dir = mkTempDir('math-flags');
      try {
        const argv = withFlags(ciccArgv(u, dir), flags);
        const r = run(u.realCicc, argv);
        expect(r.status, r.stderr).toBe(0);
        const ref = fpForms(fs.readFileSync(ciccOutputs(dir).ptx, 'utf8'));
        const opts = parseCiccArgs(argv).options;
        opts.moduleId = u.moduleId;
        const ours = compileUnit(fs.readFileSync(u.ii, 'utf8'), opts, { libdevice: lib });
        expect(ours.unsupported).toBeUndefined();
        expect(ours.ok).toBe(true);
        const got = fpForms(ours.ptx);
        expect([...got.keys()].sort()).toEqual([...ref.keys()].sort());
        const diffs: string[] = [];
        for (const [k, want] of ref) {
          // x - c and x + (-c) are the same operation: compare add/sub forms by their rounding suffixes only
          const norm = (l: string[]) => [...new Set(l.map(x => x.replace(/^sub\./, 'add.')).filter(x => KEY.test(x)))].sort();
          const w = norm(want), g = norm(got.get(k)!);
          if (w.join(' ') !== g.join(' ')) diffs.push(`${k}: cicc [${w.join(' ')}] ours [${g.join(' ')}]`);
        }
        expect(diffs).toEqual([]);
        // ftz applies to every f32 instruction or to none (f64 has no .ftz)
        const ftzWanted = flags.includes('-ftz=1');
        for (const [k, forms] of got) for (const f of forms) {
          if (!f.endsWith('f32') || /^(cvt|ex2\.approx\.ftz|rcp\.approx\.ftz|rsqrt\.approx|div\.approx\.ftz)/.test(f)) continue;
          if (f.includes('.ftz') !== ftzWanted && !(ref.get(k) ?? []).includes(f)) diffs.push(`${k}: ${f}`);
        }
        expect(diffs).toEqual([]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
