// The skimmer's reader of one declaration: walks its tokens (skipping bracketed groups), finds its records and
// declarators, and adds their entries.

import { Tok } from './tokens';
import { DeclFlag, DeclKind } from './index-types';
import {
  SkimScan, ATTR_FLAGS, KWC, KWN, RECORD_FLAGS,
  K_ASM, K_ATTR, K_CLASS, K_CONSTEXPR, K_CONTEXTUAL, K_ENUM, K_EXTERN, K_FORCEINLINE, K_INLINE, K_LOCATION, K_NAME,
  K_NAMESPACE, K_NOINLINE, K_OPERATOR, K_PARENKW, K_STATIC, K_STATIC_ASSERT, K_TEMPLATE, K_TYPEDEF, K_USING,
  P_ASSIGN, P_COLON, P_COLON2, P_COMMA, P_LBRACE, P_LBRACK, P_LPAREN, P_LT, P_GT, P_RBRACE, P_RBRACK, P_RPAREN,
  P_SEMI, P_SHR, P_TILDE,
} from './skim-scan';
import { operatorName, skimNamespace, skimUsing } from './skim-heads';

interface Declarator { nameTok: number; name: string; func: boolean; bodyStart: number; bodyEnd: number }
interface RecordInfo { kind: DeclKind; name: string; qual: string; nameTok: number; bodyStart: number; bodyEnd: number; enumerators: boolean }

/** The declaration starting at token `first`; returns the index after it. */
export function skimDecl(s: SkimScan, first: number): number {
  return new DeclReader(s, first).read();
}

/** The state of one declaration being read; a step that ends the declaration sets `done`. */
class DeclReader {
  private flags: number;
  private readonly dcls: Declarator[] = [];
  private readonly records: RecordInfo[] = [];
  private special: DeclKind | null = null;
  private done = false;

  // the declarator being read
  private curName = -1;
  private curNameStr = '';
  private curFunc = false;
  private funcParen = false;
  private pendingOp = false;
  private inInit = false;
  private memInit = false;
  private lastIdent = -1;
  /** The first type-specifier word of this declarator (a name not followed by '::', or a builtin type keyword). */
  private firstType = -1;
  private bodyStart = -1;
  private bodyEnd = -1;

  constructor(private readonly s: SkimScan, private readonly first: number) {
    this.flags = s.baseFlags();
  }

  read(): number {
    const { s } = this;
    const n = s.n;
    let i = this.first;
    for (;;) {
      if (i >= n) {
        s.errors.push({ tok: Math.min(this.first, n), message: 'expected a ";"' });
        this.finish(n - 1);
        return n;
      }
      const k = s.kind[i];
      if (k === Tok.Punct) i = this.punct(i);
      else if (k === Tok.Ident) i = this.word(i);
      else i++; // literals, pragmas
      if (this.done) return i;
    }
  }

  /** Ends the declaration at token `last`; `next` is where the walk goes on. */
  private end(last: number, next: number): number {
    this.finish(last);
    this.done = true;
    return next;
  }

  private endDeclarator(): void {
    const { s } = this;
    if (this.curName < 0 && this.lastIdent >= 0) this.curName = this.lastIdent;
    if (this.curName >= 0) {
      let nm = this.curNameStr;
      if (nm === '') {
        nm = s.names[s.id[this.curName]] ?? '';
        if (s.isP(this.curName - 1, P_TILDE)) { nm = '~' + nm; this.curName--; }
      }
      this.dcls.push({ nameTok: this.curName, name: nm, func: this.curFunc, bodyStart: this.bodyStart, bodyEnd: this.bodyEnd });
    }
    this.curName = -1; this.curNameStr = ''; this.curFunc = false; this.funcParen = false; this.pendingOp = false;
    this.inInit = false; this.memInit = false; this.lastIdent = -1; this.bodyStart = -1; this.bodyEnd = -1;
  }

