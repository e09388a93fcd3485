// Kernel templates that a library's own host code instantiates (Thrust's algorithms and device_vector through
// CUB's dispatch layers): when the user's host code reaches such library code, cicc emits those kernels, and we
// do not find them (hostinst.ts reads only the user's launches). Such a unit is unsupported rather than compiled
// without its kernels. The reach is found by names, over-approximating: a header declaration that names a
// header kernel template, or names a declaration that does, reaches it; a user host function naming any of them
// makes the unit unsupported.

import { DeclFlag, type DeclEntry } from './index-types';
import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Unit } from './unit';

/** Throws Unsupported when the user's host code may instantiate a header's kernel templates through the header. */
export function checkLibraryKernels(u: Unit): void {
  const decls = u.index.decls;
  const isKernelTemplate = (d: DeclEntry): boolean => d.kind === 'function' && (d.flags & DeclFlag.Global) !== 0 && (d.flags & DeclFlag.Template) !== 0;
  const kernels = new Set<string>();
  for (const d of decls) if (isKernelTemplate(d) && !u.isUserFile(d.first)) kernels.add(d.name);
  if (kernels.size === 0) return;
  // every name → the header declarations whose tokens use it
  const users = new Map<string, number[]>();
  const toks = u.toks;
  for (let k = 0; k < decls.length; k++) {
    const d = decls[k]!;
    if (d.kind !== 'function' && d.kind !== 'record' && d.kind !== 'other') continue;
    if (u.isUserFile(d.first) || isKernelTemplate(d)) continue;
    for (let j = d.first; j <= d.last; j++) {
      if (toks.kind[j] !== Tok.Ident) continue;
      const name = u.text(j);
      const list = users.get(name);
      if (!list) users.set(name, [k]);
      else if (list[list.length - 1] !== k) list.push(k);
    }
  }
  // the declarations that reach a kernel template, by their names (and their classes' for out-of-line members)
  const reach = new Map<string, string>();
  const work: string[] = [];
  for (const k of kernels) { reach.set(k, k); work.push(k); }
  while (work.length) {
    const n = work.pop()!;
    for (const k of users.get(n) ?? []) {
      const d = decls[k]!;
      for (const name of [d.name, ...d.qualifier.split('::')]) {
        if (!name || reach.has(name)) continue;
        reach.set(name, reach.get(n)!);
        work.push(name);
      }
    }
  }
  for (const d of decls) {
    if (!u.isUserFile(d.first) || d.bodyStart < 0) continue;
    const hostFn = d.kind === 'function' && !(d.flags & (DeclFlag.Device | DeclFlag.Global));
    if (!hostFn && d.kind !== 'record') continue;
    for (let j = d.bodyStart; j <= d.bodyEnd; j++) {
      if (toks.kind[j] !== Tok.Ident) continue;
      const kernel = reach.get(u.text(j));
      if (kernel !== undefined) throw new Unsupported(`host code calls ${u.text(j)}, which may instantiate the library's kernel template ${kernel}`);
    }
  }
}
