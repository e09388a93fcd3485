// Def-use helpers: rewriting operands through a replacement map, removing instructions and phi
// entries, counting uses.
import type { Block, Func, Inst, Value } from '../ir';

/** Follows a replacement map to its end. */
export function resolve(repl: Map<Value, Value>, v: Value): Value {
  let r = v;
  for (let n = 0; n < 1000; n++) { const x = repl.get(r); if (x === undefined) return r; r = x; }
  throw new Error('passes: replacement cycle');
}

/** Rewrites every operand in f through the replacement map. */
export function applyReplacements(f: Func, repl: Map<Value, Value>): void {
  if (repl.size === 0) return;
  for (const b of f.blocks) for (const i of b.insts) {
    for (let k = 0; k < i.ops.length; k++) {
      const o = i.ops[k]!;
      if (repl.has(o)) i.ops[k] = resolve(repl, o);
    }
  }
}

export function removeInsts(f: Func, dead: Set<Inst>): void {
  if (dead.size === 0) return;
  // only a block that holds a dead instruction is copied
  for (const b of f.blocks) if (b.insts.some(i => dead.has(i))) b.insts = b.insts.filter(i => !dead.has(i));
}

export const phisOf = (b: Block): Inst[] => { const r: Inst[] = []; for (const i of b.insts) { if (i.op !== 'phi') break; r.push(i); } return r; };

export function removePhiEntry(s: Block, pred: Block): void {
  for (const p of phisOf(s)) {
    const k = p.targets.indexOf(pred);
    if (k >= 0) { p.targets.splice(k, 1); p.ops.splice(k, 1); }
  }
}

/** How many operands name each instruction. */
export function useCounts(f: Func): Map<Value, number> {
  const n = new Map<Value, number>();
  for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) if (o.kind === 'inst') n.set(o, (n.get(o) ?? 0) + 1);
  return n;
}
