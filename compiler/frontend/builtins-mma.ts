// The warp matrix builtins behind <mma.h> (nvcuda::wmma): crt/mma.hpp calls `__hmma_m16n16k16_ld_a`,
// `__imma_m16n16k16_mma_s8`, `__mma_bf16_m16n16k16_ld_b`, ... undeclared; cicc knows them. Each becomes
// the PTX wmma instruction as inline asm: a load fills a fragment's registers from memory, a store
// writes them back, mma multiplies and accumulates warp-wide. A fragment is an array in memory here (the
// `(int *)&frag` the header passes); its registers are loaded from and stored to it around the asm, and
// SROA turns the array into registers. The layout arguments are constants once the header's wrappers are
// inlined; before that every candidate is emitted behind a compare (byCase), which then folds away.
// Sub-byte (s4/u4) and single-bit (b1) fragments are not lowered (the unit falls back naming them).

import { T, cInt, structTy } from '../middle/ir';
import type { Builder, Type, Value } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import { emitAsm, byCase } from './builtins-util';

/** `__<family>_m<M>n<N>k<K>_<op>[_<suffix>]` */
const MMA_RE = /^__(hmma|imma|dmma|bmma|mma_bf16|mma_tf32|mma)_m(\d+)n(\d+)k(\d+)_(ld_a|ld_b|ld_c|st_c|mma)(?:_([a-z0-9]+))?$/;

export function isMmaBuiltin(name: string): boolean { return MMA_RE.test(name); }

/** Parameter kinds of an implicit declaration: p (pointer), u (unsigned), i (int). */
export function mmaSignature(name: string): string {
  const op = MMA_RE.exec(name)![5]!;
  return op === 'mma' ? (name.startsWith('__bmma') ? 'ppppi' : 'ppppii') : 'ppui';
}

/** A fragment's element type in PTX and how its registers hold it. */
interface Frag { ptx: string; bits: number; reg: Type }

const F16: Frag = { ptx: 'f16', bits: 16, reg: T.i32 };
const F32: Frag = { ptx: 'f32', bits: 32, reg: T.f32 };
const S32: Frag = { ptx: 's32', bits: 32, reg: T.i32 };
const F64: Frag = { ptx: 'f64', bits: 64, reg: T.f64 };
const BF16: Frag = { ptx: 'bf16', bits: 16, reg: T.i32 };
const TF32: Frag = { ptx: 'tf32', bits: 32, reg: T.i32 };
const S8: Frag = { ptx: 's8', bits: 8, reg: T.i32 };
const U8: Frag = { ptx: 'u8', bits: 8, reg: T.i32 };

/** Registers per thread of a fragment of rows x cols elements (f16 a/b fragments are held twice over, as on Volta). */
function regCount(f: Frag, rows: number, cols: number, ab: boolean): number {
  if (f === F16 && ab) return 8;
  const regBits = f.reg === T.f64 ? 64 : 32;
  return (rows * cols * f.bits) / (32 * regBits);
}

const byteSize = (t: Type): number => (t === T.f64 ? 8 : 4);

function loadRegs(b: Builder, p: Value, ty: Type, n: number): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < n; i++) out.push(b.load(ty, i === 0 ? p : b.gep(T.i8, p, [cInt(T.i64, i * byteSize(ty))]), byteSize(ty)));
  return out;
}

function storeRegs(b: Builder, p: Value, ty: Type, vals: Value[]): void {
  vals.forEach((v, i) => b.store(v, i === 0 ? p : b.gep(T.i8, p, [cInt(T.i64, i * byteSize(ty))]), byteSize(ty)));
}

/** `{$a, $a+1, ...}` for n operands from index a. */
const regList = (a: number, n: number): string => `{${Array.from({ length: n }, (_, i) => `$${a + i}`).join(', ')}}`;

/** Asm with n outputs of type ty (a struct for several), its results as values. */
function asmOut(b: Builder, text: string, ty: Type, n: number, ins: Value[]): Value[] {
  const outs = Array.from({ length: n }, () => ty);
  const r = emitAsm(b, text, outs, ins, true, n === 1 ? ty : structTy(outs));
  return n === 1 ? [r] : outs.map((t, i) => b.extractvalue(r, [i], t));
}

function operandFrags(family: string, suffix: string | undefined, op: string): { a: Frag; b: Frag; c: Frag; d: Frag } {
  switch (family) {
    case 'hmma': {
      // ld_c_f16 / st_c_f32 / mma_<d><c>: f16f16, f32f16, f16f32, f32f32
      const fr = (s: string | undefined): Frag => (s === 'f32' ? F32 : F16);
      if (op === 'mma') return { a: F16, b: F16, d: fr(suffix?.slice(0, 3)), c: fr(suffix?.slice(3)) };
      return { a: F16, b: F16, c: fr(suffix), d: fr(suffix) };
    }
    case 'imma': {
      if (suffix === 's4' || suffix === 'u4' || suffix?.endsWith('_s4') || suffix?.endsWith('_u4')) throw new Unsupported('4-bit WMMA fragments');
      const ab = suffix === 'u8' ? U8 : S8;
      return { a: ab, b: ab, c: S32, d: S32 };
    }
    case 'dmma': return { a: F64, b: F64, c: F64, d: F64 };
    case 'mma_bf16': return { a: BF16, b: BF16, c: F32, d: F32 };
    case 'mma_tf32': return { a: TF32, b: TF32, c: F32, d: F32 };
    case 'mma': return { a: TF32, b: TF32, c: F32, d: F32 };   // __mma_m16n16k8_st_c_f32: the tf32 accumulator
    default: throw new Unsupported(`WMMA builtin family ${family}`);
  }
}

