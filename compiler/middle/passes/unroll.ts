// Full unrolling of loops with a small constant trip count (cicc unrolls these at -O3 without a pragma).
// Handled shape: the header exits (a `for`/`while` loop as the front end emits it), other blocks may
// exit too (`return`/`break` in the body), one latch, a dedicated preheader. The trip count comes from simulating the exit test on constants:
// the header phis that feed it start from constants and step through pure integer operations. The body
// is then copied once per iteration, plus a last copy of the header that leaves the loop; every copy's
// exit test is replaced by the branch it is known to take.
import type { Block, Const, Func, Inst, Value } from '../ir';
import { T, cTrue, cFalse, cloneInst } from '../ir';
import type { CompileOptions } from '../../options';
import { buildCFG, succsOf, type CFG } from '../analysis/cfg';
import { loopsOf, type Loop } from '../analysis/loops';
import { loadFromConstant } from '../analysis/constants';
import { simplifyInst } from './instsimplify';
import { constGepOffset } from '../analysis/gep';

const MAX_TRIPS = 256;
/** With `#pragma unroll` (full), as cicc's large pragma threshold: trips and unrolled instructions. */
const PRAGMA_MAX_TRIPS = 1024;
const PRAGMA_SIZE_LIMIT = 16384;
/** Unrolled size limits (instructions): a loop indexing a local array gets more room (it then leaves local memory). */
const SIZE_LIMIT = 400;
const SIZE_LIMIT_LOCAL_ARRAY = 1600;

const isConst = (v: Value): v is Const => v.kind === 'int' || v.kind === 'fp' || v.kind === 'null' || v.kind === 'zero';

/**
 * A pointer the simulation tracks as a loop-invariant base plus a constant byte offset: a range-for over
 * an array steps `__begin` by constant geps until it equals `__end`, both derived from the array.
 */
interface SymPtr { readonly kind: 'symptr'; readonly base: Value; readonly off: bigint }
type SimVal = Const | SymPtr;

/** Strips constant-offset geps from a value defined outside the loop. */
function symbolic(v: Value): SymPtr {
  let off = 0n;
  while (v.kind === 'inst' && v.op === 'gep') {
    const o = constGepOffset(v);
    if (o === null) break;
    off += BigInt(o);
    v = v.ops[0]!;
  }
  return { kind: 'symptr', base: v, off };
}

