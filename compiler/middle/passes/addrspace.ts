// Address-space inference: a generic pointer whose every possible origin is in one specific state space
// (global, shared, constant, local) is accessed through a pointer of that space, so the backend emits
// ld.global / st.shared / atom.shared / ld.local instead of generic accesses.
//
// Origins: an addrspacecast from a specific space (instruction or constant expression, e.g. a
// `__shared__` variable), an alloca (local memory), and a kernel's pointer parameter, which points to
// global memory (the CUDA launch ABI: host code can only pass global addresses; cicc and LLVM's
// NVPTXLowerArgs assume the same). The space flows through getelementptr, and through phi/select only
// when all inputs agree. Anything else (a device function's parameter, a loaded pointer, an int-to-pointer
// cast) is ambiguous and stays generic: we never guess.
import type { Block, Func, Inst, Value } from '../ir';
import { AS, ptrTy } from '../ir';

const GENERIC = -1;   // lattice bottom: ambiguous
const TOP = -2;       // not yet known (optimistic, for phi cycles)

function mk(parent: Block, op: Inst['op'], ty: Inst['ty'], ops: Value[], extra: Partial<Inst> = {}): Inst {
  return { kind: 'inst', op, ty, ops, targets: [], parent, name: '', ...extra };
}

const isGenericPtr = (v: Value): boolean => v.ty.k === 'ptr' && (v.ty as { as: number }).as === AS.generic;

export function inferAddressSpaces(f: Func): boolean {
  const entry = f.blocks[0];
  if (!entry) return false;
  const space = new Map<Value, number>();
  const origin = (v: Value): number => {
    if (!isGenericPtr(v)) return GENERIC;
    const known = space.get(v);
    if (known !== undefined) return known;
    switch (v.kind) {
      case 'arg': return f.isKernel && !v.byval ? AS.global : GENERIC;
      case 'inst': return v.op === 'alloca' ? AS.local : GENERIC;
      case 'cexpr': {
        if (v.op !== 'addrspacecast') return GENERIC;
        const b = v.base as Value;
        const as = b.ty.k === 'ptr' ? (b.ty as { as: number }).as : 0;
        return as === AS.global || as === AS.shared || as === AS.const ? as : GENERIC;
      }
      default: return GENERIC;
    }
  };
  // Forward dataflow over pointer-producing instructions, optimistic for phis.
  const ptrInsts: Inst[] = [];
  for (const b of f.blocks) for (const i of b.insts) {
    if (!isGenericPtr(i)) continue;
    if (i.op === 'gep' || i.op === 'phi' || i.op === 'select' || i.op === 'addrspacecast') { ptrInsts.push(i); space.set(i, TOP); }
  }
  const meet = (a: number, b: number): number => (a === TOP ? b : b === TOP ? a : a === b ? a : GENERIC);
  for (let changed = true; changed;) {
    changed = false;
    for (const i of ptrInsts) {
      let s: number;
      if (i.op === 'addrspacecast') {
        const from = i.ops[0]!.ty.k === 'ptr' ? (i.ops[0]!.ty as { as: number }).as : 0;
        s = from === AS.global || from === AS.shared || from === AS.const ? from : GENERIC;
      } else if (i.op === 'gep') {
        s = origin(i.ops[0]!);
        if (i.ops.slice(1).some(x => x.ty.k === 'ptr')) s = GENERIC;
      } else {
        s = TOP;
        for (const o of i.op === 'phi' ? i.ops : i.ops.slice(1)) s = meet(s, o === i ? TOP : origin(o));
      }
      if (s !== space.get(i)) { space.set(i, s); changed = true; }
    }
  }
  for (const i of ptrInsts) if (space.get(i) === TOP) space.set(i, GENERIC);

  // Materialise the specific-space twin of a generic pointer with a known space.
  const twin = new Map<Value, Value>();
  const argCasts: Inst[] = [];
  const specific = (v: Value, s: number): Value => {
    const t = twin.get(v);
    if (t) return t;
    const ty = ptrTy(s);
    let r: Value;
    if (v.kind === 'arg' || (v.kind === 'inst' && v.op === 'alloca')) {
      const c = mk(entry, 'addrspacecast', ty, [v], { name: v.name ? `${v.name}.${v.kind === 'arg' ? 'global' : 'local'}` : '' });
      argCasts.push(c);
      r = c;
    } else if (v.kind === 'cexpr') {
      r = v.base as Value;
    } else if (v.kind === 'inst' && v.op === 'addrspacecast') {
      r = v.ops[0]!;
    } else if (v.kind === 'inst' && v.op === 'gep') {
      const g = mk(v.parent!, 'gep', ty, [], { srcTy: v.srcTy, inbounds: v.inbounds, loc: v.loc });
      twin.set(v, g);
      g.ops = [specific(v.ops[0]!, s), ...v.ops.slice(1)];
      const b = v.parent!;
      b.insts.splice(b.insts.indexOf(v) + 1, 0, g);
      return g;
    } else if (v.kind === 'inst' && (v.op === 'phi' || v.op === 'select')) {
      const n = mk(v.parent!, v.op, ty, [], { targets: v.targets.slice(), loc: v.loc });
      twin.set(v, n);
      const b = v.parent!;
      b.insts.splice(b.insts.indexOf(v) + 1, 0, n);
      n.ops = v.op === 'phi' ? v.ops.map(o => specific(o, s)) : [v.ops[0]!, specific(v.ops[1]!, s), specific(v.ops[2]!, s)];
      return n;
    } else throw new Error('addrspace: no twin for ' + v.kind);
    twin.set(v, r);
    return r;
  };

  let changed = false;
  for (const b of f.blocks) for (const i of b.insts.slice()) {
    // memcpy/memmove/memset keep generic operands (their signature), but get them as a cast of the
    // specific pointer, which the backend addresses directly
    const callee = i.op === 'call' ? i.ops[0]! : null;
    if (callee && callee.kind === 'func' && /^llvm\.mem(cpy|move|set)\./.test(callee.name)) {
      const ptrArgs = callee.name.startsWith('llvm.memset.') ? [1] : [1, 2];
      for (const k of ptrArgs) {
        const p = i.ops[k]!;
        if (!isGenericPtr(p) || (p.kind === 'inst' && p.op === 'addrspacecast')) continue;
        const s = origin(p);
        if (s < 0) continue;
        const c = mk(b, 'addrspacecast', p.ty, [specific(p, s)], { loc: i.loc });
        b.insts.splice(b.insts.indexOf(i), 0, c);
        i.ops[k] = c;
        changed = true;
      }
      continue;
    }
    const k = i.op === 'load' || i.op === 'atomicrmw' || i.op === 'cmpxchg' ? 0 : i.op === 'store' ? 1 : -1;
    if (k < 0) continue;
    const p = i.ops[k]!;
    if (!isGenericPtr(p)) continue;
    const s = origin(p);
    if (s < 0) continue;
    // atomics exist for generic, global and shared memory only (a thread's own local variable keeps the
    // generic access the program asked for)
    if (s === AS.local && i.op !== 'load' && i.op !== 'store') continue;
    i.ops[k] = specific(p, s);
    changed = true;
  }
  if (argCasts.length) {
    let at = 0; while (at < entry.insts.length && entry.insts[at]!.op === 'alloca') at++;
    // parameters in order, then allocas in entry order: deterministic
    const rank = (c: Inst): number => { const o = c.ops[0]!; return o.kind === 'arg' ? o.index : 1e6 + entry.insts.indexOf(o as Inst); };
    entry.insts.splice(at, 0, ...argCasts.sort((a, b) => rank(a) - rank(b)));
  }
  return changed;
}
