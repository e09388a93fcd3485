// Function passes over the IR: mem2reg, constant folding + instsimplify, CSE, DCE, SimplifyCFG.
// Every transformation keeps the IR valid (see verify.ts) and the semantics exact (IEEE folding only,
// no folding of UB/poison-producing operations, nothing moved across memory side effects).
import type { CompileOptions } from '../options';
import type { Block, Const, Func, Global, Inst, Loc, Module, Type, Value } from './ir';
import { T, AS, cInt, cFP, cTrue, cFalse, cUndef, isTerminator, typeStr, funcTy, declareFunc, alignOf, sizeOf, fieldOffset } from './ir';
import { constStr } from './llprint';
import { sroa, speculatePtrLoads, constGepOffset } from './passes/sroa';
import { inferAddressSpaces } from './passes/addrspace';
import { licm } from './passes/licm';
import { unrollLoops } from './passes/unroll';
import { formSelects } from './passes/select';
import { promoteArgs } from './passes/argpromote';
import { reassembled } from './passes/reassemble';
import { maybeOnes } from './passes/knownbits';
import { separateConstOffsets } from './passes/constoffset';
import { propagateEqualities } from './passes/equality';

// ================================================================ CFG and dominators

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

// Every pass builds a CFG, most of them several times per function: this is written with parallel
// arrays rather than tuples and maps where it can, so that it allocates little.
export function buildCFG(f: Func): CFG {
  const preds = predsOf(f);
  // reverse post-order (iterative DFS)
  const rpo: Block[] = [];
  const entry = f.blocks[0];
  if (entry) {
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
        if (!seen.has(s) && preds.has(s)) { seen.add(s); stackB.push(s); stackK.push(0); }
      } else { rpo.push(b); stackB.pop(); stackK.pop(); }
    }
    rpo.reverse();
  }
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

/** Does block a dominate block b? (Everything dominates an unreachable block; LLVM's convention.) */
export function dominates(cfg: CFG, a: Block, b: Block): boolean {
  const pb = cfg.pre.get(b);
  if (pb === undefined) return true;
  const pa = cfg.pre.get(a);
  if (pa === undefined) return false;
  return pa <= pb && cfg.post.get(b)! <= cfg.post.get(a)!;
}

function dominanceFrontiers(cfg: CFG): Map<Block, Set<Block>> {
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

// ================================================================ use replacement

/** Follows a replacement map to its end. */
function resolve(repl: Map<Value, Value>, v: Value): Value {
  let r = v;
  for (let n = 0; n < 1000; n++) { const x = repl.get(r); if (x === undefined) return r; r = x; }
  throw new Error('passes: replacement cycle');
}

/** Rewrites every operand in f through the replacement map. */
export function applyReplacements(f: Func, repl: Map<Value, Value>): void {
  if (repl.size === 0) return;
  for (const b of f.blocks) for (const i of b.insts) {
    for (let k = 0; k < i.ops.length; k++) {
      const o = i.ops[k]!;
      if (repl.has(o)) i.ops[k] = resolve(repl, o);
    }
  }
}

export function replaceAllUses(f: Func, from: Value, to: Value): void {
  applyReplacements(f, new Map([[from, to]]));
}

function removeInsts(f: Func, dead: Set<Inst>): void {
  if (dead.size === 0) return;
  for (const b of f.blocks) b.insts = b.insts.filter(i => !dead.has(i));
}

const phisOf = (b: Block): Inst[] => { const r: Inst[] = []; for (const i of b.insts) { if (i.op !== 'phi') break; r.push(i); } return r; };

function removePhiEntry(s: Block, pred: Block): void {
  for (const p of phisOf(s)) {
    const k = p.targets.indexOf(pred);
    if (k >= 0) { p.targets.splice(k, 1); p.ops.splice(k, 1); }
  }
}

// ================================================================ the pipeline

/**
 * The pipeline. -O0: nothing (the backend copes with raw front-end IR). Otherwise:
 *  1. per function, a cheap cleanup (SROA, mem2reg, simplification) so that callee summaries are small
 *     and stable;
 *  2. Phase I (module): the inliner, whose decisions depend only on callee summaries and a per-caller
 *     budget (never on what happens in other callers), then removal of functions nobody can call;
 *  3. Phase II (per function): the full function pipeline. It reads nothing outside the function.
 */
export function optimize(m: Module, opts: CompileOptions): void {
  if (opts.optLevel === 0) return;
  const indirect = indirectCalls(m);
  for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  if (inlineCalls(m, opts)) for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  // virtual calls the cleanup bound to a known function (the object's constructor was inlined) get their
  // own chance to be inlined, as after LLVM's devirtualisation
  if (indirect.some(i => i.parent && i.ops[0]!.kind === 'func') && inlineCalls(m, opts)) for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  // on cleaned-up callees: calls that remain pass scalars, not the address of the caller's object
  if (promoteArgs(m, opts)) for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  inferReadonly(m);
  for (const f of m.funcs) if (f.blocks.length) optimizeFunction(f, opts);
  removeDeadGlobals(m);
}

function indirectCalls(m: Module): Inst[] {
  const out: Inst[] = [];
  for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts) if (i.op === 'call' && i.ops[0]!.kind === 'inst') out.push(i);
  return out;
}

/**
 * Globals no code refers to any more go: ODR constants (vtables whose every call was devirtualised) and shared
 * memory whose every use the optimiser removed (the temp storage of a CUB primitive that reduces with shuffles).
 * As cicc: it keeps unreferenced __device__ and __constant__ objects, even internal ones (cuda::std::ignore).
 */
function removeDeadGlobals(m: Module): void {
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

function cleanupFunction(f: Func, opts: CompileOptions): void {
  simplifyCFG(f);
  for (let it = 0; it < 4; it++) {
    dce(f); // a dead use (a leftover pointer phi or gep) must not keep an alloca in memory
    let changed = speculatePtrLoads(f);
    changed = sroa(f) || changed;
    changed = mem2reg(f) || changed;
    if (!changed) break;
  }
  scalarCleanup(f, opts);
}

function scalarCleanup(f: Func, opts: CompileOptions): void {
  for (let it = 0; it < 10; it++) {
    let changed = instCombine(f);
    changed = instSimplify(f, opts) || changed;
    changed = cse(f) || changed;
    changed = dce(f) || changed;
    changed = overwrittenStores(f) || changed;
    changed = simplifyCFG(f) || changed;
    if (opts.optLevel >= 2) changed = formSelects(f) || changed;
    if (!changed) break;
  }
}

/** Phase II for one function. */
export function optimizeFunction(f: Func, opts: CompileOptions): void {
  cleanupFunction(f, opts);
  // full unrolling exposes constant indices: scalar cleanup folds them, then SROA/mem2reg run again
  if (opts.optLevel >= 2 && unrollLoops(f, opts)) { scalarCleanup(f, opts); cleanupFunction(f, opts); }
  if (opts.optLevel >= 2) inferAddressSpaces(f);
  scalarCleanup(f, opts);
  if (opts.optLevel >= 2 && licm(f)) scalarCleanup(f, opts);
  if (opts.optLevel >= 2 && propagateEqualities(f)) scalarCleanup(f, opts);
  if (opts.optLevel >= 2 && expandRemainders(f)) { cse(f); dce(f); }
  if (opts.optLevel >= 2 && separateConstOffsets(f)) { cse(f); dce(f); }
}

/**
 * x % c with a constant c becomes x - (x / c) * c (x & (c - 1) for an unsigned power of two), as LLVM's
 * instruction selection does: the backend divides by a constant without a divide instruction, and a
 * quotient of the same operands computed nearby is shared (the `i / w`, `i % w` of 2-D indexing).
 */
function expandRemainders(f: Func): boolean {
  let changed = false;
  for (const b of f.blocks) {
    for (let k = 0; k < b.insts.length; k++) {
      const i = b.insts[k]!;
      if ((i.op !== 'urem' && i.op !== 'srem') || i.ty.k !== 'int' || (i.ty.bits !== 32 && i.ty.bits !== 64)) continue;
      const c = i.ops[1]!;
      if (!isIntConst(c)) continue;
      const bits = i.ty.bits;
      const u = U(c.value, bits), s = S(c.value, bits);
      if (u === 0n || s === 1n || s === -1n) continue;
      if (i.op === 'urem' && (u & (u - 1n)) === 0n) { i.op = 'and'; i.ops[1] = cInt(i.ty, u - 1n); changed = true; continue; }
      const mk = (op: Inst['op'], ops: Value[]): Inst => ({ kind: 'inst', op, ty: i.ty, ops, targets: [], parent: b, name: '', loc: i.loc });
      const q = mk(i.op === 'urem' ? 'udiv' : 'sdiv', [i.ops[0]!, c]);
      const m = mk('mul', [q, c]);
      b.insts.splice(k, 0, q, m);
      k += 2;
      i.op = 'sub'; i.ops = [i.ops[0]!, m];
      changed = true;
    }
  }
  return changed;
}

// ================================================================ mem2reg

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
    i.ops.forEach((o, k) => {
      if (o.kind !== 'inst' || !cand.has(o)) return;
      // Volatile accesses to a non-escaping alloca are promoted too (as cicc does): no other thread or
      // device can observe a private variable whose address is never taken.
      const ok = (i.op === 'load' && k === 0 && !i.ordering && i.ty === o.srcTy)
        || (i.op === 'store' && k === 1 && !i.ordering && i.ops[0]!.ty === o.srcTy && i.ops[0] !== o);
      if (!ok) bad.add(o);
      else if (i.op === 'store') { let s = defBlocks.get(o); if (!s) defBlocks.set(o, s = new Set()); s.add(b); }
    });
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

  // renaming over the dominator tree
  const repl = new Map<Value, Value>();
  const dead = new Set<Inst>(allocas);
  const init: Value[] = allocas.map(a => cUndef(a.srcTy!));
  const stack: [Block, Value[]][] = [[cfg.rpo[0]!, init]];
  while (stack.length) {
    const [b, inVals] = stack.pop()!;
    const vals = inVals.slice();
    for (const i of b.insts) {
      const pa = phiOf.get(i);
      if (pa !== undefined) { vals[pa] = i; continue; }
      if (i.op === 'load') {
        const a = i.ops[0]!;
        const ai = a.kind === 'inst' ? cand.get(a) : undefined;
        if (ai !== undefined && ai >= 0) { repl.set(i, resolve(repl, vals[ai]!)); dead.add(i); }
      } else if (i.op === 'store') {
        const a = i.ops[1]!;
        const ai = a.kind === 'inst' ? cand.get(a) : undefined;
        if (ai !== undefined && ai >= 0) { vals[ai] = resolve(repl, i.ops[0]!); dead.add(i); }
      }
    }
    for (const s of succsOf(b)) for (const phi of newPhis.get(s) ?? []) {
      phi.ops.push(vals[phiOf.get(phi)!]!); phi.targets.push(b);
    }
    for (const c of cfg.children.get(b) ?? []) stack.push([c, vals]);
  }
  applyReplacements(f, repl);
  removeInsts(f, dead);
  return true;
}

