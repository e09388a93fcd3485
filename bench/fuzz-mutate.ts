// Mutations of a real .cpp1.ii for the differential fuzzer (bench/fuzz.ts): token deletions, duplications,
// swaps, truncations and byte replacements, at token boundaries found by our own lexer. Pure and seeded: the
// same (unit, seed) always gives the same mutant, so a disagreement can be replayed from its seed.

import { lex } from '../compiler/frontend/lexer';

export const MUTATION_KINDS = ['delete', 'duplicate', 'swap', 'truncate', 'byte'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** Where the mutation landed: the user's own file (the .cu) or an included header. */
export type Region = 'user' | 'header';

export interface Mutant { bytes: Buffer; kind: MutationKind; region: Region; /** Offset of the change in the base text. */ at: number; what: string }

/** A base unit prepared for mutation: its bytes and token boundaries (offsets into the text, which is ASCII in practice). */
export interface MutationBase { bytes: Buffer; text: string; starts: Uint32Array; ends: Uint32Array; user: number[]; all: number }

export function mutationBase(bytes: Buffer, userFile: string): MutationBase {
  const text = bytes.toString('latin1');
  const t = lex(text);
  const n = t.count;   // without the EOF token
  const user: number[] = [];
  for (let i = 0; i < n; i++) if (t.files[t.file[i]!] === userFile) user.push(i);
  return { bytes, text, starts: t.start.slice(0, n), ends: t.end.slice(0, n), user, all: n };
}

import { rng } from './rng';

function splice(b: Buffer, from: number, to: number, insert: Buffer): Buffer {
  return Buffer.concat([b.subarray(0, from), insert, b.subarray(to)]);
}

/**
 * One mutant of `base` from `seed`. Half of the mutations land in the user's file (where errors are reported and
 * code is generated), half anywhere (mostly headers: declarations nothing may use).
 */
export function mutate(base: MutationBase, seed: number): Mutant {
  const r = rng(seed);
  const pick = (k: number): number => Math.floor(r() * k);
  const kind = MUTATION_KINDS[pick(MUTATION_KINDS.length)]!;
  const fromUser = base.user.length > 0 && r() < 0.5;
  const i = fromUser ? base.user[pick(base.user.length)]! : pick(base.all);
  const s = base.starts[i]!, e = base.ends[i]!;
  const region: Region = fromUser || base.user.includes(i) ? 'user' : 'header';
  const b = base.bytes;
  const tok = base.text.slice(s, e);
  switch (kind) {
    case 'delete':
      return { bytes: splice(b, s, e, Buffer.alloc(0)), kind, region, at: s, what: `deleted ${JSON.stringify(tok)}` };
    case 'duplicate':
      return { bytes: splice(b, e, e, Buffer.from(` ${tok}`, 'latin1')), kind, region, at: s, what: `duplicated ${JSON.stringify(tok)}` };
    case 'swap': {
      if (i + 1 >= base.all) return { bytes: splice(b, s, e, Buffer.alloc(0)), kind, region, at: s, what: `deleted last ${JSON.stringify(tok)}` };
      const s2 = base.starts[i + 1]!, e2 = base.ends[i + 1]!;
      const next = base.text.slice(s2, e2);
      const swapped = Buffer.from(next + base.text.slice(e, s2) + tok, 'latin1');
      return { bytes: splice(b, s, e2, swapped), kind, region, at: s, what: `swapped ${JSON.stringify(tok)} and ${JSON.stringify(next)}` };
    }
    case 'truncate': {
      // at a token's start, its end, or inside it (a line marker or literal cut in the middle)
      const at = [s, e, s + pick(Math.max(1, e - s))][pick(3)]!;
      return { bytes: b.subarray(0, at), kind, region, at, what: `truncated at ${at} (in ${JSON.stringify(tok)})` };
    }
    case 'byte': {
      const at = s + pick(Math.max(1, e - s));
      const v = r() < 0.5 ? 0x80 + pick(128) : pick(128);   // half of them not ASCII (invalid UTF-8 alone)
      const out = Buffer.from(b);
      out[at] = v;
      return { bytes: out, kind, region, at, what: `byte ${at} (in ${JSON.stringify(tok)}) set to 0x${v.toString(16)}` };
    }
  }
}
