// LLVM intrinsics the backend lowers (see SUPPORTED_INTRINSICS). Anything else throws Unsupported.
import type { Inst, Value, Type } from '../middle/ir';
import { T, sizeOf } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { Emitter } from './emitter';
import { spaceOf, addrText, constGepOffset, dot, ldOp, NC, type Addr } from './operands';
import { bitsOf } from './types';
import { emitTexSurf } from './texsurf';

/** Documentation: the intrinsic families handled here (type suffixes .i16/.i32/.i64/.f32/.f64 as applicable). */
export const SUPPORTED_INTRINSICS = [
  'llvm.nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid}.{x,y,z}', 'llvm.nvvm.read.ptx.sreg.{warpsize,laneid,warpid,smid,nsmid,clock,clock64,gridid,lanemask.{eq,le,lt,ge,gt}}',
  'llvm.nvvm.barrier0', 'llvm.nvvm.barrier.sync', 'llvm.nvvm.vote.{ballot,all,any,uni}.sync', 'llvm.nvvm.bar.warp.sync', 'llvm.nvvm.membar.{cta,gl,sys}',
  'llvm.fma', 'llvm.fmuladd', 'llvm.fabs', 'llvm.minnum', 'llvm.maxnum', 'llvm.sqrt', 'llvm.floor', 'llvm.ceil', 'llvm.trunc', 'llvm.rint', 'llvm.nearbyint', 'llvm.copysign',
  'llvm.smin', 'llvm.smax', 'llvm.umin', 'llvm.umax', 'llvm.abs', 'llvm.ctpop', 'llvm.ctlz', 'llvm.cttz', 'llvm.bitreverse', 'llvm.bswap', 'llvm.fshl.i32', 'llvm.fshr.i32',
  'llvm.trap', 'llvm.debugtrap', 'llvm.expect', 'llvm.assume', 'llvm.lifetime.{start,end}', 'llvm.dbg.*', 'llvm.experimental.noalias.scope.decl', 'llvm.donothing', 'llvm.sideeffect', 'llvm.prefetch',
  'llvm.memcpy', 'llvm.memmove', 'llvm.memset',
  'llvm.nvvm.{add,mul,div,fma,rcp,sqrt}.{rn,rz,rm,rp,approx,full}[.ftz].{f,d}', 'llvm.nvvm.{ex2,lg2,sin,cos,rsqrt}.approx[.ftz].{f,d}',
  'llvm.nvvm.f{min,max}[.ftz].{f,d}', 'llvm.nvvm.fabs[.ftz].{f,d}', 'llvm.nvvm.saturate[.ftz].{f,d}', 'llvm.nvvm.d2i.{lo,hi}', 'llvm.nvvm.lohi.i2d',
  'llvm.nvvm.{f,d}2{i,ui,ll,ull}.{rn,rz,rm,rp}[.ftz]', 'llvm.nvvm.{i,ui,ll,ull}2{f,d}.{rn,rz,rm,rp}', 'llvm.nvvm.mulhi.{i,ui,ll,ull}', 'llvm.nvvm.mul24.{i,ui}',
  'llvm.nvvm.brev{32,64}', 'llvm.nvvm.clz.{i,ll}', 'llvm.nvvm.popc.{i,ll}', 'llvm.nvvm.prmt',
  'llvm.nvvm.{round,floor,ceil,trunc}[.ftz].{f,d}', 'llvm.nvvm.{abs,min,max}.{i,ui,ll,ull}', 'llvm.nvvm.sad.{i,ui}', 'llvm.nvvm.h2f',
  'llvm.nvvm.f2h.rn[.ftz]', 'llvm.nvvm.d2f.{rn,rz,rm,rp}[.ftz]', 'llvm.nvvm.tanh.approx.f32',
  'llvm.nvvm.tex.unified.{1d,2d,3d,cube}[.array][.level|.grad].v4{f32,s32,u32}.{s32,f32}', 'llvm.nvvm.tld4.unified.{r,g,b,a}.2d.v4{f32,s32,u32}.f32',
  'llvm.nvvm.suld.{1d,2d,3d}[.array].[v2|v4]i{8,16,32,64}.{trap,clamp,zero}', 'llvm.nvvm.sust.b.{1d,2d,3d}[.array].[v2|v4]i{8,16,32,64}.{trap,clamp,zero}',
] as const;

