// The translation unit as the front end sees it: tokens + skimmer index, on-demand loading of
// namespace-scope declarations, name lookup, entity tables, literals and diagnostics.

import { Tok, type Tokens } from './tokens';
import { type Index, type DeclEntry, DeclFlag } from './index-types';
import type { CompileOptions } from '../options';
import type { Loc } from '../middle/ir';
import { type Diagnostic, Unsupported } from '../diagnostics';
import type { Expr, Sym, VarSym, FuncSym, Pos, Stmt } from './ast';
import { type CType, type RecordDecl, type EnumDecl, C, Q, arrayOf, withQ, typeName, unqual, isArith, intT } from './ctype';
import { Parser, SyntaxAbort, type DeclSpec, type DeclaratorInfo, type Attrs } from './parser';
import { evalConst, noteConstInit, newConstEval, type ConstEval } from './consteval';
import { mk, type UserConversions } from './sema';
import { userConversion } from './parser-overload';
import { MAX_INSTANTIATION_DEPTH, Templates, newRecIds } from './templates';

const KEYWORDS = new Set(['alignas', 'alignof', 'asm', 'auto', 'bool', 'break', 'case', 'catch', 'char', 'char16_t', 'char32_t', 'class', 'const',
  'constexpr', 'const_cast', 'continue', 'decltype', 'default', 'delete', 'do', 'double', 'dynamic_cast', 'else', 'enum', 'explicit', 'extern',
  'false', 'float', 'for', 'friend', 'goto', 'if', 'inline', 'int', 'long', 'mutable', 'namespace', 'new', 'noexcept', 'nullptr', 'operator',
  'private', 'protected', 'public', 'register', 'reinterpret_cast', 'return', 'short', 'signed', 'sizeof', 'static', 'static_assert',
  'static_cast', 'struct', 'switch', 'template', 'this', 'thread_local', 'throw', 'true', 'try', 'typedef', 'typeid', 'typename', 'union',
  'unsigned', 'using', 'virtual', 'void', 'volatile', 'wchar_t', 'while', '__attribute__', '__extension__', '__inline__', '__restrict__',
  '__const', '__volatile__', '__signed__', '__typeof__', '__asm__', '__asm', '__alignof__', '__int128', '__builtin_va_list', 'consteval', 'constinit']);

const normed = new Map<string, string>();
/** Scope path without anonymous namespaces (memoised: the same few scopes recur across thousands of declarations). */
const norm = (scope: string): string => {
  let n = normed.get(scope);
  if (n === undefined) { n = scope.split('::').filter(s => s && s !== '(anonymous)').join('::'); if (normed.size < 100_000) normed.set(scope, n); }
  return n;
};
const splitScope = (scope: string): string[] => scope ? scope.split('::').filter(s => s) : [];

/**
 * The namespace tables (before inline namespaces) over the shortest shared prefix of declarations met, by the
 * first declaration of the indices sharing it (the first n are the same wherever the n-th, `last`, is).
 */
const prefixTables = new WeakMap<DeclEntry, { n: number; last: DeclEntry; namespaces: Set<string>; usingDirs: Map<string, string[][]>; nsAliases: Map<string, { path: string[]; from: string }>; nsFirst: Map<string, number> }>();

/** Namespace tables of an index (built by the first Unit over it, read-only afterwards). */
const nsTables = new WeakMap<Index, { namespaces: Set<string>; usingDirs: Map<string, string[][]>; nsAliases: Map<string, { path: string[]; from: string }>; inlineNs: Set<string>; nsFirst: Map<string, number> }>();

