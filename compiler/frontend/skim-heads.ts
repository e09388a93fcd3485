// The skimmer's readers for constructs with their own shape: namespace heads and aliases, using-declarations and
// -directives, and operator-function names.

import { Tok } from './tokens';
import {
  SkimScan, K_ATTR, K_CLASS, K_ENUM, K_INLINE, K_NAMESPACE, K_OPERATOR, K_TYPENAME,
  P_ASSIGN, P_COLON2, P_COMMA, P_LBRACE, P_LBRACK, P_LPAREN, P_LT, P_RBRACE, P_RBRACK, P_RPAREN, P_SEMI,
} from './skim-scan';

/** namespace X { / namespace a::b { / inline namespace X { / namespace { / namespace X = Y; — returns the index after it. */
export function skimNamespace(s: SkimScan, first: number, i: number): number {
  const { n, id, names, match } = s;
  let j = i + 1;
  const comps: string[] = [];
  const inl: boolean[] = [];
  let nextInline = s.kw(first) === K_INLINE;
  for (; j < n; j++) {
    if (s.isName(j)) { comps.push(names[id[j]]); inl.push(nextInline); nextInline = false; continue; }
    if (s.isP(j, P_COLON2)) continue;
    const k = s.kw(j);
    if (k === K_INLINE) { nextInline = true; continue; }
    if (k === K_ATTR && s.isP(j + 1, P_LPAREN) && match[j + 1] > 0) { j = match[j + 1]; continue; }
    if (s.isP(j, P_LBRACK) && s.isP(j + 1, P_LBRACK) && match[j] > 0) { j = match[j]; continue; }
    break;
  }
  if (s.isP(j, P_ASSIGN)) {
    const e = s.toSemi(j);
    s.add('namespace-alias', comps[0] ?? '', '', first, Math.min(e, n - 1), -1, -1, s.baseFlags());
    return s.afterSemi(e);
  }
  if (s.isP(j, P_LBRACE)) {
    const isAnon = comps.length === 0;
    if (isAnon) { comps.push('(anonymous)'); inl.push(nextInline); }
    let full = s.scope;
    for (let c = 0; c < comps.length; c++) {
      full = full === '' ? comps[c] : full + '::' + comps[c];
      let ns = s.namespaces.get(full);
      if (!ns) { ns = { inline: false, opens: [] }; s.namespaces.set(full, ns); }
      if (inl[c]) ns.inline = true;
      if (c === comps.length - 1) ns.opens.push(j);
    }
    s.pushFrame({ scope: full, externC: s.externC, anon: s.anon || isAnon, open: j });
    return j + 1;
  }
  s.errors.push({ tok: j, message: 'expected a "{" after namespace name' });
  const e = s.toSemi(j);
  return e < n && s.isP(e, P_SEMI) ? e + 1 : Math.max(e, i + 1);
}

/** `using` at token i of the declaration starting at first: directive, alias or using-declaration; returns the index after it. */
export function skimUsing(s: SkimScan, first: number, i: number, flags: number): number {
  const { n, id, names, match } = s;
  let j = i + 1;
  if (s.kw(j) === K_NAMESPACE) {
    j++;
    const parts: string[] = [];
    for (; j < n; j++) {
      if (s.isName(j)) parts.push(names[id[j]]);
      else if (!s.isP(j, P_COLON2)) break;
    }
    const e = s.toSemi(j);
    s.add('using-directive', '', parts.join('::'), first, Math.min(e, n - 1), -1, -1, flags);
    return s.afterSemi(e);
  }
  // alias: using X [attrs] = ...;
  if (s.isName(j)) {
    let k = j + 1;
    for (;;) {
      if (s.kw(k) === K_ATTR && s.isP(k + 1, P_LPAREN) && match[k + 1] > 0) { k = match[k + 1] + 1; continue; }
      if (s.isP(k, P_LBRACK) && s.isP(k + 1, P_LBRACK) && match[k] > 0) { k = match[k] + 1; continue; }
      break;
    }
    if (s.isP(k, P_ASSIGN)) {
      const e = s.toSemi(k);
      s.add('using', names[id[j]], '', first, Math.min(e, n - 1), -1, -1, flags);
      // `using E = enum E { a, b };` (libcu++'s memory_order): an unscoped enum's enumerators are names here too
      let t = k + 1;
      if (s.kw(t) === K_ENUM && s.kw(t + 1) !== K_CLASS) {
        if (s.isName(t + 1)) t++;
        if (s.isP(t + 1, P_LBRACE) && match[t + 1] > 0) s.addEnumerators(s.isName(t) ? names[id[t]] : '', t + 1, match[t + 1], flags);
      }
      return s.afterSemi(e);
    }
  }
  return usingDeclaration(s, first, j, flags);
}

