// The skimmer's token queries and output: keyword classes, bracket-aware scans over one token stream, and the
// declaration list being written (with the namespace/linkage frames open at the top-level walk).

import { Tok, Tokens } from './tokens';
import { DeclEntry, DeclFlag, DeclKind } from './index-types';
import { PRE_INTERNED, preId } from './lexer';

// Keyword classes (by pre-interned id).
export const K_NAME = 0, K_OTHER = 1, K_ATTR = 2, K_PARENKW = 3, K_TEMPLATE = 4, K_STATIC = 5, K_INLINE = 6,
  K_EXTERN = 7, K_CONSTEXPR = 8, K_TYPEDEF = 9, K_CLASS = 10, K_ENUM = 11, K_OPERATOR = 12, K_USING = 13,
  K_NAMESPACE = 14, K_STATIC_ASSERT = 15, K_NOINLINE = 16, K_FORCEINLINE = 17, K_CONTEXTUAL = 18,
  K_ASM = 19, K_LOCATION = 20, K_TYPENAME = 21;

export const KWN = PRE_INTERNED.length;
export const KWC = new Uint8Array(KWN);
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

export const P_LBRACE = preId('{'), P_RBRACE = preId('}'), P_LBRACK = preId('['), P_RBRACK = preId(']'),
  P_LPAREN = preId('('), P_RPAREN = preId(')'), P_SEMI = preId(';'), P_COMMA = preId(','),
  P_COLON = preId(':'), P_COLON2 = preId('::'), P_ASSIGN = preId('='), P_LT = preId('<'),
  P_GT = preId('>'), P_SHR = preId('>>'), P_TILDE = preId('~'), P_STAR = preId('*');

export const ATTR_FLAGS: ReadonlyMap<string, number> = new Map<string, number>([
  ['device', DeclFlag.Device], ['host', DeclFlag.Host], ['global', DeclFlag.Global],
  ['device_builtin', DeclFlag.DeviceBuiltin], ['constant', DeclFlag.Constant], ['shared', DeclFlag.Shared],
  ['managed', DeclFlag.Managed], ['always_inline', DeclFlag.Forceinline], ['noinline', DeclFlag.Noinline],
  ['cudart_builtin', DeclFlag.CudartBuiltin],
]);

/** Flags that describe the entity rather than one declarator's storage; records get only these. */
export const RECORD_FLAGS = DeclFlag.Device | DeclFlag.Host | DeclFlag.Global | DeclFlag.DeviceBuiltin |
  DeclFlag.Template | DeclFlag.ExternC | DeclFlag.InAnonNamespace | DeclFlag.ExplicitInst | DeclFlag.CudartBuiltin;

/** An open namespace or linkage block at the top-level walk: its scope and its '{' token. */
export interface Frame { readonly scope: string; readonly externC: boolean; readonly anon: boolean; readonly open: number }

export type NamespaceMap = Map<string, { inline: boolean; opens: number[] }>;

export type SkimError = { tok: number; message: string };

/** One skim's tokens, bracket partners and output; the steps of skim-heads.ts and skim-decl.ts read and write it. */
export class SkimScan {
  readonly n: number;
  readonly kind: Uint8Array;
  readonly id: Int32Array;
  readonly names: readonly string[];
  // The furthest token skipAngles (the one scan that may run past the end of its declaration) has read:
  // a prelude checkpoint is only taken beyond it (atTop's `reach`).
  reach = -1;
  readonly frames: Frame[] = [];
  /** The innermost frame's scope and linkage, the ones new entries get. */
  scope = '';
  externC = false;
  anon = false;

  constructor(readonly t: Tokens, readonly match: Int32Array, readonly decls: DeclEntry[],
    readonly errors: SkimError[], readonly namespaces: NamespaceMap) {
    this.n = t.count;
    this.kind = t.kind;
    this.id = t.id;
    this.names = t.names;
  }

