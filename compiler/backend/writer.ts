// Emission for one function: virtual registers for SSA values, operands and constants in registers,
// addresses, loads and stores of scalars, the copies on CFG edges, and the printed text of the function.
import { mutateIns, mutateRaw } from './mutations';
import type { Func, Block, Inst, Value, Const, Type, Arg } from '../middle/ir';
import { T, AS, isInt, typeStr } from '../middle/ir';
import { dominates } from '../middle/analysis/dominance';
import type { CompileOptions } from '../options';
import { Unsupported } from '../diagnostics';
import { Registers, classOfReg } from './registers';
import { regClassOf, leavesOf, bitsOf, memSuffix, movSuffix, fpImm, intImm, isScalar, type RegClass } from './types';
import { ptxName, kernelParamDecl, funcHeader } from './callconv';
import { LocTracker } from './lineinfo';
import { spaceOf, addrText, dot, ldOp, constGepOffset, constLeaves, type Addr } from './operands';
import { Patterns } from './patterns';
import { backEdgeCoalescable, reachedInIteration } from './backedge';
import type { Emitter } from './emitter';

/** Placeholder for the function's ordinal in labels (`$L__BB<fn>_<n>`) and the depot name. */
export const FN_MARK = '@@FN@@';

export interface FnPiece {
  name: string;
  /** Definition text, ending in "}\n"; contains FN_MARK. */
  text: string;
  /** Function symbols this piece references (callees and taken addresses). */
  funcRefs: string[];
}

/**
 * The text of one function as it is written: instruction selection (isel.ts) extends this with what each
 * instruction becomes; the patterns found beforehand are in `pat`.
 */
export abstract class FnWriter implements Emitter {
  readonly pat: Patterns;
  /** Whether nothing writes the memory p may point into while the kernel runs (the selection decides). */
  abstract readOnlyMemory(p: Value): boolean;
  readonly regs = new Registers();
  readonly lines: string[] = [];
  protected vals = new Map<Value, string[]>();
  protected blockIdx = new Map<Block, number>();
  protected nextLabel: number;
  /** Scaled gep indices computed in the current block: `reg|scale|kind` → product register. */
  protected scaled = new Map<string, string>();
  /** Constants materialised in the current block: `class|text` → register (off while emitting edge copies). */
  protected constRegs = new Map<string, string>();
  protected inEdgeCopies = false;
  protected deferred: string[][] = [];
  readonly funcRefs = new Set<string>();
  /** -lineinfo: the position of the instruction being selected, and where the text says it is. */
  protected loc: Inst['loc'];
  protected locs: LocTracker | null;
  needSP = false;
  readonly fname: string;

