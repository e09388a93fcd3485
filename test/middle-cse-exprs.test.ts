// CSE's expression table (compiler/middle/passes/cse-exprs.ts) finds an expression by a hashed number and
// confirms it field by field. Checked through cse() on small hand-built functions: which instructions it
// merges (same opcode, type, attributes and operands, commutative operands in either order, constants that are
// separate objects spelled alike) and which it keeps (any attribute or operand order that differs, a
// computation in a block the first does not dominate); and on the table alone, with every expression hashed
// alike, that a collision never merges different expressions, and that a closed scope forgets its own.
import { describe, it, expect } from 'vitest';
import type { Block, Func, Inst, Value } from '../compiler/middle/ir';
import { T, cInt, newFunc, funcTy } from '../compiler/middle/ir';
import { cse } from '../compiler/middle/passes/cse';
import { ExprTable } from '../compiler/middle/passes/cse-exprs';

const mk = (b: Block, op: Inst['op'], ops: Value[], extra: Partial<Inst> = {}): Inst => {
  const i: Inst = { kind: 'inst', op, ty: T.i32, ops, targets: [], parent: b, name: '', ...extra };
  b.insts.push(i);
  return i;
};

/** f(x, y) with an entry block; `body` adds instructions, each kept alive by a store to a global. */
function func(body: (b: Block, x: Value, y: Value) => Inst[]): { f: Func; kept: Inst[] } {
  const f = newFunc('f', funcTy(T.void, [T.i32, T.i32, T.ptr]) as never);
  const [x, y, p] = f.params as [Value, Value, Value];
  const b: Block = { name: 'entry', insts: [], parent: f };
  f.blocks.push(b);
  const kept = body(b, x, y);
  for (const i of kept) mk(b, 'store', [i, p], { ty: T.void });
  mk(b, 'ret', [], { ty: T.void });
  return { f, kept };
}

/** The instructions of f other than stores and terminators, in order. */
const exprsOf = (f: Func): Inst[] => f.blocks.flatMap(b => b.insts).filter(i => !['store', 'ret', 'br', 'condbr'].includes(i.op));
/** The same instructions (by identity). */
const same = (a: Inst[], b: Inst[]): boolean => a.length === b.length && a.every((x, k) => x === b[k]);

describe('cse expression table', () => {
  it('merges a commutative operation with its operands swapped, not a subtraction', () => {
    const { f, kept } = func((b, x, y) => [mk(b, 'add', [x, y]), mk(b, 'add', [y, x]), mk(b, 'sub', [x, y]), mk(b, 'sub', [y, x])]);
    expect(cse(f)).toBe(true);
    expect(same(exprsOf(f), [kept[0]!, kept[2]!, kept[3]!])).toBe(true);
  });

  it('merges operations on constants that are separate objects spelled alike', () => {
    const { f, kept } = func((b, x) => [mk(b, 'mul', [x, cInt(T.i32, 7)]), mk(b, 'mul', [x, cInt(T.i32, 7)]), mk(b, 'mul', [x, cInt(T.i64, 7)])]);
    expect(cse(f)).toBe(true);
    expect(same(exprsOf(f), [kept[0]!, kept[2]!])).toBe(true);
  });

  it('keeps operations whose attributes differ', () => {
    const { f } = func((b, x, y) => [
      mk(b, 'add', [x, y]), mk(b, 'add', [x, y], { nsw: true }), mk(b, 'add', [x, y], { nuw: true }),
      mk(b, 'add', [x, y], { ty: T.i64 }), mk(b, 'lshr', [x, y]), mk(b, 'lshr', [x, y], { exact: true }),
      mk(b, 'icmp', [x, y], { ty: T.i1, pred: 'slt' }), mk(b, 'icmp', [x, y], { ty: T.i1, pred: 'ult' }),
      mk(b, 'fadd', [x, y], { fmf: ['contract'] }), mk(b, 'fadd', [x, y], { fmf: ['fast'] }),
      mk(b, 'gep', [x, y], { ty: T.ptr, srcTy: T.i32 }), mk(b, 'gep', [x, y], { ty: T.ptr, srcTy: T.i64 }),
      mk(b, 'gep', [x, y], { ty: T.ptr, srcTy: T.i32, inbounds: true }),
    ]);
    expect(cse(f)).toBe(false);
    expect(exprsOf(f)).toHaveLength(13);
  });

  it('merges in a dominated block, not in a sibling', () => {
    const f = newFunc('f', funcTy(T.void, [T.i32, T.i32, T.ptr, T.i1]) as never);
    const [x, y, p, c] = f.params as [Value, Value, Value, Value];
    const [entry, left, right, join] = ['entry', 'l', 'r', 'j'].map(name => ({ name, insts: [], parent: f } as Block)) as [Block, Block, Block, Block];
    f.blocks.push(entry, left, right, join);
    const a0 = mk(entry, 'xor', [x, y]);
    mk(entry, 'condbr', [c], { ty: T.void, targets: [left, right] });
    const l = mk(left, 'and', [x, y]);
    const l2 = mk(left, 'xor', [y, x]);
    mk(left, 'store', [l, p], { ty: T.void }); mk(left, 'store', [l2, p], { ty: T.void });
    mk(left, 'br', [], { ty: T.void, targets: [join] });
    const r = mk(right, 'and', [x, y]);
    mk(right, 'store', [r, p], { ty: T.void });
    mk(right, 'br', [], { ty: T.void, targets: [join] });
    mk(join, 'store', [a0, p], { ty: T.void });
    mk(join, 'ret', [], { ty: T.void });
    expect(cse(f)).toBe(true);
    expect(same(exprsOf(f), [a0, l, r])).toBe(true);
    expect(left.insts[2]!.ops[0]).toBe(a0);
  });
});

