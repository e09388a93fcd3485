// PTX text -> statements. A statement is a directive, a label, a scope brace or an instruction, each a
// list of tokens; the module parser (module.ts) gives them meaning. Comments are dropped here.

export interface Stmt {
  toks: string[];
  line: number;
}

const PUNCT = new Set(['{', '}', '[', ']', '(', ')', ',', ';', ':', '@', '!', '+', '|', '<', '>', '=']);

/** Split PTX into tokens with line numbers; identifiers keep their dots (`ld.global.u32`, `%tid.x`). */
export function tokenize(src: string): { toks: string[]; lines: Int32Array } {
  const toks: string[] = [];
  const lines: number[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 10) { line++; i++; continue; }
    if (c === 32 || c === 9 || c === 13) { i++; continue; }
    if (c === 47 && src.charCodeAt(i + 1) === 47) { // line comment
      while (i < n && src.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === 47 && src.charCodeAt(i + 1) === 42) { // block comment
      const e = src.indexOf('*/', i + 2);
      const stop = e < 0 ? n : e + 2;
      for (let k = i; k < stop; k++) if (src.charCodeAt(k) === 10) line++;
      i = stop;
      continue;
    }
    if (c === 34) { // string (only in .file directives)
      let j = i + 1;
      while (j < n && src.charCodeAt(j) !== 34) j++;
      toks.push(src.slice(i, j + 1)); lines.push(line);
      i = j + 1;
      continue;
    }
    const ch = src[i]!;
    if (PUNCT.has(ch)) {
      // `-` is folded into a following number; `+` stays punctuation.
      toks.push(ch); lines.push(line); i++;
      continue;
    }
    let j = i;
    if (ch === '-') j++;
    while (j < n) {
      const d = src[j]!;
      if (/[A-Za-z0-9_$%.]/.test(d)) j++;
      else break;
    }
    if (j === i) throw new Error(`PTX line ${line}: unexpected character '${ch}'`);
    toks.push(src.slice(i, j)); lines.push(line);
    i = j;
  }
  return { toks, lines: Int32Array.from(lines) };
}

/** Group tokens into statements: `{` and `}` alone, `label:`, and everything else up to `;`. */
export function statements(src: string): Stmt[] {
  const { toks, lines } = tokenize(src);
  const out: Stmt[] = [];
  let i = 0;
  while (i < toks.length) {
    const t = toks[i]!;
    if (t === '{' || t === '}') { out.push({ toks: [t], line: lines[i]! }); i++; continue; }
    if (toks[i + 1] === ':' && !t.startsWith('.')) { out.push({ toks: [t, ':'], line: lines[i]! }); i += 2; continue; }
    if (t === '.version' || t === '.target' || t === '.address_size' || t === '.file' || t === '.loc' || t === '.section') {
      // Line-terminated directives (no `;`).
      const line = lines[i]!;
      const body: string[] = [];
      while (i < toks.length && lines[i] === line && toks[i] !== ';') body.push(toks[i++]!);
      if (toks[i] === ';') i++;
      out.push({ toks: body, line });
      continue;
    }
    const start = i;
    let depth = 0;
    const body: string[] = [];
    // A function header `.entry f( ... )` has no `;` before its `{`: stop at a `{` outside parentheses
    // when the statement starts with a linkage/entry directive.
    const isHeader = /^\.(visible|entry|func|weak|extern)$/.test(t);
    while (i < toks.length) {
      const u = toks[i]!;
      if (u === '(') depth++;
      if (u === ')') depth--;
      if (u === ';' && depth === 0) { i++; break; }
      if (isHeader && u === '{' && depth === 0) break;
      body.push(u);
      i++;
    }
    out.push({ toks: body, line: lines[start]! });
  }
  return out;
}
