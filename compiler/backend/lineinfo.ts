// -lineinfo: `.loc` directives in function pieces, and the module's `.file` table and `.debug_str` names.
//
// A piece must not depend on the rest of the module (pieces are cached and reassembled), so it names files
// and inlined functions by placeholders; assembly numbers them in order of first appearance in the module
// text, as one pass over the final text: `.file N "path"` and `$L__info_stringN`.

import type { Loc } from '../middle/ir';

const FILE_MARK = '\x01';
const NAME_MARK = '\x02';

function locKey(l: Loc): string {
  return `${l.file}\0${l.line}\0${l.col}\0${l.fn ?? ''}`;
}

/** The inlining chain of a position, outermost call site first. */
function chainOf(l: Loc): Loc[] {
  const out: Loc[] = [];
  for (let x: Loc | undefined = l; x; x = x.at) out.push(x);
  return out.reverse();
}

function locText(l: Loc): string {
  const pos = `${FILE_MARK}${l.file}${FILE_MARK} ${l.line} ${l.col}`;
  if (!l.fn || !l.at) return `\t.loc\t${pos}`;
  return `\t.loc\t${pos}, function_name ${NAME_MARK}${l.fn}${NAME_MARK}, inlined_at ${FILE_MARK}${l.at.file}${FILE_MARK} ${l.at.line} ${l.at.col}`;
}

/**
 * Tracks the position the emitted text is at. `move` returns the `.loc` lines that bring it to `l`: the
 * call sites of an inlined position that differ from the current chain, outermost first, then `l` itself.
 * Without `inlinedAt` (-no-lineinfo-inlined-at) only the innermost position is said, as a plain `.loc`.
 */
export class LocTracker {
  private chain: string[] = [];
  constructor(private readonly inlinedAt: boolean) {}

  move(l: Loc | undefined): string[] {
    if (!l) return [];
    if (!this.inlinedAt) {
      const k = `${l.file}\0${l.line}\0${l.col}`;
      if (this.chain[0] === k) return [];
      this.chain = [k];
      return [locText({ file: l.file, line: l.line, col: l.col })];
    }
    const ls = chainOf(l);
    const keys = ls.map(locKey);
    let same = 0;
    while (same < keys.length && same < this.chain.length && keys[same] === this.chain[same]) same++;
    if (same === keys.length && same === this.chain.length) return [];
    if (same === keys.length) same--;   // back to an outer position: say it again
    this.chain = keys;
    return ls.slice(same).map(locText);
  }
}

/** The files and inlined-function names a module's `.loc` lines name, numbered in order of first appearance. */
export interface LineTables { files: Map<string, number>; names: Map<string, number> }

/**
 * The placeholders of `text` (one piece, or a whole module) in order of first appearance, each once: files
 * prefixed by FILE_MARK, names by NAME_MARK. Numbering a module's pieces' lists in order, each key where it is
 * first met, numbers the module as resolveLineInfo() does (a placeholder never spans two pieces).
 */
export function lineInfoKeys(text: string): string[] {
  const out: string[] = [];
  if (!text.includes(FILE_MARK)) return out;
  const seen = new Set<string>();
  forEachMark(text, (key, isFile) => { const k = (isFile ? FILE_MARK : NAME_MARK) + key; if (!seen.has(k)) { seen.add(k); out.push(k); } });
  return out;
}

/** Whether text names a file in a `.loc` line (placeholders resolveLineInfo() numbers). */
export const namesLineFiles = (text: string): boolean => text.includes(FILE_MARK);

/** The tables numbering these lists of lineInfoKeys(), in order. */
export function lineTables(keyLists: readonly (readonly string[])[]): LineTables {
  const t: LineTables = { files: new Map(), names: new Map() };
  for (const keys of keyLists) for (const k of keys) {
    const table = k.charAt(0) === FILE_MARK ? t.files : t.names, key = k.slice(1);
    if (!table.has(key)) table.set(key, table.size);
  }
  return t;
}

