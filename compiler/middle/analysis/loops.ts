// Natural loops with one latch (the back edge's source), found from the dominator tree: the shape the
// front end emits for `for`/`while`/`do` loops and the one the loop passes transform.
import type { Block } from '../ir';
import type { CFG } from './cfg';
import { dominates } from './dominance';

export interface Loop { header: Block; blocks: Set<Block>; latch: Block }

/** Loops with exactly one back edge into their header, innermost (smallest) first, then in CFG order. */
export function loopsOf(cfg: CFG): Loop[] {
  const out: Loop[] = [];
  for (const h of cfg.rpo) {
    const latches = (cfg.preds.get(h) ?? []).filter(p => cfg.idom.has(p) && dominates(cfg, h, p));
    if (latches.length !== 1) continue;
    const blocks = new Set<Block>([h]);
    const work = [latches[0]!];
    while (work.length) {
      const x = work.pop()!;
      if (blocks.has(x)) continue;
      blocks.add(x);
      for (const p of cfg.preds.get(x) ?? []) if (cfg.idom.has(p)) work.push(p);
    }
    out.push({ header: h, blocks, latch: latches[0]! });
  }
  return out.sort((a, b) => a.blocks.size - b.blocks.size || cfg.rpoIndex.get(a.header)! - cfg.rpoIndex.get(b.header)!);
}