/** Lowers one WMMA builtin call (void). */
export function lowerMma(b: Builder, name: string, args: Value[]): void {
  const m = MMA_RE.exec(name);
  if (!m) throw new Unsupported(`builtin ${name}`);
  const [, family, M, N, K, op, suffix] = m as unknown as [string, string, string, string, string, string, string | undefined];
  if (family === 'bmma') throw new Unsupported('single-bit WMMA fragments');
  // __imma_m8n8k32_*: sub-byte shapes
  if (family === 'imma' && M === '8' && N === '8') throw new Unsupported('4-bit WMMA fragments');
  const shape = `m${M}n${N}k${K}`;
  const [rm, rn, rk] = [Number(M), Number(N), Number(K)];
  // the suffix names the a/b type of a/b loads (`ld_a_s8`), the accumulator of c loads and stores, d and c of an f16 mma
  const fr = operandFrags(family, suffix, op);
  if (op === 'ld_a' || op === 'ld_b' || op === 'ld_c') {
    const which = op.slice(3);
    const f = which === 'a' ? fr.a : which === 'b' ? fr.b : fr.c;
    const [rows, cols] = which === 'a' ? [rm, rk] : which === 'b' ? [rk, rn] : [rm, rn];
    const n = regCount(f, rows, cols, which !== 'c');
    const [dst, src, ldm, layout] = args as [Value, Value, Value, Value];
    byCase(b, layout, [0, 1], k => {
      const lay = k === 1 ? 'col' : 'row';
      const regs = asmOut(b, `wmma.load.${which}.sync.aligned.${lay}.${shape}.${f.ptx} ${regList(0, n)}, [$${n}], $${n + 1};`, f.reg, n, [src, ldm]);
      storeRegs(b, dst, f.reg, regs);
    });
    return;
  }
  if (op === 'st_c') {
    const f = fr.d;
    const n = regCount(f, rm, rn, false);
    const [dst, src, ldm, layout] = args as [Value, Value, Value, Value];
    byCase(b, layout, [0, 1], k => {
      const lay = k === 1 ? 'col' : 'row';
      const regs = loadRegs(b, src, f.reg, n);
      emitAsm(b, `wmma.store.d.sync.aligned.${lay}.${shape}.${f.ptx} [$0], ${regList(1, n)}, $${n + 1};`, [], [dst, ...regs, ldm], true);
    });
    return;
  }
  // mma: d, a, b, c, layout (a col: 2, b col: 1), satf
  const [d, a, bb, c, layout, satf] = args as [Value, Value, Value, Value, Value, Value | undefined];
  const na = regCount(fr.a, rm, rk, true), nb = regCount(fr.b, rk, rn, true);
  const nc = regCount(fr.c, rm, rn, false), nd = regCount(fr.d, rm, rn, false);
  const sel = satf ? b.bin('add', b.bin('mul', layout, cInt(layout.ty, 2)), satf) : b.bin('mul', layout, cInt(layout.ty, 2));
  // .satfinite exists for the f16/f32 and integer forms only
  const satOk = family === 'hmma' || family === 'imma';
  byCase(b, sel, satOk ? [0, 1, 2, 3, 4, 5, 6, 7] : [0, 2, 4, 6], k => {
    const lay = k >> 1, sat = (k & 1) === 1;
    const types = fr.a === F16 ? `${fr.d.ptx}.${fr.c.ptx}` : `${fr.d.ptx}.${fr.a.ptx}.${fr.b.ptx}.${fr.c.ptx}`;
    // cicc writes the f64 form's rounding last (`.f64.f64.f64.f64.rn`)
    const text = `wmma.mma.sync.aligned.${lay & 2 ? 'col' : 'row'}.${lay & 1 ? 'col' : 'row'}.${shape}.${types}${sat ? '.satfinite' : ''}${fr.d === F64 ? '.rn' : ''} `
      + `${regList(0, nd)}, ${regList(nd, na)}, ${regList(nd + na, nb)}, ${regList(nd + na + nb, nc)};`;
    const ins = [...loadRegs(b, a, fr.a.reg, na), ...loadRegs(b, bb, fr.b.reg, nb), ...loadRegs(b, c, fr.c.reg, nc)];
    storeRegs(b, d, fr.d.reg, asmOut(b, text, fr.d.reg, nd, ins));
  });
}
