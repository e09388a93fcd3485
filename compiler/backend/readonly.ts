// Does a function only read through a pointer parameter? (LLVM's `readonly` argument attribute, as its
// FunctionAttrs pass infers it.) Every address derived from the parameter by geps, casts, phis and selects
// may be loaded from or compared; a call may receive it only where the callee, in turn, only reads
// through that parameter. A store through it, a store of it, atomics, ptrtoint, or an unknown callee
// (a declaration, inline asm, an indirect call) mean "may write".

import type { Arg, Func, Inst, Value } from '../middle/ir';

const ADDR_STEPS = new Set(['gep', 'addrspacecast', 'bitcast', 'phi', 'select']);
/** Intrinsics that read memory through their pointer operands and write none. */
const READ_ONLY_CALLEES = /^llvm\.(nvvm\.ldg|nvvm\.ldu|prefetch|lifetime|assume)/;
const MEM_COPIES = /^llvm\.(memcpy|memmove)\./;

export function onlyReadsThrough(f: Func, a: Arg, visiting: Set<Arg> = new Set()): boolean {
  if (visiting.has(a)) return true;   // a recursive path adds no new accesses
  visiting.add(a);
  const derived = new Set<Value>([a]);
  const fromDerived = (i: Inst): boolean => ADDR_STEPS.has(i.op) && (i.op === 'select' ? derived.has(i.ops[1]!) || derived.has(i.ops[2]!) : i.op === 'phi' ? i.ops.some(o => derived.has(o)) : derived.has(i.ops[0]!));
  for (let grew = true; grew;) {
    grew = false;
    for (const b of f.blocks) for (const i of b.insts) if (!derived.has(i) && fromDerived(i)) { derived.add(i); grew = true; }
  }
  for (const b of f.blocks) for (const i of b.insts) {
    if (derived.has(i) || !i.ops.some(o => derived.has(o))) continue;
    if (i.op === 'load' || i.op === 'icmp') continue;
    if (i.op === 'gep' && !i.ops.slice(1).some(o => derived.has(o))) continue;
    if (i.op === 'call') {
      const callee = i.ops[0]!;
      if (callee.kind !== 'func' || derived.has(callee)) return false;
      if (READ_ONLY_CALLEES.test(callee.name)) continue;
      // a copy reads its source (operand 2) and writes its destination (operand 1)
      if (MEM_COPIES.test(callee.name) && !derived.has(i.ops[1]!)) continue;
      if (callee.blocks.length === 0) return false;
      for (let k = 1; k < i.ops.length; k++) {
        if (!derived.has(i.ops[k]!)) continue;
        const p = callee.params[k - 1];
        if (!p || !onlyReadsThrough(callee, p, visiting)) return false;
      }
      continue;
    }
    return false;
  }
  return true;
}
