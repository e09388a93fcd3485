// Kernel template specialisations requested from host function templates:
//   template <class T> void runTest() { testKernel<T><<<g, b>>>(...); }   int main() { runTest<float>(); }
// The kernel's arguments name the host template's parameters, so each instantiation of the host template that the
// user's code asks for (explicitly, possibly from inside another host template) gives one binding to read them with.

import { DeclFlag } from './index-types';
import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { FuncSym, Sym } from './ast';
import { type CType, type TArg, C } from './ctype';
import { evalInt } from './consteval';
import { Parser, SyntaxAbort } from './parser';
import { parseTemplateHeader, bindArgs, targsKey } from './templates';
import type { Unit } from './unit';

interface Binding { scope: Map<string, Sym>; args: TArg[] }
interface HostBinding { hdi: number; b: Binding }
/** Host code read for its launches and calls (with each call's first site, in step with calls). */
export interface HostRead { launches: FuncSym[]; calls: FuncSym[]; sites: number[] }

const splitScope = (s: string): string[] => (s ? s.split('::').filter(x => x && x !== '(anonymous)') : []);

/** The innermost non-kernel function template whose body holds token i, or -1. */
export function enclosingHostTemplate(u: Unit, i: number): number { return enclosingFunction(u, i, true); }

/** Template arguments at toks[at] ('<'), read with a host template's binding in scope; Unsupported when unreadable. */
function readArgs(u: Unit, at: number, scope: string, tscope: Map<string, Sym> | null, what: string): TArg[] {
  const p = new Parser(u, at, u.toks.count, splitScope(scope));
  p.tscope = tscope;
  const before = u.diags.length, errs = u.errorCount;
  let args: TArg[] = [];
  try { args = p.parseTemplateArgs(); } catch (e) { if (!(e instanceof SyntaxAbort)) { u.diags.length = before; u.errorCount = errs; throw e; } }
  if (u.errorCount > errs || args.length === 0) { u.diags.length = before; u.errorCount = errs; throw new Unsupported(`template arguments of ${what} in host code`); }
  return args;
}

/** Host function templates whose bodies (directly or through other host templates) name a kernel template. */
export function launchingHostTemplates(u: Unit, kernels: Set<string>): Map<string, number[]> {
  const hosts = new Map<string, number[]>();
  const cands = u.index.decls.map((d, k) => k).filter(k => {
    const d = u.index.decls[k]!;
    return d.kind === 'function' && (d.flags & DeclFlag.Template) && d.bodyStart >= 0 && u.isUserFile(d.first) && !kernels.has(d.name);
  });
  const names = (k: number): string[] => {
    const d = u.index.decls[k]!, out: string[] = [];
    for (let j = d.bodyStart; j < d.bodyEnd; j++) if (u.toks.kind[j] === Tok.Ident) out.push(u.text(j));
    return out;
  };
  const bodyNames = new Map(cands.map(k => [k, new Set(names(k))]));
  for (let changed = true; changed;) {
    changed = false;
    for (const k of cands) {
      const d = u.index.decls[k]!;
      if (hosts.get(d.name)?.includes(k)) continue;
      const ns = bodyNames.get(k)!;
      if ([...kernels].some(n => ns.has(n)) || [...hosts.keys()].some(n => ns.has(n))) {
        hosts.set(d.name, [...(hosts.get(d.name) ?? []), k]);
        changed = true;
      }
    }
  }
  return hosts;
}

/** Is token j the name of a declaration of the same name, before its body (a forward declaration, an overload)? */
export function inOwnDeclarator(u: Unit, j: number, name: string): boolean {
  return (u.index.byName.get(name) ?? []).some(k => {
    const o = u.index.decls[k]!;
    // an explicit instantiation (`template void runTest<float>(...);`) requests a binding
    return o.kind === 'function' && !(o.flags & DeclFlag.ExplicitInst) && j >= o.first && (o.bodyStart < 0 ? j <= o.last : j < o.bodyStart);
  });
}

