// Constant offsets out of array indices (LLVM's SeparateConstOffsetFromGEP, which the NVPTX pipeline runs
// late): `&a[i + C]` becomes `(&a[i]) + C * sizeof(elem)`. The variable part `&a[i]` is then the same value
// in every block that indexes `a` around `i` (CSE shares one address across an unrolled tree reduction's
// `s[t + 128]`, `s[t + 64]`, ... and `s[t]`), and the constant goes into the load/store's `[reg+off]`.
// Only addresses used by loads and stores are split, so the constant always folds into the access.
import type { Func, Inst, Value } from '../ir';
import { T, sizeOf, cInt } from '../ir';
import { constGepOffset } from '../analysis/gep';

/** The index as (variable part of type i64, constant) when it is `x + C` without signed or unsigned wrap. */
function splitIndex(idx: Value): { x: Value; ext: 'sext' | 'zext' | null; c: bigint } | null {
  if (idx.kind !== 'inst' || idx.ty !== T.i64) return null;
  const constAdd = (a: Value, flag: 'nsw' | 'nuw'): { x: Value; c: bigint } | null =>
    a.kind === 'inst' && a.op === 'add' && a[flag] && a.ops[1]!.kind === 'int' ? { x: a.ops[0]!, c: a.ops[1].value } : null;
  if (idx.op === 'add') { const s = constAdd(idx, 'nsw'); return s && { ...s, ext: null }; }
  if ((idx.op === 'sext' || idx.op === 'zext') && idx.ops[0]!.ty === T.i32) {
    const s = constAdd(idx.ops[0]!, idx.op === 'sext' ? 'nsw' : 'nuw');
    if (!s) return null;
    // the constant is an i32: sign- or zero-extend it as the index would be
    const c = idx.op === 'sext' ? BigInt.asIntN(32, s.c) : BigInt.asUintN(32, s.c);
    return { x: s.x, ext: idx.op, c };
  }
  return null;
}

export function separateConstOffsets(f: Func): boolean {
  const memUse = new Map<Inst, boolean>();
  for (const b of f.blocks) for (const i of b.insts) {
    i.ops.forEach((o, k) => {
      if (o.kind !== 'inst' || o.op !== 'gep') return;
      const asAddress = (i.op === 'load' && k === 0 && !i.volatile && !i.ordering) || (i.op === 'store' && k === 1 && !i.volatile && !i.ordering);
      memUse.set(o, (memUse.get(o) ?? true) && asAddress);
    });
  }
  let changed = false;
  for (const b of f.blocks) {
    for (let k = 0; k < b.insts.length; k++) {
      const g = b.insts[k]!;
      if (g.op !== 'gep' || g.ops.length !== 2 || !g.srcTy || memUse.get(g) !== true) continue;
      // `&buf[1][i]` is `gep (gep buf, 1), i`: the constant row moves outward too, so that the
      // variable part `&buf[0][i]` is shared with the other rows' addresses
      let base = g.ops[0]!, baseOff = 0n;
      if (base.kind === 'inst' && base.op === 'gep' && base.ty === g.ty) {
        const o = constGepOffset(base);
        if (o !== null && o !== 0) { baseOff = BigInt(o); base = base.ops[0]!; }
      }
      const s = splitIndex(g.ops[1]!) ?? (baseOff !== 0n ? { x: g.ops[1]!, ext: null, c: 0n } : null);
      if (!s || (s.c === 0n && baseOff === 0n)) continue;
      const size = BigInt(sizeOf(g.srcTy));
      if (size === 0n) continue;
      const mk = (op: Inst['op'], ty: Inst['ty'], ops: Value[], extra: Partial<Inst> = {}): Inst =>
        ({ kind: 'inst', op, ty, ops, targets: [], parent: b, name: '', loc: g.loc, ...extra });
      const added: Inst[] = [];
      let x = s.x;
      if (s.ext) { const e = mk(s.ext, T.i64, [x]); added.push(e); x = e; }
      // the split keeps the gep's inbounds mark so that `&a[i]` is the same value as an existing `&a[i]`
      // (CSE); nothing after this late pass reasons from inbounds about where &a[i] points
      const inner = mk('gep', g.ty, [base, x], { srcTy: g.srcTy, inbounds: g.inbounds });
      added.push(inner);
      b.insts.splice(k, 0, ...added);
      k += added.length;
      g.srcTy = T.i8;
      g.ops = [inner, cInt(T.i64, BigInt.asIntN(64, s.c * size + baseOff))];
      changed = true;
    }
  }
  return changed;
}
