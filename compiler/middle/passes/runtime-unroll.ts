// Runtime unrolling (LLVM's loop-unroll with a run-time trip count, as cicc does it at -O3): an innermost
// bottom-tested loop (rotate.ts makes them) whose counter steps by one towards a loop-invariant bound is
// copied FACTOR times into a main loop that counts the remaining groups down and tests once per group;
// the trip count's remainder (and trip counts below FACTOR) runs in the original loop, placed after the
// main loop as cicc places its remainder loop. The shape, with tc = n - start (guarded: tc >= 1):
//
//   check:  xtra = tc & (F-1); if (tc - 1 <u F-1) goto rem.pre
//   main.pre: niter = tc - xtra
//   main:   body × F; niter -= F; if (niter != 0) goto main
//   main.exit: if (xtra == 0) goto exit
//   rem.pre: (phis: the start values, or the main loop's)  → the original loop, which ends by its own test
import type { Block, Func, Inst, Value, ICmpPred, Type } from '../ir';
import { T, cInt, cloneInst } from '../ir';
import { buildCFG, succsOf, type CFG } from '../analysis/cfg';
import { innermostLoops, type Loop } from '../analysis/loops';
import { phisOf } from '../analysis/uses';
import { mergeLoopBounds } from './bounds';

const FACTOR = 4;
/** Instructions one copy of the body may have (the main loop then has FACTOR times as many). */
const MAX_BODY = 60;

/** The counter, its bound and start, and how the loop is entered, when the loop has the handled shape. */
interface Counted {
  iv: Inst; start: Value; bound: Value; pre: Block; exit: Block; factor: number;
  /** Counting down (step -1); the bound is then reached too when the test is `>=`. */
  down: boolean; inclusive: boolean;
}

/** The tests a counter stepping by one may leave on: up to its bound, or down to it. */
const UP_PREDS = new Set<ICmpPred>(['slt', 'ult', 'ne']);
const DOWN_PREDS = new Set<ICmpPred>(['sgt', 'sge', 'ugt', 'ne']);

export function runtimeUnroll(f: Func): boolean {
  const cfg = buildCFG(f);
  let changed = false;
  // innermost only, as LLVM's runtime unrolling
  for (const loop of innermostLoops(cfg)) {
    const outside = (cfg.preds.get(loop.header) ?? []).filter(p => !loop.blocks.has(p));
    if (outside.length === 1 && mergeLoopBounds(loop, outside[0]!)) changed = true;
    const c = counted(f, cfg, loop);
    if (c && unroll(f, loop, c)) changed = true;
  }
  return changed;
}

const inLoop = (loop: Loop, v: Value): boolean => v.kind === 'inst' && loop.blocks.has(v.parent!);

/** The predicate with its operands swapped (a < b ⇔ b > a), and its negation. */
const SWAP: Record<string, ICmpPred> = { eq: 'eq', ne: 'ne', slt: 'sgt', sgt: 'slt', sle: 'sge', sge: 'sle', ult: 'ugt', ugt: 'ult', ule: 'uge', uge: 'ule' };
const NOT: Record<string, ICmpPred> = { eq: 'ne', ne: 'eq', slt: 'sge', sge: 'slt', sle: 'sgt', sgt: 'sle', ult: 'uge', uge: 'ult', ule: 'ugt', ugt: 'ule' };

/** `cond` as "pred(x, other)" when x is one of its operands, with the predicate for the `taken` edge. */
function relation(cond: Value, x: Value, taken: boolean): { pred: ICmpPred; other: Value } | null {
  if (cond.kind !== 'inst' || cond.op !== 'icmp') return null;
  let pred = cond.pred as ICmpPred;
  if (!taken) pred = NOT[pred]!;
  if (cond.ops[0] === x) return { pred, other: cond.ops[1]! };
  if (cond.ops[1] === x) return { pred: SWAP[pred]!, other: cond.ops[0]! };
  return null;
}