// ================================================================ constant folding / instsimplify

const U = (v: bigint, bits: number): bigint => BigInt.asUintN(bits, v);
const S = (v: bigint, bits: number): bigint => BigInt.asIntN(bits, v);
const bitsOf = (t: Type): number => (t as { bits: number }).bits;
const isIntConst = (v: Value): v is Const & { kind: 'int' } => v.kind === 'int';
const isFPConst = (v: Value): v is Const & { kind: 'fp' } => v.kind === 'fp';
const isLocal = (v: Value): boolean => v.kind === 'inst' || v.kind === 'arg';
const COMMUTATIVE = new Set(['add', 'mul', 'and', 'or', 'xor', 'fadd', 'fmul']);

function foldIntBin(op: string, a: bigint, b: bigint, bits: number): bigint | null {
  switch (op) {
    case 'add': return a + b;
    case 'sub': return a - b;
    case 'mul': return a * b;
    case 'and': return a & b;
    case 'or': return a | b;
    case 'xor': return a ^ b;
    case 'udiv': return U(b, bits) === 0n ? null : U(a, bits) / U(b, bits);
    case 'urem': return U(b, bits) === 0n ? null : U(a, bits) % U(b, bits);
    case 'sdiv': case 'srem': {
      const x = S(a, bits), y = S(b, bits);
      if (y === 0n) return null;
      if (y === -1n && x === -(1n << BigInt(bits - 1))) return null;   // overflow: UB
      return op === 'sdiv' ? x / y : x % y;                          // BigInt truncates toward zero
    }
    case 'shl': case 'lshr': case 'ashr': {
      const sh = U(b, bits);
      if (sh >= BigInt(bits)) return null;                            // poison
      if (op === 'shl') return a << sh;
      if (op === 'lshr') return U(a, bits) >> sh;
      return S(a, bits) >> sh;
    }
  }
  return null;
}

const F32_MIN_NORMAL = 2 ** -126;
const isDenormal32 = (x: number): boolean => x !== 0 && Math.abs(x) < F32_MIN_NORMAL;

function foldFPBin(op: string, ty: Type, a: number, b: number, opts: CompileOptions): number | null {
  if (ty.k !== 'float' && ty.k !== 'double') return null;
  const f32 = ty.k === 'float';
  if (f32 && opts.ftz && (isDenormal32(a) || isDenormal32(b))) return null;
  if (op === 'fdiv' && f32 && !opts.precDiv) return null;   // the target computes an approximation
  let r: number;
  switch (op) {
    case 'fadd': r = a + b; break;
    case 'fsub': r = a - b; break;
    case 'fmul': r = a * b; break;
    case 'fdiv': r = a / b; break;
    case 'frem': r = a % b; break;
    default: return null;
  }
  if (f32) { r = Math.fround(r); if (opts.ftz && isDenormal32(r)) return null; }
  return r;
}

function icmpInt(pred: string, a: bigint, b: bigint, bits: number): boolean {
  switch (pred) {
    case 'eq': return U(a, bits) === U(b, bits);
    case 'ne': return U(a, bits) !== U(b, bits);
    case 'ugt': return U(a, bits) > U(b, bits);
    case 'uge': return U(a, bits) >= U(b, bits);
    case 'ult': return U(a, bits) < U(b, bits);
    case 'ule': return U(a, bits) <= U(b, bits);
    case 'sgt': return S(a, bits) > S(b, bits);
    case 'sge': return S(a, bits) >= S(b, bits);
    case 'slt': return S(a, bits) < S(b, bits);
    case 'sle': return S(a, bits) <= S(b, bits);
  }
  throw new Error('bad icmp predicate ' + pred);
}

function fcmpFold(pred: string, a: number, b: number): boolean {
  const uno = Number.isNaN(a) || Number.isNaN(b);
  switch (pred) {
    case 'false': return false;
    case 'true': return true;
    case 'ord': return !uno;
    case 'uno': return uno;
    case 'oeq': return !uno && a === b;
    case 'ogt': return !uno && a > b;
    case 'oge': return !uno && a >= b;
    case 'olt': return !uno && a < b;
    case 'ole': return !uno && a <= b;
    case 'one': return !uno && a !== b;
    case 'ueq': return uno || a === b;
    case 'ugt': return uno || a > b;
    case 'uge': return uno || a >= b;
    case 'ult': return uno || a < b;
    case 'ule': return uno || a <= b;
    case 'une': return uno || a !== b;
  }
  throw new Error('bad fcmp predicate ' + pred);
}

const dv = new DataView(new ArrayBuffer(8));

function foldCast(i: Inst, x: Value, opts: CompileOptions): Value | null {
  const to = i.ty;
  if (x.kind === 'undef') {
    // as LLVM's instsimplify: the extended bits are known, so one choice (0) of the undef bits is a refinement
    if (i.op === 'zext' || i.op === 'sext') return cInt(to, 0);
    if (i.op === 'trunc' || i.op === 'ptrtoint') return cUndef(to);
    return null;
  }
  if (x.kind === 'poison') return null;
  if (i.op === 'bitcast' && x.ty === to) return x;
  if (isIntConst(x)) {
    const from = bitsOf(x.ty);
    switch (i.op) {
      case 'trunc': case 'sext': return cInt(to, S(x.value, from));
      case 'zext': return cInt(to, U(x.value, from));
      case 'sitofp': case 'uitofp': {
        const v = i.op === 'sitofp' ? S(x.value, from) : U(x.value, from);
        if (to.k === 'double') return cFP(to, Number(v));
        if (to.k === 'float' && (v < 0n ? -v : v) <= 1n << 53n) {
          const r = Math.fround(Number(v));
          return opts.ftz && isDenormal32(r) ? null : cFP(to, r);
        }
        return null;
      }
      case 'bitcast':
        if (to.k === 'float' && from === 32) { dv.setUint32(0, Number(U(x.value, 32))); return cFP(to, dv.getFloat32(0)); }
        if (to.k === 'double' && from === 64) { dv.setBigUint64(0, U(x.value, 64)); return cFP(to, dv.getFloat64(0)); }
        return null;
    }
    return null;
  }
  if (isFPConst(x) && (x.ty.k === 'float' || x.ty.k === 'double')) {
    const v = x.value;
    if (x.ty.k === 'float' && opts.ftz && isDenormal32(v)) return null;
    switch (i.op) {
      case 'fpext': return to.k === 'double' ? cFP(to, v) : null;
      case 'fptrunc': {
        if (to.k !== 'float') return null;
        const r = Math.fround(v);
        return opts.ftz && isDenormal32(r) ? null : cFP(to, r);
      }
      case 'fptosi': case 'fptoui': {
        if (!Number.isFinite(v) || to.k !== 'int') return null;
        const t = BigInt(Math.trunc(v));
        const bits = to.bits;
        const lo = i.op === 'fptosi' ? -(1n << BigInt(bits - 1)) : 0n;
        const hi = i.op === 'fptosi' ? (1n << BigInt(bits - 1)) : (1n << BigInt(bits));
        if (t < lo || t >= hi) return null;                         // poison
        return cInt(to, t);
      }
      case 'bitcast':
        // NaN payloads do not survive a JS number; fold only non-NaN values.
        if (Number.isNaN(v)) return null;
        if (x.ty.k === 'float' && to.k === 'int' && to.bits === 32) { dv.setFloat32(0, v); return cInt(to, BigInt(dv.getUint32(0))); }
        if (x.ty.k === 'double' && to.k === 'int' && to.bits === 64) { dv.setFloat64(0, v); return cInt(to, dv.getBigUint64(0)); }
        return null;
    }
    return null;
  }
  // cast chains
  if (x.kind === 'inst') {
    const y = x.ops[0];
    if (i.op === 'trunc' && (x.op === 'zext' || x.op === 'sext') && y && y.ty === to) return y;
    if (i.op === 'bitcast' && x.op === 'bitcast' && y && y.ty === to) return y;
    if (i.op === 'addrspacecast' && x.op === 'addrspacecast' && y && y.ty === to) return y;
    // (T*)(uintptr_t)p: the same pointer (64-bit integers only, so nothing was truncated)
    if (i.op === 'inttoptr' && x.op === 'ptrtoint' && y && y.ty === to && x.ty === T.i64) return y;
    // (uintptr_t)(T*)n: the same integer (a pointer-typed union leaf updated bit by bit)
    if (i.op === 'ptrtoint' && x.op === 'inttoptr' && y && y.ty === to && to === T.i64) return y;
  }
  if (i.op === 'ptrtoint' && (x.kind === 'null' || x.kind === 'zero')) return cInt(to, 0);
  return null;
}

