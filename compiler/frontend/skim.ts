// Skimmer: walks the top level of a token stream (descending only into namespaces and linkage
// blocks) and records every declaration with its token range, without parsing bodies.
// See docs/ARCHITECTURE.md (the front end) and index-types.ts for the meaning of each field.
//
// Conventions (beyond index-types.ts):
// - One entry per declarator: `int a, b;` gives two 'variable' entries sharing first/last.
// - `struct S {..} s;` gives a 'record' entry (bodyStart/bodyEnd = its braces) followed by a
//   'variable' entry for s (bodyStart -1); `typedef struct {..} T;` gives a 'record' named '' and a
//   'typedef' T. A record entry and the declarator entries it came with share `first`.
// - A forward declaration `struct S;` (or an explicit instantiation `template struct S<int>;`) gives
//   a 'record' entry with bodyStart -1. An elaborated type in another declaration (`struct S *p;`)
//   does not.
// - Unscoped enums also get one 'enumerator' entry per enumerator (after the 'enum' entry).
// - Function names: plain identifier; '~X' for destructors; operators 'operator+', 'operator()',
//   'operator[]', 'operator new', 'operator new[]', 'operator""_x'; conversion functions
//   'operator ' + the type's tokens joined by spaces ('operator const char *').
// - `using X = T;` → 'using' X; `using A::b;` → 'using' b with qualifier 'A';
//   `using namespace N;` → 'using-directive' with name '' and qualifier 'N'.
// - `namespace a = b;` → 'namespace-alias' a. Namespaces themselves get no entry: see `scope`.
// - Flags of a declaration (attributes, specifiers) apply to all its entries; HasBody is per entry.
// - Never throws; structural problems go to `errors`.
//
// Here: the top-level walk and the bracket matcher. skim-scan.ts holds the token queries and the output,
// skim-decl.ts reads one declaration, skim-heads.ts namespaces, using and operator names.

import { Tok, Tokens } from './tokens';
import { NEVER_TWICE, ID_ATTRIBUTE, P_ASSIGN, P_COLON2, P_COMMA, afterPunct } from './skim-shape';
import { DeclEntry, Index } from './index-types';
import {
  SkimScan, KWN, K_EXTERN, K_INLINE, K_NAMESPACE, P_LBRACE, P_LBRACK, P_LPAREN, P_RBRACE, P_RBRACK, P_RPAREN, P_SEMI,
  type Frame, type NamespaceMap, type SkimError,
} from './skim-scan';
import { skimDecl } from './skim-decl';
import { skimNamespace } from './skim-heads';

export type { Frame, NamespaceMap } from './skim-scan';

/**
 * Where a skim resumes (prelude reuse, see prelude.ts): the state a clean skim of the same tokens has
 * when its top-level walk reaches token `tok`, taken from a unit whose tokens before `tok` are the same
 * and whose skim reported no error. Only `namespaces` is modified (the caller passes a fresh copy).
 */
export interface SkimResume {
  tok: number;
  /** Bracket partners of the tokens before tok; -1 for the openers still open at tok. */
  match: Int32Array;
  /** The openers still open at tok, outermost first. */
  stack: readonly number[];
  frames: readonly Frame[];
  /** The declarations before tok: the first declCount of decls. */
  decls: readonly DeclEntry[];
  declCount: number;
  namespaces: NamespaceMap;
  /**
   * A bracket array the caller lends (prelude.ts): used instead of a new one when large enough, and replaced by
   * the array used. Its first `valid` entries equal `match`'s, except at the openers in `stack`.
   */
  spare?: { match?: Int32Array; valid: number };
  /** byName of the first `count` (at most declCount) declarations (read only; shared by skims resumed from the same unit). */
  byName?: { map: ReadonlyMap<string, readonly number[]>; count: number };
}

/**
 * A name map over a shared prefix map: the names of the declarations after the cut are kept on top, and a
 * prefix name that gains declarations gets its own copy of the list, so the prefix map is never written.
 * Reads and iteration (order of first appearance) are those of a map built over all declarations.
 */