/**
 * The specialisations of host template `name` that its use at token j asks for (read with tscope): a template-id,
 * an explicit instantiation (none when it instantiates an overload that launches no kernel template), or a call
 * with deduced arguments, whose specialisations `deduced` finds; Unsupported when we cannot tell.
 */
function bindHost(u: Unit, hosts: Map<string, number[]>, j: number, tscope: Map<string, Sym> | null, deduced: (name: string, j: number) => HostBinding[]): HostBinding[] {
  const name = u.text(j);
  // an explicit specialisation (`template <> void f<float>(...) {...}`) is an ordinary function, walked where it is defined
  const ents = hosts.get(name)!.filter(k => !u.templates.isExplicitSpec(k));
  // an explicit instantiation names its overload by its parameters (and written arguments)
  const overloads = (u.index.byName.get(name) ?? []).filter(k => u.index.decls[k]!.kind === 'function' && (u.index.decls[k]!.flags & DeclFlag.Template) && !(u.index.decls[k]!.flags & DeclFlag.ExplicitInst));
  const ei = u.text(j + 1) === '<' && overloads.length < 2 ? undefined : explicitInstAt(u, j);
  let hdi: number, given: TArg[];
  if (ei !== undefined) {
    const inst = explicitInstTarget(u, ei);
    if (!inst) throw new Unsupported(`host template ${name} used with deduced template arguments`);
    if (!ents.includes(inst.di)) return [];
    hdi = inst.di; given = inst.args;
  } else if (u.text(j + 1) !== '<' || ents.length > 1) {
    // deduced arguments, or one of overloaded templates: the caller's body, read, says which specialisations
    return deduced(name, j);
  } else {
    if (ents.length === 0) return [];
    hdi = ents[0]!;
    given = readArgs(u, j + 1, u.index.decls[hdi]!.scope, tscope, name);
  }
  const d = u.index.decls[hdi]!;
  const h = u.templates.header(hdi);
  if (h.some(tp => tp.pack)) throw new Unsupported(`variadic host template ${name} launching a kernel template`);
  if (given.length > h.length || given.some(a => a.k === 'pack')) throw new Unsupported(`template arguments of host template ${name}`);
  const p = new Parser(u, d.first, d.last + 1, splitScope(d.scope));
  parseTemplateHeader(p);
  const b = bindArgs(p, h, h.map((_, k) => given[k]));
  if (!b) throw new Unsupported(`template arguments of host template ${name}`);
  return [{ hdi, b }];
}

/**
 * The specialisations of launching host template `name` that the call written at token j asks for, among the
 * calls host code makes (read with hostCalls, which deduced their arguments): the call whose site follows j before
 * the name's next mention. An overload that launches no kernel template is left out; a call made before (the
 * same specialisation) gives none; a use that is not a call is unsupported.
 */
function calledHostTemplates(u: Unit, hosts: Map<string, number[]>, read: HostRead, name: string, j: number, why: string): HostBinding[] {
  let next = j + 1;
  while (next < u.toks.count && !(u.toks.kind[next] === Tok.Ident && u.text(next) === name)) next++;
  const out: HostBinding[] = [];
  read.calls.forEach((c, k) => {
    const site = read.sites[k]!;
    if (c.isGlobal || c.name !== name || !c.targs || !c.tscope || site < j || site >= next) return;
    const hdi = hosts.get(name)?.find(d => u.index.decls[d]!.bodyStart === c.bodyStart && !u.templates.isExplicitSpec(d));
    if (hdi === undefined) return;
    if (u.templates.header(hdi).some(tp => tp.pack)) throw new Unsupported(`variadic host template ${name} launching a kernel template`);
    out.push({ hdi, b: { scope: c.tscope, args: c.targs } });
  });
  const callForm = u.text(j + 1) === '(' || u.text(j + 1) === '<';
  if (out.length === 0 && (!callForm || !read.calls.some(c => c.name === name))) throw new Unsupported(why);
  return out;
}

