// CSE's table of available pure expressions. An expression is its opcode, result type, attributes (pred,
// source type, indices, wrap/exact/inbounds flags, fast-math flags) and operands, those of a commutative
// operation in either order. It is looked up by a number hashed from the opcode, type and operands and
// confirmed field by field: no key string is built per instruction (building and hashing those strings
// was most of CSE's time on large unrolled bodies).
import type { Inst, Type, Value } from '../ir';
import { COMMUTATIVE } from '../analysis/values';

interface Entry { readonly i: Inst; readonly h: number; readonly ops: readonly number[]; readonly next: Entry | null }

const sameList = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean => {
  const n = a?.length ?? 0;
  if ((b?.length ?? 0) !== n) return false;
  for (let k = 0; k < n; k++) if (a![k] !== b![k]) return false;
  return true;
};

export class ExprTable {
  /** The entries of each hash, newest first. */
  private readonly heads = new Map<number, Entry>();
  /** Every entry in the order added, so that a closing scope removes its own (always the newest). */
  private readonly added: Entry[] = [];
  private readonly opIds = new Map<string, number>();
  private readonly ops: number[] = [];

  /**
   * @param tyId a type's number (equal for types spelled alike)
   * @param id an operand's number (equal for the same value, or constants spelled alike)
   */
  constructor(private readonly tyId: (t: Type) => number, private readonly id: (v: Value) => number) {}

  /** How many expressions the table holds: what closeScope() goes back to. */
  get size(): number { return this.added.length; }

  /** The available expression equal to i, or null after adding i as one. */
  findOrAdd(i: Inst): Inst | null {
    const ops = this.ops;
    const n = i.ops.length;
    ops.length = n;
    for (let k = 0; k < n; k++) ops[k] = this.id(i.ops[k]!);
    if (n === 2 && ops[0]! > ops[1]! && COMMUTATIVE.has(i.op)) { const t = ops[0]!; ops[0] = ops[1]!; ops[1] = t; }
    let op = this.opIds.get(i.op);
    if (op === undefined) { op = this.opIds.size; this.opIds.set(i.op, op); }
    let h = Math.imul(op + 1, 0x9e3779b1) ^ this.tyId(i.ty);
    for (let k = 0; k < n; k++) h = Math.imul(h ^ ops[k]!, 0x85ebca6b) + k | 0;
    const head = this.heads.get(h) ?? null;
    for (let e = head; e; e = e.next) if (this.same(e, i, ops)) return e.i;
    const e: Entry = { i, h, ops: ops.slice(), next: head };
    this.heads.set(h, e);
    this.added.push(e);
    return null;
  }

  /** Removes the expressions added since the table held `size` of them. */
  closeScope(size: number): void {
    while (this.added.length > size) {
      const e = this.added.pop()!;
      if (e.next) this.heads.set(e.h, e.next); else this.heads.delete(e.h);
    }
  }

  private same(e: Entry, i: Inst, ops: readonly number[]): boolean {
    const a = e.i;
    if (a.op !== i.op || !sameList(e.ops, ops)) return false;
    const tyId = this.tyId;
    return tyId(a.ty) === tyId(i.ty) && (a.pred ?? '') === (i.pred ?? '')
      && (a.srcTy ? tyId(a.srcTy) : -1) === (i.srcTy ? tyId(i.srcTy) : -1) && sameList(a.idx, i.idx)
      && !a.nsw === !i.nsw && !a.nuw === !i.nuw && !a.exact === !i.exact && !a.inbounds === !i.inbounds
      && sameList(a.fmf, i.fmf);
  }
}
