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

import { Tok, Tokens } from './tokens';
import { DeclEntry, DeclFlag, DeclKind, Index } from './index-types';
import { PRE_INTERNED, preId } from './lexer';

// Keyword classes (by pre-interned id).
const K_NAME = 0, K_OTHER = 1, K_ATTR = 2, K_PARENKW = 3, K_TEMPLATE = 4, K_STATIC = 5, K_INLINE = 6,
  K_EXTERN = 7, K_CONSTEXPR = 8, K_TYPEDEF = 9, K_CLASS = 10, K_ENUM = 11, K_OPERATOR = 12, K_USING = 13,
  K_NAMESPACE = 14, K_STATIC_ASSERT = 15, K_NOINLINE = 16, K_FORCEINLINE = 17, K_CONTEXTUAL = 18,
  K_ASM = 19, K_LOCATION = 20, K_TYPENAME = 21;

const KWN = PRE_INTERNED.length;
const KWC = new Uint8Array(KWN);
{
  const set = (k: number, ...ws: string[]): void => { for (const w of ws) { const id = preId(w); if (id >= 0) KWC[id] = k; } };
  for (let i = 0; i < KWN; i++) if (/^[A-Za-z_]/.test(PRE_INTERNED[i])) KWC[i] = K_OTHER;
  set(K_ATTR, '__attribute__', '__attribute');
  set(K_PARENKW, 'decltype', '__decltype', 'alignas', '_Alignas', 'noexcept', 'throw', '__typeof__', '__typeof',
    'typeof', 'sizeof', 'alignof', '__alignof__', '__alignof', '_Alignof', '__launch_bounds__');
  set(K_ASM, 'asm', '__asm__', '__asm');
  set(K_LOCATION, '__location__');
  set(K_TEMPLATE, 'template');
  set(K_STATIC, 'static');
  set(K_INLINE, 'inline', '__inline__', '__inline');
  set(K_EXTERN, 'extern');
  set(K_CONSTEXPR, 'constexpr', 'consteval', 'constinit');
  set(K_TYPEDEF, 'typedef');
  set(K_CLASS, 'class', 'struct', 'union');
  set(K_ENUM, 'enum');
  set(K_OPERATOR, 'operator');
  set(K_USING, 'using');
  set(K_NAMESPACE, 'namespace');
  set(K_STATIC_ASSERT, 'static_assert', '_Static_assert');
  set(K_NOINLINE, '__noinline__');
  set(K_FORCEINLINE, '__forceinline__');
  set(K_CONTEXTUAL, 'final', 'override');
  set(K_TYPENAME, 'typename');
}

const P_LBRACE = preId('{'), P_RBRACE = preId('}'), P_LBRACK = preId('['), P_RBRACK = preId(']'),
  P_LPAREN = preId('('), P_RPAREN = preId(')'), P_SEMI = preId(';'), P_COMMA = preId(','),
  P_COLON = preId(':'), P_COLON2 = preId('::'), P_ASSIGN = preId('='), P_LT = preId('<'),
  P_GT = preId('>'), P_SHR = preId('>>'), P_TILDE = preId('~');

const ATTR_FLAGS = new Map<string, number>([
  ['device', DeclFlag.Device], ['host', DeclFlag.Host], ['global', DeclFlag.Global],
  ['device_builtin', DeclFlag.DeviceBuiltin], ['constant', DeclFlag.Constant], ['shared', DeclFlag.Shared],
  ['managed', DeclFlag.Managed], ['always_inline', DeclFlag.Forceinline], ['noinline', DeclFlag.Noinline],
  ['cudart_builtin', DeclFlag.CudartBuiltin],
]);

/** Flags that describe the entity rather than one declarator's storage; records get only these. */
const RECORD_FLAGS = DeclFlag.Device | DeclFlag.Host | DeclFlag.Global | DeclFlag.DeviceBuiltin |
  DeclFlag.Template | DeclFlag.ExternC | DeclFlag.InAnonNamespace | DeclFlag.ExplicitInst | DeclFlag.CudartBuiltin;

/** An open namespace or linkage block at the top-level walk: its scope and its '{' token. */
export interface Frame { readonly scope: string; readonly externC: boolean; readonly anon: boolean; readonly open: number }

