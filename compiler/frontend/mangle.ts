// Itanium C++ ABI name mangling, as cicc applies it to device entities (including NVIDIA's
// _INTERNAL_<moduleId> prefix for internal-linkage device functions and variables).

import type { FuncSym, VarSym } from './ast';
import type { CType, ExtendedLambda, RecordDecl, TArg } from './ctype';
import { Q, packExpOf, isAuto, isDecltypeAuto, valParamIndex } from './ctype';

const BUILTIN: Record<string, string> = {
  'char': 'c', 'signed char': 'a', 'unsigned char': 'h', 'short': 's', 'unsigned short': 't', 'int': 'i', 'unsigned int': 'j',
  'long': 'l', 'unsigned long': 'm', 'long long': 'x', 'unsigned long long': 'y', '__int128': 'n', 'unsigned __int128': 'o',
  'wchar_t': 'w', 'char16_t': 'Ds', 'char32_t': 'Di',
};

/** <operator-name> codes; unary forms are keyed with a leading 'u'. */
export const OPERATOR_CODES: Record<string, string> = {
  '+': 'pl', '-': 'mi', '*': 'ml', '/': 'dv', '%': 'rm', '&': 'an', '|': 'or', '^': 'eo', '=': 'aS', '+=': 'pL', '-=': 'mI',
  '*=': 'mL', '/=': 'dV', '%=': 'rM', '&=': 'aN', '|=': 'oR', '^=': 'eO', '<<': 'ls', '>>': 'rs', '<<=': 'lS', '>>=': 'rS',
  '==': 'eq', '!=': 'ne', '<': 'lt', '>': 'gt', '<=': 'le', '>=': 'ge', '!': 'nt', '&&': 'aa', '||': 'oo', '++': 'pp', '--': 'mm',
  ',': 'cm', '->*': 'pm', '->': 'pt', '()': 'cl', '[]': 'ix', '~': 'co', 'u+': 'ps', 'u-': 'ng', 'u*': 'de', 'u&': 'ad',
  'new': 'nw', 'new[]': 'na', 'delete': 'dl', 'delete[]': 'da',
};

const src = (s: string): string => `${s.length}${s}`;
const subRef = (i: number): string => i === 0 ? 'S_' : `S${(i - 1).toString(36).toUpperCase()}_`;

