// LICM: hoists loop-invariant pure computations (arithmetic, casts, compares, geps, readnone calls such
// as special-register reads) into the loop's preheader, creating one when needed. Loads move only from
// the loop header (so they executed on every entry anyway), only when the loop writes no memory at all
// (no store, atomic, fence, barrier or call with effects) and only when they are neither volatile nor
// atomic. Division and remainder move only with a non-zero constant divisor (no new UB).
import type { Block, Func, Inst, Value } from '../ir';
import { T } from '../ir';
import { buildCFG, succsOf, type CFG } from '../analysis/cfg';
import { dominates } from '../analysis/dominance';

const PURE = new Set(['add', 'sub', 'mul', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor', 'fadd', 'fsub', 'fmul', 'fdiv', 'frem', 'fneg',
  'icmp', 'fcmp', 'select', 'gep', 'extractvalue', 'insertvalue', 'trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi',
  'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);

function pureCall(i: Inst): boolean {
  const c = i.ops[0]!;
  return c.kind === 'func' && !!c.attrs.readnone && !c.attrs.convergent && c.fnTy.ret.k !== 'void' && !/clock|globaltimer/.test(c.name);
}

function writesMemory(i: Inst): boolean {
  switch (i.op) {
    case 'store': case 'atomicrmw': case 'cmpxchg': case 'fence': return true;
    case 'load': return !!i.volatile || !!i.ordering;
    case 'call': return !pureCall(i);
    default: return false;
  }
}

/** The object a pointer is derived from through geps and casts. */
function underlying(p: Value): Value {
  let cur = p;
  for (;;) {
    if (cur.kind === 'inst' && (cur.op === 'gep' || cur.op === 'addrspacecast' || cur.op === 'bitcast')) cur = cur.ops[0]!;
    else if (cur.kind === 'cexpr' && (cur.op === 'gep' || cur.op === 'addrspacecast' || cur.op === 'bitcast')) cur = cur.base as Value;
    else return cur;
  }
}

/** An alloca whose address is only used to address memory (never stored, passed or compared). */
function nonEscaping(a: Inst, f: Func): boolean {
  const derived = new Set<Value>([a]);
  for (const b of f.blocks) for (const i of b.insts) {
    const uses = i.ops.some(o => derived.has(o));
    if (!uses) continue;
    if (i.op === 'gep' && derived.has(i.ops[0]!) && !i.ops.slice(1).some(o => derived.has(o))) { derived.add(i); continue; }
    if (i.op === 'addrspacecast' && derived.has(i.ops[0]!)) { derived.add(i); continue; }
    if (i.op === 'load' && derived.has(i.ops[0]!)) continue;
    if (i.op === 'store' && derived.has(i.ops[1]!) && !derived.has(i.ops[0]!)) continue;
    return false;
  }
  return true;
}

/** Can a store through `sp` change what a load through `lp` reads? Distinct identified objects cannot. */
function mayAlias(f: Func, lp: Value, sp: Value): boolean {
  const a = underlying(lp), b = underlying(sp);
  if (a === b) return true;
  const identified = (v: Value): boolean => v.kind === 'global' || (v.kind === 'inst' && v.op === 'alloca' && nonEscaping(v, f));
  if (identified(a) && identified(b)) return false;
  // a private alloca is not reachable through any other pointer
  if ((a.kind === 'inst' && a.op === 'alloca' && nonEscaping(a, f)) || (b.kind === 'inst' && b.op === 'alloca' && nonEscaping(b, f))) return false;
  return true;
}

/** Always safe to load from (a variable itself, not a pointer into it): a global or an alloca. */
function dereferenceable(p: Value): boolean {
  let cur = p;
  while (cur.kind === 'cexpr' && (cur.op === 'addrspacecast' || cur.op === 'bitcast')) cur = cur.base as Value;
  while (cur.kind === 'inst' && cur.op === 'addrspacecast') cur = cur.ops[0]!;
  return cur.kind === 'global' || (cur.kind === 'inst' && cur.op === 'alloca');
}

interface Loop { header: Block; blocks: Set<Block> }

function findLoops(cfg: CFG): Loop[] {
  const byHeader = new Map<Block, Set<Block>>();
  for (const b of cfg.rpo) for (const h of succsOf(b)) {
    if (!cfg.idom.has(h) || !dominates(cfg, h, b)) continue;
    let body = byHeader.get(h);
    if (!body) byHeader.set(h, body = new Set([h]));
    const work = [b];
    while (work.length) {
      const x = work.pop()!;
      if (body.has(x)) continue;
      body.add(x);
      for (const p of cfg.preds.get(x) ?? []) if (cfg.idom.has(p)) work.push(p);
    }
  }
  // inner loops first (smaller bodies), ties by header order: deterministic
  return [...byHeader].map(([header, blocks]) => ({ header, blocks }))
    .sort((a, b) => a.blocks.size - b.blocks.size || cfg.rpoIndex.get(a.header)! - cfg.rpoIndex.get(b.header)!);
}

/** The loop's preheader, created (with phis split) when the header has no single dedicated outside predecessor. */
function preheader(f: Func, cfg: CFG, loop: Loop): Block {
  const h = loop.header;
  const outside = (cfg.preds.get(h) ?? []).filter(p => !loop.blocks.has(p));
  if (outside.length === 1 && succsOf(outside[0]!).length === 1) return outside[0]!;
  const ph: Block = { name: `${h.name || 'loop'}.ph`, insts: [], parent: f };
  const outSet = new Set(outside);
  for (const p of outSet) {
    const t = p.insts[p.insts.length - 1]!;
    t.targets = t.targets.map(x => (x === h ? ph : x));
  }
  for (const phi of h.insts) {
    if (phi.op !== 'phi') break;
    const vals: Value[] = [], blocks: Block[] = [];
    const keepV: Value[] = [], keepB: Block[] = [];
    phi.ops.forEach((v, k) => {
      if (outSet.has(phi.targets[k]!)) { vals.push(v); blocks.push(phi.targets[k]!); } else { keepV.push(v); keepB.push(phi.targets[k]!); }
    });
    let v: Value;
    if (vals.every(x => x === vals[0])) v = vals[0]!;
    else {
      const np: Inst = { kind: 'inst', op: 'phi', ty: phi.ty, ops: vals, targets: blocks, parent: ph, name: '' };
      ph.insts.push(np);
      v = np;
    }
    phi.ops = [...keepV, v];
    phi.targets = [...keepB, ph];
  }
  ph.insts.push({ kind: 'inst', op: 'br', ty: T.void, ops: [], targets: [h], parent: ph, name: '' });
  f.blocks.splice(f.blocks.indexOf(h), 0, ph);
  return ph;
}

export function licm(f: Func): boolean {
  let changed = false;
  for (let round = 0; round < 64; round++) {
    const cfg = buildCFG(f);
    const loops = findLoops(cfg);
    let hoistedAny = false;
    for (const loop of loops) {
      const body = cfg.rpo.filter(b => loop.blocks.has(b));
      const defined = new Set<Inst>();
      for (const b of body) for (const i of b.insts) defined.add(i);
      // plain stores are checked against each load; anything else that writes (atomics, fences,
      // barriers and other calls) keeps every load in place
      const stores: Inst[] = [];
      let opaqueWrites = false;
      for (const b of body) for (const i of b.insts) {
        if (i.op === 'store' && !i.volatile && !i.ordering) stores.push(i);
        else if (writesMemory(i)) opaqueWrites = true;
      }
      const loadInvariant = (l: Inst): boolean => !opaqueWrites && stores.every(st => !mayAlias(f, l.ops[0]!, st.ops[1]!));
      const invariant = (v: Value): boolean => v.kind !== 'inst' || !defined.has(v);
      const hoist: Inst[] = [];
      for (const b of body) {
        // a load may move only from the header, before anything there that writes memory: it then ran
        // on every entry to the loop anyway, so moving it to the preheader adds no access
        let headerClean = b === loop.header;
        for (const i of b.insts) {
          if (writesMemory(i)) headerClean = false;
          if (i.op === 'phi' || !i.ops.every(invariant)) continue;
          let ok = PURE.has(i.op) || (i.op === 'call' && pureCall(i));
          if (!ok && (i.op === 'udiv' || i.op === 'sdiv' || i.op === 'urem' || i.op === 'srem')) {
            const d = i.ops[1]!;
            ok = d.kind === 'int' && d.value !== 0n && !(d.value === -1n && (i.op === 'sdiv' || i.op === 'srem'));
          }
          if (!ok && i.op === 'load') ok = (headerClean || dereferenceable(i.ops[0]!)) && !i.volatile && !i.ordering && loadInvariant(i);
          if (!ok) continue;
          hoist.push(i);
          defined.delete(i);
        }
      }
      if (hoist.length === 0) continue;
      const ph = preheader(f, cfg, loop);
      const hs = new Set(hoist);
      for (const b of body) b.insts = b.insts.filter(i => !hs.has(i));
      const term = ph.insts.pop()!;
      for (const i of hoist) { i.parent = ph; ph.insts.push(i); }
      ph.insts.push(term);
      hoistedAny = true;
      changed = true;
      break; // the CFG may have changed: recompute loops
    }
    if (!hoistedAny) break;
  }
  return changed;
}
