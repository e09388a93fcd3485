// Pattern selection for one function: before any text is written, which instructions fold into others
// (fma/mad, wide gep indices, extending loads, min/max, 64-bit halves, vector accesses, address groups),
// where allocas and by-value copies live in the local depot, and who uses each value.
import type { Func, Block, Inst, Value, Const, Type, Arg } from '../middle/ir';
import { T, AS, sizeOf, alignOf, fieldOffset, typeStr } from '../middle/ir';
import { buildCFG, type CFG } from '../middle/analysis/cfg';
import type { CompileOptions } from '../options';
import { Unsupported } from '../diagnostics';
import { bitsOf, isScalar } from './types';
import { addressedBy, constGepOffset } from './operands';

/** A dynamic gep term: a value scaled by a constant, extended signed or unsigned. */
export interface DynTerm { src: Value; scale: number; sgn: 's' | 'u' }

/** The patterns of one function, found once before its text is written; read-only afterwards but for dynGroup's registers. */
export class Patterns {
  readonly users = new Map<Value, Inst[]>();
  depotSize = 0;
  depotAlign = 1;
  readonly allocaOff = new Map<Inst, number>();
  readonly byvalDirect = new Set<Arg>();
  readonly byvalCopy = new Map<Arg, number>();
  readonly fmaOf = new Map<Inst, { mul: Inst; other: Value; negOther: boolean }>();
  readonly contracted = new Set<Inst>();
  /** mul i64 of two values extended from i32 the same way (or one and a constant) → mul.wide.{s,u}32. */
  readonly wideMul = new Map<Inst, { a: Value; b: Value; sgn: 's' | 'u' }>();
  /** Extensions read only by wide multiplies: not emitted. */
  readonly foldedExt = new Set<Inst>();
  /** add(mul(a, b), c) on integers → mad.lo (the mul is in `contracted`). */
  readonly madOf = new Map<Inst, { mul: Inst; other: Value }>();
  /** i32 → i64 sext/zext used only as gep indices: folded into mul.wide.{s,u}32, not emitted. */
  readonly wideIdx = new Set<Inst>();
  /** Geps with constant indices whose every use is a load/store address: folded into `[base+off]`. */
  readonly foldedGep = new Set<Inst>();
  /** `add nsw x, C` used as a gep index (directly or extended): the gep adds C * scale to its offset. */
  readonly peeledAdd = new Set<Inst>();
  /** Peeled adds with no other use: not computed at all. */
  readonly unusedAdd = new Set<Inst>();
  /** Geps with dynamic indices used only as load/store addresses, grouped by (block, base, dynamic terms). */
  readonly dynGroup = new Map<Inst, { reg: string | null }>();
  /** zext/sext of a single-use i8/i16 load: one ld.{u,s}{8,16} straight into the wide register. */
  readonly extLoad = new Map<Inst, Inst>();
  readonly foldedLoad = new Set<Inst>();
  /** ext(trunc x to i8/i16) with a single-use trunc: one cvt from x's register (sign/zero-extend in place). */
  readonly truncExt = new Map<Inst, Inst>();
  readonly foldedTrunc = new Set<Inst>();
  /** select(icmp a, b), a, b) on integers → min/max (LLVM canonicalises these to smin/smax/umin/umax). */
  readonly minMaxOf = new Map<Inst, { op: 'min' | 'max'; signed: boolean }>();
  /** icmps used only by such selects: not computed. */
  readonly foldedCmp = new Set<Inst>();
  readonly halves = new Map<Inst, Value[]>();
  readonly vecAt = new Map<Inst, { members: Inst[]; lowOff: number; atOff: number; ty: Type }>();
  readonly vecSkip = new Set<Inst>();
  readonly inHalves = new Set<Inst>();
  readonly hasPreds = new Set<Block>();

  // ------------------------------------------------------------------ analysis

