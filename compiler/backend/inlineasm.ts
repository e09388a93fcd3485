// Inline asm: LLVM-style `$N` operands, constraints r/h/c/l/f/d/b (registers), n/i (immediates), digits (tied).
import type { Inst, InlineAsm, Value } from '../middle/ir';
import { T } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { Emitter } from './emitter';
import { regClassOf, isScalar, type RegClass } from './types';
import { classOfReg } from './registers';

function classOfConstraint(c: string): RegClass | 'imm' | null {
  switch (c) {
    case 'r': return 'r';
    case 'h': case 'c': return 'rs';
    case 'l': return 'rd';
    case 'f': return 'f';
    case 'd': return 'fd';
    case 'b': return 'p';
    case 'n': case 'i': return 'imm';
    default: return null;
  }
}

/** Replace `$N` / `${N}` / `${N:mod}` with operands; `$$` is a literal `$`. */
export function substituteAsm(text: string, operands: readonly string[]): string {
  return text.replace(/\$(\$|\d+|\{(\d+)(?::[a-zA-Z]+)?\})/g, (m: string, a: string, braced?: string) => {
    if (a === '$') return '$';
    const n = Number(braced ?? a);
    const o = operands[n];
    if (o === undefined) throw new Unsupported(`inline asm operand $${n} out of range`);
    return o;
  });
}

export function emitInlineAsm(e: Emitter, call: Inst, asm: InlineAsm, args: Value[]): void {
  const cons = asm.constraints.split(',').map(s => s.trim()).filter(s => s.length > 0 && !s.startsWith('~'));
  const outs = cons.filter(c => c.startsWith('='));
  const ins = cons.filter(c => !c.startsWith('='));
  if (ins.length !== args.length) throw new Unsupported(`inline asm constraint count mismatch ("${asm.constraints}")`);
  if (cons.some(c => c.startsWith('+'))) throw new Unsupported('inline asm "+" constraint (expected tied operands)');
  // outputs
  const resRegs = call.ty.k === 'void' ? [] : e.regsOf(call);
  if (resRegs.length !== outs.length) throw new Unsupported('inline asm outputs do not match the result type');
  const outOps: string[] = [];
  const fixups: [string, string][] = [];
  outs.forEach((c, k) => {
    const letter = c.replace(/^=&?/, '');
    const cls = classOfConstraint(letter);
    if (!cls || cls === 'imm') throw new Unsupported(`inline asm output constraint "${c}"`);
    const want = resRegs[k]!;
    if (classOfReg(want) === cls) outOps.push(want);
    else { const t = e.fresh(cls); outOps.push(t); fixups.push([want, t]); }
  });
  // inputs
  const inOps: string[] = args.map((v, k) => {
    const c = ins[k]!;
    if (/^\d+$/.test(c)) {
      const o = Number(c);
      const dst = outOps[o];
      if (dst === undefined) throw new Unsupported('inline asm tied operand out of range');
      const src = e.coerce(e.scalar(v), v.ty, classOfReg(dst)!);
      e.mov(dst, src);
      return dst;
    }
    const cls = classOfConstraint(c);
    if (!cls) throw new Unsupported(`inline asm input constraint "${c}"`);
    if (cls === 'imm') {
      const imm = e.imm(v);
      if (imm === null) throw new Unsupported('inline asm immediate operand is not a constant');
      return imm;
    }
    if (!isScalar(v.ty)) throw new Unsupported('aggregate inline asm operand');
    let r = e.scalar(v);
    if (v.ty === T.i8 && cls !== 'rs') r = e.ext8(v, false);
    return e.coerce(r, v.ty === T.i8 && cls !== 'rs' ? T.i16 : v.ty, cls);
  });
  const text = substituteAsm(asm.text, [...outOps, ...inOps]);
  e.raw('\t// begin inline asm');
  for (const l of text.split('\n')) e.raw('\t' + l.replace(/^\s+/, ''));
  e.raw('\t// end inline asm');
  for (const [want, t] of fixups) {
    const wc = classOfReg(want)!;
    const tyOf = { p: T.i1, rs: T.i16, r: T.i32, rd: T.i64, f: T.f32, fd: T.f64 }[classOfReg(t)!];
    e.mov(want, e.coerce(t, tyOf, wc));
  }
  void regClassOf;
}