/** Returns a value equivalent to i, or null. May swap commutative operands in place. */
/**
 * A phi whose web (the phis it reaches through phi operands, loops included) takes one value v from
 * outside, apart from undef, is v: SROA of a conditionally built temporary leaves such webs around a loop.
 * Without undef, v dominates the whole web (every way into it passes through v); with undef, v must be
 * available on every path: a constant, an argument, a global or an entry-block value.
 */
function simplifyPhiWeb(phi: Inst): Value | null {
  const seen = new Set<Inst>([phi]);
  const work = [phi];
  let v: Value | null = null;
  let undef = false;
  while (work.length > 0) {
    for (const x of work.pop()!.ops) {
      if (x.kind === 'undef' || x.kind === 'poison') { undef = true; continue; }
      if (x.kind === 'inst' && x.op === 'phi') {
        if (seen.has(x)) continue;
        if (seen.size >= 32) return null;
        seen.add(x); work.push(x);
        continue;
      }
      if (v === null) v = x;
      else if (v !== x) return null;
    }
  }
  if (v === null || v.ty !== phi.ty) return null;
  if (undef && v.kind === 'inst' && v.parent !== phi.parent?.parent?.blocks[0]) return null;
  return v;
}

export function simplifyInst(i: Inst, opts: CompileOptions): Value | null {
  const o = i.ops;
  switch (i.op) {
    case 'add': case 'sub': case 'mul': case 'udiv': case 'sdiv': case 'urem': case 'srem':
    case 'shl': case 'lshr': case 'ashr': case 'and': case 'or': case 'xor': {
      if (i.ty.k !== 'int') return null;
      const bits = i.ty.bits;
      if (COMMUTATIVE.has(i.op) && (isIntConst(o[0]!) && !isIntConst(o[1]!))) { const t = o[0]!; o[0] = o[1]!; o[1] = t; }
      const a = o[0]!, b = o[1]!;
      if (isIntConst(a) && isIntConst(b)) { const r = foldIntBin(i.op, a.value, b.value, bits); return r === null ? null : cInt(i.ty, r); }
      // an undef operand of a bit operation or a sum may be taken as 0 (the bits of an uninitialised union)
      if (a.kind === 'undef' || b.kind === 'undef') {
        const other = a.kind === 'undef' ? b : a;
        if (i.op === 'and') return cInt(i.ty, 0);
        if ((i.op === 'or' || i.op === 'xor' || i.op === 'add') && other.kind !== 'undef') return other;
      }
      const same = a === b && isLocal(a);
      const zero = cInt(i.ty, 0);
      if (isIntConst(b)) {
        const bv = U(b.value, bits), ones = U(-1n, bits);
        switch (i.op) {
          case 'add': case 'sub': case 'or': case 'xor': case 'shl': case 'lshr': case 'ashr': if (bv === 0n) return a; break;
          case 'mul': if (bv === 1n) return a; if (bv === 0n) return zero; break;
          case 'udiv': case 'sdiv': if (bv === 1n) return a; break;
          case 'urem': case 'srem': if (bv === 1n) return zero; break;
          case 'and': {
            if (bv === 0n) return zero; if (bv === ones) return a;
            // a mask that keeps every bit x can have, or none of them
            const may = maybeOnes(a);
            if ((may & ~bv & ones) === 0n) return a;
            if ((may & bv) === 0n) return zero;
            break;
          }
        }
        if (i.op === 'or' && bv === ones) return b;
      }
      if (isIntConst(a) && U(a.value, bits) === 0n && (i.op === 'shl' || i.op === 'lshr' || i.op === 'ashr')) return zero;
      // &p[k] - &p[j] with constant indices (sizeof-style pointer differences)
      if (i.op === 'sub' && a.kind === 'inst' && b.kind === 'inst' && a.op === 'ptrtoint' && b.op === 'ptrtoint') {
        const pa = baseAndOffset(a.ops[0]!), pb = baseAndOffset(b.ops[0]!);
        if (pa && pb && pa.base === pb.base) return cInt(i.ty, BigInt(pa.off - pb.off));
      }
      if (i.op === 'or') { const r = reassembled(i); if (r && r.shift === 0 && r.x.ty === i.ty) return r.x; }
      if (same) {
        if (i.op === 'sub' || i.op === 'xor') return zero;
        if (i.op === 'and' || i.op === 'or') return a;
      }
      // (z << C) >> C is z when z has no bit in the top C, also through an `or` whose other side has no
      // bit at or above C: the high word of a 64-bit value built from two halves
      if (i.op === 'lshr' && isIntConst(b) && b.value > 0n && b.value < BigInt(bits)) {
        const c = b.value, ones = U(-1n, bits);
        let r: Value = a;
        if (r.kind === 'inst' && r.op === 'or') {
          const [p, q] = r.ops as [Value, Value];
          r = (maybeOnes(p) >> c) === 0n ? q : (maybeOnes(q) >> c) === 0n ? p : r;
        }
        if (r.kind === 'inst' && r.op === 'shl' && isIntConst(r.ops[1]!) && r.ops[1].value === c) {
          const z = r.ops[0]!;
          if (((maybeOnes(z) << c) & ones) >> c === maybeOnes(z)) return z;
        }
      }
      // no bit can be set (the high word of a zero-extended value), or the other operand adds none
      if ((i.op === 'lshr' || i.op === 'shl' || i.op === 'and') && maybeOnes(i) === 0n) return zero;
      if ((i.op === 'or' || i.op === 'xor') && maybeOnes(b) === 0n) return a;
      return null;
    }
    case 'fadd': case 'fsub': case 'fmul': case 'fdiv': case 'frem': {
      if (COMMUTATIVE.has(i.op) && isFPConst(o[0]!) && !isFPConst(o[1]!)) { const t = o[0]!; o[0] = o[1]!; o[1] = t; }
      const a = o[0]!, b = o[1]!;
      if (isFPConst(a) && isFPConst(b)) { const r = foldFPBin(i.op, i.ty, a.value, b.value, opts); return r === null ? null : cFP(i.ty, r); }
      if (isFPConst(b) && (i.ty.k === 'double' || (i.ty.k === 'float' && !opts.ftz))) {
        const negZero = b.value === 0 && 1 / b.value < 0, posZero = b.value === 0 && 1 / b.value > 0;
        if (i.op === 'fadd' && negZero) return a;
        if (i.op === 'fsub' && posZero) return a;
        if ((i.op === 'fmul' || i.op === 'fdiv') && b.value === 1) return a;
      }
      return null;
    }
    case 'fneg': {
      const a = o[0]!;
      if (isFPConst(a) && (a.ty.k === 'float' || a.ty.k === 'double') && !Number.isNaN(a.value)) return cFP(i.ty, -a.value);
      if (a.kind === 'inst' && a.op === 'fneg') return a.ops[0]!;
      return null;
    }
    case 'icmp': {
      const a = o[0]!, b = o[1]!;
      const p = i.pred!;
      if (isIntConst(a) && isIntConst(b)) return icmpInt(p, a.value, b.value, bitsOf(a.ty)) ? cTrue : cFalse;
      if ((a.kind === 'null' || a.kind === 'zero') && (b.kind === 'null' || b.kind === 'zero') && a.ty.k === 'ptr') {
        return icmpInt(p, 0n, 0n, 64) ? cTrue : cFalse;
      }
      if (a === b && isLocal(a)) return ['eq', 'uge', 'ule', 'sge', 'sle'].includes(p) ? cTrue : cFalse;
      if (isIntConst(b) && U(b.value, bitsOf(b.ty)) === 0n) { if (p === 'ult') return cFalse; if (p === 'uge') return cTrue; }
      // the address of a local object (at a constant offset into it) is never null
      if ((p === 'eq' || p === 'ne') && (b.kind === 'null' || b.kind === 'zero') && a.ty.k === 'ptr' && isAllocaAddress(a)) return p === 'ne' ? cTrue : cFalse;
      // a flag widened and tested again (`(int)(x > y) != 0`, libdevice's pow): the flag itself
      if (isIntConst(b) && a.kind === 'inst' && (a.op === 'zext' || a.op === 'sext') && a.ops[0]!.ty === T.i1) {
        const v = U(b.value, bitsOf(b.ty));
        if ((p === 'ne' && v === 0n) || (p === 'eq' && (a.op === 'zext' ? v === 1n : v === U(-1n, bitsOf(b.ty))))) return a.ops[0]!;
      }
      return null;
    }
    case 'fcmp': {
      const a = o[0]!, b = o[1]!;
      if (i.pred === 'true') return cTrue;
      if (i.pred === 'false') return cFalse;
      if (isFPConst(a) && isFPConst(b) && (a.ty.k === 'float' || a.ty.k === 'double')) {
        if (a.ty.k === 'float' && opts.ftz && (isDenormal32(a.value) || isDenormal32(b.value))) return null;
        return fcmpFold(i.pred!, a.value, b.value) ? cTrue : cFalse;
      }
      return null;
    }
    case 'select': {
      const c = o[0]!;
      if (isIntConst(c)) return c.value & 1n ? o[1]! : o[2]!;
      if (o[1] === o[2]) return o[1]!;
      return null;
    }
    case 'phi': {
      let v: Value | null = null;
      let undef = false;
      let several = false;
      for (const x of o) {
        if (x === i) continue;
        if (x.kind === 'undef' || x.kind === 'poison') { undef = true; continue; }
        if (v === null) v = x;
        else if (v !== x) { several = true; break; }
      }
      if (several) return simplifyPhiWeb(i);
      if (v === null) return null;
      // phi(undef, x) is x where x is available on every path: a constant, an argument, an entry-block value
      if (undef && v.kind === 'inst' && v.parent !== i.parent?.parent?.blocks[0]) return null;
      return v;
    }
    case 'gep': {
      if (o.length > 1 && o.slice(1).every(x => isIntConst(x) && x.value === 0n) && o[0]!.ty === i.ty) return o[0]!;
      return null;
    }
    case 'load': {
      if (i.volatile || i.ordering) return null;
      if (i.ty.k === 'ptr' && o[0]!.kind !== 'global') { const r = loadConstPtrSlot(o[0]!, i.ty); if (r) return r; }
      const at = baseAndOffset(o[0]!);
      let p = at?.base;
      while (p && p.kind === 'cexpr' && (p.op === 'addrspacecast' || p.op === 'bitcast')) p = p.base as Value;
      if (!at || !p || p.kind !== 'global') return null;
      if (at.off === 0 && p.valueTy === i.ty && p.isConstant && !p.externallyInitialized && (p.init?.kind === 'int' || p.init?.kind === 'fp')
        && p.linkage !== 'weak' && p.linkage !== 'linkonce_odr' && p.linkage !== 'common') return p.init;
      return loadFromConstant(p, at.off, i.ty);
    }
    case 'extractvalue': {
      // look through the insertvalue chain that built the aggregate (a class returned by value, then
      // taken apart by SROA): inserts elsewhere do not matter, an insert of an enclosing part is entered
      let a = o[0]!;
      let idx = i.idx ?? [];
      for (let steps = 0; a.kind === 'inst' && a.op === 'insertvalue' && steps < 256; steps++) {
        const ins = a.idx ?? [];
        if (sameIdx(ins, idx)) return a.ops[1]!.ty === i.ty ? a.ops[1]! : null;
        const n = Math.min(ins.length, idx.length);
        let k = 0;
        while (k < n && ins[k] === idx[k]) k++;
        if (k < n) { a = a.ops[0]!; continue; }          // disjoint: the element comes from the aggregate below
        if (k === ins.length) { a = a.ops[1]!; idx = idx.slice(k); continue; }   // inside the inserted part
        return null;                                     // the insert is part of the element extracted
      }
      if (idx.length === 0) return a.ty === i.ty ? a : null;   // the whole inserted part
      if (a.kind === 'undef' || a.kind === 'poison') return cUndef(i.ty);
      const e = constElement(a, idx);
      return e && e.ty === i.ty ? e : null;
    }
    case 'call': return foldIntrinsic(i, opts);
    default:
      if (isCast(i.op)) return foldCast(i, o[0]!, opts);
      return null;
  }
}

