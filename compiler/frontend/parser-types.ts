// The parser's shared types: declaration specifiers, declarators, attributes, and the syntax-error signal.

import type { Expr, Init, Sym, Pos } from './ast';
import { type CType, type MemberTmpl, type TArg } from './ctype';

export class SyntaxAbort extends Error { constructor() { super('syntax'); } }

export type PackParams = { name: string; first: number; count: number }[];
/** A function type made from a parameter list: it keeps where the list's parameter packs were expanded. */
export function withPacks(t: CType & { k: 'func' }, s: { packs?: PackParams } | Suffix): CType {
  const packs = (s as { packs?: PackParams }).packs;
  if (packs) (t as { packs?: PackParams }).packs = packs;
  return t;
}
export const packsOf = (t: CType): PackParams => (t as { packs?: PackParams }).packs ?? [];

/** Does a type name a template parameter of a declared signature (a placeholder)? */
export function hasPlaceholder(t: CType): boolean {
  if ((t as { tparam?: number }).tparam !== undefined) return true;
  if (t.k === 'ptr' || t.k === 'ref') return hasPlaceholder(t.to);
  if (t.k === 'array') return hasPlaceholder(t.elem);
  return false;
}
/** A template parameter placeholder (as templates.ts makes them for declared signatures). */
export const placeholderType = (i: number): CType => ({ k: 'error', q: 0, tparam: i, tname: 'auto' } as CType);

/** Function templates a name denotes: namespace-scope entries (index decls) and member function templates. */
export type TmplRef = { ents: number[]; explicit: TArg[]; members?: MemberTmpl[] };

export interface Attrs {
  device?: boolean; global?: boolean; host?: boolean; deviceBuiltin?: boolean; shared?: boolean; constant?: boolean; managed?: boolean;
  launchBounds?: [number, number | undefined]; alwaysInline?: boolean; noinline?: boolean; aligned?: number; cudartBuiltin?: boolean;
}

export interface DeclSpec {
  ty: CType | null;         // null when no type specifier (error, or ctor)
  typedef: boolean; extern: boolean; externC: boolean; static: boolean; inline: boolean; constexpr: boolean; auto: boolean;
  attrs: Attrs;
  /** the record/enum defined or named by the specifiers (for `struct X {..};` declarations) */
  tagOnly: boolean;
}

export interface DeclaratorInfo {
  name: string;
  qual: string[];           // A::f qualifier
  pos: Pos;
  ty: CType;
  paramNames: string[];
  defaults: (number | null)[];
  paramPos: Pos[];
  attrs: Attrs;
  asmLabel?: string;
  isFuncDeclarator: boolean;
}

export type Suffix = { k: 'arr'; n: number | null } | { k: 'fn'; params: CType[]; variadic: boolean; names: string[]; defaults: (number | null)[]; pos: Pos[] };
export type PtrOp = { k: 'ptr' | 'ref' | 'rref'; q: number };

/** A bound non-type parameter pack: sizeof... and expansions read its values; a plain use is an error. */
export function valPackSym(name: string, ty: CType, vals: bigint[]): Sym { return { kind: 'enumconst', name, ty, value: 0n, packVals: vals } as Sym; }
export const packValsOf = (s: Sym | undefined): bigint[] | undefined => (s as { packVals?: bigint[] } | undefined)?.packVals;
/** A non-type parameter pack of a pattern (`Is` in `seq<Is...>` while deducing): its parameter index. */
export const valPackParamOf = (s: Sym | undefined): number | undefined => (s as { valPackParam?: number } | undefined)?.valPackParam;
/** A braced list's initializers, read one at a time (Parser.initItems). */
export interface InitItems {
  /** None left: the cursor is at the list's '}' (or at what follows an initializer not followed by ','). */
  end(): boolean;
  /** Elements of a pack expansion are waiting. */
  expanded(): boolean;
  /** The next one is in braces of its own (or a string literal): not taken by brace elision. */
  braced(): boolean;
  /** The next one read as an expression (not taken), or null when it is in braces or none is left. */
  peek(): Expr | null;
  /** The next one, for an object of type t. */
  take(t: CType): Init;
}
