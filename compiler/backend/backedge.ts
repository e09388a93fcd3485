// Phi inputs on a loop's back edge computed straight into the phi's register (an accumulator
// `acc = fma(x, y, acc)` writes the register it reads), so that the back edge needs no copy and no edge
// block. The phi's register is live through the loop, so this is safe only where the phi's value is dead
// once the input is written: every read of the phi happens before the input's instruction, in its block
// (the latch, or a block that runs before the latch in each iteration) or in a block that runs before it. A read is where the reading instruction's
// text is written, which for an instruction folded into its user (fma, mad, wide indices, address groups,
// extending loads) is its user's place: those are followed to the instructions that are written.
import type { Block, Inst, Type, Value } from '../middle/ir';
import { T } from '../middle/ir';
import { dominates } from '../middle/analysis/dominance';
import { succsOf } from '../middle/analysis/cfg';
import type { Loop } from '../middle/analysis/loops';
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
 * Can `v`, the input of `phi` (in `header`) on the back edge from `latch`, be written into the phi's register?
 * `pos` gives an instruction's index in its block (computed once per function by the caller); `loop`, the
 * natural loop of `header`, when it has one latch.
 */
export function backEdgeCoalescable(pat: Patterns, pos: Map<Inst, number>, phi: Inst, v: Inst, header: Block, latch: Block, loop: Loop | undefined): boolean {
  // v is computed in the latch or in a block of the loop that runs before it in every iteration
  const vb = v.parent;
  if (!isScalar(phi.ty) || !(TYPES.has(phi.ty) || phi.ty.k === 'ptr') || !vb) return false;
  if (!ONE_INSTRUCTION.has(v.op) && !pointerStep(pat, v)) return false;
  if (pat.halves.has(v) || pat.inHalves.has(v) || pat.contracted.has(v)) return false;
  const at = pos.get(v)!;
  // a block of the loop runs before the latch in each iteration when the latch leaves the loop or goes
  // back to the header only (a read on a conditional path, `if (t < s) x[t] += x[t + s]`)
  const body = loop && loop.latch === latch && succsOf(latch).every(s => s === header || !loop.blocks.has(s)) ? loop.blocks : null;
  const cfg = pat.cfg();
  let budget = BUDGET;
  const deferred = (u: Inst): boolean => ALIASING.has(u.op) || pat.contracted.has(u) || pat.wideIdx.has(u) || pat.foldedGep.has(u)
    || pat.peeledAdd.has(u) || pat.dynGroup.has(u) || pat.foldedLoad.has(u) || pat.foldedTrunc.has(u) || pat.foldedCmp.has(u)
    || pat.extLoad.has(u) || pat.truncExt.has(u) || pat.foldedExt.has(u);
  // every instruction reading `x` (the phi, or something folded that reads it) is written before `v`
  const readsBefore = (x: Value): boolean => {
    for (const u of pat.users.get(x) ?? []) {
      if (--budget < 0) return false;
      if (u === v) continue;
      // a member of a vector access written with another member's address reads nothing
      if (pat.vecSkip.has(u)) continue;
      if (u.op === 'phi' || pat.halves.has(u) || pat.inHalves.has(u)) return false;
      const b = u.parent!;
      if (b === vb) { if (pos.get(u)! >= at) return false; }
      else if (!(dominates(cfg, header, b) && dominates(cfg, b, vb)) && !(vb === latch && body !== null && body.has(b))) return false;
      if (deferred(u) && !readsBefore(u)) return false;
    }
    return true;
  };
  return readsBefore(phi);
}
