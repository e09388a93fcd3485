// SROA: splits a small aggregate alloca (struct, array) into one scalar alloca per leaf when every access
// is at a constant offset and matches a leaf exactly; mem2reg then turns the pieces into registers.
// Whole-aggregate copies (llvm.memcpy from the front end's struct copies), memset and aggregate-typed
// loads/stores are rewritten leaf by leaf. Anything else (a dynamic index, an escaping address, a
// type-punning access) leaves the alloca alone: it stays in local memory, exactly as before.
import type { Block, Func, Inst, Type, Value } from '../ir';
import { T, cInt, cFP, cZero, cTrue, cFalse, alignOf, fieldOffset, sizeOf, isInt, intTy, arrayTy } from '../ir';
import { constGepOffset } from '../analysis/gep';
import { baseAndOffset } from '../analysis/memory';
import { BlockEdits } from './edits';
import { mergeByteWords } from './sroa-words';

interface Leaf { off: number; ty: Type; path: number[] }

const MAX_BYTES = 1024;
const MAX_LEAVES = 64;

/** Scalar leaves of a type with their byte offsets and insertvalue paths; null when too many or not splittable. */
export function scalarLeaves(t: Type): Leaf[] | null {
  const out: Leaf[] = [];
  const walk = (ty: Type, off: number, path: number[]): boolean => {
    if (out.length > MAX_LEAVES) return false;
    switch (ty.k) {
      case 'int': case 'float': case 'double': case 'half': case 'bfloat': case 'ptr':
        if (ty.k === 'int' && ty.bits > 64) return false;
        out.push({ off, ty, path }); return true;
      case 'struct':
        return ty.fields.every((f, k) => walk(f, off + fieldOffset(ty as Type & { k: 'struct' }, k), [...path, k]));
      case 'array':
        for (let k = 0; k < ty.n; k++) if (!walk(ty.elem, off + k * sizeOf(ty.elem), [...path, k])) return false;
        return true;
      default: return false;
    }
  };
  return walk(t, 0, []) && out.length <= MAX_LEAVES ? out : null;
}

const isMemIntrinsic = (i: Inst, prefix: string): boolean => i.op === 'call' && i.ops[0]!.kind === 'func' && (i.ops[0] as { name: string }).name.startsWith(prefix);

type Use =
  | { kind: 'load'; i: Inst; off: number }
  | { kind: 'store'; i: Inst; off: number }
  | { kind: 'copy'; i: Inst; off: number; dstSide: boolean; len: number }
  | { kind: 'set'; i: Inst; off: number; len: number; byte: number }
  | { kind: 'drop'; i: Inst }
  /** `p == null` / `p != null` on an address in the alloca (a destructor's `if (l)` once l is known): never null. */
  | { kind: 'nullcmp'; i: Inst }
  /** A gep with a dynamic index into an array member: that member stays in memory (a region). */
  | { kind: 'region'; i: Inst; off: number; start: number; size: number }
  /** A copy between two parts of this alloca (a member struct assigned to another). */
  | { kind: 'selfcopy'; i: Inst; dst: number; src: number; len: number };

interface Region { start: number; size: number; alloca?: Inst }

/**
 * The outermost array member of `t` containing byte `off`, or null. A pointer derived from it may step
 * anywhere inside it: `p[i]` on a decayed row of `float A[2][3]` strides over rows (the gep's element is
 * the row), and code that flattens `&A[0][0]` indexes past the row. So a dynamic index keeps the whole
 * array in memory, never just the row it starts in.
 */
function arrayAt(t: Type, off: number, base = 0): { start: number; size: number } | null {
  if (t.k === 'array') {
    const k = Math.floor((off - base) / sizeOf(t.elem));
    return k >= 0 && k < t.n ? { start: base, size: sizeOf(t) } : null;
  }
  if (t.k === 'struct') {
    for (let k = 0; k < t.fields.length; k++) {
      const fo = base + fieldOffset(t as Type & { k: 'struct' }, k), f = t.fields[k]!;
      if (off >= fo && off < fo + sizeOf(f)) return arrayAt(f, off, fo);
    }
  }
  return null;
}

/** The array member a gep with dynamic indices can reach: [start, start+size) relative to the alloca. */
function dynRegion(g: Inst, off: number, allocTy: Type): { start: number; size: number } | null {
  let cur: Type = g.srcTy!;
  const idx = g.ops.slice(1);
  // p[i] on a pointer into the alloca (a decayed array member): the array member containing p
  if (idx[0]?.kind !== 'int') return idx.length === 1 ? arrayAt(allocTy, off) : null;
  let pos = off + Number(idx[0].value) * sizeOf(cur);
  for (let k = 1; k < idx.length; k++) {
    const x = idx[k]!;
    if (cur.k === 'struct') {
      if (x.kind !== 'int') return null;
      pos += fieldOffset(cur as Type & { k: 'struct' }, Number(x.value));
      cur = cur.fields[Number(x.value)]!;
    } else if (cur.k === 'array') {
      if (x.kind !== 'int') return arrayAt(allocTy, pos);
      pos += Number(x.value) * sizeOf(cur.elem);
      cur = cur.elem;
    } else return null;
  }
  return null;
}

/** Runs SROA over f's entry-block allocas; returns true if any alloca was split. */
export function sroa(f: Func): boolean {
  const entry = f.blocks[0];
  if (!entry) return false;
  const users = useMap(f, true);
  const edits = new BlockEdits();
  let changed = false;
  for (const a of entry.insts.slice()) {
    if (a.op !== 'alloca' || !a.srcTy || (a.srcTy.k !== 'struct' && a.srcTy.k !== 'array')) continue;
    if (a.ops[0]?.kind !== 'int' || a.ops[0].value !== 1n || sizeOf(a.srcTy) > MAX_BYTES) continue;
    const leaves = scalarLeaves(a.srcTy);
    if (!leaves || leaves.length === 0) continue;
    const uses = collectUses(a, users);
    if (!uses) continue;
    const regions = mergeRegions(uses);
    const inRegion = (l: Leaf): Region | undefined => regions.find(r => l.off < r.start + r.size && l.off + sizeOf(l.ty) > r.start);
    const outside = leaves.filter(l => !inRegion(l));
    if (outside.length === 0) continue;          // everything stays in memory anyway
    if (leaves.some(l => { const r = inRegion(l); return r && (l.off < r.start || l.off + sizeOf(l.ty) > r.start + r.size); })) continue;
    // bitfield bytes read and written as one integer stay one integer (when every access still fits)
    const words = mergeByteWords(outside, scalarAccesses(uses));
    const chosen = words !== outside && uses.every(u => usable(u, words, regions)) ? words : outside;
    if (chosen === outside && !uses.every(u => usable(u, outside, regions))) continue;
    const { added, gone } = split(f, a, chosen, uses, regions, edits);
    changed = true;
    // a split rewrites other allocas' uses (copies): the map follows the instructions it added and removed
    // (recomputing it after every split is quadratic in a large unrolled body with thousands of allocas)
    updateUseMap(users, added, gone);
  }
  edits.apply(f);
  return changed;
}

