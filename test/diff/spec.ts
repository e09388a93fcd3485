// What a differential spec says about one test program: its buffers (with seeded inputs), the launches
// its host main() makes (sizes may be smaller), and how to compare outputs.

import type { TexDesc, SurfDesc } from '../emulator/texsurf';

export type Scalar = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64';

export type Init =
  | { kind: 'zero' }
  | { kind: 'fill'; value: number | bigint }
  | { kind: 'iota'; start?: number; step?: number }
  /** Uniform integers in [min, max] (or floats in [min, max) for f32/f64), from a fixed seed. */
  | { kind: 'rand'; min: number; max: number; seed: number }
  /** Random 32/64-bit patterns (all bits), from a fixed seed. */
  | { kind: 'bits'; seed: number }
  | { kind: 'values'; values: (number | bigint)[] }
  | { kind: 'fn'; f: (i: number) => number | bigint };

export interface BufSpec {
  type: Scalar;
  n: number;
  init?: Init;
  /** Compare this buffer after the launches (default true). */
  compare?: boolean;
  /** Allowed difference in units in the last place for float buffers (default 0: bitwise). */
  ulp?: number;
  /**
   * Which element gets which value depends on the order atomics run in (a GPU runs them in another order each
   * time): compared as a multiset of elements.
   */
  unordered?: boolean;
  /** Elements whose value depends on which thread wins a race (the last atomicExch, a CAS winner): not compared. */
  racy?: number[];
}

export type Arg =
  | { buf: string }
  /** The handle of a texture / surface object the spec declares (a cudaTextureObject_t / cudaSurfaceObject_t). */
  | { tex: string }
  | { surf: string }
  | { t: Scalar; v: number | bigint }
  /** Raw bytes of an aggregate passed by value; `ptrs` puts buffers' device addresses at byte offsets in it. */
  | { bytes: number[]; ptrs?: [number, string][] };

/**
 * A texture object over a buffer's bytes (test/emulator/texsurf.ts TexDesc without the address): 'linear' for
 * tex1Dfetch on linear memory, 'array' for a CUDA array (texels row-major, layers after each other).
 */
export type TexSpec = Omit<TexDesc, 'addr'> & { buf: string };
/** A surface object over a buffer's bytes (elements of elemSize bytes, row-major). */
export type SurfSpec = Omit<SurfDesc, 'addr'> & { buf: string };

export interface LaunchSpec {
  /** Kernel base name (`saxpy` matches `_Z5saxpyifPKfPf`) or the exact mangled name. */
  kernel: string;
  grid: number | [number, number, number];
  block: number | [number, number, number];
  dynShared?: number;
  args: Arg[];
}

export interface KernelSpec {
  /** File name without .cu under test/kernels/. */
  name: string;
  buffers: Record<string, BufSpec>;
  launches: LaunchSpec[];
  /** Texture and surface objects over buffers, passed to kernels as `tex(name)` / `surf(name)` arguments. */
  textures?: Record<string, TexSpec>;
  surfaces?: Record<string, SurfSpec>;
  /** The per-thread stack a GPU run needs (cudaLimitStackSize; deep recursion), in bytes. The emulator needs none. */
  stackSize?: number;
  /** Module variables (`__device__`/`__constant__`) written before the launches (when init is given) and compared after. */
  symbols?: Record<string, BufSpec>;
  /** The program is expected to trap / fail an assert (both compilations must agree on the message). */
  expectTrap?: boolean;
  /** Compare vprintf output (default true). */
  comparePrintf?: boolean;
  /** Known gap: ptxd cannot compile this kernel yet. The test asserts that compileUnit still refuses it. */
  gap?: string;
  /** Known miscompile: the comparison is expected to fail; the test asserts that it still does. */
  miscompile?: string;
  /** No launches: the program has no kernel worth running (prelude-only units); only compiles are checked. */
  compileOnly?: string;
}

export const buf = (name: string): Arg => ({ buf: name });
export const tex = (name: string): Arg => ({ tex: name });
export const surf = (name: string): Arg => ({ surf: name });
export const i32 = (v: number): Arg => ({ t: 'i32', v });
export const u32 = (v: number): Arg => ({ t: 'u32', v });
export const i64 = (v: number | bigint): Arg => ({ t: 'i64', v });
export const u64 = (v: number | bigint): Arg => ({ t: 'u64', v });
export const f32 = (v: number): Arg => ({ t: 'f32', v });
export const f64 = (v: number): Arg => ({ t: 'f64', v });
export const i8 = (v: number): Arg => ({ t: 'i8', v });
export const u8 = (v: number): Arg => ({ t: 'u8', v });
export const i16 = (v: number): Arg => ({ t: 'i16', v });
export const u16 = (v: number): Arg => ({ t: 'u16', v });

export const zero: Init = { kind: 'zero' };
export const iota = (start = 0, step = 1): Init => ({ kind: 'iota', start, step });
export const rand = (min: number, max: number, seed = 1): Init => ({ kind: 'rand', min, max, seed });
export const bits = (seed = 1): Init => ({ kind: 'bits', seed });
export const values = (...v: (number | bigint)[]): Init => ({ kind: 'values', values: v });
export const fill = (value: number | bigint): Init => ({ kind: 'fill', value });
export const gen = (f: (i: number) => number | bigint): Init => ({ kind: 'fn', f });

/** Bytes of an aggregate: size and [offset, type, value] fields (little-endian, rest zero). */
export function struct(size: number, fields: [number, Scalar, number | bigint][]): number[] {
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  for (const [off, t, v] of fields) {
    switch (t) {
      case 'i8': case 'u8': dv.setUint8(off, Number(BigInt.asUintN(8, BigInt(v)))); break;
      case 'i16': case 'u16': dv.setUint16(off, Number(BigInt.asUintN(16, BigInt(v))), true); break;
      case 'i32': case 'u32': dv.setUint32(off, Number(BigInt.asUintN(32, BigInt(v))), true); break;
      case 'i64': case 'u64': dv.setBigUint64(off, BigInt.asUintN(64, BigInt(v)), true); break;
      case 'f32': dv.setFloat32(off, Number(v), true); break;
      case 'f64': dv.setFloat64(off, Number(v), true); break;
    }
  }
  return [...b];
}
/** Init for a u8 buffer from given bytes. */
export const bytesInit = (b: number[]): Init => ({ kind: 'fn', f: i => b[i] ?? 0 });
