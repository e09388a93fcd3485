// Content hashes of index declarations, without positions: what a cached root's trace is checked against.
// A declaration's hash covers its kind, flags, scope, file and token spellings (plus the enum braces of an
// enumerator); line numbers and whitespace between lines are not part of it, so inserting blank lines or
// comments leaves every hash unchanged.

import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import type { Tokens } from '../frontend/tokens';
import { type Index, type DeclEntry, DeclFlag } from '../frontend/index-types';

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

// crypto.hash (Node >= 20.12) is the one-shot form, about twice as fast on short strings; same digest
const oneShot = (crypto as { hash?: (alg: string, data: string, enc?: 'hex' | 'base64') => string }).hash;

export function sha1(s: string): string {
  return oneShot ? oneShot('sha1', s) : createHash('sha1').update(s).digest('hex');
}

/**
 * Hashes of recent declarations outside a shared prefix (the user's code: its entries are new objects in every
 * compile), by a digest of their exact source text: the same text from a token boundary lexes to the same
 * tokens, so only what lies outside it (the first token's preceding space, the file, the skimmer's fields)
 * joins the key. Least recently used first.
 */
const textCache = new Map<string, string>();
const MAX_TEXTS = 1 << 16;

/** Digest of the exact source text of tokens first..last of d's unit, with what lies outside it that a hash of d needs. */
function textDigest(toks: Tokens, d: DeclEntry, file: string, first: number, last: number): string {
  const text = `${d.kind}\u0001${d.flags}\u0001${d.scope}\u0001${d.qualifier}\u0001${d.name}\u0001${file}\u0001${toks.spaceBefore[first]}\u0001${toks.src.slice(toks.start[first]!, toks.end[last]!)}`;
  return oneShot ? oneShot('sha1', text, 'base64') : createHash('sha1').update(text).digest('base64');
}

/** Hash of one declaration's content (see the file comment). */
export function declHash(toks: Tokens, d: DeclEntry): string {
  const c = declCache.get(d);
  const file = toks.files[toks.file[d.first]!] ?? '';
  if (c !== undefined && c.file === file && (Object.isFrozen(d)
    || (c.first === d.first && c.last === d.last && c.src === toks.src.slice(toks.start[d.first]!, toks.start[d.first]! + 64)))) return c.h;
  const last = Math.min(d.last, toks.count - 1);
  const byText = d.kind !== 'enumerator' && !Object.isFrozen(d) && last >= d.first;
  // the digest of the text is native work; spelling the tokens one by one is not
  const key = byText ? textDigest(toks, d, file, d.first, last) : '';
  let h = byText ? textCache.get(key) : undefined;
  if (h !== undefined) textCache.delete(key);   // set again below, as the most recent
  else {
    const parts: string[] = [d.kind, String(d.flags), d.scope, d.qualifier, d.name, file];
    appendTokens(parts, toks, d.first, d.last);
    if (d.kind === 'enumerator' && d.bodyStart >= 0) { parts.push('\u0002'); appendTokens(parts, toks, d.bodyStart, d.bodyEnd); }
    h = sha1(parts.join('\u0001'));
  }
  if (byText) {
    textCache.set(key, h);
    if (textCache.size > MAX_TEXTS) textCache.delete(textCache.keys().next().value!);
  }
  declCache.set(d, { first: d.first, last: d.last, src: toks.src.slice(toks.start[d.first]!, toks.start[d.first]! + 64), file, h });
  return h;
}

/**
 * -lineinfo: declHash() with the declaration's layout, the exact text from its first token to its last (line
 * breaks, spaces, comments, line markers) and its first token's column: what the `.loc` positions of code from
 * it read besides its first line. Two declarations with the same layout hash give the same `.loc` lines but
 * for a shift by the difference of their first lines (compiler/incremental/lines.ts).
 */
export function layoutHash(toks: Tokens, d: DeclEntry): string {
  const file = toks.files[toks.file[d.first]!] ?? '';
  const frozen = Object.isFrozen(d);
  const c = frozen ? layoutCache.get(d) : undefined;
  if (c !== undefined && c.file === file) return c.h;
  const last = Math.min(d.last, toks.count - 1);
  const s = toks.start[d.first] ?? toks.src.length;
  const col = s - toks.src.lastIndexOf('\n', s - 1);
  const h = last >= d.first ? `${declHash(toks, d)} ${textDigest(toks, d, file, d.first, last)} ${col}` : `${declHash(toks, d)} ${col}`;
  if (frozen) layoutCache.set(d, { file, h });
  return h;
}
const layoutCache = new WeakMap<DeclEntry, { file: string; h: string }>();

/**
 * key() of name lists made of shared (frozen) declarations only, by list: such a list (a name map's entry over
 * a reused prelude prefix, compiler/frontend/skim.ts OverlayMap) holds the same declarations whenever it is
 * seen; only the main file's name may differ (it is in declHash).
 */
const listCache = new WeakMap<readonly number[], { n: number; main: string; h: string }>();
const layoutListCache = new WeakMap<readonly number[], { n: number; main: string; h: string }>();

