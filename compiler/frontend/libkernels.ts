// Kernel templates that a library's own host code instantiates (Thrust's algorithms and device_vector through
// CUB's dispatch layers): when the user's host code reaches such library code, cicc emits those kernels, and we
// do not find them (hostinst.ts reads only the user's launches). Such a unit is unsupported rather than compiled
// without its kernels. The reach is found by names, over-approximating: a library declaration (a CCCL header's,
// or a system header's in the namespace of a kernel template there) that names a library kernel template in its
// body, or names a declaration that does, reaches it; a user host function or class naming any of them makes the
// unit unsupported. Only library declarations carry the reach: `std::ostream` or `cudaMalloc` used by Thrust is
// no way into Thrust, and a function's signature (traits, return types) instantiates nothing. A user name
// qualified by another namespace (`std::swap`) is not the library's. Names are compared by their interned ids
// (the lexer's): this walks every token of the libraries' declarations, millions in a Thrust unit.

import { DeclFlag, type DeclEntry } from './index-types';
import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Unit } from './unit';

/** Throws Unsupported when the user's host code may instantiate a header's kernel templates through the header. */
export function checkLibraryKernels(u: Unit): void {
  const decls = u.index.decls;
  const isKernelTemplate = (d: DeclEntry): boolean => d.kind === 'function' && (d.flags & DeclFlag.Global) !== 0 && (d.flags & DeclFlag.Template) !== 0;
  // the libraries: CCCL's headers wherever they are (a checkout named by -I is no system directory), and the
  // namespaces of other system headers' kernel templates
  const libs = new Set<string>(CCCL_NAMESPACES);
  for (const d of decls) if (isKernelTemplate(d) && !u.isUserFile(d.first)) libs.add(topNamespace(d.scope));
  const cccl = new Map<string, boolean>();
  const inCccl = (d: DeclEntry): boolean => {
    const f = u.fileOf(d.first);
    let v = cccl.get(f);
    if (v === undefined) { v = f !== u.opts.origSrcFileName && CCCL_FILE.test(f); cccl.set(f, v); }
    return v;
  };
  const inLibrary = (d: DeclEntry): boolean => inCccl(d) || (!u.isUserFile(d.first) && libs.has(topNamespace(d.scope)));
  const kernels: string[] = [];
  for (const d of decls) if (isKernelTemplate(d) && inLibrary(d)) kernels.push(d.name);
  if (kernels.length === 0) return;
  const toks = u.toks;
  const nameId = new Map<string, number>();
  toks.names.forEach((n, i) => { if (!nameId.has(n)) nameId.set(n, i); });
  const users = headerUsers(u, d => inLibrary(d) && !isKernelTemplate(d));
  // the declarations that reach a kernel template, by their names (and their classes' for out-of-line members;
  // a namespace in the qualifier, `cuda::std::` of a specialisation declared from outside, reaches nothing)
  const namespaces = new Set<string>();
  for (const path of u.index.namespaces?.keys() ?? []) for (const n of path.split('::')) namespaces.add(n);
  const reach = new Map<string, string>();
  const work: string[] = [];
  for (const k of kernels) if (!reach.has(k)) { reach.set(k, k); work.push(k); }
  while (work.length) {
    const n = work.pop()!;
    const id = nameId.get(n);
    if (id === undefined) continue;
    for (let x = users.offset[id]!; x < users.offset[id + 1]!; x++) {
      const d = decls[users.decl[x]!]!;
      for (const name of [d.name, ...d.qualifier.split('::')]) {
        if (!name || reach.has(name) || (name !== d.name && namespaces.has(name))) continue;
        reach.set(name, reach.get(n)!);
        work.push(name);
      }
    }
  }
  const reachById: (string | undefined)[] = [];
  for (const [name, kernel] of reach) { const id = nameId.get(name); if (id !== undefined) reachById[id] = kernel; }
  // `std::swap`, `std::cout`: a name qualified by a namespace outside the libraries is not theirs
  const qualifier = (j: number): string => j >= 2 && toks.kind[j - 1] === Tok.Punct && u.text(j - 1) === '::' && toks.kind[j - 2] === Tok.Ident ? u.text(j - 2) : '';
  const otherNamespace = (j: number): boolean => { const q = qualifier(j); return q !== '' && namespaces.has(q) && !libs.has(q); };
  const libraryQualified = (j: number): boolean => libs.has(qualifier(j));
  // the reason names the first use qualified by a library's namespace (`thrust::sort`), else the first use
  let first = -1;
  for (const d of decls) {
    if (!u.isUserFile(d.first) || inCccl(d) || d.bodyStart < 0) continue;
    const hostFn = d.kind === 'function' && !(d.flags & (DeclFlag.Device | DeclFlag.Global));
    if (!hostFn && d.kind !== 'record') continue;
    for (let j = d.bodyStart; j <= d.bodyEnd; j++) {
      if (toks.kind[j] !== Tok.Ident || reachById[toks.id[j]!] === undefined || otherNamespace(j)) continue;
      if (first < 0) first = j;
      if (libraryQualified(j)) { first = j; break; }
    }
    if (first >= 0 && libraryQualified(first)) break;
  }
  if (first >= 0) throw new Unsupported(`host code calls ${u.text(first)}, which may instantiate the library's kernel template ${reachById[toks.id[first]!]!}`);
}