const SREG: Record<string, string> = {
  warpsize: 'WARP_SZ', laneid: '%laneid', warpid: '%warpid', smid: '%smid', nsmid: '%nsmid', clock: '%clock',
  'lanemask.eq': '%lanemask_eq', 'lanemask.le': '%lanemask_le', 'lanemask.lt': '%lanemask_lt', 'lanemask.ge': '%lanemask_ge', 'lanemask.gt': '%lanemask_gt',
};

const fty = (t: Type): string => (t.k === 'float' ? 'f32' : t.k === 'double' ? 'f64' : (() => { throw new Unsupported(`FP intrinsic on ${t.k}`); })());

export function emitIntrinsic(e: Emitter, i: Inst, name: string, args: Value[]): void {
  if (emitNvvmIntrinsic(e, i, name, args) || emitLibdeviceIntrinsic(e, i, name, args) || emitGenericIntrinsic(e, i, name, args)) return;
  throw new Unsupported(`intrinsic ${name}`);
}

/** The operands of an intrinsic call as text: its result register, an argument as an operand or in a register. */
function callOperands(e: Emitter, i: Inst, args: Value[]): { d: () => string; a: (k: number) => string; r: (k: number) => string } {
  return { d: () => e.reg(i), a: k => e.src(args[k]!), r: k => e.scalar(args[k]!) };
}

/** Special registers, votes, barriers, bit operations: the NVVM intrinsics of CUDA's headers. False when the name is none of them. */
function emitNvvmIntrinsic(e: Emitter, i: Inst, name: string, args: Value[]): boolean {
  const { d, a, r } = callOperands(e, i, args);
  let m: RegExpExecArray | null;
  if (name.startsWith('llvm.nvvm.t') || name.startsWith('llvm.nvvm.su')) { if (emitTexSurf(e, i, name, args)) return true; }
  // ---- special registers
  if ((m = /^llvm\.nvvm\.read\.ptx\.sreg\.(tid|ntid|ctaid|nctaid)\.([xyz])$/.exec(name))) { e.ins('mov.u32', d(), `%${m[1]}.${m[2]}`); return true; }
  if ((m = /^llvm\.nvvm\.read\.ptx\.sreg\.(.+)$/.exec(name))) {
    const s = m[1]!;
    if (s === 'clock64') { e.ins('mov.u64', d(), '%clock64'); return true; }
    if (s === 'gridid') { e.ins('mov.u64', d(), '%gridid'); return true; }
    const sr = SREG[s];
    if (sr) { e.ins('mov.u32', d(), sr); return true; }
  }
  switch (name) {
    case 'llvm.nvvm.vote.ballot.sync': e.ins('vote.sync.ballot.b32', d(), r(1), a(0)); return true;
    case 'llvm.nvvm.vote.all.sync': case 'llvm.nvvm.vote.any.sync': case 'llvm.nvvm.vote.uni.sync':
      e.ins(`vote.sync.${name.split('.')[3]}.pred`, d(), r(1), a(0)); return true;
    case 'llvm.nvvm.barrier0': e.raw('\tbar.sync \t0;'); return true;
    case 'llvm.nvvm.barrier.sync': e.ins('barrier.sync', a(0)); return true;
    case 'llvm.nvvm.bar.warp.sync': e.ins('bar.warp.sync', a(0)); return true;
    case 'llvm.nvvm.membar.cta': e.raw('\tmembar.cta;'); return true;
    case 'llvm.nvvm.membar.gl': e.raw('\tmembar.gl;'); return true;
    case 'llvm.nvvm.membar.sys': e.raw('\tmembar.sys;'); return true;
    case 'llvm.trap': e.raw('\ttrap;'); return true;
    case 'llvm.debugtrap': e.raw('\tbrkpt;'); return true;
    case 'llvm.assume': case 'llvm.donothing': case 'llvm.sideeffect': case 'llvm.experimental.noalias.scope.decl': return true;
    case 'llvm.nvvm.d2i.lo': case 'llvm.nvvm.d2i.hi': {
      const lo = e.fresh('r'), hi = e.fresh('r');
      e.ins('mov.b64', `{${lo}, ${hi}}`, r(0));
      e.mov(d(), name.endsWith('lo') ? lo : hi);
      return true;
    }
    case 'llvm.nvvm.lohi.i2d': e.ins('mov.b64', d(), `{${r(0)}, ${r(1)}}`); return true;
    case 'llvm.nvvm.prmt': e.ins('prmt.b32', d(), a(0), a(1), a(2)); return true;
    case 'llvm.nvvm.brev32': e.ins('brev.b32', d(), r(0)); return true;
    case 'llvm.nvvm.brev64': e.ins('brev.b64', d(), r(0)); return true;
    case 'llvm.nvvm.clz.i': e.ins('clz.b32', d(), r(0)); return true;
    case 'llvm.nvvm.clz.ll': e.ins('clz.b64', d(), r(0)); return true;
    case 'llvm.nvvm.popc.i': e.ins('popc.b32', d(), r(0)); return true;
    case 'llvm.nvvm.popc.ll': e.ins('popc.b64', d(), r(0)); return true;
    case 'llvm.nvvm.mul24.i': e.ins('mul24.lo.s32', d(), a(0), a(1)); return true;
    case 'llvm.nvvm.mul24.ui': e.ins('mul24.lo.u32', d(), a(0), a(1)); return true;
    case 'llvm.nvvm.mulhi.i': e.ins('mul.hi.s32', d(), a(0), a(1)); return true;
    case 'llvm.nvvm.mulhi.ui': e.ins('mul.hi.u32', d(), a(0), a(1)); return true;
    case 'llvm.nvvm.mulhi.ll': e.ins('mul.hi.s64', d(), a(0), a(1)); return true;
    case 'llvm.nvvm.mulhi.ull': e.ins('mul.hi.u64', d(), a(0), a(1)); return true;
  }
  if (/^llvm\.(lifetime\.(start|end)|dbg\.|prefetch|var\.annotation|invariant\.(start|end))/.test(name)) return true;
  if (/^llvm\.expect\./.test(name)) { e.mov(d(), e.scalar(args[0]!)); return true; }
  return false;
}

