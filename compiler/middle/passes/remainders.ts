// Remainder by a constant expanded into a division, a product and a difference (or a mask).
import type { Func, Inst, Value } from '../ir';
import { cInt } from '../ir';
import { U, S, isIntConst } from '../analysis/values';

/**
 * x % c with a constant c becomes x - (x / c) * c (x & (c - 1) for an unsigned power of two), as LLVM's
 * instruction selection does: the backend divides by a constant without a divide instruction, and a
 * quotient of the same operands computed nearby is shared (the `i / w`, `i % w` of 2-D indexing).
 */
export function expandRemainders(f: Func): boolean {
  let changed = false;
  for (const b of f.blocks) {
    for (let k = 0; k < b.insts.length; k++) {
      const i = b.insts[k]!;
      if ((i.op !== 'urem' && i.op !== 'srem') || i.ty.k !== 'int' || (i.ty.bits !== 32 && i.ty.bits !== 64)) continue;
      const c = i.ops[1]!;
      if (!isIntConst(c)) continue;
      const bits = i.ty.bits;
      const u = U(c.value, bits), s = S(c.value, bits);
      if (u === 0n || s === 1n || s === -1n) continue;
      if (i.op === 'urem' && (u & (u - 1n)) === 0n) { i.op = 'and'; i.ops[1] = cInt(i.ty, u - 1n); changed = true; continue; }
      const mk = (op: Inst['op'], ops: Value[]): Inst => ({ kind: 'inst', op, ty: i.ty, ops, targets: [], parent: b, name: '', loc: i.loc });
      const q = mk(i.op === 'urem' ? 'udiv' : 'sdiv', [i.ops[0]!, c]);
      const m = mk('mul', [q, c]);
      b.insts.splice(k, 0, q, m);
      k += 2;
      i.op = 'sub'; i.ops = [i.ops[0]!, m];
      changed = true;
    }
  }
  return changed;
}
