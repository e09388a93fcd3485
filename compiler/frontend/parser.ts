// Recursive-descent parser with sema actions: declarations (namespace scope, on demand), function
// bodies, statements and expressions. Produces the typed AST of ast.ts.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, Stmt, Init, Sym, VarSym, FuncSym, Pos } from './ast';
import {
  type CType, type Field, type RecordDecl, type MemberTmpl, type EnumDecl, type IntName, type TArg, C, Q, intT, ptrTo, refTo, arrayOf, withQ, unqual, AUTO, DECLTYPE_AUTO, isAuto, isDecltypeAuto, hasAuto,
  isArith, isIntegral, isFloating, isScalar, sizeOfC, alignOfC, typeName, layoutRecord, isRecord, basePath, packOf, hasPack, anonPath, valParam, isValParam, withSugar,
} from './ctype';
import { mk, errExpr, rval, promote, usualArithType, convertArith, implicitConvert, explicitConvert, toCond, convRank, cast, wrapInt, isNullConst, setUserConversion, markXvalue, isXvalue } from './sema';
import { evalConst, evalInt, noteConstInit, unevaluated } from './consteval';
import { TYPE_TRAITS, TRIAL_TRAITS, evalTypeTrait, triviallyCopyable, trivialDefault, isAbstractClass } from './traits';
import { isMmaBuiltin, mmaSignature } from './builtins-mma';
import { isNvAtomic, nvAtomicSignature, SYSTEM_SCOPE } from './builtins-nvatomic';
import type { Unit } from './unit';
import { setupVirtuals, markVirtual, markFinalClass, markFinalFunction, isDynamic, noteUnreadableVirtual } from './virtuals';
import { arityOf, instantiateMemberClass, instantiateMemberAlias, tparamOf, dependent, type MemberClassTmpl } from './templates';

/** CUDA header classes whose user-provided copy/move constructors copy the object's bytes (cuda_fp16.h,
 *  cuda_bf16.h: `*(unsigned int *)this = *(const unsigned int *)&src`): a by-value copy of them is a byte copy. */
const BYTE_COPY_RECORDS: ReadonlySet<string> = new Set(['__half2', '__nv_bfloat162']);
const isByteCopy = (rec: RecordDecl): boolean => BYTE_COPY_RECORDS.has(rec.name) && rec.scope.length === 0 && rec.outer.length === 0;

export class SyntaxAbort extends Error { constructor() { super('syntax'); } }

type PackParams = { name: string; first: number; count: number }[];
/** A function type made from a parameter list: it keeps where the list's parameter packs were expanded. */
function withPacks(t: CType & { k: 'func' }, s: { packs?: PackParams } | Suffix): CType {
  const packs = (s as { packs?: PackParams }).packs;
  if (packs) (t as { packs?: PackParams }).packs = packs;
  return t;
}
const packsOf = (t: CType): PackParams => (t as { packs?: PackParams }).packs ?? [];

/** Does a type name a template parameter of a declared signature (a placeholder)? */
function hasPlaceholder(t: CType): boolean {
  if ((t as { tparam?: number }).tparam !== undefined) return true;
  if (t.k === 'ptr' || t.k === 'ref') return hasPlaceholder(t.to);
  if (t.k === 'array') return hasPlaceholder(t.elem);
  return false;
}
/** A template parameter placeholder (as templates.ts makes them for declared signatures). */
const placeholderType = (i: number): CType => ({ k: 'error', q: 0, tparam: i, tname: 'auto' } as CType);

/** Function templates a name denotes: namespace-scope entries (index decls) and member function templates. */
export type TmplRef = { ents: number[]; explicit: TArg[]; members?: MemberTmpl[] };
/** The member function templates named `name` of a class or (first found) of its bases. */
function memberTmplsOf(rec: RecordDecl, name: string): MemberTmpl[] {
  const own = (rec.mtmpls ?? []).filter(m => m.name === name);
  if (own.length) return own;
  for (const b of rec.bases ?? []) { const r = memberTmplsOf(b.rec, name); if (r.length) return r; }
  return [];
}

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

type Suffix = { k: 'arr'; n: number | null } | { k: 'fn'; params: CType[]; variadic: boolean; names: string[]; defaults: (number | null)[]; pos: Pos[] };
type PtrOp = { k: 'ptr' | 'ref' | 'rref'; q: number };

const BIN_PREC: Record<string, number> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '>': 7, '<=': 7, '>=': 7,
  '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10,
};
/** Keywords followed by a parenthesised operand (not a function's parameter list). */
const OPERAND_KW = new Set(['sizeof', 'alignof', '__alignof__', '__alignof', 'decltype', '__decltype', 'noexcept', 'alignas', '__typeof__', 'typeof']);
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']);
const TYPE_KW = new Set(['void', 'bool', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '__signed__', '__signed',
  'wchar_t', 'char16_t', 'char32_t', '__int128', 'struct', 'class', 'union', 'enum', 'const', 'volatile', '__const', '__volatile__',
  'typename', 'decltype', '__typeof__', 'typeof', '__builtin_va_list', '_Float128', '__float128', '__fp16', '_Float16', 'auto', '__underlying_type']);
/**
 * Nested expressions, unary operators and statements we parse (Parser.nested); deeper units fall back. Far beyond
 * hand-written code, well within the stack (about 400 parentheses exhaust it).
 */
const MAX_NESTING = 512;

const SPEC_KW = new Set(['typedef', 'extern', 'static', 'inline', '__inline__', '__inline', 'constexpr', 'register', 'virtual', 'explicit', 'friend',
  'mutable', 'thread_local', '__thread', '__extension__', '__attribute__', '__noinline__', '__attribute', '__restrict__', '__restrict', 'consteval', 'constinit', 'alignas', '__declspec']);

/** A bound non-type parameter pack: sizeof... and expansions read its values; a plain use is an error. */
export function valPackSym(name: string, ty: CType, vals: bigint[]): Sym { return { kind: 'enumconst', name, ty, value: 0n, packVals: vals } as Sym; }
export const packValsOf = (s: Sym | undefined): bigint[] | undefined => (s as { packVals?: bigint[] } | undefined)?.packVals;
/** A non-type parameter pack of a pattern (`Is` in `seq<Is...>` while deducing): its parameter index. */
export const valPackParamOf = (s: Sym | undefined): number | undefined => (s as { valPackParam?: number } | undefined)?.valPackParam;

export class Parser {
  p: number;
  scopes: Map<string, Sym>[] = [];
  fn: FuncSym | null = null;
  retTy: CType = C.void;
  private breakable = 0;
  private continuable = 0;
  private switches: { cases: { v: bigint | null; id: number }[]; ty: CType }[] = [];
  private caseId = 0;
  private pendingUnroll: number | undefined;
  labels = new Set<string>();
  gotos: { label: string; pos: Pos }[] = [];

  constructor(public u: Unit, start: number, public end: number, public ns: string[]) { this.p = start; }

  // ------------------------------------------------------------------ tokens
  tx(i = 0): string { return this.u.text(this.p + i); }
  kind(i = 0): Tok { const j = this.p + i; return j >= this.end ? Tok.EOF : this.u.toks.kind[j] as Tok; }
  at(s: string, i = 0): boolean { const k = this.kind(i); return (k === Tok.Ident || k === Tok.Punct) && this.tx(i) === s; }
  eat(s: string): boolean { if (this.at(s)) { this.p++; return true; } return false; }
  expect(s: string): void {
    if (!this.eat(s)) this.syntax(`expected a "${s}"`, s === ';' ? 65 : s === ')' ? 18 : s === '(' ? 125 : s === ']' ? 17 : s === '}' ? 67 : s === '{' ? 130 : 65);
  }
  syntax(msg: string, num: number, pos = this.p): never { this.u.error(pos, num, msg); throw new SyntaxAbort(); }
  isIdent(i = 0): boolean { return this.kind(i) === Tok.Ident && !this.u.isKeyword(this.tx(i)); }
  /** The index of the bracket closing the one at token j. */
  private balancedEnd(j: number): number {
    const save = this.p;
    this.p = j;
    this.skipBalanced();
    const end = this.p - 1;
    this.p = save;
    return end;
  }
  skipBalanced(): void {
    // at an opening bracket: skip to just after the matching closer
    const open = this.tx(); const close = open === '(' ? ')' : open === '[' ? ']' : '}';
    let depth = 0;
    do {
      if (this.kind() === Tok.EOF) return;
      const t = this.tx();
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') depth--;
      this.p++;
      void close;
    } while (depth > 0);
  }