/** A call of an exact LLVM intrinsic (fabs, copysign, rounding, min/max) on constants, folded. */
function foldIntrinsic(i: Inst, opts: CompileOptions): Value | null {
  const fn = i.ops[0]!;
  if (fn.kind !== 'func' || !fn.name.startsWith('llvm.')) return null;
  const args = i.ops.slice(1);
  // the halves of a double and a double from its halves (libdevice's bit manipulation of constants)
  if ((fn.name === 'llvm.nvvm.d2i.hi' || fn.name === 'llvm.nvvm.d2i.lo') && isFPConst(args[0]!)) {
    dv.setFloat64(0, args[0].value, true);
    return cInt(T.i32, dv.getUint32(fn.name.endsWith('hi') ? 4 : 0, true));
  }
  if (fn.name === 'llvm.nvvm.lohi.i2d' && isIntConst(args[0]!) && isIntConst(args[1]!)) {
    dv.setUint32(0, Number(U(args[0].value, 32)), true);
    dv.setUint32(4, Number(U(args[1].value, 32)), true);
    const d = dv.getFloat64(0, true);
    return Number.isNaN(d) ? null : cFP(T.f64, d);
  }
  // llvm.fabs.f32 and libdevice's llvm.nvvm.fabs.f / llvm.nvvm.fmin.ftz.f name the same operations
  const name = fn.name.replace(/\.(f32|f64|i16|i32|i64)$/, '').replace(/^llvm\.nvvm\.([\w.]+?)(\.ftz)?\.[fd]$/, (_m, op: string) =>
    `llvm.${op === 'fmin' ? 'minnum' : op === 'fmax' ? 'maxnum' : op}`);
  if (i.ty.k === 'float' || i.ty.k === 'double') {
    if (!args.every(isFPConst)) return null;
    const xs = args.map(a => (a as { value: number }).value);
    // under -ftz a float denormal operand is read as zero by the instruction: leave it to the instruction
    if (i.ty.k === 'float' && (opts.ftz || fn.name.includes('.ftz.')) && xs.some(isDenormal32)) return null;
    const x = xs[0]!;
    let r: number;
    switch (name) {
      case 'llvm.fabs': r = Math.abs(x); break;
      case 'llvm.copysign': {
        const y = xs[1]!;
        if (Number.isNaN(y)) return null;   // the sign of a NaN constant is not kept here
        r = y < 0 || Object.is(y, -0) ? -Math.abs(x) : Math.abs(x);
        break;
      }
      // one IEEE operation, correctly rounded (a float sum or product computed in double and rounded
      // once to float is the correctly rounded float result)
      case 'llvm.add.rn': r = x + xs[1]!; break;
      case 'llvm.mul.rn': r = x * xs[1]!; break;
      case 'llvm.floor': r = Math.floor(x); break;
      case 'llvm.ceil': r = Math.ceil(x); break;
      case 'llvm.trunc': r = Math.trunc(x); break;
      case 'llvm.minnum': case 'llvm.maxnum': {
        const y = xs[1]!;
        if (Number.isNaN(x)) r = y; else if (Number.isNaN(y)) r = x;
        else if (x === y) r = name === 'llvm.minnum' ? (Object.is(x, -0) || Object.is(y, -0) ? -0 : x) : (Object.is(x, 0) || Object.is(y, 0) ? 0 : x);
        else r = name === 'llvm.minnum' ? Math.min(x, y) : Math.max(x, y);
        break;
      }
      default: return null;
    }
    if (Number.isNaN(r)) return null;   // keep the NaN payload question out of folding
    const c = cFP(i.ty, r);
    if (i.ty.k === 'float' && (opts.ftz || fn.name.includes('.ftz.')) && isDenormal32(Math.fround(r))) return null;
    return c;
  }
  if (i.ty.k === 'int' && args.every(isIntConst)) {
    const bits = i.ty.bits;
    const [a, b] = args.map(v => (v as { value: bigint }).value);
    switch (name) {
      case 'llvm.smin': return cInt(i.ty, S(a!, bits) < S(b!, bits) ? a! : b!);
      case 'llvm.smax': return cInt(i.ty, S(a!, bits) > S(b!, bits) ? a! : b!);
      case 'llvm.umin': return cInt(i.ty, U(a!, bits) < U(b!, bits) ? a! : b!);
      case 'llvm.umax': return cInt(i.ty, U(a!, bits) > U(b!, bits) ? a! : b!);
      default: return null;
    }
  }
  return null;
}
/** The bytes of a constant initialiser (little-endian), or null when it holds addresses or undefined bytes. */
function constBytes(c: Const, out: Uint8Array, at: number): boolean {
  switch (c.kind) {
    case 'zero': case 'null': return true;   // out starts zeroed
    case 'bytes': out.set(c.bytes.subarray(0, Math.min(c.bytes.length, out.length - at)), at); return true;
    case 'int': {
      const n = sizeOf(c.ty);
      let v = BigInt.asUintN(n * 8, c.value);
      for (let k = 0; k < n && at + k < out.length; k++) { out[at + k] = Number(v & 0xffn); v >>= 8n; }
      return true;
    }
    case 'fp': {
      if (c.ty.k === 'float') { dv.setFloat32(0, c.value, true); out.set(new Uint8Array(dv.buffer, 0, 4).slice(), at); return true; }
      if (c.ty.k === 'double') { dv.setFloat64(0, c.value, true); out.set(new Uint8Array(dv.buffer, 0, 8).slice(), at); return true; }
      return false;
    }
    case 'agg': {
      const t = c.ty;
      return c.elems.every((e, k) => constBytes(e, out, at + (t.k === 'struct' ? fieldOffset(t, k) : k * sizeOf(e.ty))));
    }
    default: return false;
  }
}
/** A scalar read `off` bytes into a constant global (a string literal, a lookup table), or null. */
export function loadFromConstant(g: Value, off: number, ty: Type): Const | null {
  if (g.kind !== 'global' || !g.isConstant || !g.init || g.externallyInitialized || g.linkage === 'weak' || g.linkage === 'linkonce_odr' || g.linkage === 'common') return null;
  return loadConst(g.init, off, ty);
}
/** A scalar integer or float read from a constant initialiser at a byte offset, or null. */
function loadConst(init: Const, off: number, ty: Type): Const | null {
  const n = ty.k === 'int' ? ty.bits / 8 : ty.k === 'float' ? 4 : ty.k === 'double' ? 8 : 0;
  if (!Number.isInteger(n) || n === 0 || off < 0 || off + n > sizeOf(init.ty)) return null;
  const bytes = new Uint8Array(sizeOf(init.ty));
  if (!constBytes(init, bytes, 0)) return null;
  let v = 0n;
  for (let k = n - 1; k >= 0; k--) v = (v << 8n) | BigInt(bytes[off + k]!);
  if (ty.k === 'int') return cInt(ty, BigInt.asIntN(ty.bits, v));
  if (ty.k === 'float') { dv.setUint32(0, Number(v)); return cFP(ty, dv.getFloat32(0)); }
  dv.setBigUint64(0, v); return cFP(ty, dv.getFloat64(0));
}

