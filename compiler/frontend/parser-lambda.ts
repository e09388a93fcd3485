// Parser room: lambda expressions: the closure class, captures, generic lambdas.

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Expr, Init, Sym, VarSym, FuncSym, Pos } from './ast';
import { type CType, type Field, type RecordDecl, C, Q, ptrTo, unqual, AUTO, isAuto, typeName, layoutRecord } from './ctype';
import { mk, errExpr, rval } from './sema';
import { Attrs, DeclSpec, DeclaratorInfo } from './parser-types';
import { Parser, addRoom } from './parser-core';

/** A lambda's capture list: the default capture (null: none, else by reference?), [this], named captures, init-captures. */
type LambdaIntroducer = { byRef: boolean | null; thisCap: boolean; explicit: Map<string, boolean>; inits: { name: string; e: Expr; byRef: boolean }[] };

/** Methods of Parser (installed on its prototype below). */
export class LambdasRoom {
  /** A variable of the enclosing function named in a lambda body: a member of the closure. */
  capture(this: Parser, v: VarSym): Sym {
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
  parseLambda(this: Parser): Expr {
    const pos = this.p;
    this.expect('[');
    const { byRef, thisCap, explicit, inits } = this.parseLambdaIntroducer();
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
      this.genericLambdaCaptures(child, bodyStart, bodyEnd, initScope, { byRef, thisCap, explicit, inits });
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
    return this.closureObject(rec, L, inits, pos);
  }
  /** A lambda's capture list after its `[`, through its `]`: the default capture, `this`, named and init-captures. */
  parseLambdaIntroducer(this: Parser): LambdaIntroducer {
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
    return { byRef, thisCap, explicit, inits };
  }
  /** A generic lambda's captures, decided from the names its body uses (child: the parser of its body). */
  genericLambdaCaptures(this: Parser, child: Parser, bodyStart: number, bodyEnd: number, initScope: Map<string, Sym>, intro: LambdaIntroducer): void {
    const { byRef, thisCap, explicit } = intro, L = child.lambda!, { outerThis, outerCls } = L;
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
  }
  /** The closure object: a temporary whose members are initialised from the captured variables, `this` and init-captures. */
  closureObject(this: Parser, rec: RecordDecl, L: NonNullable<Parser['lambda']>, inits: LambdaIntroducer['inits'], pos: Pos): Expr {
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
  instantiateGenericLambda(this: Parser, rec: RecordDecl, args: Expr[]): FuncSym | null {
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
  lookupVarForCapture(this: Parser, n: string): VarSym | null {
    for (let i = this.scopes.length - 1; i >= 0; i--) { const s = this.scopes[i]!.get(n); if (s) return s.kind === 'var' ? s : null; }
    return null;
  }
  /** A captured variable as the closure's creator sees it: itself, or its own capture when the creator is a lambda too. */
  capturedVarExpr(this: Parser, v: VarSym, pos: Pos): Expr {
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
  thisPointer(this: Parser, pos: Pos): Expr {
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
  captureThis(this: Parser, pos: Pos): boolean {
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
  objectFor(this: Parser, rec: RecordDecl | undefined, pos: Pos): Expr {
    if (this.lambda && rec !== this.lambda.rec) {
      const p = this.thisPointer(pos);
      if (p.ty.k !== 'ptr') return p;
      return mk(p.ty.to, pos, true, { k: 'deref', e: p });
    }
    return this.thisObj(pos);
  }
  captureNamed(this: Parser, v: VarSym, _byRef: boolean): void { this.capture(v); }
}
declare module './parser-core' { interface Parser extends LambdasRoom {} }
addRoom(LambdasRoom);