  kw(i: number): number { const d = this.id[i]; return this.kind[i] === Tok.Ident ? (d < KWN ? KWC[d] : K_NAME) : -1; }
  isName(i: number): boolean { return this.kind[i] === Tok.Ident && (this.id[i] >= KWN || KWC[this.id[i]] === K_NAME); }
  isP(i: number, p: number): boolean { return this.kind[i] === Tok.Punct && this.id[i] === p; }
  text(i: number): string { return this.id[i] >= 0 ? this.names[this.id[i]] : this.t.src.slice(this.t.start[i], this.t.end[i]); }

  /** From '<' at i, index after the matching '>' (or -1 if it does not look like a closed list). */
  skipAngles(i: number, allowBraces: boolean): number {
    const { n, kind, id, match } = this;
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
    if (j > this.reach) this.reach = j;
    return r;
  }

  /** From '>' or '>>' at i, index of the matching '<' (or -1), not going before lo. */
  backAngles(i: number, lo: number): number {
    const { kind, id, match } = this;
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
  }

  /** Qualifier written before the declarator-id starting at token s (template args dropped). */
  qualifierBefore(s: number, lo: number): string {
    let q = s - 1;
    let parts: string[] | null = null;
    while (q > lo && this.isP(q, P_COLON2)) {
      let r = q - 1;
      if (this.isP(r, P_GT) || this.isP(r, P_SHR)) {
        const lt = this.backAngles(r, lo);
        if (lt < 0) break;
        r = lt - 1;
      }
      if (r < lo || !this.isName(r)) break;
      (parts ??= []).unshift(this.names[this.id[r]]);
      q = r - 1;
    }
    return parts ? parts.join('::') : '';
  }

  /** Index of the ';' ending a simple construct starting at j (skipping groups), or of a stray '}' / EOF. */
  toSemi(j: number): number {
    const { n, kind, id, match } = this;
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
  }

  /** Where a construct ending at e (from toSemi) is left: past its ';', else at the '}' or EOF. */
  afterSemi(e: number): number {
    return e < this.n && this.isP(e, P_SEMI) ? e + 1 : e;
  }

  /** Flags named inside __attribute__((...)) whose outer '(' is at open. */
  attrFlags(open: number): number {
    const { kind, id, match, names } = this;
    let f = 0;
    const inner = open + 1;
    const close = match[open];
    if (close < 0 || !this.isP(inner, P_LPAREN)) return 0;
    const innerClose = match[inner] < 0 ? close : match[inner];
    for (let k = inner + 1; k < innerClose; k++) {
      if (kind[k] === Tok.Ident && (this.isP(k - 1, P_LPAREN) && k - 1 === inner || this.isP(k - 1, P_COMMA))) {
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
  }

  /** Enters a namespace or linkage block. */
  pushFrame(f: Frame): void { this.frames.push(f); this.setTop(); }

  /** Leaves the innermost block. */
  popFrame(): void { this.frames.pop(); this.setTop(); }

  setTop(): void {
    const f = this.frames[this.frames.length - 1];
    if (f) { this.scope = f.scope; this.externC = f.externC; this.anon = f.anon; } else { this.scope = ''; this.externC = false; this.anon = false; }
  }

  add(kindS: DeclKind, name: string, qualifier: string, first: number, last: number,
    bodyStart: number, bodyEnd: number, flags: number): void {
    this.decls.push({ kind: kindS, name, scope: this.scope, qualifier, first, last, bodyStart, bodyEnd, flags });
  }

  /** One 'enumerator' entry per enumerator of the unscoped enum `ename` whose braces are tokens b and e. */
  addEnumerators(ename: string, b: number, e: number, flags: number): void {
    const { kind, id, match, names, decls } = this;
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
      if (expect && this.isName(k)) {
        this.add('enumerator', names[id[k]], ename, k, k, b, e, flags & (DeclFlag.ExternC | DeclFlag.InAnonNamespace));
        cur = decls.length - 1;
        expect = false;
      }
    }
    if (cur >= 0) decls[cur].last = e - 1;
  }

  baseFlags(): number { return (this.externC ? DeclFlag.ExternC : 0) | (this.anon ? DeclFlag.InAnonNamespace : 0); }
}
