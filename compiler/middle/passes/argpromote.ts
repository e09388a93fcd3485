// Argument promotion: a pointer parameter of a device function that every caller calls directly, and
// that the callee only loads from at constant offsets, becomes one scalar parameter per loaded
// (offset, type); each call site loads those values itself. A `const T &`, `const T *` or by-value
// aggregate argument of a function that was not inlined then no longer needs the caller's object in
// memory: the caller's SROA turns it into registers (no .local traffic), as the real cicc does.
import type { CompileOptions } from '../../options';
import type { Arg, Func, Inst, Module, Type, Value } from '../ir';
import { T, cInt, funcTy, sizeOf as sizeOfTy } from '../ir';
import { constGepOffset } from '../analysis/gep';

const MAX_NEW_PARAMS = 8;   // per promoted argument: beyond that, passing the pointer is cheaper

interface Part { off: number; ty: Type; align: number }
interface Plan { parts: Part[]; loads: Map<Inst, number> }  // load -> index into parts

const scalarTy = (t: Type): boolean => t.k === 'int' || t.k === 'float' || t.k === 'double' || t.k === 'half' || t.k === 'bfloat' || t.k === 'ptr';

/** Calls that cannot write memory (read-only intrinsics such as special-register reads). */
function callWritesMemory(i: Inst): boolean {
  const c = i.ops[0]!;
  if (c.kind !== 'func') return true;
  if (c.attrs.readnone) return false;
  return !/^llvm\.nvvm\.read\.ptx\.sreg\./.test(c.name);
}

function writesMemory(f: Func): boolean {
  for (const b of f.blocks) for (const i of b.insts) {
    if (i.op === 'store' || i.op === 'atomicrmw' || i.op === 'cmpxchg' || i.op === 'fence') return true;
    if (i.op === 'call' && callWritesMemory(i)) return true;
    if (i.op === 'load' && i.volatile) return true;
  }
  return false;
}

/**
 * How argument `a` of `f` can be promoted, or null. A by-value aggregate is the callee's private copy,
 * so its loads may sit anywhere; any other pointer is loaded by the caller before the call, which is
 * only exact when the callee writes no memory (nothing can change the value in between) and loads it
 * in the entry block (so the caller's load happens only when the callee's would), or anywhere when the
 * argument is a reference, which is bound to an object the caller may read.
 */
function planArg(f: Func, a: Arg, users: Map<Value, Inst[]>, calleeWrites: boolean): Plan | null {
  if (a.ty.k !== 'ptr' || a.sret) return null;
  const byval = !!a.byval;
  // a C++ reference (dereferenceable): the caller may load it even where the callee loads it conditionally
  const derefAttr = a.attrs.find(x => x.startsWith('dereferenceable('));
  const deref = derefAttr ? Number(derefAttr.slice('dereferenceable('.length, -1)) : 0;
  if (!byval && calleeWrites) return null;
  const entry = f.blocks[0]!;
  const parts: Part[] = [];
  const loads = new Map<Inst, number>();
  const work: [Value, number][] = [[a, 0]];
  while (work.length) {
    const [p, base] = work.pop()!;
    for (const u of users.get(p) ?? []) {
      if (u.op === 'gep' && u.ops[0] === p && u.ops.slice(1).every(x => x !== p)) {
        const off = constGepOffset(u);
        if (off === null) return null;
        work.push([u, base + off]);
        continue;
      }
      if (u.op !== 'load' || u.ops[0] !== p || u.volatile || !scalarTy(u.ty)) return null;
      if (!byval && u.parent !== entry && !(base >= 0 && base + sizeOfTy(u.ty) <= deref)) return null;
      let k = parts.findIndex(x => x.off === base && x.ty === u.ty);
      if (k < 0) { k = parts.length; parts.push({ off: base, ty: u.ty, align: u.align ?? 1 }); }
      else parts[k]!.align = Math.min(parts[k]!.align, u.align ?? 1);
      loads.set(u, k);
    }
  }
  if (parts.length > MAX_NEW_PARAMS) return null;
  return { parts, loads };
}

function userMap(f: Func): Map<Value, Inst[]> {
  const m = new Map<Value, Inst[]>();
  for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) {
    let l = m.get(o);
    if (!l) m.set(o, l = []);
    if (!l.includes(i)) l.push(i);
  }
  return m;
}

/** Direct call sites of every function, or null for a function used any other way (address taken). */
function callSites(m: Module): Map<Func, Inst[] | null> {
  const sites = new Map<Func, Inst[] | null>();
  const escape = (v: Value): void => { if (v.kind === 'func') sites.set(v, null); };
  const markConst = (c: Value): void => {
    escape(c);
    if (c.kind === 'agg') c.elems.forEach(markConst);
    else if (c.kind === 'cexpr') markConst(c.base);
  };
  for (const g of m.globals) if (g.init) markConst(g.init);
  for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts) {
    i.ops.forEach((o, k) => {
      if (k === 0 && i.op === 'call' && o.kind === 'func') {
        if (sites.get(o) === null) return;
        if (i.fnTy !== o.fnTy) { sites.set(o, null); return; }
        const l = sites.get(o) ?? [];
        l.push(i);
        sites.set(o, l);
      } else markConst(o);
    });
  }
  return sites;
}

