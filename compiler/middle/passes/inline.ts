// The inliner (Phase I of the pipeline): decisions from callee summaries and a per-caller budget; functions
// left without callers removed.
import type { CompileOptions } from '../../options';
import type { Block, Func, Loc, Module, Type, Value, Inst } from '../ir';
import { T, cInt, cFalse, cUndef, funcTy, declareFunc, alignOf, sizeOf, cloneInst } from '../ir';
import { succsOf } from '../analysis/cfg';
import { applyReplacements, phisOf, resolve } from '../analysis/uses';

/**
 * Inline budgets (instructions). A callee is inlined when its summary allows it (defined, not
 * interposable, not recursive, small enough for the level) and the caller's own budget is not spent.
 * Decisions read only the callee's summary and the caller's running total, so one function's edit can
 * change another's result only through that summary (the per-function cache boundary, seed-optimizer §5).
 */
const CALLEE_LIMIT: Record<number, number> = { 1: 25, 2: 300, 3: 600 };
const CALLER_BUDGET: Record<number, number> = { 1: 200, 2: 3000, 3: 6000 };

export interface InlineSummary { size: number; recursive: boolean; inlinable: boolean }

export function inlineSummary(f: Func): InlineSummary {
  let size = 0;
  let recursive = false;
  for (const b of f.blocks) for (const i of b.insts) {
    if (i.op !== 'phi' && i.op !== 'alloca') size++;
    if (i.op === 'call' && i.ops[0] === f) recursive = true;
  }
  const inlinable = f.blocks.length > 0 && !f.isKernel && !f.fnTy.varargs && !f.attrs.noinline && f.linkage !== 'weak';
  return { size, recursive, inlinable };
}

function inlineCandidate(caller: Func, callee: Value, opts: CompileOptions, summaries: Map<Func, InlineSummary>, spent: number): callee is Func {
  if (callee.kind !== 'func' || callee === caller) return false;
  const s = summaries.get(callee);
  if (!s || !s.inlinable || s.recursive) return false;
  if (callee.attrs.alwaysinline) return true;
  const limit = CALLEE_LIMIT[opts.optLevel] ?? 0;
  return s.size <= limit && spent + s.size <= (CALLER_BUDGET[opts.optLevel] ?? 0);
}

/** Phase I: inlines by summaries (see above); drops functions left without callers. */
export function inlineCalls(m: Module, opts: CompileOptions): boolean {
  let changed = false;
  const summaries = new Map<Func, InlineSummary>();
  for (const f of m.funcs) summaries.set(f, inlineSummary(f));
  const spent = new Map<Func, number>();
  // where each caller's leading allocas end (only inlineCall changes an entry block here, and it only
  // adds allocas there): found once per caller, not by a scan of the entry block per inlined call
  const allocaEnd = new Map<Func, number>();
  for (let round = 0; round < 4; round++) {
    let c = false;
    for (const f of m.funcs) {
      // The calls' values, replaced in one sweep of f after its inlining: one sweep per call made this
      // quadratic in large kernels. What the inliner reads (a call's operands) is resolved on the way.
      const repl = new Map<Value, Value>();
      const blocks: Block[] = [];
      for (const b of f.blocks) {
        blocks.push(b);
        // the block is cut after each inlined call: the instructions after it go to a new block (after the
        // callee's), where the walk goes on; the callee's copied calls wait for the next round (this
        // bounds recursion). The pieces are built as the walk goes (cutting the rest off at each call
        // is quadratic in a large block with many calls).
        const insts = b.insts;
        let cur = b, from = 0;
        for (let k = 0; k < insts.length; k++) {
          const i = insts[k]!;
          if (i.op !== 'call') continue;
          if (repl.size) for (let o = 0; o < i.ops.length; o++) if (repl.has(i.ops[o]!)) i.ops[o] = resolve(repl, i.ops[o]!);
          if (!inlineCandidate(f, i.ops[0]!, opts, summaries, spent.get(f) ?? 0)) continue;
          const callee = i.ops[0] as Func;
          if (i.fnTy !== callee.fnTy) continue;
          spent.set(f, (spent.get(f) ?? 0) + summaries.get(callee)!.size);
          moveInto(cur, b, insts, from, k);
          const { placed, post } = inlineCall(m, f, cur, i, callee, repl, allocaEnd);
          blocks.push(...placed, post);
          cur = post;
          from = k + 1;
          c = true;
        }
        if (cur === b) continue;
        moveInto(cur, b, insts, from, insts.length);
        // the terminator now ends the last piece: its successors' phis name that piece
        for (const s of succsOf(cur)) for (const phi of phisOf(s)) phi.targets = phi.targets.map(x => (x === b ? cur : x));
      }
      f.blocks = blocks;
      applyReplacements(f, repl);
    }
    if (!c) break;
    changed = true;
    // callers changed: later rounds see their new summaries (their own callers inline the grown body)
    for (const f of m.funcs) summaries.set(f, inlineSummary(f));
  }
  removeDeadInternalFuncs(m, opts);
  return changed;
}

