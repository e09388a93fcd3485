// Small helpers shared by the builtin lowerings (builtins.ts, builtins-simd.ts, builtins-tex.ts, builtins-mma.ts).
import { T, cInt, declareFunc, funcTy, isInt } from '../middle/ir';
import type { Builder, Func, InlineAsm, Inst, Module, Type, Value } from '../middle/ir';

/** LLVM inline-asm constraint letter for an operand of IR type `t` (NVPTX conventions). */
export function constraintOf(t: Type): string {
  switch (t.k) {
    case 'int': return t.bits <= 16 ? 'h' : t.bits <= 32 ? 'r' : 'l';
    case 'float': return 'f';
    case 'double': return 'd';
    case 'ptr': return 'l';
    default: throw new Error(`builtins: no inline-asm constraint for type ${t.k}`);
  }
}

/**
 * Emit an inline-asm call. `outs` are the output types (0: void, 1: that type, more: a struct the caller
 * takes apart with extractvalue). Constraints are derived from the operand types: outputs `=x`, inputs `x`.
 */
export function emitAsm(b: Builder, text: string, outs: Type[], args: Value[], sideEffects: boolean, ret?: Type): Inst {
  const retTy = ret ?? (outs.length === 0 ? T.void : outs.length === 1 ? outs[0]! : undefined);
  if (!retTy) throw new Error('builtins: emitAsm with several outputs needs an explicit struct return type');
  const fnTy = funcTy(retTy, args.map(a => a.ty)) as Type & { k: 'func' };
  const constraints = [...outs.map(t => '=' + constraintOf(t)), ...args.map(a => constraintOf(a.ty))].join(',');
  const ia: InlineAsm = { kind: 'asm', ty: T.ptr, fnTy, text, constraints, sideEffects };
  return b.call(ia, fnTy, args);
}

/** Call an intrinsic (or other external function), declaring it in the module on first use. */
export function callIntrinsic(b: Builder, m: Module, name: string, ret: Type, args: Value[], attrs: Func['attrs'] = { readnone: true }): Inst {
  const fnTy = funcTy(ret, args.map(a => a.ty)) as Type & { k: 'func' };
  const f = declareFunc(m, name, fnTy, attrs);
  return b.call(f, f.fnTy, args);
}

/** Convert an integer value to `bits` wide (sign- or zero-extending, or truncating). Non-ints pass through. */
export function toIntBits(b: Builder, v: Value, bits: number, signed: boolean): Value {
  if (!isInt(v.ty)) {
    if (v.ty.k === 'ptr') return toIntBits(b, b.cast('ptrtoint', v, T.i64), bits, signed);
    return v;
  }
  const have = v.ty.bits;
  if (have === bits) return v;
  const to = bits === 1 ? T.i1 : bits === 8 ? T.i8 : bits === 16 ? T.i16 : bits === 32 ? T.i32 : bits === 64 ? T.i64 : T.i64;
  if (v.kind === 'int') return cInt(to, signed ? v.value : BigInt.asUintN(have, v.value));
  if (have > bits) return b.cast('trunc', v, to);
  return b.cast(signed ? 'sext' : 'zext', v, to);
}

/** Make `v` have type `ty` (integer width changes only, plus int<->same-size FP bitcast); used for returns. */
export function fitTo(b: Builder, v: Value, ty: Type, signed = true): Value {
  if (v.ty === ty || ty.k === 'void') return v;
  if (isInt(ty) && isInt(v.ty)) return toIntBits(b, v, ty.bits, signed);
  if (isInt(ty) && v.ty.k === 'ptr') return toIntBits(b, b.cast('ptrtoint', v, T.i64), ty.bits, signed);
  if (ty.k === 'ptr' && isInt(v.ty)) return b.cast('inttoptr', toIntBits(b, v, 64, false), ty);
  if (ty.k === 'float' && v.ty.k === 'double') return b.cast('fptrunc', v, ty);
  if (ty.k === 'double' && v.ty.k === 'float') return b.cast('fpext', v, ty);
  return b.cast('bitcast', v, ty);
}

/** Coerce an argument to an i32/i64 (for builtins called with differently typed operands). */
export const i32 = (b: Builder, v: Value, signed = true): Value => toIntBits(b, v, 32, signed);
export const i64 = (b: Builder, v: Value, signed = true): Value => toIntBits(b, v, 64, signed);

/** Coerce to a floating type (fp extension/truncation or int->fp conversion). */
export function toFP(b: Builder, v: Value, ty: Type): Value {
  if (v.ty === ty) return v;
  if (v.ty.k === 'float' && ty.k === 'double') return b.cast('fpext', v, ty);
  if (v.ty.k === 'double' && ty.k === 'float') return b.cast('fptrunc', v, ty);
  if (isInt(v.ty)) return b.cast('sitofp', v, ty);
  return v;
}

/** A constant i32 argument's value, or null if it is not a constant. */
export function constI32(v: Value): number | null {
  return v.kind === 'int' ? Number(v.value) : null;
}

/**
 * Run `emit(k)` for the value of `v` among `cases`: directly when `v` is a constant, else behind a chain of
 * compare-and-branch (a value outside `cases` does nothing, as in cicc).
 */
export function byCase(b: Builder, v: Value, cases: number[], emit: (k: number) => void): void {
  if (v.kind === 'int') { const k = Number(v.value); if (cases.includes(k)) emit(k); return; }
  const done = b.detachedBlock('case.done');
  for (const k of cases) {
    const hit = b.newBlock('case.hit'), next = b.newBlock('case.next');
    b.condbr(b.icmp('eq', v, cInt(v.ty, k)), hit, next);
    b.setBlock(hit); emit(k); b.br(done);
    b.setBlock(next);
  }
  b.br(done);
  b.placeBlock(done); b.setBlock(done);
}
