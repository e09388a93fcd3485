// Lexer: one pass over a preprocessed translation unit (.cpp1.ii) into the typed-array token
// stream of tokens.ts. See docs/ARCHITECTURE.md (the front end).
//
// What it produces
// - Ident: identifiers and keywords. `id` is the interned spelling. Keywords are not a separate
//   kind: compare `t.names[t.id[i]]` or precompute ids with `internId(t, 'int')` (-1 = never seen).
//   Every spelling in PRE_INTERNED (all punctuators, then the C++/GNU/CUDA keywords) gets the same
//   id in every token stream, i.e. `preId('int')` is a constant you may cache across units.
// - Punct: punctuators, longest match (`::`, `->*`, `...`, `<=>`, `>>=`, `<<=`, ...). No digraphs.
// - Number: pp-number (decimal/hex/octal/binary, `'` separators, suffixes, hex floats, `1.e-5f`,
//   user-defined suffixes). Text only; parse on demand.
// - Char / String: include prefix (L, u, U, u8), escapes, user-defined-literal suffix; raw strings
//   R"d(...)d" (and LR/uR/UR/u8R) are String tokens spanning their text verbatim.
// - Pragma: one token per `#pragma` line; its text (tokText) is the line from `pragma` on,
//   without the leading '#' and without the line end.
// Line markers `# N "file" flags` and `#line N "file"` set file/line of the tokens that follow;
// other directives (`#ident`, ...) are skipped. Comments are skipped.
//
// `>>` in template argument lists: the lexer always produces ONE token for `>>` (and `>>=`, `>=`).
// A parser that is inside a template argument list and meets a token whose spelling is '>>'
// (`t.id[i] === preId('>>')`) must treat it as two '>': close the current list and remember a
// pending '>' that closes the enclosing list (don't advance past the token until both are used).
// `t.spaceBefore[i]` tells `> >` (two tokens) from `>>`.
//
// Errors (unterminated literal/comment, stray character, malformed line marker, invalid UTF-8 in a
// literal) never throw: they are recorded in `t.errors` ({pos, message}; pos is an offset into src; use
// `posToLine`) and lexing goes on. The text arrives decoded as UTF-8, so an invalid byte is U+FFFD here:
// cicc rejects it in literals and identifiers ("invalid multibyte character sequence", "unrecognized
// token") and ignores it in comments. A U+FFFD may also have been a valid one in the file, which cicc may
// accept: such errors are `undecided`, and the unit goes to cicc.

import { Tok, Tokens } from './tokens';
import { ALT_FIRST, ALT_PUNCT, preId, punctAt } from './lexer-spellings';
import { NameInterner, type NameTable } from './lexer-names';

export { PUNCTUATORS, PRE_INTERNED, preId } from './lexer-spellings';
export { nameTable, trimNameTable, type NameTable } from './lexer-names';

export interface LexError {
  pos: number; message: string;
  /** EDG's error number, when it is not 7 ("unrecognized token" and other bad tokens). */
  number?: number;
  /** Presumed file and line of the error, for errors inside a line marker (its tokens do not tell them). */
  file?: string; line?: number;
  /** At a U+FFFD, which was invalid UTF-8 (an error to cicc) or a valid U+FFFD (maybe not): cicc decides. */
  undecided?: boolean;
}

/** What an invalid UTF-8 sequence becomes when the unit is decoded. */
const REPLACEMENT = 0xfffd;

// Character classes: 1 = identifier start, 2 = identifier continue, 4 = digit, 8 = horizontal space.
const CC = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_$]/.test(ch)) CC[c] |= 1 | 2;
  if (/[0-9]/.test(ch)) CC[c] |= 2 | 4;
  if (c === 32 || c === 9 || c === 11 || c === 12 || c === 13) CC[c] |= 8;
}
const isIdCont = (c: number): boolean => (c < 128 ? (CC[c] & 2) !== 0 : c !== 0xfeff && c !== REPLACEMENT);

// Small hot helper at module level: V8 optimizes it quickly, which matters for a cold (one-shot) lex.
function spacesEnd(src: string, p: number, n: number): number {
  while (p < n) {
    const d = src.charCodeAt(p);
    if (d >= 128 || (CC[d] & 8) === 0) break;
    p++;
  }
  return p;
}

/** What lex returns: a Tokens whose `errors` is always present (possibly empty). */
export interface TokensWithErrors extends Tokens { readonly errors: LexError[] }