/** The llvm.nvvm FP operations and conversions libdevice calls (NVPTX's own lowering of each, from LLVM's NVPTXIntrinsics.td). False when the name is none of them. */
function emitLibdeviceIntrinsic(e: Emitter, i: Inst, name: string, args: Value[]): boolean {
  const { d, a, r } = callOperands(e, i, args);
  let m: RegExpExecArray | null;
  if ((m = /^llvm\.nvvm\.(add|mul|div|fma|rcp|sqrt)\.(rn|rz|rm|rp|approx|full)(\.ftz)?\.(f|d)$/.exec(name))) {
    const ty = m[4] === 'f' ? 'f32' : 'f64';
    const ops = args.map((_, k) => a(k));
    e.ins(`${m[1]}.${m[2]}${m[3] ?? ''}.${ty}`, d(), ...ops);
    return true;
  }
  if ((m = /^llvm\.nvvm\.(ex2|lg2|sin|cos|rsqrt)\.approx(\.ftz)?\.(f|d)$/.exec(name))) {
    e.ins(`${m[1]}.approx${m[2] ?? ''}.${m[3] === 'f' ? 'f32' : 'f64'}`, d(), a(0));
    return true;
  }
  if ((m = /^llvm\.nvvm\.f(min|max)(\.ftz)?\.(f|d)$/.exec(name))) { e.ins(`${m[1]}${m[2] ?? ''}.${m[3] === 'f' ? 'f32' : 'f64'}`, d(), a(0), a(1)); return true; }
  if ((m = /^llvm\.nvvm\.fabs(\.ftz)?\.(f|d)$/.exec(name))) { e.ins(`abs${m[1] ?? ''}.${m[2] === 'f' ? 'f32' : 'f64'}`, d(), r(0)); return true; }
  if ((m = /^llvm\.nvvm\.saturate(\.ftz)?\.(f|d)$/.exec(name))) { const t = m[2] === 'f' ? 'f32' : 'f64'; e.ins(`cvt.sat${m[1] ?? ''}.${t}.${t}`, d(), r(0)); return true; }
  if ((m = /^llvm\.nvvm\.(f|d)2(i|ui|ll|ull)\.(rn|rz|rm|rp)(\.ftz)?$/.exec(name))) {
    const it = { i: 's32', ui: 'u32', ll: 's64', ull: 'u64' }[m[2]!];
    e.ins(`cvt.${m[3]}i${m[4] ?? ''}.${it}.${m[1] === 'f' ? 'f32' : 'f64'}`, d(), r(0));
    return true;
  }
  if ((m = /^llvm\.nvvm\.(i|ui|ll|ull)2(f|d)\.(rn|rz|rm|rp)$/.exec(name))) {
    const it = { i: 's32', ui: 'u32', ll: 's64', ull: 'u64' }[m[1]!];
    e.ins(`cvt.${m[3]}.${m[2] === 'f' ? 'f32' : 'f64'}.${it}`, d(), r(0));
    return true;
  }

  if ((m = /^llvm\.nvvm\.(round|floor|ceil|trunc)(\.ftz)?\.(f|d)$/.exec(name))) {
    const t = m[3] === 'f' ? 'f32' : 'f64';
    const mode = { round: 'rni', floor: 'rmi', ceil: 'rpi', trunc: 'rzi' }[m[1] as 'round'];
    e.ins(`cvt.${mode}${m[2] ?? ''}.${t}.${t}`, d(), r(0));
    return true;
  }
  if ((m = /^llvm\.nvvm\.(abs|min|max)\.(i|ui|ll|ull)$/.exec(name))) {
    const it = { i: 's32', ui: 'u32', ll: 's64', ull: 'u64' }[m[2] as 'i'];
    if (m[1] === 'abs') e.ins(`abs.${it}`, d(), r(0)); else e.ins(`${m[1]}.${it}`, d(), a(0), a(1));
    return true;
  }
  if ((m = /^llvm\.nvvm\.sad\.(i|ui)$/.exec(name))) { e.ins(`sad.${m[1] === 'i' ? 's32' : 'u32'}`, d(), a(0), a(1), a(2)); return true; }
  if (name === 'llvm.nvvm.h2f' || name === 'llvm.convert.from.fp16.f32') { e.ins('cvt.f32.f16', d(), r(0)); return true; }
  if ((m = /^llvm\.nvvm\.f2h\.rn(\.ftz)?$/.exec(name))) { e.ins(`cvt.rn${m[1] ?? ''}.f16.f32`, d(), r(0)); return true; }
  if ((m = /^llvm\.nvvm\.d2f\.(rn|rz|rm|rp)(\.ftz)?$/.exec(name))) { e.ins(`cvt.${m[1]}${m[2] ?? ''}.f32.f64`, d(), r(0)); return true; }
  if (name === 'llvm.nvvm.tanh.approx.f32') { e.ins('tanh.approx.f32', d(), r(0)); return true; }
  return false;
}

