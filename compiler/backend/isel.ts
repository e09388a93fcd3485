// Instruction selection for one function: SSA IR → PTX text (a "piece").
// Every SSA value gets its own virtual register(s) (aggregates: one per scalar leaf); phis are eliminated by
// parallel copies on the incoming edges, critical edges going through edge blocks placed after the body.
// The text depends only on the function (labels and the depot name carry FN_MARK, replaced at assembly).
import { emitDivByConst } from './divconst';
import { mutateIns, mutateRaw } from './mutations';
import type { Func, Block, Inst, Value, Const, Type, Arg, Global, ICmpPred, FCmpPred } from '../middle/ir';
import { T, AS, sizeOf, alignOf, fieldOffset, isInt, ptrTy, typeStr, isTerminator } from '../middle/ir';
import { buildCFG, type CFG } from '../middle/analysis/cfg';
import { dominates } from '../middle/analysis/dominance';
import type { CompileOptions } from '../options';
import { Unsupported } from '../diagnostics';
import { Registers, classOfReg } from './registers';
import { regClassOf, leavesOf, leafRange, bitsOf, memSuffix, movSuffix, fpImm, intImm, isScalar, type RegClass, type Leaf } from './types';
import { ptxName, kernelParamDecl, funcHeader, paramKind, callPrototype, type ParamKind } from './callconv';
import { emitIntrinsic } from './intrinsics';
import { emitInlineAsm } from './inlineasm';
import { LocTracker } from './lineinfo';
import { onlyReadsThrough } from '../middle/analysis/readonly';

/** Placeholder for the function's ordinal in labels (`$L__BB<fn>_<n>`) and the depot name. */
export const FN_MARK = '@@FN@@';

export interface FnPiece {
  name: string;
  /** Definition text, ending in "}\n"; contains FN_MARK. */
  text: string;
  /** Function symbols this piece references (callees and taken addresses). */
  funcRefs: string[];
}

/** Memory address: state space ('' generic) and `[base+off]`. */
export interface Addr { space: string; base: string; off: number }

/** memQual's mark for a load through the non-coherent (read-only) cache: `ld.global.nc`, not a qualifier before the space. */
export const NC = '.nc';
export const ldOp = (qual: string, sp: string): string => (qual === NC ? `ld${sp}.nc` : `ld${qual}${sp}`);

/** Does u load from or store to the address p (and not store p itself)? */
const addressedBy = (u: Inst, p: Value): boolean => (u.op === 'load' && u.ops[0] === p) || (u.op === 'store' && u.ops[1] === p && u.ops[0] !== p);

export function spaceOf(as: number): string {
  switch (as) {
    case AS.generic: return '';
    case AS.global: return 'global';
    case AS.shared: return 'shared';
    case AS.const: return 'const';
    case AS.local: return 'local';
    case AS.param: return 'param';
    default: throw new Unsupported(`address space ${as}`);
  }
}
export const addrText = (a: Addr): string => `[${a.base}${a.off ? (a.off > 0 ? '+' : '+') + a.off : ''}]`;
export const dot = (s: string): string => (s ? '.' + s : '');

export function ptxScope(s: string | undefined): string {
  return s === 'block' ? 'cta' : s === 'device' ? 'gpu' : 'sys';
}

export class FnEmitter {
  readonly regs = new Registers();
  readonly lines: string[] = [];
  private vals = new Map<Value, string[]>();
  private users = new Map<Value, Inst[]>();
  private blockIdx = new Map<Block, number>();
  private nextLabel: number;
  private depotSize = 0;
  private depotAlign = 1;
  private allocaOff = new Map<Inst, number>();
  private byvalDirect = new Set<Arg>();
  private byvalCopy = new Map<Arg, number>();
  private fmaOf = new Map<Inst, { mul: Inst; other: Value; subMul: boolean; subOther: boolean }>();
  private contracted = new Set<Inst>();
  /** add(mul(a, b), c) on integers → mad.lo (the mul is in `contracted`). */
  private madOf = new Map<Inst, { mul: Inst; other: Value }>();
  /** i32 → i64 sext/zext used only as gep indices: folded into mul.wide.{s,u}32, not emitted. */
  private wideIdx = new Set<Inst>();
  /** Scaled gep indices computed in the current block: `reg|scale|kind` → product register. */
  private scaled = new Map<string, string>();
  /** Constants materialised in the current block: `class|text` → register (off while emitting edge copies). */
  private constRegs = new Map<string, string>();
  private inEdgeCopies = false;
  /** Geps with constant indices whose every use is a load/store address: folded into `[base+off]`. */
  private foldedGep = new Set<Inst>();
  /** `add nsw x, C` used as a gep index (directly or extended): the gep adds C * scale to its offset. */
  private peeledAdd = new Set<Inst>();
  /** Peeled adds with no other use: not computed at all. */
  private unusedAdd = new Set<Inst>();
  /** Geps with dynamic indices used only as load/store addresses, grouped by (block, base, dynamic terms). */
  private dynGroup = new Map<Inst, { reg: string | null }>();
  /** zext/sext of a single-use i8/i16 load: one ld.{u,s}{8,16} straight into the wide register. */
  private extLoad = new Map<Inst, Inst>();
  private foldedLoad = new Set<Inst>();
  /** ext(trunc x to i8/i16) with a single-use trunc: one cvt from x's register (sign/zero-extend in place). */
  private truncExt = new Map<Inst, Inst>();
  private foldedTrunc = new Set<Inst>();
  /** select(icmp a, b), a, b) on integers → min/max (LLVM canonicalises these to smin/smax/umin/umax). */
  private minMaxOf = new Map<Inst, { op: 'min' | 'max'; signed: boolean }>();
  /** icmps used only by such selects: not computed. */
  private foldedCmp = new Set<Inst>();
  private halves = new Map<Inst, Value[]>();
  private vecAt = new Map<Inst, { members: Inst[]; lowOff: number; atOff: number; ty: Type }>();
  private vecSkip = new Set<Inst>();
  private inHalves = new Set<Inst>();
  private deferred: string[][] = [];
  private hasPreds = new Set<Block>();
  readonly funcRefs = new Set<string>();
  private callSeq = 0;
  /** -lineinfo: the position of the instruction being selected, and where the text says it is. */
  private loc: Inst['loc'];
  private locs: LocTracker | null;
  needSP = false;
  readonly fname: string;

  constructor(readonly f: Func, readonly opts: CompileOptions) {
    this.fname = ptxName(f.name);
    f.blocks.forEach((b, i) => this.blockIdx.set(b, i));
    this.nextLabel = f.blocks.length;
    this.locs = opts.lineInfo ? new LocTracker(!opts.noLineInfoInlinedAt) : null;
    this.analyse();
  }

  // ------------------------------------------------------------------ emission helpers

  ins(opc: string, ...operands: string[]): void {
    if (this.opts.testMutation) { const m = mutateIns(this.opts.testMutation, opc, operands); if (!m) return; opc = m.opc; operands = m.operands; }
    if (this.locs && !this.inEdgeCopies) for (const l of this.locs.move(this.loc)) this.lines.push(l);
    this.lines.push(operands.length ? `\t${opc} \t${operands.join(', ')};` : `\t${opc};`);
  }
  raw(line: string): void {
    if (this.opts.testMutation && mutateRaw(this.opts.testMutation, line) === null) return;
    // an instruction or call sequence (not a label, directive or comment) sits at the current position
    if (this.locs && !this.inEdgeCopies && line.length > 1 && line[0] === '\t' && line[1] !== '.' && line[1] !== '/') for (const l of this.locs.move(this.loc)) this.lines.push(l);
    this.lines.push(line);
  }
  fresh(c: RegClass): string { return this.regs.fresh(c); }
  label(b: Block): string { return `$L__BB${FN_MARK}_${this.blockIdx.get(b)!}`; }
  newLabel(): string { return `$L__BB${FN_MARK}_${this.nextLabel++}`; }
  get ftz(): string { return this.opts.ftz ? '.ftz' : ''; }

  // ------------------------------------------------------------------ analysis

  private analyse(): void {
    const f = this.f;
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
    this.findMads();
    this.findWideIndices();
    this.findExtLoads();
    this.findMinMax();
    this.findHalves();
    this.findVectorAccesses();
    this.findDynGroups();
    this.findFoldedGeps();
    this.coalescePhiInputs();
    // fmul + fadd/fsub → fma (same block, single use), as cicc does with -fmad=1
    if (this.opts.fmad) {
      for (const b of f.blocks) for (const i of b.insts) {
        if ((i.op !== 'fadd' && i.op !== 'fsub') || (i.ty.k !== 'float' && i.ty.k !== 'double')) continue;
        for (let k = 0; k < 2; k++) {
          const m = i.ops[k]!;
          if (m.kind !== 'inst' || m.op !== 'fmul' || m.parent !== b || this.contracted.has(m) || m.ty !== i.ty) continue;
          if ((this.users.get(m) ?? []).length !== 1 || m.ops[0] === m.ops[1] && false) continue;
          this.contracted.add(m);
          this.fmaOf.set(i, { mul: m, other: i.ops[1 - k]!, subMul: i.op === 'fsub' && k === 1, subOther: i.op === 'fsub' && k === 0 });
          break;
        }
      }
    }
  }

  /** Integer mul feeding a single add in the same block → mad.lo (cicc's pattern at -O3). */
  private findMads(): void {
    for (const b of this.f.blocks) for (const i of b.insts) {
      if (i.op !== 'add' || i.ty.k !== 'int' || (i.ty.bits !== 16 && i.ty.bits !== 32 && i.ty.bits !== 64)) continue;
      for (let k = 0; k < 2; k++) {
        const m = i.ops[k]!;
        if (m.kind !== 'inst' || m.op !== 'mul' || m.parent !== b || this.contracted.has(m) || m.ty !== i.ty) continue;
        if ((this.users.get(m) ?? []).length !== 1) continue;
        this.contracted.add(m);
        this.madOf.set(i, { mul: m, other: i.ops[1 - k]! });
        break;
      }
    }
  }