export class Unit {
  diags: Diagnostic[] = [];
  private loaded = new Map<number, Sym[]>();
  private loading = new Set<number>();
  private byNorm = new Map<string, number[]>();     // name → decl indices (non-template, relevant kinds)
  private namespaces = new Set<string>();           // normalised namespace paths that exist
  private usingDirs = new Map<string, string[][]>(); // normalised scope → target namespace paths
  private inlineNs = new Set<string>();             // normalised paths of inline namespaces
  /** The first token of the first declaration in each namespace: a namespace declared later is not visible before. */
  private nsFirst = new Map<string, number>();
  private nsAliases = new Map<string, { path: string[]; from: string }>(); // `namespace a = b::c;`
  private funcs = new Map<string, FuncSym>();
  private vars = new Map<string, VarSym>();
  private records = new Map<string, RecordDecl>();
  private enums = new Map<string, EnumDecl>();
  private enumerators: Map<string, number[]> | null = null;
  nextId = 1;
  /** Global variables in the order they were first referenced/defined (codegen emits the used ones). */
  staticLocals: VarSym[] = [];
  errorCount = 0;
  /** Expressions and statements being parsed, nested (parser.ts nested()): bounded so that deep nesting falls back instead of exhausting the stack. */
  nesting = 0;
  parsingBody: FuncSym | null = null;
  /** The user-defined conversions implicit conversions of this unit may use (sema.ts). */
  /** The constant evaluator of this unit (consteval.ts): constexpr calls parse their bodies here. */
  readonly consts: ConstEval = newConstEval(f => this.parseBody(f));
  /** Host code read for its launches and calls: host template specialisations by template and binding, host functions by body (hostinst.ts). */
  readonly hostReads = new Map<string, { launches: FuncSym[]; calls: FuncSym[]; sites: number[] }>();
  /** Numbers for classes in this unit's template argument keys (templates.ts targsKey). */
  readonly recIds = newRecIds();
  readonly conv: UserConversions = { convert: (e, to) => userConversion(this.conv, e, to), active: false };
  /**
   * Incremental compilation (compiler/incremental/): every name this unit looked up in the index, and '#…' keys
   * for whole-index scans. A cached root is reused only while the declarations behind these are unchanged.
   */
  trace: Set<string> | null = null;
  /** Which entries are being parsed as "the user's code" (diagnostics there are real). */
  constructor(public toks: Tokens, public index: Index, public opts: CompileOptions) {
    // several Units over one index (incremental compiles) share the namespace tables: they depend on the index only
    const shared = nsTables.get(index);
    if (shared) { this.namespaces = shared.namespaces; this.usingDirs = shared.usingDirs; this.nsAliases = shared.nsAliases; this.inlineNs = shared.inlineNs; this.nsFirst = shared.nsFirst; return; }
    nsTables.set(index, { namespaces: this.namespaces, usingDirs: this.usingDirs, nsAliases: this.nsAliases, inlineNs: this.inlineNs, nsFirst: this.nsFirst });
    this.namespaces.add('');
    // a reused prelude's shared (frozen) declarations come first and are always preceded by the same ones:
    // the tables over them are remembered (prefixTables)
    const decls = index.decls;
    let frozen = 0, hi = decls.length;
    while (frozen < hi) { const mid = (frozen + hi) >>> 1; if (Object.isFrozen(decls[mid])) frozen = mid + 1; else hi = mid; }
    const pre = frozen > 0 ? prefixTables.get(decls[0]!) : undefined;
    let from = 0;
    if (pre && pre.n <= frozen && decls[pre.n - 1] === pre.last) {
      for (const x of pre.namespaces) this.namespaces.add(x);
      for (const [k, v] of pre.usingDirs) this.usingDirs.set(k, v.slice());
      for (const [k, v] of pre.nsAliases) this.nsAliases.set(k, v);
      for (const [k, v] of pre.nsFirst) this.nsFirst.set(k, v);
      from = pre.n;
    }
    const remember = (): void => {
      if (from === 0 && frozen > 0) prefixTables.set(decls[0]!, { n: frozen, last: decls[frozen - 1]!, namespaces: new Set(this.namespaces), usingDirs: new Map([...this.usingDirs].map(([k, v]) => [k, v.slice()])), nsAliases: new Map(this.nsAliases), nsFirst: new Map(this.nsFirst) });
    };
    for (let i = from; i < decls.length; i++) {
      if (i === frozen) remember();
      const d = decls[i]!;
      const n = norm(d.scope);
      // a path in the set has all its prefixes in it too (most declarations share their scope with the previous one)
      if (!this.namespaces.has(n)) {
        const parts = n.split('::');
        for (let k = 1; k <= parts.length; k++) {
          const q = parts.slice(0, k).join('::');
          this.namespaces.add(q);
          if (!this.nsFirst.has(q)) this.nsFirst.set(q, d.first);
        }
      }
      if (d.kind === 'namespace-alias' && d.name) {
        const full = n ? n + '::' + d.name : d.name;
        this.namespaces.add(full);
        const path: string[] = [];
        let j = d.first; while (j <= d.last && this.text(j) !== '=') j++;
        for (j++; j <= d.last; j++) { const t = this.text(j); if (t === ';') break; if (t !== '::') path.push(t); }
        this.nsAliases.set(full, { path, from: n });
      }
      if (d.kind === 'using' || d.kind === 'other' || d.kind === 'using-directive') {
        if (this.text(d.first) === 'using' && this.text(d.first + 1) === 'namespace') {
          const path: string[] = [];
          for (let j = d.first + 2; j <= d.last; j++) { const t = this.text(j); if (t === ';') break; if (t !== '::') path.push(t); }
          const arr = this.usingDirs.get(n) ?? [];
          arr.push(path);
          this.usingDirs.set(n, arr);
        }
      }
    }
    if (frozen === decls.length) remember();
    // an inline namespace's members are members of the enclosing namespace (cuda::std::__4, __swap::__cxx17)
    for (const [full, info] of index.namespaces ?? []) {
      if (!info.inline) continue;
      const n = norm(full);
      this.inlineNs.add(n);
      const cut = n.lastIndexOf('::');
      const outer = cut < 0 ? '' : n.slice(0, cut), inner = cut < 0 ? n : n.slice(cut + 2);
      if (!inner) continue;
      const arr = this.usingDirs.get(outer) ?? [];
      if (!arr.some(p => p.length === 1 && p[0] === inner)) arr.push([inner]);
      this.usingDirs.set(outer, arr);
    }
  }

  // ------------------------------------------------------------------ tokens & diagnostics
  text(i: number): string {
    const t = this.toks;
    if (i < 0 || i >= t.count) return '';
    const id = t.id[i]!;
    return id >= 0 ? t.names[id]! : t.src.slice(t.start[i]!, t.end[i]!);
  }
  isKeyword(s: string): boolean { return KEYWORDS.has(s); }
  fileOf(pos: Pos): string { return this.toks.files[this.toks.file[Math.min(pos, this.toks.count)]!] ?? ''; }
  lineOf(pos: Pos): number { return this.toks.line[Math.min(pos, this.toks.count)]!; }
  /** -lineinfo position of a token: the file its line markers name, its line and 1-based column. */
  locOf(pos: Pos): Loc {
    const t = this.toks;
    const p = Math.min(pos, t.count);
    const s = t.start[p] ?? t.src.length;
    const nl = t.src.lastIndexOf('\n', s - 1);
    return { file: this.fileOf(p), line: this.lineOf(p), col: s - nl };
  }
  error(pos: Pos, num: number, message: string): void {
    this.diag('error', pos, num, message);
  }
  diag(severity: 'error' | 'warning', pos: Pos, num: number, message: string): void {
    const t = this.toks;
    const p = Math.min(pos, t.count);
    const s = t.start[p] ?? t.src.length;
    let ls = s; while (ls > 0 && t.src[ls - 1] !== '\n') ls--;
    let le = s; while (le < t.src.length && t.src[le] !== '\n') le++;
    if (severity === 'error') this.errorCount++;
    this.diags.push({ severity, file: this.fileOf(p), line: this.lineOf(p), col: s - ls + 1, number: num, message, sourceLine: t.src.slice(ls, le) });
  }

