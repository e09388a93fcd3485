// Loop strength reduction (LLVM's LoopStrengthReduce, which cicc runs late): in an innermost loop, an
// address `&base[X]` whose index is affine in one of the loop's counters (X = inv + i*s) is recomputed
// every iteration as base + sext(X)*size: a 32-bit add or multiply, a mul.wide and a 64-bit add. cicc keeps
// a pointer instead, stepped by s*size per iteration; the addresses of one array that differ from it by a
// constant are `[p+imm]`, those that differ by an invariant amount one 64-bit add. This pass does the same:
// one pointer phi per (base, counter, stride), started in the preheader and stepped in the latch.
//
// Soundness: under a sign extension, the index arithmetic must not wrap (nsw on every add, sub, multiply
// and shift, and on the counter's increment), so that sext distributes over it; 64-bit index arithmetic
// wraps exactly as the address does. The start and the invariant offsets are computed in 64 bits in the
// preheader, so they are exact whichever iteration first uses the address.
import type { Block, Func, Inst, Value } from '../ir';
import { T, cInt, sizeOf } from '../ir';
import { buildCFG, type CFG } from '../analysis/cfg';
import { innermostLoops, type Loop } from '../analysis/loops';
import { applyReplacements, phisOf, removeInsts } from '../analysis/uses';

/** Pointers one loop may gain (each holds a 64-bit register across the loop). */
const MAX_GROUPS = 8;
/** Invariant terms one index may have (bounds the work on long expressions). */
const MAX_TERMS = 4;

/** A counter: a header phi stepped by an invariant amount each iteration. */
interface Counter { phi: Inst; start: Value; step: Value; nsw: boolean }

/** `k * v` with v invariant (sign-extended to 64 bits when it is narrower). */
interface Term { k: bigint; v: Value }

/** c + Σ terms + iv * sc * (sv ?? 1): an index as a function of one counter of the loop. */
interface Affine { iv: Counter | null; sc: bigint; sv: Value | null; c: bigint; terms: Term[] }

interface Member { g: Inst; a: Affine }
interface Group { base: Value; iv: Counter; scale: bigint; sv: Value | null; members: Member[] }

export function strengthReduce(f: Func): boolean {
  const cfg = buildCFG(f);
  let changed = false;
  for (const loop of innermostLoops(cfg)) {
    if (reduceLoop(f, cfg, loop)) changed = true;
  }
  return changed;
}

const inLoop = (loop: Loop, v: Value): boolean => v.kind === 'inst' && v.parent !== null && loop.blocks.has(v.parent);

function countersOf(loop: Loop, pre: Block): Map<Inst, Counter> {
  const out = new Map<Inst, Counter>();
  for (const p of phisOf(loop.header)) {
    if (p.ty.k !== 'int' || p.targets.length !== 2) continue;
    const ki = p.targets.indexOf(loop.latch), ks = p.targets.indexOf(pre);
    if (ki < 0 || ks < 0) continue;
    const next = p.ops[ki]!;
    if (next.kind !== 'inst' || next.op !== 'add' || !inLoop(loop, next)) continue;
    const step = next.ops[0] === p ? next.ops[1]! : next.ops[1] === p ? next.ops[0]! : null;
    if (!step || inLoop(loop, step) || step === p) continue;
    out.set(p, { phi: p, start: p.ops[ks]!, step, nsw: !!next.nsw });
  }
  return out;
}

const leaf = (v: Value): Affine => v.kind === 'int'
  ? { iv: null, sc: 0n, sv: null, c: v.value, terms: [] }
  : { iv: null, sc: 0n, sv: null, c: 0n, terms: [{ k: 1n, v }] };

function addTerms(a: Term[], b: Term[], sign: bigint): Term[] {
  const out = a.map(t => ({ ...t }));
  for (const t of b) {
    const same = out.find(u => u.v === t.v);
    if (same) same.k += sign * t.k; else out.push({ k: sign * t.k, v: t.v });
  }
  return out.filter(t => t.k !== 0n);
}

function combine(a: Affine, b: Affine, sign: bigint): Affine | null {
  if (a.iv && b.iv && (a.iv !== b.iv || a.sv !== b.sv)) return null;
  const terms = addTerms(a.terms, b.terms, sign);
  if (terms.length > MAX_TERMS) return null;
  const iv = a.iv ?? b.iv;
  const sc = a.sc + sign * b.sc;
  return { iv: sc === 0n ? null : iv, sc, sv: sc === 0n ? null : (a.iv ? a.sv : b.sv), c: a.c + sign * b.c, terms };
}