  // ------------------------------------------------------------------ scopes and lookup
  push(): void { this.scopes.push(new Map()); }
  pop(): void {
    this.scopes.pop();
    while (this.usingNs.length && this.usingNs[this.usingNs.length - 1]!.depth > this.scopes.length) this.usingNs.pop();
    while (this.usingTmpls.length && this.usingTmpls[this.usingTmpls.length - 1]!.depth > this.scopes.length) this.usingTmpls.pop();
  }
  /** The namespace a qualifier `a::b::` names (from the global namespace when `abs`), or null when it names none. */
  private namespacePath(names: readonly string[], abs: boolean): string[] | null {
    let r: ReturnType<Unit['resolveIn']> = { kind: 'ns', path: [] };
    for (const c of names) {
      r = r.kind === 'ns' && (r.path.length || abs) ? this.u.resolveIn(r.path, c) : r.kind === 'ns' ? this.resolveNamespaceOrType(c) : r;
      if (r.kind !== 'ns') return null;
    }
    return r.path;
  }
  /** Templates named by block-scope using-declarations (`using cub::internal::enable_promotion; using ::cuda::std::is_same;`). */
  private usingTmpls: { depth: number; name: string; path: string[] }[] = [];
  /** Templates of a kind named `name` in the current namespace, or brought into this block by a using-declaration. */
  private visibleTemplates(name: string, kind: 'function' | 'record'): number[] {
    const ents = this.u.templateEntries(name, this.ns, kind);
    for (let i = this.usingTmpls.length - 1; i >= 0 && ents.length === 0; i--) {
      const ut = this.usingTmpls[i]!;
      if (ut.name === name) return this.u.templateEntries(name, ut.path, kind, true);
    }
    return ents;
  }
  /** Block-scope using-directives in effect (namespace paths), with the scope depth that declared them. */
  private usingNs: { depth: number; path: string[] }[] = [];
  declare(s: Sym): void { this.scopes[this.scopes.length - 1]!.set(s.name, s); }
  /** The class whose member function body (or class body) is being parsed, innermost first. */
  cls: RecordDecl | null = null;
  /** Template parameters bound for the tokens being parsed (an instantiation). */
  tscope: Map<string, Sym> | null = null;
  /** Parsing a template instantiation: functions are new entities; instRecord receives the class body. */
  instantiating = false;
  instRecord: RecordDecl | null = null;
  /** Loading an out-of-line member definition of this class template specialisation (`C<T>::f` names it). */
  outOfLineOf: RecordDecl | null = null;
  /** ... and the member it defines when that is a member template specialisation (not listed among the class's members). */
  outOfLineTarget: FuncSym | null = null;
  /** A '>>' of which the first '>' closed a template argument list; the second is still to come. */
  private halfGt = false;
  /** Forget a `>>` half-read by closeAngle (after reading a template default that ends in the header's `>>`). */
  resetHalfGt(): void { this.halfGt = false; }
  /** Parsing a lambda body: scopes below `base` belong to the enclosing function (their variables are captured). */
  lambda: {
    base: number; rec: RecordDecl; byRef: boolean | null; explicit: Map<string, boolean>; caps: { v: VarSym; byRef: boolean }[]; outer: Parser;
    /** The enclosing member function's class (its members are named in the body), whether it has `this`, whether [this] was written, and the closure member holding it. */
    outerCls: RecordDecl | null; outerThis: boolean; thisCap: boolean; thisField: Field | null;
    /** A generic lambda's captures are decided when it is created: none may be added while instantiating. */
    frozen?: boolean;
  } | null = null;
  lookup(name: string): Sym[] {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (!s) continue;
      if (this.lambda && i < this.lambda.base && s.kind === 'var' && (s.storage === 'local' || s.storage === 'param') && !s.constVal) return [this.capture(s)];
      return [s];
    }
    if (this.tscope) { const s = this.tscope.get(name); if (s) return [s]; }
    this.foundMemberTmpls = null;
    for (let i = this.recordStack.length - 1; i >= 0; i--) {
      const r = this.classMember(this.recordStack[i]!, name, true);
      if (r.length) return r;
      // a static data member declared earlier in the class body (`static const int b = a + 1;`)
      const sv = this.recordStack[i]!.statics?.get(name);
      if (sv) return [sv];
      // a static member function template declared earlier (`typedef decltype(__test<F, T>(0)) type;`)
      const mts = memberTmplsOf(this.recordStack[i]!, name);
      if (mts.length) { this.foundMemberTmpls = mts; return []; }
    }
    for (let c: RecordDecl | null | undefined = this.cls; c; c = c.parent) {
      const r = this.classMember(c, name, false);
      // member function templates, with the member functions of that name they overload
      const mts = r.every(m => m.kind === 'func') ? memberTmplsOf(c, name) : [];
      if (mts.length) this.foundMemberTmpls = mts;
      if (r.length || mts.length) return r;
    }
    // in a lambda in a member function: the members of the enclosing class
    for (let c: RecordDecl | null | undefined = this.lambda?.outerCls; c; c = c.parent) {
      const r = this.classMember(c, name, false);
      if (r.length) return r;
      const mts = memberTmplsOf(c, name);
      if (mts.length) { this.foundMemberTmpls = mts; return []; }
    }
    const r = this.u.lookup(name, this.ns);
    if (r.length || !this.usingNs.length) return r;
    for (let i = this.usingNs.length - 1; i >= 0; i--) { const x = this.u.lookupIn(this.usingNs[i]!.path, name); if (x.length) return x; }
    return r;
  }
  /** `__is_trivially_copyable(T)` and the other type-trait intrinsics: a bool constant. */
  private parseTypeTrait(name: string, pos: Pos): Expr {
    this.p++;
    this.expect('(');
    const tys: CType[] = [];
    do {
      const start = this.p;
      const ty = this.parseTypeName();
      if (this.at('...')) {
        // `__is_constructible(T, Args...)` in an instantiation: one argument per element of the bound pack
        if (!hasPack(ty)) throw new Unsupported(`type trait ${name} over a pack`);
        tys.push(...this.expandPack(start, this.p, () => this.parseTypeName()));
        continue;
      }
      tys.push(ty);
    } while (this.eat(','));
    this.expect(')');
    const arity = TYPE_TRAITS.get(name)!;
    if (arity >= 0 ? tys.length !== arity : tys.length === 0) throw new Unsupported(`type trait ${name} with ${tys.length} arguments`);
    const open = (t: CType): boolean => t.k === 'error' || ((t.k === 'ptr' || t.k === 'ref') && open(t.to)) || (t.k === 'array' && open(t.elem))
      || (t.k === 'record' && !t.rec.complete);
    if (tys.some(open)) throw new Unsupported(`type trait ${name} of a dependent or incomplete type`);
    const v = TRIAL_TRAITS.has(name) ? this.traitByTrial(name, tys, pos) : evalTypeTrait(name, tys);
    if (v === null) throw new Unsupported(`type trait ${name}`);
    return mk(C.bool, pos, false, { k: 'int', v: v ? 1n : 0n });
  }
  /**
   * The traits that ask whether an expression is well-formed, answered by trying it on stand-ins of the operand
   * types (what `declval<T>()` denotes) and discarding what the attempt diagnosed.
   */
  private traitByTrial(name: string, tys: CType[], pos: Pos): boolean | null {
    const [t, ...rest] = tys as [CType, ...CType[]];
    const cls = (x: CType): RecordDecl | null => { const u = unqual(x); return u.k === 'record' ? u.rec : null; };
    switch (name) {
      case '__is_constructible': return this.constructible(t, rest, pos);
      case '__is_trivially_constructible': {
        if (!this.constructible(t, rest, pos)) return false;
        if (t.k === 'ref' || !cls(t)) return true;
        // the default constructor, or a copy/move from the class itself (anything else is a user constructor)
        if (rest.length === 0) return trivialDefault(unqual(t));
        const a = rest[0]!.k === 'ref' ? rest[0]!.to : rest[0]!;
        return rest.length === 1 && cls(a) === cls(t) && triviallyCopyable(unqual(t));
      }
      case '__is_nothrow_constructible': {
        if (!this.constructible(t, rest, pos)) return false;
        if (t.k === 'ref' || !cls(t) || rest.length === 0 && trivialDefault(unqual(t))) return true;
        const a = rest.length === 1 ? (rest[0]!.k === 'ref' ? rest[0]!.to : rest[0]!) : null;
        if (a && cls(a) === cls(t) && triviallyCopyable(unqual(t))) return true;
        return null;   // whether the constructor chosen is noexcept is not recorded
      }
      case '__is_assignable': return this.assignable(t, rest[0]!, pos);
      case '__is_trivially_assignable': case '__is_nothrow_assignable': {
        if (!this.assignable(t, rest[0]!, pos)) return false;
        const target = t.k === 'ref' ? t.to : t;
        if (!cls(target)) return true;
        const a = rest[0]!.k === 'ref' ? rest[0]!.to : rest[0]!;
        if (cls(a) === cls(target) && triviallyCopyable(unqual(target))) return true;
        return name === '__is_trivially_assignable' ? false : null;
      }
      case '__is_convertible': case '__is_convertible_to': return this.convertible(t, rest[0]!, pos);
      case '__is_nothrow_convertible': {
        if (!this.convertible(t, rest[0]!, pos)) return false;
        return cls(t) || cls(rest[0]!) ? null : true;
      }
      default: return null;
    }
  }
  /** An expression of type t as `declval<t>()` gives it: an lvalue for T&, an xvalue for T&&, else a prvalue. */
  private standIn(t: CType, pos: Pos): Expr {
    if (t.k !== 'ref') return mk(t, pos, false, { k: 'call', f: null, callee: null, args: [] });
    const e = mk(t.to, pos, true, { k: 'call', f: null, callee: null, args: [] });
    return t.rv ? markXvalue(e) : e;
  }
  /** Whether f() diagnoses no error (its diagnostics are discarded either way). */
  private wellFormed(f: () => Expr | Init): boolean {
    const dl = this.u.diags.length, ec = this.u.errorCount;
    try {
      const r = f();
      const e = 'lv' in r ? r : r.k === 'expr' ? r.e : null;
      return this.u.errorCount === ec && (!e || e.ty.k !== 'error');
    } catch (err) {
      if (err instanceof SyntaxAbort) return false;
      throw err;
    } finally { this.u.diags.length = dl; this.u.errorCount = ec; }
  }
  /** `T t(declval<Args>()...);` is well-formed. */
  private constructible(t: CType, args: CType[], pos: Pos): boolean {
    if (t.k === 'void' || t.k === 'func' || args.some(a => a.k === 'void' || a.k === 'func')) return false;
    if (t.k === 'array') return args.length === 0 && t.n !== null && this.constructible(t.elem, [], pos);
    if (t.k === 'ref') return args.length === 1 && this.wellFormed(() => this.initFromExpr(this.standIn(args[0]!, pos), t, pos));
    const u = unqual(t);
    if (u.k === 'record') {
      if (isAbstractClass(u.rec)) return false;
      const xs = args.map(a => this.standIn(a, pos));
      // (a constructor template may be the default constructor: `template <class D = T> pair()`)
      const viaDefault = xs.length === 0 && ctorTmplsOf(u.rec).length === 0;
      return this.wellFormed(() => (viaDefault ? this.defaultInit(u, pos) ?? { k: 'zero', ty: u } : this.initFromArgs(u, xs, false, pos)));
    }
    if (args.length === 0) return true;
    return args.length === 1 && this.wellFormed(() => this.initFromExpr(this.standIn(args[0]!, pos), u, pos));
  }
  /** `declval<T>() = declval<U>()` is well-formed. */
  private assignable(t: CType, u: CType, pos: Pos): boolean {
    if (t.k === 'void' || u.k === 'void' || t.k === 'func' || u.k === 'func') return false;
    // the implicit copy/move assignment of a class with a const or reference member is deleted (assign() does not check)
    const target = unqual(t.k === 'ref' ? t.to : t), from = unqual(u.k === 'ref' ? u.to : u);
    if (target.k === 'record' && from.k === 'record' && from.rec === target.rec && implicitAssignDeleted(target.rec)) return false;
    return this.wellFormed(() => this.assign('=', this.standIn(t, pos), this.standIn(u, pos), pos));
  }
  /** `To test() { return declval<From>(); }` is well-formed. */
  private convertible(from: CType, to: CType, pos: Pos): boolean {
    if (to.k === 'void' || from.k === 'void') return to.k === 'void' && from.k === 'void';
    if (to.k === 'array' || to.k === 'func') return false;
    return this.wellFormed(() => this.initFromExpr(this.standIn(from, pos), to.k === 'ref' ? to : unqual(to), pos));
  }
  /** The type of a new-expression (`new T*`): decl-specifiers and pointer declarators, no parentheses. */
  private newTypeId(): CType {
    if (this.at('(')) throw new Unsupported('operator new with a parenthesised type');
    const ds = this.parseDeclSpecs();
    if (!ds.ty) this.syntax('expected a type specifier', 79);
    let ty = ds.ty!;
    while (this.at('*')) { this.p++; ty = ptrTo(ty); }
    return ty;
  }
  /** The initializer of a new-expression's object: `(args)`, `{args}`, or default-initialisation. */
  private newInitializer(ty: CType, pos: Pos): Init | null {
    if (!this.at('(') && !this.at('{')) return this.defaultInit(ty, pos);
    const braced = this.at('{');
    this.p++;
    const args = this.parseArgs(braced ? '}' : ')');
    this.expect(braced ? '}' : ')');
    return ty.k === 'record' ? this.initFromArgs(ty, args, braced, pos) : args.length ? this.initFromExpr(args[0]!, ty, pos) : { k: 'zero', ty };
  }
  /** Members of a class (and its bases) named `name`: types, static data members, fields, member functions. */
  classMember(rec: RecordDecl, name: string, typesOnly: boolean): Sym[] {
    if (name === rec.name && !rec.targs) return [{ kind: 'type', name, ty: { k: 'record', rec, q: 0 } }];
    if (name === rec.name && rec.targs) return [{ kind: 'type', name, ty: { k: 'record', rec, q: 0 } }];
    const t = rec.types?.get(name);
    if (t) return [{ kind: 'type', name, ty: t }];
    const badType = (rec as RecordDecl & { badTypes?: Map<string, string> }).badTypes?.get(name);
    if (badType) throw new Unsupported(`${badType} (member type ${name} of ${rec.name})`);
    const en = rec.enumerators?.get(name);
    if (en) return [{ kind: 'enumconst', name, ty: en.ty, value: en.value }];
    if (!typesOnly) {
      const sv = rec.statics?.get(name);
      if (sv) return [sv];
      const f = rec.fields.find(x => x.name === name && !x.isBase) ?? anonPath(rec, name)?.at(-1);
      if (f) return [{ kind: 'field', name, ty: f.ty, rec }];
      const ms = (rec.methods ?? []).filter(m => m.name === name);
      if (ms.length) return ms;
      const bad = (rec as RecordDecl & { badMembers?: Map<string, string> }).badMembers?.get(name);
      if (bad) throw new Unsupported(`${bad} (member ${name} of ${rec.name})`);
      if (rec.mtmpls?.some(m => m.name === name)) {
        if (ms.length) throw new Unsupported(`member template ${rec.name}::${name} overloaded with member functions`);
        return [];
      }
      if (rec.memberTemplates?.has(name)) throw new Unsupported(`member template ${rec.name}::${name}`);
    }
    for (const b of rec.bases ?? []) { const r = this.classMember(b.rec, name, typesOnly); if (r.length) return r; }
    return [];
  }
  /** Member function templates named by the last unqualified lookup that stopped at a class member (or null). */
  foundMemberTmpls: MemberTmpl[] | null = null;
  /** Parse an optionally qualified name; returns the syms it denotes (may be empty) and the last name. */
  qualifiedLookup(): { name: string; syms: Sym[]; pos: Pos; tmpl?: TmplRef; value?: Expr } {
    const pos = this.p;
    let path: string[] | null = null;
    if (this.at('::')) { this.p++; path = []; }
    for (;;) {
      const name = this.tx();
      if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
      this.p++;
      if (this.at('::') && this.kind(1) === Tok.Ident) {
        // namespace or enum/class qualifier
        const base = path === null ? this.resolveNamespaceOrType(name) : this.u.resolveIn(path, name);
        this.p++;
        if (base.kind === 'ns') { path = base.path; continue; }
        if (base.kind === 'enum') {
          const n2 = this.tx(); this.p++;
          const v = base.en.consts.get(n2);
          if (v === undefined) { this.u.error(this.p - 1, 135, `enum "${base.en.name}" has no member "${n2}"`); return { name: n2, syms: [], pos }; }
          return { name: n2, syms: [{ kind: 'enumconst', name: n2, ty: { k: 'enum', en: base.en, q: 0 }, value: v }], pos };
        }
        if (base.kind === 'record') return this.recordMemberLookup(base.rec, pos);
        this.u.error(this.p - 2, 276, `name followed by "::" must be a class or namespace name`);
        this.p++;
        return { name, syms: [], pos };
      }
      const mct = path === null && this.at('<') ? this.memberClassTmpl(name) : undefined;
      if (mct && !mct.alias) {
        // `IsMultiple<int>::IS_MULTIPLE` of a member class template of the class being defined (or of the member function's class)
        this.p--;
        const t = this.memberClassType(mct);
        if (t.k === 'record' && this.at('::') && this.kind(1) === Tok.Ident) { this.p++; return this.recordMemberLookup(t.rec, pos); }
        throw new Unsupported(`member class template ${name} in an expression`);
      }
      if (this.at('<') && (path === null ? this.visibleTemplates(name, 'record') : this.u.templateEntries(name, path, 'record', true)).length) {
        this.p--;
        const t = this.templateIdType(name, path ?? this.ns, path !== null);
        if (t && t.k === 'record' && this.at('::')) { this.p++; return this.recordMemberLookup(t.rec, pos); }
        this.syntax('expected an expression', 29);
      }
      if (this.at('<') && !(path === null && this.lookup(name).some(x => x.kind === 'var'))) {
        // a variable template (`is_same_v<T, U>`, not hidden by a local of that name): its value for these arguments
        const vents = this.u.templateEntries(name, path ?? this.ns, 'variable', path !== null);
        if (vents.length) { const args = this.parseTemplateArgs(); return { name, syms: [], pos, value: this.u.templates.instantiateVariable(vents[0]!, args, this, pos) }; }
      }
      this.foundMemberTmpls = null;
      const syms = path === null ? this.lookup(name) : this.u.lookupIn(path, name);
      if (path === null && this.foundMemberTmpls && syms.every(x => x.kind === 'func')) {
        const members = this.foundMemberTmpls;
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        return { name, syms, pos, tmpl: { ents: [], explicit, members } };
      }
      if (syms.length && syms[0]!.kind !== 'func' && !(syms[0]!.kind === 'type')) return { name, syms, pos };
      const ents = path === null ? this.visibleTemplates(name, 'function') : this.u.templateEntries(name, path, 'function', true);
      if (ents.length) {
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        return { name, syms: syms.filter(x => x.kind === 'func'), pos, tmpl: { ents, explicit } };
      }
      if (this.at('<') && this.u.isTemplateName(name, path ?? this.ns) && !(syms.length && syms[0]!.kind === 'type')) throw new Unsupported(`template ${name}<...>`);
      return { name, syms, pos };
    }
  }
  /** `C::name` (after the '::'): a member of class C, or a nested class/enum member. */
  private recordMemberLookup(rec0: RecordDecl, pos: Pos): { name: string; syms: Sym[]; pos: Pos; tmpl?: TmplRef } {
    let rec = rec0;
    for (;;) {
      this.eat('template');   // `C::template f<N>` disambiguator
      const n2 = this.tx(); this.p++;
      if (n2 === '~') throw new Unsupported('explicit destructor call');
      const ms = this.classMember(rec, n2, false);
      const mts = ms.length === 0 && !this.at('::') ? memberTmplsOf(rec, n2) : [];
      if (mts.length) {
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        return { name: n2, syms: [], pos, tmpl: { ents: [], explicit, members: mts } };
      }
      if (this.at('::') && ms.length === 1 && ms[0]!.kind === 'type' && ms[0]!.ty.k === 'record') { rec = ms[0]!.ty.rec; this.p++; continue; }
      if (this.at('::') && ms.length === 1 && ms[0]!.kind === 'type' && ms[0]!.ty.k === 'enum') {
        const en = ms[0]!.ty.en; this.p++;
        const n3 = this.tx(); this.p++;
        const v = en.consts.get(n3);
        if (v === undefined) { this.u.error(this.p - 1, 135, `enum "${en.name}" has no member "${n3}"`); return { name: n3, syms: [], pos }; }
        return { name: n3, syms: [{ kind: 'enumconst', name: n3, ty: ms[0]!.ty, value: v }], pos };
      }
      return { name: n2, syms: ms, pos };
    }
  }
  private resolveNamespaceOrType(name: string): ReturnType<Unit['resolveIn']> {
    const ts = this.tscope?.get(name);
    if (ts && ts.kind === 'type' && ts.ty.k === 'record') return { kind: 'record', rec: ts.ty.rec };
    for (const r of [...this.recordStack].reverse().concat(this.cls ? [this.cls] : [])) {
      const m = this.classMember(r, name, true);
      if (m.length && m[0]!.kind === 'type' && m[0]!.ty.k === 'record') return { kind: 'record', rec: m[0]!.ty.rec };
      if (m.length && m[0]!.kind === 'type' && m[0]!.ty.k === 'enum') return { kind: 'enum', en: m[0]!.ty.en };
    }
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (s && s.kind === 'type' && s.ty.k === 'enum') return { kind: 'enum', en: s.ty.en };
      if (s && s.kind === 'type' && s.ty.k === 'record') return { kind: 'record', rec: s.ty.rec };
    }
    for (let d = this.ns.length; d >= 0; d--) {
      // a nested namespace of that name opened only after this point is not visible yet (outside templates,
      // whose names bind where they are defined: their tokens are read later than that)
      const r = this.u.resolveIn(this.ns.slice(0, d), name, this.tscope ? -1 : this.p);
      if (r.kind !== 'none') return r;
    }
    return { kind: 'none' };
  }

  /** A class template's name (or the injected name of the specialisation being parsed), before `<args>`. */
  private isClassTemplateName(t: string): boolean {
    if (this.memberClassTmpl(t)) return true;
    const s = this.lookup(t);
    if (s.length) return s[0]!.kind === 'type' && s[0]!.ty.k === 'record' && !!s[0]!.ty.rec.targs;
    return this.visibleTemplates(t, 'record').length > 0;
  }
  /** Is the token at offset i the start of a type (decl-specifier)? */
  startsType(i = 0): boolean {
    const k = this.kind(i);
    if (k !== Tok.Ident && !(k === Tok.Punct && this.tx(i) === '::')) return false;
    const t = this.tx(i);
    if (TYPE_KW.has(t) || SPEC_KW.has(t)) return t !== 'auto' || this.isIdent(i + 1) || this.at('&', i + 1) || this.at('&&', i + 1) || this.at('*', i + 1);
    if (t === '::' || this.at('::', i + 1) || (this.at('<', i + 1) && this.kind(i) === Tok.Ident && this.isClassTemplateName(t))) {
      // qualified name: try to read it as a type
      const save = this.p, dl = this.u.diags.length, ec = this.u.errorCount;
      this.p += i;
      try { return this.qualifiedType() !== null; }
      catch (e) {
        if (!(e instanceof SyntaxAbort)) throw e;
        // user code naming a header's template whose instantiation we could not read: our limit, not the
        // user's error (reading on as an expression would report a false one)
        const at = save + i;
        const inHeader = this.u.isUserFile(at) ? this.u.diags.slice(dl).find(d => d.severity === 'error' && d.file !== this.u.fileOf(at)) : undefined;
        if (inHeader) throw new Unsupported(`${inHeader.file}:${inHeader.line}: ${inHeader.message}`);
        return false;
      }
      finally { this.p = save; this.u.diags.length = dl; this.u.errorCount = ec; this.halfGt = false; }
    }
    if (this.u.isKeyword(t)) return false;
    const s = this.lookup(t);
    if (s.length === 0 && this.at('<', i + 1)) return this.visibleTemplates(t, 'record').length > 0;
    return s.length > 0 && s[0]!.kind === 'type';
  }

  // ------------------------------------------------------------------ attributes
  parseAttributes(a: Attrs): boolean {
    let any = false;
    for (;;) {
      if (this.at('__attribute__') || this.at('__attribute')) {
        any = true; this.p++;
        this.expect('('); this.expect('(');
        while (!this.at(')')) {
          if (this.at(',')) { this.p++; continue; }
          const name = this.tx().replace(/^__(.*)__$/, '$1'); this.p++;
          let args: Expr[] = [];
          if (this.at('(')) {
            if (name === 'launch_bounds' || name === 'aligned') {
              this.p++; args = [];
              while (!this.at(')')) { args.push(this.parseAssign()); if (!this.eat(',')) break; }
              this.expect(')');
            } else this.skipBalanced();
          }
          switch (name) {
            case 'device': a.device = true; break;
            case 'global': a.global = true; break;
            case 'host': a.host = true; break;
            case 'device_builtin': a.deviceBuiltin = true; break;
            case 'cudart_builtin': a.cudartBuiltin = true; break;
            case 'shared': a.shared = true; break;
            case 'constant': a.constant = true; break;
            case 'managed': a.managed = true; break;
            case 'always_inline': a.alwaysInline = true; break;
            case 'noinline': a.noinline = true; break;
            case 'aligned': a.aligned = args.length ? Number(this.constInt(args[0]!)) : 16; break;
            case 'launch_bounds': a.launchBounds = [Number(this.constInt(args[0]!)), args[1] ? Number(this.constInt(args[1])) : undefined]; break;
            case 'packed': throw new Unsupported('__attribute__((packed))');
            default: break;
          }
        }
        this.expect(')'); this.expect(')');
        continue;
      }
      if (this.at('__noinline__')) { any = true; a.noinline = true; this.p++; continue; }
      if (this.at('__declspec') || this.at('alignas')) {
        any = true; const isAl = this.at('alignas'); this.p++;
        if (isAl) { this.expect('('); if (this.startsType()) a.aligned = alignOfC(this.parseTypeName()); else a.aligned = Number(this.constInt(this.parseAssign())); this.expect(')'); }
        else this.skipBalanced();
        continue;
      }
      if (this.at('[') && this.at('[', 1)) { any = true; this.p++; this.skipBalanced(); this.expect(']'); continue; }
      return any;
    }
  }
  constInt(e: Expr): bigint {
    const v = evalInt(e);
    if (v === null) {
      // a call our evaluator could not finish may well be a constant (a constexpr function of a header): never an
      // error of ours, and never a 0 that a speculative parse keeps after dropping the error
      if (unevaluated(e)) throw new Unsupported('a constant expression calling a function we cannot evaluate');
      if (e.ty.k !== 'error') this.u.error(e.pos, 28, 'expression must have a constant value');
      return 0n;
    }
    return v;
  }

  // ------------------------------------------------------------------ declaration specifiers
  parseDeclSpecs(): DeclSpec {
    const ds: DeclSpec = { ty: null, typedef: false, extern: false, externC: false, static: false, inline: false, constexpr: false, auto: false, attrs: {}, tagOnly: false };
    let q = 0, signed: boolean | null = null, longs = 0, short = false, base: string | null = null;
    let named: CType | null = null;
    for (;;) {
      if (this.parseAttributes(ds.attrs)) continue;
      const k = this.kind();
      if (k !== Tok.Ident && !(k === Tok.Punct && this.tx() === '::')) break;
      const t = this.tx();
      switch (t) {
        case 'typedef': ds.typedef = true; this.p++; continue;
        case 'extern':
          ds.extern = true; this.p++;
          if (this.kind() === Tok.String) { ds.externC = this.tx() === '"C"'; ds.extern = !this.at('{', 1); this.p++; }
          continue;
        case 'static': ds.static = true; this.p++; continue;
        case 'inline': case '__inline__': case '__inline': ds.inline = true; this.p++; continue;
        case 'constexpr': case 'consteval': case 'constinit': ds.constexpr = true; this.p++; continue;
        case 'virtual': (ds as DeclSpec & { virt?: boolean }).virt = true; this.p++; continue;
        case 'explicit': (ds as DeclSpec & { explicit?: boolean }).explicit = true; this.p++; continue;
        case 'register': case 'friend': case 'mutable': case '__extension__': this.p++; continue;
        case 'thread_local': case '__thread': throw new Unsupported('thread_local');
        case 'const': case '__const': q |= Q.Const; this.p++; continue;
        case 'volatile': case '__volatile__': q |= Q.Volatile; this.p++; continue;
        case '__restrict__': case '__restrict': case 'restrict': q |= Q.Restrict; this.p++; continue;
        case 'signed': case '__signed__': case '__signed': signed = true; this.p++; continue;
        case 'unsigned': signed = false; this.p++; continue;
        case 'short': short = true; this.p++; continue;
        case 'long': longs++; this.p++; continue;
        case 'int': case 'char': case 'bool': case 'float': case 'double': case 'void': case 'wchar_t': case 'char16_t': case 'char32_t': case '__int128':
          if (base || named) break;
          base = t; this.p++; continue;
        case '_Bool': base = 'bool'; this.p++; continue;
        case 'auto': if (base || named) break; ds.auto = true; this.p++; continue;
        case '__builtin_va_list': throw new Unsupported('__builtin_va_list');
        case '_Float128': case '__float128': {
          // CCCL declares numeric_limits and traits for it on sm_100+: a type to name, not one we compute with
          if (base || named) break;
          named = { k: 'record', rec: this.u.float128Record(), q: 0 }; this.p++; continue;
        }
        case '__fp16': case '_Float16': throw new Unsupported(`type ${t}`);
        case '__underlying_type': {
          // the compiler's trait behind std::underlying_type: an enumeration's integer type
          if (base || named) break;
          this.p++; this.expect('(');
          const et = this.parseTypeName();
          this.expect(')');
          if (et.k === 'enum') named = et.en.underlying;
          else if (dependent(et)) named = et;   // still a pattern
          else this.syntax('expected an enumeration type', 79);
          continue;
        }
        case 'decltype': case '__typeof__': case 'typeof': case '__decltype': {
          if (base || named) break;
          this.p++;
          const open = this.p;
          this.expect('(');
          if (this.at('auto') && this.at(')', 1) && t === 'decltype') {
            // decltype(auto): a return type deduced keeping references (variables stay unsupported)
            this.p += 2; ds.auto = true; (ds as DeclSpec & { dcauto?: boolean }).dcauto = true;
            continue;
          }
          let e: Expr;
          if (this.packPatterns || this.patternTyping) {
            // in a partial specialisation's pattern (`void_t<decltype(declval<T>() + declval<U>())>`) the operands
            // have the parameters' types: an expression we cannot type there is a dependent type, checked again
            // with the deduced arguments (templates.ts partialSpecFor)
            const dl = this.u.diags.length, ec = this.u.errorCount;
            try { e = this.parseExpr(); if (this.u.errorCount > ec || e.ty.k === 'error') throw new SyntaxAbort(); }
            catch (x) {
              if (!(x instanceof SyntaxAbort) && !(x instanceof Unsupported)) throw x;
              this.u.diags.length = dl; this.u.errorCount = ec;
              this.p = open; this.skipBalanced();
              this.u.dependentDecltypes++;
              named = { k: 'error', q: 0, dep: { base: C.void, names: ['decltype'] } } as CType;
              continue;
            }
          } else e = this.parseExpr();
          this.expect(')');
          // decltype(id) is the declared type; of any other lvalue, a reference to its type; of an xvalue, an rvalue reference
          const paren = (e as { paren?: boolean }).paren === true;
          if (t !== 'decltype' && t !== '__decltype') named = e.ty;
          else if (e.k === 'var' && !paren) named = e.sym.ty;
          else if (e.k === 'member' && !paren) named = e.field.ty;
          else named = e.lv ? refTo(e.ty, isXvalue(e)) : e.ty;
          if (named.k === 'error') this.syntax('expected a type specifier', 79);
          continue;
        }
        case 'typename': {
          if (base || named) break;
          this.p++;
          const q = this.qualifiedType(true);
          if (q) { named = q; continue; }
          // in a template's declared signature: `typename T::name` stays dependent (for mangling; never deduced)
          const ts = this.tscope?.get(this.tx());
          if (ts && ts.kind === 'type' && (ts.ty as { tparam?: number }).tparam !== undefined && this.at('::', 1)) {
            this.p++;
            const names: string[] = [];
            while (this.eat('::')) { if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40); names.push(this.tx()); this.p++; }
            named = { k: 'error', q: 0, dep: { base: ts.ty, names } } as CType;
            continue;
          }
          // a template parameter substituted by a type that is no class (`typename T::tag` with T = int): a
          // substitution failure (SFINAE drops the candidate), not a construct we cannot read
          if (ts && ts.kind === 'type' && this.at('::', 1) && (ts.ty as CType).k !== 'record') {
            this.syntax('name followed by "::" must be a class or namespace name', 276);
          }
          // `typename enable_if<false, T>::type`: a complete class without that member, also a substitution failure
          const missing = this.missingMemberType();
          if (missing) this.syntax(missing, 135);
          throw new Unsupported('dependent type name');
        }
        case 'struct': case 'class': case 'union': {
          if (base || named) break;
          named = this.parseRecordSpec(ds); continue;
        }
        case 'enum': {
          if (base || named) break;
          named = this.parseEnumSpec(ds); continue;
        }
        default: {
          if (base || named || signed !== null || short || longs || ds.auto) break;
          if (this.u.isKeyword(t)) break;
          // a type name?
          const save = this.p;
          if (t === '::' || this.at('::', 1)) {
            const q = this.qualifiedType();
            if (q) { named = q; continue; }
            this.p = save; break;
          }
          if (this.at('<', 1) && this.at('::', 1 + this.angleLength(1)) && this.isClassTemplateName(t)) {
            // `C<args>::member` naming a type
            const q = this.qualifiedType();
            if (q) { named = q; continue; }
            this.p = save;
          }
          const mct = this.at('<', 1) ? this.memberClassTmpl(t) : undefined;
          if (mct) { named = this.memberClassType(mct); continue; }
          const syms = this.lookup(t);
          if (syms.length && syms[0]!.kind === 'type') {
            const sugar = (syms[0] as Sym & { sugar?: string }).sugar;
            named = sugar ? withSugar(syms[0]!.ty, sugar) : syms[0]!.ty; this.p++;
            if (this.at('<')) {
              // a template template parameter given its arguments (`Store<T>`): that class template's specialisation
              const tdi = (named as { tmplDecl?: number }).tmplDecl;
              if (tdi !== undefined) { named = { k: 'record', rec: this.u.templates.instantiateClass(tdi, this.parseTemplateArgs(), this), q: 0 }; continue; }
              // the injected class name of a class template used with arguments, or a template found by name
              if (named.k === 'record' && named.rec.targs) { this.p--; const r = this.templateIdType(t, named.rec.scope, false); if (r) { named = r; continue; } this.p++; }
              throw new Unsupported(`template ${t}<...>`);
            }
            continue;
          }
          if (syms.length === 0 && this.at('<', 1)) {
            const r = this.templateIdType(t, this.ns, false);
            if (r) { named = r; continue; }
          }
          if (syms.length === 0 && this.at('<', 1) && this.u.isTemplateName(t, this.ns)) throw new Unsupported(`template ${t}`);
          break;
        }
      }
      break;
    }
    let ty: CType | null = named;
    if (!ty) {
      if (base === 'void') ty = C.void;
      else if (base === 'bool') ty = C.bool;
      else if (base === 'float') ty = C.float;
      else if (base === 'double') ty = longs ? { k: 'ldouble', q: 0 } : C.double;
      else if (base === 'char') ty = signed === null ? C.char : signed ? C.schar : C.uchar;
      else if (base === 'wchar_t' || base === 'char16_t' || base === 'char32_t') ty = intT(base);
      else if (base === '__int128') ty = intT(signed === false ? 'unsigned __int128' : '__int128');
      else if (base === 'int' || signed !== null || short || longs) {
        const nm: IntName = short ? 'short' : longs >= 2 ? 'long long' : longs === 1 ? 'long' : 'int';
        ty = intT(signed === false ? ('unsigned ' + (nm === 'int' ? 'int' : nm)) as IntName : nm);
      }
    }
    // long double is fine in declarations device code never uses; its IR type is refused (irType)
    if (ty) ty = withQ(ty, q);
    else if (ds.auto) ty = null;
    ds.ty = ty;
    (ds as DeclSpec & { q: number }).q = q;
    return ds;
  }

  private parseRecordSpec(ds: DeclSpec): CType {
    const tag = this.tx() as 'struct' | 'class' | 'union'; this.p++;
    const attrs: Attrs = {};
    this.parseAttributes(attrs);
    let name = '';
    let namePos = this.p;
    if (this.kind() === Tok.Ident && !this.at('{')) {
      if (this.at('::', 1)) throw new Unsupported('qualified class name');
      name = this.tx(); namePos = this.p; this.p++;
    }
    const inst = this.instRecord && name === this.instRecord.name ? this.instRecord : null;
    if (inst) { this.instRecord = null; if (this.at('<')) this.p += this.angleLength(0); }
    if (this.at('<')) throw new Unsupported('template specialisation');
    this.parseAttributes(attrs);
    const isFinal = this.at('final') && (this.at('{', 1) || this.at(':', 1));
    if (isFinal) this.p++;
    const hasBody = this.at('{') || this.at(':');
    let rec: RecordDecl;
    if (inst) {
      rec = inst; rec.tag = tag;
      if (this.recordStack.length) rec.parent = this.recordStack[this.recordStack.length - 1];
      if (isFinal) markFinalClass(rec);
      this.parseRecordBody(rec, attrs.aligned ?? 1);
      ds.tagOnly = true;
    } else if (hasBody) {
      rec = name ? this.declareRecordHere(tag, name, true) : this.u.newRecord(tag, '', this.ns, this.outerRecords());
      if (this.recordStack.length) rec.parent = this.recordStack[this.recordStack.length - 1];
      if (isFinal) markFinalClass(rec);
      this.parseRecordBody(rec, attrs.aligned ?? 1);
      ds.tagOnly = true;
    } else {
      if (!name) this.syntax('expected an identifier', 40);
      // reference (or forward declaration when followed by ';')
      const fwd = this.at(';');
      const found = this.lookup(name).find(s => s.kind === 'type' && s.ty.k === 'record');
      if (found && found.kind === 'type' && !fwd) rec = (found.ty as CType & { k: 'record' }).rec;
      else rec = this.declareRecordHere(tag, name, false);
      if (fwd) ds.tagOnly = true;
    }
    void namePos;
    return { k: 'record', rec, q: 0 };
  }
  private outerRecords(): string[] { return this.recordStack.map(r => r.name); }
  recordStack: RecordDecl[] = [];
  private declareRecordHere(tag: RecordDecl['tag'], name: string, defining: boolean): RecordDecl {
    if (this.scopes.length > 0) {
      // block scope record
      const cur = this.scopes[this.scopes.length - 1]!.get(name);
      if (cur && cur.kind === 'type' && cur.ty.k === 'record') return cur.ty.rec;
      const rec = this.u.newRecord(tag, name, this.ns, []);
      this.declare({ kind: 'type', name, ty: { k: 'record', rec, q: 0 } });
      return rec;
    }
    if (this.recordStack.some(r => r.targs)) {
      // a member class of a class template specialisation belongs to that specialisation
      const outer = this.recordStack[this.recordStack.length - 1]!;
      const cur = outer.types?.get(name);
      if (cur && cur.k === 'record') return cur.rec;
      const rec = this.u.newRecord(tag, name, this.ns, this.outerRecords());
      (outer.types ??= new Map()).set(name, { k: 'record', rec, q: 0 });
      return rec;
    }
    return this.u.recordFor(tag, name, this.ns, this.outerRecords(), defining);
  }

  parseRecordBody(rec: RecordDecl, minAlign: number): void {
    if (this.at(':')) { this.parseBaseClause(rec); }
    this.expect('{');
    if (rec.complete) { this.p--; this.skipBalanced(); return; }
    rec.fields = (rec.bases ?? []).filter(b => b.rec.fields.length > 0).map(b => b.field);   // empty bases take no space
    rec.methods = [];
    rec.types ??= new Map();
    rec.statics ??= new Map();
    this.recordStack.push(rec);
    while (!this.at('}') && this.kind() !== Tok.EOF) {
      if (this.at('public') || this.at('private') || this.at('protected')) { this.p++; this.expect(':'); continue; }
      if (this.eat(';')) continue;
      if (this.kind() === Tok.Pragma) { this.p++; continue; }   // `#pragma nv_exec_check_disable` before a member
      if (this.at('static_assert')) { this.skipToSemi(); continue; }
      if (this.friendAhead()) {
        // friends are not members; a friend function defined here (a hidden friend, found only by
        // argument-dependent lookup) is remembered by name so that a call of it falls back naming that
        const start = this.p;
        this.skipMember();
        for (let j = start; j < this.p; j++) {
          const x = this.u.text(j);
          if (x === '__attribute__' || x === '__declspec') { let d = 0; j++; do { const y = this.u.text(j); if (y === '(') d++; else if (y === ')') d--; j++; } while (d > 0 && j < this.p); j--; continue; }
          if (x === '{' || x === ';' || x === '=') break;
          // `friend Box operator+(const Box &, const Box &) {...}`: found through its operands' class
          if (x === 'operator' && this.u.text(j + 1) !== '(' ) {
            let k = j + 1, op = '';
            while (k < this.p && this.u.text(k) !== '(') op += this.u.text(k++);
            if (this.u.toks.kind[j + 1] === Tok.Punct && this.u.text(this.p - 1) === '}') this.declareHiddenFriend('operator' + op, start, this.p, rec);
            break;
          }
          if (x === '(' && this.u.toks.kind[j - 1] === Tok.Ident && !this.u.isKeyword(this.u.text(j - 1))) {
            const fname = this.u.text(j - 1);
            ((this.u as Unit & { hiddenFriends?: Set<string> }).hiddenFriends ??= new Set()).add(fname);
            if (this.u.text(this.p - 1) === '}') this.declareHiddenFriend(fname, start, this.p, rec);
            break;
          }
        }
        continue;
      }
      if (this.at('template')) {
        // member template: remembered by name; using it is unsupported for now
        const save = this.p;
        this.skipMember();
        let name = '';
        // a member class template `template <...> struct N {...}`: instantiated when named with arguments
        // (N<args>, Outer<...>::N<args>); a forward declaration or a specialisation stays unusable (falls back)
        let j0 = save + 1;
        if (this.u.text(j0) === '<') { let d = 0; do { const x = this.u.text(j0); if (x === '<') d++; else if (x === '>') d--; else if (x === '>>') d -= 2; j0++; } while (d > 0 && j0 < this.p); }
        const tagKw = this.u.text(j0);
        if (tagKw === 'using' && this.u.toks.kind[j0 + 1] === Tok.Ident && this.u.text(j0 + 2) === '=') {
          // a member alias template `template <class A, class B> using N = ...;`: instantiated when named
          name = this.u.text(j0 + 1);
          (rec.memberTemplates ??= new Set()).add(name);
          const mat: MemberClassTmpl = { name, start: save, end: this.p, outer: rec, tscope: this.tscope, ns: this.ns, insts: new Map(), alias: true };
          ((rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl> }).mctmpls ??= new Map()).set(name, mat);
          continue;
        }
        if ((tagKw === 'struct' || tagKw === 'class' || tagKw === 'union') && this.u.toks.kind[j0 + 1] === Tok.Ident) {
          name = this.u.text(j0 + 1);
          (rec.memberTemplates ??= new Set()).add(name);
          if (tagKw !== 'union' && (this.u.text(j0 + 2) === '{' || this.u.text(j0 + 2) === ':')) {
            const mct: MemberClassTmpl = { name, start: save, end: this.p, outer: rec, tscope: this.tscope, ns: this.ns, insts: new Map() };
            ((rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl> }).mctmpls ??= new Map()).set(name, mct);
          }
          continue;
        }
        // the declarator's name: the identifier before the parameter list, after the template header and outside
        // what the specifiers hold in parentheses or angle brackets (`static decltype(g(declval<T>())) f(int)`,
        // `enable_if_t<(N > 0), int> f()`, `template <class T, class = decltype(h(T()))>`)
        let angle = 0;
        for (let j = save; j < this.p; j++) {
          const t = this.u.text(j);
          if (t === '(' || t === '[') {
            const prev = this.u.text(j - 1);
            if (t === '(' && angle === 0 && this.u.toks.kind[j - 1] === Tok.Ident && !this.u.isKeyword(prev)) { name = prev; break; }
            j = this.balancedEnd(j);
            continue;
          }
          if (t === '<') { angle++; continue; }
          if (t === '>' || t === '>>') { angle = Math.max(0, angle - t.length); continue; }
          if (t === 'operator' && angle === 0) {
            // an operator template: named like its member function (`operator()`, `operator+`); conversions stay unusable
            const a = this.u.text(j + 1), b = this.u.text(j + 2);
            name = a === '(' && b === ')' ? 'operator()' : a === '[' && b === ']' ? 'operator[]' : this.u.toks.kind[j + 1] === Tok.Punct && b === '(' ? 'operator' + a : 'operator';
            break;
          }
        }
        (rec.memberTemplates ??= new Set()).add(name);
        const cname = this.memberClassTemplateName(save);
        if (cname) (this.u as Unit & { memberClassTemplates?: Set<string> }).memberClassTemplates = ((this.u as Unit & { memberClassTemplates?: Set<string> }).memberClassTemplates ?? new Set()).add(cname);
        // a member function template (not a constructor or operator): instantiated on use
        if (name && name !== 'operator') {
          const mt: MemberTmpl = { name, start: save, end: this.p, rec, tscope: this.tscope };
          mt.instantiate = args => this.tryInstantiateMember(mt, [], args as Expr[], () => { /* not viable */ });
          (rec.mtmpls ??= []).push(mt);
        }
        continue;
      }
      if (this.at('typedef') || (this.at('using') && this.kind(1) === Tok.Ident && this.at('=', 2))) {
        const save = this.p, before = this.u.diags.length, errs = this.u.errorCount;
        try {
          if (this.eat('using')) { const name = this.tx(); this.p += 2; rec.types.set(name, this.parseTypeName()); this.expect(';'); }
          else {
            const ds = this.parseDeclSpecs();
            for (;;) { const d = this.parseDeclarator(ds.ty ?? C.int, false); rec.types.set(d.name, d.ty); if (!this.eat(',')) break; }
            this.expect(';');
          }
        } catch (e) {
          if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
          // a member type we cannot express yet: unusable, but the class still is; naming it is unsupported (not
          // an error: `is_convertible<...>::value` through a helper's `type` must not read as undefined)
          this.u.diags.length = before; this.u.errorCount = errs; this.p = save; this.skipMember();
          const name = this.u.text(save) === 'using' ? this.u.text(save + 1) : this.u.toks.kind[this.p - 2] === Tok.Ident && this.u.text(this.p - 1) === ';' ? this.u.text(this.p - 2) : '';
          if (name) ((rec as RecordDecl & { badTypes?: Map<string, string> }).badTypes ??= new Map()).set(name, e instanceof Unsupported ? e.reason : 'member type we cannot parse');
        }
        continue;
      }
      if (this.at('using')) { this.skipToSemi(); continue; }
      if (this.isMemberFunction() || this.isCtorOrDtor(rec)) { rec.hasMethods = true; this.parseMethodDecl(rec); continue; }
      const ds = this.parseDeclSpecs();
      if (ds.static) { this.parseStaticMember(rec, ds); continue; }
      if (!ds.ty) throw new Unsupported('member declaration without a type');
      if (ds.tagOnly && this.at(';')) {
        // nested type or anonymous struct/union member
        const t = ds.ty;
        if (t.k === 'record' && !t.rec.name) {
          // an anonymous struct/union: a member without a name whose members belong to this class
          if (t.rec.hasMethods || (t.rec.methods ?? []).length) throw new Unsupported('anonymous struct/union member with member functions');
          rec.fields.push({ name: '', ty: t, offset: 0, irIndex: -1, anon: true });
          this.p++; continue;
        }
        if (t.k === 'record') rec.types.set(t.rec.name, t);
        if (t.k === 'enum' && t.en.name) rec.types.set(t.en.name, t);
        this.p++; continue;
      }
      if (ds.ty.k === 'record' && ds.tagOnly && ds.ty.rec.name) rec.types.set(ds.ty.rec.name, ds.ty);
      for (;;) {
        if (this.eat(':')) {
          // an unnamed bitfield: padding (`unsigned int : 0` starts a new unit)
          const w = Number(this.constInt(this.parseCond()));
          const ft = unqual(ds.ty);
          if (!(isIntegral(ft) || ft.k === 'bool' || ft.k === 'enum') || w < 0 || w > sizeOfC(ft) * 8) throw new Unsupported('bitfield of this type or width');
          rec.fields.push({ name: '', ty: ds.ty, offset: 0, irIndex: -1, bits: w, pad: true });
          if (!this.eat(',')) break;
          continue;
        }
        const d = this.parseDeclarator(ds.ty, false);
        if (d.ty.k === 'func') throw new Unsupported('member function declaration form');
        if (this.eat(':')) {
          // a bitfield of an integral (or enum) type
          const w = Number(this.constInt(this.parseCond()));
          const ft = unqual(d.ty);
          if (!(isIntegral(ft) || ft.k === 'bool' || ft.k === 'enum') || w <= 0 || w > sizeOfC(ft) * 8) throw new Unsupported('bitfield of this type or width');
          if (this.at('=') || this.at('{')) throw new Unsupported('default member initializer of a bitfield');
          rec.fields.push({ name: d.name, ty: d.ty, offset: 0, irIndex: -1, bits: w });
          if (!this.eat(',')) break;
          continue;
        }
        let defaultInit: number | undefined;
        if (this.at('=') || this.at('{')) {
          if (this.eat('=')) defaultInit = this.p; else defaultInit = this.p;
          this.skipInitializerTokens();
        }
        if (d.ty.k === 'array' && d.ty.n === null) throw new Unsupported('flexible array member');
        if (d.attrs.aligned) throw new Unsupported('aligned member');
        rec.fields.push({ name: d.name, ty: d.ty, offset: 0, irIndex: -1, defaultInit });
        if (!this.eat(',')) break;
      }
      if (this.at('}')) continue;
      if (this.recordStack.length && this.tx(-1) === '}') continue;
      this.expect(';');
    }
    this.expect('}');
    this.recordStack.pop();
    setupVirtuals(rec);
    layoutRecord(rec, minAlign);
    const after: Attrs = {};
    this.parseAttributes(after);
    if (after.aligned) layoutRecord(rec, Math.max(minAlign, after.aligned));
  }
  /** Skip a default member initialiser (`= expr` or `{...}`) up to the ',' / ';' that ends it. */
  private skipInitializerTokens(): void {
    while (this.kind() !== Tok.EOF && !this.at(',') && !this.at(';') && !this.at('}')) {
      if (this.at('(') || this.at('{') || this.at('[')) this.skipBalanced(); else this.p++;
    }
  }
  /** `: public A, B` — non-virtual bases become leading subobjects. */
  private parseBaseClause(rec: RecordDecl): void {
    this.expect(':');
    rec.bases = [];
    for (;;) {
      while (this.at('public') || this.at('private') || this.at('protected')) this.p++;
      if (this.at('virtual')) throw new Unsupported('virtual base class');
      // the class's own name is visible here (`struct S : Base<S>`)
      this.recordStack.push(rec);
      let t: CType;
      try { t = this.parseTypeName(); } finally { this.recordStack.pop(); }
      if (t.k !== 'record' || !t.rec.complete) throw new Unsupported('base class that is not a complete class');
      rec.bases.push({ rec: t.rec, field: { name: '', ty: unqual(t), offset: 0, irIndex: -1, isBase: true } });
      if (!this.eat(',')) break;
    }
  }
  /** Is the member at the cursor a constructor or destructor of rec (after specifiers/attributes)? */
  private isCtorOrDtor(rec: RecordDecl): boolean {
    let i = 0;
    for (;;) {
      const t = this.tx(i);
      if (t === '__attribute__') { let d = 0; let j = i + 1; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j; continue; }
      if (t === 'inline' || t === '__inline__' || t === 'constexpr' || t === 'explicit' || t === 'virtual' || t === '__noinline__' || t === '__forceinline__') { i++; continue; }
      break;
    }
    if (this.at('~', i)) return true;
    return this.tx(i) === rec.name && this.at('(', i + 1);
  }
  /** A member function declaration or definition in a class body. A signature we cannot read makes the member unusable, not the class. */
  private parseMethodDecl(rec: RecordDecl): void {
    const save = this.p, before = this.u.diags.length, errs = this.u.errorCount;
    try { this.parseMethodDeclInner(rec); }
    catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      if (e instanceof Unsupported && e.reason === 'virtual functions') throw e;
      this.u.diags.length = before; this.u.errorCount = errs;
      this.p = save;
      let name = '';
      for (let i = 0; this.kind(i) !== Tok.EOF && !this.at('{', i) && !this.at(';', i); i++) {
        // (`__attribute__((device)) int f(...)`: the attribute's parentheses name nothing)
        if (this.at('__attribute__', i)) { let d = 0; do { if (this.at('(', i + 1)) d++; else if (this.at(')', i + 1)) d--; i++; } while (d > 0 && this.kind(i + 1) !== Tok.EOF); continue; }
        if (this.at('(', i)) { name = i > 0 ? this.tx(i - 1) : ''; break; }
      }
      (rec.memberTemplates ??= new Set()).add(name);
      ((rec as RecordDecl & { badMembers?: Map<string, string> }).badMembers ??= new Map()).set(name, e instanceof Unsupported ? e.reason : 'member declaration we cannot parse');
      const from = this.p;
      this.skipMember();
      // a virtual function or destructor we cannot read would leave a wrong vtable or destruction: see setupVirtuals
      for (let j = from; j < this.p; j++) if (this.u.text(j) === 'virtual' || this.u.text(j) === '~') { noteUnreadableVirtual(rec, e instanceof Unsupported ? e.reason : 'a declaration we cannot parse', this.u.text(j) === 'virtual'); break; }
    }
  }
  /** A member function template's declaration (after its header), instantiated: a method of rec not listed among its members. */
  parseMemberTemplateInstance(rec: RecordDecl): FuncSym {
    const n = rec.methods?.length ?? 0;
    this.recordStack.push(rec);
    try { this.parseMethodDeclInner(rec); } finally { this.recordStack.pop(); }
    const f = rec.methods?.[n];
    if (!f) throw new Unsupported(`member template of ${rec.name}`);
    rec.methods!.splice(n, 1);
    return f;
  }
  private parseMethodDeclInner(rec: RecordDecl): void {
    const attrs: Attrs = {};
    const ds: DeclSpec = { ty: null, typedef: false, extern: false, externC: false, static: false, inline: false, constexpr: false, auto: false, attrs, tagOnly: false };
    let virt = false;
    let d: DeclaratorInfo;
    if (this.isCtorOrDtor(rec)) {
      for (;;) {
        if (this.parseAttributes(attrs)) continue;
        if (this.at('inline') || this.at('__inline__')) { ds.inline = true; this.p++; continue; }
        if (this.at('constexpr')) { ds.constexpr = true; this.p++; continue; }
        if (this.at('virtual')) { virt = true; this.p++; continue; }
        if (this.at('explicit')) { (ds as DeclSpec & { explicit?: boolean }).explicit = true; this.p++; continue; }
        break;
      }
      const dtor = this.eat('~');
      const pos = this.p; this.p++;
      const ps = this.parseParams();
      for (;;) {
        if (this.at('noexcept')) { this.p++; if (this.at('(')) this.skipBalanced(); continue; }
        if (this.at('throw')) { this.p++; this.skipBalanced(); continue; }
        if (this.at('override') || this.at('final')) { this.p++; continue; }   // a virtual destructor's virt-specifiers
        if (this.parseAttributes(attrs)) continue;
        break;
      }
      d = { name: dtor ? '~' + rec.name : rec.name, qual: [], pos, ty: withPacks({ k: 'func', ret: C.void, params: ps.params, variadic: ps.variadic, q: 0 }, ps), paramNames: ps.names, defaults: ps.defaults, paramPos: ps.pos, attrs: {}, isFuncDeclarator: true };
      (d as DeclaratorInfo & { ctor?: boolean; dtor?: boolean }).ctor = !dtor;
      (d as DeclaratorInfo & { ctor?: boolean; dtor?: boolean }).dtor = dtor;
    } else {
      const sds = this.parseDeclSpecs();
      Object.assign(ds, { ...sds, attrs: { ...sds.attrs } });
      virt = !!(sds as DeclSpec & { virt?: boolean }).virt;
      if (!ds.ty && !ds.auto && this.at('operator')) ds.ty = C.void;   // conversion function: the declarator gives the type
      if (!ds.ty && ds.auto) ds.ty = withQ((sds as DeclSpec & { dcauto?: boolean }).dcauto ? DECLTYPE_AUTO : AUTO, (sds as DeclSpec & { q: number }).q);   // deduced (or trailing) return type
      if (!ds.ty) this.syntax('expected a type specifier', 79);
      d = this.parseDeclarator(ds.ty, false);
      if (d.ty.k !== 'func') throw new Unsupported('member declaration form');
    }
    let initStart = -1;
    const f = this.u.declareMethod(rec, d, ds, { ...ds.attrs, ...d.attrs });
    if (virt) markVirtual(f, this.at('=') && this.tx(1) === '0' && this.at(';', 2));
    if ((d as DeclaratorInfo & { finalFn?: boolean }).finalFn) markFinalFunction(f);
    if (this.at(':')) {
      initStart = this.p; this.p++;
      for (;;) {
        while (this.kind() !== Tok.EOF && !this.at('(') && !this.at('{')) this.p++;   // the member or base name
        this.skipBalanced();                                                            // (args) or {args}
        this.eat('...');
        if (!this.eat(',')) break;
      }
    }
    if (this.at('{')) {
      f.initStart = initStart;
      f.bodyStart = this.p; this.skipBalanced(); f.bodyEnd = this.p - 1;
      f.paramNames = d.paramNames;
      this.eat(';');
      return;
    }
    if (this.eat('=')) {
      if (this.eat('default')) f.defaulted = true;
      else if (this.eat('delete')) f.deleted = true;
      else if (virt && this.tx() === '0') this.p++;   // pure virtual
      else throw new Unsupported('member function declaration with an initialiser');
    }
    this.expect(';');
  }
  /** `static T x = v;` / `static constexpr T x = v;` in a class. */
  private parseStaticMember(rec: RecordDecl, ds: DeclSpec): void {
    // `static constexpr auto ALIGN = AlignBytes<T>::ALIGN_BYTES;` (cub): the type comes from the initializer
    const autoVar = !ds.ty && ds.auto && !(ds as DeclSpec & { dcauto?: boolean }).dcauto;
    if (!ds.ty && !autoVar) throw new Unsupported('static data member without a type');
    for (;;) {
      const d = this.parseDeclarator(ds.ty ?? withQ(AUTO, (ds as DeclSpec & { q: number }).q), false);
      if (autoVar) {
        if (d.ty.k === 'func' || !hasAuto(d.ty) || !this.eat('=')) throw new Unsupported('static data member without a type');
        const e = this.at('{') ? this.braceExpr() : this.parseAssign();
        const ty = this.deduceAuto(d.ty, e);
        const v = this.u.newVar(d.name, ds.constexpr ? withQ(ty, Q.Const) : ty, 'global', d.pos);
        v.scope = [...rec.scope];
        (v as VarSym & { cls?: RecordDecl }).cls = rec;
        v.isConstexpr = ds.constexpr;
        v.space = ds.attrs.device ? 'device' : ds.attrs.constant ? 'constant' : ds.attrs.shared ? 'shared' : 'none';
        v.init = this.initFromExpr(e, v.ty, e.pos);
        if (isArith(v.ty)) noteConstInit(v, e);
        rec.statics!.set(d.name, v);
        if (!this.eat(',')) break;
        continue;
      }
      if (d.ty.k === 'func') {
        // static member function
        const f = this.u.declareMethod(rec, d, ds, { ...ds.attrs, ...d.attrs });
        f.staticMember = true;
        if (this.at('{')) { f.bodyStart = this.p; this.skipBalanced(); f.bodyEnd = this.p - 1; f.paramNames = d.paramNames; this.eat(';'); return; }
        if (this.eat('=')) { this.eat('delete'); this.eat('default'); }
        break;
      }
      const v = this.u.newVar(d.name, ds.constexpr ? withQ(d.ty, Q.Const) : d.ty, 'global', d.pos);
      v.scope = [...rec.scope];
      (v as VarSym & { cls?: RecordDecl }).cls = rec;
      v.isConstexpr = ds.constexpr;
      v.space = ds.attrs.device ? 'device' : ds.attrs.constant ? 'constant' : ds.attrs.shared ? 'shared' : 'none';
      if (this.eat('=') || this.at('{')) {
        const init = this.parseInitializer(v.ty);
        v.init = init;
        if (init.k === 'expr' && isArith(v.ty)) noteConstInit(v, init.e);
      } else v.isExtern = true;
      rec.statics!.set(d.name, v);
      if (!this.eat(',')) break;
    }
    this.expect(';');
  }
  /**
   * The name a member class or alias template declares (`template <class U> struct IsMultiple {...}`,
   * `template <class U> using X = ...`) from its `template` token at j, or ''. Such members are not
   * instantiated yet: a use of the name falls back naming them instead of reading as undefined.
   */
  private memberClassTemplateName(j: number): string {
    let depth = 0;
    for (j++; j < this.end; j++) {
      const t = this.u.text(j);
      if (t === '(' || t === '[') { let d = 0; do { const x = this.u.text(j); if (x === '(' || x === '[') d++; else if (x === ')' || x === ']') d--; j++; } while (d > 0 && j < this.end); j--; continue; }
      if (t === '<') depth++;
      else if (t === '>') { if (--depth === 0) break; }
      else if (t === '>>') { depth -= 2; if (depth <= 0) break; }
      else if (t === ';' || t === '{') return '';
    }
    const k = this.u.text(j + 1);
    if ((k === 'struct' || k === 'class' || k === 'union' || k === 'using') && this.u.toks.kind[j + 2] === Tok.Ident) return this.u.text(j + 2);
    return '';
  }
  /** A member function declaration/definition (incl. constructors, operators): `name (` before any `;`/`{`/`=` at depth 0. */
  /**
   * A friend function defined in a class body (a hidden friend): a function of the class's namespace that
   * only argument-dependent lookup finds. Declared here, with the class's template parameters bound; a call
   * that ordinary lookup cannot resolve tries these (what ADL would find for arguments of that class).
   */
  private declareHiddenFriend(name: string, start: number, end: number, rec: RecordDecl): void {
    const q = new Parser(this.u, start, end, this.ns);
    q.tscope = this.tscope;
    q.recordStack = [...this.recordStack, rec];
    q.instantiating = this.instantiating;
    const before = this.u.diags.length, errs = this.u.errorCount;
    try {
      for (const sym of q.parseTopDecl(false)) {
        if (sym.kind !== 'func' || sym.name !== name) continue;
        if (this.tscope) sym.tscope = this.tscope;
        (sym as FuncSym & { friendOf?: RecordDecl }).friendOf = rec;
        const all = ((this.u as Unit & { hiddenFriendFns?: Map<string, FuncSym[]> }).hiddenFriendFns ??= new Map());
        const list = all.get(name) ?? [];
        if (!list.includes(sym)) list.push(sym);
        all.set(name, list);
      }
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      this.u.diags.length = before; this.u.errorCount = errs;   // stays a fallback by name
    }
  }
  /** A `friend` declaration at the cursor, after any attributes (`__attribute__((device)) friend void f(...)`). */
  private friendAhead(): boolean {
    let i = 0;
    for (;;) {
      const t = this.tx(i);
      if (t === 'friend') return true;
      if ((t === '__attribute__' || t === '__declspec') && this.at('(', i + 1)) {
        let d = 0, j = i + 1;
        do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF);
        i = j; continue;
      }
      if (t === 'inline' || t === '__inline__' || t === 'constexpr' || t === 'static') { i++; continue; }
      return false;
    }
  }
  private isMemberFunction(): boolean {
    for (let i = 0; ; i++) {
      const k = this.kind(i);
      if (k === Tok.EOF) return false;
      const t = this.tx(i);
      if (k === Tok.Punct && (t === ';' || t === '{' || t === '=' || t === '}' || t === ':')) return false;
      if (t === 'operator') return true;
      if (t === '__attribute__' && this.at('(', i + 1)) { let d = 0; let j = i + 1; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j - 1; continue; }
      // `sizeof(int)` in a template argument of the member's type (`helper<N - sizeof(int)> next;`) is no parameter list
      if (t === '(' && OPERAND_KW.has(this.tx(i - 1))) { let d = 0; let j = i; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j - 1; continue; }
      if (t === '(' ) return this.kind(i - 1) === Tok.Ident && !this.at('*', i + 1) && !this.at('&', i + 1) && !this.at('^', i + 1);
      // an attribute (`[[nodiscard]] constexpr T operator()(...)`), not an array declarator
      if (t === '[' && this.at('[', i + 1)) { let d = 0; let j = i; do { const x = this.tx(j); if (x === '[') d++; else if (x === ']') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j - 1; continue; }
      if (t === '[' ) return false;
    }
  }
  private skipMember(): void {
    let declarator = false;   // a parameter list was seen: a `:` now starts a constructor's mem-initializers
    while (this.kind() !== Tok.EOF) {
      if (this.at(';')) { this.p++; return; }
      if (this.at('{')) { this.skipBalanced(); this.eat(';'); return; }
      if (this.at('(') || this.at('[')) { declarator ||= this.at('('); this.skipBalanced(); continue; }
      if (this.at('}')) return;
      if (declarator && this.at(':')) { this.p++; this.skipMemInitializers(); continue; }
      this.p++;
    }
  }
  /** Skips `a(x), b{y}, Base<T>(z)` up to the constructor's body: a braced initializer is not the body. */
  private skipMemInitializers(): void {
    for (;;) {
      let angle = 0;
      while (this.kind() !== Tok.EOF && !(angle <= 0 && (this.at('(') || this.at('{'))) && !this.at(';') && !this.at('}')) {
        if (this.at('<')) angle++;
        else if (this.at('>')) angle--;
        else if (this.at('>>')) angle -= 2;
        if (this.at('(') || this.at('[')) { this.skipBalanced(); continue; }
        this.p++;
      }
      if (!this.at('(') && !this.at('{')) return;
      this.skipBalanced();
      if (this.at('...')) this.p++;
      if (!this.eat(',')) return;
    }
  }
  /** Skips one statement without reading it (the discarded branch of `if constexpr`). */
  skipStmt(): void {
    if (this.at('{')) { this.skipBalanced(); return; }
    if (this.at('if')) {
      this.p++; this.eat('constexpr');
      if (this.at('(')) this.skipBalanced();
      this.skipStmt();
      if (this.eat('else')) this.skipStmt();
      return;
    }
    if (this.at('for') || this.at('while') || this.at('switch')) { this.p++; if (this.at('(')) this.skipBalanced(); this.skipStmt(); return; }
    if (this.at('do')) { this.p++; this.skipStmt(); this.eat('while'); if (this.at('(')) this.skipBalanced(); this.eat(';'); return; }
    this.skipToSemi();
  }
  skipToSemi(): void {
    while (this.kind() !== Tok.EOF && !this.at(';')) { if (this.at('(') || this.at('{') || this.at('[')) this.skipBalanced(); else this.p++; }
    this.eat(';');
  }

  private parseEnumSpec(ds: DeclSpec): CType {
    this.p++;
    let scoped = false;
    if (this.at('class') || this.at('struct')) { scoped = true; this.p++; }
    this.parseAttributes({});
    let name = '';
    if (this.kind() === Tok.Ident && !this.at('{') && !this.at(':')) { name = this.tx(); this.p++; }
    let underlying: CType | null = null;
    if (this.eat(':')) underlying = this.parseTypeName();
    if (!this.at('{')) {
      const found = name ? this.lookup(name).find(s => s.kind === 'type' && s.ty.k === 'enum') : undefined;
      if (found && found.kind === 'type') return found.ty;
      const en = this.u.enumFor(name, this.ns, underlying ?? C.int, scoped);
      if (this.at(';')) ds.tagOnly = true;
      return { k: 'enum', en, q: 0 };
    }
    const en: EnumDecl = name && this.scopes.length === 0 ? this.u.enumFor(name, this.ns, underlying ?? C.int, scoped)
      : { name, scope: [...this.ns], underlying: underlying ?? C.int, scoped, consts: new Map() };
    const ety: CType = { k: 'enum', en, q: 0 };
    this.p++;
    let next = 0n, min = 0n, max = 0n;
    const vals: [string, bigint, Pos][] = [];
    while (!this.at('}')) {
      const nm = this.tx(); const npos = this.p;
      if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
      this.p++;
      this.parseAttributes({});
      if (this.eat('=')) next = this.constInt(this.parseCond());
      vals.push([nm, next, npos]);
      en.consts.set(nm, next);
      if (!scoped && this.scopes.length) this.declare({ kind: 'enumconst', name: nm, ty: ety, value: next });
      else if (!scoped && this.recordStack.length) (this.recordStack[this.recordStack.length - 1]!.enumerators ??= new Map()).set(nm, { ty: ety, value: next });
      if (next < min) min = next; if (next > max) max = next;
      next++;
      if (!this.eat(',')) break;
    }
    this.expect('}');
    if (!underlying) {
      // GCC: int if it fits, else unsigned int, long, unsigned long
      if (min >= -(1n << 31n) && max < (1n << 31n)) en.underlying = C.int;
      else if (min >= 0n && max < (1n << 32n)) en.underlying = C.uint;
      else if (min >= -(1n << 63n) && max < (1n << 63n)) en.underlying = C.long;
      else en.underlying = C.ulong;
    }
    ds.tagOnly = true;
    return ety;
  }

  // ------------------------------------------------------------------ declarators
  parseDeclarator(base: CType, abstract: boolean): DeclaratorInfo {
    const info: DeclaratorInfo = { name: '', qual: [], pos: this.p, ty: base, paramNames: [], defaults: [], paramPos: [], attrs: {}, isFuncDeclarator: false };
    const build = this.parseDeclaratorInner(info, abstract, true);
    info.ty = build(base);
    // trailing things
    for (;;) {
      if (this.parseAttributes(info.attrs)) continue;
      if (this.at('__asm__') || this.at('asm') || this.at('__asm')) {
        this.p++; this.expect('(');
        const s = this.tx(); this.p++; info.asmLabel = s.slice(1, -1);
        this.expect(')'); continue;
      }
      break;
    }
    return info;
  }
  private parseDeclaratorInner(info: DeclaratorInfo, abstract: boolean, outer: boolean): (t: CType) => CType {
    const ptrs: PtrOp[] = [];
    for (;;) {
      this.parseAttributes(info.attrs);
      if (this.at('*')) {
        this.p++; let q = 0;
        for (;;) {
          if (this.at('const') || this.at('__const')) q |= Q.Const;
          else if (this.at('volatile') || this.at('__volatile__')) q |= Q.Volatile;
          else if (this.at('__restrict__') || this.at('__restrict') || this.at('restrict')) q |= Q.Restrict;
          else if (this.parseAttributes(info.attrs)) continue;
          else break;
          this.p++;
        }
        ptrs.push({ k: 'ptr', q });
      } else if (this.at('&')) { this.p++; ptrs.push({ k: 'ref', q: 0 }); }
      else if (this.at('&&')) { this.p++; ptrs.push({ k: 'rref', q: 0 }); }
      else if (this.kind() === Tok.Ident && this.at('::', 1) && this.at('*', 2)) throw new Unsupported('pointer to member');
      else if (this.at('...') && this.inParams) { this.p++; this.sawPackDots = true; }   // `Ts... args`: a function parameter pack
      else break;
    }
    let inner: ((t: CType) => CType) | null = null;
    let direct = false;
    if (this.at('(') && (this.at('*', 1) || this.at('&', 1) || this.at('(', 1) || this.at('__attribute__', 1) || (this.at('^', 1)))) {
      this.p++;
      inner = this.parseDeclaratorInner(info, abstract, false);
      this.expect(')');
    } else if (this.kind() === Tok.Ident && !this.u.isKeyword(this.tx()) || this.at('::') || this.at('operator')) {
      // (qualified) declarator id
      if (this.at('::')) this.p++;
      for (;;) {
        if (this.kind() === Tok.Ident && this.at('::', 1)) {
          info.qual.push(this.tx()); this.p += 2;
          if (this.at('template')) this.p++;
          continue;
        }
        if (this.kind() === Tok.Ident && this.at('<', 1) && this.at('::', 1 + this.angleLength(1))) {
          // `C<T>::f` in an out-of-line member definition of a class template, read with C's arguments bound
          if (!this.outOfLineOf) throw new Unsupported('qualified name with template arguments');
          const name = this.tx();
          const t = this.templateIdType(name, this.ns, false);
          if (!t || t.k !== 'record' || t.rec !== this.outOfLineOf) throw new Unsupported('qualified name with template arguments');
          info.qual.push(name); (info as DeclaratorInfo & { qualRec?: RecordDecl }).qualRec = t.rec;
          this.cls = t.rec;   // the parameters that follow are in the class's scope (its injected name, member types)
          this.expect('::');
          continue;
        }
        break;
      }
      info.pos = this.p;
      if (this.at('~')) {
        this.p++;
        info.name = '~' + this.tx(); this.p++;
        (info as DeclaratorInfo & { dtor?: boolean }).dtor = true;
      } else if (this.at('operator')) {
        this.p++;
        const op = this.parseOperatorId();
        (info as DeclaratorInfo & { op?: string }).op = op.op;
        info.name = op.name;
        if (op.conv) (info as DeclaratorInfo & { convTy?: CType }).convTy = op.conv;
      } else {
        info.name = this.tx(); this.p++;
        if (info.qual.length && info.qual[info.qual.length - 1] === info.name) (info as DeclaratorInfo & { ctor?: boolean }).ctor = true;
      }
      direct = true;
      if (this.at('<')) {
        // an explicit specialisation being read for its template's arguments (templates.ts explicitFuncSpecFor)
        if (!this.instantiating) throw new Unsupported('template specialisation');
        this.p += this.angleLength(0);
      }
    } else if (!abstract) {
      this.syntax('expected an identifier', 40);
    }
    const suffixes: Suffix[] = [];
    for (;;) {
      if (this.at('[')) {
        this.p++;
        let n: number | null = null;
        if (!this.at(']')) n = Number(this.constInt(this.parseExpr()));
        this.expect(']');
        suffixes.push({ k: 'arr', n });
      } else if (this.at('(')) {
        // `T x(args)` declares an object initialised by args unless the parentheses can only hold parameters
        if (direct && suffixes.length === 0 && this.scopes.length > 0 && !this.at(')', 1) && !this.at('...', 1) && !(this.startsType(1) && !this.at('{', 2)) && !this.at('__attribute__', 1)) break;
        const s = this.parseParams();
        suffixes.push(s);
        if (suffixes.length === 1 && (direct || (!inner && abstract)) && outer) {
          info.paramNames = s.names; info.defaults = s.defaults; info.paramPos = s.pos; info.isFuncDeclarator = true;
        } else if (suffixes.length === 1 && direct) { info.paramNames = s.names; info.defaults = s.defaults; info.paramPos = s.pos; info.isFuncDeclarator = true; }
        // cv/ref qualifiers, exception specs
        for (;;) {
          if (suffixes.length === 1) {
            const x = info as DeclaratorInfo & { fnQ?: number };
            if (this.at('const')) x.fnQ = (x.fnQ ?? 0) | Q.Const;
            if (this.at('volatile')) x.fnQ = (x.fnQ ?? 0) | Q.Volatile;
            if (this.at('final')) (info as DeclaratorInfo & { finalFn?: boolean }).finalFn = true;
          }
          if (this.at('const') || this.at('volatile') || this.at('&') || this.at('&&') || this.at('override') || this.at('final')) { this.p++; continue; }
          if (this.at('noexcept')) { this.p++; if (this.at('(')) this.skipBalanced(); continue; }
          if (this.at('throw')) { this.p++; this.skipBalanced(); continue; }
          if (this.at('->') && suffixes.length === 1) {
            this.p++;
            // the parameters are in scope in a trailing return type (`auto f(G const &g) -> decltype(g.size())`)
            const ps = new Map<string, Sym>();
            s.names.forEach((n, i) => { if (n && s.params[i]) ps.set(n, this.u.newVar(n, s.params[i]!, 'param', s.pos[i] ?? this.p)); });
            this.scopes.push(ps);
            try { (s as { trailing?: CType }).trailing = this.parseTypeName(); } finally { this.scopes.pop(); }
            continue;
          }
          if (this.at('->')) throw new Unsupported('trailing return type');
          break;
        }
      } else break;
    }
    const conv = (info as DeclaratorInfo & { convTy?: CType }).convTy;
    return (t: CType) => {
      if (conv && direct) t = conv;
      for (const pop of ptrs) t = pop.k === 'ptr' ? ptrTo(t, pop.q) : t.k === 'ref' ? (pop.k === 'ref' && t.rv ? refTo(t.to) : t) : refTo(t, pop.k === 'rref');
      for (let i = suffixes.length - 1; i >= 0; i--) {
        const s = suffixes[i]!;
        if (s.k === 'arr') t = arrayOf(t, s.n);
        else t = withPacks({ k: 'func', ret: (s as { trailing?: CType }).trailing && isAuto(t) ? (s as { trailing?: CType }).trailing! : t, params: s.params, variadic: s.variadic, q: 0 }, s);
      }
      return inner ? inner(t) : t;
    };
  }
  /**
   * At `[ns::]enable_if<false, T>::type`, or a member of a class that declares nothing at all
   * (`__cccl_select<false>::template type<T>`): the error to report, a substitution failure (the cursor is
   * unchanged). Null otherwise: elsewhere a class without the member may be a trait we compute wrongly (a fold
   * in decltype), and dropping the candidate would pick another.
   */
  private missingMemberType(): string | null {
    const save = this.p;
    try {
      // an optional namespace qualification: `std::enable_if<...>::type`, `::cuda::std::enable_if<...>::type`
      let ns = this.ns, exact = false;
      if (this.at('::') || (this.kind() === Tok.Ident && this.at('::', 1))) {
        const abs = this.eat('::');
        const names: string[] = [];
        while (this.kind() === Tok.Ident && this.at('::', 1)) { names.push(this.tx()); this.p += 2; }
        const path = this.namespacePath(names, abs);
        if (path === null) return null;
        ns = path; exact = true;
      }
      if (this.kind() !== Tok.Ident || !this.at('<', 1)) return null;
      // enable_if's members are read as everywhere; any other class only when it declares nothing at all
      // (`template <bool> struct __cccl_select {};`), so a member we failed to read is never taken for a missing one
      const enableIf = /^_*enable_if$/.test(this.tx());
      const before = this.u.diags.length, errs = this.u.errorCount;
      let rec: RecordDecl | null = null;
      try {
        const t = this.templateIdType(this.tx(), ns, exact);
        if (t && t.k === 'record' && t.rec.complete && !patternArgs(t.rec.targs ?? [])) rec = t.rec;
      } catch (e) {
        if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      } finally { this.u.diags.length = before; this.u.errorCount = errs; }
      if (!rec || !this.at('::')) return null;
      const member = this.at('template', 1) ? 2 : 1;
      if (this.kind(member) !== Tok.Ident) return null;
      const name = this.tx(member);
      if (!enableIf) return declaresNothing(rec) ? `class "${rec.name}" has no member "${name}"` : null;
      const m = this.classMember(rec, name, true);
      return m.length && m[0]!.kind === 'type' ? null : `class "${rec.name}" has no member "${name}"`;
    } finally { this.p = save; this.halfGt = false; }
  }
  /** A qualified type name `A::B::C` / `ns::T<args>` / `::T` at the cursor, or null (cursor unchanged). */
  /**
   * `A::B<args>::type` and the like. With depOk (after `typename`), a member of a class template named with
   * a template's own parameters (`typename helper_traits<T>::fill_argument_type` in a declared signature)
   * reads as a dependent name: never deduced from, mangled as written.
   */
  private qualifiedType(depOk = false): CType | null {
    const save = this.p;
    let path: string[] = [];
    let rec: RecordDecl | null = null;
    if (this.eat('::')) path = [];
    else {
      const first = this.tx();
      const r = this.at('<', 1) ? { kind: 'none' as const } : this.resolveNamespaceOrType(first);
      if (r.kind === 'record') { rec = r.rec; this.p += 2; }
      else if (r.kind === 'ns') { path = r.path; this.p += 2; }
      else if (this.at('<', 1)) {
        const mct = this.memberClassTmpl(first);
        const t = mct ? this.memberClassType(mct) : this.templateIdType(first, this.ns, false);
        if (!t) { this.p = save; return null; }
        if (t.k === 'record' && this.at('::') && this.kind(1) === Tok.Ident) { rec = t.rec; this.p++; }
        else return t;
      }
      else { this.p = save; return null; }
    }
    for (;;) {
      if (this.eat('template')) { /* disambiguator */ }
      if (this.kind() !== Tok.Ident) { this.p = save; return null; }
      const n = this.tx();
      let ty: CType | null = null;
      const mct = rec && this.at('<', 1) ? memberClassTmplOf(rec, n) : undefined;
      if (mct) ty = this.memberClassType(mct);
      else if (rec) {
        const m = this.classMember(rec, n, true);
        if (m.length && m[0]!.kind === 'type') { ty = m[0]!.ty; this.p++; }
        else if (depOk && !m.length && !this.at('<', 1) && dependent({ k: 'record', rec, q: 0 })) {
          const names = [n];
          this.p++;
          while (this.at('::') && this.kind(1) === Tok.Ident && !this.at('<', 2)) { names.push(this.tx(1)); this.p += 2; }
          if (this.at('::') || this.at('<')) { this.p = save; return null; }
          return { k: 'error', q: 0, dep: { base: { k: 'record', rec, q: 0 }, names } } as CType;
        }
      } else if (this.at('<', 1) && this.u.templateEntries(n, path, 'record', true).length) {
        ty = this.templateIdType(n, path, true);
      } else {
        const r = this.u.resolveIn(path, n);
        if (r.kind === 'ns' && this.at('::', 1)) { path = r.path; this.p += 2; continue; }
        const syms = this.u.lookupIn(path, n);
        if (syms.length && syms[0]!.kind === 'type') {
          const sugar = (syms[0] as Sym & { sugar?: string }).sugar;
          ty = sugar ? withSugar(syms[0]!.ty, sugar) : syms[0]!.ty; this.p++;
        }
      }
      if (!ty) { this.p = save; return null; }
      if (this.at('<')) throw new Unsupported(`template ${n}<...>`);
      if (this.at('::') && this.kind(1) === Tok.Ident && ty.k === 'record') { rec = ty.rec; this.p++; continue; }
      if (this.at('::')) { this.p = save; return null; }   // E::enumerator, not a type
      return ty;
    }
  }
  /** A variable of the enclosing function named in a lambda body: a member of the closure. */
  private capture(v: VarSym): Sym {
    const L = this.lambda!;
    let c = L.caps.find(x => x.v === v);
    if (!c && L.frozen) throw new Unsupported(`generic lambda using ${v.name} it did not capture`);
    if (!c) {
      const explicit = L.explicit.get(v.name);
      const byRef = explicit ?? L.byRef;
      if (byRef === null) { this.u.error(this.p - 1, 1735, `an enclosing-function local variable cannot be referenced in a lambda body unless it is in the capture list`); return v; }
      c = { v, byRef };
      L.caps.push(c);
      const vt = v.ty.k === 'ref' ? v.ty.to : v.ty;
      L.rec.fields.push({ name: v.name, ty: byRef ? ptrTo(vt) : unqual(vt), offset: 0, irIndex: -1 });
    }
    const f = L.rec.fields.find(x => x.name === v.name)!;
    return { kind: 'field', name: v.name, ty: f.ty, rec: L.rec, byRef: c.byRef } as Sym;
  }
  /** A lambda expression: a closure object whose class has the captures as members and the body as operator(). */
  parseLambda(): Expr {
    const pos = this.p;
    this.expect('[');
    let byRef: boolean | null = null;
    let thisCap = false;
    const explicit = new Map<string, boolean>();
    const inits: { name: string; e: Expr; byRef: boolean }[] = [];
    while (!this.at(']')) {
      if (this.at('=') && (this.at(']', 1) || this.at(',', 1))) { byRef = false; this.p++; }
      else if (this.at('&') && (this.at(']', 1) || this.at(',', 1))) { byRef = true; this.p++; }
      else if (this.at('*')) throw new Unsupported('lambda capturing *this');
      else if (this.eat('this')) thisCap = true;
      else {
        const r = this.eat('&');
        if (!this.isIdent()) this.syntax('expected an identifier', 40);
        const n = this.tx(); this.p++;
        if (this.at('...')) throw new Unsupported('lambda pack capture');
        if (this.at('=') || this.at('{') || this.at('(')) {
          // an init-capture: a member initialised from an expression of the enclosing function
          const close = this.at('{') ? '}' : this.at('(') ? ')' : null;
          this.p++;
          const e = this.parseAssign();
          if (close) this.expect(close);
          inits.push({ name: n, e, byRef: r });
        } else explicit.set(n, r);
      }
      if (!this.eat(',')) break;
    }
    this.expect(']');
    // an extended lambda (nvcc --extended-lambda): `[=] __device__ (float x) {...}`, the attribute after the introducer
    const execAttrs: Attrs = {};
    while (this.parseAttributes(execAttrs)) { /* __device__: the call operator is callable from device code anyway */ }
    // (`__host__` alone does not make a lambda extended)
    const extended = !!execAttrs.device && !!this.fn && !this.fn.isDevice && !this.fn.isGlobal;
    const rec = this.u.newRecord('class', `__lambda_${this.u.lambdaCount++}`, this.ns, []);
    rec.methods = []; rec.fields = []; rec.types = new Map(); rec.statics = new Map();
    let ps: { params: CType[]; names: string[]; defaults: (number | null)[]; variadic: boolean; pos: Pos[] } = { params: [], names: [], defaults: [], variadic: false, pos: [] };
    const paramsAt = this.at('(') ? this.p : -1;
    let nAuto = 0;
    const closureIn = this.lambda ? null : this.fn;   // lambdas nested in lambdas are not named yet
    if (this.at('(')) {
      const save = this.p;
      const savedAuto = this.autoParams;
      this.autoParams = { n: 0, bound: null };
      try { ps = this.parseParams(); nAuto = this.autoParams.n; }
      catch (e) { this.p = save; throw e; }
      finally { this.autoParams = savedAuto; }
      if (nAuto && ps.variadic) throw new Unsupported('generic lambda with a parameter pack');
    }
    if (closureIn && !nAuto) {
      const siblings = this.u.lambdasIn(closureIn);
      rec.lambda = { fn: closureIn, pos, params: ps.params, siblings };
      if (!siblings.includes(rec) && !siblings.some(r => r.lambda?.pos === pos)) siblings.push(rec);
    }
    let mutable = false, noexcept = false;
    const attrs: Attrs = {};
    for (;;) {
      if (this.eat('mutable')) { mutable = true; continue; }
      if (this.at('noexcept') && !this.at('(', 1)) noexcept = true;
      if (this.at('constexpr') || this.at('noexcept')) { this.p++; if (this.at('(')) this.skipBalanced(); continue; }
      if (this.parseAttributes(attrs)) continue;
      break;
    }
    let ret: CType = AUTO;
    const trailing = this.eat('->');
    if (trailing) ret = this.parseTypeName();
    if (extended && rec.lambda) {
      // cudafe++ numbers the function's extended lambdas (its wrapper tags) from 1 in source order
      const tag = 1 + rec.lambda.siblings.filter(r => r.lambda?.ext && r.lambda.pos < pos).length;
      rec.lambda.ext = { hd: !!(execAttrs.host && execAttrs.device), tag, mutable, noexcept, trailingRet: trailing ? ret : null };
      if ((closureIn as FuncSym & { bodyInClass?: boolean }).bodyInClass) rec.lambda.ext.late = true;
    } else if (extended) throw new Unsupported('extended lambda in a generic or nested lambda');
    if (!this.at('{')) this.syntax('expected a "{"', 130);
    const d: DeclaratorInfo = { name: 'operator()', qual: [], pos, ty: { k: 'func', ret, params: ps.params, variadic: ps.variadic, q: 0 }, paramNames: ps.names, defaults: ps.defaults, paramPos: ps.pos, attrs: {}, isFuncDeclarator: true };
    (d as DeclaratorInfo & { op?: string; fnQ?: number }).op = '()';
    (d as DeclaratorInfo & { fnQ?: number }).fnQ = mutable ? 0 : Q.Const;
    const ds: DeclSpec = { ty: ret, typedef: false, extern: false, externC: false, static: false, inline: true, constexpr: false, auto: false, attrs: {}, tagOnly: false };
    const bodyStart = this.p;
    const f = nAuto ? null : this.u.declareMethod(rec, d, ds, { device: true, host: true });
    this.skipBalanced();
    const bodyEnd = this.p - 1;
    if (f) { f.bodyStart = bodyStart; f.bodyEnd = bodyEnd; }
    // the class whose members the body names (a lambda in a member function), and whether `this` can be captured
    const outerCls = this.lambda ? this.lambda.outerCls : this.cls ?? null;
    const outerThis = this.lambda ? this.lambda.outerThis : !!this.fn?.thisVar;
    // init-captures are members known before the body; they are found by name in it
    const initScope = new Map<string, Sym>();
    for (const ic of inits) {
      const t = ic.byRef ? ptrTo(ic.e.ty) : unqual(rval(ic.e).ty);
      if (ic.byRef && !ic.e.lv) this.u.error(ic.e.pos, 1767, 'initial value of reference to non-const must be an lvalue');
      rec.fields.push({ name: ic.name, ty: t, offset: 0, irIndex: -1 });
      initScope.set(ic.name, { kind: 'field', name: ic.name, ty: t, rec, byRef: ic.byRef } as Sym);
    }
    // the body is parsed now, in the enclosing scopes, to find the captures
    const scopes = [...this.scopes, initScope];
    const child = new Parser(this.u, bodyStart, bodyEnd + 1, this.ns);
    child.scopes = scopes;
    child.tscope = this.tscope;
    const L = { base: this.scopes.length, rec, byRef, explicit, caps: [] as { v: VarSym; byRef: boolean }[], outer: this, outerCls, outerThis, thisCap, thisField: null as Field | null, frozen: false };
    if (thisCap && !outerThis) this.u.error(pos, 258, '"this" may only be used inside a nonstatic member function');
    child.lambda = L;
    for (const [n, r] of explicit) { const v = this.lookupVarForCapture(n); if (v) child.captureNamed(v, r); }
    if (f) {
      f.body = child.parseFunctionBody(f);
      if (isAuto(f.ty.ret)) f.ty = { ...f.ty, ret: C.void };
      this.u.markParsed(f);
    } else {
      // a generic lambda: its body is parsed per call signature, later; the captures are decided now from
      // the names it uses (enclosing variables it may capture, and `this` for the enclosing class's members)
      for (let j = bodyStart; j <= bodyEnd; j++) {
        if (this.u.toks.kind[j] !== Tok.Ident && this.u.text(j) !== 'this') continue;
        const prev = this.u.text(j - 1);
        if (prev === '.' || prev === '->' || prev === '::') continue;
        const n = this.u.text(j);
        if (n === 'this') { if (outerThis && (thisCap || byRef !== null)) child.captureThis(j); continue; }
        if (initScope.has(n)) continue;
        const v = this.lookupVarForCapture(n);
        if (v && (v.storage === 'local' || v.storage === 'param') && !v.constVal && (explicit.has(n) || byRef !== null)) { child.capture(v); continue; }
        if (!v && outerThis && (thisCap || byRef !== null) && outerCls && this.classMember(outerCls, n, false).length && !this.scopes.some(sc => sc.has(n))) child.captureThis(j);
      }
      L.frozen = true;
      const gen = { params: ps.params, nAuto, d, ds, bodyStart, bodyEnd, scopes, tscope: this.tscope, L, ns: this.ns, paramsAt, insts: new Map<string, FuncSym>() };
      (rec as RecordDecl & { genericLambda?: typeof gen }).genericLambda = gen;
    }
    layoutRecord(rec);
    if (rec.lambda?.ext) {
      rec.lambda.ext.capTypes = rec.fields.map(fld => {
        const c = L.caps.find(x => x.v.name === fld.name);
        return c && !c.byRef ? (c.v.ty.k === 'ref' ? c.v.ty.to : c.v.ty) : fld.ty;
      });
    }
    if (rec.lambda?.ext?.hd && rec.fields.length) {
      // device code sees a capturing __host__ __device__ lambda as cudafe++'s __nv_hdl_wrapper_t: the captures,
      // then an 8-byte member (the real cicc's kernel parameter: 16 bytes, align 8, for one float captured;
      // 32 bytes, align 16, for a float4)
      rec.align = Math.max(rec.align, 8);
      rec.size = Math.ceil((Math.ceil(rec.size / 8) * 8 + 8) / rec.align) * rec.align;
    }
    const ty: CType = { k: 'record', rec, q: 0 };
    const items = rec.fields.map((fld, i) => {
      let init: Init;
      const ic = inits.find(x => x.name === fld.name);
      if (fld === L.thisField) init = { k: 'expr', e: this.thisPointer(pos) };
      else if (ic) init = ic.byRef ? { k: 'expr', e: mk(fld.ty, pos, false, { k: 'addr', e: ic.e }) } : this.initFromExpr(ic.e, fld.ty, pos);
      else {
        const c = L.caps.find(x => x.v.name === fld.name)!;
        const ve = this.capturedVarExpr(c.v, pos);
        init = c.byRef ? { k: 'expr', e: mk(fld.ty, pos, false, { k: 'addr', e: ve }) } : this.initFromExpr(ve, fld.ty, pos);
      }
      if (fld !== L.thisField && !(ic?.byRef) && !L.caps.find(x => x.v.name === fld.name)?.byRef) this.checkTrivialCopy(fld.ty);
      return { off: fld.offset, path: [i], init };
    });
    return mk(ty, pos, false, { k: 'temp', init: { k: 'list', ty, items, pos } });
  }
  /** The operator() of a generic lambda for these call arguments (its `auto` parameters deduced), or null when none fits. */
  private instantiateGenericLambda(rec: RecordDecl, args: Expr[]): FuncSym | null {
    type Gen = { params: CType[]; nAuto: number; d: DeclaratorInfo; ds: DeclSpec; bodyStart: number; bodyEnd: number; scopes: Map<string, Sym>[]; tscope: Map<string, Sym> | null; L: NonNullable<Parser['lambda']>; ns: string[]; paramsAt: number; insts: Map<string, FuncSym> };
    const g = (rec as RecordDecl & { genericLambda?: Gen }).genericLambda!;
    if (args.length !== g.params.length) return null;
    const tys = this.u.templates.deduceAutoParams(g.params, g.nAuto, args);
    if (!tys) return null;
    const key = tys.map(t => typeName(t)).join(',');
    const got = g.insts.get(key);
    if (got) return got;
    const p = new Parser(this.u, g.paramsAt, g.bodyStart, g.ns);
    p.scopes = [...g.scopes]; p.tscope = g.tscope;
    p.autoParams = { n: 0, bound: tys };
    const ps = p.parseParams();
    const d: DeclaratorInfo = { ...g.d, ty: { k: 'func', ret: g.d.ty.k === 'func' ? g.d.ty.ret : AUTO, params: ps.params, variadic: false, q: 0 }, paramNames: ps.names, defaults: ps.defaults, paramPos: ps.pos };
    const f = this.u.declareMethod(rec, d, g.ds, { device: true, host: true });
    rec.methods!.splice(rec.methods!.indexOf(f), 1);
    f.bodyStart = g.bodyStart; f.bodyEnd = g.bodyEnd;
    f.targs = tys.map(t => ({ k: 'type', ty: t }));
    g.insts.set(key, f);
    const child = new Parser(this.u, g.bodyStart, g.bodyEnd + 1, g.ns);
    child.scopes = [...g.scopes]; child.tscope = g.tscope; child.lambda = g.L;
    f.body = child.parseFunctionBody(f);
    if (isAuto(f.ty.ret)) f.ty = { ...f.ty, ret: C.void };
    this.u.markParsed(f);
    return f;
  }
  /** A variable named in a capture list: found in the enclosing function (through an enclosing lambda's scopes too). */
  private lookupVarForCapture(n: string): VarSym | null {
    for (let i = this.scopes.length - 1; i >= 0; i--) { const s = this.scopes[i]!.get(n); if (s) return s.kind === 'var' ? s : null; }
    return null;
  }
  /** A captured variable as the closure's creator sees it: itself, or its own capture when the creator is a lambda too. */
  private capturedVarExpr(v: VarSym, pos: Pos): Expr {
    let idx = -1;
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]!.get(v.name) === v) { idx = i; break; }
    if (this.lambda && idx >= 0 && idx < this.lambda.base) {
      const s = this.capture(v) as Sym & { byRef?: boolean };
      const m = this.member(this.thisObj(pos), s.name, false, pos);
      return s.byRef ? this.deref(m, pos) : m;
    }
    return mk(v.ty.k === 'ref' ? v.ty.to : v.ty, pos, true, { k: 'var', sym: v });
  }
  /** The value of `this` of the enclosing member function (captured when inside a lambda). */
  thisPointer(pos: Pos): Expr {
    const L = this.lambda;
    if (L && L.outerThis) {
      if (!this.captureThis(pos)) return errExpr(pos);
      return rval(mk(L.thisField!.ty, pos, true, { k: 'member', e: this.thisObj(pos), field: L.thisField!, arrow: false }));
    }
    const tv = this.fn?.thisVar;
    if (!tv) { this.u.error(pos, 258, '"this" may only be used inside a nonstatic member function'); return errExpr(pos); }
    return rval(mk(tv.ty, pos, true, { k: 'var', sym: tv }));
  }
  /** Inside a lambda: the closure member holding the enclosing `this` (made on first use); false after a diagnostic. */
  captureThis(pos: Pos): boolean {
    const L = this.lambda!;
    if (L.thisField) return true;
    if (L.frozen) throw new Unsupported('generic lambda using this it did not capture');
    if (!L.thisCap && L.byRef === null) { this.u.error(pos, 1735, `an enclosing-function "this" cannot be referenced in a lambda body unless it is in the capture list`); return false; }
    const outer = L.outer.thisPointer(pos);
    L.thisField = { name: '__this', ty: outer.ty, offset: 0, irIndex: -1 };
    L.rec.fields.push(L.thisField);
    return true;
  }
  /** The object whose member `rec`'s members are: *this, or the enclosing object inside a lambda. */
  private objectFor(rec: RecordDecl | undefined, pos: Pos): Expr {
    if (this.lambda && rec !== this.lambda.rec) {
      const p = this.thisPointer(pos);
      if (p.ty.k !== 'ptr') return p;
      return mk(p.ty.to, pos, true, { k: 'deref', e: p });
    }
    return this.thisObj(pos);
  }
  private captureNamed(v: VarSym, _byRef: boolean): void { this.capture(v); }
  /** `< args >` of a template-id (at '<'). Types where a type can start, else constant expressions. */
  parseTemplateArgs(): TArg[] {
    const savedIn = this.inParams;
    this.inParams = false;   // a `...` in here is an expansion, not a function parameter pack
    try { return this.parseTemplateArgsIn(); } finally { this.inParams = savedIn; }
  }
  private parseTemplateArgsIn(): TArg[] {
    this.expect('<');
    const out: TArg[] = [];
    while (!this.at('>') && !this.at('>>')) {
      if (this.at('...')) throw new Unsupported('pack expansion');
      const start = this.p;
      const tt = this.templateNameArg();
      if (tt) { out.push({ k: 'type', ty: tt }); if (!this.eat(',')) break; continue; }
      // `is_same<T, Ts>...`: a pattern naming a bound type pack inside a template-id (no type holds the pack
      // itself), one type argument per element
      const tdots = this.packPatterns ? -1 : this.typeArgDotsAhead();
      if (tdots > this.p + 1 && this.namesTypePack(this.p, tdots)) {
        const dl = this.u.diags.length, ec = this.u.errorCount;
        let tys: CType[] | null = null;
        try { tys = this.expandPack(this.p, tdots, () => this.parseTypeName()); } catch (e) { if (!(e instanceof SyntaxAbort) && !(e instanceof Unsupported)) throw e; }
        if (tys && this.u.errorCount === ec) {
          out.push({ k: 'pack', args: tys.map(t => ({ k: 'type', ty: t })) });
          if (!this.eat(',')) break;
          continue;
        }
        // not types (`is_same_v<T, Ts>...` are values): read below
        this.u.diags.length = dl; this.u.errorCount = ec; this.p = start;
      }
      if (this.startsType() && !this.functionalCastArg()) {
        const ty = this.parseTypeName();
        if (this.at('...') && !hasPack(ty) && hasPlaceholder(ty)) {
          // `Rest...` in a declared signature or a partial specialisation's arguments: a pattern matching the remaining arguments
          this.p++;
          out.push({ k: 'pack', args: [{ k: 'type', ty: { k: 'error', q: 0, packExp: ty } as CType }] });
          if (!this.eat(',')) break;
          continue;
        }
        if (this.at('...') && hasPack(ty)) {
          // `Ts...` / `const Ts &...`: one argument per element
          const end = this.p;
          const tys = this.expandPack(start, end, () => this.parseTypeName());
          out.push({ k: 'pack', args: tys.map(t => ({ k: 'type', ty: t })) });
          if (!this.eat(',')) break;
          continue;
        }
        out.push({ k: 'type', ty });
      }
      else if (this.tmplArgDotsAhead() >= 0) {
        // `Is...` / `(Is * 2)...`: a non-type pack expansion, one argument per element
        const dots = this.tmplArgDotsAhead();
        const pi = dots === this.p + 1 ? valPackParamOf(this.tscope?.get(this.tx())) : undefined;
        if (pi !== undefined) {
          // `Is...` of a pattern (a partial specialisation's arguments, a declared signature): matches the remaining values
          out.push({ k: 'pack', args: [{ k: 'val', ty: C.int, v: valParam(pi), packExp: true } as TArg] });
          this.p = dots + 1;
        } else if (this.at('__integer_pack') && this.at('(', 1) && this.lookup('__integer_pack').length === 0) {
          // GCC's `__integer_pack(N)...` (libstdc++'s and libcu++'s make_integer_sequence): the values 0 .. N-1
          this.p += 2;
          const savedGt = this.gtEnds;
          this.gtEnds = false;
          let e: Expr;
          try { e = this.parseAssign(); } finally { this.gtEnds = savedGt; }
          this.expect(')');
          if (this.p !== dots) throw new Unsupported('__integer_pack in a larger pattern');
          const n = evalInt(e);
          if (n === null) throw new Unsupported('__integer_pack of a value not known here');
          if (n < 0n || n > 1n << 16n) throw new Unsupported(`__integer_pack(${n})`);
          const ty = unqual(e.ty);
          const vals: TArg[] = [];
          for (let v = 0n; v < n; v++) vals.push({ k: 'val', ty, v });
          out.push({ k: 'pack', args: vals });
          this.p = dots + 1;
        } else {
          const vals = this.expandPack(this.p, dots, () => {
            const savedGt = this.gtEnds;
            this.gtEnds = true;
            try { const e = this.parseBinary(1); return { k: 'val' as const, ty: unqual(e.ty.k === 'error' ? C.int : e.ty), v: this.constInt(e) }; } finally { this.gtEnds = savedGt; }
          });
          out.push({ k: 'pack', args: vals });
        }
        if (!this.eat(',')) break;
        continue;
      }
      else {
        // a constant expression up to the `>` or `,` that ends it (`(N > 32) && (N <= 1024)`)
        const savedGt = this.gtEnds;
        this.gtEnds = true;
        let e: Expr;
        try { e = this.parseBinary(1); } finally { this.gtEnds = savedGt; }
        const v = this.constInt(e);
        out.push({ k: 'val', ty: unqual(e.ty.k === 'error' ? C.int : e.ty), v });
      }
      if (this.at('...')) throw new Unsupported('pack expansion');
      if (!this.eat(',')) break;
    }
    this.closeAngle();
    return out;
  }
  /**
   * A template template argument at the cursor: a class template's (qualified) name alone, up to the ',' or
   * '>' that ends the argument, or a template template parameter; the cursor moves past it. Null otherwise.
   */
  templateNameArg(): CType | null {
    let j = this.p;
    const path: string[] = [];
    const global = this.u.text(j) === '::';
    if (global) j++;
    for (;;) {
      if (this.u.toks.kind[j] !== Tok.Ident || this.u.isKeyword(this.u.text(j))) return null;
      path.push(this.u.text(j)); j++;
      if (this.u.text(j) === '::') { j++; continue; }
      break;
    }
    const after = this.u.text(j);
    if (after !== ',' && after !== '>' && after !== '>>' && j < this.end) return null;
    const name = path[path.length - 1]!;
    if (path.length === 1 && !global) {
      const ts = this.tscope?.get(name);
      if (ts) { if (ts.kind === 'type' && (ts.ty as { tmplRec?: RecordDecl }).tmplRec) { this.p = j; return ts.ty; } return null; }
      // the injected class name inside its own template names the current specialisation (a type)
      if (this.recordStack.some(r => r.name === name) || this.cls?.name === name) return null;
      if (this.lookup(name).some(x => x.kind === 'type' || x.kind === 'var' || x.kind === 'enumconst')) return null;
    }
    const isRec = (di: number) => this.u.index.decls[di]!.kind === 'record';
    let ents: number[] = [];
    if (global) ents = this.u.templateEntries(name, path.slice(0, -1), 'record', true).filter(isRec);
    else if (path.length === 1) ents = this.u.templateEntries(name, this.ns, 'record', false).filter(isRec);
    else {
      // the namespaces resolved one by one (inline namespaces included), as qualifiedType() does
      const r = this.resolveNamespaceOrType(path[0]!);
      if (r.kind !== 'ns') return null;
      let nsPath = r.path;
      for (const c of path.slice(1, -1)) { const rc = this.u.resolveIn(nsPath, c); if (rc.kind !== 'ns') return null; nsPath = rc.path; }
      ents = this.u.templateEntries(name, nsPath, 'record', true).filter(isRec);
    }
    if (!ents.length) return null;
    this.p = j;
    return this.u.templates.tmplRef(ents[0]!);
  }
  /** If the template argument at the cursor ends in `...` (before the ',' or '>' that ends it), the index of that `...`. */
  private tmplArgDotsAhead(): number {
    let depth = 0;
    for (let j = this.p; j < this.end; j++) {
      const t = this.u.text(j);
      if (this.u.toks.kind[j] === Tok.EOF) return -1;
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (--depth < 0) return -1; }
      else if (depth === 0 && (t === ',' || t === '>' || t === '>>')) return j > this.p && this.u.text(j - 1) === '...' ? j - 1 : -1;
      else if (t === ';') return -1;
    }
    return -1;
  }
  closeAngle(): void {
    if (this.halfGt) { this.halfGt = false; this.p++; return; }
    if (this.at('>>')) { this.halfGt = true; return; }
    this.expect('>');
  }
  /** A class template name followed by `<args>` at the cursor (the name at offset 0): the specialisation's type. */
  private templateIdType(name: string, ns: string[], exact: boolean): CType | null {
    const ents = !exact && ns === this.ns ? this.visibleTemplates(name, 'record') : this.u.templateEntries(name, ns, 'record', exact);
    if (!ents.length || !this.at('<', 1)) return null;
    this.p++;
    const args = this.parseTemplateArgs();
    if (this.u.index.decls[ents[0]!]!.kind === 'using') return this.u.templates.instantiateAlias(ents[0]!, args, this);
    return { k: 'record', rec: this.u.templates.instantiateClass(ents[0]!, args, this), q: 0 };
  }
  /** After `operator`: the operator (or conversion type) of an operator-function-id. */
  parseOperatorId(): { op: string; name: string; conv?: CType } {
    if (this.at('(') && this.at(')', 1)) { this.p += 2; return { op: '()', name: 'operator()' }; }
    if (this.at('[') && this.at(']', 1)) { this.p += 2; return { op: '[]', name: 'operator[]' }; }
    if (this.at('new') || this.at('delete')) {
      // a class's own allocation functions (static members); the global ones stay unread
      if (!this.recordStack.length) throw new Unsupported(`operator ${this.tx()}`);
      const w = this.tx(); this.p++;
      if (this.at('[') && this.at(']', 1)) { this.p += 2; return { op: w + '[]', name: `operator ${w}[]` }; }
      return { op: w, name: `operator ${w}` };
    }
    if (this.kind() === Tok.Punct) { const op = this.tx(); this.p++; return { op, name: 'operator' + op }; }
    if (this.kind() === Tok.String) throw new Unsupported('user-defined literal');
    // conversion-type-id: type specifiers and pointer operators, no parentheses
    const start = this.p;
    const ds = this.parseDeclSpecs();
    if (!ds.ty) this.syntax('expected a type specifier', 79);
    let t = ds.ty;
    for (;;) {
      if (this.eat('*')) { let q = 0; for (;;) { if (this.eat('const')) q |= Q.Const; else if (this.eat('volatile')) q |= Q.Volatile; else break; } t = ptrTo(t, q); continue; }
      if (this.eat('&')) { t = refTo(t); continue; }
      if (this.eat('&&')) { t = refTo(t, true); continue; }
      break;
    }
    const words: string[] = [];
    for (let j = start; j < this.p; j++) words.push(this.u.text(j));
    return { op: 'cv', name: 'operator ' + words.join(' '), conv: t };
  }
  /** Length in tokens of a balanced `<...>` starting at offset i (0 when not at '<'). */
  angleLength(i: number): number {
    if (!this.at('<', i)) return 0;
    let depth = 0;
    for (let j = i; ; j++) {
      const k = this.kind(j);
      if (k === Tok.EOF) return 0;
      const t = this.tx(j);
      if (t === '<') depth++;
      else if (t === '>') { depth--; if (depth === 0) return j - i + 1; }
      else if (t === '>>') { depth -= 2; if (depth <= 0) return j - i + 1; }
      else if (t === '(' || t === '[') { const save = this.p; this.p += j; this.skipBalanced(); const n = this.p - save; this.p = save; j = n - 1; }
      else if (t === ';' || t === '{' || t === '}') return 0;
    }
  }
  /** Reading a partial specialisation's template arguments: `P...` is a pattern, not an expansion. */
  packPatterns = false;
  /** Reading an alias template for a pattern's arguments (its parameters' types are placeholders). */
  patternTyping = false;
  /** Parsing a generic lambda's parameters: `auto` invents template parameters (bound: their deduced types). */
  autoParams: { n: number; bound: CType[] | null } | null = null;
  /** Parsing a parameter list (a `...` after the type makes a function parameter pack), and whether one was seen. */
  private inParams = false;
  private sawPackDots = false;
  parseParams(): Suffix & { k: 'fn' } {
    this.expect('(');
    const params: CType[] = [], names: string[] = [], defaults: (number | null)[] = [], pos: Pos[] = [];
    const packs: { name: string; first: number; count: number }[] = [];
    let variadic = false;
    if (this.at('void') && this.at(')', 1)) { this.p += 2; return { k: 'fn', params, variadic, names, defaults, pos }; }
    while (!this.at(')')) {
      if (this.eat('...')) { variadic = true; break; }
      const start = this.p;
      const one = () => {
        const savedIn = this.inParams;
        this.inParams = true; this.sawPackDots = false;
        try {
          const ds = this.parseDeclSpecs();
          if (!ds.ty && ds.auto && this.autoParams) {
            // a generic lambda's `auto` parameter: an invented template parameter (a placeholder, or its deduced type)
            const k = this.autoParams.n++;
            const t = this.autoParams.bound ? this.autoParams.bound[k] : placeholderType(k);
            if (!t) throw new Unsupported('generic lambda parameter');
            ds.ty = withQ(t, (ds as DeclSpec & { q: number }).q);
          }
          if (!ds.ty) { if (ds.auto) throw new Unsupported('auto parameter'); this.syntax('expected a type specifier', 79); }
          const d = this.parseDeclarator(ds.ty, true);
          let t = d.ty;
          if (t.k === 'array') t = ptrTo(t.elem, 0);
          else if (t.k === 'func') t = ptrTo(t);
          return { d, t, pack: this.sawPackDots };
        } finally { this.inParams = savedIn; }
      };
      const { d, t, pack } = one();
      if (pack && hasPack(t)) {
        // `Ts... args` of a specialisation: one parameter per element of the bound pack(s)
        const end = this.p;
        const elems = this.expandPack(start, end, () => { const r = one(); return r.t; }, false);
        this.p = end;
        packs.push({ name: d.name, first: params.length, count: elems.length });
        for (const et of elems) { params.push(et); names.push(d.name); pos.push(d.name ? d.pos : this.p); defaults.push(null); }
        if (!this.eat(',')) break;
        continue;
      }
      params.push(pack ? { k: 'error', q: 0, packExp: t } as CType : t); names.push(d.name); pos.push(d.name ? d.pos : this.p);
      if (this.eat('=')) {
        defaults.push(this.p);
        let depth = 0;
        while (this.kind() !== Tok.EOF) {
          const s = this.tx();
          if (depth === 0 && (s === ',' || s === ')')) break;
          if (s === '(' || s === '[' || s === '{') depth++;
          if (s === ')' || s === ']' || s === '}') depth--;
          this.p++;
        }
      } else defaults.push(null);
      if (!this.eat(',')) break;
    }
    this.expect(')');
    const r: Suffix & { k: 'fn' } = { k: 'fn', params, variadic, names, defaults, pos };
    if (packs.length) (r as { packs?: typeof packs }).packs = packs;
    return r;
  }
  /**
   * A pack expansion whose pattern is the tokens [start, end): the pattern parsed once per element, with
   * the template parameter packs and function parameter packs it names bound to that element. With
   * `dots`, the token at `end` is the `...` and the cursor is left after it.
   */
  expandPack<T>(start: number, end: number, one: () => T, dots = true): T[] {
    const types = new Map<string, CType[]>(), vars = new Map<string, VarSym[]>(), vals = new Map<string, { ty: CType; vs: bigint[] }>();
    for (let j = start; j < end; j++) {
      if (this.u.toks.kind[j] !== Tok.Ident) continue;
      const n = this.u.text(j);
      const v = this.packVar(n);
      if (v) { vars.set(n, v); continue; }
      const ts = this.tscope?.get(n);
      const el = ts && ts.kind === 'type' ? packOf(ts.ty) : undefined;
      if (el) types.set(n, el);
      const pv = packValsOf(ts);
      if (pv) vals.set(n, { ty: (ts as { ty: CType }).ty, vs: pv });
      if (valPackParamOf(ts) !== undefined) throw new Unsupported('expansion of a non-type parameter pack in a pattern');
    }
    const lens = new Set([...[...types.values()].map(x => x.length), ...[...vars.values()].map(x => x.length), ...[...vals.values()].map(x => x.vs.length)]);
    if (lens.size !== 1) throw new Unsupported(lens.size ? 'pack expansion of packs of different lengths' : 'pack expansion without a parameter pack');
    const n = [...lens][0]!;
    const out: T[] = [];
    const savedT = this.tscope;
    for (let i = 0; i < n; i++) {
      const ts = new Map(savedT ?? []);
      for (const [name, el] of types) ts.set(name, { kind: 'type', name, ty: el[i]! });
      for (const [name, el] of vals) ts.set(name, { kind: 'enumconst', name, ty: el.ty, value: el.vs[i]! });
      this.tscope = ts;
      this.push();
      for (const [name, vs] of vars) this.scopes[this.scopes.length - 1]!.set(name, vs[i]!);
      try {
        this.p = start;
        out.push(one());
        if (this.p !== end) this.syntax('expected a "..."', 18);
      } finally { this.pop(); this.tscope = savedT; }
    }
    this.p = dots ? end + 1 : end;
    return out;
  }
  /**
   * If the template argument at the cursor, read as a type (its '<' '>' nest), is a pack expansion `pattern...`
   * ended by ',' or the list's '>', the index of its `...`; else -1.
   */
  private typeArgDotsAhead(): number {
    let angle = 0;
    for (let j = this.p; j < this.end; j++) {
      const t = this.u.text(j);
      if (this.u.toks.kind[j] === Tok.EOF || t === ';' || t === '{' || t === '}') return -1;
      if (t === '(' || t === '[') { j = this.balancedEnd(j); continue; }
      if (t === ')' || t === ']') return -1;
      if (t === '<') angle++;
      else if (t === '>' || t === '>>') { if (angle === 0) return -1; angle -= t.length; if (angle < 0) return -1; }
      else if (t === ',' && angle === 0) return -1;
      else if (t === '...' && angle === 0) { const n = this.u.text(j + 1); return n === ',' || n === '>' || n === '>>' ? j : -1; }
    }
    return -1;
  }
  /** Whether tokens [start, end) name a template type parameter pack bound to its elements. */
  private namesTypePack(start: number, end: number): boolean {
    for (let j = start; j < end; j++) {
      if (this.u.toks.kind[j] !== Tok.Ident) continue;
      const ts = this.tscope?.get(this.u.text(j));
      if (ts && ts.kind === 'type' && packOf(ts.ty)) return true;
    }
    return false;
  }
  /** The elements of the function parameter pack named `name` in scope, if it is one. */
  packVar(name: string): VarSym[] | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]!.get(name);
      if (s) return s.kind === 'var' ? (s as VarSym & { packVars?: VarSym[] }).packVars : undefined;
    }
    return undefined;
  }
  /** If the argument at the cursor is a pack expansion `pattern...` (ended by ',' or a closing bracket), the index of its `...`. */
  packDotsAhead(): number {
    let depth = 0;
    for (let j = this.p; ; j++) {
      const k = this.u.toks.kind[j];
      if (k === Tok.EOF || j >= this.end) return -1;
      const t = this.u.text(j);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (depth === 0) return j > this.p && this.u.text(j - 1) === '...' ? j - 1 : -1; depth--; }
      else if (depth === 0 && (t === ',' || t === ';')) return j > this.p && this.u.text(j - 1) === '...' ? j - 1 : -1;
    }
  }
  /** Call/constructor arguments up to `close`, pack expansions expanded. */
  parseArgs(close: string, noBrace?: string): Expr[] {
    const args: Expr[] = [];
    while (!this.at(close)) {
      if (noBrace && this.at('{')) throw new Unsupported(noBrace);
      const dots = this.packDotsAhead();
      if (dots >= 0) args.push(...this.expandPack(this.p, dots, () => this.parseAssign()));
      else args.push(this.parseAssign());
      if (this.at('...')) throw new Unsupported('pack expansion');
      if (!this.eat(',')) break;
    }
    return args;
  }
  parseTypeName(): CType {
    const ds = this.parseDeclSpecs();
    if (!ds.ty) this.syntax('expected a type specifier', 79);
    const d = this.parseDeclarator(ds.ty, true);
    return d.ty;
  }

  // ------------------------------------------------------------------ namespace-scope declarations (on demand)
  /** Parse one top-level declaration (the skimmer's range) and return the entities it declares. */
  parseTopDecl(flagsInAnon: boolean): Sym[] {
    const out: Sym[] = [];
    if (this.at('template')) throw new Unsupported('template declaration');
    if (this.at('using')) {
      this.p++;
      if (this.at('namespace')) return out;
      // using-declaration (`using ::printf;`) or alias (`using T = int;`)
      if (this.kind() === Tok.Ident && this.at('=', 1)) {
        const name = this.tx(); this.p += 2;
        const defines = this.at('enum') && !this.at('class', 1) && !this.at('struct', 1);
        const ty = this.parseTypeName();
        // an alias declaration names its type like a typedef (sugarOf)
        out.push({ kind: 'type', name, ty, sugar: this.ns.includes('(anonymous)') ? undefined : [...this.ns, name].join('::') } as Sym);
        // `using E = enum E { a, b };`: the enum's tag and enumerators are declared here as well
        if (defines && ty.k === 'enum') out.push({ kind: 'type', name: ty.en.name, ty: unqual(ty) }, ...this.enumConsts(ty));
        return out;
      }
      let path: string[] = []; let abs = false;
      if (this.eat('::')) abs = true;
      while (this.kind() === Tok.Ident && this.at('::', 1)) { path.push(this.tx()); this.p += 2; }
      const name = this.tx(); this.p++;
      return this.u.lookupPath(path, name, this.ns, abs);
    }
    if (this.at('static_assert') || this.at('asm') || this.at('__asm__')) return out;
    if (this.atOutOfLineCtor()) {
      const ds: DeclSpec = { ty: C.void, typedef: false, extern: false, externC: false, static: false, inline: false, constexpr: false, auto: false, attrs: {}, tagOnly: false };
      for (;;) {
        if (this.parseAttributes(ds.attrs)) continue;
        if (this.at('inline') || this.at('__inline__') || this.at('constexpr') || this.at('explicit')) { this.p++; continue; }
        break;
      }
      const d = this.parseDeclarator(C.void, false);
      return this.defineOutOfLine(d, ds);
    }
    const ds = this.parseDeclSpecs();
    if (this.at(';')) {
      if (ds.ty && ds.ty.k === 'record') out.push({ kind: 'type', name: ds.ty.rec.name, ty: unqual(ds.ty) });
      if (ds.ty && ds.ty.k === 'enum') out.push({ kind: 'type', name: ds.ty.en.name, ty: unqual(ds.ty) }, ...this.enumConsts(ds.ty));
      return out;
    }
    if (ds.ty && ds.ty.k === 'enum' && ds.tagOnly) out.push(...this.enumConsts(ds.ty));
    if (!ds.ty) {
      if (!ds.auto) this.syntax('expected a type specifier', 79);
      // `auto f(...)`: a return type deduced from the body (or given after ->)
      ds.ty = withQ((ds as DeclSpec & { dcauto?: boolean }).dcauto ? DECLTYPE_AUTO : AUTO, (ds as DeclSpec & { q: number }).q);
    }
    for (;;) {
      const d = this.parseDeclarator(ds.ty, false);
      if (ds.auto && d.ty.k !== 'func') {
        // `constexpr auto begin = __begin::__fn{};` (CCCL's customization point objects): the initializer's type
        if (!isAuto(unqual(d.ty)) || !this.at('=')) throw new Unsupported('auto variable at namespace scope (form)');
        const save = this.p;
        this.p++;
        const e = this.parseAssign();
        this.p = save;
        if (e.ty.k === 'error') throw new Unsupported('auto variable at namespace scope (initializer) ' + this.u.diags.map(x => x.message).join(';') + ' @' + this.u.text(save - 2));
        const t = e.ty.k === 'array' ? ptrTo(e.ty.elem) : e.ty.k === 'func' ? ptrTo(e.ty) : unqual(e.ty);
        d.ty = withQ(t, d.ty.q);
      }
      if (d.qual.length) {
        if (d.ty.k === 'func') return this.defineOutOfLine(d, ds);
        throw new Unsupported('qualified declarator (out-of-line static data member)');
      }
      const attrs = { ...ds.attrs, ...d.attrs };
      if (ds.typedef) {
        const t = d.ty;
        if (t.k === 'record' && !t.rec.name && !t.rec.typedefName) t.rec.typedefName = d.name;
        if (t.k === 'enum' && !t.en.name && !t.en.typedefName) t.en.typedefName = d.name;
        // named through it, the type keeps the typedef's name for the host stub (sugarOf); cicc spells the
        // __device_builtin__ ones (cudaTextureObject_t) as their type
        const qual = [...this.ns.filter(s => s !== '(anonymous)'), d.name].join('::');
        const sugar = this.ns.includes('(anonymous)') || attrs.deviceBuiltin ? undefined : qual;
        out.push({ kind: 'type', name: d.name, ty: t, sugar } as Sym);
      } else if (d.ty.k === 'func') {
        const f = this.u.declareFunction(d, ds, attrs, this.ns, flagsInAnon, this.instantiating);
        if (this.at('{')) {
          f.bodyStart = this.p; this.skipBalanced(); f.bodyEnd = this.p - 1;
          (f as FuncSym & { bodyIsDevice?: boolean }).bodyIsDevice = !!(attrs.device || attrs.global);
          f.paramNames = d.paramNames; f.pos = d.pos;
          out.push(f);
          return out;
        }
        out.push(f);
      } else {
        const v = this.u.declareVariable(d, ds, attrs, this.ns, flagsInAnon, this);
        out.push(v);
      }
      if (!this.eat(',')) break;
    }
    return out;
  }
  /** At `[attrs] [inline] X::X(`, `X::~X(` or `X::operator T(` (an out-of-line constructor/destructor/conversion function definition)? */
  private atOutOfLineCtor(): boolean {
    let i = 0;
    for (;;) {
      const t = this.tx(i);
      if (t === '__attribute__') { let d = 0; let j = i + 1; do { const x = this.tx(j); if (x === '(') d++; else if (x === ')') d--; j++; } while (d > 0 && this.kind(j) !== Tok.EOF); i = j; continue; }
      if (t === 'inline' || t === '__inline__' || t === 'constexpr' || t === 'explicit') { i++; continue; }
      break;
    }
    let last = '';
    for (;;) {
      if (this.kind(i) === Tok.Ident && this.at('::', i + 1)) { last = this.tx(i); i += 2; continue; }
      // `C<T>::C(` of a class template (read while loading its out-of-line members)
      if (this.outOfLineOf && this.kind(i) === Tok.Ident && this.at('<', i + 1) && this.at('::', i + 1 + this.angleLength(i + 1))) {
        last = this.tx(i); i += 2 + this.angleLength(i + 1); continue;
      }
      break;
    }
    if (!last) return false;
    if (this.at('~', i)) return this.tx(i + 1) === last;
    // `X::operator T() const`: a conversion function has no return type either
    if (this.tx(i) === 'operator' && this.kind(i + 1) !== Tok.Punct) return true;
    return this.tx(i) === last && this.at('(', i + 1);
  }
  /** An out-of-line member function definition `R C::f(...) {...}`: attach the body to the member declared in C. */
  private defineOutOfLine(d: DeclaratorInfo, ds: DeclSpec): Sym[] {
    let rec: RecordDecl | null = null;
    const qualRec = (d as DeclaratorInfo & { qualRec?: RecordDecl }).qualRec;
    for (const q of qualRec ? [] : d.qual) {
      const syms: Sym[] = rec ? this.classMember(rec, q, true) : this.lookup(q);
      const t: Sym | undefined = syms.find((x: Sym) => x.kind === "type" && x.ty.k === "record");
      if (!t || t.kind !== 'type' || t.ty.k !== 'record') {
        if (!rec && this.u.resolveIn(this.ns, q).kind === 'ns') throw new Unsupported('namespace-qualified function definition');
        throw new Unsupported(`out-of-line definition in ${q}`);
      }
      rec = t.ty.rec;
    }
    if (qualRec) rec = qualRec;
    if (!rec) throw new Unsupported('qualified declarator');
    const fty = d.ty as CType & { k: 'func' };
    const fnQ = (d as DeclaratorInfo & { fnQ?: number }).fnQ ?? 0;
    const m = [...(rec.methods ?? []), ...(this.outOfLineTarget ? [this.outOfLineTarget] : [])].find(x => x.name === d.name && (x.thisQ ?? 0) === fnQ && x.ty.params.length === fty.params.length
      && x.ty.params.every((p, i) => typeName(unqual(p)) === typeName(unqual(fty.params[i]!))));
    if (!m) throw new Unsupported(`out-of-line definition of ${rec.name}::${d.name} not matched to a member`);
    const attrs = { ...ds.attrs, ...d.attrs };
    m.isDevice ||= !!attrs.device; m.isHost ||= !!attrs.host;
    m.forceinline ||= !!attrs.alwaysInline; m.noinline ||= !!attrs.noinline;
    m.defaults = m.defaults.map((x, i) => x ?? d.defaults[i] ?? null);
    if (this.at(':')) {
      m.initStart = this.p; this.p++;
      for (;;) {
        while (this.kind() !== Tok.EOF && !this.at('(') && !this.at('{')) this.p++;
        this.skipBalanced();
        this.eat('...');
        if (!this.eat(',')) break;
      }
    }
    if (this.at('{')) {
      m.bodyStart = this.p; this.skipBalanced(); m.bodyEnd = this.p - 1; m.paramNames = d.paramNames;
      if (qualRec || this.outOfLineTarget) m.tscope = this.tscope ?? undefined;   // the definition's own names for the template parameters
      if (packsOf(fty).length) m.ty = withPacks({ ...m.ty } as CType & { k: 'func' }, { packs: packsOf(fty) }) as typeof m.ty;   // its parameter packs, by the definition's names
    }
    return [];
  }
  private enumConsts(t: CType): Sym[] {
    if (t.k !== 'enum' || t.en.scoped) return [];
    return [...t.en.consts].map(([name, value]) => ({ kind: 'enumconst' as const, name, ty: t, value }));
  }

  /** Parse an initialiser for a global/local of type ty ('=' already consumed or at '{'). */
  parseInitializer(ty: CType): Init {
    if (this.at('{')) return this.parseInitList(ty);
    const pos = this.p;
    const e = this.parseAssign();
    return this.initFromExpr(e, ty, pos);
  }
  initFromExpr(e: Expr, ty: CType, pos: Pos): Init {
    if (ty.k === 'array' && e.k === 'str' && e.ty.k === 'array') return { k: 'expr', e };
    const c = implicitConvert(e, ty);
    if (!c && e.ty.k === 'record' && ty.k !== 'record') { this.u.error(pos, 415, `no suitable conversion function from "${typeName(e.ty)}" to "${typeName(ty)}" exists`); return { k: 'expr', e: errExpr(pos) }; }
    if (!c) { this.u.error(pos, 144, `a value of type "${typeName(e.ty)}" cannot be used to initialize an entity of type "${typeName(ty)}"`); return { k: 'expr', e: errExpr(pos) }; }
    return { k: 'expr', e: c };
  }
  parseInitList(ty: CType): Init {
    const pos = this.p;
    this.expect('{');
    const items: { off: number; path: number[]; init: Init }[] = [];
    if (ty.k === 'array') {
      let i = 0;
      const es = sizeOfC(ty.elem);
      // `{Is...}`, `{f(xs)...}`: one element per element of the pack
      const src = this.initItems();
      while (!src.end()) {
        if (this.at('[') && !src.expanded()) throw new Unsupported('designated initializer');
        items.push({ off: i * es, path: [i], init: src.take(ty.elem) });
        i++;
      }
      this.expect('}');
      // elements without an initialiser: the default constructor of a class element
      const d = ty.n !== null && i < ty.n ? this.defaultInit(ty.elem, pos) : null;
      if (d) for (let j = i; j < ty.n!; j++) items.push({ off: j * es, path: [j], init: d });
      return { k: 'list', ty, items, pos };
    }
    if (ty.k === 'record' && (ctorsOf(ty.rec).length || ctorTmplsOf(ty.rec).length)) {
      const args = this.parseArgs('}', 'braced argument to a constructor');
      this.expect('}');
      return this.initFromArgs(ty, args, true, pos);
    }
    if (ty.k === 'record') {
      const fields = ty.rec.fields;
      const src = this.initItems();
      let i = 0;
      while (!src.end()) {
        if (this.at('.') && !src.expanded()) throw new Unsupported('designated initializer');
        while (fields[i]?.pad) i++;
        const f = fields[i];
        if (!f) { this.u.error(this.p, 146, 'too many initializer values'); this.skipInitTail(); break; }
        // `std::array<int, 4> a = {1, 2, 3, 4}`: the inner braces of the array member elided
        const ft = f.ty;
        const elide = ft.k === 'array' && !src.braced();
        items.push({ off: f.offset, path: [i], init: ft.k === 'array' && elide ? this.parseElidedArray(ft, src) : src.take(ft) });
        i++;
        if (ty.rec.tag === 'union') break;
      }
      this.expect('}');
      return { k: 'list', ty, items, pos };
    }
    // scalar in braces
    if (this.at('}')) { this.p++; return { k: 'zero', ty }; }
    const init = this.parseInitializer(ty);
    this.eat(',');
    this.expect('}');
    return init;
  }
  /** An array member initialised from the enclosing list without its own braces ([dcl.init.aggr] brace
   *  elision): it takes as many of the list's following initializers as it has elements. */
  private parseElidedArray(ty: CType & { k: 'array' }, src: InitItems): Init {
    const pos = this.p;
    const items: { off: number; path: number[]; init: Init }[] = [];
    const es = sizeOfC(ty.elem);
    const n = ty.n ?? 0;
    for (let j = 0; j < n && !src.end(); j++) {
      const elem = ty.elem;
      if (elem.k === 'record' && !src.braced()) throw new Unsupported('brace elision in an aggregate initializer');
      const init = elem.k === 'array' && !src.braced() ? this.parseElidedArray(elem, src) : src.take(elem);
      items.push({ off: j * es, path: [j], init });
    }
    const d = items.length < n ? this.defaultInit(ty.elem, pos) : null;
    if (d) for (let j = items.length; j < n; j++) items.push({ off: j * es, path: [j], init: d });
    return { k: 'list', ty, items, pos };
  }
  /**
   * The initializers of the braced list at the cursor (after its '{'), one at a time, each with the ',' after it:
   * a pack expansion (`A{static_cast<T>(in[Is])...}`) gives one expression per element.
   */
  private initItems(): InitItems {
    const pending: Expr[] = [];
    let closed = false;
    const fill = (): void => {
      while (pending.length === 0 && !closed && !this.at('}')) {
        const dots = this.at('{') ? -1 : this.packDotsAhead();
        if (dots < 0) return;
        pending.push(...this.expandPack(this.p, dots, () => this.parseAssign()));
        if (!this.eat(',')) closed = true;
      }
    };
    return {
      end: () => { fill(); return pending.length === 0 && (closed || this.at('}')); },
      expanded: () => pending.length > 0,
      braced: () => { fill(); return pending.length === 0 && (this.at('{') || this.kind() === Tok.String); },
      take: (t: CType) => {
        fill();
        if (pending.length) { const e = pending.shift()!; return this.initFromExpr(e, t, e.pos); }
        const init = this.parseInitializer(t);
        if (!this.eat(',')) closed = true;
        return init;
      },
    };
  }
  private skipInitTail(): void { while (!this.at('}') && this.kind() !== Tok.EOF) { if (this.at('{') || this.at('(')) this.skipBalanced(); else this.p++; } }

  // ------------------------------------------------------------------ function bodies
  parseFunctionBody(f: FuncSym): Stmt {
    this.fn = f;
    const fty = f.ty;
    this.retTy = fty.ret;
    this.push();
    if (f.cls) {
      this.cls = f.cls;
      if (!f.staticMember) {
        const recTy: CType = withQ({ k: 'record', rec: f.cls, q: 0 }, f.thisQ ?? 0);
        f.thisVar = this.u.newVar('this', ptrTo(recTy), 'param', f.pos);
      }
    }
    f.params = fty.params.map((t, i) => {
      const v = this.u.newVar(f.paramNames[i] ?? '', t, 'param', f.pos);
      if (v.name) this.declare(v);
      return v;
    });
    for (const pk of packsOf(fty)) {
      // a function parameter pack: its name stands for its elements (only inside expansions and sizeof...)
      const pv = this.u.newVar(pk.name, C.int, 'param', f.pos) as VarSym & { packVars?: VarSym[] };
      pv.packVars = f.params.slice(pk.first, pk.first + pk.count);
      if (pk.name) this.declare(pv);
    }
    const pre: Stmt[] = f.ctor ? this.parseMemInitializers(f) : [];
    const body = this.parseBlock();
    if (isAuto(f.ty.ret)) f.ty = { ...f.ty, ret: C.void };   // no return statement with a value
    this.pop();
    for (const g of this.gotos) if (!this.labels.has(g.label)) this.u.error(g.pos, 114, `label "${g.label}" was referenced but not defined`);
    return pre.length ? { k: 'block', body: [...pre, body] } : body;
  }
  /** `*this` as an lvalue. */
  thisObj(pos: Pos): Expr {
    const tv = this.fn?.thisVar;
    if (!tv) { this.u.error(pos, 245, 'a nonstatic member reference must be relative to a specific object'); return errExpr(pos); }
    const pt = tv.ty as CType & { k: 'ptr' };
    return mk(pt.to, pos, true, { k: 'deref', e: rval(mk(tv.ty, pos, true, { k: 'var', sym: tv })) });
  }
  /** A constructor's mem-initializers (bases and members, in declaration order) and default member initialisers. */
  private parseMemInitializers(f: FuncSym): Stmt[] {
    const rec = f.cls!;
    type Given = { args: Expr[]; braced: boolean; pos: Pos };
    const given = new Map<string, Given>();
    const givenBase = new Map<RecordDecl, Given>();
    let delegate: Given | undefined;
    let count = 0;
    if (f.initStart !== undefined && f.initStart >= 0) {
      const save = this.p;
      this.p = f.initStart + 1;
      for (;;) {
        const pos = this.p;
        this.eat('::');
        let name = this.tx(); this.p++;
        while (this.at('::')) { this.p++; name = this.tx(); this.p++; }
        if (this.at('<')) this.p += this.angleLength(0);
        const braced = this.at('{');
        const cls = this.memInitClass(rec, name, pos);
        this.p++;
        const close = braced ? '}' : ')';
        const args = this.parseArgs(close);
        this.expect(close);
        const g = { args, braced, pos };
        if (cls === rec) delegate = g;
        else if (cls) givenBase.set(cls, g);
        else given.set(name, g);
        count++;
        if (!this.eat(',')) break;
      }
      this.p = save;
    }
    const out: Stmt[] = [];
    const self = this.thisObj(f.pos);
    if (delegate) {
      // a delegating constructor: the target constructor initialises the whole object (nothing else may be named)
      if (count > 1) throw new Unsupported(`delegating constructor of ${rec.name} with other mem-initializers`);
      out.push({ k: 'init', target: self, init: this.initFromArgs({ k: 'record', rec, q: 0 }, delegate.args, delegate.braced, delegate.pos), pos: f.pos });
      return out;
    }
    const used = new Set<string>();
    for (const b of rec.bases ?? []) {
      let g = givenBase.get(b.rec);
      if (!g && given.has(b.rec.name)) { g = given.get(b.rec.name); used.add(b.rec.name); }
      const target = this.baseSubobject(self, rec, b.rec, f.pos);
      const init = g ? this.initFromArgs(b.field.ty, g.args, g.braced, g.pos) : this.defaultInit(b.field.ty, f.pos);
      if (init) out.push({ k: 'init', target, init, pos: f.pos });
    }
    for (const fld of rec.fields) {
      if (fld.isBase) continue;
      if (fld.anon && this.anonMemInits(rec, fld, self, given, used, out, f.pos)) continue;
      const g = given.get(fld.name);
      if (g) used.add(fld.name);
      const target = mk(fld.ty, f.pos, true, { k: 'member', e: self, field: fld, arrow: false });
      let init: Init | null;
      if (g) init = this.initFromArgs(fld.ty, g.args, g.braced, g.pos);
      else if (fld.defaultInit !== undefined) init = this.memberDefault(fld);
      else init = this.defaultInit(fld.ty, f.pos);
      if (init) out.push({ k: 'init', target, init, pos: f.pos });
    }
    // a mem-initializer we could not place must not be dropped silently
    for (const name of given.keys()) if (!used.has(name)) throw new Unsupported(`mem-initializer ${name} of ${rec.name}`);
    return out;
  }
  /**
   * Mem-initializers naming members of the anonymous union `fld` (`U(int x) : a(x) {}` with `union { int a;
   * float f; }`): the named member is initialised through the unnamed one. False when none names one.
   */
  private anonMemInits(rec: RecordDecl, fld: Field, self: Expr, given: Map<string, { args: Expr[]; braced: boolean; pos: Pos }>, used: Set<string>, out: Stmt[], pos: Pos): boolean {
    const named = [...given.keys()].filter(n => anonPath(rec, n)?.[0] === fld);
    if (named.length === 0) return false;
    if (fld.ty.k !== 'record' || fld.ty.rec.tag !== 'union' || named.length > 1) throw new Unsupported(`mem-initializers of members of an anonymous ${fld.ty.k === 'record' ? fld.ty.rec.tag : 'member'}`);
    const g = given.get(named[0]!)!;
    used.add(named[0]!);
    let target = self;
    for (const fl of anonPath(rec, named[0]!)!) target = mk(fl.ty, pos, true, { k: 'member', e: target, field: fl, arrow: false });
    out.push({ k: 'init', target, init: this.initFromArgs(target.ty, g.args, g.braced, g.pos), pos });
    return true;
  }
  /**
   * The class a mem-initializer names: the constructor's own class (a delegating constructor), or a base
   * named other than by its own name, through an alias template or a typedef (libcu++'s
   * `__atomic_ref_impl<_Tp>(__ref)`), read as a type. Undefined for members and bases named by their name.
   */
  private memInitClass(rec: RecordDecl, name: string, at: number): RecordDecl | undefined {
    const bases = rec.bases ?? [];
    if (bases.some(b => b.rec.name === name)) return undefined;
    if (name === rec.name) return rec;
    if (bases.length === 0 || rec.fields.some(fl => !fl.isBase && fl.name === name) || anonPath(rec, name)) return undefined;
    const save = this.p, dl = this.u.diags.length, ec = this.u.errorCount;
    try {
      this.p = at;
      const t = this.parseDeclSpecs().ty;
      return t && t.k === 'record' ? (t.rec === rec ? rec : bases.find(b => b.rec === t.rec)?.rec) : undefined;
    } catch {
      return undefined;   // not a type: a name nothing matches is reported below, not dropped
    } finally {
      this.p = save; this.u.diags.length = dl; this.u.errorCount = ec;
    }
  }
  /** A default member initialiser, parsed in the class's scope. */
  memberDefault(fld: { ty: CType; defaultInit?: number }): Init | null {
    if (fld.defaultInit === undefined) return null;
    const save = this.p, end = this.end;
    this.p = fld.defaultInit; this.end = this.u.toks.count;
    try {
      if (this.at('{')) return this.parseInitList(fld.ty);
      return this.parseInitializer(fld.ty);
    } finally { this.p = save; this.end = end; }
  }
  /** Initialisation of an object of type ty from `(args)` or `{args}`. */
  initFromArgs(ty: CType, args: Expr[], braced: boolean, pos: Pos): Init {
    if (ty.k === 'record') {
      const ctors = ctorsOf(ty.rec);
      const rec = ty.rec;
      const copyArg = (t: CType | undefined) => !!t && (t.k === 'ref' ? t.to : t).k === 'record' && ((t.k === 'ref' ? t.to : t) as CType & { k: 'record' }).rec === rec;
      if (args.length === 1 && args[0]!.ty.k === 'record' && args[0]!.ty.rec === rec && !ctors.some(c => c.ty.params.length >= 1 && copyArg(c.ty.params[0]))) {
        // the implicit copy constructor (an exact match; converting constructors cannot beat it)
        return { k: 'expr', e: args[0]! };
      }
      // a header's constructor template we could not use: its constraints (libcu++'s concept emulation,
      // SFINAE on expressions) may be our misreading, so no match then is a fallback, not an error
      let headerTmplFailed: string | null = null;
      for (const mt of ctorTmplsOf(ty.rec)) {
        // constructor templates: the specialisations deduced from these arguments join the candidates
        const f = this.tryInstantiateMember(mt, [], args, r => { if (!this.u.isUserFile(mt.start)) headerTmplFailed ??= r; });
        if (!f || ctors.includes(f)) continue;
        const p0 = f.ty.params[0];
        const a0 = args.length === 1 ? unqual(args[0]!.ty) : null;
        if (p0 && a0 && a0.k === 'record' && a0.rec === ty.rec) {
          // a copy: the copy constructor wins over a template's `(const C&)` and `(C)`; a forwarding `(U&&)` would beat it
          const pt = p0.k === 'ref' ? p0.to : p0;
          // (a `(C&)` template cannot bind a const or an rvalue argument: not viable then, the copy constructor serves)
          const binds = !(p0.k === 'ref' && p0.rv) && args[0]!.lv && !isXvalue(args[0]!) && !(args[0]!.ty.q & Q.Const);
          if (p0.k === 'ref' && !(pt.q & Q.Const) && pt.k === 'record' && pt.rec === ty.rec && binds) throw new Unsupported(`constructor template of ${ty.rec.name} taking it by non-const reference`);
          continue;
        }
        ctors.push(f);
      }
      const unusable = () => new Unsupported(`constructor template of ${ty.rec.name}: ${headerTmplFailed}`);
      if (ctors.length) {
        const dl = this.u.diags.length, ec = this.u.errorCount;
        const f = this.resolveOverload(ctors, args, pos, ty.rec.name);
        if (!f && headerTmplFailed) { this.u.diags.length = dl; this.u.errorCount = ec; throw unusable(); }
        if (!f) return { k: 'expr', e: errExpr(pos) };
        if (f.defaulted && f.bodyStart < 0) {
          if (args.length === 0) return this.implicitDefault(ty, pos) ?? { k: 'zero', ty };
          if (args.length === 1) return { k: 'expr', e: args[0]! };
        }
        return { k: 'ctor', ty, f, args: this.convertArgs(f, args, pos) };
      }
      if (args.length === 0) return this.defaultInit(ty, pos) ?? { k: 'zero', ty };
      if (args.length === 1 && args[0]!.ty.k === 'record' && args[0]!.ty.rec === ty.rec) return { k: 'expr', e: args[0]! };
      if (args.length === 1 && !braced && args[0]!.ty.k === 'record') {
        // another class's conversion function (`__half_raw(h)`)
        const c = implicitConvert(args[0]!, ty);
        if (c) return { k: 'expr', e: c };
      }
      if (headerTmplFailed && args.length > 0) throw unusable();
      if (!braced) { this.u.error(pos, 289, `no instance of constructor "${ty.rec.name}::${ty.rec.name}" matches the argument list`); return { k: 'expr', e: errExpr(pos) }; }
      // aggregate initialisation from a braced list of expressions
      const items: { off: number; path: number[]; init: Init }[] = [];
      const fields = ty.rec.fields;
      let i = 0, k = 0;
      // an array member takes as many of the expressions as it has elements (brace elision: `array<T, N>{a, b, c}`)
      const elided = (t: CType & { k: 'array' }): Init => {
        const els: { off: number; path: number[]; init: Init }[] = [];
        const es = sizeOfC(t.elem);
        for (let j = 0; j < (t.n ?? 0) && k < args.length; j++) {
          const a = args[k]!;
          els.push({ off: j * es, path: [j], init: t.elem.k === 'array' && a.ty.k !== 'array' ? elided(t.elem) : (k++, this.initFromExpr(a, t.elem, a.pos)) });
        }
        const d = t.n !== null && els.length < t.n ? this.defaultInit(t.elem, pos) : null;
        if (d) for (let j = els.length; j < t.n!; j++) els.push({ off: j * es, path: [j], init: d });
        return { k: 'list', ty: t, items: els, pos };
      };
      while (k < args.length) {
        while (fields[i]?.pad) i++;
        const fl = fields[i];
        if (!fl) { this.u.error(args[k]!.pos, 146, 'too many initializer values'); return { k: 'expr', e: errExpr(pos) }; }
        const a = args[k]!;
        items.push({ off: fl.offset, path: [i], init: fl.ty.k === 'array' && a.ty.k !== 'array' ? elided(fl.ty) : (k++, this.initFromExpr(a, fl.ty, a.pos)) });
        i++;
      }
      return { k: 'list', ty, items, pos };
    }
    if (args.length === 0) return { k: 'zero', ty };
    if (args.length > 1) { this.u.error(pos, 146, 'too many initializer values'); return { k: 'expr', e: errExpr(pos) }; }
    return this.initFromExpr(args[0]!, ty, pos);
  }
  /** Default initialisation of a class object: its default constructor, or member defaults; null when nothing to do. */
  defaultInit(ty: CType, pos: Pos): Init | null {
    if (ty.k === 'array') {
      const each = ty.n !== null ? this.defaultInit(ty.elem, pos) : null;
      return each ? { k: 'list', ty, items: [], pos, partial: true, each } as Init : null;
    }
    if (ty.k !== 'record') return null;
    const ctors = ctorsOf(ty.rec);
    if (ctors.length) {
      const f = this.resolveOverload(ctors, [], pos, ty.rec.name);
      if (!f) return { k: 'expr', e: errExpr(pos) };
      if (f.defaulted && !f.body && f.bodyStart < 0) return this.implicitDefault(ty, pos);
      return { k: 'ctor', ty, f, args: this.convertArgs(f, [], pos) };
    }
    return this.implicitDefault(ty, pos);
  }
  /** The implicit default constructor: bases and members with default initialisation. */
  private implicitDefault(ty: CType & { k: 'record' }, pos: Pos): Init | null {
    const items: { off: number; path: number[]; init: Init }[] = [];
    ty.rec.fields.forEach((fl, i) => {
      const init = fl.defaultInit !== undefined ? this.memberDefault(fl) : this.defaultInit(fl.ty, pos);
      if (init) items.push({ off: fl.offset, path: [i], init });
    });
    if (!items.length && !isDynamic(ty.rec)) return null;   // a dynamic class's constructor at least sets the vptr
    return { k: 'list', ty, items, pos, partial: true } as Init;
  }
  private convertArgs(f: FuncSym, args: Expr[], pos: Pos): Expr[] {
    const e = this.buildCall(f, null, f.ty, args, pos);
    return e.k === 'call' ? e.args : [];
  }
  /** The base-class subobject `b` of the object `obj` (an lvalue of class type `from`). */
  baseSubobject(obj: Expr, from: RecordDecl, b: RecordDecl, pos: Pos): Expr {
    const path = basePath(from, b);
    if (!path) return errExpr(pos);
    let e = obj;
    let cur = from;
    for (const step of path) {
      const fld = cur.fields.find(x => x.isBase && x.ty.k === 'record' && x.ty.rec === step);
      const bty = withQ({ k: 'record', rec: step, q: 0 }, e.ty.q & (Q.Const | Q.Volatile));
      if (fld) e = mk(bty, pos, e.lv, { k: 'member', e, field: fld, arrow: false });
      else e = mk(bty, pos, true, { k: 'deref', e: cast(mk(ptrTo(e.ty), pos, false, { k: 'addr', e }), 'p2p', ptrTo(bty)) });   // empty base at offset 0
      cur = step;
    }
    return e;
  }
  parseBlock(): Stmt {
    this.expect('{');
    this.push();
    const body: Stmt[] = [];
    while (!this.at('}')) {
      if (this.kind() === Tok.EOF) this.syntax('expected a "}"', 67);
      const s = this.parseStmtRecover();
      if (s) body.push(s);
    }
    this.p++;
    this.pop();
    return { k: 'block', body };
  }
  private parseStmtRecover(): Stmt | null {
    const start = this.p;
    try { return this.parseStmt(); } catch (e) {
      if (!(e instanceof SyntaxAbort)) throw e;
      if (this.p === start) this.p++;
      // skip to the end of the statement
      let depth = 0;
      while (this.kind() !== Tok.EOF) {
        const t = this.tx();
        if (depth === 0 && t === ';') { this.p++; break; }
        if (depth === 0 && t === '}') break;
        if (t === '{' || t === '(' || t === '[') depth++;
        if (t === ')' || t === ']') depth = Math.max(0, depth - 1);
        if (t === '}') { depth--; if (depth === 0) { this.p++; break; } }
        this.p++;
      }
      return null;
    }
  }
  parseStmt(): Stmt {
    return this.nested(() => this.parseStmtAt());
  }
  private parseStmtAt(): Stmt {
    const pos = this.p;
    const k = this.kind();
    if (k === Tok.Pragma) {
      const text = this.tx();
      this.p++;
      const m = /^\s*pragma\s+unroll\s*(\(?\s*(\d+)\s*\)?)?/.exec(text);
      if (m) this.pendingUnroll = m[2] ? Number(m[2]) : 0;
      return { k: 'null' };
    }
    // attributes of a statement (`[[likely]] { ... }`, `[[fallthrough]];`) change nothing we compile
    if (this.at('[') && this.at('[', 1)) {
      while (this.at('[') && this.at('[', 1)) { this.p++; this.skipBalanced(); this.expect(']'); }
      return this.parseStmtAt();
    }
    if (k === Tok.Ident) {
      const t = this.tx();
      switch (t) {
        case 'if': {
          this.p++;
          const isConstexpr = this.eat('constexpr');
          this.expect('(');
          const init = this.parseInitStatement();
          const c = this.parseCondition();
          this.expect(')');
          let st: Stmt;
          if (isConstexpr) {
            // the discarded statement is not instantiated: it may be ill-formed for these template arguments
            const taken = this.constInt(c) !== 0n;
            let th: Stmt = { k: 'null' }, el: Stmt | null = null;
            if (taken) th = this.parseSubStmt(); else this.skipStmt();
            if (this.eat('else')) { if (taken) this.skipStmt(); else el = this.parseSubStmt(); }
            st = { k: 'if', c, t: th, e: el, pos };
          } else {
            const th = this.parseSubStmt();
            let el: Stmt | null = null;
            if (this.eat('else')) el = this.parseSubStmt();
            st = { k: 'if', c, t: th, e: el, pos };
          }
          return this.withInitStatement(init, st);
        }
        case 'while': {
          const unroll = this.takeUnroll();
          this.p++; this.expect('(');
          this.push();
          const c = this.parseCondition(); this.expect(')');
          const body = this.loopBody();
          this.pop();
          return { k: 'while', c, body, pos, unroll };
        }
        case 'do': {
          const unroll = this.takeUnroll();
          this.p++;
          const body = this.loopBody();
          this.expect('while'); this.expect('(');
          const c = this.cond(this.parseExpr()); this.expect(')'); this.expect(';');
          return { k: 'do', c, body, pos, unroll };
        }
        case 'for': {
          const unroll = this.takeUnroll();
          this.p++; this.expect('(');
          this.push();
          let init: Stmt | null = null;
          if (this.isRangeFor()) { const r = this.parseRangeFor(pos, unroll); this.pop(); return r; }
          if (!this.eat(';')) {
            if (this.startsType()) init = this.parseLocalDecl();
            else { const e = this.parseExpr(); this.expect(';'); init = { k: 'expr', e, pos }; }
          }
          if (this.at(':')) throw new Unsupported('range-based for');
          const c = this.at(';') ? null : this.parseCondition();
          this.expect(';');
          const inc = this.at(')') ? null : this.parseExpr();
          this.expect(')');
          const body = this.loopBody();
          this.pop();
          return { k: 'for', init, c, inc, body, pos, unroll };
        }
        case 'switch': {
          this.p++; this.expect('(');
          const init = this.parseInitStatement();
          const c0 = this.parseExpr(); this.expect(')');
          let c = promote(c0);
          if (!isIntegral(c.ty) && c.ty.k !== 'error') { this.u.error(c0.pos, 847, 'expression must have integral or enum type'); c = errExpr(c0.pos); }
          const sw = { cases: [] as { v: bigint | null; id: number }[], ty: c.ty };
          this.switches.push(sw); this.breakable++;
          const body = this.parseSubStmt();
          this.switches.pop(); this.breakable--;
          return this.withInitStatement(init, { k: 'switch', c, body, cases: sw.cases, pos });
        }
        case 'case': {
          this.p++;
          const e = this.parseCond();
          // GNU's case range `case 1 ... 5:`: cicc 13.0 accepts it but its code tests the first value only
          // (`case 1 ... 5` is `case 1`); rather than copy that, the real cicc compiles such a unit
          if (this.at('...')) throw new Unsupported('a GNU case range (cicc 13.0 keeps only its first value)');
          this.expect(':');
          const sw = this.switches[this.switches.length - 1];
          if (!sw) { this.u.error(pos, 127, 'a case label may only be used within a switch'); return { k: 'null' }; }
          const v = this.constInt(e);
          const id = this.caseId++;
          const vv = wrapInt(v, sw.ty.k === 'error' ? C.int : sw.ty);
          if (sw.cases.some(c => c.v === vv)) this.u.error(pos, 1578, `case label value has already appeared in this switch`);
          sw.cases.push({ v: vv, id });
          return { k: 'case', id, pos };
        }
        case 'default': {
          this.p++; this.expect(':');
          const sw = this.switches[this.switches.length - 1];
          if (!sw) { this.u.error(pos, 128, 'a default label may only be used within a switch'); return { k: 'null' }; }
          const id = this.caseId++;
          sw.cases.push({ v: null, id });
          return { k: 'case', id, pos };
        }
        case 'break':
          this.p++; this.expect(';');
          if (!this.breakable) this.u.error(pos, 116, 'a break statement may only be used within a loop or switch');
          return { k: 'break', pos };
        case 'continue':
          this.p++; this.expect(';');
          if (!this.continuable) this.u.error(pos, 115, 'a continue statement may only be used within a loop');
          return { k: 'continue', pos };
        case 'return': {
          this.p++;
          if (this.eat(';')) {
            if (isAuto(this.retTy) && this.fn) { this.retTy = C.void; this.fn.ty = { ...this.fn.ty, ret: C.void }; }
            if (this.retTy.k !== 'void') this.u.error(pos, 940, 'missing return value'); // EDG: warning in C++? keep as error-free
            return { k: 'return', e: null, pos };
          }
          const epos = this.p;
          const e = this.at('{') ? null : this.parseExpr();
          if (e && this.retTy.k === 'ref' && isAuto(this.retTy.to) && this.fn) {
            // `auto &` / `const auto &`: a reference to the returned lvalue's type
            this.retTy = refTo(withQ(e.ty, this.retTy.to.q), this.retTy.rv);
            this.fn.ty = { ...this.fn.ty, ret: this.retTy };
          }
          if (e && isAuto(this.retTy) && this.fn) {
            // a lambda without a trailing return type: the first return statement decides it
            // (decltype(auto): the declared type of a name, a reference for another lvalue)
            this.retTy = e.ty.k === 'void' ? C.void : !isDecltypeAuto(this.retTy) ? unqual(rval(e).ty)
              : (e as { paren?: boolean }).paren !== true && e.k === 'var' ? e.sym.ty : (e as { paren?: boolean }).paren !== true && e.k === 'member' ? e.field.ty : e.lv ? refTo(e.ty) : unqual(e.ty);
            this.fn.ty = { ...this.fn.ty, ret: this.retTy };
          }
          if (!e) { const init = this.parseInitList(this.retTy); this.expect(';'); return { k: 'return', e: null, init, pos }; }
          this.expect(';');
          if (this.retTy.k === 'void') {
            if (e.ty.k !== 'void' && e.ty.k !== 'error') this.u.error(epos, 118, 'a void function may not return a value');
            return { k: 'return', e: e.ty.k === 'void' ? e : null, pos };
          }
          const c = implicitConvert(e, this.retTy);
          if (!c) { this.u.error(epos, 120, `return value type does not match the function type`); return { k: 'return', e: errExpr(epos), pos }; }
          if (this.retTy.k === 'record' && c.lv) {
            if (ownMoveCtor(this.retTy.rec) && !isByteCopy(this.retTy.rec) && e.k === 'var' && (e.sym.storage === 'local' || e.sym.storage === 'param') && e.sym.ty.k === 'record' && e.sym.ty.rec === this.retTy.rec) {
              // a local returned by name is moved from ([class.copy.elision]: first treated as an rvalue)
              const x = markXvalue({ ...e } as Expr);
              return { k: 'return', e: c, init: this.initFromArgs(unqual(this.retTy), [x], false, epos), pos };
            }
            if (ownCopyCtor(this.retTy.rec) && !isByteCopy(this.retTy.rec)) {
              // the copy constructor makes the returned object
              return { k: 'return', e: c, init: this.initFromArgs(unqual(this.retTy), [e], false, epos), pos };
            }
            this.checkTrivialCopy(this.retTy);
          }
          return { k: 'return', e: c, pos };
        }
        case 'goto': {
          this.p++;
          const label = this.tx(); this.p++; this.expect(';');
          this.gotos.push({ label, pos });
          return { k: 'goto', label, pos };
        }
        case 'asm': case '__asm__': case '__asm': {
          const e = this.parseAsm(); this.expect(';');
          return { k: 'expr', e, pos };
        }
        case 'try': case 'throw': throw new Unsupported('exceptions');
        case 'static_assert': {
          this.p++; this.expect('(');
          const e = this.parseAssign();
          const v = this.constInt(e);
          if (this.eat(',')) { this.p++; }
          this.expect(')'); this.expect(';');
          if (v === 0n) this.u.error(pos, 1574, 'static assertion failed');
          return { k: 'null' };
        }
        case 'using': {
          this.p++;
          if (this.at('namespace')) {
            this.p++;
            const path: string[] = [];
            if (this.eat('::')) { /* from the global namespace */ }
            while (this.kind() === Tok.Ident) { path.push(this.tx()); this.p++; if (!this.eat('::')) break; }
            this.expect(';');
            const ns = this.namespacePath(path, false);
            if (ns === null) { this.u.error(pos, 725, `name must be a namespace name`); return { k: 'null' }; }
            this.usingNs.push({ depth: this.scopes.length, path: ns });
            return { k: 'null' };
          }
          // `using T = type;`, also `using T [[maybe_unused]] = type;`
          const attrAt = this.at('[', 1) && this.at('[', 2) || this.at('__attribute__', 1);
          if (this.kind() === Tok.Ident && (this.at('=', 1) || attrAt)) {
            const name = this.tx(); this.p++;
            this.parseAttributes({});
            this.expect('=');
            const ty = this.parseTypeName(); this.expect(';'); this.declare({ kind: 'type', name, ty }); return { k: 'null' };
          }
          let path: string[] = []; let abs = false;
          if (this.eat('::')) abs = true;
          while (this.kind() === Tok.Ident && this.at('::', 1)) { path.push(this.tx()); this.p += 2; }
          const name = this.tx(); this.p++; this.expect(';');
          const syms = this.u.lookupPath(path, name, this.ns, abs);
          if (syms.length) this.scopes[this.scopes.length - 1]!.set(name, syms[0]!);
          // a function or class template: found by that name in this block from here on
          const ns = this.namespacePath(path, abs);
          if (ns !== null && (this.u.templateEntries(name, ns, 'function', true).length || this.u.templateEntries(name, ns, 'record', true).length)) this.usingTmpls.push({ depth: this.scopes.length, name, path: ns });
          return { k: 'null' };
        }
        default:
          if (this.at(':', 1) && !this.u.isKeyword(t)) {
            this.p += 2;
            if (this.labels.has(t)) this.u.error(pos, 1580, `label "${t}" already defined`);
            this.labels.add(t);
            return { k: 'label', label: t, pos };
          }
          if (this.startsType() && !this.functionalCastStatement()) return this.parseLocalDecl();
      }
    }
    // `::ns::T v;` (CCCL's generated PTX wrappers declare their locals fully qualified)
    if (this.at('::') && this.startsType()) return this.parseLocalDecl();
    if (this.at('{')) return this.parseBlock();
    if (this.eat(';')) return { k: 'null' };
    const e = this.parseExpr();
    this.expect(';');
    return { k: 'expr', e, pos };
  }
  /**
   * `T(x).f();` / `T(x)->g();` at the start of a statement: an expression (a member of the object the functional
   * cast makes), not the declaration of x that `T(x);` is.
   */
  private functionalCastStatement(): boolean {
    let j = this.p, angle = 0;
    for (; ; j++) {
      const k = this.u.toks.kind[j], t = this.u.text(j);
      if (j >= this.end || k === Tok.EOF) return false;
      if (t === '<') angle++;
      else if (t === '>') angle--;
      else if (t === '>>') angle -= 2;
      else if (t === '(' && angle === 0) break;
      else if (t === ';' || t === '{' || t === '}' || t === '=' || t === '[') return false;
    }
    if (j === this.p) return false;
    let depth = 0;
    for (; j < this.end; j++) {
      const t = this.u.text(j);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { depth--; if (depth === 0) break; }
    }
    const next = this.u.text(j + 1);
    return next === '.' || next === '->';
  }
  /** A template argument at the cursor that is a functional cast (`int{WARPS}`, `unsigned(N)`): a value, not a type. */
  private functionalCastArg(): boolean {
    const k = this.kind();
    if (k !== Tok.Ident || !BUILTIN_TYPE_WORDS.has(this.tx())) return false;
    let j = 0;
    while (this.kind(j) === Tok.Ident && BUILTIN_TYPE_WORDS.has(this.tx(j))) j++;
    return this.at('{', j) || this.at('(', j);
  }
  /** After `for (`: is this a range-based for (a ':' at depth 0 before the first ';')? */
  private isRangeFor(): boolean {
    let depth = 0;
    for (let i = 0; ; i++) {
      const k = this.kind(i);
      if (k === Tok.EOF) return false;
      if (k !== Tok.Punct) continue;
      const t = this.tx(i);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (depth === 0) return false; depth--; }
      else if (depth === 0 && t === ';') return false;
      else if (depth === 0 && t === '?') return false;
      else if (depth === 0 && t === ':') return true;
    }
  }
  /** `for (decl : range) body` over an array, as `for (T *b = range, *e = b + n; b != e; ++b) { decl = *b; body }`. */
  private parseRangeFor(pos: Pos, unroll: number | undefined): Stmt {
    const ds = this.parseDeclSpecs();
    if (!ds.ty && !ds.auto) this.syntax('expected a type specifier', 79);
    const d = this.parseDeclarator(ds.ty ?? withQ(AUTO, (ds as DeclSpec & { q: number }).q), false);
    this.expect(':');
    const range = this.parseExpr();
    this.expect(')');
    if (range.ty.k === 'error') { this.loopBody(); return { k: 'null' }; }
    if (range.ty.k !== 'array' || range.ty.n === null) {
      if (range.ty.k === 'record') return this.rangeForClass(d, range, pos, unroll);
      this.u.error(range.pos, 2291, `this range-based "for" statement requires a suitable "begin" function and none was found`);
      this.loopBody(); return { k: 'null' };
    }
    const elem = range.ty.elem;
    const pty = ptrTo(elem);
    const b = this.u.newVar('__begin', pty, 'local', pos), e = this.u.newVar('__end', pty, 'local', pos);
    const bref = (): Expr => mk(pty, pos, true, { k: 'var', sym: b });
    const eref = (): Expr => mk(pty, pos, true, { k: 'var', sym: e });
    const n = mk(C.long, pos, false, { k: 'int', v: BigInt(range.ty.n) });
    const initB: Stmt = { k: 'decl', v: b, init: { k: 'expr', e: rval(range) }, pos };
    const initE: Stmt = { k: 'decl', v: e, init: { k: 'expr', e: mk(pty, pos, false, { k: 'ptradd', p: rval(bref()), i: n, neg: false }) }, pos };
    const c = mk(C.bool, pos, false, { k: 'bin', op: '!=', a: rval(bref()), b: rval(eref()) });
    const inc = mk(pty, pos, true, { k: 'incdec', op: '++', prefix: true, e: bref() });
    const cur = mk(elem, pos, true, { k: 'deref', e: rval(bref()) });
    return this.rangeForLoop(d, cur, [initB, initE], c, inc, pos, unroll);
  }
  /** `for (decl : range)` over a class object with begin()/end() members, as
   *  `{ auto &__range = range; auto __begin = __range.begin(), __end = __range.end();
   *     for (; __begin != __end; ++__begin) { decl = *__begin; body } }`. */
  private rangeForClass(d: { name: string; ty: CType; pos: Pos }, range: Expr, pos: Pos, unroll: number | undefined): Stmt {
    if (!range.lv) throw new Unsupported('range-based for over a class temporary');
    const rt = range.ty;
    const r = this.u.newVar('__range', refTo(rt), 'local', pos);
    const rref = (): Expr => mk(rt, pos, true, { k: 'var', sym: r });
    const initR: Stmt = { k: 'decl', v: r, init: this.initFromExpr(range, refTo(rt), pos), pos };
    const bcall = this.call(this.member(rref(), 'begin', false, pos), [], pos);
    const ecall = this.call(this.member(rref(), 'end', false, pos), [], pos);
    if (bcall.ty.k === 'error' || ecall.ty.k === 'error') { this.loopBody(); return { k: 'null' }; }
    const it = unqual(bcall.ty), et = unqual(ecall.ty);
    if (it.k === 'record' || et.k === 'record') throw new Unsupported('range-based for with a class iterator');
    const b = this.u.newVar('__begin', it, 'local', pos), e = this.u.newVar('__end', et, 'local', pos);
    const bref = (): Expr => mk(it, pos, true, { k: 'var', sym: b });
    const eref = (): Expr => mk(et, pos, true, { k: 'var', sym: e });
    const initB: Stmt = { k: 'decl', v: b, init: this.initFromExpr(bcall, it, pos), pos };
    const initE: Stmt = { k: 'decl', v: e, init: this.initFromExpr(ecall, et, pos), pos };
    const c = this.binary('!=', bref(), eref(), pos);
    const inc = this.incdec('++', true, bref(), pos);
    const cur = this.deref(bref(), pos);
    return { k: 'block', body: [initR, this.rangeForLoop(d, cur, [initB, initE], c, inc, pos, unroll)] };
  }
  /** The loop of a range-based for: `for (inits; c; inc) { decl = cur; body }`, the declaration's auto deduced from cur. */
  private rangeForLoop(d: { name: string; ty: CType; pos: Pos }, cur: Expr, inits: Stmt[], c: Expr, inc: Expr, pos: Pos, unroll: number | undefined): Stmt {
    this.push();
    let ty = d.ty;
    if (hasAuto(ty)) ty = this.deduceAuto(ty, cur);
    const v = this.u.newVar(d.name, ty, 'local', d.pos);
    const vinit = this.initFromExpr(cur, ty, pos);
    this.declare(v);
    const body = this.loopBody();
    this.pop();
    return { k: 'for', init: { k: 'block', body: inits }, c, inc, body: { k: 'block', body: [{ k: 'decl', v, init: vinit, pos }, body] }, pos, unroll };
  }
  private takeUnroll(): number | undefined { const u = this.pendingUnroll; this.pendingUnroll = undefined; return u; }
  private parseSubStmt(): Stmt {
    this.push();
    try { return this.parseStmt(); } finally { this.pop(); }
  }
  private loopBody(): Stmt {
    this.breakable++; this.continuable++;
    const sw = this.switches; this.switches = [];
    try { return this.parseSubStmt(); } finally { this.breakable--; this.continuable--; this.switches = sw; }
  }
  private cond(e: Expr): Expr {
    if (e.ty.k === 'record') e = this.fromClass(e);
    const c = toCond(e);
    if (!c) { this.u.error(e.pos, 711, `expression must have bool type (or be convertible to bool)`); return errExpr(e.pos); }
    return c;
  }
  /** A condition: expression, or a declaration with initialiser (`if (int x = f())`). */
  /**
   * The init-statement of `if (init; cond)` / `switch (init; cond)`, when there is one (a `;` before the
   * closing parenthesis): declared in a scope of its own around the statement (withInitStatement ends it).
   */
  private parseInitStatement(): Stmt | null {
    let depth = 0, i = this.p;
    for (; i < this.u.toks.count; i++) {
      const t = this.u.text(i);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { if (depth === 0) return null; depth--; }
      else if (t === ';' && depth === 0) break;
    }
    if (i >= this.u.toks.count) return null;
    this.push();
    if (this.eat(';')) return { k: 'null' };
    if (this.startsType()) return this.parseLocalDecl();
    const pos = this.p;
    const e = this.parseExpr();
    this.expect(';');
    return { k: 'expr', e, pos };
  }
  private withInitStatement(init: Stmt | null, st: Stmt): Stmt {
    if (!init) return st;
    this.pop();
    return { k: 'block', body: [init, st] };
  }
  private parseCondition(): Expr {
    if (this.startsType()) {
      const pos = this.p;
      const ds = this.parseDeclSpecs();
      const d = this.parseDeclarator(ds.ty ?? C.int, false);
      this.expect('=');
      const v = this.u.newVar(d.name, d.ty, 'local', d.pos);
      const init = this.parseInitializer(d.ty);
      this.declare(v);
      // represent as (v = init, v)
      const ve = mk(v.ty, pos, true, { k: 'var', sym: v });
      const ie = init.k === 'expr' ? init.e : errExpr(pos);
      return this.cond(mk(v.ty, pos, true, { k: 'comma', a: mk(v.ty, pos, true, { k: 'assign', a: ve, b: ie }), b: ve }));
    }
    return this.cond(this.parseExpr());
  }

  parseLocalDecl(): Stmt {
    const pos = this.p;
    const ds = this.parseDeclSpecs();
    const stmts: Stmt[] = [];
    if (this.at(';') && ds.tagOnly) { this.p++; return { k: 'null' }; }
    if (!ds.ty && !ds.auto) this.syntax('expected a type specifier', 79);
    for (;;) {
      const d = this.parseDeclarator(ds.ty ?? (ds.auto ? withQ(AUTO, (ds as DeclSpec & { q: number }).q) : C.int), false);
      const attrs = { ...ds.attrs, ...d.attrs };
      if (ds.typedef) { this.declare({ kind: 'type', name: d.name, ty: d.ty }); if (!this.eat(',')) break; continue; }
      if (d.ty.k === 'func') {
        // block-scope function declaration (e.g. extern __device__ builtin in CUDA headers)
        const f = this.u.declareFunction(d, ds, attrs, this.ns, false);
        this.declare(f);
        if (!this.eat(',')) break;
        continue;
      }
      if (ds.extern || attrs.shared || ds.static || attrs.constant || attrs.device) {
        const v = this.u.declareLocalStatic(d, ds, attrs, this);
        this.declare(v);
        if (!this.eat(',')) break;
        continue;
      }
      let ty: CType = d.ty;
      let init: Init | null = null;
      if ((ds as DeclSpec & { dcauto?: boolean }).dcauto) throw new Unsupported('decltype(auto) variable');
      if (hasAuto(ty)) {
        let e: Expr;
        if (this.eat('=')) e = this.at('{') ? this.braceExpr() : this.parseAssign();
        else if (this.at('(')) { this.p++; e = this.parseExpr(); this.expect(')'); }
        else if (this.at('{')) { this.p++; e = this.parseAssign(); this.expect('}'); }
        else this.syntax('expected a "="', 65);
        ty = this.deduceAuto(ty, e);
        init = this.initFromExpr(e, ty, e.pos);
      } else if (this.eat('=')) {
        init = this.parseInitializer(ty);
      } else if (this.at('{')) {
        init = this.parseInitList(ty);
      } else if (this.at('(')) {
        this.p++;
        if (ty.k === 'record') {
          const args = this.parseArgs(')');
          this.expect(')');
          init = this.initFromArgs(ty, args, false, d.pos);
        } else { const e = this.parseExpr(); this.expect(')'); init = this.initFromExpr(e, ty, e.pos); }
      } else if (ty.k === 'record' || ty.k === 'array') {
        init = this.defaultInit(ty, d.pos);
      }
      if (ty.k !== 'record' && ty.k !== 'array') this.checkDestructor(ty);   // a class object's destructor runs at scope exit (codegen)
      if (ty.k === 'array' && ty.n === null && init) {
        if (init.k === 'list') ty = arrayOf(ty.elem, init.items.length);
        else if (init.k === 'expr' && init.e.ty.k === 'array') ty = arrayOf(ty.elem, init.e.ty.n);
        if (init.k === 'list') init.ty = ty;
      }
      if (ty.k === 'ref' && !init) this.u.error(d.pos, 252, `reference variable "${d.name}" requires an initializer`);
      if (ty.k === 'record' && !ty.rec.complete) this.u.error(d.pos, 70, `incomplete type is not allowed`);
      if (ds.constexpr && !(ty.q & Q.Const)) ty = withQ(ty, Q.Const);
      const v = this.u.newVar(d.name, ty, 'local', d.pos);
      if (ds.constexpr || (ty.q & Q.Const)) {
        if (init && init.k === 'expr' && isArith(ty)) noteConstInit(v, init.e);
      }
      if (this.scopes[this.scopes.length - 1]!.has(d.name)) {
        const prev = this.scopes[this.scopes.length - 1]!.get(d.name)!;
        if (prev.kind === 'var' && prev.storage !== 'param') this.u.error(d.pos, 101, `"${d.name}" has already been declared in the current scope`);
      }
      this.declare(v);
      stmts.push({ k: 'decl', v, init, pos });
      if (!this.eat(',')) break;
    }
    this.expect(';');
    return stmts.length === 1 ? stmts[0]! : { k: 'block', body: stmts };
  }

  /** The declared type `pattern` (containing `auto`) deduced from the initialiser e (C++ [dcl.type.auto.deduct]). */
  deduceAuto(pattern: CType, e: Expr): CType {
    if (e.ty.k === 'error') return C.error;
    if (e.ty.k === 'void') { this.u.error(e.pos, 1593, 'cannot deduce "auto" type'); return C.error; }
    const leaf = (pat: CType, arg: CType): CType | null => {
      if (isAuto(pat)) return withQ(arg, pat.q);
      if (pat.k === 'ptr' && arg.k === 'ptr') { const t = leaf(pat.to, arg.to); return t && ptrTo(t, pat.q); }
      return null;
    };
    let r: CType | null;
    if (pattern.k === 'ref') {
      // auto&& is a forwarding reference: an lvalue makes it an lvalue reference
      if (pattern.rv && isAuto(pattern.to) && e.lv) return refTo(e.ty);
      const t = leaf(pattern.to, pattern.rv || (pattern.to.q & Q.Const) && !e.lv ? unqual(rval(e).ty) : e.ty);
      r = t && refTo(t, pattern.rv);
    } else r = leaf(pattern, unqual(rval(e).ty));
    if (!r) { this.u.error(e.pos, 1593, 'cannot deduce "auto" type'); return C.error; }
    return r;
  }

  // ------------------------------------------------------------------ expressions
  parseExpr(): Expr {
    let e = this.parseAssign();
    while (this.at(',')) {
      const pos = this.p; this.p++;
      const b = this.parseAssign();
      e = mk(b.ty, pos, b.lv, { k: 'comma', a: e, b: b });
    }
    return e;
  }
  /**
   * Builtins cicc knows without a declaration, lowered by builtins.ts: `__match32_any_sync(mask, v)` and its
   * 64-bit / match.all siblings (sm_70_rt.hpp calls them undeclared) and the WMMA builtins crt/mma.hpp calls
   * (`__hmma_m16n16k16_ld_a(int *, const int *, unsigned, int)`, builtins-mma.ts).
   */
  /** A call of one of CUDA 13's type-generic __nv_atomic_* builtins (builtins-nvatomic.ts), at its '('. */
  private nvAtomicCall(name: string, pos: Pos): Expr {
    this.expect('(');
    const args = this.at(')') ? [] : this.parseArgs(')');
    this.expect(')');
    const sig = nvAtomicSignature(name, args.map(a => rval(a).ty), this.u.opts.arch);
    if (typeof sig === 'string') throw new Unsupported(sig);
    if (sig.defaultScope) args.push(mk(C.int, pos, false, { k: 'int', v: BigInt(SYSTEM_SCOPE) }));
    // one symbol per builtin and pointee type (`char` and `unsigned char` both load `.b8`)
    const key = `${sig.name}(${sig.params.map(t => typeName(t)).join(',')})`;
    let f = this.u.implicitBuiltins.get(key);
    if (!f) {
      f = builtinSym(this.u, sig.name, sig.params, sig.ret, false, pos);
      this.u.implicitBuiltins.set(key, f);
    }
    return this.buildCall(f, null, f.ty, args, pos);
  }
  private implicitBuiltin(name: string, pos: Pos): FuncSym {
    const got = this.u.implicitBuiltins.get(name);
    if (got) return got;
    let params: CType[], ret: CType, variadic = false;
    const gcc = GCC_IMPLICIT[name];
    if (gcc) {
      ({ params, ret, variadic } = gcc());
    } else if (isMmaBuiltin(name)) {
      // the first pointer is written, the others read (`const int *`, `const float *` convert to them)
      params = [...mmaSignature(name)].map((c, i) => (c === 'p' ? ptrTo(i === 0 ? C.void : withQ(C.void, Q.Const)) : c === 'u' ? C.uint : C.int));
      ret = C.void;
    } else {
      params = [C.uint, name.startsWith('__match64') ? C.ullong : C.uint, ...(name.endsWith('_all_sync') ? [ptrTo(C.int)] : [])];
      ret = C.uint;
    }
    const f = builtinSym(this.u, name, params, ret, variadic, pos);
    this.u.implicitBuiltins.set(name, f);
    return f;
  }
  /** Inside template arguments: a `>` or `>>` outside parentheses ends the argument list, it does not compare or shift. */
  private gtEnds = false;
  parseAssign(): Expr {
    // nested in template arguments (`X<(a > b)>`, `X<f(a > b)>`, `X<a[i > j]>`): a `>` compares again
    if (this.gtEnds) { this.gtEnds = false; try { return this.parseAssign(); } finally { this.gtEnds = true; } }
    return this.nested(() => this.parseAssignAt());
  }
  /**
   * cicc takes any nesting (100,000 parentheses or blocks); our recursive descent does not: past MAX_NESTING
   * the unit goes to cicc instead of exhausting the stack.
   */
  private nested<T>(parse: () => T): T {
    if (this.u.nesting >= MAX_NESTING) throw new Unsupported(`expressions or statements nested deeper than ${MAX_NESTING} levels`);
    this.u.nesting++;
    try { return parse(); } finally { this.u.nesting--; }
  }
  private parseAssignAt(): Expr {
    const lhs = this.parseCond();
    const op = this.tx();
    if (this.kind() === Tok.Punct && ASSIGN_OPS.has(op)) {
      const pos = this.p; this.p++;
      const rhs = this.at('{') ? this.braceExpr() : this.parseAssign();
      return this.assign(op, lhs, rhs, pos);
    }
    return lhs;
  }
  private braceExpr(): Expr { throw new Unsupported('braced initializer in expression'); }
  private modifiable(e: Expr, pos: Pos): boolean {
    if (e.ty.k === 'error') return false;
    if (!e.lv) { this.u.error(e.pos, 137, 'expression must be a modifiable lvalue'); return false; }
    if (e.ty.q & Q.Const || e.ty.k === 'array') { this.u.error(e.pos, 137, 'expression must be a modifiable lvalue'); return false; }
    void pos;
    return true;
  }
  assign(op: string, a: Expr, b: Expr, pos: Pos): Expr {
    if (a.ty.k === 'error' || b.ty.k === 'error') return errExpr(pos);
    if (a.ty.k === 'record') {
      const rec = a.ty.rec;
      const userAssign = allMethods(rec).filter(m => m.op === '=' && !m.defaulted && m.cls === rec);
      // the implicit copy assignment (an exact match) is used for an operand of the class itself unless the
      // class declares its own copy/move assignment (operator=(const __half_raw &) does not hide it)
      const isCopyParam = (t: CType | undefined) => !!t && (t.k === 'ref' ? t.to : t).k === 'record' && ((t.k === 'ref' ? t.to : t) as CType & { k: 'record' }).rec === rec;
      const implicitCopy = op === '=' && b.ty.k === 'record' && b.ty.rec === rec && (!userAssign.some(m => isCopyParam(m.ty.params[0])) || isByteCopy(rec));
      const user = op !== '=' || (userAssign.length > 0 && !implicitCopy);
      if (user) { const r = this.userOperator(op, [a, b], pos); if (r) return r; }
      if (op !== '=') { this.badOperands(pos, a, b); return errExpr(pos); }
      this.checkTrivialCopy(a.ty);
    } else if (b.ty.k === 'record') {
      const r = this.userOperator(op, [a, b], pos);
      if (r) return r;
      // plain assignment: the conversion function to the target type (a float from a __half: operator float)
      const c = op === '=' ? implicitConvert(b, unqual(a.ty)) : null;
      b = c ?? this.fromClass(b);
      if (b.ty.k === 'error') return b;
    }
    if (!this.modifiable(a, pos)) return errExpr(pos);
    if (op === '=') {
      const c = implicitConvert(b, unqual(a.ty));
      if (!c) { this.u.error(b.pos, 513, `a value of type "${typeName(b.ty)}" cannot be assigned to an entity of type "${typeName(a.ty)}"`); return errExpr(pos); }
      return mk(a.ty, pos, true, { k: 'assign', a, b: c });
    }
    const bop = op.slice(0, -1);
    const at = unqual(a.ty);
    if (at.k === 'ptr' && (bop === '+' || bop === '-')) {
      const r = promote(b);
      if (!isIntegral(r.ty)) { this.badOperands(pos, a, b); return errExpr(pos); }
      return mk(a.ty, pos, true, { k: 'cassign', op: bop, a, b: r, opTy: at });
    }
    const r = rval(b);
    if (!isArith(at) || !isArith(r.ty)) { this.badOperands(pos, a, b); return errExpr(pos); }
    if ((bop === '%' || bop === '&' || bop === '|' || bop === '^' || bop === '<<' || bop === '>>') && (!isIntegral(at) || !isIntegral(r.ty))) { this.badOperands(pos, a, b); return errExpr(pos); }
    if (bop === '<<' || bop === '>>') return mk(a.ty, pos, true, { k: 'cassign', op: bop, a, b: promote(r), opTy: promotedType0(at) });
    const opTy = usualArithType(at, r.ty);
    return mk(a.ty, pos, true, { k: 'cassign', op: bop, a, b: convertArith(r, opTy), opTy });
  }
  private badOperands(pos: Pos, a: Expr, b: Expr): void {
    this.u.error(pos, 2140, `operand types are incompatible ("${typeName(a.ty)}" and "${typeName(b.ty)}")`);
  }
  parseCond(): Expr {
    const c = this.parseBinary(1);
    if (!this.at('?')) return c;
    const pos = this.p; this.p++;
    const a = this.parseExpr();
    this.expect(':');
    const b = this.parseAssign();
    return this.condExpr(c, a, b, pos);
  }
  condExpr(c0: Expr, a: Expr, b: Expr, pos: Pos): Expr {
    const c = this.cond(c0);
    if (a.ty.k === 'error' || b.ty.k === 'error') return errExpr(pos);
    if (sameUnq(a.ty, b.ty) && (a.ty.k === 'enum' || a.ty.k === 'bool') && !(a.lv && b.lv)) return mk(unqual(a.ty), pos, false, { k: 'cond', c, a: rval(a), b: rval(b) });
    // lvalue conditional when both are lvalues of the same type
    if (a.lv && b.lv && sameUnq(a.ty, b.ty) && a.ty.k !== 'array') return mk(a.ty, pos, true, { k: 'cond', c, a, b });
    const ra = rval(a), rb = rval(b);
    if (isArith(ra.ty) && isArith(rb.ty)) { const t = usualArithType(ra.ty, rb.ty); return mk(t, pos, false, { k: 'cond', c, a: convertArith(ra, t), b: convertArith(rb, t) }); }
    if (ra.ty.k === 'void' && rb.ty.k === 'void') return mk(C.void, pos, false, { k: 'cond', c, a: ra, b: rb });
    if (ra.ty.k === 'ptr' || rb.ty.k === 'ptr') {
      const t = ra.ty.k === 'ptr' && !isNullConst(ra) ? ra.ty : rb.ty;
      const x = implicitConvert(ra, t), y = implicitConvert(rb, t);
      if (x && y) return mk(t, pos, false, { k: 'cond', c, a: x, b: y });
      const t2 = rb.ty;
      const x2 = implicitConvert(ra, t2), y2 = implicitConvert(rb, t2);
      if (x2 && y2) return mk(t2, pos, false, { k: 'cond', c, a: x2, b: y2 });
    }
    if (ra.ty.k === 'record' && rb.ty.k === 'record' && ra.ty.rec === rb.ty.rec) return mk(unqual(ra.ty), pos, false, { k: 'cond', c, a: ra, b: rb });
    this.u.error(pos, 42, `operand types are incompatible ("${typeName(a.ty)}" and "${typeName(b.ty)}")`);
    return errExpr(pos);
  }
  parseBinary(minPrec: number): Expr {
    let lhs = this.parseUnary();
    for (;;) {
      if (this.kind() !== Tok.Punct) break;
      const op = this.tx();
      const prec = BIN_PREC[op];
      if (prec === undefined || prec < minPrec || (this.gtEnds && (op === '>' || op === '>>'))) break;
      const pos = this.p; this.p++;
      const rhs = this.parseBinary(prec + 1);
      lhs = this.binary(op, lhs, rhs, pos);
    }
    return lhs;
  }
  binary(op: string, a0: Expr, b0: Expr, pos: Pos): Expr {
    if (a0.ty.k === 'error' || b0.ty.k === 'error') return errExpr(pos);
    if (a0.ty.k === 'record' || b0.ty.k === 'record') {
      const r = this.userOperator(op, [a0, b0], pos);
      if (r) return r;
      a0 = this.fromClass(a0); b0 = this.fromClass(b0);
      if (a0.ty.k === 'error' || b0.ty.k === 'error') return errExpr(pos);
    }
    if (op === '&&' || op === '||') {
      const a = this.cond(a0), b = this.cond(b0);
      return mk(C.bool, pos, false, { k: 'bin', op, a, b });
    }
    const a = rval(a0), b = rval(b0);
    const at = a.ty, bt = b.ty;
    const bad = (): Expr => { this.badOperands(pos, a0, b0); return errExpr(pos); };
    switch (op) {
      case '+': case '-':
        if (at.k === 'ptr' && isIntegral(bt)) return this.ptrAdd(a, promote(b), op === '-', pos);
        if (op === '+' && bt.k === 'ptr' && isIntegral(at)) return this.ptrAdd(b, promote(a), false, pos);
        if (op === '-' && at.k === 'ptr' && bt.k === 'ptr') {
          if (!sameUnq(at.to, bt.to)) return bad();
          return mk(C.long, pos, false, { k: 'ptrdiff', a, b, elem: at.to });
        }
        return this.arithBin(op, a, b, bad, pos);
      case '*': case '/': return this.arithBin(op, a, b, bad, pos);
      case '%': case '&': case '|': case '^': {
        if (!isIntegral(at) || !isIntegral(bt)) return bad();
        const t = usualArithType(at, bt);
        return mk(t, pos, false, { k: 'bin', op, a: convertArith(a, t), b: convertArith(b, t) });
      }
      case '<<': case '>>': {
        if (!isIntegral(at) || !isIntegral(bt)) return bad();
        const pa = promote(a), pb = promote(b);
        return mk(pa.ty, pos, false, { k: 'bin', op, a: pa, b: pb });
      }
      default: {
        // comparisons
        if (isArith(at) && isArith(bt)) {
          const t = usualArithType(at, bt);
          return mk(C.bool, pos, false, { k: 'bin', op, a: convertArith(a, t), b: convertArith(b, t) });
        }
        if ((at.k === 'ptr' || at.k === 'nullptr') && (bt.k === 'ptr' || bt.k === 'nullptr' || isNullConst(b))) {
          const t = at.k === 'ptr' ? at : bt.k === 'ptr' ? bt : ptrTo(C.void);
          const x = at.k === 'ptr' ? a : cast(a, 'null', t);
          const y = bt.k === 'ptr' ? b : cast(b, 'null', t);
          return mk(C.bool, pos, false, { k: 'bin', op, a: x, b: y });
        }
        if (isNullConst(a) && bt.k === 'ptr') return mk(C.bool, pos, false, { k: 'bin', op, a: cast(a, 'null', bt), b });
        return bad();
      }
    }
  }
  noOperator(op: string, pos: Pos): Expr { this.u.error(pos, 349, `no operator "${op}" matches these operands`); return errExpr(pos); }
  /** A class operand of a built-in operator: through its (single) conversion function to a scalar. */
  fromClass(e: Expr): Expr {
    if (e.ty.k !== 'record') return e;
    const q = e.ty.q & (Q.Const | Q.Volatile);
    const cvs = allMethods(e.ty.rec).filter(m => m.op === 'cv' && !((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile)));
    if (cvs.length !== 1) { this.u.error(e.pos, 29, `expression must have arithmetic type`); return errExpr(e.pos); }
    return this.buildCall(cvs[0]!, null, cvs[0]!.ty, [], e.pos, e);
  }
  private arithBin(op: string, a: Expr, b: Expr, bad: () => Expr, pos: Pos): Expr {
    if (!isArith(a.ty) || !isArith(b.ty)) return bad();
    const t = usualArithType(a.ty, b.ty);
    return mk(t, pos, false, { k: 'bin', op, a: convertArith(a, t), b: convertArith(b, t) });
  }
  private ptrAdd(p: Expr, i: Expr, neg: boolean, pos: Pos): Expr {
    const pt = p.ty as CType & { k: 'ptr' };
    if (pt.to.k === 'void' || pt.to.k === 'func') { /* GNU extension: void* arithmetic uses size 1 */ }
    if (pt.to.k === 'record' && !pt.to.rec.complete) { this.u.error(pos, 833, `pointer to incomplete class type "${typeName(pt.to)}" is not allowed`); return errExpr(pos); }
    return mk(unqual(p.ty), pos, false, { k: 'ptradd', p, i, neg });
  }
  parseUnary(): Expr {
    return this.nested(() => this.parseUnaryAt());
  }
  private parseUnaryAt(): Expr {
    const pos = this.p;
    const t = this.tx();
    if (this.kind() === Tok.Punct) {
      switch (t) {
        case '++': case '--': {
          this.p++; const e = this.parseUnary();
          if (e.ty.k === 'record') return this.userOperator(t, [e], pos) ?? this.noOperator(t, pos);
          return this.incdec(t, true, e, pos);
        }
        case '-': case '+': case '~': {
          this.p++; let e0 = this.parseCastExpr();
          if (e0.ty.k === 'error') return e0;
          if (e0.ty.k === 'record') { const r = this.userOperator(t, [e0], pos); if (r) return r; e0 = this.fromClass(e0); if (e0.ty.k === 'error') return e0; }
          const e = promote(e0);
          if (t === '~' ? !isIntegral(e.ty) : !(isArith(e.ty) || (t === '+' && e.ty.k === 'ptr'))) { this.u.error(pos, 29, t === '~' ? 'expression must have integral or unscoped enum type' : 'expression must have arithmetic type'); return errExpr(pos); }
          if (e.k === 'int' && t === '-') return mk(e.ty, pos, false, { k: 'int', v: wrapInt(-e.v, e.ty) });
          if (e.k === 'fp' && t === '-') return mk(e.ty, pos, false, { k: 'fp', v: -e.v });
          return mk(e.ty, pos, false, { k: 'unary', op: t, e });
        }
        case '!': {
          this.p++; const e = this.parseCastExpr();
          if (e.ty.k === 'error') return e;
          if (e.ty.k === 'record') { const r = this.userOperator('!', [e], pos); if (r) return r; }
          return mk(C.bool, pos, false, { k: 'unary', op: '!', e: this.cond(e) });
        }
        case '*': {
          this.p++; const e0 = this.parseCastExpr();
          if (e0.ty.k === 'record') return this.userOperator('*', [e0], pos) ?? this.noOperator('*', pos);
          return this.deref(e0, pos);
        }
        case '&': {
          this.p++;
          return this.addressOf(this.parseCastExpr(), pos);
        }
        case '&&': throw new Unsupported('label address');
        case '(': if (this.startsType(1) && this.p !== this.notCastAt) return this.parseCastExpr(); break;
        case '::': break;
        default: break;
      }
    }
    if (this.kind() === Tok.Ident) {
      switch (t) {
        case 'sizeof': {
          this.p++;
          if (this.eat('...')) {
            // sizeof...(pack): the number of elements of a template or function parameter pack
            this.expect('(');
            const n = this.tx(); this.p++;
            this.expect(')');
            const ts = this.tscope?.get(n);
            const el: unknown[] | undefined = this.packVar(n) ?? (ts && ts.kind === 'type' ? packOf(ts.ty) : undefined) ?? packValsOf(ts);
            if (!el) throw new Unsupported(`sizeof... of ${n}`);
            return mk(C.ulong, pos, false, { k: 'int', v: BigInt(el.length) });
          }
          let ty: CType;
          if (this.at('(') && this.startsType(1)) { this.p++; ty = this.parseTypeName(); this.expect(')'); }
          else { const e = this.parseUnary(); ty = e.ty; if (e.ty.k === 'error') return e; }
          if (ty.k === 'ref') ty = ty.to;
          if ((ty.k === 'record' && !ty.rec.complete) || ty.k === 'void' || ty.k === 'func') { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
          return mk(C.ulong, pos, false, { k: 'int', v: BigInt(sizeOfC(ty)) });
        }
        case 'alignof': case '__alignof__': case '_Alignof': case '__alignof': {
          this.p++;
          this.expect('(');
          let ty: CType;
          if (this.startsType()) ty = this.parseTypeName(); else ty = this.parseExpr().ty;
          this.expect(')');
          return mk(C.ulong, pos, false, { k: 'int', v: BigInt(alignOfC(ty.k === 'ref' ? ty.to : ty)) });
        }
        case '__extension__': this.p++; return this.parseCastExpr();
        case 'new': if (this.at('(', 1)) return this.parsePlacementNew(); return this.parseNew();
        case 'delete': return this.parseDelete();
        case '__builtin_offsetof': {
          this.p++; this.expect('(');
          const ty = this.parseTypeName(); this.expect(',');
          let off = 0; let cur = ty;
          for (;;) {
            const name = this.tx(); this.p++;
            if (cur.k !== 'record') throw new Unsupported('offsetof');
            const f = cur.rec.fields.find(x => x.name === name);
            if (!f) throw new Unsupported('offsetof');
            off += f.offset; cur = f.ty;
            if (this.eat('.')) continue;
            if (this.at('[')) throw new Unsupported('offsetof with array index');
            break;
          }
          this.expect(')');
          return mk(C.ulong, pos, false, { k: 'int', v: BigInt(off) });
        }
        default:
          if (TYPE_TRAITS.has(t) && this.at('(', 1) && this.lookup(t).length === 0) return this.parseTypeTrait(t, pos);
          break;
      }
    }
    return this.parsePostfix(this.parsePrimary());
  }
  deref(e0: Expr, pos: Pos): Expr {
    if (e0.ty.k === 'error') return e0;
    const e = rval(e0);
    if (e.ty.k !== 'ptr') { this.u.error(pos, 75, 'operand of "*" must be a pointer but has type "' + typeName(e0.ty) + '"'); return errExpr(pos); }
    if (e.ty.to.k === 'func') return e;
    if (e.ty.to.k === 'void') { this.u.error(pos, 75, 'operand of "*" must be a pointer to a complete object type'); return errExpr(pos); }
    return mk(e.ty.to, pos, true, { k: 'deref', e });
  }
  private incdec(op: string, prefix: boolean, e: Expr, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    if (!this.modifiable(e, pos)) return errExpr(pos);
    if (!isScalar(e.ty) || e.ty.k === 'nullptr') { this.u.error(pos, 29, 'expression must be a modifiable lvalue'); return errExpr(pos); }
    return mk(e.ty, pos, prefix, { k: 'incdec', op: op as '++', prefix, e });
  }
  /** A `(` that parseCastExpr found to open an expression, not a cast (`(T(3) - x)`). */
  private notCastAt = -1;
  parseCastExpr(): Expr {
    if (this.at('(') && this.startsType(1)) {
      const pos = this.p;
      // `(T(3) - x)`, `(L{} >= 4)`: starts like a cast but is a parenthesised expression, not a type-id followed by
      // ')' (`(T(&x, 1).f())` too: only reading the type tells `(T(&)[3])` from it; `(T())` reads as a function
      // type, which no cast can name: a parenthesised temporary)
      const callLike = this.kind(1) === Tok.Ident && this.at('(', 2) && !this.at('*', 3) && !this.at('^', 3);
      const before = this.u.diags.length, errs = this.u.errorCount;
      let ty: CType | null = null;
      try { this.p = pos + 1; ty = this.parseTypeName(); } catch (e) { if (!(e instanceof SyntaxAbort) && !(e instanceof Unsupported)) throw e; }
      const read = ty !== null && this.u.errorCount === errs;
      if (read ? !this.at(')') || (callLike && ty!.k === 'func') : callLike) {
        this.u.diags.length = before; this.u.errorCount = errs; this.p = pos; this.halfGt = false;
        this.notCastAt = pos;
        return this.parseUnary();
      }
      // a type we cannot read: read it again to report why
      if (!read) { this.u.diags.length = before; this.u.errorCount = errs; this.p = pos + 1; this.halfGt = false; ty = this.parseTypeName(); }
      this.expect(')');
      if (this.at('{')) throw new Unsupported('compound literal');
      const e = this.parseCastExpr();
      return this.explicitCast(e, ty!, pos);
    }
    return this.parseUnary();
  }
  explicitCast(e: Expr, ty: CType, pos: Pos, reinterpret = false): Expr {
    if (e.ty.k === 'error') return e;
    if (ty.k === 'record' && e.ty.k === 'record' && e.ty.rec !== ty.rec) {
      // a conversion function of the operand's class to exactly the target class (static_cast<__nv_bfloat16_raw>(b))
      const q = e.ty.q & (Q.Const | Q.Volatile), rec = ty.rec;
      const cvs = allMethods(e.ty.rec).filter(m => m.op === 'cv' && !((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile))
        && unqual(m.ty.ret).k === 'record' && (unqual(m.ty.ret) as CType & { k: 'record' }).rec === rec);
      const pick = preferExactThis(cvs, q);
      if (pick.length === 1) return this.buildCall(pick[0]!, null, pick[0]!.ty, [], pos, e);
    }
    if (ty.k === 'record' && !(e.ty.k === 'record' && e.ty.rec === ty.rec)) return this.makeTemp(unqual(ty) as CType & { k: 'record' }, [e], false, pos);
    if (e.ty.k === 'record' && ty.k !== 'record' && ty.k !== 'ref' && unqual(ty).k !== 'void') {
      // explicit conversion functions count here; the one to exactly the target type wins
      const q = e.ty.q & (Q.Const | Q.Volatile);
      const cvs = preferExactThis(allMethods(e.ty.rec).filter(m => m.op === 'cv' && !((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile))), q);
      const exact = cvs.filter(m => typeName(unqual(m.ty.ret)) === typeName(unqual(ty)));
      const pick = exact.length === 1 ? exact[0]! : cvs.length === 1 ? cvs[0]! : null;
      if (!pick) { this.u.error(pos, 171, `invalid type conversion`); return errExpr(pos); }
      e = this.buildCall(pick, null, pick.ty, [], pos, e);
      if (e.ty.k === 'error') return e;
    }
    const r = explicitConvert(e, ty, reinterpret);
    if (!r) { this.u.error(pos, 171, `invalid type conversion`); return errExpr(pos); }
    if (r === e && ty.k !== 'ref' && e.lv) return rval(e);
    if (ty.k === 'ref' && ty.rv && r.lv) return markXvalue({ ...r, pos: r.pos } as Expr);
    return { ...r, pos: r.pos } as Expr;
  }
  /**
   * Deduce and instantiate one function template for a call. A template whose declaration we cannot read or
   * instantiate for these arguments (SFINAE, features we lack) is no candidate; `failed` hears why.
   */
  private tryInstantiate(di: number, explicit: TArg[], args: Expr[], failed: (reason: string) => void): FuncSym | null {
    const dl = this.u.diags.length, ec = this.u.errorCount;
    try {
      const f = this.u.templates.deduceAndInstantiate(di, explicit, args);
      if (this.u.errorCount > ec) { this.u.diags.length = dl; this.u.errorCount = ec; failed(`function template ${this.u.index.decls[di]!.name}: substitution failed`); return null; }
      return f;
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      this.u.diags.length = dl; this.u.errorCount = ec;
      failed(e instanceof Unsupported ? e.reason : `function template ${this.u.index.decls[di]!.name}: substitution failed`);
      return null;
    }
  }
  /** Deduce and instantiate a member function template for a call (like tryInstantiate). */
  private tryInstantiateMember(mt: MemberTmpl, explicit: TArg[], args: Expr[], failed: (reason: string) => void): FuncSym | null {
    const dl = this.u.diags.length, ec = this.u.errorCount;
    try {
      const f = this.u.templates.deduceAndInstantiateMember(mt, explicit, args);
      if (this.u.errorCount > ec) { this.u.diags.length = dl; this.u.errorCount = ec; failed(`member template ${mt.name}: substitution failed`); return null; }
      return f;
    } catch (e) {
      if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e;
      this.u.diags.length = dl; this.u.errorCount = ec;
      failed(e instanceof Unsupported ? e.reason : `member template ${mt.name}: substitution failed`);
      return null;
    }
  }
  /** Host code being read only to find the kernel template specialisations its launches need. */
  hostLaunches: FuncSym[] | null = null;
  /** `kernel<<<config>>>(args)` in host code: deduce and instantiate a kernel template's arguments. */
  private parseLaunch(callee: Expr, pos: Pos): Expr {
    this.p += 2;
    while (!this.at('>>')) { this.parseBinary(9); if (!this.eat(',')) break; }
    this.expect('>>'); this.expect('>');
    this.expect('(');
    const args = this.parseArgs(')');
    this.expect(')');
    const tmpl = (callee as Expr & { templates?: { ents: number[]; explicit: TArg[] } }).templates;
    if (tmpl && this.hostLaunches) {
      const found: FuncSym[] = [];
      for (const di of tmpl.ents) {
        const f = this.tryInstantiate(di, tmpl.explicit, args, r => { throw new Unsupported(r); });
        if (!f) continue;
        const same = found.findIndex(o => sameSignature(o, f));
        if (same >= 0) { if (found[same]!.bodyStart < 0 && f.bodyStart >= 0) found[same] = f; continue; }
        found.push(f);
      }
      if (found.length !== 1) throw new Unsupported(`launch of kernel template ${callee.k === 'func' ? callee.sym.name : ''}: ${found.length} candidates`);
      if (!this.hostLaunches.includes(found[0]!)) this.hostLaunches.push(found[0]!);
    }
    return mk(C.void, pos, false, { k: 'int', v: 0n });
  }
  parsePostfix(e: Expr): Expr {
    for (;;) {
      const pos = this.p;
      if (this.at('<<') && this.at('<', 1) && e.k === 'func') { e = this.parseLaunch(e, pos); continue; }
      if (this.at('[')) {
        this.p++;
        const i = this.parseExpr();
        this.expect(']');
        e = this.index(e, i, pos);
      } else if (this.at('(')) {
        this.p++;
        const args = this.parseArgs(')');
        this.expect(')');
        e = this.call(e, args, pos);
      } else if (this.at('.') || this.at('->')) {
        const arrow = this.at('->'); this.p++;
        if (this.at('~')) { e = this.explicitDtorCall(e, arrow, pos); continue; }
        this.eat('template');
        const name = this.tx(); const npos = this.p;
        if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
        this.p++;
        if (this.at('::') && this.kind(1) === Tok.Ident) { e = this.qualifiedMember(e, name, arrow, npos); continue; }
        e = this.member(e, name, arrow, npos);
      } else if (this.at('++') || this.at('--')) {
        const op = this.tx(); this.p++;
        if (e.ty.k === 'record') e = this.userOperator(op, [e], pos, true) ?? this.noOperator(op, pos);
        else e = this.incdec(op, false, e, pos);
      } else return e;
    }
  }
  /**
   * `new T`, `new T(args)`, `new T{args}`, `new T[n]`, `new T[n]()`: an object or array on the device heap
   * (cicc calls malloc). Arrays of classes with destructors get the Itanium array cookie (the count).
   */
  private parseNew(): Expr {
    const pos = this.p;
    this.p++;
    const ty = this.newTypeId();
    if (ty.k === 'record' && !ty.rec.complete) { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
    if (ty.k === 'record' && classAllocator(ty.rec, 'new')) throw new Unsupported(`operator new of class ${ty.rec.name}`);
    const alloc = (arr: boolean): FuncSym | undefined => (ty.k === 'record' ? classAllocFn(ty.rec, arr ? 'operator new[]' : 'operator new', 1) : undefined);
    if (this.at('[')) {
      this.p++;
      const n = rval(this.parseExpr());
      this.expect(']');
      if (this.at('[')) throw new Unsupported('new of a multidimensional array');
      if (!isIntegral(n.ty)) { this.u.error(n.pos, 32, 'expression must have integral or unscoped enum type'); return errExpr(pos); }
      let init: Init | null = this.defaultInit(ty, pos);
      if (this.at('{')) throw new Unsupported('new[] with an initializer list');
      if (this.at('(')) { this.p++; this.expect(')'); if (ty.k !== 'record') init = { k: 'zero', ty }; }
      return mk(ptrTo(ty), pos, false, { k: 'new', elem: ty, count: convertArith(n, C.ulong), init, alloc: alloc(true) });
    }
    const init = this.newInitializer(ty, pos);
    return mk(ptrTo(ty), pos, false, { k: 'new', elem: ty, count: null, init, alloc: alloc(false) });
  }
  /** `delete p` / `delete[] p`: destructor(s) then free; a virtual destructor deletes through the vtable. */
  private parseDelete(): Expr {
    const pos = this.p;
    this.p++;
    let array = false;
    if (this.at('[') && this.at(']', 1)) { this.p += 2; array = true; }
    const e = rval(this.parseCastExpr());
    if (e.ty.k === 'error') return e;
    if (e.ty.k !== 'ptr') { this.u.error(pos, 1005, 'expression must be a pointer to a complete object type'); return errExpr(pos); }
    const t = e.ty.to;
    if (t.k === 'record') {
      if (!t.rec.complete) { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
      if (classAllocator(t.rec, 'delete')) throw new Unsupported(`operator delete of class ${t.rec.name}`);
    }
    return mk(C.void, pos, false, { k: 'delete', e, array });
  }
  /** A member class template named `t` of a class we are in (its body, or a member function's). */
  private memberClassTmpl(t: string): MemberClassTmpl | undefined {
    for (let i = this.recordStack.length - 1; i >= 0; i--) { const m = memberClassTmplOf(this.recordStack[i]!, t); if (m) return m; }
    for (let c: RecordDecl | null | undefined = this.cls; c; c = c.parent) { const m = memberClassTmplOf(c, t); if (m) return m; }
    return undefined;
  }
  /** At `N<args>` of a member class template: its specialisation (the cursor moves past the arguments). */
  private memberClassType(mct: MemberClassTmpl): CType {
    this.p++;
    const args = this.parseTemplateArgs();
    if (mct.alias) return instantiateMemberAlias(this.u, mct, args);
    return { k: 'record', rec: instantiateMemberClass(this.u, mct, args), q: 0 };
  }
  /** `obj.Base::m` / `p->Base::m` (after `Base`): the member of base class Base (or the class itself), a call of it not virtual. */
  private qualifiedMember(e: Expr, cls: string, arrow: boolean, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    const obj = arrow ? this.deref(rval(e), pos) : e;
    const rt = obj.ty;
    if (rt.k !== 'record') { this.u.error(pos, 153, `expression must have class type but it has type "${typeName(rt)}"`); return errExpr(pos); }
    const find = (r: RecordDecl): RecordDecl | null => {
      if (r.name === cls) return r;
      for (const b of r.bases ?? []) { const x = find(b.rec); if (x) return x; }
      return null;
    };
    const target = find(rt.rec);
    if (!target) throw new Unsupported(`qualified member name ${cls}::${this.tx(1)}`);
    this.p++;
    const name = this.tx(), npos = this.p;
    this.p++;
    const sub = target === rt.rec ? obj : this.baseSubobject(obj, rt.rec, target, pos);
    const m = this.member(sub, name, false, npos);
    (m as Expr & { qualified?: boolean }).qualified = true;
    return m;
  }
  /** `new (place) T(args)` / `new (place) T{args}` / `new (place) T`: construct a T in given storage. */
  private parsePlacementNew(): Expr {
    const pos = this.p;
    this.p += 2;
    const place = rval(this.parseAssign());
    if (!this.at(')')) throw new Unsupported('operator new with several placement arguments');
    this.p++;
    const ty = this.newTypeId();
    if (place.ty.k !== 'ptr') { this.u.error(pos, 167, `argument of type "${typeName(place.ty)}" is incompatible with parameter of type "void *"`); return errExpr(pos); }
    if (this.at('[')) {
      // `new (buf) T[n]`: the reserved placement form takes no array cookie (Itanium ABI): n elements at buf
      this.p++;
      const n = rval(this.parseExpr());
      this.expect(']');
      if (this.at('[')) throw new Unsupported('placement new of a multidimensional array');
      if (!isIntegral(n.ty)) { this.u.error(n.pos, 32, 'expression must have integral or unscoped enum type'); return errExpr(pos); }
      if (this.at('{')) throw new Unsupported('placement new[] with an initializer list');
      let init: Init | null = this.defaultInit(ty, pos);
      if (this.at('(')) { this.p++; this.expect(')'); if (ty.k !== 'record') init = { k: 'zero', ty }; }
      return mk(ptrTo(ty), pos, false, { k: 'pnew', place: cast(place, 'p2p', ptrTo(ty)), init, count: convertArith(n, C.ulong) });
    }
    const init = this.newInitializer(ty, pos);
    return mk(ptrTo(ty), pos, false, { k: 'pnew', place: cast(place, 'p2p', ptrTo(ty)), init });
  }
  /** `obj.~T()` / `p->~T()`: the destructor (virtual when the class's is), or nothing for a scalar type. */
  private explicitDtorCall(e: Expr, arrow: boolean, pos: Pos): Expr {
    this.p++;
    const obj = arrow ? this.deref(rval(e), pos) : e;
    if (this.kind() !== Tok.Ident) this.syntax('expected an identifier', 40);
    this.p++;
    if (this.at('<')) throw new Unsupported('explicit destructor call naming a template');
    this.expect('('); this.expect(')');
    const t = obj.ty;
    if (t.k !== 'record') return mk(C.void, pos, false, { k: 'cast', ck: 'void', e: obj });   // a pseudo-destructor
    const c = mk(C.void, pos, false, { k: 'call', f: null, callee: null, args: [], thisPtr: mk(ptrTo(t), pos, false, { k: 'addr', e: obj }) });
    (c as Expr & { dtorOf?: unknown }).dtorOf = t.rec;
    return c;
  }
  index(a: Expr, i: Expr, pos: Pos): Expr {
    if (a.ty.k === 'error' || i.ty.k === 'error') return errExpr(pos);
    if (a.ty.k === 'record') return this.userOperator('[]', [a, i], pos) ?? this.noOperator('[]', pos);
    let base = rval(a), idx = rval(i);
    if (base.ty.k !== 'ptr' && idx.ty.k === 'ptr') [base, idx] = [idx, base];
    if (base.ty.k !== 'ptr') { this.u.error(pos, 31, 'expression must have pointer-to-object type but it has type "' + typeName(a.ty) + '"'); return errExpr(pos); }
    if (!isIntegral(idx.ty)) { this.u.error(i.pos, 32, 'expression must have integral or unscoped enum type'); return errExpr(pos); }
    return mk(base.ty.to, pos, true, { k: 'index', base, idx: promote(idx) });
  }
  member(e: Expr, name: string, arrow: boolean, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    if (e.k === 'bvarbase') {
      if (!['x', 'y', 'z'].includes(name)) { this.u.error(pos, 135, `class "uint3" has no member "${name}"`); return errExpr(pos); }
      return mk(C.uint, pos, false, { k: 'bvar', name: e.name, field: name });
    }
    let rt: CType = e.ty;
    let base: Expr = e;
    if (arrow && e.ty.k === 'record') throw new Unsupported('overloaded operator->');
    if (arrow) {
      base = rval(e);
      if (base.ty.k !== 'ptr') { this.u.error(pos, 131, `expression must have pointer-to-class type but it has type "${typeName(e.ty)}"`); return errExpr(pos); }
      rt = base.ty.to;
    }
    if (rt.k !== 'record') { this.u.error(pos, 153, `expression must have class type but it has type "${typeName(rt)}"`); return errExpr(pos); }
    const f = rt.rec.fields.find(x => x.name === name && !x.isBase);
    const anon = f ? null : anonPath(rt.rec, name);
    if (anon) {
      // a member of an anonymous struct/union: through the unnamed members
      let cur: Expr = e, arrowHere = arrow;
      let q = rt.q & (Q.Const | Q.Volatile);
      for (const fl of anon) {
        const fty = withQ(fl.ty, q);
        cur = mk(fty, pos, arrowHere || cur.lv, { k: 'member', e: arrowHere ? base : cur, field: fl, arrow: arrowHere });
        arrowHere = false; q = fty.q & (Q.Const | Q.Volatile);
      }
      return cur;
    }
    if (!f) {
      const obj = arrow ? mk(rt, pos, true, { k: 'deref', e: base }) : e;
      const ms = this.classMember(rt.rec, name, false);
      // member function templates, with the member functions of that name they overload
      const mts = ms.every(m => m.kind === 'func') ? memberTmplsOf(rt.rec, name) : [];
      if (mts.length) {
        const fs = ms as FuncSym[];
        const owner = mts[0]!.rec;
        if (fs.some(m => m.cls !== owner)) throw new Unsupported(`member template ${name} overloaded with member functions of another class`);
        const explicit = this.at('<') ? this.parseTemplateArgs() : [];
        const cal = mk(C.int, pos, false, { k: 'func', sym: fs[0] ?? { name } as FuncSym });
        (cal as Expr & { overloads?: FuncSym[] }).overloads = fs;
        (cal as Expr & { templates?: TmplRef }).templates = { ents: [], explicit, members: mts };
        (cal as Expr & { thisObj?: Expr }).thisObj = owner !== rt.rec ? this.baseSubobject(obj, rt.rec, owner, pos) : obj;
        if (!this.at('(')) throw new Unsupported(`member template ${name} used other than in a call`);
        return cal;
      }
      if (ms.length) {
        const m = ms[0]!;
        if (m.kind === 'field') {
          // a member of a base class
          const b = this.baseSubobject(obj, rt.rec, m.rec, pos);
          return this.member(b, name, false, pos);
        }
        if (m.kind === 'var') { this.u.noteVarUse(m, this.fn, pos); return mk(m.ty.k === 'ref' ? m.ty.to : m.ty, pos, true, { k: 'var', sym: m }); }
        if (m.kind === 'enumconst') return mk(m.ty, pos, false, { k: 'int', v: m.value });
        if (m.kind === 'func') {
          const fs = ms.filter((x): x is FuncSym => x.kind === 'func');
          const owner = fs[0]!.cls!;
          const cal = mk(m.ty, pos, true, { k: 'func', sym: m });
          (cal as Expr & { overloads?: FuncSym[] }).overloads = fs;
          (cal as Expr & { thisObj?: Expr }).thisObj = owner !== rt.rec ? this.baseSubobject(obj, rt.rec, owner, pos) : obj;
          return cal;
        }
      }
      this.u.error(pos, 135, `class "${typeName(unqual(rt))}" has no member "${name}"`); return errExpr(pos);
    }
    if (f.ty.k === 'ref') {
      // a reference member names the object it refers to (whatever the constness of the object holding it): the
      // member's slot holds its address
      const slot = mk(ptrTo(f.ty.to), pos, true, { k: 'member', e: base, field: f, arrow });
      return mk(f.ty.to, pos, true, { k: 'deref', e: rval(slot) });
    }
    const fty = withQ(f.ty, rt.q & (Q.Const | Q.Volatile));
    return mk(fty, pos, arrow || e.lv, { k: 'member', e: base, field: f, arrow });
  }

  call(callee: Expr, args: Expr[], pos: Pos): Expr {
    if (callee.ty.k === 'error' || args.some(a => a.ty.k === 'error')) return errExpr(pos);
    let f: FuncSym | null = null;
    if (callee.k === 'func') {
      let set = (callee as Expr & { overloads?: FuncSym[] }).overloads ?? [callee.sym];
      /** A candidate template we could not read or instantiate (not a deduction/substitution failure). */
      let unreadable: string | null = null;
      const tmpl = (callee as Expr & { templates?: TmplRef }).templates;
      if (tmpl) {
        set = [...set];
        let failed: string | null = null;
        for (const mt of tmpl.members ?? []) {
          const inst = this.tryInstantiateMember(mt, tmpl.explicit, args, r => { failed ??= r; if (!/substitution failed$/.test(r) && mayTake(arityOf(this.u, mt.name, mt.start, mt.end), args)) unreadable ??= r; });
          if (inst && !set.includes(inst)) set.push(inst);
        }
        for (const di of tmpl.ents) {
          const d = this.u.index.decls[di]!;
          const inst = this.tryInstantiate(di, tmpl.explicit, args, r => { failed ??= r; if (!/substitution failed$/.test(r) && mayTake(arityOf(this.u, d.name, d.first, d.last + 1), args)) unreadable ??= r; });
          if (!inst || set.includes(inst)) continue;
          // a template declared more than once: one specialisation (the one with a body)
          const same = set.findIndex(o => o.targs && sameSignature(o, inst));
          if (same >= 0) { if (set[same]!.bodyStart < 0 && inst.bodyStart >= 0) set[same] = inst; continue; }
          set.push(inst);
        }
        if (set.length === 0 && failed) throw new Unsupported(failed);
        // a template with a trailing parameter pack is less specialised than one without: same parameters, the other wins
        const samePs = (a: FuncSym, b: FuncSym) => a.ty.params.length === b.ty.params.length && a.ty.params.every((x, i) => typeName(x) === typeName(b.ty.params[i]!));
        const packed = (f: FuncSym) => !!f.targs?.some(a => a.k === 'pack');
        set = set.filter(f => !packed(f) || !set.some(g => g !== f && !packed(g) && samePs(f, g)));
        if (set.length === 0) { this.u.error(pos - 1, 304, `no instance of function template "${callee.sym.name}" matches the argument list`); return errExpr(pos); }
      }
      const obj = (callee as Expr & { thisObj?: Expr }).thisObj;
      f = this.resolveOverload(set, args, pos, callee.sym.name, obj ?? null);
      if (!f) return errExpr(pos);
      // the template we could not read might have been the better match (std::pow(float, int) is libstdc++'s
      // promoting template, not powf): only an exact match is certainly the best
      // a candidate with a template template parameter is more specialised than a generic template that takes
      // any type there (cg::reduce's `TyOp<T> &&op` overloads use redux.sync; the `TyFn &&op` one a shuffle tree)
      if (unreadable === 'template template parameter' && f.targs) throw new Unsupported(unreadable);
      // a specialisation chosen while a candidate template could not be read: that one may be more specialised,
      // or the chosen one the `(...)` catch-all of a detection idiom (SFINAE on a return type we cannot read)
      if (unreadable && f.targs) throw new Unsupported(unreadable);
      if (unreadable && !f.targs && !args.every((a, i) => i >= f!.ty.params.length || convRank(a, f!.ty.params[i]!) < 1)) {
        f = promotedMathOverload(callee.sym.name, set, args);
        if (!f) throw new Unsupported(unreadable);
      }
      if (f.cls && !f.staticMember) {
        if (!obj) { this.u.error(pos, 245, 'a nonstatic member reference must be relative to a specific object'); return errExpr(pos); }
        const c = this.buildCall(f, null, f.ty, args, pos, obj);
        if ((callee as Expr & { qualified?: boolean }).qualified) (c as Expr & { direct?: boolean }).direct = true;
        return c;
      }
      return this.buildCall(f, null, f.ty, args, pos);
    }
    if (callee.ty.k === 'record') {
      const r = this.userOperator('()', [callee, ...args], pos);
      if (r) return r;
      this.u.error(pos, 980, `call of an object of a class type without appropriate operator() or conversion functions to pointer-to-function type`);
      return errExpr(pos);
    }
    const c = rval(callee);
    if (c.ty.k === 'ptr' && c.ty.to.k === 'func') return this.buildCall(null, c, c.ty.to, args, pos);
    this.u.error(pos, 109, `expression preceding parentheses of apparent call must have (pointer-to-) function type`);
    return errExpr(pos);
  }
  /** `&e` of the built-in operator. */
  private addressOf(e: Expr, pos: Pos): Expr {
    if (e.ty.k === 'error') return e;
    if (e.k === 'func') return rval(e);
    if (!e.lv) { this.u.error(pos, 158, 'expression must be an lvalue or a function designator'); return errExpr(pos); }
    if (e.k === 'bvar' || e.k === 'bvarbase') throw new Unsupported('address of a builtin variable');
    return mk(ptrTo(e.ty), pos, false, { k: 'addr', e });
  }
  private resolveOverload(set: FuncSym[], args: Expr[], pos: Pos, name: string, obj: Expr | null = null): FuncSym | null {
    const viable: Candidate[] = [];
    for (const f of set) {
      const ps = f.ty.params;
      const nDefaults = f.defaults.filter(d => d !== null).length;
      if (args.length > ps.length && !f.ty.variadic) continue;
      if (args.length < ps.length - nDefaults) continue;
      const ranks: number[] = [], refs: boolean[] = [];
      let ok = true;
      if (obj) {
        // the implicit object parameter: a const object needs a const member function
        const q = obj.ty.q & (Q.Const | Q.Volatile), tq = f.staticMember ? q : (f.thisQ ?? 0) & (Q.Const | Q.Volatile);
        if (q & ~tq) continue;
        ranks.push(q === tq ? 0 : 1);
        refs.push(false);
      }
      for (let i = 0; i < args.length; i++) {
        const r = i < ps.length ? convRank(args[i]!, ps[i]!) : 3;
        if (r < 0) { ok = false; break; }
        ranks.push(r);
        refs.push(i < ps.length && ps[i]!.k === 'ref');
      }
      if (ok) viable.push({ f, ranks, refs });
    }
    if (viable.length === 0) {
      if (set.length === 1) {
        const f = set[0]!;
        const ps = f.ty.params;
        const nDefaults = f.defaults.filter(d => d !== null).length;
        if (args.length < ps.length - nDefaults) { this.u.error(pos + 1 < this.p ? this.p - 1 : pos, 165, 'too few arguments in function call'); return null; }
        if (args.length > ps.length && !f.ty.variadic) { this.u.error(args[ps.length]!.pos, 140, 'too many arguments in function call'); return null; }
        for (let i = 0; i < args.length && i < ps.length; i++) {
          if (convRank(args[i]!, ps[i]!) < 0) {
            this.u.error(args[i]!.pos, 167, `argument of type "${typeName(args[i]!.ty)}" is incompatible with parameter of type "${typeName(ps[i]!)}"`);
            return null;
          }
        }
      }
      this.u.error(pos - 1, 304, `no instance of overloaded function "${name}" matches the argument list`);
      return null;
    }
    let best = viable[0]!;
    let ambiguous = false;
    for (let i = 1; i < viable.length; i++) {
      const c = viable[i]!;
      const cmp = compareCandidates(c, best);
      if (cmp < 0) { best = c; ambiguous = false; }
      else if (cmp === 0) ambiguous = true;
    }
    if (ambiguous) {
      // a non-template function beats a template specialisation with the same conversions
      const ties = viable.filter(v => v === best || compareCandidates(v, best) === 0 && compareCandidates(best, v) === 0);
      const plain = ties.filter(v => !v.f.targs);
      if (plain.length === 1 && ties.length > 1 && viable.every(v => ties.includes(v) || compareCandidates(best, v) < 0)) return plain[0]!.f;
      // re-check: best must beat every other
      const strictly = viable.every(v => v === best || compareCandidates(best, v) < 0);
      if (!strictly) {
        // template specialisations that tie: the more specialised template wins (partial ordering)
        const winner = ties.find(t => ties.every(o => o === t || this.u.templates.moreSpecialized(t.f, o.f)));
        if (winner && viable.every(v => ties.includes(v) || compareCandidates(best, v) < 0)) return winner.f;
        // a tie among the headers' own overloads is our misreading of them (cicc compiles such units), not
        // the user's error: fall back naming it
        if (ties.every(v => !this.u.isUserFile(v.f.pos))) throw new Unsupported(`overload resolution among header declarations of ${name}`);
        this.u.error(pos - 1, 308, `more than one instance of overloaded function "${name}" matches the argument list`); return null;
      }
    }
    return best.f;
  }
  private buildCall(f: FuncSym | null, callee: Expr | null, fty: CType & { k: 'func' }, args: Expr[], pos: Pos, obj?: Expr): Expr {
    if (f && (isAuto(f.ty.ret) || (f.ty.ret.k === 'ref' && isAuto(f.ty.ret.to)))) {
      // a deduced return type: the body says what it is
      this.u.parseBody(f);
      if (isAuto(f.ty.ret)) f.ty = { ...f.ty, ret: f.body ? C.void : C.error };
      if (f.ty.ret.k === 'ref' && isAuto(f.ty.ret.to)) throw new Unsupported(`deduced reference return type of ${f.name}`);
      fty = f.ty;
    }
    if (f && f.deleted) { this.u.error(pos, 1776, `function "${this.u.prettyFunction(f).replace(/^\S+ /, '')}" cannot be referenced -- it is a deleted function`); return errExpr(pos); }
    const ps = fty.params;
    const conv: Expr[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (i < ps.length) {
        const c = implicitConvert(a, ps[i]!);
        if (!c) { this.u.error(a.pos, 167, `argument of type "${typeName(a.ty)}" is incompatible with parameter of type "${typeName(ps[i]!)}"`); return errExpr(pos); }
        conv.push(c);
      } else {
        // default argument promotions for variadic arguments
        let r = rval(a);
        if (r.ty.k === 'float') r = convertArith(r, C.double);
        else if (isIntegral(r.ty)) r = promote(r);
        else if (r.ty.k === 'nullptr') r = cast(r, 'null', ptrTo(C.void));
        else if (r.ty.k === 'record') throw new Unsupported('struct passed through ...');
        conv.push(r);
      }
    }
    if (f && args.length < ps.length) {
      for (let i = args.length; i < ps.length; i++) {
        const d = f.defaults[i];
        if (d === null || d === undefined) { this.u.error(pos, 165, 'too few arguments in function call'); return errExpr(pos); }
        const sub = new Parser(this.u, d, this.u.toks.count, f.scope);
        sub.tscope = f.tscope ?? null;   // a default argument of a template (or a member of a class template) names its parameters
        sub.cls = f.cls ?? null;
        const e = sub.parseAssign();
        const c = implicitConvert(e, ps[i]!);
        if (!c) return errExpr(pos);
        conv.push(c);
      }
    }
    let rt = fty.ret;
    let lv = false;
    if (rt.k === 'ref') { rt = rt.to; lv = true; }
    // a by-value parameter of a class with its own copy constructor is made by that constructor (a prvalue
    // argument initialises it directly)
    let argInits: (Init | undefined)[] | undefined;
    for (let i = 0; i < conv.length && i < ps.length; i++) {
      const pt = ps[i]!;
      if (pt.k !== 'record') continue;
      const a = args[i]!;
      if (!ownCopyCtor(pt.rec)) { this.checkTrivialCopy(pt); continue; }
      if (!a.lv && a.ty.k === 'record' && a.ty.rec === pt.rec) continue;
      // an xvalue argument picks the move constructor, an lvalue the copy constructor
      (argInits ??= [])[i] = this.initFromArgs(unqual(pt), [a], false, a.pos);
    }
    const thisPtr = obj ? mk(ptrTo(obj.ty), pos, false, { k: 'addr', e: obj }) : undefined;
    const call = mk(rt, pos, lv, { k: 'call', f, callee, args: conv, ...(thisPtr ? { thisPtr } : {}) });
    if (fty.ret.k === 'ref' && fty.ret.rv) markXvalue(call);
    if (argInits) (call as Expr & { argInits?: (Init | undefined)[] }).argInits = argInits;
    return call;
  }
  /** `T(args)` / `T{args}` for a class type T: a temporary made by a constructor or aggregate/value initialisation. */
  constructTemp(ty: CType & { k: 'record' }, pos: Pos): Expr {
    const braced = this.at('{');
    if (!braced && !this.at('(')) this.syntax('expected a "("', 125);
    this.p++;
    const close = braced ? '}' : ')';
    const args = this.parseArgs(close, braced ? 'nested braced initializer in a temporary' : undefined);
    this.expect(close);
    return this.makeTemp(unqual(ty) as CType & { k: 'record' }, args, braced, pos);
  }
  makeTemp(ty: CType & { k: 'record' }, args: Expr[], braced: boolean, pos: Pos): Expr {
    if (args.some(a => a.ty.k === 'error')) return errExpr(pos);
    if (!ty.rec.complete) { this.u.error(pos, 70, 'incomplete type is not allowed'); return errExpr(pos); }
    // a temporary of a class with a destructor: codegen refuses it unless it initialises an object directly
    const init = this.initFromArgs(ty, args, braced, pos);
    if (init.k === 'expr') return init.e.ty.k === 'record' && !init.e.lv ? init.e : init.e.k === 'error' ? init.e : mk(ty, pos, false, { k: 'temp', init });
    if (init.k === 'ctor') return mk(ty, pos, false, { k: 'construct', ctor: init.f, args: init.args });
    return mk(ty, pos, false, { k: 'temp', init });
  }
  /** Objects of classes with a non-trivial destructor need destructor calls at scope exit: not supported yet. */
  checkDestructor(t: CType): void {
    if (t.k === 'array') return this.checkDestructor(t.elem);
    if (t.k !== 'record') return;
    for (const m of t.rec.methods ?? []) {
      if (!m.dtor || m.defaulted) continue;
      if (m.bodyStart >= 0 && m.bodyEnd === m.bodyStart + 1) continue;   // `~S() {}`
      throw new Unsupported(`non-trivial destructor of ${t.rec.name}`);
    }
    for (const f of t.rec.fields) this.checkDestructor(f.ty);
  }
  /**
   * An overloaded operator applied to operands at least one of which has class type: member candidates of the
   * first operand's class, and non-member `operator@` found from the current scope and the operands' namespaces.
   * Null when there is no candidate at all (the built-in operator applies or it is an error).
   */
  userOperator(op: string, args: Expr[], pos: Pos, postfix = false): Expr | null {
    const name = 'operator' + op;
    if (postfix) args = [...args, mk(C.int, pos, false, { k: 'int', v: 0n })];   // the dummy int of postfix ++/--
    const a0 = args[0]!;
    const members: FuncSym[] = [];
    /** An operator template we could not read (not a deduction/substitution failure): it might have matched. */
    let unreadable: string | null = null;
    const notViable = (r: string): void => { if (!/substitution failed$/.test(r)) unreadable ??= r; };
    let headerFailed: string | null = null;
    if (a0.ty.k === 'record') {
      const ms = this.classMember(a0.ty.rec, name, false).filter((m): m is FuncSym => m.kind === 'func');
      if (op === '()' && (a0.ty.rec as RecordDecl & { genericLambda?: unknown }).genericLambda) {
        const f = this.instantiateGenericLambda(a0.ty.rec, args.slice(1));
        if (f) ms.push(f);
      }
      for (const mt of memberTmplsOf(a0.ty.rec, name)) {
        // operator templates: the specialisations deduced from the other operands (a header's that fails to
        // substitute may be our misreading of its constraints: no match then falls back, like constructors)
        const f = this.tryInstantiateMember(mt, [], args.slice(1), r => { notViable(r); if (!this.u.isUserFile(mt.start)) headerFailed ??= r; });
        if (f && !ms.includes(f)) ms.push(f);
      }
      for (const m of ms) if (m.ty.params.length === args.length - 1 || (m.defaults.length && m.ty.params.length > args.length - 1 && m.defaults[args.length - 1] !== null)) members.push(m);
    }
    const free: FuncSym[] = [];
    if (op !== '=' && op !== '()' && op !== '[]' && op !== '->') {
      const add = (syms: Sym[]) => { for (const x of syms) if (x.kind === 'func' && !x.cls && x.ty.params.length === args.length && !free.includes(x)) free.push(x); };
      try {
        add(this.u.lookup(name, this.ns));
        for (const a of args) if (a.ty.k === 'record') add(this.u.lookupIn(a.ty.rec.scope.filter(c => c !== '(anonymous)'), name));
        // hidden friends of the operands' classes (argument-dependent lookup)
        const friends = (this.u as Unit & { hiddenFriendFns?: Map<string, FuncSym[]> }).hiddenFriendFns?.get(name) ?? [];
        add(friends.filter(f => args.some(a => a.ty.k === 'record' && a.ty.rec === (f as FuncSym & { friendOf?: RecordDecl }).friendOf)));
      } catch (e) { if (!(e instanceof Unsupported) || members.length === 0) throw e; }
      // operator templates: from the current scope and the namespaces of class operands
      const ents = new Set<number>(this.u.templateEntries(name, this.ns, 'function'));
      for (const a of args) if (a.ty.k === 'record') for (const di of this.u.templateEntries(name, a.ty.rec.scope.filter(c => c !== '(anonymous)'), 'function', true)) ents.add(di);
      for (const di of ents) {
        const f = this.tryInstantiate(di, [], args, notViable);
        if (f && !f.cls && f.ty.params.length === args.length && !free.some(o => sameSignature(o, f))) free.push(f);
      }
    }
    const cands: { f: FuncSym; ranks: number[] }[] = [];
    for (const m of members) {
      const q = a0.ty.q & (Q.Const | Q.Volatile), tq = m.staticMember ? q : (m.thisQ ?? 0) & (Q.Const | Q.Volatile);
      if (q & ~tq) continue;
      const rs = [q === tq ? 0 : 1];
      let ok = true;
      for (let i = 1; i < args.length; i++) { const r = convRank(args[i]!, m.ty.params[i - 1]!); if (r < 0) { ok = false; break; } rs.push(r); }
      if (ok) cands.push({ f: m, ranks: rs });
    }
    for (const f of free) {
      const rs: number[] = [];
      let ok = true;
      for (let i = 0; i < args.length; i++) { const r = convRank(args[i]!, f.ty.params[i]!); if (r < 0) { ok = false; break; } rs.push(r); }
      if (ok) cands.push({ f, ranks: rs });
    }
    if (unreadable && cands.length === 0) throw new Unsupported(unreadable);
    if (headerFailed && cands.length === 0) throw new Unsupported(`operator template ${name}: ${headerFailed}`);
    // none viable: the built-in operator on what the class operands convert to remains ([over.built]; `L{} >= 4`
    // with L an integral_constant), which the caller tries
    if (cands.length === 0) return null;
    let best = cands[0]!;
    for (const c of cands.slice(1)) if (compareRanks(c.ranks, best.ranks) < 0) best = c;
    if (!cands.every(c => c === best || compareRanks(best.ranks, c.ranks) < 0)) { this.u.error(pos, 350, `more than one operator "${op}" matches these operands`); return errExpr(pos); }
    if (best.f.cls && !best.f.staticMember) return this.buildCall(best.f, null, best.f.ty, args.slice(1), pos, a0);
    return this.buildCall(best.f, null, best.f.ty, args, pos);
  }
  /** Passing or returning a class object by value copies its bytes: a class with its own copy constructor is unsupported there. */
  checkTrivialCopy(t: CType): void {
    if (t.k !== 'record') return;
    if (isByteCopy(t.rec)) return;
    for (const m of t.rec.methods ?? []) {
      if (!m.ctor || m.defaulted || m.ty.params.length < 1) continue;
      const p0 = m.ty.params[0]!;
      if (p0.k === 'ref' && p0.to.k === 'record' && p0.to.rec === t.rec && m.ty.params.length - m.defaults.filter(d => d !== null).length <= 1)
        throw new Unsupported(`user-provided copy/move constructor of ${t.rec.name} in a by-value copy`);
    }
    for (const f of t.rec.fields) if (f.ty.k === 'record') this.checkTrivialCopy(f.ty);
  }

  parsePrimary(): Expr {
    const pos = this.p;
    const k = this.kind();
    if (k === Tok.Number) { this.p++; return this.u.numberLiteral(pos); }
    if (k === Tok.Char) { this.p++; return this.u.charLiteral(pos); }
    if (k === Tok.String) {
      const parts: number[] = [];
      while (this.kind() === Tok.String) { parts.push(this.p); this.p++; }
      return this.u.stringLiteral(parts);
    }
    if (this.at('(')) {
      const fold = this.parseFold();
      if (fold) return fold;
      this.p++;
      if (this.at('{')) throw new Unsupported('statement expression');
      const e = this.parseExpr();
      this.expect(')');
      return { ...e, pos: e.pos, paren: true } as unknown as Expr;   // decltype((x)) is a reference
    }
    if (k === Tok.Ident || this.at('::')) {
      const t = this.tx();
      switch (t) {
        case 'true': this.p++; return mk(C.bool, pos, false, { k: 'int', v: 1n });
        case 'false': this.p++; return mk(C.bool, pos, false, { k: 'int', v: 0n });
        case 'nullptr': this.p++; return mk(C.nullptr, pos, false, { k: 'int', v: 0n });
        case '__null': this.p++; return mk(C.long, pos, false, { k: 'int', v: 0n });
        case 'this': {
          this.p++;
          return this.thisPointer(pos);
        }
        case 'static_cast': case 'reinterpret_cast': case 'const_cast': {
          this.p++; this.expect('<');
          const ty = this.parseTypeName();
          this.expect('>');
          this.expect('(');
          const e = this.parseExpr();
          this.expect(')');
          return this.explicitCast(e, ty, pos, t === 'reinterpret_cast');
        }
        case 'dynamic_cast': case 'typeid': throw new Unsupported(t);
        case '__func__': case '__FUNCTION__': case '__PRETTY_FUNCTION__': {
          this.p++;
          const name = t === '__PRETTY_FUNCTION__' ? this.u.prettyFunction(this.fn) : (this.fn?.name ?? '');
          return this.u.stringFromText(name, pos);
        }
        case 'asm': case '__asm__': case '__asm': return this.parseAsm();
        case '__builtin_expect': {
          this.p++; this.expect('(');
          const a = this.parseAssign(); this.expect(','); this.parseAssign(); this.expect(')');
          return convertArith(rval(a), C.long);
        }
        case '__builtin_is_constant_evaluated': {
          // false at run time, true where the value is computed at compile time (consteval.ts); both paths a
          // library offers compute the same result, the run-time one with device instructions
          this.p++; this.expect('('); this.expect(')');
          return mk(C.bool, pos, false, { k: 'int', v: 0n, constEvaluated: true } as never);
        }
        case '__builtin_addressof': {
          // std::addressof's builtin: the address of an lvalue, never a class's operator&
          this.p++; this.expect('(');
          const e = this.parseAssign(); this.expect(')');
          return this.addressOf(e, pos);
        }
        case '__builtin_va_arg': case '__builtin_va_start': throw new Unsupported('varargs');
        case '__nv_tex_surf_handler': {
          // cicc's builtin behind the texture/surface object functions: ("__itex2D", T *ptr, obj, coords...)
          this.p++; this.expect('(');
          const args = this.parseArgs(')').map(rval); this.expect(')');
          const op = args[0]?.k === 'cast' && args[0].e.k === 'str' ? new TextDecoder('latin1').decode(args[0].e.bytes).replace(/\0+$/, '') : null;
          if (op === null) throw new Unsupported('__nv_tex_surf_handler without an operation string');
          return mk(C.void, pos, false, { k: 'call', f: null, callee: null, args: args.slice(1), texOp: op });
        }
        case '[': return this.parseLambda();
        default: break;
      }
      if (this.startsType() && !this.u.isKeyword(t) || TYPE_KW.has(t)) {
        // functional cast T(x) / T{}
        const ty = this.parseDeclSpecs().ty;
        if (!ty) this.syntax('expected an expression', 29);
        if (ty.k === 'record') return this.constructTemp(ty, pos);
        if (this.at('{')) {
          this.p++;
          if (this.eat('}')) return convertArith(mk(C.int, pos, false, { k: 'int', v: 0n }), ty);
          const args = this.parseArgs('}'); this.eat(','); this.expect('}');   // `T{args...}` may expand to nothing
          if (args.length === 0) return convertArith(mk(C.int, pos, false, { k: 'int', v: 0n }), ty);
          if (args.length > 1) { this.u.error(pos, 146, 'too many initializer values'); return errExpr(pos); }
          return this.explicitCast(args[0]!, ty, pos);
        }
        if (!this.at('(')) this.syntax('expected a "("', 125);
        this.p++;
        if (this.at(')')) { this.p++; if (!isScalar(ty)) throw new Unsupported('value-initialised temporary'); return convertArith(mk(C.int, pos, false, { k: 'int', v: 0n }), ty); }
        const e = this.parseExpr();
        this.expect(')');
        return this.explicitCast(e, ty, pos);
      }
      if (this.u.isKeyword(t) && t !== '::') this.syntax('expected an expression', 29);
      const qstart = this.p;
      const { name, syms: found, tmpl, value } = this.qualifiedLookup();
      if (value) return value;
      let syms = found;
      if (syms.length === 0 && name.startsWith('__builtin_') && this.at('(')) {
        // GCC's math builtins (CCCL's <cuda/std/cmath> calls __builtin_sqrtf) are the C library functions that the
        // CUDA headers declare as device builtins
        // (and its bit builtins are CUDA's: __builtin_clz is __clz)
        const base = name.slice('__builtin_'.length);
        syms = this.u.lookup(GCC_BIT_BUILTINS[base] ?? base, []).filter(x => x.kind === 'func' && (x.deviceBuiltin || (x as FuncSym & { cudartBuiltin?: boolean }).cudartBuiltin));
      }
      if (tmpl) {
        const fs = syms.filter((x): x is FuncSym => x.kind === 'func');
        const e = mk(C.int, pos, false, { k: 'func', sym: fs[0] ?? ({ name } as FuncSym) });
        (e as Expr & { overloads?: FuncSym[] }).overloads = fs;
        (e as Expr & { templates?: TmplRef }).templates = tmpl;
        if (tmpl.members && (this.fn?.thisVar || this.lambda?.outerThis)) {
          // a member function template named inside a member function: called on *this (unless it is static)
          const owner = tmpl.members[0]!.rec, obj = this.objectFor(owner, pos);
          (e as Expr & { thisObj?: Expr }).thisObj = obj.ty.k === 'record' && obj.ty.rec !== owner ? this.baseSubobject(obj, obj.ty.rec, owner, pos) : obj;
        }
        if (!this.at('(') && !(this.at('<<') && this.at('<', 1))) throw new Unsupported(`function template ${name} used other than in a call`);
        return e;
      }
      if (syms.length === 0 && this.at('(') && (/^__match(32|64)_(any|all)_sync$/.test(name) || isMmaBuiltin(name) || name in GCC_IMPLICIT)) syms = [this.implicitBuiltin(name, pos)];
      if (syms.length === 0 && this.at('(') && isNvAtomic(name)) return this.nvAtomicCall(name, pos);
      // a compiler builtin we do not know (another GCC builtin, a __nv_ one): cicc may well know it
      if (syms.length === 0 && this.at('(') && /^__(builtin|nv|nvvm)_/.test(name)) throw new Unsupported(`compiler builtin ${name}`);
      if (syms.length === 0) {
        if ((this.u as Unit & { memberClassTemplates?: Set<string> }).memberClassTemplates?.has(name)) throw new Unsupported(`member template ${name} (a member alias template, not instantiated yet)`);
        const friends = this.at('(') ? (this.u as Unit & { hiddenFriendFns?: Map<string, FuncSym[]> }).hiddenFriendFns?.get(name) : undefined;
        if (friends?.length) syms = friends;
        else if (this.at('(') && (this.u as Unit & { hiddenFriends?: Set<string> }).hiddenFriends?.has(name)) throw new Unsupported(`argument-dependent lookup of the hidden friend ${name}`);
        else {
          this.u.error(pos, 20, `identifier "${name}" is undefined`);
          return errExpr(pos);
        }
      }
      const s = syms[0]!;
      switch (s.kind) {
        case 'var': {
          if (s.deviceBuiltin) {
            if (s.name === 'warpSize') return mk(C.int, pos, false, { k: 'bvar', name: s.name, field: null });
            return mk(s.ty, pos, true, { k: 'bvarbase', name: s.name });
          }
          if ((s as VarSym & { packVars?: VarSym[] }).packVars) throw new Unsupported(`parameter pack ${s.name} used other than in an expansion`);
          this.u.noteVarUse(s, this.fn, pos);
          let ty = s.ty;
          if (ty.k === 'ref') ty = ty.to;
          return mk(ty, pos, true, { k: 'var', sym: s });
        }
        case 'func': {
          const fs = syms.filter((x): x is FuncSym => x.kind === 'func');
          const e = mk(s.ty, pos, true, { k: 'func', sym: s });
          (e as Expr & { overloads?: FuncSym[] }).overloads = fs;
          // a member function named inside a member function: called on *this
          if (fs.some(f => f.cls && !f.staticMember) && (this.fn?.thisVar || (this.lambda?.outerThis && fs[0]!.cls !== this.lambda.rec))) {
            const owner = fs[0]!.cls!;
            const obj = this.objectFor(owner, pos);
            const base = obj.ty.k === 'record' && obj.ty.rec !== owner ? this.baseSubobject(obj, obj.ty.rec, owner, pos) : obj;
            (e as Expr & { thisObj?: Expr }).thisObj = base;
            // `Base::f()` names the function itself: no virtual dispatch
            for (let j = qstart; j < this.p; j++) if (this.u.text(j) === '::') { (e as Expr & { qualified?: boolean }).qualified = true; break; }
          }
          return e;
        }
        case 'enumconst':
          if (packValsOf(s) || valPackParamOf(s) !== undefined) throw new Unsupported(`parameter pack ${s.name} used other than in an expansion`);
          return mk(s.ty, pos, false, { k: 'int', v: s.value });
        case 'field': {
          const m = this.member(this.objectFor(s.rec, pos), s.name, false, pos);
          return (s as { byRef?: boolean }).byRef ? this.deref(m, pos) : m;
        }
        case 'type': this.syntax('type name is not allowed', 254, pos);
        // falls through (never)
        case 'namespace': this.syntax('expected an expression', 29, pos);
      }
    }
    if (k === Tok.Punct && this.tx() === '[') return this.parseLambda();
    this.syntax('expected an expression', 29);
  }

  /** A fold expression `(pack op ...)`, `(... op pack)`, `(pack op ... op init)` or `(init op ... op pack)` at the '(' (null if it is none). */
  private parseFold(): Expr | null {
    const open = this.p;
    let depth = 0, dots = -1, close = -1;
    for (let j = open; j < this.end; j++) {
      const k = this.u.toks.kind[j];
      if (k === Tok.EOF) return null;
      const t = this.u.text(j);
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') { depth--; if (depth === 0) { close = j; break; } }
      else if (t === '...' && depth === 1 && dots < 0) dots = j;
    }
    if (dots < 0 || close < 0) return null;
    const isOp = (j: number) => this.u.toks.kind[j] === Tok.Punct && (BIN_PREC[this.u.text(j)] !== undefined || this.u.text(j) === ',');
    const pos = open;
    let op: string, pat: [number, number], init: [number, number] | null = null, right: boolean;
    if (dots === open + 1 && isOp(dots + 1)) { op = this.u.text(dots + 1); pat = [dots + 2, close]; right = false; }
    else if (isOp(dots - 1) && dots + 1 === close) { op = this.u.text(dots - 1); pat = [open + 1, dots - 1]; right = true; }
    else if (isOp(dots - 1) && isOp(dots + 1) && this.u.text(dots - 1) === this.u.text(dots + 1)) {
      op = this.u.text(dots - 1);
      const lhs: [number, number] = [open + 1, dots - 1], rhs: [number, number] = [dots + 2, close];
      const names = (r: [number, number]) => { for (let j = r[0]; j < r[1]; j++) { if (this.u.toks.kind[j] !== Tok.Ident) continue; const n = this.u.text(j); const ts = this.tscope?.get(n); if (this.packVar(n) || (ts && ts.kind === 'type' && packOf(ts.ty)) || packValsOf(ts)) return true; } return false; };
      right = names(lhs);
      pat = right ? lhs : rhs; init = right ? rhs : lhs;
    } else return null;
    const prec = op === ',' ? 0 : BIN_PREC[op]!;
    const operand = () => op === ',' ? this.parseAssign() : this.parseBinary(prec + 1);
    const elems = this.expandPack(pat[0], pat[1], operand, false);
    let initE: Expr | null = null;
    if (init) { this.p = init[0]; initE = operand(); if (this.p !== init[1]) this.syntax('expected a ")"', 18); }
    this.p = close + 1;
    const combine = (a: Expr, b: Expr): Expr => op === ',' ? mk(b.ty, pos, b.lv, { k: 'comma', a, b }) : this.binary(op, a, b, pos);
    const items = right ? [...elems, ...(initE ? [initE] : [])] : [...(initE ? [initE] : []), ...elems];
    if (items.length === 0) {
      // an empty unary fold: && is true, || is false, the comma operator is void()
      if (op === '&&') return mk(C.bool, pos, false, { k: 'int', v: 1n });
      if (op === '||') return mk(C.bool, pos, false, { k: 'int', v: 0n });
      if (op === ',') return cast(mk(C.int, pos, false, { k: 'int', v: 0n }), 'void', C.void);
      this.u.error(pos, 2963, `a unary fold expression over this operator must have a nonempty expansion`);
      return errExpr(pos);
    }
    if (right) { let e = items[items.length - 1]!; for (let i = items.length - 2; i >= 0; i--) e = combine(items[i]!, e); return e; }
    let e = items[0]!; for (let i = 1; i < items.length; i++) e = combine(e, items[i]!); return e;
  }
  parseAsm(): Expr {
    const pos = this.p;
    this.p++;
    let vol = false;
    for (;;) {
      if (this.at('volatile') || this.at('__volatile__') || this.at('__volatile')) { vol = true; this.p++; continue; }
      if (this.at('goto') || this.at('inline')) { this.p++; continue; }
      break;
    }
    this.expect('(');
    let text = '';
    while (this.kind() === Tok.String) { text += this.u.stringValue(this.p); this.p++; }
    const outs: { c: string; e: Expr }[] = [], ins: { c: string; e: Expr }[] = [], clobbers: string[] = [];
    const operands = (list: { c: string; e: Expr }[], out: boolean) => {
      while (this.kind() === Tok.String) {
        const c = this.u.stringValue(this.p); this.p++;
        this.expect('(');
        const e = this.parseExpr();
        this.expect(')');
        if (out && !e.lv) this.u.error(e.pos, 137, 'expression must be a modifiable lvalue');
        list.push({ c, e });
        if (!this.eat(',')) break;
      }
    };
    // sections separated by ':' (the lexer makes '::' of two adjacent colons)
    let pendingColon = 0;
    const colon = (): boolean => {
      if (pendingColon) { pendingColon--; return true; }
      if (this.eat(':')) return true;
      if (this.eat('::')) { pendingColon = 1; return true; }
      return false;
    };
    if (colon()) { if (!pendingColon) operands(outs, true); }
    if (colon()) { if (!pendingColon) operands(ins, false); }
    if (colon()) {
      while (this.kind() === Tok.String) { clobbers.push(this.u.stringValue(this.p)); this.p++; if (!this.eat(',')) break; }
    }
    if (this.at(':')) throw new Unsupported('asm goto');
    this.expect(')');
    return mk(C.void, pos, false, { k: 'asm', text, outs, ins, clobbers, vol: vol || outs.length === 0 });
  }
}

/**
 * A user-defined conversion: a converting constructor of the target class, or a conversion function of the
 * source class, followed by a standard conversion. Null unless exactly one applies. No diagnostics.
 */
function userConversion(e: Expr, to: CType): Expr | null {
  const t = unqual(to.k === 'ref' ? to.to : to);
  const found: Expr[] = [], exact: Expr[] = [];
  // rank of the standard conversion each candidate needs (converting constructors: before, conversion
  // functions: after the user-defined conversion); the best rank wins when it is unique (__half(float) for a
  // float among __half's many converting constructors, operator float() for a double)
  const ranks: number[] = [];
  if (t.k === 'record' && !(e.ty.k === 'record' && e.ty.rec === t.rec)) {
    const viaTemplates: FuncSym[] = [];
    for (const mt of ctorTmplsOf(t.rec)) {
      // a converting constructor template: the specialisation for this argument
      if (!mt.instantiate) throw new Unsupported(`implicit conversion by a constructor template of ${t.rec.name}`);
      const c = mt.instantiate([e]);
      if (c) viaTemplates.push(c);
    }
    for (const c of [...ctorsOf(t.rec), ...viaTemplates]) {
      if (c.deleted || c.ty.params.length === 0) continue;
      if (c.ty.params.length > 1 && c.defaults[1] === null) continue;
      if ((c as FuncSym & { explicit?: boolean }).explicit) continue;
      const a = implicitConvert(e, c.ty.params[0]!);
      if (!a) continue;
      if (c.ty.params.length > 1) return null;   // default arguments need the parser: leave it to overload resolution
      found.push(mk(t, e.pos, false, { k: 'construct', ctor: c, args: [a] }));
      ranks.push(convRank(e, c.ty.params[0]!));
    }
  }
  if (e.ty.k === 'record') {
    const q = e.ty.q & (Q.Const | Q.Volatile);
    for (const m of preferExactThis(allMethods(e.ty.rec).filter(m => m.op === 'cv'), q)) {
      if ((q & ~(m.thisQ ?? 0)) & (Q.Const | Q.Volatile)) continue;
      if ((m as FuncSym & { explicit?: boolean }).explicit) continue;
      const rt = m.ty.ret;
      const call = mk(rt.k === 'ref' ? rt.to : rt, e.pos, rt.k === 'ref', { k: 'call', f: m, callee: null, args: [], thisPtr: mk(ptrTo(e.ty), e.pos, false, { k: 'addr', e }) });
      const c = implicitConvert(call, to);
      if (c) { found.push(c); ranks.push(convRank(call, to)); if (typeName(unqual(call.ty)) === typeName(t)) exact.push(c); }
    }
  }
  if (found.length > 1 && exact.length === 1) return exact[0]!;
  if (found.length > 1) {
    const best = Math.min(...ranks.map(r => r < 0 ? Infinity : r));
    const bestOnes = found.filter((_, i) => ranks[i] === best);
    if (bestOnes.length === 1) return bestOnes[0]!;
  }
  return found.length === 1 ? found[0]! : null;
}
setUserConversion(userConversion);
/** A device builtin known without a declaration: lowered by name (builtins.ts), never compiled. */
function builtinSym(u: Unit, name: string, params: CType[], ret: CType, variadic: boolean, pos: Pos): FuncSym {
  return {
    kind: 'func', name, ty: { k: 'func', ret, params, variadic, q: 0 } as CType & { k: 'func' }, scope: [], paramNames: params.map(() => ''),
    defaults: params.map(() => null), isGlobal: false, isDevice: true, isHost: false, deviceBuiltin: true, isStatic: false, inAnon: false,
    externC: true, isInline: false, forceinline: false, noinline: false, bodyStart: -1, bodyEnd: -1, pos, file: u.fileOf(pos), id: u.nextId++,
  };
}
/**
 * GCC builtins EDG knows without a declaration (what builtins.ts lowerGcc lowers): `__builtin_unreachable()` after a
 * switch that covers every case, `__builtin_assume(x)`, `__builtin_assume_aligned(p, 16)`.
 */
const GCC_IMPLICIT: Record<string, () => { params: CType[]; ret: CType; variadic: boolean }> = {
  __builtin_unreachable: () => ({ params: [], ret: C.void, variadic: false }),
  __builtin_trap: () => ({ params: [], ret: C.void, variadic: false }),
  __builtin_assume: () => ({ params: [C.bool], ret: C.void, variadic: false }),
  __builtin_prefetch: () => ({ params: [ptrTo(withQ(C.void, Q.Const))], ret: C.void, variadic: true }),
  __builtin_assume_aligned: () => ({ params: [ptrTo(withQ(C.void, Q.Const)), C.ulong], ret: ptrTo(C.void), variadic: true }),
};
/** GCC's bit builtins and the CUDA device functions that compute the same (defined where GCC's are). */
const GCC_BIT_BUILTINS: Record<string, string> = {
  clz: '__clz', clzl: '__clzll', clzll: '__clzll', popcount: '__popc', popcountl: '__popcll', popcountll: '__popcll',
};
/** <cmath> functions whose mixed-type calls go to a promoting template (libstdc++'s __promote_2; for pow, CUDA's cudart builtin). */
const PROMOTING_MATH = new Set(['pow', 'atan2', 'fmod', 'hypot', 'fmin', 'fmax', 'fdim', 'copysign', 'nextafter', 'remainder', 'fma']);
/**
 * What the promoting template of a <cmath> function does with arithmetic arguments: convert them all to double
 * when one is double or an integer, else to float, and call that overload (std::pow(float, int) is pow(double, double)).
 * Null when the arguments are not all arithmetic, one is long double, or no such overload is in the set.
 */
function promotedMathOverload(name: string, set: FuncSym[], args: Expr[]): FuncSym | null {
  if (!PROMOTING_MATH.has(name)) return null;
  const ts = args.map(a => unqual(a.ty.k === 'ref' ? a.ty.to : a.ty));
  if (!ts.every(t => isArith(t)) || ts.some(t => t.k === 'ldouble')) return null;
  const p: CType = ts.some(t => t.k !== 'float') ? C.double : C.float;
  return set.find(f => !f.targs && f.ty.params.length === args.length && f.ty.params.every(q => unqual(q).k === p.k)) ?? null;
}
/**
 * Of member functions differing only in their cv-qualification (`operator __half_raw() const` and `... const
 * volatile`), the ones whose qualification equals the object's (q): the better implicit object parameter binding.
 */
function preferExactThis(ms: FuncSym[], q: number): FuncSym[] {
  const cvOf = (m: FuncSym) => (m.thisQ ?? 0) & (Q.Const | Q.Volatile);
  return ms.filter(m => cvOf(m) === q || !ms.some(o => o !== m && o.name === m.name && cvOf(o) === q && sameParams(o, m)));
}
function sameParams(a: FuncSym, b: FuncSym): boolean {
  return a.ty.params.length === b.ty.params.length && a.ty.params.every((p, i) => typeName(p) === typeName(b.ty.params[i]!));
}
/**
 * Whether the class's copy assignment is the implicit one and it is deleted: a const or reference member, or a
 * base or member class whose copy assignment is deleted.
 */
function implicitAssignDeleted(rec: RecordDecl): boolean {
  const own = (rec.methods ?? []).filter(m => m.op === '=');
  if (own.some(m => !m.defaulted)) return own.every(m => (m as FuncSym & { deleted?: boolean }).deleted);
  return rec.fields.some(f => {
    if (f.isBase) return f.ty.k === 'record' && implicitAssignDeleted(f.ty.rec);
    let t = f.ty;
    while (t.k === 'array') t = t.elem;
    return t.k === 'ref' || (t.q & Q.Const) !== 0 || (t.k === 'record' && implicitAssignDeleted(t.rec));
  });
}

/** The words a fundamental type is spelled with (`unsigned long long`). */
const BUILTIN_TYPE_WORDS = new Set(['bool', 'char', 'short', 'int', 'long', 'signed', 'unsigned', 'float', 'double', 'wchar_t', 'char16_t', 'char32_t', '__int128']);

function allMethods(rec: RecordDecl): FuncSym[] { return [...(rec.methods ?? []), ...(rec.bases ?? []).flatMap(b => allMethods(b.rec))]; }

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
/** A braced list's initializers, read one at a time (Parser.initItems). */
interface InitItems {
  /** None left: the cursor is at the list's '}' (or at what follows an initializer not followed by ','). */
  end(): boolean;
  /** Elements of a pack expansion are waiting. */
  expanded(): boolean;
  /** The next one is in braces of its own (or a string literal): not taken by brace elision. */
  braced(): boolean;
  /** The next one, for an object of type t. */
  take(t: CType): Init;
}
/**
 * Can a declaration of this arity (null: unknown) be called with these arguments? A parameter of type
 * initializer_list<E> takes a braced list or an initializer_list object, nothing else deduces it.
 */
function mayTake(a: { min: number; max: number; initLists: number[] } | null, args: Expr[]): boolean {
  if (a === null) return true;
  if (args.length < a.min || args.length > a.max) return false;
  return a.initLists.every(i => i >= args.length || args[i]!.k === 'initlist' || (args[i]!.ty.k === 'record' && args[i]!.ty.rec.name === 'initializer_list'));
}
/** Template arguments that still name a pattern's parameters anywhere (placeholders, packs, dependent names, sentinels). */
function patternArgs(args: readonly TArg[]): boolean {
  const ty = (t: CType): boolean => t.k === 'error' || ((t.k === 'ptr' || t.k === 'ref') && ty(t.to)) || (t.k === 'array' && ty(t.elem))
    || (t.k === 'func' && (ty(t.ret) || t.params.some(ty))) || (t.k === 'record' && patternArgs(t.rec.targs ?? []));
  return args.some(a => (a.k === 'type' && ty(a.ty)) || (a.k === 'val' && isValParam(a.v)) || (a.k === 'pack' && patternArgs(a.args)));
}
/** A complete class that declares nothing: no bases, members of any kind, or members we could not read. */
function declaresNothing(rec: RecordDecl): boolean {
  const x = rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl>; badTypes?: Map<string, string> };
  return rec.complete && rec.fields.length === 0 && !rec.hasMethods && !(rec.methods?.length) && !(rec.bases?.length)
    && !(rec.types?.size) && !(rec.statics?.size) && !(rec.enumerators?.size) && !(rec.memberTemplates?.size) && !(rec.mtmpls?.length)
    && !(x.mctmpls?.size) && !(x.badTypes?.size);
}
/** The member class template `name` of rec or of one of its bases. */
function memberClassTmplOf(rec: RecordDecl, name: string): MemberClassTmpl | undefined {
  const m = (rec as RecordDecl & { mctmpls?: Map<string, MemberClassTmpl> }).mctmpls?.get(name);
  if (m) return m;
  for (const b of rec.bases ?? []) { const r = memberClassTmplOf(b.rec, name); if (r) return r; }
  return undefined;
}
/**
 * Does the class (or a base) declare its own operator new/delete (or new[]/delete[])? Such declarations are
 * unreadable members today (recorded by the token before their `(`, or by parseOperatorId's reason).
 */
function classAllocator(rec: RecordDecl, which: 'new' | 'delete'): boolean {
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
function promotedType0(t: CType): CType {
  if (t.k === 'bool' || (t.k === 'int' && t.bits < 32)) return C.int;
  if (t.k === 'enum') return C.int;
  return unqual(t);
}
function sameUnq(a: CType, b: CType): boolean {
  const x = unqual(a), y = unqual(b);
  if (x.k !== y.k) return false;
  if (x.k === 'ptr' && y.k === 'ptr') return sameUnq(x.to, y.to) && x.to.q === y.to.q;
  if (x.k === 'int' && y.k === 'int') return x.name === y.name;
  if (x.k === 'record' && y.k === 'record') return x.rec === y.rec;
  if (x.k === 'enum' && y.k === 'enum') return x.en === y.en;
  return x.k !== 'array' && x.k !== 'func';
}
/** <0 if a is better than b, >0 if worse, 0 if neither. */
/** A viable function, its conversions' ranks, and which of its parameters are references. */
interface Candidate { f: FuncSym; ranks: number[]; refs: boolean[] }

/**
 * compareRanks of two candidates. A reference binding that adds cv-qualification (`int` lvalue to `const int &`)
 * loses only to another reference binding ([over.ics.rank] 3.2.3, 3.2.6: one that adds less, `T&&` for an
 * rvalue); against a parameter taken by value it is an identity like any other (CUB's
 * `ExclusiveScan(T, T&, const T&, ScanOp)` then wins by partial ordering).
 */
function compareCandidates(a: Candidate, b: Candidate): number {
  const ra = a.ranks.map((r, i) => (r === 0.125 && a.refs[i] && !b.refs[i] ? 0 : r));
  const rb = b.ranks.map((r, i) => (r === 0.125 && b.refs[i] && !a.refs[i] ? 0 : r));
  return compareRanks(ra, rb);
}

function compareRanks(a: number[], b: number[]): number {
  let better = false, worse = false;
  for (let i = 0; i < a.length; i++) { if (a[i]! < b[i]!) better = true; else if (a[i]! > b[i]!) worse = true; }
  return better && !worse ? -1 : worse && !better ? 1 : 0;
}
void isFloating; void isRecord;
