// Lowering of cicc's `__nv_tex_surf_handler("__itex2D", T *ptr, obj, coords...)`, the builtin behind the
// texture- and surface-object functions of texture_indirect_functions.h / surface_indirect_functions.h.
//
// Textures become `llvm.nvvm.tex.unified.<geom>[.level|.grad].v4<f32|s32|u32>.<s32|f32>` (tld4 for gather),
// which return four components; the ones T has are stored through `ptr`. Surfaces become
// `llvm.nvvm.suld.<geom>.<ty>.<mode>` / `llvm.nvvm.sust.b.<geom>.<ty>.<mode>` on raw bits (8-bit elements
// travel as i16, as in LLVM). The header passes the boundary mode and the gather component as run-time
// parameters of its inline wrappers; like cicc we branch on them, and after inlining the branches fold away.
import { T, cInt, structTy } from '../middle/ir';
import type { Builder, Type, Value } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { CType } from './ctype';
import { callIntrinsic, byCase } from './builtins-util';
import type { BuiltinCtx } from './builtins';

/** Scalar element class of a texel type: IR type of one component and its PTX class. */
interface Elem { cls: 'f' | 's' | 'u'; bits: number; ir: Type; offs: number[] }

function scalarOf(t: CType): { cls: 'f' | 's' | 'u'; bits: number; ir: Type } | null {
  if (t.k === 'float') return { cls: 'f', bits: 32, ir: T.f32 };
  if (t.k === 'int' && t.bits <= 64) return { cls: t.signed ? 's' : 'u', bits: t.bits, ir: t.bits === 8 ? T.i8 : t.bits === 16 ? T.i16 : t.bits === 32 ? T.i32 : T.i64 };
  return null;
}

/** float, int..., or a CUDA vector type (char1..float4): its component type and component offsets. */
function elemOf(t: CType): Elem {
  const s = scalarOf(t);
  if (s) return { ...s, offs: [0] };
  if (t.k === 'record' && t.rec.fields.length >= 1 && t.rec.fields.length <= 4) {
    const f0 = scalarOf(t.rec.fields[0]!.ty);
    if (f0 && t.rec.fields.every(f => { const s2 = scalarOf(f.ty); return s2 && s2.cls === f0.cls && s2.bits === f0.bits; }))
      return { ...f0, offs: t.rec.fields.map(f => f.offset) };
  }
  throw new Unsupported('texture/surface element type');
}

const at = (b: Builder, p: Value, off: number): Value => off === 0 ? p : b.gep(T.i8, p, [cInt(T.i64, off)]);

// ─────────────────────────────────────────────────────────────────────────── textures

const TEX_RE = /^__itex(1D|2D|3D|Cubemap)(Layered)?(fetch|gather|Lod|Grad)?(_v2)?(_sparse)?$/;
const GEOM: Record<string, string> = { '1D': '1d', '2D': '2d', '3D': '3d', Cubemap: 'cube' };
const NCOORD: Record<string, number> = { '1D': 1, '2D': 2, '3D': 3, Cubemap: 3 };

function lowerTex(ctx: BuiltinCtx, op: string, argTys: CType[], args: Value[]): void {
  const m = TEX_RE.exec(op);
  if (!m) throw new Unsupported(`texture operation ${op}`);
  const [, dim, layered, kind, v2, sparse] = m as unknown as [string, '1D' | '2D' | '3D' | 'Cubemap', string | undefined, string | undefined, string | undefined, string | undefined];
  if (sparse) throw new Unsupported('sparse texture fetch');
  // gradients of 2-D/3-D fetches come by address (the headers' _v2 forms); by-value vector gradients are not handled
  if (kind === 'Grad' && dim !== '1D' && !v2) throw new Unsupported(`texture operation ${op}`);
  if (kind === 'fetch' && (dim !== '1D' || layered)) throw new Unsupported(`texture operation ${op}`);
  if (kind === 'gather' && (dim !== '2D' || layered)) throw new Unsupported(`texture operation ${op}`);
  const b = ctx.b;
  const el = elemOf((argTys[0] as CType & { k: 'ptr' }).to);
  if (el.bits > 32) throw new Unsupported('64-bit texture element');
  const ptr = args[0]!, obj = args[1]!;
  const n = NCOORD[dim]!;
  let k = 2;
  const coords = args.slice(k, k + n); k += n;
  const layer = layered ? args[k++]! : null;
  const resTy = el.cls === 'f' ? T.f32 : T.i32;
  const vTy = `v4${el.cls === 'f' ? 'f32' : el.cls === 's' ? 's32' : 'u32'}`;
  const crd = kind === 'fetch' ? 's32' : 'f32';
  const geom = GEOM[dim]! + (layered ? '.array' : '');
  const ops: Value[] = [obj, ...(layer ? [layer] : []), ...coords];
  const fetch = (name: string, extra: Value[]): void => {
    const r = callIntrinsic(b, ctx.m, name, structTy([resTy, resTy, resTy, resTy]), [...ops, ...extra], {});
    el.offs.forEach((off, c) => {
      let v: Value = b.extractvalue(r, [c], resTy);
      if (el.cls !== 'f' && el.bits < 32) v = b.cast('trunc', v, el.ir);
      b.store(v, at(b, ptr, off), el.bits / 8);
    });
  };
  if (kind === 'gather') {
    byCase(b, args[k]!, [0, 1, 2, 3], c => fetch(`llvm.nvvm.tld4.unified.${'rgba'[c]}.2d.${vTy}.f32`, []));
    return;
  }
  if (kind === 'Lod') { fetch(`llvm.nvvm.tex.unified.${geom}.level.${vTy}.${crd}`, [args[k]!]); return; }
  if (kind === 'Grad') {
    // 1-D gradients are floats; the _v2 forms pass float2 (2-D) / float4 (3-D, cube) gradients by address
    const gn = dim === '1D' ? 1 : dim === '2D' ? 2 : 3;
    const grad = (v: Value): Value[] => gn === 1 ? [v] : Array.from({ length: gn }, (_, c) => b.load(T.f32, at(b, v, 4 * c), 4));
    fetch(`llvm.nvvm.tex.unified.${geom}.grad.${vTy}.${crd}`, [...grad(args[k]!), ...grad(args[k + 1]!)]);
    return;
  }
  fetch(`llvm.nvvm.tex.unified.${geom}.${vTy}.${crd}`, []);
}