class OverlayMap extends Map<string, number[]> {
  private shadowed = 0;
  constructor(private readonly base: ReadonlyMap<string, readonly number[]>) { super(); }
  override get(k: string): number[] | undefined { return super.get(k) ?? (this.base.get(k) as number[] | undefined); }
  override has(k: string): boolean { return super.has(k) || this.base.has(k); }
  override set(k: string, v: number[]): this {
    if (!super.has(k) && this.base.has(k)) this.shadowed++;
    return super.set(k, v);
  }
  override delete(k: string): boolean { throw new Error(`OverlayMap.delete(${k}): read only`); }
  override clear(): void { throw new Error('OverlayMap.clear(): read only'); }
  override get size(): number { return this.base.size + super.size - this.shadowed; }
  /** Appends declaration k to name nm's list. */
  add(nm: string, k: number): void {
    const own = super.get(nm);
    if (own) { own.push(k); return; }
    const b = this.base.get(nm);
    this.set(nm, b ? [...b, k] : [k]);
  }
  override *entries(): MapIterator<[string, number[]]> {
    for (const [k, v] of this.base) yield [k, super.get(k) ?? (v as number[])];
    for (const e of super.entries()) if (!this.base.has(e[0])) yield e;
  }
  override *keys(): MapIterator<string> { for (const [k] of this.entries()) yield k; }
  override *values(): MapIterator<number[]> { for (const [, v] of this.entries()) yield v; }
  override [Symbol.iterator](): MapIterator<[string, number[]]> { return this.entries(); }
  override forEach(f: (v: number[], k: string, m: Map<string, number[]>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) f.call(thisArg, v, k, this);
  }
}

/** byName over decls[0..count): name → indices in source order. */
export function nameMap(decls: readonly DeclEntry[], count: number): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  for (let k = 0; k < count; k++) {
    const nm = decls[k].name;
    if (nm === '') continue;
    const l = byName.get(nm);
    if (l) l.push(k); else byName.set(nm, [k]);
  }
  return byName;
}

export interface SkimHooks {
  resume?: SkimResume;
  /** Called where the top-level walk is about to read the declaration starting at token i. */
  atTop?: (i: number, frames: readonly Frame[], declCount: number, namespaces: NamespaceMap, match: Int32Array, reach: number) => void;
}

/**
 * For every (, [, { token the index of its partner, and vice versa; -1 when unmatched.
 * A closer that does not match the innermost opener closes the nearest matching opener below it
 * (the ones in between stay unmatched); a closer with no matching opener is ignored.
 */
export function matchBrackets(t: Tokens, errors?: SkimError[], resume?: SkimResume): Int32Array {
  const n = t.count;
  const spare = resume?.spare;
  const lent = spare?.match !== undefined && spare.match.length >= n + 1 ? spare.match : undefined;
  const match = lent ?? new Int32Array(n + 1);
  if (spare) spare.match = match;
  // nesting depth is small: grown when needed
  let stack = new Int32Array(Math.min(n + 1, 1024));
  let sp = 0;
  const kind = t.kind, id = t.id;
  let from = 0;
  if (resume) {
    from = resume.tok;
    const v = lent ? Math.min(spare!.valid, from) : 0;
    if (v < from) match.set(resume.match.subarray(v, from), v);
    match.fill(-1, from, n + 1);
    if (resume.stack.length > stack.length) stack = new Int32Array(resume.stack.length * 2);
    for (const o of resume.stack) { stack[sp++] = o; match[o] = -1; }
  } else match.fill(-1);
  // the previous token's kind and id, for the shapes of skim-shape.ts
  let pk = from > 0 ? kind[from - 1] : Tok.EOF, pw = from > 0 ? id[from - 1] : -1;
  for (let i = from; i < n; i++) {
    const k = kind[i], p = id[i];
    const k0 = pk, p0 = pw;
    pk = k; pw = p;
    if (k !== Tok.Punct) {
      if (k0 === Tok.Ident) {
        if (p === p0 && k === Tok.Ident && p < KWN && NEVER_TWICE[p] === 1 && errors) errors.push({ tok: i, message: `'${t.names[p]}' twice` });
      } else if ((k0 === Tok.Number || k0 === Tok.Char) && (k === Tok.Number || k === Tok.Char) && errors) {
        errors.push({ tok: i, message: 'two literals in a row' });
      }
      continue;
    }
    if (k0 === Tok.Punct && (p0 === P_COMMA || p0 === P_ASSIGN || p0 === P_COLON2) && errors) afterPunct(t, i, sp > 0 ? stack[sp - 1] : -1, errors);
    if (p === P_LPAREN || p === P_LBRACK || p === P_LBRACE) {
      if (sp === stack.length) { const s2 = new Int32Array(sp * 2); s2.set(stack); stack = s2; }
      stack[sp++] = i;
      continue;
    }
    let want: number;
    if (p === P_RPAREN) want = P_LPAREN; else if (p === P_RBRACK) want = P_LBRACK; else if (p === P_RBRACE) want = P_LBRACE;
    else continue;
    if (sp > 0 && id[stack[sp - 1]] === want) {
      const o = stack[--sp];
      match[o] = i; match[i] = o;
      // __attribute__((...)): exactly two parentheses, the inner one closing just before the outer one
      if (id[o - 1] === ID_ATTRIBUTE && kind[o - 1] === Tok.Ident && match[o + 1] !== i - 1 && errors) errors.push({ tok: o - 1, message: `'__attribute__' without '((' ... '))'` });
      continue;
    }
    let j = sp - 1;
    while (j >= 0 && id[stack[j]] !== want) j--;
    if (j >= 0) {
      if (errors) errors.push({ tok: stack[sp - 1], message: `unmatched '${t.names[id[stack[sp - 1]]]}'` });
      const o = stack[j];
      match[o] = i; match[i] = o;
      sp = j;
    } else if (errors) {
      errors.push({ tok: i, message: `unmatched '${t.names[p]}'` });
    }
  }
  if (errors) for (let k = 0; k < sp && k < 20; k++) errors.push({ tok: stack[k], message: `unmatched '${t.names[id[stack[k]]]}' at end of file` });
  return match;
}

