// How cudafe++ spells a class template specialisation in the stub's type aliases (`typedef Tag<(int)5>  _Z3TagILi5EE;`):
// a non-type argument is a cast of its value to the parameter's type, with C's literal suffix
// (`(unsigned long)6ul`), and a class type among the arguments is written from the global scope (`    ::Tag<(int)4> `).
// gcc compiles the stub, so the spelling must be valid host C++; the tests compare it with cicc's byte for byte.

import { type CType, type RecordDecl, type TArg, typeName } from './ctype';

/** EDG's literal suffixes (upper case in a wrapper's arguments, lower case in a cast: `(long)5l`, `5L`). */
export const LITERAL_SUFFIX: Record<string, string> = {
  'unsigned int': 'U', 'long': 'L', 'long long': 'LL', 'unsigned long': 'UL', 'unsigned long long': 'ULL',
};

/** A name qualified from the global scope as EDG writes it: `    ::E` for a global name, ` ::ns::E` otherwise. */
export function fromGlobal(scope: readonly string[], name: string): string {
  const s = scope.filter(x => x !== '(anonymous)');
  return (s.length ? ' ::' : '    ::') + [...s, name].join('::');
}

/** A non-type template argument as a cast of its value: `(int)5`, `(unsigned long)6ul`, `(bool)1`, `(    ::E)1`. */
export function castValue(ty: CType, v: bigint): string {
  if (ty.k === 'bool') return `(bool)${v}`;
  if (ty.k === 'int') return `(${ty.name})${v}${(LITERAL_SUFFIX[ty.name] ?? '').toLowerCase()}`;
  if (ty.k === 'enum') return `(${fromGlobal(ty.en.scope, ty.en.name || ty.en.typedefName || '')})${v}`;
  return `(int)${v}`;
}

/**
 * An enumerator as a kernel template's wrapper names it: `(e1)` for an unscoped enum of the global scope, else
 * qualified from the global scope (`( ::G::g1)`, `( ::ns::h1)`); null when no enumerator has the value.
 */
export function enumeratorName(ty: CType & { k: 'enum' }, v: bigint): string | null {
  const en = ty.en;
  let name: string | null = null;
  for (const [n, x] of en.consts) if (x === v) { name = n; break; }
  if (name === null) return null;
  const scope = en.scope.filter(x => x !== '(anonymous)');
  if (!en.scoped && scope.length === 0) return `(${name})`;
  return `( ::${[...scope, ...(en.scoped ? [en.name] : []), name].join('::')})`;
}

function typeArg(ty: CType): string {
  if (ty.k === 'record' && ty.q === 0 && ty.rec.outer.length === 0) {
    const r = ty.rec;
    return fromGlobal(r.scope, recordSpelling({ ...r, scope: [] })) + (r.targs ? ' ' : '');
  }
  return typeName(ty);
}

function argSpelling(a: TArg): string {
  if (a.k === 'pack') return a.args.map(argSpelling).join(', ');
  return a.k === 'type' ? typeArg(a.ty) : castValue(a.ty, a.v);
}

/** The record's qualified name with its template arguments spelled as cudafe++ spells them in the stub. */
export function recordSpelling(r: RecordDecl): string {
  const args = r.targs ? `<${r.targs.map(argSpelling).join(', ')}>` : '';
  return [...r.scope.filter(s => s !== '(anonymous)'), ...r.outer, (r.name || r.typedefName || '') + args].join('::');
}