/** The last digest() of a trace list, with the keys and their hashes it was made of. */
const digestCache = new WeakMap<readonly string[], { keys: readonly string[]; vals: string[]; d: string }>();

/**
 * What shape() takes from a shared prefix of declarations, by the first declaration of the indices that share
 * it: a prelude entry's declarations are always preceded by the same ones (compiler/frontend/prelude.ts copies
 * prefixes whole), so the first n are the same wherever the n-th is. Kept for the shortest prefix met, which
 * serves every longer one (the rest is scanned).
 */
const shapeCache = new WeakMap<DeclEntry, { n: number; last: DeclEntry; main: string; parts: string[] }>();

/**
 * Hashes of what lookups can see in one index: all declarations of a name, the '#…' scan keys that
 * compiler/frontend/unit.ts records, and the unit's namespace shape. Memoised per index.
 */
export class IndexHashes {
  private names = new Map<string, string>();
  private lists = new Map<string, number[]>();
  /** `layout` (-lineinfo): declarations hash with their layout (layoutHash()), so that a digest covers `.loc` lines but for shifts. */
  constructor(private toks: Tokens, private index: Index, private readonly layout = false) {}

  /** The declarations a lookup of `key` can reach, in index order. */
  declsOf(key: string): readonly number[] {
    let dis = this.lists.get(key);
    if (dis !== undefined) return dis;
    if (key === '#enums') dis = this.matching(d => d.kind === 'enum' || d.kind === 'typedef');
    else if (key === '#conversions') dis = this.matching(d => d.qualifier !== '' && d.name.startsWith('operator '));
    else dis = this.index.byName.get(key) ?? [];
    this.lists.set(key, dis);
    return dis;
  }

  /** Hash of every declaration a lookup of `key` can reach. */
  key(key: string): string {
    let h = this.names.get(key);
    if (h !== undefined) return h;
    const { toks, index } = this;
    const dis = this.declsOf(key);
    // a list of a reused prelude index's name map is shared by the compiles that resume at the same point
    const main = toks.files[0] ?? '';
    const cache = this.layout ? layoutListCache : listCache;
    const hash = this.layout ? layoutHash : declHash;
    const shared = cache.get(dis);
    if (shared !== undefined && shared.n === dis.length && shared.main === main) h = shared.h;
    else {
      h = sha1(dis.map(di => hash(toks, index.decls[di]!)).join(','));
      if (dis.length > 0 && dis.every(di => Object.isFrozen(index.decls[di]))) cache.set(dis, { n: dis.length, main, h });
    }
    this.names.set(key, h);
    return h;
  }
  private matching(p: (d: DeclEntry) => boolean): number[] {
    const out: number[] = [];
    this.index.decls.forEach((d, i) => { if (p(d)) out.push(i); });
    return out;
  }

  /**
   * key() for the unit level, which reads kernel definitions only up to their bodies: those contribute
   * kernelSig() (so that an edit inside a kernel's body keeps the unit level).
   */
  unitKey(key: string): string {
    const dis = key.startsWith('#') ? undefined : this.index.byName.get(key);
    if (!dis || !dis.some(di => isKernelDef(this.index.decls[di]!))) return this.key(key);
    return sha1(dis.map(di => { const d = this.index.decls[di]!; return isKernelDef(d) ? kernelSig(this.toks, d) : declHash(this.toks, d); }).join(','));
  }

  /** Digest of a unit level's trace (unitKey() of its keys). */
  unitDigest(keys: readonly string[]): string {
    return sha1(keys.map(k => `${k}=${this.unitKey(k)}`).join('\n'));
  }

  /** Digest of a trace: the hashes of all its keys, in the given order. */
  digest(keys: readonly string[]): string {
    const vals = keys.map(k => this.key(k));
    // a trace list seen before (an in-memory store hands out the same lists): unchanged hashes, same digest
    const c = digestCache.get(keys);
    if (c !== undefined && c.keys.length === keys.length && c.keys.every((k, i) => k === keys[i]) && c.vals.every((v, i) => v === vals[i])) return c.d;
    const d = sha1(keys.map((k, i) => `${k}=${vals[i]}`).join('\n'));
    digestCache.set(keys, { keys: keys.slice(), vals, d });
    return d;
  }

  /**
   * What every lookup depends on besides the names it asks for: the namespaces that exist (and which are
   * inline), using-directives and namespace aliases (compiler/frontend/unit.ts reads them for the whole unit).
   */
  shape(): string {
    const parts: string[] = [];
    for (const [path, ns] of [...(this.index.namespaces ?? new Map<string, { inline: boolean }>()).entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) parts.push(`${path}${ns.inline ? ' inline' : ''}`);
    const decls = this.index.decls, toks = this.toks;
    const scan = (from: number, to: number, out: string[]): void => {
      for (let i = from; i < to; i++) {
        const d = decls[i]!;
        if (d.kind === 'namespace-alias' || d.kind === 'using-directive' || ((d.kind === 'using' || d.kind === 'other') && tokenText(toks, d.first) === 'using'))
          out.push(declHash(toks, d));
      }
    };
    // the shared (frozen) declarations of a reused prelude come first; what they contribute is remembered
    let lo = 0, hi = decls.length;
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (Object.isFrozen(decls[mid])) lo = mid + 1; else hi = mid; }
    let from = 0;
    if (lo > 0) {
      const main = toks.files[0] ?? '';
      const c = shapeCache.get(decls[0]!);
      if (c !== undefined && c.n <= lo && decls[c.n - 1] === c.last && c.main === main) { for (const h of c.parts) parts.push(h); from = c.n; }
      else {
        const shared: string[] = [];
        scan(0, lo, shared);
        shapeCache.set(decls[0]!, { n: lo, last: decls[lo - 1]!, main, parts: shared });
        for (const h of shared) parts.push(h);
        from = lo;
      }
    }
    scan(from, decls.length, parts);
    return sha1(parts.join('\n'));
  }
}