class Mangler {
  /** Substitution candidates by canonical key (prefix paths and types), in order of appearance. */
  subs: string[] = [];
  /** Template parameters of the function template being mangled, by placeholder identity. */
  tparams: CType[] = [];
  /** Name extended lambdas' closures as host code sees them (cudafe++'s wrappers), for the kernel stubs' names. */
  hostClosures = false;
  constructor(private moduleId: string) {}
  private find(key: string): number { return this.subs.indexOf(key); }
  component(c: string): string {
    return c === '(anonymous)' ? src('_GLOBAL__N_' + this.moduleId) : src(c);
  }
  /** The unqualified name of a record, with its template arguments. */
  private recName(r: RecordDecl, prefixKey: string): { text: string; key: string } {
    const base = src(r.name || r.typedefName || '');
    if (!r.targs) return { text: base, key: prefixKey + base };
    // the template name is a candidate of its own, then the args
    const tkey = prefixKey + base;
    let text = base;
    const ti = this.find(tkey);
    if (ti >= 0) text = subRef(ti); else this.subs.push(tkey);
    const args = this.targs(r.targs);
    return { text: text + args, key: tkey + 'I' + r.targs.map(a => this.argKey(a)).join('') + 'E' };
  }
  targs(args: TArg[]): string {
    return 'I' + args.map(a => this.targ(a)).join('') + 'E';
  }
  /** One <template-arg>: a type, a literal, or an argument pack J...E. */
  private targ(a: TArg): string {
    if (a.k === 'val' && valParamIndex(a.v) !== undefined) {
      // a template's own non-type parameter is an expression X..E to EDG, as is its pack expansion `Is...`
      // (cicc's `1AIXT_EE` for A<N>, `IJXT_EE` for Seq<Is...>)
      return 'X' + tparamRef(valParamIndex(a.v)!) + 'E';
    }
    // an enumerator is a literal of its enumeration type (`L1E1E`), the type mangled with its substitutions
    if (a.k === 'val' && a.ty.k === 'enum') return `L${this.type(a.ty)}${a.v < 0n ? 'n' + (-a.v).toString() : a.v.toString()}E`;
    return a.k === 'type' ? this.type(a.ty) : a.k === 'pack' ? 'J' + a.args.map(x => this.targ(x)).join('') + 'E' : this.literal(a.ty, a.v);
  }
  private argKey(a: TArg): string { return a.k === 'val' && valParamIndex(a.v) !== undefined ? `T${valParamIndex(a.v)}` : a.k === 'type' ? this.key(a.ty) : a.k === 'pack' ? 'J' + a.args.map(x => this.argKey(x)).join('') + 'E' : 'L' + builtinCode(a.ty) + a.v + 'E'; }
  literal(ty: CType, v: bigint): string {
    const code = ty.k === 'bool' ? 'b' : builtinCode(ty);
    return `L${code}${v < 0n ? 'n' + (-v).toString() : v.toString()}E`;
  }
  /**
   * A nested name: prefix components (namespaces, then enclosing classes), then the final unqualified
   * name (already encoded). The prefixes are substitution candidates; so is the whole when it names a type.
   */
  nested(prefix: (string | RecordDecl)[], last: { text: string; key: string } | null, cv = ''): string {
    let out = '';
    let key = '';
    for (const c of prefix) {
      let text: string, k: string;
      // EDG's _INTERNAL_ prefix is a candidate of its own, outside the names after it (`…_main4cuda3std…INS1_3__45tupleIJEEE`)
      if (typeof c === 'string' && key === '' && c.startsWith('_INTERNAL')) { const t = src(c); if (this.find(t) < 0) this.subs.push(t); out += t; continue; }
      if (typeof c === 'string') { text = this.component(c); k = key + text; }
      else { const r = this.recName(c, key); text = r.text; k = r.key; }
      const i = this.find(k);
      if (i >= 0) out = subRef(i);
      else { this.subs.push(k); out += text; }
      key = k;
    }
    if (last) {
      out += last.text;
      if (last.key) { const i = this.find(key + last.key); if (i < 0) this.subs.push(key + last.key); }
    }
    return 'N' + cv + out + 'E';
  }
  /** Mangling of a record type: a substitution, an unscoped name or a nested name. */
  record(r: RecordDecl): string {
    const k = this.key({ k: 'record', rec: r, q: 0 });
    const i = this.find(k);
    if (i >= 0) return subRef(i);
    if (r.lambda) { const t = this.closure(r.lambda); this.subs.push(k); return t; }
    const path = recordPath(r);
    if (path.length === 1 && !r.targs) { this.subs.push(k); return src(r.name || r.typedefName || ''); }
    if (path.length === 1) { const n = this.recName(r, ''); this.subs.push(n.key); return n.text; }
    return this.nested(path, null);
  }
  /** A lambda's closure type in a function body: Z<encoding>EUl<params>E[n]_ (a local unnamed type). */
  private closure(l: NonNullable<RecordDecl['lambda']>): string {
    const f = l.fn;
    const enc = f.externC || (f.name === 'main' && !f.cls && f.scope.length === 0) ? src(f.name) : encoding(this, f, !f.isGlobal && (f.isStatic || f.inAnon) && !f.cls, this.moduleId);
    const sig = (ps: CType[]): string => ps.map(p => new Mangler(this.moduleId).key(p)).join(',');
    const mine = sig(l.params);
    if (l.ext && this.hostClosures) return `Z${enc}E${this.hostClosure(l, l.ext)}`;
    const n = l.siblings.filter(r => r.lambda && sig(r.lambda.params) === mine && r.lambda.pos < l.pos).length;
    const params = l.params.length ? l.params.map(p => this.type(p)).join('') : 'v';
    return `Z${enc}EUl${params}E${n === 0 ? '' : String(n - 1)}_`;
  }
  /**
   * EDG's vendor encoding of cudafe++'s wrapper of an extended lambda (learnt from the real cicc's stubs):
   * Unvdl <captures>_ <tag> | Unvdtl <captures>_ <fn-ptr type> <fn name> <return type> <n>_ <capture types> |
   * Unvhdl <mutable>_<captureless>_<noexcept>_<captures>_ <tag> <return type> <param types> E <capture types>,
   * where <tag> is <fn-ptr type> <fn name> <n>_ (the enclosing function's address and the lambda's number).
   */
  private hostClosure(l: NonNullable<RecordDecl['lambda']>, x: ExtendedLambda): string {
    const rec = l.siblings.find(r => r.lambda === l)!;
    const fields = rec.fields;
    const f = l.fn;
    const fty = { ...f.ty, q: 0 } as CType;
    let fnPtr: string;
    if (f.cls) {
      // a pointer to member function: M <class> <function type>, itself a candidate
      const cls: CType = { k: 'record', rec: f.cls, q: 0 };
      const key = 'M' + this.key(cls) + this.key(fty);
      const i = this.subs.indexOf(key);
      if (i >= 0) fnPtr = subRef(i);
      else { fnPtr = 'M' + this.type(cls) + this.type(fty); this.subs.push(key); }
    } else fnPtr = this.type({ k: 'ptr', to: fty, q: 0 } as CType);
    const internal = (f.isStatic || f.inAnon) && !f.cls;
    const prefix: (string | RecordDecl)[] = f.cls ? recordPath(f.cls) : internal ? [`_INTERNAL${this.moduleId}`, ...f.scope] : f.scope;
    const fnName = prefix.length === 0 || f.name === 'main' ? src(f.name) : this.nested(prefix, { text: src(f.name), key: '' });
    const caps = (x.capTypes ?? fields.map(fl => fl.ty)).map(t => this.type(t)).join('');
    if (x.hd) {
      const op = rec.methods!.find(m => m.name === 'operator()')!;
      const sig = this.type(op.ty.ret) + (l.params.length ? l.params.map(p => this.type(p)).join('') : 'v') + 'E';
      const b = (v: boolean) => (v ? '1_' : '0_');
      return `Unvhdl${b(x.mutable)}${b(fields.length === 0)}${b(x.noexcept)}${fields.length}_${fnPtr}${fnName}${x.tag}_${sig}${caps}`;
    }
    if (x.trailingRet) return `Unvdtl${fields.length}_${fnPtr}${fnName}${this.type(x.trailingRet)}${x.tag}_${caps}`;
    return `Unvdl${fields.length}_${fnPtr}${fnName}${x.tag}_${caps}`;
  }
  /** Canonical (substitution-free) form of a type: the key substitutions are matched by. */
  key(t: CType): string {
    const tr = (t as { tmplRec?: RecordDecl }).tmplRec;
    if (tr) return this.key({ k: 'record', rec: tr, q: 0 });   // a template template argument: the template's name
    const q = t.q & (Q.Const | Q.Volatile | Q.Restrict);
    if (q) return qualStr(q) + this.key(unq(t));
    const ti = tparamOf(t);
    if (ti !== undefined) return `T${ti}`;
    const pe = packExpOf(t);
    if (pe) return 'Dp' + this.key(pe);
    const dep = depOf(t);
    if (dep) return 'N' + this.key(dep.base) + dep.names.map(src).join('') + 'E';
    switch (t.k) {
      case 'ptr': return 'P' + this.key(t.to);
      case 'ref': return (t.rv ? 'O' : 'R') + this.key(t.to);
      case 'array': return `A${t.n ?? ''}_` + this.key(t.elem);
      case 'func': return 'F' + this.key(t.ret) + (t.params.length ? t.params.map(p => this.key(p)).join('') : 'v') + 'E';
      case 'record': return recordPath(t.rec).map(c => typeof c === 'string' ? this.component(c) : src(c.name || c.typedefName || '') + (c.targs ? 'I' + c.targs.map(a => this.argKey(a)).join('') + 'E' : '')).join('');
      case 'enum': return [...t.en.scope.map(c => this.component(c)), src(t.en.name || t.en.typedefName || '')].join('');
      default: return builtinCode(t);
    }
  }
  type(t: CType): string {
    const tr = (t as { tmplRec?: RecordDecl }).tmplRec;
    if (tr) return this.record(tr);
    const q = t.q & (Q.Const | Q.Volatile | Q.Restrict);
    const tp = tparamOf(t);
    if (isAuto(t)) return isDecltypeAuto(t) ? 'Dc' : 'Da';
    const pe = packExpOf(t);
    if (pe) {
      // a function parameter pack `P...` of a template's signature: Dp <P>
      const key = this.key(t), i = this.find(key);
      if (i >= 0) return subRef(i);
      const text = 'Dp' + this.type(pe);
      this.subs.push(key);
      return text;
    }
    const isBuiltin = !q && tp === undefined && !depOf(t) && t.k !== 'ptr' && t.k !== 'ref' && t.k !== 'array' && t.k !== 'func' && t.k !== 'record' && t.k !== 'enum';
    if (isBuiltin) return builtinCode(t);
    const key = this.key(t);
    const i = this.find(key);
    if (i >= 0) return subRef(i);
    let text: string;
    if (q) text = qualStr(q) + this.type(unq(t));
    else if (tp !== undefined) text = tparamRef(tp);
    else if (depOf(t)) { const dep = depOf(t)!; text = 'N' + this.type(dep.base) + dep.names.map(src).join('') + 'E'; }
    else switch (t.k) {
      case 'ptr': text = 'P' + this.type(t.to); break;
      case 'ref': text = (t.rv ? 'O' : 'R') + this.type(t.to); break;
      case 'array': text = `A${t.n ?? ''}_` + this.type(t.elem); break;
      case 'func': text = 'F' + this.type(t.ret) + (t.params.length ? t.params.map(p => this.type(p)).join('') : 'v') + 'E'; break;
      case 'record': return this.record(t.rec);
      case 'enum': {
        if (t.en.scope.length === 0) { this.subs.push(key); return src(t.en.name || t.en.typedefName || ''); }
        return this.nested(t.en.scope, { text: src(t.en.name || t.en.typedefName || ''), key: src(t.en.name || t.en.typedefName || '') });
      }
      default: text = builtinCode(t);
    }
    this.subs.push(key);
    return text;
  }
}
const tparamOf = (t: CType): number | undefined => (t as { tparam?: number }).tparam;
/** A dependent `typename T::name` in a template's declared signature. */
const depOf = (t: CType): { base: CType; names: string[] } | undefined => (t as { dep?: { base: CType; names: string[] } }).dep;
const tparamRef = (i: number): string => i === 0 ? 'T_' : `T${i - 1}_`;
/** Namespaces then enclosing classes then the record itself. */
function recordPath(r: RecordDecl): (string | RecordDecl)[] {
  const outer: RecordDecl[] = [];
  for (let p: RecordDecl | undefined = r; p; p = p.parent) outer.unshift(p);
  return [...outer[0]!.scope, ...outer];
}
function qualStr(q: number): string { return (q & Q.Restrict ? 'r' : '') + (q & Q.Volatile ? 'V' : '') + (q & Q.Const ? 'K' : ''); }
function builtinCode(t: CType): string {
  switch (t.k) {
    case 'void': return 'v';
    case 'bool': return 'b';
    case 'float': return 'f';
    case 'double': return 'd';
    case 'ldouble': return 'e';
    case 'nullptr': return 'Dn';
    case 'int': return BUILTIN[t.name]!;
    case 'enum': return builtinCode(t.en.underlying);
    default: return 'i';
  }
}
function unq(t: CType): CType { return t.q ? { ...t, q: 0 } as CType : t; }

