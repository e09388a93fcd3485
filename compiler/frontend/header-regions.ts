// The system-header regions of a preprocessed unit compared with the header files they came from. ptxd skims
// over declarations device code never uses, so a damaged header region (a misspelt name, a lost `const`) would
// compile under ptxd while cicc, which parses everything, rejects the unit. The .ii lines of a region are
// compared with the file's lines at the same line numbers; lines preprocessing legitimately changes (macro
// uses, directives, continuations, multi-line tokens) are not verifiable and are accepted. Pure code: the
// caller reads the files (service/header-check.ts) and passes their text in. Loads without the compiler.

/** One line-marker region of a .ii: the text from `start` to `end` is lines `line`, `line + 1`, ... of `file`. */
export interface HeaderRegion {
  file: string; line: number; start: number; end: number;
  /** Its first (last) line is part of a line cpp split with line markers (a macro expansion holding `_Pragma`). */
  splitFirst?: boolean; splitLast?: boolean;
}

/**
 * A header file as the check needs it: its text and line starts; the lines that need more than a token-by-token
 * comparison in place (comments, literals) as canonical text, the unverifiable ones as null; its #define names.
 */
export interface PreparedHeader { text: string; starts: Int32Array; special: Map<number, string | null>; macros: string[] }

/** The files that are system headers: marked so by cpp (flag 3), the C and C++ library, the CUDA toolkit's headers. */
const SYSTEM_PATH = /^\/usr\/include\/|^\/usr\/lib\/gcc\/|\/targets\/[^/]+\/include\/|\/cuda[^/]*\/include\//;

/** Marker files that are not files. */
function realFile(f: string): boolean {
  return f !== '' && !f.startsWith('<');
}

/** The start of the line after the newline at `nl` (-1 for none). */
function lineAfter(ii: string, nl: number): number {
  return nl < 0 ? -1 : nl + 1;
}

function unescapeName(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/g, '$1') : s;
}

/**
 * The unit's system-header regions, and every file its line markers name (the check collects macro names from
 * all of them, the main file and user headers included: a user's macro expands in a system header too).
 */
export function headerRegions(ii: string, from = 0, to = ii.length): { regions: HeaderRegion[]; files: string[] } {
  const regions: HeaderRegion[] = [];
  const files = new Set<string>();
  const marker = /^# (\d+) "((?:[^"\\\n]|\\.)*)"([ \d]*)$/;
  let open: HeaderRegion | undefined;
  let last: { file: string; line: number } | undefined;   // the previous marker's file and the line it reached
  const close = (end: number): void => {
    if (!open) return;
    open.end = end;
    regions.push(open);
  };
  let at = ii.startsWith('# ', from) ? from : lineAfter(ii, ii.indexOf('\n# ', from));
  while (at >= 0 && at < to) {
    let nl = ii.indexOf('\n', at);
    if (nl < 0) nl = ii.length;
    const m = marker.exec(ii.slice(at, nl));
    if (m) {
      const file = unescapeName(m[2]!), line = Number(m[1]);
      const split = last !== undefined && last.file === file && last.line === line;
      if (open && split) open.splitLast = true;
      close(at);
      open = undefined;
      if (realFile(file)) {
        files.add(file);
        if (m[3]!.split(' ').includes('3') || SYSTEM_PATH.test(file)) {
          open = { file, line, start: Math.min(nl + 1, ii.length), end: ii.length, ...(split ? { splitFirst: true } : {}) };
        }
      }
      // the line the text up to the next marker reaches
      let lines = 0;
      const next = ii.indexOf('\n# ', nl);
      for (let k = ii.indexOf('\n', nl + 1); k >= 0 && (next < 0 || k <= next); k = ii.indexOf('\n', k + 1)) lines++;
      last = { file, line: line + Math.max(0, lines - 1) };
    }
    at = lineAfter(ii, ii.indexOf('\n# ', nl - 1));
  }
  close(to);
  return { regions, files: [...files] };
}

/** The unit's main file: the name in its first line marker (undefined when it has none). */
export function mainFile(ii: string): string | undefined {
  const m = /^# \d+ "((?:[^"\\\n]|\\.)*)"/.exec(ii.slice(0, 4096));
  return m ? unescapeName(m[1]!) : undefined;
}

