// PTX module assembly: header, declarations, globals, then per-function pieces (cacheable: a piece's text
// depends only on its function; the function ordinal in labels is filled in here).
import type { Module, Func } from '../middle/ir';
import type { CompileOptions } from '../options';
import { Unsupported } from '../diagnostics';
import { ptxHeader, checkTarget } from './targets';
import { emitFunction, FN_MARK, type FnPiece } from './isel';
import { funcHeader } from './callconv';
import { globalDecl } from './globals';

export type { FnPiece } from './isel';
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

/**
 * Assemble a module from pieces (`pieces.get(name)` for every defined function; missing ones are emitted here).
 * Order: prototypes / extern functions (module order, only those needed), globals (module order), functions.
 */
export function assembleModule(m: Module, opts: CompileOptions, pieces?: ReadonlyMap<string, FnPiece>): string {
  checkTarget(opts);
  const defined = m.funcs.filter(f => f.blocks.length > 0);
  const ps = defined.map(f => pieces?.get(f.name) ?? emitFunction(f, opts));
  const pos = new Map<string, number>(defined.map((f, i) => [f.name, i]));
  const globalRefs = new Set<string>();
  const globals = m.globals.map(g => globalDecl(g, opts, globalRefs));
  // functions referenced before their definition (or from globals) need a declaration first
  const needDecl = new Set<string>(globalRefs);
  ps.forEach((p, i) => { for (const r of p.funcRefs) { const j = pos.get(r); if (j === undefined || j > i) needDecl.add(r); } });
  const decls: string[] = [];
  for (const f of m.funcs) {
    if (!needDecl.has(f.name)) continue;
    if (f.name.startsWith('llvm.')) throw new Unsupported(`address of intrinsic ${f.name}`);
    if (f.isKernel) throw new Unsupported(`reference to kernel ${f.name} from device code`);
    if (f.blocks.length === 0) decls.push(funcHeader(f, '.extern ', true));
    else decls.push(funcHeader(f, linkPrefix(f, opts), true));
  }
  const top = [...decls, ...globals];
  let out = ptxHeader(opts) + '\n';
  if (top.length) out += top.join('\n') + '\n';
  out += '\n';
  ps.forEach((p, i) => { out += p.text.split(FN_MARK).join(String(i)); });
  return out + '\n';
}

/** The PTX text of a whole module (deterministic: same module and options → same bytes). */
export function emitPtx(m: Module, opts: CompileOptions): string {
  return assembleModule(m, opts);
}
