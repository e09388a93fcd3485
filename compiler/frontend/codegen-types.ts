// Facts about C types that code generation needs: which classes need destructor calls, are passed by invisible
// reference or get an array cookie; bitfields, const objects and the address space of a variable's storage.

import { AS } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import type { Expr, FuncSym, VarSym } from './ast';
import { type CType, type Field, type RecordDecl, Q, alignOfC } from './ctype';
import { ownCopyCtor } from './parser';
import { isDynamic, isVirtual } from './virtuals';

/** The address space of a variable's storage. */
export const AS_OF: Readonly<Record<VarSym['space'], number>> = { device: AS.global, constant: AS.const, shared: AS.shared, managed: AS.global, none: AS.global };

/** A const-qualified object type (an array of const elements too). */
export const constObject = (t: CType): boolean => (t.k === 'array' ? constObject(t.elem) : (t.q & Q.Const) !== 0);

export const isBitfield = (e: Expr): boolean => e.k === 'member' && (e.field as Field).bits !== undefined;

/** The user-provided destructor of a class that does something (not `= default`, not `{}`). */
export function userDtor(rec: RecordDecl): FuncSym | undefined {
  return (rec.methods ?? []).find(m => m.dtor && !m.defaulted && !(m.bodyStart >= 0 && m.bodyEnd === m.bodyStart + 1));
}
const dtorMemo = new WeakMap<RecordDecl, boolean>();
/** An array of class objects (any depth): its class and total element count. */
export function arrayElems(t: CType): { rec: RecordDecl; n: number } | null {
  if (t.k !== 'array') return null;
  let n = 1, e: CType = t;
  while (e.k === 'array') { if (e.n === null) throw new Unsupported('array of unknown size of objects with destructors'); n *= e.n; e = e.elem; }
  return e.k === 'record' ? { rec: e.rec, n } : null;
}
/** Passed by invisible reference (not byval): a user copy constructor, a destructor to run, or a vptr. */
export function byInvisibleRef(rec: RecordDecl): boolean {
  return ownCopyCtor(rec) || needsDtor({ k: 'record', rec, q: 0 }) || isDynamic(rec);
}
/** Itanium array cookie size of new T[n]: the count, padded to T's alignment, when T is not trivially destructible. */
export function arrayCookie(t: CType): number {
  return nonTrivialDtor(t) ? Math.max(8, alignOfC(t)) : 0;
}
/** A destructor that is not trivial in the language's sense (user-provided or virtual, or a member's or base's). */
export function nonTrivialDtor(t: CType): boolean {
  if (t.k === 'array') return nonTrivialDtor(t.elem);
  if (t.k !== 'record') return false;
  if ((t.rec.methods ?? []).some(m => m.dtor && (!m.defaulted || isVirtual(m)))) return true;
  return t.rec.fields.some(f => nonTrivialDtor(f.ty)) || (t.rec.bases ?? []).some(b => nonTrivialDtor({ k: 'record', rec: b.rec, q: 0 }));
}
/** Do objects of this type need destructor calls (a non-trivial destructor of the class, its members or bases)? */
export function needsDtor(t: CType): boolean {
  if (t.k === 'array') return needsDtor(t.elem);
  if (t.k !== 'record') return false;
  let r = dtorMemo.get(t.rec);
  if (r === undefined) {
    dtorMemo.set(t.rec, false);
    r = !!userDtor(t.rec) || t.rec.fields.some(f => needsDtor(f.ty)) || (t.rec.bases ?? []).some(b => needsDtor({ k: 'record', rec: b.rec, q: 0 }));
    dtorMemo.set(t.rec, r);
  }
  return r;
}

export function intBitsOf(t: CType): number { return t.k === 'int' ? t.bits : 32; }

/** A class without data: no members but bases without data, no virtual functions. */
export function emptyClass(rec: RecordDecl): boolean {
  return !isDynamic(rec) && rec.fields.every(f => f.isBase === true && f.ty.k === 'record' && emptyClass(f.ty.rec));
}
