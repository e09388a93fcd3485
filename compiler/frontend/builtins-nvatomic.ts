// CUDA 13's __nv_atomic_* builtins: atomics with a memory order and a thread scope, known to EDG without a
// declaration and type-generic over the pointee. cicc lowers each to inline PTX; the texts, the order and
// scope mapping and the accepted types below were measured against cicc 13.0's PTX (sm_90):
//   fetch_add(p, v, order[, scope])     atom.add.relaxed.gpu.s32 %r1,[%rd1],%r2;   (sub: add of the negation)
//   load_n(p, order[, scope])           ld.acquire.gpu.b32 %r1, [%rd1];
//   store_n(p, v, order[, scope])       st.release.gpu.b32 [%rd1], %r1;
//   compare_exchange_n(p, &e, d, weak, success, failure[, scope])   atom.cas.acq_rel.gpu.b32 %r1,[%rd1],%r2,%r3;
//   thread_fence(order[, scope])        fence.acq_rel.gpu;  /  fence.sc.gpu;
// seq_cst is a `fence.sc` before the acquire form (a relaxed one for stores); consume is acquire; the scope
// defaults to the system; thread scope is the block's. What cicc rejects (an order that is no literal, a type
// or order the operation does not take, the generic pointer forms we have not measured) is unsupported here,
// so the real cicc gives its own error.
import { type CType, C, ptrTo, unqual } from './ctype';
import { T, cFP, cInt, type Builder, type Type, type Value } from '../middle/ir';
import { emitAsm } from './builtins-util';

const OPS = ['fetch_add', 'fetch_sub', 'fetch_min', 'fetch_max', 'fetch_and', 'fetch_or', 'fetch_xor', 'exchange_n',
  'load_n', 'store_n', 'compare_exchange_n', 'thread_fence'] as const;
type Op = typeof OPS[number];

const PREFIX = '__nv_atomic_';
/** The scope of a call that names none. */
export const SYSTEM_SCOPE = 4;
/** __NV_THREAD_SCOPE_THREAD, _BLOCK, _CLUSTER, _DEVICE, _SYSTEM. */
const SCOPES = ['cta', 'cta', 'cluster', 'gpu', 'sys'];
/** __NV_ATOMIC_RELAXED, _CONSUME, _ACQUIRE, _RELEASE, _ACQ_REL, _SEQ_CST. */
const RELAXED = 0, RELEASE = 3, ACQ_REL = 4, SEQ_CST = 5;
const ORDER_NAMES = ['relaxed', 'acquire', 'acquire', 'release', 'acq_rel'];

export function isNvAtomic(name: string): boolean {
  return name.startsWith(PREFIX) && (OPS as readonly string[]).includes(name.slice(PREFIX.length));
}

/** What the parser needs for one call: the parameters to convert the arguments to, the result, and the lowering's name. */
export interface NvAtomicSig { params: CType[]; ret: CType; name: string; /** the call names no scope: the parser adds SYSTEM_SCOPE */ defaultScope: boolean }

/**
 * The signature of a call with `argTypes` (the arguments' types after the usual decays), or the reason it is
 * unsupported. The lowering's name carries the PTX type: `__nv_atomic_fetch_add.s32`.
 */
export function nvAtomicSignature(name: string, argTypes: readonly CType[], arch: number): NvAtomicSig | string {
  const op = name.slice(PREFIX.length) as Op;
  if (arch < 70) return `${name} before sm_70`;
  const full = op === 'thread_fence' ? 2 : op === 'load_n' ? 3 : op === 'compare_exchange_n' ? 7 : 4;
  if (argTypes.length !== full && argTypes.length !== full - 1) return `${name} with ${argTypes.length} arguments`;
  const defaultScope = argTypes.length === full - 1;
  if (op === 'thread_fence') return { params: [C.int, C.int], ret: C.void, name: `${name}.`, defaultScope };
  const p = argTypes[0]!;
  if (p.k !== 'ptr') return `${name} on a non-pointer`;
  const t = unqual(p.to);
  const ptx = ptxType(op, t);
  if (ptx.startsWith('!')) return `${name}: ${ptx.slice(1)}`;
  const ptr = ptrTo(t);
  const params = op === 'load_n' ? [ptr, C.int, C.int]
    : op === 'compare_exchange_n' ? [ptr, ptr, t, C.bool, C.int, C.int, C.int]
      : [ptr, t, C.int, C.int];
  const ret = op === 'store_n' ? C.void : op === 'compare_exchange_n' ? C.bool : t;
  return { params, ret, name: `${name}.${ptx}`, defaultScope };
}