  constructor(readonly f: Func, readonly opts: CompileOptions) {
    const addUse = (v: Value, i: Inst): void => {
      if (v.kind !== 'inst' && v.kind !== 'arg') return;
      let l = this.users.get(v); if (!l) this.users.set(v, l = []);
      l.push(i);
    };
    for (const b of f.blocks) for (const i of b.insts) {
      for (const o of i.ops) addUse(o, i);
      if (i.op === 'br' || i.op === 'condbr' || i.op === 'switch') for (const t of i.targets) this.hasPreds.add(t);
    }
    // allocas → local depot
    for (const b of f.blocks) for (const i of b.insts) {
      if (i.op !== 'alloca') continue;
      const c = i.ops[0];
      if (!c || c.kind !== 'int') throw new Unsupported('dynamic alloca');
      const n = Number(c.value);
      const ty = i.srcTy!;
      const al = Math.max(i.align ?? 1, alignOf(ty), 1);
      this.allocaOff.set(i, this.depotAlloc(Math.max(1, sizeOf(ty) * n), al));
    }
    // by-value aggregate params: read straight from .param space when only loaded through constant offsets
    for (const a of f.params) {
      if (!a.byval) continue;
      if (this.onlyConstLoads(a)) this.byvalDirect.add(a);
      else this.byvalCopy.set(a, this.depotAlloc(Math.max(1, sizeOf(a.byval)), Math.max(a.align ?? 1, alignOf(a.byval))));
    }
    this.findWideMuls();
    this.findMads();
    this.findWideIndices();
    this.findExtLoads();
    this.findMinMax();
    this.findHalves();
    this.findVectorAccesses();
    this.findDynGroups();
    this.findFoldedGeps();
    if (this.opts.fmad) this.findFmas();
  }

  /**
   * fmul + fadd → fma (same block, single use), as cicc does with -fmad=1. cicc contracts only what LLVM's
   * canonical form leaves as an fadd: never an fsub (a*b - c, c - a*b, a*b - c*d stay mul + sub, for ptxas to
   * fuse or not), but a*b - C for a constant C (canonically a*b + -C), and not a*b + -c or c + (-a)*b
   * (canonically fsubs). Contracting exactly where cicc does keeps both PTX versions rounding alike where the
   * PTX runs as written.
   */
  findFmas(): void {
    const neg = (v: Value) => v.kind === 'inst' && v.op === 'fneg';
    const single = (m: Value, i: Inst): m is Inst => m.kind === 'inst' && m.op === 'fmul' && m.parent === i.parent && !this.contracted.has(m)
      && m.ty === i.ty && (this.users.get(m) ?? []).length === 1 && neg(m.ops[0]!) === neg(m.ops[1]!);
    for (const b of this.f.blocks) for (const i of b.insts) {
      if (i.ty.k !== 'float' && i.ty.k !== 'double') continue;
      if (i.op === 'fadd') {
        for (let k = 0; k < 2; k++) {
          const m = i.ops[k]!, other = i.ops[1 - k]!;
          if (!single(m, i) || neg(other)) continue;
          this.contracted.add(m);
          this.fmaOf.set(i, { mul: m, other, negOther: false });
          break;
        }
      } else if (i.op === 'fsub' && single(i.ops[0]!, i) && i.ops[1]!.kind === 'fp') {
        this.contracted.add(i.ops[0]);
        this.fmaOf.set(i, { mul: i.ops[0], other: i.ops[1]!, negOther: true });
      }
    }
  }

  /** (i64) ext(a) * ext(b) with a, b of 32 bits: cicc's mul.wide from the narrow registers (no cvt). */
  findWideMuls(): void {
    const narrow = (v: Value, op: string): Value | null => {
      if (v.kind === 'inst' && v.op === op && v.ops[0]!.ty === T.i32) return v.ops[0]!;
      if (v.kind !== 'int') return null;
      const ok = op === 'sext' ? v.value === BigInt.asIntN(32, v.value) : v.value >= 0n && v.value === BigInt.asUintN(32, v.value);
      return ok ? { kind: 'int', ty: T.i32, value: BigInt.asIntN(32, v.value) } : null;
    };
    for (const b of this.f.blocks) for (const i of b.insts) {
      if (i.op !== 'mul' || i.ty !== T.i64) continue;
      for (const op of ['sext', 'zext'] as const) {
        const x = narrow(i.ops[0]!, op), y = narrow(i.ops[1]!, op);
        if (!x || !y || (x.kind === 'int' && y.kind === 'int')) continue;
        this.wideMul.set(i, x.kind === 'int' ? { a: y, b: x, sgn: op === 'sext' ? 's' : 'u' } : { a: x, b: y, sgn: op === 'sext' ? 's' : 'u' });
        break;
      }
    }
    for (const b of this.f.blocks) for (const i of b.insts) {
      if ((i.op !== 'sext' && i.op !== 'zext') || i.ty !== T.i64 || i.ops[0]!.ty !== T.i32) continue;
      const us = this.users.get(i) ?? [];
      if (us.length > 0 && us.every(u => this.wideMul.has(u))) this.foldedExt.add(i);
    }
  }

