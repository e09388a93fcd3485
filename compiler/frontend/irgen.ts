// Front-end entry: find the device roots (kernels, __device__/__constant__ variables), parse and check
// what they reach, generate IR, and describe the kernels/variables for the host stub.

import type { Tokens } from './tokens';
import { type DeclEntry, type Index, DeclFlag } from './index-types';
import type { CompileOptions } from '../options';
import { type Diagnostic, Unsupported } from '../diagnostics';
import { type Module, newModule } from '../middle/ir';
import type { StubInput, StubKernel, StubVariable, HostType } from './stub-types';
import { recordSpelling, castValue, enumeratorName, LITERAL_SUFFIX } from './stub-spelling';
import type { StubInputExtras } from './stub';
import type { FuncSym, VarSym } from './ast';
import { type CType, type TArg, C, sizeOfC, alignOfC, recordQualName, typeName, sugarOf, unqual } from './ctype';
import { Tok } from './tokens';
import { type LexError, posToLine } from './lexer';
import { Parser, SyntaxAbort } from './parser';
import { Unit } from './unit';
import { ModuleGen } from './codegen';
import { mangleFunction, mangleStubName, mangleVariable, mangleTypeName } from './mangle';
import { closureHostSpelling } from './xlambda';
import { checkLibraryKernels } from './libkernels';
import { enclosingFunction, enclosingHostTemplate, hostCallsIn, launchingHostTemplates, inOwnDeclarator, walkHostSpec, walkHostTemplate, withLocalConstants } from './hostinst';
import { classTemplateLaunches } from './hostmembers';
import { namedDeviceVarInsts, instantiatedDeviceVarInsts } from './vartmpl-insts';

export function generateIR(toks: Tokens, index: Index, opts: CompileOptions): { module: Module; stub: StubInput; diagnostics: Diagnostic[] } {
  const u = new Unit(toks, index, opts);
  const module = newModule();
  const empty: StubInput = { kernels: [], variables: [] };
  const kernels: FuncSym[] = [];
  const vars: VarSym[] = [];
  const kernelTemplates = new Map<string, number[]>();

  // 0. a unit that ends inside a construct (truncated .ii) or has a lexical error in the user's code
  if (unitIsBroken(u, toks, index)) return { module, stub: empty, diagnostics: u.diags };

  // 1. roots
  const deviceFns: FuncSym[] = [];
  collectRoots(u, kernels, vars, kernelTemplates, undefined, opts.rdc ? deviceFns : undefined);
  checkLibraryKernels(u);
  const firstSeen = new Map<FuncSym, number>();
  if (kernelTemplates.size) for (const k of templateKernelInstances(u, kernelTemplates, firstSeen)) if (!kernels.includes(k)) kernels.push(k);

  // 2. parse and check every function the roots reach
  const gen = new ModuleGen(u, opts, module);
  const parseBody = (f: FuncSym): void => { u.parseBody(f); };
  for (const v of vars) gen.global(v);
  for (const k of kernels) gen.func(k);
  // codegen discovers callees; parse lazily as they are queued
  const drain = (): void => {
    while (gen.queue.length) {
      const f = gen.queue.shift()!;
      parseBody(f);
      if (u.errorCount > 0) { drainParse(gen, parseBody); break; }
      gen.emitBody(f);
    }
  };
  drain();
  // -rdc: the external device functions no kernel reached, after those the kernels reach (their order unchanged)
  if (deviceFns.length > 0 && u.errorCount === 0) { for (const f of deviceFns) gen.func(f); drain(); }
  // static local variables are created by codegen on first use
  if (u.errorCount > 0) return { module, stub: empty, diagnostics: u.diags };
  // emitted, but not registered: EDG's stub lists only those named outside templates
  for (const v of instantiatedDeviceVarInsts(u, vars)) gen.global(v);

  // 3. code ptxd did not parse (host code, unused header declarations) that cicc certainly rejects: cicc decides
  unitIsMalformed(u, index);

  // 4. stub description
  return { module, stub: stubInput(u, kernels, vars, opts, firstSeen), diagnostics: u.diags };
}