const NAME = /[A-Za-z_$][\w$]*/y;

/** The names of the file's `#define`s, in order (a search for `define` is much faster than a line-anchored regexp). */
function definedNames(text: string): string[] {
  const names: string[] = [];
  for (let d = text.indexOf('define'); d >= 0; d = text.indexOf('define', d + 6)) {
    let k = d - 1;
    while (k >= 0 && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k--;
    if (k < 0 || text.charCodeAt(k) !== 35) continue;                           // `#`
    k--;
    while (k >= 0 && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k--;
    if (k >= 0 && text.charCodeAt(k) !== 10 && text.charCodeAt(k) !== 13) continue;   // at the start of a line
    let n = d + 6;
    while (text.charCodeAt(n) === 32 || text.charCodeAt(n) === 9) n++;
    if (n === d + 6) continue;
    NAME.lastIndex = n;
    const m = NAME.exec(text);
    if (m) names.push(m[0]);
  }
  return names;
}

function isWord(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 12 || c === 11 || c === 13;
}

/**
 * A line's tokens with the spacing that does not matter removed: one space between two word characters that
 * whitespace or a comment separated, none elsewhere; string and character literals kept as written. Comments
 * are removed (`inComment` says the line starts inside one). Returns the text, whether the line ends inside a
 * block comment, and whether it ends inside a literal (a token spanning lines: not verifiable).
 */
function canonical(s: string, from: number, to: number, inComment: boolean): { text: string; inComment: boolean; open: boolean } {
  let out = '';
  let gap = false;
  let i = from;
  while (i < to) {
    if (inComment) {
      const e = s.indexOf('*/', i);
      if (e < 0 || e + 2 > to) return { text: out, inComment: true, open: false };
      i = e + 2;
      inComment = false;
      gap = true;
      continue;
    }
    const c = s.charCodeAt(i);
    if (isSpace(c)) { gap = true; i++; continue; }
    if (c === 47 && s.charCodeAt(i + 1) === 47) break;                        // `//` to the end of the line
    if (c === 47 && s.charCodeAt(i + 1) === 42) { inComment = true; i += 2; continue; }
    if (gap && out.length > 0 && isWord(out.charCodeAt(out.length - 1)) && isWord(c)) out += ' ';
    gap = false;
    if (c === 34 || (c === 39 && !(out.length > 0 && isWord(out.charCodeAt(out.length - 1)) && /[0-9]/.test(lastWord(out))))) {
      // a string or character literal (a `'` inside a number is a digit separator)
      let j = i + 1;
      while (j < to && s.charCodeAt(j) !== c) j += s.charCodeAt(j) === 92 ? 2 : 1;
      if (j >= to) return { text: out + s.slice(i, to), inComment: false, open: true };
      out += s.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    // the run of characters up to the next space, slash or quote goes in as it is
    const run = i;
    for (i++; i < to && plain(s.charCodeAt(i)); i++);
    out += s.slice(run, i);
  }
  return { text: out, inComment, open: false };
}

/** A character canonical text copies as it is (no space, comment start or quote). */
function plain(c: number): boolean {
  return !(isSpace(c) || c === 47 || c === 34 || c === 39);
}

/** The word (identifier or number) `out` ends with. */
function lastWord(out: string): string {
  let k = out.length;
  while (k > 0 && isWord(out.charCodeAt(k - 1))) k--;
  return out.slice(k, k + 1);
}

/** The first of `chars` at or after `from` in `s` (s.length when none). */
function next(s: string, ch: string, from: number): number {
  const k = s.indexOf(ch, from);
  return k < 0 ? s.length : k;
}

/**
 * A header file prepared for the check. Lines without `/`, quotes or backslashes outside a comment are compared
 * in place; the others get their canonical text, or null where preprocessing changes them: directives, lines
 * joined by a backslash continuation (and the line they join), lines inside a multi-line literal, raw strings.
 */
export function prepareHeader(text: string): PreparedHeader {
  const starts: number[] = [];
  const special = new Map<number, string | null>();
  let inComment = false, joined = false;
  let slash = next(text, '/', 0), quote = next(text, '"', 0), apos = next(text, "'", 0), back = next(text, '\\', 0);
  for (let from = 0, line = 0; ; line++) {
    starts.push(from);
    let nl = text.indexOf('\n', from);
    if (nl < 0) nl = text.length;
    if (slash < from) slash = next(text, '/', from);
    if (quote < from) quote = next(text, '"', from);
    if (apos < from) apos = next(text, "'", from);
    if (back < from) back = next(text, '\\', from);
    if (inComment || joined || slash < nl || quote < nl || apos < nl || back < nl) {
      const wasComment = inComment;
      const r = canonical(text, from, nl, inComment);
      inComment = r.inComment;
      const end = nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const continued = end > from && text.charCodeAt(end - 1) === 92;
      const directive = !wasComment && r.text.startsWith('#');
      special.set(line, joined || continued || directive || r.open || /\bR"/.test(r.text) ? null : r.text);
      joined = continued;
    } else {
      let k = from;
      while (k < nl && isSpace(text.charCodeAt(k))) k++;
      if (text.charCodeAt(k) === 35) special.set(line, null);                 // a directive
    }
    if (nl >= text.length) break;
    from = nl + 1;
  }
  starts.push(text.length + 1);
  return { text, starts: Int32Array.from(starts), special, macros: definedNames(text) };
}

/**
 * Whether .ii text [a, b) and header text [c, d) hold the same tokens, compared in place: whitespace matters only
 * between two word characters, where both must have it (neither side holds a comment here).
 */
function sameTokens(ii: string, a: number, b: number, h: string, c: number, d: number): boolean {
  let i = a, j = c;
  for (;;) {
    const i0 = i, j0 = j;
    while (i < b && isSpace(ii.charCodeAt(i))) i++;
    while (j < d && isSpace(h.charCodeAt(j))) j++;
    if (i >= b || j >= d) return i >= b && j >= d;
    const x = ii.charCodeAt(i);
    if (x !== h.charCodeAt(j)) return false;
    if ((i > i0) !== (j > j0) && i > a && j > c && isWord(x) && isWord(ii.charCodeAt(i0 - 1))) return false;
    i++;
    j++;
  }
}

/** Identifiers cpp itself gives meaning to (besides the `__x__` predefined family, see specialName). */
const CPP_NAMES = new Set(['_Pragma', 'defined', 'unix', 'linux', 'i386']);
/** Keywords in the `__x__` shape that are no predefined macro (a line holding one stays verifiable). */
const KEYWORDS = new Set(['__attribute__', '__restrict__', '__inline__', '__asm__', '__volatile__', '__const__', '__signed__',
  '__typeof__', '__extension__', '__alignof__', '__label__', '__real__', '__imag__', '__complex__', '__decltype__']);

/** Shapes of the names compilers predefine: `__SIZE_TYPE__`, `__x86_64__`, `__GLIBCXX_TYPE_INT_N_0`, `_LP64`, `__cpp_rtti`, `__linux`. */
const PREDEFINED = /^__?[A-Z][A-Z0-9_]*$|^__(cpp_|cplusplus$|linux$|unix$|amd64$|x86_64$|k8$)|^__\w+__$/;

/** Names cpp may replace without a #define in any file: predefined macros (`__SIZE_TYPE__`, `__LINE__`, ...), _Pragma. */
function specialName(w: string): boolean {
  return CPP_NAMES.has(w) || (w.charCodeAt(0) === 95 && PREDEFINED.test(w) && !KEYWORDS.has(w));
}

const IDENT = /[A-Za-z_$][\w$]*/g;

/** Whether a source line holds a name preprocessing may replace: then its .ii line cannot be checked. */
function macroLine(src: string, isMacro: (name: string) => boolean): boolean {
  IDENT.lastIndex = 0;
  for (let m = IDENT.exec(src); m; m = IDENT.exec(src)) {
    if (isMacro(m[0]) || specialName(m[0])) return true;
  }
  return false;
}

/** Header line `idx` as canonical text (null: not verifiable). */
function lineText(h: PreparedHeader, idx: number): string | null {
  const want = h.special.get(idx);
  if (want !== undefined) return want;
  return canonical(h.text, h.starts[idx]!, h.starts[idx + 1]! - 1, false).text;
}

/**
 * Whether the .ii line `got` is the header line `src` with its macro uses expanded: the text between the macro
 * uses (a name, with its parenthesised arguments when a `(` follows) stands in `got` in order, at token boundaries,
 * the first at the start and the last at the end. A line without macro uses does not match (it differed).
 */
function macroMatch(src: string, got: string, isMacro: (name: string) => boolean): boolean {
  const parts: string[] = [];
  let from = 0, uses = 0, calls = 0;
  IDENT.lastIndex = 0;
  for (let m = IDENT.exec(src); m; m = IDENT.exec(src)) {
    if (m.index > 0 && isWord(src.charCodeAt(m.index - 1))) continue;      // inside a number
    if (!isMacro(m[0]) && !specialName(m[0])) continue;
    uses++;
    parts.push(src.slice(from, m.index).trim());
    let end = m.index + m[0].length;
    if (src[src[end] === ' ' ? end + 1 : end] === '(') calls++;
    // its arguments, and those of a call its expansion may end in (`F(void)(args)`)
    for (let lp = src[end] === ' ' ? end + 1 : end; src[lp] === '('; lp = src[end] === ' ' ? end + 1 : end) {
      let depth = 0, k = lp;
      for (; k < src.length; k++) {
        const c = src[k];
        if (c === '"' || (c === "'" && !isWord(src.charCodeAt(k - 1)))) {
          for (k++; k < src.length && src[k] !== c; k++) if (src[k] === '\\') k++;
        } else if (c === '(') depth++;
        else if (c === ')' && --depth === 0) break;
      }
      end = Math.min(k + 1, src.length);
    }
    from = end;
    IDENT.lastIndex = end;
  }
  if (uses === 0) return false;
  parts.push(src.slice(from).trim());
  // a glob match: the first part a prefix, the last a suffix, the others in order between
  const first = parts[0]!, lastPart = parts[parts.length - 1]!;
  if (!got.startsWith(first) || !boundary(got, first.length) || got.length < first.length + lastPart.length) return false;
  const tail = got.length - lastPart.length;
  if (!got.endsWith(lastPart) || !boundary(got, tail)) return false;
  // One macro use without arguments (`__THROW`): the text it stands for is its expansion, whose parentheses
  // nest (a deleted parenthesis of `noexcept (true)` is damage). A call's expansion may hold the text after a
  // multi-line argument list, so it is not judged.
  if (uses === 1 && calls === 0 && !nested(got, first.length, tail)) return false;
  let at = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const p = parts[i]!;
    if (p === '') continue;
    let k = got.indexOf(p, at);
    while (k >= 0 && !(boundary(got, k) && boundary(got, k + p.length))) k = got.indexOf(p, k + 1);
    if (k < 0 || k + p.length > tail) return false;
    at = k + p.length;
  }
  return true;
}

/** Whether the parentheses of t[from, to) nest (text holding a literal is not judged). */
function nested(t: string, from: number, to: number): boolean {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c === 34 || c === 39) return true;
    if (c === 40) depth++;
    else if (c === 41 && --depth < 0) return false;
  }
  return depth === 0;
}

/** Whether offset k of canonical text is between two tokens (not inside a word). */
function boundary(t: string, k: number): boolean {
  return k <= 0 || k >= t.length || !(isWord(t.charCodeAt(k - 1)) && isWord(t.charCodeAt(k)));
}

/** Whether `got` is what `src` ends with, from a token boundary on. */
function suffixAt(src: string, got: string): boolean {
  if (!src.endsWith(got)) return false;
  const k = src.length - got.length;
  return k === 0 || got === '' || !(isWord(src.charCodeAt(k - 1)) && isWord(src.charCodeAt(k)));
}

/** How many lines back the opening of a multi-line macro call is looked for (thrust's THRUST_CDP_DISPATCH spans 64). */
const CALL_LINES = 400;

/**
 * Whether header line `idx` ends a function-like macro call begun on an earlier line, and the .ii line `got` is
 * what follows the call's closing parenthesis: cpp puts the whole expansion on the call's first line, and only
 * the tokens after the call on the line where they stand (`__REDIRECT (scanf, (...),\n  __isoc99_scanf) ;`).
 */
function closesMacroCall(h: PreparedHeader, idx: number, got: string, isMacro: (name: string) => boolean): boolean {
  const src = lineText(h, idx);
  if (src === null) return false;
  // the `)` closing a parenthesis of an earlier line after which the .ii line's tokens follow
  let depth = 0, open = 0, found = false;
  for (let i = 0; i < src.length && !found; i++) {
    const c = src[i];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth > 0) depth--;
      else {
        const after = src.slice(i + 1).trim();
        found = ++open > 0 && (after === got || macroMatch(after, got, isMacro));
      }
    }
  }
  if (!found) {
    // a call of a macro that a macro call on the line before expands to (`F((x)) //\n  (args);`): what the
    // expansion took from this line is an argument list, so the line starts with `(` (a deleted first token
    // after a line holding a macro is no such call)
    const prev = idx > 0 ? lineText(h, idx - 1) : null;
    return got !== src && src.startsWith('(') && suffixAt(src, got) && prev !== null && macroLine(prev, isMacro);
  }
  // the outermost unmatched `(` on an earlier line, and the name before it
  for (let k = idx - 1; k >= 0 && k >= idx - CALL_LINES; k--) {
    const t = lineText(h, k);
    if (t === null) return false;
    for (let i = t.length - 1; i >= 0; i--) {
      const c = t[i];
      if (c === ')') open++;
      else if (c === '(' && --open === 0) {
        // a macro's name before it, or a call that a macro expands to (`F((x), y)\n  (args)`)
        const before = t.slice(0, i);
        if (macroLine(before, isMacro)) return true;
        if (before.trimEnd().endsWith(')')) continue;                         // `F(\n a)(\n b)`: the call before it
        const above = before.trim() === '' && k > 0 ? lineText(h, k - 1) : null;
        return above !== null && macroLine(above, isMacro);
      }
    }
  }
  return false;
}