  private finish(last: number): void {
    const { s, first, flags, special, dcls, records } = this;
    this.endDeclarator();
    if (last >= s.n) last = s.n - 1;
    if (last < first) last = first;
    const rflags = flags & RECORD_FLAGS;
    for (const r of records) {
      if (r.bodyStart < 0 && dcls.length > 0) continue; // elaborated type specifier
      s.add(r.kind, r.name, r.qual, first, last, r.bodyStart, r.bodyEnd, rflags);
      // unscoped enum: one entry per enumerator
      if (r.enumerators && r.bodyStart >= 0) s.addEnumerators(r.name, r.bodyStart, r.bodyEnd, flags);
    }
    const typedef = (flags & DeclFlag.Typedef) !== 0;
    for (const d of dcls) {
      const k: DeclKind = special ?? (typedef ? 'typedef' : d.func ? 'function' : 'variable');
      const f = d.bodyStart >= 0 && d.func ? flags | DeclFlag.HasBody : flags;
      s.add(k, d.name, s.qualifierBefore(d.nameTok, first), first, last, d.func ? d.bodyStart : -1, d.func ? d.bodyEnd : -1, f);
    }
    if (dcls.length === 0 && records.length === 0) s.add(special ?? 'other', '', '', first, last, -1, -1, flags);
  }

  /** Class/struct/union/enum head at i; returns index to continue at. */
  private classHead(i: number): number {
    const { s } = this;
    const { n, kind, id, names, match } = s;
    const isEnum = s.kw(i) === K_ENUM;
    let scoped = false;
    let j = i + 1;
    if (isEnum && s.kw(j) === K_CLASS) { scoped = true; j++; }
    let nameTok = -1;
    const qual: string[] = [];
    for (;;) {
      const k = s.kw(j);
      if ((k === K_ATTR || k === K_PARENKW || k === K_LOCATION) && s.isP(j + 1, P_LPAREN) && match[j + 1] > 0) {
        if (k === K_ATTR) this.flags |= s.attrFlags(j + 1);
        j = match[j + 1] + 1; continue;
      }
      if (s.isP(j, P_LBRACK) && s.isP(j + 1, P_LBRACK) && match[j] > 0) { j = match[j] + 1; continue; }
      break;
    }
    if (s.isP(j, P_COLON2)) j++;
    while (s.isName(j) || (s.kw(j) === K_CONTEXTUAL && (s.isP(j + 1, P_COLON2) || s.isP(j + 1, P_LBRACE) || s.isP(j + 1, P_COLON)))) {
      if (nameTok >= 0) qual.push(names[id[nameTok]]);
      nameTok = j; j++;
      if (s.isP(j, P_LT)) { const a = s.skipAngles(j, false); if (a < 0) break; j = a; }
      if (s.isP(j, P_COLON2)) { j++; continue; }
      break;
    }
    while (s.kw(j) === K_CONTEXTUAL || (kind[j] === Tok.Ident && names[id[j]] === '__final')) j++;
    for (;;) {
      const k = s.kw(j);
      if (k === K_ATTR && s.isP(j + 1, P_LPAREN) && match[j + 1] > 0) { this.flags |= s.attrFlags(j + 1); j = match[j + 1] + 1; continue; }
      break;
    }
    const info: RecordInfo = {
      kind: isEnum ? 'enum' : 'record', name: nameTok >= 0 ? names[id[nameTok]] : '', qual: qual.join('::'),
      nameTok, bodyStart: -1, bodyEnd: -1, enumerators: isEnum && !scoped,
    };
    let b = j;
    if (s.isP(j, P_COLON)) {
      // base clause / enum base: up to '{' or ';'
      for (b = j + 1; b < n; b++) {
        if (kind[b] !== Tok.Punct) continue;
        const p = id[b];
        if (p === P_LBRACE || p === P_SEMI || p === P_RBRACE) break;
        if ((p === P_LPAREN || p === P_LBRACK) && match[b] > 0) b = match[b];
      }
    }
    if (s.isP(b, P_LBRACE)) {
      const m = match[b];
      info.bodyStart = b;
      info.bodyEnd = m;
      this.records.push(info);
      if (m < 0) { s.errors.push({ tok: b, message: 'expected a "}"' }); return n; }
      return m + 1;
    }
    if (s.isP(b, P_SEMI) || nameTok >= 0) this.records.push(info);
    return b === j ? j : b;
  }

