// InstCombine: in-place rewrites that need a new operand or opcode rather than an existing value.
import type { Block, Const, Func, Inst, Value } from '../ir';
import { T, cInt, cTrue } from '../ir';
import { useCounts } from '../analysis/uses';
import { U, S, bitsOf, isIntConst } from '../analysis/values';
import { maybeOnes } from './knownbits';
import { reassembled } from './reassemble';

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

/** Compares and branches: inverted compares for a negation, narrowed compares, direct calls. True when i was rewritten. */
function combineCompares(i: Inst): boolean {
  // a call through a constant function address (a devirtualised vtable load) is a direct call
  if (i.op === 'call' && i.ops[0]!.kind === 'cexpr' && i.ops[0]!.op === 'bitcast' && i.ops[0]!.base.kind === 'func' && i.ops[0]!.base.fnTy === i.fnTy) {
    i.ops[0] = i.ops[0]!.base; return true;
  }
  // not(a < b) is a >= b (for floats the unordered opposite): the negation costs nothing
  if (i.op === 'xor' && i.ty === T.i1 && isIntConst(i.ops[1]!) && (i.ops[1].value & 1n) === 1n && i.ops[0]!.kind === 'inst'
    && (i.ops[0].op === 'icmp' || i.ops[0].op === 'fcmp')) {
    const c = i.ops[0];
    i.op = c.op; i.pred = (c.op === 'icmp' ? ICMP_INVERSE : FCMP_INVERSE)[c.pred!]; i.ops = [...c.ops]; i.fmf = c.fmf;
    return true;
  }
  // `(int)flag == 0` is not(flag): the inverse compare when the flag is one
  if (i.op === 'icmp' && i.pred === 'eq' && isIntConst(i.ops[1]!) && i.ops[1].value === 0n && i.ops[0]!.kind === 'inst'
    && (i.ops[0].op === 'zext' || i.ops[0].op === 'sext') && i.ops[0].ops[0]!.ty === T.i1) {
    const c = i.ops[0].ops[0]!;
    if (c.kind === 'inst' && (c.op === 'icmp' || c.op === 'fcmp')) {
      i.op = c.op; i.pred = (c.op === 'icmp' ? ICMP_INVERSE : FCMP_INVERSE)[c.pred!]; i.ops = [...c.ops]; i.fmf = c.fmf;
    } else { i.op = 'xor'; i.pred = undefined; i.ops = [c, cTrue]; }
    return true;
  }
  // a widened value compared for (in)equality with a constant it can hold: compare the narrow value
  if (i.op === 'icmp' && (i.pred === 'eq' || i.pred === 'ne') && isIntConst(i.ops[1]!) && i.ops[0]!.kind === 'inst' && i.ops[0].op === 'zext'
    && i.ops[0].ops[0]!.ty.k === 'int' && i.ops[0].ops[0]!.ty !== T.i1) {
    const x = i.ops[0].ops[0]!, nb = bitsOf(x.ty), c = U(i.ops[1].value, bitsOf(i.ops[1].ty));
    if (c < (1n << BigInt(nb))) { i.ops = [x, cInt(x.ty, c)]; return true; }
  }
  // an extended choice between constants is a choice between the extended constants
  if ((i.op === 'zext' || i.op === 'sext') && i.ty.k === 'int' && i.ops[0]!.kind === 'inst' && i.ops[0].op === 'select'
    && isIntConst(i.ops[0].ops[1]!) && isIntConst(i.ops[0].ops[2]!)) {
    const sel = i.ops[0], fb = bitsOf(sel.ty);
    const zext = i.op === 'zext';
    const ext = (v: bigint): Value => cInt(i.ty, zext ? U(v, fb) : S(v, fb));
    const arms = [ext((sel.ops[1] as { value: bigint }).value), ext((sel.ops[2] as { value: bigint }).value)];
    i.op = 'select'; i.ops = [sel.ops[0]!, ...arms];
    return true;
  }
  // a branch on not(c) is a branch on c the other way round
  if (i.op === 'condbr' && i.ops[0]!.kind === 'inst' && i.ops[0].op === 'xor' && i.ops[0].ty === T.i1 && isIntConst(i.ops[0].ops[1]!) && (i.ops[0].ops[1].value & 1n) === 1n) {
    i.ops[0] = i.ops[0].ops[0]!;
    i.targets = [i.targets[1]!, i.targets[0]!];
    return true;
  }
  return false;
}

/**
 * A simpler value with the same bits in the low mask m as o (null when there is none): z for z & k when k
 * keeps m, b for a | b when a has no bit in m (a bitfield's word with its field written back).
 */
