// Lowering of CUDA device builtins: the functions the CUDA headers declare
// `extern __device__ __device_builtin__` (atomics, warp intrinsics, barriers, fences, bit tricks, math),
// the bodiless `__nv_*_impl` / `__match*_sync` helpers cicc knows implicitly, the GCC `__builtin_*` names,
// the special variables threadIdx/blockIdx/blockDim/gridDim/warpSize, and device printf.
//
// ── Atomic / fence scope convention (IR Inst.scope) ───────────────────────────────────────────────────
//   'device' : the plain CUDA forms (atomicAdd, __threadfence). PTX: no scope qualifier (= .gpu),
//              e.g. `atom.global.add.u32`, `membar.gl`.
//   'block'  : the *_block forms (atomicAdd_block, __threadfence_block). PTX `.cta`, `membar.cta`.
//   ''       : the *_system forms (atomicAdd_system, __threadfence_system). LLVM's default (no syncscope)
//              is system scope. PTX `.sys`, `membar.sys`.
// Atomics use ordering 'monotonic' (PTX relaxed, which is what cicc emits: `atom` with no .sem).
// Fences are IR `fence seq_cst` with that scope; cicc prints them as membar.gl / membar.cta / membar.sys.
// Atomics with no IR form (inc/dec with CUDA's wrapping semantics, 16-bit CAS) are inline asm with the
// PTX scope written into the text ('' / '.cta' / '.sys'); their address operand stays generic.
//
// ── What the backend has to support for this file ─────────────────────────────────────────────────────
//   IR: atomicrmw (add/xchg/min/max/umin/umax/and/or/xor/fadd on i32/i64/f32/f64), cmpxchg + extractvalue,
//   fence, bitcast/trunc/zext/sext/ptrtoint/inttoptr/addrspacecast, select/icmp/arith.
//   Intrinsics: llvm.nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid}.{x,y,z}, llvm.nvvm.read.ptx.sreg.warpsize,
//   llvm.nvvm.barrier0, llvm.ctpop/ctlz/cttz/bitreverse.{i32,i64}, llvm.smin/smax/umin/umax.{i32,i64},
//   llvm.fabs.{f32,f64}, llvm.fma.{f32,f64}, llvm.memcpy/memset.
//   Inline asm: constraints r/h/l/f/d plus outputs '=r' etc.; several outputs as a struct return.
//   Asm texts may open a `{ }` scope and declare `.reg .pred %bp<n>` registers of their own.
//   External calls to libdevice `__nv_*` functions (linked by the middle end) and to `vprintf`.
import { lowerNvAtomic } from './builtins-nvatomic';
import { T, cInt, cFP, cNull, cTrue, cFalse, cZero, declareFunc, funcTy, structTy, alignOf, isInt, ptrTy, AS } from '../middle/ir';
import type { Builder, Module, Value, Type, SyncScope, RmwOp, Inst } from '../middle/ir';
import type { CompileOptions } from '../options';
import { callIntrinsic, emitAsm, fitTo, i32, i64, toFP, toIntBits, constI32 } from './builtins-util';
import { libdeviceName } from './builtins-libdevice';
import { lowerSimd, isSimdBuiltin } from './builtins-simd';
import { lowerMma, isMmaBuiltin } from './builtins-mma';

export interface BuiltinCtx { b: Builder; m: Module; opts: CompileOptions }

// ─────────────────────────────────────────────────────────────────────────── atomics

/** __{i,u,ll,ull,ill,f,d,us}Atomic{Op}[_block|_system] */
const ATOMIC_RE = /^__(i|u|ll|ull|ill|f|d|us)Atomic(Add|Exch|Min|Max|Inc|Dec|And|Or|Xor|CAS)(_block|_system)?$/;

function scopeOf(suffix: string | undefined): SyncScope {
  return suffix === '_block' ? 'block' : suffix === '_system' ? '' : 'device';
}
function ptxScope(s: SyncScope): string { return s === 'block' ? '.cta' : s === '' ? '.sys' : ''; }