  // ------------------------------------------------------------------ function bodies
  private parsedBodies = new Set<FuncSym>();
  lambdaCount = 0;
  /** decltypes of partial specialisation patterns we could not type yet (parser.ts; templates.ts partialSpecFor). */
  dependentDecltypes = 0;
  private lambdaSiblings = new Map<FuncSym, RecordDecl[]>();
  /** The closure types of the lambdas in a function's body (for their mangled names). */
  lambdasIn(f: FuncSym): RecordDecl[] {
    let l = this.lambdaSiblings.get(f);
    if (!l) this.lambdaSiblings.set(f, l = []);
    return l;
  }
  /** A body parsed where it appears (lambdas). */
  markParsed(f: FuncSym): void { this.parsedBodies.add(f); }
  /** The parsed body of a function (parsed once, on first need), or null when it has none or it did not parse. */
  parseBody(f: FuncSym): Stmt | null {
    if (this.parsedBodies.has(f)) return f.body ?? null;
    this.parsedBodies.add(f);
    if (f.bodyStart < 0) { f.body = null; return null; }
    // EDG stops at 200 nested instantiations ("excessive recursion at instantiation of function"); our count may differ a little
    if ((f.instDepth ?? 0) > MAX_INSTANTIATION_DEPTH) throw new Unsupported(`template instantiations of ${f.name} nested deeper than ${MAX_INSTANTIATION_DEPTH} levels`);
    const p = new Parser(this, f.bodyStart, f.bodyEnd + 1, f.scope);
    if (f.tscope) p.tscope = f.tscope;
    // a hidden friend's body sees the names of the class it is defined in
    const friendOf = (f as FuncSym & { friendOf?: RecordDecl }).friendOf;
    if (friendOf) p.recordStack = [friendOf];
    const dl = this.diags.length, ec = this.errorCount;
    const outer = this.parsingBody;
    this.parsingBody = f;
    try { f.body = p.parseFunctionBody(f); }
    catch (e) { if (e instanceof SyntaxAbort) f.body = null; else throw e; }
    finally { this.parsingBody = outer; }
    if (this.errorCount > ec && !this.isUserFile(f.bodyStart)) {
      // toolkit/library code the real front end accepts: what we cannot read is ours to lack, not an error
      const first = this.diags[dl];
      this.diags.length = dl; this.errorCount = ec;
      throw new Unsupported(`body of ${f.name} (${this.fileOf(f.bodyStart)}:${this.lineOf(f.bodyStart)}): ${first?.message ?? 'cannot parse'}`);
    }
    return f.body;
  }

  /** Find and load the out-of-line definition of a member function declared in its class without a body. */
  findOutOfLine(f: FuncSym): void {
    if (!f.cls || f.bodyStart >= 0) return;
    const rec = f.cls;
    const skimName = f.op === 'cv' ? null : f.name;
    this.trace?.add(skimName ?? '#conversions');
    for (let di = 0; di < this.index.decls.length; di++) {
      const d = this.index.decls[di]!;
      if (d.kind !== 'function' || !(d.flags & DeclFlag.HasBody) || !d.qualifier) continue;
      if ((d.flags & DeclFlag.Template) && !rec.targs && !f.targs) continue;
      if (skimName !== null ? d.name !== skimName : !d.name.startsWith('operator ')) continue;
      const q = d.qualifier.split('::');
      if (q[q.length - 1] !== rec.name) continue;
      if (d.flags & DeclFlag.Template) this.templates.loadOutOfLineMember(di, rec, f);
      else this.load(di);
      if (f.bodyStart >= 0) return;
    }
  }

