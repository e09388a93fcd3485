// Texture and surface objects for the emulator: what a handle (the u64 a `cudaTextureObject_t` /
// `cudaSurfaceObject_t` kernel parameter holds) describes, the decoding of tex / tld4 / suld / sust, and
// the texel and surface-element addressing of the PTX ISA.
//
// Modelled: textures over linear memory (tex1Dfetch: integer index, 0 outside), over pitched 2-D memory and
// over arrays (1-D, 2-D, 3-D, layered) with point filtering, unnormalised or normalised coordinates and the clamp / border / wrap /
// mirror address modes; element or normalised-float read mode for 8/16-bit integer formats; tld4 (gather);
// tex.level / tex.grad on arrays without mipmaps (the LOD does not matter then). Surfaces with byte
// x-coordinates and the trap / clamp / zero out-of-bounds modes of suld.b / sust.b.
// Not modelled (EmuError): linear filtering, cube maps, mipmaps, formatted (suld.p / sust.p) access.

import { T } from './types';
import type { Opnd } from './module';

export type AddrMode = 'clamp' | 'border' | 'wrap' | 'mirror';
export type TexFormat = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'f32';

/** A texture object: texels at `addr` (a device address), row-major, `channels` components of `format` each. */
export interface TexDesc {
  addr: number;
  /** 'linear': cudaResourceTypeLinear (tex1Dfetch only); 'array': a CUDA array (1-D/2-D/3-D, optionally layered) or, with pitch, cudaResourceTypePitch2D. */
  kind: 'linear' | 'array';
  format: TexFormat;
  channels: 1 | 2 | 4;
  width: number;
  height?: number;
  depth?: number;
  /** Number of layers of a layered array (absent: not layered). */
  layers?: number;
  /** Bytes from one row to the next (cudaResourceTypePitch2D); default width * texel size. */
  pitch?: number;
  /** Address mode per dimension (one value: all dimensions). Default clamp. */
  address?: AddrMode | AddrMode[];
  normalizedCoords?: boolean;
  /** cudaReadModeNormalizedFloat: 8/16-bit integer texels read as floats in [0,1] / [-1,1]. */
  normalizedFloat?: boolean;
}

/** A surface object: elements of `elemSize` bytes at `addr`, row-major (rows of width * elemSize bytes). */
export interface SurfDesc {
  addr: number;
  elemSize: number;
  width: number;
  height?: number;
  depth?: number;
  layers?: number;
}

export type Geom = '1d' | '2d' | '3d' | 'a1d' | 'a2d' | 'cube' | 'acube';

/** What a tex / tld4 / suld / sust instruction does besides its operands. */
export interface TexSurfInfo {
  geom: Geom;
  /** tex: '' / 'level' / 'grad'; tld4: the component 'r' | 'g' | 'b' | 'a'; surfaces: the oob mode. */
  mode: string;
  /** tex/tld4: destination type and coordinate type. */
  dtype: T;
  ctype: T;
  /** suld/sust: bits per component and the number of components. */
  bits: number;
  vec: number;
  /** Operands: the handle and the coordinates (layer first for arrays, padding included). */
  handle: Opnd;
  coords: Opnd[];
}

const GEOMS = new Set(['1d', '2d', '3d', 'a1d', 'a2d', 'cube', 'acube']);

/**
 * Split the modifiers of `tex.level.2d.v4.f32.f32`, `tld4.r.2d.v4.s32.f32`, `suld.b.a2d.v2.b16.trap`,
 * `sust.b.1d.b32.clamp`; the caller decodes the operands.
 */
export function parseTexSurfModifiers(base: string, parts: string[]): Omit<TexSurfInfo, 'handle' | 'coords'> {
  const info = { geom: '' as Geom, mode: '', dtype: T.NONE, ctype: T.NONE, bits: 0, vec: 1 };
  const types: string[] = [];
  for (const p of parts) {
    if (GEOMS.has(p)) info.geom = p as Geom;
    else if (p === 'v2' || p === 'v4') info.vec = p === 'v2' ? 2 : 4;
    else if (p === 'b' && (base === 'suld' || base === 'sust')) continue;
    else if (base === 'tex' && (p === 'level' || p === 'grad')) info.mode = p;
    else if (base === 'tld4' && /^[rgba]$/.test(p)) info.mode = p;
    else if ((base === 'suld' || base === 'sust') && (p === 'trap' || p === 'clamp' || p === 'zero')) info.mode = p;
    else if (/^[bfsu](8|16|32|64)$/.test(p)) types.push(p);
    else throw new Error(`unsupported modifier '.${p}' in ${base}`);
  }
  if (!info.geom) throw new Error(`${base} without a geometry`);
  if (base === 'tex' || base === 'tld4') {
    const ty = (s: string | undefined): T => s === 'f32' ? T.F32 : s === 's32' ? T.S32 : s === 'u32' ? T.U32 : T.NONE;
    info.dtype = ty(types[0]); info.ctype = ty(types[1]);
    if (info.dtype === T.NONE || info.ctype === T.NONE || info.vec !== 4) throw new Error(`unsupported ${base} types .${types.join('.')}`);
    if (base === 'tld4' && !info.mode) throw new Error('tld4 without a component');
  } else {
    const m = /^b(8|16|32|64)$/.exec(types[0] ?? '');
    if (!m || types.length !== 1) throw new Error(`unsupported ${base} type .${types.join('.')}`);
    info.bits = Number(m[1]);
    if (!info.mode) info.mode = 'trap';
    if (info.geom === 'cube' || info.geom === 'acube') throw new Error(`${base}.${info.geom} is not a surface geometry`);
  }
  return info;
}