  /** Integer mul feeding a single add in the same block → mad.lo (cicc's pattern at -O3). */
  findMads(): void {
    for (const b of this.f.blocks) for (const i of b.insts) {
      if (i.op !== 'add' || i.ty.k !== 'int' || (i.ty.bits !== 16 && i.ty.bits !== 32 && i.ty.bits !== 64)) continue;
      for (let k = 0; k < 2; k++) {
        const m = i.ops[k]!;
        if (m.kind !== 'inst' || m.op !== 'mul' || m.parent !== b || this.contracted.has(m) || m.ty !== i.ty || this.wideMul.has(m)) continue;
        if ((this.users.get(m) ?? []).length !== 1) continue;
        this.contracted.add(m);
        this.madOf.set(i, { mul: m, other: i.ops[1 - k]! });
        break;
      }
    }
  }

  /**
   * 64-bit values built from or split into 32-bit halves, as cicc's `mov.b64 %rd, {%lo, %hi}` and
   * `mov.b64 {%lo, %hi}, %rd`: `or (zext lo), (shl (zext hi), 32)` and `trunc (lshr x, 32)` (the
   * handles of cooperative groups, the words of a double).
   */
  findHalves(): void {
    const once = (v: Value): v is Inst => v.kind === 'inst' && this.useCount(v) === 1;
    // (whole, half): a 64-bit value of two 32-bit halves, a 32-bit value of two 16-bit halves (half2, bf162)
    for (const [whole, half] of [[T.i64, T.i32], [T.i32, T.i16]] as const) {
      const w = BigInt(bitsOf(half));
      // (extensions and truncations another fold already took are left to it)
      const zextHalf = (v: Value): v is Inst => once(v) && v.op === 'zext' && v.ty === whole && v.ops[0]!.ty === half && !this.truncExt.has(v) && !this.extLoad.has(v);
      for (const b of this.f.blocks) for (const i of b.insts) {
        if (i.op === 'or' && i.ty === whole) {
          for (let k = 0; k < 2; k++) {
            const lo = i.ops[k]!, sh = i.ops[1 - k]!;
            if (!zextHalf(lo) || !once(sh) || sh.op !== 'shl' || sh.ops[1]!.kind !== 'int' || sh.ops[1].value !== w || !zextHalf(sh.ops[0]!)) continue;
            this.halves.set(i, [lo.ops[0]!, (sh.ops[0] as Inst).ops[0]!]);
            this.inHalves.add(lo); this.inHalves.add(sh); this.inHalves.add(sh.ops[0] as Inst);
            break;
          }
        }
        if (i.op === 'trunc' && i.ty === half && !this.foldedTrunc.has(i)) {
          const sh = i.ops[0]!;
          if (once(sh) && sh.op === 'lshr' && sh.ty === whole && sh.ops[1]!.kind === 'int' && sh.ops[1].value === w) {
            this.halves.set(i, [sh.ops[0]!]);
            this.inHalves.add(sh);
          }
        }
      }
    }
  }

  private cfgMemo: CFG | null = null;
  cfg(): CFG { return this.cfgMemo ??= buildCFG(this.f); }
  /** `b` is the only predecessor of `x` (one edge). */
  onlyEntry(x: Block, b: Block): boolean { const ps = this.cfg().preds.get(x) ?? []; return ps.length === 1 && ps[0] === b; }

  findMinMax(): void {
    const same = (x: Value, y: Value): boolean => x === y || (x.kind === 'int' && y.kind === 'int' && x.ty === y.ty && x.value === y.value);
    const cmps = new Set<Inst>();
    for (const b of this.f.blocks) for (const i of b.insts) {
      if (i.op !== 'select' || i.ty.k !== 'int' || (i.ty.bits !== 16 && i.ty.bits !== 32 && i.ty.bits !== 64)) continue;
      const c = i.ops[0]!;
      if (c.kind !== 'inst' || c.op !== 'icmp' || c.pred === 'eq' || c.pred === 'ne' || c.ops[0]!.ty !== i.ty) continue;
      const [x, y] = c.ops as [Value, Value];
      let firstIsX: boolean;
      if (same(i.ops[1]!, x) && same(i.ops[2]!, y)) firstIsX = true;
      else if (same(i.ops[1]!, y) && same(i.ops[2]!, x)) firstIsX = false;
      else continue;
      const p = c.pred!;
      const less = p.endsWith('lt') || p.endsWith('le');
      this.minMaxOf.set(i, { op: less === firstIsX ? 'min' : 'max', signed: p[0] === 's' });
      cmps.add(c);
    }
    for (const c of cmps) if ((this.users.get(c) ?? []).every(u => this.minMaxOf.has(u))) this.foldedCmp.add(c);
  }

