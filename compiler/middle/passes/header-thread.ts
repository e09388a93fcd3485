// A loop test `a && b` whose `b` cannot be evaluated early (`while (j >= 0 && v[j] > x)`: the load is
// guarded by the first test) leaves the header branching to `b`'s block or to a block that merges the two
// results in a phi and branches on it; the header's edge into that block carries the constant false.
// That edge is sent straight to where the merge block would branch on false (LLVM's simplifycfg threads a
// branch on a phi whose value is known in a predecessor): the header then leaves the loop itself and the
// loop can be rotated (rotate.ts runs this first).
import type { Block, Func, Inst } from '../ir';
import { buildCFG } from '../analysis/cfg';
import { loopsOf } from '../analysis/loops';
import { phisOf, removePhiEntry } from '../analysis/uses';

export function threadHeaderTests(f: Func): boolean {
  const loops = loopsOf(buildCFG(f));
  let changed = false;
  for (const loop of loops) {
    const h = loop.header, term = h.insts[h.insts.length - 1]!;
    if (term.op !== 'condbr' || !term.targets.every(t => loop.blocks.has(t)) || term.targets[0] === term.targets[1]) continue;
    for (let k = 0; k < 2; k++) if (thread(f, h, term, k)) { changed = true; break; }
  }
  return changed;
}

/** Threads the header's edge `k` when its target is a merge block branching on a phi that is constant on that edge. */
function thread(f: Func, h: Block, term: Inst, k: number): boolean {
  const m = term.targets[k]!, mt = m.insts[m.insts.length - 1]!;
  const phis = phisOf(m);
  if (mt.op !== 'condbr' || phis.length + 1 !== m.insts.length || !phis.includes(mt.ops[0] as Inst)) return false;
  const c = (mt.ops[0] as Inst).ops[(mt.ops[0] as Inst).targets.indexOf(h)];
  if (c?.kind !== 'int') return false;
  const to = mt.targets[c.value !== 0n ? 0 : 1]!;
  if (to === m || to === h || term.targets.includes(to)) return false;
  // the merge block's phis are read by its branch or by phis on its own out-edges only
  const own = new Set<Inst>(phis);
  for (const b of f.blocks) for (const i of b.insts) i.ops.forEach((o, j) => {
    if (o.kind !== 'inst' || !own.has(o) || i === mt) return;
    if (!(i.op === 'phi' && i.targets[j] === m)) own.clear();
  });
  if (own.size !== phis.length) return false;
  for (const p of phisOf(to)) {
    const v = p.ops[p.targets.indexOf(m)]!;
    const onH = v.kind === 'inst' && phis.includes(v) ? v.ops[v.targets.indexOf(h)]! : v;
    p.ops.push(onH);
    p.targets.push(h);
  }
  removePhiEntry(m, h);
  term.targets[k] = to;
  return true;
}