function lowBitsOf(o: Value, m: bigint, user: Inst): Value | null {
  let v = o;
  for (let n = 0; n < 4 && v.kind === 'inst' && v !== user && v.ty.k === 'int'; n++) {
    const bits = v.ty.bits;
    if (v.op === 'and' && isIntConst(v.ops[1]!) && (U(v.ops[1].value, bits) & m) === m) { v = v.ops[0]!; continue; }
    if (v.op === 'or' && (maybeOnes(v.ops[0]!) & m) === 0n) { v = v.ops[1]!; continue; }
    if (v.op === 'or' && (maybeOnes(v.ops[1]!) & m) === 0n) { v = v.ops[0]!; continue; }
    break;
  }
  return v === o ? null : v;
}

/** Masks, shifts and divisions that known bits make simpler. True when i was rewritten. */
function combineMasks(i: Inst, b: Block, usesOf: (v: Value) => number | undefined): boolean {
  // trunc (a | b) → trunc b when a has no bit below the truncation (the low half of a packed handle),
  // where that does not keep both the or and a second value alive: b a constant or an extension the
  // trunc undoes, or the or used once
  if (i.op === 'trunc' && i.ty.k === 'int' && i.ops[0]!.kind === 'inst' && (i.ops[0].op === 'or' || i.ops[0].op === 'xor')) {
    const x = i.ops[0], low = (1n << BigInt(i.ty.bits)) - 1n;
    const keep = (maybeOnes(x.ops[0]!) & low) === 0n ? x.ops[1]! : (maybeOnes(x.ops[1]!) & low) === 0n ? x.ops[0]! : null;
    const undone = keep?.kind === 'inst' && (keep.op === 'zext' || keep.op === 'sext') && keep.ops[0]!.ty === i.ty;
    if (keep && (isIntConst(keep) || undone || usesOf(x) === 1)) { i.ops[0] = keep; return true; }
  }
  // signed division of a value known non-negative by a positive constant is unsigned (cheaper: no
  // rounding correction, a power of two is a shift or a mask)
  if ((i.op === 'sdiv' || i.op === 'srem') && i.ty.k === 'int' && isIntConst(i.ops[1]!) && S(i.ops[1].value, i.ty.bits) > 0n
    && maybeOnes(i.ops[0]!) <= (1n << BigInt(i.ty.bits - 1)) - 1n) {
    i.op = i.op === 'sdiv' ? 'udiv' : 'urem'; return true;
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
      return true;
    }
  }
  // constant masks: (x & c1) & c2 → x & (c1 & c2), (x | c1) | c2 → x | (c1 | c2)
  if ((i.op === 'and' || i.op === 'or') && i.ty.k === 'int' && isIntConst(i.ops[1]!) && i.ops[0]!.kind === 'inst') {
    const x = i.ops[0] as Inst, c2 = (i.ops[1] as Const & { kind: 'int' }).value;
    const c1 = x.ops[1] && isIntConst(x.ops[1]) ? x.ops[1].value : null;
    if (c1 !== null && x.op === i.op && x.ty === i.ty && x !== i) { i.ops = [x.ops[0]!, cInt(i.ty, i.op === 'and' ? c1 & c2 : c1 | c2)]; return true; }
  }
  // bitfield reads after writes: bits a mask drops need not be computed
  if (i.op === 'and' && i.ty.k === 'int' && isIntConst(i.ops[1]!) && i.ops[0]!.kind === 'inst') {
    const bits = i.ty.bits, m = U((i.ops[1] as Const & { kind: 'int' }).value, bits);
    const x = i.ops[0] as Inst;
    // (((z & k) + c) & m → (z + c) & m when m is a low mask that k keeps: the low bits of a sum, difference
    // or product depend only on the low bits of its operands (a bitfield incremented twice: LLVM's demanded bits)
    if ((x.op === 'add' || x.op === 'sub' || x.op === 'mul') && x !== i && (m & (m + 1n)) === 0n && usesOf(x) === 1) {
      const low = x.ops.map(o => lowBitsOf(o, m, x));
      const k = low.findIndex(o => o !== null);
      if (k >= 0) {
        // a new instruction (the old one goes when unused): the cached use counts stay true
        const ops = x.ops.map((o, j) => low[j] ?? o);
        const nx: Inst = { kind: 'inst', op: x.op, ty: x.ty, ops, targets: [], parent: b, name: '', loc: x.loc };
        b.insts.splice(b.insts.indexOf(i), 0, nx);
        i.ops = [nx, i.ops[1]!];
        return true;
      }
    }
    // (a | b) & m → b & m when a has no bit in m
    if (x.op === 'or' && x !== i) {
      const keep = (maybeOnes(x.ops[0]!) & m) === 0n ? x.ops[1]! : (maybeOnes(x.ops[1]!) & m) === 0n ? x.ops[0]! : null;
      if (keep) { i.ops = [keep, i.ops[1]!]; return true; }
    }
    if (x.op === 'lshr' && isIntConst(x.ops[1]!) && x !== i) {
      const sh = Number(U((x.ops[1] as Const & { kind: 'int' }).value, bits));
      const hi = m << BigInt(sh);
      let y = x.ops[0]!;
      // ((z & k) >> s) & m → (z >> s) & m when k keeps the bits m takes
      while (y.kind === 'inst' && y.op === 'and' && isIntConst(y.ops[1]!) && (hi & ~U(y.ops[1].value, bits)) === 0n) y = y.ops[0]!;
      // ((v << s) >> s) & m → v & m when m fits below the bits the shift dropped
      if (y.kind === 'inst' && y.op === 'shl' && isIntConst(y.ops[1]!) && U(y.ops[1].value, bits) === BigInt(sh) && hi >> BigInt(bits) === 0n) {
        i.ops = [y.ops[0]!, i.ops[1]!]; return true;
      }
      // ((a | b) >> s) & m → (b >> s) & m when a has no bit in m << s
      if (y.kind === 'inst' && y.op === 'or') {
        const keep = (maybeOnes(y.ops[0]!) & hi) === 0n ? y.ops[1]! : (maybeOnes(y.ops[1]!) & hi) === 0n ? y.ops[0]! : null;
        if (keep) {
          const nx: Inst = { kind: 'inst', op: 'lshr', ty: x.ty, ops: [keep, x.ops[1]!], targets: [], parent: b, name: '', loc: x.loc };
          b.insts.splice(b.insts.indexOf(i), 0, nx);
          i.ops = [nx, i.ops[1]!];
          return true;
        }
      }
    }
  }
  return false;
}

