// The host stub (`--stub_file_name`, `X.cudafe1.stub.c`): #included at the end of cudafe++'s
// `.cudafe1.cpp` and compiled by the host compiler. It defines the host side of every kernel (a launch
// stub that packs the arguments) and registers kernels and device variables with the CUDA runtime.
//
// The text reproduces the real cicc's (EDG's C generator) byte for byte for the cases in
// test/stub.test.ts. Rules learnt from the real output (CUDA 13.0):
// - Entity order: the global scope's own kernels in declaration order, then each namespace (in order of
//   first appearance, the anonymous namespace last) with its nested namespaces first and then its own
//   kernels. The registration callback lists kernels in the reverse of that order, variables in it.
// - Formatting: until the first `# line` directive is printed, EDG prints "compact" text
//   (`(int __par0){a;b;}`); after it, "spaced" text (`( int __par0) {  a; b; }`).
// - Types: global records/enums/typedefs are spelled `struct S`/`enum E`/`T` (and `struct ::S`, `::T`
//   in the kernel definition). Types nested in a namespace or class get a typedef to their mangled
//   name at the top of the file (`typedef ns::S _ZN2ns1SE;`) and are spelled through it; records and
//   enums with a leading space. `unsigned int` is spelled `unsigned`.
// - By-value struct/class parameters are taken by reference in the stub and passed with
//   `__cudaSetupArg`; unions are taken by reference but passed with `__cudaSetupArgSimple`.
//   `__restrict__` pointers are copied to a temporary `__T<n>` first (numbered across the file).
// - `--device-c`: `#define __NV_MODULE_ID`, `extern` cubin handle, `____cudaRegisterLinkedBinary`, and
//   internal-linkage entities are registered as `__nv_static_<len(id)>_<id>_<name>`.
// - Extended lambdas (nvcc --extended-lambda) passed to kernel templates: the closure type is named through a
//   typedef of cudafe++'s wrapper (`typedef __nv_dl_wrapper_t<...> _ZZ4mainEUlfE_;`, compiler/frontend/xlambda.ts),
//   one space before the alias; the stub's own name mangles the closure with the vendor encoding (Unvdl...),
//   while the launch registers the PTX name (Ul...).
// Not modelled yet: template kernels (`__wrapper__device_stub_…`), array parameters (the definition
// spells them `int __cuda_0[]`), EDG temporaries consumed by device code (they shift `__T<n>`: see
// StubInputExtras.firstTemp).

import type { CompileOptions } from '../options';
import type { HostType, StubInput, StubKernel, StubParam, StubVariable } from './stub-types';
import { nvStaticName } from './mangle';

/** Optional facts the front end may add to a StubKernel (not in the fixed StubKernel interface yet). */
export interface StubKernelExtras {
  /** Line of the body's `{` (default: `line`). */
  braceLine?: number;
  /** Line of the body's closing `}` (default: the brace line). */
  endLine?: number;
  /** The name after `__device_stub_` when it differs from `mangled` (extended lambdas mangled as host code sees them). */
  stubName?: string;
}

/** Optional facts about the whole unit. */
export interface StubInputExtras {
  /** First free EDG temporary number (`__T<n>`); device code lowered before the stub may use some. */
  firstTemp?: number;
  /**
   * Qualified names of the classes that enclose nested types used by kernel parameters (`Outer` for
   * `Outer::Inner`). Such types are ordered with their namespace's own entities; any other qualifier
   * is taken to be a namespace.
   */
  classScopes?: string[];
  /** Where nested types named by kernel parameters are declared (token index by qualified name): their aliases follow that order. */
  typeOrder?: Record<string, number>;
}

const ANON = '_NV_ANON_NAMESPACE';

type Mode = 'stub' | 'def';

function builtinName(name: string): string {
  const n = name.trim().replace(/\s+/g, ' ');
  switch (n) {
    case 'unsigned int': case 'unsigned': return 'unsigned';
    case 'signed': case 'signed int': return 'int';
    case 'short int': case 'signed short': case 'signed short int': return 'short';
    case 'unsigned short int': return 'unsigned short';
    case 'long int': case 'signed long': case 'signed long int': return 'long';
    case 'unsigned long int': return 'unsigned long';
    case 'long long int': case 'signed long long': case 'signed long long int': return 'long long';
    case 'unsigned long long int': return 'unsigned long long';
    default: return n;
  }
}