/** The users of every instruction, or only of allocas and geps (all that collectUses walks through). */
function useMap(f: Func, addressesOnly = false): Map<Value, Inst[]> {
  const users = new Map<Value, Inst[]>();
  for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) {
    if (o.kind !== 'inst' || (addressesOnly && o.op !== 'alloca' && o.op !== 'gep')) continue;
    let l = users.get(o); if (!l) users.set(o, l = []); l.push(i);
  }
  return users;
}

const isAddress = (o: Value): boolean => o.kind === 'inst' && (o.op === 'alloca' || o.op === 'gep');

/**
 * The map of useMap(f, true) after a split: removed instructions leave the lists of the addresses they
 * used, new ones join them. A list's order may then differ from a new walk's; nothing reads that order
 * (the uses of an alloca are a set: regions are sorted, each use is rewritten in place).
 */
function updateUseMap(users: Map<Value, Inst[]>, added: Inst[], gone: Inst[]): void {
  for (const i of gone) for (const o of i.ops) {
    if (!isAddress(o)) continue;
    const l = users.get(o);
    const k = l ? l.indexOf(i) : -1;
    if (k >= 0) l!.splice(k, 1);
  }
  for (const i of added) for (const o of i.ops) {
    if (!isAddress(o)) continue;
    let l = users.get(o); if (!l) users.set(o, l = []); l.push(i);
  }
}

function collectUses(a: Inst, users: Map<Value, Inst[]>): Use[] | null {
  const out: Use[] = [];
  const derived = new Map<Value, number>([[a, 0]]);
  const walk = (v: Value, off: number): boolean => {
    for (const u of users.get(v) ?? []) {
      if (u.op === 'gep' && u.ops[0] === v && !u.ops.slice(1).includes(v)) {
        const d = constGepOffset(u);
        if (d === null) {
          const r = dynRegion(u, off, a.srcTy!);
          if (!r) return false;
          out.push({ kind: 'region', i: u, off, ...r });
          continue;
        }
        derived.set(u, off + d);
        if (!walk(u, off + d)) return false;
      } else if (u.op === 'load' && u.ops[0] === v && !u.ordering) out.push({ kind: 'load', i: u, off });
      else if (u.op === 'store' && u.ops[1] === v && u.ops[0] !== v && !u.ordering) out.push({ kind: 'store', i: u, off });
      else if (isMemIntrinsic(u, 'llvm.lifetime.')) out.push({ kind: 'drop', i: u });
      else if (u.op === 'icmp' && (u.pred === 'eq' || u.pred === 'ne') && u.ops.some(x => x.kind === 'null')) out.push({ kind: 'nullcmp', i: u });
      else if (isMemIntrinsic(u, 'llvm.memcpy.') || isMemIntrinsic(u, 'llvm.memmove.')) {
        const [, d, s, n, vol] = u.ops;
        if (n?.kind !== 'int' || (vol?.kind === 'int' && vol.value !== 0n) || d === s) return false;
        const dstSide = d === v;
        if (!dstSide && s !== v) return false;
        out.push({ kind: 'copy', i: u, off, dstSide, len: Number(n.value) });
      } else if (isMemIntrinsic(u, 'llvm.memset.')) {
        const [, d, c, n, vol] = u.ops;
        if (d !== v || c?.kind !== 'int' || n?.kind !== 'int' || (vol?.kind === 'int' && vol.value !== 0n)) return false;
        out.push({ kind: 'set', i: u, off, len: Number(n.value), byte: Number(BigInt.asUintN(8, c.value)) });
      } else return false;
    }
    return true;
  };
  if (!walk(a, 0)) return null;
  // storing the alloca's own address is an escape; a copy between two parts of it becomes a selfcopy
  const res: Use[] = [];
  for (const u of out) {
    if (u.kind === 'store' && derived.has(u.i.ops[0]!)) return null;
    if (u.kind === 'copy' && derived.has(u.i.ops[u.dstSide ? 2 : 1]!)) {
      if (!u.dstSide) continue;   // recorded from the destination side
      res.push({ kind: 'selfcopy', i: u.i, dst: u.off, src: derived.get(u.i.ops[2]!)!, len: u.len });
      continue;
    }
    res.push(u);
  }
  return res;
}

/** Leaves exactly covering [off, off+len) (padding allowed, no partial leaf); null otherwise. */
function coveredLeaves(leaves: Leaf[], off: number, len: number): Leaf[] | null {
  const r: Leaf[] = [];
  for (const l of leaves) {
    const e = l.off + sizeOf(l.ty);
    if (e <= off || l.off >= off + len) continue;
    if (l.off < off || e > off + len) return null;
    r.push(l);
  }
  return r;
}

/** Same-size int/fp types: a union member read through another type becomes a bitcast. */
function punnable(a: Type, b: Type): boolean {
  const bits = (t: Type): number => (t.k === 'int' && t.bits > 1 ? t.bits : t.k === 'float' ? 32 : t.k === 'double' ? 64 : t.k === 'half' || t.k === 'bfloat' ? 16 : 0);
  return bits(a) !== 0 && bits(a) === bits(b) && (a.k === 'int' ? a.bits % 8 === 0 : true);
}

/** Leaves matched by an access of type ty at off (a scalar leaf, or all leaves of an aggregate value). */
function accessLeaves(leaves: Leaf[], off: number, ty: Type): Leaf[] | null {
  const own = scalarLeaves(ty);
  if (!own) return null;
  const r: Leaf[] = [];
  for (const o of own) {
    const l = leaves.find(x => x.off === off + o.off);
    if (!l || !(l.ty === o.ty || punnable(l.ty, o.ty))) return null;
    r.push(l);
  }
  return r;
}