describe('ExprTable when hashes meet', () => {
  const b: Block = { name: 'b', insts: [], parent: null };
  const x: Value = cInt(T.i32, 1), y: Value = cInt(T.i32, 2);
  const ids = new Map<Value, number>([[x, 1], [y, 2]]);
  // one number for every type: the opcode and the operands tell expressions apart
  const table = (): ExprTable => new ExprTable(() => 0, v => ids.get(v) ?? 0);

  it('tells apart what the hash does not', () => {
    const t = table();
    const a = mk(b, 'add', [x, y]), s = mk(b, 'sub', [x, y]), s2 = mk(b, 'sub', [y, x]);
    expect(t.findOrAdd(a)).toBe(null);
    expect(t.findOrAdd(s)).toBe(null);
    expect(t.findOrAdd(s2)).toBe(null);
    expect(t.findOrAdd(mk(b, 'add', [y, x]))).toBe(a);
    expect(t.findOrAdd(mk(b, 'sub', [x, y]))).toBe(s);
    expect(t.findOrAdd(mk(b, 'sub', [y, x]))).toBe(s2);
    expect(t.size).toBe(3);
  });

  it('tells apart operands whose numbers hash alike', () => {
    // operand numbers (1, 2) and (3, d) that the table's present hash sends to the same number for the first
    // opcode it sees (number 0) on type number 0; whatever the hash, the two must not be merged
    const C = 0x85ebca6b, h0 = Math.imul(1, 0x9e3779b1);
    const d = 2 ^ Math.imul(h0 ^ 1, C) ^ Math.imul(h0 ^ 3, C);
    const [p, q, r, s] = [1, 2, 3, 4].map(n => cInt(T.i32, n)) as [Value, Value, Value, Value];
    const t = new ExprTable(() => 0, v => v === p ? 1 : v === q ? 2 : v === r ? 3 : d);
    const first = mk(b, 'sub', [p, q]);
    expect(t.findOrAdd(first)).toBe(null);
    expect(t.findOrAdd(mk(b, 'sub', [r, s]))).toBe(null);
    expect(t.findOrAdd(mk(b, 'sub', [p, q]))).toBe(first);
  });

  it('forgets what a closed scope added, keeps what was there before', () => {
    const t = table();
    const a = mk(b, 'add', [x, y]);
    t.findOrAdd(a);
    const mark = t.size;
    const s = mk(b, 'sub', [x, y]);
    expect(t.findOrAdd(s)).toBe(null);
    expect(t.findOrAdd(mk(b, 'sub', [x, y]))).toBe(s);
    t.closeScope(mark);
    expect(t.size).toBe(1);
    const s3 = mk(b, 'sub', [x, y]);
    expect(t.findOrAdd(s3)).toBe(null);
    expect(t.findOrAdd(mk(b, 'add', [x, y]))).toBe(a);
  });
});
