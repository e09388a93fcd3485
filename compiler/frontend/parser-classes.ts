// Facts about classes the parser and its callers ask: special members, allocation functions, member templates.

import type { FuncSym } from './ast';
import { type CType, type RecordDecl, type MemberTmpl, type TArg, C, Q, unqual, typeName, isValParam } from './ctype';
import { type MemberClassTmpl } from './template-facts';

/** CUDA header classes whose user-provided copy/move constructors copy the object's bytes (cuda_fp16.h,
 *  cuda_bf16.h: `*(unsigned int *)this = *(const unsigned int *)&src`): a by-value copy of them is a byte copy. */
export const BYTE_COPY_RECORDS: ReadonlySet<string> = new Set(['__half2', '__nv_bfloat162']);
export const isByteCopy = (rec: RecordDecl): boolean => BYTE_COPY_RECORDS.has(rec.name) && rec.scope.length === 0 && rec.outer.length === 0;
/** The member function templates named `name` of a class or (first found) of its bases. */
export function memberTmplsOf(rec: RecordDecl, name: string): MemberTmpl[] {
  const own = (rec.mtmpls ?? []).filter(m => m.name === name);
  if (own.length) return own;
  for (const b of rec.bases ?? []) { const r = memberTmplsOf(b.rec, name); if (r.length) return r; }
  return [];
}
/**
 * Whether the class's copy assignment is the implicit one and it is deleted: a const or reference member, or a
 * base or member class whose copy assignment is deleted.
 */
export function implicitAssignDeleted(rec: RecordDecl): boolean {
  const own = (rec.methods ?? []).filter(m => m.op === '=');
  if (own.some(m => !m.defaulted)) return own.every(m => (m as FuncSym & { deleted?: boolean }).deleted);
  return rec.fields.some(f => {
    if (f.isBase) return f.ty.k === 'record' && implicitAssignDeleted(f.ty.rec);
    let t = f.ty;
    while (t.k === 'array') t = t.elem;
    return t.k === 'ref' || (t.q & Q.Const) !== 0 || (t.k === 'record' && implicitAssignDeleted(t.rec));
  });
}

export function allMethods(rec: RecordDecl): FuncSym[] { return [...(rec.methods ?? []), ...(rec.bases ?? []).flatMap(b => allMethods(b.rec))]; }

/** Two specialisations with the same template arguments and parameter types (redeclarations of one template). */
export function sameSignature(a: FuncSym, b: FuncSym): boolean {
  if (!a.targs || !b.targs || a.name !== b.name || a.targs.length !== b.targs.length || a.ty.params.length !== b.ty.params.length) return false;
  const eq = (x: TArg, y: TArg): boolean => x.k === 'type' ? y.k === 'type' && typeName(x.ty) === typeName(y.ty)
    : x.k === 'pack' ? y.k === 'pack' && x.args.length === y.args.length && x.args.every((z, j) => eq(z, y.args[j]!)) : y.k === 'val' && y.v === x.v;
  return a.targs.every((x, i) => eq(x, b.targs![i]!))
    && a.ty.params.every((p, i) => typeName(p) === typeName(b.ty.params[i]!));
}
/** A class's own user-provided copy constructor (callable with one argument: `C(const C &)`). */
export function ownCopyCtor(rec: RecordDecl): boolean {
  if (isByteCopy(rec)) return false;
  return (rec.methods ?? []).some(m => m.ctor && !m.defaulted && m.ty.params.length >= 1 && m.ty.params[0]!.k === 'ref' && !(m.ty.params[0] as { rv?: boolean }).rv
    && (m.ty.params[0] as CType & { k: 'ref' }).to.k === 'record' && ((m.ty.params[0] as CType & { k: 'ref' }).to as CType & { k: 'record' }).rec === rec
    && m.ty.params.length - m.defaults.filter(d => d !== null).length <= 1);
}
/** Template arguments that still name a pattern's parameters anywhere (placeholders, packs, dependent names, sentinels). */
export function patternArgs(args: readonly TArg[]): boolean {
  const ty = (t: CType): boolean => t.k === 'error' || ((t.k === 'ptr' || t.k === 'ref') && ty(t.to)) || (t.k === 'array' && ty(t.elem))
    || (t.k === 'func' && (ty(t.ret) || t.params.some(ty))) || (t.k === 'record' && patternArgs(t.rec.targs ?? []));
  return args.some(a => (a.k === 'type' && ty(a.ty)) || (a.k === 'val' && isValParam(a.v)) || (a.k === 'pack' && patternArgs(a.args)));
}
/** A complete class that declares nothing: no bases, members of any kind, or members we could not read. */
export function declaresNothing(rec: RecordDecl): boolean {
  const x = rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl>; badTypes?: Map<string, string> };
  return rec.complete && rec.fields.length === 0 && !rec.hasMethods && !(rec.methods?.length) && !(rec.bases?.length)
    && !(rec.types?.size) && !(rec.statics?.size) && !(rec.enumerators?.size) && !(rec.memberTemplates?.size) && !(rec.mtmpls?.length)
    && !(x.mctmpls?.size) && !(x.badTypes?.size);
}
/**
 * A complete class that, with its bases, declares no member `name` and holds nothing we could not read (member
 * types, member class templates, members): `thrust::iterator_traits<long>` (empty bases but for a marker alias)
 * has no `iterator_category`, a substitution failure of `void_t<typename iterator_traits<T>::iterator_category>`.
 */