/** Number of coordinate vector elements the geometry reads (before padding). */
export function coordCount(g: Geom): number {
  switch (g) { case '1d': return 1; case '2d': case 'a1d': return 2; case '3d': case 'a2d': case 'cube': return 3; case 'acube': return 4; }
}

// ─────────────────────────────────────────────────────────────────────────── textures

const FMT_BYTES: Record<TexFormat, number> = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, f32: 4 };

class TexError extends Error {}

/** One texel's channel `c` as the 32-bit register value the fetch returns (float bits or an integer). */
function channel(d: TexDesc, dv: DataView, off: number, c: number, floatResult: boolean): number {
  if (c >= d.channels) {
    // channels the format lacks read as 0, alpha as 1
    return c === 3 ? (floatResult ? 0x3f800000 : 1) : 0;
  }
  const o = off + c * FMT_BYTES[d.format];
  let v: number;
  switch (d.format) {
    case 'f32': return dv.getInt32(o, true);
    case 'i32': case 'u32': return dv.getInt32(o, true);
    case 'i8': v = dv.getInt8(o); break;
    case 'u8': v = dv.getUint8(o); break;
    case 'i16': v = dv.getInt16(o, true); break;
    case 'u16': v = dv.getUint16(o, true); break;
  }
  if (!d.normalizedFloat) return v | 0;
  const max = d.format === 'u8' ? 255 : d.format === 'i8' ? 127 : d.format === 'u16' ? 65535 : 32767;
  return f32bits(Math.max(v / max, -1));
}

const f32buf = new DataView(new ArrayBuffer(4));
function f32bits(x: number): number { f32buf.setFloat32(0, x, true); return f32buf.getInt32(0, true); }
export function bitsF32(b: number): number { f32buf.setInt32(0, b, true); return f32buf.getFloat32(0, true); }

function modeOf(d: TexDesc, dim: number): AddrMode {
  const a = d.address ?? 'clamp';
  return typeof a === 'string' ? a : (a[dim] ?? a[a.length - 1] ?? 'clamp');
}

