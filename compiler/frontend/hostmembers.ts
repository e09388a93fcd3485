// Kernel templates launched with deduced arguments from member functions of a class template:
//   template <class T> struct Vec { void fill(T v) { gpu_fill<<<g, b>>>(n, v, data); } ... };
// cicc instantiates such a member only for the specialisations whose member host code calls, so the kernel
// specialisations are those launched by the member functions that host code calls, read under each class
// specialisation. The host functions that may call them (by name) are read (not compiled), and each member
// they call is read in turn, in the order a first use asks for it. What we cannot be sure of (implicit calls:
// destructors, default and copy constructors, operators; callers that are templates) is unsupported.

import { DeclFlag } from './index-types';
import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { FuncSym } from './ast';
import type { DeclEntry } from './index-types';
import { Parser, SyntaxAbort } from './parser';
import type { Unit } from './unit';
import { closer, mentions, opensBracket } from './host-tokens';

/** A member function defined in its class body: its name, its parameter list's brackets and its body's braces. */
interface MemberBody { name: string; open: number; close: number; start: number; end: number }

const splitScope = (s: string): string[] => (s ? s.split('::').filter(x => x && x !== '(anonymous)') : []);

/** The member functions defined in the body of the class at decl r (nested classes' members left out). */
function memberBodies(u: Unit, r: DeclEntry): MemberBody[] {
  const out: MemberBody[] = [];
  for (let j = r.bodyStart + 1; j < r.bodyEnd; j++) {
    const t = u.text(j);
    if (!opensBracket(t)) continue;
    const close = closer(u, j, r.bodyEnd);
    if (close < 0) throw new Unsupported(`member functions of class template ${r.name}`);
    if (t !== '(' || u.toks.kind[j - 1] !== Tok.Ident) { j = close; continue; }
    let name = u.text(j - 1);
    if (u.text(j - 2) === '~') name = '~' + name;
    if (u.text(j - 2) === 'operator' || u.text(j - 1) === 'operator') name = 'operator';
    // after the parameters: qualifiers, then a body, mem-initializers and a body, or no body
    let k = close + 1;
    while (k < r.bodyEnd && !['{', ';', ':', '='].includes(u.text(k))) k = opensBracket(u.text(k)) ? closer(u, k, r.bodyEnd) + 1 : k + 1;
    if (u.text(k) === ':') {
      for (k++; k < r.bodyEnd && u.text(k) !== '{'; ) {
        while (k < r.bodyEnd && u.text(k) !== '(' && u.text(k) !== '{') k++;
        if (k >= r.bodyEnd) break;
        k = closer(u, k, r.bodyEnd) + 1;
        if (u.text(k) === ',') k++;
        else break;
      }
    }
    if (u.text(k) !== '{') { j = k > j ? k - 1 : close; continue; }
    const end = closer(u, k, r.bodyEnd);
    if (end < 0) throw new Unsupported(`member functions of class template ${r.name}`);
    out.push({ name, open: j, close, start: k, end });
    j = end;
  }
  return out;
}

/**
 * The members of class template r that may launch the kernel at token tok: the member holding it and those
 * that call such a member (by name), with their names. Unsupported when one of them may be called implicitly.
 */
function launchingMembers(u: Unit, r: DeclEntry, tok: number): { bodies: MemberBody[]; names: Set<string> } {
  const all = memberBodies(u, r);
  const first = all.find(m => m.start < tok && m.end > tok);
  if (!first) throw new Unsupported(`kernel template launched in class template ${r.name} outside a member function we can read`);
  const bodies = [first], names = new Set([first.name]);
  for (let grew = true; grew;) {
    grew = false;
    for (const m of all) {
      if (bodies.includes(m) || !mentions(u, m.open, m.end, names)) continue;
      bodies.push(m); names.add(m.name); grew = true;
    }
  }
  for (const m of bodies) {
    if (m.name.startsWith('~') || m.name === 'operator') throw new Unsupported(`kernel template launched from ${m.name === 'operator' ? 'an operator' : 'the destructor'} of class template ${r.name}`);
    if (m.name !== r.name) continue;
    // a constructor host code may call without naming it: a default, copy or move constructor
    const params: number[][] = [[]];
    for (let j = m.open + 1; j < m.close; j++) {
      const t = u.text(j);
      if (opensBracket(t)) { const c = closer(u, j, m.close); params[params.length - 1]!.push(j); j = c; continue; }
      if (t === ',') params.push([]); else params[params.length - 1]!.push(j);
    }
    const given = params.filter(p => p.length > 0 && !(p.length === 1 && u.text(p[0]!) === 'void'));
    // callable with no argument or as a copy or move: host code calls it without naming it
    const required = given.filter(p => !p.some(j => u.text(j) === '='));
    const copy = required.length === 1 && required[0]!.some(j => u.text(j) === r.name);
    if (required.length === 0 || copy) throw new Unsupported(`kernel template launched from a constructor of class template ${r.name} that host code may call implicitly`);
    // a converting constructor: called where an argument is converted, so the callers of whatever takes the
    // class (anything whose parenthesised list names it) matter too
    if (required.length === 1 && u.text(m.open - 2) !== 'explicit') for (const n of takers(u, r.name)) names.add(n);
  }
  return { bodies, names };
}

