// Module assembly from per-root entries, in exactly the order and with exactly the names a whole-unit
// compile gives: the IR-generation order is replayed from the recorded references (kernels first, then
// bodies breadth-first, first reference wins), string globals are renumbered in that order, and every
// function or global several roots share must have the same text in each (otherwise the reason, and the
// caller compiles the whole unit).

import type { CompileOptions } from '../options';
import { moduleParts, functionBody, type AsmFunc, type AsmGlobal } from '../backend/ptx';
import type { Ev, Recording } from './record';
import type { LastAssembly, Preamble, RootEntry } from './store';

export type { Preamble } from './store';
import { type Block, type Func, type Type, T, AS, newModule, newFunc, newGlobal, funcTy } from '../middle/ir';
import { linkLibdevice, libdeviceFuncType } from '../middle/libdevice';
import { namesLineFiles, lineInfoKeys, lineTables, sameLineTables, resolvePlaceholders, lineInfoTail } from '../backend/lineinfo';


const STR_NAME = /\$str(?:\$\d+)?(?![A-Za-z0-9_$])/g;
/** PTX spelling of the module's n-th string global (codegen names them $str, $str.1, ...; ptxName maps '.' to '$'). */
const strPtx = (n: number): string => (n === 0 ? '$str' : `$str$${n}`);
const isoName = (ptx: string): string => ptx.replace('$str$', '$str.');



/** Everything of an entry that assembly reads, but its functions' texts. */
function entryShape(e: RootEntry): string {
  return JSON.stringify([e.events, e.queued, e.creation, e.strs, e.nvRefs, e.globals, e.dropped ?? [],
    Object.entries(e.funcs).map(([n, f]) => [n, f.kernel ?? 0, f.header, f.text === undefined ? 0 : 1, f.funcRefs ?? null])]);
}

/** The module from the last assembly when entries differ from its entries only in function texts; undefined otherwise. */
function reassemble(last: LastAssembly, entries: readonly RootEntry[], libdevice: Uint8Array | undefined, compDir: string): Pick<LastAssembly, 'ptx' | 'shapes' | 'bodies' | 'lines'> | undefined {
  if (last.libdevice !== libdevice || last.entries.length !== entries.length) return undefined;
  let bodies: string[] | undefined;
  let shapes = last.shapes;
  const changed: number[] = [];
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (e === last.entries[k]) continue;
    const shape = entryShape(e);
    if (shape !== last.shapes[k]) return undefined;
    if (shapes === last.shapes) shapes = shapes.slice();
    shapes[k] = shape;
    bodies ??= last.bodies.slice();
    const ren = renamer(e, last.strNum);
    for (const [name, f] of Object.entries(e.funcs)) {
      if (f.text === undefined) continue;
      const b = last.bodyOf.get(name);
      // a function several roots define must have the same text in each: the full assembly compares them
      if (b === undefined || b.owners !== 1) return undefined;
      const text = ren(f.text);
      if (text === null) return undefined;
      bodies[b.at] = functionBody(text, b.at);
      changed.push(b.at);
    }
  }
  if (!bodies) return { ptx: last.ptx, shapes, bodies: last.bodies, lines: last.lines };
  if (!last.lines) return { ptx: last.head + bodies.join('') + '\n', shapes, bodies };
  const lines = relined(last.lines, bodies, changed, compDir);
  return { ptx: last.head + lines.resolved.join('') + lines.tail, shapes, bodies, lines };
}

/**
 * -lineinfo: the bodies numbered after those at `changed` were replaced. Files and names are numbered in order of
 * first appearance in the module, so the other bodies keep their numbers (and texts) unless the new ones change
 * that order; then every body is numbered again.
 */
function relined(last: NonNullable<LastAssembly['lines']>, bodies: readonly string[], changed: readonly number[], compDir: string): NonNullable<LastAssembly['lines']> {
  const keys = last.keys.slice();
  for (const at of changed) keys[at] = lineInfoKeys(bodies[at]!);
  const tables = lineTables(keys);
  if (!sameLineTables(tables, last.tables)) return numbered(bodies, keys, compDir);
  const resolved = last.resolved.slice();
  for (const at of changed) resolved[at] = resolvePlaceholders(bodies[at]!, tables);
  return { keys, resolved, tables, tail: last.tail };
}

