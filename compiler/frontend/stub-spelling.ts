// How cudafe++ spells a class template specialisation in the stub's type aliases (`typedef Tag<(int)5>  _Z3TagILi5EE;`):
// a non-type argument is a cast of its value to the parameter's type, with C's literal suffix
// (`(unsigned long)6ul`), and a class type among the arguments is written from the global scope (`    ::Tag<(int)4> `).
// gcc compiles the stub, so the spelling must be valid host C++; the tests compare it with cicc's byte for byte.

import { type CType, type RecordDecl, type TArg, typeName } from './ctype';

const SUFFIX: Record<string, string> = { 'unsigned int': 'u', long: 'l', 'unsigned long': 'ul', 'long long': 'll', 'unsigned long long': 'ull' };

function valueArg(ty: CType, v: bigint): string {
  if (ty.k === 'bool') return `(bool)${v}`;
  if (ty.k === 'int') return `(${ty.name})${v}${SUFFIX[ty.name] ?? ''}`;
  return `${v}`;
}

function typeArg(ty: CType): string {
  if (ty.k === 'record' && ty.q === 0) return `    ::${recordSpelling(ty.rec)}${ty.rec.targs ? ' ' : ''}`;
  return typeName(ty);
}

function argSpelling(a: TArg): string {
  if (a.k === 'pack') return a.args.map(argSpelling).join(', ');
  return a.k === 'type' ? typeArg(a.ty) : valueArg(a.ty, a.v);
}

/** The record's qualified name with its template arguments spelled as cudafe++ spells them in the stub. */
export function recordSpelling(r: RecordDecl): string {
  const args = r.targs ? `<${r.targs.map(argSpelling).join(', ')}>` : '';
  return [...r.scope.filter(s => s !== '(anonymous)'), ...r.outer, (r.name || r.typedefName || '') + args].join('::');
}