/** Generic LLVM intrinsics (name.<type>): fma, min/max, rounding, bit counts, byte swaps, funnel shifts, memcpy/memset. False when the name is none of them. */
function emitGenericIntrinsic(e: Emitter, i: Inst, name: string, args: Value[]): boolean {
  const { d, a, r } = callOperands(e, i, args);
  const base = name.replace(/\.(i\d+|f\d+|p\d+|v\d+\w+)(\.(i\d+|f\d+|p\d+))*$/, '');
  const ty = i.ty.k === 'void' ? (args[0]?.ty ?? T.void) : i.ty;
  const ftz = ty.k === 'float' ? e.ftz : '';
  switch (base) {
    case 'llvm.fma':
      e.ins(`fma.rn${ftz}.${fty(ty)}`, d(), a(0), a(1), a(2)); return true;
    case 'llvm.fmuladd':
      if (e.opts.fmad) e.ins(`fma.rn${ftz}.${fty(ty)}`, d(), a(0), a(1), a(2));
      else { const t = e.fresh(ty.k === 'float' ? 'f' : 'fd'); e.ins(`mul.rn${ftz}.${fty(ty)}`, t, a(0), a(1)); e.ins(`add.rn${ftz}.${fty(ty)}`, d(), t, a(2)); }
      return true;
    case 'llvm.fabs': e.ins(`abs${ftz}.${fty(ty)}`, d(), r(0)); return true;
    case 'llvm.minnum': e.ins(`min${ftz}.${fty(ty)}`, d(), a(0), a(1)); return true;
    case 'llvm.maxnum': e.ins(`max${ftz}.${fty(ty)}`, d(), a(0), a(1)); return true;
    case 'llvm.sqrt':
      if (ty.k === 'float') e.ins(`sqrt.${e.opts.precSqrt ? 'rn' : 'approx'}${ftz}.f32`, d(), r(0));
      else e.ins('sqrt.rn.f64', d(), r(0));
      return true;
    case 'llvm.floor': e.ins(`cvt.rmi${ftz}.${fty(ty)}.${fty(ty)}`, d(), r(0)); return true;
    case 'llvm.ceil': e.ins(`cvt.rpi${ftz}.${fty(ty)}.${fty(ty)}`, d(), r(0)); return true;
    case 'llvm.trunc': e.ins(`cvt.rzi${ftz}.${fty(ty)}.${fty(ty)}`, d(), r(0)); return true;
    case 'llvm.rint': case 'llvm.nearbyint': case 'llvm.roundeven': e.ins(`cvt.rni${ftz}.${fty(ty)}.${fty(ty)}`, d(), r(0)); return true;
    // PTX copysign takes the sign source first: copysign.f32 d, sign, magnitude (as cicc emits it)
    case 'llvm.copysign': e.ins(`copysign.${fty(ty)}`, d(), r(1), r(0)); return true;
    case 'llvm.smin': case 'llvm.smax': case 'llvm.umin': case 'llvm.umax': {
      const s = base[5] === 's';
      const w = bitsOf(ty);
      if (w === 1 || w === 8) throw new Unsupported(`${name}`);
      e.ins(`${base.endsWith('min') ? 'min' : 'max'}.${s ? 's' : 'u'}${w}`, d(), a(0), a(1));
      return true;
    }
    case 'llvm.abs': { const w = bitsOf(ty); if (w < 16) throw new Unsupported(name); e.ins(`abs.s${w}`, d(), r(0)); return true; }
    case 'llvm.ctpop': case 'llvm.ctlz': case 'llvm.cttz': {
      const w = bitsOf(ty);
      let x = r(0), xw = w;
      if (w === 16 || w === 8) { const t = e.fresh('r'); e.ins(w === 8 ? 'cvt.u32.u8' : 'cvt.u32.u16', t, w === 8 ? e.ext8(args[0]!, false) : x); x = t; xw = 32; }
      else if (w !== 32 && w !== 64) throw new Unsupported(name);
      // a 32-bit count goes straight into the result's register
      const cnt = w === 32 ? e.reg(i) : e.fresh('r');
      if (base === 'llvm.ctpop') e.ins(`popc.b${xw}`, cnt, x);
      else if (base === 'llvm.ctlz') {
        e.ins(`clz.b${xw}`, cnt, x);
        if (xw !== w) { const t = e.fresh('r'); e.ins('sub.s32', t, cnt, String(xw - w)); finishCount(e, i, t, w); return true; }
      } else {
        // cttz: bit-reverse then count leading zeros (a zero input gives the width)
        const rv = e.fresh(xw === 64 ? 'rd' : 'r');
        let src = x;
        if (xw !== w) { const t = e.fresh('r'); e.ins('or.b32', t, x, String(1 << w)); src = t; }
        e.ins(`brev.b${xw}`, rv, src);
        e.ins(`clz.b${xw}`, cnt, rv);
      }
      finishCount(e, i, cnt, w); return true;
    }
    case 'llvm.bitreverse': {
      const w = bitsOf(ty);
      if (w === 32 || w === 64) { e.ins(`brev.b${w}`, d(), r(0)); return true; }
      throw new Unsupported(name);
    }
    case 'llvm.bswap': {
      const w = bitsOf(ty);
      if (w === 32) { e.ins('prmt.b32', d(), r(0), '0', '291'); return true; }
      if (w === 16) { const t = e.fresh('r'), t2 = e.fresh('r'); e.ins('cvt.u32.u16', t, r(0)); e.ins('prmt.b32', t2, t, '0', '8961'); e.ins('cvt.u16.u32', d(), t2); return true; }
      if (w === 64) {
        const lo = e.fresh('r'), hi = e.fresh('r'), nlo = e.fresh('r'), nhi = e.fresh('r');
        e.ins('mov.b64', `{${lo}, ${hi}}`, r(0));
        e.ins('prmt.b32', nlo, hi, '0', '291'); e.ins('prmt.b32', nhi, lo, '0', '291');
        e.ins('mov.b64', d(), `{${nlo}, ${nhi}}`);
        return true;
      }
      throw new Unsupported(name);
    }
    case 'llvm.fshl': case 'llvm.fshr': {
      if (bitsOf(ty) !== 32) throw new Unsupported(name);
      // fshl(a, b, c) = high word of ({a:b} << c); PTX shf takes (lo, hi)
      if (base === 'llvm.fshl') e.ins('shf.l.wrap.b32', d(), r(1), r(0), a(2));
      else e.ins('shf.r.wrap.b32', d(), r(1), r(0), a(2));
      return true;
    }
    case 'llvm.memcpy': case 'llvm.memmove': lowerMemcpy(e, args, base === 'llvm.memmove', i.align ?? 1); return true;
    case 'llvm.memset': lowerMemset(e, args); return true;
  }
  throw new Unsupported(`intrinsic ${name}`);
  return false;
}