/** The explicit instantiation (`template void f(...);`) whose declaration holds token j, if any. */
function explicitInstAt(u: Unit, j: number): number | undefined {
  return (u.index.byName.get(u.text(j)) ?? []).find(k => {
    const e = u.index.decls[k]!;
    return e.kind === 'function' && (e.flags & DeclFlag.ExplicitInst) !== 0 && e.first <= j && e.last >= j;
  });
}

/**
 * The function template an explicit instantiation names and its arguments, deduced from the parameter types where
 * it leaves them out (FasterTransformer's `template void invokeMatrixTranspose(float* dst, const float* src, ...);`):
 * the one template of that name and scope whose parameters match (its definition); null when none or several do.
 */
function explicitInstTarget(u: Unit, ei: number): { di: number; args: TArg[] } | null {
  const e = u.index.decls[ei]!;
  const found: { di: number; args: TArg[] }[] = [];
  for (const di of u.index.byName.get(e.name) ?? []) {
    const d = u.index.decls[di]!;
    if (di === ei || d.kind !== 'function' || !(d.flags & DeclFlag.Template) || (d.flags & DeclFlag.ExplicitInst) || d.scope !== e.scope || d.qualifier || u.templates.isExplicitSpec(di)) continue;
    const args = u.templates.explicitFuncSpecArgs(di, ei);
    if (args) found.push({ di, args });
  }
  // a declaration (in a header) and the definition of the same template both match: the definition is the one
  const defined = found.filter(f => u.index.decls[f.di]!.bodyStart >= 0);
  return defined.length === 1 ? defined[0]! : found.length === 1 ? found[0]! : null;
}

/**
 * Walks the host template named at token j (a user-code template-id `runTest<float>`, an explicit instantiation,
 * or a call with deduced arguments whose specialisations `deduced` finds) depth-first, as cicc instantiates: each
 * kernel template use in its body, and each host template it names in turn, under the binding; pushes the kernel
 * specialisations to out in that order. `visited` holds host bindings already walked.
 */
export function walkHostTemplate(u: Unit, hosts: Map<string, number[]>, kernels: Map<string, number[]>, j: number,
  tscope: Map<string, Sym> | null, visited: Set<string>, out: FuncSym[], deduced: (name: string, j: number) => HostBinding[]): void {
  for (const { hdi, b } of bindHost(u, hosts, j, tscope, deduced)) walkBound(u, hosts, kernels, hdi, b, visited, out);
}

/**
 * The explicit specialisation of a host template at decl si (`template <> void invokeCalAttnScore(float* ...) {...}`,
 * FasterTransformer's xlnet_attention_kernels.cu): an ordinary function, so the kernels its body launches are
 * instantiated whether host code calls it or not. Walked as its primary's specialisation (whose body it is).
 */
export function walkHostSpec(u: Unit, hosts: Map<string, number[]>, kernels: Map<string, number[]>, si: number, visited: Set<string>, out: FuncSym[]): void {
  const inst = explicitInstTarget(u, si);
  if (!inst) throw new Unsupported(`explicit specialization of host template ${u.index.decls[si]!.name} launching a kernel template`);
  const d = u.index.decls[inst.di]!;
  const p = new Parser(u, d.first, d.last + 1, splitScope(d.scope));
  const b = bindArgs(p, parseTemplateHeader(p), inst.args);
  if (!b) throw new Unsupported(`template arguments of host template ${d.name}`);
  walkBound(u, hosts, kernels, inst.di, b, visited, out, si);
}