/** An integer texel index along `dim` after the address mode; null: outside with border addressing. */
function wrapIndex(d: TexDesc, dim: number, i: number, n: number): number | null {
  if (i >= 0 && i < n) return i;
  switch (modeOf(d, dim)) {
    case 'clamp': return i < 0 ? 0 : n - 1;
    case 'border': return null;
    case 'wrap': return ((i % n) + n) % n;
    case 'mirror': { const p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
  }
}

/** Texel coordinate (in texels, fp32) of a float coordinate along a dimension of `n` texels. */
function texelCoord(d: TexDesc, x: number, n: number): number {
  if (Number.isNaN(x)) return 0;
  if (!d.normalizedCoords) {
    const m = (d.address ?? 'clamp');
    if ((typeof m === 'string' ? [m] : m).some(v => v === 'wrap' || v === 'mirror')) throw new TexError('wrap/mirror addressing needs normalised coordinates');
    return x;
  }
  return Math.fround(x * n);
}

const extents = (d: TexDesc): number[] => [d.width, d.height ?? 1, d.depth ?? 1];
const rowBytes = (d: TexDesc): number => d.pitch ?? d.width * d.channels * FMT_BYTES[d.format];

/** Byte offset of texel (i, j, k) of layer `layer`, or null for a border texel. */
function texelOffset(d: TexDesc, idx: number[], layer: number): number | null {
  const ext = extents(d);
  const w: number[] = [];
  for (let k = 0; k < 3; k++) {
    const v = wrapIndex(d, k, idx[k] ?? 0, ext[k]!);
    if (v === null) return null;
    w.push(v);
  }
  const plane = rowBytes(d) * ext[1]!;
  return (d.addr) + layer * plane * ext[2]! + w[2]! * plane + w[1]! * rowBytes(d) + w[0]! * d.channels * FMT_BYTES[d.format];
}

/** Dimensions a geometry samples, and whether it is layered. */
function geomDims(g: Geom): { dims: number; layered: boolean } {
  switch (g) {
    case '1d': return { dims: 1, layered: false }; case '2d': return { dims: 2, layered: false }; case '3d': return { dims: 3, layered: false };
    case 'a1d': return { dims: 1, layered: true }; case 'a2d': return { dims: 2, layered: true };
    default: throw new TexError(`${g} textures are not emulated`);
  }
}

/**
 * A tex / tld4 fetch. `coord(k)` reads coordinate element k as raw 32 bits; `mem` is the device memory with
 * `base` the device address of byte 0. Returns the four destination registers' bits.
 */
export function texFetch(d: TexDesc, info: TexSurfInfo, coord: (k: number) => number, mem: DataView, base: number, tld4Comp: number): number[] {
  const { dims, layered } = geomDims(info.geom);
  const floatResult = d.format === 'f32' || !!d.normalizedFloat;
  if ((info.dtype === T.F32) !== floatResult) throw new TexError(`tex .${info.dtype === T.F32 ? 'f32' : 'int'} result from a texture of ${d.format}${d.normalizedFloat ? ' (normalised float)' : ''} texels`);
  const layerCount = d.layers ?? 0;
  if (layered !== layerCount > 0) throw new TexError(`${info.geom} fetch from a ${layerCount > 0 ? 'layered' : 'non-layered'} texture`);
  const first = layered ? 1 : 0;
  const layer = layered ? Math.min(coord(0) >>> 0, layerCount - 1) : 0;
  const texel = (idx: number[]): number[] => {
    const off = texelOffset(d, idx, layer);
    if (off === null) return [0, 0, 0, 0];   // border colour (0, 0, 0, 0)
    return [0, 1, 2, 3].map(c => channel(d, mem, off - base, c, floatResult));
  };
  if (d.kind === 'linear') {
    if (info.geom !== '1d' || info.ctype !== T.S32 || info.mode !== '') throw new TexError('a linear-memory texture supports only tex.1d with integer coordinates (tex1Dfetch)');
    const i = coord(0) | 0;
    if (i < 0 || i >= d.width) return [0, 0, 0, 0];
    return [0, 1, 2, 3].map(c => channel(d, mem, d.addr + i * d.channels * FMT_BYTES[d.format] - base, c, floatResult));
  }
  if (info.ctype !== T.F32) throw new TexError('integer coordinates on an array texture are not emulated');
  const ext = extents(d);
  const u = Array.from({ length: dims }, (_, k) => texelCoord(d, bitsF32(coord(first + k)), ext[k]!));
  if (tld4Comp >= 0) {
    // the 2x2 bilinear footprint, counter-clockwise from the lower left: (i0,j1) (i1,j1) (i1,j0) (i0,j0)
    if (dims !== 2) throw new TexError('tld4 on a non-2-D texture is not emulated');
    const i0 = Math.floor(Math.fround(u[0]! - 0.5)), j0 = Math.floor(Math.fround(u[1]! - 0.5));
    return [[i0, j0 + 1], [i0 + 1, j0 + 1], [i0 + 1, j0], [i0, j0]].map(ij => texel(ij)[tld4Comp]!);
  }
  return texel(u.map(x => Math.floor(x)));
}

// ─────────────────────────────────────────────────────────────────────────── surfaces

export type SurfResult = { kind: 'ok'; off: number } | { kind: 'zero' } | { kind: 'trap'; why: string };

/**
 * Byte offset (from device address `base`) of a suld/sust access of `size` bytes, after the instruction's
 * out-of-bounds mode. `coord(k)` reads coordinate element k (x in bytes; the layer first for arrays).
 */
export function surfAccess(d: SurfDesc, info: TexSurfInfo, coord: (k: number) => number, size: number, base: number): SurfResult {
  const layered = info.geom === 'a1d' || info.geom === 'a2d';
  const dims = info.geom === '1d' || info.geom === 'a1d' ? 1 : info.geom === '2d' || info.geom === 'a2d' ? 2 : 3;
  const layerCount = d.layers ?? 0;
  if (layered !== layerCount > 0) throw new TexError(`${info.geom} access to a ${layerCount > 0 ? 'layered' : 'non-layered'} surface`);
  const first = layered ? 1 : 0;
  const row = d.width * d.elemSize;
  const lim = [row - size, (d.height ?? 1) - 1, (d.depth ?? 1) - 1];
  const c = [0, 0, 0];
  for (let k = 0; k < dims; k++) c[k] = coord(first + k) | 0;
  let layer = layered ? coord(0) >>> 0 : 0;
  if (c[0]! % size !== 0) return { kind: 'trap', why: `misaligned surface access (x = ${c[0]} bytes, ${size}-byte access)` };
  const out = c.some((v, k) => v < 0 || v > lim[k]!) || (layered && layer >= layerCount);
  if (out) {
    if (info.mode === 'trap') return { kind: 'trap', why: `surface access out of bounds (${c.slice(0, dims).join(', ')}${layered ? ` layer ${layer}` : ''})` };
    if (info.mode === 'zero') return { kind: 'zero' };
    for (let k = 0; k < 3; k++) c[k] = Math.max(0, Math.min(c[k]!, lim[k]!));
    c[0] = Math.floor(c[0]! / size) * size;
    layer = Math.min(layer, Math.max(layerCount - 1, 0));
  }
  const plane = row * (d.height ?? 1);
  return { kind: 'ok', off: d.addr - base + layer * plane * (d.depth ?? 1) + c[2]! * plane + c[1]! * row + c[0]! };
}

export { TexError };