function lowerAtomic(ctx: BuiltinCtx, name: string, args: Value[], retTy: Type): Value | null {
  const m = ATOMIC_RE.exec(name);
  if (!m) return null;
  const [, kind, op, suf] = m as unknown as [string, string, string, string | undefined];
  const b = ctx.b;
  const scope = scopeOf(suf);
  const ptr = args[0]!;
  const bits = kind === 'ull' || kind === 'll' || kind === 'ill' || kind === 'd' ? 64 : kind === 'us' ? 16 : 32;
  const signed = kind === 'i' || kind === 'll' || kind === 'ill';
  const fp = kind === 'f' || kind === 'd';
  const intTy = bits === 64 ? T.i64 : bits === 16 ? T.i16 : T.i32;
  const fpTy = kind === 'd' ? T.f64 : T.f32;
  const val = (v: Value): Value => fp ? toFP(b, v, fpTy) : toIntBits(b, v, bits, signed);
  if (op === 'CAS') {
    if (kind === 'us') {
      const r = emitAsm(b, `atom${ptxScope(scope)}.cas.b16 $0, [$1], $2, $3;`, [T.i16], [ptr, val(args[1]!), val(args[2]!)], true);
      return fitTo(b, r, retTy, false);
    }
    const x = b.cmpxchg(ptr, val(args[1]!), val(args[2]!), 'monotonic', scope);
    return fitTo(b, b.extractvalue(x, [0], intTy), retTy, signed);
  }
  if (op === 'Inc' || op === 'Dec') {
    const r = emitAsm(b, `atom${ptxScope(scope)}.${op.toLowerCase()}.u32 $0, [$1], $2;`, [T.i32], [ptr, val(args[1]!)], true);
    return fitTo(b, r, retTy, false);
  }
  if (op === 'Exch' && fp) {
    // atom.exch is untyped: exchange the bits (what cicc does: atom.exch.b32 of the bit pattern)
    const bitsV = b.cast('bitcast', val(args[1]!), intTy);
    const r = b.atomicrmw('xchg', ptr, bitsV, 'monotonic', scope);
    return fitTo(b, b.cast('bitcast', r, fpTy), retTy);
  }
  let rmw: RmwOp;
  switch (op) {
    case 'Add': rmw = fp ? 'fadd' : 'add'; break;
    case 'Exch': rmw = 'xchg'; break;
    case 'Min': rmw = signed ? 'min' : 'umin'; break;
    case 'Max': rmw = signed ? 'max' : 'umax'; break;
    case 'And': rmw = 'and'; break;
    case 'Or': rmw = 'or'; break;
    default: rmw = 'xor'; break;
  }
  const r = b.atomicrmw(rmw, ptr, val(args[1]!), 'monotonic', scope);
  return fitTo(b, r, retTy, signed);
}

// ─────────────────────────────────────────────────────────────────────────── warp-level and barriers

/** `{ .reg .pred %bp0; setp.ne.u32 %bp0, $k, 0; ... }` — turn an i32 operand into a predicate inside asm. */
const PRED_IN = (k: number): string => `.reg .pred %bp0; setp.ne.u32 %bp0, $${k}, 0;`;

function lowerWarp(ctx: BuiltinCtx, name: string, args: Value[]): Value | undefined | null {
  const b = ctx.b;
  const u = (k: number): Value => i32(b, args[k]!, false);
  switch (name) {
    case '__syncthreads':
      callIntrinsic(b, ctx.m, 'llvm.nvvm.barrier0', T.void, [], { convergent: true });
      return undefined;
    case '__syncthreads_count':
      return emitAsm(b, `{ ${PRED_IN(1)} bar.red.popc.u32 $0, 0, %bp0; }`, [T.i32], [u(0)], true);
    case '__syncthreads_and':
    case '__syncthreads_or': {
      const op = name.endsWith('and') ? 'and' : 'or';
      return emitAsm(b, `{ ${PRED_IN(1)} .reg .pred %bp1; bar.red.${op}.pred %bp1, 0, %bp0; selp.u32 $0, 1, 0, %bp1; }`, [T.i32], [u(0)], true);
    }
    case '__nvvm_barrier_sync':
      emitAsm(b, 'barrier.sync $0;', [], [u(0)], true); return undefined;
    case '__nvvm_barrier_sync_cnt':
      emitAsm(b, 'barrier.sync $0, $1;', [], [u(0), u(1)], true); return undefined;
    case '__nvvm_bar_warp_sync':
      emitAsm(b, 'bar.warp.sync $0;', [], [u(0)], true); return undefined;
    // votes are intrinsics (as cicc's llvm.nvvm.vote.*.sync), so that the predicate a comparison made
    // goes to the vote as it is and a vote's result can be branched on
    case '__nvvm_vote_ballot_sync':
      return callIntrinsic(b, ctx.m, 'llvm.nvvm.vote.ballot.sync', T.i32, [u(0), b.icmp('ne', u(1), cInt(T.i32, 0))], { convergent: true });
    case '__nvvm_vote_all_sync':
    case '__nvvm_vote_any_sync':
    case '__nvvm_vote_uni_sync': {
      const mode = name.slice('__nvvm_vote_'.length, -'_sync'.length);
      const v = callIntrinsic(b, ctx.m, `llvm.nvvm.vote.${mode}.sync`, T.i1, [u(0), b.icmp('ne', u(1), cInt(T.i32, 0))], { convergent: true });
      return b.cast('zext', v, T.i32);
    }
    case '__nvvm_shfl_idx_sync':
    case '__nvvm_shfl_up_sync':
    case '__nvvm_shfl_down_sync':
    case '__nvvm_shfl_bfly_sync': {
      // (mask, value, lane/delta, clamp|segmask) → shfl.sync.mode.b32 d, a, b, c, membermask
      const mode = name.slice('__nvvm_shfl_'.length, -'_sync'.length);
      return emitAsm(b, `shfl.sync.${mode}.b32 $0, $2, $3, $4, $1;`, [T.i32], [u(0), u(1), u(2), u(3)], true);
    }
    case '__nvvm_fns':
      return emitAsm(b, 'fns.b32 $0, $1, $2, $3;', [T.i32], [u(0), u(1), i32(b, args[2]!)], true);
    case '__match32_any_sync':
      return emitAsm(b, 'match.any.sync.b32 $0, $2, $1;', [T.i32], [u(0), u(1)], true);
    case '__match64_any_sync':
      return emitAsm(b, 'match.any.sync.b64 $0, $2, $1;', [T.i32], [u(0), i64(b, args[1]!, false)], true);
    case '__match32_all_sync':
    case '__match64_all_sync': {
      const w = name.startsWith('__match64') ? 'b64' : 'b32';
      const v = w === 'b64' ? i64(b, args[1]!, false) : u(1);
      const st = structTy([T.i32, T.i32]);
      const r = emitAsm(b, `{ .reg .pred %bp0; match.all.sync.${w} $0|%bp0, $3, $2; selp.u32 $1, 1, 0, %bp0; }`,
        [T.i32, T.i32], [u(0), v], true, st);
      if (args[2] && args[2].ty.k === 'ptr') b.store(b.extractvalue(r, [1], T.i32), args[2], 4);
      return b.extractvalue(r, [0], T.i32);
    }
  }
  const red = /^__reduce_(add|min|max|or|and|xor)_sync_(signed|unsigned)_impl$/.exec(name);
  if (red) {
    const op = red[1]!;
    const ty = op === 'or' || op === 'and' || op === 'xor' ? 'b32' : red[2] === 'signed' ? 's32' : 'u32';
    return emitAsm(b, `redux.sync.${op}.${ty} $0, $2, $1;`, [T.i32], [u(0), i32(b, args[1]!)], true);
  }
  return null;
}

