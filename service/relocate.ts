// Path-independent unit keys (a team cache across checkouts): what of a unit's place (the checkout's base
// directory, the module id cudafe++ derives from the source's absolute path) is left out of its key, and how
// a cached result is moved to the place of the request that hits it, byte for byte as a compile there.
//
// Only renames are left out. A base directory is taken out of the key when it appears in the .ii only at the
// start of line-marker file names: the compiler copies those names into `.file` directives (-lineinfo), the
// stub's `# N "…"` lines and diagnostics, all plain text that is moved exactly. When it appears anywhere
// else (a `__FILE__` string, an assert message: their length and the columns after them change with the
// path), the key keeps the path. The module id only ever appears inside symbol names, as text or as the
// bytes of `.debug_str`; ids of one length are swapped in place, so the key keeps only the id's length.
// A moved result that still names the old place anywhere is not used (the unit is compiled instead).

import type { CompileOptions } from '../compiler/index';

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
 * The source and options a unit is keyed with: line-marker names under `baseDir` start with a mark instead,
 * and the module id is reduced to its length; `baseDir` is the directory taken out ('' when the key keeps
 * the path: it appears elsewhere in the .ii).
 */
export function placeFreeKey(source: Buffer, o: CompileOptions, baseDir: string): { source: Buffer; options: CompileOptions; baseDir: string } {
  const options = { ...o, moduleId: `length:${o.moduleId.length}` };
  const kept = { source, options, baseDir: '' };
  if (!baseDir) return kept;
  const text = source.toString('latin1');
  if (!text.includes(baseDir)) return { source, options: { ...options, ...markedNames(o, baseDir) }, baseDir };
  const quoted = `"${baseDir}/`;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (!l.includes(baseDir)) continue;
    if (!LINE_MARKER.test(l)) return kept;
    const moved = l.split(quoted).join(`"${BASE_MARK}/`);
    // Only the marker's own file name may name the directory (not a flag or a second name after it).
    if (moved.includes(baseDir)) return kept;
    lines[i] = moved;
  }
  return { source: Buffer.from(lines.join('\n'), 'latin1'), options: { ...options, ...markedNames(o, baseDir) }, baseDir };
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

/**
 * PTX moved from one place to another; undefined when it cannot be moved exactly. Symbol names carry the
 * module id as text and, in `.debug_str`, as runs of `.b8` byte lines (a name may span two lines); `.file`
 * directives carry the base directory.
 */
export function relocatePtx(ptx: string, from: Place, to: Place): string | undefined {
  if (from.moduleId.length !== to.moduleId.length) return undefined;
  const lines = ptx.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (BYTE_LINE.test(lines[i]!)) {
      let j = i;
      while (j < lines.length && BYTE_LINE.test(lines[j]!)) j++;
      if (!relocateBytes(lines, i, j, from, to)) return undefined;
      i = j - 1;
      continue;
    }
    let l = replaceAll(lines[i]!, from.moduleId, to.moduleId);
    if (from.baseDir) {
      const m = /^(\s*\.file\s+\d+\s+")(.*)$/.exec(l);
      if (m && m[2]!.startsWith(`${from.baseDir}/`)) l = m[1] + to.baseDir + m[2]!.slice(from.baseDir.length);
      else if (l.includes(from.baseDir) || l.includes(byteList(from.baseDir, ', ')) || l.includes(byteList(from.baseDir, ','))) return undefined;
    }
    lines[i] = l;
  }
  return lines.join('\n');
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

export function samePlace(a: Place, b: Place): boolean {
  return a.baseDir === b.baseDir && a.moduleId === b.moduleId;
}