function counted(f: Func, cfg: CFG, loop: Loop): Counted | null {
  const h = loop.header, l = loop.latch;
  const term = l.insts[l.insts.length - 1]!;
  if (term.op !== 'condbr' || term.unroll === 1) return null;
  const factor = term.unroll !== undefined && term.unroll > 1 ? term.unroll : FACTOR;
  if (factor > 8 || (factor & (factor - 1)) !== 0) return null;
  const stayIdx = term.targets[0] === h ? 0 : term.targets[1] === h ? 1 : -1;
  if (stayIdx < 0 || term.targets[0] === term.targets[1]) return null;
  const exit = term.targets[1 - stayIdx]!;
  // the latch is the only way out
  for (const b of loop.blocks) if (b !== l && succsOf(b).some(s => !loop.blocks.has(s))) return null;
  const outside = (cfg.preds.get(h) ?? []).filter(p => !loop.blocks.has(p));
  if (outside.length !== 1) return null;
  const pre = outside[0]!;
  // the counter: next = iv + 1, compared with an invariant bound
  const cond = term.ops[0]!;
  if (cond.kind !== 'inst' || cond.op !== 'icmp') return null;
  for (const next of cond.ops) {
    if (next.kind !== 'inst' || next.op !== 'add' || next.parent === null || !loop.blocks.has(next.parent)) continue;
    const iv = next.ops[0]!, one = next.ops[1]!;
    if (iv.kind !== 'inst' || iv.op !== 'phi' || iv.parent !== h || one.kind !== 'int' || (one.value !== 1n && one.value !== -1n)) continue;
    if (iv.ops[iv.targets.indexOf(l)] !== next || iv.ty.k !== 'int') continue;
    const r = relation(cond, next, stayIdx === 0);
    // counting up to the bound, or down to it (`for (j = deg - 1; j >= 0; --j)`: the last iteration's j is the bound)
    const down = one.value === -1n;
    if (!r || inLoop(loop, r.other) || !(down ? DOWN_PREDS : UP_PREDS).has(r.pred)) continue;
    const start = iv.ops[iv.targets.indexOf(pre)]!;
    // entered only when the first test holds (the guard rotation made): tc = bound - start >= 1
    const pt = pre.insts[pre.insts.length - 1]!;
    if (pt.op !== 'condbr' || pt.targets[0] === pt.targets[1]) continue;
    const g = relation(pt.ops[0]!, start, pt.targets[0] === h);
    if (!g || g.other !== r.other || g.pred !== r.pred) continue;
    if (!bodyUnrollable(f, loop, exit)) return null;
    return { iv, start, bound: r.other, pre, exit, factor, down, inclusive: r.pred === 'sge' };
  }
  return null;
}

/** Small enough, nothing that must not be copied, and values leave only through the exit's phis. */
function bodyUnrollable(f: Func, loop: Loop, exit: Block): boolean {
  let n = 0;
  for (const b of loop.blocks) for (const i of b.insts) {
    if (i.op !== 'phi' && i.op !== 'br' && i.op !== 'condbr') n++;
    if (i.op === 'alloca') return false;
    if (i.op === 'call') {
      // A block barrier is copied as cicc copies it (every thread of the block runs the same trip count,
      // or the program's barriers were already wrong); other convergent operations (shuffles, votes)
      // and inline asm keep the loop as it is
      const c = i.ops[0]!;
      if (c.kind !== 'func') return false;
      if (/^llvm\.nvvm\.barrier/.test(c.name)) continue;
      if (c.attrs.convergent || /shfl|vote|syncwarp|match|activemask/.test(c.name)) return false;
    }
  }
  if (n > MAX_BODY) return false;
  for (const b of f.blocks) {
    if (loop.blocks.has(b)) continue;
    for (const i of b.insts) for (let k = 0; k < i.ops.length; k++) {
      if (!inLoop(loop, i.ops[k]!)) continue;
      if (b !== exit || i.op !== 'phi' || i.targets[k] !== loop.latch) return false;
    }
  }
  return true;
}

const block = (f: Func, name: string): Block => ({ name, insts: [], parent: f });
function inst(b: Block, op: Inst['op'], ty: Type, ops: Value[], extra: Partial<Inst> = {}): Inst {
  const i: Inst = { kind: 'inst', op, ty, ops, targets: [], parent: b, name: '', ...extra };
  b.insts.push(i);
  return i;
}