// ─────────────────────────────────────────────────────────────────────────── misc PTX

function lowerMisc(ctx: BuiltinCtx, name: string, args: Value[], retTy: Type): Value | undefined | null {
  const b = ctx.b;
  switch (name) {
    case '__threadfence': b.fence('seq_cst', 'device'); return undefined;
    case '__threadfence_block': b.fence('seq_cst', 'block'); return undefined;
    case '__threadfence_system': b.fence('seq_cst', ''); return undefined;
    case '__nv_threadfence_cluster_impl': emitAsm(b, 'fence.acq_rel.cluster;', [], [], true); return undefined;
    // the cluster queries and barrier cooperative_groups' thread_group switches reach (sm_90+ headers only)
    case '__nv_clusterSizeInBlocks_impl': case '__nv_clusterRelativeBlockRank_impl': case '__nv_cluster_barrier_arrive_impl': case '__nv_cluster_barrier_wait_impl':
      if (ctx.opts.arch < 90) return null;
      break;
  }
  switch (name) {
    case '__nv_clusterSizeInBlocks_impl': return emitAsm(b, 'mov.u32 $0, %cluster_nctarank;', [T.i32], [], false);
    case '__nv_clusterRelativeBlockRank_impl': return emitAsm(b, 'mov.u32 $0, %cluster_ctarank;', [T.i32], [], false);
    case '__nv_cluster_barrier_arrive_impl': emitAsm(b, 'barrier.cluster.arrive;', [], [], true); return undefined;
    case '__nv_cluster_barrier_wait_impl': emitAsm(b, 'barrier.cluster.wait;', [], [], true); return undefined;
    case 'clock':
    case 'clock64':
      // cicc reads %clock64 for both (clock_t is 64-bit on the device)
      return fitTo(b, emitAsm(b, 'mov.u64 $0, %clock64;', [T.i64], [], true), retTy);
    case '__trap': case '__builtin_trap':
      emitAsm(b, 'trap;', [], [], true); return undefined;
    // the device heap: calls of the external malloc/free the CUDA runtime provides (as new/delete use them)
    case 'malloc': {
      const f = declareFunc(ctx.m, 'malloc', funcTy(T.ptr, [T.i64]) as Type & { k: 'func' });
      return b.call(f, f.fnTy, [fitTo(b, args[0]!, T.i64)]);
    }
    case 'free': {
      const f = declareFunc(ctx.m, 'free', funcTy(T.void, [T.ptr]) as Type & { k: 'func' });
      b.call(f, f.fnTy, [args[0]!]); return undefined;
    }
    case '__brkpt':
      emitAsm(b, 'brkpt;', [], [], true); return undefined;
    case '__prof_trigger': {
      const c = constI32(args[0]!);
      if (c === null) return null; // pmevent needs an immediate
      emitAsm(b, `pmevent ${c};`, [], [], true); return undefined;
    }
    case '__pm0': case '__pm1': case '__pm2': case '__pm3':
      return emitAsm(b, `mov.u32 $0, %pm${name[4]};`, [T.i32], [], true);
  }
  // generic-address queries and conversions
  const isp = /^__nv_is(Global|Shared|Constant|Local|GridConstant|ClusterShared)_impl$/.exec(name);
  if (isp) {
    const space = { Global: 'global', Shared: 'shared', Constant: 'const', Local: 'local', GridConstant: 'param', ClusterShared: 'shared::cluster' }[isp[1]!]!;
    const r = emitAsm(b, `{ .reg .pred %bp0; isspacep.${space} %bp0, $1; selp.u32 $0, 1, 0, %bp0; }`, [T.i32], [args[0]!], false);
    return fitTo(b, r, retTy, false);
  }
  const cv = /^__nv_cvta_(generic|global|shared|constant|local)_to_(generic|global|shared|constant|local)_impl$/.exec(name);
  if (cv) {
    const asOf = (s: string): number => s === 'global' ? AS.global : s === 'shared' ? AS.shared : s === 'constant' ? AS.const : AS.local;
    if (cv[1] === 'generic') {
      const sp = b.cast('addrspacecast', args[0]!, ptrTy(asOf(cv[2]!)));
      return fitTo(b, b.cast('ptrtoint', sp, T.i64), retTy, false);
    }
    const sp = b.cast('inttoptr', i64(b, args[0]!, false), ptrTy(asOf(cv[1]!)));
    return b.cast('addrspacecast', sp, T.ptr);
  }
  switch (name) {
    // the pipeline and arrive-wait barrier headers' 32-bit shared-window address of a generic pointer
    case '__nvvm_get_smem_pointer': {
      const sp = b.cast('addrspacecast', args[0]!, ptrTy(AS.shared));
      return fitTo(b, b.cast('ptrtoint', sp, T.i64), retTy, false);
    }
    case '__nv_bswap16_impl': {
      const x = toIntBits(b, args[0]!, 16, false);
      const r = b.bin('or', b.bin('shl', x, cInt(T.i16, 8)), b.bin('lshr', x, cInt(T.i16, 8)));
      return fitTo(b, r, retTy, false);
    }
    case '__nv_bswap32_impl':
      return emitAsm(b, 'prmt.b32 $0, $1, 0, 0x0123;', [T.i32], [i32(b, args[0]!, false)], false);
    case '__nv_bswap64_impl': {
      const x = i64(b, args[0]!, false);
      const lo = b.cast('trunc', x, T.i32);
      const hi = b.cast('trunc', b.bin('lshr', x, cInt(T.i64, 32)), T.i32);
      const sw = (v: Value): Value => emitAsm(b, 'prmt.b32 $0, $1, 0, 0x0123;', [T.i32], [v], false);
      const nlo = b.cast('zext', sw(hi), T.i64), nhi = b.cast('zext', sw(lo), T.i64);
      return b.bin('or', b.bin('shl', nhi, cInt(T.i64, 32)), nlo);
    }
  }
  return null;
}

