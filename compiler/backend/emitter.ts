// What the instruction patterns outside isel (intrinsics, textures and surfaces, inline asm) may ask of the
// function being emitted: registers, operands, addresses, and instructions appended to its text.
import type { Inst, Arg, Value, Type } from '../middle/ir';
import type { CompileOptions } from '../options';
import type { RegClass } from './types';
import type { Addr } from './operands';

export interface Emitter {
  readonly opts: CompileOptions;
  /** `.ftz` under -ftz, else empty. */
  readonly ftz: string;
  /** Appends one instruction. */
  ins(opc: string, ...operands: string[]): void;
  /** Appends one line as it is (a label, a call sequence, a block of text). */
  raw(line: string): void;
  fresh(c: RegClass): string;
  newLabel(): string;
  regsOf(v: Inst | Arg): string[];
  reg(v: Inst | Arg): string;
  scalar(v: Value): string;
  src(v: Value): string;
  imm(v: Value): string | null;
  ext8(v: Value, signed: boolean): string;
  coerce(r: string, from: Type, to: RegClass, signed?: boolean): string;
  mov(d: string, s: string): void;
  addrOf(p: Value): Addr;
  loadScalar(ty: Type, a: Addr, qual?: string, dst?: string): string;
  storeScalar(ty: Type, a: Addr, v: string, qual?: string): void;
  readOnlyMemory(p: Value): boolean;
}