/** Width of a leaf or access as the integer its bits are read as (a pointer's too: a union of a pointer and bitfields). */
const intBits = (t: Type): number => (t.k === 'int' && t.bits % 8 === 0 ? t.bits : t.k === 'float' ? 32 : t.k === 'double' ? 64 : t.k === 'half' || t.k === 'bfloat' ? 16 : t.k === 'ptr' ? 64 : 0);

/** A scalar access inside one int/fp leaf (a byte of a float, half of a double): the leaf and the bit shift. */
function subLeaf(leaves: Leaf[], off: number, ty: Type): { leaf: Leaf; shift: number } | null {
  const s = intBits(ty) / 8;
  if (!s) return null;
  for (const l of leaves) {
    const lb = intBits(l.ty) / 8;
    if (lb && l.off <= off && off + s <= l.off + lb) return { leaf: l, shift: (off - l.off) * 8 };
  }
  return null;
}

/** A scalar access spanning several whole int/fp leaves (an i64 read of { float, float }). */
function spanLeaves(leaves: Leaf[], off: number, ty: Type): Leaf[] | null {
  const s = intBits(ty) / 8;
  if (!s) return null;
  const c = coveredLeaves(leaves, off, s);
  return c && c.length > 1 && c.every(l => intBits(l.ty) > 0) ? c : null;
}

/**
 * An aggregate access whose scalars are each a leaf or a part of one (a struct of bitfield bytes stored
 * whole into an alloca whose bytes are integer words): per scalar, the leaf and the shift (null: the whole leaf).
 */
function aggregateParts(leaves: Leaf[], off: number, ty: Type): { leaf: Leaf; shift: number | null }[] | null {
  if (ty.k !== 'struct' && ty.k !== 'array') return null;
  const own = scalarLeaves(ty);
  if (!own) return null;
  const r: { leaf: Leaf; shift: number | null }[] = [];
  for (const o of own) {
    const whole = accessLeaves(leaves, off + o.off, o.ty);
    if (whole) { r.push({ leaf: whole[0]!, shift: null }); continue; }
    const part = subLeaf(leaves, off + o.off, o.ty);
    if (!part) return null;
    r.push(part);
  }
  return r;
}

const scalarOk = (leaves: Leaf[], off: number, ty: Type): boolean =>
  accessLeaves(leaves, off, ty) !== null || subLeaf(leaves, off, ty) !== null || spanLeaves(leaves, off, ty) !== null
  || aggregateParts(leaves, off, ty) !== null;

/** Offset and type of every scalar load and store of the alloca. */
function scalarAccesses(uses: Use[]): { off: number; ty: Type }[] {
  const r: { off: number; ty: Type }[] = [];
  for (const u of uses) {
    if (u.kind === 'load') r.push({ off: u.off, ty: u.i.ty });
    else if (u.kind === 'store') r.push({ off: u.off, ty: u.i.ops[0]!.ty });
  }
  return r;
}

function mergeRegions(uses: Use[]): Region[] {
  const rs = uses.filter((u): u is Use & { kind: 'region' } => u.kind === 'region').map(u => ({ start: u.start, size: u.size }))
    .sort((a, b) => a.start - b.start);
  const out: Region[] = [];
  for (const r of rs) {
    const last = out[out.length - 1];
    if (last && r.start < last.start + last.size) last.size = Math.max(last.size, r.start + r.size - last.start);
    else out.push({ ...r });
  }
  return out;
}

/** The region holding all of [off, off+len), 'none' if the range touches no region, null if it straddles. */
function regionOf(regions: Region[], off: number, len: number): Region | 'none' | null {
  for (const r of regions) {
    if (off + len <= r.start || off >= r.start + r.size) continue;
    return off >= r.start && off + len <= r.start + r.size ? r : null;
  }
  return 'none';
}

/** An aggregate access partly in a region: each of its scalars is in a region or is one leaf. */
function mixedOk(leaves: Leaf[], regions: Region[], off: number, ty: Type): boolean {
  if (ty.k !== 'struct' && ty.k !== 'array') return false;
  const own = scalarLeaves(ty);
  return !!own && own.every(o => {
    const r = regionOf(regions, off + o.off, Math.max(1, sizeOf(o.ty)));
    return r !== null && (r !== 'none' || accessLeaves(leaves, off + o.off, o.ty) !== null);
  });
}

function usable(u: Use, leaves: Leaf[], regions: Region[]): boolean {
  switch (u.kind) {
    case 'load': case 'store': {
      const ty = u.kind === 'load' ? u.i.ty : u.i.ops[0]!.ty;
      const r = regionOf(regions, u.off, Math.max(1, sizeOf(ty)));
      if (r === null) return mixedOk(leaves, regions, u.off, ty);
      if (r !== 'none') return true;
      return scalarOk(leaves, u.off, ty);
    }
    case 'region': return true;
    case 'selfcopy': {
      const rd = regionOf(regions, u.dst, u.len), rs = regionOf(regions, u.src, u.len);
      if (rd === null || rs === null) return false;
      if (rd !== 'none' && rs !== 'none') return true;                       // memory to memory
      if (rd !== 'none') return !!coveredLeaves(leaves, u.src, u.len);       // leaves to memory
      if (rs !== 'none') return !!coveredLeaves(leaves, u.dst, u.len);       // memory to leaves
      const d = coveredLeaves(leaves, u.dst, u.len), sl = coveredLeaves(leaves, u.src, u.len);
      return !!d && !!sl && d.length === sl.length && d.every((l, k) => l.ty === sl[k]!.ty && l.off - u.dst === sl[k]!.off - u.src);
    }
    case 'copy': return coveredLeaves(leaves, u.off, u.len) !== null;
    case 'set': {
      const c = coveredLeaves(leaves, u.off, u.len);
      return c !== null && c.every(l => isInt(l.ty) || u.byte === 0);
    }
    case 'drop': case 'nullcmp': return true;
  }
}

/**
 * A copy of 2, 4 or 8 bytes between this alloca and memory that is not another alloca, both sides aligned
 * to the size (an object copy: the memcpy carries the type's alignment), whose bytes are integer leaves
 * with no padding between them, and which the code also reads or writes as one integer of that size
 * (`*(unsigned *)&h2` in the fp16 headers) or only copies whole: then the integer need not be taken
 * apart and put together.
 */