/**
 * Where lexing resumes (prelude reuse, see prelude.ts): the state a clean lex of the same text has at
 * `offset`, which must be the start of a line reached by the main loop (after a newline, outside any
 * comment, literal or directive) with only horizontal space before the token `count`. The arrays hold
 * the tokens before the cut (at least `count` entries; `start`/`end` already in this text's offsets).
 * `names` are the interned spellings in id order and `files` the files seen so far; `fileAt[k]` is the
 * offset of the line marker that introduced files[k]. Nothing here is modified.
 */
export interface LexResume {
  offset: number;
  count: number;
  line: number;
  curFile: number;
  names: readonly string[];
  files: readonly string[];
  fileAt: readonly number[];
  kind: Uint8Array; start: Uint32Array; end: Uint32Array; id: Int32Array;
  line_: Uint32Array; file: Uint16Array; spaceBefore: Uint8Array;
  /** Added to the copied `start`/`end` (the prefix sits `shift` chars later in this text). */
  shift: number;
  /** The interning table of a superset of `names` (nameTable()): copied instead of hashing every name again. */
  table?: NameTable;
  /** `names` is a fresh array the lex may keep and append to (saves copying it). */
  ownNames?: boolean;
  /**
   * Arrays of an earlier lex from the same prefix, no longer in use, to write into instead of allocating
   * (prelude.ts lends them): their first `valid` tokens already equal the prefix's, shifted by `shift`.
   */
  into?: TokenArrays & { valid: number; shift: number };
}

/** The per-token arrays of a Tokens. */
export interface TokenArrays {
  kind: Uint8Array; start: Uint32Array; end: Uint32Array; id: Int32Array;
  line: Uint32Array; file: Uint16Array; spaceBefore: Uint8Array;
}

export function lex(src: string): TokensWithErrors {
  return lexFrom(src).tokens;
}

/** lex(), optionally resumed from a cut; also returns where each file was introduced (for prelude.ts). */
export function lexFrom(src: string, resume?: LexResume): { tokens: TokensWithErrors; fileAt: number[] } {
  const lx = new Lexer(src, resume);
  let p = 0;
  if (src.charCodeAt(0) === 0xfeff) p = 1;
  if (resume) p = resume.offset;
  lx.run(p);
  return lx.finish();
}

/**
 * One lex in progress: the token arrays being written and the state its steps share (line, file, whether
 * space came before the next token). The main loop dispatches on the first character to one step per kind of token.
 */
class Lexer {
  private readonly n: number;
  private cap: number;
  private kind: Uint8Array;
  private start: Uint32Array;
  private end: Uint32Array;
  private idA: Int32Array;
  private lineA: Uint32Array;
  private fileA: Uint16Array;
  private spaceA: Uint8Array;
  private count = 0;
  private readonly errors: LexError[] = [];
  private readonly fileAt: number[] = [];
  private markerPos = 0; // offset of the line marker being read (for fileAt)
  private readonly names: NameInterner;
  private readonly files: string[] = [];
  private readonly fileMap = new Map<string, number>();
  private curFile = -1;
  private line = 1;
  private space = 1;
  /** The hash of the identifier identEnd() last read. */
  private hash = 0;

  constructor(private readonly src: string, resume: LexResume | undefined) {
    const n = this.n = src.length;
    let cap = Math.max(1024, (n >>> 2) | 0, resume ? resume.count + 1024 : 0);
    // a lent buffer at least as large as a fresh one would be: only its stale part is copied from the prefix
    const into = resume?.into && resume.into.kind.length >= cap ? resume.into : undefined;
    if (into) cap = into.kind.length;
    this.cap = cap;
    this.kind = into ? into.kind : new Uint8Array(cap);
    this.start = into ? into.start : new Uint32Array(cap);
    this.end = into ? into.end : new Uint32Array(cap);
    this.idA = into ? into.id : new Int32Array(cap);
    this.lineA = into ? into.line : new Uint32Array(cap);
    this.fileA = into ? into.file : new Uint16Array(cap);
    this.spaceA = into ? into.spaceBefore : new Uint8Array(cap);
    this.names = new NameInterner(resume);
    if (resume) this.resumeFrom(resume, into);
  }