function finishCount(e: Emitter, i: Inst, cnt32: string, _w: number): void {
  const d = e.reg(i);
  const w = bitsOf(i.ty);
  if (w === 32) e.mov(d, cnt32);
  else if (w === 64) e.ins('cvt.u64.u32', d, cnt32);
  else e.ins('cvt.u16.u32', d, cnt32);
}

// ---------------------------------------------------------------- memory intrinsics

/** Known alignment of a pointer value (1 if unknown). */
function knownAlign(v: Value): number {
  if (v.kind === 'global') return v.align || 1;
  if (v.kind === 'arg') return v.byval ? Math.max(v.align ?? 1, 1) : (v.align ?? 1);
  if (v.kind === 'inst' && v.op === 'alloca') return Math.max(v.align ?? 1, 1);
  if (v.kind === 'inst' && (v.op === 'addrspacecast' || v.op === 'bitcast')) return knownAlign(v.ops[0]!);
  if (v.kind === 'cexpr' && (v.op === 'addrspacecast' || v.op === 'bitcast')) return knownAlign(v.base as Value);
  if (v.kind === 'inst' && v.op === 'gep' && v.ops.slice(1).every(x => x.kind === 'int')) {
    const off = Math.abs(constGepOffset(v.srcTy!, v.ops.slice(1)));
    const b = knownAlign(v.ops[0]!);
    return off === 0 ? b : gcd(b, off & -off);
  }
  return 1;
}
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

