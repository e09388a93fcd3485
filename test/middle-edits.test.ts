// BlockEdits (compiler/middle/passes/edits.ts) records "insert before i" and "replace i" and applies them in
// one walk per block. Checked against the plain way (an indexOf and a splice per edit, applied at once) on
// random edit sequences over several blocks, including edits of instructions that earlier edits added.
import { describe, it, expect } from 'vitest';
import type { Block, Func, Inst } from '../compiler/middle/ir';
import { T, cInt, newFunc, funcTy } from '../compiler/middle/ir';
import { BlockEdits } from '../compiler/middle/passes/edits';
import { rng } from '../bench/rng';

let serial = 0;
const inst = (parent: Block): Inst => ({ kind: 'inst', op: 'add', ty: T.i32, ops: [cInt(T.i32, serial), cInt(T.i32, 1)], targets: [], parent, name: `v${serial++}` });

function makeFunc(blocks: number, size: number): Func {
  const f = newFunc('f', funcTy(T.void, []) as never);
  for (let k = 0; k < blocks; k++) {
    const b: Block = { name: `b${k}`, insts: [], parent: f };
    for (let j = 0; j < size; j++) b.insts.push(inst(b));
    f.blocks.push(b);
  }
  return f;
}

describe('BlockEdits', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`gives the blocks that splicing each edit in turn gives (seed ${seed})`, () => {
      const rand = rng(seed);
      const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rand() * xs.length)]!;
      const f = makeFunc(3, 6);
      // the plain way, on the instructions' names
      const plain = new Map(f.blocks.map(b => [b, b.insts.map(i => i.name)]));
      const live = f.blocks.flatMap(b => b.insts);
      const edits = new BlockEdits();
      for (let n = 0; n < 40 && live.length; n++) {
        const i = pick(live);
        const b = i.parent!;
        const pre = Array.from({ length: Math.floor(rand() * 3) }, () => inst(b));
        const names = plain.get(b)!;
        const at = names.indexOf(i.name);
        if (rand() < 0.5) {
          names.splice(at, 0, ...pre.map(x => x.name));
          edits.insertBefore(i, pre);
        } else {
          names.splice(at, 1, ...pre.map(x => x.name));
          edits.replace(i, pre);
          live.splice(live.indexOf(i), 1);
        }
        live.push(...pre);
      }
      edits.apply(f);
      expect(f.blocks.map(b => b.insts.map(i => i.name))).toEqual(f.blocks.map(b => plain.get(b)));
    });
  }

  it('rewrites the uses of a replaced value when applied, through chains of replacements', () => {
    const f = makeFunc(1, 3);
    const [a, b, c] = f.blocks[0]!.insts as [Inst, Inst, Inst];
    c.ops = [a, b];
    const x = inst(f.blocks[0]!), y = inst(f.blocks[0]!);
    const edits = new BlockEdits();
    edits.replace(a, [x]);
    edits.replaceUses(a, x);
    edits.replace(x, [y]);
    edits.replaceUses(x, y);
    expect(c.ops[0]).toBe(a);        // nothing changes before apply()
    edits.apply(f);
    expect(f.blocks[0]!.insts).toEqual([y, b, c]);
    expect(c.ops).toEqual([y, b]);
  });

  it('refuses an edit of an instruction it has already replaced', () => {
    const f = makeFunc(1, 2);
    const a = f.blocks[0]!.insts[0]!;
    const edits = new BlockEdits();
    edits.insertBefore(a, [inst(f.blocks[0]!)]);
    edits.replace(a, []);
    expect(() => edits.replace(a, [])).toThrow(/after it was replaced/);
  });
});