/** Walks host template hdi's specialisation for binding b, whose body is decl bodyDecl's (an explicit specialisation's, or the template's own). */
function walkBound(u: Unit, hosts: Map<string, number[]>, kernels: Map<string, number[]>, hdi: number, b: Binding, visited: Set<string>, out: FuncSym[], bodyDecl = hdi): void {
  const key = `${hdi}|${targsKey(u.recIds, b.args)}`;
  if (visited.has(key)) return;
  if (visited.size > 10000) throw new Unsupported('host template instantiation depth');
  visited.add(key);
  const d = u.index.decls[bodyDecl]!;
  // a host template this one calls with deduced arguments: its body read under the binding says which
  const deduced = (name: string, j: number): HostBinding[] => {
    const why = `host template ${name} called with deduced template arguments in host template ${d.name}`;
    return calledHostTemplates(u, hosts, readHostInstance(u, hdi, b, why), name, j, why);
  };
  for (let i = d.bodyStart + 1; i < d.bodyEnd; i++) {
    if (u.toks.kind[i] !== Tok.Ident) continue;
    const prev = u.text(i - 1);
    if (prev === '.' || prev === '->') continue;
    const name = u.text(i);
    const ents = kernels.get(name);
    if (ents) {
      if (u.text(i + 1) !== '<' && u.text(i + 1) !== '<<' && u.text(i + 1) !== '<<<') throw new Unsupported(`kernel template ${name} used without template arguments`);
      for (const f of kernelInstancesAt(u, hdi, b, i, name, ents, bodyDecl)) if (!out.includes(f)) out.push(f);
      continue;
    }
    if (hosts.has(name) && !inOwnDeclarator(u, i, name)) walkHostTemplate(u, hosts, kernels, i, b.scope, visited, out, deduced);
  }
}

/**
 * The kernel template specialisations that the use of kernel `name` at token i (a template-id `k<T, 4>` or a
 * deduced launch `k<<<...>>>(p)`) inside host template hdi (its body decl bodyDecl's) asks for under binding b.
 */
function kernelInstancesAt(u: Unit, hdi: number, b: Binding, i: number, name: string, ents: number[], bodyDecl: number): FuncSym[] {
  if (u.text(i + 1) === '<') {
    if (ents.length > 1) throw new Unsupported(`overloaded kernel template ${name}`);
    const args = readArgs(u, i + 1, u.index.decls[ents[0]!]!.scope, withLocalConstants(u, bodyDecl, i, b.scope), `kernel ${name}`);
    const f = u.templates.instantiateExplicit(ents[0]!, args);
    if (!f) throw new Unsupported(`template arguments of kernel ${name}`);
    return [f];
  }
  // a deduced launch: read the host template's body under the binding to learn the argument types
  const why = `kernel template ${name} launched with deduced template arguments in host template ${u.index.decls[hdi]!.name}`;
  return readHostInstance(u, hdi, b, why).launches.filter(f => f.name === name);
}

/** The body of host template hdi's specialisation for binding b, read (not compiled): the kernels it launches and the functions it calls. */
function readHostInstance(u: Unit, hdi: number, b: Binding, why: string): HostRead {
  return readBody(u, `${hdi}|${targsKey(u.recIds, b.args)}`, why, () => {
    const f = u.templates.instantiateFunction(hdi, b.args);
    return { f, scope: splitScope(u.index.decls[hdi]!.scope), tscope: f.tscope ?? b.scope };
  });
}

/**
 * The specialisations of launching host templates that a non-template host function f calls with deduced
 * arguments (`int main() { invokeScale(out, in, bias, n, 0); }`): f's body read (not compiled) with its calls
 * recorded; statements that name none of the host templates and that we cannot read are skipped.
 */
export function hostCallsIn(u: Unit, hosts: Map<string, number[]>, f: FuncSym, scope: string[], name: string, j: number): HostBinding[] {
  const why = `host template ${name} called with deduced template arguments in ${f.name}`;
  const read = readBody(u, `fn${f.bodyStart}`, why, () => ({ f, scope, tscope: f.tscope, names: new Set(hosts.keys()) }));
  return calledHostTemplates(u, hosts, read, name, j, why);
}

/**
 * Reads the body of the host function `what` gives (not compiled), once per key: the kernels it launches and the
 * functions it calls, with their sites. What we cannot read is unsupported (`why`), leaving no diagnostics behind.
 */