/** The PTX type an operation works in for pointee `t`, or `!` and cicc's complaint. */
function ptxType(op: Op, t: CType): string {
  const bytes = t.k === 'int' ? t.bits / 8 : t.k === 'float' ? 4 : t.k === 'double' ? 8 : 0;
  const floating = t.k === 'float' || t.k === 'double';
  if (t.k !== 'int' && !floating) return '!not an integral or floating-point type';
  switch (op) {
    case 'fetch_add': case 'fetch_sub':
      if (floating) return `f${bytes * 8}`;
      if (bytes !== 4 && bytes !== 8) return '!valid only on objects of size 4, or 8';
      if (bytes === 8 && t.k === 'int' && t.signed) return '!add and sub are not valid on signed integer of size 8';
      return `${t.k === 'int' && t.signed ? 's' : 'u'}${bytes * 8}`;
    case 'fetch_min': case 'fetch_max':
      if (floating) return '!min and max are not supported on any floating-point types';
      if (bytes !== 4 && bytes !== 8) return '!valid only on objects of size 4, or 8';
      return `${t.k === 'int' && t.signed ? 's' : 'u'}${bytes * 8}`;
    case 'fetch_and': case 'fetch_or': case 'fetch_xor': case 'exchange_n':
      if (floating) return '!valid only on integral types';
      if (bytes !== 4 && bytes !== 8) return '!valid only on objects of size 4, or 8';
      return `b${bytes * 8}`;
    case 'load_n': case 'store_n':
      if (floating) return '!valid only on integral types';
      return `b${bytes * 8}`;
    case 'compare_exchange_n':
      if (floating) return '!valid only on integral types';
      if (bytes === 1) return '!atomic CAS is valid only on objects of size 2, 4, 8 or 16 bytes';
      return `b${bytes * 8}`;
    case 'thread_fence':
      return '';
  }
}

/** Lowers `__nv_atomic_<op>.<ptx type>`; null when the name is not one, or an order or scope is no constant. */
export function lowerNvAtomic(b: Builder, name: string, a: Value[]): Value | undefined | null {
  if (!name.startsWith(PREFIX)) return null;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return null;
  const op = name.slice(PREFIX.length, dot) as Op;
  const ty = name.slice(dot + 1);
  const konst = (v: Value | undefined): number | null => (v && v.kind === 'int' ? Number(v.value) : null);
  const scopeV = konst(a[a.length - 1]);
  if (scopeV === null || scopeV < 0 || scopeV >= SCOPES.length) return null;
  const scope = SCOPES[scopeV]!;
  const fence = (kind: 'sc' | 'acq_rel'): void => { emitAsm(b, `fence.${kind}.${scope};`, [], [], true); };

  if (op === 'thread_fence') {
    const order = konst(a[0]);
    if (order === null || order < RELAXED || order > SEQ_CST) return null;
    fence(order === ACQ_REL ? 'acq_rel' : 'sc');
    return undefined;
  }
  const bits = Number(ty.slice(1));
  // 8-bit values travel in 32-bit registers, as cicc's inline asm has them
  const regTy: Type = ty === 'f32' ? T.f32 : ty === 'f64' ? T.f64 : bits === 64 ? T.i64 : bits === 16 ? T.i16 : T.i32;
  const toReg = (v: Value): Value => (v.ty === regTy ? v : v.ty.k === 'int' && regTy.k === 'int' && v.ty.bits < regTy.bits ? b.cast('zext', v, regTy) : v);
  const fromReg = (v: Value, to: Type): Value => (v.ty === to ? v : to.k === 'int' && v.ty.k === 'int' && to.bits < v.ty.bits ? b.cast('trunc', v, to) : v);
  const ptr = a[0]!;

  if (op === 'load_n') {
    const order = konst(a[1]);
    if (order === null || order === RELEASE || order === ACQ_REL || order < RELAXED || order > SEQ_CST) return null;
    if (order === SEQ_CST) fence('sc');
    const r = emitAsm(b, `ld.${order === SEQ_CST ? 'acquire' : ORDER_NAMES[order]}.${scope}.${ty} $0, [$1];`, [regTy], [ptr], true);
    return bits === 8 ? fromReg(r, T.i8) : r;
  }
  if (op === 'store_n') {
    const order = konst(a[2]);
    if (order === null || (order !== RELAXED && order !== RELEASE && order !== SEQ_CST)) return null;
    if (order === SEQ_CST) fence('sc');
    emitAsm(b, `st.${order === SEQ_CST ? 'relaxed' : ORDER_NAMES[order]}.${scope}.${ty} [$0], $1;`, [], [ptr, toReg(a[1]!)], true);
    return undefined;
  }
  if (op === 'compare_exchange_n') {
    const success = konst(a[4]), failure = konst(a[5]);
    if (success === null || failure === null || success < RELAXED || success > SEQ_CST || failure < RELAXED || failure > SEQ_CST) return null;
    const order = Math.max(success, failure);
    if (order === SEQ_CST) fence('sc');
    const valTy = a[2]!.ty;
    const expected = b.load(valTy, a[1]!);
    const old = emitAsm(b, `atom.cas.${order === SEQ_CST ? 'acquire' : ORDER_NAMES[order]}.${scope}.${ty} $0,[$1],$2,$3;`, [regTy], [ptr, toReg(expected), toReg(a[2]!)], true);
    const oldV = fromReg(old, valTy);
    // the expected value is written back whatever the outcome: equal to it when the exchange succeeded
    b.store(oldV, a[1]!);
    return b.icmp('eq', expected, oldV);
  }
  // the read-modify-write operations
  const order = konst(a[2]);
  if (order === null || order < RELAXED || order > SEQ_CST) return null;
  if (order === SEQ_CST) fence('sc');
  let v = a[1]!;
  if (op === 'fetch_sub') v = v.ty.k === 'float' || v.ty.k === 'double' ? b.bin('fsub', cFP(v.ty, 0), v) : b.bin('sub', cInt(v.ty, 0), v);
  const ptxOp = op === 'fetch_sub' ? 'add' : op === 'exchange_n' ? 'exch' : op.slice('fetch_'.length);
  return emitAsm(b, `atom.${ptxOp}.${order === SEQ_CST ? 'acquire' : ORDER_NAMES[order]}.${scope}.${ty} $0,[$1],$2;`, [regTy], [ptr, v], true);
}
