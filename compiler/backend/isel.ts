// Instruction selection for one function: what PTX each IR instruction becomes, given the patterns found
// beforehand (patterns.ts) and written through the emission helpers (writer.ts).
// Every SSA value gets its own virtual register(s) (aggregates: one per scalar leaf); phis are eliminated by
// parallel copies on the incoming edges, critical edges going through edge blocks placed after the body.
// The text depends only on the function (labels and the depot name carry FN_MARK, replaced at assembly).
import { emitDivByConst } from './divconst';
import type { Func, Block, Inst, Value, Const, Type, Arg, ICmpPred, FCmpPred } from '../middle/ir';
import { T, sizeOf, isInt, typeStr, isTerminator } from '../middle/ir';
import { dominates } from '../middle/analysis/dominance';
import { onlyReadsThrough } from '../middle/analysis/readonly';
import type { CompileOptions } from '../options';
import { Unsupported } from '../diagnostics';
import { classOfReg } from './registers';
import { regClassOf, leavesOf, leafRange, bitsOf, memSuffix, movSuffix, intImm, isScalar, type RegClass } from './types';
import { ptxName, paramKind, callPrototype, type ParamKind } from './callconv';
import { emitIntrinsic } from './intrinsics';
import { emitInlineAsm } from './inlineasm';
import { addressedBy, spaceOf, addrText, dot, ldOp, NC, ptxScope, type Addr } from './operands';
import { FnWriter, type FnPiece } from './writer';
import type { DynTerm } from './patterns';

export { FN_MARK, type FnPiece } from './writer';

class FnEmitter extends FnWriter {
  private callSeq = 0;
  private emitHalves(i: Inst): void {
    const parts = this.pat.halves.get(i)!;
    if (parts.length === 2) { this.ins(`mov.b${bitsOf(i.ty)}`, this.reg(i), `{${this.scalar(parts[0]!)}, ${this.scalar(parts[1]!)}}`); return; }
    const src = parts[0]!;
    this.ins(`mov.b${bitsOf(src.ty)}`, `{${this.fresh(regClassOf(i.ty))}, ${this.reg(i)}}`, this.scalar(src));
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
    return this.finish(entryLoc);
  }