function cvPrefix(t: { const?: boolean; volatile?: boolean }): string {
  return (t.const ? 'const ' : '') + (t.volatile ? 'volatile ' : '');
}

function isNested(qualName: string): boolean {
  return qualName.includes('::');
}

/** Itanium mangled name of a nested type: `ns::in::T` → `_ZN2ns2in1TE`. */
export function mangledTypeName(qualName: string, moduleId: string): string {
  const parts = qualName.split('::').map(p => (p === ANON ? `_GLOBAL__N_${moduleId}` : p));
  return `_ZN${parts.map(p => `${p.length}${p}`).join('')}E`;
}

function spell(t: HostType, mode: Mode, moduleId: string): string {
  switch (t.k) {
    case 'builtin':
      return cvPrefix(t) + builtinName(t.name);
    case 'ptr': {
      if (hasArray(t.to)) return declarator(t, '', mode, moduleId);
      const inner = spell(t.to, mode, moduleId);
      return `${inner}${inner.endsWith('*') ? '' : ' '}*${ptrQuals(t)}`;
    }
    case 'ref':
      if (hasArray(t.to)) return declarator(t, '', mode, moduleId);
      return `${spell(t.to, mode, moduleId)}${t.rvalue ? '&&' : '&'}`;
    case 'record': {
      if (t.template) return `${cvPrefix(t)} ${t.template.alias}`;
      if (isNested(t.qualName)) return `${cvPrefix(t)} ${mangledTypeName(t.qualName, moduleId)}`;
      const tag = t.tag === 'union' ? 'union' : 'struct';
      return `${cvPrefix(t)}${tag} ${mode === 'def' ? '::' : ''}${t.qualName}`;
    }
    case 'enum':
      if (isNested(t.qualName)) return `${cvPrefix(t)} ${mangledTypeName(t.qualName, moduleId)}`;
      return `${cvPrefix(t)}enum ${mode === 'def' ? '::' : ''}${t.qualName}`;
    case 'typedef':
      if (isNested(t.qualName)) return `${cvPrefix(t)}${mangledTypeName(t.qualName, moduleId)}`;
      return `${cvPrefix(t)}${mode === 'def' ? '::' : ''}${t.qualName}`;
    case 'array': case 'func':
      return declarator(t, '', mode, moduleId);
  }
}

/** A pointer's own qualifiers as EDG orders them: `const volatile __restrict__`. */
function ptrQuals(t: { const?: boolean; volatile?: boolean; restrict?: boolean }): string {
  return [t.const ? 'const' : '', t.volatile ? 'volatile' : '', t.restrict ? '__restrict__' : ''].filter(q => q !== '').join(' ');
}

/** Does the type need a declarator around the name (a pointer to an array or a function)? */
function hasArray(t: HostType): boolean {
  return t.k === 'array' || t.k === 'func' || ((t.k === 'ptr' || t.k === 'ref') && hasArray(t.to));
}

/** C declarator syntax for types with arrays and functions: `const int (*name)[16]`, `float (*)(float)`. */
function declarator(t: HostType, inner: string, mode: Mode, moduleId: string): string {
  if (t.k === 'array') return declarator(t.elem, `${inner}[${t.n}]`, mode, moduleId);
  if (t.k === 'func') {
    const ps = t.params.map(p => spell(p, mode, moduleId));
    if (t.variadic) ps.push('...');
    return declarator(t.ret, `${inner}(${ps.length ? ps.join(', ') : 'void'})`, mode, moduleId);
  }
  if ((t.k === 'ptr' || t.k === 'ref') && hasArray(t.to)) {
    const quals = t.k === 'ptr' ? ptrQuals(t) : '';
    const op = t.k === 'ref' ? (t.rvalue ? '&&' : '&') : `*${quals}${quals && /^[A-Za-z_]/.test(inner) ? ' ' : ''}`;
    return declarator(t.to, `(${op}${inner})`, mode, moduleId);
  }
  const base = spell(t, mode, moduleId);
  return inner ? `${base} ${inner}` : base;
}

