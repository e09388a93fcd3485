// Itanium C++ ABI name mangling, as cicc applies it to device entities (including NVIDIA's
// _INTERNAL_<moduleId> prefix for internal-linkage device functions and variables).

import type { FuncSym, VarSym } from './ast';
import type { CType } from './ctype';
import { Q } from './ctype';

const BUILTIN: Record<string, string> = {
  'char': 'c', 'signed char': 'a', 'unsigned char': 'h', 'short': 's', 'unsigned short': 't', 'int': 'i', 'unsigned int': 'j',
  'long': 'l', 'unsigned long': 'm', 'long long': 'x', 'unsigned long long': 'y', '__int128': 'n', 'unsigned __int128': 'o',
  'wchar_t': 'w', 'char16_t': 'Ds', 'char32_t': 'Di',
};

const src = (s: string): string => `${s.length}${s}`;

class Mangler {
  subs: string[] = [];
  constructor(private moduleId: string) {}
  private sub(key: string, text: string): string {
    const i = this.subs.indexOf(key);
    if (i >= 0) return i === 0 ? 'S_' : `S${(i - 1).toString(36).toUpperCase()}_`;
    this.subs.push(key);
    return text;
  }
  /** Namespace components to <source-name>s (anonymous namespace → _GLOBAL__N_<id>). */
  component(c: string): string {
    return c === '(anonymous)' ? src('_GLOBAL__N_' + this.moduleId) : src(c);
  }
  /** Nested name for a sequence of prefix components + final name; registers substitutable prefixes. */
  nested(prefix: string[], name: string, registerFull: boolean): string {
    if (prefix.length === 0) {
      const s = src(name);
      return registerFull ? this.sub('N' + s + 'E', s) : s;
    }
    let out = 'N';
    let key = '';
    for (const c of prefix) {
      key += this.component(c);
      const i = this.subs.indexOf(key);
      if (i >= 0) { out = 'N' + (i === 0 ? 'S_' : `S${(i - 1).toString(36).toUpperCase()}_`); continue; }
      this.subs.push(key);
      out += this.component(c);
    }
    const fullKey = 'N' + key + src(name) + 'E';
    if (registerFull) {
      const i = this.subs.indexOf(fullKey);
      if (i >= 0) return i === 0 ? 'S_' : `S${(i - 1).toString(36).toUpperCase()}_`;
      this.subs.push(fullKey);
    }
    return out + src(name) + 'E';
  }
  /** Canonical (substitution-free) mangling: the key substitutions are matched by. */
  key(t: CType): string {
    const q = t.q & (Q.Const | Q.Volatile | Q.Restrict);
    if (q) return qualStr(q) + this.key(unq(t));
    switch (t.k) {
      case 'ptr': return 'P' + this.key(t.to);
      case 'ref': return (t.rv ? 'O' : 'R') + this.key(t.to);
      case 'array': return `A${t.n ?? ''}_` + this.key(t.elem);
      case 'func': return 'F' + this.key(t.ret) + (t.params.length ? t.params.map(p => this.key(p)).join('') : 'v') + 'E';
      case 'record': return 'N' + [...t.rec.scope, ...t.rec.outer].map(c => this.component(c)).join('') + src(t.rec.name || t.rec.typedefName || '') + 'E';
      case 'enum': return 'N' + t.en.scope.map(c => this.component(c)).join('') + src(t.en.name || t.en.typedefName || '') + 'E';
      default: return builtinCode(t);
    }
  }
  type(t: CType): string {
    const q = t.q & (Q.Const | Q.Volatile | Q.Restrict);
    const isBuiltin = !q && t.k !== 'ptr' && t.k !== 'ref' && t.k !== 'array' && t.k !== 'func' && t.k !== 'record' && t.k !== 'enum';
    if (isBuiltin) return builtinCode(t);
    const key = this.key(t);
    const i = this.subs.indexOf(key);
    if (i >= 0) return i === 0 ? 'S_' : `S${(i - 1).toString(36).toUpperCase()}_`;
    let text: string;
    if (q) text = qualStr(q) + this.type(unq(t));
    else switch (t.k) {
      case 'ptr': text = 'P' + this.type(t.to); break;
      case 'ref': text = (t.rv ? 'O' : 'R') + this.type(t.to); break;
      case 'array': text = `A${t.n ?? ''}_` + this.type(t.elem); break;
      case 'func': text = 'F' + this.type(t.ret) + (t.params.length ? t.params.map(p => this.type(p)).join('') : 'v') + 'E'; break;
      case 'record': return this.nested([...t.rec.scope, ...t.rec.outer], t.rec.name || t.rec.typedefName || '', true);
      case 'enum': return this.nested(t.en.scope, t.en.name || t.en.typedefName || '', true);
      default: text = builtinCode(t);
    }
    this.subs.push(key);
    return text;
  }
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
    default: return 'i';
  }
}
function unq(t: CType): CType { return { ...t, q: 0 } as CType; }

/** Parameter types as they appear in a signature: top-level cv-qualifiers dropped. */
function sigParams(f: FuncSym): CType[] { return f.ty.params.map(p => (p.q ? unq(p) : p)); }

function encoding(m: Mangler, f: FuncSym, internal: boolean, moduleId: string): string {
  const prefix = [...f.scope];
  if (internal) prefix.unshift('\0internal');
  const comps = prefix.map(c => c === '\0internal' ? `_INTERNAL${moduleId}` : c);
  let name: string;
  if (comps.length === 0) name = src(f.name);
  else {
    // component() maps '(anonymous)' to _GLOBAL__N_<id>; the internal marker is a plain source name
    name = m.nested(comps, f.name, false);
  }
  const ps = sigParams(f);
  const params = ps.length === 0 ? (f.ty.variadic ? 'z' : 'v') : ps.map(p => m.type(p)).join('') + (f.ty.variadic ? 'z' : '');
  return name + params;
}

/** The symbol name of a function (kernel or device function). */
export function mangleFunction(f: FuncSym, moduleId: string): string {
  if (f.externC) return f.name;
  if (f.name === 'main') return f.name;
  const internal = !f.isGlobal && (f.isStatic || f.inAnon);
  return '_Z' + encoding(new Mangler(moduleId), f, internal, moduleId);
}

/** The symbol name of a namespace-scope variable. */
export function mangleVariable(v: VarSym, moduleId: string): string {
  if (v.externC || v.scope.length === 0) return v.name;
  const m = new Mangler(moduleId);
  const inAnon = v.scope.includes('(anonymous)');
  const comps = inAnon ? [`_INTERNAL${moduleId}`, ...v.scope] : [...v.scope];
  return '_Z' + m.nested(comps, v.name, false);
}

/** A function-local static (`__shared__` arrays in kernels): _ZZ<encoding>E<name>[_<discriminator>]. */
export function mangleLocalStatic(owner: FuncSym | null, name: string, moduleId: string, discriminator: number): string {
  if (!owner) return name;
  const internal = !owner.isGlobal && (owner.isStatic || owner.inAnon);
  const enc = owner.externC ? src(owner.name) : encoding(new Mangler(moduleId), owner, internal, moduleId);
  return `_ZZ${enc}E${src(name)}${discriminator > 0 ? (discriminator - 1 < 10 ? `_${discriminator - 1}` : `__${discriminator - 1}_`) : ''}`;
}
