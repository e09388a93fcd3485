// Parser room: type traits (__is_xxx(T...) builtins), some decided by trying the expression they ask about.

import { Unsupported } from '../diagnostics';
import type { Expr, FuncSym, Init, Pos } from './ast';
import { type CType, type RecordDecl, C, unqual, hasPack } from './ctype';
import { mk, markXvalue } from './sema';
import { TYPE_TRAITS, TRIAL_TRAITS, evalTypeTrait, triviallyCopyable, trivialDefault, isAbstractClass } from './traits';
import { dependent } from './template-facts';
import { SyntaxAbort } from './parser-types';
import { implicitAssignDeleted, ctorTmplsOf } from './parser-classes';
import { Parser, addRoom } from './parser-core';

/** Traits answered by a type's kind and identity alone, which an incomplete class has. */
const KIND_TRAITS: ReadonlySet<string> = new Set(['__is_class', '__is_union', '__is_enum', '__is_same', '__is_same_as']);

/** Methods of Parser (installed on its prototype below). */
export class TraitsRoom {
  /** `__is_trivially_copyable(T)` and the other type-trait intrinsics: a bool constant. */
  parseTypeTrait(this: Parser, name: string, pos: Pos): Expr {
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
    // `__is_class(D)` of a CRTP class in its own base list (`struct fn : closure<fn>`): the kind of a class is
    // known before its body, so these traits take an incomplete one
    const kindOnly = KIND_TRAITS.has(name);
    const open = (t: CType): boolean => t.k === 'error' || ((t.k === 'ptr' || t.k === 'ref') && open(t.to)) || (t.k === 'array' && open(t.elem))
      || (t.k === 'record' && !t.rec.complete && !kindOnly);
    if (tys.some(open)) throw new Unsupported(`type trait ${name} of a dependent or incomplete type`);
    const v = TRIAL_TRAITS.has(name) ? this.traitByTrial(name, tys, pos) : evalTypeTrait(name, tys);
    if (v === null) throw new Unsupported(`type trait ${name}`);
    return mk(C.bool, pos, false, { k: 'int', v: v ? 1n : 0n });
  }
  /**
   * The traits that ask whether an expression is well-formed, answered by trying it on stand-ins of the operand
   * types (what `declval<T>()` denotes) and discarding what the attempt diagnosed.
   */
  traitByTrial(this: Parser, name: string, tys: CType[], pos: Pos): boolean | null {
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
  standIn(this: Parser, t: CType, pos: Pos): Expr {
    if (t.k !== 'ref') return mk(t, pos, false, { k: 'call', f: null, callee: null, args: [] });
    const e = mk(t.to, pos, true, { k: 'call', f: null, callee: null, args: [] });
    return t.rv ? markXvalue(e) : e;
  }
  /** Whether f() diagnoses no error (its diagnostics are discarded either way). */
  wellFormed(this: Parser, f: () => Expr | Init): boolean {
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
  constructible(this: Parser, t: CType, args: CType[], pos: Pos): boolean {
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
  /** `noexcept(e)` (at `noexcept`): whether e calls only functions declared not to throw, a bool constant. */
  parseNoexceptOperator(this: Parser, pos: Pos): Expr {
    this.p++;
    this.expect('(');
    const e = this.parseExpr();
    this.expect(')');
    if (e.ty.k === 'error') return e;
    const v = nothrowExpr(e, 0);
    if (v === null) throw new Unsupported('noexcept of an expression calling a function whose exception specification we do not know');
    return mk(C.bool, pos, false, { k: 'int', v: v ? 1n : 0n });
  }
  /** `declval<T>() = declval<U>()` is well-formed. */
  assignable(this: Parser, t: CType, u: CType, pos: Pos): boolean {
    if (t.k === 'void' || u.k === 'void' || t.k === 'func' || u.k === 'func') return false;
    // the implicit copy/move assignment of a class with a const or reference member is deleted (assign() does not check)
    const target = unqual(t.k === 'ref' ? t.to : t), from = unqual(u.k === 'ref' ? u.to : u);
    if (target.k === 'record' && from.k === 'record' && from.rec === target.rec && implicitAssignDeleted(target.rec)) return false;
    return this.wellFormed(() => this.assign('=', this.standIn(t, pos), this.standIn(u, pos), pos));
  }
  /** `To test() { return declval<From>(); }` is well-formed. */
  convertible(this: Parser, from: CType, to: CType, pos: Pos): boolean {
    if (to.k === 'void' || from.k === 'void') return to.k === 'void' && from.k === 'void';
    if (to.k === 'array' || to.k === 'func') return false;
    return this.wellFormed(() => this.initFromExpr(this.standIn(from, pos), to.k === 'ref' ? to : unqual(to), pos));
  }
}
/**
 * Whether an expression cannot throw: true when every function it calls is declared noexcept (or is a destructor,
 * or declval's stand-in), false when one is declared without, null when a call's specification is implicit
 * (defaulted special members, calls through pointers) or the expression allocates or throws.
 */
function nothrowExpr(x: unknown, depth: number): boolean | null {
  if (depth > 200 || typeof x !== 'object' || x === null) return depth > 200 ? null : true;
  if (Array.isArray(x)) { let all: boolean | null = true; for (const y of x) { const v = nothrowExpr(y, depth + 1); if (v === false) return false; if (v === null) all = null; } return all; }
  const o = x as { k?: string; f?: FuncSym | null; ctor?: FuncSym; callee?: unknown };
  let own: boolean | null = true;
  if (o.k === 'new' || o.k === 'throw') own = null;
  if (o.k === 'call' || o.k === 'ctor' || o.k === 'construct') {
    const f = o.k === 'construct' ? o.ctor : o.f;
    if (!f) own = o.k === 'call' && (o.callee === null || calleeName(o.callee) === 'declval') ? true : null;
    else if (f.noexcept || f.dtor) own = true;
    else if (f.defaulted || f.bodyStart < 0 && (f.ctor || f.op === '=')) own = trivialSpecialMember(f) ? true : null;
    else own = false;
  }
  if (own === false) return false;
  for (const [key, y] of Object.entries(o)) {
    if (key === 'ty' || key === 'f' || key === 'ctor' || key === 'sym' || key === 'alloc' || key === 'pos' || key === 'rec' || key === 'field' || key === 'cls') continue;
    if (typeof y !== 'object' || y === null) continue;
    const v = nothrowExpr(y, depth + 1);
    if (v === false) return false;
    if (v === null) own = null;
  }
  return own;
}
/** The variable a call through a pointer reads (libcu++'s `extern T &&(*declval)() noexcept` is one), by name. */
function calleeName(e: unknown): string | null {
  let x = e as { k?: string; e?: unknown; sym?: { name: string } } | null;
  while (x && (x.k === 'cast' || x.k === 'deref')) x = x.e as typeof x;
  return x && x.k === 'var' && x.sym ? x.sym.name : null;
}
/** A defaulted or implicit default constructor, copy/move constructor or assignment of a class where it is trivial. */
function trivialSpecialMember(f: FuncSym): boolean {
  if (!f.cls) return false;
  const cls: CType = { k: 'record', rec: f.cls, q: 0 };
  if (f.ctor && f.ty.params.length === 0) return trivialDefault(cls);
  return f.ty.params.length === 1 && (f.ctor || f.op === '=') && triviallyCopyable(cls);
}
declare module './parser-core' { interface Parser extends TraitsRoom {} }
addRoom(TraitsRoom);