export function skim(t: Tokens, hooks?: SkimHooks): Index {
  const errors: SkimError[] = [];
  const resume = hooks?.resume;
  const decls: DeclEntry[] = resume ? resume.decls.slice(0, resume.declCount) : [];
  const namespaces: NamespaceMap = hooks?.resume ? hooks.resume.namespaces : new Map();
  try {
    skimInto(t, decls, errors, namespaces, hooks);
  } catch (e) {
    // Defensive: the walker is written not to throw, but an index is better than an exception.
    errors.push({ tok: t.count, message: `internal skimmer error: ${(e as Error).message}` });
  }
  let byName: Map<string, number[]>;
  if (resume?.byName && resume.byName.count <= resume.declCount) {
    const m = new OverlayMap(resume.byName.map);
    for (let k = resume.byName.count; k < decls.length; k++) if (decls[k].name !== '') m.add(decls[k].name, k);
    byName = m;
  } else byName = nameMap(decls, decls.length);
  return { decls, byName, errors, namespaces };
}

function skimInto(t: Tokens, decls: DeclEntry[], errors: SkimError[],
  namespaces: NamespaceMap, hooks?: SkimHooks): void {
  const resume = hooks?.resume;
  const atTop = hooks?.atTop;
  const s = new SkimScan(t, matchBrackets(t, errors, resume), decls, errors, namespaces);
  const { n, kind, id, frames } = s;
  let i = 0;
  if (resume) {
    i = resume.tok;
    frames.push(...resume.frames);
    s.setTop();
  }
  while (i < n) {
    if (atTop) atTop(i, frames, decls.length, namespaces, s.match, s.reach);
    const k = kind[i];
    if (k === Tok.Pragma) { i++; continue; }
    if (k === Tok.Punct) {
      const p = id[i];
      if (p === P_SEMI) { i++; continue; }
      if (p === P_RBRACE) {
        if (frames.length > 0) s.popFrame();
        else errors.push({ tok: i, message: 'expected a declaration' });
        i++; continue;
      }
      if (p === P_RPAREN || p === P_RBRACK) { errors.push({ tok: i, message: 'expected a declaration' }); i++; continue; }
    } else if (k === Tok.Ident) {
      const c = s.kw(i);
      if (c === K_NAMESPACE) { i = skimNamespace(s, i, i); continue; }
      if (c === K_INLINE && s.kw(i + 1) === K_NAMESPACE) { i = skimNamespace(s, i, i + 1); continue; }
      if (c === K_EXTERN && kind[i + 1] === Tok.String && s.isP(i + 2, P_LBRACE)) {
        const lang = s.text(i + 1);
        s.pushFrame({ scope: s.scope, externC: lang === '"C"' ? true : lang === '"C++"' ? false : s.externC, anon: s.anon, open: i + 2 });
        i += 3; continue;
      }
    }
    const next = skimDecl(s, i);
    i = next > i ? next : i + 1;
  }
  for (const f of frames) errors.push({ tok: f.open, message: 'expected a "}" at end of file' });
}