// ─────────────────────────────────────────────────────────────────────────── integer / bit helpers

function bits(v: Value): number { return isInt(v.ty) ? v.ty.bits : 32; }

function lowerIntOps(ctx: BuiltinCtx, name: string, args: Value[], retTy: Type): Value | null {
  const b = ctx.b, m = ctx.m;
  const a0 = args[0]!, a1 = args[1]!;
  const intr = (n: string, ty: Type, xs: Value[]): Inst => callIntrinsic(b, m, `${n}.${ty.k === 'int' ? 'i' + (ty as { bits: number }).bits : ''}`, ty, xs);
  const ret = (v: Value, signed = true): Value => fitTo(b, v, retTy, signed);
  const ffs = (x: Value, w: number): Value => {
    const ty = w === 64 ? T.i64 : T.i32;
    const tz = intr('llvm.cttz', ty, [x, cTrue]);
    const one = b.bin('add', fitTo(b, tz, T.i32, false), cInt(T.i32, 1));
    return b.select(b.icmp('eq', x, cInt(ty, 0)), cInt(T.i32, 0), one);
  };
  switch (name) {
    // bit casts
    case '__int_as_float': case '__uint_as_float': return b.cast('bitcast', i32(b, a0), T.f32);
    case '__float_as_int': case '__float_as_uint': return ret(b.cast('bitcast', toFP(b, a0, T.f32), T.i32));
    case '__longlong_as_double': return b.cast('bitcast', i64(b, a0), T.f64);
    case '__double_as_longlong': return ret(b.cast('bitcast', toFP(b, a0, T.f64), T.i64));
    case '__double2hiint': {
      const x = b.cast('bitcast', toFP(b, a0, T.f64), T.i64);
      return b.cast('trunc', b.bin('lshr', x, cInt(T.i64, 32)), T.i32);
    }
    case '__double2loint': return b.cast('trunc', b.cast('bitcast', toFP(b, a0, T.f64), T.i64), T.i32);
    case '__hiloint2double': {
      const hi = b.cast('zext', i32(b, a0), T.i64), lo = b.cast('zext', i32(b, a1), T.i64);
      return b.cast('bitcast', b.bin('or', b.bin('shl', hi, cInt(T.i64, 32)), lo), T.f64);
    }
    // bit counting
    case '__popc': case '__builtin_popcount': return ret(intr('llvm.ctpop', T.i32, [i32(b, a0, false)]));
    case '__popcll': case '__builtin_popcountll': case '__builtin_popcountl': return ret(b.cast('trunc', intr('llvm.ctpop', T.i64, [i64(b, a0, false)]), T.i32));
    case '__clz': return ret(intr('llvm.ctlz', T.i32, [i32(b, a0, false), cFalse]));
    case '__clzll': return ret(b.cast('trunc', intr('llvm.ctlz', T.i64, [i64(b, a0, false), cFalse]), T.i32));
    // GCC's clz/ctz are undefined for 0: pass is_zero_poison = true
    case '__builtin_clz': return ret(intr('llvm.ctlz', T.i32, [i32(b, a0, false), cTrue]));
    case '__builtin_clzl': case '__builtin_clzll': return ret(b.cast('trunc', intr('llvm.ctlz', T.i64, [i64(b, a0, false), cTrue]), T.i32));
    case '__builtin_ctz': return ret(intr('llvm.cttz', T.i32, [i32(b, a0, false), cTrue]));
    case '__builtin_ctzl': case '__builtin_ctzll': return ret(b.cast('trunc', intr('llvm.cttz', T.i64, [i64(b, a0, false), cTrue]), T.i32));
    case '__ffs': case '__builtin_ffs': return ret(ffs(i32(b, a0, false), 32));
    case '__ffsll': case '__builtin_ffsl': case '__builtin_ffsll': return ret(ffs(i64(b, a0, false), 64));
    case '__brev': return ret(intr('llvm.bitreverse', T.i32, [i32(b, a0, false)]), false);
    case '__brevll': return ret(intr('llvm.bitreverse', T.i64, [i64(b, a0, false)]), false);
    case '__byte_perm':
      return emitAsm(b, 'prmt.b32 $0, $1, $2, $3;', [T.i32], [i32(b, a0, false), i32(b, a1, false), i32(b, args[2]!, false)], false);
    case '__builtin_bswap16': return lowerMisc(ctx, '__nv_bswap16_impl', args, retTy) as Value;
    case '__builtin_bswap32': return lowerMisc(ctx, '__nv_bswap32_impl', args, retTy) as Value;
    case '__builtin_bswap64': return lowerMisc(ctx, '__nv_bswap64_impl', args, retTy) as Value;
    // multiplication helpers
    case '__mulhi': case '__umulhi': {
      const s = name === '__mulhi';
      const x = toIntBits(b, a0, 32, s), y = toIntBits(b, a1, 32, s);
      const p = b.bin('mul', b.cast(s ? 'sext' : 'zext', x, T.i64), b.cast(s ? 'sext' : 'zext', y, T.i64));
      return b.cast('trunc', b.bin(s ? 'ashr' : 'lshr', p, cInt(T.i64, 32)), T.i32);
    }
    case '__mul64hi': case '__umul64hi':
      return emitAsm(b, `mul.hi.${name === '__mul64hi' ? 's64' : 'u64'} $0, $1, $2;`, [T.i64], [i64(b, a0), i64(b, a1)], false);
    case '__mul24': {
      const s24 = (v: Value): Value => b.bin('ashr', b.bin('shl', i32(b, v), cInt(T.i32, 8)), cInt(T.i32, 8));
      return b.bin('mul', s24(a0), s24(a1));
    }
    case '__umul24': {
      const u24 = (v: Value): Value => b.bin('and', i32(b, v, false), cInt(T.i32, 0xffffff));
      return b.bin('mul', u24(a0), u24(a1));
    }
    case '__sad': case '__usad': {
      const s = name === '__sad';
      const x = toIntBits(b, a0, 32, s), y = toIntBits(b, a1, 32, s), z = i32(b, args[2]!, false);
      const gt = b.icmp(s ? 'sgt' : 'ugt', x, y);
      const d = b.select(gt, b.bin('sub', x, y), b.bin('sub', y, x));
      return b.bin('add', d, z);
    }
    case '__hadd': case '__uhadd': case '__rhadd': case '__urhadd': {
      const s = !name.startsWith('__u');
      const x = toIntBits(b, a0, 32, s), y = toIntBits(b, a1, 32, s);
      const half = b.bin(s ? 'ashr' : 'lshr', b.bin('xor', x, y), cInt(T.i32, 1));
      if (name.includes('rhadd')) return b.bin('sub', b.bin('or', x, y), half); // (x+y+1)>>1 without overflow
      return b.bin('add', b.bin('and', x, y), half); // (x+y)>>1 without overflow
    }
    // min / max / abs
    case 'min': case 'max': case 'llmin': case 'llmax': {
      const w = name.startsWith('ll') ? 64 : 32;
      const ty = w === 64 ? T.i64 : T.i32;
      return ret(intr(name.endsWith('min') ? 'llvm.smin' : 'llvm.smax', ty, [toIntBits(b, a0, w, true), toIntBits(b, a1, w, true)]));
    }
    case 'umin': case 'umax': case 'ullmin': case 'ullmax': {
      const w = name.startsWith('ull') ? 64 : 32;
      const ty = w === 64 ? T.i64 : T.i32;
      return ret(intr(name.endsWith('min') ? 'llvm.umin' : 'llvm.umax', ty, [toIntBits(b, a0, w, false), toIntBits(b, a1, w, false)]), false);
    }
    case 'abs': case 'labs': case 'llabs': case '__builtin_abs': case '__builtin_labs': case '__builtin_llabs': {
      const w = name.endsWith('labs') ? 64 : bits(retTy.k === 'int' ? cInt(retTy, 0) : a0);
      const x = toIntBits(b, a0, w, true);
      const z = cInt(x.ty, 0);
      return ret(b.select(b.icmp('slt', x, z), b.bin('sub', z, x), x));
    }
  }
  return null;
}