export function lacksMember(rec: RecordDecl, name: string): boolean {
  const x = rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl>; badTypes?: Map<string, string>; badMembers?: Map<string, string> };
  if (!rec.complete || x.badTypes?.size || x.badMembers?.size || x.mctmpls?.size || rec.memberTemplates?.size) return false;
  if (rec.name === name || rec.types?.has(name) || rec.statics?.has(name) || rec.enumerators?.has(name)) return false;
  if (rec.fields.some(f => f.name === name) || rec.methods?.some(m => m.name === name) || rec.mtmpls?.some(m => m.name === name)) return false;
  return (rec.bases ?? []).every(b => lacksMember(b.rec, name));
}
/** The member class template `name` of rec or of one of its bases. */
export function memberClassTmplOf(rec: RecordDecl, name: string): MemberClassTmpl | undefined {
  const m = (rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl> }).mctmpls?.get(name);
  if (m) return m;
  for (const b of rec.bases ?? []) { const r = memberClassTmplOf(b.rec, name); if (r) return r; }
  return undefined;
}
/**
 * Does the class (or a base) declare its own operator new/delete (or new[]/delete[])? Such declarations are
 * unreadable members today (recorded by the token before their `(`, or by parseOperatorId's reason).
 */
export function classAllocator(rec: RecordDecl, which: 'new' | 'delete'): boolean {
  const bad = (rec as RecordDecl & { badMembers?: Map<string, string> }).badMembers;
  // declared ones we can call: a single operator new(size_t) / operator delete(void *) of each form
  const own = (rec.methods ?? []).filter(m => m.name === `operator ${which}` || m.name === `operator ${which}[]`);
  if (own.some(m => m.ty.params.length !== 1 || m.bodyStart < 0 || own.filter(o => o.name === m.name).length > 1)) return true;
  if (bad?.has(which) || bad?.has(']')) return true;
  if ([...(bad?.values() ?? [])].some(r => r === `operator ${which}`)) return true;   // parseOperatorId refused it
  return (rec.bases ?? []).some(b => classAllocator(b.rec, which));
}
/** The class's own (or a base's) allocation function `name` taking one parameter, if it declares one. */
export function classAllocFn(rec: RecordDecl, name: string, nparams: number): FuncSym | undefined {
  const m = (rec.methods ?? []).find(x => x.name === name && x.ty.params.length === nparams);
  if (m) return m;
  for (const b of rec.bases ?? []) { const r = classAllocFn(b.rec, name, nparams); if (r) return r; }
  return undefined;
}
/** A user-provided move constructor `C(C &&)`. */
export function ownMoveCtor(rec: RecordDecl): boolean {
  return (rec.methods ?? []).some(m => m.ctor && !m.defaulted && m.ty.params.length >= 1 && m.ty.params[0]!.k === 'ref' && !!(m.ty.params[0] as { rv?: boolean }).rv
    && (m.ty.params[0] as CType & { k: 'ref' }).to.k === 'record' && ((m.ty.params[0] as CType & { k: 'ref' }).to as CType & { k: 'record' }).rec === rec);
}
/** User-declared constructors of a class. */
export function ctorsOf(rec: RecordDecl): FuncSym[] { return (rec.methods ?? []).filter(m => m.ctor); }
/** Constructor templates of a class (instantiated per call by initFromArgs). */
export function ctorTmplsOf(rec: RecordDecl): MemberTmpl[] { return (rec.mtmpls ?? []).filter(m => m.name === rec.name); }
export function promotedType0(t: CType): CType {
  if (t.k === 'bool' || (t.k === 'int' && t.bits < 32)) return C.int;
  if (t.k === 'enum') return C.int;
  return unqual(t);
}
export function sameUnq(a: CType, b: CType): boolean {
  const x = unqual(a), y = unqual(b);
  if (x.k !== y.k) return false;
  if (x.k === 'ptr' && y.k === 'ptr') return sameUnq(x.to, y.to) && x.to.q === y.to.q;
  if (x.k === 'int' && y.k === 'int') return x.name === y.name;
  if (x.k === 'record' && y.k === 'record') return x.rec === y.rec;
  if (x.k === 'enum' && y.k === 'enum') return x.en === y.en;
  return x.k !== 'array' && x.k !== 'func';
}
