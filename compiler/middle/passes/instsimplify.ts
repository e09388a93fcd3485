// InstSimplify: an instruction replaced by an equivalent existing value or constant (folding, identities,
// loads from constant memory, phi webs with one incoming value).
import type { CompileOptions } from '../../options';
import type { Inst, Value, Func } from '../ir';
import { T, cInt, cFP, cTrue, cFalse, cUndef } from '../ir';
import { reversePostOrder } from '../analysis/cfg';
import { applyReplacements, removeInsts, resolve } from '../analysis/uses';
import { U, bitsOf, isIntConst, isFPConst, isLocal, COMMUTATIVE, sameIdx, isCast } from '../analysis/values';
import { baseAndOffset, isAllocaAddress } from '../analysis/memory';
import { constElement, loadConstPtrSlot, loadFromConstant } from '../analysis/constants';
import { foldIntBin, foldFPBin, icmpInt, fcmpFold, foldCast, foldIntrinsic, isDenormal32 } from './fold';
import { maybeOnes } from './knownbits';
import { reassembled } from './reassemble';

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

/** Returns a value equivalent to i, or null. May swap commutative operands in place. */
export function simplifyInst(i: Inst, opts: CompileOptions): Value | null {
  const o = i.ops;
  switch (i.op) {
    case 'add': case 'sub': case 'mul': case 'udiv': case 'sdiv': case 'urem': case 'srem':
    case 'shl': case 'lshr': case 'ashr': case 'and': case 'or': case 'xor': return simplifyIntBin(i, o);
    case 'fadd': case 'fsub': case 'fmul': case 'fdiv': case 'frem': return simplifyFPBin(i, o, opts);
    case 'fneg': {
      const a = o[0]!;
      if (isFPConst(a) && (a.ty.k === 'float' || a.ty.k === 'double') && !Number.isNaN(a.value)) return cFP(i.ty, -a.value);
      if (a.kind === 'inst' && a.op === 'fneg') return a.ops[0]!;
      return null;
    }
    case 'icmp': return simplifyICmp(i, o);
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
    case 'phi': return simplifyPhi(i, o);
    case 'gep': {
      if (o.length > 1 && o.slice(1).every(x => isIntConst(x) && x.value === 0n) && o[0]!.ty === i.ty) return o[0]!;
      return null;
    }
    case 'load': return simplifyLoad(i, o);
    case 'extractvalue': return simplifyExtractValue(i, o);
    case 'call': return foldIntrinsic(i, opts);
    default:
      if (isCast(i.op)) return foldCast(i, o[0]!, opts);
      return null;
  }
}

/** Integer arithmetic and bit operations: constants folded, identities, known bits. */
function simplifyIntBin(i: Inst, o: Value[]): Value | null {
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

/** IEEE arithmetic: constants folded, exact identities (x + -0, x - +0, x * 1, x / 1). */
function simplifyFPBin(i: Inst, o: Value[], opts: CompileOptions): Value | null {
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

/** Integer and pointer comparisons with a known answer. */
function simplifyICmp(i: Inst, o: Value[]): Value | null {
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

/** A phi with one incoming value (apart from itself and undef). */
function simplifyPhi(i: Inst, o: Value[]): Value | null {
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

/** A load from constant memory. */
function simplifyLoad(i: Inst, o: Value[]): Value | null {
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

/** A member taken from an aggregate built by insertvalue, or from a constant. */
function simplifyExtractValue(i: Inst, o: Value[]): Value | null {
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

export function instSimplify(f: Func, opts: CompileOptions): boolean {
  return instSimplifyReport(f, opts) === true;
}

/**
 * instSimplify, telling apart the run that only moved constants of commutative operations to the right
 * ('swapped': f changed, but the pipeline's fixpoints have never counted that as a change) from one that
 * changed nothing (false).
 */
export function instSimplifyReport(f: Func, opts: CompileOptions): boolean | 'swapped' {
  const repl = new Map<Value, Value>();
  const dead = new Set<Inst>();
  let swapped = false;
  for (const b of reversePostOrder(f)) for (const i of b.insts) {
    for (let k = 0; k < i.ops.length; k++) { const x = i.ops[k]!; if (repl.has(x)) i.ops[k] = resolve(repl, x); }
    const first = i.ops[0];
    const r = simplifyInst(i, opts);
    if (r !== null && r !== i && r.ty === i.ty) { repl.set(i, r); dead.add(i); }
    else if (i.ops[0] !== first) swapped = true;
  }
  applyReplacements(f, repl);
  removeInsts(f, dead);
  return dead.size > 0 || (swapped && 'swapped');
}
