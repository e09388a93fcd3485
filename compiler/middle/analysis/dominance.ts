// Dominance queries over a CFG: block dominance and dominance frontiers.
import type { Block } from '../ir';
import type { CFG } from './cfg';

/** Does block a dominate block b? (Everything dominates an unreachable block; LLVM's convention.) */
export function dominates(cfg: CFG, a: Block, b: Block): boolean {
  const pb = cfg.pre.get(b);
  if (pb === undefined) return true;
  const pa = cfg.pre.get(a);
  if (pa === undefined) return false;
  return pa <= pb && cfg.post.get(b)! <= cfg.post.get(a)!;
}

/** Each block's dominance frontier (where mem2reg places phis). */
export function dominanceFrontiers(cfg: CFG): Map<Block, Set<Block>> {
  const df = new Map<Block, Set<Block>>();
  for (const b of cfg.rpo) df.set(b, new Set());
  for (const b of cfg.rpo) {
    const ps = [...new Set(cfg.preds.get(b)!)].filter(p => cfg.idom.has(p));
    if (ps.length < 2) continue;
    const id = cfg.idom.get(b)!;
    for (const p of ps) {
      let r: Block | null = p;
      while (r && r !== id) { df.get(r)!.add(b); r = cfg.idom.get(r) ?? null; }
    }
  }
  return df;
}