/**
 * -lineinfo: the position of callee code inlined at a call site. The code keeps its own position; the
 * outermost end of its chain of call sites (a position in the callee) gains the callee's name and the site.
 */
function inlinedLoc(l: Loc | undefined, callee: string, site: Loc | undefined, memo: Map<Loc, Loc>): Loc | undefined {
  if (!l || !site) return l;
  let r = memo.get(l);
  if (!r) { r = l.at ? { ...l, at: inlinedLoc(l.at, callee, site, memo) } : { ...l, fn: callee, at: site }; memo.set(l, r); }
  return r;
}

/** insts[from, to) of block b's original instructions, appended to the piece `cur` (b itself: its first piece). */
function moveInto(cur: Block, b: Block, insts: Inst[], from: number, to: number): void {
  if (cur === b) { b.insts = insts.slice(0, to); return; }
  for (let k = from; k < to; k++) { const i = insts[k]!; i.parent = cur; cur.insts.push(i); }
}

/**
 * Inlines `call`, which followed the last instruction of b (b's instructions after it go to `post`, which
 * the caller fills); its value's uses are left to `repl`. Returns the callee's copied blocks, to be placed
 * between b and post, and post.
 */
function inlineCall(m: Module, f: Func, b: Block, call: Inst, callee: Func, repl: Map<Value, Value>, allocaEnd: Map<Func, number>): { placed: Block[]; post: Block } {
  const locs = new Map<Loc, Loc>();
  const tag = callee.name.replace(/[^A-Za-z0-9_.]/g, '_');
  const post: Block = { name: `${b.name || 'bb'}.split`, insts: [], parent: f };
  // clone the callee
  const vmap = new Map<Value, Value>();
  const entry = f.blocks[0]!;
  const byvalCopies: Inst[] = [];
  callee.params.forEach((a, k) => {
    const v = call.ops[k + 1]!;
    if (!a.byval) { vmap.set(a, v); return; }
    // the callee owns a private copy of a by-value aggregate: make it explicit (SROA removes it again)
    const copy: Inst = { kind: 'inst', op: 'alloca', ty: T.ptr, ops: [cInt(T.i32, 1)], targets: [], parent: entry, name: `${a.name || 'byval'}.copy`, srcTy: a.byval, align: Math.max(a.align ?? 1, alignOf(a.byval)) };
    byvalCopies.push(copy);
    b.insts.push({ kind: 'inst', op: 'call', ty: T.void, ops: [declareFunc(m, 'llvm.memcpy.p0.p0.i64', MEMCPY_TY), copy, v, cInt(T.i64, sizeOf(a.byval)), cFalse], targets: [], parent: b, name: '', fnTy: MEMCPY_TY, loc: call.loc });
    vmap.set(a, copy);
  });
  const bmap = new Map<Block, Block>();
  for (const cb of callee.blocks) bmap.set(cb, { name: `${tag}.${cb.name || 'bb'}`, insts: [], parent: f });
  const hoisted: Inst[] = [...byvalCopies];
  const rets: [Value | null, Block][] = [];
  const clones: Inst[] = [];
  callee.blocks.forEach((cb, cbi) => {
    const nb = bmap.get(cb)!;
    for (const i of cb.insts) {
      const c = cloneInst(i, nb);
      for (let k = 0; k < c.targets.length; k++) c.targets[k] = bmap.get(c.targets[k]!)!;
      c.loc = inlinedLoc(i.loc, callee.name, call.loc, locs);
      vmap.set(i, c);
      if (i.op === 'alloca' && cbi === 0 && (i.ops.length === 0 || i.ops[0]!.kind === 'int')) { c.parent = entry; hoisted.push(c); clones.push(c); continue; }
      if (i.op === 'ret') {
        rets.push([i.ops.length ? i.ops[0]! : null, nb]);
        nb.insts.push({ kind: 'inst', op: 'br', ty: T.void, ops: [], targets: [post], parent: nb, name: '', loc: i.loc });
        continue;
      }
      nb.insts.push(c);
      clones.push(c);
    }
  });
  // (a clone's operands are its own copy)
  for (const c of clones) { const ops = c.ops; for (let k = 0; k < ops.length; k++) ops[k] = vmap.get(ops[k]!) ?? ops[k]!; }
  const retVals = rets.map(([v, rb]) => [v === null ? null : vmap.get(v) ?? v, rb] as const);
  b.insts.push({ kind: 'inst', op: 'br', ty: T.void, ops: [], targets: [bmap.get(callee.blocks[0]!)!], parent: b, name: '', loc: call.loc });
  // the call's value
  if (call.ty.k !== 'void') {
    let rv: Value;
    if (retVals.length === 1) rv = retVals[0]![0]!;
    else if (retVals.length === 0) rv = cUndef(call.ty);
    else {
      const phi: Inst = { kind: 'inst', op: 'phi', ty: call.ty, ops: retVals.map(r => r[0]!), targets: retVals.map(r => r[1]), parent: post, name: call.name };
      post.insts.push(phi);
      rv = phi;
    }
    repl.set(call, rv);
  }
  // allocas go to the top of the caller's entry block
  let ai = allocaEnd.get(f);
  if (ai === undefined) { ai = 0; while (ai < entry.insts.length && entry.insts[ai]!.op === 'alloca') ai++; }
  entry.insts.splice(ai, 0, ...hoisted);
  allocaEnd.set(f, ai + hoisted.length);
  return { placed: callee.blocks.map(cb => bmap.get(cb)!), post };
}

