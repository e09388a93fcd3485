// Virtual functions (Itanium C++ ABI, the subset device code uses): which member functions are virtual,
// the class's vtable slots, and where its vptr lives. Supported: single inheritance chains (a dynamic class
// has at most one dynamic base, its first), so every vptr is at offset 0 and every vtable is its primary
// base's vtable followed by the class's new virtual functions; and multiple inheritance where the first base
// is the primary one: each other dynamic base keeps its own vptr, and the class's vtable group gets a
// secondary vtable per such base (offset-to-top, then that base's slots, this-adjusting thunks where a
// more derived class overrides). Virtual inheritance stays unsupported (a named fallback).

import { Unsupported } from '../diagnostics';
import type { FuncSym } from './ast';
import { type RecordDecl, type Field, type CType, C, typeName } from './ctype';

/** One vtable entry after the offset-to-top and typeinfo words: a virtual function, or a destructor (D1 then D0). */
export type VSlot = { k: 'fn'; f: FuncSym } | { k: 'dtor'; deleting: boolean };

export interface VInfo {
  /** Entries after the two header words, in order: primary base's first, final overriders in this class. */
  slots: VSlot[];
  /** `class C final`: a call through C can be bound statically. */
  final: boolean;
}

type VFunc = FuncSym & { virt?: boolean; pure?: boolean };

export const vinfoOf = (r: RecordDecl): VInfo | undefined => (r as RecordDecl & { vinfo?: VInfo }).vinfo;
export const isDynamic = (r: RecordDecl): boolean => vinfoOf(r) !== undefined;
export const isVirtual = (f: FuncSym): boolean => !!(f as VFunc).virt;
export const isPure = (f: FuncSym): boolean => !!(f as VFunc).pure;
export function markVirtual(f: FuncSym, pure: boolean): void { (f as VFunc).virt = true; if (pure) (f as VFunc).pure = true; }
/** A member declaration naming `virtual` or `~` that the parser had to skip. */
export function noteUnreadableVirtual(r: RecordDecl, reason: string, virt: boolean): void {
  const x = r as RecordDecl & { badVirtual?: { reason: string; virt: boolean } };
  if (!x.badVirtual || (virt && !x.badVirtual.virt)) x.badVirtual = { reason, virt };
}
export function markFinalFunction(f: FuncSym): void { (f as VFunc & { finalFn?: boolean }).finalFn = true; }
/** `virtual f() final`: no class derived from f's overrides it. */
export const isFinalFunction = (f: FuncSym): boolean => !!(f as VFunc & { finalFn?: boolean }).finalFn;
export function markFinalClass(r: RecordDecl): void { (r as RecordDecl & { finalClass?: boolean }).finalClass = true; }

/** The slot index of virtual function f in its class's vtable (the same index in every derived class's). */
export function slotOf(f: FuncSym): number {
  const vi = vinfoOf(f.cls!);
  const k = vi ? vi.slots.findIndex(s => s.k === 'fn' && s.f === f) : -1;
  if (k < 0) throw new Unsupported(`virtual function ${f.name} without a vtable slot`);
  return k;
}
/** Slot index of the complete-object destructor (D1); D0 follows it. */
export function dtorSlot(r: RecordDecl): number {
  const vi = vinfoOf(r);
  return vi ? vi.slots.findIndex(s => s.k === 'dtor' && !s.deleting) : -1;
}

const sameOverride = (a: FuncSym, b: FuncSym): boolean =>
  a.name === b.name && !!a.dtor === !!b.dtor && (a.thisQ ?? 0) === (b.thisQ ?? 0) && a.ty.params.length === b.ty.params.length
  && a.ty.params.every((p, i) => typeName(p) === typeName(b.ty.params[i]!));

/**
 * Called when a class body is complete, before its layout: marks overriders virtual, builds the slots and,
 * for a class without a dynamic primary base, adds the vptr as a hidden first field.
 */