function unroll(f: Func, loop: Loop, c: Counted): boolean {
  const h = loop.header, l = loop.latch, F = c.factor;
  const ty = c.iv.ty;
  const phis = phisOf(h);
  const startOf = (p: Inst): Value => p.ops[p.targets.indexOf(c.pre)]!;
  const latchOf = (p: Inst): Value => p.ops[p.targets.indexOf(l)]!;
  const body = f.blocks.filter(b => loop.blocks.has(b));
  const base = h.name || 'loop';

  const check = block(f, `${base}.unroll.check`), mainPre = block(f, `${base}.unroll.pre`);
  const mainExit = block(f, `${base}.unroll.exit`), remPre = block(f, `${base}.rem.pre`);
  // the trip count: bound - start up, start - bound (+ 1 for >=) down
  const diff = c.down ? inst(check, 'sub', ty, [c.start, c.bound]) : inst(check, 'sub', ty, [c.bound, c.start]);
  const tc = c.inclusive ? inst(check, 'add', ty, [diff, cInt(ty, 1)]) : diff;
  const xtra = inst(check, 'and', ty, [tc, cInt(ty, F - 1)]);
  const tm1 = inst(check, 'add', ty, [tc, cInt(ty, -1)]);
  const small = inst(check, 'icmp', T.i1, [tm1, cInt(ty, F - 1)], { pred: 'ult' });
  inst(check, 'condbr', T.void, [small], { targets: [remPre, mainPre] });
  const niter0 = inst(mainPre, 'sub', ty, [tc, xtra]);

  // F copies of the body, chained; copy 0's header merges the entry and the last copy's back edge
  const copies: Block[][] = [];
  const maps: Map<Value, Value>[] = [];
  const firstPhis = new Map<Inst, Inst>();
  let niter: Inst | null = null;
  for (let k = 0; k < F; k++) {
    const vmap = new Map<Value, Value>();
    const bmap = new Map<Block, Block>();
    for (const b of body) bmap.set(b, block(f, `${b.name || 'bb'}.ru${k}`));
    for (const p of phis) {
      if (k > 0) { const v = latchOf(p); vmap.set(p, maps[k - 1]!.get(v) ?? v); continue; }
      const np: Inst = { kind: 'inst', op: 'phi', ty: p.ty, ops: [startOf(p)], targets: [mainPre], parent: bmap.get(h)!, name: '' };
      bmap.get(h)!.insts.push(np);
      vmap.set(p, np);
      firstPhis.set(p, np);
    }
    if (k === 0) niter = inst(bmap.get(h)!, 'phi', ty, [niter0], { targets: [mainPre] });
    const clones: Inst[] = [];
    for (const b of body) {
      const nb = bmap.get(b)!;
      for (const i of b.insts) {
        if (b === h && i.op === 'phi') continue;
        const cl: Inst = { ...cloneInst(i, nb), name: '' };
        vmap.set(i, cl);
        nb.insts.push(cl);
        clones.push(cl);
      }
    }
    for (const cl of clones) {
      cl.ops = cl.ops.map(o => vmap.get(o) ?? o);
      cl.targets = cl.targets.map(t => bmap.get(t) ?? t);
    }
    copies.push(body.map(b => bmap.get(b)!));
    maps.push(vmap);
  }
  const hi = body.indexOf(h);
  inst(mainPre, 'br', T.void, [], { targets: [copies[0]![hi]!] });
  // latches: copies 0..F-2 go on to the next copy; the last counts the groups down
  for (let k = 0; k < F; k++) {
    const lc = copies[k]![body.indexOf(l)]!;
    const t = lc.insts.pop()!;
    delete t.unroll;
    if (k < F - 1) { inst(lc, 'br', t.ty, [], { targets: [copies[k + 1]![hi]!] }); continue; }
    const next = inst(lc, 'add', ty, [niter!, cInt(ty, -F)]);
    const more = inst(lc, 'icmp', T.i1, [next, cInt(ty, 0)], { pred: 'ne' });
    inst(lc, 'condbr', t.ty, [more], { targets: [copies[0]![hi]!, mainExit] });
    niter!.ops.push(next); niter!.targets.push(lc);
  }
  const last = maps[F - 1]!, lastLatch = copies[F - 1]![body.indexOf(l)]!;
  const fromLast = (v: Value): Value => last.get(v) ?? v;
  for (const [p, np] of firstPhis) { np.ops.push(fromLast(latchOf(p))); np.targets.push(lastLatch); }
  const done = inst(mainExit, 'icmp', T.i1, [xtra, cInt(ty, 0)], { pred: 'eq' });
  inst(mainExit, 'condbr', T.void, [done], { targets: [c.exit, remPre] });
  // the remainder loop starts from the start values or from where the main loop stopped
  for (const p of phis) {
    const rp = inst(remPre, 'phi', p.ty, [startOf(p), fromLast(latchOf(p))], { targets: [check, mainExit] });
    const k = p.targets.indexOf(c.pre);
    p.ops[k] = rp; p.targets[k] = remPre;
  }
  inst(remPre, 'br', T.void, [], { targets: [h] });
  for (const p of phisOf(c.exit)) {
    const k = p.targets.indexOf(l);
    if (k >= 0) { p.ops.push(fromLast(p.ops[k]!)); p.targets.push(mainExit); }
  }
  const pt = c.pre.insts[c.pre.insts.length - 1]!;
  pt.targets = pt.targets.map(t => (t === h ? check : t));
  const at = f.blocks.indexOf(h);
  f.blocks.splice(at, 0, check, mainPre, ...copies.flat(), mainExit, remPre);
  return true;
}