/** -lineinfo: every body numbered (what resolveLineInfo() does to the bodies of a module whose head names no file). */
function numbered(bodies: readonly string[], keys: readonly string[][] | undefined, compDir: string): NonNullable<LastAssembly['lines']> {
  const ks = keys ? keys.slice() : bodies.map(lineInfoKeys);
  const tables = lineTables(ks);
  return { keys: ks, resolved: bodies.map(b => resolvePlaceholders(b, tables)), tables, tail: lineInfoTail(tables, compDir) };
}

/** The unit's PTX from its preamble and root entries (reused: only new texts put into the last assembly), or why it cannot be assembled. */
export function assembleUnit(opts: CompileOptions, pre: Preamble, entries: readonly RootEntry[], libdevice: Uint8Array | undefined, assemblies: WeakMap<Preamble, LastAssembly>): { ptx: string; reused: boolean; defines: (name: string) => boolean } | { why: string } {
  const last = assemblies.get(pre);
  if (last && !!last.lines === opts.lineInfo) {
    const r = reassemble(last, entries, libdevice, opts.compDir ?? '');
    if (r) {
      assemblies.set(pre, { ...last, ...r, entries: entries.slice() });
      return { ptx: r.ptx, reused: true, defines: n => last.bodyOf.has(n) };
    }
  }
  const ptx = assembleFresh(opts, pre, entries, libdevice, assemblies);
  if (typeof ptx !== 'string') return ptx;
  const made = assemblies.get(pre)!;
  return { ptx, reused: false, defines: n => made.bodyOf.has(n) };
}

