// Scalar types, state spaces and address windows shared by the decoder and the machine.

export const enum T {
  B8, U8, S8, B16, U16, S16, F16, BF16, B32, U32, S32, F32, F16X2, BF16X2, B64, U64, S64, F64, PRED, NONE,
}

export function parseType(s: string): T | undefined {
  switch (s) {
    case 'b8': return T.B8; case 'u8': return T.U8; case 's8': return T.S8;
    case 'b16': return T.B16; case 'u16': return T.U16; case 's16': return T.S16; case 'f16': return T.F16;
    case 'bf16': return T.BF16; case 'f16x2': return T.F16X2; case 'bf16x2': return T.BF16X2;
    case 'b32': return T.B32; case 'u32': return T.U32; case 's32': return T.S32; case 'f32': return T.F32;
    case 'b64': return T.B64; case 'u64': return T.U64; case 's64': return T.S64; case 'f64': return T.F64;
    case 'pred': return T.PRED;
  }
  return undefined;
}

export function typeSize(t: T): number {
  switch (t) {
    case T.B8: case T.U8: case T.S8: return 1;
    case T.B16: case T.U16: case T.S16: case T.F16: case T.BF16: return 2;
    case T.B32: case T.U32: case T.S32: case T.F32: case T.F16X2: case T.BF16X2: return 4;
    case T.B64: case T.U64: case T.S64: case T.F64: return 8;
    case T.PRED: return 1;
  }
  return 0;
}

export const isSigned = (t: T): boolean => t === T.S8 || t === T.S16 || t === T.S32 || t === T.S64;
export const isFloat = (t: T): boolean => t === T.F32 || t === T.F64 || isHalf(t);
/** The 16-bit float types, scalar and packed pairs (.f16, .bf16, .f16x2, .bf16x2). */
export const isHalf = (t: T): boolean => t === T.F16 || t === T.BF16 || t === T.F16X2 || t === T.BF16X2;
export const is64 = (t: T): boolean => t === T.B64 || t === T.U64 || t === T.S64 || t === T.F64;

export const enum Space { GENERIC, GLOBAL, SHARED, LOCAL, CONST, PARAM }

export function parseSpace(s: string): Space | undefined {
  switch (s) {
    case 'global': return Space.GLOBAL; case 'shared': return Space.SHARED; case 'local': return Space.LOCAL;
    case 'const': return Space.CONST; case 'param': return Space.PARAM;
  }
  return undefined;
}

// Generic address windows. A generic address is a Number (< 2^53). Global-space addresses equal their
// generic addresses (as on hardware); the other spaces are offsets that cvta moves into their window.
export const GLOBAL_BASE = 2 ** 32;
export const CONST_WIN = 2 ** 40;
export const SHARED_WIN = 2 ** 41;
export const LOCAL_WIN = 2 ** 42;
export const PARAM_WIN = 2 ** 43;
export const WIN_SIZE = 2 ** 40;