/** A declaration of `name` with type text `ty`: `int *p`, `struct S&p`, `int p`. */
function decl(ty: string, name: string): string {
  return ty.endsWith('*') || ty.endsWith('&') ? ty + name : `${ty} ${name}`;
}

/** A declaration of `name` with type `t` (declarator syntax where the type has arrays). */
function declT(t: HostType, name: string, mode: Mode, moduleId: string, byRef = false): string {
  if (hasArray(t)) return declarator(t, (byRef ? '&' : '') + name, mode, moduleId);
  return decl(spell(t, mode, moduleId) + (byRef ? '&' : ''), name);
}

/** The type behind typedefs. */
function underlying(t: HostType): HostType {
  let u = t;
  while (u.k === 'typedef') u = u.target;
  return u;
}

function passedByRef(p: StubParam): boolean {
  return underlying(p.type).k === 'record';
}

function usesSetupArg(p: StubParam): boolean {
  const u = underlying(p.type);
  return u.k === 'record' && u.tag !== 'union';
}

function isRestrictPtr(p: StubParam): boolean {
  return p.type.k === 'ptr' && p.type.restrict === true;
}

/** Collects the nested types a kernel parameter mentions (not looking through typedefs). */
function collectNestedTypes(t: HostType, out: string[], types: Map<string, HostType>): void {
  switch (t.k) {
    case 'ptr': case 'ref': collectNestedTypes(t.to, out, types); return;
    case 'array': collectNestedTypes(t.elem, out, types); return;
    case 'func': collectNestedTypes(t.ret, out, types); for (const p of t.params) collectNestedTypes(p, out, types); return;
    case 'record': case 'enum': case 'typedef':
      if (t.k === 'record' && t.template?.closure) return;   // named through its own alias
      if (isNested(t.qualName) && !out.includes(t.qualName)) { out.push(t.qualName); types.set(t.qualName, t); }
      return;
    default: return;
  }
}

/** The alias of a nested type: a class template specialisation's own (`typedef ns::R<(int)3>  _ZN2ns1RILi3EEE;`). */
function nestedAlias(q: string, t: HostType, moduleId: string): string {
  if (t.k === 'record' && t.template) return `typedef ${t.template.spelling}  ${t.template.alias};`;
  return `typedef ${plainSpelling(t)} ${mangledTypeName(q, moduleId)};`;
}

/** What an alias typedef names: the type itself for records/enums, the target for typedefs. */
function plainSpelling(t: HostType): string {
  switch (t.k) {
    case 'builtin': return builtinName(t.name);
    case 'record': case 'enum': return t.qualName;
    // A typedef's alias names its target (`typedef int _ZN2ns1IE;`), a named type by its qualified name; the
    // typedef of a class names itself (`typedef geo::PtT _ZN3geo3PtTE;`, measured against cicc's stubs).
    case 'typedef': return t.target.k === 'typedef' ? t.target.qualName : t.target.k === 'record' || t.target.k === 'enum' ? t.qualName : plainSpelling(t.target);
    case 'ptr': return `${plainSpelling(t.to)} *`;
    case 'ref': return `${plainSpelling(t.to)}&`;
    case 'array': return `${plainSpelling(t.elem)} [${t.n}]`;
    case 'func': return `${plainSpelling(t.ret)} (${t.params.map(plainSpelling).join(', ')})`;
  }
}

interface ScopeNode<T> { name: string; children: ScopeNode<T>[]; own: T[] }

/**
 * EDG's walks over the scopes. Both start with the global scope's own entities, then visit each
 * namespace (order of first appearance, the global anonymous one last). 'nested-first' visits a namespace's
 * nested namespaces before its own entities (the order of stub definitions, variables and type
 * aliases); 'own-first' visits its own entities first (reversed, the order of kernel registration).
 */
