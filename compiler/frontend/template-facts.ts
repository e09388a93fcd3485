// What is known of template patterns without instantiating them: parameter placeholders, dependent types,
// member class templates, and template argument keys (classes numbered per unit).

import type { Sym } from './ast';
import { type CType, type RecordDecl, type TArg, VAL_SENT, isValParam, packExpOf } from './ctype';

/** A template parameter of a pattern (the declared signature, used for deduction and mangling). */
export const tparamOf = (t: CType): number | undefined => (t as { tparam?: number }).tparam;
/** Template arguments with packs expanded in place. */
export const flatArgs = (args: TArg[]): TArg[] => args.flatMap(a => a.k === 'pack' ? a.args : [a]);
/** Arguments that still name a template's parameters (a pattern's, never laid out or evaluated). */
export const dependentArgs = (args: TArg[]): boolean => flatArgs(args).some(a => a.k === 'type' ? dependent(a.ty) : a.k === 'val' && isValParam(a.v));
export const dependent = (t: CType): boolean => tparamOf(t) !== undefined || packExpOf(t) !== undefined || ((t.k === 'ptr' || t.k === 'ref') && dependent(t.to))
  || (t.k === 'array' && (dependent(t.elem) || (t.n !== null && t.n >= Number(VAL_SENT))))
  || (t.k === 'record' && !!t.rec.targs && dependentArgs(t.rec.targs));
/** Numbers for the classes in template argument keys (targsKey) of one unit: 1 for the first class keyed, then 2, ... */
export interface RecIds { ids: WeakMap<RecordDecl, number>; next: number }
export const newRecIds = (): RecIds => ({ ids: new WeakMap(), next: 1 });
/** A member class template `template <...> struct N {...}` in a class body: where it is, and what it sees. */
export interface MemberClassTmpl {
  name: string;
  /** Tokens from `template` to the end of the declaration. */
  start: number; end: number;
  outer: RecordDecl;
  /** The enclosing class template's parameters as bound in `outer` (null in a plain class). */
  tscope: Map<string, Sym> | null;
  ns: string[];
  insts: Map<string, RecordDecl>;
  /** A member alias template `template <...> using N = type;` rather than a class. */
  alias?: boolean;
}
/** A class template passed as a template template argument: a stand-in record (for mangling: its name, no arguments). */
export const tmplRecOf = (t: CType): RecordDecl | undefined => (t as { tmplRec?: RecordDecl }).tmplRec;
export const targsKey = (rids: RecIds, args: TArg[]): string => args.map(a => a.k === 'type' ? 't:' + typeKey(rids, a.ty) : a.k === 'pack' ? `p(${targsKey(rids, a.args)})` : `v:${a.v}${(a as { packExp?: boolean }).packExp ? '...' : ''}`).join(',');
function typeKey(rids: RecIds, t: CType): string {
  const q = `${t.q}`;
  switch (t.k) {
    case 'ptr': case 'ref': return `${t.k}${q}(${typeKey(rids, t.to)})${t.k === 'ref' && t.rv ? '&&' : ''}`;
    case 'array': return `arr${t.n}(${typeKey(rids, t.elem)})`;
    case 'record': return `rec${q}#${recId(rids, t.rec)}`;
    case 'enum': return `enum${q}#${[...t.en.scope, t.en.name].join('::')}`;
    case 'int': return `${t.name}${q}`;
    case 'func': return `fn(${typeKey(rids, t.ret)};${t.params.map(x => typeKey(rids, x)).join(',')})`;
    default: return tmplRecOf(t) ? `TT#${recId(rids, tmplRecOf(t)!)}` : tparamOf(t) !== undefined ? `T${tparamOf(t)}` : packExpOf(t) ? `Dp(${typeKey(rids, packExpOf(t)!)})` : `${t.k}${q}`;
  }
}
export function recId(rids: RecIds, r: RecordDecl): number { let i = rids.ids.get(r); if (!i) { i = rids.next++; rids.ids.set(r, i); } return i; }
/** Do two types have the same key (numbering their classes afresh: only equality matters)? */
export function sameTypeKey(a: CType, b: CType): boolean { const rids = newRecIds(); return typeKey(rids, a) === typeKey(rids, b); }
export function sameArgsKey(a: TArg[], b: TArg[]): boolean { const rids = newRecIds(); return targsKey(rids, a) === targsKey(rids, b); }