// ─────────────────────────────────────────────────────────────────────────── surfaces

const SURF_RE = /^__isurf(1D|2D|3D|Cubemap)(Layered)?(read|write_v2)$/;
const MODES = ['zero', 'clamp', 'trap'];   // cudaBoundaryModeZero = 0, Clamp = 1, Trap = 2

function lowerSurf(ctx: BuiltinCtx, op: string, argTys: CType[], args: Value[]): void {
  const m = SURF_RE.exec(op);
  if (!m) throw new Unsupported(`surface operation ${op}`);
  const [, dim, layered, rw] = m as unknown as [string, string, string | undefined, string];
  const b = ctx.b;
  const el = elemOf((argTys[0] as CType & { k: 'ptr' }).to);
  const vn = el.offs.length;
  if (vn === 3 || (vn === 4 && el.bits === 64)) throw new Unsupported('surface element type');
  const ptr = args[0]!, obj = args[1]!;
  // cube maps are 2-D layered surfaces whose layer is the face (layer * 6 + face for cube map arrays)
  const n = dim === '1D' ? 1 : dim === '3D' ? 3 : 2;
  const layerArg = layered || dim === 'Cubemap';
  const coords = args.slice(2, 2 + n);
  const layer = layerArg ? args[2 + n]! : null;
  const mode = args[2 + n + (layerArg ? 1 : 0)]!;
  const geom = (dim === '1D' ? '1d' : dim === '3D' ? '3d' : '2d') + (layer ? '.array' : '');
  const ity = el.bits === 8 ? T.i8 : el.bits === 16 ? T.i16 : el.bits === 32 ? T.i32 : T.i64;
  const carry = el.bits === 8 ? T.i16 : ity;   // what the intrinsic takes/returns per component
  const tyName = `${vn > 1 ? `v${vn}` : ''}i${el.bits}`;
  const ops: Value[] = [obj, ...(layer ? [layer] : []), ...coords];
  if (rw === 'read') {
    const retTy = vn === 1 ? carry : structTy(Array(vn).fill(carry));
    byCase(b, mode, [0, 1, 2], md => {
      const r = callIntrinsic(b, ctx.m, `llvm.nvvm.suld.${geom}.${tyName}.${MODES[md]}`, retTy, ops, {});
      el.offs.forEach((off, c) => {
        let v: Value = vn === 1 ? r : b.extractvalue(r, [c], carry);
        if (carry !== ity) v = b.cast('trunc', v, ity);
        if (el.ir !== ity) v = b.cast('bitcast', v, el.ir);
        b.store(v, at(b, ptr, off), el.bits / 8);
      });
    });
    return;
  }
  const vals = el.offs.map(off => {
    let v: Value = b.load(el.ir, at(b, ptr, off), el.bits / 8);
    if (el.ir !== ity) v = b.cast('bitcast', v, ity);
    if (carry !== ity) v = b.cast('zext', v, carry);
    return v;
  });
  byCase(b, mode, [0, 1, 2], md => { callIntrinsic(b, ctx.m, `llvm.nvvm.sust.b.${geom}.${tyName}.${MODES[md]}`, T.void, [...ops, ...vals], {}); });
}

/** `__nv_tex_surf_handler(op, args...)`: `argTys`/`args` are the C types and values after the string. */
export function lowerTexSurf(ctx: BuiltinCtx, op: string, argTys: CType[], args: Value[]): void {
  if (argTys[0]?.k !== 'ptr' || args.length < 3) throw new Unsupported(`texture/surface operation ${op}`);
  if (op.startsWith('__itex')) lowerTex(ctx, op, argTys, args);
  else if (op.startsWith('__isurf')) lowerSurf(ctx, op, argTys, args);
  else throw new Unsupported(`texture/surface operation ${op}`);
}