/** using [typename] A::B<..>::name; with j after `using`. */
function usingDeclaration(s: SkimScan, first: number, j: number, flags: number): number {
  const { n, kind, id, names } = s;
  if (s.kw(j) === K_TYPENAME) j++;
  const parts: string[] = [];
  let name = '';
  for (; j < n; j++) {
    if (s.isName(j)) { name = names[id[j]]; continue; }
    if (s.isP(j, P_COLON2)) { if (name !== '') { parts.push(name); name = ''; } continue; }
    if (s.isP(j, P_LT) && name !== '') { const a = s.skipAngles(j, false); if (a > 0) { j = a - 1; continue; } }
    if (s.kw(j) === K_OPERATOR) {
      let str = 'operator';
      let k = j + 1;
      while (k < n && !s.isP(k, P_SEMI) && !s.isP(k, P_COMMA) && !s.isP(k, P_RBRACE)) {
        str += (kind[k] === Tok.Punct ? '' : ' ') + s.text(k);
        k++;
      }
      name = str; j = k;
    }
    break;
  }
  const e = s.toSemi(j);
  s.add('using', name, parts.join('::'), first, Math.min(e, n - 1), -1, -1, flags);
  return s.afterSemi(e);
}

/** operator-function-id starting at `operator` token i: [name, index of the '(' of the parameters]. */
export function operatorName(s: SkimScan, i: number): [string, number] {
  const { n, kind, id, names, t } = s;
  let j = i + 1;
  if (kind[j] === Tok.Punct) {
    if (s.isP(j, P_LPAREN) && s.isP(j + 1, P_RPAREN)) return ['operator()', j + 2];
    if (s.isP(j, P_LBRACK) && s.isP(j + 1, P_RBRACK)) return ['operator[]', j + 2];
    return ['operator' + names[id[j]], j + 1];
  }
  if (kind[j] === Tok.String) {
    let str = 'operator' + s.text(j);
    j++;
    if (s.isName(j) && !s.isP(j, P_LPAREN)) { str += names[id[j]]; j++; }
    return [str, j];
  }
  const w = kind[j] === Tok.Ident ? names[id[j]] : '';
  if (w === 'new' || w === 'delete' || w === 'co_await') {
    if (s.isP(j + 1, P_LBRACK) && s.isP(j + 2, P_RBRACK)) return ['operator ' + w + '[]', j + 3];
    return ['operator ' + w, j + 1];
  }
  // conversion function: type tokens up to '('
  const parts: string[] = [];
  for (; j < n && parts.length < 64; j++) {
    if (kind[j] === Tok.Punct) {
      const p = id[j];
      if (p === P_LPAREN || p === P_SEMI || p === P_LBRACE || p === P_RBRACE) break;
      if (p === P_LT) {
        const a = s.skipAngles(j, false);
        if (a > 0) { parts.push(t.src.slice(t.start[j], t.end[a - 1]).replace(/\s+/g, ' ')); j = a - 1; continue; }
      }
    }
    parts.push(s.text(j));
  }
  return ['operator ' + parts.join(' '), j];
}