/** Number of times the exit test in the header says "stay", or null when unknown or above MAX_TRIPS. */
function tripCount(loop: Loop, pre: Block, stay: number, opts: CompileOptions, maxTrips: number): number | null {
  const h = loop.header;
  const term = h.insts[h.insts.length - 1]!;
  const cond = term.ops[0]!;
  const outsideLoop = (v: Value): boolean => v.kind !== 'inst' || !loop.blocks.has(v.parent!);
  let env = new Map<Inst, SimVal>();
  for (const phi of h.insts) {
    if (phi.op !== 'phi') break;
    const k = phi.targets.indexOf(pre);
    if (k < 0) continue;
    const v = phi.ops[k]!;
    if (isConst(v)) env.set(phi, v);
    else if (v.ty.k === 'ptr' && outsideLoop(v)) env.set(phi, symbolic(v));
  }
  const evalIn = (v: Value, e: Map<Inst, SimVal>, memo: Map<Inst, SimVal | null>): SimVal | null => {
    // a global seen through an address-space cast (string literals before address spaces are inferred)
    if (v.kind === 'cexpr' && (v.op === 'addrspacecast' || v.op === 'bitcast') && v.base.kind === 'global') return symbolic(v.base);
    if (isConst(v)) return v;
    if (outsideLoop(v)) return v.ty.k === 'ptr' && (v.kind === 'inst' || v.kind === 'arg' || v.kind === 'global') ? symbolic(v) : null;
    if (v.kind !== 'inst') return null;
    if (v.op === 'phi' && v.parent === h) return e.get(v) ?? null;
    if (memo.has(v)) return memo.get(v)!;
    memo.set(v, null);
    if (v.op === 'load') {
      // a load from a constant global at a known offset (a loop over a string literal or a table)
      const a = v.volatile || v.ordering ? null : evalIn(v.ops[0]!, e, memo);
      const r = a && a.kind === 'symptr' && a.off >= 0n && a.off < 1n << 31n ? loadFromConstant(a.base, Number(a.off), v.ty) : null;
      memo.set(v, r);
      return r;
    }
    if (v.op === 'phi' || v.op === 'call') return null;
    const ops: SimVal[] = [];
    for (const o of v.ops) { const c = evalIn(o, e, memo); if (!c) return null; ops.push(c); }
    let r: SimVal | null = null;
    if (v.op === 'gep' && ops[0]!.kind === 'symptr') {
      const off = ops.slice(1).every(x => x.kind === 'int') ? constGepOffset({ ...v, ops: [v.ops[0]!, ...(ops.slice(1) as Const[])] }) : null;
      if (off !== null) r = { kind: 'symptr', base: ops[0]!.base, off: ops[0]!.off + BigInt(off) };
    } else if (v.op === 'icmp' && (v.pred === 'eq' || v.pred === 'ne') && ops[0]!.kind === 'symptr' && ops[1]!.kind === 'symptr') {
      if (ops[0]!.base === ops[1]!.base) r = (ops[0]!.off === ops[1]!.off) === (v.pred === 'eq') ? cTrue : cFalse;
    } else if (v.ty.k === 'int' && ops.every(x => x.kind !== 'symptr')) {
      const c = simplifyInst({ ...v, ops: ops as Const[] }, opts);
      r = c && isConst(c) ? c : null;
    }
    memo.set(v, r);
    return r;
  };
  for (let n = 0; n <= maxTrips; n++) {
    const c = evalIn(cond, env, new Map());
    if (!c || c.kind !== 'int') return null;
    const goes = (c.value & 1n) ? 0 : 1;   // condbr target index taken
    if (goes !== stay) return n;
    const memo = new Map<Inst, SimVal | null>();
    const next = new Map<Inst, SimVal>();
    for (const [phi] of env) {
      const k = phi.targets.indexOf(loop.latch);
      const v = k >= 0 ? evalIn(phi.ops[k]!, env, memo) : null;
      if (v) next.set(phi, v);
    }
    env = next;
  }
  return null;
}

function funcSize(f: Func): number {
  let n = 0;
  for (const b of f.blocks) n += b.insts.length;
  return n;
}

function loopSize(loop: Loop): number {
  let n = 0;
  for (const b of loop.blocks) n += b.insts.length;
  return n;
}

/**
 * What one unrolled copy of the loop costs, as LLVM's unroller estimates it: the induction variables and
 * everything computed from them and constants fold to constants in each copy, address arithmetic on them
 * folds into `[reg+imm]`, and the exit test and branches disappear; the rest stays.
 */
function unrolledCost(loop: Loop): number {
  const h = loop.header;
  const folds = new Set<Value>();
  for (const i of h.insts) if (i.op === 'phi' && i.ty.k === 'int') folds.add(i);
  const foldable = (v: Value): boolean => v.kind === 'int' || folds.has(v) || (v.kind === 'inst' && !loop.blocks.has(v.parent!));
  let changed = true;
  while (changed) {
    changed = false;
    for (const b of loop.blocks) for (const i of b.insts) {
      if (folds.has(i) || i.ty.k !== 'int') continue;
      const pure = i.op === 'add' || i.op === 'sub' || i.op === 'mul' || i.op === 'shl' || i.op === 'and' || i.op === 'or'
        || i.op === 'xor' || i.op === 'lshr' || i.op === 'ashr' || i.op === 'sext' || i.op === 'zext' || i.op === 'trunc' || i.op === 'icmp' || i.op === 'phi';
      if (pure && i.ops.every(foldable)) { folds.add(i); changed = true; }
    }
  }
  let n = 0;
  for (const b of loop.blocks) for (const i of b.insts) {
    if (folds.has(i) || i.op === 'phi' || i.op === 'br' || i.op === 'condbr') continue;
    // an address of a base the loop does not change plus a folded index: `[reg+imm]` in every copy
    if (i.op === 'gep' && i.ops.slice(1).every(foldable)) continue;
    n++;
  }
  return n;
}