function wholeWordCopy(u: Use & { kind: 'copy' }, other: Value, covered: Leaf[], uses: Use[], wordUse: Map<number, boolean>): boolean {
  if ((u.len !== 2 && u.len !== 4 && u.len !== 8) || (u.i.align ?? 0) < u.len || covered.length < 2) return false;
  // what the other uses say depends only on the copy's offset and length: asked once per pair (an
  // alloca copied in many places would otherwise scan its uses once per copy)
  const key = u.off * 16 + u.len;
  let used = wordUse.get(key);
  if (used === undefined) {
    const asWord = (x: Use): boolean => (x.kind === 'load' || x.kind === 'store') && x.off === u.off
      && (x.kind === 'load' ? x.i.ty : x.i.ops[0]!.ty) === intTy(u.len * 8);
    const wordOnly = (x: Use): boolean => asWord(x) || x.kind === 'drop' || (x.kind === 'copy' && x.off === u.off && x.len === u.len);
    used = uses.some(asWord) || uses.every(wordOnly);
    wordUse.set(key, used);
  }
  if (!used) return false;
  let root = other;
  while (root.kind === 'inst' && (root.op === 'gep' || root.op === 'addrspacecast')) root = root.ops[0]!;
  if (root.kind === 'inst' && root.op === 'alloca') return false;
  let next = u.off;
  for (const l of covered) {
    if (l.ty.k !== 'int' || l.off !== next) return false;
    next += sizeOf(l.ty);
  }
  return next === u.off + u.len;
}

function mk(parent: Block, op: Inst['op'], ty: Type, ops: Value[], extra: Partial<Inst> = {}): Inst {
  return { kind: 'inst', op, ty, ops, targets: [], parent, name: '', ...extra };
}

function byteSplat(ty: Type, byte: number): Value {
  if (byte === 0) return ty.k === 'float' || ty.k === 'double' ? cFP(ty, 0) : ty.k === 'ptr' ? cZero(ty) : cInt(ty, 0);
  let v = 0n;
  for (let k = 0; k < sizeOf(ty); k++) v = (v << 8n) | BigInt(byte);
  return cInt(ty, v);
}

/** What rewriting the uses of one split alloca needs: its leaves and their new allocas, its regions. */
interface Split {
  f: Func;
  /** Where the rewrites go until the pass is done with every alloca. */
  edits: BlockEdits;
  /** wholeWordCopy's answers about the other uses, by the copy's offset * 16 + length. */
  wordUse: Map<number, boolean>;
  leaves: Leaf[];
  uses: Use[];
  slot: Map<Leaf, Inst>;
  regions: Region[];
  /** A pointer to byte `off` of the original alloca inside region r (its gep added to pre). */
  inRegion: (b: Block, pre: Inst[], r: Region, off: number) => Value;
}
/** A use left in place, pointed at a new alloca: nothing to splice in or remove. */
const KEPT = Symbol('kept');

/** An aggregate load or store across a region: scalar by scalar, the region's parts through memory. */
function splitAcrossRegion(s: Split, u: Use & { kind: 'load' | 'store' }, b: Block, pre: Inst[]): void {
  const { leaves, slot, regions, inRegion } = s;
  const i = u.i;
  const ty = u.kind === 'load' ? i.ty : i.ops[0]!.ty;
  let agg: Value = { kind: 'undef', ty };
  for (const o of scalarLeaves(ty)!) {
    const at = u.off + o.off;
    const rr = regionOf(regions, at, Math.max(1, sizeOf(o.ty)));
    const l = rr === 'none' ? accessLeaves(leaves, at, o.ty)![0]! : null;
    const ptr = rr && rr !== 'none' ? inRegion(b, pre, rr, at) : slot.get(l!)!;
    const memTy = l ? l.ty : o.ty;
    if (u.kind === 'load') {
      let x: Value = mk(b, 'load', memTy, [ptr], { align: alignOf(memTy) });
      pre.push(x as Inst);
      if (memTy !== o.ty) { const c = mk(b, 'bitcast', o.ty, [x]); pre.push(c); x = c; }
      const ins = mk(b, 'insertvalue', ty, [agg, x], { idx: o.path });
      pre.push(ins);
      agg = ins;
    } else {
      let x: Value = mk(b, 'extractvalue', o.ty, [i.ops[0]!], { idx: o.path });
      pre.push(x as Inst);
      if (memTy !== o.ty) { const c = mk(b, 'bitcast', memTy, [x]); pre.push(c); x = c; }
      pre.push(mk(b, 'store', T.void, [x, ptr], { align: alignOf(memTy) }));
    }
  }
  s.edits.replace(i, pre);
  if (u.kind === 'load') s.edits.replaceUses(i, agg);
}

/** A copy between two parts of the alloca: leaf to leaf, or through the region on one side. */
function splitSelfCopy(s: Split, u: Use & { kind: 'selfcopy' }, b: Block, pre: Inst[]): void {
  const { leaves, slot, regions, inRegion } = s;
  const i = u.i;
  const rd = regionOf(regions, u.dst, u.len) as Region | 'none', rs = regionOf(regions, u.src, u.len) as Region | 'none';
  if (rd !== 'none' && rs !== 'none') {
    pre.push(mk(b, 'call', T.void, [i.ops[0]!, inRegion(b, pre, rd, u.dst), inRegion(b, pre, rs, u.src), cInt(T.i64, u.len), i.ops[4]!], { fnTy: i.fnTy }));
    return;
  }
  if (rd !== 'none' || rs !== 'none') {
    // one side is memory: move leaf by leaf through pointers into the region
    const leafSide = rd !== 'none' ? u.src : u.dst, memSide = rd !== 'none' ? u.dst : u.src;
    const reg = (rd !== 'none' ? rd : rs) as Region;
    for (const l of coveredLeaves(leaves, leafSide, u.len)!) {
      const p = inRegion(b, pre, reg, memSide + (l.off - leafSide));
      if (rd !== 'none') {
        const x = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) });
        pre.push(x, mk(b, 'store', T.void, [x, p], { align: 1 }));
      } else {
        const x = mk(b, 'load', l.ty, [p], { align: 1 });
        pre.push(x, mk(b, 'store', T.void, [x, slot.get(l)!], { align: alignOf(l.ty) }));
      }
    }
    return;
  }
  // loads first, then stores: right for overlapping (memmove) ranges too
  const d = coveredLeaves(leaves, u.dst, u.len)!, sl = coveredLeaves(leaves, u.src, u.len)!;
  const vals = sl.map(l => { const x = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) }); pre.push(x); return x; });
  d.forEach((l, k) => pre.push(mk(b, 'store', T.void, [vals[k]!, slot.get(l)!], { align: alignOf(l.ty) })));
  return;
}