  // ------------------------------------------------------------------ namespace-scope lookup
  private entriesNamed(name: string): number[] {
    this.trace?.add(name);
    return this.index.byName.get(name) ?? [];
  }
  /** Load (parse) a top-level declaration, returning the entities it declares. */
  load(di: number): Sym[] {
    const c = this.loaded.get(di);
    if (c) return c;
    if (this.loading.has(di)) return [];
    const d = this.index.decls[di]!;
    if (d.flags & (DeclFlag.Template | DeclFlag.ExplicitInst)) return [];
    if (d.kind === 'static_assert' || d.kind === 'asm' || d.kind === 'namespace-alias') { this.loaded.set(di, []); return []; }
    this.loading.add(di);
    try {
      const p = new Parser(this, d.first, d.last + 1, splitScope(d.scope));
      const before = this.diags.length;
      let syms: Sym[];
      try { syms = p.parseTopDecl((d.flags & DeclFlag.InAnonNamespace) !== 0 || d.scope.includes('(anonymous)')); }
      catch (e) {
        if (e instanceof SyntaxAbort) {
          const isUser = this.isUserFile(d.first);
          if (!isUser) { this.diags.length = before; throw new Unsupported(`cannot parse declaration of ${d.name} (${this.fileOf(d.first)}:${this.lineOf(d.first)})`); }
          syms = [];
        } else throw e;
      }
      // a declaration inside `extern "C" { }` has C language linkage (its name is not mangled): the block's
      // `extern "C"` is outside the declaration's tokens, so the skimmer's flag says it
      if (d.flags & DeclFlag.ExternC) for (const s of syms) if ((s.kind === 'func' && !s.cls) || s.kind === 'var') s.externC = true;
      this.loaded.set(di, syms);
      return syms;
    } finally { this.loading.delete(di); }
  }
  /**
   * load() for a lookup: a header declaration that mentions a type no device expression can have (long double,
   * _Float128, ...) is no candidate, rather than making the unit unsupported. Anything else still does.
   */
  private loadOverload(di: number): Sym[] {
    try { return this.load(di); }
    catch (e) {
      if (e instanceof Unsupported && !this.isUserFile(this.index.decls[di]!.first) && /long double|type (_Float|__float128|__fp16)/.test(e.reason)) return [];
      throw e;
    }
  }
  isUserFile(pos: Pos): boolean {
    return this.isUserFileName(this.fileOf(pos));
  }
  isUserFileName(f: string): boolean {
    return f === this.opts.origSrcFileName || (!f.startsWith('/usr/') && !f.includes('/cuda') && !f.startsWith('<'));
  }
  /** Entities named `name` declared directly in the namespace with normalised path `ns` (plus using-directives). */
  private inNamespace(ns: string, name: string, seen = new Set<string>()): Sym[] {
    if (seen.has(ns)) return [];
    seen.add(ns);
    const out: Sym[] = [];
    for (const di of this.entriesNamed(name)) {
      const d = this.index.decls[di]!;
      if (norm(d.scope) !== ns) continue;
      if (d.flags & (DeclFlag.Template | DeclFlag.ExplicitInst)) continue;
      if (d.kind === 'enumerator') {
        const owner = this.enumOwner(d);
        if (owner >= 0) for (const s of this.load(owner)) if (s.name === name && !out.includes(s)) out.push(s);
        continue;
      }
      if (d.qualifier && d.kind !== 'using') continue;
      if (d.kind === 'record' && this.loading.has(di)) {
        // a class named while its own definition is being read (`struct tag : policy<tag>`, looked up again from a
        // specialisation of policy): the record that definition is filling in
        const r = this.records.get([...splitScope(d.scope), name].join('::'));
        if (r && !out.some(s => s.kind === 'type' && s.ty.k === 'record' && s.ty.rec === r)) out.push({ kind: 'type', name, ty: { k: 'record', rec: r, q: 0 } });
        continue;
      }
      for (const s of this.loadOverload(di)) if (s.name === name && !out.includes(s)) out.push(s);
    }
    if (out.length === 0) {
      // unscoped enumerators
      for (const di of this.enumeratorEntries(name)) {
        const d = this.index.decls[di]!;
        if (norm(d.scope) !== ns) continue;
        for (const s of this.load(di)) if (s.name === name && !out.includes(s)) out.push(s);
      }
    }
    for (const target of this.usingDirs.get(ns) ?? []) {
      const tn = this.resolveNsPath(target, ns);
      if (tn !== null) for (const s of this.inNamespace(tn, name, seen)) if (!out.includes(s)) out.push(s);
    }
    // merge function overloads declared in different entries; a type hides nothing here
    return out;
  }
  private owners = new Map<number, number>();
  /** The declaration (enum, typedef, variable) whose braces hold an enumerator entry. */
  private enumOwner(d: DeclEntry): number {
    this.trace?.add('#enums');
    const c = this.owners.get(d.bodyStart);
    if (c !== undefined) return c;
    let found = -1;
    const decls = this.index.decls;
    for (let i = 0; i < decls.length; i++) {
      const o = decls[i]!;
      if (o.kind === 'enumerator' || o.kind === 'other') continue;
      if (o.first <= d.bodyStart && o.last >= d.bodyEnd) { found = i; if (o.kind === 'enum') break; }
    }
    this.owners.set(d.bodyStart, found);
    return found;
  }
  private resolveNsPath(path: string[], from: string, depth = 0): string | null {
    const fromParts = from ? from.split('::') : [];
    for (let d = fromParts.length; d >= 0; d--) {
      // an alias anywhere in the path stands for its target
      for (let k = path.length; k >= 1; k--) {
        const head = [...fromParts.slice(0, d), ...path.slice(0, k)].join('::');
        const al = this.nsAliases.get(head);
        if (al && depth < 8) {
          const t = this.resolveNsPath(al.path, al.from, depth + 1);
          if (t !== null) return this.resolveNsPath([...t.split('::'), ...path.slice(k)], '', depth + 1);
        }
      }
      const cand = [...fromParts.slice(0, d), ...path].join('::');
      if (this.namespaces.has(cand)) return cand;
      const viaInline = this.descendPath(fromParts.slice(0, d).join('::'), path);
      if (viaInline !== null) return viaInline;
    }
    return null;
  }
  /**
   * `path` followed from namespace `base`, each step allowed to pass through inline namespaces (`th::cc` names
   * th::V1::cc when V1 is inline); null when a step names no namespace.
   */
  private descendPath(base: string, path: string[]): string | null {
    let cur = base;
    for (const comp of path) {
      const next = this.childNamespace(cur, comp, 0);
      if (next === null) return null;
      cur = next;
    }
    return cur;
  }
  private childNamespace(cur: string, comp: string, depth: number): string | null {
    const direct = cur ? `${cur}::${comp}` : comp;
    if (this.namespaces.has(direct)) return direct;
    if (depth > 4) return null;
    for (const inner of this.usingDirs.get(cur) ?? []) {
      if (inner.length !== 1) continue;
      const inl = cur ? `${cur}::${inner[0]}` : inner[0]!;
      if (!this.inlineNs.has(inl)) continue;
      const r = this.childNamespace(inl, comp, depth + 1);
      if (r !== null) return r;
    }
    return null;
  }
  private enumeratorEntries(name: string): number[] {
    this.trace?.add('#enums');
    if (!this.enumerators) {
      this.enumerators = new Map();
      for (let di = 0; di < this.index.decls.length; di++) {
        const d = this.index.decls[di]!;
        if (d.kind !== 'enum' && d.kind !== 'typedef') continue;
        let open = d.bodyStart;
        if (open < 0) {
          if (d.kind !== 'typedef') continue;
          // typedef enum { ... } X;
          for (let j = d.first; j <= d.last; j++) { if (this.text(j) === 'enum') { for (let k = j; k <= d.last; k++) if (this.text(k) === '{') { open = k; break; } break; } if (this.text(j) === '{' || this.text(j) === ';') break; }
          if (open < 0) continue;
        }
        let depth = 0;
        let expectName = true;
        for (let j = open + 1; j <= d.last; j++) {
          const t = this.text(j);
          if (t === '(' || t === '{' || t === '[') depth++;
          else if (t === ')' || t === ']') depth--;
          else if (t === '}') { if (depth === 0) break; depth--; }
          else if (depth === 0 && t === ',') { expectName = true; continue; }
          if (depth === 0 && expectName && this.toks.kind[j] === Tok.Ident) {
            const arr = this.enumerators.get(t) ?? []; arr.push(di); this.enumerators.set(t, arr);
            expectName = false;
          }
        }
      }
    }
    return this.enumerators.get(name) ?? [];
  }
  /** Unqualified lookup from namespace `ns` (raw path), innermost first. */
  lookup(name: string, ns: string[]): Sym[] {
    const parts = norm(ns.join('::'));
    const arr = parts ? parts.split('::') : [];
    for (let d = arr.length; d >= 0; d--) {
      const r = this.inNamespace(arr.slice(0, d).join('::'), name);
      if (r.length) return r;
    }
    return [];
  }
  /** Lookup of `name` in namespace `path` (already resolved, normalised components). */
  lookupIn(path: string[], name: string): Sym[] { return this.inNamespace(path.join('::'), name); }
  /** Lookup of `A::B::name` written in namespace ns (abs: leading ::). */
  lookupPath(path: string[], name: string, ns: string[], abs: boolean): Sym[] {
    if (path.length === 0) return abs ? this.inNamespace('', name) : this.lookup(name, ns);
    const from = abs ? '' : norm(ns.join('::'));
    // enum-qualified?
    const r = this.resolveNsPath(path, from);
    if (r !== null) return this.inNamespace(r, name);
    return [];
  }
  /** What `name` denotes when followed by `::`, inside the resolved namespace path. */
  resolveIn(path: string[], name: string, at = -1): { kind: 'ns'; path: string[] } | { kind: 'enum'; en: EnumDecl } | { kind: 'record'; rec: RecordDecl } | { kind: 'none' } {
    const full = [...path, name].join('::');
    const al = this.nsAliases.get(full);
    if (al) { const t = this.resolveNsPath(al.path, al.from); if (t !== null) return { kind: 'ns', path: t ? t.split('::') : [] }; }
    // (`detail::x` inside thrust::cuda_cub names thrust::detail where cuda_cub::detail is opened only later)
    if (this.namespaces.has(full) && !(at >= 0 && (this.nsFirst.get(norm(full)) ?? -1) > at)) return { kind: 'ns', path: [...path, name] };
    const syms = this.inNamespace(path.join('::'), name);
    const t = syms.find(s => s.kind === 'type');
    if (t && t.kind === 'type' && t.ty.k === 'enum') return { kind: 'enum', en: t.ty.en };
    if (t && t.kind === 'type' && t.ty.k === 'record') return { kind: 'record', rec: t.ty.rec };
    for (const target of this.usingDirs.get(path.join('::')) ?? []) {
      const tn = this.resolveNsPath(target, path.join('::'));
      if (tn !== null && this.namespaces.has(tn + '::' + name)) return { kind: 'ns', path: [...tn.split('::'), name] };
    }
    return { kind: 'none' };
  }
  isTemplateName(name: string, _ns: string[]): boolean {
    return this.entriesNamed(name).some(di => (this.index.decls[di]!.flags & DeclFlag.Template) !== 0);
  }
  readonly templates: Templates = new Templates(this);
  /** Builtins cicc declares implicitly (parser.implicitMatchBuiltin), one FuncSym per name. */
  readonly implicitBuiltins = new Map<string, FuncSym>();
  /** Kernel specialisations launched from each class template's members (by its declaration), in instantiation order. */
  readonly classTemplateLaunches = new Map<number, FuncSym[]>();
  /** Primary templates named `name` of the given kind visible from namespace ns (innermost namespace that has one). */
  templateEntries(name: string, ns: string[], kind: 'function' | 'record' | 'variable', exact = false, depth = 0): number[] {
    const parts = this.visibleScope(ns.join('::'));
    const arr = parts ? parts.split('::') : [];
    for (let d = arr.length; d >= 0; d--) {
      const here = arr.slice(0, d).join('::');
      // the namespace itself and those its using-directives nominate (`namespace cg { namespace __v1 {...} using namespace __v1; }`)
      const scopes = this.nominated(here);
      const found = this.entriesNamed(name).filter(di => {
        const e = this.index.decls[di]!;
        // an alias template (`template <class T> using X = ...;`) names a type like a class template
        return (e.kind === kind || (kind === 'record' && e.kind === 'using' && !e.qualifier)) && (e.flags & DeclFlag.Template) && !(e.flags & DeclFlag.ExplicitInst) && !e.qualifier && scopes.includes(this.visibleScope(e.scope))
          && this.text(e.first) === 'template' && this.text(e.first + 1) === '<' && this.text(e.first + 2) !== '>';
      });
      if (found.length) return kind !== 'function' ? found.filter(di => !this.isSpecialization(di)) : found;
      // a using-declaration naming another namespace's template (`namespace details { using cuda::std::plus; }`)
      if (depth < 8) {
        for (const di of this.entriesNamed(name)) {
          const e = this.index.decls[di]!;
          if (e.kind !== 'using' || !e.qualifier || !scopes.includes(this.visibleScope(e.scope))) continue;
          const target = this.resolveNsPath(e.qualifier.split('::').filter(x => x), norm(e.scope));
          if (target === null) continue;
          const got = this.templateEntries(name, target ? target.split('::') : [], kind, true, depth + 1);
          if (got.length) return got;
        }
      }
      if (exact) return [];
    }
    return [];
  }
  /** Namespace ns and the namespaces its using-directives nominate, transitively (as visible scopes). */
  private nominated(ns: string): string[] {
    const out = [ns];
    for (let i = 0; i < out.length; i++) {
      for (const target of this.usingDirs.get(out[i]!) ?? []) {
        const tn = this.resolveNsPath(target, out[i]!);
        if (tn !== null && !out.includes(this.visibleScope(tn))) out.push(this.visibleScope(tn));
      }
    }
    return out;
  }
  /** The namespace a declaration in `scope` is a member of for lookup: inline namespaces are transparent (cuda::std::__4). */
  private visibleScope(scope: string): string {
    let s = norm(scope);
    while (this.inlineNs.has(s)) { const c = s.lastIndexOf('::'); s = c < 0 ? '' : s.slice(0, c); }
    return s;
  }
  /** A class template entry whose name is followed by template arguments (a partial/explicit specialisation). */
  isSpecialization(di: number): boolean {
    const e = this.index.decls[di]!;
    let depth = 0;
    for (let j = e.first + 1; j <= e.last; j++) {
      const t = this.text(j);
      if (t === '<') depth++; else if (t === '>') depth--; else if (t === '>>') depth -= 2;
      if (depth <= 0) { for (let k = j + 1; k <= e.last; k++) { const x = this.text(k); if (x === '{' || x === ':' || x === ';') return false; if (x === e.name) return this.text(k + 1) === '<'; } return false; }
    }
    return false;
  }

