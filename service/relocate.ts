// Path-independent unit keys (a team cache across checkouts): what of a unit's place (the checkout's base
// directory, the module id cudafe++ derives from the source's absolute path) is left out of its key, and how
// a cached result is moved to the place of the request that hits it, byte for byte as a compile there.
//
// Only renames are left out. A base directory is taken out of the key when it appears in the .ii only at the
// start of line-marker file names, or at the start of string literals passed as pointers to libc calls
// (`__FILE__` in a device `assert` or a printf: relocate-strings.ts). The compiler copies marker names into
// `.file` directives (-lineinfo), the stub's `# N "…"` lines and diagnostics, all plain text that is moved
// exactly; such literals become `$str` arrays sized to the literal (bytes and length moved), and with
// -lineinfo the `.loc` columns of tokens after them on their line move by the length difference (traced
// to their token, refused when ambiguous). Anywhere else the key keeps the path. The module id only ever
// appears inside symbol names, as text or as the bytes of `.debug_str`; ids of one length are swapped in
// place, so the key keeps only the id's length.
// A moved result that still names the old place anywhere, or whose columns cannot be traced, is not used
// (the unit is compiled instead).

import type { CompileOptions, Diagnostic } from '../compiler/index';
import type { RealOutputs } from '../protocol/unit';
import { columnTable, markStringLine, movedColumn, type ColumnTable, type Token } from './relocate-strings';

/** Where a unit was compiled: the base directory taken out of its key ('' when none) and its module id. */
export interface Place { baseDir: string; moduleId: string }

const BASE_MARK = '\u0001ptxd-base-dir\u0001';
/** Base directories that are moved: plain names (no escaping in line markers can differ). */
const PLAIN_DIR = /^\/[A-Za-z0-9_./+@~-]*[A-Za-z0-9_+@~-]$/;
const LINE_MARKER = /^#(?:line)? ?\d+ "/;

/**
 * The base directory that applies to a unit, or '' when none does: it must be plain, absolute, hold the
 * source, and not be one whose name the compiler reads (it treats files under /usr/ or with "/cuda" in their
 * name as system headers: such a directory stays in the key).
 */
export function baseDirFor(baseDir: string | undefined, o: CompileOptions): string {
  if (!baseDir) return '';
  const b = baseDir.replace(/\/+$/, '');
  if (!PLAIN_DIR.test(b) || b.includes('/cuda') || b.startsWith('/usr/') || b === '/usr' || o.debug) return '';
  return o.origSrcFileName.startsWith(`${b}/`) ? b : '';
}

/**
 * The source and options a unit is keyed with: line-marker names and pointer-argument string literals under
 * `baseDir` start with a mark instead, and the module id is reduced to its length; `baseDir` is the
 * directory taken out ('' when the key keeps the path: it appears elsewhere in the .ii); `strings`: some
 * string literal was marked (its result moves only with the marked source's column table).
 */
export function placeFreeKey(source: Buffer, o: CompileOptions, baseDir: string):
{ source: Buffer; options: CompileOptions; baseDir: string; strings: boolean } {
  const options = { ...o, moduleId: `length:${o.moduleId.length}` };
  const kept = { source, options, baseDir: '', strings: false };
  if (!baseDir) return kept;
  const text = source.toString('latin1');
  if (!text.includes(baseDir)) return { source, options: { ...options, ...markedNames(o, baseDir) }, baseDir, strings: false };
  const quoted = `"${baseDir}/`;
  const lines = text.split('\n');
  const lexed = new Map<number, Token[]>();
  let strings = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (!l.includes(baseDir)) continue;
    if (!LINE_MARKER.test(l)) {
      const m = l.startsWith('#') ? undefined : markStringLine(lines, lexed, i, baseDir, BASE_MARK);
      if (m === undefined) return kept;
      strings = true;
      lines[i] = m;
      continue;
    }
    const moved = l.split(quoted).join(`"${BASE_MARK}/`);
    // Only the marker's own file name may name the directory (not a flag or a second name after it).
    if (moved.includes(baseDir)) return kept;
    lines[i] = moved;
  }
  return { source: Buffer.from(lines.join('\n'), 'latin1'), options: { ...options, ...markedNames(o, baseDir) }, baseDir, strings };
}

/** The column table of a key's marked source (for results whose key marked string literals). */
export function keyColumns(markedSource: Buffer): ColumnTable {
  return columnTable(markedSource.toString('latin1'), BASE_MARK);
}

function marked(p: string | undefined, baseDir: string): string | undefined {
  if (p === undefined) return undefined;
  if (p === baseDir) return BASE_MARK;
  return p.startsWith(`${baseDir}/`) ? BASE_MARK + p.slice(baseDir.length) : p;
}

