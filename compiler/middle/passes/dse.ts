// Dead store elimination: stores overwritten before any read, and stores to the function's own objects
// that nothing reads before it returns.
import type { Block, Func, Inst, Value } from '../ir';
import { sizeOf } from '../ir';
import { succsOf } from '../analysis/cfg';
import { removeInsts } from '../analysis/uses';
import { PURE_OPS, distinctObjects, isPureCallee, memLoc, objectOf } from '../analysis/memory';

/**
 * Block-local dead stores: a store that a later store to the same address overwrites, with nothing in
 * between that may read memory (a base class's vptr store in an inlined constructor chain).
 */
export function overwrittenStores(f: Func): boolean {
  const dead = new Set<Inst>();
  const quiet = quietToExit(f);
  for (const b of f.blocks) {
    // the last store to each place (base and constant offset) not read since
    const last = new Map<Value, Map<number, { st: Inst; size: number }>>();
    for (const i of b.insts) {
      if (i.op === 'store' && !i.volatile && !i.ordering) {
        const size = sizeOf(i.ops[0]!.ty);
        const loc = memLoc(i.ops[1]!, size);
        if (!loc) { last.clear(); continue; }
        let at = last.get(loc.base);
        if (!at) last.set(loc.base, at = new Map());
        const prev = at.get(loc.off);
        if (prev && prev.size <= size) dead.add(prev.st);
        at.set(loc.off, { st: i, size });
        continue;
      }
      if (PURE_OPS.has(i.op) || i.op === 'alloca' || i.op === 'phi' || i.op === 'br' || i.op === 'condbr' || i.op === 'switch' || i.op === 'ret') continue;
      if (i.op === 'load' && !i.volatile && !i.ordering) {
        // a load reads only what it may overlap: other offsets of its base and other objects stay unread
        const loc = memLoc(i.ops[0]!, sizeOf(i.ty));
        if (!loc) { last.clear(); continue; }
        for (const [base, at] of last) {
          if (base === loc.base) { for (const [off, e] of at) if (!(off + e.size <= loc.off || loc.off + loc.size <= off)) at.delete(off); }
          else if (!distinctObjects(base, loc.base)) last.delete(base);
        }
        continue;
      }
      last.clear();
    }
    // what is still unread in the function's own objects when nothing reads memory from here to the
    // return is never read: a lambda's by-value copy updated last thing (`[=] () mutable { ++c; }`)
    if (succsOf(b).every(x => quiet.has(x))) {
      for (const [base, at] of last) {
        const o = objectOf(base);
        if ((o && o.kind === 'inst' && o.op === 'alloca') || (base.kind === 'arg' && base.byval)) for (const e of at.values()) dead.add(e.st);
      }
    }
  }
  removeInsts(f, dead);
  return dead.size > 0;
}

/** Blocks from which every path returns without reading memory (loops excluded). */
function quietToExit(f: Func): Set<Block> {
  const reads = (i: Inst): boolean => i.op === 'load' || i.op === 'atomicrmw' || i.op === 'cmpxchg' || i.op === 'fence'
    || (i.op === 'call' && !isPureCallee(i.ops[0]!)) || i.op === 'unreachable';
  const quiet = new Set<Block>();
  for (let changed = true; changed;) {
    changed = false;
    for (const b of f.blocks) {
      if (quiet.has(b) || b.insts.some(reads)) continue;
      const t = b.insts[b.insts.length - 1];
      if (!t || (t.op !== 'ret' && succsOf(b).length === 0)) continue;
      if (succsOf(b).every(x => quiet.has(x))) { quiet.add(b); changed = true; }
    }
  }
  return quiet;
}