function readBody(u: Unit, key: string, why: string, what: () => { f: FuncSym; scope: string[]; tscope?: Map<string, Sym>; names?: Set<string> }): HostRead {
  const got = u.hostReads.get(key);
  if (got) return got;
  const before = u.diags.length, errs = u.errorCount;
  const read: HostRead = { launches: [], calls: [], sites: [] };
  try {
    const { f, scope, tscope, names } = what();
    if (f.bodyStart < 0) throw new Unsupported(why);
    const p = new Parser(u, f.bodyStart, f.bodyEnd + 1, scope);
    if (tscope) p.tscope = tscope;
    p.hostLaunches = read.launches;
    p.hostCalls = read.calls;
    p.hostCallSites = read.sites;
    if (names) p.hostNames = names;
    p.parseFunctionBody({ ...f, params: undefined, body: undefined });
  } catch (e) {
    u.diags.length = before; u.errorCount = errs;
    if (e instanceof SyntaxAbort) throw new Unsupported(why + ' (host code we cannot read)');
    if (e instanceof Unsupported) throw e.reason === why ? e : new Unsupported(`${why} (${e.reason})`);
    throw e;
  }
  if (u.errorCount > errs) { u.diags.length = before; u.errorCount = errs; throw new Unsupported(why + ' (host code we cannot read)'); }
  u.hostReads.set(key, read);
  return read;
}

/** The innermost function definition (a template only, with `templates`) whose body holds token i, or -1. */
export function enclosingFunction(u: Unit, i: number, templates = false): number {
  let best = -1;
  u.index.decls.forEach((d, k) => {
    if (d.kind === 'function' && (!templates || (d.flags & DeclFlag.Template)) && d.bodyStart >= 0 && d.bodyStart < i && d.bodyEnd > i
      && (best < 0 || d.bodyStart > u.index.decls[best]!.bodyStart)) best = k;
  });
  return best;
}

/** The words before a local constant's `const`/`constexpr` (TensorRT writes `int32_t constexpr kBLOCK_SZ = 256;`). */
const LOCAL_CONST_WORDS = new Set(['static', 'const', 'constexpr', 'unsigned', 'signed', 'long', 'short', 'int', 'bool', 'size_t', 'int32_t', 'uint32_t', 'int64_t', 'uint64_t']);

/** Integral types a local constant's declaration may name, by the spelling that decides it. */
function constantType(specs: string[]): CType | null {
  if (specs.includes('*') || specs.includes('&') || specs.includes('&&')) return null;
  const u = specs.includes('unsigned');
  const longs = specs.filter(t => t === 'long').length;
  if (specs.includes('size_t') || specs.includes('uint64_t')) return C.ulong;
  if (specs.includes('int64_t')) return C.long;
  if (specs.includes('uint32_t')) return C.uint;
  if (specs.includes('int32_t')) return C.int;
  // TensorRT's `const bool fmap_in_shmem = false; k<T, fmap_in_shmem><<<...>>>`
  if (specs.includes('bool')) return C.bool;
  if (specs.includes('short')) return u ? C.ushort : C.short;
  if (longs >= 2) return u ? C.ullong : C.llong;
  if (longs === 1) return u ? C.ulong : C.long;
  if (specs.includes('int') || specs.includes('unsigned') || specs.includes('signed') || specs.includes('auto')) return u ? C.uint : C.int;
  return null;
}

/**
 * The binding plus the integral local constants of host function hdi in scope at token i, which kernel template
 * arguments may name: `constexpr int groups = 2; k<T, 256 / groups><<<...>>>`, `const int B = 256, I = 8;
 * scan<B, I><<<...>>>` (a const integral variable initialised by a constant expression is itself one). A
 * declaration we cannot read or evaluate is left out: naming it then fails as before.
 */