const MEMCPY_TY = funcTy(T.void, [T.ptr, T.ptr, T.i64, T.i1]) as Type & { k: 'func' };

/**
 * Without -rdc no other unit can call a device function, so any non-kernel one without callers goes.
 * "Without callers" counts references from global initialisers and from every function still kept (a
 * function that only another dead one named goes too; a cycle of functions naming each other stays):
 * each function's references are counted once, and a removal takes back what the removed body named.
 */
function removeDeadInternalFuncs(m: Module, opts: CompileOptions): void {
  const device = m.triple.startsWith('nvptx');
  const removable = (f: Func): boolean => f.blocks.length > 0 && !f.isKernel
    && (f.linkage === 'internal' || f.linkage === 'private' || (device && !opts.rdc && f.linkage !== 'weak'));
  const refs = new Map<Func, number>();
  const count = (c: Value, d: number, freed: Func[] | null): void => {
    if (c.kind === 'func') {
      const n = (refs.get(c) ?? 0) + d;
      refs.set(c, n);
      if (n === 0 && freed) freed.push(c);
    } else if (c.kind === 'agg') for (const e of c.elems) count(e, d, freed);
    else if (c.kind === 'cexpr') count(c.base, d, freed);
  };
  for (const g of m.globals) if (g.init) count(g.init, 1, null);
  for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) count(o, 1, null);
  const work = m.funcs.filter(f => removable(f) && !refs.get(f));
  const dead = new Set<Func>();
  while (work.length) {
    const f = work.pop()!;
    if (dead.has(f)) continue;
    dead.add(f);
    const freed: Func[] = [];
    for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) count(o, -1, freed);
    for (const g of freed) if (removable(g) && !dead.has(g)) work.push(g);
  }
  if (dead.size) m.funcs = m.funcs.filter(f => !dead.has(f));
}