/** The unit's device roots in index order: non-template kernels, device variables, and kernel templates by name. */
export function collectRoots(u: Unit, kernels: FuncSym[], vars: VarSym[], kernelTemplates: Map<string, number[]>, declOf?: Map<FuncSym | VarSym, number>, deviceFns?: FuncSym[]): void {
  const index = u.index;
  const at = new Map<VarSym, number>();
  const varTmpls: number[] = [];
  for (let di = 0; di < index.decls.length; di++) {
    const d = index.decls[di]!;
    // -rdc: another unit may call any device function of external linkage, so cicc emits each one defined here
    if (deviceFns && d.kind === 'function' && !d.qualifier && (d.flags & DeclFlag.Device) && (d.flags & DeclFlag.HasBody)
      && !(d.flags & (DeclFlag.Global | DeclFlag.Template | DeclFlag.Inline | DeclFlag.Constexpr | DeclFlag.Static | DeclFlag.InAnonNamespace | DeclFlag.Forceinline | DeclFlag.DeviceBuiltin))) {
      for (const s of u.load(di)) if (s.kind === 'func' && !s.isGlobal && s.bodyStart >= 0 && !s.isInline && !s.isConstexpr && !deviceFns.includes(s)) deviceFns.push(s);
      continue;
    }
    if (deviceFns && d.kind === 'function' && (d.flags & DeclFlag.Device) && (d.flags & DeclFlag.HasBody) && !(d.flags & (DeclFlag.Global | DeclFlag.Inline | DeclFlag.Constexpr | DeclFlag.Forceinline))) {
      // emitted by cicc whether used or not; ptxd does not make these roots yet
      if (d.qualifier && !(d.flags & DeclFlag.Template)) throw new Unsupported('-rdc: a device member function defined out of its class (cicc emits it unused too)');
      if ((d.flags & DeclFlag.ExplicitInst) || ((d.flags & DeclFlag.Template) && u.templates.isExplicitSpec(di))) throw new Unsupported('-rdc: an explicit instantiation or specialisation of a device function template');
    }
    if (d.kind === 'function' && (d.flags & DeclFlag.Global) && (d.flags & DeclFlag.HasBody)) {
      if (d.flags & DeclFlag.Template) {
        if (u.templates.isExplicitSpec(di)) {
          const f = explicitKernelSpec(u, di);
          if (!kernels.includes(f)) { kernels.push(f); declOf?.set(f, di); }
          continue;
        }
        kernelTemplates.set(d.name, [...(kernelTemplates.get(d.name) ?? []), di]);
        continue;
      }
      if (d.qualifier) throw new Unsupported('kernel defined out of line');
      for (const s of u.load(di)) if (s.kind === 'func' && s.isGlobal && s.bodyStart >= 0 && !kernels.includes(s)) { kernels.push(s); declOf?.set(s, di); }
    } else if (d.kind === 'variable' && (d.flags & (DeclFlag.Device | DeclFlag.Constant | DeclFlag.Managed | DeclFlag.Shared))
      && !(d.flags & DeclFlag.Extern) && !(d.flags & DeclFlag.DeviceBuiltin)) {
      if (d.flags & DeclFlag.Template) {
        // a header's device variable template (CCCL's customization points) is no object until device code
        // instantiates it, which the parser refuses; the user's own ones we cannot emit yet
        if (u.isUserFile(d.first) || (d.flags & DeclFlag.ExplicitInst)) throw new Unsupported('variable template');
        varTmpls.push(di);
        continue;
      }
      for (const s of u.load(di)) {
        if (s.kind !== 'var' || s.name !== d.name || s.space === 'none' || s.isExtern || vars.includes(s)) continue;
        // a namespace-scope constexpr (not inline) or static object has internal linkage: cicc emits it, unused
        // ones too (CCCL's `__device__ constexpr auto begin = __begin::__fn{};`), under the _INTERNAL_ prefix
        if ((s.isConstexpr && !(d.flags & DeclFlag.Inline)) || s.isStatic) (s as VarSym & { internalLinkage?: boolean }).internalLinkage = true;
        vars.push(s); declOf?.set(s, di); at.set(s, d.first);
      }
    }
  }
  for (const x of namedDeviceVarInsts(u, varTmpls)) { vars.push(x.v); at.set(x.v, x.at); }
  // cicc emits and registers variables walking EDG's scope tree, each namespace's reopenings together: the
  // global namespace's own variables, then its namespaces in the order they were first opened; inside a
  // namespace, its nested namespaces first (in that order), then its own variables in declaration order
  const firstOpen = (path: string): number => index.namespaces?.get(path)?.opens[0] ?? 0;
  const key = new Map<VarSym, number[]>();
  for (const v of vars) {
    const pos = at.get(v) ?? 0, n = v.scope.length;
    const k = n === 0 ? [0, pos] : [1, firstOpen(v.scope[0]!)];
    for (let i = 1; i <= n; i++) k.push(...(i === n ? [1, pos] : [0, firstOpen(v.scope.slice(0, i + 1).join('::'))]));
    key.set(v, k);
  }
  vars.sort((a, b) => {
    const ka = key.get(a)!, kb = key.get(b)!;
    for (let i = 0; i < ka.length && i < kb.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
    return ka.length - kb.length;
  });

}

/**
 * `template <> __global__ void k<__half>(...) {...}` (TensorRT's multiscaleDeformableAttn): an ordinary kernel,
 * which cicc emits and registers where it is defined, used or not. The specialisation of its primary template
 * that it defines; Unsupported when we cannot tell which primary or which arguments.
 */
function explicitKernelSpec(u: Unit, ei: number): FuncSym {
  const e = u.index.decls[ei]!;
  const why = 'explicit specialization of a kernel template';
  if (e.qualifier) throw new Unsupported(why);
  const found: FuncSym[] = [];
  for (const di of u.index.byName.get(e.name) ?? []) {
    const d = u.index.decls[di]!;
    if (di === ei || d.kind !== 'function' || !(d.flags & DeclFlag.Template) || d.scope !== e.scope || d.qualifier || u.templates.isExplicitSpec(di)) continue;
    const args = u.templates.explicitFuncSpecArgs(di, ei);
    if (!args) continue;
    const f = u.templates.instantiateFunction(di, args);
    if (!found.includes(f)) found.push(f);
  }
  if (found.length !== 1 || found[0]!.bodyStart < 0 || !found[0]!.isGlobal) throw new Unsupported(why);
  // where EDG writes it among the kernels: its definition, not where the unit launches it
  (found[0] as FuncSym & { explicitSpec?: boolean }).explicitSpec = true;
  return found[0]!;
}

/**
 * The host stub's description of the unit's kernels and variables. EDG writes a kernel template's
 * specialisation where the unit first asks for it (`firstSeen`: a launch, an explicit instantiation), among
 * the other kernels in source order; that order also numbers the stub's temporaries.
 */
export function stubInput(u: Unit, kernels: FuncSym[], vars: VarSym[], opts: CompileOptions, firstSeen?: ReadonlyMap<FuncSym, number>): StubInput {
  const at = (k: FuncSym): number => firstSeen?.get(k) ?? k.pos;
  const ordered = firstSeen && firstSeen.size > 0 ? kernels.map((k, i) => ({ k, i })).sort((a, b) => at(a.k) - at(b.k) || a.i - b.i).map(x => x.k) : kernels;
  const stubKernels = ordered.map(k => stubKernel(u, k, opts));
  const input: StubInput & StubInputExtras = { kernels: stubKernels, variables: vars.map(v => stubVariable(v, opts)) };
  const typeOrder = nestedTypeOrder(u, stubKernels);
  if (typeOrder) input.typeOrder = typeOrder;
  return input;
}

/**
 * Where the namespace-scope types that kernel parameters name (`ns::T`) are declared: EDG declares the stub's
 * aliases for them in that order. A type nested in a class takes its class's place.
 */
function nestedTypeOrder(u: Unit, kernels: readonly StubKernel[]): Record<string, number> | undefined {
  const order: Record<string, number> = {};
  const declaredAt = (qual: string): number | undefined => {
    const parts = qual.split('::').filter(p => p !== '_NV_ANON_NAMESPACE');
    for (let n = parts.length; n >= 2; n--) {
      const name = parts[n - 1]!, scope = parts.slice(0, n - 1).join('::');
      for (const di of u.index.byName.get(name) ?? []) {
        const d = u.index.decls[di]!;
        if ((d.kind === 'record' || d.kind === 'enum' || d.kind === 'typedef') && d.scope.split('::').filter(p => p !== '(anonymous)').join('::') === scope) return d.first;
      }
    }
    return undefined;
  };
  const visit = (t: HostType): void => {
    if (t.k === 'ptr' || t.k === 'ref') visit(t.to);
    else if (t.k === 'array') visit(t.elem);
    else if (t.k === 'func') { visit(t.ret); t.params.forEach(visit); }
    else if ((t.k === 'record' || t.k === 'enum' || t.k === 'typedef') && t.qualName.includes('::') && !(t.qualName in order)) {
      const at = declaredAt(t.qualName);
      if (at !== undefined) order[t.qualName] = at;
    }
  };
  for (const k of kernels) for (const p of k.params) visit(p.type);
  return Object.keys(order).length > 0 ? order : undefined;
}

/** Structural errors cicc reports before anything else: brackets still open at the end of the unit, bad tokens in user files. */
export function unitIsBroken(u: Unit, toks: Tokens, index: Index): boolean {
  for (const e of toks.errors ?? []) lexDiagnostic(u, toks, e);
  const open = (index.errors ?? []).filter(e => e.message.endsWith('at end of file'));
  if (open.length > 0) {
    const closer: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
    // EDG names the innermost construct first
    for (const e of [...open].reverse()) {
      const c = closer[u.text(e.tok)] ?? '}';
      u.errorCount++;
      u.diags.push({ severity: 'error', file: u.fileOf(e.tok), line: u.lineOf(e.tok), number: c === '}' ? 67 : c === ')' ? 18 : 17, message: `expected a "${c}"`, atEnd: true });
    }
  }
  return u.errorCount > 0;
}
/**
 * The skimmer's structural findings (an unmatched bracket, a declaration cut off at the end of the unit, `int int`,
 * a malformed `__attribute__`) in a unit that otherwise compiled: valid C++ has none of them, so cicc reports an
 * error there, but not necessarily in words ptxd can predict. The unit falls back (never mode: no PTX).
 */
function unitIsMalformed(u: Unit, index: Index): void {
  const e = index.errors?.[0];
  if (e) throw new Unsupported(`malformed code cicc rejects: ${e.message} at ${u.fileOf(e.tok)}(${u.lineOf(e.tok)})`);
}

/**
 * A lexer error as cicc reports it: at the offending character. In a system header (where our lexer is not
 * trusted to be as exact as EDG's), and where the error may not be one (LexError.undecided), the unit falls
 * back instead: cicc decides.
 */
function lexDiagnostic(u: Unit, toks: Tokens, e: LexError): void {
  const file = e.file ?? posToLine(toks, e.pos).file;
  if (!u.isUserFileName(file)) throw new Unsupported(`${e.message} in ${file}`);
  if (e.undecided) throw new Unsupported(`${e.message} at ${file}(${e.line ?? posToLine(toks, e.pos).line}): invalid UTF-8 or a U+FFFD, which cicc may accept`);
  const src = toks.src;
  let ls = e.pos; while (ls > 0 && src.charCodeAt(ls - 1) !== 10) ls--;
  let le = e.pos; while (le < src.length && src.charCodeAt(le) !== 10) le++;
  const line = e.line ?? posToLine(toks, e.pos).line;
  u.errorCount++;
  u.diags.push({ severity: 'error', file, line, col: e.pos - ls + 1, number: e.number ?? 7, message: e.message, sourceLine: src.slice(ls, le) });
}
function tokenAt(toks: Tokens, pos: number): number {
  let lo = 0, hi = toks.count;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (toks.start[mid]! < pos) lo = mid + 1; else hi = mid; }
  return Math.min(lo, toks.count);
}

