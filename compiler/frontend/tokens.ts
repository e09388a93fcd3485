// Token stream shared by the lexer, the skimmer and the parser.
// Data-oriented: one typed array per field, no per-token objects. Identifiers and
// punctuators are interned so the parser compares small integers, not strings.

export const enum Tok {
  EOF = 0,
  Ident = 1,      // identifiers and keywords (keywords are recognised by interned id, see Keyword ids in lexer)
  Number = 2,     // integer or floating literal (text kept; parsed on demand)
  Char = 3,       // character literal incl. prefix (L'a', u8'a', ...)
  String = 4,     // string literal incl. prefix; adjacent strings are separate tokens
  Punct = 5,      // operator / punctuator; `id` holds the interned spelling
  Pragma = 6,     // a whole `#pragma ...` line; text is the line without the leading '#'
}

/** The lexed form of a whole translation unit. Index i addresses token i in every array. */
export interface Tokens {
  readonly src: string;
  readonly count: number;          // tokens, excluding the final EOF (which is at index `count`)
  readonly kind: Uint8Array;       // Tok
  readonly start: Uint32Array;     // offset into src
  readonly end: Uint32Array;       // offset one past the token
  readonly id: Int32Array;         // interned spelling for Ident and Punct (index into `names`), -1 otherwise
  readonly line: Uint32Array;      // presumed line in `file[i]`, from `# N "file"` markers
  readonly file: Uint16Array;      // index into `files`
  readonly files: string[];        // file names as written in the line markers
  readonly names: string[];        // interned spellings; names[id[i]]
  /** True when token i was preceded by whitespace/newline (needed e.g. for `> >` vs `>>`). */
  readonly spaceBefore: Uint8Array;
  /** Lexical errors (unterminated literal/comment, stray character); pos is an offset into src. lex() always sets it. */
  readonly errors?: { pos: number; message: string }[];
}