function assembleFresh(opts: CompileOptions, pre: Preamble, entries: readonly RootEntry[], libdevice: Uint8Array | undefined, assemblies: WeakMap<Preamble, LastAssembly>): string | { why: string } {
  const recs: Recording[] = [pre.rec, ...entries];
  // merged recordings; a function's references are the same in every root that generated it
  const events = new Map<string, Ev[]>();
  const creation = new Map<string, Ev[]>();
  const queued = new Set<string>();
  for (const r of recs) {
    for (const [name, evs] of Object.entries(r.events)) {
      if (name === '') continue;
      const have = events.get(name);
      if (have === undefined) events.set(name, evs);
      else if (JSON.stringify(have) !== JSON.stringify(evs)) return { why: `references of ${name} differ` };
    }
    for (const [name, evs] of Object.entries(r.creation)) if (!creation.has(name)) creation.set(name, evs);
    for (const name of Object.keys(r.queued)) queued.add(name);
  }

  // replay
  const fOrder: string[] = [], gOrder: string[] = [];
  const placedF = new Set<string>(), placedG = new Set<string>();
  const strNum = new Map<string, number>();
  const queue: string[] = [];
  const apply = (e: Ev): void => {
    if (e[0] === 'f') {
      if (placedF.has(e[1])) return;
      placedF.add(e[1]); fOrder.push(e[1]);
      if (queued.has(e[1])) queue.push(e[1]);
    } else if (e[0] === 'g') {
      if (placedG.has(e[1])) return;
      for (const x of creation.get(e[1]) ?? []) apply(x);
      if (placedG.has(e[1])) return;
      placedG.add(e[1]); gOrder.push(e[1]);
    } else {
      const key = 's' + e[1];
      if (placedG.has(key)) return;
      placedG.add(key); strNum.set(e[1], strNum.size); gOrder.push(key);
    }
  };
  for (const e of pre.rec.events['']!) apply(e);
  for (const k of pre.kernels) apply(['f', k]);
  while (queue.length) {
    const evs = events.get(queue.shift()!);
    if (!evs) return { why: 'a body no root generated' };
    for (const e of evs) apply(e);
  }

  // what linking libdevice appends, in the order linking the whole unit appends it
  const nvRefs = new Map<string, string[]>();
  for (const e of entries) for (const [name, refs] of Object.entries(e.nvRefs)) nvRefs.set(name, refs);
  if (nvRefs.size > 0) {
    if (!libdevice) return { why: 'libdevice calls without libdevice' };
    const strNames = [...strNum.values()].map(n => (n === 0 ? '$str' : `$str.${n}`));
    const linked = linkOrderCached(opts, libdevice, fOrder.filter(n => events.has(n)), nvRefs, [...gOrder.filter(g => !g.startsWith('s')), ...strNames]);
    if (typeof linked === 'string') return { why: linked };
    for (const f of linked.funcs) if (!placedF.has(f)) { placedF.add(f); fOrder.push(f); }
    for (const g of linked.globals) if (!placedG.has(g)) { placedG.add(g); gOrder.push(g); }
  }

  // texts under the unit's string names
  const funcText = new Map<string, { kernel: boolean; header: string | null; text?: string; funcRefs?: string[] }>();
  const globalText = new Map<string, AsmGlobal>();
  const strGlobal = new Map<string, AsmGlobal>();
  const sources: [Recording, Record<string, { text: string; funcRefs: string[] }>, RootEntry | null][] =
    [[pre.rec, pre.globals, null], ...entries.map(e => [e, e.globals, e] as [Recording, RootEntry['globals'], RootEntry])];
  for (const [r, globals, entry] of sources) {
    const ren = renamer(r, strNum);
    for (const [name, g] of Object.entries(globals)) {
      const text = ren(g.text);
      if (text === null) return { why: `unknown string in ${name}` };
      const key = r.strs[name];
      const map = key === undefined ? globalText : strGlobal;
      const id = key === undefined ? name : key;
      const have = map.get(id);
      if (have === undefined) map.set(id, { text, funcRefs: g.funcRefs });
      else if (have.text !== text) return { why: `global ${name} differs` };
    }
    if (!entry) continue;
    for (const [name, f] of Object.entries(entry.funcs)) {
      const text = f.text === undefined ? undefined : ren(f.text);
      if (text === null) return { why: `unknown string in ${name}` };
      const have = funcText.get(name);
      if (have === undefined) { funcText.set(name, { kernel: !!f.kernel, header: f.header, text, funcRefs: f.funcRefs }); continue; }
      if (have.header !== f.header || have.kernel !== !!f.kernel) return { why: `prototype of ${name} differs` };
      if (text !== undefined) {
        if (have.text === undefined) { have.text = text; have.funcRefs = f.funcRefs; }
        else if (have.text !== text) return { why: `function ${name} differs` };
      }
    }
  }

  // declarations of intrinsics that linking libdevice added go after the unit's own functions (never printed)
  for (const [name, f] of funcText) {
    if (placedF.has(name)) continue;
    if (!name.startsWith('llvm.') || f.text !== undefined) return { why: `${name} not placed` };
    fOrder.push(name);
  }
  const funcs: AsmFunc[] = [];
  for (const name of fOrder) {
    const f = funcText.get(name);
    if (!f) continue;   // inlined everywhere and removed
    const header = f.header;
    funcs.push({
      name, isKernel: f.kernel,
      piece: f.text === undefined ? undefined : { name, text: f.text, funcRefs: f.funcRefs ?? [] },
      header: () => { if (header === null) throw new NoHeader(); return header; },
    });
  }
  const globals: AsmGlobal[] = [];
  for (const id of gOrder) {
    const g = id.startsWith('s') ? strGlobal.get(id.slice(1)) : globalText.get(id);
    // a vtable (all its calls devirtualised) or an object nobody uses any more: every root's optimiser removed it
    if (!g && (id.startsWith('_ZTV') || entries.some(e => e.dropped?.includes(id)))) continue;
    if (!g) return { why: `global ${id} missing` };
    globals.push(g);
  }
  if (globals.length !== globalText.size + strGlobal.size) return { why: 'globals not placed' };
  let parts: { head: string; bodies: string[] };
  try { parts = moduleParts(opts, funcs, globals); }
  catch (e) { if (e instanceof NoHeader) return { why: 'declaration without prototype' }; throw e; }
  // -lineinfo: the head (prototypes, globals) names no file; the bodies are numbered as in resolveLineInfo()
  if (opts.lineInfo && namesLineFiles(parts.head)) return { why: '-lineinfo: a file named outside the function bodies' };
  const lines = opts.lineInfo ? numbered(parts.bodies, undefined, opts.compDir ?? '') : undefined;
  const ptx = lines ? parts.head + lines.resolved.join('') + lines.tail : parts.head + parts.bodies.join('') + '\n';
  const owners = new Map<string, number>();
  for (const e of entries) for (const [name, f] of Object.entries(e.funcs)) if (f.text !== undefined) owners.set(name, (owners.get(name) ?? 0) + 1);
  const bodyOf = new Map<string, { at: number; owners: number }>();
  funcs.filter(f => f.piece !== undefined).forEach((f, at) => bodyOf.set(f.name, { at, owners: owners.get(f.name) ?? 0 }));
  assemblies.set(pre, { libdevice, entries: entries.slice(), shapes: entries.map(entryShape), head: parts.head, bodies: parts.bodies, strNum, bodyOf, ptx, ...(lines ? { lines } : {}) });
  return ptx;
}