/** The member of a constant aggregate at `idx` (extractvalue of zeroinitializer, undef, {..} or c"..."), or null. */
function constElement(c: Value, idx: readonly number[]): Const | null {
  let cur: Value = c;
  for (const k of idx) {
    const t = cur.ty;
    const elTy = t.k === 'struct' ? t.fields[k] : t.k === 'array' || t.k === 'vector' ? t.elem : undefined;
    if (!elTy) return null;
    switch (cur.kind) {
      case 'agg': { const e = cur.elems[k]; if (!e) return null; cur = e; break; }
      case 'bytes': if (elTy !== T.i8 || k >= cur.bytes.length) return null; cur = cInt(T.i8, cur.bytes[k]!); break;
      case 'undef': cur = cUndef(elTy); break;
      case 'zero':
        cur = elTy.k === 'int' ? cInt(elTy, 0) : elTy.k === 'float' || elTy.k === 'double' ? cFP(elTy, 0)
          : elTy.k === 'ptr' ? { kind: 'null', ty: elTy } : { kind: 'zero', ty: elTy };
        break;
      default: return null;
    }
  }
  return cur.kind === 'inst' ? null : cur as Const;
}

/**
 * A pointer word of a constant array of pointers (a vtable entry) at a constant offset from its generic
 * address: `load ptr, gep(addrspacecast @vt, off)`. ODR-linkage constants are foldable (every definition is
 * the same), as LLVM folds them.
 */
function loadConstPtrSlot(p: Value, ty: Type): Value | null {
  const bo = baseAndOffset(p);
  if (!bo || bo.off % 8 !== 0) return null;
  let g: Value = bo.base;
  while (g.kind === 'cexpr' && (g.op === 'addrspacecast' || g.op === 'bitcast')) g = g.base as Value;
  if (g.kind !== 'global' || !g.isConstant || !g.init || g.externallyInitialized || g.linkage === 'weak' || g.linkage === 'common') return null;
  const init = g.init;
  if (init.kind !== 'agg' || g.valueTy.k !== 'array' || g.valueTy.elem.k !== 'ptr') return null;
  const e = init.elems[bo.off / 8];
  if (!e) return null;
  if (e.kind === 'null') return ty.k === 'ptr' && (ty as { as: number }).as === 0 ? e : null;
  return e.ty === ty ? e : null;
}
/** An alloca, through constant geps and address-space casts (never null). */
function isAllocaAddress(p: Value): boolean {
  for (let k = 0; k < 16; k++) {
    if (p.kind !== 'inst') return false;
    if (p.op === 'alloca') return true;
    if (p.op === 'addrspacecast' || (p.op === 'gep' && constGepOffset(p) !== null && constGepOffset(p)! >= 0)) { p = p.ops[0]!; continue; }
    return false;
  }
  return false;
}
/** A pointer as (base, constant byte offset) through constant-index geps. */
function baseAndOffset(p: Value): { base: Value; off: number } | null {
  let off = 0;
  let cur = p;
  while (cur.kind === 'inst' && cur.op === 'gep') {
    const d = constGepOffset(cur);
    if (d === null) return null;
    off += d;
    cur = cur.ops[0]!;
  }
  return { base: cur, off };
}

function useCounts(f: Func): Map<Value, number> {
  const n = new Map<Value, number>();
  for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) if (o.kind === 'inst') n.set(o, (n.get(o) ?? 0) + 1);
  return n;
}

/** a + b cannot overflow as signed: a is known non-negative and small enough (b a constant, or small too). */
function noSignedWrap(a: Value, b: Value, bits: number): boolean {
  const smax = (1n << BigInt(bits - 1)) - 1n;
  const ma = maybeOnes(a);
  if (ma > smax) return false;
  if (isIntConst(b)) return ma + S(b.value, bits) <= smax;
  const mb = maybeOnes(b);
  return mb <= smax && ma + mb <= smax;
}

const ICMP_INVERSE: Record<string, NonNullable<Inst['pred']>> = {
  eq: 'ne', ne: 'eq', slt: 'sge', sge: 'slt', sle: 'sgt', sgt: 'sle', ult: 'uge', uge: 'ult', ule: 'ugt', ugt: 'ule',
};
const FCMP_INVERSE: Record<string, NonNullable<Inst['pred']>> = {
  oeq: 'une', une: 'oeq', one: 'ueq', ueq: 'one', olt: 'uge', uge: 'olt', ole: 'ugt', ugt: 'ole', ogt: 'ule', ule: 'ogt',
  oge: 'ult', ult: 'oge', ord: 'uno', uno: 'ord', true: 'false', false: 'true',
};

/** a + b cannot overflow as unsigned: the largest values a and b can have still sum below 2^bits. */
function noUnsignedWrap(a: Value, b: Value, bits: number): boolean {
  const umax = (1n << BigInt(bits)) - 1n;
  const mb = isIntConst(b) ? U(b.value, bits) : maybeOnes(b);
  return maybeOnes(a) + mb <= umax;
}

/**
 * In-place rewrites that need a new operand rather than an existing value: constant add/sub chains
 * (x + c1) + c2 → x + (c1 + c2), x - c → x + (-c). Wrap flags are dropped (the sum may wrap differently).
 */
