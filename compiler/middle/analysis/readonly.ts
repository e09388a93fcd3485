// Read-only inference: functions that write no memory but their own locals (inferReadonly, run by the
// pipeline) and pointer parameters a function only reads through (onlyReadsThrough, asked by the backend).
import type { Arg, Func, Inst, Module, Value } from '../ir';
import { memLoc, objectOf } from './memory';

/**
 * Device functions that write no memory but their own locals (LLVM's FunctionAttrs `readonly`): a call to
 * one leaves what CSE knows of memory (a `sum() const` member called between reads of the object).
 * Optimistic over the call graph: a cycle of functions none of which writes stays readonly.
 */
export function inferReadonly(m: Module): void {
  const defs = m.funcs.filter(f => f.blocks.length);
  for (const f of defs) f.attrs.readonly = true;
  const writes = (f: Func): boolean => {
    for (const b of f.blocks) for (const i of b.insts) {
      switch (i.op) {
        case 'store': {
          if (i.volatile || i.ordering) return true;
          const o = objectOf(memLoc(i.ops[1]!, 1)!.base);
          if (!(o && o.kind === 'inst' && o.op === 'alloca')) return true;
          break;
        }
        case 'atomicrmw': case 'cmpxchg': case 'fence': return true;
        case 'load': if (i.volatile || i.ordering) return true; break;
        case 'call': {
          const c = i.ops[0]!;
          if (c.kind === 'asm') { if (c.sideEffects) return true; break; }
          if (c.kind !== 'func') return true;
          if (c.blocks.length ? !c.attrs.readonly : !c.attrs.readnone) return true;
          if (c.attrs.convergent) return true;
          break;
        }
      }
    }
    return false;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const f of defs) if (f.attrs.readonly && writes(f)) { f.attrs.readonly = false; changed = true; }
  }
}

// Does a function only read through a pointer parameter? (LLVM's `readonly` argument attribute, as its
// FunctionAttrs pass infers it.) Every address derived from the parameter by geps, casts, phis and selects
// may be loaded from or compared; a call may receive it only where the callee, in turn, only reads
// through that parameter. A store through it, a store of it, atomics, ptrtoint, or an unknown callee
// (a declaration, inline asm, an indirect call) mean "may write".
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