/**
 * In-place rewrites that need a new operand rather than an existing value: constant add/sub chains
 * (x + c1) + c2 → x + (c1 + c2), x - c → x + (-c). Wrap flags are dropped (the sum may wrap differently).
 */
export function instCombine(f: Func): boolean {
  let changed = false;
  let uses: Map<Value, number> | undefined;
  const usesOf = (v: Value): number | undefined => (uses ??= useCounts(f)).get(v);
  const extracts: { b: Block; i: Inst; x: Value; shift: number }[] = [];
  for (const b of f.blocks) for (const i of b.insts) {
    if (combineCompares(i)) { changed = true; continue; }
    // a sum that cannot wrap (tid.x + 3: the special registers are small) is nsw, so that address
    // arithmetic can fold its constant into the load's offset
    if (i.op === 'add' && !i.nsw && i.ty.k === 'int' && (i.ty.bits === 32 || i.ty.bits === 64) && noSignedWrap(i.ops[0]!, i.ops[1]!, i.ty.bits)) {
      i.nsw = true; changed = true;
    }
    if (i.op === 'add' && !i.nuw && i.ty.k === 'int' && (i.ty.bits === 32 || i.ty.bits === 64) && noUnsignedWrap(i.ops[0]!, i.ops[1]!, i.ty.bits)) {
      i.nuw = true; changed = true;
    }
    if (combineMasks(i, b, usesOf)) { changed = true; continue; }
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
    // x -nsw C is x +nsw -C unless C is the type's minimum, whose negation wraps (LLVM keeps nsw so too):
    // a counter counting down still distributes a sign extension (strength reduction reads it)
    if (i.op === 'sub') { const keep = i.nsw && c.value !== -(1n << BigInt(bits - 1)); i.op = 'add'; i.ops[1] = cInt(i.ty, -c.value); i.nsw = keep || undefined; i.nuw = undefined; changed = true; continue; }
    if (x.kind === 'inst' && (x.op === 'add' || x.op === 'sub') && x.ty === i.ty && isIntConst(x.ops[1]!) && x.ops[0] !== i) {
      const c1 = (x.ops[1] as Const & { kind: 'int' }).value;
      const sum = x.op === 'add' ? c1 + c.value : c.value - c1;
      i.ops = [x.ops[0]!, cInt(i.ty, BigInt.asIntN(bits === 1 ? 1 : bits, sum))];
      // (x +nsw c1) +nsw c2 with c1, c2 of one sign and no overflow in c1 + c2 stays nsw (as LLVM keeps it):
      // a counter stepped by one in each unrolled copy still splits into `[reg+imm]` addresses
      const keepNsw = x.op === 'add' && x.nsw && i.nsw && (c1 >= 0n) === (c.value >= 0n) && sum === BigInt.asIntN(bits, sum);
      i.nsw = keepNsw || undefined; i.nuw = undefined;
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