  private emitParam(a: Arg, i: number): void {
    const f = this.f;
    const pname = `${this.fname}_param_${i}`;
    if (a.byval) {
      const off = this.pat.byvalCopy.get(a);
      if (off !== undefined) {
        const pk = paramKind(a.ty, a.byval, a.align);
        this.copyBytes({ space: 'local', base: '%SPL', off }, { space: 'param', base: pname, off: 0 }, sizeOf(a.byval), pk.k === 'agg' ? pk.align : 1);
        this.needSP = true;
        this.ins('add.u64', this.reg(a), '%SP', String(off));
      }
      return;
    }
    if (this.pat.useCount(a) === 0) return;
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
      if (this.pat.hasPreds.has(b)) this.raw(`${this.label(b)}:`);
    }
    b.insts.forEach((inst, k) => {
      if (k < b.insts.length - 1 && isTerminator(inst)) throw new Error(`instruction after the terminator in block ${b.name}`);
      if (inst.loc) this.loc = inst.loc;
      this.emitInst(inst, b, i);
    });
    const last = b.insts[b.insts.length - 1];
    if (!last || !isTerminator(last)) throw new Error(`block ${b.name} has no terminator`);
  }

  // ------------------------------------------------------------------ instructions

  private emitInst(i: Inst, b: Block, bi: number): void {
    if (this.pat.halves.has(i)) { this.emitHalves(i); return; }
    if (this.pat.inHalves.has(i)) return;
    switch (i.op) {
      case 'phi': this.regsOf(i); return;
      case 'alloca':
        if (this.pat.useCount(i) > 0 && (this.pat.users.get(i) ?? []).some(u => !addressedBy(u, i) && !this.pat.isLocalCast(u) && !this.pat.addressOnlyMemIntrinsic(u, i))) {
          this.needSP = true;
          this.ins('add.u64', this.reg(i), '%SP', String(this.pat.allocaOff.get(i)!));
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
        if (next && !this.hasPhis(next) && this.hasPhis(join) && this.pat.onlyEntry(next, b) && !dominates(this.pat.cfg(), join, b)) {
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
  private emitVector(i: Inst): void {
    const v = this.pat.vecAt.get(i)!;
    const load = i.op === 'load';
    const a0 = this.addrOf(i.ops[load ? 0 : 1]!);
    const a: Addr = { ...a0, off: a0.off + (v.lowOff - v.atOff) };
    const q = this.memQual(i, a, load);
    const sfx = `v${v.members.length}.${memSuffix(v.ty)}`;
    if (load) { this.ins(`${ldOp(q, dot(a.space))}.${sfx}`, `{${v.members.map(m => this.reg(m)).join(', ')}}`, addrText(a)); return; }
    this.ins(`st${q}${dot(a.space)}.${sfx}`, addrText(a), `{${v.members.map(m => this.scalar(m.ops[0]!)).join(', ')}}`);
  }

  private emitLoad(i: Inst): void {
    if (this.pat.vecSkip.has(i)) return;      // loaded with its neighbours (emitVector)
    if (this.pat.vecAt.has(i)) { this.emitVector(i); return; }
    if (this.pat.foldedLoad.has(i)) return;   // loaded by its zext/sext (emitCast)
    const p = i.ops[0]!;
    const a = this.addrOf(p);
    const q = this.memQual(i, a, true);
    if (i.ordering === 'seq_cst') this.ins(`fence.sc.${ptxScope(i.scope)}`);
    if (isScalar(i.ty)) { this.loadScalar(i.ty, a, q, this.reg(i)); return; }
    const rs = this.regsOf(i);
    leavesOf(i.ty).forEach((l, k) => this.loadScalar(l.ty, { ...a, off: a.off + l.off }, q, rs[k]));
  }
  private emitStore(i: Inst): void {
    if (this.pat.vecSkip.has(i)) return;      // stored with its neighbours (emitVector)
    if (this.pat.vecAt.has(i)) { this.emitVector(i); return; }
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

  /** base + Σ scaled dynamic terms, in a register (scaled terms reused within the block). */
  private gepDynamic(base: Value, dyn: DynTerm[], into?: string): string {
    let acc = this.scalar(base);
    for (const [k, d] of dyn.entries()) {
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
      const sum = into !== undefined && k === dyn.length - 1 ? into : this.fresh('rd');
      this.ins('add.s64', sum, acc, t);
      acc = sum;
    }
    return acc;
  }

  private emitGep(i: Inst): void {
    if (this.pat.isDirectParamPtr(i)) return; // folded into ld.param addresses
    if (this.pat.foldedGep.has(i)) return;    // folded into [base+off] of its loads/stores
    const parts = this.pat.gepParts(i);
    const group = this.pat.dynGroup.get(i);
    if (group) {
      // only memory accesses use this address: compute base + dynamic terms once per group, the
      // constant part goes into each access's [reg+off]
      if (group.reg === null) group.reg = this.gepDynamic(parts.base, parts.dyn);
      return;
    }
    // a register chosen before (a back-edge input written into its phi's register) takes the last sum
    const into = parts.off === 0 && parts.dyn.length > 0 && this.vals.has(i) ? this.reg(i) : undefined;
    const acc = this.gepDynamic(parts.base, parts.dyn, into);
    if (into !== undefined) return;
    if (parts.off === 0 && parts.dyn.length > 0) { this.vals.set(i, [acc]); return; }
    const d = this.reg(i);
    if (parts.off !== 0) this.ins('add.s64', d, acc, String(parts.off));
    else this.mov(d, acc);
  }

  // ------------------------------------------------------------------ arithmetic

  private emitBin(i: Inst): void {
    const t = i.ty;
    const [a, b] = i.ops as [Value, Value];
    if (this.pat.contracted.has(i)) return;
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
      if (this.pat.unusedAdd.has(i)) return;
      const mad = this.pat.madOf.get(i);
      const wm = this.pat.wideMul.get(i);
      if (wm) { this.ins(`mul.wide.${wm.sgn}32`, d, this.src(wm.a), this.src(wm.b)); return; }
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
        const fm = this.pat.fmaOf.get(i);
        if (fm) {
          const z = this.src(fm.other);
          this.ins(`fma.rn${ftz}.${ty}`, d, this.src(fm.mul.ops[0]!), this.src(fm.mul.ops[1]!), fm.negOther ? this.negF(z, t) : z);
          return;
        }
        this.ins(`${i.op === 'fadd' ? 'add' : 'sub'}${rn}${ftz}.${ty}`, d, this.src(a), this.src(b));
        return;
      }
      case 'fmul':
        if (this.pat.contracted.has(i)) return;
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
    if (this.pat.foldedCmp.has(i)) return;
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
    const mm = this.pat.minMaxOf.get(i);
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
    if (this.pat.wideIdx.has(i) || this.pat.foldedTrunc.has(i) || this.pat.foldedExt.has(i)) return;
    const te = this.pat.truncExt.get(i);
    if (te) {
      // sign/zero-extend the low 8/16 bits of a register of the result's width (cvt.s32.s16 %r, %r)
      const w = bitsOf(i.ty), nb = te.ty === T.i8 ? 8 : 16, sg = i.op === 'sext' ? 's' : 'u';
      this.ins(`cvt.${sg}${w}.${sg}${nb}`, this.reg(i), this.scalar(te.ops[0]!));
      return;
    }
    const l = this.pat.extLoad.get(i);
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
        if (this.pat.isLocalCast(i)) {
          // needed only as the base of dynamic address arithmetic; loads/stores use [%SPL+off]
          if ((this.pat.users.get(i) ?? []).every(u => addressedBy(u, i) || this.pat.foldedGep.has(u))) return;
          this.ins('add.u64', d, '%SPL', String(this.pat.allocaOff.get(x as Inst)!));
          return;
        }
        // a generic pointer only accessed through (addrOf() takes the specific one) needs no register
        if (ta === 0 && fa !== 0 && (this.pat.users.get(i) ?? []).every(u => addressedBy(u, i) || this.pat.addressOnlyMemIntrinsic(u, i))) return;
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

const BIN = new Set(['add', 'sub', 'mul', 'sdiv', 'udiv', 'srem', 'urem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor', 'fadd', 'fsub', 'fmul', 'fdiv', 'frem']);
const CAST = new Set(['trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);
const isBinOp = (op: string): boolean => BIN.has(op);
const isCastOp = (op: string): boolean => CAST.has(op);

export function emitFunction(f: Func, opts: CompileOptions): FnPiece {
  return new FnEmitter(f, opts).emit();
}
