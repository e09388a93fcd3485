// The base directory inside string literals of a .ii (`__FILE__`, the file name of a device `assert`): which
// occurrences are left out of a unit key, and how the columns of -lineinfo `.loc` directives move with them.
//
// A path literal is moved only where its bytes can matter to nothing but the string itself: a whole
// argument of a libc call that takes it as a pointer and is never constant-evaluated (`__assert_fail`,
// the expansion of `assert`; the printf family). Its bytes then land in a compiler-made `$str` array
// sized to the literal, or nowhere (host code). Anywhere else (`sizeof(__FILE__)`, a constexpr function,
// an array initialiser) its length or contents could fold into code, and the key keeps the path.
//
// Columns: the preprocessor pads each line to its source columns, so only tokens after a path literal on
// the same .ii line move, by the length difference of the base directories per literal before them. The
// table below lists, for every (file, line) that has such tokens, every token start on the .ii lines of
// that (file, line), so that a `.loc` column can be traced to its token, or refused when ambiguous.

/** Calls whose string arguments are only ever pointers at run time (libc: none is constexpr). */
const POINTER_CALLS = new Set(['__assert_fail', 'printf', 'fprintf', 'sprintf', 'snprintf', 'puts', 'fputs', 'perror']);
const LINE_MARKER = /^#(?:line)? ?(\d+) "((?:[^"\\]|\\.)*)"/;
/** How far back a call's opening parenthesis is looked for (tokens). */
const MAX_BACK = 4000;

export interface Token { text: string; col: number }

/** The tokens of one .ii line (string and character literals whole; each punctuation character its own token). */
export function lexLine(line: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') { i++; continue; }
    const start = i;
    if (/[A-Za-z_$]/.test(c)) {
      while (i < line.length && /[\w$]/.test(line[i]!)) i++;
      // A prefixed literal (u8"…", L'…') is one token with its prefix.
      if ((line[i] === '"' || line[i] === '\'') && /^(?:u8|u|U|L|R|u8R|uR|UR|LR)$/.test(line.slice(start, i))) i = literalEnd(line, i);
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(line[i + 1] ?? ''))) {
      i++;
      while (i < line.length && (/[\w.]/.test(line[i]!) || (/[+-]/.test(line[i]!) && /[eEpP]/.test(line[i - 1]!)))) i++;
    } else if (c === '"' || c === '\'') {
      i = literalEnd(line, i);
    } else {
      i++;
    }
    out.push({ text: line.slice(start, i), col: start + 1 });
  }
  return out;
}

function literalEnd(line: string, i: number): number {
  const q = line[i]!;
  i++;
  while (i < line.length && line[i] !== q) i += line[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, line.length);
}

const isMarker = (l: string): boolean => l.startsWith('#');

/** The significant tokens before (dir -1) or after (dir 1) token `t` of line `i`, across lines, markers skipped. */
function* walk(lines: readonly string[], lexed: Map<number, Token[]>, i: number, t: number, dir: 1 | -1): Generator<Token> {
  const toks = (k: number): Token[] => {
    let v = lexed.get(k);
    if (!v) { v = isMarker(lines[k]!) ? [] : lexLine(lines[k]!); lexed.set(k, v); }
    return v;
  };
  let line = i;
  let at = t + dir;
  for (let n = 0; n < MAX_BACK; n++) {
    const ts = toks(line);
    if (at < 0 || at >= ts.length) {
      line += dir;
      if (line < 0 || line >= lines.length) return;
      at = dir === 1 ? 0 : toks(line).length - 1;
      continue;
    }
    yield ts[at]!;
    at += dir;
  }
}

const isString = (s: string): boolean => s.startsWith('"');

/** Whether the literal (token t of line i) is a whole argument of a POINTER_CALLS call. */
function pointerArgument(lines: readonly string[], lexed: Map<number, Token[]>, i: number, t: number): boolean {
  let after: string | undefined;
  for (const tok of walk(lines, lexed, i, t, 1)) { if (!isString(tok.text)) { after = tok.text; break; } }
  if (after !== ',' && after !== ')') return false;
  let depth = 0;
  let first = true;
  // From the call's '(' back: the callee and up to three tokens before it.
  const call: string[] = [];
  for (const tok of walk(lines, lexed, i, t, -1)) {
    const s = tok.text;
    if (call.length > 0) {
      call.push(s);
      if (call.length === 5) break;
      continue;
    }
    if (first && isString(s)) continue;           // adjacent literals: one literal
    if (first && s !== ',' && s !== '(') return false;
    first = false;
    if (s === ')' || s === ']') depth++;
    else if (s === '(' || s === '[') {
      if (depth === 0) { if (s === '[') return false; call.push(s); continue; }
      depth--;
    } else if (depth === 0 && (s === ';' || s === '{' || s === '}')) return false;
  }
  const [, callee, b1, b2, b3] = call;
  if (callee === undefined || !POINTER_CALLS.has(callee)) return false;
  // Unqualified, ::callee or std::callee; never a member (x.printf, p->printf) or another namespace's function.
  if (b1 === '.' || b1 === '>') return false;
  if (b1 !== ':' || b2 !== ':') return true;   // a lone ':' ends a label or the middle of a ?:
  return b3 === 'std' || b3 === undefined || !/^[\w$]+$/.test(b3);
}