  /** Takes over the tokens, files and position of the prefix before the cut. */
  private resumeFrom(resume: LexResume, into: LexResume['into']): void {
    const { kind, start, end, idA, lineA, fileA, spaceA } = this;
    resume.files.forEach((f, k) => { this.files.push(f); this.fileMap.set(f, k); this.fileAt.push(resume.fileAt[k]); });
    const c = resume.count, d = resume.shift;
    const from = into && into.shift === d ? Math.min(into.valid, c) : 0;
    if (from < c) {
      kind.set(resume.kind.subarray(from, c), from); start.set(resume.start.subarray(from, c), from); end.set(resume.end.subarray(from, c), from);
      idA.set(resume.id.subarray(from, c), from); lineA.set(resume.line_.subarray(from, c), from); fileA.set(resume.file.subarray(from, c), from);
      spaceA.set(resume.spaceBefore.subarray(from, c), from);
      if (d !== 0) for (let k = from; k < c; k++) { start[k] += d; end[k] += d; }
    }
    this.count = c;
    this.curFile = resume.curFile;
    this.line = resume.line;
  }

  private fileIndex(f: string): number {
    let v = this.fileMap.get(f);
    if (v === undefined) { v = this.files.length; this.files.push(f); this.fileMap.set(f, v); this.fileAt.push(this.markerPos); }
    return v;
  }

  private grow(): void {
    const cap = this.cap *= 2;
    const k2 = new Uint8Array(cap); k2.set(this.kind); this.kind = k2;
    const s2 = new Uint32Array(cap); s2.set(this.start); this.start = s2;
    const e2 = new Uint32Array(cap); e2.set(this.end); this.end = e2;
    const i2 = new Int32Array(cap); i2.set(this.idA); this.idA = i2;
    const l2 = new Uint32Array(cap); l2.set(this.lineA); this.lineA = l2;
    const f2 = new Uint16Array(cap); f2.set(this.fileA); this.fileA = f2;
    const sp2 = new Uint8Array(cap); sp2.set(this.spaceA); this.spaceA = sp2;
  }

  private push(k: number, s: number, e: number, id: number): void {
    if (this.count + 1 >= this.cap) this.grow();
    if (this.curFile < 0) { this.markerPos = s; this.curFile = this.fileIndex(''); }
    const count = this.count;
    this.kind[count] = k; this.start[count] = s; this.end[count] = e; this.idA[count] = id;
    this.lineA[count] = this.line; this.fileA[count] = this.curFile; this.spaceA[count] = this.space;
    this.count = count + 1;
    this.space = 0;
  }

  /** The main loop from offset p to the end of the text. */
  run(p: number): void {
    const src = this.src, n = this.n;
    let bol = true; // only whitespace since the last newline
    while (p < n) {
      const c = src.charCodeAt(p);

      // whitespace
      if (c === 10) { this.line++; p++; bol = true; this.space = 1; continue; }
      if (c < 128 && (CC[c] & 8) !== 0) { p = spacesEnd(src, p + 1, n); this.space = 1; continue; }

      // directives
      if (c === 35 /* # */ && bol) { this.space = 1; p = this.directive(p); continue; }
      bol = false;

      // identifiers (and prefixed literals)
      if (c < 128 ? (CC[c] & 1) !== 0 : c !== 0xfeff && c !== 0xa0 && c !== REPLACEMENT) { p = this.identifier(p, c); continue; }

      // numbers
      if ((c >= 48 && c <= 57) || (c === 46 && (CC[src.charCodeAt(p + 1)] & 4) !== 0)) { p = this.number(p); continue; }

      // string / char literals
      if (c === 34 || c === 39) { p = this.literal(p, p, c); continue; }

      // comments
      if (c === 47 /* / */) {
        const d = src.charCodeAt(p + 1);
        if (d === 47 || d === 42) { p = this.comment(p, d); continue; }
      }

      p = this.punctuator(p, c);
    }
  }

  /** The token stream with its EOF token. */
  finish(): { tokens: TokensWithErrors; fileAt: number[] } {
    const n = this.n;
    if (this.count + 1 >= this.cap) this.grow();
    if (this.curFile < 0) { this.markerPos = n; this.curFile = this.fileIndex(''); }
    const count = this.count;
    this.kind[count] = Tok.EOF; this.start[count] = n; this.end[count] = n; this.idA[count] = -1;
    this.lineA[count] = this.line; this.fileA[count] = this.curFile; this.spaceA[count] = 1;
    const tokens = {
      src: this.src, count, kind: this.kind, start: this.start, end: this.end, id: this.idA, line: this.lineA,
      file: this.fileA, files: this.files, names: this.names.names, spaceBefore: this.spaceA, errors: this.errors,
    };
    return { tokens, fileAt: this.fileAt };
  }

