// Select formation (SimplifyCFG's two-entry phi folding): an if/else "triangle" or "diamond" whose arms
// only compute a few pure values for a phi becomes straight-line code with selects, the `selp`/`max`
// shape cicc emits for ternaries and min/max. Arms may hold only speculatable instructions (no memory
// access, no call, no division that could trap), so executing both is safe.
import type { Block, Func, Inst, Value } from '../ir';
import { buildCFG, succsOf } from '../analysis/cfg';

const SPECULATABLE = new Set(['add', 'sub', 'mul', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor', 'fadd', 'fsub', 'fmul', 'fneg',
  'icmp', 'fcmp', 'select', 'gep', 'trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'uitofp', 'sitofp', 'bitcast', 'addrspacecast',
  'ptrtoint', 'inttoptr', 'extractvalue', 'insertvalue']);
const MAX_ARM = 4;

function armOk(arm: Block, b: Block, join: Block, preds: Map<Block, Block[]>): boolean {
  const ps = preds.get(arm) ?? [];
  if (ps.length !== 1 || ps[0] !== b) return false;
  const t = arm.insts[arm.insts.length - 1]!;
  if (t.op !== 'br' || t.targets[0] !== join) return false;
  const body = arm.insts.slice(0, -1);
  return body.length <= MAX_ARM && body.every(i => SPECULATABLE.has(i.op));
}

export function formSelects(f: Func): boolean {
  let changed = false;
  for (let round = 0; round < 32; round++) {
    const cfg = buildCFG(f);
    let did = false;
    for (const j of cfg.rpo) {
      if (j.insts[0]?.op !== 'phi') continue;
      const jp = cfg.preds.get(j) ?? [];
      if (jp.length !== 2 || jp[0] === jp[1]) continue;
      // find the branching block and the arms
      let b: Block | null = null, arms: Block[] = [];
      for (const cand of jp) {
        const cp = cfg.preds.get(cand) ?? [];
        const other = jp[0] === cand ? jp[1]! : jp[0]!;
        // triangle: other branches to cand and j
        if (cp.length === 1 && cp[0] === other && armOk(cand, other, j, cfg.preds)) { b = other; arms = [cand]; break; }
      }
      if (!b) {
        const [x, y] = jp as [Block, Block];
        const px = cfg.preds.get(x) ?? [], py = cfg.preds.get(y) ?? [];
        if (px.length === 1 && py.length === 1 && px[0] === py[0] && armOk(x, px[0]!, j, cfg.preds) && armOk(y, px[0]!, j, cfg.preds)) { b = px[0]!; arms = [x, y]; }
      }
      if (!b || b === j || cfg.idom.get(j) !== b) continue;
      if (!j.insts.every(i => i.op !== 'phi' || i.ty.k === 'int' || i.ty.k === 'float' || i.ty.k === 'double' || i.ty.k === 'ptr')) continue;
      const bt = b.insts[b.insts.length - 1]!;
      if (bt.op !== 'condbr' || bt.targets[0] === bt.targets[1]) continue;
      const [tTarget, fTarget] = bt.targets as [Block, Block];
      if (!succsOf(b).every(s => s === j || arms.includes(s))) continue;
      const cond = bt.ops[0]!;
      // the block through which each side reaches j
      const viaTrue = tTarget === j ? b : tTarget;
      const viaFalse = fTarget === j ? b : fTarget;
      const pos = b.insts.length - 1;
      const moved: Inst[] = [];
      for (const arm of arms) for (const i of arm.insts.slice(0, -1)) { i.parent = b; moved.push(i); }
      const selects: Inst[] = [];
      const repl = new Map<Value, Value>();
      for (const phi of j.insts) {
        if (phi.op !== 'phi') break;
        const vt = phi.ops[phi.targets.indexOf(viaTrue)]!;
        const vf = phi.ops[phi.targets.indexOf(viaFalse)]!;
        const v: Value = vt === vf ? vt : (() => {
          const s: Inst = { kind: 'inst', op: 'select', ty: phi.ty, ops: [cond, vt, vf], targets: [], parent: b, name: phi.name, loc: phi.loc };
          selects.push(s);
          return s;
        })();
        repl.set(phi, v);
      }
      b.insts.splice(pos, 0, ...moved, ...selects);
      // b now jumps straight to j, which keeps no phis
      const br: Inst = { kind: 'inst', op: 'br', ty: bt.ty, ops: [], targets: [j], parent: b, name: '', loc: bt.loc };
      b.insts[b.insts.length - 1] = br;
      j.insts = j.insts.filter(i => i.op !== 'phi');
      const armSet = new Set(arms);
      f.blocks = f.blocks.filter(x => !armSet.has(x));
      for (const x of f.blocks) for (const i of x.insts) i.ops = i.ops.map(o => repl.get(o) ?? o);
      did = true;
      changed = true;
      break;
    }
    if (!did) break;
  }
  return changed;
}
