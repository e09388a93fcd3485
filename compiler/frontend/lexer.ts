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

/** Punctuator spellings; their interned id is their index here. */
export const PUNCTUATORS: readonly string[] = [
  '{', '}', '[', ']', '(', ')', ';', ',', '?', '~',
  ':', '::', '.', '...', '.*', '->', '->*',
  '+', '++', '+=', '-', '--', '-=', '*', '*=', '/', '/=', '%', '%=', '^', '^=',
  '!', '!=', '=', '==', '&', '&&', '&=', '|', '||', '|=',
  '<', '<=', '<=>', '<<', '<<=', '>', '>=', '>>', '>>=', '#', '##',
];

const KEYWORDS: readonly string[] = [
  'alignas', 'alignof', 'asm', 'auto', 'bool', 'break', 'case', 'catch', 'char', 'char8_t', 'char16_t',
  'char32_t', 'class', 'const', 'consteval', 'constexpr', 'constinit', 'const_cast', 'continue',
  'co_await', 'co_return', 'co_yield', 'decltype', 'default', 'delete', 'do', 'double',
  'dynamic_cast', 'else', 'enum', 'explicit', 'export', 'extern', 'false', 'float', 'for', 'friend',
  'goto', 'if', 'inline', 'int', 'long', 'mutable', 'namespace', 'new', 'noexcept', 'nullptr',
  'operator', 'private', 'protected', 'public', 'register', 'reinterpret_cast', 'requires', 'return',
  'short', 'signed', 'sizeof', 'static', 'static_assert', 'static_cast', 'struct', 'switch',
  'template', 'this', 'thread_local', 'throw', 'true', 'try', 'typedef', 'typeid', 'typename',
  'union', 'unsigned', 'using', 'virtual', 'void', 'volatile', 'wchar_t', 'while',
  // GNU / C spellings found in .ii files
  '__attribute__', '__attribute', '__extension__', '__inline__', '__inline', '__restrict__',
  '__restrict', '__const__', '__const', '__volatile__', '__volatile', '__signed__', '__signed',
  '__typeof__', '__typeof', 'typeof', '__asm__', '__asm', '__decltype', '__alignof__', '__alignof',
  '_Alignas', '_Alignof', '_Static_assert', '__thread', '_Thread_local', '__int128', '__float128',
  '_Complex', '__complex__', '__real__', '__imag__', '__label__', '__builtin_va_list',
  // CUDA spellings that survive preprocessing
  '__noinline__', '__forceinline__', '__location__', '__launch_bounds__',
  // contextual
  'final', 'override',
];

/** C++'s alternative tokens ([lex.digraph]): `not (a and b)` is `!(a && b)`. The lexer turns them into the punctuators they spell. */
const ALTERNATIVE_TOKENS: readonly (readonly [string, string])[] = [
  ['and', '&&'], ['and_eq', '&='], ['bitand', '&'], ['bitor', '|'], ['compl', '~'], ['not', '!'],
  ['not_eq', '!='], ['or', '||'], ['or_eq', '|='], ['xor', '^'], ['xor_eq', '^='],
];

/** Spellings with fixed ids in every token stream: PUNCTUATORS, then keywords, then the alternative tokens. */
export const PRE_INTERNED: readonly string[] = [...PUNCTUATORS, ...KEYWORDS, ...ALTERNATIVE_TOKENS.map(a => a[0])];

/** For the id of an alternative token's spelling, the punctuator's id (ALT_FIRST onwards). */
const ALT_FIRST = PUNCTUATORS.length + KEYWORDS.length;
const ALT_PUNCT = ALTERNATIVE_TOKENS.map(a => PUNCTUATORS.indexOf(a[1]));

const preMap = new Map<string, number>();
PRE_INTERNED.forEach((s, i) => preMap.set(s, i));

/** The fixed id of a PRE_INTERNED spelling (same in every Tokens); -1 if it is not pre-interned. */
export function preId(s: string): number {
  const v = preMap.get(s);
  return v === undefined ? -1 : v;
}