function scopeOrder<T>(items: readonly T[], scopeOf: (x: T) => readonly string[], walk: 'nested-first' | 'own-first' = 'nested-first'): T[] {
  const root: ScopeNode<T> = { name: '', children: [], own: [] };
  for (const it of items) {
    let node = root;
    for (const s of scopeOf(it)) {
      let child = node.children.find(c => c.name === s);
      if (!child) { child = { name: s, children: [], own: [] }; node.children.push(child); }
      node = child;
    }
    node.own.push(it);
  }
  const out: T[] = [];
  const sorted = (n: ScopeNode<T>) => [...n.children.filter(c => c.name !== ANON), ...n.children.filter(c => c.name === ANON)];
  const visit = (n: ScopeNode<T>) => {
    if (walk === 'own-first') out.push(...n.own);
    // inside a namespace an anonymous one keeps its place (cuda::std::__4's `namespace { ignore }` comes before __cpo)
    for (const c of n.children) visit(c);
    if (walk === 'nested-first') out.push(...n.own);
  };
  out.push(...root.own);
  for (const c of sorted(root)) visit(c);
  return out;
}

function qualified(namespaces: readonly string[], name: string): string {
  return [...namespaces, name].join('::');
}

function isInternalKernel(k: StubKernel): boolean {
  return k.isStatic || k.namespaces.includes(ANON);
}

function isInternalVariable(v: StubVariable): boolean {
  return v.isStatic || v.namespaces.includes(ANON);
}


/** Parameter list: compact `(a, b)`, spaced `( a,  b)`, empty `(void)`. */
function paramList(items: readonly string[], spaced: boolean): string {
  if (items.length === 0) return '(void)';
  return spaced ? `( ${items.join(',  ')})` : `(${items.join(', ')})`;
}

/** Function body: compact `{ T t;\na;b;}`, spaced `{  T t;\na; b; }`. */
function body(temps: readonly string[], stmts: readonly string[], spaced: boolean): string {
  const tmp = temps.map(t => ` ${t};\n`).join('');
  if (!spaced) return `{${tmp}${stmts.map(s => `${s};`).join('')}}`;
  return `{ ${temps.length > 0 ? tmp : ' '}${stmts.map(s => `${s}; `).join('')}}`;
}