  /** End of the identifier whose first char c is before p; its hash is left in `hash`. */
  private identEnd(p: number, c: number): number {
    const src = this.src, n = this.n;
    let h = c;
    while (p < n) {
      const d = src.charCodeAt(p);
      if (d < 128 ? (CC[d] & 2) === 0 : d === 0xfeff || d === 0xa0 || d === REPLACEMENT) break;
      h = (Math.imul(h, 31) + d) | 0;
      p++;
    }
    this.hash = h;
    return p;
  }

  /** An identifier, keyword, alternative token or prefixed literal starting at s with char c; returns its end. */
  private identifier(s: number, c: number): number {
    const src = this.src;
    const p = this.identEnd(s + 1, c);
    const h = this.hash;
    const q = src.charCodeAt(p);
    if ((q === 34 || q === 39) && p - s <= 3) {
      const pre = src.slice(s, p);
      if (q === 34 && (pre === 'R' || pre === 'LR' || pre === 'uR' || pre === 'UR' || pre === 'u8R')) {
        const l0 = this.line;
        const e = this.udSuffix(this.scanRaw(s, p));
        this.push(Tok.String, s, e, -1);
        this.lineA[this.count - 1] = l0; // token line = the line it starts on
        return e;
      }
      if (pre === 'L' || pre === 'u' || pre === 'U' || pre === 'u8') return this.literal(s, p, q);
    }
    const id = this.names.internRange(src, s, p, h);
    if (id >= ALT_FIRST && id < ALT_FIRST + ALT_PUNCT.length) this.push(Tok.Punct, s, p, ALT_PUNCT[id - ALT_FIRST]!);
    else this.push(Tok.Ident, s, p, id);
    return p;
  }

  /** A pp-number starting at s; returns its end. */
  private number(s: number): number {
    const src = this.src, n = this.n;
    let p = s + 1;
    while (p < n) {
      const d = src.charCodeAt(p);
      if (d < 128 && (CC[d] & 2) !== 0) { p++; continue; }
      if (d === 46) { p++; continue; }
      if ((d === 43 || d === 45)) {
        const pr = src.charCodeAt(p - 1) | 32;
        if (pr === 101 /* e */ || pr === 112 /* p */) { p++; continue; }
        break;
      }
      if (d === 39 && p + 1 < n && (CC[src.charCodeAt(p + 1)] & 2) !== 0) { p += 2; continue; }
      break;
    }
    this.push(Tok.Number, s, p, -1);
    return p;
  }

  /** A string or character literal starting at s (its prefix, if any) whose quote q is at p; returns its end. */
  private literal(s: number, p: number, q: number): number {
    const lineStart = this.line;
    const e = this.udSuffix(this.scanQuoted(p, q, q === 34 ? '" character' : "' character"));
    const lAfter = this.line; this.line = lineStart;
    this.push(q === 34 ? Tok.String : Tok.Char, s, e, -1);
    this.line = lAfter;
    return e;
  }

  /** A comment starting at p whose second char is d ('/' or '*'); returns its end. */
  private comment(p: number, d: number): number {
    this.space = 1;
    if (d === 47) return this.lineEnd(p);
    const e = this.src.indexOf('*/', p + 2);
    if (e < 0) {
      this.errors.push({ pos: p, message: 'unterminated comment' });
      this.countNewlines(p, this.n);
      return this.n;
    }
    this.countNewlines(p, e);
    return e + 2;
  }

  /** A punctuator at p with first char c, a stray line splice, or an unrecognized character; returns where to go on. */
  private punctuator(p: number, c: number): number {
    const src = this.src;
    const pl = punctAt(src, p, c);
    const pid = pl < 0 ? -1 : pl & 255, len = pl >> 8;
    const c1 = src.charCodeAt(p + 1);
    if (pid >= 0) {
      this.push(Tok.Punct, p, p + len, pid);
      return p + len;
    }
    if (c === 92 && (c1 === 10 || (c1 === 13 && src.charCodeAt(p + 2) === 10))) {
      // stray line splice: treat as whitespace
      this.line++; this.space = 1;
      return p + (c1 === 13 ? 3 : 2);
    }
    this.errors.push({ pos: p, message: `unrecognized token`, undecided: c === REPLACEMENT });
    this.space = 1;
    return p + 1;
  }

  /** Offset of the end of the logical line starting at p (before '\n'; honours backslash-newline). */
  private lineEnd(p: number): number {
    const src = this.src;
    for (;;) {
      const q = src.indexOf('\n', p);
      if (q < 0) return this.n;
      let r = q - 1;
      if (r >= p && src.charCodeAt(r) === 13) r--;
      if (r >= p && src.charCodeAt(r) === 92) { this.line++; p = q + 1; continue; }
      return q;
    }
  }

