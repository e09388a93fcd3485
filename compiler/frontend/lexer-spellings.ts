// The lexer's fixed spellings: punctuators and keywords with the ids they have in every token stream, and the
// longest-match punctuator reader.

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
export const ALT_FIRST = PUNCTUATORS.length + KEYWORDS.length;
export const ALT_PUNCT: readonly number[] = ALTERNATIVE_TOKENS.map(a => PUNCTUATORS.indexOf(a[1]));

const preMap: ReadonlyMap<string, number> = new Map(PRE_INTERNED.map((s, i) => [s, i]));

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

/** Punctuator at p (first char c): (id | len << 8), or -1. */
export function punctAt(src: string, p: number, c: number): number {
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