export function setupVirtuals(rec: RecordDecl): void {
  const bases = rec.bases ?? [];
  const dynBases = bases.filter(b => isDynamic(b.rec));
  const methods = (rec.methods ?? []) as VFunc[];
  const bad = (rec as RecordDecl & { badVirtual?: { reason: string; virt: boolean } }).badVirtual;
  if (bad?.virt) throw new Unsupported(`virtual function we cannot read (${bad.reason})`);
  if (dynBases.length === 0 && !methods.some(m => m.virt)) return;
  if (bad) throw new Unsupported(`destructor of a dynamic class we cannot read (${bad.reason})`);
  if (rec.tag === 'union') throw new Unsupported('virtual functions in a union');
  const primary = dynBases[0]?.rec;
  if (primary && bases[0]!.rec !== primary) throw new Unsupported('virtual functions with a dynamic base class that is not the first');
  const slots: VSlot[] = primary ? vinfoOf(primary)!.slots.map(s => ({ ...s })) : [];
  for (const m of methods) {
    if (m.ctor || m.staticMember) { if (m.virt) throw new Unsupported('virtual constructor or static member'); continue; }
    if (m.dtor) {
      const k = slots.findIndex(s => s.k === 'dtor');
      if (k >= 0) { m.virt = true; continue; }   // overrides the base's: the slots already name this class's D1/D0
      if (secondaryVirtualDtor(dynBases)) m.virt = true;
      if (m.virt) slots.push({ k: 'dtor', deleting: false }, { k: 'dtor', deleting: true });
      continue;
    }
    const k = slots.findIndex(s => s.k === 'fn' && sameOverride(s.f, m));
    // a function overriding only a secondary base's (at any depth): virtual, with a new slot in the primary vtable (Itanium)
    const sec = k < 0 ? dynBases.map(b => overriddenIn(b.rec, m)).find(x => x) : undefined;
    if (k >= 0 || sec) {
      const old = k >= 0 ? (slots[k] as { f: FuncSym }).f : sec!;
      if (typeName(old.ty.ret) !== typeName(m.ty.ret)) throw new Unsupported('virtual function with a covariant return type');
      m.virt = true;
    }
    if (k >= 0) {
      slots[k] = { k: 'fn', f: m };
    } else if (m.virt) {
      if (m.targs) throw new Unsupported('virtual member function template');
      slots.push({ k: 'fn', f: m });
    }
  }
  // an implicit destructor is virtual when a secondary base's is: its slots go after the declared functions
  if (!slots.some(s => s.k === 'dtor') && !methods.some(m => m.dtor) && secondaryVirtualDtor(dynBases)) slots.push({ k: 'dtor', deleting: false }, { k: 'dtor', deleting: true });
  const vi: VInfo = { slots, final: !!(rec as RecordDecl & { finalClass?: boolean }).finalClass };
  (rec as RecordDecl & { vinfo?: VInfo }).vinfo = vi;
  if (!primary) {
    const vptr: Field = { name: '__vptr', ty: { k: 'ptr', to: C.void, q: 0 } as CType, offset: 0, irIndex: -1 };
    (vptr as Field & { vptr?: boolean }).vptr = true;
    rec.fields.unshift(vptr);
  }
}

/** A virtual function of rec or its bases that m (same name and signature) overrides. */
function overriddenIn(rec: RecordDecl, m: FuncSym): FuncSym | undefined {
  const own = vinfoOf(rec)?.slots.find(s => s.k === 'fn' && sameOverride(s.f, m));
  if (own) return (own as { f: FuncSym }).f;
  for (const b of rec.bases ?? []) { const r = isDynamic(b.rec) ? overriddenIn(b.rec, m) : undefined; if (r) return r; }
  return undefined;
}
const secondaryVirtualDtor = (dynBases: { rec: RecordDecl }[]): boolean => dynBases.some(b => hasVirtualDtor(b.rec));
function hasVirtualDtor(rec: RecordDecl): boolean {
  return dtorSlot(rec) >= 0 || (rec.bases ?? []).some(b => isDynamic(b.rec) && hasVirtualDtor(b.rec));
}

/** The classes sharing rec's vptr at offset 0: rec, its primary base, that one's primary base... */
export function primaryChain(rec: RecordDecl): RecordDecl[] {
  const out = [rec];
  for (let r = rec; ;) {
    const b = (r.bases ?? [])[0];
    if (!b || !isDynamic(b.rec)) return out;
    out.push(b.rec);
    r = b.rec;
  }
}

/** A dynamic base subobject with its own vptr (not at a primary position), and its byte offset in the complete class. */
export interface SecondaryBase { rec: RecordDecl; off: number; path: RecordDecl[] }
/** rec's secondary vtables' subobjects, in Itanium order (depth-first, left to right, primary bases skipped). */
export function secondaryBases(rec: RecordDecl): SecondaryBase[] {
  const out: SecondaryBase[] = [];
  const walk = (r: RecordDecl, off: number, path: RecordDecl[]): void => {
    (r.bases ?? []).forEach((b, i) => {
      if (!isDynamic(b.rec)) return;
      const boff = off + b.field.offset;
      const p = [...path, b.rec];
      if (i > 0) out.push({ rec: b.rec, off: boff, path: p });
      walk(b.rec, boff, p);
    });
  };
  walk(rec, 0, [rec]);
  return out;
}
/**
 * The final overrider of virtual f for the subobject reached by `path` (complete class first): the most
 * derived class on the path declaring an override, and that class's offset within the subobject chain.
 */
export function overriderOnPath(f: FuncSym, path: RecordDecl[], offs: number[]): { f: FuncSym; off: number } {
  for (let i = 0; i < path.length; i++) {
    const r = path[i]!;
    const m = r === f.cls ? f : (r.methods ?? []).find(x => isVirtual(x) && sameOverride(x, f));
    if (m) return { f: m, off: offs[i]! };
  }
  return { f, off: offs[offs.length - 1]! };
}

/** The function a call of virtual f binds to when the object's dynamic type is `dyn` (a class derived from f's). */
export function finalOverrider(f: FuncSym, dyn: RecordDecl): FuncSym {
  const s = vinfoOf(dyn)?.slots[slotOf(f)];
  return s && s.k === 'fn' ? s.f : f;
}
