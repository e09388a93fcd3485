// Removal of globals no code refers to any more.
import type { Global, Module, Value } from '../ir';
import { AS } from '../ir';

/**
 * Globals no code refers to any more go: ODR constants (vtables whose every call was devirtualised) and shared
 * memory whose every use the optimiser removed (the temp storage of a CUB primitive that reduces with shuffles).
 * As cicc: it keeps unreferenced __device__ and __constant__ objects, even internal ones (cuda::std::ignore).
 */
export function removeDeadGlobals(m: Module): void {
  const dead = (g: Global): boolean => g.linkage === 'linkonce_odr' || (g.linkage === 'internal' && g.addrSpace === AS.shared);
  if (!m.globals.some(dead)) return;
  const used = new Set<Value>();
  const mark = (c: Value): void => {
    if (used.has(c)) return;
    used.add(c);
    if (c.kind === 'agg') c.elems.forEach(mark);
    else if (c.kind === 'cexpr') mark(c.base);
    else if (c.kind === 'global' && c.init) mark(c.init);
  };
  for (const g of m.globals) if (!dead(g) && g.init) mark(g.init);
  for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) mark(o);
  m.globals = m.globals.filter(g => !dead(g) || used.has(g));
}