  constructor(readonly f: Func, readonly opts: CompileOptions) {
    this.fname = ptxName(f.name);
    f.blocks.forEach((b, i) => this.blockIdx.set(b, i));
    this.nextLabel = f.blocks.length;
    this.locs = opts.lineInfo ? new LocTracker(!opts.noLineInfoInlinedAt) : null;
    this.pat = new Patterns(f, opts);
    this.coalescePhiInputs();
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

  /**
   * A value computed in a phi's predecessor only to flow into the phi is computed straight into the phi's
   * register: the edge needs no copy. The phi's register is free there when the phi's block does not
   * dominate the predecessor (the phi is not live in it: no back edge), and each other input written the
   * same way is written in its own predecessor, on another path.
   */
  protected coalescePhiInputs(): void {
    let pos: Map<Inst, number> | null = null;
    const positions = (): Map<Inst, number> => {
      if (!pos) { pos = new Map(); for (const b of this.f.blocks) b.insts.forEach((i, k) => pos!.set(i, k)); }
      return pos;
    };
    const reached = new Map<Block, Map<Block, Set<Block>>>();
    const after = (header: Block, from: Block): Set<Block> => {
      let m = reached.get(header);
      if (!m) reached.set(header, m = new Map());
      let r = m.get(from);
      if (!r) m.set(from, r = reachedInIteration(this.pat.cfg(), header, from));
      return r;
    };
    for (const b of this.f.blocks) for (const p of b.insts) {
      if (p.op !== 'phi') break;
      if (!isScalar(p.ty)) continue;
      p.ops.forEach((v, k) => {
        const from = p.targets[k]!;
        if (v.kind !== 'inst' || v.op === 'phi' || !v.parent || v.ty !== p.ty || this.vals.has(v)) return;
        const cfg = this.pat.cfg();
        // a back edge: only when the phi's value is dead once the input is written (backedge.ts); the
        // input's other users then read the phi's register, which nothing writes before they run. The input
        // may be computed in a block of the loop before the latch (the latch of a loop with an early exit
        // is often only the test).
        if (dominates(cfg, b, from)) {
          if (v.parent !== from && !(dominates(cfg, b, v.parent) && dominates(cfg, v.parent, from))) return;
          if (!backEdgeCoalescable(this.pat, positions(), p, v, after(b, v.parent))) return;
        } else if (v.parent !== from || this.pat.useCount(v) !== 1) return;
        this.vals.set(v, this.regsOf(p));
      });
    }
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
  protected symAddr(v: Value): string {
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
    if (p.kind === 'arg' && this.pat.byvalDirect.has(p)) return { space: 'param', base: `${this.fname}_param_${p.index}`, off: 0 };
    if (p.kind === 'inst' && p.op === 'alloca') { return { space: 'local', base: '%SPL', off: this.pat.allocaOff.get(p)! }; }
    if (this.pat.isLocalCast(p)) return { space: 'local', base: '%SPL', off: this.pat.allocaOff.get((p as Inst).ops[0] as Inst)! };
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
    if (p.kind === 'inst' && p.op === 'gep' && this.pat.dynGroup.has(p)) {
      const g = this.pat.dynGroup.get(p)!;
      if (g.reg === null) throw new Error(`gep %${p.name} used before its group was emitted`);
      const as = p.ty.k === 'ptr' ? (p.ty as { as: number }).as : 0;
      return { space: spaceOf(as), base: g.reg, off: this.pat.gepParts(p).off };
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

  // ------------------------------------------------------------------ phis and branches

  /** Parallel copies into the phis of `to` for the edge from → to. */
  protected edgeCopies(from: Block, to: Block, out: string[]): void {
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
  protected hasPhis(b: Block): boolean { return b.insts[0]?.op === 'phi'; }

  /** Target label for a conditional edge; an edge block when the target has phis. */
  protected edgeTarget(from: Block, to: Block): string {
    if (!this.hasPhis(to)) return this.label(to);
    const body: string[] = [];
    this.edgeCopies(from, to, body);
    // every input already in its phi's register: no edge block
    if (body.length === 0) return this.label(to);
    const l = this.newLabel();
    body.unshift(`${l}:`);
    body.push(`\tbra.uni \t${this.label(to)};`);
    this.deferred.push(body);
    return l;
  }
  /** Unconditional jump (with copies) at the end of a block. */
  protected jump(from: Block, to: Block, idx: number): void {
    const out: string[] = [];
    this.edgeCopies(from, to, out);
    this.lines.push(...out);
    if (this.blockIdx.get(to) !== idx + 1) this.ins('bra.uni', this.label(to));
  }

  mov(d: string, s: string): void {
    if (d === s) return;
    const c = classOfReg(d)!;
    if (c === 'p' && !s.startsWith('%')) { this.ins('setp.ne.u32', d, s === '0' ? '0' : '1', '0'); return; }
    this.ins(`mov.${c === 'rs' ? 'b16' : movSuffix(c)}`, d, s);
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

  /** The function's text: its header, declarations (depot, registers), prologue and the body written so far. */
  protected finish(entryLoc: string[]): FnPiece {
    const f = this.f;
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
    if (this.pat.depotSize > 0) {
      decls.push(`\t.local .align ${Math.max(this.pat.depotAlign, 1)} .b8 \t__local_depot${FN_MARK}[${this.pat.depotSize}];`);
      decls.push('\t.reg .b64 \t%SP;', '\t.reg .b64 \t%SPL;');
    }
    decls.push(...this.regs.decls(), ...entryLoc);
    const pro: string[] = [];
    if (this.pat.depotSize > 0) {
      pro.push(`\tmov.u64 \t%SPL, __local_depot${FN_MARK};`);
      if (this.needSP) pro.push('\tcvta.local.u64 \t%SP, %SPL;');
    }
    const text = [...head, ...decls, '', '', ...pro, ...this.lines, '', '}', ''].join('\n');
    return { name: f.name, text, funcRefs: [...this.funcRefs].sort() };
  }
}

/** A stable text for a symbolic constant (global/function address, constant expression) for reuse within a block. */
function constKey(v: Value): string {
  switch (v.kind) {
    case 'global': case 'func': return '@' + v.name;
    case 'cexpr': return `${v.op}(${constKey(v.base as Value)}:${(v.indices ?? []).map(x => x.kind === 'int' ? String(x.value) : '?').join(',')}:${typeStr(v.ty)})`;
    default: return `#${v.kind}`;
  }
}