// Fixed punctuator ids (indices into PUNCTUATORS).
const P_LBRACE = 0, P_RBRACE = 1, P_LBRACK = 2, P_RBRACK = 3, P_LPAREN = 4, P_RPAREN = 5,
  P_SEMI = 6, P_COMMA = 7, P_QUEST = 8, P_TILDE = 9, P_COLON = 10, P_COLON2 = 11, P_DOT = 12,
  P_ELLIPSIS = 13, P_DOTSTAR = 14, P_ARROW = 15, P_ARROWSTAR = 16, P_PLUS = 17, P_PLUSPLUS = 18,
  P_PLUSEQ = 19, P_MINUS = 20, P_MINUSMINUS = 21, P_MINUSEQ = 22, P_STAR = 23, P_STAREQ = 24,
  P_SLASH = 25, P_SLASHEQ = 26, P_PERCENT = 27, P_PERCENTEQ = 28, P_CARET = 29, P_CARETEQ = 30,
  P_EXCL = 31, P_NE = 32, P_ASSIGN = 33, P_EQ = 34, P_AMP = 35, P_AMPAMP = 36, P_AMPEQ = 37,
  P_PIPE = 38, P_PIPEPIPE = 39, P_PIPEEQ = 40, P_LT = 41, P_LE = 42, P_SPACESHIP = 43, P_SHL = 44,
  P_SHLEQ = 45, P_GT = 46, P_GE = 47, P_SHR = 48, P_SHREQ = 49, P_HASH = 50, P_HASHHASH = 51;

// Character classes: 1 = identifier start, 2 = identifier continue, 4 = digit, 8 = horizontal space.
const CC = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_$]/.test(ch)) CC[c] |= 1 | 2;
  if (/[0-9]/.test(ch)) CC[c] |= 2 | 4;
  if (c === 32 || c === 9 || c === 11 || c === 12 || c === 13) CC[c] |= 8;
}
const isIdCont = (c: number): boolean => (c < 128 ? (CC[c] & 2) !== 0 : c !== 0xfeff && c !== REPLACEMENT);

// Small hot helpers at module level: V8 optimizes these quickly, which matters for a cold (one-shot) lex.
let gHash = 0;
/** End of the identifier whose first char c is before p; its hash is left in gHash. */
function identEnd(src: string, p: number, n: number, c: number): number {
  let h = c;
  while (p < n) {
    const d = src.charCodeAt(p);
    if (d < 128 ? (CC[d] & 2) === 0 : d === 0xfeff || d === 0xa0 || d === REPLACEMENT) break;
    h = (Math.imul(h, 31) + d) | 0;
    p++;
  }
  gHash = h;
  return p;
}
function spacesEnd(src: string, p: number, n: number): number {
  while (p < n) {
    const d = src.charCodeAt(p);
    if (d >= 128 || (CC[d] & 8) === 0) break;
    p++;
  }
  return p;
}

