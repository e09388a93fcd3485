// The control-flow graph of a function: successors, predecessors, reverse post-order and the dominator
// tree (its pre/post numbering is what dominance.ts queries).
import type { Block, Func } from '../ir';
import { isTerminator } from '../ir';

export interface CFG {
  /** Predecessor lists with one entry per edge (a switch with two cases to B makes its block appear twice). */
  preds: Map<Block, Block[]>;
  /** Reachable blocks in reverse post-order, entry first. */
  rpo: Block[];
  rpoIndex: Map<Block, number>;
  /** Immediate dominator (the entry's is null); unreachable blocks are absent. */
  idom: Map<Block, Block | null>;
  children: Map<Block, Block[]>;
  /** Pre/post numbers on the dominator tree for O(1) dominance queries. */
  pre: Map<Block, number>;
  post: Map<Block, number>;
}

export function succsOf(b: Block): Block[] {
  const t = b.insts[b.insts.length - 1];
  if (!t || !isTerminator(t)) return [];
  return t.targets;
}

/** Predecessor lists (one entry per edge), as buildCFG() makes them, for passes that need nothing else. */
export function predsOf(f: Func): Map<Block, Block[]> {
  const preds = new Map<Block, Block[]>();
  for (const b of f.blocks) preds.set(b, []);
  for (const b of f.blocks) for (const s of succsOf(b)) { const l = preds.get(s); if (l) l.push(b); }
  return preds;
}

/** The reachable blocks of f in reverse post-order, entry first (buildCFG's rpo), for passes that need nothing else. */
export function reversePostOrder(f: Func): Block[] {
  return rpoOf(f, new Set(f.blocks));
}

/** Reverse post-order by an iterative DFS from the entry over blocks `inF` holds (f's own). */
function rpoOf(f: Func, inF: { has(b: Block): boolean }): Block[] {
  const rpo: Block[] = [];
  const entry = f.blocks[0];
  if (!entry) return rpo;
  const seen = new Set<Block>([entry]);
  const stackB: Block[] = [entry], stackK: number[] = [0];
  while (stackB.length) {
    const top = stackB.length - 1;
    const b = stackB[top]!;
    const ss = succsOf(b);
    const k = stackK[top]!;
    if (k < ss.length) {
      stackK[top] = k + 1;
      const s = ss[k]!;
      if (!seen.has(s) && inF.has(s)) { seen.add(s); stackB.push(s); stackK.push(0); }
    } else { rpo.push(b); stackB.pop(); stackK.pop(); }
  }
  return rpo.reverse();
}

// Every pass builds a CFG, most of them several times per function: this is written with parallel
// arrays rather than tuples and maps where it can, so that it allocates little.
export function buildCFG(f: Func): CFG {
  const preds = predsOf(f);
  const rpo = rpoOf(f, preds);
  const n = rpo.length;
  const rpoIndex = new Map<Block, number>();
  for (let i = 0; i < n; i++) rpoIndex.set(rpo[i]!, i);
  // the reachable predecessors of each block by rpo index, in edge order
  const predIdx: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const l: number[] = [];
    for (const p of preds.get(rpo[i]!)!) { const pi = rpoIndex.get(p); if (pi !== undefined) l.push(pi); }
    predIdx[i] = l;
  }
  // Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
  const idomIdx: number[] = new Array(n).fill(-1);
  if (n) idomIdx[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (a > b) a = idomIdx[a]!;
      while (b > a) b = idomIdx[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 1; i < n; i++) {
      let nd = -1;
      for (const pi of predIdx[i]!) {
        if (idomIdx[pi] === -1) continue;
        nd = nd === -1 ? pi : intersect(pi, nd);
      }
      if (nd !== idomIdx[i]) { idomIdx[i] = nd; changed = true; }
    }
  }
  const idom = new Map<Block, Block | null>();
  const children = new Map<Block, Block[]>();
  const kids: Block[][] = new Array(n);
  for (let i = 0; i < n; i++) { kids[i] = []; children.set(rpo[i]!, kids[i]!); idom.set(rpo[i]!, i === 0 ? null : rpo[idomIdx[i]!]!); }
  for (let i = 1; i < n; i++) kids[idomIdx[i]!]!.push(rpo[i]!);
  const pre = new Map<Block, number>(), post = new Map<Block, number>();
  if (n) {
    let c = 0;
    const stackB: Block[] = [rpo[0]!], stackK: number[] = [0];
    pre.set(rpo[0]!, c++);
    while (stackB.length) {
      const top = stackB.length - 1;
      const b = stackB[top]!;
      const ch = children.get(b)!;
      const k = stackK[top]!;
      if (k < ch.length) { stackK[top] = k + 1; const x = ch[k]!; pre.set(x, c++); stackB.push(x); stackK.push(0); }
      else { post.set(b, c++); stackB.pop(); stackK.pop(); }
    }
  }
  return { preds, rpo, rpoIndex, idom, children, pre, post };
}