/** After an error: keep parsing the remaining queued bodies (to report their errors too), no codegen. */
function drainParse(gen: ModuleGen, parseBody: (f: FuncSym) => void): void {
  while (gen.queue.length) parseBody(gen.queue.shift()!);
}

/**
 * The specialisations of kernel templates the unit asks for: explicit instantiations, and template-ids
 * `k<args>` in the user's code (launches `k<float,4><<<...>>>`, `&k<int>`), in source order.
 */
export function templateKernelInstances(u: Unit, templates: Map<string, number[]>, firstSeen?: Map<FuncSym, number>): FuncSym[] {
  const out: FuncSym[] = [];
  const toks = u.toks;
  const own = [...templates.keys()].flatMap(n => u.index.byName.get(n) ?? []).map(di => u.index.decls[di]!).filter(d => (d.flags & DeclFlag.Template) && !(d.flags & DeclFlag.ExplicitInst));
  const hosts = launchingHostTemplates(u, new Set(templates.keys()));
  const visited = new Set<string>();
  // named only in host function templates' bodies: EDG instantiates those templates at the end of the unit, after
  // the unit's own code has named its kernels, so their kernels come after those, in the order the walk found them
  const viaHosts: FuncSym[] = [];
  // only identifiers spelled as a kernel template or a launching host template can ask for anything: the
  // others (nearly every token of the unit) are passed over by their interned spelling
  const asks = new Uint8Array(toks.names.length);
  for (let k = 0; k < toks.names.length; k++) if (templates.has(toks.names[k]!) || hosts.has(toks.names[k]!)) asks[k] = 1;
  for (let i = 0; i < toks.count; i++) {
    if (toks.kind[i] !== Tok.Ident) continue;
    const id = toks.id[i]!;
    if (id >= 0 && id < asks.length && !asks[id]) continue;
    const found = out.length;
    const walked = instancesAt(i);
    if (walked) viaHosts.push(...out.slice(found));
    else if (firstSeen) for (let j = found; j < out.length; j++) if (!(out[j] as FuncSym & { explicitSpec?: boolean }).explicitSpec) firstSeen.set(out[j]!, i);
  }
  // launched from class template members: EDG instantiates those members after the unit's own code has named
  // its kernels, so their kernels come last, in the order the members were instantiated
  const late = [...u.classTemplateLaunches.values()].flat().filter((f, j, all) => all.indexOf(f) === j && out.includes(f));
  [...viaHosts.filter(f => !late.includes(f)), ...late].forEach((f, j) => { out.splice(out.indexOf(f), 1); out.push(f); firstSeen?.set(f, toks.count + j); });
  return out;

  /** The kernel specialisations the token at i asks for, pushed to out; true when it names a host template. */
  function instancesAt(i: number): boolean {
    if (toks.kind[i] !== Tok.Ident) return false;
    const name = u.text(i);
    const spec = hosts.get(name)?.find(k => u.index.decls[k]!.first <= i && i < u.index.decls[k]!.bodyStart && u.templates.isExplicitSpec(k));
    if (spec !== undefined && u.isUserFile(i)) {
      // an explicit specialisation of a host template: an ordinary function, its launches asked for where it is defined
      walkHostSpec(u, hosts, templates, spec, visited, out);
      return false;
    }
    if (hosts.has(name) && u.isUserFile(i) && enclosingHostTemplate(u, i) < 0 && !inOwnDeclarator(u, i, name) && u.text(i - 1) !== '.' && u.text(i - 1) !== '->') {
      walkHostTemplate(u, hosts, templates, i, null, visited, out, (n, j) => deducedHostCalls(u, hosts, j, n));
      return true;
    }
    instancesOf(i, name);
    return false;
  }
  function instancesOf(i: number, name: string): void {
    const ents = templates.get(name);
    if (!ents) return;
    if (own.some(d => i >= d.first && i <= d.last)) return;
    if (u.text(i - 1) === '.' || u.text(i - 1) === '->') return;
    // a host function declared with the kernel template's name (`extern "C" void reduceSinglePass(...)`)
    const hostFns = (u.index.byName.get(name) ?? []).map(di => u.index.decls[di]!).filter(d => d.kind === 'function' && !(d.flags & (DeclFlag.Template | DeclFlag.ExplicitInst)));
    if (hostFns.some(d => i >= d.first && (d.bodyStart < 0 || i < d.bodyStart))) return;
    // and called by that name: cicc's overload resolution picks the host function (a kernel is launched with <<< >>>)
    if (hostFns.length && u.text(i + 1) === '(') return;
    const next = u.text(i + 1);
    const explicitInst = isExplicitInstantiation(u, i);
    // inside a host function template: read under each binding the user's code asks for (walkHostTemplate)
    if (u.isUserFile(i) && enclosingHostTemplate(u, i) >= 0) return;
    if (next === '<<' || next === '<<<') { for (const f of deducedLaunches(u, i, name)) if (!out.includes(f)) out.push(f); return; }
    if (next !== '<') { if (!explicitInst && u.isUserFile(i)) throw new Unsupported(`kernel template ${name} used without template arguments`); return; }
    // a header's own non-template function naming a specialisation (CUB's `EmptyKernel<void>` in PtxVersionUncached):
    // instantiated with the unit, as cicc does
    if (!u.isUserFile(i) && !explicitInst && !(next === '<' && enclosingHostTemplate(u, i) < 0 && enclosingFunction(u, i) >= 0)) return;
    const scope = u.index.decls[ents[0]!]!.scope;
    const p = new Parser(u, i + 1, toks.count, scope ? scope.split('::').filter(s => s && s !== '(anonymous)') : []);
    // in a host function: the integral constants it declared before (`const int B = 256; k<B><<<...>>>`)
    const host = u.isUserFile(i) ? enclosingFunction(u, i) : -1;
    if (host >= 0) { const consts = withLocalConstants(u, host, i, new Map()); if (consts.size > 0) p.tscope = consts; }
    const before = u.diags.length, errs = u.errorCount;
    let args: TArg[];
    try { args = p.parseTemplateArgs(); }
    catch (e) { if (e instanceof SyntaxAbort) args = []; else throw e; }
    if (u.errorCount > errs || args.length === 0) { u.diags.length = before; u.errorCount = errs; throw new Unsupported(`template arguments of kernel ${name} in host code`); }
    if (ents.length > 1) throw new Unsupported(`overloaded kernel template ${name}`);
    const f = u.templates.instantiateExplicit(ents[0]!, args);
    if (!f && u.text(p.p) === '<<' && u.text(p.p + 1) === '<') {
      // `k<float><<<g, b>>>(lambda, p)`: the remaining arguments are deduced from the launch's arguments
      for (const g of deducedLaunches(u, i, name)) if (!out.includes(g)) out.push(g);
      return;
    }
    if (!f) throw new Unsupported(`template arguments of kernel ${name}`);
    if (!out.includes(f)) out.push(f);
  }
}
/**
 * Kernel template specialisations launched with deduced arguments (`k<<<g, b>>>(d_ptr)`): the host function
 * around the launch is read (not compiled) so the argument types are known. Anything in it we cannot read
 * makes the unit unsupported.
 */
