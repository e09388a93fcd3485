// NVVMReflect: `__nvvm_reflect("NAME")` calls become constants chosen by the compile flags, and the
// branches they guard are folded away. libdevice asks for __CUDA_FTZ, __CUDA_ARCH and __CUDA_PREC_SQRT;
// the values follow cicc (research/cicc-cli-contract.md §5): -ftz=1 → __CUDA_FTZ=1, -prec_div=1 →
// __CUDA_PREC_DIV=1, -prec_sqrt=1 → __CUDA_PREC_SQRT=1, -fast-math → __CUDA_USE_FAST_MATH=1, and
// __CUDA_ARCH = 10 × the virtual arch (sm_90 → 900). Unknown names reflect to 0, as in LLVM.

import type { Func, Value, Inst, ICmpPred } from './ir';
import { T, cInt } from './ir';
import { simplifyCFG } from './passes/simplifycfg';
import { applyReplacements } from './analysis/uses';

export interface ReflectConfig { arch: number; ftz: boolean; precDiv: boolean; precSqrt: boolean; fastMath: boolean }

export function reflectValue(name: string, c: ReflectConfig): number {
  switch (name) {
    case '__CUDA_ARCH': return c.arch * 10;
    case '__CUDA_FTZ': return c.ftz ? 1 : 0;
    case '__CUDA_PREC_DIV': return c.precDiv ? 1 : 0;
    case '__CUDA_PREC_SQRT': return c.precSqrt ? 1 : 0;
    case '__CUDA_USE_FAST_MATH': return c.fastMath ? 1 : 0;
    default: return 0;
  }
}

/** The string a reflect call asks about: its argument is (a GEP or cast of) a constant C string. */
function reflectName(arg: Value): string | null {
  let v: Value = arg;
  while (v.kind === 'cexpr') v = v.base;
  if (v.kind !== 'global' || !v.init || v.init.kind !== 'bytes') return null;
  let s = '';
  for (const b of v.init.bytes) { if (b === 0) break; s += String.fromCharCode(b); }
  return s;
}

const isReflect = (i: Inst): boolean => i.op === 'call' && i.ops[0]!.kind === 'func' && (i.ops[0].name === '__nvvm_reflect' || i.ops[0].name === 'llvm.nvvm.reflect');

function foldICmp(p: ICmpPred, a: bigint, b: bigint): boolean {
  switch (p) {
    case 'eq': return a === b; case 'ne': return a !== b;
    case 'sgt': return a > b; case 'sge': return a >= b; case 'slt': return a < b; case 'sle': return a <= b;
    // reflect values are small non-negative numbers: unsigned order equals signed order
    case 'ugt': return a > b; case 'uge': return a >= b; case 'ult': return a < b; case 'ule': return a <= b;
  }
}

/**
 * Replace reflect calls in `f` by constants, fold the integer compares and selects that use them, and
 * simplify the CFG so the untaken library paths disappear. Returns true if anything changed.
 */
export function applyReflect(f: Func, c: ReflectConfig): boolean {
  const known = new Map<Value, Value>();
  for (const b of f.blocks) for (const i of b.insts) {
    if (isReflect(i)) {
      const name = reflectName(i.ops[1]!);
      if (name === null) continue;
      known.set(i, cInt(i.ty, reflectValue(name, c)));
    }
  }
  if (known.size === 0) return false;
  // fold compares/selects fed (directly) by reflected values, in program order
  let grew = true;
  while (grew) {
    grew = false;
    for (const b of f.blocks) for (const i of b.insts) {
      if (known.has(i)) continue;
      const val = (v: Value): Value | undefined => (v.kind === 'int' ? v : known.get(v));
      if (i.op === 'icmp') {
        const a = val(i.ops[0]!), bb = val(i.ops[1]!);
        if (a?.kind === 'int' && bb?.kind === 'int' && (known.has(i.ops[0]!) || known.has(i.ops[1]!))) {
          known.set(i, cInt(T.i1, foldICmp(i.pred as ICmpPred, a.value, bb.value) ? 1 : 0)); grew = true;
        }
      } else if (i.op === 'select') {
        const cnd = known.get(i.ops[0]!);
        if (cnd?.kind === 'int') { known.set(i, cnd.value & 1n ? i.ops[1]! : i.ops[2]!); grew = true; }
      }
    }
  }
  const repl = new Map<Value, Value>();
  for (const [i, v] of known) repl.set(i, v);
  applyReplacements(f, repl);
  // the reflect calls and folded compares are now unused
  for (const b of f.blocks) b.insts = b.insts.filter(i => !known.has(i));
  simplifyCFG(f);
  return true;
}