/** A load from the alloca, from its leaves (KEPT: it now loads one leaf as it is). */
function splitLoad(s: Split, u: Use & { kind: 'load' }, b: Block, pre: Inst[]): Value | typeof KEPT {
  const { leaves, slot } = s;
  const i = u.i;
  const ls = accessLeaves(leaves, u.off, i.ty);
  const parts = ls ? null : aggregateParts(leaves, u.off, i.ty);
  if (parts) {
    let agg: Value = { kind: 'undef', ty: i.ty };
    scalarLeaves(i.ty)!.forEach((o, k) => {
      const p = parts[k]!;
      const x = p.shift === null ? loadWhole(b, pre, slot, p.leaf, o.ty) : loadPart(b, pre, slot, { leaf: p.leaf, shift: p.shift }, o.ty);
      const ins = mk(b, 'insertvalue', i.ty, [agg, x], { idx: o.path });
      pre.push(ins);
      agg = ins;
    });
    return agg;
  }
  if (!ls) {
    const span = spanLeaves(leaves, u.off, i.ty);
    return span ? loadSpan(b, pre, slot, span, u.off, i.ty) : loadPart(b, pre, slot, subLeaf(leaves, u.off, i.ty)!, i.ty);
  }
  if (ls.length === 1 && i.ty === ls[0]!.ty) { i.ops[0] = slot.get(ls[0]!)!; return KEPT; }
  const own = scalarLeaves(i.ty)!;
  const loadAs = (k: number, ty: Type): Value => {
    const l = ls[k]!;
    const x = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty), volatile: i.volatile });
    pre.push(x);
    if (l.ty === ty) return x;
    const c = mk(b, 'bitcast', ty, [x]);
    pre.push(c);
    return c;
  };
  if (own.length === 1 && own[0]!.path.length === 0) { return loadAs(0, i.ty); }
  let agg: Value = { kind: 'undef', ty: i.ty };
  own.forEach((o, k) => {
    const ins = mk(b, 'insertvalue', i.ty, [agg, loadAs(k, o.ty)], { idx: o.path });
    pre.push(ins);
    agg = ins;
  });
  return agg;
}

/** A store into the alloca, into its leaves (KEPT: it now stores one leaf as it is). */
function splitStore(s: Split, u: Use & { kind: 'store' }, b: Block, pre: Inst[]): typeof KEPT | null {
  const { leaves, slot } = s;
  const i = u.i;
  const v = i.ops[0]!;
  const ls = accessLeaves(leaves, u.off, v.ty);
  const parts = ls ? null : aggregateParts(leaves, u.off, v.ty);
  if (parts) {
    scalarLeaves(v.ty)!.forEach((o, k) => {
      const p = parts[k]!;
      const e = mk(b, 'extractvalue', o.ty, [v], { idx: o.path });
      pre.push(e);
      if (p.shift !== null) { storePart(b, pre, slot, { leaf: p.leaf, shift: p.shift }, e); return; }
      const x = p.leaf.ty === o.ty ? e : mk(b, 'bitcast', p.leaf.ty, [e]);
      if (x !== e) pre.push(x as Inst);
      pre.push(mk(b, 'store', T.void, [x, slot.get(p.leaf)!], { align: alignOf(p.leaf.ty), volatile: i.volatile }));
    });
    return null;
  }
  if (!ls) {
    const span = spanLeaves(leaves, u.off, v.ty);
    if (span) storeSpan(b, pre, slot, span, u.off, v); else storePart(b, pre, slot, subLeaf(leaves, u.off, v.ty)!, v);
    return null;
  }
  if (ls.length === 1 && v.ty === ls[0]!.ty) { i.ops[1] = slot.get(ls[0]!)!; return KEPT; }
  scalarLeaves(v.ty)!.forEach((o, k) => {
    const l = ls[k]!;
    let x: Value = v;
    if (o.path.length > 0) { const e = mk(b, 'extractvalue', o.ty, [v], { idx: o.path }); pre.push(e); x = e; }
    if (l.ty !== o.ty) { const c = mk(b, 'bitcast', l.ty, [x]); pre.push(c); x = c; }
    pre.push(mk(b, 'store', T.void, [x, slot.get(l)!], { align: alignOf(l.ty), volatile: i.volatile }));
  });
  return null;
}