const hostScanned = new WeakMap<Unit, Map<number, FuncSym[]>>();
/** The member function whose body (in its class's definition, decl di) holds token tok. */
function memberAround(u: Unit, di: number, tok: number): FuncSym | undefined {
  for (const sym of u.load(di)) {
    const rec = sym.kind === 'type' && sym.ty.k === 'record' ? sym.ty.rec : null;
    const m = rec?.methods?.find(x => x.bodyStart >= 0 && x.bodyStart < tok && x.bodyEnd > tok);
    // EDG reads such bodies at the end of the unit: their closures' stub typedefs come last (see ExtendedLambda.late)
    if (m) { (m as FuncSym & { bodyInClass?: boolean }).bodyInClass = true; return m; }
  }
  return undefined;
}
/** The member function an out-of-line definition `void R::go(...) {...}` (already loaded) gave its body to. */
function outOfLineMember(u: Unit, d: DeclEntry): FuncSym | undefined {
  if (!d.qualifier || d.qualifier.includes('::')) return undefined;
  for (const ri of u.index.byName.get(d.qualifier) ?? []) {
    const r = u.index.decls[ri]!;
    if (r.kind !== 'record' || r.scope !== d.scope || (r.flags & DeclFlag.Template)) continue;
    for (const sym of u.load(ri)) {
      const rec = sym.kind === 'type' && sym.ty.k === 'record' ? sym.ty.rec : null;
      const m = rec?.methods?.find(x => x.name === d.name && x.bodyStart === d.bodyStart);
      if (m) return m;
    }
  }
  return undefined;
}
/** The function a (non-template) function decl defines: a free function or a member defined out of line. */
function readFunction(u: Unit, di: number): FuncSym | undefined {
  return u.load(di).find((s): s is FuncSym => s.kind === 'func') ?? outOfLineMember(u, u.index.decls[di]!);
}
function deducedLaunches(u: Unit, tok: number, name: string): FuncSym[] {
  let di = -1;
  u.index.decls.forEach((d, k) => { if (d.kind === 'function' && d.bodyStart >= 0 && d.bodyStart < tok && d.bodyEnd > tok && !(d.flags & DeclFlag.Template)) di = k; });
  const why = `kernel template ${name} launched with deduced template arguments`;
  let inClass: FuncSym | undefined;
  if (di < 0) {
    // a member function defined in its class: the innermost (non-template) class around the launch
    u.index.decls.forEach((d, k) => { if (d.kind === 'record' && d.bodyStart >= 0 && d.bodyStart < tok && d.bodyEnd > tok && !(d.flags & DeclFlag.Template)) di = k; });
    if (di >= 0) inClass = memberAround(u, di, tok);
    if (!inClass) {
      // a member function of a class template: read under each specialisation whose member host code calls
      let ri = -1;
      u.index.decls.forEach((d, k) => { if (d.kind === 'record' && d.bodyStart >= 0 && d.bodyStart < tok && d.bodyEnd > tok) ri = k; });
      if (ri >= 0 && (u.index.decls[ri]!.flags & DeclFlag.Template) && enclosingHostTemplate(u, tok) < 0) {
        let got = u.classTemplateLaunches.get(ri);
        if (!got) u.classTemplateLaunches.set(ri, got = classTemplateLaunches(u, ri, tok, name, k => readFunction(u, k)));
        return got;
      }
      throw new Unsupported(why + ' outside a function we can read');
    }
  }
  let done = hostScanned.get(u);
  if (!done) { done = new Map(); hostScanned.set(u, done); }
  const got = done.get(di);
  if (got) return got;
  const before = u.diags.length, errs = u.errorCount;
  const found: FuncSym[] = [];
  try {
    const d = u.index.decls[di]!;
    const f = inClass ?? readFunction(u, di);
    if (!f || f.bodyStart < 0) throw new Unsupported(why);
    const p = new Parser(u, f.bodyStart, f.bodyEnd + 1, d.scope ? d.scope.split('::').filter(s => s && s !== '(anonymous)') : []);
    p.hostLaunches = found;
    p.parseFunctionBody({ ...f, params: undefined, body: undefined });
  } catch (e) {
    if (e instanceof SyntaxAbort) { u.diags.length = before; u.errorCount = errs; throw new Unsupported(why + ' (host code we cannot read)'); }
    u.diags.length = before; u.errorCount = errs;
    if (e instanceof Unsupported) throw new Unsupported(`${why} (${e.reason})`);
    throw e;
  }
  if (u.errorCount > errs) { u.diags.length = before; u.errorCount = errs; throw new Unsupported(why + ' (host code we cannot read)'); }
  done.set(di, found);
  return found;
}
/** Host templates called with deduced arguments by the non-template function around token tok (hostinst.ts hostCallsIn). */
function deducedHostCalls(u: Unit, hosts: Map<string, number[]>, tok: number, name: string): ReturnType<typeof hostCallsIn> {
  let di = -1;
  u.index.decls.forEach((d, k) => { if (d.kind === 'function' && d.bodyStart >= 0 && d.bodyStart < tok && d.bodyEnd > tok && !(d.flags & DeclFlag.Template)) di = k; });
  const f = di >= 0 ? readFunction(u, di) : undefined;
  if (!f) throw new Unsupported(`host template ${name} used with deduced template arguments outside a function we can read`);
  const scope = u.index.decls[di]!.scope;
  return hostCallsIn(u, hosts, f, scope ? scope.split('::').filter(s => s && s !== '(anonymous)') : [], name, tok);
}
function isExplicitInstantiation(u: Unit, i: number): boolean {
  for (let j = i - 1; j >= 0 && j > i - 40; j--) { const t = u.text(j); if (t === ';' || t === '}' || t === '{') return false; if (t === 'template' && u.text(j + 1) !== '<') return true; }
  return false;
}