/**
 * The first line of `r` (its number in the header) whose .ii text differs from the header's where the line is
 * verifiable; undefined when the region matches. Blank .ii lines are accepted (directives, skipped conditional
 * code and the lines a multi-line macro call was joined from all leave blank lines), and so are `#pragma` lines.
 */
export function regionMismatch(ii: string, r: HeaderRegion, h: PreparedHeader, isMacro: (name: string) => boolean): number | undefined {
  const count = h.starts.length - 1;
  let line = r.line;
  for (let from = r.start; from < r.end; line++) {
    let nl = ii.indexOf('\n', from);
    if (nl < 0 || nl > r.end) nl = r.end;
    const a = from;
    from = nl + 1;
    let k = a;
    while (k < nl && isSpace(ii.charCodeAt(k))) k++;
    if (k === nl || ii.charCodeAt(k) === 35) continue;                          // blank, or a #pragma
    const idx = line - 1;
    if (idx < 0 || idx >= count) return line;
    const c = h.starts[idx]!;
    let d = h.starts[idx + 1]! - 1;
    if (d > c && h.text.charCodeAt(d - 1) === 13) d--;
    const want = h.special.get(idx);
    if (want === null) continue;
    let got: string | undefined;
    if (want === undefined) {
      if (sameTokens(ii, k, nl, h.text, c, d)) continue;
    } else {
      got = canonical(ii, k, nl, false).text;
      if (got === want) continue;
    }
    got ??= canonical(ii, k, nl, false).text;
    const src = lineText(h, idx)!;
    const split = (line === r.line && r.splitFirst) || (nl >= r.end - 1 && r.splitLast);
    if (split ? macroLine(src, isMacro) : macroMatch(src, got, isMacro)) continue;
    if (closesMacroCall(h, idx, got, isMacro)) continue;
    return line;
  }
  return undefined;
}
