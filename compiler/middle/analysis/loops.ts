// Natural loops with one latch (the back edge's source), found from the dominator tree: the shape the
// front end emits for `for`/`while`/`do` loops and the one the loop passes transform.
import type { Block } from '../ir';
import type { CFG } from './cfg';
import { dominates } from './dominance';

export interface Loop { header: Block; blocks: Set<Block>; latch: Block }

/** Loops with exactly one back edge into their header, innermost (smallest) first, then in CFG order. */
/** The loops with no other loop's header inside them (the ones runtime unrolling and strength reduction work on). */
export function innermostLoops(cfg: CFG): Loop[] {
  const loops = loopsOf(cfg);
  const headers = new Set(loops.map(l => l.header));
  return loops.filter(loop => ![...loop.blocks].some(b => b !== loop.header && headers.has(b)));
}

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