/** Host spelling of a kernel template's arguments (for the stub); moduleId names extended lambdas' closures. */
function templateArgSpelling(f: FuncSym, moduleId: string): { cast: string[]; plain: string[] } | undefined {
  if (!f.targs) return undefined;
  const cast: string[] = [], plain: string[] = [];
  for (const a of f.targs) {
    if (a.k === 'pack') throw new Unsupported('variadic kernel template');
    const tt = a.k === 'type' ? (a.ty as { tmplRec?: { name: string; scope: string[] } }).tmplRec : undefined;
    if (tt) {
      // a template template argument: EDG spells it like a class (` ::ns::Name`; from the global scope `    ::N` in the cast)
      if (tt.scope.includes('(anonymous)')) throw new Unsupported('template template argument of a kernel from an anonymous namespace');
      const s = ' ::' + [...tt.scope, tt.name].join('::');
      cast.push(tt.scope.length ? s : '   ' + s); plain.push(s);
    } else if (a.k === 'type' && a.ty.k === 'record' && a.ty.rec.lambda?.ext) {
      // an extended lambda's closure: the launch cast spells cudafe++'s wrapper, the wrapper specialisation its alias
      const c = closureHostSpelling(a.ty.rec, moduleId);
      cast.push(` ::${c.spelling}`); plain.push(c.alias);
    } else if (a.k === 'type' && a.ty.k === 'record' && !a.ty.q && !a.ty.rec.targs && !a.ty.rec.parent && a.ty.rec.scope.length === 0) {
      // a class from the global scope: EDG qualifies it (`k<    ::P>` in the cast, `k< ::P>` in the wrapper)
      const n = a.ty.rec.name || a.ty.rec.typedefName;
      cast.push(`    ::${n}`); plain.push(` ::${n}`);
    } else if (a.k === 'type') { const s = hostSpelling(a.ty); cast.push(s); plain.push(a.ty.k === 'int' && a.ty.name === 'unsigned int' && !a.ty.q ? 'unsigned' : s); }
    else if (a.ty.k === 'enum') {
      const name = enumeratorName(a.ty, a.v);
      if (name === null) throw new Unsupported('kernel template argument of enumeration type with no enumerator of its value');
      cast.push(castValue(a.ty, a.v)); plain.push(name);
    } else {
      const t = a.ty.k === 'bool' ? 'bool' : a.ty.k === 'int' ? a.ty.name : 'int';
      cast.push(castValue(a.ty.k === 'bool' || a.ty.k === 'int' ? a.ty : C.int, a.v));
      plain.push(plainValue(t, a.v));
    }
  }
  return { cast, plain };
}
function hostSpelling(t: CType): string { return typeName(t); }