  // ------------------------------------------------------------------ entities
  private f128: RecordDecl | undefined;
  /** `__float128` as an opaque 16-byte type: declarations may name it; computing with it falls back (recordIR). */
  float128Record(): RecordDecl {
    if (!this.f128) {
      this.f128 = { ...this.newRecord('struct', '__float128', [], []), complete: true, size: 16, align: 16 };
      (this.f128 as RecordDecl & { opaque?: string }).opaque = 'type __float128';
    }
    return this.f128;
  }
  newRecord(tag: RecordDecl['tag'], name: string, scope: string[], outer: string[]): RecordDecl {
    return { tag, name, scope: [...scope], outer: [...outer], complete: false, fields: [], size: 0, align: 1, ir: null, hasMethods: false };
  }
  recordFor(tag: RecordDecl['tag'], name: string, scope: string[], outer: string[], defining: boolean): RecordDecl {
    const key = [...scope, ...outer, name].join('::');
    let r = this.records.get(key);
    if (!r) {
      r = this.newRecord(tag, name, scope, outer);
      this.records.set(key, r);
      if (!defining && outer.length === 0) {
        // find the definition elsewhere in this namespace and load it
        for (const di of this.entriesNamed(name)) {
          const d = this.index.decls[di]!;
          if (d.kind === 'record' && d.bodyStart >= 0 && d.scope === scope.join('::') && !(d.flags & DeclFlag.Template)) { this.load(di); break; }
        }
      }
    }
    return r;
  }
  enumFor(name: string, scope: string[], underlying: CType, scoped: boolean): EnumDecl {
    const key = [...scope, name].join('::');
    let e = this.enums.get(key);
    if (!e) { e = { name, scope: [...scope], underlying, scoped, consts: new Map() }; this.enums.set(key, e); }
    return e;
  }
  newVar(name: string, ty: CType, storage: VarSym['storage'], pos: Pos): VarSym {
    return { kind: 'var', name, ty, storage, space: 'none', isExtern: false, isStatic: false, isConstexpr: false, scope: [], pos, id: this.nextId++ };
  }
  declareFunction(d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs, ns: string[], inAnon: boolean, fresh = false): FuncSym {
    const ty = d.ty as CType & { k: 'func' };
    const key = [ns.join('::'), d.name, ty.params.map(p => typeName(unqual(p))).join(','), ty.variadic ? '...' : ''].join('|');
    let f = fresh ? undefined : this.funcs.get(key);
    if (!f) {
      f = {
        kind: 'func', name: d.name, ty, scope: [...ns], paramNames: d.paramNames, defaults: d.defaults,
        isGlobal: false, isDevice: false, isHost: false, deviceBuiltin: false, isStatic: false, inAnon, externC: ds.externC,
        isInline: false, forceinline: false, noinline: false, bodyStart: -1, bodyEnd: -1, pos: d.pos, file: this.fileOf(d.pos), id: this.nextId++,
        op: (d as DeclaratorInfo & { op?: string }).op,   // a namespace-scope operator function (mangled by its operator code)
      };
      if (!fresh) this.funcs.set(key, f);
    } else {
      // later declarations may add default arguments and parameter names; once defined, the body's own names stay
      // (CUDA redeclares libstdc++'s `erfc(float __x) {...}` as `erfc(float x)`: the body names __x)
      f.defaults = f.defaults.map((x, i) => x ?? d.defaults[i] ?? null);
      if (d.paramNames.some(n => n) && f.bodyStart < 0) f.paramNames = d.paramNames;
    }
    f.isGlobal ||= !!attrs.global; f.isDevice ||= !!attrs.device; f.isHost ||= !!attrs.host;
    f.deviceBuiltin ||= !!attrs.deviceBuiltin || (!!attrs.cudartBuiltin && d.name === '__assert_fail');
    if (attrs.cudartBuiltin) (f as FuncSym & { cudartBuiltin?: boolean }).cudartBuiltin = true;
    f.isStatic ||= ds.static; f.externC ||= ds.externC; f.isInline ||= ds.inline;
    f.forceinline ||= !!attrs.alwaysInline; f.noinline ||= !!attrs.noinline;
    if (attrs.launchBounds) f.launchBounds = attrs.launchBounds;
    if (ds.constexpr) { f.isInline = true; f.isConstexpr = true; }
    if ((d as DeclaratorInfo & { nothrow?: boolean }).nothrow) f.noexcept = true;
    return f;
  }
  /** A member function of rec declared in its class body (redeclarations share the FuncSym). */
  declareMethod(rec: RecordDecl, d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs): FuncSym {
    const ty = d.ty as CType & { k: 'func' };
    const x = d as DeclaratorInfo & { ctor?: boolean; dtor?: boolean; op?: string; fnQ?: number };
    const f: FuncSym = {
      kind: 'func', name: d.name, ty, scope: [...rec.scope], paramNames: d.paramNames, defaults: d.defaults,
      isGlobal: false, isDevice: !!attrs.device, isHost: !!attrs.host, deviceBuiltin: false, isStatic: false, inAnon: rec.scope.includes('(anonymous)'), externC: false,
      isInline: true, forceinline: !!attrs.alwaysInline, noinline: !!attrs.noinline, bodyStart: -1, bodyEnd: -1, pos: d.pos, file: this.fileOf(d.pos), id: this.nextId++,
      cls: rec, thisQ: x.fnQ ?? 0, ctor: x.ctor, dtor: x.dtor, op: x.op, staticMember: ds.static || /^(new|delete)/.test(x.op ?? ''), isConstexpr: ds.constexpr,
    };
    if ((ds as DeclSpec & { explicit?: boolean }).explicit) (f as FuncSym & { explicit?: boolean }).explicit = true;
    if (attrs.global) throw new Unsupported('__global__ member function');
    if ((d as DeclaratorInfo & { nothrow?: boolean }).nothrow) f.noexcept = true;
    (rec.methods ??= []).push(f);
    return f;
  }
  declareVariable(d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs, ns: string[], inAnon: boolean, p: Parser): VarSym {
    const key = [...ns, d.name].join('::');
    let v = this.vars.get(key);
    if (!v) {
      v = this.newVar(d.name, d.ty, 'global', d.pos);
      v.scope = [...ns];
      this.vars.set(key, v);
    }
    v.space = attrs.shared ? 'shared' : attrs.constant ? 'constant' : attrs.managed ? 'managed' : attrs.device ? 'device' : v.space;
    if (attrs.deviceBuiltin) v.deviceBuiltin = true;
    v.isStatic ||= ds.static || inAnon;
    v.externC ||= ds.externC;
    v.isConstexpr ||= ds.constexpr;
    let ty = d.ty;
    if (ds.constexpr) ty = withQ(ty, Q.Const);
    if (p.at('=') || p.at('{')) {
      p.eat('=');
      const init = p.parseInitializer(ty);
      if (ty.k === 'array' && ty.n === null) {
        if (init.k === 'list') { ty = arrayOf(ty.elem, init.items.length); init.ty = ty; }
        else if (init.k === 'expr' && init.e.ty.k === 'array') ty = arrayOf(ty.elem, init.e.ty.n);
      }
      v.init = init;
      v.pos = d.pos;
      v.isExtern = false;
      if ((ty.q & Q.Const) && isArith(ty) && init.k === 'expr') noteConstInit(v, init.e, this.consts);
    } else if (ds.extern && v.init === undefined) {
      v.isExtern = true;
    } else if (!ds.extern) {
      v.isExtern = false; v.pos = d.pos;
      // a device object of class type without an initialiser is default-initialised: its default constructor runs
      // (constant initialisation or cicc's error, constinit.ts)
      if (v.init === undefined) v.init = v.space === 'device' || v.space === 'constant' || v.space === 'managed' ? p.defaultInit(ty, d.pos) : null;
    }
    v.ty = ty;
    if (attrs.aligned) (v as VarSym & { align?: number }).align = attrs.aligned;
    return v;
  }
  declareLocalStatic(d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs, p: Parser): VarSym {
    const v = this.newVar(d.name, d.ty, 'static-local', d.pos);
    v.space = attrs.shared ? 'shared' : attrs.constant ? 'constant' : attrs.device ? 'device' : 'none';
    v.isExtern = ds.extern; v.isStatic = ds.static;
    if (ds.extern && !attrs.shared) {
      // block-scope extern declaration of a namespace-scope variable
      const found = this.lookup(d.name, p.ns).find(s => s.kind === 'var');
      if (found && found.kind === 'var') return found;
    }
    if (p.eat('=') || p.at('{')) {
      if (v.space === 'shared') this.error(p.p, 3, 'initializer not allowed for __shared__ variable');
      v.init = p.parseInitializer(d.ty);
      if (d.ty.k === 'array' && d.ty.n === null && v.init.k === 'list') { v.ty = arrayOf(d.ty.elem, v.init.items.length); v.init.ty = v.ty; }
    }
    if (v.space === 'none' && !ds.static) throw new Unsupported('block-scope extern variable');
    if (attrs.aligned) (v as VarSym & { align?: number }).align = attrs.aligned;
    (v as VarSym & { owner?: FuncSym | null }).owner = p.fn;
    this.staticLocals.push(v);
    return v;
  }
  noteVarUse(v: VarSym, fn: FuncSym | null, pos: Pos): void {
    if (!fn || v.storage !== 'global') return;
    if (v.space !== 'none' || v.deviceBuiltin) return;
    if (v.constVal !== undefined) return;
    if (v.isConstexpr) return;
    if (fn.isDevice || fn.isGlobal) {
      this.error(pos, 20, `identifier "${v.name}" is undefined in device code`);
    }
  }