/** A copy between the alloca and other memory: region parts copied as they are, leaves one by one (or as one word). */
function splitCopy(s: Split, u: Use & { kind: 'copy' }, b: Block, pre: Inst[]): void {
  const { uses, leaves, slot, regions, inRegion } = s;
  const i = u.i;
  const other = i.ops[u.dstSide ? 2 : 1]!;
  for (const reg of regions) {
    const lo = Math.max(u.off, reg.start), hi = Math.min(u.off + u.len, reg.start + reg.size);
    if (lo >= hi) continue;
    const mine = inRegion(b, pre, reg, lo);
    let theirs: Value = other;
    if (lo - u.off) { const g = mk(b, 'gep', other.ty, [other, cInt(T.i64, lo - u.off)], { srcTy: T.i8, inbounds: true }); pre.push(g); theirs = g; }
    pre.push(mk(b, 'call', T.void, [i.ops[0]!, u.dstSide ? mine : theirs, u.dstSide ? theirs : mine, cInt(T.i64, hi - lo), i.ops[4]!], { fnTy: i.fnTy }));
  }
  const covered = coveredLeaves(leaves, u.off, u.len)!;
  if (wholeWordCopy(u, other, covered, uses, s.wordUse)) {
    // a small object copied from or to memory elsewhere moves as one integer (a __half2 as one
    // 32-bit load, not two 16-bit ones); the leaves are its bit fields
    const wt = intTy(u.len * 8);
    if (u.dstSide) {
      const x = mk(b, 'load', wt, [other], { align: u.i.align });
      pre.push(x);
      for (const l of covered) {
        let v: Value = x;
        const sh = (l.off - u.off) * 8;
        if (sh) { const t = mk(b, 'lshr', wt, [v, cInt(wt, sh)]); pre.push(t); v = t; }
        if (l.ty !== wt) { const t = mk(b, 'trunc', l.ty, [v]); pre.push(t); v = t; }
        pre.push(mk(b, 'store', T.void, [v, slot.get(l)!], { align: alignOf(l.ty) }));
      }
    } else {
      let acc: Value | null = null;
      for (const l of covered) {
        let v: Value = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) });
        pre.push(v as Inst);
        if (l.ty !== wt) { const t = mk(b, 'zext', wt, [v]); pre.push(t); v = t; }
        const sh = (l.off - u.off) * 8;
        if (sh) { const t = mk(b, 'shl', wt, [v, cInt(wt, sh)]); pre.push(t); v = t; }
        if (acc) { const t = mk(b, 'or', wt, [acc, v]); pre.push(t); v = t; }
        acc = v;
      }
      pre.push(mk(b, 'store', T.void, [acc!, other], { align: u.i.align }));
    }
    return;
  }
  for (const l of covered) {
    const rel = l.off - u.off;
    const p = rel === 0 ? other : mk(b, 'gep', other.ty, [other, cInt(T.i64, rel)], { srcTy: T.i8, inbounds: true });
    if (p !== other) pre.push(p as Inst);
    // the other side is aligned as the copy says (a float2 is 8-aligned): a leaf at offset 0 keeps
    // that, so the backend can pair it with its neighbour (ld/st .v2)
    const pAlign = Math.max(alignOf(l.ty), rel === 0 ? (u.i.align ?? 1) : Math.min(u.i.align ?? 1, rel & -rel));
    if (u.dstSide) {
      const x = mk(b, 'load', l.ty, [p], { align: pAlign });
      pre.push(x, mk(b, 'store', T.void, [x, slot.get(l)!], { align: alignOf(l.ty) }));
    } else {
      const x = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) });
      pre.push(x, mk(b, 'store', T.void, [x, p], { align: pAlign }));
    }
  }
  return;
}

/** Rewrites the uses of `a` onto its leaves and regions; returns the instructions it added and removed. */
function split(f: Func, a: Inst, leaves: Leaf[], uses: Use[], regions: Region[], edits: BlockEdits): { added: Inst[]; gone: Inst[] } {
  const entry = f.blocks[0]!;
  const base = a.name || 'sroa';
  const slot = new Map<Leaf, Inst>();
  const pieces = leaves.map((l, k) => {
    const p = mk(entry, 'alloca', T.ptr, [cInt(T.i32, 1)], { srcTy: l.ty, align: alignOf(l.ty), name: `${base}.${k}` });
    slot.set(l, p);
    return p;
  });
  const aAlign = Math.max(1, a.align ?? alignOf(a.srcTy!));
  regions.forEach((r, k) => {
    const al = r.start === 0 ? aAlign : Math.min(aAlign, r.start & -r.start);
    r.alloca = mk(entry, 'alloca', T.ptr, [cInt(T.i32, 1)], { srcTy: arrayTy(r.size, T.i8), align: al, name: `${base}.mem${k}` });
    pieces.push(r.alloca);
  });
  /** A pointer to byte `off` of the original alloca inside region r. */
  const inRegion = (b: Block, pre: Inst[], r: Region, off: number): Value => {
    if (off === r.start) return r.alloca!;
    const g = mk(b, 'gep', T.ptr, [r.alloca!, cInt(T.i64, off - r.start)], { srcTy: T.i8 });
    pre.push(g);
    return g;
  };
  const s: Split = { f, edits, wordUse: new Map(), leaves, uses, slot, regions, inRegion };
  edits.replace(a, pieces, entry);
  const added: Inst[] = [], gone: Inst[] = [];
  for (const u of uses) {
    const i = u.i;
    const b = i.parent!;
    const pre: Inst[] = [];
    let replacement: Value | null = null;
    const r = u.kind === 'load' || u.kind === 'store' ? regionOf(regions, u.off, Math.max(1, sizeOf(u.kind === 'load' ? i.ty : i.ops[0]!.ty))) : 'none';
    if (r === null && (u.kind === 'load' || u.kind === 'store')) {
      splitAcrossRegion(s, u, b, pre);
      added.push(...pre); gone.push(i);
      continue;
    }
    if (r && r !== 'none' && (u.kind === 'load' || u.kind === 'store')) {
      // an access inside a region keeps going to memory, rebased onto the region's alloca
      const p = inRegion(b, pre, r, u.off);
      edits.insertBefore(i, pre);
      i.ops[u.kind === 'load' ? 0 : 1] = p;
      added.push(...pre);
      continue;
    }
    switch (u.kind) {
      case 'region': {
        const reg = regions.find(x => u.start >= x.start && u.start < x.start + x.size)!;
        const p = inRegion(b, pre, reg, u.off);
        (p as Inst).inbounds = false;
        edits.insertBefore(i, pre);
        i.ops[0] = p;
        i.inbounds = false;
        added.push(...pre);
        continue;
      }
      case 'selfcopy': splitSelfCopy(s, u, b, pre); break;
      case 'load': {
        const x = splitLoad(s, u, b, pre);
        if (x === KEPT) continue;
        replacement = x;
        break;
      }
      case 'store': if (splitStore(s, u, b, pre) === KEPT) continue; break;
      case 'copy': splitCopy(s, u, b, pre); break;
      case 'set':
        for (const reg of regions) {
          const lo = Math.max(u.off, reg.start), hi = Math.min(u.off + u.len, reg.start + reg.size);
          if (lo >= hi) continue;
          pre.push(mk(b, 'call', T.void, [i.ops[0]!, inRegion(b, pre, reg, lo), i.ops[2]!, cInt(T.i64, hi - lo), i.ops[4]!], { fnTy: i.fnTy }));
        }
        for (const l of coveredLeaves(leaves, u.off, u.len)!) pre.push(mk(b, 'store', T.void, [byteSplat(l.ty, u.byte), slot.get(l)!], { align: alignOf(l.ty) }));
        break;
      case 'drop': break;
      case 'nullcmp': replacement = i.pred === 'ne' ? cTrue : cFalse; break;
    }
    for (const p of pre) if (i.loc && !p.loc) p.loc = i.loc;
    edits.replace(i, pre);
    added.push(...pre); gone.push(i);
    if (replacement) edits.replaceUses(i, replacement);
  }
  return { added, gone };
}