function markedNames(o: CompileOptions, baseDir: string): Partial<CompileOptions> {
  const r: Partial<CompileOptions> = { origSrcFileName: marked(o.origSrcFileName, baseDir)!, origSrcPathName: marked(o.origSrcPathName, baseDir)! };
  if (o.compDir !== undefined) r.compDir = marked(o.compDir, baseDir);
  return r;
}

function replaceAll(s: string, from: string, to: string): string {
  return from === to || !s.includes(from) ? s : s.split(from).join(to);
}

const BYTE_LINE = /^(\s*\.b8\s+)(\d+(?:,\d+)*)\s*$/;
/** A compiler-made string constant: `$str` arrays are sized to their literal (a trailing NUL left out). */
const STR_ARRAY = /^(\s*\.global\s+\.align\s+1\s+\.b8\s+)(\$str(?:\$\d+)?)\[(\d+)\]( = \{)(\d+(?:, \d+)*)(\};\s*)$/;
const LOC = /^(\s*\.loc\s+(\d+)\s+(\d+)\s+)(\d+)(.*)$/;
const INLINED_AT = /(inlined_at\s+(\d+)\s+(\d+)\s+)(\d+)/;
const FILE = /^\s*\.file\s+(\d+)\s+"(.*)"/;

/**
 * PTX moved from one place to another; undefined when it cannot be moved exactly. Symbol names carry the
 * module id as text and, in `.debug_str`, as runs of `.b8` byte lines (a name may span two lines); `.file`
 * directives carry the base directory. When the key marked string literals (`columns`, the column table
 * of the key's marked source), `$str` arrays carry it too, and `.loc` columns after them move.
 */
export function relocatePtx(ptx: string, from: Place, to: Place, columns?: () => ColumnTable): string | undefined {
  if (from.moduleId.length !== to.moduleId.length) return undefined;
  const lines = ptx.split('\n');
  const locs = columns && from.baseDir && to.baseDir.length !== from.baseDir.length ? locMover(lines, from, to, columns()) : undefined;
  for (let i = 0; i < lines.length; i++) {
    if (BYTE_LINE.test(lines[i]!)) {
      let j = i;
      while (j < lines.length && BYTE_LINE.test(lines[j]!)) j++;
      if (!relocateBytes(lines, i, j, from, to)) return undefined;
      i = j - 1;
      continue;
    }
    let l = replaceAll(lines[i]!, from.moduleId, to.moduleId);
    if (locs && LOC.test(l)) {
      const m = locs(l);
      if (m === undefined) return undefined;
      l = m;
    }
    if (from.baseDir) {
      const m = /^(\s*\.file\s+\d+\s+")(.*)$/.exec(l);
      const s = columns ? STR_ARRAY.exec(l) : null;
      if (m && m[2]!.startsWith(`${from.baseDir}/`)) l = m[1] + to.baseDir + m[2]!.slice(from.baseDir.length);
      else if (s) l = movedString(s, from, to);
      if (!m && (l.includes(from.baseDir) || l.includes(byteList(from.baseDir, ', ')) || l.includes(byteList(from.baseDir, ',')))) return undefined;
      // A pointer into the middle of a moved string would move too: never expected of a pointer argument.
      if (columns && /\$str(?:\$\d+)?\+/.test(l)) return undefined;
    }
    lines[i] = l;
  }
  return lines.join('\n');
}

/** A `$str` array line with the base directory's bytes (at `/`) swapped and its length moved with them. */
function movedString(s: RegExpExecArray, from: Place, to: Place): string {
  const bytes = s[5]!.split(', ').map(Number);
  const text = Buffer.from(bytes).toString('latin1');
  const k = text.split(`${from.baseDir}/`).length - 1;
  if (k === 0) return s[0];
  const moved = [...Buffer.from(text.split(`${from.baseDir}/`).join(`${to.baseDir}/`), 'latin1')].join(', ');
  const length = Number(s[3]) + k * (to.baseDir.length - from.baseDir.length);
  return `${s[1]}${s[2]}[${length}]${s[4]}${moved}${s[6]}`;
}

/** A function moving the columns of one `.loc` line (and its inlined_at), undefined when not exact. */
function locMover(lines: readonly string[], from: Place, to: Place, table: ColumnTable): (l: string) => string | undefined {
  const files = new Map<string, string>();
  for (const l of lines) {
    const m = FILE.exec(l);
    if (m) files.set(m[1]!, m[2]!.startsWith(`${from.baseDir}/`) ? BASE_MARK + m[2]!.slice(from.baseDir.length) : m[2]!);
  }
  const delta = from.baseDir.length - BASE_MARK.length;
  const by = to.baseDir.length - from.baseDir.length;
  const col = (f: string, line: string, c: string): number | undefined =>
    movedColumn(table, files.get(f) ?? '', Number(line), Number(c), delta, by);
  return l => {
    const m = LOC.exec(l)!;
    const c = col(m[2]!, m[3]!, m[4]!);
    if (c === undefined) return undefined;
    let rest = m[5]!;
    const at = INLINED_AT.exec(rest);
    if (at) {
      const c2 = col(at[2]!, at[3]!, at[4]!);
      if (c2 === undefined) return undefined;
      rest = rest.replace(INLINED_AT, `${at[1]}${c2}`);
    }
    return `${m[1]}${c}${rest}`;
  };
}

function byteList(s: string, sep: string): string {
  return [...Buffer.from(s, 'latin1')].join(sep);
}

/** Lines [i, j) of `.b8` bytes with the module id swapped (same length: every line keeps its byte count). */
function relocateBytes(lines: string[], i: number, j: number, from: Place, to: Place): boolean {
  const counts: number[] = [];
  const heads: string[] = [];
  const bytes: number[] = [];
  for (let k = i; k < j; k++) {
    const m = BYTE_LINE.exec(lines[k]!)!;
    const nums = m[2]!.split(',').map(Number);
    if (nums.some(n => n > 255)) return false;
    heads.push(m[1]!);
    counts.push(nums.length);
    bytes.push(...nums);
  }
  const text = replaceAll(Buffer.from(bytes).toString('latin1'), from.moduleId, to.moduleId);
  if (from.baseDir && text.includes(from.baseDir)) return false;
  const moved = [...Buffer.from(text, 'latin1')];
  let at = 0;
  for (let k = i; k < j; k++) {
    const n = counts[k - i]!;
    lines[k] = heads[k - i]! + moved.slice(at, at + n).join(',');
    at += n;
  }
  return true;
}

/** The host stub moved: module id in names, the base directory in `# N "…"` lines; undefined when not exact. */
export function relocateStub(stub: string, from: Place, to: Place): string | undefined {
  if (from.moduleId.length !== to.moduleId.length) return undefined;
  const lines = stub.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let l = replaceAll(lines[i]!, from.moduleId, to.moduleId);
    if (from.baseDir && l.includes(from.baseDir)) {
      if (!LINE_MARKER.test(l)) return undefined;
      l = l.split(`"${from.baseDir}/`).join(`"${to.baseDir}/`);
      if (l.includes(from.baseDir)) return undefined;
    }
    lines[i] = l;
  }
  return lines.join('\n');
}