  // ------------------------------------------------------------------ literals
  numberLiteral(pos: Pos): Expr {
    let s = this.text(pos).replace(/'/g, '');
    const isHex = /^0[xX]/.test(s);
    const isFloat = isHex ? /[pP]/.test(s) : /[.eE]/.test(s);
    if (isFloat) {
      const m = /^(.*?)([fFlL]?)$/.exec(s)!;
      const suf = m[2]!.toLowerCase();
      const v = isHex ? parseHexFloat(m[1]!) : Number(m[1]);
      // a long double constant converted to double or float (libcu++'s numeric_limits<double>: `double(1.79...e+308L)`)
      // folds in convertArith; any other use of the long double reaches codegen, which falls back
      if (suf === 'l') return mk({ k: 'ldouble', q: 0 }, pos, false, { k: 'fp', v });
      const ty = suf === 'f' ? C.float : C.double;
      return mk(ty, pos, false, { k: 'fp', v: suf === 'f' ? Math.fround(v) : v });
    }
    const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)$/.exec(s);
    if (!m) { this.error(pos, 2420, 'invalid literal suffix'); return mk(C.int, pos, false, { k: 'int', v: 0n }); }
    const digits = m[1]!;
    const suf = m[2]!.toLowerCase();
    let v: bigint;
    if (/^0[bB]/.test(digits)) v = BigInt(digits);
    else if (/^0[xX]/.test(digits)) v = BigInt(digits);
    else if (digits.length > 1 && digits[0] === '0') v = BigInt('0o' + digits.slice(1));
    else v = BigInt(digits);
    const u = suf.includes('u');
    const longs = (suf.match(/l/g) ?? []).length;
    const decimal = !/^0[xXbB]/.test(digits) && !(digits.length > 1 && digits[0] === '0');
    const cands: [string, bigint][] = [];
    const fits = (name: string, bits: bigint, signed: boolean) => cands.push([name, signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n]);
    if (longs === 0) { if (!u) fits('int', 32n, true); if (u || !decimal) fits('unsigned int', 32n, false); }
    if (longs <= 1) { if (!u) fits('long', 64n, true); if (u || !decimal) fits('unsigned long', 64n, false); }
    if (!u) fits('long long', 64n, true); if (u || !decimal) fits('unsigned long long', 64n, false);
    let ty: CType = C.ullong;
    for (const [name, max] of cands) if (v <= max) { ty = intT(name as 'int'); break; }
    if (v > 0xffffffffffffffffn) this.error(pos, 23, 'integer constant is too large');
    return mk(ty, pos, false, { k: 'int', v: ty.k === 'int' && ty.signed ? BigInt.asIntN(64, v) : v });
  }
  charLiteral(pos: Pos): Expr {
    const s = this.text(pos);
    const q = s.indexOf("'");
    const prefix = s.slice(0, q);
    const bytes = unescape(s.slice(q + 1, s.lastIndexOf("'")));
    if (prefix && prefix !== 'u8') {
      const ty = prefix === 'L' ? intT('wchar_t') : prefix === 'u' ? intT('char16_t') : intT('char32_t');
      const str = Buffer.from(bytes).toString('utf8');
      return mk(ty, pos, false, { k: 'int', v: BigInt(str.codePointAt(0) ?? 0) });
    }
    if (bytes.length === 1) return mk(C.char, pos, false, { k: 'int', v: BigInt.asIntN(8, BigInt(bytes[0]!)) });
    let v = 0n; for (const b of bytes) v = (v << 8n) | BigInt(b);
    return mk(C.int, pos, false, { k: 'int', v: BigInt.asIntN(32, v) });
  }
  stringValue(pos: Pos): string {
    const s = this.text(pos);
    const q = s.indexOf('"');
    return Buffer.from(unescape(s.slice(q + 1, s.lastIndexOf('"')))).toString('latin1');
  }
  stringLiteral(parts: Pos[]): Expr {
    const chunks: number[] = [];
    for (const p of parts) {
      const s = this.text(p);
      const q = s.indexOf('"');
      const prefix = s.slice(0, q);
      if (prefix && prefix !== 'u8') throw new Unsupported('wide string literal');
      if (prefix.includes('R')) throw new Unsupported('raw string literal');
      chunks.push(...unescape(s.slice(q + 1, s.lastIndexOf('"'))));
    }
    chunks.push(0);
    const bytes = Uint8Array.from(chunks);
    return mk(arrayOf(withQ(C.char, Q.Const), bytes.length), parts[0]!, true, { k: 'str', bytes });
  }
  stringFromText(text: string, pos: Pos): Expr {
    const bytes = Uint8Array.from([...Buffer.from(text, 'utf8'), 0]);
    return mk(arrayOf(withQ(C.char, Q.Const), bytes.length), pos, true, { k: 'str', bytes });
  }
  prettyFunction(f: FuncSym | null): string {
    if (!f) return '';
    const qual = [...f.scope.map(s => s === '(anonymous)' ? '<unnamed>' : s), f.name].join('::');
    return `${typeName(f.ty.ret)} ${qual}(${f.ty.params.map(typeName).join(', ')}${f.ty.variadic ? ', ...' : ''})`;
  }
}