// Little endian: the part at byte offset k of a leaf is its bits [8k, 8k + width).
function asInt(b: Block, pre: Inst[], v: Value): Value {
  if (v.ty.k === 'int') return v;
  const c = mk(b, v.ty.k === 'ptr' ? 'ptrtoint' : 'bitcast', intTy(intBits(v.ty)), [v]); pre.push(c); return c;
}
function fromInt(b: Block, pre: Inst[], v: Value, ty: Type): Value {
  if (ty.k === 'int') return v;
  const c = mk(b, ty.k === 'ptr' ? 'inttoptr' : 'bitcast', ty, [v]); pre.push(c); return c;
}

function loadWhole(b: Block, pre: Inst[], slot: Map<Leaf, Inst>, l: Leaf, ty: Type): Value {
  const x = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) });
  pre.push(x);
  if (l.ty === ty) return x;
  const c = mk(b, 'bitcast', ty, [x]);
  pre.push(c);
  return c;
}

function loadPart(b: Block, pre: Inst[], slot: Map<Leaf, Inst>, part: { leaf: Leaf; shift: number }, ty: Type): Value {
  const l = part.leaf;
  const x = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) });
  pre.push(x);
  let v = asInt(b, pre, x);
  const lt = v.ty;
  if (part.shift) { const sh = mk(b, 'lshr', lt, [v, cInt(lt, part.shift)]); pre.push(sh); v = sh; }
  const w = intBits(ty);
  if (w < intBits(l.ty)) { const t = mk(b, 'trunc', intTy(w), [v]); pre.push(t); v = t; }
  return fromInt(b, pre, v, ty);
}

function storePart(b: Block, pre: Inst[], slot: Map<Leaf, Inst>, part: { leaf: Leaf; shift: number }, v: Value): void {
  const l = part.leaf;
  const lw = intBits(l.ty), w = intBits(v.ty);
  const lt = intTy(lw);
  const old = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) });
  pre.push(old);
  let x = asInt(b, pre, v);
  if (w < lw) { const z = mk(b, 'zext', lt, [x]); pre.push(z); x = z; }
  if (part.shift) { const sh = mk(b, 'shl', lt, [x, cInt(lt, part.shift)]); pre.push(sh); x = sh; }
  const mask = ~(((1n << BigInt(w)) - 1n) << BigInt(part.shift));
  const kept = mk(b, 'and', lt, [asInt(b, pre, old), cInt(lt, mask)]);
  const merged = mk(b, 'or', lt, [kept, x]);
  pre.push(kept, merged);
  pre.push(mk(b, 'store', T.void, [fromInt(b, pre, merged, l.ty), slot.get(l)!], { align: alignOf(l.ty) }));
}

function loadSpan(b: Block, pre: Inst[], slot: Map<Leaf, Inst>, span: Leaf[], off: number, ty: Type): Value {
  const wt = intTy(intBits(ty));
  let acc: Value = cInt(wt, 0);
  for (const l of span) {
    const x = mk(b, 'load', l.ty, [slot.get(l)!], { align: alignOf(l.ty) });
    pre.push(x);
    let v = asInt(b, pre, x);
    const z = mk(b, 'zext', wt, [v]); pre.push(z); v = z;
    const shift = (l.off - off) * 8;
    if (shift) { const sh = mk(b, 'shl', wt, [v, cInt(wt, shift)]); pre.push(sh); v = sh; }
    const o = mk(b, 'or', wt, [acc, v]); pre.push(o); acc = o;
  }
  return fromInt(b, pre, acc, ty);
}

function storeSpan(b: Block, pre: Inst[], slot: Map<Leaf, Inst>, span: Leaf[], off: number, v: Value): void {
  const whole = asInt(b, pre, v);
  for (const l of span) {
    let x = whole;
    const shift = (l.off - off) * 8;
    if (shift) { const sh = mk(b, 'lshr', whole.ty, [whole, cInt(whole.ty, shift)]); pre.push(sh); x = sh; }
    const tr = mk(b, 'trunc', intTy(intBits(l.ty)), [x]); pre.push(tr);
    pre.push(mk(b, 'store', T.void, [fromInt(b, pre, tr, l.ty), slot.get(l)!], { align: alignOf(l.ty) }));
  }
}

function replaceUses(f: Func, from: Value, to: Value): void {
  for (const b of f.blocks) for (const i of b.insts) for (let k = 0; k < i.ops.length; k++) if (i.ops[k] === from) i.ops[k] = to;
}

const mayWrite = (i: Inst): boolean => i.op === 'store' || i.op === 'call' || i.op === 'atomicrmw' || i.op === 'cmpxchg' || i.op === 'fence';

/**
 * Loads through a phi or select of entry-block allocas (`std::max(a, b)` returning a reference) become a
 * phi/select of loads, so the allocas are promotable. Allocas are always dereferenceable, so loading in
 * the predecessor (or before the select) is safe; it must read the same value, so no write may come
 * between the phi/select and the load.
 */
/**
 * A small aligned copy out of `cond ? a : b` (a phi or select of addresses, a class lvalue chosen by the
 * conditional operator) becomes an integer load and store, as LLVM turns small memcpys into loads and
 * stores: the load can then be speculated like any other.
 */
function smallCopiesFromChoices(f: Func): boolean {
  let changed = false;
  for (const b of f.blocks) {
    for (let k = 0; k < b.insts.length; k++) {
      const i = b.insts[k]!;
      if (i.op !== 'call' || i.ops[0]!.kind !== 'func' || i.ops[0].name !== 'llvm.memcpy.p0.p0.i64') continue;
      const [, dst, src, len, vol] = i.ops as Value[];
      if (len!.kind !== 'int' || vol!.kind !== 'int' || vol!.value !== 0n) continue;
      const n = Number(len!.value);
      if ((n !== 1 && n !== 2 && n !== 4 && n !== 8) || (i.align ?? 1) < n) continue;
      if (src!.kind !== 'inst' || (src!.op !== 'phi' && src!.op !== 'select')) continue;
      const ty = intTy(n * 8);
      const l = mk(b, 'load', ty, [src!], { align: n, loc: i.loc });
      const st = mk(b, 'store', T.void, [l, dst!], { align: n, loc: i.loc });
      b.insts.splice(k, 1, l, st);
      k++;
      changed = true;
    }
  }
  return changed;
}

