// Bits of an integer value that may be 1 (everything else is known to be 0), from the operations that
// made it: masks, shifts by constants, extensions. Enough for instcombine to see through bitfield
// updates: a field read back after it was written, or a mask that keeps every bit a value can have.

import type { Value } from '../ir';

/** The bits of v (an iN value, N ≤ 64) that may be set, as an unsigned mask. */
export function maybeOnes(v: Value, depth = 0): bigint {
  const t = v.ty;
  if (t.k !== 'int') return 0n;
  const ones = (1n << BigInt(t.bits)) - 1n;
  if (v.kind === 'int') return BigInt.asUintN(t.bits, v.value);
  if (v.kind === 'zero' || v.kind === 'null') return 0n;
  if (v.kind !== 'inst' || depth > 6) return ones;
  const a = v.ops[0]!, b = v.ops[1];
  const shift = b && b.kind === 'int' && b.value >= 0n && b.value < BigInt(t.bits) ? b.value : null;
  switch (v.op) {
    case 'and': return maybeOnes(a, depth + 1) & maybeOnes(b!, depth + 1);
    case 'or': case 'xor': return maybeOnes(a, depth + 1) | maybeOnes(b!, depth + 1);
    case 'shl': return shift === null ? ones : (maybeOnes(a, depth + 1) << shift) & ones;
    case 'lshr': return shift === null ? ones : maybeOnes(a, depth + 1) >> shift;
    case 'zext': return a.ty.k === 'int' ? maybeOnes(a, depth + 1) : ones;
    case 'trunc': return maybeOnes(a, depth + 1) & ones;
    case 'select': return maybeOnes(v.ops[1]!, depth + 1) | maybeOnes(v.ops[2]!, depth + 1);
    default: return ones;
  }
}