  findExtLoads(): void {
    const writes = (x: Inst): boolean => x.op === 'store' || x.op === 'atomicrmw' || x.op === 'cmpxchg' || x.op === 'fence'
      || (x.op === 'call' && !(x.ops[0]!.kind === 'func' && x.ops[0].attrs.readnone));
    for (const b of this.f.blocks) b.insts.forEach((e, k) => {
      if ((e.op !== 'zext' && e.op !== 'sext') || (e.ty !== T.i32 && e.ty !== T.i64)) return;
      const l = e.ops[0]!;
      if (l.kind !== 'inst' || l.op !== 'load' || l.parent !== b || l.ordering || (l.ty !== T.i8 && l.ty !== T.i16)) return;
      if ((this.users.get(l) ?? []).length !== 1) return;
      const at = b.insts.indexOf(l);
      for (let j = at + 1; j < k; j++) if (writes(b.insts[j]!)) return;   // the load may not move past a write
      this.extLoad.set(e, l);
      this.foldedLoad.add(l);
    });
    for (const b of this.f.blocks) for (const e of b.insts) {
      if ((e.op !== 'zext' && e.op !== 'sext') || (e.ty !== T.i32 && e.ty !== T.i64)) continue;
      const t = e.ops[0]!;
      if (t.kind !== 'inst' || t.op !== 'trunc' || (t.ty !== T.i8 && t.ty !== T.i16) || (t.ops[0]!.ty !== T.i32 && t.ops[0]!.ty !== T.i64)) continue;
      if ((this.users.get(t) ?? []).length !== 1 || t.ops[0]!.ty !== e.ty) continue;
      this.truncExt.set(e, t);
      this.foldedTrunc.add(t);
    }
  }

  findDynGroups(): void {
    const ids = new Map<Value, number>();
    const id = (v: Value): string => {
      if (v.kind !== 'inst' && v.kind !== 'arg' && v.kind !== 'global') return v.kind === 'int' ? `c${v.value}` : `?${ids.size}`;
      let n = ids.get(v); if (n === undefined) { n = ids.size; ids.set(v, n); } return `#${n}`;
    };
    for (const b of this.f.blocks) {
      const groups = new Map<string, { reg: string | null }>();
      for (const i of b.insts) {
        if (i.op !== 'gep' || i.ops.slice(1).every(x => x.kind === 'int') || this.isDirectParamPtr(i)) continue;
        const us = this.users.get(i) ?? [];
        if (us.length === 0 || !us.every(u => addressedBy(u, i) && !u.ordering)) continue;
        let parts;
        try { parts = this.gepParts(i); } catch { continue; }
        if (parts.base.kind !== 'inst' && parts.base.kind !== 'arg' && parts.base.kind !== 'global') continue;
        const key = `${id(parts.base)}|${parts.dyn.map(d => `${id(d.src)}*${d.scale}${d.sgn}`).join(',')}`;
        let g = groups.get(key);
        if (!g) groups.set(key, g = { reg: null });
        this.dynGroup.set(i, g);
      }
    }
  }

  /** A constant-offset gep used only as the address of loads/stores (directly or through such geps). */
  findFoldedGeps(): void {
    const foldable = (g: Inst): boolean => {
      if (g.op !== 'gep' || !g.ops.slice(1).every(x => x.kind === 'int')) return false;
      const us = this.users.get(g) ?? [];
      return us.length > 0 && us.every(u => (addressedBy(u, g) && !u.ordering)
        || (u.op === 'gep' && u.ops[0] === g && !u.ops.slice(1).includes(g) && (foldable(u) || this.dynGroup.has(u))));
    };
    for (const b of this.f.blocks) for (const i of b.insts) if (foldable(i)) this.foldedGep.add(i);
  }

