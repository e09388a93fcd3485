// Reassociation of integer sums (LLVM's Reassociate, for linear expressions): a tree of adds, subtracts,
// and products and shifts by constants is a sum of values times constants plus a constant; written again
// as that sum it needs fewer instructions when the tree repeats a value or spreads constants over its
// nodes. A fully unrolled `for (k = 0; k < 16; k++) s += t + k` is 31 adds and becomes `(t << 4) + 120`,
// as in cicc's PTX; `((x * 10) * 10 + 1) * 10` becomes `x * 1000 + 10`. The arithmetic is modulo 2^bits, so
// the rewrite is exact; the wrap flags of the old nodes are not kept (their intermediate sums are gone).
// Interior nodes are used once, in the same block: a value used elsewhere is a leaf, computed once.
import type { Block, Func, Inst, Value } from '../ir';
import { cInt } from '../ir';
import { U, S, isIntConst } from '../analysis/values';

/** The most nodes one tree may have (a bigger one is left alone). */
const MAX_NODES = 256;

const linear = (i: Inst): boolean => {
  if (i.ty.k !== 'int' || i.ty.bits < 8 || i.ty.bits > 64) return false;
  if (i.op === 'add' || i.op === 'sub') return true;
  if (i.op === 'mul') return isIntConst(i.ops[1]!) || isIntConst(i.ops[0]!);
  return i.op === 'shl' && isIntConst(i.ops[1]!) && U(i.ops[1].value, i.ty.bits) < BigInt(i.ty.bits);
};

interface Form { terms: Map<Value, bigint>; order: Value[]; konst: bigint; nodes: number }

/** The linear form of the tree rooted at `root`, or null when it is too big. */
function linearForm(root: Inst, interior: (v: Value) => boolean): Form | null {
  const bits = (root.ty as { bits: number }).bits;
  const form: Form = { terms: new Map(), order: [], konst: 0n, nodes: 0 };
  const walk = (v: Value, coef: bigint): boolean => {
    if (isIntConst(v)) { form.konst = U(form.konst + coef * v.value, bits); return true; }
    if (v === root || interior(v)) {
      const i = v as Inst;
      if (++form.nodes > MAX_NODES) return false;
      const [a, b] = i.ops as [Value, Value];
      switch (i.op) {
        case 'add': return walk(a, coef) && walk(b, coef);
        case 'sub': return walk(a, coef) && walk(b, U(-coef, bits));
        case 'mul': return isIntConst(b) ? walk(a, U(coef * b.value, bits)) : walk(b, U(coef * (a as { value: bigint }).value, bits));
        case 'shl': return walk(a, U(coef << U((b as { value: bigint }).value, bits), bits));
      }
      return false;
    }
    const old = form.terms.get(v);
    if (old === undefined) form.order.push(v);
    form.terms.set(v, U((old ?? 0n) + coef, bits));
    return true;
  };
  return walk(root, 1n) ? form : null;
}

const isPow2 = (c: bigint): boolean => c > 1n && (c & (c - 1n)) === 0n;

/**
 * The sum written out before `at` into `out` (nothing is inserted yet); returns its value (the last new
 * instruction, a leaf or a constant). Terms times a positive constant are added, then those times minus
 * one or a negative power of two subtracted, then the constant added.
 */
function emit(form: Form, at: Inst, b: Block, out: Inst[]): Value {
  const ty = at.ty, bits = (ty as { bits: number }).bits;
  const mk = (op: Inst['op'], x: Value, y: Value): Inst => {
    const i: Inst = { kind: 'inst', op, ty, ops: [x, y], targets: [], parent: b, name: '', loc: at.loc };
    out.push(i);
    return i;
  };
  const times = (v: Value, m: bigint): Value => (m === 1n ? v : isPow2(m) ? mk('shl', v, cInt(ty, BigInt(m.toString(2).length - 1))) : mk('mul', v, cInt(ty, S(m, bits))));
  const pos: [Value, bigint][] = [], neg: [Value, bigint][] = [];
  for (const v of form.order) {
    const c = S(form.terms.get(v)!, bits);
    if (c === 0n) continue;
    if (c < 0n && (c === -1n || isPow2(-c))) neg.push([v, -c]); else pos.push([v, U(c, bits)]);
  }
  const konst = cInt(ty, S(form.konst, bits));
  let acc: Value | null = null;
  for (const [v, m] of pos) { const t = times(v, m); acc = acc ? mk('add', acc, t) : t; }
  let konstUsed = false;
  if (!acc && neg.length) { acc = konst; konstUsed = true; }
  for (const [v, m] of neg) acc = mk('sub', acc!, times(v, m));
  if (!acc) return konst;
  if (form.konst !== 0n && !konstUsed) acc = mk('add', acc, konst);
  return acc;
}

/** Rewrites the linear integer trees of f as sums where that needs fewer instructions. True when f changed. */
export function reassociate(f: Func): boolean {
  const uses = new Map<Value, Inst[]>();
  for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops) if (o.kind === 'inst') {
    let l = uses.get(o); if (!l) uses.set(o, l = []); l.push(i);
  }
  // an interior node: linear, used once, by a linear node of its block (that node's tree takes it in)
  const interior = (v: Value): boolean => {
    if (v.kind !== 'inst' || !linear(v)) return false;
    const us = uses.get(v);
    return us?.length === 1 && us[0]!.parent === v.parent && linear(us[0]!) && us[0]!.ty === v.ty;
  };
  let changed = false;
  const replace = new Map<Inst, Value>();
  for (const b of f.blocks) {
    for (let k = 0; k < b.insts.length; k++) {
      const root = b.insts[k]!;
      if (!linear(root) || interior(root)) continue;
      // an index widened for an address keeps its wrap flags (the backend folds `(i +nsw c) * 4` into `[p+4c]`)
      if (uses.get(root)?.some(u => u.op === 'sext' || u.op === 'zext')) continue;
      const form = linearForm(root, interior);
      if (!form || form.nodes < 2) continue;
      const out: Inst[] = [];
      const v = emit(form, root, b, out);
      if (out.length >= form.nodes) continue;
      const last: Inst | undefined = out[out.length - 1];
      if (last && (v as Value) === (last as Value)) {
        // the root becomes the sum's last instruction: its users stay as they are
        out.pop();
        root.op = last.op; root.ops = last.ops; root.nsw = undefined; root.nuw = undefined; root.exact = undefined;
      } else replace.set(root, v);
      b.insts.splice(k, 0, ...out);
      k += out.length;
      changed = true;
    }
  }
  if (replace.size) for (const b of f.blocks) for (const i of b.insts) for (let k = 0; k < i.ops.length; k++) {
    const r = replace.get(i.ops[k] as Inst);
    if (r) i.ops[k] = r;
  }
  return changed;
}