export function speculatePtrLoads(f: Func): boolean {
  const entry = f.blocks[0];
  if (!entry) return false;
  // a pointer into an entry alloca at a known in-bounds offset can be loaded anywhere
  // where the select is: a pointer this block already loaded from or stored to, before it, is there too
  // (`(a < b) ? b : a` on references compares the two values first: LLVM's isSafeToLoadUnconditionally)
  let site: Inst | null = null;
  const accessedBefore = (v: Value, bytes: number): boolean => {
    if (!site) return false;
    for (const i of site.parent?.insts ?? []) {
      if (i === site) return false;
      if (i.op === 'load' && i.ops[0] === v && !i.volatile && sizeOf(i.ty) >= bytes) return true;
      if (i.op === 'store' && i.ops[1] === v && !i.volatile && sizeOf(i.ops[0]!.ty) >= bytes) return true;
    }
    return false;
  };
  const derefable = (v: Value, bytes: number, depth = 0): boolean => {
    // `v < lo ? lo : v > hi ? hi : v` on references: a select of selects of allocas (loaded in the next round)
    if (v.kind === 'inst' && v.op === 'select' && depth < 4) return derefable(v.ops[1]!, bytes, depth + 1) && derefable(v.ops[2]!, bytes, depth + 1);
    if (accessedBefore(v, bytes)) return true;
    const at = baseAndOffset(v);
    if (!at) return false;
    const { base: cur, off } = at;
    // a by-value parameter's object is always there too (param space, or the caller's copy)
    if (cur.kind === 'arg' && cur.byval) return off >= 0 && off + bytes <= sizeOf(cur.byval);
    if (cur.kind !== 'inst' || cur.op !== 'alloca' || cur.parent !== entry || cur.ops[0]?.kind !== 'int') return false;
    return off >= 0 && off + bytes <= sizeOf(cur.srcTy!) * Number(cur.ops[0].value);
  };
  let changed = smallCopiesFromChoices(f);
  const users = useMap(f);
  for (const b of f.blocks) {
    for (const p of b.insts.slice()) {
      if ((p.op !== 'phi' && p.op !== 'select') || p.ty.k !== 'ptr') continue;
      site = p.op === 'select' ? p : null;
      const ptrs = p.op === 'phi' ? p.ops : p.ops.slice(1);
      // gep(p, c) → a phi/select of gep(incoming, c): the loads of a member of `cond ? a : b` (two local
      // objects) speculate like loads of the whole (the next round sees the new phi/select)
      const geps = (users.get(p) ?? []).filter(u => u.op === 'gep' && u.ops[0] === p && u.parent === b && constGepOffset(u) !== null);
      if (geps.length > 0 && ptrs.every(x => derefable(x, 1))) {
        for (const g of geps) {
          const at = (x: Value, blk: Block): Inst => mk(blk, 'gep', g.ty, [x, ...g.ops.slice(1)], { srcTy: g.srcTy, inbounds: g.inbounds });
          let q: Inst;
          if (p.op === 'phi') {
            const ins = p.ops.map((x, k) => { const pred = p.targets[k]!; const gg = at(x, pred); pred.insts.splice(pred.insts.length - 1, 0, gg); return gg; });
            q = mk(b, 'phi', g.ty, ins, { targets: p.targets.slice() });
            b.insts.unshift(q);
          } else {
            const g1 = at(p.ops[1]!, b), g2 = at(p.ops[2]!, b);
            q = mk(b, 'select', g.ty, [p.ops[0]!, g1, g2]);
            b.insts.splice(b.insts.indexOf(g), 0, g1, g2, q);
          }
          b.insts.splice(b.insts.indexOf(g), 1);
          replaceUses(f, g, q);
        }
        changed = true;
        continue;
      }
      const us = users.get(p) ?? [];
      // a select loads both sides: both must be loadable. A phi's loads move to its predecessors, where
      // each path would load its own pointer anyway (nothing between the phi and the loads writes or
      // leaves): worth it when that frees a local object (`c ? in[g] : zero` on class lvalues)
      const loadable = p.op === 'phi'
        ? ptrs.some(x => us.every(u => derefable(x, sizeOf(u.ty))))
        : ptrs.every(x => us.every(u => derefable(x, sizeOf(u.ty))));
      if (!loadable) continue;
      const start = p.op === 'phi' ? 0 : b.insts.indexOf(p) + 1;
      const ok = us.length > 0 && us.every(u => {
        if (u.op !== 'load' || u.ops[0] !== p || u.volatile || u.ordering || u.parent !== b) return false;
        const end = b.insts.indexOf(u);
        if (end < start) return false;
        for (let k = start; k < end; k++) if (mayWrite(b.insts[k]!)) return false;
        return true;
      });
      if (!ok) continue;
      for (const u of us) {
        let v: Inst;
        if (p.op === 'phi') {
          const loads = p.ops.map((a, k) => {
            const pred = p.targets[k]!;
            const l = mk(pred, 'load', u.ty, [a], { align: u.align });
            pred.insts.splice(pred.insts.length - 1, 0, l);
            return l;
          });
          v = mk(b, 'phi', u.ty, loads, { targets: p.targets.slice() });
          b.insts.unshift(v);
        } else {
          const pos = b.insts.indexOf(p);
          const l1 = mk(b, 'load', u.ty, [p.ops[1]!], { align: u.align });
          const l2 = mk(b, 'load', u.ty, [p.ops[2]!], { align: u.align });
          v = mk(b, 'select', u.ty, [p.ops[0]!, l1, l2]);
          b.insts.splice(pos + 1, 0, l1, l2, v);
        }
        b.insts.splice(b.insts.indexOf(u), 1);
        replaceUses(f, u, v);
      }
      // the pointer phi/select has no users left: drop it so SROA does not see it as an escape
      b.insts.splice(b.insts.indexOf(p), 1);
      changed = true;
    }
  }
  return changed;
}
