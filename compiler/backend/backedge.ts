// Phi inputs on a loop's back edge computed straight into the phi's register (an accumulator
// `acc = fma(x, y, acc)` writes the register it reads), so that the back edge needs no copy and no edge
// block. The phi's register is live through the loop, so this is safe only where the phi's value is dead
// once the input is written: every read of the phi happens before the input's instruction in the
// iteration, or on a path that does not reach it. A read is where the reading instruction's
// text is written, which for an instruction folded into its user (fma, mad, wide indices, address groups,
// extending loads) is its user's place: those are followed to the instructions that are written.
import type { Block, Inst, Type, Value } from '../middle/ir';
import { T } from '../middle/ir';
import { dominates } from '../middle/analysis/dominance';
import { succsOf, type CFG } from '../middle/analysis/cfg';
import type { Patterns } from './patterns';
import { isScalar } from './types';

/** Ops written as one PTX instruction that may read and write the same register. */
const ONE_INSTRUCTION = new Set(['add', 'sub', 'mul', 'and', 'or', 'xor', 'fadd', 'fsub', 'fmul', 'select', 'shl', 'lshr', 'ashr']);
const TYPES = new Set<Type>([T.i32, T.i64, T.f32, T.f64]);
/** Casts and geps that may name their source's register rather than compute their own. */
const ALIASING = new Set(['ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast', 'gep', 'extractvalue', 'insertvalue']);
/** Most instructions followed per phi: beyond, the copy is kept. */
const BUDGET = 64;

/** `p + off` in bytes, written as one add.s64 (a pointer stepped by strength reduction, passes/lsr.ts). */
function pointerStep(pat: Patterns, v: Inst): boolean {
  return v.op === 'gep' && v.ops.length === 2 && v.srcTy === T.i8 && v.ops[1]!.ty === T.i64 && !(v.ops[1]!.kind === 'int' && v.ops[1].value === 0n)
    && !pat.foldedGep.has(v) && !pat.dynGroup.has(v) && !pat.isDirectParamPtr(v);
}

/**
 * The blocks an iteration of the loop of `header` can run after `from`: those reached from its successors by
 * paths that stay among the blocks `header` dominates (only those can read the header's phis; a path leaving
 * them comes back through the header) and do not go through the header (which starts the next iteration).
 */
export function reachedInIteration(cfg: CFG, header: Block, from: Block): Set<Block> {
  const seen = new Set<Block>();
  const work = [...succsOf(from)];
  while (work.length) {
    const b = work.pop()!;
    if (b === header || seen.has(b) || !cfg.idom.has(b) || !dominates(cfg, header, b)) continue;
    seen.add(b);
    for (const s of succsOf(b)) work.push(s);
  }
  return seen;
}

/**
 * Can `v`, the input of `phi` (in `header`) on the back edge, be written into the phi's register? `v` is
 * computed in the latch or in a block of the loop that dominates it; `after` is reachedInIteration() of
 * that block. `pos` gives an instruction's index in its block (computed once per function by the caller).
 */
export function backEdgeCoalescable(pat: Patterns, pos: Map<Inst, number>, phi: Inst, v: Inst, after: Set<Block>): boolean {
  const vb = v.parent;
  if (!isScalar(phi.ty) || !(TYPES.has(phi.ty) || phi.ty.k === 'ptr') || !vb) return false;
  if (!ONE_INSTRUCTION.has(v.op) && !pointerStep(pat, v)) return false;
  if (pat.halves.has(v) || pat.inHalves.has(v) || pat.contracted.has(v)) return false;
  // in an inner loop, v runs more than once per iteration
  if (after.has(vb)) return false;
  const at = pos.get(v)!;
  let budget = BUDGET;
  const deferred = (u: Inst): boolean => ALIASING.has(u.op) || pat.contracted.has(u) || pat.wideIdx.has(u) || pat.foldedGep.has(u)
    || pat.peeledAdd.has(u) || pat.dynGroup.has(u) || pat.foldedLoad.has(u) || pat.foldedTrunc.has(u) || pat.foldedCmp.has(u)
    || pat.extLoad.has(u) || pat.truncExt.has(u) || pat.foldedExt.has(u);
  // every instruction reading `x` (the phi, or something folded that reads it) runs before `v` in the
  // iteration or on a path that does not reach `v` (a read on a conditional path in the loop,
  // `if (t < s) x[t] += x[t + s]`, or after an early exit, `if (a[j] == key) return j;`)
  const readsBefore = (x: Value): boolean => {
    for (const u of pat.users.get(x) ?? []) {
      if (--budget < 0) return false;
      if (u === v) continue;
      // a member of a vector access written with another member's address reads nothing
      if (pat.vecSkip.has(u)) continue;
      // a phi reads the phi at the end of the edge's source (an exit's phi on an early exit's edge)
      if (u.op === 'phi' && x === phi) {
        if (u.targets.some((p, k) => u.ops[k] === x && (p === vb || after.has(p)))) return false;
        continue;
      }
      if (u.op === 'phi' || pat.halves.has(u) || pat.inHalves.has(u)) return false;
      const b = u.parent!;
      if (b === vb ? pos.get(u)! >= at : after.has(b)) return false;
      if (deferred(u) && !readsBefore(u)) return false;
    }
    return true;
  };
  return readsBefore(phi);
}
