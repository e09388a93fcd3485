// Token-level reading of host code that the parser need not understand: bracket partners, statement ends, and
// whether a range names one of a set of identifiers (hostmembers.ts, and the parser's host-code reading).

import { Tok, type Tokens } from './tokens';

interface Toks { readonly toks: Tokens; text(i: number): string }

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
export const opensBracket = (t: string): boolean => t in OPEN;

/** The token closing the bracket opened at j (the same kind of bracket, nested ones skipped), or -1. */
export function closer(u: Toks, j: number, hi: number): number {
  const o = u.text(j), c = OPEN[o];
  if (!c) return -1;
  let depth = 0;
  for (let k = j; k < hi; k++) {
    const t = u.text(k);
    if (t === o) depth++;
    else if (t === c && --depth === 0) return k;
  }
  return -1;
}

/** Does the token range [lo, hi] name one of `names` (as an identifier)? */
export function mentions(u: Toks, lo: number, hi: number, names: Set<string>): boolean {
  for (let j = lo; j <= hi; j++) if (u.toks.kind[j] === Tok.Ident && names.has(u.text(j))) return true;
  return false;
}

/** The last token of the statement starting at token j (its ';' or closing '}'), or -1 when we cannot tell. */
export function statementEnd(u: Toks, j: number): number {
  const hi = u.toks.count;
  const t = u.text(j);
  if (t === '{') return closer(u, j, hi);
  if (t === 'if' || t === 'while' || t === 'for' || t === 'switch') {
    const open = u.text(j + 1) === 'constexpr' ? j + 2 : j + 1;
    const c = closer(u, open, hi);
    if (c < 0 || u.text(open) !== '(') return -1;
    let e = statementEnd(u, c + 1);
    if (t === 'if' && e >= 0 && u.text(e + 1) === 'else') e = statementEnd(u, e + 2);
    return e;
  }
  if (t === 'do') {
    const e = statementEnd(u, j + 1);
    if (e < 0 || u.text(e + 1) !== 'while') return -1;
    const c = closer(u, e + 2, hi);
    return c >= 0 && u.text(c + 1) === ';' ? c + 1 : -1;
  }
  if (t === 'try') {
    let e = closer(u, j + 1, hi);
    while (e >= 0 && u.text(e + 1) === 'catch') { const c = closer(u, e + 2, hi); e = c < 0 ? -1 : closer(u, c + 1, hi); }
    return e;
  }
  for (let k = j; k < hi; k++) {
    const x = u.text(k);
    if (x in OPEN) { k = closer(u, k, hi); if (k < 0) return -1; }
    else if (x === ';') return k;
    else if (x === '}' || x === ')' || x === ']') return -1;
  }
  return -1;
}