const CHAR_ESCAPES: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 39: "\\'", 92: '\\\\' };
/** A character literal as EDG writes it: printable ASCII as itself, the C escapes, else three octal digits. */
function charLiteral(v: bigint): string {
  const b = Number(BigInt.asUintN(8, v));
  return `'${CHAR_ESCAPES[b] ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '\\' + b.toString(8).padStart(3, '0'))}'`;
}
/**
 * A non-type template argument as EDG spells it in a stub wrapper's specialisation (measured against cicc's
 * stubs): `(-5)`, `7U`, `(-7LL)`, `((short)(-3))`, `((unsigned short)65535U)`, `((unsigned char)'\004')`, `'a'`.
 */
function plainValue(t: string, v: bigint): string {
  if (t === 'bool') return v ? 'true' : 'false';
  if (t === 'char') return charLiteral(v);
  if (t === 'signed char' || t === 'unsigned char') return `((${t})${charLiteral(v)})`;
  if (t === 'short') return `((short)${v < 0n ? `(${v})` : v})`;
  if (t === 'unsigned short') return `((unsigned short)${v}U)`;
  const s = `${v}${LITERAL_SUFFIX[t] ?? ''}`;
  return v < 0n ? `(${s})` : s;
}

function namespacesOf(scope: string[]): string[] { return scope.map(s => s === '(anonymous)' ? '_NV_ANON_NAMESPACE' : s); }