/** Parameter types as they appear in a signature: top-level cv-qualifiers dropped. */
function sigParams(f: FuncSym): readonly CType[] {
  const ps = (f as FuncSym & { tsig?: CType[] }).tsig ?? f.ty.params;
  return ps.map(p => (p.q ? unq(p) : p));
}

/** The <unqualified-name> of a function. */
function funcName(m: Mangler, f: FuncSym): string {
  if (f.ctor) return 'C1';
  if (f.dtor) return 'D1';
  if (f.op === 'cv') return 'cv' + m.type(f.ty.ret);
  if (f.op) {
    const unary = f.ty.params.length === (f.cls && !f.staticMember ? 0 : 1) && ['+', '-', '*', '&'].includes(f.op);
    return OPERATOR_CODES[unary ? 'u' + f.op : f.op] ?? src(f.name);
  }
  return src(f.name);
}

function encoding(m: Mangler, f: FuncSym, internal: boolean, moduleId: string): string {
  const prefix: (string | RecordDecl)[] = [...(f.cls ? recordPath(f.cls) : f.scope)];
  if (f.cls) { const ns = recordPath(f.cls).filter(c => typeof c === 'string'); void ns; }
  if (internal) prefix.unshift(`_INTERNAL${moduleId}`);
  if (f.targs) m.tparams = (f as FuncSym & { tparamTys?: CType[] }).tparamTys ?? [];
  let name: string;
  const cv = f.cls && f.thisQ ? qualStr(f.thisQ & (Q.Const | Q.Volatile)) : '';
  if (prefix.length === 0 && !f.targs) name = funcName(m, f);
  else if (prefix.length === 0) {
    // <unscoped-template-name> <template-args>; the template name is a candidate
    const n = funcName(m, f);
    m.subs.push(n);
    const saved = m.tparams; m.tparams = [];
    name = n + m.targs(f.targs!);
    m.tparams = saved;
  } else {
    const saved = m.tparams; m.tparams = [];
    const n = funcName(m, f);
    if (f.targs) {
      const inner = m.nested(prefix, { text: n, key: n }, cv);
      name = inner.slice(0, -1) + m.targs(f.targs) + 'E';
    } else name = m.nested(prefix, { text: n, key: '' }, cv);
    m.tparams = saved;
  }
  const ps = sigParams(f);
  // a function template's encoding includes its return type (not for constructors, destructors, conversions)
  const ret = f.targs && !f.ctor && !f.dtor && f.op !== 'cv' ? m.type((f as FuncSym & { tret?: CType }).tret ?? f.ty.ret) : '';
  const params = ps.length === 0 ? (f.ty.variadic ? 'z' : 'v') : ps.map(p => m.type(p)).join('') + (f.ty.variadic ? 'z' : '');
  return name + ret + params;
}