// ─────────────────────────────────────────────────────────────────────────── floating point

function lowerFloat(ctx: BuiltinCtx, name: string, args: Value[], retTy: Type): Value | null {
  const b = ctx.b, m = ctx.m;
  const fpOf = (n: string): Type => n.endsWith('f') && n !== '__builtin_inf' ? T.f32 : T.f64;
  switch (name) {
    case 'fabs': case 'fabsf': case '__builtin_fabs': case '__builtin_fabsf': {
      const ty = fpOf(name);
      return callIntrinsic(b, m, `llvm.fabs.${ty.k === 'float' ? 'f32' : 'f64'}`, ty, [toFP(b, args[0]!, ty)]);
    }
    case 'fma': case 'fmaf': case '__builtin_fma': case '__builtin_fmaf': {
      const ty = fpOf(name);
      return callIntrinsic(b, m, `llvm.fma.${ty.k === 'float' ? 'f32' : 'f64'}`, ty, args.slice(0, 3).map(a => toFP(b, a, ty)));
    }
    case 'fdivide': return b.bin('fdiv', toFP(b, args[0]!, T.f64), toFP(b, args[1]!, T.f64));
    case 'scalbln': case 'scalblnf': {
      // scalbln(x, long n) == scalbn(x, n clamped to int): beyond ±2^31 the result is 0/inf either way
      const n = i64(b, args[1]!);
      const c = callIntrinsic(b, m, 'llvm.smax.i64', T.i64, [callIntrinsic(b, m, 'llvm.smin.i64', T.i64, [n, cInt(T.i64, 0x7fffffff)]), cInt(T.i64, -0x80000000)]);
      const ty = name === 'scalblnf' ? T.f32 : T.f64;
      return callLibdevice(ctx, name === 'scalblnf' ? '__nv_scalbnf' : '__nv_scalbn', [toFP(b, args[0]!, ty), b.cast('trunc', c, T.i32)], ty) as Value;
    }
    case '__builtin_huge_val': case '__builtin_inf': return cFP(T.f64, Infinity);
    case '__builtin_huge_valf': case '__builtin_inff': return cFP(T.f32, Infinity);
    case '__builtin_isnan': { const x = args[0]!; return fitTo(b, b.fcmp('uno', x, x), retTy, false); }
    case '__builtin_isinf': {
      const x = args[0]!;
      const ax = callIntrinsic(b, m, `llvm.fabs.${x.ty.k === 'float' ? 'f32' : 'f64'}`, x.ty, [x]);
      return fitTo(b, b.fcmp('oeq', ax, cFP(x.ty, Infinity)), retTy, false);
    }
    case '__builtin_isfinite': {
      const x = args[0]!;
      const ax = callIntrinsic(b, m, `llvm.fabs.${x.ty.k === 'float' ? 'f32' : 'f64'}`, x.ty, [x]);
      return fitTo(b, b.fcmp('one', ax, cFP(x.ty, Infinity)), retTy, false);
    }
    case '__builtin_signbit': case '__builtin_signbitf': {
      const x = args[0]!;
      const it = x.ty.k === 'float' ? T.i32 : T.i64;
      return fitTo(b, b.icmp('slt', b.cast('bitcast', x, it), cInt(it, 0)), retTy, false);
    }
    case '__builtin_isgreater': case '__builtin_isgreaterequal': case '__builtin_isless':
    case '__builtin_islessequal': case '__builtin_islessgreater': case '__builtin_isunordered': {
      let x = args[0]!, y = args[1]!;
      if (x.ty !== y.ty) { x = toFP(b, x, T.f64); y = toFP(b, y, T.f64); }
      const pred = ({ __builtin_isgreater: 'ogt', __builtin_isgreaterequal: 'oge', __builtin_isless: 'olt',
        __builtin_islessequal: 'ole', __builtin_islessgreater: 'one', __builtin_isunordered: 'uno' } as const)[name];
      return fitTo(b, b.fcmp(pred, x, y), retTy, false);
    }
  }
  return null;
}