export function stubKernel(u: Unit, k: FuncSym, opts: CompileOptions): StubKernel {
  let off = 0;
  const params = k.ty.params.map(t => {
    const size = sizeOfC(t), align = alignOfC(t);
    off = Math.ceil(off / align) * align;
    const p = { type: hostType(t, opts.moduleId), size, align, offset: off };
    off += size;
    return p;
  });
  return {
    mangled: mangleFunction(k, opts.moduleId), stubName: mangleStubName(k, opts.moduleId), name: k.name, namespaces: namespacesOf(k.scope), isStatic: k.isStatic,
    file: u.fileOf(k.pos), line: u.lineOf(k.pos), params, ...(k.targs ? { templateArgs: templateArgSpelling(k, opts.moduleId) } : {}),
    ...(k.bodyStart >= 0 ? { braceLine: u.lineOf(k.bodyStart), endLine: u.lineOf(k.bodyEnd) } : {}),
  } as StubKernel;
}

export function stubVariable(v: VarSym, opts: CompileOptions): StubVariable {
  const targs = (v as VarSym & { targs?: TArg[] }).targs;
  return {
    name: v.name, namespaces: namespacesOf(v.scope), deviceName: mangleVariable(v, opts.moduleId), size: sizeOfC(v.ty),
    isConstant: v.space === 'constant', isManaged: v.space === 'managed', isStatic: v.isStatic, isShared: v.space === 'shared',
    ...(targs ? { hostName: `(::${[...namespacesOf(v.scope), v.name].join('::')}<${targs.map(a => targArgSpelling(a)).join(',')}> )` } : {}),
  };
}
/**
 * A variable template argument as EDG spells it in the stub (learnt from cicc's: `empty<short> )`,
 * `empty<   ::cuda::std::__4::tuple< > > )`); other forms are not known yet.
 */