export function withLocalConstants(u: Unit, hdi: number, i: number, scope: Map<string, Sym>): Map<string, Sym> {
  const d = u.index.decls[hdi]!;
  const blocks: { name: string; sym: Sym }[][] = [[]];
  const inScope = (): Map<string, Sym> => {
    const sc = new Map(scope);
    for (const bl of blocks) for (const c of bl) sc.set(c.name, c.sym);
    return sc;
  };
  for (let j = d.bodyStart + 1; j < i; j++) {
    const t = u.text(j);
    if (t === '{') { blocks.push([]); continue; }
    if (t === '}') { if (blocks.length > 1) blocks.pop(); continue; }
    if (t === 'enum' && [';', '{', '}'].includes(u.text(j - 1))) { j = localEnum(u, j, i, d.bodyEnd, splitScope(d.scope), inScope, blocks[blocks.length - 1]!); continue; }
    if (t !== 'constexpr' && t !== 'const') continue;
    // at the start of a declaration statement only (not a parameter, a cast or a pointer's qualifier)
    let s = j;
    while (s > d.bodyStart + 1 && LOCAL_CONST_WORDS.has(u.text(s - 1))) s--;
    if (![';', '{', '}'].includes(u.text(s - 1))) continue;
    const specs: string[] = [];
    let k = s;
    while (k < i && (u.toks.kind[k] === Tok.Ident || u.text(k) === '::') && !(u.toks.kind[k] === Tok.Ident && u.text(k + 1) === '=')) specs.push(u.text(k++));
    // a constexpr of a type we do not spell here (a template parameter, a typedef) is read as an int, as before
    const ty = constantType(specs) ?? (specs.includes('constexpr') && !specs.some(x => x === '*' || x === '&') ? C.int : null);
    if (!ty) { j = k; continue; }
    // each declarator `name = constant-expression`, up to the ';'
    while (k < i && u.toks.kind[k] === Tok.Ident && u.text(k + 1) === '=') {
      const p = new Parser(u, k + 2, d.bodyEnd, splitScope(d.scope));
      p.tscope = inScope();
      const before = u.diags.length, errs = u.errorCount;
      let v: bigint | null = null;
      try { const e = p.parseAssign(); v = u.errorCount === errs && (p.at(';') || p.at(',')) ? evalInt(e, u.consts) : null; } catch (e) { if (!(e instanceof SyntaxAbort) && !(e instanceof Unsupported)) throw e; }
      u.diags.length = before; u.errorCount = errs;
      if (v === null) break;
      blocks[blocks.length - 1]!.push({ name: u.text(k), sym: { kind: 'enumconst', name: u.text(k), ty, value: v } });
      if (!p.at(',')) break;
      k = p.p + 1;
    }
    j = Math.max(j, k - 1);
  }
  if (blocks.every(bl => bl.length === 0)) return scope;
  return inScope();
}

/**
 * A host function's local `enum [Name] [: type] { A = 4, B, ... };` (GPUJPEG's `enum { WARP_COUNT = 4 };` before
 * `k<WARP_COUNT><<<...>>>`): its enumerators join the constants in scope. Returns the token to go on from (the
 * enum's closing brace, so its braces are not read as a block).
 */
function localEnum(u: Unit, j: number, end: number, bodyEnd: number, scope: string[], inScope: () => Map<string, Sym>, into: { name: string; sym: Sym }[]): number {
  let k = j + 1;
  if (u.text(k) === 'class' || u.text(k) === 'struct') k++;
  if (u.toks.kind[k] === Tok.Ident) k++;
  if (u.text(k) === ':') { k++; while (k < end && u.text(k) !== '{' && u.text(k) !== ';') k++; }
  if (u.text(k) !== '{') return j;
  k++;
  let next = 0n;
  while (k < end && u.toks.kind[k] === Tok.Ident) {
    const name = u.text(k);
    let v: bigint | null = next;
    if (u.text(k + 1) === '=') {
      const p = new Parser(u, k + 2, bodyEnd, scope);
      p.tscope = inScope();
      const before = u.diags.length, errs = u.errorCount;
      v = null;
      try { const e = p.parseAssign(); v = u.errorCount === errs && (p.at(',') || p.at('}')) ? evalInt(e, u.consts) : null; } catch (e) { if (!(e instanceof SyntaxAbort) && !(e instanceof Unsupported)) throw e; }
      u.diags.length = before; u.errorCount = errs;
      if (v === null) return j;
      k = p.p;
    } else k++;
    into.push({ name, sym: { kind: 'enumconst', name, ty: C.int, value: v } });
    next = v + 1n;
    if (u.text(k) === ',') k++;
    if (u.text(k) === '}') return k;
  }
  return j;
}