  private countNewlines(s: number, e: number): void {
    const src = this.src;
    let q = src.indexOf('\n', s);
    while (q >= 0 && q < e) { this.line++; q = src.indexOf('\n', q + 1); }
  }

  /** Scan a quoted literal whose opening quote is at p; returns offset one past the closing quote. */
  private scanQuoted(p: number, q: number, what: string): number {
    const src = this.src, n = this.n;
    let j = p + 1;
    for (;;) {
      if (j >= n) { this.errors.push({ pos: p, message: `missing terminating ${what}` }); return n; }
      const c = src.charCodeAt(j);
      if (c === q) return j + 1;
      if (c === 92) {
        if (src.charCodeAt(j + 1) === 10) this.line++;
        j += 2; continue;
      }
      if (c === 10) { this.errors.push({ pos: p, message: `missing terminating ${what}` }); return j; }
      if (c === REPLACEMENT) this.errors.push({ pos: j, message: 'invalid multibyte character sequence', number: 870, undecided: true });
      j++;
    }
  }

  private udSuffix(j: number): number {
    const src = this.src, n = this.n;
    if (j < n && isIdCont(src.charCodeAt(j)) && !((CC[src.charCodeAt(j)] & 4) !== 0)) {
      while (j < n && isIdCont(src.charCodeAt(j))) j++;
    }
    return j;
  }

