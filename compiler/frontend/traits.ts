// The compiler's type-trait intrinsics (`__is_trivially_copyable(T)`, `__is_base_of(B, D)`, ...), which
// libstdc++'s <type_traits>, CCCL and cooperative_groups evaluate in device code (a static_assert in a
// shuffle helper, std::is_trivially_copyable<T>::value). Answered from what the front end knows about a
// class: user-provided special members, virtual functions, members and bases. The traits that ask whether an
// expression is well-formed (TRIAL_TRAITS: __is_constructible, __is_assignable, __is_convertible, ...) are
// answered by the parser, which tries the construction, assignment or conversion on stand-ins of the operands.

import { Unsupported } from '../diagnostics';
import type { FuncSym } from './ast';
import { type CType, type RecordDecl, sameType, unqual } from './ctype';
import { isDynamic, isPure } from './virtuals';

/** Traits answered by trying the expression they ask about (compiler/frontend/parser.ts), with their arity (-1: one or more). */
const TRIAL_ARITY = new Map<string, number>([
  ['__is_constructible', -1], ['__is_trivially_constructible', -1], ['__is_nothrow_constructible', -1],
  ['__is_assignable', 2], ['__is_trivially_assignable', 2], ['__is_nothrow_assignable', 2],
  ['__is_convertible', 2], ['__is_convertible_to', 2], ['__is_nothrow_convertible', 2],
]);
export const TRIAL_TRAITS: ReadonlySet<string> = new Set(TRIAL_ARITY.keys());

/** The traits the front end knows, with the number of type arguments each takes (-1: one or more). */
export const TYPE_TRAITS = new Map<string, number>([
  ['__is_trivially_copyable', 1], ['__is_trivial', 1], ['__is_pod', 1], ['__is_standard_layout', 1], ['__is_literal_type', 1],
  ['__is_empty', 1], ['__is_class', 1], ['__is_union', 1], ['__is_enum', 1], ['__is_polymorphic', 1], ['__is_abstract', 1],
  ['__is_final', 1], ['__is_aggregate', 1], ['__has_trivial_destructor', 1], ['__is_trivially_destructible', 1],
  ['__has_virtual_destructor', 1], ['__has_trivial_constructor', 1], ['__has_trivial_copy', 1], ['__has_trivial_assign', 1],
  ['__is_same', 2], ['__is_same_as', 2], ['__is_base_of', 2],
  ...TRIAL_ARITY,
]);

const methods = (r: RecordDecl): FuncSym[] => r.methods ?? [];
const userProvided = (m: FuncSym): boolean => !m.defaulted && !(m as FuncSym & { deleted?: boolean }).deleted;

/** The class's own parameter of a copy/move member: `const C &`, `C &`, `C &&`. */
function ownRefParam(m: FuncSym, r: RecordDecl): boolean {
  const p = m.ty.params[0];
  return !!p && p.k === 'ref' && p.to.k === 'record' && p.to.rec === r && m.ty.params.length - m.defaults.filter(d => d !== null).length <= 1;
}
const userCopyOrMoveCtor = (r: RecordDecl): boolean => methods(r).some(m => m.ctor && userProvided(m) && ownRefParam(m, r));
const userAssign = (r: RecordDecl): boolean => methods(r).some(m => m.op === '=' && userProvided(m) && ownRefParam(m, r));
const userDtor = (r: RecordDecl): boolean => methods(r).some(m => m.dtor && userProvided(m));
const userDefaultCtor = (r: RecordDecl): boolean => methods(r).some(m => m.ctor && userProvided(m) && m.ty.params.length - m.defaults.filter(d => d !== null).length === 0);

const bases = (r: RecordDecl): RecordDecl[] => {
  if (r.vbases?.length) throw new Unsupported('type trait of a class with a virtual base class');
  return (r.bases ?? []).map(b => b.rec);
};
const memberTypes = (r: RecordDecl): CType[] => r.fields.filter(f => !f.isBase).map(f => f.ty);