/**
 * What one round of unrolling reads of the whole function, computed once per round (the function does not
 * change while loops are only examined): how deep each index's constant arithmetic is, and the blocks
 * holding a gep whose index changes at run time, by the local array it indexes.
 */
interface RoundFacts { heights: Map<Inst, number>; entry: Block; dynamicGeps: Map<Inst, Set<Block>> }

function roundFacts(f: Func): RoundFacts {
  const facts: RoundFacts = { heights: new Map(), entry: f.blocks[0]!, dynamicGeps: new Map() };
  for (const b of f.blocks) for (const i of b.insts) {
    if (i.op !== 'gep' || !dynamicIndex(facts, i)) continue;
    const r = rootOf(i.ops[0]!);
    if (!isLocalArray(facts, r)) continue;
    let s = facts.dynamicGeps.get(r);
    if (!s) { s = new Set(); facts.dynamicGeps.set(r, s); }
    s.add(b);
  }
  return facts;
}

const rootOf = (v: Value): Value => { while (v.kind === 'inst' && (v.op === 'gep' || v.op === 'addrspacecast' || v.op === 'bitcast')) v = v.ops[0]!; return v; };
const isLocalArray = (facts: RoundFacts, v: Value): v is Inst => v.kind === 'inst' && v.op === 'alloca' && v.parent === facts.entry;
const dynamicIndex = (facts: RoundFacts, i: Inst): boolean =>
  i.ops.slice(1).some(x => (x.kind === 'inst' && !foldsToConst(facts.heights, x, 3 * MAX_TRIPS)) || x.kind === 'arg');

/**
 * Does unrolling the loop take a per-thread array out of local memory? It indexes an alloca with a value
 * that changes per iteration, and every other access to that alloca uses constant indices (after
 * unrolling, all of them are constant and SROA can split the array).
 */
function indexesLocalArray(facts: RoundFacts, loop: Loop): boolean {
  const arrays = new Set<Inst>();
  for (const b of loop.blocks) for (const i of b.insts) {
    if (i.op !== 'gep' || !dynamicIndex(facts, i)) continue;
    const base = rootOf(i.ops[0]!);
    if (isLocalArray(facts, base)) arrays.add(base);
  }
  // a pointer stepping through the array (`for (p = a.begin(); p != a.end(); ++p)`, std::equal over two arrays)
  const latchIn = (phi: Inst): Value | undefined => phi.ops[phi.targets.indexOf(loop.latch)];
  for (const phi of loop.header.insts) {
    if (phi.op !== 'phi') break;
    if (phi.ty.k !== 'ptr') continue;
    const step = latchIn(phi);
    if (!step || step.kind !== 'inst' || step.op !== 'gep' || step.ops[0] !== phi) continue;
    for (let k = 0; k < phi.ops.length; k++) {
      if (loop.blocks.has(phi.targets[k]!)) continue;
      const base = rootOf(phi.ops[k]!);
      if (isLocalArray(facts, base)) arrays.add(base);
    }
  }
  for (const a of arrays) for (const b of facts.dynamicGeps.get(a) ?? []) if (!loop.blocks.has(b)) { arrays.delete(a); break; }
  return arrays.size > 0;
}

/** A use outside the loop of a value defined in it, and the dedicated exit block that dominates the use. */
interface ExitUse { user: Inst; k: number; exit: Block; preds: Block[] }

/**
 * The uses outside the loop of values defined in it, which must go through phis of exit blocks once early
 * exits are copied (each copy exits with its own values). A phi of an exit block on an edge from the loop
 * already does; another use is fine when a dedicated exit (all of its predecessors in the loop, each once)
 * dominates it: it gets a phi there. null when some use has no such exit.
 */
