// The PTX `.param` calling convention: function headers (definitions and prototypes) and kernel params.
import type { Func, Type } from '../middle/ir';
import { sizeOf, alignOf } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import { isScalar, bitsOf } from './types';

/** PTX identifiers: LLVM replaces characters PTX does not allow (`.`, `@`, …) with `$`. */
export function ptxName(name: string): string {
  let s = name.replace(/[^A-Za-z0-9_$]/g, '$');
  if (/^[0-9]/.test(s)) s = '_' + s;
  return s;
}

/** How a parameter / return value travels: a scalar `.param .bN` or an aggregate `.param .align A .b8 x[N]`. */
export type ParamKind = { k: 'scalar'; ty: Type; width: number } | { k: 'agg'; ty: Type; size: number; align: number };

export function paramKind(ty: Type, byval?: Type, align?: number): ParamKind {
  if (byval) return { k: 'agg', ty: byval, size: Math.max(1, sizeOf(byval)), align: Math.max(align ?? 0, alignOf(byval)) };
  if (isScalar(ty)) return { k: 'scalar', ty, width: bitsOf(ty) <= 32 ? 32 : 64 };
  if (ty.k === 'struct' || ty.k === 'array') return { k: 'agg', ty, size: Math.max(1, sizeOf(ty)), align: alignOf(ty) };
  throw new Unsupported(`parameter of type ${ty.k}`);
}

function paramDecl(k: ParamKind, name: string): string {
  return k.k === 'scalar' ? `.param .b${k.width} ${name}` : `.param .align ${k.align} .b8 ${name}[${k.size}]`;
}

export function retKind(f: { fnTy: Func['fnTy'] }): ParamKind | null {
  const r = f.fnTy.ret;
  return r.k === 'void' ? null : paramKind(r);
}

/** Kernel parameter declaration (`.param .u64 k_param_0`, byval structs as aligned byte arrays). */
export function kernelParamDecl(f: Func, i: number): string {
  const a = f.params[i]!;
  const name = `${ptxName(f.name)}_param_${i}`;
  if (a.byval) return `.param .align ${Math.max(a.align ?? 0, alignOf(a.byval))} .b8 ${name}[${Math.max(1, sizeOf(a.byval))}]`;
  const t = a.ty;
  switch (t.k) {
    case 'ptr': return `.param .u64 ${name}`;
    case 'int': return `.param .u${t.bits === 1 ? 8 : t.bits} ${name}`;
    case 'float': return `.param .f32 ${name}`;
    case 'double': return `.param .f64 ${name}`;
    case 'half': case 'bfloat': return `.param .b16 ${name}`;
    case 'struct': case 'array': return `.param .align ${alignOf(t)} .b8 ${name}[${Math.max(1, sizeOf(t))}]`;
    default: throw new Unsupported(`kernel parameter of type ${t.k}`);
  }
}

/**
 * The header of a device function: `.func  (.param .b32 func_retval0) name(\n\t.param ... \n)`.
 * `proto` gives cicc's prototype layout (name and `(` on separate lines) used for declarations.
 */
export function funcHeader(f: Func, linkagePrefix: string, proto: boolean): string {
  if (f.fnTy.varargs && f.name !== 'vprintf') throw new Unsupported(`variadic device function ${f.name}`);
  const name = ptxName(f.name);
  const rk = retKind(f);
  const ret = rk ? ` (${paramDecl(rk, 'func_retval0')})` : '';
  const params = f.fnTy.params.map((t, i) => {
    const a = f.params[i];
    return '\t' + paramDecl(paramKind(t, a?.byval, a?.align), `${name}_param_${i}`);
  });
  const head = `${linkagePrefix}.func ${ret ? ret + ' ' : ''}${name}`;
  if (proto) return `${head}\n(\n${params.join(',\n')}\n)\n;`;
  return params.length ? `${head}(\n${params.join(',\n')}\n)` : `${head}()`;
}

/** `.callprototype` text for an indirect call with signature fnTy. */
export function callPrototype(label: string, ret: Type, params: readonly Type[]): string {
  const r = ret.k === 'void' ? '' : `(${paramDecl(paramKind(ret), '_')}) `;
  const ps = params.map(p => paramDecl(paramKind(p), '_')).join(', ');
  return `${label} : .callprototype ${r}_ (${ps});`;
}
