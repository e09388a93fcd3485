// Loop rotation (LLVM's loop-rotate): a loop tested at the top (`for`/`while` as the front end emits them:
// header = phis + exit test, body, latch jumping back) becomes a guard plus a loop tested at the bottom.
// The header's test is copied into the latch, which then branches back to the body or leaves; the old
// header runs once, as the guard, and the body's first block becomes the header, with phis merging the
// guard's values and the latch's. Each iteration then runs one branch instead of two, and the loop has
// the shape runtime unrolling needs (one exiting block, the latch).
//
// Only small headers are copied (a few pure instructions: the test and its arithmetic). A loop with early
// exits (`break`, `return` in the body) is rotated too, as LLVM does: after an early exit the header's
// values are those of the new header's phis, after the latch's test those of the exit's phis; a block
// reached both ways would need a phi merging the two, and such a loop is left as it is.
// No block is added or removed: one pass over the loops found once.
import type { Block, Func, Inst, Value } from '../ir';
import { cloneInst, T } from '../ir';
import { buildCFG, succsOf, type CFG } from '../analysis/cfg';
import { loopsOf, type Loop } from '../analysis/loops';
import { dominates } from '../analysis/dominance';
import { phisOf } from '../analysis/uses';
import { threadHeaderTests } from './header-thread';

/** Most non-phi instructions a header may have to be copied (LLVM's rotation threshold is of this order). */
const MAX_HEADER = 16;

const COPYABLE = new Set(['add', 'sub', 'mul', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor', 'icmp', 'fcmp', 'select', 'gep',
  'trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast',
  'addrspacecast', 'fadd', 'fsub', 'fmul', 'fneg', 'extractvalue', 'load']);

type Uses = Map<Value, { user: Inst; k: number }[]>;

export function rotateLoops(f: Func): boolean {
  const threaded = threadHeaderTests(f);
  const cfg = buildCFG(f);
  const loops = loopsOf(cfg).filter(l => rotatable(cfg, l));
  if (!loops.length) return threaded;
  // the uses of the header values, found in one scan (rotating a loop adds uses only inside loops)
  const defs = new Set<Value>();
  for (const l of loops) for (const i of l.header.insts) defs.add(i);
  const uses: Uses = new Map();
  for (const b of f.blocks) for (const i of b.insts) i.ops.forEach((o, k) => {
    if (!defs.has(o)) return;
    let u = uses.get(o);
    if (!u) uses.set(o, u = []);
    u.push({ user: i, k });
  });
  let changed = false;
  for (const loop of loops) if (rotate(cfg, loop, loops, uses, defs)) changed = true;
  return changed || threaded;
}

/** The body's first block, when the loop has the rotatable shape; null otherwise. */
function rotatable(cfg: CFG, loop: Loop): { body: Block; exit: Block; split: boolean } | null {
  const h = loop.header, l = loop.latch;
  if (h === l || !(cfg.preds.get(h) ?? []).some(p => !loop.blocks.has(p))) return null;
  const term = h.insts[h.insts.length - 1]!;
  if (term.op !== 'condbr') return null;
  const [t0, t1] = term.targets as [Block, Block];
  if (loop.blocks.has(t0) === loop.blocks.has(t1)) return null;
  const body = loop.blocks.has(t0) ? t0 : t1, exit = body === t0 ? t1 : t0;
  // the body's first block gets the new phis; it must have none of its own (they would lack the latch's entry)
  // (when it has, or is entered from elsewhere too, as an inner loop's header is, an empty block is put before it)
  if (body === h) return null;
  const split = (cfg.preds.get(body) ?? []).length !== 1 || body.insts[0]?.op === 'phi';
  // a latch that may leave too (`if (++n > max) return -1;` before the back edge) gets a block of its own
  // for the header's copy: exitingLatch() splits it
  const lt = l.insts[l.insts.length - 1]!;
  if (lt.op !== 'br' && !(lt.op === 'condbr' && lt.targets.filter(t => t === h).length === 1 && lt.targets.some(t => !loop.blocks.has(t)))) return null;
  const rest = h.insts.slice(phisOf(h).length, -1);
  if (rest.length > MAX_HEADER) return null;
  for (const i of rest) if (!COPYABLE.has(i.op) || (i.op === 'load' && (i.volatile || i.ordering))) return null;
  return { body, exit, split };
}