/** The symbol name of a function (kernel or device function). */
export function mangleFunction(f: FuncSym, moduleId: string): string {
  if (f.externC) return f.name;
  if (f.name === 'main') return f.name;
  const internal = !f.isGlobal && (f.isStatic || f.inAnon) && !f.cls;
  return '_Z' + encoding(new Mangler(moduleId), f, internal, moduleId);
}

/**
 * The name in a kernel's host stub (`__device_stub_<this>`): its symbol name, extended lambdas named as host code
 * sees them. cudafe++ mangles it as C++ even for an `extern "C"` kernel (the stub is a C++ function of its own).
 */
export function mangleStubName(f: FuncSym, moduleId: string): string {
  if (f.name === 'main') return f.name;
  const internal = !f.isGlobal && (f.isStatic || f.inAnon) && !f.cls;
  const m = new Mangler(moduleId);
  m.hostClosures = true;
  return '_Z' + encoding(m, f, internal, moduleId);
}

/** The symbol name of a namespace-scope variable (or static data member). */
export function mangleVariable(v: VarSym, moduleId: string): string {
  const cls = (v as VarSym & { cls?: RecordDecl }).cls;
  if (!cls && (v.externC || v.scope.length === 0)) return v.name;
  const m = new Mangler(moduleId);
  const inAnon = v.scope.includes('(anonymous)');
  const prefix: (string | RecordDecl)[] = cls ? recordPath(cls) : [...v.scope];
  if (inAnon || (!cls && (v as VarSym & { internalLinkage?: boolean }).internalLinkage)) prefix.unshift(`_INTERNAL${moduleId}`);
  const targs = (v as VarSym & { targs?: TArg[] }).targs;
  // a variable template's specialisation: <template-prefix> <template-args>, the template name a candidate
  if (targs) return '_Z' + m.nested(prefix, { text: src(v.name), key: src(v.name) }).slice(0, -1) + m.targs(targs) + 'E';
  return '_Z' + m.nested(prefix, { text: src(v.name), key: '' });
}