  /** The punctuator at i; returns where to go on. */
  private punct(i: number): number {
    const { s } = this;
    const n = s.n, match = s.match;
    const p = s.id[i];
    if (p === P_SEMI) return this.end(i, i + 1);
    if (p === P_COMMA) { if (!this.memInit) this.endDeclarator(); return i + 1; }
    if (p === P_LPAREN) return this.paren(i);
    if (p === P_LBRACE) {
      const close = match[i];
      if (close < 0) { s.errors.push({ tok: i, message: 'expected a "}"' }); return this.end(n - 1, n); }
      if (this.memInit && (s.isName(i - 1) || s.isP(i - 1, P_GT) || s.isP(i - 1, P_SHR))) return close + 1;
      if (this.curFunc && this.funcParen && !this.inInit) {
        this.bodyStart = i; this.bodyEnd = close;
        return this.end(close, close + 1);
      }
      if (this.inInit || this.curName >= 0) return close + 1;
      if (this.lastIdent >= 0) { this.curName = this.lastIdent; return close + 1; } // int x{3};
      return this.end(close, close + 1);
    }
    if (p === P_LBRACK) {
      if (s.isP(i + 1, P_LBRACK) && match[i] > 0) return match[i] + 1; // [[attr]]
      if (!this.inInit && this.curName < 0 && this.lastIdent >= 0) this.curName = this.lastIdent;
      if (match[i] < 0) { s.errors.push({ tok: i, message: 'expected a "]"' }); return this.end(n - 1, n); }
      return match[i] + 1;
    }
    if (p === P_RBRACE || p === P_RPAREN || p === P_RBRACK) {
      if (match[i] >= 0 || p === P_RBRACE) {
        // the closer of an enclosing scope: the declaration lacks its ';'
        s.errors.push({ tok: i, message: 'expected a ";"' });
        return this.end(i - 1, i);
      }
      return i + 1; // stray closer (already reported by matchBrackets)
    }
    if (p === P_ASSIGN) {
      if (!this.inInit && this.curName < 0 && this.lastIdent >= 0) this.curName = this.lastIdent;
      this.inInit = true; return i + 1;
    }
    if (p === P_LT) {
      if (s.isName(i - 1) || s.kw(i - 1) === K_TEMPLATE || s.kw(i - 1) === K_CONTEXTUAL) {
        const a = s.skipAngles(i, false);
        if (a > 0) return a;
      }
      return i + 1;
    }
    if (p === P_COLON) {
      if (this.curFunc && this.funcParen && !this.inInit) this.memInit = true;
      return i + 1;
    }
    return i + 1;
  }

  /** The '(' at i: a function's parameters, a parenthesized declarator, or a group to skip. */
  private paren(i: number): number {
    const { s, first } = this;
    const match = s.match;
    const close = match[i];
    if (close < 0) { s.errors.push({ tok: i, message: 'expected a ")"' }); return this.end(s.n - 1, s.n); }
    if (this.pendingOp) { this.curFunc = true; this.funcParen = true; this.pendingOp = false; return close + 1; }
    if (this.inInit || this.curFunc || this.memInit || this.curName >= 0 || this.special !== null) return close + 1;
    let nameTok = -1;
    const prev = i - 1;
    if (prev >= first) {
      if (s.isName(prev) || s.kw(prev) === K_CONTEXTUAL) nameTok = prev;
      else if (s.isP(prev, P_GT) || s.isP(prev, P_SHR)) {
        const lt = s.backAngles(prev, first);
        if (lt > first && s.isName(lt - 1)) nameTok = lt - 1;
      }
    }
    // `typedef U(*fp)(int)`, `U (&r)[4]`: a name that is the declaration's first type specifier, before a
    // parenthesized declarator (no parameter list starts with '*' or '&'), is the type, not a function's name
    if (nameTok >= 0 && !(nameTok === this.firstType && this.ptrDeclaratorAt(i + 1))) {
      this.curName = nameTok; this.curFunc = true; this.funcParen = true;
      return close + 1;
    }
    // parenthesized declarator: (*fp), (A::*pm), (*f(int))
    for (let j = i + 1; j < close; j++) {
      if (s.kw(j) === K_ATTR && s.isP(j + 1, P_LPAREN) && match[j + 1] > 0) { j = match[j + 1]; continue; }
      if (s.isName(j) && !s.isP(j + 1, P_COLON2) && !s.isP(j + 1, P_LT)) {
        this.curName = j;
        if (s.isP(j + 1, P_LPAREN)) { this.curFunc = true; this.funcParen = true; }
        break;
      }
    }
    return close + 1;
  }

  /** Does a pointer, reference or member-pointer declarator start at j (`*`, `&`, `&&`, `^`, `A::*`)? */
  private ptrDeclaratorAt(j: number): boolean {
    const { s } = this;
    while (s.isName(j) && s.isP(j + 1, P_COLON2)) j += 2;
    const t = s.kind[j] === Tok.Punct ? s.text(j) : '';
    return t === '*' || t === '&' || t === '&&' || t === '^';
  }