  /**
   * A value computed in a phi's predecessor only to flow into the phi is computed straight into the phi's
   * register: the edge needs no copy. The phi's register is free there when the phi's block does not
   * dominate the predecessor (the phi is not live in it: no back edge), and each other input written the
   * same way is written in its own predecessor, on another path.
   */
  /**
   * 64-bit values built from or split into 32-bit halves, as cicc's `mov.b64 %rd, {%lo, %hi}` and
   * `mov.b64 {%lo, %hi}, %rd`: `or (zext lo), (shl (zext hi), 32)` and `trunc (lshr x, 32)` (the
   * handles of cooperative groups, the words of a double).
   */
  private findHalves(): void {
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
  private emitHalves(i: Inst): void {
    const parts = this.halves.get(i)!;
    if (parts.length === 2) { this.ins(`mov.b${bitsOf(i.ty)}`, this.reg(i), `{${this.scalar(parts[0]!)}, ${this.scalar(parts[1]!)}}`); return; }
    const src = parts[0]!;
    this.ins(`mov.b${bitsOf(src.ty)}`, `{${this.fresh(regClassOf(i.ty))}, ${this.reg(i)}}`, this.scalar(src));
  }

  private cfgMemo: CFG | null = null;
  private cfg(): CFG { return this.cfgMemo ??= buildCFG(this.f); }
  /** `b` is the only predecessor of `x` (one edge). */
  private onlyEntry(x: Block, b: Block): boolean { const ps = this.cfg().preds.get(x) ?? []; return ps.length === 1 && ps[0] === b; }

  private coalescePhiInputs(): void {
    for (const b of this.f.blocks) for (const p of b.insts) {
      if (p.op !== 'phi') break;
      if (!isScalar(p.ty)) continue;
      p.ops.forEach((v, k) => {
        const from = p.targets[k]!;
        if (v.kind !== 'inst' || v.op === 'phi' || v.parent !== from || v.ty !== p.ty || this.useCount(v) !== 1 || this.vals.has(v)) return;
        if (dominates(this.cfg(), b, from)) return;
        this.vals.set(v, this.regsOf(p));
      });
    }
  }

  private findMinMax(): void {
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

  private findExtLoads(): void {
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

  private findDynGroups(): void {
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
  private findFoldedGeps(): void {
    const foldable = (g: Inst): boolean => {
      if (g.op !== 'gep' || !g.ops.slice(1).every(x => x.kind === 'int')) return false;
      const us = this.users.get(g) ?? [];
      return us.length > 0 && us.every(u => (addressedBy(u, g) && !u.ordering)
        || (u.op === 'gep' && u.ops[0] === g && !u.ops.slice(1).includes(g) && (foldable(u) || this.dynGroup.has(u))));
    };
    for (const b of this.f.blocks) for (const i of b.insts) if (foldable(i)) this.foldedGep.add(i);
  }

  /** sext/zext i32 → i64 whose every use is a gep index (not the base). */
  private findWideIndices(): void {
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

  private depotAlloc(size: number, align: number): number {
    const off = Math.ceil(this.depotSize / align) * align;
    this.depotSize = off + size;
    this.depotAlign = Math.max(this.depotAlign, align);
    return off;
  }

  private onlyConstLoads(v: Value): boolean {
    for (const u of this.users.get(v) ?? []) {
      if (u.op === 'load' && u.ops[0] === v && !u.volatile && !u.ordering) continue;
      if (u.op === 'gep' && u.ops[0] === v && u.ops.slice(1).every(x => x.kind === 'int') && this.onlyConstLoads(u)) continue;
      return false;
    }
    return true;
  }

  private isDirectParamPtr(v: Value): boolean {
    if (v.kind === 'arg') return this.byvalDirect.has(v);
    if (v.kind === 'inst' && v.op === 'gep') return this.isDirectParamPtr(v.ops[0]!);
    return false;
  }

  useCount(v: Value): number { return (this.users.get(v) ?? []).length; }

  /** memcpy/memmove/memset with a small constant length, whose pointers it addresses via addrOf only. */
  private addressOnlyMemIntrinsic(u: Inst, p: Value): boolean {
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

  // ------------------------------------------------------------------ values and operands

  /** The registers of an instruction/argument result (allocated on first request). */
  regsOf(v: Inst | Arg): string[] {
    let r = this.vals.get(v);
    if (!r) {
      r = leavesOf(v.ty).map(l => this.fresh(regClassOf(l.ty)));
      this.vals.set(v, r);
    }
    return r;
  }
  /** Register of a scalar result. */
  reg(v: Inst | Arg): string { return this.regsOf(v)[0]!; }

  /** Leaf registers of any value (constants are materialised with mov). */
  leaves(v: Value): string[] {
    if (v.kind === 'inst' || v.kind === 'arg') return this.regsOf(v);
    if (isScalar(v.ty)) return [this.scalar(v)];
    if (v.kind === 'agg' || v.kind === 'zero' || v.kind === 'undef' || v.kind === 'poison' || v.kind === 'bytes')
      return constLeaves(v).map(c => this.scalar(c));
    throw new Unsupported(`value of kind ${v.kind} as an aggregate`);
  }

  /** A scalar operand in a register. */
  scalar(v: Value): string {
    if (v.kind === 'inst' || v.kind === 'arg') return this.reg(v);
    const c = regClassOf(v.ty);
    const imm = this.imm(v);
    const memo = this.inEdgeCopies ? null : `${c}|${imm ?? ''}|${imm === null ? constKey(v) : ''}`;
    if (memo !== null) { const r = this.constRegs.get(memo); if (r) return r; }
    const d = this.fresh(c);
    if (memo !== null) this.constRegs.set(memo, d);
    if (imm !== null) {
      if (c === 'p') this.ins('setp.ne.u32', d, imm === '0' ? '0' : '1', '0');
      else this.ins(`mov.${c === 'rs' && !isInt(v.ty) ? 'b16' : movSuffix(c)}`, d, imm);
      return d;
    }
    // addresses of globals/functions and constant expressions
    this.ins('mov.u64', d, this.symAddr(v));
    return d;
  }

  /** An operand that may be an immediate (integers and FP constants; predicates and symbols go to registers). */
  src(v: Value): string {
    if (v.kind === 'inst' || v.kind === 'arg') return this.reg(v);
    if (v.ty === T.i1) return this.scalar(v);
    const imm = this.imm(v);
    return imm ?? this.scalar(v);
  }

  /** Immediate text of a scalar constant (null for symbolic constants). */
  imm(v: Value): string | null {
    switch (v.kind) {
      case 'int': return intImm(v.value, bitsOf(v.ty));
      case 'fp': return fpImm(v.ty, v.value);
      case 'null': case 'zero': case 'undef': case 'poison':
        return v.ty.k === 'float' || v.ty.k === 'double' ? fpImm(v.ty, 0) : '0';
      default: return null;
    }
  }

  /** Symbol text for the address of a global/function (in its own space; generic for cexpr casts goes through cvta). */
  private symAddr(v: Value): string {
    if (v.kind === 'global') return ptxName(v.name);
    if (v.kind === 'func') { this.funcRefs.add(v.name); return ptxName(v.name); }
    if (v.kind === 'cexpr') {
      const base = v.base;
      if (v.op === 'bitcast' || v.op === 'ptrtoint') return this.symAddr(base as Value);
      if (v.op === 'addrspacecast') {
        const from = (base as Value).ty.k === 'ptr' ? ((base as Value).ty as { as: number }).as : 0;
        const to = v.ty.k === 'ptr' ? (v.ty as { as: number }).as : 0;
        const inner = this.symAddr(base as Value);
        if (from === to) return inner;
        const t = this.fresh('rd');
        this.ins('mov.u64', t, inner);
        const r = this.fresh('rd');
        if (to === 0) this.ins(`cvta.${spaceOf(from)}.u64`, r, t);
        else if (from === 0) this.ins(`cvta.to.${spaceOf(to)}.u64`, r, t);
        else throw new Unsupported('addrspacecast between two specific spaces');
        return r;
      }
      if (v.op === 'gep') {
        const off = constGepOffset(v.srcTy!, v.indices ?? []);
        const inner = this.symAddr(base as Value);
        if (inner.startsWith('%')) {
          if (!off) return inner;
          const r = this.fresh('rd'); this.ins('add.s64', r, inner, String(off)); return r;
        }
        return off ? `${inner}+${off}` : inner;
      }
    }
    throw new Unsupported(`constant of kind ${v.kind} as an operand`);
  }

  /** i8 values live in 16-bit registers with undefined high bits: extend before width-sensitive ops. */
  ext8(v: Value, signed: boolean): string {
    if (v.kind === 'int') return intImm(signed ? BigInt.asIntN(8, v.value) : BigInt.asUintN(8, v.value), 16);
    const r = this.scalar(v);
    const d = this.fresh('rs');
    if (signed) this.ins('cvt.s16.s8', d, r);
    else this.ins('and.b16', d, r, '255');
    return d;
  }
  /** An integer operand ready for a width-sensitive op (i8 extended). */
  intSrc(v: Value, signed: boolean): string {
    return v.ty === T.i8 ? this.ext8(v, signed) : this.src(v);
  }

  /** Convert a register to class `to` (for asm operands, params): ints widen/narrow, same-size FP by bit moves. */
  coerce(r: string, from: Type, to: RegClass, signed = false): string {
    const fc = classOfReg(r) ?? regClassOf(from);
    if (fc === to) return r;
    const d = this.fresh(to);
    const fb = fc === 'p' ? 1 : fc === 'rs' ? 16 : fc === 'r' || fc === 'f' ? 32 : 64;
    const tb = to === 'rs' ? 16 : to === 'r' || to === 'f' ? 32 : 64;
    if (fc === 'p') { const t = to === 'f' || to === 'fd' ? this.fresh(tb === 32 ? 'r' : 'rd') : d; this.ins(`selp.u${tb}`, t, '1', '0', r); if (t !== d) this.ins(`mov.b${tb}`, d, t); return d; }
    if (to === 'p') { this.ins(`setp.ne.${fc === 'f' ? 'f32' : fc === 'fd' ? 'f64' : 'b' + fb}`, d, r, fc === 'f' ? '0f00000000' : fc === 'fd' ? '0d0000000000000000' : '0'); return d; }
    if (fb === tb) { this.ins(`mov.b${tb}`, d, r); return d; }
    // width change through integer registers
    let src = r;
    if (fc === 'f' || fc === 'fd') { src = this.fresh(fc === 'f' ? 'r' : 'rd'); this.ins(`mov.b${fb}`, src, r); }
    const ic: RegClass = tb === 16 ? 'rs' : tb === 32 ? 'r' : 'rd';
    const dst = to === 'f' || to === 'fd' ? this.fresh(ic) : d;
    const sfx = from === T.i8 && fb === 16 ? '8' : String(fb);
    this.ins(`cvt.${tb > fb && signed ? 's' : 'u'}${tb}.${tb > fb && signed ? 's' : 'u'}${sfx}`, dst, src);
    if (dst !== d) this.ins(`mov.b${tb}`, d, dst);
    return d;
  }

  // ------------------------------------------------------------------ addresses

  addrOf(p: Value): Addr {
    if (p.kind === 'arg' && this.byvalDirect.has(p)) return { space: 'param', base: `${this.fname}_param_${p.index}`, off: 0 };
    if (p.kind === 'inst' && p.op === 'alloca') { return { space: 'local', base: '%SPL', off: this.allocaOff.get(p)! }; }
    if (this.isLocalCast(p)) return { space: 'local', base: '%SPL', off: this.allocaOff.get((p as Inst).ops[0] as Inst)! };
    // a generic pointer made from a specific one: access memory through the specific one
    if (p.kind === 'inst' && p.op === 'addrspacecast' && p.ty.k === 'ptr' && (p.ty as { as: number }).as === AS.generic
      && p.ops[0]!.ty.k === 'ptr' && (p.ops[0]!.ty as { as: number }).as !== AS.generic) return this.addrOf(p.ops[0]!);
    if (p.kind === 'global') return { space: spaceOf(p.addrSpace), base: ptxName(p.name), off: 0 };
    if (p.kind === 'cexpr' && (p.op === 'addrspacecast' || p.op === 'bitcast') && (p.base.kind === 'global' || p.base.kind === 'cexpr')) {
      const inner = this.addrOf(p.base as Value);
      if (inner.space !== '' && inner.base.startsWith('%') === false) return inner;
    }
    if (p.kind === 'cexpr' && p.op === 'gep') {
      const inner = this.addrOf(p.base as Value);
      if (!inner.base.startsWith('%')) return { ...inner, off: inner.off + constGepOffset(p.srcTy!, p.indices ?? []) };
    }
    if (p.kind === 'inst' && p.op === 'gep' && this.dynGroup.has(p)) {
      const g = this.dynGroup.get(p)!;
      if (g.reg === null) throw new Error(`gep %${p.name} used before its group was emitted`);
      const as = p.ty.k === 'ptr' ? (p.ty as { as: number }).as : 0;
      return { space: spaceOf(as), base: g.reg, off: this.gepParts(p).off };
    }
    if (p.kind === 'inst' && p.op === 'gep' && p.ops.slice(1).every(x => x.kind === 'int')) {
      const inner = this.addrOf(p.ops[0]!);
      return { ...inner, off: inner.off + constGepOffset(p.srcTy!, p.ops.slice(1) as Const[]) };
    }
    const as = p.ty.k === 'ptr' ? (p.ty as { as: number }).as : 0;
    return { space: spaceOf(as), base: this.scalar(p), off: 0 };
  }

  /** Load one scalar of type `ty` from `a` into a fresh (or given) register. */
  loadScalar(ty: Type, a: Addr, qual = '', dst?: string): string {
    const at = addrText(a);
    const sp = dot(a.space);
    if (ty === T.i1) {
      const t = this.fresh('rs'), t2 = this.fresh('rs');
      this.ins(`${ldOp(qual, sp)}.u8`, t, at);
      this.ins('and.b16', t2, t, '1');
      const d = dst ?? this.fresh('p');
      this.ins('setp.eq.b16', d, t2, '1');
      return d;
    }
    const d = dst ?? this.fresh(regClassOf(ty));
    this.ins(`${ldOp(qual, sp)}.${memSuffix(ty)}`, d, at);
    return d;
  }
  storeScalar(ty: Type, a: Addr, v: string, qual = ''): void {
    const at = addrText(a);
    const sp = dot(a.space);
    if (ty === T.i1) {
      const t = this.fresh('rs');
      this.ins('selp.u16', t, '1', '0', v);
      this.ins(`st${qual}${sp}.u8`, at, t);
      return;
    }
    let val = v;
    if (!val.startsWith('%')) {
      // an immediate stored: one register per constant and block, as scalar() materialises them
      const c = regClassOf(ty), memo = this.inEdgeCopies ? null : `${c}|${val}|`;
      const known = memo === null ? undefined : this.constRegs.get(memo);
      if (known) val = known;
      else {
        const r = this.fresh(c);
        this.ins(`mov.${ty.k === 'half' || ty.k === 'bfloat' ? 'b16' : movSuffix(c)}`, r, val);
        if (memo !== null) this.constRegs.set(memo, r);
        val = r;
      }
    }
    this.ins(`st${qual}${sp}.${memSuffix(ty)}`, at, val);
  }

  /** Copy `size` bytes between two addresses in chunks of the common alignment (≤ 8). */
  copyBytes(dst: Addr, src: Addr, size: number, align: number): void {
    let w = 8; while (w > 1 && (align % w !== 0 || size % w !== 0)) w >>= 1;
    const ty = w === 8 ? T.i64 : w === 4 ? T.i32 : w === 2 ? T.i16 : T.i8;
    for (let o = 0; o < size; o += w) {
      const r = this.loadScalar(ty, { ...src, off: src.off + o });
      this.storeScalar(ty, { ...dst, off: dst.off + o }, r);
    }
  }

  // ------------------------------------------------------------------ the function

  emit(): FnPiece {
    const f = this.f;
    if (f.blocks.length === 0) throw new Error('emitFunction on a declaration');
    // parameters
    this.loc = f.loc;
    const entryLoc = this.locs ? this.locs.move(f.loc) : [];
    f.params.forEach((a, i) => this.emitParam(a, i));
    f.blocks.forEach((b, i) => this.emitBlock(b, i));
    for (const d of this.deferred) { this.raw(''); for (const l of d) this.raw(l); }

    const head: string[] = [];
    const visible = f.linkage !== 'internal' && f.linkage !== 'private' && (f.isKernel || this.opts.rdc);
    const weak = this.opts.rdc && (f.linkage === 'weak' || f.linkage === 'linkonce_odr');
    const link = weak ? '.weak ' : visible ? '.visible ' : '';
    if (visible || weak) head.push(`\t// .globl\t${this.fname}`);
    if (f.isKernel) {
      const ps = f.params.map((_, i) => '\t' + kernelParamDecl(f, i));
      head.push(ps.length ? `${link}.entry ${this.fname}(\n${ps.join(',\n')}\n)` : `${link}.entry ${this.fname}()`);
      if (f.attrs.maxntid) head.push(`.maxntid ${f.attrs.maxntid}, 1, 1`);
      if (f.attrs.minctasm) head.push(`.minnctapersm ${f.attrs.minctasm}`);
      if (f.attrs.maxclusterrank && this.opts.arch >= 90) head.push(`.maxclusterrank ${f.attrs.maxclusterrank}`);
    } else {
      if (f.fnTy.varargs) throw new Unsupported(`variadic device function ${f.name}`);
      head.push(funcHeader(f, link, false));
    }
    head.push('{');
    const decls: string[] = [];
    if (this.depotSize > 0) {
      decls.push(`\t.local .align ${Math.max(this.depotAlign, 1)} .b8 \t__local_depot${FN_MARK}[${this.depotSize}];`);
      decls.push('\t.reg .b64 \t%SP;', '\t.reg .b64 \t%SPL;');
    }
    decls.push(...this.regs.decls(), ...entryLoc);
    const pro: string[] = [];
    if (this.depotSize > 0) {
      pro.push(`\tmov.u64 \t%SPL, __local_depot${FN_MARK};`);
      if (this.needSP) pro.push('\tcvta.local.u64 \t%SP, %SPL;');
    }
    const text = [...head, ...decls, '', '', ...pro, ...this.lines, '', '}', ''].join('\n');
    return { name: f.name, text, funcRefs: [...this.funcRefs].sort() };
  }

  private emitParam(a: Arg, i: number): void {
    const f = this.f;
    const pname = `${this.fname}_param_${i}`;
    if (a.byval) {
      const off = this.byvalCopy.get(a);
      if (off !== undefined) {
        const pk = paramKind(a.ty, a.byval, a.align);
        this.copyBytes({ space: 'local', base: '%SPL', off }, { space: 'param', base: pname, off: 0 }, sizeOf(a.byval), pk.k === 'agg' ? pk.align : 1);
        this.needSP = true;
        this.ins('add.u64', this.reg(a), '%SP', String(off));
      }
      return;
    }
    if (this.useCount(a) === 0) return;
    if (!isScalar(a.ty)) {
      // first-class aggregate parameter
      const ls = leavesOf(a.ty), rs = this.regsOf(a);
      ls.forEach((l, k) => this.loadScalar(l.ty, { space: 'param', base: pname, off: l.off }, '', rs[k]));
      return;
    }
    const t = a.ty;
    if (t === T.i1) {
      const r = this.fresh(f.isKernel ? 'rs' : 'r'), r2 = this.fresh(f.isKernel ? 'rs' : 'r');
      this.ins(f.isKernel ? 'ld.param.u8' : 'ld.param.u32', r, `[${pname}]`);
      this.ins(f.isKernel ? 'and.b16' : 'and.b32', r2, r, '1');
      this.ins(f.isKernel ? 'setp.eq.b16' : 'setp.eq.b32', this.reg(a), r2, '1');
      return;
    }
    this.ins(`ld.param.${memSuffix(t)}`, this.reg(a), `[${pname}]`);
  }

  private emitBlock(b: Block, i: number): void {
    this.scaled.clear();
    this.constRegs.clear();
    if (i > 0) {
      this.raw('');
      if (this.hasPreds.has(b)) this.raw(`${this.label(b)}:`);
    }
    b.insts.forEach((inst, k) => {
      if (k < b.insts.length - 1 && isTerminator(inst)) throw new Error(`instruction after the terminator in block ${b.name}`);
      if (inst.loc) this.loc = inst.loc;
      this.emitInst(inst, b, i);
    });
    const last = b.insts[b.insts.length - 1];
    if (!last || !isTerminator(last)) throw new Error(`block ${b.name} has no terminator`);
  }

  // ------------------------------------------------------------------ phis and branches

  /** Parallel copies into the phis of `to` for the edge from → to. */
  private edgeCopies(from: Block, to: Block, out: string[]): void {
    const moves: { d: string; s: string; c: RegClass }[] = [];
    const save = this.lines.length;
    this.inEdgeCopies = true;
    for (const p of to.insts) {
      if (p.op !== 'phi') break;
      const k = p.targets.indexOf(from);
      if (k < 0) throw new Error(`phi in ${to.name} lacks an entry for ${from.name}`);
      const v = p.ops[k]!;
      const ds = this.regsOf(p);
      // an undefined incoming value (a variable never set on this path) needs no copy: any register contents do
      if (v.kind === 'undef' || v.kind === 'poison') continue;
      let ss: string[];
      if (v.kind === 'inst' || v.kind === 'arg') ss = this.regsOf(v);
      else if (isScalar(v.ty)) ss = [v.ty === T.i1 ? this.scalar(v) : this.src(v)];
      else ss = constLeaves(v as Const).map(c => c.ty === T.i1 ? this.scalar(c) : this.src(c));
      ds.forEach((d, j) => moves.push({ d, s: ss[j]!, c: classOfReg(d)! }));
    }
    // materialisations emitted into this.lines belong to the edge: move them to `out`
    out.push(...this.lines.splice(save));
    this.inEdgeCopies = false;
    let pending = moves.filter(m => m.d !== m.s);
    const mov = (d: string, s: string, c: RegClass): void => {
      out.push(`\tmov.${c === 'rs' ? 'b16' : movSuffix(c)} \t${d}, ${s};`);
    };
    while (pending.length) {
      const k = pending.findIndex(m => !pending.some(o => o !== m && o.s === m.d));
      if (k >= 0) { const m = pending[k]!; mov(m.d, m.s, m.c); pending.splice(k, 1); continue; }
      const m = pending[0]!;
      const t = this.fresh(m.c);
      mov(t, m.d, m.c);
      pending = pending.map(o => (o.s === m.d ? { ...o, s: t } : o));
    }
  }
  private hasPhis(b: Block): boolean { return b.insts[0]?.op === 'phi'; }

  /** Target label for a conditional edge; an edge block when the target has phis. */
  private edgeTarget(from: Block, to: Block): string {
    if (!this.hasPhis(to)) return this.label(to);
    const l = this.newLabel();
    const body: string[] = [`${l}:`];
    this.edgeCopies(from, to, body);
    body.push(`\tbra.uni \t${this.label(to)};`);
    this.deferred.push(body);
    return l;
  }
  /** Unconditional jump (with copies) at the end of a block. */
  private jump(from: Block, to: Block, idx: number): void {
    const out: string[] = [];
    this.edgeCopies(from, to, out);
    this.lines.push(...out);
    if (this.blockIdx.get(to) !== idx + 1) this.ins('bra.uni', this.label(to));
  }

  // ------------------------------------------------------------------ instructions

  private emitInst(i: Inst, b: Block, bi: number): void {
    if (this.halves.has(i)) { this.emitHalves(i); return; }
    if (this.inHalves.has(i)) return;
    switch (i.op) {
      case 'phi': this.regsOf(i); return;
      case 'alloca':
        if (this.useCount(i) > 0 && (this.users.get(i) ?? []).some(u => !addressedBy(u, i) && !this.isLocalCast(u) && !this.addressOnlyMemIntrinsic(u, i))) {
          this.needSP = true;
          this.ins('add.u64', this.reg(i), '%SP', String(this.allocaOff.get(i)!));
        }
        return;
      case 'br': this.jump(b, i.targets[0]!, bi); return;
      case 'condbr': {
        const [t, e] = i.targets as [Block, Block];
        const c = i.ops[0]!;
        if (t === e || c.kind === 'int') { this.jump(b, c.kind === 'int' && c.value === 0n ? e : t, bi); return; }
        const p = this.scalar(c);
        // a triangle: one side falls through to a block whose only way in is this branch, the other goes
        // to a join with phis: the join's copies are made before the branch (the fall-through block does
        // not read the phis' registers: they are not live there), saving the edge block's jump
        const next = this.blockIdx.get(t) === bi + 1 ? t : this.blockIdx.get(e) === bi + 1 ? e : null;
        const join = next === t ? e : t;
        if (next && !this.hasPhis(next) && this.hasPhis(join) && this.onlyEntry(next, b) && !dominates(this.cfg(), join, b)) {
          const out: string[] = [];
          this.edgeCopies(b, join, out);
          this.lines.push(...out);
          this.lines.push(`	@${next === t ? '!' : ''}${p} bra 	${this.label(join)};`);
          return;
        }
        if (this.blockIdx.get(t) === bi + 1 && !this.hasPhis(e)) {
          // fall through into the then-block: branch on the negated condition
          this.lines.push(`\t@!${p} bra \t${this.label(e)};`);
          this.jump(b, t, bi);
          return;
        }
        this.lines.push(`\t@${p} bra \t${this.edgeTarget(b, t)};`);
        this.jump(b, e, bi);
        return;
      }
      case 'switch': {
        const v = i.ops[0]!;
        const bits = bitsOf(v.ty);
        const x = v.ty === T.i8 ? this.ext8(v, false) : this.scalar(v);
        const done = new Map<Block, string>();
        for (let k = 1; k < i.ops.length; k++) {
          const cv = i.ops[k] as Const;
          const tgt = i.targets[k]!;
          if (tgt === i.targets[0]) continue;
          let l = done.get(tgt);
          if (!l) { l = this.edgeTarget(b, tgt); done.set(tgt, l); }
          const p = this.fresh('p');
          const imm = cv.kind === 'int' ? intImm(v.ty === T.i8 ? BigInt.asUintN(8, cv.value) : cv.value, bits === 8 ? 16 : bits) : '0';
          if (v.ty === T.i1) { const t = this.coerce(x, T.i1, 'r'); this.ins('setp.eq.s32', p, t, imm); }
          else this.ins(`setp.eq.s${bits === 8 ? 16 : bits}`, p, x, imm);
          this.lines.push(`\t@${p} bra \t${l};`);
        }
        this.jump(b, i.targets[0]!, bi);
        return;
      }
      case 'ret': this.emitRet(i); return;
      case 'unreachable': this.raw('\ttrap;'); return;
      case 'load': this.emitLoad(i); return;
      case 'store': this.emitStore(i); return;
      case 'gep': this.emitGep(i); return;
      case 'icmp': this.emitICmp(i); return;
      case 'fcmp': this.emitFCmp(i); return;
      case 'select': this.emitSelect(i); return;
      case 'call': this.emitCall(i); return;
      case 'atomicrmw': this.emitRmw(i); return;
      case 'cmpxchg': this.emitCas(i); return;
      case 'fence': this.emitFence(i); return;
      case 'extractvalue': {
        const r = leafRange(i.ops[0]!.ty, i.idx ?? []);
        const src = this.leaves(i.ops[0]!).slice(r.first, r.first + r.count);
        // SSA registers are written once (phi registers only by the parallel copies on edges into their block,
        // after every use on that path), so the part can be named by the aggregate's own registers
        if (!this.vals.has(i)) { this.vals.set(i, src); return; }
        const ds = this.regsOf(i);
        ds.forEach((d, k) => this.mov(d, src[k]!));
        return;
      }
      case 'insertvalue': {
        const r = leafRange(i.ty, i.idx ?? []);
        const a = i.ops[0]!;
        // the undefined parts of an aggregate being built need no value: a register that is never written
        const src = a.kind === 'undef' || a.kind === 'poison' ? leavesOf(a.ty).map(l => this.fresh(regClassOf(l.ty))) : [...this.leaves(a)];
        const ins = this.leaves(i.ops[1]!);
        for (let k = 0; k < r.count; k++) src[r.first + k] = ins[k]!;
        if (!this.vals.has(i)) { this.vals.set(i, src); return; }   // as extractvalue: no copies
        this.regsOf(i).forEach((d, k) => this.mov(d, src[k]!));
        return;
      }
      case 'extractelement': case 'insertelement':
        throw new Unsupported(`vector instruction ${i.op}`);
      case 'fneg': {
        const t = i.ty;
        if (t.k === 'half' || t.k === 'bfloat') { const d = this.reg(i); const s = this.scalar(i.ops[0]!); this.ins('xor.b16', d, s, '-32768'); return; }
        this.ins(`neg${t.k === 'float' ? this.ftz : ''}.${t.k === 'float' ? 'f32' : 'f64'}`, this.reg(i), this.src(i.ops[0]!));
        return;
      }
      default:
        if (isBinOp(i.op)) { this.emitBin(i); return; }
        if (isCastOp(i.op)) { this.emitCast(i); return; }
        throw new Unsupported(`instruction ${i.op}`);
    }
  }

  mov(d: string, s: string): void {
    if (d === s) return;
    const c = classOfReg(d)!;
    if (c === 'p' && !s.startsWith('%')) { this.ins('setp.ne.u32', d, s === '0' ? '0' : '1', '0'); return; }
    this.ins(`mov.${c === 'rs' ? 'b16' : movSuffix(c)}`, d, s);
  }

  private emitRet(i: Inst): void {
    const v = i.ops[0];
    if (v && !this.f.isKernel) {
      const rk = paramKind(v.ty);
      if (rk.k === 'scalar') this.storeParamScalar('func_retval0', 0, v.ty, this.scalar(v), 32);
      else {
        const ls = leavesOf(v.ty), rs = this.leaves(v);
        ls.forEach((l, k) => this.storeParamScalar('func_retval0', l.off, l.ty, rs[k]!, 0));
      }
    }
    this.raw('\tret;');
  }

  /** st.param of a scalar; `widen` = 32 widens sub-32-bit integers to a .b32 slot. */
  storeParamScalar(name: string, off: number, ty: Type, r: string, widen: number, signed = false): void {
    const at = `[${name}+${off}]`;
    if (ty === T.i1) {
      const t = this.fresh(widen ? 'r' : 'rs');
      this.ins(widen ? 'selp.u32' : 'selp.u16', t, '1', '0', r);
      this.ins(widen ? 'st.param.b32' : 'st.param.b8', at, t);
      return;
    }
    if (isInt(ty) && ty.bits < 32 && widen) {
      const t = this.coerce(r, ty, 'r', signed);
      this.ins('st.param.b32', at, t);
      return;
    }
    const sfx = ty.k === 'float' ? 'f32' : ty.k === 'double' ? 'f64' : ty === T.i8 ? 'b8' : 'b' + bitsOf(ty);
    this.ins(`st.param.${sfx}`, at, r);
  }

  /**
   * Neighbouring loads or stores of one type at consecutive offsets from one address, the lowest aligned
   * to the whole (a float2 or float4 member by member): one ld/st .v2 or .v4, as NVPTX's load/store
   * vectoriser makes them. Loads are issued at the first of them (nothing between them writes memory),
   * stores at the last (nothing between them touches memory).
   */
  private findVectorAccesses(): void {
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
  private emitVector(i: Inst): void {
    const v = this.vecAt.get(i)!;
    const load = i.op === 'load';
    const a0 = this.addrOf(i.ops[load ? 0 : 1]!);
    const a: Addr = { ...a0, off: a0.off + (v.lowOff - v.atOff) };
    const q = this.memQual(i, a, load);
    const sfx = `v${v.members.length}.${memSuffix(v.ty)}`;
    if (load) { this.ins(`${ldOp(q, dot(a.space))}.${sfx}`, `{${v.members.map(m => this.reg(m)).join(', ')}}`, addrText(a)); return; }
    this.ins(`st${q}${dot(a.space)}.${sfx}`, addrText(a), `{${v.members.map(m => this.scalar(m.ops[0]!)).join(', ')}}`);
  }

  private emitLoad(i: Inst): void {
    if (this.vecSkip.has(i)) return;      // loaded with its neighbours (emitVector)
    if (this.vecAt.has(i)) { this.emitVector(i); return; }
    if (this.foldedLoad.has(i)) return;   // loaded by its zext/sext (emitCast)
    const p = i.ops[0]!;
    const a = this.addrOf(p);
    const q = this.memQual(i, a, true);
    if (i.ordering === 'seq_cst') this.ins(`fence.sc.${ptxScope(i.scope)}`);
    if (isScalar(i.ty)) { this.loadScalar(i.ty, a, q, this.reg(i)); return; }
    const rs = this.regsOf(i);
    leavesOf(i.ty).forEach((l, k) => this.loadScalar(l.ty, { ...a, off: a.off + l.off }, q, rs[k]));
  }
  private emitStore(i: Inst): void {
    if (this.vecSkip.has(i)) return;      // stored with its neighbours (emitVector)
    if (this.vecAt.has(i)) { this.emitVector(i); return; }
    const v = i.ops[0]!, p = i.ops[1]!;
    const a = this.addrOf(p);
    if (a.space === 'param') throw new Unsupported('store into a by-value parameter');
    const q = this.memQual(i, a, false);
    if (i.ordering === 'seq_cst') this.ins(`fence.sc.${ptxScope(i.scope)}`);
    if (isScalar(v.ty)) { this.storeScalar(v.ty, a, v.ty === T.i1 ? this.scalar(v) : this.src(v), q); return; }
    const rs = this.leaves(v);
    leavesOf(v.ty).forEach((l, k) => this.storeScalar(l.ty, { ...a, off: a.off + l.off }, rs[k]!, q));
  }
  private memQual(i: Inst, a: Addr, load: boolean): string {
    if (i.ordering) {
      if (a.space !== '' && a.space !== 'global' && a.space !== 'shared') throw new Unsupported(`atomic access to .${a.space}`);
      const sc = ptxScope(i.scope);
      const sem = load ? (i.ordering === 'monotonic' ? 'relaxed' : 'acquire') : (i.ordering === 'monotonic' || i.ordering === 'seq_cst' ? 'relaxed' : 'release');
      return `.${sem}.${sc}`;
    }
    // ptxas refuses .volatile on .local: a thread's local memory is private, so plain accesses suffice.
    if (i.volatile && a.space !== 'param' && a.space !== 'const' && a.space !== 'local') return '.volatile';
    if (load && a.space === 'global' && !i.volatile && this.readOnlyMemory(i.ops[0]!)) return NC;
    return '';
  }

  /**
   * Memory no one writes while the kernel runs (as NVPTX's canLowerToLDG): every object the address may
   * point into is a constant global or a `__restrict__` (noalias) kernel parameter that the kernel only
   * reads through.
   */
  readOnlyMemory(p: Value): boolean {
    if (!this.f.isKernel) return false;
    const seen = new Set<Value>();
    const work: Value[] = [p];
    while (work.length) {
      const v = work.pop()!;
      if (seen.has(v)) continue;
      seen.add(v);
      if (v.kind === 'arg') { if (!this.readOnlyArg(v)) return false; continue; }
      if (v.kind === 'global') { if (!v.isConstant) return false; continue; }
      if (v.kind === 'cexpr') { work.push(v.base as Value); continue; }
      if (v.kind !== 'inst') return false;
      if (v.op === 'gep' || v.op === 'addrspacecast' || v.op === 'bitcast') work.push(v.ops[0]!);
      else if (v.op === 'phi') work.push(...v.ops);
      else if (v.op === 'select') work.push(v.ops[1]!, v.ops[2]!);
      else return false;
    }
    return true;
  }
  private roArgs = new Map<Arg, boolean>();
  /** A noalias pointer parameter the kernel (and every function it hands the pointer to) only reads through. */
  private readOnlyArg(a: Arg): boolean {
    let r = this.roArgs.get(a);
    if (r === undefined) { r = a.ty.k === 'ptr' && a.attrs.includes('noalias') && onlyReadsThrough(this.f, a); this.roArgs.set(a, r); }
    return r;
  }

  /**
   * A gep as constant offset + scaled dynamic terms, looking through constant-index gep bases, extended
   * i32 indices (mul.wide) and nsw constant addends (which join the offset).
   */
  private gepParts(i: Inst): { base: Value; off: number; dyn: { src: Value; scale: number; sgn: 's' | 'u' }[] } {
    let base = i.ops[0]!;
    let off = 0;
    while (base.kind === 'inst' && base.op === 'gep' && base.ops.slice(1).every(x => x.kind === 'int') && !this.isDirectParamPtr(base)) {
      off += constGepOffset(base.srcTy!, base.ops.slice(1) as Const[]);
      base = base.ops[0]!;
    }
    const dyn: { src: Value; scale: number; sgn: 's' | 'u' }[] = [];
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

  /** base + Σ scaled dynamic terms, in a register (scaled terms reused within the block). */
  private gepDynamic(base: Value, dyn: { src: Value; scale: number; sgn: 's' | 'u' }[]): string {
    let acc = this.scalar(base);
    for (const d of dyn) {
      const r = this.scalar(d.src);
      const c = classOfReg(r) ?? regClassOf(d.src.ty);
      const memo = `${r}|${d.scale}|${d.sgn}`;
      let t = this.scaled.get(memo);
      if (!t) {
        t = this.fresh('rd');
        if (c === 'r' && d.scale === 1) this.ins(`cvt.${d.sgn}64.${d.sgn}32`, t, r);
        else if (c === 'r') this.ins(`mul.wide.${d.sgn}32`, t, r, String(d.scale));
        else {
          const w = c === 'rd' ? r : this.coerce(d.src.ty === T.i8 ? this.ext8(d.src, true) : r, d.src.ty === T.i8 ? T.i16 : d.src.ty, 'rd', true);
          if (d.scale === 1) t = w; else this.ins('mul.lo.s64', t, w, String(d.scale));
        }
        this.scaled.set(memo, t);
      }
      const sum = this.fresh('rd');
      this.ins('add.s64', sum, acc, t);
      acc = sum;
    }
    return acc;
  }

  private emitGep(i: Inst): void {
    if (this.isDirectParamPtr(i)) return; // folded into ld.param addresses
    if (this.foldedGep.has(i)) return;    // folded into [base+off] of its loads/stores
    const parts = this.gepParts(i);
    const group = this.dynGroup.get(i);
    if (group) {
      // only memory accesses use this address: compute base + dynamic terms once per group, the
      // constant part goes into each access's [reg+off]
      if (group.reg === null) group.reg = this.gepDynamic(parts.base, parts.dyn);
      return;
    }
    const acc = this.gepDynamic(parts.base, parts.dyn);
    if (parts.off === 0 && parts.dyn.length > 0 && !this.vals.has(i)) { this.vals.set(i, [acc]); return; }
    const d = this.reg(i);
    if (parts.off !== 0) this.ins('add.s64', d, acc, String(parts.off));
    else this.mov(d, acc);
  }

  // ------------------------------------------------------------------ arithmetic

  private emitBin(i: Inst): void {
    const t = i.ty;
    const [a, b] = i.ops as [Value, Value];
    if (this.contracted.has(i)) return;
    const d = this.reg(i);
    if (t.k === 'int') {
      const bits = t.bits, w = bits === 8 ? 16 : bits;
      if (bits === 1) {
        const x = this.scalar(a), y = this.scalar(b);
        switch (i.op) {
          case 'and': case 'mul': this.ins('and.pred', d, x, y); return;
          case 'or': this.ins('or.pred', d, x, y); return;
          case 'xor': case 'add': case 'sub': this.ins('xor.pred', d, x, y); return;
          case 'udiv': case 'sdiv': this.mov(d, x); return;
          case 'urem': case 'srem': this.ins('setp.ne.u32', d, '0', '0'); return;
          default: throw new Unsupported(`i1 ${i.op}`);
        }
      }
      if (this.unusedAdd.has(i)) return;
      const mad = this.madOf.get(i);
      if (mad) { this.ins(`mad.lo.s${w}`, d, this.src(mad.mul.ops[0]!), this.src(mad.mul.ops[1]!), this.src(mad.other)); return; }
      switch (i.op) {
        case 'add': this.ins(`add.s${w}`, d, this.src(a), this.src(b)); return;
        case 'sub': this.ins(`sub.s${w}`, d, this.src(a), this.src(b)); return;
        case 'mul': this.ins(`mul.lo.s${w}`, d, this.src(a), this.src(b)); return;
        case 'sdiv': case 'udiv': {
          const signed = i.op === 'sdiv';
          if (b.kind === 'int' && (w === 32 || w === 64)) {
            const rc = w === 32 ? 'r' : 'rd';
            const e = { fresh: () => this.fresh(rc), freshPred: () => this.fresh('p'), op: (o: string, dd: string, ...ss: string[]) => this.ins(o, dd, ...ss) };
            if (emitDivByConst(e, d, this.src(a), b.value, w, signed)) return;
          }
          this.ins(`div.${signed ? 's' : 'u'}${w}`, d, this.intSrc(a, signed), this.intSrc(b, signed));
          return;
        }
        case 'srem': this.ins(`rem.s${w}`, d, this.intSrc(a, true), this.intSrc(b, true)); return;
        case 'urem': this.ins(`rem.u${w}`, d, this.intSrc(a, false), this.intSrc(b, false)); return;
        case 'and': this.ins(`and.b${w}`, d, this.src(a), this.src(b)); return;
        case 'or': this.ins(`or.b${w}`, d, this.src(a), this.src(b)); return;
        case 'xor': this.ins(`xor.b${w}`, d, this.src(a), this.src(b)); return;
        case 'shl': this.ins(`shl.b${w}`, d, this.src(a), this.shiftAmt(b)); return;
        case 'lshr': this.ins(`shr.u${w}`, d, this.intSrc(a, false), this.shiftAmt(b)); return;
        case 'ashr': this.ins(`shr.s${w}`, d, this.intSrc(a, true), this.shiftAmt(b)); return;
        default: throw new Unsupported(`integer ${i.op}`);
      }
    }
    if (t.k === 'half' || t.k === 'bfloat') { this.viaF32(i); return; }
    if (t.k !== 'float' && t.k !== 'double') throw new Unsupported(`${i.op} on ${typeStr(t)}`);
    const f32 = t.k === 'float';
    const ty = f32 ? 'f32' : 'f64';
    const ftz = f32 ? this.ftz : '';
    const rn = this.opts.fmad ? '' : '.rn';
    switch (i.op) {
      case 'fadd': case 'fsub': {
        const fm = this.fmaOf.get(i);
        if (fm) {
          let x = this.src(fm.mul.ops[0]!);
          const y = this.src(fm.mul.ops[1]!);
          let z = this.src(fm.other);
          if (fm.subMul) x = this.negF(x, t);
          if (fm.subOther) z = this.negF(z, t);
          this.ins(`fma.rn${ftz}.${ty}`, d, x, y, z);
          return;
        }
        this.ins(`${i.op === 'fadd' ? 'add' : 'sub'}${rn}${ftz}.${ty}`, d, this.src(a), this.src(b));
        return;
      }
      case 'fmul':
        if (this.contracted.has(i)) return;
        this.ins(`mul${rn}${ftz}.${ty}`, d, this.src(a), this.src(b));
        return;
      case 'fdiv': {
        // the division form follows -prec_div/-ftz/--gen_div_approx_ftz only: cicc keeps div.rn.f32 under -fast-math
        const one = a.kind === 'fp' && a.value === 1;
        if (!f32) { if (one) this.ins('rcp.rn.f64', d, this.src(b)); else this.ins('div.rn.f64', d, this.src(a), this.src(b)); return; }
        if (one) { this.ins(`rcp.${this.opts.precDiv ? 'rn' : 'approx'}${ftz}.f32`, d, this.src(b)); return; }
        if (this.opts.precDiv) this.ins(`div.rn${ftz}.f32`, d, this.src(a), this.src(b));
        // cicc: --gen_div_approx_ftz gives div.approx.ftz.f32 whatever -ftz says
        else if (this.opts.genDivApproxFtz) this.ins('div.approx.ftz.f32', d, this.src(a), this.src(b));
        else this.ins(`div.full${ftz}.f32`, d, this.src(a), this.src(b));
        return;
      }
      case 'frem': throw new Unsupported('frem');
      default: throw new Unsupported(`FP ${i.op}`);
    }
  }
  private negF(x: string, t: Type): string {
    if (!x.startsWith('%')) {
      // flip the sign bit of the hex immediate
      const hex = x.slice(2), n = BigInt('0x' + hex) ^ (1n << BigInt(hex.length * 4 - 1));
      return x.slice(0, 2) + n.toString(16).toUpperCase().padStart(hex.length, '0');
    }
    const r = this.fresh(t.k === 'float' ? 'f' : 'fd');
    this.ins(`neg${t.k === 'float' ? this.ftz : ''}.${t.k === 'float' ? 'f32' : 'f64'}`, r, x);
    return r;
  }
  private shiftAmt(v: Value): string {
    if (v.kind === 'int') return String(Number(BigInt.asUintN(32, v.value)) >>> 0);
    const r = v.ty === T.i8 ? this.ext8(v, false) : this.scalar(v);
    const c = classOfReg(r)!;
    if (c === 'r') return r;
    const d = this.fresh('r');
    this.ins(c === 'rs' ? 'cvt.u32.u16' : 'cvt.u32.u64', d, r);
    return d;
  }

  /** half/bfloat arithmetic by promotion to f32 (exact for +, -, *, / with one final rounding). */
  private viaF32(i: Inst): void {
    const t = i.ty;
    const x = this.toF32(i.ops[0]!), y = this.toF32(i.ops[1]!);
    const r = this.fresh('f');
    const op = { fadd: 'add.rn', fsub: 'sub.rn', fmul: 'mul.rn', fdiv: 'div.rn' }[i.op as string];
    if (!op) throw new Unsupported(`${i.op} on ${t.k}`);
    this.ins(`${op}.f32`, r, x, y);
    this.fromF32(r, t, this.reg(i));
  }
  toF32(v: Value): string {
    const r = this.scalar(v);
    const d = this.fresh('f');
    if (v.ty.k === 'half') this.ins('cvt.f32.f16', d, r);
    else { const t = this.fresh('r'); this.ins('cvt.u32.u16', t, r); const t2 = this.fresh('r'); this.ins('shl.b32', t2, t, '16'); this.ins('mov.b32', d, t2); }
    return d;
  }
  fromF32(r: string, t: Type, d: string): void {
    if (t.k === 'half') { this.ins('cvt.rn.f16.f32', d, r); return; }
    if (this.opts.arch < 80) throw new Unsupported('bfloat16 rounding on sm_75');
    this.ins('cvt.rn.bf16.f32', d, r);
  }

  private emitICmp(i: Inst): void {
    if (this.foldedCmp.has(i)) return;
    const [a, b] = i.ops as [Value, Value];
    const p = i.pred as ICmpPred;
    const d = this.reg(i);
    const signed = p[0] === 's';
    const cmp = { eq: 'eq', ne: 'ne', ugt: 'gt', uge: 'ge', ult: 'lt', ule: 'le', sgt: 'gt', sge: 'ge', slt: 'lt', sle: 'le' }[p];
    if (a.ty === T.i1) {
      const x = this.coerceI1(a, signed), y = this.coerceI1(b, signed);
      this.ins(`setp.${cmp}.${signed ? 's' : 'u'}32`, d, x, y);
      return;
    }
    const bits = bitsOf(a.ty), w = bits === 8 ? 16 : bits;
    const x = this.intSrc(a, signed), y = this.intSrc(b, signed);
    this.ins(`setp.${cmp}.${signed ? 's' : 'u'}${w}`, d, x.startsWith('%') || y.startsWith('%') ? x : this.scalar(a), y);
  }
  private coerceI1(v: Value, signed: boolean): string {
    if (v.kind === 'int') return v.value ? (signed ? '-1' : '1') : '0';
    const r = this.fresh('r');
    this.ins(signed ? 'selp.s32' : 'selp.u32', r, signed ? '-1' : '1', '0', this.scalar(v));
    return r;
  }

  private emitFCmp(i: Inst): void {
    const [a, b] = i.ops as [Value, Value];
    const p = i.pred as FCmpPred;
    const d = this.reg(i);
    if (p === 'false' || p === 'true') { this.ins('setp.ne.u32', d, p === 'true' ? '1' : '0', '0'); return; }
    const cmp = { oeq: 'eq', one: 'ne', olt: 'lt', ole: 'le', ogt: 'gt', oge: 'ge', ord: 'num', uno: 'nan',
      ueq: 'equ', une: 'neu', ult: 'ltu', ule: 'leu', ugt: 'gtu', uge: 'geu' }[p];
    let x: string, y: string, ty: string, ftz = '';
    if (a.ty.k === 'half' || a.ty.k === 'bfloat') { x = this.toF32(a); y = this.toF32(b); ty = 'f32'; }
    else { x = this.src(a); y = this.src(b); ty = a.ty.k === 'float' ? 'f32' : 'f64'; ftz = a.ty.k === 'float' ? this.ftz : ''; }
    if (!x.startsWith('%') && !y.startsWith('%')) x = this.scalar(a);
    this.ins(`setp.${cmp}${ftz}.${ty}`, d, x, y);
  }

  private emitSelect(i: Inst): void {
    const mm = this.minMaxOf.get(i);
    if (mm) {
      const c = i.ops[0] as Inst;
      let x = this.src(c.ops[0]!), y = this.src(c.ops[1]!);
      if (!x.startsWith('%')) [x, y] = [y, x];
      if (!x.startsWith('%')) x = this.scalar(c.ops[0]!);
      this.ins(`${mm.op}.${mm.signed ? 's' : 'u'}${bitsOf(i.ty)}`, this.reg(i), x, y);
      return;
    }
    const [c, a, b] = i.ops as [Value, Value, Value];
    const ds = this.regsOf(i);
    if (c.kind === 'int') { const s = this.leaves(c.value ? a : b); ds.forEach((d, k) => this.mov(d, s[k]!)); return; }
    const p = this.scalar(c);
    const as = isScalar(a.ty) ? [a.ty === T.i1 ? this.scalar(a) : this.src(a)] : this.leaves(a);
    const bs = isScalar(b.ty) ? [b.ty === T.i1 ? this.scalar(b) : this.src(b)] : this.leaves(b);
    ds.forEach((d, k) => {
      const cls = classOfReg(d)!;
      if (cls === 'p') {
        const t1 = this.fresh('p'), t2 = this.fresh('p'), nc = this.fresh('p');
        this.ins('and.pred', t1, p, as[k]!);
        this.ins('not.pred', nc, p);
        this.ins('and.pred', t2, nc, bs[k]!);
        this.ins('or.pred', d, t1, t2);
        return;
      }
      const sfx = cls === 'rs' ? 'b16' : cls === 'r' ? 'b32' : cls === 'rd' ? 'b64' : cls === 'f' ? 'f32' : 'f64';
      let x = as[k]!, y = bs[k]!;
      // integer immediates are fine in selp.b16 (cicc: `selp.u16 %rs, 1, 0, %p`); half constants need a register
      if (cls === 'rs' && !isInt(i.ty)) { if (!x.startsWith('%')) x = this.regImm(x, 'rs'); if (!y.startsWith('%')) y = this.regImm(y, 'rs'); }
      this.ins(`selp.${sfx}`, d, x, y, p);
    });
  }
  regImm(imm: string, c: RegClass): string { const r = this.fresh(c); this.ins(`mov.${c === 'rs' ? 'b16' : movSuffix(c)}`, r, imm); return r; }

  // ------------------------------------------------------------------ casts

  private emitCast(i: Inst): void {
    if (this.wideIdx.has(i) || this.foldedTrunc.has(i)) return;
    const te = this.truncExt.get(i);
    if (te) {
      // sign/zero-extend the low 8/16 bits of a register of the result's width (cvt.s32.s16 %r, %r)
      const w = bitsOf(i.ty), nb = te.ty === T.i8 ? 8 : 16, sg = i.op === 'sext' ? 's' : 'u';
      this.ins(`cvt.${sg}${w}.${sg}${nb}`, this.reg(i), this.scalar(te.ops[0]!));
      return;
    }
    const l = this.extLoad.get(i);
    if (l) {
      const a = this.addrOf(l.ops[0]!);
      const q = this.memQual(l, a, true);
      this.ins(`${ldOp(q, dot(a.space))}.${i.op === 'sext' ? 's' : 'u'}${l.ty === T.i8 ? 8 : 16}`, this.reg(i), addrText(a));
      return;
    }
    const x = i.ops[0]!;
    const from = x.ty, to = i.ty;
    // a cast that does not change the bits or the register class (pointer ↔ i64, float ↔ float): the
    // source's register names the result too
    if ((i.op === 'ptrtoint' || i.op === 'inttoptr' || i.op === 'bitcast') && (x.kind === 'inst' || x.kind === 'arg') && !this.vals.has(i)
      && isScalar(from) && isScalar(to) && regClassOf(from) === regClassOf(to) && from !== T.i1 && to !== T.i1 && from !== T.i8 && to !== T.i8) {
      this.vals.set(i, [this.reg(x)]);
      return;
    }
    const d = this.reg(i);
    const fb = bitsOf(from), tb = bitsOf(to);
    const ftzOf = (t: Type): string => (t.k === 'float' ? this.ftz : '');
    switch (i.op) {
      case 'trunc': {
        if (to === T.i1) { const t = this.fresh(regClassOf(from)); this.ins(`and.b${fb === 8 ? 16 : fb}`, t, this.scalar(x), '1'); this.ins(`setp.eq.b${fb === 8 ? 16 : fb}`, d, t, '1'); return; }
        const fw = fb === 8 ? 16 : fb, tw = tb === 8 ? 16 : tb;
        if (fw === tw) { this.mov(d, this.scalar(x)); return; }
        this.ins(`cvt.u${tw}.u${fw}`, d, this.scalar(x));
        return;
      }
      case 'zext': case 'sext': {
        const s = i.op === 'sext';
        const tw = tb === 8 ? 16 : tb;
        if (from === T.i1) { this.ins(`selp.${s ? 's' : 'u'}${tw}`, d, s ? '-1' : '1', '0', this.scalar(x)); return; }
        if (from === T.i8 && tw === 16) { this.mov(d, this.ext8(x, s)); return; }
        this.ins(`cvt.${s ? 's' : 'u'}${tw}.${s ? 's' : 'u'}${fb}`, d, this.scalar(x));
        return;
      }
      case 'fptrunc':
        if (to.k === 'half' || to.k === 'bfloat') { this.fromF32(from.k === 'float' ? this.scalar(x) : this.cvtF64F32(x), to, d); return; }
        this.ins(`cvt.rn${this.ftz}.f32.f64`, d, this.scalar(x));
        return;
      case 'fpext':
        if (from.k === 'half' || from.k === 'bfloat') {
          const f = this.toF32(x);
          if (to.k === 'float') this.mov(d, f); else this.ins('cvt.f64.f32', d, f);
          return;
        }
        this.ins(`cvt${this.ftz}.f64.f32`, d, this.scalar(x));
        return;
      case 'fptosi': case 'fptoui': {
        const s = i.op === 'fptosi' ? 's' : 'u';
        let src = this.scalar(x), ft = from;
        if (from.k === 'half' || from.k === 'bfloat') { src = this.toF32(x); ft = T.f32; }
        const fs = ft.k === 'float' ? 'f32' : 'f64';
        if (to === T.i1) { const t = this.fresh('rs'); this.ins(`cvt.rzi${ftzOf(ft)}.${s}16.${fs}`, t, src); this.ins('setp.ne.b16', d, t, '0'); return; }
        this.ins(`cvt.rzi${ftzOf(ft)}.${s}${tb === 8 ? 16 : tb}.${fs}`, d, src);
        return;
      }
      case 'sitofp': case 'uitofp': {
        const s = i.op === 'sitofp';
        let src: string, sb = fb;
        if (from === T.i1) { src = this.coerceI1(x, s); sb = 32; }
        else if (from === T.i8) { src = this.ext8(x, s); sb = 16; }
        else src = this.scalar(x);
        if (to.k === 'half' || to.k === 'bfloat') {
          const f = this.fresh('f');
          this.ins(`cvt.rn.f32.${s ? 's' : 'u'}${sb}`, f, src);
          this.fromF32(f, to, d);
          return;
        }
        this.ins(`cvt.rn.${to.k === 'float' ? 'f32' : 'f64'}.${s ? 's' : 'u'}${sb}`, d, src);
        return;
      }
      case 'ptrtoint': case 'inttoptr': {
        if (to === T.i1) { this.ins('setp.ne.u64', d, this.scalar(x), '0'); return; }
        if (from === T.i1) { this.ins(`selp.u${tb}`, d, '1', '0', this.scalar(x)); return; }
        const fw = fb === 8 ? 16 : fb, tw = tb === 8 ? 16 : tb;
        if (fw === tw) this.mov(d, this.scalar(x));
        else this.ins(`cvt.u${tw}.u${fw}`, d, fw === 16 && from === T.i8 ? this.ext8(x, false) : this.scalar(x));
        return;
      }
      case 'bitcast': {
        if (!isScalar(from)) throw new Unsupported(`bitcast of ${typeStr(from)}`);
        const s = this.scalar(x);
        if (regClassOf(from) === regClassOf(to)) { this.mov(d, s); return; }
        this.ins(`mov.b${tb}`, d, s);
        return;
      }
      case 'addrspacecast': {
        const fa = (from as { as: number }).as, ta = (to as { as: number }).as;
        if (this.isLocalCast(i)) {
          // needed only as the base of dynamic address arithmetic; loads/stores use [%SPL+off]
          if ((this.users.get(i) ?? []).every(u => addressedBy(u, i) || this.foldedGep.has(u))) return;
          this.ins('add.u64', d, '%SPL', String(this.allocaOff.get(x as Inst)!));
          return;
        }
        // a generic pointer only accessed through (addrOf() takes the specific one) needs no register
        if (ta === 0 && fa !== 0 && (this.users.get(i) ?? []).every(u => addressedBy(u, i) || this.addressOnlyMemIntrinsic(u, i))) return;
        const s = this.scalar(x);
        if (fa === ta) this.mov(d, s);
        else if (ta === 0) this.ins(`cvta.${spaceOf(fa)}.u64`, d, s);
        else if (fa === 0) this.ins(`cvta.to.${spaceOf(ta)}.u64`, d, s);
        else throw new Unsupported('addrspacecast between two specific spaces');
        return;
      }
    }
    throw new Unsupported(`cast ${i.op}`);
  }
  private cvtF64F32(x: Value): string { const f = this.fresh('f'); this.ins(`cvt.rn${this.ftz}.f32.f64`, f, this.scalar(x)); return f; }

  // ------------------------------------------------------------------ calls

  private emitCall(i: Inst): void {
    const callee = i.ops[0]!;
    const args = i.ops.slice(1);
    if (callee.kind === 'asm') { emitInlineAsm(this, i, callee, args); return; }
    if (callee.kind === 'func' && callee.name.startsWith('llvm.')) { emitIntrinsic(this, i, callee.name, args); return; }
    const fnTy = i.fnTy ?? (callee.kind === 'func' ? callee.fnTy : undefined);
    if (!fnTy) throw new Unsupported('call without a signature');
    const direct = callee.kind === 'func' ? callee : null;
    if (direct) this.funcRefs.add(direct.name);
    if (fnTy.varargs && !(direct && direct.name === 'vprintf')) throw new Unsupported('variadic call');
    const seq = this.callSeq++;
    // compute argument registers first (materialisations go before the call sequence)
    const kinds: ParamKind[] = fnTy.params.map((t, k) => {
      const a = direct?.params[k];
      return paramKind(t, a?.byval, a?.align);
    });
    const argRegs: (string[] | Addr)[] = args.slice(0, fnTy.params.length).map((v, k) => {
      const pk = kinds[k]!;
      if (pk.k === 'agg' && direct?.params[k]?.byval) return this.addrOf(v);
      if (pk.k === 'scalar') return [v.ty === T.i1 ? this.scalar(v) : this.scalar(v)];
      return this.leaves(v);
    });
    let calleeOp = '';
    if (!direct) calleeOp = this.scalar(callee);
    this.raw(`\t{ // callseq ${seq}, 0`);
    kinds.forEach((pk, k) => {
      const name = `param${k}`;
      if (pk.k === 'scalar') {
        this.raw(`\t.param .b${pk.width} ${name};`);
        const a = direct?.params[k];
        this.storeParamScalar(name, 0, pk.ty, (argRegs[k] as string[])[0]!, 32, !!a?.attrs.includes('signext'));
      } else {
        this.lines.push(`\t.param .align ${pk.align} .b8 ${name}[${pk.size}];`);
        const r = argRegs[k]!;
        if (Array.isArray(r)) leavesOf(pk.ty).forEach((l, j) => this.storeParamScalar(name, l.off, l.ty, r[j]!, 0));
        else this.copyBytes({ space: 'param', base: name, off: 0 }, r, sizeOf(pk.ty), pk.align);
      }
    });
    const rk = fnTy.ret.k === 'void' ? null : paramKind(fnTy.ret);
    if (rk) this.lines.push(rk.k === 'scalar' ? `\t.param .b${rk.width} retval0;` : `\t.param .align ${rk.align} .b8 retval0[${rk.size}];`);
    const plist = kinds.map((_, k) => `param${k}`).join(', ');
    const ret = rk ? '(retval0), ' : '';
    if (direct) this.lines.push(`\tcall.uni ${ret}${ptxName(direct.name)}, (${plist});`);
    else {
      const proto = `prototype_${seq}`;
      this.lines.push(`\t${callPrototype(proto, fnTy.ret, fnTy.params)}`);
      this.lines.push(`\tcall ${ret}${calleeOp}, (${plist}), ${proto};`);
    }
    if (rk) {
      const rt = fnTy.ret;
      if (rk.k === 'scalar') {
        const d = this.reg(i);
        if (rt === T.i1) { const t = this.fresh('r'); this.ins('ld.param.b32', t, '[retval0+0]'); const t2 = this.fresh('r'); this.ins('and.b32', t2, t, '1'); this.ins('setp.eq.b32', d, t2, '1'); }
        else if (rt.k === 'int' && rt.bits < 32) this.ins(`ld.param.b${rt.bits === 8 ? 8 : 16}`, d, '[retval0+0]');
        else this.ins(`ld.param.${rt.k === 'float' ? 'f32' : rt.k === 'double' ? 'f64' : 'b' + bitsOf(rt)}`, d, '[retval0+0]');
      } else {
        const rs = this.regsOf(i);
        leavesOf(rt).forEach((l, k) => this.loadScalar(l.ty, { space: 'param', base: 'retval0', off: l.off }, '', rs[k]));
      }
    }
    this.raw(`\t} // callseq ${seq}`);
  }

  // ------------------------------------------------------------------ atomics

  private atomPrefix(i: Inst, a: Addr): string {
    if (a.space !== '' && a.space !== 'global' && a.space !== 'shared') throw new Unsupported(`atomic on .${a.space}`);
    const ord = i.ordering ?? 'monotonic';
    const sc = i.scope === 'block' ? '.cta' : i.scope === 'device' ? '' : '.sys';
    if (ord === 'monotonic') return `atom${dot(a.space)}${sc}`;
    if (ord === 'seq_cst') this.ins(`fence.sc.${ptxScope(i.scope)}`);
    const sem = ord === 'acquire' ? 'acquire' : ord === 'release' ? 'release' : 'acq_rel';
    return `atom.${sem}.${ptxScope(i.scope)}${dot(a.space)}`;
  }

  private emitRmw(i: Inst): void {
    const [p, v] = i.ops as [Value, Value];
    const t = v.ty;
    const a = this.addrOf(p);
    const at = addrText(a);
    const bits = bitsOf(t);
    if (!(bits === 32 || bits === 64) || t === T.i1) throw new Unsupported(`atomicrmw on ${typeStr(t)}`);
    const d = this.reg(i);
    let op: string, sfx: string, val = this.src(v);
    const isF = t.k === 'float' || t.k === 'double';
    switch (i.rmw) {
      case 'xchg': op = 'exch'; sfx = `b${bits}`; if (isF) { const r = this.fresh(bits === 32 ? 'r' : 'rd'); this.ins(`mov.b${bits}`, r, this.scalar(v)); const o = this.fresh(bits === 32 ? 'r' : 'rd'); this.ins(`${this.atomPrefix(i, a)}.exch.b${bits}`, o, at, r); this.ins(`mov.b${bits}`, d, o); return; } break;
      case 'add': op = 'add'; sfx = `u${bits}`; break;
      case 'sub': { op = 'add'; sfx = `u${bits}`; if (v.kind === 'int') val = intImm(-v.value, bits); else { const n = this.fresh(regClassOf(t)); this.ins(`neg.s${bits}`, n, val); val = n; } break; }
      case 'and': op = 'and'; sfx = `b${bits}`; break;
      case 'or': op = 'or'; sfx = `b${bits}`; break;
      case 'xor': op = 'xor'; sfx = `b${bits}`; break;
      case 'max': op = 'max'; sfx = `s${bits}`; break;
      case 'min': op = 'min'; sfx = `s${bits}`; break;
      case 'umax': op = 'max'; sfx = `u${bits}`; break;
      case 'umin': op = 'min'; sfx = `u${bits}`; break;
      case 'fadd': op = 'add'; sfx = `f${bits}`; break;
      case 'fsub': { op = 'add'; sfx = `f${bits}`; val = this.negF(val, t); break; }
      case 'nand': {
        // CAS loop
        const pre = this.atomPrefix(i, a);
        const cls = regClassOf(t);
        const old = this.fresh(cls), nw = this.fresh(cls), tmp = this.fresh(cls), got = this.fresh(cls), ok = this.fresh('p');
        const loop = this.newLabel();
        this.ins(`ld${dot(a.space)}.u${bits}`, old, at);
        this.raw(`${loop}:`);
        this.ins(`and.b${bits}`, tmp, old, val);
        this.ins(`not.b${bits}`, nw, tmp);
        this.ins(`${pre}.cas.b${bits}`, got, at, old, nw);
        this.ins(`setp.ne.b${bits}`, ok, got, old);
        this.mov(old, got);
        this.lines.push(`\t@${ok} bra \t${loop};`);
        this.mov(d, got);
        return;
      }
      default: throw new Unsupported(`atomicrmw ${i.rmw}`);
    }
    if (!isF && t.k !== 'int') sfx = `b${bits}`;
    this.ins(`${this.atomPrefix(i, a)}.${op}.${sfx}`, d, at, val);
  }

  private emitCas(i: Inst): void {
    const [p, c, n] = i.ops as [Value, Value, Value];
    const bits = bitsOf(c.ty);
    if (bits !== 32 && bits !== 64 && bits !== 16) throw new Unsupported(`cmpxchg on ${typeStr(c.ty)}`);
    const a = this.addrOf(p);
    const [d, ok] = this.regsOf(i) as [string, string];
    const cmp = this.scalar(c);
    let nv = this.src(n);
    if (c.ty.k === 'float' || c.ty.k === 'double') throw new Unsupported('cmpxchg on FP');
    if (bits === 16 && !nv.startsWith('%')) nv = this.regImm(nv, 'rs');
    this.ins(`${this.atomPrefix(i, a)}.cas.b${bits}`, d, addrText(a), cmp, nv);
    this.ins(`setp.eq.b${bits}`, ok, d, cmp);
  }

  private emitFence(i: Inst): void {
    const ord = i.ordering ?? 'seq_cst';
    if (ord === 'seq_cst') {
      this.raw(`\tmembar.${i.scope === 'block' ? 'cta' : i.scope === 'device' ? 'gl' : 'sys'};`);
      return;
    }
    this.raw(`\tfence.acq_rel.${ptxScope(i.scope)};`);
  }
}

// ---------------------------------------------------------------- helpers

const BIN = new Set(['add', 'sub', 'mul', 'sdiv', 'udiv', 'srem', 'urem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor', 'fadd', 'fsub', 'fmul', 'fdiv', 'frem']);
const CAST = new Set(['trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);
const isBinOp = (op: string): boolean => BIN.has(op);
const isCastOp = (op: string): boolean => CAST.has(op);

/** Byte offset of a gep with constant indices. */
export function constGepOffset(srcTy: Type, idx: readonly Value[]): number {
  let off = 0;
  let cur = srcTy;
  idx.forEach((v, k) => {
    if (v.kind !== 'int') throw new Unsupported('non-constant index in a constant gep');
    const n = Number(v.value);
    if (k === 0) { off += n * sizeOf(cur); return; }
    if (cur.k === 'struct') { off += fieldOffset(cur as Type & { k: 'struct' }, n); cur = cur.fields[n]!; }
    else if (cur.k === 'array' || cur.k === 'vector') { off += n * sizeOf(cur.elem); cur = cur.elem; }
    else throw new Unsupported('bad constant gep');
  });
  return off;
}

/** Scalar constants of an aggregate constant, in leaf order. */
export function constLeaves(c: Const): Const[] {
  const ls = leavesOf(c.ty);
  if (c.kind === 'agg') return c.elems.flatMap(e => (isScalar(e.ty) ? [e] : constLeaves(e)));
  if (c.kind === 'bytes') return Array.from(c.bytes.subarray(0, ls.length), b => ({ kind: 'int', ty: T.i8, value: BigInt.asIntN(8, BigInt(b)) }) as Const);
  return ls.map((l: Leaf) => ({ kind: c.kind === 'poison' || c.kind === 'undef' ? 'undef' : 'zero', ty: l.ty }) as Const);
}

export function emitFunction(f: Func, opts: CompileOptions): FnPiece {
  return new FnEmitter(f, opts).emit();
}

export type { Global };
export { ptrTy };

/** A stable text for a symbolic constant (global/function address, constant expression) for reuse within a block. */
function constKey(v: Value): string {
  switch (v.kind) {
    case 'global': case 'func': return '@' + v.name;
    case 'cexpr': return `${v.op}(${constKey(v.base as Value)}:${(v.indices ?? []).map(x => x.kind === 'int' ? String(x.value) : '?').join(',')}:${typeStr(v.ty)})`;
    default: return `#${v.kind}`;
  }
}
