// -lineinfo for reused roots: a root's `.loc` lines name absolute lines of the declarations its code came from
// (its kernel, inlined callees, class members), and an edit above them moves those lines without changing
// what the root compiles to. So an entry keeps, for every traced declaration that holds one of its `.loc`
// positions, where that declaration began (its anchor); a reuse shifts each position by how far its
// declaration moved since. This is exact: the trace digest of a -lineinfo compile covers each declaration's
// layout (trace.ts layoutHash: the text inside it with its line breaks and columns), so the code inside a
// declaration sits at the same place relative to its first line. A position two traced declarations share
// (one ends and the other begins on that line) whose declarations moved apart is not reused (compiled again);
// a position in no traced declaration makes the root's unit compile whole (the fallback says so).

import type { Tokens } from '../frontend/tokens';
import type { Index } from '../frontend/index-types';
import { locPositions, moveLocLines } from '../backend/lineinfo';
import type { IndexHashes } from './trace';
import type { EntryFunc, LineAnchor, RootEntry } from './store';

/** Where a declaration lies: its file (by name) and the lines of its first and last tokens; null when it spans files. */
function extent(toks: Tokens, index: Index, di: number): [string, number, number] | null {
  const d = index.decls[di]!;
  const last = Math.min(d.last, toks.count - 1);
  if (last < d.first || toks.file[d.first] !== toks.file[last]) return null;
  return [toks.files[toks.file[d.first]!] ?? '', toks.line[d.first]!, toks.line[last]!];
}

/**
 * The anchors of a freshly compiled root: the traced declarations (by trace key and position in its list)
 * holding one of the `.loc` positions of its functions; a string (why) when a position lies in none.
 */
export function lineAnchors(toks: Tokens, index: Index, hashes: IndexHashes, trace: readonly string[], funcs: Record<string, EntryFunc>): LineAnchor[] | string {
  const lines = new Map<string, Set<number>>();
  for (const f of Object.values(funcs)) if (f.text !== undefined) for (const [file, line] of locPositions(f.text)) {
    let s = lines.get(file);
    if (!s) lines.set(file, s = new Set());
    s.add(line);
  }
  if (lines.size === 0) return [];
  const covered = new Set<string>();
  const out: LineAnchor[] = [];
  trace.forEach((key, k) => hashes.declsOf(key).forEach((di, at) => {
    const x = extent(toks, index, di);
    const s = x && lines.get(x[0]);
    if (!x || !s) return;
    let holds = false;
    for (const l of s) if (l >= x[1] && l <= x[2]) { holds = true; covered.add(`${x[0]}\0${l}`); }
    if (holds) out.push([k, at, x[0], x[1], x[2]]);
  }));
  for (const [file, s] of lines) for (const l of s) if (!covered.has(`${file}\0${l}`)) return `-lineinfo: line ${l} of ${file} outside the traced declarations`;
  return out;
}

/**
 * The entry with its `.loc` lines moved to where its declarations are now (the entry itself when none moved);
 * undefined when a position's declarations moved by different amounts.
 */
export function rebased(e: RootEntry, toks: Tokens, index: Index, hashes: IndexHashes): RootEntry | undefined {
  const anchors = e.anchors ?? [];
  const shift: number[] = [];
  let moved = false;
  for (const [k, at, file, first] of anchors) {
    const di = hashes.declsOf(e.trace[k]!)[at];
    const x = di === undefined ? null : extent(toks, index, di);
    if (!x || x[0] !== file) return undefined;
    shift.push(x[1] - first);
    if (x[1] !== first) moved = true;
  }
  if (!moved) return e;
  let bad = false;
  const to = (file: string, line: number): number => {
    let d: number | undefined;
    anchors.forEach(([, , f, first, last], i) => {
      if (f !== file || line < first || line > last) return;
      if (d === undefined) d = shift[i];
      else if (d !== shift[i]) bad = true;
    });
    if (d === undefined) bad = true;
    return line + (d ?? 0);
  };
  const funcs: Record<string, EntryFunc> = {};
  for (const [name, f] of Object.entries(e.funcs)) funcs[name] = f.text === undefined ? f : { ...f, text: moveLocLines(f.text, to) };
  if (bad) return undefined;
  return { ...e, funcs, anchors: anchors.map(([k, at, file, first, last], i) => [k, at, file, first + shift[i]!, last + shift[i]!]) };
}
