// Early CSE over the dominator tree: pure expressions and loads (with store-to-load forwarding) reused
// where no write can have happened since.
import type { Block, Func, Inst, Type, Value } from '../ir';
import { sizeOf, typeStr } from '../ir';
import { ExprTable } from './cse-exprs';
import { constStr } from '../llprint';
import { buildCFG } from '../analysis/cfg';
import { applyReplacements, removeInsts, resolve } from '../analysis/uses';
import { PURE_OPS, distinctObjects, isPureCallee, mayWriteMemory, memLoc } from '../analysis/memory';

interface MemEntry { v: Value; loc: { base: Value; off: number; size: number } | null }

export function cse(f: Func): boolean {
  const cfg = buildCFG(f);
  // Every operand, type and opcode gets a number for the run: an instruction, argument, global or function
  // by identity, a constant by its spelling (constants are not unique objects), a type by its spelling.
  // Numbers keep the expression table's keys short and free of string building.
  const ids = new Map<unknown, number>();
  const spelled = new Map<string, number>();
  const intern = (s: string): number => { let n = spelled.get(s); if (n === undefined) { n = spelled.size; spelled.set(s, n); } return n; };
  const tyId = (t: Type): number => { let n = ids.get(t); if (n === undefined) { n = intern(typeStr(t)); ids.set(t, n); } return n; };
  const id = (v: Value): number => {
    let n = ids.get(v);
    if (n === undefined) {
      switch (v.kind) {
        case 'inst': case 'arg': case 'global': case 'func': case 'asm': n = -1 - ids.size; break;
        default: n = intern(`${typeStr(v.ty)} ${constStr(v)}`);
      }
      ids.set(v, n);
    }
    return n;
  };
  const exprs = new ExprTable(tyId, id);
  const repl = new Map<Value, Value>();
  const dead = new Set<Inst>();
  // the expressions available in the current block (dominating ones included): one table, with the
  // expressions each open dominator-tree scope added, removed when it closes
  const scope: number[] = [];
  // Available memory values (loads, and stored values for store-to-load forwarding): the ones no write can
  // have changed since they were seen, on any path (EarlyCSE's rule). A write empties the set (a plain store
  // keeps what is known of bytes it cannot touch), and so does entering a block that other paths may reach
  // (several predecessors); a block whose only predecessor is its immediate dominator starts from the set
  // its parent ended with.
  // an address by its base and constant offset: `&o[1]` and `(char *)o + 4` are the same place
  const memKey = (ty: Type, p: Value, loc: { base: Value; off: number } | null): string =>
    loc ? `${tyId(ty)}|${id(loc.base)}@${loc.off}` : `${tyId(ty)}|${id(p)}`;
  // iterative dominator-tree walk with scope push/pop; the last child to be walked takes its parent's
  // final set, the others a copy
  const stack: [Block, boolean, Map<string, MemEntry> | null, boolean][] = cfg.rpo.length ? [[cfg.rpo[0]!, false, null, false]] : [];
  while (stack.length) {
    const [b, done, parentMem, own] = stack.pop()!;
    if (done) { exprs.closeScope(scope.pop()!); continue; }
    scope.push(exprs.size);
    const preds = cfg.preds.get(b) ?? [];
    let mem = parentMem && preds.length === 1 && cfg.idom.get(b) === preds[0] ? (own ? parentMem : new Map(parentMem)) : new Map<string, MemEntry>();
    for (const i of b.insts) {
      for (let k = 0; k < i.ops.length; k++) { const x = i.ops[k]!; if (repl.has(x)) i.ops[k] = resolve(repl, x); }
      if (PURE_OPS.has(i.op) || (i.op === 'call' && isPureCallee(i.ops[0]!))) {
        const prev = exprs.findOrAdd(i);
        if (prev) { repl.set(i, prev); dead.add(i); }
      } else if (i.op === 'load' && !i.volatile && !i.ordering) {
        const loc = memLoc(i.ops[0]!, sizeOf(i.ty));
        const k = memKey(i.ty, i.ops[0]!, loc);
        const prev = mem.get(k);
        if (prev) { repl.set(i, prev.v); dead.add(i); } else mem.set(k, { v: i, loc });
      } else if (mayWriteMemory(i) || i.op === 'load') {
        if (i.op === 'store' && !i.volatile && !i.ordering) {
          // a store leaves what is known of other bytes at constant offsets from the same base (a
          // constructor's stores after its vptr store do not hide the vptr from a virtual call; `*log`
          // updates through o + 1 keep o[0] known)
          const at = memLoc(i.ops[1]!, sizeOf(i.ops[0]!.ty));
          if (at) {
            for (const [k, x] of mem) {
              const disjoint = x.loc && (x.loc.base === at.base
                ? x.loc.off + x.loc.size <= at.off || at.off + at.size <= x.loc.off
                : distinctObjects(x.loc.base, at.base));
              if (!disjoint) mem.delete(k);
            }
          } else mem.clear();
          // a plain store makes its value available to later loads of the same address and type
          mem.set(memKey(i.ops[0]!.ty, i.ops[1]!, at), { v: i.ops[0]!, loc: at });
        } else mem.clear();
      }
    }
    const ch = cfg.children.get(b) ?? [];
    stack.push([b, true, null, false]);
    for (let c = ch.length - 1; c >= 0; c--) stack.push([ch[c]!, false, mem, c === ch.length - 1]);
  }
  applyReplacements(f, repl);
  removeInsts(f, dead);
  return dead.size > 0;
}