function elementOf(t: CType): CType {
  let e = t;
  while (e.k === 'array') e = e.elem;
  return e;
}

/** Every record in the class (itself, its bases and its members' classes, transitively) satisfies `own`. */
function allParts(t: CType, own: (r: RecordDecl) => boolean): boolean {
  const e = elementOf(t);
  if (e.k !== 'record') return true;
  const r = e.rec;
  return own(r) && bases(r).every(b => allParts({ k: 'record', rec: b, q: 0 }, own)) && memberTypes(r).every(m => allParts(m, own));
}

const trivialDtor = (t: CType): boolean => allParts(t, r => !userDtor(r));
export const triviallyCopyable = (t: CType): boolean => t.k !== 'ref' && t.k !== 'void' && t.k !== 'func'
  && allParts(t, r => !userCopyOrMoveCtor(r) && !userAssign(r) && !userDtor(r) && !isDynamic(r));
export const trivialDefault = (t: CType): boolean => allParts(t, r => !userDefaultCtor(r) && !isDynamic(r));
const standardLayout = (t: CType): boolean => allParts(t, r => !isDynamic(r));

/** A class without data (only empty bases, no virtual functions): its objects carry nothing but their type. */
export function isEmptyClass(r: RecordDecl): boolean {
  return r.tag !== 'union' && !isDynamic(r) && r.fields.every(f => f.isBase) && bases(r).every(isEmptyClass);
}

/** The value of trait `name` for these (complete) types, or null when it is not modelled. */
export function evalTypeTrait(name: string, tys: CType[]): boolean | null {
  const t = tys[0]!;
  const u = t.k === 'ref' ? t : unqual(t);
  const rec = u.k === 'record' ? u.rec : null;
  switch (name) {
    case '__is_trivially_copyable': case '__has_trivial_copy': case '__has_trivial_assign': return triviallyCopyable(u);
    case '__is_trivial': return triviallyCopyable(u) && trivialDefault(u);
    case '__is_pod': return triviallyCopyable(u) && trivialDefault(u) && standardLayout(u);
    case '__is_standard_layout': return standardLayout(u);
    case '__is_literal_type': return trivialDtor(u);
    case '__is_empty': return !!rec && isEmptyClass(rec);
    case '__is_class': return !!rec && rec.tag !== 'union';
    case '__is_union': return !!rec && rec.tag === 'union';
    case '__is_enum': return u.k === 'enum';
    case '__is_polymorphic': return !!rec && isDynamic(rec);
    case '__is_abstract': return !!rec && isAbstractClass(rec);
    case '__is_final': return !!rec && !!(rec as RecordDecl & { finalClass?: boolean }).finalClass;
    case '__is_aggregate': return u.k === 'array' || (!!rec && !isDynamic(rec) && !methods(rec).some(m => m.ctor && userProvided(m)));
    case '__has_trivial_destructor': case '__is_trivially_destructible': return trivialDtor(u);
    case '__has_virtual_destructor': return !!rec && isDynamic(rec) && allMethods(rec).some(m => m.dtor && !!(m as FuncSym & { virt?: boolean }).virt);
    case '__has_trivial_constructor': return trivialDefault(u);
    case '__is_same': case '__is_same_as': return sameType(t, tys[1]!) && t.q === tys[1]!.q;
    case '__is_base_of': {
      const d = tys[1]!;
      if (!rec || d.k !== 'record') return false;
      const derives = (x: RecordDecl): boolean => x === rec || bases(x).some(derives);
      return derives(d.rec);
    }
    default: return null;
  }
}

/** A class with a pure virtual function (its own or a base's): no object of it can be made. */
export const isAbstractClass = (r: RecordDecl): boolean => allMethods(r).some(isPure);

function allMethods(r: RecordDecl): FuncSym[] {
  return [...methods(r), ...bases(r).flatMap(allMethods)];
}