  /** sext/zext i32 → i64 whose every use is a gep index (not the base). */
  findWideIndices(): void {
    for (const b of this.f.blocks) for (const i of b.insts) {
      if ((i.op !== 'sext' && i.op !== 'zext') || i.ty !== T.i64 || i.ops[0]!.ty !== T.i32) continue;
      const us = this.users.get(i) ?? [];
      if (us.length > 0 && us.every(u => u.op === 'gep' && u.ops[0] !== i)) this.wideIdx.add(i);
    }
    for (const b of this.f.blocks) for (const i of b.insts) {
      if (i.op !== 'add' || !i.nsw || i.ops[1]!.kind !== 'int' || (i.ty !== T.i32 && i.ty !== T.i64) || this.madOf.has(i)) continue;
      const us = this.users.get(i) ?? [];
      const asIndex = (u: Inst): boolean => u.op === 'gep' && u.ops[0] !== i;
      const peels = (u: Inst): boolean => (asIndex(u) && i.ty === T.i64) || (this.wideIdx.has(u) && u.op === 'sext');
      if (!us.some(peels)) continue;
      this.peeledAdd.add(i);
      if (us.every(peels)) this.unusedAdd.add(i);
    }
  }

  depotAlloc(size: number, align: number): number {
    const off = Math.ceil(this.depotSize / align) * align;
    this.depotSize = off + size;
    this.depotAlign = Math.max(this.depotAlign, align);
    return off;
  }

  onlyConstLoads(v: Value): boolean {
    for (const u of this.users.get(v) ?? []) {
      if (u.op === 'load' && u.ops[0] === v && !u.volatile && !u.ordering) continue;
      if (u.op === 'gep' && u.ops[0] === v && u.ops.slice(1).every(x => x.kind === 'int') && this.onlyConstLoads(u)) continue;
      return false;
    }
    return true;
  }

  isDirectParamPtr(v: Value): boolean {
    if (v.kind === 'arg') return this.byvalDirect.has(v);
    if (v.kind === 'inst' && v.op === 'gep') return this.isDirectParamPtr(v.ops[0]!);
    return false;
  }

  useCount(v: Value): number { return (this.users.get(v) ?? []).length; }

  /** memcpy/memmove/memset with a small constant length, whose pointers it addresses via addrOf only. */
  addressOnlyMemIntrinsic(u: Inst, p: Value): boolean {
    const c = u.ops[0]!;
    if (u.op !== 'call' || c.kind !== 'func' || !/^llvm\.mem(cpy|move|set)\./.test(c.name)) return false;
    const len = u.ops[3]!;
    const ptrs = c.name.startsWith('llvm.memset.') ? [u.ops[1]] : [u.ops[1], u.ops[2]];
    return len.kind === 'int' && len.value <= 512n && u.ops.slice(3).every(o => o !== p) && ptrs.includes(p);
  }

  /** addrspacecast of an alloca to the local space: its address is %SPL + offset, no generic pointer. */
  isLocalCast(v: Value): boolean {
    return v.kind === 'inst' && v.op === 'addrspacecast' && v.ops[0]!.kind === 'inst' && (v.ops[0] as Inst).op === 'alloca'
      && v.ty.k === 'ptr' && (v.ty as { as: number }).as === AS.local && this.allocaOff.has(v.ops[0] as Inst);
  }

