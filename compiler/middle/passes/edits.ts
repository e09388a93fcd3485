// Deferred instruction edits: a pass that rewrites many instructions of a large block records "put these
// before i" and "put these in place of i" and applies them all in one walk per block, instead of an
// indexOf and a splice per edit (quadratic in a block of tens of thousands of instructions). The result
// is the block the same edits would give applied one by one, in the order they were recorded.
import type { Block, Func, Inst, Value } from '../ir';
import { applyReplacements } from '../analysis/uses';

export class BlockEdits {
  /** What each edited instruction becomes, in order; it names itself where it stays. */
  private readonly becomes = new Map<Inst, Inst[]>();
  private readonly blocks = new Set<Block>();
  /** Values replaced by others (the uses of a removed load), rewritten in apply(). */
  readonly repl = new Map<Value, Value>();

  /** `pre` goes right before i (after anything put before i earlier). */
  insertBefore(i: Inst, pre: readonly Inst[]): void {
    if (pre.length) this.edit(i, [...pre, i], i.parent!);
  }

  /** `seq` takes i's place in block b (by default, i's parent); i is gone. */
  replace(i: Inst, seq: readonly Inst[], b = i.parent!): void {
    this.edit(i, seq, b);
  }

  /** Every use of `from` becomes a use of `to` (when apply() runs). */
  replaceUses(from: Value, to: Value): void {
    this.repl.set(from, to);
  }

  /** `seq` in place of i where i stands now: in i's own earlier sequence if it has one. */
  private edit(i: Inst, seq: readonly Inst[], b: Block): void {
    this.blocks.add(b);
    const old = this.becomes.get(i);
    if (!old) { this.becomes.set(i, seq.slice()); return; }
    const k = old.indexOf(i);
    if (k < 0) throw new Error('edits: an instruction edited after it was replaced');
    old.splice(k, 1, ...seq);
  }

  /** Writes the edits into f's blocks and rewrites the replaced values' uses. */
  apply(f: Func): void {
    for (const b of this.blocks) {
      const out: Inst[] = [];
      for (const i of b.insts) this.expand(i, out);
      b.insts = out;
    }
    applyReplacements(f, this.repl);
    this.becomes.clear();
    this.blocks.clear();
    this.repl.clear();
  }

  private expand(i: Inst, out: Inst[]): void {
    const seq = this.becomes.get(i);
    if (!seq) { out.push(i); return; }
    for (const x of seq) {
      if (x === i) out.push(i);
      else this.expand(x, out);
    }
  }
}