/** Is decl k (a function declaration to the skimmer) one the parser reads as a function, not `V<T> v(3, 2.0);`? */
function plainPrototype(u: Unit, k: number): boolean {
  const before = u.diags.length, errs = u.errorCount;
  let syms: ReturnType<Unit['load']> = [];
  try { syms = u.load(k); } catch (e) { if (!(e instanceof Unsupported) && !(e instanceof SyntaxAbort)) throw e; }
  const read = u.errorCount === errs;
  u.diags.length = before; u.errorCount = errs;
  return read && syms.length > 0 && syms.every(sym => sym.kind === 'func');
}

/** Does the declaration [lo, hi] have an initialiser (`=`, braces or parentheses after a name, outside brackets)? */
function initialises(u: Unit, lo: number, hi: number): boolean {
  for (let j = lo; j <= hi; j++) {
    const t = u.text(j);
    if (t === '=') return true;
    if ((t === '{' || t === '(') && u.toks.kind[j - 1] === Tok.Ident) return true;
    if (opensBracket(t)) { const c = closer(u, j, hi + 1); if (c < 0) return true; j = c; }
  }
  return false;
}

/**
 * Does a member declaration in the class body (lo, hi) (braces), outside its member functions, initialise one
 * of class `cls` (`V<double> v{8, 0.0};`, `V<double> w = V<double>(8, 0.0);`) or with an initialiser that names
 * `names` (a converting call)? A member that only shares a name with them (`int compute = 0;` beside a function
 * `compute(V<double> &)`) constructs nothing. Nested classes are looked into.
 */
function memberInitialiser(u: Unit, lo: number, hi: number, names: Set<string>, cls: string): boolean {
  const only = new Set([cls]);
  let start = lo + 1, paren = false, init = -1;
  for (let j = lo + 1; j < hi; j++) {
    const t = u.text(j);
    if (opensBracket(t)) {
      const c = closer(u, j, hi);
      if (c < 0) return true;
      const nested = t === '{' && ['struct', 'class', 'union'].some(k => u.text(start) === k || u.text(start + 1) === k);
      if (nested && memberInitialiser(u, j, c, names, cls)) return true;
      if (t === '(') paren = true;
      else if (t === '{' && !paren && !nested && u.toks.kind[j - 1] === Tok.Ident && init < 0) init = j;
      else if (t === '{' && init < 0) { start = c + 1; paren = false; }   // a member function's body ends it
      j = c;
      continue;
    }
    if (t === '=' && !paren && init < 0) init = j;
    if (t === ';' || (t === ':' && ['public', 'private', 'protected'].includes(u.text(j - 1)))) {
      if (init >= 0 && (mentions(u, init, j, names) || mentions(u, start, init, only))) return true;
      start = j + 1; paren = false; init = -1;
    }
  }
  return false;
}

/** Names of the user's code followed by a parenthesised list that names `cls` (parameter lists among them). */
function takers(u: Unit, cls: string): Set<string> {
  const out = new Set<string>(), only = new Set([cls]);
  for (const d of u.index.decls) {
    if (!u.isUserFile(d.first) || (d.kind !== 'function' && d.kind !== 'record')) continue;
    const hi = Math.max(d.last, d.bodyEnd);
    for (let j = d.first + 1; j < hi; j++) {
      if (u.text(j) !== '(' || u.toks.kind[j - 1] !== Tok.Ident) continue;
      const c = closer(u, j, hi + 1);
      if (c > j && mentions(u, j, c, only)) out.add(u.text(j - 1));
    }
  }
  return out;
}

