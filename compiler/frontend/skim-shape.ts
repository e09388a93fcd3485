// Token shapes no valid unit has, found by the skimmer's bracket pass (skim.ts matchBrackets) in code ptxd never
// parses (host functions, declarations nothing uses): `int int`, `1 1`, `, ,`, `= ;`, `:: )`, a misshapen
// `__attribute__`. cicc rejects a unit with any of them; each is an error for irgen.ts to turn into a fallback.
// The pass stays cheap: it calls in here only when the previous token already makes a shape possible.

import { Tok, Tokens } from './tokens';
import { preId, PRE_INTERNED } from './lexer';
import type { SkimError } from './skim-scan';

/** Specifiers EDG rejects when written twice in a row (`long long`, and the cv-qualifiers, a warning, are not here). */
export const NEVER_TWICE = ((): Uint8Array => {
  const a = new Uint8Array(PRE_INTERNED.length);
  for (const w of ['char', 'int', 'float', 'double', 'void', 'bool', 'short', 'signed', 'unsigned', 'typedef', 'struct', 'class',
    'union', 'enum', 'typename', 'static', 'extern', 'inline', 'virtual', 'friend', 'constexpr', 'register', 'thread_local',
    'mutable', 'explicit']) a[preId(w)] = 1;
  return a;
})();

export const ID_ATTRIBUTE = preId('__attribute__');
const ID_OPERATOR = preId('operator');
export const P_COMMA = preId(','), P_ASSIGN = preId('='), P_COLON2 = preId('::');
const P_SEMI = preId(';'), P_RPAREN = preId(')'), P_RBRACE = preId('}'), P_LPAREN = preId('('), P_LBRACE = preId('{'),
  P_TILDE = preId('~'), P_STAR = preId('*'), P_COLON = preId(':');

/**
 * The punctuator at i after a `,`, `=` or `::` (the caller checked): `, ,` outside an attribute list (which allows
 * empty entries: `__attribute__((a,,b))`, `[[a,,b]]`), `=` before `;`, `)` or `}` (not `operator=;`), and `::`
 * before a punctuator other than `~`, `*` (or, as two of an asm statement's colons, `:` and `)`).
 * `inner` is the innermost open bracket (-1 at namespace scope).
 */
export function afterPunct(t: Tokens, i: number, inner: number, errors: SkimError[]): void {
  const { kind, id, names } = t;
  const p = id[i], prev = id[i - 1];
  if (prev === P_COMMA) {
    if (p === P_COMMA && (inner < 0 || id[inner] === P_LBRACE || (id[inner] === P_LPAREN && !(kind[inner - 1] === Tok.Punct && id[inner - 1] === P_LPAREN)))) {
      errors.push({ tok: i, message: "',' twice" });
    }
  } else if (prev === P_ASSIGN) {
    if ((p === P_SEMI || p === P_RPAREN || p === P_RBRACE) && !(kind[i - 2] === Tok.Ident && id[i - 2] === ID_OPERATOR)) errors.push({ tok: i - 1, message: `'=' before '${names[p]}'` });
  } else if (prev === P_COLON2) {
    if (p !== P_TILDE && p !== P_STAR && p !== P_COLON && p !== P_RPAREN) errors.push({ tok: i - 1, message: `'::' before '${names[p]}'` });
  }
}