export type NamespaceMap = Map<string, { inline: boolean; opens: number[] }>;

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

interface Declarator { nameTok: number; name: string; func: boolean; bodyStart: number; bodyEnd: number }

/**
 * For every (, [, { token the index of its partner, and vice versa; -1 when unmatched.
 * A closer that does not match the innermost opener closes the nearest matching opener below it
 * (the ones in between stay unmatched); a closer with no matching opener is ignored.
 */
export function matchBrackets(t: Tokens, errors?: { tok: number; message: string }[], resume?: SkimResume): Int32Array {
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
  for (let i = from; i < n; i++) {
    if (kind[i] !== Tok.Punct) continue;
    const p = id[i];
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
      continue;
    }
    let k = sp - 1;
    while (k >= 0 && id[stack[k]] !== want) k--;
    if (k >= 0) {
      if (errors) errors.push({ tok: stack[sp - 1], message: `unmatched '${t.names[id[stack[sp - 1]]]}'` });
      const o = stack[k];
      match[o] = i; match[i] = o;
      sp = k;
    } else if (errors) {
      errors.push({ tok: i, message: `unmatched '${t.names[p]}'` });
    }
  }
  if (errors) for (let k = 0; k < sp && k < 20; k++) errors.push({ tok: stack[k], message: `unmatched '${t.names[id[stack[k]]]}' at end of file` });
  return match;
}