  /** The identifier or keyword at i; returns where to go on. */
  private word(i: number): number {
    const { s, first } = this;
    const { kind, id, names, match } = s;
    const c = id[i] < KWN ? KWC[id[i]] : K_NAME;
    switch (c) {
      case K_NAME:
        if (!this.inInit && this.curName < 0) {
          this.lastIdent = i;
          if (this.firstType < 0 && this.dcls.length === 0 && !s.isP(i + 1, P_COLON2)) this.firstType = i;
        }
        return i + 1;
      case K_ATTR:
        if (s.isP(i + 1, P_LPAREN) && match[i + 1] > 0) { this.flags |= s.attrFlags(i + 1); return match[i + 1] + 1; }
        return i + 1;
      case K_LOCATION:
        if (s.isP(i + 1, P_LPAREN) && match[i + 1] > 0) {
          for (let j = i + 2; j < match[i + 1]; j++) if (kind[j] === Tok.Ident) this.flags |= ATTR_FLAGS.get(names[id[j]]) ?? 0;
          return match[i + 1] + 1;
        }
        return i + 1;
      case K_ASM:
        if (i === first) this.special = 'asm';
        if (s.isP(i + 1, P_LPAREN) && match[i + 1] > 0) return match[i + 1] + 1;
        return i + 1;
      case K_PARENKW:
        if (s.isP(i + 1, P_LPAREN) && match[i + 1] > 0) return match[i + 1] + 1;
        return i + 1;
      case K_TEMPLATE:
        if (s.isP(i + 1, P_LT)) {
          this.flags |= DeclFlag.Template;
          const a = s.skipAngles(i + 1, true);
          if (a > 0) return a;
          return i + 2;
        }
        if (!this.inInit && this.curName < 0 && this.dcls.length === 0) this.flags |= DeclFlag.ExplicitInst;
        return i + 1;
      case K_STATIC: this.flags |= DeclFlag.Static; return i + 1;
      case K_INLINE:
        if (s.kw(i + 1) === K_NAMESPACE) return i + 1;
        this.flags |= DeclFlag.Inline; return i + 1;
      case K_EXTERN:
        this.flags |= DeclFlag.Extern;
        if (kind[i + 1] === Tok.String) {
          if (s.text(i + 1) === '"C"') this.flags |= DeclFlag.ExternC;
          return i + 2;
        }
        return i + 1;
      case K_CONSTEXPR: this.flags |= DeclFlag.Constexpr; return i + 1;
      case K_TYPEDEF: this.flags |= DeclFlag.Typedef; return i + 1;
      case K_NOINLINE: this.flags |= DeclFlag.Noinline; return i + 1;
      case K_FORCEINLINE: this.flags |= DeclFlag.Forceinline | DeclFlag.Inline; return i + 1;
      case K_CLASS: case K_ENUM:
        if (!this.inInit && this.curName < 0) return this.classHead(i);
        return i + 1;
      case K_OPERATOR:
        if (!this.inInit && this.curName < 0) {
          const [nm, j] = operatorName(s, i);
          this.curName = i; this.curNameStr = nm; this.pendingOp = true;
          return Math.max(j, i + 1);
        }
        return i + 1;
      case K_USING:
        if (this.curName < 0 && this.dcls.length === 0 && this.records.length === 0) { this.done = true; return skimUsing(s, first, i, this.flags); }
        return i + 1;
      case K_STATIC_ASSERT:
        if (i === first) this.special = 'static_assert';
        return i + 1;
      case K_NAMESPACE:
        if (i === first || (s.kw(first) === K_INLINE && i === first + 1)) { this.done = true; return skimNamespace(s, first, i); }
        return i + 1;
      case K_CONTEXTUAL:
        if (!this.inInit && this.curName < 0 && !this.curFunc) this.lastIdent = i;
        return i + 1;
      default:
        if (this.firstType < 0 && BUILTIN_TYPES.has(names[id[i]])) this.firstType = i;
        return i + 1;
    }
  }
}

const BUILTIN_TYPES = new Set(['void', 'bool', 'char', 'wchar_t', 'char8_t', 'char16_t', 'char32_t', 'short', 'int', 'long',
  'signed', 'unsigned', 'float', 'double', 'auto', '__int128', '_Bool']);