/**
 * With -rdc, kernels and variables of internal linkage are named `__nv_static_<len(id)>_<id>_<name>` in the
 * PTX (as cicc names them), so that names from different units cannot meet at device link, and the host stub
 * registers them under the same name.
 */
export function nvStaticName(moduleId: string, name: string): string {
  return `__nv_static_${moduleId.length}_${moduleId}_${name}`;
}

/** A kernel's name in the PTX: its mangled name, under -rdc with the `__nv_static_` prefix when internal. */
export function kernelSymbol(k: FuncSym, opts: { moduleId: string; rdc: boolean }): string {
  const m = mangleFunction(k, opts.moduleId);
  return opts.rdc && (k.isStatic || k.inAnon) ? nvStaticName(opts.moduleId, m) : m;
}

/** A function-local static (`__shared__` arrays in kernels): _ZZ<encoding>E<name>[_<discriminator>]. */
export function mangleLocalStatic(owner: FuncSym | null, name: string, moduleId: string, discriminator: number): string {
  if (!owner) return name;
  const internal = !owner.isGlobal && (owner.isStatic || owner.inAnon) && !owner.cls;
  const enc = owner.externC ? src(owner.name) : encoding(new Mangler(moduleId), owner, internal, moduleId);
  return `_ZZ${enc}E${src(name)}${discriminator > 0 ? (discriminator - 1 < 10 ? `_${discriminator - 1}` : `__${discriminator - 1}_`) : ''}`;
}

/** The mangled name of a type on its own (`_Z3AccIfE`), as the stub aliases class template specialisations. */
export function mangleTypeName(t: CType, moduleId: string): string {
  return '_Z' + new Mangler(moduleId).type(t);
}