function ptrSpace(v: Value): string { return spaceOf(v.ty.k === 'ptr' ? (v.ty as { as: number }).as : 0); }

/**
 * `align`: the copy's own alignment (a C++ object copy carries its type's, which both pointers have), at
 * least what the pointers show. An aligned 16-byte unit moves as one v4.u32 access, as cicc copies a float4.
 */
function lowerMemcpy(e: Emitter, args: Value[], move: boolean, align: number): void {
  const [dst, src, len] = args as [Value, Value, Value];
  const vol = args[3]?.kind === 'int' && args[3].value !== 0n ? '.volatile' : '';
  if (len.kind === 'int' && len.value <= 512n) {
    const n = Number(len.value);
    if (n === 0) return;
    const da = e.addrOf(dst), sa = e.addrOf(src);
    const al = Math.max(gcd(knownAlign(dst), knownAlign(src)), align);
    // a copy out of memory nothing writes while the kernel runs goes through the read-only cache, as a load does
    const nc = !vol && sa.space === 'global' && e.readOnlyMemory(src);
    if (al % 16 === 0 && n % 16 === 0 && !vol) {
      const parts: string[][] = [];
      for (let o = 0; o < n; o += 16) {
        const rs = [e.fresh('r'), e.fresh('r'), e.fresh('r'), e.fresh('r')];
        e.ins(`${ldOp(nc ? NC : '', dot(sa.space))}.v4.u32`, `{${rs.join(', ')}}`, addrText({ ...sa, off: sa.off + o }));
        if (move) parts.push(rs); else e.ins(`st${dot(da.space)}.v4.u32`, addrText({ ...da, off: da.off + o }), `{${rs.join(', ')}}`);
      }
      parts.forEach((rs, k) => e.ins(`st${dot(da.space)}.v4.u32`, addrText({ ...da, off: da.off + k * 16 }), `{${rs.join(', ')}}`));
      return;
    }
    let w = 8; while (w > 1 && (al % w !== 0 || n % w !== 0)) w >>= 1;
    const ty = w === 8 ? T.i64 : w === 4 ? T.i32 : w === 2 ? T.i16 : T.i8;
    if (move) {
      const tmp: string[] = [];
      for (let o = 0; o < n; o += w) tmp.push(e.loadScalar(ty, { ...sa, off: sa.off + o }, nc ? NC : vol));
      tmp.forEach((t, k) => e.storeScalar(ty, { ...da, off: da.off + k * w }, t, vol));
    } else {
      for (let o = 0; o < n; o += w) e.storeScalar(ty, { ...da, off: da.off + o }, e.loadScalar(ty, { ...sa, off: sa.off + o }, nc ? NC : vol), vol);
    }
    return;
  }
  // byte loop (backwards for an overlapping memmove with dst > src)
  const d = e.scalar(dst), s = e.scalar(src), n = e.coerce(e.scalar(len), len.ty, 'rd');
  const ds = ptrSpace(dst), ss = ptrSpace(src);
  const done = e.newLabel();
  const z = e.fresh('p');
  e.ins('setp.eq.s64', z, n, '0');
  e.raw(`\t@${z} bra \t${done};`);
  const loop = (backward: boolean, exit: string): void => {
    const i = e.fresh('rd');
    e.ins('mov.u64', i, backward ? n : '0');
    const top = e.newLabel();
    e.raw(`${top}:`);
    if (backward) e.ins('add.s64', i, i, '-1');
    const sp = e.fresh('rd'), dp = e.fresh('rd');
    e.ins('add.s64', sp, s, i); e.ins('add.s64', dp, d, i);
    const v = e.loadScalar(T.i8, { space: ss, base: sp, off: 0 }, vol);
    e.storeScalar(T.i8, { space: ds, base: dp, off: 0 }, v, vol);
    if (!backward) e.ins('add.s64', i, i, '1');
    const p = e.fresh('p');
    if (backward) e.ins('setp.ne.s64', p, i, '0'); else e.ins('setp.lt.u64', p, i, n);
    e.raw(`\t@${p} bra \t${top};`);
    if (exit) e.raw(`\tbra.uni \t${exit};`);
  };
  if (move) {
    const bwd = e.newLabel();
    const gt = e.fresh('p');
    e.ins('setp.gt.u64', gt, d, s);
    e.raw(`\t@${gt} bra \t${bwd};`);
    loop(false, done);
    e.raw(`${bwd}:`);
    loop(true, '');
  } else loop(false, '');
  e.raw(`${done}:`);
}