/**
 * Line `i` of a .ii with every `"<baseDir>/` string literal replaced by `"<mark>/`; undefined when the base
 * directory appears anywhere else on the line, or a literal is not a pointer argument (the key keeps the path).
 */
export function markStringLine(lines: readonly string[], lexed: Map<number, Token[]>, i: number, baseDir: string, mark: string): string | undefined {
  const line = lines[i]!;
  const toks = lexed.get(i) ?? lexLine(line);
  lexed.set(i, toks);
  let out = '';
  let from = 0;
  for (let t = 0; t < toks.length; t++) {
    const tok = toks[t]!;
    if (!tok.text.includes(baseDir)) continue;
    // Only at the literal's start or after another literal's end ("a" __FILE__ is two tokens already).
    if (!tok.text.startsWith(`"${baseDir}/`) || tok.text.indexOf(baseDir, 1 + baseDir.length) >= 0) return undefined;
    if (!pointerArgument(lines, lexed, i, t)) return undefined;
    out += line.slice(from, tok.col - 1) + `"${mark}`;
    from = tok.col - 1 + 1 + baseDir.length;
  }
  out += line.slice(from);
  return out.includes(baseDir) ? undefined : out;
}

/** A token start of a (file, line): its column in the marked .ii and the number of moved literals before it. */
export interface ColumnEntry { col: number; k: number }

/** For each `file\0line` with moved tokens, every token start of its .ii lines; `moved`: all moved tokens. */
export interface ColumnTable { lines: Map<string, ColumnEntry[]>; moved: ColumnEntry[]; files: Set<string> }

/** The column table of a marked .ii (`mark` in place of the base directory in names and literals). */
export function columnTable(marked: string, mark: string): ColumnTable {
  const all = new Map<string, ColumnEntry[]>();
  const shifting = new Set<string>();
  const moved: ColumnEntry[] = [];
  const files = new Set<string>();
  let file = '';
  let line = 1;
  for (const l of marked.split('\n')) {
    const m = LINE_MARKER.exec(l);
    if (m) { line = Number(m[1]); file = m[2]!; files.add(file); continue; }
    if (isMarker(l)) { line++; continue; }
    const key = `${file}\0${line}`;
    let k = 0;
    const here: ColumnEntry[] = [];
    for (const tok of lexLine(l)) {
      here.push({ col: tok.col, k });
      if (k > 0) moved.push({ col: tok.col, k });
      if (tok.text.startsWith(`"${mark}`)) k++;
    }
    if (k > 0 && here.some(e => e.k > 0)) shifting.add(key);
    if (here.length > 0) { const v = all.get(key); if (v) v.push(...here); else all.set(key, here); }
    line++;
  }
  const lines = new Map<string, ColumnEntry[]>();
  for (const key of shifting) lines.set(key, all.get(key)!);
  return { lines, moved, files };
}

/**
 * A column of a token of (file, line) at a base directory `delta` bytes longer than the mark, moved by
 * `by` bytes; undefined when the token cannot be told (two token starts of that column move differently,
 * or the column is no token start of a line that moves).
 * `file` is the marked name; line 0 or a name not in the markers: the token could be any moved one.
 */
export function movedColumn(table: ColumnTable, file: string, line: number, col: number, delta: number, by: number): number | undefined {
  if (col === 0 || by === 0) return col;
  const entries = line > 0 && table.files.has(file) ? table.lines.get(`${file}\0${line}`) : undefined;
  if (!entries) {
    const known = line > 0 && table.files.has(file);
    if (known) return col;
    return table.moved.some(e => e.col + e.k * delta === col) ? undefined : col;
  }
  const ks = new Set(entries.filter(e => e.col + e.k * delta === col).map(e => e.k));
  if (ks.size !== 1) return undefined;
  return col + [...ks][0]! * by;
}