/** Punctuator at p (first char c): (id | len << 8), or -1. */
function punctAt(src: string, p: number, c: number): number {
  const c1 = src.charCodeAt(p + 1);
  let pid = -1, len = 1;
  switch (c) {
    case 123: pid = P_LBRACE; break;
    case 125: pid = P_RBRACE; break;
    case 91: pid = P_LBRACK; break;
    case 93: pid = P_RBRACK; break;
    case 40: pid = P_LPAREN; break;
    case 41: pid = P_RPAREN; break;
    case 59: pid = P_SEMI; break;
    case 44: pid = P_COMMA; break;
    case 63: pid = P_QUEST; break;
    case 126: pid = P_TILDE; break;
    case 58: if (c1 === 58) { pid = P_COLON2; len = 2; } else pid = P_COLON; break;
    case 46:
      if (c1 === 46 && src.charCodeAt(p + 2) === 46) { pid = P_ELLIPSIS; len = 3; }
      else if (c1 === 42) { pid = P_DOTSTAR; len = 2; }
      else pid = P_DOT;
      break;
    case 45:
      if (c1 === 62) {
        if (src.charCodeAt(p + 2) === 42) { pid = P_ARROWSTAR; len = 3; } else { pid = P_ARROW; len = 2; }
      } else if (c1 === 45) { pid = P_MINUSMINUS; len = 2; }
      else if (c1 === 61) { pid = P_MINUSEQ; len = 2; }
      else pid = P_MINUS;
      break;
    case 43:
      if (c1 === 43) { pid = P_PLUSPLUS; len = 2; } else if (c1 === 61) { pid = P_PLUSEQ; len = 2; } else pid = P_PLUS;
      break;
    case 42: if (c1 === 61) { pid = P_STAREQ; len = 2; } else pid = P_STAR; break;
    case 47: if (c1 === 61) { pid = P_SLASHEQ; len = 2; } else pid = P_SLASH; break;
    case 37: if (c1 === 61) { pid = P_PERCENTEQ; len = 2; } else pid = P_PERCENT; break;
    case 94: if (c1 === 61) { pid = P_CARETEQ; len = 2; } else pid = P_CARET; break;
    case 33: if (c1 === 61) { pid = P_NE; len = 2; } else pid = P_EXCL; break;
    case 61: if (c1 === 61) { pid = P_EQ; len = 2; } else pid = P_ASSIGN; break;
    case 38:
      if (c1 === 38) { pid = P_AMPAMP; len = 2; } else if (c1 === 61) { pid = P_AMPEQ; len = 2; } else pid = P_AMP;
      break;
    case 124:
      if (c1 === 124) { pid = P_PIPEPIPE; len = 2; } else if (c1 === 61) { pid = P_PIPEEQ; len = 2; } else pid = P_PIPE;
      break;
    case 60:
      if (c1 === 61) {
        if (src.charCodeAt(p + 2) === 62) { pid = P_SPACESHIP; len = 3; } else { pid = P_LE; len = 2; }
      } else if (c1 === 60) {
        if (src.charCodeAt(p + 2) === 61) { pid = P_SHLEQ; len = 3; } else { pid = P_SHL; len = 2; }
      } else pid = P_LT;
      break;
    case 62:
      if (c1 === 61) { pid = P_GE; len = 2; }
      else if (c1 === 62) {
        if (src.charCodeAt(p + 2) === 61) { pid = P_SHREQ; len = 3; } else { pid = P_SHR; len = 2; }
      } else pid = P_GT;
      break;
    case 35: if (c1 === 35) { pid = P_HASHHASH; len = 2; } else pid = P_HASH; break;
    default: break;
  }
  return pid < 0 ? -1 : pid | (len << 8);
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

/**
 * An interning table over names[0..n): open addressing, slot = id + 1 (0 = empty), linear probing. `count`: the
 * names its slots hold (hashes may cover more).
 */
export interface NameTable { tab: Int32Array; hashes: Int32Array; count: number }

function hashName(s: string): number {
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
 */
export function trimNameTable(t: NameTable, limit: number): NameTable {
  if (limit >= t.count) return t;
  const tab = t.tab.slice();
  for (let p = 0; p < tab.length; p++) if (tab[p]! > limit) tab[p] = 0;
  return { tab, hashes: t.hashes, count: limit };
}

export function lex(src: string): TokensWithErrors {
  return lexFrom(src).tokens;
}

/** lex(), optionally resumed from a cut; also returns where each file was introduced (for prelude.ts). */
export function lexFrom(src: string, resume?: LexResume): { tokens: TokensWithErrors; fileAt: number[] } {
  const n = src.length;
  let cap = Math.max(1024, (n >>> 2) | 0, resume ? resume.count + 1024 : 0);
  // a lent buffer at least as large as a fresh one would be: only its stale part is copied from the prefix
  const into = resume?.into && resume.into.kind.length >= cap ? resume.into : undefined;
  if (into) cap = into.kind.length;
  let kind = into ? into.kind : new Uint8Array(cap);
  let start = into ? into.start : new Uint32Array(cap);
  let end = into ? into.end : new Uint32Array(cap);
  let idA = into ? into.id : new Int32Array(cap);
  let lineA = into ? into.line : new Uint32Array(cap);
  let fileA = into ? into.file : new Uint16Array(cap);
  let spaceA = into ? into.spaceBefore : new Uint8Array(cap);
  let count = 0;
  const errors: LexError[] = [];
  const fileAt: number[] = [];
  let markerPos = 0; // offset of the line marker being read (for fileAt)

  // ---- interning: open-addressing hash table over source substrings (no slicing on hits)
  const names: string[] = resume?.ownNames && resume.table && resume.table.hashes.length >= resume.names.length ? resume.names as string[] : [];
  let hashes = new Int32Array(1024);
  let tabSize = 1 << 14;
  let tab = new Int32Array(tabSize); // id + 1, 0 = empty
  const hashStr = hashName;
  const rehash = (): void => {
    tabSize <<= 1;
    tab = new Int32Array(tabSize);
    const m = tabSize - 1;
    for (let id = 0; id < names.length; id++) {
      let p = (hashes[id] ^ (hashes[id] >>> 15)) & m;
      while (tab[p] !== 0) p = (p + 1) & m;
      tab[p] = id + 1;
    }
  };
  const addName = (s: string, h: number, slot: number): number => {
    const id = names.length;
    names.push(s);
    if (id >= hashes.length) { const nh = new Int32Array(hashes.length * 2); nh.set(hashes); hashes = nh; }
    hashes[id] = h;
    tab[slot] = id + 1;
    if (names.length * 2 > tabSize) rehash();
    return id;
  };
  const internRange = (s: number, e: number, h: number): number => {
    const m = tabSize - 1;
    const len = e - s;
    let p = (h ^ (h >>> 15)) & m;
    for (;;) {
      const v = tab[p];
      if (v === 0) return addName(src.slice(s, e), h, p);
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
  };
  // Ids are given in order of first appearance, so a resumed lex that starts from the names of the
  // prefix gives every spelling the id a clean lex of the whole text gives it.
  const table = resume?.table;
  if (table && table.hashes.length >= resume!.names.length) {
    const limit = resume!.names.length;
    const t = trimNameTable(table, limit);
    tabSize = t.tab.length;
    tab = t.tab.slice();
    hashes = new Int32Array(Math.max(1024, limit * 2));
    hashes.set(table.hashes.subarray(0, limit));
    if (names !== resume!.names) for (let id = 0; id < limit; id++) names.push(resume!.names[id]!);
  } else {
    for (const s of resume ? resume.names : PRE_INTERNED) {
      const h = hashStr(s);
      const m = tabSize - 1;
      let p = (h ^ (h >>> 15)) & m;
      while (tab[p] !== 0) p = (p + 1) & m;
      addName(s, h, p);
    }
  }

  // ---- files
  const files: string[] = [];
  const fileMap = new Map<string, number>();
  const fileIndex = (f: string): number => {
    let v = fileMap.get(f);
    if (v === undefined) { v = files.length; files.push(f); fileMap.set(f, v); fileAt.push(markerPos); }
    return v;
  };
  let curFile = -1;
  let line = 1;
  if (resume) {
    resume.files.forEach((f, k) => { files.push(f); fileMap.set(f, k); fileAt.push(resume.fileAt[k]); });
    const c = resume.count, d = resume.shift;
    const from = into && into.shift === d ? Math.min(into.valid, c) : 0;
    if (from < c) {
      kind.set(resume.kind.subarray(from, c), from); start.set(resume.start.subarray(from, c), from); end.set(resume.end.subarray(from, c), from);
      idA.set(resume.id.subarray(from, c), from); lineA.set(resume.line_.subarray(from, c), from); fileA.set(resume.file.subarray(from, c), from);
      spaceA.set(resume.spaceBefore.subarray(from, c), from);
      if (d !== 0) for (let k = from; k < c; k++) { start[k] += d; end[k] += d; }
    }
    count = c;
    curFile = resume.curFile;
    line = resume.line;
  }

  const grow = (): void => {
    cap *= 2;
    const k2 = new Uint8Array(cap); k2.set(kind); kind = k2;
    const s2 = new Uint32Array(cap); s2.set(start); start = s2;
    const e2 = new Uint32Array(cap); e2.set(end); end = e2;
    const i2 = new Int32Array(cap); i2.set(idA); idA = i2;
    const l2 = new Uint32Array(cap); l2.set(lineA); lineA = l2;
    const f2 = new Uint16Array(cap); f2.set(fileA); fileA = f2;
    const sp2 = new Uint8Array(cap); sp2.set(spaceA); spaceA = sp2;
  };
  let space = 1;
  const push = (k: number, s: number, e: number, id: number): void => {
    if (count + 1 >= cap) grow();
    if (curFile < 0) { markerPos = s; curFile = fileIndex(''); }
    kind[count] = k; start[count] = s; end[count] = e; idA[count] = id;
    lineA[count] = line; fileA[count] = curFile; spaceA[count] = space;
    count++;
    space = 0;
  };

  /** Offset of the end of the logical line starting at p (before '\n'; honours backslash-newline). */
  const lineEnd = (p: number): number => {
    for (;;) {
      let q = src.indexOf('\n', p);
      if (q < 0) return n;
      let r = q - 1;
      if (r >= p && src.charCodeAt(r) === 13) r--;
      if (r >= p && src.charCodeAt(r) === 92) { line++; p = q + 1; continue; }
      return q;
    }
  };
  const countNewlines = (s: number, e: number): void => {
    let q = src.indexOf('\n', s);
    while (q >= 0 && q < e) { line++; q = src.indexOf('\n', q + 1); }
  };

  /** Scan a quoted literal whose opening quote is at p; returns offset one past the closing quote. */
  const scanQuoted = (p: number, q: number, what: string): number => {
    let j = p + 1;
    for (;;) {
      if (j >= n) { errors.push({ pos: p, message: `missing terminating ${what}` }); return n; }
      const c = src.charCodeAt(j);
      if (c === q) return j + 1;
      if (c === 92) {
        if (src.charCodeAt(j + 1) === 10) line++;
        j += 2; continue;
      }
      if (c === 10) { errors.push({ pos: p, message: `missing terminating ${what}` }); return j; }
      if (c === REPLACEMENT) errors.push({ pos: j, message: 'invalid multibyte character sequence', number: 870, undecided: true });
      j++;
    }
  };
  const udSuffix = (j: number): number => {
    if (j < n && isIdCont(src.charCodeAt(j)) && !((CC[src.charCodeAt(j)] & 4) !== 0)) {
      while (j < n && isIdCont(src.charCodeAt(j))) j++;
    }
    return j;
  };
  /** Raw string: p points at the opening '"' after the R prefix. Returns end offset. */
  const scanRaw = (tokStart: number, p: number): number => {
    const open = src.indexOf('(', p + 1);
    const delim = open < 0 ? '' : src.slice(p + 1, open);
    if (open < 0 || delim.length > 16 || /[\s\\)]/.test(delim)) {
      errors.push({ pos: tokStart, message: 'invalid delimiter in raw string literal' });
      return scanQuoted(p, 34, '" character');
    }
    const close = src.indexOf(')' + delim + '"', open + 1);
    if (close < 0) {
      errors.push({ pos: tokStart, message: 'missing terminating delimiter of raw string literal' });
      countNewlines(p, n);
      return n;
    }
    countNewlines(p, close);
    for (let j = src.indexOf('\ufffd', open); j >= 0 && j < close; j = src.indexOf('\ufffd', j + 1)) {
      errors.push({ pos: j, message: 'invalid multibyte character sequence', number: 870, undecided: true });
    }
    return close + delim.length + 2;
  };

  /** A directive line starting with the '#' at p (at the start of a line); returns where lexing resumes. */
  const directive = (p: number): number => {
    space = 1;
    markerPos = p;
    let q = p + 1;
    while (q < n && (src.charCodeAt(q) === 32 || src.charCodeAt(q) === 9)) q++;
    let wordEnd = q;
    while (wordEnd < n && isIdCont(src.charCodeAt(wordEnd))) wordEnd++;
    const d0 = src.charCodeAt(q);
    if ((d0 >= 48 && d0 <= 57) || (wordEnd - q === 4 && src.startsWith('line', q))) {
      // line marker: # N "file" flags   or   #line N "file"
      const isLine = !(d0 >= 48 && d0 <= 57);
      // cicc's checks, with its wording; a marker in error changes neither file nor line
      const bad = (at: number, number: number, message: string): number => {
        errors.push({ pos: at, message, number, file: curFile >= 0 ? files[curFile] : '', line });
        const le = lineEnd(q);
        line++;
        return le + 1;
      };
      const isBlank = (k: number): boolean => k >= n || src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9 || src.charCodeAt(k) === 10 || src.charCodeAt(k) === 13;
      if (isLine) {
        q = wordEnd;
        while (q < n && (src.charCodeAt(q) === 32 || src.charCodeAt(q) === 9)) q++;
        const d1 = src.charCodeAt(q);
        if (!(d1 >= 48 && d1 <= 57)) return bad(q, 12, 'expected a line number');
      }
      let num = 0;
      while (q < n) {
        const d = src.charCodeAt(q);
        if (d < 48 || d > 57) break;
        num = num * 10 + (d - 48); q++;
      }
      if (!isBlank(q)) return bad(q, 13, 'expected a file name');
      while (q < n && (src.charCodeAt(q) === 32 || src.charCodeAt(q) === 9)) q++;
      let fileIdx = curFile;
      if (q < n && src.charCodeAt(q) !== 10 && src.charCodeAt(q) !== 13) {
        if (src.charCodeAt(q) !== 34) return bad(q, 13, 'expected a file name');
        let r = q + 1;
        while (r < n && src.charCodeAt(r) !== 34 && src.charCodeAt(r) !== 10) {
          if (src.charCodeAt(r) === 92) r++;
          r++;
        }
        if (r >= n || src.charCodeAt(r) !== 34 || !isBlank(r + 1)) return bad(q, 13, 'expected a file name');
        // flags: `# N "file" 1 3 4`; `#line` takes none
        let k = r + 1;
        for (;;) {
          while (k < n && (src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9 || src.charCodeAt(k) === 13)) k++;
          if (k >= n || src.charCodeAt(k) === 10) break;
          const f0 = k;
          while (k < n && src.charCodeAt(k) >= 48 && src.charCodeAt(k) <= 57) k++;
          if (isLine || k === f0 || !isBlank(k)) return bad(f0, 14, 'extra text after expected end of preprocessing directive');
        }
        const cur = curFile >= 0 ? files[curFile] : '';
        if (curFile < 0 || r - q - 1 !== cur.length || !src.startsWith(cur, q + 1)) fileIdx = fileIndex(src.slice(q + 1, r));
      }
      curFile = fileIdx;
      const le = lineEnd(q);
      line = num;
      return le + 1; // past the newline: the next line is line `num`
    }
    if (wordEnd - q === 6 && src.startsWith('pragma', q)) {
      const l0 = line;
      const le = lineEnd(wordEnd);
      let e = le;
      while (e > q && (src.charCodeAt(e - 1) === 13 || src.charCodeAt(e - 1) === 32 || src.charCodeAt(e - 1) === 9)) e--;
      const saveLine = line; line = l0;
      push(Tok.Pragma, q, e, -1);
      line = saveLine;
      space = 1;
      return le;
    }
    // any other directive (or the null directive): skip the line
    return lineEnd(q);
  };

  let bol = true; // only whitespace since the last newline
  let p = 0;
  if (src.charCodeAt(0) === 0xfeff) p = 1;
  if (resume) p = resume.offset;

  while (p < n) {
    const c = src.charCodeAt(p);

    // whitespace
    if (c === 10) { line++; p++; bol = true; space = 1; continue; }
    if (c < 128 && (CC[c] & 8) !== 0) { p = spacesEnd(src, p + 1, n); space = 1; continue; }

    // directives
    if (c === 35 /* # */ && bol) { space = 1; p = directive(p); continue; }
    bol = false;

    // identifiers (and prefixed literals)
    if (c < 128 ? (CC[c] & 1) !== 0 : c !== 0xfeff && c !== 0xa0 && c !== REPLACEMENT) {
      const s = p;
      p = identEnd(src, p + 1, n, c);
      const h = gHash;
      const q = src.charCodeAt(p);
      if ((q === 34 || q === 39) && p - s <= 3) {
        const pre = src.slice(s, p);
        if (q === 34 && (pre === 'R' || pre === 'LR' || pre === 'uR' || pre === 'UR' || pre === 'u8R')) {
          const l0 = line;
          const e = udSuffix(scanRaw(s, p));
          push(Tok.String, s, e, -1);
          lineA[count - 1] = l0; // token line = the line it starts on
          p = e;
          continue;
        }
        if (pre === 'L' || pre === 'u' || pre === 'U' || pre === 'u8') {
          const lineStart = line;
          const e = udSuffix(scanQuoted(p, q, q === 34 ? '" character' : "' character"));
          const lAfter = line; line = lineStart;
          push(q === 34 ? Tok.String : Tok.Char, s, e, -1);
          line = lAfter;
          p = e;
          continue;
        }
      }
      const id = internRange(s, p, h);
      if (id >= ALT_FIRST && id < ALT_FIRST + ALT_PUNCT.length) push(Tok.Punct, s, p, ALT_PUNCT[id - ALT_FIRST]!);
      else push(Tok.Ident, s, p, id);
      continue;
    }

    // numbers
    if ((c >= 48 && c <= 57) || (c === 46 && (CC[src.charCodeAt(p + 1)] & 4) !== 0)) {
      const s = p;
      p++;
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
      push(Tok.Number, s, p, -1);
      continue;
    }

    // string / char literals
    if (c === 34 || c === 39) {
      const lineStart = line;
      const e = udSuffix(scanQuoted(p, c, c === 34 ? '" character' : "' character"));
      const lAfter = line; line = lineStart;
      push(c === 34 ? Tok.String : Tok.Char, p, e, -1);
      line = lAfter;
      p = e;
      continue;
    }

    // comments
    if (c === 47 /* / */) {
      const d = src.charCodeAt(p + 1);
      if (d === 47) { p = lineEnd(p); space = 1; continue; }
      if (d === 42) {
        const e = src.indexOf('*/', p + 2);
        space = 1;
        if (e < 0) {
          errors.push({ pos: p, message: 'unterminated comment' });
          countNewlines(p, n);
          p = n;
        } else {
          countNewlines(p, e);
          p = e + 2;
        }
        continue;
      }
    }

    // punctuators
    const pl = punctAt(src, p, c);
    const pid = pl < 0 ? -1 : pl & 255, len = pl >> 8;
    const c1 = src.charCodeAt(p + 1);
    if (pid >= 0) {
      push(Tok.Punct, p, p + len, pid);
      p += len;
      continue;
    }
    if (c === 92 && (c1 === 10 || (c1 === 13 && src.charCodeAt(p + 2) === 10))) {
      // stray line splice: treat as whitespace
      p += c1 === 13 ? 3 : 2; line++; space = 1; continue;
    }
    errors.push({ pos: p, message: `unrecognized token`, undecided: c === REPLACEMENT });
    p++;
    space = 1;
  }

  if (count + 1 >= cap) grow();
  if (curFile < 0) { markerPos = n; curFile = fileIndex(''); }
  kind[count] = Tok.EOF; start[count] = n; end[count] = n; idA[count] = -1;
  lineA[count] = line; fileA[count] = curFile; spaceA[count] = 1;

  const tokens = {
    src, count, kind, start, end, id: idA, line: lineA, file: fileA, files, names,
    spaceBefore: spaceA, errors,
  };
  return { tokens, fileAt };
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
  const pre = preMap.get(s);
  if (pre !== undefined && t.names[pre] === s) return pre;
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