const scaled = (a: Affine, k: bigint): Affine =>
  ({ iv: k === 0n ? null : a.iv, sc: a.sc * k, sv: k === 0n ? null : a.sv, c: a.c * k, terms: k === 0n ? [] : a.terms.map(t => ({ k: t.k * k, v: t.v })) });

/**
 * The affine form of an integer index, or null. `narrow`: the value is under a sign extension, where only
 * arithmetic that does not wrap distributes.
 */
function affine(x: Value, loop: Loop, ivs: Map<Inst, Counter>, narrow: boolean, depth = 0): Affine | null {
  if (!inLoop(loop, x)) return x.kind === 'int' || x.kind === 'arg' || x.kind === 'inst' ? leaf(x) : null;
  const i = x as Inst;
  const iv = ivs.get(i);
  if (iv) return narrow && !iv.nsw ? null : { iv, sc: 1n, sv: null, c: 0n, terms: [] };
  if (depth > 8 || (narrow && !i.nsw && i.op !== 'sext')) return null;
  const sub = (v: Value, n = narrow): Affine | null => affine(v, loop, ivs, n, depth + 1);
  switch (i.op) {
    case 'sext': {
      if (i.ops[0]!.ty !== T.i32 || i.ty !== T.i64) return null;
      return sub(i.ops[0]!, true);
    }
    case 'add': case 'sub': {
      const a = sub(i.ops[0]!), b = sub(i.ops[1]!);
      return a && b && combine(a, b, i.op === 'add' ? 1n : -1n);
    }
    case 'shl': {
      const s = i.ops[1]!;
      if (s.kind !== 'int' || s.value < 0n || s.value > 30n) return null;
      const a = sub(i.ops[0]!);
      return a && scaled(a, 1n << s.value);
    }
    case 'mul': {
      const [p, q] = inLoop(loop, i.ops[0]!) ? [i.ops[0]!, i.ops[1]!] : [i.ops[1]!, i.ops[0]!];
      if (inLoop(loop, q)) return null;
      const a = sub(p);
      if (!a) return null;
      if (q.kind === 'int') return scaled(a, q.value);
      // times an invariant value: only `(iv*sc + c) * q`, whose terms stay products of one value
      if (a.sv !== null || a.terms.length !== 0) return null;
      return { iv: a.iv, sc: a.sc, sv: a.iv ? q : null, c: 0n, terms: a.c !== 0n ? [{ k: a.c, v: q }] : [] };
    }
    default: return null;
  }
}

/** The gep's base, element size and index when it is `&base[idx]` or `&base[0][idx]` with base invariant. */
function arrayAccess(loop: Loop, g: Inst): { base: Value; size: bigint; idx: Value } | null {
  const base = g.ops[0]!, ty = g.srcTy;
  if (!ty || inLoop(loop, base)) return null;
  if (g.ops.length === 2) return { base, size: BigInt(sizeOf(ty)), idx: g.ops[1]! };
  if (g.ops.length === 3 && ty.k === 'array' && g.ops[1]!.kind === 'int' && g.ops[1].value === 0n) return { base, size: BigInt(sizeOf(ty.elem)), idx: g.ops[2]! };
  return null;
}

function groupsOf(loop: Loop, ivs: Map<Inst, Counter>, order: Block[]): Group[] {
  const groups: Group[] = [];
  for (const b of order) for (const g of b.insts) {
    if (g.op !== 'gep') continue;
    const acc = arrayAccess(loop, g);
    if (!acc || acc.size === 0n || acc.idx.ty !== T.i64 || !inLoop(loop, acc.idx)) continue;
    const a = affine(acc.idx, loop, ivs, false);
    if (!a || !a.iv) continue;
    const scale = a.sc * acc.size;
    // the members' offsets from each other are in bytes: scale the whole form to bytes
    const m: Member = { g, a: scaled(a, acc.size) };
    const grp = groups.find(x => x.base === acc.base && x.iv === a.iv && x.scale === scale && x.sv === a.sv);
    if (grp) grp.members.push(m);
    else if (groups.length < MAX_GROUPS) groups.push({ base: acc.base, iv: a.iv, scale, sv: a.sv, members: [m] });
  }
  return groups;
}

