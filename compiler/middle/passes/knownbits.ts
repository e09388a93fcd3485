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
    case 'add': {
      // a sum of small values stays small: the mask of the largest possible sum (tid.x + 3)
      const x = maybeOnes(a, depth + 1), y = maybeOnes(b!, depth + 1);
      if (x === ones || y === ones) return ones;
      const sum = x + y;
      return sum > ones ? ones : (1n << BigInt(sum.toString(2).length)) - 1n;
    }
    case 'call': {
      const c = v.ops[0]!;
      const r = c.kind === 'func' ? SREG_MAX.get(c.name) : undefined;
      return r === undefined ? ones : BigInt(r) & ones;
    }
    default: return ones;
  }
}

/** Masks covering the hardware limits of the special registers (PTX ISA: tid < 1024, ntid.z <= 64, ...). */
const SREG_MAX = new Map<string, number>([
  ['llvm.nvvm.read.ptx.sreg.tid.x', 0x3ff], ['llvm.nvvm.read.ptx.sreg.tid.y', 0x3ff], ['llvm.nvvm.read.ptx.sreg.tid.z', 0x3f],
  ['llvm.nvvm.read.ptx.sreg.ntid.x', 0x7ff], ['llvm.nvvm.read.ptx.sreg.ntid.y', 0x7ff], ['llvm.nvvm.read.ptx.sreg.ntid.z', 0x7f],
  ['llvm.nvvm.read.ptx.sreg.ctaid.x', 0x7fffffff], ['llvm.nvvm.read.ptx.sreg.ctaid.y', 0xffff], ['llvm.nvvm.read.ptx.sreg.ctaid.z', 0xffff],
  ['llvm.nvvm.read.ptx.sreg.laneid', 0x1f], ['llvm.nvvm.read.ptx.sreg.warpsize', 0x3f],
]);
