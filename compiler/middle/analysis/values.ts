// Small predicates and integer views of IR values and opcodes shared by the folding and combining passes.
import type { Const, Type, Value } from '../ir';

export const U = (v: bigint, bits: number): bigint => BigInt.asUintN(bits, v);
export const S = (v: bigint, bits: number): bigint => BigInt.asIntN(bits, v);
export const bitsOf = (t: Type): number => (t as { bits: number }).bits;
export const isIntConst = (v: Value): v is Const & { kind: 'int' } => v.kind === 'int';
export const isFPConst = (v: Value): v is Const & { kind: 'fp' } => v.kind === 'fp';
export const isLocal = (v: Value): boolean => v.kind === 'inst' || v.kind === 'arg';
export const COMMUTATIVE = new Set(['add', 'mul', 'and', 'or', 'xor', 'fadd', 'fmul']);
export const sameIdx = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, k) => x === b[k]);
export const CASTS = new Set(['trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);
export const isCast = (op: string): boolean => CASTS.has(op);