export function instCombine(f: Func): boolean {
  let changed = false;
  let uses: Map<Value, number> | undefined;
  const extracts: { b: Block; i: Inst; x: Value; shift: number }[] = [];
  for (const b of f.blocks) for (const i of b.insts) {
    // a call through a constant function address (a devirtualised vtable load) is a direct call
    if (i.op === 'call' && i.ops[0]!.kind === 'cexpr' && i.ops[0]!.op === 'bitcast' && i.ops[0]!.base.kind === 'func' && i.ops[0]!.base.fnTy === i.fnTy) {
      i.ops[0] = i.ops[0]!.base; changed = true; continue;
    }
    // not(a < b) is a >= b (for floats the unordered opposite): the negation costs nothing
    if (i.op === 'xor' && i.ty === T.i1 && isIntConst(i.ops[1]!) && (i.ops[1].value & 1n) === 1n && i.ops[0]!.kind === 'inst'
      && (i.ops[0].op === 'icmp' || i.ops[0].op === 'fcmp')) {
      const c = i.ops[0];
      i.op = c.op; i.pred = (c.op === 'icmp' ? ICMP_INVERSE : FCMP_INVERSE)[c.pred!]; i.ops = [...c.ops]; i.fmf = c.fmf;
      changed = true; continue;
    }
    // `(int)flag == 0` is not(flag): the inverse compare when the flag is one
    if (i.op === 'icmp' && i.pred === 'eq' && isIntConst(i.ops[1]!) && i.ops[1].value === 0n && i.ops[0]!.kind === 'inst'
      && (i.ops[0].op === 'zext' || i.ops[0].op === 'sext') && i.ops[0].ops[0]!.ty === T.i1) {
      const c = i.ops[0].ops[0]!;
      if (c.kind === 'inst' && (c.op === 'icmp' || c.op === 'fcmp')) {
        i.op = c.op; i.pred = (c.op === 'icmp' ? ICMP_INVERSE : FCMP_INVERSE)[c.pred!]; i.ops = [...c.ops]; i.fmf = c.fmf;
      } else { i.op = 'xor'; i.pred = undefined; i.ops = [c, cTrue]; }
      changed = true; continue;
    }
    // a widened value compared for (in)equality with a constant it can hold: compare the narrow value
    if (i.op === 'icmp' && (i.pred === 'eq' || i.pred === 'ne') && isIntConst(i.ops[1]!) && i.ops[0]!.kind === 'inst' && i.ops[0].op === 'zext'
      && i.ops[0].ops[0]!.ty.k === 'int' && i.ops[0].ops[0]!.ty !== T.i1) {
      const x = i.ops[0].ops[0]!, nb = bitsOf(x.ty), c = U(i.ops[1].value, bitsOf(i.ops[1].ty));
      if (c < (1n << BigInt(nb))) { i.ops = [x, cInt(x.ty, c)]; changed = true; continue; }
    }
    // an extended choice between constants is a choice between the extended constants
    if ((i.op === 'zext' || i.op === 'sext') && i.ty.k === 'int' && i.ops[0]!.kind === 'inst' && i.ops[0].op === 'select'
      && isIntConst(i.ops[0].ops[1]!) && isIntConst(i.ops[0].ops[2]!)) {
      const sel = i.ops[0], fb = bitsOf(sel.ty);
      const zext = i.op === 'zext';
      const ext = (v: bigint): Value => cInt(i.ty, zext ? U(v, fb) : S(v, fb));
      const arms = [ext((sel.ops[1] as { value: bigint }).value), ext((sel.ops[2] as { value: bigint }).value)];
      i.op = 'select'; i.ops = [sel.ops[0]!, ...arms];
      changed = true; continue;
    }
    // a branch on not(c) is a branch on c the other way round
    if (i.op === 'condbr' && i.ops[0]!.kind === 'inst' && i.ops[0].op === 'xor' && i.ops[0].ty === T.i1 && isIntConst(i.ops[0].ops[1]!) && (i.ops[0].ops[1].value & 1n) === 1n) {
      i.ops[0] = i.ops[0].ops[0]!;
      i.targets = [i.targets[1]!, i.targets[0]!];
      changed = true; continue;
    }
    // a sum that cannot wrap (tid.x + 3: the special registers are small) is nsw, so that address
    // arithmetic can fold its constant into the load's offset
    if (i.op === 'add' && !i.nsw && i.ty.k === 'int' && (i.ty.bits === 32 || i.ty.bits === 64) && noSignedWrap(i.ops[0]!, i.ops[1]!, i.ty.bits)) {
      i.nsw = true; changed = true;
    }
    if (i.op === 'add' && !i.nuw && i.ty.k === 'int' && (i.ty.bits === 32 || i.ty.bits === 64) && noUnsignedWrap(i.ops[0]!, i.ops[1]!, i.ty.bits)) {
      i.nuw = true; changed = true;
    }
    // trunc (a | b) → trunc b when a has no bit below the truncation (the low half of a packed handle),
    // where that does not keep both the or and a second value alive: b a constant or an extension the
    // trunc undoes, or the or used once
    if (i.op === 'trunc' && i.ty.k === 'int' && i.ops[0]!.kind === 'inst' && (i.ops[0].op === 'or' || i.ops[0].op === 'xor')) {
      const x = i.ops[0], low = (1n << BigInt(i.ty.bits)) - 1n;
      const keep = (maybeOnes(x.ops[0]!) & low) === 0n ? x.ops[1]! : (maybeOnes(x.ops[1]!) & low) === 0n ? x.ops[0]! : null;
      const undone = keep?.kind === 'inst' && (keep.op === 'zext' || keep.op === 'sext') && keep.ops[0]!.ty === i.ty;
      if (keep && (isIntConst(keep) || undone || (uses ??= useCounts(f)).get(x) === 1)) { i.ops[0] = keep; changed = true; continue; }
    }
    // signed division of a value known non-negative by a positive constant is unsigned (cheaper: no
    // rounding correction, a power of two is a shift or a mask)
    if ((i.op === 'sdiv' || i.op === 'srem') && i.ty.k === 'int' && isIntConst(i.ops[1]!) && S(i.ops[1].value, i.ty.bits) > 0n
      && maybeOnes(i.ops[0]!) <= (1n << BigInt(i.ty.bits - 1)) - 1n) {
      i.op = i.op === 'sdiv' ? 'udiv' : 'urem'; changed = true; continue;
    }
    // (x >> C) * 2^C, (x / 2^C) * 2^C (unsigned) and (x >> C) << C clear the low C bits: x & -2^C
    // (cuda::round_down / round_up)
    if ((i.op === 'mul' || i.op === 'shl') && i.ty.k === 'int' && isIntConst(i.ops[1]!) && i.ops[0]!.kind === 'inst'
      && (i.ops[0].op === 'lshr' || i.ops[0].op === 'udiv') && isIntConst(i.ops[0].ops[1]!)) {
      const bits = i.ty.bits, d = U(i.ops[0].ops[1].value, bits), k = U(i.ops[1].value, bits);
      const c = i.ops[0].op === 'lshr' ? d : d > 1n && (d & (d - 1n)) === 0n ? BigInt(d.toString(2).length - 1) : 0n;
      if (c > 0n && c < BigInt(bits) && (i.op === 'mul' ? k === 1n << c : k === c)) {
        i.op = 'and'; i.ops = [i.ops[0].ops[0]!, cInt(i.ty, U(-(1n << c), bits))];
        i.nsw = undefined; i.nuw = undefined; i.exact = undefined;
        changed = true; continue;
      }
    }
    // constant masks: (x & c1) & c2 → x & (c1 & c2), (x | c1) | c2 → x | (c1 | c2)
    if ((i.op === 'and' || i.op === 'or') && i.ty.k === 'int' && isIntConst(i.ops[1]!) && i.ops[0]!.kind === 'inst') {
      const x = i.ops[0] as Inst, c2 = (i.ops[1] as Const & { kind: 'int' }).value;
      const c1 = x.ops[1] && isIntConst(x.ops[1]) ? x.ops[1].value : null;
      if (c1 !== null && x.op === i.op && x.ty === i.ty && x !== i) { i.ops = [x.ops[0]!, cInt(i.ty, i.op === 'and' ? c1 & c2 : c1 | c2)]; changed = true; continue; }
    }
    // bitfield reads after writes: bits a mask drops need not be computed
    if (i.op === 'and' && i.ty.k === 'int' && isIntConst(i.ops[1]!) && i.ops[0]!.kind === 'inst') {
      const bits = i.ty.bits, m = U((i.ops[1] as Const & { kind: 'int' }).value, bits);
      const x = i.ops[0] as Inst;
      // (a | b) & m → b & m when a has no bit in m
      if (x.op === 'or' && x !== i) {
        const keep = (maybeOnes(x.ops[0]!) & m) === 0n ? x.ops[1]! : (maybeOnes(x.ops[1]!) & m) === 0n ? x.ops[0]! : null;
        if (keep) { i.ops = [keep, i.ops[1]!]; changed = true; continue; }
      }
      if (x.op === 'lshr' && isIntConst(x.ops[1]!) && x !== i) {
        const sh = Number(U((x.ops[1] as Const & { kind: 'int' }).value, bits));
        const hi = m << BigInt(sh);
        let y = x.ops[0]!;
        // ((z & k) >> s) & m → (z >> s) & m when k keeps the bits m takes
        while (y.kind === 'inst' && y.op === 'and' && isIntConst(y.ops[1]!) && (hi & ~U(y.ops[1].value, bits)) === 0n) y = y.ops[0]!;
        // ((v << s) >> s) & m → v & m when m fits below the bits the shift dropped
        if (y.kind === 'inst' && y.op === 'shl' && isIntConst(y.ops[1]!) && U(y.ops[1].value, bits) === BigInt(sh) && hi >> BigInt(bits) === 0n) {
          i.ops = [y.ops[0]!, i.ops[1]!]; changed = true; continue;
        }
        // ((a | b) >> s) & m → (b >> s) & m when a has no bit in m << s
        if (y.kind === 'inst' && y.op === 'or') {
          const keep = (maybeOnes(y.ops[0]!) & hi) === 0n ? y.ops[1]! : (maybeOnes(y.ops[1]!) & hi) === 0n ? y.ops[0]! : null;
          if (keep) {
            const nx: Inst = { kind: 'inst', op: 'lshr', ty: x.ty, ops: [keep, x.ops[1]!], targets: [], parent: b, name: '', loc: x.loc };
            b.insts.splice(b.insts.indexOf(i), 0, nx);
            i.ops = [nx, i.ops[1]!];
            changed = true;
            continue;
          }
        }
      }
    }
    // an `or` that reassembles bits [shift, shift + N) of a wider value: trunc(x >> shift)
    if (i.op === 'or') {
      const r = reassembled(i);
      if (r && (r.shift > 0 || r.x.ty !== i.ty)) extracts.push({ b, i, ...r });
      continue;
    }
    // i1 selects from short-circuit && / || (after select formation): plain predicate logic
    if (i.op === 'select' && i.ty === T.i1) {
      const [c, x, y] = i.ops as [Value, Value, Value];
      if (isIntConst(x) && x.value === 1n && !isIntConst(y)) { i.op = 'or'; i.ops = [c, y]; changed = true; }
      else if (isIntConst(y) && y.value === 0n && !isIntConst(x)) { i.op = 'and'; i.ops = [c, x]; changed = true; }
      continue;
    }
    // extension chains: ext(ext x) is one extension (sext of a zext is a zext); trunc(ext x) to a
    // type between x and the extension is an extension, to a narrower one a trunc of x
    if ((i.op === 'zext' || i.op === 'sext' || i.op === 'trunc') && i.ops[0]!.kind === 'inst') {
      const x = i.ops[0] as Inst;
      if ((x.op === 'zext' || x.op === 'sext') && x.ops[0]!.ty.k === 'int' && i.ty.k === 'int') {
        const yb = (x.ops[0]!.ty as { bits: number }).bits, tb = i.ty.bits;
        // zext(sext x) keeps the copied sign bits: not a single extension
        if (i.op !== 'trunc') { if (!(i.op === 'zext' && x.op === 'sext')) { i.op = x.op; i.ops[0] = x.ops[0]!; changed = true; } }
        else if (tb > yb) { i.op = x.op; i.ops[0] = x.ops[0]!; changed = true; }
        else if (tb < yb) { i.ops[0] = x.ops[0]!; changed = true; }
      }
      continue;
    }
    if ((i.op !== 'add' && i.op !== 'sub') || i.ty.k !== 'int' || i.ty.bits === 1) continue;
    const bits = i.ty.bits;
    const [x, c] = i.ops as [Value, Value];
    if (!isIntConst(c)) continue;
    if (i.op === 'sub') { i.op = 'add'; i.ops[1] = cInt(i.ty, -c.value); i.nsw = i.nuw = undefined; changed = true; continue; }
    if (x.kind === 'inst' && (x.op === 'add' || x.op === 'sub') && x.ty === i.ty && isIntConst(x.ops[1]!) && x.ops[0] !== i) {
      const c1 = (x.ops[1] as Const & { kind: 'int' }).value;
      const sum = x.op === 'add' ? c1 + c.value : c.value - c1;
      i.ops = [x.ops[0]!, cInt(i.ty, BigInt.asIntN(bits === 1 ? 1 : bits, sum))];
      i.nsw = i.nuw = undefined;
      changed = true;
    }
  }
  for (const { b, i, x, shift } of extracts) {
    let y = x;
    if (shift > 0) {
      const sh: Inst = { kind: 'inst', op: 'lshr', ty: x.ty, ops: [x, cInt(x.ty, shift)], targets: [], parent: b, name: '', loc: i.loc };
      b.insts.splice(b.insts.indexOf(i), 0, sh);
      y = sh;
    }
    i.op = 'trunc'; i.ops = [y];
    changed = true;
  }
  return changed;
}