function callLibdevice(ctx: BuiltinCtx, nvName: string, args: Value[], retTy: Type): Value | undefined {
  const fnTy = funcTy(retTy, args.map(a => a.ty)) as Type & { k: 'func' };
  const f = declareFunc(ctx.m, nvName, fnTy);
  const call = ctx.b.call(f, f.fnTy, args);
  return retTy.k === 'void' ? undefined : call;
}

// ─────────────────────────────────────────────────────────────────────────── memory builtins

function lowerMem(ctx: BuiltinCtx, name: string, args: Value[], retTy: Type): Value | null {
  const b = ctx.b, m = ctx.m;
  switch (name) {
    case 'memcpy': case '__builtin_memcpy': case 'memmove': case '__builtin_memmove': {
      const mv = name.endsWith('memmove');
      const n = i64(b, args[2]!, false);
      callIntrinsic(b, m, mv ? 'llvm.memmove.p0.p0.i64' : 'llvm.memcpy.p0.p0.i64', T.void, [args[0]!, args[1]!, n, cFalse], {});
      return fitTo(b, args[0]!, retTy);
    }
    case 'memset': case '__builtin_memset': {
      const v = toIntBits(b, args[1]!, 8, false);
      callIntrinsic(b, m, 'llvm.memset.p0.i64', T.void, [args[0]!, v, i64(b, args[2]!, false), cFalse], {});
      return fitTo(b, args[0]!, retTy);
    }
  }
  return null;
}