  /**
   * Neighbouring loads or stores of one type at consecutive offsets from one address, the lowest aligned
   * to the whole (a float2 or float4 member by member): one ld/st .v2 or .v4, as NVPTX's load/store
   * vectoriser makes them. Loads are issued at the first of them (nothing between them writes memory),
   * stores at the last (nothing between them touches memory).
   */
  findVectorAccesses(): void {
    const plain = (x: Inst): boolean => !x.volatile && !x.ordering && !this.foldedLoad.has(x);
    const root = (p: Value): { r: Value; off: number } => {
      let off = 0, cur = p;
      while (cur.kind === 'inst' && cur.op === 'gep' && cur.ops.slice(1).every(x => x.kind === 'int')) {
        off += constGepOffset(cur.srcTy!, cur.ops.slice(1) as Const[]);
        cur = cur.ops[0]!;
      }
      return { r: cur, off };
    };
    const writes = (x: Inst): boolean => x.op === 'store' || x.op === 'atomicrmw' || x.op === 'cmpxchg' || x.op === 'fence'
      || (x.op === 'call' && !(x.ops[0]!.kind === 'func' && x.ops[0].attrs.readnone && !x.ops[0].attrs.convergent));
    for (const b of this.f.blocks) {
      const insts = b.insts;
      for (let k = 0; k < insts.length; k++) {
        const i = insts[k]!;
        if ((i.op !== 'load' && i.op !== 'store') || !plain(i) || this.vecSkip.has(i) || this.vecAt.has(i)) continue;
        const load = i.op === 'load';
        const ty = load ? i.ty : i.ops[0]!.ty;
        const sz = isScalar(ty) && ty !== T.i1 ? sizeOf(ty) : 0;
        if (sz !== 4 && sz !== 8) continue;
        const r0 = root(i.ops[load ? 0 : 1]!);
        if (r0.r.kind === 'arg' && this.byvalDirect.has(r0.r)) continue;   // .param has no vector access here
        const ms: { i: Inst; off: number }[] = [{ i, off: r0.off }];
        for (let j = k + 1; j < insts.length && ms.length < (sz === 4 ? 4 : 2); j++) {
          const x = insts[j]!;
          if (x.op === i.op && plain(x) && (load ? x.ty : x.ops[0]!.ty) === ty && !this.vecSkip.has(x)) {
            const rx = root(x.ops[load ? 0 : 1]!);
            if (rx.r === r0.r) { ms.push({ i: x, off: rx.off }); continue; }
          }
          if (load ? writes(x) : writes(x) || x.op === 'load') break;
        }
        for (const n of sz === 4 ? [4, 2] : [2]) {
          if (ms.length < n) continue;
          const g = ms.slice(0, n).sort((a, c) => a.off - c.off);
          if (!g.every((m, q) => m.off === g[0]!.off + q * sz) || (g[0]!.i.align ?? 1) < n * sz) continue;
          const first = ms[0]!.i, last = ms[n - 1]!.i;
          const at = load ? first : last;
          this.vecAt.set(at, { members: g.map(m => m.i), lowOff: g[0]!.off, atOff: load ? ms[0]!.off : ms[n - 1]!.off, ty });
          for (const m of ms.slice(0, n)) if (m.i !== at) this.vecSkip.add(m.i);
          break;
        }
      }
    }
  }

  /**
   * A gep as constant offset + scaled dynamic terms, looking through constant-index gep bases, extended
   * i32 indices (mul.wide) and nsw constant addends (which join the offset).
   */
  gepParts(i: Inst): { base: Value; off: number; dyn: DynTerm[] } {
    let base = i.ops[0]!;
    let off = 0;
    while (base.kind === 'inst' && base.op === 'gep' && base.ops.slice(1).every(x => x.kind === 'int') && !this.isDirectParamPtr(base)) {
      off += constGepOffset(base.srcTy!, base.ops.slice(1) as Const[]);
      base = base.ops[0]!;
    }
    const dyn: DynTerm[] = [];
    const addDyn = (idx: Value, scale: number): void => {
      if (scale === 0) return;
      const wide = idx.kind === 'inst' && this.wideIdx.has(idx) ? idx : null;
      let src = wide ? wide.ops[0]! : idx;
      if (src.kind === 'inst' && this.peeledAdd.has(src)) {
        off += Number((src.ops[1] as Const & { kind: 'int' }).value) * scale;
        src = src.ops[0]!;
      }
      dyn.push({ src, scale, sgn: wide && wide.op === 'zext' ? 'u' : 's' });
    };
    let cur: Type = i.srcTy!;
    i.ops.slice(1).forEach((idx, k) => {
      if (k === 0) {
        const sz = sizeOf(cur);
        if (idx.kind === 'int') off += Number(idx.value) * sz; else addDyn(idx, sz);
        return;
      }
      if (cur.k === 'struct') {
        if (idx.kind !== 'int') throw new Unsupported('non-constant struct index in gep');
        off += fieldOffset(cur as Type & { k: 'struct' }, Number(idx.value));
        cur = cur.fields[Number(idx.value)]!;
      } else if (cur.k === 'array' || cur.k === 'vector') {
        const el = cur.elem;
        if (idx.kind === 'int') off += Number(idx.value) * sizeOf(el); else addDyn(idx, sizeOf(el));
        cur = el;
      } else throw new Unsupported(`gep into ${typeStr(cur)}`);
    });
    return { base, off, dyn };
  }
}