const sameIdx = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, k) => x === b[k]);
const CASTS = new Set(['trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);
const isCast = (op: string): boolean => CASTS.has(op);

export function instSimplify(f: Func, opts: CompileOptions): boolean {
  const repl = new Map<Value, Value>();
  const dead = new Set<Inst>();
  const cfg = buildCFG(f);
  for (const b of cfg.rpo) for (const i of b.insts) {
    for (let k = 0; k < i.ops.length; k++) { const x = i.ops[k]!; if (repl.has(x)) i.ops[k] = resolve(repl, x); }
    const r = simplifyInst(i, opts);
    if (r !== null && r !== i && r.ty === i.ty) { repl.set(i, r); dead.add(i); }
  }
  applyReplacements(f, repl);
  removeInsts(f, dead);
  return dead.size > 0;
}

// ================================================================ CSE

function isPureCallee(v: Value): boolean {
  if (v.kind !== 'func') return false;
  if (!v.attrs.readnone || v.attrs.convergent || v.fnTy.ret.k === 'void') return false;
  // Reads of clocks/timers are marked readnone by some front ends but are not repeatable.
  return !/clock|globaltimer/.test(v.name);
}

const PURE_OPS = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor',
  'fadd', 'fsub', 'fmul', 'fdiv', 'frem', 'fneg', 'icmp', 'fcmp', 'select', 'gep', 'extractvalue', 'insertvalue',
  'extractelement', 'insertelement', ...CASTS]);

function mayWriteMemory(i: Inst): boolean {
  switch (i.op) {
    case 'store': case 'atomicrmw': case 'cmpxchg': case 'fence': return true;
    case 'load': return !!i.volatile;
    case 'call': {
      const c = i.ops[0]!;
      return !isPureCallee(c) && !(c.kind === 'func' && c.attrs.readonly && !c.attrs.convergent);
    }
    default: return false;
  }
}

/**
 * Device functions that write no memory but their own locals (LLVM's FunctionAttrs `readonly`): a call to
 * one leaves what CSE knows of memory (a `sum() const` member called between reads of the object).
 * Optimistic over the call graph: a cycle of functions none of which writes stays readonly.
 */
export function inferReadonly(m: Module): void {
  const defs = m.funcs.filter(f => f.blocks.length);
  for (const f of defs) f.attrs.readonly = true;
  const writes = (f: Func): boolean => {
    for (const b of f.blocks) for (const i of b.insts) {
      switch (i.op) {
        case 'store': {
          if (i.volatile || i.ordering) return true;
          const o = objectOf(memLoc(i.ops[1]!, 1)!.base);
          if (!(o && o.kind === 'inst' && o.op === 'alloca')) return true;
          break;
        }
        case 'atomicrmw': case 'cmpxchg': case 'fence': return true;
        case 'load': if (i.volatile || i.ordering) return true; break;
        case 'call': {
          const c = i.ops[0]!;
          if (c.kind === 'asm') { if (c.sideEffects) return true; break; }
          if (c.kind !== 'func') return true;
          if (c.blocks.length ? !c.attrs.readonly : !c.attrs.readnone) return true;
          if (c.attrs.convergent) return true;
          break;
        }
      }
    }
    return false;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const f of defs) if (f.attrs.readonly && writes(f)) { f.attrs.readonly = false; changed = true; }
  }
}

interface MemEntry { v: Value; gen: number; loc?: { base: Value; off: number; size: number } | null }
/** The local or global object a base pointer is the address of (through address-space casts), or null. */
function objectOf(p: Value): Value | null {
  let v = p;
  while ((v.kind === 'inst' && (v.op === 'addrspacecast' || v.op === 'bitcast')) || (v.kind === 'cexpr' && (v.op === 'addrspacecast' || v.op === 'bitcast'))) v = v.kind === 'inst' ? v.ops[0]! : v.base;
  return (v.kind === 'inst' && v.op === 'alloca') || v.kind === 'global' ? v : null;
}
/** Two bases that are the addresses of two different objects: nothing written through one is read through the other. */
function distinctObjects(a: Value, b: Value): boolean {
  // two specific address spaces (global and local, shared and global) never overlap
  const sa = a.ty.k === 'ptr' ? (a.ty as { as: number }).as : 0, sb = b.ty.k === 'ptr' ? (b.ty as { as: number }).as : 0;
  if (sa !== 0 && sb !== 0 && sa !== sb) return true;
  const x = objectOf(a), y = objectOf(b);
  return x !== null && y !== null && x !== y;
}

/** Where a memory access of `size` bytes at p lies: a base pointer and a constant byte range from it. */
function memLoc(p: Value, size: number): { base: Value; off: number; size: number } | null {
  if (size <= 0) return null;
  // constant geps are offsets; the first gep with a variable index (`&out[t * 6]`) is the base
  let off = 0, cur = p;
  while (cur.kind === 'inst' && cur.op === 'gep') {
    const d = constGepOffset(cur);
    if (d === null) break;
    off += d;
    cur = cur.ops[0]!;
  }
  return { base: cur, off, size };
}

export function cse(f: Func): boolean {
  const cfg = buildCFG(f);
  const ids = new Map<Value, number>();
  // keys are built for every instruction of every CSE run: type and constant spellings are remembered
  // for the run (types and constants are not changed while it runs)
  const tyStrs = new Map<Type, string>();
  const tyStr = (t: Type): string => { let s = tyStrs.get(t); if (s === undefined) { s = typeStr(t); tyStrs.set(t, s); } return s; };
  const constKeys = new Map<Value, string>();
  const key = (v: Value): string => {
    switch (v.kind) {
      case 'inst': case 'arg': case 'global': case 'func': case 'asm': {
        let n = ids.get(v); if (n === undefined) { n = ids.size; ids.set(v, n); } return '#' + n;
      }
      default: {
        let s = constKeys.get(v);
        if (s === undefined) { s = `${tyStr(v.ty)} ${constStr(v)}`; constKeys.set(v, s); }
        return s;
      }
    }
  };
  // the same string as `${op}|${attrs.join('|')}|${ops.join(',')}` with attrs [type, pred, srcTy, idx, nsw,
  // nuw, exact, inbounds, fmf], the operands of a commutative operation in order of their keys
  const instKey = (i: Inst): string => {
    const ops = i.ops;
    let o = '';
    if (ops.length === 2 && COMMUTATIVE.has(i.op)) {
      const a = key(ops[0]!), b = key(ops[1]!);
      o = a > b ? b + ',' + a : a + ',' + b;
    } else if (COMMUTATIVE.has(i.op) && ops.length > 2) {
      const ks = ops.map(key);
      if (ks[0]! > ks[1]!) ks.reverse();
      o = ks.join(',');
    } else {
      for (let k = 0; k < ops.length; k++) o += (k ? ',' : '') + key(ops[k]!);
    }
    return i.op + '|' + tyStr(i.ty) + '|' + (i.pred ?? '') + '|' + (i.srcTy ? tyStr(i.srcTy) : '') + '|' + (i.idx?.join('.') ?? '')
      + '|' + (i.nsw ? 'nsw' : '') + '|' + (i.nuw ? 'nuw' : '') + '|' + (i.exact ? 'exact' : '') + '|' + (i.inbounds ? 'ib' : '')
      + '|' + (i.fmf ? i.fmf.join('.') : '') + '|' + o;
  };
  const repl = new Map<Value, Value>();
  const dead = new Set<Inst>();
  // the expressions available in the current block (dominating ones included): one table, with the keys
  // each open dominator-tree scope added, removed when it closes (a key is added only when absent)
  const avail = new Map<string, Inst>();
  const scope: string[][] = [];
  // Available memory values (loads, and stored values for store-to-load forwarding), scoped like the
  // expression table. Each carries the memory generation it was seen in: a write bumps the generation,
  // and so does entering a block that other paths may reach (several predecessors), so a load is reused
  // only when no write can have happened since, on any path (EarlyCSE's rule).
  const memScope: Map<string, MemEntry>[] = [];
  // an address by its base and constant offset: `&o[1]` and `(char *)o + 4` are the same place
  const memKey = (ty: Type, p: Value, loc: { base: Value; off: number } | null): string =>
    loc ? `${tyStr(ty)}|${key(loc.base)}@${loc.off}` : `${tyStr(ty)}|${key(p)}`;
  const memLookup = (k: string): MemEntry | undefined => { for (let s = memScope.length - 1; s >= 0; s--) { const x = memScope[s]!.get(k); if (x) return x; } return undefined; };
  let nextGen = 0;
  // iterative dominator-tree walk with scope push/pop; children inherit the parent's generation at its end
  const stack: [Block, boolean, number][] = cfg.rpo.length ? [[cfg.rpo[0]!, false, -1]] : [];
  while (stack.length) {
    const [b, done, parentGen] = stack.pop()!;
    if (done) { for (const k of scope.pop()!) avail.delete(k); memScope.pop(); continue; }
    const table: string[] = [];
    scope.push(table);
    const mem = new Map<string, MemEntry>();
    memScope.push(mem);
    const preds = cfg.preds.get(b) ?? [];
    let gen = preds.length === 1 && parentGen >= 0 && cfg.idom.get(b) === preds[0] ? parentGen : ++nextGen;
    for (const i of b.insts) {
      for (let k = 0; k < i.ops.length; k++) { const x = i.ops[k]!; if (repl.has(x)) i.ops[k] = resolve(repl, x); }
      if (PURE_OPS.has(i.op) || (i.op === 'call' && isPureCallee(i.ops[0]!))) {
        const k = instKey(i);
        const prev = avail.get(k);
        if (prev) { repl.set(i, prev); dead.add(i); } else { avail.set(k, i); table.push(k); }
      } else if (i.op === 'load' && !i.volatile && !i.ordering) {
        const loc = memLoc(i.ops[0]!, sizeOf(i.ty));
        const k = memKey(i.ty, i.ops[0]!, loc);
        const prev = memLookup(k);
        if (prev && prev.gen === gen) { repl.set(i, prev.v); dead.add(i); } else mem.set(k, { v: i, gen, loc });
      } else if (mayWriteMemory(i) || i.op === 'load') {
        const old = gen;
        gen = ++nextGen;
        if (i.op === 'store' && !i.volatile && !i.ordering) {
          // a store leaves what is known of other bytes at constant offsets from the same base (a
          // constructor's stores after its vptr store do not hide the vptr from a virtual call; `*log`
          // updates through o + 1 keep o[0] known)
          const at = memLoc(i.ops[1]!, sizeOf(i.ops[0]!.ty));
          if (at) {
            const seen = new Set<string>();
            for (let s = memScope.length - 1; s >= 0; s--) for (const [k, x] of memScope[s]!) {
              if (seen.has(k)) continue;
              seen.add(k);
              if (x.gen !== old || !x.loc) continue;
              const disjoint = x.loc.base === at.base
                ? x.loc.off + x.loc.size <= at.off || at.off + at.size <= x.loc.off
                : distinctObjects(x.loc.base, at.base);
              if (disjoint) mem.set(k, { ...x, gen });
            }
          }
          // a plain store makes its value available to later loads of the same address and type
          mem.set(memKey(i.ops[0]!.ty, i.ops[1]!, at), { v: i.ops[0]!, gen, loc: at });
        }
      }
    }
    const ch = cfg.children.get(b) ?? [];
    stack.push([b, true, -1]);
    for (let c = ch.length - 1; c >= 0; c--) stack.push([ch[c]!, false, gen]);
  }
  applyReplacements(f, repl);
  removeInsts(f, dead);
  return dead.size > 0;
}