/** A recording's texts under the unit's string names (null when a text names a string the recording lacks). */
function renamer(r: Recording, strNum: ReadonlyMap<string, number>): (text: string) => string | null {
  return text => {
    if (!text.includes('$str')) return text;
    let bad = false;
    const out = text.replace(STR_NAME, s => {
      const key = r.strs[isoName(s)];
      const n = key === undefined ? undefined : strNum.get(key);
      if (n === undefined) { bad = true; return s; }
      return strPtx(n);
    });
    return bad ? null : out;
  };
}

class NoHeader extends Error {}

/** Recent linkOrder() results per libdevice, by their inputs (an edit rarely changes what the unit links). */
const linkOrders = new WeakMap<Uint8Array, Map<string, ReturnType<typeof linkOrder>>>();
const MAX_LINK_ORDERS = 64;

function linkOrderCached(opts: CompileOptions, libdevice: Uint8Array, defined: string[], nvRefs: Map<string, string[]>, globalNames: string[]): ReturnType<typeof linkOrder> {
  let memo = linkOrders.get(libdevice);
  if (!memo) linkOrders.set(libdevice, memo = new Map());
  const key = JSON.stringify([opts.arch, opts.ftz, opts.precDiv, opts.precSqrt, opts.fastMath, globalNames, defined.map(n => [n, nvRefs.get(n) ?? []])]);
  let r = memo.get(key);
  if (r === undefined) {
    r = linkOrder(opts, libdevice, defined, nvRefs, globalNames);
    if (memo.size >= MAX_LINK_ORDERS) memo.delete(memo.keys().next().value!);
  } else memo.delete(key);   // most recently used last
  memo.set(key, r);
  return r;
}

/**
 * The functions and globals linking libdevice appends to the whole unit's module, in order: the same link
 * run on a stand-in module whose functions (in unit order) call what the real bodies call.
 */
function linkOrder(opts: CompileOptions, libdevice: Uint8Array, defined: string[], nvRefs: Map<string, string[]>, globalNames: string[]): { funcs: string[]; globals: string[] } | string {
  const m = newModule();
  for (const g of globalNames) m.globals.push(newGlobal(g, T.i8, AS.global, null));
  const decls = new Map<string, Func>();
  for (const name of defined) {
    const f = newFunc(name, VOID_FN);
    const b: Block = { name: 'entry', insts: [], parent: f };
    f.blocks.push(b);
    for (const r of nvRefs.get(name) ?? []) {
      let d = decls.get(r);
      if (!d) {
        const ty = libdeviceFuncType(libdevice, r);
        if (!ty) return `${r} is not in libdevice`;
        d = newFunc(r, ty as Type & { k: 'func' });
        decls.set(r, d);
      }
      b.insts.push({ kind: 'inst', op: 'call', ty: T.void, ops: [d], targets: [], parent: b, name: '', fnTy: d.fnTy });
    }
    m.funcs.push(f);
  }
  m.funcs.push(...decls.values());
  const before = new Set(m.funcs.map(f => f.name));
  const globalsBefore = m.globals.length;
  try { linkLibdevice(m, libdevice, { arch: opts.arch, ftz: opts.ftz, precDiv: opts.precDiv, precSqrt: opts.precSqrt, fastMath: opts.fastMath }); }
  catch (e) { return `libdevice: ${e instanceof Error ? e.message : String(e)}`; }
  return { funcs: m.funcs.filter(f => !before.has(f.name)).map(f => f.name), globals: m.globals.slice(globalsBefore).map(g => g.name) };
}

const VOID_FN = funcTy(T.void, []) as Type & { k: 'func' };