function exitUses(f: Func, cfg: CFG, loop: Loop): ExitUse[] | null {
  const out: ExitUse[] = [];
  const dedicated = new Map<Block, Block[] | null>();
  const exitAbove = (b: Block): { exit: Block; preds: Block[] } | null => {
    for (let x: Block | null | undefined = b; x && !loop.blocks.has(x); x = cfg.idom.get(x)) {
      let preds = dedicated.get(x);
      if (preds === undefined) {
        const ps = cfg.preds.get(x) ?? [];
        preds = ps.length > 0 && ps.every(p => loop.blocks.has(p)) && new Set(ps).size === ps.length ? ps : null;
        dedicated.set(x, preds);
      }
      if (preds) return { exit: x, preds };
    }
    return null;
  };
  for (const b of f.blocks) {
    if (loop.blocks.has(b) || !cfg.idom.has(b)) continue;
    for (const i of b.insts) {
      for (let k = 0; k < i.ops.length; k++) {
        const o = i.ops[k]!;
        if (o.kind !== 'inst' || !loop.blocks.has(o.parent!)) continue;
        if (i.op === 'phi' && loop.blocks.has(i.targets[k]!)) continue;
        const e = exitAbove(i.op === 'phi' ? i.targets[k]! : b);
        if (!e) return null;
        out.push({ user: i, k, ...e });
      }
    }
  }
  return out;
}

/** Routes one exit use through a phi at the top of its dedicated exit (one per value and exit). */
function throughExitPhi(u: ExitUse): void {
  const v = u.user.ops[u.k]!;
  let phi = u.exit.insts.find(i => i.op === 'phi' && i.ops.every(o => o === v) && i.targets.length === u.preds.length);
  if (!phi) {
    phi = { kind: 'inst', op: 'phi', ty: v.ty, ops: u.preds.map(() => v), targets: u.preds.slice(), parent: u.exit, name: '' };
    u.exit.insts.unshift(phi);
  }
  u.user.ops[u.k] = phi;
}

const isShuffle = (c: Value): boolean => c.kind === 'asm' && /\bshfl\.sync\b/.test(c.text);

/**
 * Integer arithmetic on constants within `depth` operations (an index in an already unrolled copy, folded
 * only by the next cleanup). The height of each expression (0 for a constant, one more than its tallest
 * operand, Infinity for anything else) is kept for the round: shared subexpressions are measured once.
 */
export function foldsToConst(heights: Map<Inst, number>, v: Value, depth: number): boolean {
  if (v.kind === 'int') return true;
  if (v.kind !== 'inst') return false;
  return heightOf(heights, v) <= depth;
}

function heightOf(heights: Map<Inst, number>, root: Inst): number {
  const known = heights.get(root);
  if (known !== undefined) return known;
  // post-order without recursion: long chains of arithmetic must not exhaust the stack
  // (a cycle of arithmetic, possible only in unreachable code, never folds)
  const stack: Inst[] = [root];
  const open = new Set<Inst>();
  while (stack.length) {
    const i = stack[stack.length - 1]!;
    if (heights.has(i)) { stack.pop(); continue; }
    if (!FOLDABLE.has(i.op)) { heights.set(i, Infinity); stack.pop(); continue; }
    open.add(i);
    let h = 0, pending = false;
    for (const o of i.ops) {
      if (o.kind === 'int') continue;
      if (o.kind !== 'inst') { h = Infinity; continue; }
      const oh = heights.get(o);
      if (oh !== undefined) h = Math.max(h, oh);
      else if (open.has(o)) h = Infinity;
      else { stack.push(o); pending = true; }
    }
    if (pending) continue;
    heights.set(i, h + 1);
    open.delete(i);
    stack.pop();
  }
  return heights.get(root)!;
}
const FOLDABLE = new Set(['add', 'sub', 'mul', 'shl', 'and', 'or', 'xor', 'sext', 'zext', 'trunc']);

/** Unrolling stops when the function has grown past this many instructions (loops are unrolled innermost first). */
const FUNC_SIZE_LIMIT = 40000;

export function unrollLoops(f: Func, opts: CompileOptions): boolean {
  let changed = false;
  for (let round = 0; round < 1000; round++) {
    if (funcSize(f) > FUNC_SIZE_LIMIT) break;
    const cfg = buildCFG(f);
    let facts: RoundFacts | null = null;
    const roundOnce = (): RoundFacts => (facts ??= roundFacts(f));
    let did = false;
    for (const loop of loopsOf(cfg)) {
      if (tryUnroll(f, cfg, loop, opts, roundOnce)) { did = true; break; }
    }
    if (!did) break;
    changed = true;
  }
  return changed;
}

