// Parser room: primary expressions (literals, names, parenthesised expressions, builtins spelled as keywords).

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, VarSym, FuncSym } from './ast';
import { C, isScalar } from './ctype';
import { mk, errExpr, rval, convertArith, cast } from './sema';
import { isMmaBuiltin } from './builtins-mma';
import { isNvAtomic } from './builtins-nvatomic';
import { dependent } from './template-facts';
import { GCC_IMPLICIT, GCC_BIT_BUILTINS } from './parser-overload';
import { TmplRef, packValsOf, valPackParamOf } from './parser-types';
import { TYPE_KW } from './parser-words';
import { Parser, addRoom, type UnitApi } from './parser-core';

/** Methods of Parser (installed on its prototype below). */
export class PrimaryRoom {

  parsePrimary(this: Parser): Expr {
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
      const kwExpr = this.keywordPrimary(t, pos);
      if (kwExpr) return kwExpr;
      if (this.startsType() && !this.u.isKeyword(t) || TYPE_KW.has(t)) return this.functionalCast(pos);
      return this.namePrimary(t, pos);
    }
    if (k === Tok.Punct && this.tx() === '[') return this.parseLambda();
    this.syntax('expected an expression', 29);
  }
  /** A primary expression that starts with a keyword or builtin name t (`this`, `static_cast`, `__builtin_expect`, ...); null for other names. */
  keywordPrimary(this: Parser, t: string, pos: number): Expr | null {
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
      default: return null;
    }
  }
  /** A functional cast `T(x)` / `T{}` (a temporary of class type T constructed). */
  functionalCast(this: Parser, pos: number): Expr {
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
  /** A primary expression that is a name (qualified or not): a variable, function (set), enumerator, member, or builtin. */
  namePrimary(this: Parser, t: string, pos: number): Expr {
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
    if (syms.length === 0 && this.scopedEnumBody && this.p === qstart + 1) {
      // `enum class E { a = 1, b = a }`: inside its own list an enumerator of a scoped enum needs no qualifier,
      // and before the closing brace it has the underlying type
      const v = this.scopedEnumBody.en.consts.get(name);
      if (v !== undefined) return mk(this.scopedEnumBody.en.underlying, pos, false, { k: 'int', v });
    }
    if (syms.length === 0) {
      if ((this.u as UnitApi & { memberClassTemplates?: Set<string> }).memberClassTemplates?.has(name)) throw new Unsupported(`member template ${name} (a member alias template, not instantiated yet)`);
      const friends = this.at('(') ? (this.u as UnitApi & { hiddenFriendFns?: Map<string, FuncSym[]> }).hiddenFriendFns?.get(name) : undefined;
      if (friends?.length) syms = friends;
      else if (this.at('(') && (this.u as UnitApi & { hiddenFriends?: Set<string> }).hiddenFriends?.has(name)) throw new Unsupported(`argument-dependent lookup of the hidden friend ${name}`);
      else if (this.at('(') && this.p === qstart + 1) {
        // an unqualified call: argument-dependent lookup, once the arguments are known, may find the function
        const e = mk(C.int, pos, false, { k: 'func', sym: { name } as FuncSym });
        (e as Expr & { overloads?: FuncSym[] }).overloads = [];
        (e as Expr & { adlOnly?: boolean }).adlOnly = true;
        return e;
      } else {
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
        // a member of an anonymous union declared in a block (parseLocalDecl's anonymousLocal)
        const anon = s as { anonVar?: VarSym; anonFn?: unknown };
        if (anon.anonVar) {
          if (anon.anonFn !== this.fn) throw new Unsupported(`member ${s.name} of an anonymous union named in a lambda`);
          this.u.noteVarUse(anon.anonVar, this.fn, pos);
          return this.member(mk(anon.anonVar.ty, pos, true, { k: 'var', sym: anon.anonVar }), s.name, false, pos);
        }
        const m = this.member(this.objectFor(s.rec, pos), s.name, false, pos);
        return (s as { byRef?: boolean }).byRef ? this.deref(m, pos) : m;
      }
      case 'type': this.syntax('type name is not allowed', 254, pos);
      // falls through (never)
      case 'namespace': this.syntax('expected an expression', 29, pos);
    }
    this.syntax('expected an expression', 29);
  }
}
declare module './parser-core' { interface Parser extends PrimaryRoom {} }
addRoom(PrimaryRoom);