export function skim(t: Tokens, hooks?: SkimHooks): Index {
  const errors: { tok: number; message: string }[] = [];
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

function skimInto(t: Tokens, decls: DeclEntry[], errors: { tok: number; message: string }[],
  namespaces: NamespaceMap, hooks?: SkimHooks): void {
  const n = t.count;
  const kind = t.kind, id = t.id, names = t.names;
  const resume = hooks?.resume;
  const atTop = hooks?.atTop;
  const match = matchBrackets(t, errors, resume);

  const kw = (i: number): number => { const d = id[i]; return kind[i] === Tok.Ident ? (d < KWN ? KWC[d] : K_NAME) : -1; };
  const isName = (i: number): boolean => kind[i] === Tok.Ident && (id[i] >= KWN || KWC[id[i]] === K_NAME);
  const isP = (i: number, p: number): boolean => kind[i] === Tok.Punct && id[i] === p;
  const text = (i: number): string => (id[i] >= 0 ? names[id[i]] : t.src.slice(t.start[i], t.end[i]));

  /** From '<' at i, index after the matching '>' (or -1 if it does not look like a closed list). */
  // The furthest token skipAngles (the one scan that may run past the end of its declaration) has read:
  // a prelude checkpoint is only taken beyond it (atTop's `reach`).
  let reach = -1;
  const skipAngles = (i: number, allowBraces: boolean): number => {
    let depth = 0;
    let j = i;
    let r = -1;
    for (; j < n; j++) {
      if (kind[j] !== Tok.Punct) continue;
      const p = id[j];
      if (p === P_LT) depth++;
      else if (p === P_GT) { if (--depth <= 0) { r = j + 1; break; } }
      else if (p === P_SHR) { depth -= 2; if (depth <= 0) { r = j + 1; break; } }
      else if (p === P_LPAREN || p === P_LBRACK || (p === P_LBRACE && allowBraces)) {
        const m = match[j];
        if (m < 0) break;
        j = m;
      } else if (p === P_SEMI || p === P_LBRACE || p === P_RBRACE || p === P_RPAREN || p === P_RBRACK) break;
    }
    if (j > reach) reach = j;
    return r;
  };
  /** From '>' or '>>' at i, index of the matching '<' (or -1), not going before lo. */
  const backAngles = (i: number, lo: number): number => {
    let depth = 0;
    for (let j = i; j >= lo; j--) {
      if (kind[j] !== Tok.Punct) continue;
      const p = id[j];
      if (p === P_GT) depth++;
      else if (p === P_SHR) depth += 2;
      else if (p === P_LT) { if (--depth <= 0) return j; }
      else if (p === P_RPAREN || p === P_RBRACK || p === P_RBRACE) {
        const m = match[j];
        if (m < 0 || m < lo) return -1;
        j = m;
      } else if (p === P_SEMI || p === P_LBRACE || p === P_LPAREN || p === P_LBRACK) return -1;
    }
    return -1;
  };
  /** Qualifier written before the declarator-id starting at token s (template args dropped). */
  const qualifierBefore = (s: number, lo: number): string => {
    let q = s - 1;
    let parts: string[] | null = null;
    while (q > lo && isP(q, P_COLON2)) {
      let r = q - 1;
      if (isP(r, P_GT) || isP(r, P_SHR)) {
        const lt = backAngles(r, lo);
        if (lt < 0) break;
        r = lt - 1;
      }
      if (r < lo || !isName(r)) break;
      (parts ??= []).unshift(names[id[r]]);
      q = r - 1;
    }
    return parts ? parts.join('::') : '';
  };
  /** Index of the ';' ending a simple construct starting at j (skipping groups), or of a stray '}' / EOF. */
  const toSemi = (j: number): number => {
    for (; j < n; j++) {
      if (kind[j] !== Tok.Punct) continue;
      const p = id[j];
      if (p === P_SEMI || p === P_RBRACE) return j;
      if (p === P_LPAREN || p === P_LBRACK || p === P_LBRACE) {
        const m = match[j];
        if (m < 0) return n;
        j = m;
      }
    }
    return n;
  };
  /** Flags named inside __attribute__((...)) whose outer '(' is at open. */
  const attrFlags = (open: number): number => {
    let f = 0;
    const inner = open + 1;
    const close = match[open];
    if (close < 0 || !isP(inner, P_LPAREN)) return 0;
    const innerClose = match[inner] < 0 ? close : match[inner];
    for (let k = inner + 1; k < innerClose; k++) {
      if (kind[k] === Tok.Ident && (isP(k - 1, P_LPAREN) && k - 1 === inner || isP(k - 1, P_COMMA))) {
        let nm = names[id[k]];
        if (nm.length > 4 && nm.startsWith('__') && nm.endsWith('__')) nm = nm.slice(2, -2);
        const v = ATTR_FLAGS.get(nm);
        if (v !== undefined) f |= v;
      } else if (kind[k] === Tok.Punct && (id[k] === P_LPAREN || id[k] === P_LBRACK || id[k] === P_LBRACE)) {
        if (match[k] < 0) break;
        k = match[k];
      }
    }
    return f;
  };

  const frames: Frame[] = [];
  let scope = '', externC = false, anon = false;
  const setTop = (): void => {
    const f = frames[frames.length - 1];
    if (f) { scope = f.scope; externC = f.externC; anon = f.anon; } else { scope = ''; externC = false; anon = false; }
  };
  const add = (kindS: DeclKind, name: string, qualifier: string, first: number, last: number,
    bodyStart: number, bodyEnd: number, flags: number): void => {
    decls.push({ kind: kindS, name, scope, qualifier, first, last, bodyStart, bodyEnd, flags });
  };
  /** One 'enumerator' entry per enumerator of the unscoped enum `ename` whose braces are tokens b and e. */
  const addEnumerators = (ename: string, b: number, e: number, flags: number): void => {
    let expect = true;
    let cur = -1;
    for (let k = b + 1; k < e; k++) {
      if (kind[k] === Tok.Punct) {
        const p = id[k];
        if (p === P_COMMA) {
          if (cur >= 0) decls[cur].last = k - 1;
          expect = true; cur = -1; continue;
        }
        if ((p === P_LPAREN || p === P_LBRACK || p === P_LBRACE) && match[k] > 0 && match[k] < e) { k = match[k]; continue; }
        continue;
      }
      if (expect && isName(k)) {
        add('enumerator', names[id[k]], ename, k, k, b, e, flags & (DeclFlag.ExternC | DeclFlag.InAnonNamespace));
        cur = decls.length - 1;
        expect = false;
      }
    }
    if (cur >= 0) decls[cur].last = e - 1;
  };
  const baseFlags = (): number => (externC ? DeclFlag.ExternC : 0) | (anon ? DeclFlag.InAnonNamespace : 0);

  // ---- namespace X { / namespace a::b { / inline namespace X { / namespace { / namespace X = Y;
  const doNamespace = (first: number, i: number): number => {
    let j = i + 1;
    const comps: string[] = [];
    const inl: boolean[] = [];
    let nextInline = kw(first) === K_INLINE;
    for (; j < n; j++) {
      if (isName(j)) { comps.push(names[id[j]]); inl.push(nextInline); nextInline = false; continue; }
      if (isP(j, P_COLON2)) continue;
      const k = kw(j);
      if (k === K_INLINE) { nextInline = true; continue; }
      if (k === K_ATTR && isP(j + 1, P_LPAREN) && match[j + 1] > 0) { j = match[j + 1]; continue; }
      if (isP(j, P_LBRACK) && isP(j + 1, P_LBRACK) && match[j] > 0) { j = match[j]; continue; }
      break;
    }
    if (isP(j, P_ASSIGN)) {
      const e = toSemi(j);
      add('namespace-alias', comps[0] ?? '', '', first, Math.min(e, n - 1), -1, -1, baseFlags());
      return e < n && isP(e, P_SEMI) ? e + 1 : e;
    }
    if (isP(j, P_LBRACE)) {
      const isAnon = comps.length === 0;
      if (isAnon) { comps.push('(anonymous)'); inl.push(nextInline); }
      let full = scope;
      for (let c = 0; c < comps.length; c++) {
        full = full === '' ? comps[c] : full + '::' + comps[c];
        let ns = namespaces.get(full);
        if (!ns) { ns = { inline: false, opens: [] }; namespaces.set(full, ns); }
        if (inl[c]) ns.inline = true;
        if (c === comps.length - 1) ns.opens.push(j);
      }
      frames.push({ scope: full, externC, anon: anon || isAnon, open: j });
      setTop();
      return j + 1;
    }
    errors.push({ tok: j, message: 'expected a "{" after namespace name' });
    const e = toSemi(j);
    return e < n && isP(e, P_SEMI) ? e + 1 : Math.max(e, i + 1);
  };

  // ---- using ...
  const doUsing = (first: number, i: number, flags: number): number => {
    let j = i + 1;
    if (kw(j) === K_NAMESPACE) {
      j++;
      const parts: string[] = [];
      for (; j < n; j++) {
        if (isName(j)) parts.push(names[id[j]]);
        else if (!isP(j, P_COLON2)) break;
      }
      const e = toSemi(j);
      add('using-directive', '', parts.join('::'), first, Math.min(e, n - 1), -1, -1, flags);
      return e < n && isP(e, P_SEMI) ? e + 1 : e;
    }
    // alias: using X [attrs] = ...;
    if (isName(j)) {
      let k = j + 1;
      for (;;) {
        if (kw(k) === K_ATTR && isP(k + 1, P_LPAREN) && match[k + 1] > 0) { k = match[k + 1] + 1; continue; }
        if (isP(k, P_LBRACK) && isP(k + 1, P_LBRACK) && match[k] > 0) { k = match[k] + 1; continue; }
        break;
      }
      if (isP(k, P_ASSIGN)) {
        const e = toSemi(k);
        add('using', names[id[j]], '', first, Math.min(e, n - 1), -1, -1, flags);
        // `using E = enum E { a, b };` (libcu++'s memory_order): an unscoped enum's enumerators are names here too
        let t = k + 1;
        if (kw(t) === K_ENUM && kw(t + 1) !== K_CLASS) {
          if (isName(t + 1)) t++;
          if (isP(t + 1, P_LBRACE) && match[t + 1] > 0) addEnumerators(isName(t) ? names[id[t]] : '', t + 1, match[t + 1], flags);
        }
        return e < n && isP(e, P_SEMI) ? e + 1 : e;
      }
    }
    // using-declaration: using [typename] A::B<..>::name;
    if (kw(j) === K_TYPENAME) j++;
    const parts: string[] = [];
    let name = '';
    for (; j < n; j++) {
      if (isName(j)) { name = names[id[j]]; continue; }
      if (isP(j, P_COLON2)) { if (name !== '') { parts.push(name); name = ''; } continue; }
      if (isP(j, P_LT) && name !== '') { const a = skipAngles(j, false); if (a > 0) { j = a - 1; continue; } }
      if (kw(j) === K_OPERATOR) {
        let s = 'operator';
        let k = j + 1;
        while (k < n && !isP(k, P_SEMI) && !isP(k, P_COMMA) && !isP(k, P_RBRACE)) {
          s += (kind[k] === Tok.Punct ? '' : ' ') + text(k);
          k++;
        }
        name = s; j = k;
      }
      break;
    }
    const e = toSemi(j);
    add('using', name, parts.join('::'), first, Math.min(e, n - 1), -1, -1, flags);
    return e < n && isP(e, P_SEMI) ? e + 1 : e;
  };

  // ---- operator-function-id starting at `operator` token i: [name, index of the '(' of the parameters]
  const operatorName = (i: number): [string, number] => {
    let j = i + 1;
    if (kind[j] === Tok.Punct) {
      if (isP(j, P_LPAREN) && isP(j + 1, P_RPAREN)) return ['operator()', j + 2];
      if (isP(j, P_LBRACK) && isP(j + 1, P_RBRACK)) return ['operator[]', j + 2];
      return ['operator' + names[id[j]], j + 1];
    }
    if (kind[j] === Tok.String) {
      let s = 'operator' + text(j);
      j++;
      if (isName(j) && !isP(j, P_LPAREN)) { s += names[id[j]]; j++; }
      return [s, j];
    }
    const w = kind[j] === Tok.Ident ? names[id[j]] : '';
    if (w === 'new' || w === 'delete' || w === 'co_await') {
      if (isP(j + 1, P_LBRACK) && isP(j + 2, P_RBRACK)) return ['operator ' + w + '[]', j + 3];
      return ['operator ' + w, j + 1];
    }
    // conversion function: type tokens up to '('
    const parts: string[] = [];
    for (; j < n && parts.length < 64; j++) {
      if (kind[j] === Tok.Punct) {
        const p = id[j];
        if (p === P_LPAREN || p === P_SEMI || p === P_LBRACE || p === P_RBRACE) break;
        if (p === P_LT) {
          const a = skipAngles(j, false);
          if (a > 0) { parts.push(t.src.slice(t.start[j], t.end[a - 1]).replace(/\s+/g, ' ')); j = a - 1; continue; }
        }
      }
      parts.push(text(j));
    }
    return ['operator ' + parts.join(' '), j];
  };

  // ---- one declaration starting at `first`; returns the index after it
  const doDecl = (first: number): number => {
    let flags = baseFlags();
    const dcls: Declarator[] = [];
    interface RecordInfo { kind: DeclKind; name: string; qual: string; nameTok: number; bodyStart: number; bodyEnd: number; enumerators: boolean }
    const records: RecordInfo[] = [];
    let special: DeclKind | null = null;

    let curName = -1, curNameStr = '', curFunc = false, funcParen = false, pendingOp = false;
    let inInit = false, memInit = false, lastIdent = -1, bodyStart = -1, bodyEnd = -1;

    const endDeclarator = (): void => {
      if (curName < 0 && lastIdent >= 0) curName = lastIdent;
      if (curName >= 0) {
        let nm = curNameStr;
        if (nm === '') {
          nm = names[id[curName]] ?? '';
          if (isP(curName - 1, P_TILDE)) { nm = '~' + nm; curName--; }
        }
        dcls.push({ nameTok: curName, name: nm, func: curFunc, bodyStart, bodyEnd });
      }
      curName = -1; curNameStr = ''; curFunc = false; funcParen = false; pendingOp = false;
      inInit = false; memInit = false; lastIdent = -1; bodyStart = -1; bodyEnd = -1;
    };
    const finish = (last: number): void => {
      endDeclarator();
      if (last >= n) last = n - 1;
      if (last < first) last = first;
      const rflags = flags & RECORD_FLAGS;
      for (const r of records) {
        if (r.bodyStart < 0 && dcls.length > 0) continue; // elaborated type specifier
        add(r.kind, r.name, r.qual, first, last, r.bodyStart, r.bodyEnd, rflags);
        // unscoped enum: one entry per enumerator
        if (r.enumerators && r.bodyStart >= 0) addEnumerators(r.name, r.bodyStart, r.bodyEnd, flags);
      }
      const typedef = (flags & DeclFlag.Typedef) !== 0;
      for (const d of dcls) {
        const k: DeclKind = special ?? (typedef ? 'typedef' : d.func ? 'function' : 'variable');
        const f = d.bodyStart >= 0 && d.func ? flags | DeclFlag.HasBody : flags;
        add(k, d.name, qualifierBefore(d.nameTok, first), first, last, d.func ? d.bodyStart : -1, d.func ? d.bodyEnd : -1, f);
      }
      if (dcls.length === 0 && records.length === 0) add(special ?? 'other', '', '', first, last, -1, -1, flags);
    };

    /** Class/struct/union/enum head at i; returns index to continue at. */
    const classHead = (i: number): number => {
      const isEnum = kw(i) === K_ENUM;
      let scoped = false;
      let j = i + 1;
      if (isEnum && kw(j) === K_CLASS) { scoped = true; j++; }
      let nameTok = -1;
      const qual: string[] = [];
      for (;;) {
        const k = kw(j);
        if ((k === K_ATTR || k === K_PARENKW || k === K_LOCATION) && isP(j + 1, P_LPAREN) && match[j + 1] > 0) {
          if (k === K_ATTR) flags |= attrFlags(j + 1);
          j = match[j + 1] + 1; continue;
        }
        if (isP(j, P_LBRACK) && isP(j + 1, P_LBRACK) && match[j] > 0) { j = match[j] + 1; continue; }
        break;
      }
      if (isP(j, P_COLON2)) j++;
      while (isName(j) || (kw(j) === K_CONTEXTUAL && (isP(j + 1, P_COLON2) || isP(j + 1, P_LBRACE) || isP(j + 1, P_COLON)))) {
        if (nameTok >= 0) qual.push(names[id[nameTok]]);
        nameTok = j; j++;
        if (isP(j, P_LT)) { const a = skipAngles(j, false); if (a < 0) break; j = a; }
        if (isP(j, P_COLON2)) { j++; continue; }
        break;
      }
      while (kw(j) === K_CONTEXTUAL || (kind[j] === Tok.Ident && names[id[j]] === '__final')) j++;
      for (;;) {
        const k = kw(j);
        if (k === K_ATTR && isP(j + 1, P_LPAREN) && match[j + 1] > 0) { flags |= attrFlags(j + 1); j = match[j + 1] + 1; continue; }
        break;
      }
      const info: RecordInfo = {
        kind: isEnum ? 'enum' : 'record', name: nameTok >= 0 ? names[id[nameTok]] : '', qual: qual.join('::'),
        nameTok, bodyStart: -1, bodyEnd: -1, enumerators: isEnum && !scoped,
      };
      let b = j;
      if (isP(j, P_COLON)) {
        // base clause / enum base: up to '{' or ';'
        for (b = j + 1; b < n; b++) {
          if (kind[b] !== Tok.Punct) continue;
          const p = id[b];
          if (p === P_LBRACE || p === P_SEMI || p === P_RBRACE) break;
          if ((p === P_LPAREN || p === P_LBRACK) && match[b] > 0) b = match[b];
        }
      }
      if (isP(b, P_LBRACE)) {
        const m = match[b];
        info.bodyStart = b;
        info.bodyEnd = m;
        records.push(info);
        if (m < 0) { errors.push({ tok: b, message: 'expected a "}"' }); return n; }
        return m + 1;
      }
      if (isP(b, P_SEMI) || nameTok >= 0) records.push(info);
      return b === j ? j : b;
    };

    let i = first;
    for (;;) {
      if (i >= n) {
        errors.push({ tok: Math.min(first, n), message: 'expected a ";"' });
        finish(n - 1);
        return n;
      }
      const k = kind[i];
      if (k === Tok.Punct) {
        const p = id[i];
        if (p === P_SEMI) { finish(i); return i + 1; }
        if (p === P_COMMA) { if (!memInit) endDeclarator(); i++; continue; }
        if (p === P_LPAREN) {
          const close = match[i];
          if (close < 0) { errors.push({ tok: i, message: 'expected a ")"' }); finish(n - 1); return n; }
          if (pendingOp) { curFunc = true; funcParen = true; pendingOp = false; i = close + 1; continue; }
          if (inInit || curFunc || memInit || curName >= 0 || special !== null) { i = close + 1; continue; }
          let nameTok = -1;
          const prev = i - 1;
          if (prev >= first) {
            if (isName(prev) || kw(prev) === K_CONTEXTUAL) nameTok = prev;
            else if (isP(prev, P_GT) || isP(prev, P_SHR)) {
              const lt = backAngles(prev, first);
              if (lt > first && isName(lt - 1)) nameTok = lt - 1;
            }
          }
          if (nameTok >= 0) {
            curName = nameTok; curFunc = true; funcParen = true;
            i = close + 1; continue;
          }
          // parenthesized declarator: (*fp), (A::*pm), (*f(int))
          for (let j = i + 1; j < close; j++) {
            if (kw(j) === K_ATTR && isP(j + 1, P_LPAREN) && match[j + 1] > 0) { j = match[j + 1]; continue; }
            if (isName(j) && !isP(j + 1, P_COLON2) && !isP(j + 1, P_LT)) {
              curName = j;
              if (isP(j + 1, P_LPAREN)) { curFunc = true; funcParen = true; }
              break;
            }
          }
          i = close + 1; continue;
        }
        if (p === P_LBRACE) {
          const close = match[i];
          if (close < 0) { errors.push({ tok: i, message: 'expected a "}"' }); finish(n - 1); return n; }
          if (memInit && (isName(i - 1) || isP(i - 1, P_GT) || isP(i - 1, P_SHR))) { i = close + 1; continue; }
          if (curFunc && funcParen && !inInit) {
            bodyStart = i; bodyEnd = close;
            finish(close);
            return close + 1;
          }
          if (inInit || curName >= 0) { i = close + 1; continue; }
          if (lastIdent >= 0) { curName = lastIdent; i = close + 1; continue; } // int x{3};
          finish(close);
          return close + 1;
        }
        if (p === P_LBRACK) {
          if (isP(i + 1, P_LBRACK) && match[i] > 0) { i = match[i] + 1; continue; } // [[attr]]
          if (!inInit && curName < 0 && lastIdent >= 0) curName = lastIdent;
          if (match[i] < 0) { errors.push({ tok: i, message: 'expected a "]"' }); finish(n - 1); return n; }
          i = match[i] + 1; continue;
        }
        if (p === P_RBRACE || p === P_RPAREN || p === P_RBRACK) {
          if (match[i] >= 0 || p === P_RBRACE) {
            // the closer of an enclosing scope: the declaration lacks its ';'
            errors.push({ tok: i, message: 'expected a ";"' });
            finish(i - 1);
            return i;
          }
          i++; continue; // stray closer (already reported by matchBrackets)
        }
        if (p === P_ASSIGN) {
          if (!inInit && curName < 0 && lastIdent >= 0) curName = lastIdent;
          inInit = true; i++; continue;
        }
        if (p === P_LT) {
          if (isName(i - 1) || kw(i - 1) === K_TEMPLATE || kw(i - 1) === K_CONTEXTUAL) {
            const a = skipAngles(i, false);
            if (a > 0) { i = a; continue; }
          }
          i++; continue;
        }
        if (p === P_COLON) {
          if (curFunc && funcParen && !inInit) memInit = true;
          i++; continue;
        }
        i++; continue;
      }
      if (k !== Tok.Ident) { // literals, pragmas
        i++; continue;
      }
      const c = id[i] < KWN ? KWC[id[i]] : K_NAME;
      switch (c) {
        case K_NAME:
          if (!inInit && curName < 0) lastIdent = i;
          i++; continue;
        case K_ATTR:
          if (isP(i + 1, P_LPAREN) && match[i + 1] > 0) { flags |= attrFlags(i + 1); i = match[i + 1] + 1; continue; }
          i++; continue;
        case K_LOCATION:
          if (isP(i + 1, P_LPAREN) && match[i + 1] > 0) {
            for (let j = i + 2; j < match[i + 1]; j++) if (kind[j] === Tok.Ident) flags |= ATTR_FLAGS.get(names[id[j]]) ?? 0;
            i = match[i + 1] + 1; continue;
          }
          i++; continue;
        case K_ASM:
          if (i === first) special = 'asm';
          if (isP(i + 1, P_LPAREN) && match[i + 1] > 0) { i = match[i + 1] + 1; continue; }
          i++; continue;
        case K_PARENKW:
          if (isP(i + 1, P_LPAREN) && match[i + 1] > 0) { i = match[i + 1] + 1; continue; }
          i++; continue;
        case K_TEMPLATE:
          if (isP(i + 1, P_LT)) {
            flags |= DeclFlag.Template;
            const a = skipAngles(i + 1, true);
            if (a > 0) { i = a; continue; }
            i += 2; continue;
          }
          if (!inInit && curName < 0 && dcls.length === 0) flags |= DeclFlag.ExplicitInst;
          i++; continue;
        case K_STATIC: flags |= DeclFlag.Static; i++; continue;
        case K_INLINE:
          if (kw(i + 1) === K_NAMESPACE) { i++; continue; }
          flags |= DeclFlag.Inline; i++; continue;
        case K_EXTERN:
          flags |= DeclFlag.Extern;
          if (kind[i + 1] === Tok.String) {
            if (text(i + 1) === '"C"') flags |= DeclFlag.ExternC;
            i += 2; continue;
          }
          i++; continue;
        case K_CONSTEXPR: flags |= DeclFlag.Constexpr; i++; continue;
        case K_TYPEDEF: flags |= DeclFlag.Typedef; i++; continue;
        case K_NOINLINE: flags |= DeclFlag.Noinline; i++; continue;
        case K_FORCEINLINE: flags |= DeclFlag.Forceinline | DeclFlag.Inline; i++; continue;
        case K_CLASS: case K_ENUM:
          if (!inInit && curName < 0) { i = classHead(i); continue; }
          i++; continue;
        case K_OPERATOR:
          if (!inInit && curName < 0) {
            const [nm, j] = operatorName(i);
            curName = i; curNameStr = nm; pendingOp = true;
            i = Math.max(j, i + 1); continue;
          }
          i++; continue;
        case K_USING:
          if (curName < 0 && dcls.length === 0 && records.length === 0) return doUsing(first, i, flags);
          i++; continue;
        case K_STATIC_ASSERT:
          if (i === first) special = 'static_assert';
          i++; continue;
        case K_NAMESPACE:
          if (i === first || (kw(first) === K_INLINE && i === first + 1)) return doNamespace(first, i);
          i++; continue;
        case K_CONTEXTUAL:
          if (!inInit && curName < 0 && !curFunc) lastIdent = i;
          i++; continue;
        default:
          i++; continue;
      }
    }
  };

  let i = 0;
  if (resume) {
    i = resume.tok;
    frames.push(...resume.frames);
    setTop();
  }
  while (i < n) {
    if (atTop) atTop(i, frames, decls.length, namespaces, match, reach);
    const k = kind[i];
    if (k === Tok.Pragma) { i++; continue; }
    if (k === Tok.Punct) {
      const p = id[i];
      if (p === P_SEMI) { i++; continue; }
      if (p === P_RBRACE) {
        if (frames.length > 0) { frames.pop(); setTop(); }
        else errors.push({ tok: i, message: 'expected a declaration' });
        i++; continue;
      }
      if (p === P_RPAREN || p === P_RBRACK) { errors.push({ tok: i, message: 'expected a declaration' }); i++; continue; }
    } else if (k === Tok.Ident) {
      const c = kw(i);
      if (c === K_NAMESPACE) { i = doNamespace(i, i); continue; }
      if (c === K_INLINE && kw(i + 1) === K_NAMESPACE) { i = doNamespace(i, i + 1); continue; }
      if (c === K_EXTERN && kind[i + 1] === Tok.String && isP(i + 2, P_LBRACE)) {
        const lang = text(i + 1);
        frames.push({ scope, externC: lang === '"C"' ? true : lang === '"C++"' ? false : externC, anon, open: i + 2 });
        setTop();
        i += 3; continue;
      }
    }
    const next = doDecl(i);
    i = next > i ? next : i + 1;
  }
  for (const f of frames) errors.push({ tok: f.open, message: 'expected a "}" at end of file' });
}