  /** Raw string: p points at the opening '"' after the R prefix. Returns end offset. */
  private scanRaw(tokStart: number, p: number): number {
    const src = this.src, n = this.n;
    const open = src.indexOf('(', p + 1);
    const delim = open < 0 ? '' : src.slice(p + 1, open);
    if (open < 0 || delim.length > 16 || /[\s\\)]/.test(delim)) {
      this.errors.push({ pos: tokStart, message: 'invalid delimiter in raw string literal' });
      return this.scanQuoted(p, 34, '" character');
    }
    const close = src.indexOf(')' + delim + '"', open + 1);
    if (close < 0) {
      this.errors.push({ pos: tokStart, message: 'missing terminating delimiter of raw string literal' });
      this.countNewlines(p, n);
      return n;
    }
    this.countNewlines(p, close);
    for (let j = src.indexOf('\ufffd', open); j >= 0 && j < close; j = src.indexOf('\ufffd', j + 1)) {
      this.errors.push({ pos: j, message: 'invalid multibyte character sequence', number: 870, undecided: true });
    }
    return close + delim.length + 2;
  }

  /** A directive line starting with the '#' at p (at the start of a line); returns where lexing resumes. */
  private directive(p: number): number {
    const src = this.src, n = this.n;
    this.space = 1;
    this.markerPos = p;
    let q = p + 1;
    while (q < n && (src.charCodeAt(q) === 32 || src.charCodeAt(q) === 9)) q++;
    let wordEnd = q;
    while (wordEnd < n && isIdCont(src.charCodeAt(wordEnd))) wordEnd++;
    const d0 = src.charCodeAt(q);
    if ((d0 >= 48 && d0 <= 57) || (wordEnd - q === 4 && src.startsWith('line', q))) {
      return this.lineMarker(q, wordEnd, !(d0 >= 48 && d0 <= 57));
    }
    if (wordEnd - q === 6 && src.startsWith('pragma', q)) return this.pragma(q, wordEnd);
    // any other directive (or the null directive): skip the line
    return this.lineEnd(q);
  }

  /**
   * A line marker `# N "file" flags` (q at N) or `#line N "file"` (isLine; q at `line`, wordEnd after it); returns
   * where lexing resumes. cicc's checks, with its wording; a marker in error changes neither file nor line.
   */
  private lineMarker(q: number, wordEnd: number, isLine: boolean): number {
    const src = this.src, n = this.n;
    const isBlank = (k: number): boolean => k >= n || src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9 || src.charCodeAt(k) === 10 || src.charCodeAt(k) === 13;
    if (isLine) {
      q = wordEnd;
      while (q < n && (src.charCodeAt(q) === 32 || src.charCodeAt(q) === 9)) q++;
      const d1 = src.charCodeAt(q);
      if (!(d1 >= 48 && d1 <= 57)) return this.badMarker(q, q, 12, 'expected a line number');
    }
    let num = 0;
    while (q < n) {
      const d = src.charCodeAt(q);
      if (d < 48 || d > 57) break;
      num = num * 10 + (d - 48); q++;
    }
    if (!isBlank(q)) return this.badMarker(q, q, 13, 'expected a file name');
    while (q < n && (src.charCodeAt(q) === 32 || src.charCodeAt(q) === 9)) q++;
    let fileIdx = this.curFile;
    if (q < n && src.charCodeAt(q) !== 10 && src.charCodeAt(q) !== 13) {
      if (src.charCodeAt(q) !== 34) return this.badMarker(q, q, 13, 'expected a file name');
      let r = q + 1;
      while (r < n && src.charCodeAt(r) !== 34 && src.charCodeAt(r) !== 10) {
        if (src.charCodeAt(r) === 92) r++;
        r++;
      }
      if (r >= n || src.charCodeAt(r) !== 34 || !isBlank(r + 1)) return this.badMarker(q, q, 13, 'expected a file name');
      // flags: `# N "file" 1 3 4`; `#line` takes none
      let k = r + 1;
      for (;;) {
        while (k < n && (src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9 || src.charCodeAt(k) === 13)) k++;
        if (k >= n || src.charCodeAt(k) === 10) break;
        const f0 = k;
        while (k < n && src.charCodeAt(k) >= 48 && src.charCodeAt(k) <= 57) k++;
        if (isLine || k === f0 || !isBlank(k)) return this.badMarker(q, f0, 14, 'extra text after expected end of preprocessing directive');
      }
      const cur = this.curFile >= 0 ? this.files[this.curFile] : '';
      if (this.curFile < 0 || r - q - 1 !== cur.length || !src.startsWith(cur, q + 1)) fileIdx = this.fileIndex(src.slice(q + 1, r));
    }
    this.curFile = fileIdx;
    const le = this.lineEnd(q);
    this.line = num;
    return le + 1; // past the newline: the next line is line `num`
  }

  /** A line marker in error at `at` (q: where its reading stopped): reported, and the rest of its line skipped. */
  private badMarker(q: number, at: number, number: number, message: string): number {
    this.errors.push({ pos: at, message, number, file: this.curFile >= 0 ? this.files[this.curFile] : '', line: this.line });
    const le = this.lineEnd(q);
    this.line++;
    return le + 1;
  }

  /** A `#pragma` line (q at `pragma`, wordEnd after it) as one Pragma token; returns the line's end. */
  private pragma(q: number, wordEnd: number): number {
    const src = this.src;
    const l0 = this.line;
    const le = this.lineEnd(wordEnd);
    let e = le;
    while (e > q && (src.charCodeAt(e - 1) === 13 || src.charCodeAt(e - 1) === 32 || src.charCodeAt(e - 1) === 9)) e--;
    const saveLine = this.line; this.line = l0;
    this.push(Tok.Pragma, q, e, -1);
    this.line = saveLine;
    this.space = 1;
    return le;
  }
}

/** The source text of token i (for Pragma: the line from `pragma` on). */
export function tokText(t: Tokens, i: number): string {
  const id = t.id[i];
  if (id >= 0) return t.names[id];
  return t.src.slice(t.start[i], t.end[i]);
}

const idCache = new WeakMap<Tokens, Map<string, number>>();
/** The interned id of spelling s in t, or -1 if it never occurs (pre-interned spellings always exist). */
export function internId(t: Tokens, s: string): number {
  const pre = preId(s);
  if (pre >= 0 && t.names[pre] === s) return pre;
  let m = idCache.get(t);
  if (!m) {
    m = new Map();
    const names = t.names;
    for (let i = 0; i < names.length; i++) m.set(names[i], i);
    idCache.set(t, m);
  }
  const v = m.get(s);
  return v === undefined ? -1 : v;
}

/** 1-based line/column of a source offset (for errors reported by position), physical lines of src. */
export function posToLine(t: Tokens, pos: number): { file: string; line: number } {
  // Find the nearest token at or before pos and use its presumed file/line, corrected by newlines between.
  let lo = 0, hi = t.count - 1, best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t.start[mid] <= pos) { best = mid; lo = mid + 1; } else hi = mid - 1;
  }
  if (best < 0) return { file: t.files[0] ?? '', line: 1 };
  let line = t.line[best];
  let q = t.src.indexOf('\n', t.start[best]);
  while (q >= 0 && q < pos) { line++; q = t.src.indexOf('\n', q + 1); }
  return { file: t.files[t.file[best]], line };
}