function lowerMemset(e: Emitter, args: Value[]): void {
  const [dst, val, len] = args as [Value, Value, Value];
  const vol = args[3]?.kind === 'int' && args[3].value !== 0n ? '.volatile' : '';
  if (len.kind === 'int' && len.value <= 512n) {
    const n = Number(len.value);
    if (n === 0) return;
    const da: Addr = e.addrOf(dst);
    let w = 1, imm: string | null = null;
    if (val.kind === 'int') {
      const al = knownAlign(dst);
      w = 8; while (w > 1 && (al % w !== 0 || n % w !== 0)) w >>= 1;
      const byte = BigInt.asUintN(8, val.value);
      let rep = 0n; for (let k = 0; k < w; k++) rep = (rep << 8n) | byte;
      imm = BigInt.asIntN(w * 8, rep).toString();
    }
    const ty = w === 8 ? T.i64 : w === 4 ? T.i32 : w === 2 ? T.i16 : T.i8;
    const v = imm ?? e.scalar(val);
    for (let o = 0; o < n; o += w) e.storeScalar(ty, { ...da, off: da.off + o }, v, vol);
    return;
  }
  const d = e.scalar(dst), v = e.scalar(val), n = e.coerce(e.scalar(len), len.ty, 'rd');
  const done = e.newLabel(), top = e.newLabel();
  const z = e.fresh('p'), i = e.fresh('rd'), p = e.fresh('p'), dp = e.fresh('rd');
  e.ins('setp.eq.s64', z, n, '0');
  e.raw(`\t@${z} bra \t${done};`);
  e.ins('mov.u64', i, '0');
  e.raw(`${top}:`);
  e.ins('add.s64', dp, d, i);
  e.storeScalar(T.i8, { space: ptrSpace(dst), base: dp, off: 0 }, v, vol);
  e.ins('add.s64', i, i, '1');
  e.ins('setp.lt.u64', p, i, n);
  e.raw(`\t@${p} bra \t${top};`);
  e.raw(`${done}:`);
  void addrText; void sizeOf;
}