// ─────────────────────────────────────────────────────────────────────────── GCC builtins

function lowerGcc(ctx: BuiltinCtx, name: string, args: Value[], retTy: Type): Value | undefined | null {
  const b = ctx.b;
  switch (name) {
    case '__builtin_expect': case '__builtin_expect_with_probability': return fitTo(b, args[0]!, retTy);
    case '__builtin_assume': case '__builtin_prefetch': return undefined;
    case '__builtin_assume_aligned': return args[0]!;
    case '__builtin_unreachable': b.unreachable(); return undefined;
    case '__builtin_constant_p': return cInt(retTy.k === 'int' ? retTy : T.i32, 0);
  }
  if (name.startsWith('__builtin_')) {
    // __builtin_sinf → sinf etc.: GCC math builtins are the C library functions (libdevice)
    const base = name.slice('__builtin_'.length);
    if (libdeviceName(base)) return lowerBuiltinCall(ctx, base, args, retTy);
  }
  return null;
}

// ─────────────────────────────────────────────────────────────────────────── public API

/**
 * Calls to device_builtin functions and __builtin_* names. args are already converted to the IR types of the
 * declared params (pointers are generic `ptr`); retTy = IR type of the declared return (T.void for void).
 * Returns the result (undefined for void) or null if the name is unknown.
 */
export function lowerBuiltinCall(ctx: BuiltinCtx, name: string, args: Value[], retTy: Type): Value | undefined | null {
  if (name === 'printf') return lowerPrintf(ctx, args[0] ?? cNull(), args.slice(1));
  let r: Value | undefined | null;
  if ((r = lowerAtomic(ctx, name, args, retTy)) !== null) return r;
  if ((r = lowerNvAtomic(ctx.b, name, args)) !== null) return r;
  if ((r = lowerWarp(ctx, name, args)) !== null) return r;
  if ((r = lowerMisc(ctx, name, args, retTy)) !== null) return r;
  if ((r = lowerIntOps(ctx, name, args, retTy)) !== null) return r;
  if ((r = lowerFloat(ctx, name, args, retTy)) !== null) return r;
  if ((r = lowerMem(ctx, name, args, retTy)) !== null) return r;
  if (isSimdBuiltin(name)) return lowerSimd(ctx.b, name, args);
  if (isMmaBuiltin(name)) { lowerMma(ctx.b, name, args); return undefined; }
  const nv = libdeviceName(name);
  if (nv) return callLibdevice(ctx, nv, args, retTy);
  return lowerGcc(ctx, name, args, retTy);
}

const SREG: Record<string, string> = { threadIdx: 'tid', blockIdx: 'ctaid', blockDim: 'ntid', gridDim: 'nctaid' };

