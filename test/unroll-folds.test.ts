// The unroller's test for an index that is integer arithmetic on constants (compiler/middle/passes/unroll.ts,
// foldsToConst): exactly "at most `depth` operations deep", measured once per expression, so shared
// subexpressions, long chains and cycles (unreachable code) cost time proportional to their size.
import { describe, expect, it } from 'vitest';
import { Builder, T, cInt, funcTy, newFunc } from '../compiler/middle/ir';
import type { Inst, Type, Value } from '../compiler/middle/ir';
import { foldsToConst } from '../compiler/middle/passes/unroll';

function builder(): Builder {
  const f = newFunc('f', funcTy(T.void, [T.i32]) as Type & { k: 'func' });
  const b = new Builder(f);
  b.setBlock(b.newBlock('entry'));
  return b;
}

describe('unroll: foldsToConst', () => {
  it('counts the operations between an expression and its constants', () => {
    const b = builder();
    let x: Value = cInt(T.i32, 1);
    for (let k = 0; k < 5; k++) x = b.bin('add', x, cInt(T.i32, k));
    const heights = new Map<Inst, number>();
    expect(foldsToConst(heights, x, 5)).toBe(true);
    expect(foldsToConst(new Map(), x, 4)).toBe(false);
    expect(foldsToConst(heights, cInt(T.i32, 3), 0)).toBe(true);
  });

  it('is false for anything that is not integer arithmetic on constants', () => {
    const b = builder();
    const arg = b.fn.params[0]!;
    expect(foldsToConst(new Map(), b.bin('add', arg, cInt(T.i32, 1)), 100)).toBe(false);
    expect(foldsToConst(new Map(), b.bin('udiv', cInt(T.i32, 8), cInt(T.i32, 2)), 100)).toBe(false);
  });

  it('measures a doubly shared expression 60 levels deep once per node (2^60 paths)', () => {
    const b = builder();
    let x: Value = b.bin('add', cInt(T.i32, 1), cInt(T.i32, 2));
    for (let k = 0; k < 60; k++) x = b.bin('xor', x, x);
    expect(foldsToConst(new Map(), x, 61)).toBe(true);
    expect(foldsToConst(new Map(), x, 60)).toBe(false);
  });

  it('walks a chain far deeper than the stack without recursion', () => {
    const b = builder();
    let x: Value = cInt(T.i32, 0);
    for (let k = 0; k < 30_000; k++) x = b.bin('add', x, cInt(T.i32, 1));
    expect(foldsToConst(new Map(), x, 768)).toBe(false);
    expect(foldsToConst(new Map(), x, 30_000)).toBe(true);
  });

  it('ends on a cycle of arithmetic (unreachable code) and says it never folds', () => {
    const b = builder();
    const x = b.bin('add', cInt(T.i32, 0), cInt(T.i32, 1));
    const y = b.bin('mul', x, cInt(T.i32, 3));
    x.ops[0] = y;
    expect(foldsToConst(new Map(), y, 768)).toBe(false);
    expect(foldsToConst(new Map(), b.bin('add', y, cInt(T.i32, 1)), 768)).toBe(false);
  });
});
