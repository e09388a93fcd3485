// PTX module assembly: header, declarations, globals, then per-function pieces (cacheable: a piece's text
// depends only on its function; the function ordinal in labels is filled in here).
import type { Module, Func, Global } from '../middle/ir';
import type { CompileOptions } from '../options';
import { Unsupported } from '../diagnostics';
import { ptxHeader, checkTarget } from './targets';
import { emitFunction } from './isel';
import { FN_MARK, type FnPiece } from './writer';
import { funcHeader } from './callconv';
import { globalDecl } from './globals';
import { resolveLineInfo } from './lineinfo';

export type { FnPiece } from './writer';
export { emitFunction } from './isel';
export { SUPPORTED_INTRINSICS } from './intrinsics';

/** Compile one function to its PTX piece (throws Unsupported for constructs the backend cannot handle). */
export function emitPiece(f: Func, opts: CompileOptions): FnPiece {
  return emitFunction(f, opts);
}

function linkPrefix(f: Func, opts: CompileOptions): string {
  const internal = f.linkage === 'internal' || f.linkage === 'private';
  if (!opts.rdc || internal) return '';
  return f.linkage === 'weak' || f.linkage === 'linkonce_odr' ? '.weak ' : '.visible ';
}

/** One function as module assembly sees it: a definition (piece) or a declaration only. */
export interface AsmFunc {
  name: string;
  isKernel: boolean;
  /** The definition; absent for a function only declared in the module. */
  piece?: FnPiece;
  /** Its `.func` prototype for a forward or `.extern` declaration (called only when one is needed). */
  header: () => string;
}
/** A module-scope variable's declaration text and the functions its initialiser names. */
export interface AsmGlobal { text: string; funcRefs: string[] }

/** Declaration text and function references of a global. */
export function globalParts(opts: CompileOptions): (g: Global) => AsmGlobal {
  return g => { const refs = new Set<string>(); const text = globalDecl(g, opts, refs); return { text, funcRefs: [...refs] }; };
}

/** Prototype text of f as a declaration (.extern when the module does not define it). */
export function declHeader(f: Func, opts: CompileOptions): string {
  return f.blocks.length === 0 ? funcHeader(f, '.extern ', true) : funcHeader(f, linkPrefix(f, opts), true);
}

/**
 * Assemble a module from pieces (`pieces.get(name)` for every defined function; missing ones are emitted here).
 * Order: prototypes / extern functions (module order, only those needed), globals (module order), functions.
 */
export function assembleModule(m: Module, opts: CompileOptions, pieces?: ReadonlyMap<string, FnPiece>): string {
  checkTarget(opts);
  const funcs: AsmFunc[] = m.funcs.map(f => ({
    name: f.name, isKernel: f.isKernel,
    piece: f.blocks.length > 0 ? pieces?.get(f.name) ?? emitFunction(f, opts) : undefined,
    header: () => declHeader(f, opts),
  }));
  const globals = m.globals.map(globalParts(opts));
  return assembleParts(opts, funcs, globals);
}

/** The module text from its parts, in the order given (shared by whole-module and incremental compiles). */
export function assembleParts(opts: CompileOptions, funcs: readonly AsmFunc[], globals: readonly AsmGlobal[]): string {
  const { head, bodies } = moduleParts(opts, funcs, globals);
  const out = head + bodies.join('');
  return opts.lineInfo ? resolveLineInfo(out, opts.compDir ?? '') : out + '\n';
}

/**
 * assembleParts() before its last step, split where a defined function's text starts: the text is
 * `head + bodies.join('') + '\n'` (without -lineinfo), and bodies[i] is functionBody(the i-th defined function's piece, i).
 */
export function moduleParts(opts: CompileOptions, funcs: readonly AsmFunc[], globals: readonly AsmGlobal[]): { head: string; bodies: string[] } {
  checkTarget(opts);
  const defined = funcs.filter(f => f.piece !== undefined);
  const ps = defined.map(f => f.piece!);
  const pos = new Map<string, number>(defined.map((f, i) => [f.name, i]));
  // functions referenced before their definition (or from globals) need a declaration first
  const needDecl = new Set<string>();
  for (const g of globals) for (const r of g.funcRefs) needDecl.add(r);
  ps.forEach((p, i) => { for (const r of p.funcRefs) { const j = pos.get(r); if (j === undefined || j > i) needDecl.add(r); } });
  const decls: string[] = [];
  for (const f of funcs) {
    if (!needDecl.has(f.name)) continue;
    if (f.name.startsWith('llvm.')) throw new Unsupported(`address of intrinsic ${f.name}`);
    if (f.isKernel) throw new Unsupported(`reference to kernel ${f.name} from device code`);
    decls.push(f.header());
  }
  const top = [...decls, ...globals.map(g => g.text)];
  let head = ptxHeader(opts) + '\n';
  if (top.length) head += top.join('\n') + '\n';
  head += '\n';
  return { head, bodies: ps.map((p, i) => functionBody(p.text, i)) };
}

/** A function's piece text as the module holds it: its ordinal filled in. */
export function functionBody(text: string, ordinal: number): string {
  return text.split(FN_MARK).join(String(ordinal));
}

/** The PTX text of a whole module (deterministic: same module and options → same bytes). */
export function emitPtx(m: Module, opts: CompileOptions): string {
  return assembleModule(m, opts);
}