// ================================================================ DCE

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

function hasSideEffects(i: Inst): boolean {
  if (isTerminator(i)) return true;
  switch (i.op) {
    case 'store': case 'atomicrmw': case 'cmpxchg': case 'fence': return true;
    case 'load': return !!i.volatile;
    case 'call': {
      const c = i.ops[0]!;
      if (c.kind === 'asm') return c.sideEffects || c.fnTy.ret.k === 'void';
      if (c.kind === 'func') return !(c.attrs.readnone && !c.attrs.convergent);
      return true;
    }
    default: return false;
  }
}

/** Aggressive DCE over values: everything not reachable from a side effect through operands dies (dead phi cycles too). */
export function dce(f: Func): boolean {
  const live = new Set<Inst>();
  const work: Inst[] = [];
  for (const b of f.blocks) for (const i of b.insts) if (hasSideEffects(i)) { live.add(i); work.push(i); }
  while (work.length) {
    const i = work.pop()!;
    for (const o of i.ops) if (o.kind === 'inst' && !live.has(o)) { live.add(o); work.push(o); }
  }
  let changed = false;
  for (const b of f.blocks) {
    const n = b.insts.length;
    b.insts = b.insts.filter(i => live.has(i));
    if (b.insts.length !== n) changed = true;
  }
  return changed;
}

// ================================================================ SimplifyCFG

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
    f.blocks.splice(bi, 1);
    bi--;
    changed = true;
  }
  applyReplacements(f, repl);
  return changed;
}

function removeForwardingBlocks(f: Func): boolean {
  let changed = false;
  const preds = predsOf(f);        // kept up to date below
  const dropOne = (l: Block[], x: Block): void => { const k = l.indexOf(x); if (k >= 0) l.splice(k, 1); };
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
      f.blocks.splice(bi, 1);
      bi--;
    }
  }
  return changed;
}

// ================================================================ inlining

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
  for (let round = 0; round < 4; round++) {
    let c = false;
    for (const f of m.funcs) {
      for (let bi = 0; bi < f.blocks.length; bi++) {
        const b = f.blocks[bi]!;
        for (let k = 0; k < b.insts.length; k++) {
          const i = b.insts[k]!;
          if (i.op !== 'call' || !inlineCandidate(f, i.ops[0]!, opts, summaries, spent.get(f) ?? 0)) continue;
          const callee = i.ops[0] as Func;
          if (i.fnTy !== callee.fnTy) continue;
          spent.set(f, (spent.get(f) ?? 0) + summaries.get(callee)!.size);
          // skip the inlined copy (its own calls wait for the next round; this bounds recursion)
          bi += inlineCall(m, f, b, k, callee);
          c = true;
          break;   // the rest of this block moved to a new block, visited next
        }
      }
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

/** Inlines the call at b.insts[at]; returns the number of callee blocks placed after b. */
function inlineCall(m: Module, f: Func, b: Block, at: number, callee: Func): number {
  const call = b.insts[at]!;
  const locs = new Map<Loc, Loc>();
  const tag = callee.name.replace(/[^A-Za-z0-9_.]/g, '_');
  // split b after the call
  const post: Block = { name: `${b.name || 'bb'}.split`, insts: b.insts.slice(at + 1), parent: f };
  for (const i of post.insts) i.parent = post;
  b.insts.length = at;
  for (const s of succsOf(post)) for (const phi of phisOf(s)) phi.targets = phi.targets.map(x => (x === b ? post : x));
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
      const c: Inst = { ...i, ops: i.ops.slice(), targets: i.targets.map(t => bmap.get(t)!), parent: nb,
        idx: i.idx ? i.idx.slice() : undefined, fmf: i.fmf ? i.fmf.slice() : undefined, loc: inlinedLoc(i.loc, callee.name, call.loc, locs) };
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
  for (const c of clones) c.ops = c.ops.map(o => vmap.get(o) ?? o);
  const retVals = rets.map(([v, rb]) => [v === null ? null : vmap.get(v) ?? v, rb] as const);
  b.insts.push({ kind: 'inst', op: 'br', ty: T.void, ops: [], targets: [bmap.get(callee.blocks[0]!)!], parent: b, name: '', loc: call.loc });
  // the call's value
  if (call.ty.k !== 'void') {
    let rv: Value;
    if (retVals.length === 1) rv = retVals[0]![0]!;
    else if (retVals.length === 0) rv = cUndef(call.ty);
    else {
      const phi: Inst = { kind: 'inst', op: 'phi', ty: call.ty, ops: retVals.map(r => r[0]!), targets: retVals.map(r => r[1]), parent: post, name: call.name };
      post.insts.unshift(phi);
      rv = phi;
    }
    // place blocks first: b, callee blocks, post
    placeInlined(f, b, callee, bmap, post);
    replaceAllUses(f, call, rv);
  } else placeInlined(f, b, callee, bmap, post);
  // allocas go to the top of the caller's entry block
  let ai = 0; while (ai < entry.insts.length && entry.insts[ai]!.op === 'alloca') ai++;
  entry.insts.splice(ai, 0, ...hoisted);
  return callee.blocks.length;
}

function placeInlined(f: Func, b: Block, callee: Func, bmap: Map<Block, Block>, post: Block): void {
  const pos = f.blocks.indexOf(b);
  f.blocks.splice(pos + 1, 0, ...callee.blocks.map(cb => bmap.get(cb)!), post);
}

const MEMCPY_TY = funcTy(T.void, [T.ptr, T.ptr, T.i64, T.i1]) as Type & { k: 'func' };

/** Without -rdc no other unit can call a device function, so any non-kernel one without callers goes. */
function removeDeadInternalFuncs(m: Module, opts: CompileOptions): void {
  for (;;) {
    const used = new Set<Value>();
    const markConst = (c: Value): void => {
      used.add(c);
      if (c.kind === 'agg') c.elems.forEach(markConst);
      else if (c.kind === 'cexpr') markConst(c.base);
    };
    for (const g of m.globals) if (g.init) markConst(g.init);
    for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) markConst(o);
    const device = m.triple.startsWith('nvptx');
    const removable = (f: Func): boolean => f.linkage === 'internal' || f.linkage === 'private' || (device && !opts.rdc && f.linkage !== 'weak');
    const keep = m.funcs.filter(f => f.blocks.length === 0 || f.isKernel || !removable(f) || used.has(f));
    if (keep.length === m.funcs.length) return;
    m.funcs = keep;
  }
}
