// Virtual registers, numbered per function from 1 in each class (as cicc does).
import { REG_CLASSES, REG_DECL, type RegClass } from './types';

export class Registers {
  private counts: Record<RegClass, number> = { p: 0, rs: 0, f: 0, r: 0, fd: 0, rd: 0 };

  fresh(c: RegClass): string { return `%${c}${++this.counts[c]}`; }

  /** `.reg` declarations for the classes used, cicc's order. */
  decls(): string[] {
    const out: string[] = [];
    for (const c of REG_CLASSES) if (this.counts[c] > 0) out.push(`\t.reg ${REG_DECL[c]} \t%${c}<${this.counts[c] + 1}>;`);
    return out;
  }
}

/** Class of a register name such as `%rd12` (null for an immediate or symbol). */
export function classOfReg(r: string): RegClass | null {
  const m = /^%(p|rs|fd|f|rd|r)\d+$/.exec(r);
  return m ? (m[1] as RegClass) : null;
}