/** Promotes arguments module-wide; returns whether anything changed. */
export function promoteArgs(m: Module, opts: CompileOptions): boolean {
  // Without -rdc no other unit can call a device function: all its callers are here (as for removal of dead functions).
  const device = m.triple.startsWith('nvptx');
  const local = (f: Func): boolean => f.linkage === 'internal' || f.linkage === 'private' || (device && !opts.rdc && f.linkage !== 'weak');
  const sites = callSites(m);
  let changed = false;
  for (const f of m.funcs) {
    if (!f.blocks.length || f.isKernel || !local(f) || f.fnTy.varargs) continue;
    const calls = sites.get(f);
    if (calls === null) continue;
    const users = userMap(f);
    const writes = writesMemory(f);
    const plans = f.params.map(a => planArg(f, a, users, writes));
    if (plans.every(p => p === null)) continue;
    if (calls) for (const c of calls) if (c.ops[0] === f && (c.parent?.parent === f)) { plans.fill(null); break; } // self-recursive: keep it simple
    if (plans.every(p => p === null)) continue;
    rewrite(f, plans, calls ?? []);
    changed = true;
  }
  return changed;
}

function rewrite(f: Func, plans: (Plan | null)[], calls: Inst[]): void {
  // the new parameter list: unpromoted arguments as they were, promoted ones replaced by their parts
  const newTys: Type[] = [];
  const layout: { old: Arg; plan: Plan | null; first: number }[] = [];
  f.params.forEach((a, k) => {
    const plan = plans[k]!;
    layout.push({ old: a, plan, first: newTys.length });
    if (plan) for (const p of plan.parts) newTys.push(p.ty);
    else newTys.push(a.ty);
  });
  const fnTy = funcTy(f.fnTy.ret, newTys) as Type & { k: 'func' };
  const params: Arg[] = newTys.map((ty, index) => ({ kind: 'arg', ty, index, name: '', attrs: [] }));
  const repl = new Map<Value, Value>();
  for (const { old, plan, first } of layout) {
    if (!plan) {
      const n = params[first]!;
      n.name = old.name; n.attrs = old.attrs.slice();
      if (old.byval) n.byval = old.byval;
      if (old.sret) n.sret = old.sret;
      if (old.align !== undefined) n.align = old.align;
      repl.set(old, n);
      continue;
    }
    plan.parts.forEach((p, j) => { params[first + j]!.name = `${old.name || 'arg'}.val${j}`; });
    for (const [ld, j] of plan.loads) repl.set(ld, params[first + j]!);
  }
  // the callee: loads of promoted arguments read the new parameters
  for (const b of f.blocks) {
    b.insts = b.insts.filter(i => !(i.op === 'load' && repl.has(i)));
    for (const i of b.insts) i.ops = i.ops.map(o => repl.get(o) ?? o);
  }
  // geps of promoted arguments are now dead; drop them so no use of an old Arg remains
  for (let again = true; again;) {
    again = false;
    const used = new Set<Value>();
    for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) used.add(o);
    for (const b of f.blocks) {
      const n = b.insts.length;
      b.insts = b.insts.filter(i => !(i.op === 'gep' && !used.has(i) && isFromOldArg(i, layout)));
      if (b.insts.length !== n) again = true;
    }
  }
  f.params = params;
  f.fnTy = fnTy;
  // every call site loads the parts itself, just before the call
  for (const call of calls) {
    const b = call.parent!;
    const at = b.insts.indexOf(call);
    const pre: Inst[] = [];
    const args: Value[] = [];
    layout.forEach(({ plan }, k) => {
      const v = call.ops[k + 1]!;
      if (!plan) { args.push(v); return; }
      for (const p of plan.parts) {
        let ptr: Value = v;
        if (p.off !== 0) {
          const g: Inst = { kind: 'inst', op: 'gep', ty: v.ty, ops: [v, cInt(T.i64, p.off)], targets: [], parent: b, name: '', srcTy: T.i8, inbounds: true, loc: call.loc };
          pre.push(g);
          ptr = g;
        }
        const ld: Inst = { kind: 'inst', op: 'load', ty: p.ty, ops: [ptr], targets: [], parent: b, name: '', align: p.align, loc: call.loc };
        pre.push(ld);
        args.push(ld);
      }
    });
    call.ops = [f, ...args];
    call.fnTy = fnTy;
    b.insts.splice(at, 0, ...pre);
  }
}

function isFromOldArg(i: Inst, layout: { old: Arg; plan: Plan | null }[]): boolean {
  let v: Value = i;
  while (v.kind === 'inst' && v.op === 'gep') v = v.ops[0]!;
  return layout.some(l => l.plan && l.old === v);
}