/** The blocks outside the loop that blocks of its body (not the header) branch to. */
function earlyExits(loop: Loop): Block[] {
  const out = new Set<Block>();
  for (const b of loop.blocks) if (b !== loop.header) for (const s of succsOf(b)) if (!loop.blocks.has(s)) out.add(s);
  return [...out];
}

/**
 * The blocks `h` dominates that are reached from `from` by paths not going through `h` (which redefines its
 * values). Only those can read the header's values, and a path that leaves them comes back through `h`.
 */
function reachedFrom(cfg: CFG, from: Block[], h: Block): Set<Block> {
  const seen = new Set<Block>();
  const work = [...from];
  while (work.length) {
    const b = work.pop()!;
    if (b === h || seen.has(b) || !cfg.idom.has(b) || !dominates(cfg, h, b)) continue;
    seen.add(b);
    work.push(...succsOf(b));
  }
  return seen;
}

/** A new latch after `loop`'s latch that leaves the loop: the old latch's back edge goes through it. */
function splitLatch(loop: Loop, loops: Loop[]): Block {
  const l = loop.latch, f = l.parent!;
  const nl: Block = { name: `${l.name}.rot`, insts: [], parent: f };
  nl.insts.push({ kind: 'inst', op: 'br', ty: T.void, ops: [], targets: [loop.header], parent: nl, name: '' });
  const term = l.insts[l.insts.length - 1]!;
  term.targets = term.targets.map(t => t === loop.header ? nl : t);
  for (const p of phisOf(loop.header)) p.targets = p.targets.map(t => t === l ? nl : t);
  f.blocks.splice(f.blocks.indexOf(l) + 1, 0, nl);
  // the loops around this one (rotated later) hold the new block too
  for (const o of loops) if (o.blocks.has(l)) o.blocks.add(nl);
  loop.latch = nl;
  return nl;
}

/** An empty block on the edge from `loop`'s header to `body`, which becomes the body's first block. */
function splitEntry(loop: Loop, body: Block, loops: Loop[]): Block {
  const h = loop.header, f = h.parent!;
  const nb: Block = { name: `${body.name}.rot.pre`, insts: [], parent: f };
  nb.insts.push({ kind: 'inst', op: 'br', ty: T.void, ops: [], targets: [body], parent: nb, name: '' });
  const term = h.insts[h.insts.length - 1]!;
  term.targets = term.targets.map(t => t === body ? nb : t);
  for (const p of phisOf(body)) p.targets = p.targets.map(t => t === h ? nb : t);
  f.blocks.splice(f.blocks.indexOf(body), 0, nb);
  for (const o of loops) if (o.blocks.has(h)) o.blocks.add(nb);
  return nb;
}