/** Writes 64-bit arithmetic before the preheader's terminator. */
class PreheaderCode {
  private readonly wide = new Map<Value, Value>();
  constructor(private readonly pre: Block) {}
  private add(op: Inst['op'], ty: Inst['ty'], ops: Value[]): Inst { return addBefore(this.pre, op, ty, ops); }
  /** v as a 64-bit value (sign-extended). */
  i64(v: Value): Value {
    if (v.kind === 'int') return cInt(T.i64, v.value);
    if (v.ty === T.i64) return v;
    let w = this.wide.get(v);
    if (!w) { w = this.add('sext', T.i64, [v]); this.wide.set(v, w); }
    return w;
  }
  mul(a: Value, b: Value): Value {
    if (a.kind === 'int' && b.kind === 'int') return cInt(T.i64, a.value * b.value);
    if ((a.kind === 'int' && a.value === 0n) || (b.kind === 'int' && b.value === 0n)) return cInt(T.i64, 0n);
    if (a.kind === 'int' && a.value === 1n) return b;
    if (b.kind === 'int' && b.value === 1n) return a;
    return a.kind === 'int' ? this.add('mul', T.i64, [b, a]) : this.add('mul', T.i64, [a, b]);
  }
  /** c + Σ k·v in 64 bits. */
  sum(c: bigint, terms: Term[]): Value {
    let acc: Value | null = null;
    for (const t of terms) {
      const x = this.mul(this.i64(t.v), cInt(T.i64, t.k));
      acc = acc === null ? x : this.add('add', T.i64, [acc, x]);
    }
    if (acc === null) return cInt(T.i64, c);
    return c === 0n ? acc : this.add('add', T.i64, [acc, cInt(T.i64, c)]);
  }
  /** p + off bytes. */
  gep(p: Value, off: Value): Value {
    if (off.kind === 'int' && off.value === 0n) return p;
    const g = this.add('gep', p.ty, [p, off]);
    g.srcTy = T.i8;
    return g;
  }
  /** a + b in 64 bits. */
  plus(a: Value, b: Value): Value {
    if (a.kind === 'int' && b.kind === 'int') return cInt(T.i64, a.value + b.value);
    if (a.kind === 'int' && a.value === 0n) return b;
    if (b.kind === 'int' && b.value === 0n) return a;
    return this.add('add', T.i64, [a, b]);
  }
}

function reduceLoop(f: Func, cfg: CFG, loop: Loop): boolean {
  const h = loop.header, l = loop.latch;
  const outside = (cfg.preds.get(h) ?? []).filter(p => !loop.blocks.has(p));
  if (outside.length !== 1) return false;
  const pre = outside[0]!;
  const ivs = countersOf(loop, pre);
  if (ivs.size === 0) return false;
  const order = f.blocks.filter(b => loop.blocks.has(b));
  const groups = groupsOf(loop, ivs, order);
  if (groups.length === 0) return false;
  const code = new PreheaderCode(pre);
  const same = new Map<Value, Value>();
  for (const grp of groups) {
    const ref = grp.members[0]!.a;
    const { iv } = grp;
    // start: the reference address at the counter's start value
    const ivPart = code.mul(code.mul(code.i64(iv.start), cInt(T.i64, grp.scale)), grp.sv ? code.i64(grp.sv) : cInt(T.i64, 1n));
    const inv = code.sum(ref.c, ref.terms);
    const startOff = code.plus(inv, ivPart);
    const p0 = code.gep(grp.base, startOff);
    const stepBytes = code.mul(code.mul(code.i64(iv.step), cInt(T.i64, grp.scale)), grp.sv ? code.i64(grp.sv) : cInt(T.i64, 1n));
    const phi: Inst = { kind: 'inst', op: 'phi', ty: grp.base.ty, ops: [p0], targets: [pre], parent: h, name: '' };
    h.insts.splice(phisOf(h).length, 0, phi);
    const next = addBefore(l, 'gep', grp.base.ty, [phi, stepBytes]);
    next.srcTy = T.i8;
    phi.ops.push(next); phi.targets.push(l);
    for (const m of grp.members) {
      const terms = addTerms(m.a.terms, ref.terms, -1n);
      const off = terms.length === 0 ? cInt(T.i64, m.a.c - ref.c) : code.sum(m.a.c - ref.c, terms);
      if (off.kind === 'int' && off.value === 0n) { same.set(m.g, phi); continue; }
      m.g.srcTy = T.i8;
      m.g.ops = [phi, off];
      m.g.inbounds = undefined;
    }
  }
  applyReplacements(f, same);
  removeInsts(f, new Set([...same.keys()] as Inst[]));
  return true;
}

/** A new instruction before b's terminator. */
function addBefore(b: Block, op: Inst['op'], ty: Inst['ty'], ops: Value[]): Inst {
  const t = b.insts[b.insts.length - 1]!;
  const i: Inst = { kind: 'inst', op, ty, ops, targets: [], parent: b, name: '', loc: t.loc };
  b.insts.splice(b.insts.length - 1, 0, i);
  return i;
}
