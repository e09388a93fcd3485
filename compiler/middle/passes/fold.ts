// Constant folding: integer and IEEE arithmetic, comparisons, casts and exact intrinsics on constants,
// as the target computes them (-ftz, -prec-div).
import type { CompileOptions } from '../../options';
import type { Inst, Type, Value } from '../ir';
import { T, cInt, cFP, cUndef } from '../ir';
import { U, S, bitsOf, isIntConst, isFPConst } from '../analysis/values';

export function foldIntBin(op: string, a: bigint, b: bigint, bits: number): bigint | null {
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
export const isDenormal32 = (x: number): boolean => x !== 0 && Math.abs(x) < F32_MIN_NORMAL;

export function foldFPBin(op: string, ty: Type, a: number, b: number, opts: CompileOptions): number | null {
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

export function icmpInt(pred: string, a: bigint, b: bigint, bits: number): boolean {
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

export function fcmpFold(pred: string, a: number, b: number): boolean {
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

export function foldCast(i: Inst, x: Value, opts: CompileOptions): Value | null {
  const dv = new DataView(new ArrayBuffer(8));
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

/** A call of an exact LLVM intrinsic (fabs, copysign, rounding, min/max) on constants, folded. */
export function foldIntrinsic(i: Inst, opts: CompileOptions): Value | null {
  const fn = i.ops[0]!;
  if (fn.kind !== 'func' || !fn.name.startsWith('llvm.')) return null;
  const args = i.ops.slice(1);
  // the halves of a double and a double from its halves (libdevice's bit manipulation of constants)
  if ((fn.name === 'llvm.nvvm.d2i.hi' || fn.name === 'llvm.nvvm.d2i.lo') && isFPConst(args[0]!)) {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, args[0].value, true);
    return cInt(T.i32, dv.getUint32(fn.name.endsWith('hi') ? 4 : 0, true));
  }
  if (fn.name === 'llvm.nvvm.lohi.i2d' && isIntConst(args[0]!) && isIntConst(args[1]!)) {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setUint32(0, Number(U(args[0].value, 32)), true);
    dv.setUint32(4, Number(U(args[1].value, 32)), true);
    const d = dv.getFloat64(0, true);
    return Number.isNaN(d) ? null : cFP(T.f64, d);
  }
  // only constant operands fold: the name is not taken apart for the others (most calls)
  if (i.ty.k === 'float' || i.ty.k === 'double' ? !args.every(isFPConst) : !(i.ty.k === 'int' && args.every(isIntConst))) return null;
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
