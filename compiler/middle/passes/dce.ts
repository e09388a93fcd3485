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
  // most runs find nothing dead: only a block with a dead instruction is copied
  let changed = false;
  for (const b of f.blocks) {
    const insts = b.insts;
    let k = 0;
    while (k < insts.length && live.has(insts[k]!)) k++;
    if (k === insts.length) continue;
    b.insts = insts.filter(i => live.has(i));
    changed = true;
  }
  return changed;
}