/**
 * What the unit level of an incremental compile (its roots, device variables and stub) reads besides lookups:
 * for every declaration that may be a root (a kernel definition, a device variable), its position in the
 * index, its content (a kernel's up to its body) and the lines the stub names (a kernel's name, braces). Null
 * when the unit has kernel templates (their specialisations are found in every token of the user's code).
 */
export function rootSignatures(toks: Tokens, index: Index): { sigs: string[]; names: string[] } | null {
  const decls = index.decls;
  const out = { sigs: [] as string[], names: [] as string[] };
  const scan = (from: number, to: number, o: { sigs: string[]; names: string[] }): boolean => {
    for (let di = from; di < to; di++) {
      const d = decls[di]!;
      let sig: string;
      if (d.kind === 'function' && (d.flags & DeclFlag.Global)) {
        if ((d.flags & DeclFlag.Template) && (d.flags & DeclFlag.HasBody)) return false;
        sig = isKernelDef(d) ? kernelSig(toks, d) : `${declHash(toks, d)} ${toks.line[d.first]}`;
      } else if (d.kind === 'variable' && (d.flags & (DeclFlag.Device | DeclFlag.Constant | DeclFlag.Managed | DeclFlag.Shared))) {
        sig = `${declHash(toks, d)} ${toks.line[d.first]}`;
      } else continue;
      o.sigs.push(`${di} ${sig}`);
      o.names.push(d.name);
    }
    return true;
  };
  // the shared (frozen) declarations of a reused prelude come first; what they contribute is remembered
  let lo = 0, hi = decls.length;
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (Object.isFrozen(decls[mid])) lo = mid + 1; else hi = mid; }
  let from = 0;
  if (lo > 0) {
    const main = toks.files[0] ?? '';
    let c = rootsCache.get(decls[0]!);
    if (c === undefined || c.n > lo || decls[c.n - 1] !== c.last || c.main !== main) {
      const o = { sigs: [] as string[], names: [] as string[] };
      c = { n: lo, last: decls[lo - 1]!, main, roots: scan(0, lo, o) ? o : null };
      rootsCache.set(decls[0]!, c);
    }
    if (c.roots === null) return null;
    out.sigs.push(...c.roots.sigs); out.names.push(...c.roots.names);
    from = c.n;
  }
  return scan(from, decls.length, out) ? out : null;
}

const isKernelDef = (d: DeclEntry): boolean => d.kind === 'function' && (d.flags & DeclFlag.Global) !== 0 && (d.flags & DeclFlag.HasBody) !== 0;

/**
 * What the unit level reads of a kernel definition: its declaration up to the body (the digest of its text,
 * whether or not it is shared with a prelude) and the lines of its first token and of its braces.
 */
function kernelSig(toks: Tokens, d: DeclEntry): string {
  const file = toks.files[toks.file[d.first]!] ?? '';
  // remembered per unit (by its tokens), and across units for the shared declarations of a prelude (same text and lines)
  const frozen = Object.isFrozen(d);
  let own = frozen ? undefined : unitSigs.get(toks);
  const c = frozen ? frozenSigs.get(d) : undefined;
  if (c !== undefined && c.file === file) return c.sig;
  const hit = own?.get(d);
  if (hit !== undefined) return hit;
  const open = d.bodyStart > d.first ? d.bodyStart - 1 : d.last;
  const text = textDigest(toks, d, file, d.first, Math.min(open, toks.count - 1));
  const sig = `${text} ${toks.line[d.first]} ${d.bodyStart >= 0 ? toks.line[d.bodyStart] : -1} ${d.bodyEnd >= 0 ? toks.line[d.bodyEnd] : -1}`;
  if (frozen) frozenSigs.set(d, { file, sig });
  else { if (!own) unitSigs.set(toks, own = new Map()); own.set(d, sig); }
  return sig;
}
const frozenSigs = new WeakMap<DeclEntry, { file: string; sig: string }>();
const unitSigs = new WeakMap<Tokens, Map<DeclEntry, string>>();

/** rootSignatures() of a shared prefix of declarations (kept as shapeCache). */
const rootsCache = new WeakMap<DeclEntry, { n: number; last: DeclEntry; main: string; roots: { sigs: string[]; names: string[] } | null }>();