function tryUnroll(f: Func, cfg: CFG, loop: Loop, opts: CompileOptions, facts: () => RoundFacts): boolean {
  const h = loop.header;
  const term = h.insts[h.insts.length - 1]!;
  if (term.op !== 'condbr') return false;
  // #pragma unroll 1 keeps the loop (asked first: such a loop is met again in every round)
  if (term.unroll === 1) return false;
  const stay = loop.blocks.has(term.targets[0]!) ? 0 : 1;
  if (loop.blocks.has(term.targets[1 - stay]!) || !loop.blocks.has(term.targets[stay]!)) return false;
  const exit = term.targets[1 - stay]!;
  // Other exiting blocks (a `return` or `break` inside the body) keep their exits in every copy; values
  // that leave the loop must then do so through phis of the exit blocks, which get one entry per copy.
  const earlyExits = new Set<Block>();
  for (const b of loop.blocks) if (b !== h && succsOf(b).some(s => !loop.blocks.has(s))) earlyExits.add(b);
  const lcssa = earlyExits.size > 0 ? exitUses(f, cfg, loop) : [];
  if (lcssa === null) return false;
  const outside = (cfg.preds.get(h) ?? []).filter(p => !loop.blocks.has(p));
  if (outside.length !== 1) return false;
  const pre = outside[0]!;
  // the latch must end in an unconditional branch back to the header
  const lt = loop.latch.insts[loop.latch.insts.length - 1]!;
  if (lt.op !== 'br') return false;
  // Barriers and warp votes do not keep a loop rolled: full unrolling adds no control dependence, and cicc
  // unrolls a tree reduction's `stride >>= 1` loop around __syncthreads(). Inline asm with side effects
  // keeps the loop (as cicc leaves it); a shuffle loop with a constant trip count (a warp reduction over `off = 16, 8, ...`, written as
  // `shfl.sync` asm by the headers) is unrolled, as cicc does, with the conversions around the shuffle.
  // Otherwise inline asm without side effects (the fp16 conversions of cuda_fp16.hpp) is unrolled only
  // when that takes an array out of local memory: cicc counts asm as costly and keeps such loops otherwise.
  // asked only where the answer matters: it reads the whole function
  let freesMemo: boolean | undefined;
  const frees = (): boolean => (freesMemo ??= indexesLocalArray(facts(), loop));
  const shuffles = [...loop.blocks].some(b => b.insts.some(i => i.op === 'call' && i.ops[0]!.kind === 'asm' && isShuffle(i.ops[0])));
  // a loop with early exits grows more when copied (every copy keeps its exit): only to free an array
  if (earlyExits.size > 0 && !frees()) return false;
  for (const b of loop.blocks) for (const i of b.insts) {
    if (i.op !== 'call') continue;
    const c = i.ops[0]!;
    if (c.kind === 'asm' && !isShuffle(c) && (c.sideEffects || (!shuffles && !frees()))) return false;
  }
  // a full pragma (or a count covering every trip) raises the limits
  const pragma = term.unroll;
  const n = tripCount(loop, pre, stay, opts, pragma === undefined ? MAX_TRIPS : pragma === 0 ? PRAGMA_MAX_TRIPS : Math.min(pragma, PRAGMA_MAX_TRIPS));
  if (n === null) return false;
  // without a pragma, the cost of the copies as LLVM counts it (folded induction arithmetic is free), and
  // never more than eight times the instructions we would copy
  if (pragma !== undefined) {
    if (n * loopSize(loop) > PRAGMA_SIZE_LIMIT) return false;
  } else {
    const cost = n * unrolledCost(loop), size = n * loopSize(loop);
    const within = (limit: number): boolean => cost <= limit && size <= 8 * limit;
    if (!within(SIZE_LIMIT) && !(within(SIZE_LIMIT_LOCAL_ARRAY) && frees())) return false;
  }

  for (const u of lcssa) throughExitPhi(u);
  const body = f.blocks.filter(b => loop.blocks.has(b));
  const headerPhis = h.insts.filter(i => i.op === 'phi');
  let prevMap: Map<Value, Value> | null = null;
  const copies: Block[][] = [];
  const maps: Map<Value, Value>[] = [];
  for (let k = 0; k <= n; k++) {
    const last = k === n;
    const vmap = new Map<Value, Value>();
    const bmap = new Map<Block, Block>();
    for (const phi of headerPhis) {
      const from = k === 0 ? pre : loop.latch;
      const v = phi.ops[phi.targets.indexOf(from)]!;
      vmap.set(phi, k === 0 ? v : (prevMap!.get(v) ?? v));
    }
    const blocks = last ? [h] : body;
    for (const b of blocks) bmap.set(b, { name: `${b.name || 'bb'}.u${k}`, insts: [], parent: f });
    const clones: Inst[] = [];
    for (const b of blocks) {
      const nb = bmap.get(b)!;
      for (const i of b.insts) {
        if (b === h && i.op === 'phi') continue;
        const c: Inst = cloneInst(i, nb);
        vmap.set(i, c);
        nb.insts.push(c);
        clones.push(c);
      }
    }
    for (const c of clones) {
      c.ops = c.ops.map(o => vmap.get(o) ?? o);
      if (c.op === 'phi') c.targets = c.targets.map(t => bmap.get(t) ?? t);
    }
    // the header copy's exit test is known: stay (k < n) or leave (k = n)
    const hc = bmap.get(h)!;
    const ht = hc.insts[hc.insts.length - 1]!;
    ht.op = 'br'; ht.ops = [];
    ht.targets = [last ? exit : bmap.get(term.targets[stay]!)!];
    if (!last) for (const b of body) {
      if (b === h) continue;
      const t = bmap.get(b)!.insts[bmap.get(b)!.insts.length - 1]!;
      t.targets = t.targets.map(x => (x === h ? h /* patched below */ : bmap.get(x) ?? x));
    }
    copies.push(blocks.map(b => bmap.get(b)!));
    maps.push(vmap);
    prevMap = vmap;
  }
  // back edges of copy k go to the header copy of k + 1
  for (let k = 0; k < n; k++) {
    const latchCopy = copies[k]![body.indexOf(loop.latch)]!;
    const t = latchCopy.insts[latchCopy.insts.length - 1]!;
    t.targets = t.targets.map(x => (x === h ? copies[k + 1]![0]! : x));
  }
  // enter at copy 0
  const pt = pre.insts[pre.insts.length - 1]!;
  pt.targets = pt.targets.map(x => (x === h ? copies[0]![0]! : x));
  // the exit's phis and every use outside the loop take the last header copy's values
  const lastMap = maps[n]!;
  const lastHeader = copies[n]![0]!;
  for (const phi of exit.insts) {
    if (phi.op !== 'phi') break;
    phi.targets = phi.targets.map(t => (t === h ? lastHeader : t));
  }
  const exits = new Set<Block>();
  for (const b of earlyExits) for (const s of succsOf(b)) if (!loop.blocks.has(s)) exits.add(s);
  for (const x of exits) for (const phi of x.insts) {
    if (phi.op !== 'phi') break;
    const ops: Value[] = [], targets: Block[] = [];
    phi.ops.forEach((v, j) => {
      const t = phi.targets[j]!;
      if (!earlyExits.has(t)) { ops.push(v); targets.push(t); return; }
      for (let k = 0; k < n; k++) { ops.push(maps[k]!.get(v) ?? v); targets.push(copies[k]![body.indexOf(t)]!); }
    });
    phi.ops = ops; phi.targets = targets;
  }
  const removed = new Set(body);
  const inserted = copies.flat();
  const at = f.blocks.indexOf(h);
  f.blocks = [...f.blocks.slice(0, at).filter(b => !removed.has(b)), ...inserted, ...f.blocks.slice(at).filter(b => !removed.has(b))];
  const inCopies = new Set(inserted);
  for (const b of f.blocks) {
    if (inCopies.has(b)) continue;
    for (const i of b.insts) {
      for (let k = 0; k < i.ops.length; k++) { const o = i.ops[k]!; if (o.kind === 'inst' && removed.has(o.parent!)) i.ops[k] = lastMap.get(o) ?? o; }
    }
  }
  void T;
  return true;
}
