// Aggressive dead code elimination over values.
import type { Func, Inst } from '../ir';
import { hasSideEffects } from '../analysis/memory';

/** Aggressive DCE over values: everything not reachable from a side effect through operands dies (dead phi cycles too). */
export function dce(f: Func): boolean {
  const live = new Set<Inst>();
  const work: Inst[] = [];
  for (const b of f.blocks) for (const i of b.insts) if (hasSideEffects(i)) { live.add(i); work.push(i); }
  while (work.length) {
    const i = work.pop()!;
    for (const o of i.ops) if (o.kind === 'inst' && !live.has(o)) { live.add(o); work.push(o); }
  }
  let changed = false;
  for (const b of f.blocks) {
    const n = b.insts.length;
    b.insts = b.insts.filter(i => live.has(i));
    if (b.insts.length !== n) changed = true;
  }
  return changed;
}