/** threadIdx/blockIdx/blockDim/gridDim with field 'x'|'y'|'z' → i32; warpSize with field null → i32. null if unknown. */
export function lowerBuiltinVar(ctx: BuiltinCtx, name: string, field: string | null): Value | null {
  let intr: string;
  if (name === 'warpSize' && field === null) intr = 'llvm.nvvm.read.ptx.sreg.warpsize';
  else if (SREG[name] && (field === 'x' || field === 'y' || field === 'z')) intr = `llvm.nvvm.read.ptx.sreg.${SREG[name]}.${field}`;
  else return null;
  return callIntrinsic(ctx.b, ctx.m, intr, T.i32, [], { readnone: true });
}

/**
 * Device printf → vprintf(fmt, ptr-to-packed-args). args are already default-promoted by the front end.
 * The arguments are stored into a local struct with natural alignment (the layout vprintf expects, as cicc
 * builds it); the struct's generic address is passed, or a null pointer when there are no arguments.
 */
export function lowerPrintf(ctx: BuiltinCtx, fmt: Value, args: Value[]): Value {
  const b = ctx.b;
  const vprintf = declareFunc(ctx.m, 'vprintf', funcTy(T.i32, [T.ptr, T.ptr]) as Type & { k: 'func' });
  let buf: Value = cNull();
  if (args.length > 0) {
    const vals = args.map(a => a.ty.k === 'int' && a.ty.bits < 32 ? toIntBits(b, a, 32, true) : a.ty.k === 'float' ? b.cast('fpext', a, T.f64) : a);
    const st = structTy(vals.map(v => v.ty));
    const slot = b.alloca(st, Math.max(alignOf(st), 1));
    vals.forEach((v, i) => {
      const p = b.gep(st, slot, [cInt(T.i32, 0), cInt(T.i32, i)]);
      b.store(v, p, alignOf(v.ty));
    });
    buf = slot;
  }
  const fmtPtr = fmt.ty.k === 'ptr' && fmt.ty.as !== 0 ? b.cast('addrspacecast', fmt, T.ptr) : fmt;
  return b.call(vprintf, vprintf.fnTy, [fmtPtr, buf]);
}

// ─────────────────────────────────────────────────────────────────────────── coverage lists

/**
 * device_builtin (or implicitly known) names of the CUDA 13 headers that lowerBuiltinCall does NOT handle,
 * each with the reason. The front end should report an unsupported-feature diagnostic (→ fallback to cicc).
 */
export const UNSUPPORTED_BUILTINS: ReadonlyMap<string, string> = new Map<string, string>([
  // long double has no device representation
  ['__signbitl', 'long double'], ['__finitel', 'long double'], ['__isinfl', 'long double'], ['__isnanl', 'long double'],
  // 128-bit and vector atomics (sm_90+): need aggregate operands / b128 registers
  ...['', '_block', '_system'].flatMap(s => [
    [`__u128AtomicCAS${s}`, '128-bit atomics'], [`__u128AtomicExch${s}`, '128-bit atomics'],
    [`__f2AtomicAdd${s}`, 'float2 vector atomics'], [`__f4AtomicAdd${s}`, 'float4 vector atomics'],
  ] as [string, string][]),
  // deprecated non-sync warp votes (only valid below compute_70; the parse of this entry is a header artifact)
  ['__any', 'deprecated pre-sm_70 vote'], ['__all', 'deprecated pre-sm_70 vote'], ['__ballot', 'deprecated pre-sm_70 vote'],
  // implicit (bodiless) helpers cicc knows but we do not yet lower
  ['__nv_aligned_device_malloc_impl', 'device malloc'],
  ['__nv_associate_access_property_impl', 'access property'],
  ['__nv_memcpy_async_shared_global_4_impl', 'memcpy_async'], ['__nv_memcpy_async_shared_global_8_impl', 'memcpy_async'],
  ['__nv_memcpy_async_shared_global_16_impl', 'memcpy_async'],
  ['__nv_cluster_map_shared_rank_impl', 'clusters'], ['__nv_cluster_query_shared_rank_impl', 'clusters'],
  ['__nv_clusterDimIsSpecifed_impl', 'clusters'], ['__nv_clusterDim_impl', 'clusters'], ['__nv_clusterRelativeBlockIdx_impl', 'clusters'],
  ['__nv_cluster_barrier_arrive_relaxed_impl', 'clusters'], ['__nv_clusterGridDimInClusters_impl', 'clusters'], ['__nv_clusterIdx_impl', 'clusters'],
]);

/** For tests: make a dummy value of a type (used to probe lowerBuiltinCall with a declared prototype). */
export function dummyValue(ty: Type): Value {
  return ty.k === 'int' ? cInt(ty, 1) : ty.k === 'float' || ty.k === 'double' ? cFP(ty, 1) : ty.k === 'ptr' ? cNull(ty.as) : cZero(ty);
}
