// A loop bounded twice, `for (i = s; i < A && i < B; i++)` (a block's share of an array that may end
// early), tested against one bound, `i < min(A, B)`, with the minimum computed before the loop: the loop
// then has the counted shape runtime unrolling needs (runtime-unroll.ts), and each iteration runs one
// compare instead of two and an `and`. cicc reaches the same shape through the trip count SCEV computes.
// The loop must be rotated (rotate.ts): its latch and its guard test the same pair of bounds.
import type { Block, Inst, Value, ICmpPred } from '../ir';
import { T } from '../ir';
import type { Loop } from '../analysis/loops';

const SWAP: Partial<Record<ICmpPred, ICmpPred>> = { slt: 'sgt', sgt: 'slt', ult: 'ugt', ugt: 'ult' };

/** `c` as `x < other` (slt or ult) for one of its operands x: [x, other, pred]. */
function below(c: Value): [Value, Value, ICmpPred][] {
  if (c.kind !== 'inst' || c.op !== 'icmp') return [];
  const p = c.pred as ICmpPred, out: [Value, Value, ICmpPred][] = [];
  if (p === 'slt' || p === 'ult') out.push([c.ops[0]!, c.ops[1]!, p]);
  const s = SWAP[p];
  if (s === 'slt' || s === 'ult') out.push([c.ops[1]!, c.ops[0]!, s]);
  return out;
}

/** The two bounds of `cond` = `x < A && x < B` (one predicate), with x given or found. */
function pair(cond: Value, x: Value | null): { x: Value; a: Value; b: Value; pred: ICmpPred } | null {
  if (cond.kind !== 'inst' || cond.op !== 'and' || cond.ty !== T.i1) return null;
  for (const [x1, a, p1] of below(cond.ops[0]!)) {
    if (x !== null && x1 !== x) continue;
    for (const [x2, b, p2] of below(cond.ops[1]!)) if (x2 === x1 && p2 === p1 && a !== b) return { x: x1, a, b, pred: p1 };
  }
  return null;
}

const inLoop = (loop: Loop, v: Value): boolean => v.kind === 'inst' && loop.blocks.has(v.parent!);

function insertBefore(b: Block, at: Inst, i: Inst): Inst {
  b.insts.splice(b.insts.indexOf(at), 0, i);
  return i;
}

/** Rewrites the latch's and the guard's tests of `loop` (entered from `pre`) to one bound; true when it did. */
export function mergeLoopBounds(loop: Loop, pre: Block): boolean {
  const h = loop.header, l = loop.latch;
  const term = l.insts[l.insts.length - 1]!;
  if (term.op !== 'condbr' || term.targets[0] !== h || term.targets[1] === h) return false;
  const at = pair(term.ops[0]!, null);
  if (!at || inLoop(loop, at.a) || inLoop(loop, at.b)) return false;
  // the guard: the same bounds tested on the counter's start, entering on true
  const pt = pre.insts[pre.insts.length - 1]!;
  if (pt.op !== 'condbr' || pt.targets[0] !== h || pt.targets[1] === h) return false;
  const g = pair(pt.ops[0]!, null);
  if (!g || g.pred !== at.pred || !((g.a === at.a && g.b === at.b) || (g.a === at.b && g.b === at.a))) return false;
  const mk = (parent: Block, op: Inst['op'], ops: Value[], extra: Partial<Inst> = {}): Inst =>
    ({ kind: 'inst', op, ty: op === 'icmp' ? T.i1 : at.a.ty, ops, targets: [], parent, name: '', ...extra });
  const lower = insertBefore(pre, pt, mk(pre, 'icmp', [at.a, at.b], { pred: at.pred }));
  const min = insertBefore(pre, pt, mk(pre, 'select', [lower, at.a, at.b]));
  pt.ops[0] = insertBefore(pre, pt, mk(pre, 'icmp', [g.x, min], { pred: at.pred }));
  term.ops[0] = insertBefore(l, term, mk(l, 'icmp', [at.x, min], { pred: at.pred }));
  return true;
}
