// mem2reg: scalar allocas whose address is only loaded and stored become SSA values (phis placed on
// the iterated dominance frontier, renamed over the dominator tree).
import type { Block, Func, Inst, Type, Value } from '../ir';
import { T, cUndef } from '../ir';
import { buildCFG, succsOf } from '../analysis/cfg';
import { dominanceFrontiers } from '../analysis/dominance';
import { applyReplacements, removeInsts, resolve } from '../analysis/uses';
import { removeUnreachable } from './simplifycfg';

const promotableTy = (t: Type): boolean => t.k === 'int' || t.k === 'float' || t.k === 'double' || t.k === 'half' || t.k === 'bfloat' || t.k === 'ptr' || t.k === 'vector';

export function mem2reg(f: Func): boolean {
  removeUnreachable(f);
  const entry = f.blocks[0];
  if (!entry) return false;
  const cand = new Map<Inst, number>();
  const allocas: Inst[] = [];
  for (const i of entry.insts) {
    if (i.op !== 'alloca' || !i.srcTy || !promotableTy(i.srcTy) || i.ty !== T.ptr) continue;
    const c = i.ops[0];
    if (c && !(c.kind === 'int' && c.value === 1n)) continue;
    cand.set(i, -1);
  }
  if (cand.size === 0) return false;
  const bad = new Set<Inst>();
  const defBlocks = new Map<Inst, Set<Block>>();
  for (const b of f.blocks) for (const i of b.insts) {
    for (let k = 0; k < i.ops.length; k++) {
      const o = i.ops[k]!;
      if (o.kind !== 'inst' || !cand.has(o)) continue;
      // Volatile accesses to a non-escaping alloca are promoted too (as cicc does): no other thread or
      // device can observe a private variable whose address is never taken.
      const ok = (i.op === 'load' && k === 0 && !i.ordering && i.ty === o.srcTy)
        || (i.op === 'store' && k === 1 && !i.ordering && i.ops[0]!.ty === o.srcTy && i.ops[0] !== o);
      if (!ok) bad.add(o);
      else if (i.op === 'store') { let s = defBlocks.get(o); if (!s) defBlocks.set(o, s = new Set()); s.add(b); }
    }
  }
  for (const [a] of cand) if (!bad.has(a)) { cand.set(a, allocas.length); allocas.push(a); }
  if (allocas.length === 0) return false;

  const cfg = buildCFG(f);
  const df = dominanceFrontiers(cfg);
  // phi placement (iterated dominance frontier)
  const phiOf = new Map<Inst, number>();            // inserted phi -> alloca index
  const newPhis = new Map<Block, Inst[]>();
  allocas.forEach((a, ai) => {
    const has = new Set<Block>();
    const work = [...(defBlocks.get(a) ?? [])].filter(b => cfg.idom.has(b));
    const inWork = new Set(work);
    while (work.length) {
      const b = work.pop()!;
      for (const d of df.get(b) ?? []) {
        if (has.has(d)) continue;
        has.add(d);
        const phi: Inst = { kind: 'inst', op: 'phi', ty: a.srcTy!, ops: [], targets: [], parent: d, name: a.name ? a.name : '' };
        phiOf.set(phi, ai);
        let l = newPhis.get(d); if (!l) newPhis.set(d, l = []); l.push(phi);
        if (!inWork.has(d)) { inWork.add(d); work.push(d); }
      }
    }
  });
  for (const [b, l] of newPhis) b.insts.unshift(...l);

  // renaming over the dominator tree, in preorder (children pushed in order, so walked last first: the
  // order fixes the phis' operand order). One array of current values; each block logs the values it
  // overwrote and restores them when its subtree is done (a copy per block is quadratic on big kernels).
  const repl = new Map<Value, Value>();
  const dead = new Set<Inst>(allocas);
  const vals: Value[] = allocas.map(a => cUndef(a.srcTy!));
  const undo: (number | Value)[] = [];
  const set = (ai: number, v: Value): void => { undo.push(ai, vals[ai]!); vals[ai] = v; };
  // a block to enter, or (exit) the undo log's length to go back to
  const stack: (Block | number)[] = [cfg.rpo[0]!];
  while (stack.length) {
    const top = stack.pop()!;
    if (typeof top === 'number') {
      while (undo.length > top) { const v = undo.pop() as Value; vals[undo.pop() as number] = v; }
      continue;
    }
    const b = top;
    stack.push(undo.length);
    for (const i of b.insts) {
      // (only the phis placed here are in phiOf)
      if (i.op === 'phi') { const pa = phiOf.get(i); if (pa !== undefined) set(pa, i); continue; }
      if (i.op === 'load') {
        const a = i.ops[0]!;
        const ai = a.kind === 'inst' ? cand.get(a) : undefined;
        if (ai !== undefined && ai >= 0) { repl.set(i, resolve(repl, vals[ai]!)); dead.add(i); }
      } else if (i.op === 'store') {
        const a = i.ops[1]!;
        const ai = a.kind === 'inst' ? cand.get(a) : undefined;
        if (ai !== undefined && ai >= 0) { set(ai, resolve(repl, i.ops[0]!)); dead.add(i); }
      }
    }
    for (const s of succsOf(b)) for (const phi of newPhis.get(s) ?? []) {
      phi.ops.push(vals[phiOf.get(phi)!]!); phi.targets.push(b);
    }
    for (const c of cfg.children.get(b) ?? []) stack.push(c);
  }
  applyReplacements(f, repl);
  removeInsts(f, dead);
  return true;
}
