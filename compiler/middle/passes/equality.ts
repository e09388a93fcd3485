// Equalities known from a branch (GVN's propagateEquality): in the blocks only reached through the edge
// on which `x == C` holds, x is C. `if (threadIdx.x == 0) out[blockIdx.x] = s[threadIdx.x];` then reads
// s[0] at a constant address, and an unrolled reduction's last step `if (t < 1) s[t] += s[t + 1]` reads
// s[1], as cicc's code does. Unsigned `x < 1` and `x <= 0` are `x == 0` too.
import type { Block, Func, Value } from '../ir';
import { cInt } from '../ir';
import { buildCFG, type CFG } from '../analysis/cfg';
import { dominates } from '../analysis/dominance';

/** The value and constant that are equal when the branch goes to its `onTrue` side, or null. */
function equalityOf(c: Value, onTrue: boolean): { x: Value; k: Value } | null {
  if (c.kind !== 'inst' || c.op !== 'icmp') return null;
  const [a, b] = c.ops as [Value, Value];
  if (b.kind !== 'int' || (a.kind !== 'inst' && a.kind !== 'arg')) return null;
  const p = c.pred!;
  if ((p === 'eq' && onTrue) || (p === 'ne' && !onTrue)) return { x: a, k: b };
  // unsigned x < 1 (x <= 0) is x == 0; its negation x >= 1 (x > 0) says nothing about one value
  if (onTrue && ((p === 'ult' && b.value === 1n) || (p === 'ule' && b.value === 0n))) return { x: a, k: cInt(b.ty, 0n) };
  return null;
}

export function propagateEqualities(f: Func): boolean {
  let cfg: CFG | null = null;
  const facts: { x: Value; k: Value; from: Block }[] = [];
  for (const b of f.blocks) {
    const t = b.insts[b.insts.length - 1];
    if (!t || t.op !== 'condbr' || t.targets[0] === t.targets[1]) continue;
    for (let side = 0; side < 2; side++) {
      const e = equalityOf(t.ops[0]!, side === 0);
      if (!e) continue;
      cfg ??= buildCFG(f);
      const to = t.targets[side]!;
      // the fact holds in `to` and below only when every way into `to` is this edge
      const preds = cfg.preds.get(to) ?? [];
      if (preds.length !== 1 || preds[0] !== b) continue;
      facts.push({ ...e, from: to });
    }
  }
  if (!facts.length) return false;
  const g = cfg!;
  let changed = false;
  for (const b of f.blocks) {
    if (!g.rpoIndex.has(b)) continue;
    for (const i of b.insts) {
      i.ops.forEach((o, k) => {
        for (const fct of facts) {
          if (o !== fct.x) continue;
          // a phi's operand is used at the end of its incoming block
          const at = i.op === 'phi' ? i.targets[k]! : b;
          if (!dominates(g, fct.from, at)) continue;
          i.ops[k] = fct.k;
          changed = true;
          break;
        }
      });
    }
  }
  return changed;
}