export function generateStub(input: StubInput, opts: CompileOptions): string {
  const id = opts.moduleId;
  const extras = input as StubInput & StubInputExtras;
  let temp = extras.firstTemp ?? 0;
  const kernels = scopeOrder(input.kernels, k => k.namespaces);
  const variables = scopeOrder(input.variables.filter(v => !v.isShared), v => v.namespaces);
  // Kernels in an anonymous namespace are hidden whatever --device-hidden-visibility says.
  const hiddenAttr = '__attribute__((visibility("hidden"))) ';
  const hiddenFor = (k: StubKernel) => opts.deviceHiddenVisibility || k.namespaces.includes(ANON) ? hiddenAttr : '';

  const lines: string[] = [];
  lines.push('#pragma GCC diagnostic push');
  lines.push('#pragma GCC diagnostic ignored "-Wunused-function"');
  lines.push('#pragma GCC diagnostic ignored "-Wcast-qual"');
  if (opts.rdc) lines.push(`#define __NV_MODULE_ID ${id}`);
  lines.push(`#define __NV_CUBIN_HANDLE_STORAGE__ ${opts.rdc ? 'extern' : 'static'}`);
  lines.push('#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)');
  lines.push('#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__');
  lines.push('#endif');
  lines.push('#include "crt/host_runtime.h"');
  lines.push(`#include "${opts.includeFileName}"`);

  // Typedefs for the nested types the stubs mention.
  const nested: string[] = [];
  const classes = new Set(extras.classScopes ?? []);
  const nsScope = (q: string) => {
    const parts = q.split('::').slice(0, -1);
    while (parts.length > 0 && classes.has(parts.join('::'))) parts.pop();
    return parts;
  };
  const aliasTarget = new Map<string, HostType>();
  for (const k of kernels) for (const p of k.params) collectNestedTypes(p.type, nested, aliasTarget);
  const declared = extras.typeOrder;
  const declaredAt = (q: string): number => declared?.[q] ?? Number.MAX_SAFE_INTEGER;
  if (declared) nested.sort((a, b) => declaredAt(a) - declaredAt(b));
  // class template specialisations are named through an alias of their mangled name
  const templ = new Map<string, string>();
  const collectTemplates = (t: HostType): void => {
    if (t.k === 'ptr' || t.k === 'ref') collectTemplates(t.to);
    else if (t.k === 'array') collectTemplates(t.elem);
    else if (t.k === 'func') { collectTemplates(t.ret); t.params.forEach(collectTemplates); }
    // (EDG prints one space before an extended lambda's alias, two before a class template's)
    // (a specialisation of a namespace's class template is aliased among the nested types, in their order)
    else if (t.k === 'record' && t.template && !templ.has(t.template.alias) && (t.template.closure || !isNested(t.qualName))) templ.set(t.template.alias, t.template.spelling + (t.template.closure ? '' : ' '));
  };
  const late = new Map<string, string>();
  const collectLate = (t: HostType): void => {
    if (t.k === 'ptr' || t.k === 'ref') collectLate(t.to);
    else if (t.k === 'record' && t.template?.late) { templ.delete(t.template.alias); late.set(t.template.alias, t.template.spelling); }
  };
  for (const k of kernels) for (const p of k.params) collectTemplates(p.type);
  for (const k of kernels) for (const p of k.params) collectLate(p.type);
  for (const [alias, spelling] of [...templ, ...late]) lines.push(`typedef ${spelling} ${alias};`);
  for (const q of scopeOrder(nested, nsScope)) lines.push(nestedAlias(q, aliasTarget.get(q)!, id));

  const stubName = (k: StubKernel) => (k as StubKernel & StubKernelExtras).stubName ?? k.mangled;
  const stubParamType = (p: StubParam) => spell(p.type, 'stub', id) + (passedByRef(p) ? '&' : '');
  /** How the stub names the kernel: `k`, or for a template specialisation `k<float, (int)4> `. */
  const entityName = (k: StubKernel) => {
    const q = qualified(k.namespaces, k.name);
    return k.templateArgs ? `${q}<${k.templateArgs.cast.join(', ')}> ` : q;
  };
  const castType = (k: StubKernel) => `void ( *)(${k.params.length === 0 ? 'void' : k.params.map(p => spell(p.type, 'stub', id)).join(', ')})`;

  for (const k of kernels) {
    const storage = k.isStatic || k.templateArgs ? 'static ' : `extern ${hiddenFor(k)}`;
    lines.push(`${storage}void __device_stub_${stubName(k)}${paramList(k.params.map(stubParamType), false)};`);
  }
  lines.push('static void __nv_cudaEntityRegisterCallback(void **);');
  lines.push('static void __sti____cudaRegisterAll(void) __attribute__((__constructor__));');

  let text = lines.join('\n') + '\n';
  let spaced = false;   // EDG prints compact text until its first line directive
  const stubPath = opts.stubFileName;

  for (const k of kernels) {
    const kx = k as StubKernel & StubKernelExtras;
    const qual = qualified(k.namespaces.map(n => n), k.name);
    const temps: string[] = [];
    const stmts: string[] = [`__cudaLaunchPrologue(${Math.max(1, k.params.length)})`];
    k.params.forEach((p, i) => {
      const par = `__par${i}`;
      if (isRestrictPtr(p)) {
        const t = `__T${temp++}`;
        // the temporary drops the parameter's top-level qualifiers (`int *const __restrict__` → `int *__T0`):
        // an uninitialised const would not compile, and EDG declares it so
        temps.push(declT({ ...p.type, const: false, volatile: false, restrict: false } as HostType, t, 'stub', id));
        stmts.push(`${t} = ${par}`);
        stmts.push(`__cudaSetupArgSimple(${t}, ${p.offset}UL)`);
      } else {
        stmts.push(`${usesSetupArg(p) ? '__cudaSetupArg' : '__cudaSetupArgSimple'}(${par}, ${p.offset}UL)`);
      }
    });
    stmts.push(`__cudaLaunch(((char *)((${castType(k)})${entityName(k)})), 0U)`);
    const params = k.params.map((p, i) => declT(p.type, `__par${i}`, 'stub', id, passedByRef(p)));
    if (k.templateArgs) {
      // a kernel template specialisation: a static stub, and the wrapper specialisation the launch calls
      text += `static void __device_stub_${stubName(k)}${paramList(params, spaced)}${spaced ? ' ' : ''}${body(temps, stmts, spaced)}\n`;
      // the wrapper specialisation qualifies global records like a definition does (`struct ::P *&`)
      const refTy = (p: StubParam) => { const t = spell(p.type, 'def', id); return hasArray(p.type) ? declarator(p.type, '&', 'def', id) : t.endsWith('*') ? `${t}&` : `${t} &`; };
      const refs = k.params.map((p, i) => hasArray(p.type) ? declarator(p.type, `&__cuda_${i}`, 'def', id) : `${refTy(p)}__cuda_${i}`);
      // the casts drop the parameters' top-level qualifiers (`(float *&)`, `(float &)`)
      const casts = k.params.map((p, i) => `(${refTy({ ...p, type: { ...p.type, const: false, volatile: false, restrict: false } as HostType })})__cuda_${i}`);
      const wrapper = `template<> __specialization_static void __wrapper__device_stub_${k.name}<${k.templateArgs.plain.join(',')}>${k.params.length ? `( ${refs.join(',')})` : '(void)'}{__device_stub_${stubName(k)}${k.params.length ? `( ${casts.join(',')})` : '()'};}`;
      if (k.namespaces.length) {
        // the wrapper specialisation lives in the kernel's namespace
        text = text.replace(/\n$/, '') + k.namespaces.map(n => `namespace ${n}{`).join('') + `\n\n${wrapper}${'}'.repeat(k.namespaces.length)}\n`;
      } else text += `${wrapper}\n`;
      continue;
    }
    const head = `${k.isStatic ? 'static ' : hiddenFor(k)}void __device_stub_${stubName(k)}${paramList(params, spaced)}`;
    text += `${head}${spaced ? ' ' : ''}${body(temps, stmts, spaced)}\n`;

    // The kernel's host-side definition, forwarding to the stub, with line directives into the .cu.
    const braceLine = kx.braceLine ?? k.line;
    const endLine = kx.endLine ?? braceLine;
    const defParams = k.params.length === 0 ? '(void)' : `( ${k.params.map((p, i) => declT(p.type, `__cuda_${i}`, 'def', id)).join(',')})`;
    const callArgs = k.params.length === 0 ? '()' : `( ${k.params.map((_, i) => `__cuda_${i}`).join(',')})`;
    const gap = endLine - braceLine;
    const close = gap <= 0 ? ' }' : gap <= 5 ? '\n'.repeat(gap) + '}' : `\n# ${endLine} "${k.file}"\n}`;
    text += `# ${k.line} "${k.file}"\n`;
    text += `${k.isStatic ? 'static ' : ''}void ${qual}${defParams}\n`;
    text += `# ${braceLine} "${k.file}"\n`;
    text += `{__device_stub_${stubName(k)}${callArgs};${close}\n`;
    text += `# 1 "${stubPath}"\n`;
    spaced = true;
  }

  // Registration.
  const h = `__T${temp++}`;
  const reg: string[] = [`__nv_dummy_param_ref(${h})`, `__nv_save_fatbinhandle_for_managed_rt(${h})`];
  for (const k of scopeOrder(input.kernels, x => x.namespaces, 'own-first').reverse()) {
    const name = opts.rdc && isInternalKernel(k) ? nvStaticName(id, k.mangled) : k.mangled;
    reg.push(`__cudaRegisterEntry(${h}, ((${castType(k)})${entityName(k)}), ${name}, (-1))`);
  }
  for (const v of variables) {
    const name = opts.rdc && isInternalVariable(v) ? nvStaticName(id, v.deviceName) : v.deviceName;
    const fn = v.isManaged ? '__cudaRegisterManagedVariable' : '__cudaRegisterVariable';
    reg.push(`${fn}(${h}, __shadow_var(${name},${v.hostName ?? '::' + qualified(v.namespaces, v.name)}), 0, ${v.size}UL, ${v.isConstant ? 1 : 0}, 0)`);
  }
  const regBinary = `${opts.rdc ? '____cudaRegisterLinkedBinary' : '__cudaRegisterBinary'}(__nv_cudaEntityRegisterCallback);`;
  text += `static void __nv_cudaEntityRegisterCallback${paramList([`void **${h}`], spaced)}${spaced ? ' ' : ''}${body([], reg, spaced)}\n`;
  text += spaced
    ? `static void __sti____cudaRegisterAll(void) {  ${regBinary}  }\n`
    : `static void __sti____cudaRegisterAll(void){${regBinary}}\n`;
  text += '\n#pragma GCC diagnostic pop\n';
  return text;
}