function rotate(cfg: CFG, loop: Loop, loops: Loop[], uses: Uses, defs: Set<Value>): boolean {
  // checked again: rotating an inner loop may have changed this one's blocks
  const shape = rotatable(cfg, loop);
  if (!shape) return false;
  const { exit } = shape;
  const h = loop.header;
  const phis = phisOf(h);
  const own = h.insts.slice(0, -1);
  // uses outside the loop other than the exit's phis on the header's edge: those reached from the header's
  // exit need a phi in the exit, which must then be entered from the header or the loop only; those reached
  // from an early exit only read the new header's phis
  const early = earlyExits(loop);
  const fromExit = early.length ? reachedFrom(cfg, [exit], h) : null;
  const fromEarly = early.length ? reachedFrom(cfg, early, h) : null;
  const outsideUses: { user: Inst; k: number }[] = [];
  const earlyUses: { user: Inst; k: number }[] = [];
  for (const d of own) for (const u of uses.get(d) ?? []) {
    const b = u.user.parent!;
    if (u.user.ops[u.k] !== d || loop.blocks.has(b)) continue;
    // a phi reads its operand at the end of the edge's source
    const at = u.user.op === 'phi' ? u.user.targets[u.k]! : b;
    if (at === h) continue;
    if (loop.blocks.has(at)) { earlyUses.push(u); continue; }
    const afterExit = fromExit === null || fromExit.has(at), afterEarly = fromEarly !== null && fromEarly.has(at);
    // reached both ways: through the exit, when an early exit leads there too (`while (j >= 0 && v[j] > x)`)
    if (afterExit === afterEarly && !(afterExit && dominates(cfg, exit, at))) return false;
    (afterExit ? outsideUses : earlyUses).push(u);
  }
  // the exit's phi for those merges the guard's value, the latch's and the new header's phis' from early exits
  const exitPreds = cfg.preds.get(exit) ?? [];
  if (outsideUses.length && (exitPreds.some(p => p !== h && !loop.blocks.has(p)) || new Set(exitPreds).size !== exitPreds.length)) return false;
  const l = loop.latch.insts[loop.latch.insts.length - 1]!.op === 'br' ? loop.latch : splitLatch(loop, loops);
  const body = shape.split ? splitEntry(loop, shape.body, loops) : shape.body;

  // the body sees each header value through a phi of the new header: the guard's value or the latch's
  const inBody = new Map<Value, Inst>();
  for (const d of own) {
    if (d.ty.k === 'void') continue;
    inBody.set(d, { kind: 'inst', op: 'phi', ty: d.ty, ops: [d], targets: [h], parent: body, name: '' });
  }
  // the latch's copy of the header: a header phi stands for its value from the latch, which is itself
  // seen through the new phis when the header defines it
  const atLatch = new Map<Value, Value>();
  const seen = (v: Value): Value => inBody.get(v) ?? v;
  for (const p of phis) atLatch.set(p, seen(p.ops[p.targets.indexOf(l)]!));
  const copies: Inst[] = [];
  for (const i of h.insts.slice(phis.length)) {
    const c: Inst = { ...cloneInst(i, l), ops: i.ops.map(o => atLatch.get(o) ?? o), name: '' };
    atLatch.set(i, c);
    copies.push(c);
  }
  for (const [d, phi] of inBody) { phi.ops.push(atLatch.get(d)!); phi.targets.push(l); }

  // body uses (not the new phis, not the copies) read the new phis
  for (const b of loop.blocks) {
    if (b === h) continue;
    for (const i of b.insts) i.ops.forEach((o, k) => { const p = inBody.get(o); if (p) i.ops[k] = p; });
  }
  l.insts.pop();
  l.insts.push(...copies);
  // the header's test is now the guard; the loop's test (and its #pragma unroll) is the latch's
  delete h.insts[h.insts.length - 1]!.unroll;
  body.insts.unshift(...inBody.values());
  // the header no longer has a back edge
  for (const p of phis) { const k = p.targets.indexOf(l); p.ops.splice(k, 1); p.targets.splice(k, 1); }
  // the exit is now also entered from the latch
  for (const p of phisOf(exit)) {
    const k = p.targets.indexOf(h);
    if (k < 0) continue;
    const v = p.ops[k]!;
    p.ops.push(atLatch.get(v) ?? v);
    p.targets.push(l);
  }
  const exitPhis = new Map<Value, Inst>();
  for (const u of outsideUses) {
    const v = u.user.ops[u.k]!;
    let phi = exitPhis.get(v);
    if (!phi) {
      const ops = exitPreds.map(p => p === h ? v : inBody.get(v)!);
      phi = { kind: 'inst', op: 'phi', ty: v.ty, ops: [...ops, atLatch.get(v)!], targets: [...exitPreds, l], parent: exit, name: '' };
      exitPhis.set(v, phi);
    }
    u.user.ops[u.k] = phi;
  }
  exit.insts.unshift(...exitPhis.values());
  for (const u of earlyUses) u.user.ops[u.k] = inBody.get(u.user.ops[u.k]!)!;
  // the new instructions' uses of header values of loops not rotated yet: a later rotation must see them
  // (the latch's copy of this header may read another loop's header value, which that rotation replaces)
  for (const i of [...copies, ...inBody.values(), ...exitPhis.values()]) i.ops.forEach((o, k) => {
    if (!defs.has(o)) return;
    let u = uses.get(o);
    if (!u) uses.set(o, u = []);
    u.push({ user: i, k });
  });
  return true;
}