/** A diagnostic's file name and text moved (they name files as the line markers do). */
export function relocateText(s: string, from: Place, to: Place): string {
  const t = replaceAll(s, from.moduleId, to.moduleId);
  return from.baseDir ? replaceAll(t, `${from.baseDir}/`, `${to.baseDir}/`) : t;
}

/**
 * A diagnostic moved: names in its file and texts, and its column when moved literals come before it on
 * the line it quotes (the .ii line); undefined when its column may move but it quotes no line.
 */
export function relocateDiagnostic(d: Diagnostic, from: Place, to: Place, strings: boolean): Diagnostic | undefined {
  const r: Diagnostic = { ...d, file: relocateText(d.file, from, to), message: relocateText(d.message, from, to) };
  if (typeof d.sourceLine !== 'string') {
    return strings && d.col !== undefined && from.baseDir.length !== to.baseDir.length ? undefined : r;
  }
  r.sourceLine = relocateText(d.sourceLine, from, to);
  if (d.col !== undefined && from.baseDir) {
    const before = d.sourceLine.slice(0, d.col - 1);
    const k = before.split(`"${from.baseDir}/`).length - 1;
    r.col = d.col + k * (to.baseDir.length - from.baseDir.length);
  }
  return r;
}

/**
 * The real cicc's outputs for a call (cicc/fallback.ts) moved: its PTX, stub and the files that name the
 * source in line markers (the device file also in the moved literals), the module id file, and its stderr;
 * undefined when not exact (stderr quoting a line with a moved literal: its caret would move).
 */
export function relocateReal(real: RealOutputs, from: Place, to: Place, columns?: () => ColumnTable): RealOutputs | undefined {
  if (from.baseDir && real.stderr.includes(`"${from.baseDir}/`)) return undefined;
  const files: Record<string, string> = {};
  for (const [role, text] of Object.entries(real.files)) {
    let t: string | undefined;
    if (role === 'out') t = relocatePtx(text, from, to, columns);
    else if (role === 'modid') t = from.moduleId.length === to.moduleId.length ? replaceAll(text, from.moduleId, to.moduleId) : undefined;
    // The device file is C text: a moved literal there is only text (no columns, no lengths).
    else if (role === 'gpu' && columns && from.baseDir) t = relocateStub(replaceAll(text, `"${from.baseDir}/`, `"${to.baseDir}/`), from, to);
    else t = relocateStub(text, from, to);
    if (t === undefined || (from.baseDir && t.includes(from.baseDir) && !to.baseDir.includes(from.baseDir))) return undefined;
    files[role] = t;
  }
  return { files, stderr: relocateText(real.stderr, from, to) };
}

export function samePlace(a: Place, b: Place): boolean {
  return a.baseDir === b.baseDir && a.moduleId === b.moduleId;
}