/** Reads a host function's body (not compiled): the functions it calls and the kernels it launches, in order. */
function readHost(u: Unit, f: FuncSym, scope: string[], names: Set<string>, why: string): FuncSym[] {
  const calls: FuncSym[] = [], launches: FuncSym[] = [];
  const before = u.diags.length, errs = u.errorCount;
  try {
    const p = new Parser(u, f.bodyStart, f.bodyEnd + 1, scope);
    if (f.tscope) p.tscope = f.tscope;
    p.hostLaunches = launches;
    p.hostCalls = calls;
    p.hostNames = names;
    p.parseFunctionBody({ ...f, params: undefined, body: undefined });
  } catch (e) {
    u.diags.length = before; u.errorCount = errs;
    if (e instanceof SyntaxAbort) throw new Unsupported(`${why} (host code we cannot read in ${f.name})`);
    if (e instanceof Unsupported) throw new Unsupported(`${why} (${e.reason})`);
    throw e;
  }
  if (u.errorCount > errs) { u.diags.length = before; u.errorCount = errs; throw new Unsupported(`${why} (host code we cannot read in ${f.name})`); }
  return calls;
}

/**
 * The kernel template specialisations launched (with deduced arguments) by the member functions of class
 * template r (a decl) that host code calls, the launch at token tok among them; readFunction gives the
 * function a user-code function decl defines (undefined when it cannot be read).
 */
export function classTemplateLaunches(u: Unit, ri: number, tok: number, name: string, readFunction: (di: number) => FuncSym | undefined): FuncSym[] {
  const r = u.index.decls[ri]!;
  const why = `kernel template ${name} launched with deduced template arguments in class template ${r.name}`;
  const { bodies, names } = launchingMembers(u, r, tok);
  const inMembers = (f: FuncSym): boolean => bodies.some(m => m.start === f.bodyStart);
  // the callers: host functions of the user's code that name one of those members
  const roots: FuncSym[] = [];
  const byCtor = names.has(r.name);
  u.index.decls.forEach((d, k) => {
    if (k === ri || !u.isUserFile(d.first)) return;
    // a variable constructed by one of those constructors runs it before main (dynamic initialisation)
    if (byCtor && (d.kind === 'variable' || (d.kind === 'function' && d.bodyStart < 0)) && mentions(u, d.first, d.last, names) && initialises(u, d.first, d.last)
      && (d.kind === 'variable' || !plainPrototype(u, k))) throw new Unsupported(`${why} (variable ${d.name} constructed by it)`);
    if (d.bodyStart < 0 || (d.kind !== 'function' && d.kind !== 'record')) return;
    if (!mentions(u, d.first, d.bodyEnd, names)) return;
    if (byCtor && d.kind === 'record' && memberInitialiser(u, d.bodyStart, d.bodyEnd, names, r.name)) throw new Unsupported(`${why} (a default member initialiser of ${d.name} constructs it)`);
    if (d.flags & DeclFlag.Template) throw new Unsupported(`${why} (template ${d.name} names a member that launches it)`);
    if (d.kind === 'function') {
      const f = readFunction(k);
      if (!f || f.bodyStart < 0) throw new Unsupported(`${why} (host function ${d.name} we cannot read)`);
      if (!f.isDevice || f.isHost) roots.push(f);
      return;
    }
    for (const sym of u.load(k)) {
      const rec = sym.kind === 'type' && sym.ty.k === 'record' ? sym.ty.rec : null;
      for (const m of rec?.methods ?? []) {
        if (m.bodyStart > d.bodyStart && m.bodyEnd < d.bodyEnd && (!m.isDevice || m.isHost) && mentions(u, m.initStart !== undefined && m.initStart >= 0 ? m.initStart : m.bodyStart, m.bodyEnd, names)) roots.push(m);
      }
    }
  });
  // each member of a specialisation of r that host code calls, read where it is first called (depth first, as
  // EDG instantiates): the kernels launched in it, in the order of its launches and calls
  const seen = new Set<FuncSym>(), out: FuncSym[] = [];
  const visit = (calls: FuncSym[]): void => {
    for (const c of calls) {
      if (seen.has(c)) continue;
      if (c.isGlobal) { if (c.targs && !out.includes(c)) out.push(c); continue; }
      if (!inMembers(c)) continue;
      seen.add(c);
      if (seen.size > 10000) throw new Unsupported('host template instantiation depth');
      visit(readHost(u, c, splitScope(r.scope), names, why));
    }
  };
  for (const f of roots) visit(readHost(u, f, f.scope, names, why).filter(c => !c.isGlobal));
  return out;
}