/** Whether two tables number the same keys alike. */
export function sameLineTables(a: LineTables, b: LineTables): boolean {
  const same = (x: Map<string, number>, y: Map<string, number>): boolean => x.size === y.size && [...x].every(([k, n]) => y.get(k) === n);
  return same(a.files, b.files) && same(a.names, b.names);
}

/** Calls f on each placeholder of text (its key, and whether it names a file), in order. */
function forEachMark(text: string, f: (key: string, isFile: boolean, start: number, end: number) => void): void {
  let at = 0;
  for (;;) {
    const fm = text.indexOf(FILE_MARK, at), n = text.indexOf(NAME_MARK, at);
    if (fm < 0 && n < 0) break;
    const isFile = fm >= 0 && (n < 0 || fm < n);
    const start = isFile ? fm : n;
    const end = text.indexOf(isFile ? FILE_MARK : NAME_MARK, start + 1);
    f(text.slice(start + 1, end), isFile, start, end);
    at = end + 1;
  }
}

/** `text` (a piece, or a whole module) with its placeholders replaced by their numbers in `t` (which holds every key of it). */
export function resolvePlaceholders(text: string, t: LineTables): string {
  if (!text.includes(FILE_MARK)) return text;
  let out = '';
  let at = 0;
  forEachMark(text, (key, isFile, start, end) => {
    out += text.slice(at, start);
    const k = (isFile ? t.files : t.names).get(key)!;
    out += isFile ? String(k + 1) : `$L__info_string${k}`;
    at = end + 1;
  });
  return out + text.slice(at);
}

/** What follows the resolved text of a module (see resolveLineInfo()): the `.file` table and `.debug_str` section. */
export function lineInfoTail(t: LineTables, compDir: string): string {
  if (t.files.size === 0) return '\n';
  const fileLines = [...t.files.keys()].map((p, i) => `\t.file\t${i + 1} "${p.startsWith('/') ? p : `${compDir}/${p}`}"`);
  if (t.names.size === 0) return `\n${fileLines.join('\n')}\n`;
  const strs = [...t.names.keys()].map((s, i) => `$L__info_string${i}:\n.b8 ${[...Buffer.from(s, 'latin1'), 0].join(',')}`);
  return `${fileLines.join('\n')}\n\t.section\t.debug_str\n\t{\n${strs.join('\n')}\n\n\t}\n`;
}

/**
 * Replace the placeholders of a module's text with file numbers and name labels, and add the `.file`
 * table and `.debug_str` section at the end, as cicc lays them out. `compDir` resolves relative file names
 * (the compiler's working directory; cicc joins them without normalising). `text` ends with the last function's closing brace and a newline.
 */
export function resolveLineInfo(text: string, compDir: string): string {
  if (!text.includes(FILE_MARK)) return text + '\n';
  const t = lineTables([lineInfoKeys(text)]);
  return resolvePlaceholders(text, t) + lineInfoTail(t, compDir);
}

// A `.loc` position in a piece: the file between FILE_MARKs, then its line (both in `.loc` and in `inlined_at`).
const POSITION = /\x01([^\x01]*)\x01 (\d+) /g;

/** The (file, line) positions a piece's `.loc` lines name (call sites of inlined code included). */
export function locPositions(text: string): [string, number][] {
  const out: [string, number][] = [];
  if (!text.includes(FILE_MARK)) return out;
  for (const m of text.matchAll(POSITION)) out.push([m[1]!, Number(m[2])]);
  return out;
}

/** The piece with each `.loc` position's line replaced by `to(file, line)`. */
export function moveLocLines(text: string, to: (file: string, line: number) => number): string {
  if (!text.includes(FILE_MARK)) return text;
  return text.replace(POSITION, (_, file: string, line: string) => `${FILE_MARK}${file}${FILE_MARK} ${to(file, Number(line))} `);
}