function parseHexFloat(s: string): number {
  const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(s);
  if (!m) return NaN;
  const int = m[1] || '0', frac = m[2] ?? '';
  const mant = parseInt(int + frac || '0', 16);
  return mant * Math.pow(2, Number(m[3]) - 4 * frac.length);
}

function unescape(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') { const cp = s.codePointAt(i)!; if (cp > 0xffff) i++; out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8')); continue; }
    const n = s[++i]!;
    switch (n) {
      case 'n': out.push(10); break; case 't': out.push(9); break; case 'r': out.push(13); break; case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        let j = i, v = 0; while (j < s.length && j < i + 3 && /[0-7]/.test(s[j]!)) { v = v * 8 + Number(s[j]); j++; }
        out.push(v & 255); i = j - 1; break;
      }
      case 'x': { let j = i + 1, v = 0; while (j < s.length && /[0-9a-fA-F]/.test(s[j]!)) { v = v * 16 + parseInt(s[j]!, 16); j++; } out.push(v & 255); i = j - 1; break; }
      case 'a': out.push(7); break; case 'b': out.push(8); break; case 'f': out.push(12); break; case 'v': out.push(11); break; case 'e': out.push(27); break;
      case 'u': case 'U': { const len = n === 'u' ? 4 : 8; const cp = parseInt(s.slice(i + 1, i + 1 + len), 16); out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8')); i += len; break; }
      default: out.push(n.charCodeAt(0)); break;
    }
  }
  return out;
}

export type { DeclEntry };
