// The lexer's interning table: spellings get ids in order of first appearance and are found by hash over the
// source text (no slicing on hits); a resumed lex starts from the table of its prefix.

import { PRE_INTERNED } from './lexer-spellings';

/**
 * An interning table over names[0..n): open addressing, slot = id + 1 (0 = empty), linear probing. `count`: the
 * names its slots hold (hashes may cover more).
 */
export interface NameTable { tab: Int32Array; hashes: Int32Array; count: number }

export function hashName(s: string): number {
  let h = 0;
  for (let k = 0; k < s.length; k++) h = (Math.imul(h, 31) + s.charCodeAt(k)) | 0;
  return h;
}

/** The table lexFrom() would hold after interning `names` in order (used to resume without rehashing). */
export function nameTable(names: readonly string[]): NameTable {
  let size = 1 << 14;
  while (names.length * 2 > size) size <<= 1;
  const tab = new Int32Array(size), hashes = new Int32Array(names.length), m = size - 1;
  for (let id = 0; id < names.length; id++) {
    const h = hashes[id] = hashName(names[id]!);
    let p = (h ^ (h >>> 15)) & m;
    while (tab[p] !== 0) p = (p + 1) & m;
    tab[p] = id + 1;
  }
  return { tab, hashes, count: names.length };
}

/**
 * `t` with only the first `limit` ids left in its slots: the table interning those names alone builds at that size
 * (ids are given in insertion order and probing is linear, so no earlier name's probe path crosses a later one's slot).
 * Only the later ids' slots are cleared, each found along its probe path: work in proportion to the names dropped,
 * not to the table (a resume near the end of a long prelude drops few).
 */
export function trimNameTable(t: NameTable, limit: number): NameTable {
  if (limit >= t.count) return t;
  const tab = t.tab.slice(), m = tab.length - 1;
  for (let id = limit; id < t.count; id++) {
    const h = t.hashes[id]!;
    // slots on the way may already be cleared (later ids): look for this id itself, which is there
    let p = (h ^ (h >>> 15)) & m;
    while (tab[p] !== id + 1) p = (p + 1) & m;
    tab[p] = 0;
  }
  return { tab, hashes: t.hashes, count: limit };
}

/** The names of one lex and their table. */
export class NameInterner {
  readonly names: string[];
  private hashes = new Int32Array(1024);
  private tabSize = 1 << 14;
  private tab = new Int32Array(this.tabSize); // id + 1, 0 = empty

  // Ids are given in order of first appearance, so a resumed lex that starts from the names of the
  // prefix gives every spelling the id a clean lex of the whole text gives it.
  constructor(resume: { names: readonly string[]; table?: NameTable; ownNames?: boolean } | undefined) {
    this.names = resume?.ownNames && resume.table && resume.table.hashes.length >= resume.names.length ? resume.names as string[] : [];
    const table = resume?.table;
    if (table && table.hashes.length >= resume!.names.length) {
      const limit = resume!.names.length;
      const t = trimNameTable(table, limit);
      this.tabSize = t.tab.length;
      this.tab = t.tab.slice();
      this.hashes = new Int32Array(Math.max(1024, limit * 2));
      this.hashes.set(table.hashes.subarray(0, limit));
      if (this.names !== resume!.names) for (let id = 0; id < limit; id++) this.names.push(resume!.names[id]!);
    } else {
      for (const s of resume ? resume.names : PRE_INTERNED) {
        const h = hashName(s);
        const m = this.tabSize - 1;
        let p = (h ^ (h >>> 15)) & m;
        while (this.tab[p] !== 0) p = (p + 1) & m;
        this.addName(s, h, p);
      }
    }
  }

  private rehash(): void {
    this.tabSize <<= 1;
    const tab = this.tab = new Int32Array(this.tabSize);
    const m = this.tabSize - 1, hashes = this.hashes;
    for (let id = 0; id < this.names.length; id++) {
      let p = (hashes[id] ^ (hashes[id] >>> 15)) & m;
      while (tab[p] !== 0) p = (p + 1) & m;
      tab[p] = id + 1;
    }
  }

  private addName(s: string, h: number, slot: number): number {
    const names = this.names;
    const id = names.length;
    names.push(s);
    if (id >= this.hashes.length) { const nh = new Int32Array(this.hashes.length * 2); nh.set(this.hashes); this.hashes = nh; }
    this.hashes[id] = h;
    this.tab[slot] = id + 1;
    if (names.length * 2 > this.tabSize) this.rehash();
    return id;
  }

  /** The id of src[s..e), whose hash is h; a new spelling gets the next id. */
  internRange(src: string, s: number, e: number, h: number): number {
    const tab = this.tab, hashes = this.hashes, names = this.names;
    const m = this.tabSize - 1;
    const len = e - s;
    let p = (h ^ (h >>> 15)) & m;
    for (;;) {
      const v = tab[p];
      if (v === 0) return this.addName(src.slice(s, e), h, p);
      const id = v - 1;
      if (hashes[id] === h) {
        const nm = names[id];
        if (nm.length === len) {
          let k = 0;
          while (k < len && nm.charCodeAt(k) === src.charCodeAt(s + k)) k++;
          if (k === len) return id;
        }
      }
      p = (p + 1) & m;
    }
  }
}