function targArgSpelling(a: TArg): string {
  if (a.k === 'type' && (a.ty.k === 'int' || a.ty.k === 'float' || a.ty.k === 'double' || a.ty.k === 'bool') && !a.ty.q) return typeName(a.ty);
  if (a.k === 'type' && a.ty.k === 'record' && !a.ty.q && !a.ty.rec.parent && !a.ty.rec.lambda && a.ty.rec.scope.length > 0
    && a.ty.rec.targs?.length === 1 && a.ty.rec.targs[0]!.k === 'pack' && a.ty.rec.targs[0]!.args.length === 0) {
    return `   ::${[...a.ty.rec.scope, a.ty.rec.name].join('::')}< > `;
  }
  throw new Unsupported('the stub spelling of this variable template argument');
}

/** A C type spelled as host code sees it; moduleId is the unit's, for the mangled names of closures and aliases. */
export function hostType(t: CType, moduleId: string): HostType {
  const cv = (x: HostType): HostType => {
    const o = x as HostType & { const?: boolean; volatile?: boolean };
    if (t.q & 1) o.const = true;
    if (t.q & 2) o.volatile = true;
    return o;
  };
  // a type named through a typedef is spelled by that name, as cicc's stub does (`size_t`, `const half *`)
  const sugar = sugarOf(t);
  if (sugar && t.k !== 'ptr' && t.k !== 'ref' && t.k !== 'array' && t.k !== 'func') {
    const plain = { ...unqual(t) } as CType & { sugar?: string };
    delete plain.sugar;
    return cv({ k: 'typedef', qualName: sugar, target: hostType(plain, moduleId) });
  }
  switch (t.k) {
    case 'void': return cv({ k: 'builtin', name: 'void' });
    case 'bool': return cv({ k: 'builtin', name: 'bool' });
    case 'int': return cv({ k: 'builtin', name: t.name === 'long' ? 'long' : t.name === 'unsigned long' ? 'unsigned long' : t.name });
    case 'float': return cv({ k: 'builtin', name: 'float' });
    case 'double': return cv({ k: 'builtin', name: 'double' });
    case 'ldouble': return cv({ k: 'builtin', name: 'long double' });
    case 'nullptr': return cv({ k: 'builtin', name: 'std::nullptr_t' });
    case 'ptr': { const p: HostType = { k: 'ptr', to: hostType(t.to, moduleId) }; if (t.q & 1) p.const = true; if (t.q & 2) p.volatile = true; if (t.q & 4) p.restrict = true; return p; }
    case 'ref': return { k: 'ref', to: hostType(t.to, moduleId) };
    case 'record': {
      // nvcc's stub names an extended lambda's closure through __nv_dl_wrapper_t<__nv_dl_tag<...>, captures...>
      const lam = t.rec.lambda;
      if (lam?.ext) return cv({ k: 'record', tag: t.rec.tag, qualName: recordQualName(t.rec), template: { ...closureHostSpelling(t.rec, moduleId), closure: true } });
      if (lam && !lam.fn.isDevice && !lam.fn.isGlobal) throw new Unsupported('lambda without __device__ passed to a kernel');
      if (!t.rec.targs) return cv({ k: 'record', tag: t.rec.tag, qualName: recordQualName(t.rec) });
      const unq = { ...t, q: 0 } as CType;
      return cv({ k: 'record', tag: t.rec.tag, qualName: recordQualName(t.rec), template: { spelling: recordSpelling(t.rec), alias: mangleTypeName(unq, moduleId) } });
    }
    case 'enum': return cv({ k: 'enum', qualName: [...t.en.scope.filter(s => s !== '(anonymous)'), t.en.name || t.en.typedefName || ''].join('::') });
    case 'array': if (t.n !== null) return { k: 'array', elem: hostType(t.elem, moduleId), n: t.n }; throw new Unsupported('kernel parameter of type array of unknown bound');
    case 'func': return { k: 'func', ret: hostType(t.ret, moduleId), params: t.params.map(p => hostType(p, moduleId)), variadic: t.variadic };
    case 'error':
      throw new Unsupported(`kernel parameter of type ${t.k}`);
  }
}
