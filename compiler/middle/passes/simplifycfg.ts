// SimplifyCFG: constant branches folded, unreachable blocks removed, straight-line blocks merged,
// forwarding blocks bypassed.
import type { Block, Func, Inst, Value } from '../ir';
import { T } from '../ir';
import { predsOf, succsOf } from '../analysis/cfg';
import { applyReplacements, phisOf, removePhiEntry } from '../analysis/uses';

export function simplifyCFG(f: Func): boolean {
  let changed = false;
  for (let round = 0; round < 100; round++) {
    let c = foldConstantTerminators(f);
    c = removeUnreachable(f) || c;
    c = mergeBlocks(f) || c;
    c = removeForwardingBlocks(f) || c;
    if (!c) break;
    changed = true;
  }
  return changed;
}

function foldConstantTerminators(f: Func): boolean {
  let changed = false;
  for (const b of f.blocks) {
    const t = b.insts[b.insts.length - 1];
    if (!t) continue;
    let keep = -1;
    if (t.op === 'condbr') {
      const c = t.ops[0]!;
      if (c.kind === 'int') keep = c.value & 1n ? 0 : 1;
      else if (t.targets[0] === t.targets[1]) keep = 0;
    } else if (t.op === 'switch') {
      const v = t.ops[0]!;
      if (t.ops.length === 1) keep = 0;
      else if (v.kind === 'int') {
        keep = 0;
        for (let k = 1; k < t.ops.length; k++) { const c = t.ops[k]!; if (c.kind === 'int' && c.value === v.value) { keep = k; break; } }
      } else if (t.targets.every(x => x === t.targets[0]) ) keep = 0;
    }
    if (keep < 0) continue;
    const target = t.targets[keep]!;
    t.targets.forEach((s, k) => { if (k !== keep) removePhiEntry(s, b); });
    const br: Inst = { kind: 'inst', op: 'br', ty: T.void, ops: [], targets: [target], parent: b, name: '', loc: t.loc };
    b.insts[b.insts.length - 1] = br;
    changed = true;
  }
  return changed;
}

export function removeUnreachable(f: Func): boolean {
  const entry = f.blocks[0];
  if (!entry) return false;
  const reach = new Set<Block>([entry]);
  const work = [entry];
  while (work.length) for (const s of succsOf(work.pop()!)) if (!reach.has(s)) { reach.add(s); work.push(s); }
  if (reach.size === f.blocks.length) return false;
  for (const b of f.blocks) {
    if (reach.has(b)) continue;
    for (const s of succsOf(b)) if (reach.has(s)) {
      for (const p of phisOf(s)) {
        for (let k = p.targets.length - 1; k >= 0; k--) if (p.targets[k] === b) { p.targets.splice(k, 1); p.ops.splice(k, 1); }
      }
    }
  }
  f.blocks = f.blocks.filter(b => reach.has(b));
  // A reachable value may still name a deleted instruction only through a phi of a deleted edge (removed above).
  return true;
}

function mergeBlocks(f: Func): boolean {
  let changed = false;
  const preds = predsOf(f);
  const repl = new Map<Value, Value>();
  // merged blocks leave the list in one filter at the end (a splice each is quadratic in a large kernel);
  // nothing the walk reads names a merged block any more (its successors' preds now name p)
  const merged = new Set<Block>();
  for (let bi = 1; bi < f.blocks.length; bi++) {
    const b = f.blocks[bi]!;
    const ps = preds.get(b)!;
    if (ps.length !== 1) continue;
    const p = ps[0]!;
    if (p === b) continue;
    const pt = p.insts[p.insts.length - 1];
    if (!pt || pt.op !== 'br') continue;
    // B's phis have exactly one entry: replace them by it.
    const phis = phisOf(b);
    for (const phi of phis) repl.set(phi, phi.ops[0]!);
    const rest = b.insts.slice(phis.length);
    p.insts.pop();
    for (const i of rest) { i.parent = p; p.insts.push(i); }
    for (const s of succsOf(b)) {
      for (const phi of phisOf(s)) phi.targets = phi.targets.map(x => (x === b ? p : x));
      preds.set(s, preds.get(s)!.map(x => (x === b ? p : x)));
    }
    merged.add(b);
    changed = true;
  }
  if (merged.size) f.blocks = f.blocks.filter(b => !merged.has(b));
  applyReplacements(f, repl);
  return changed;
}

function removeForwardingBlocks(f: Func): boolean {
  let changed = false;
  const preds = predsOf(f);        // kept up to date below
  const dropOne = (l: Block[], x: Block): void => { const k = l.indexOf(x); if (k >= 0) l.splice(k, 1); };
  // bypassed blocks leave the list in one filter at the end (no edge leads to them any more)
  const bypassed = new Set<Block>();
  for (let bi = 1; bi < f.blocks.length; bi++) {
    const b = f.blocks[bi]!;
    if (b.insts.length !== 1 || b.insts[0]!.op !== 'br') continue;
    const s = b.insts[0]!.targets[0]!;
    if (s === b) continue;
    const sPhis = phisOf(s);
    const sPreds = new Set(preds.get(s)!);
    let redirected = 0, skipped = 0;
    for (const p of new Set(preds.get(b)!)) {
      // would give s two edges from p with possibly different values
      if (sPhis.length && sPreds.has(p)) { skipped++; continue; }
      const t = p.insts[p.insts.length - 1]!;
      let n = 0;
      t.targets = t.targets.map(x => (x === b ? (n++, s) : x));
      for (const phi of sPhis) {
        const v = phi.ops[phi.targets.indexOf(b)]!;
        for (let k = 0; k < n; k++) { phi.ops.push(v); phi.targets.push(p); }
      }
      const pb = preds.get(b)!, ps = preds.get(s)!;
      for (let k = 0; k < n; k++) { dropOne(pb, p); ps.push(p); }
      redirected++;
    }
    if (redirected === 0) continue;
    changed = true;
    if (skipped === 0) {
      removePhiEntry(s, b);
      dropOne(preds.get(s)!, b);
      bypassed.add(b);
    }
  }
  if (bypassed.size) f.blocks = f.blocks.filter(b => !bypassed.has(b));
  return changed;
}
