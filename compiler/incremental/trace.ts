// Content hashes of index declarations, without positions: what a cached root's trace is checked against.
// A declaration's hash covers its kind, flags, scope, file and token spellings (plus the enum braces of an
// enumerator); line numbers and whitespace between lines are not part of it, so inserting blank lines or
// comments leaves every hash unchanged.

import { createHash } from 'node:crypto';
import type { Tokens } from '../frontend/tokens';
import type { Index, DeclEntry } from '../frontend/index-types';

// Entries of a reused prelude index are shared between compiles (frozen, compiler/frontend/prelude.ts) and
// their tokens are the same text in every unit that holds them, only the main file's name may differ: it is
// checked. Other entries are checked by range and text, so an entry object that changed is hashed again.
const declCache = new WeakMap<DeclEntry, { first: number; last: number; src: string; file: string; h: string }>();

function tokenText(toks: Tokens, i: number): string {
  const id = toks.id[i]!;
  return id >= 0 ? toks.names[id]! : toks.src.slice(toks.start[i]!, toks.end[i]!);
}

function appendTokens(parts: string[], toks: Tokens, first: number, last: number): void {
  for (let i = first; i <= last && i < toks.count; i++) parts.push((toks.spaceBefore[i] ? ' ' : '') + tokenText(toks, i));
}

export function sha1(s: string): string {
  return createHash('sha1').update(s).digest('hex');
}

/** Hash of one declaration's content (see the file comment). */
export function declHash(toks: Tokens, d: DeclEntry): string {
  const c = declCache.get(d);
  const file = toks.files[toks.file[d.first]!] ?? '';
  if (c !== undefined && c.file === file && (Object.isFrozen(d)
    || (c.first === d.first && c.last === d.last && c.src === toks.src.slice(toks.start[d.first]!, toks.start[d.first]! + 64)))) return c.h;
  const parts: string[] = [d.kind, String(d.flags), d.scope, d.qualifier, d.name, file];
  appendTokens(parts, toks, d.first, d.last);
  if (d.kind === 'enumerator' && d.bodyStart >= 0) { parts.push('\u0002'); appendTokens(parts, toks, d.bodyStart, d.bodyEnd); }
  const h = sha1(parts.join('\u0001'));
  declCache.set(d, { first: d.first, last: d.last, src: toks.src.slice(toks.start[d.first]!, toks.start[d.first]! + 64), file, h });
  return h;
}

/**
 * key() of name lists made of shared (frozen) declarations only, by list: such a list (a name map's entry over
 * a reused prelude prefix, compiler/frontend/skim.ts OverlayMap) holds the same declarations whenever it is
 * seen; only the main file's name may differ (it is in declHash).
 */
const listCache = new WeakMap<readonly number[], { n: number; main: string; h: string }>();

/**
 * Hashes of what lookups can see in one index: all declarations of a name, the '#…' scan keys that
 * compiler/frontend/unit.ts records, and the unit's namespace shape. Memoised per index.
 */
export class IndexHashes {
  private names = new Map<string, string>();
  constructor(private toks: Tokens, private index: Index) {}

  /** Hash of every declaration a lookup of `key` can reach. */
  key(key: string): string {
    let h = this.names.get(key);
    if (h !== undefined) return h;
    const { toks, index } = this;
    let dis: number[];
    if (key === '#enums') dis = this.matching(d => d.kind === 'enum' || d.kind === 'typedef');
    else if (key === '#conversions') dis = this.matching(d => d.qualifier !== '' && d.name.startsWith('operator '));
    else dis = index.byName.get(key) ?? [];
    // a list of a reused prelude index's name map is shared by the compiles that resume at the same point
    const main = toks.files[0] ?? '';
    const shared = listCache.get(dis);
    if (shared !== undefined && shared.n === dis.length && shared.main === main) h = shared.h;
    else {
      h = sha1(dis.map(di => declHash(toks, index.decls[di]!)).join(','));
      if (dis.length > 0 && dis.every(di => Object.isFrozen(index.decls[di]))) listCache.set(dis, { n: dis.length, main, h });
    }
    this.names.set(key, h);
    return h;
  }
  private matching(p: (d: DeclEntry) => boolean): number[] {
    const out: number[] = [];
    this.index.decls.forEach((d, i) => { if (p(d)) out.push(i); });
    return out;
  }

  /** Digest of a trace: the hashes of all its keys, in the given order. */
  digest(keys: readonly string[]): string {
    return sha1(keys.map(k => `${k}=${this.key(k)}`).join('\n'));
  }

  /**
   * What every lookup depends on besides the names it asks for: the namespaces that exist (and which are
   * inline), using-directives and namespace aliases (compiler/frontend/unit.ts reads them for the whole unit).
   */
  shape(): string {
    const parts: string[] = [];
    for (const [path, ns] of [...(this.index.namespaces ?? new Map<string, { inline: boolean }>()).entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) parts.push(`${path}${ns.inline ? ' inline' : ''}`);
    this.index.decls.forEach(d => {
      if (d.kind === 'namespace-alias' || d.kind === 'using-directive' || ((d.kind === 'using' || d.kind === 'other') && tokenText(this.toks, d.first) === 'using'))
        parts.push(declHash(this.toks, d));
    });
    return sha1(parts.join('\n'));
  }
}