/** For every interned name, the header declarations whose tokens use it (each once, in declaration order), as one
 *  flat list: decl[offset[id] .. offset[id + 1]). */
function headerUsers(u: Unit, inLibrary: (d: DeclEntry) => boolean): { offset: Int32Array; decl: Int32Array } {
  const decls = u.index.decls, toks = u.toks;
  const n = toks.names.length;
  const considered = decls.map(d => (d.kind === 'function' || d.kind === 'record' || d.kind === 'other') && inLibrary(d));
  const lastDecl = new Int32Array(n).fill(-1);
  const offset = new Int32Array(n + 1);
  // two passes over the tokens: count each name's declarations, then place them
  for (let k = 0; k < decls.length; k++) {
    if (!considered[k]) continue;
    const d = decls[k]!;
    for (let j = usedFrom(d); j <= d.last; j++) {
      if (toks.kind[j] !== Tok.Ident) continue;
      const id = toks.id[j]!;
      if (lastDecl[id] !== k) { lastDecl[id] = k; offset[id + 1]!++; }
    }
  }
  for (let i = 0; i < n; i++) offset[i + 1]! += offset[i]!;
  const decl = new Int32Array(offset[n]!);
  const fill = offset.slice(0, n);
  lastDecl.fill(-1);
  for (let k = 0; k < decls.length; k++) {
    if (!considered[k]) continue;
    const d = decls[k]!;
    for (let j = usedFrom(d); j <= d.last; j++) {
      if (toks.kind[j] !== Tok.Ident) continue;
      const id = toks.id[j]!;
      if (lastDecl[id] !== k) { lastDecl[id] = k; decl[fill[id]!++] = k; }
    }
  }
  return { offset, decl };
}

/** CCCL's namespaces (Thrust, CUB, libcu++), and its headers: in the toolkit (include/cccl/thrust/...), installed
 *  (include/thrust/...) or a checkout's include roots (thrust/thrust/..., cub/cub/..., libcudacxx/include/...). */
const CCCL_NAMESPACES = ['thrust', 'cub', 'cuda'];
const CCCL_FILE = /(\/include\/(cccl\/)?(thrust|cub|cuda|nv)\/|(^|\/)thrust\/thrust\/|(^|\/)cub\/cub\/|(^|\/)libcudacxx\/include\/)/;

const topNamespace = (scope: string): string => { const k = scope.indexOf('::'); return k < 0 ? scope : scope.slice(0, k); };

/** Where a declaration's uses start: a function's signature names types and traits that calling it does not
 *  instantiate with kernels, its body (a constructor's member initialisers too) does. */
function usedFrom(d: DeclEntry): number {
  if (d.kind !== 'function' || d.bodyStart < 0) return d.first;
  const ctor = d.qualifier !== '' && d.qualifier.slice(d.qualifier.lastIndexOf(':') + 1) === d.name;
  return ctor ? d.first : d.bodyStart;
}
