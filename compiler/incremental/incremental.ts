// Per-root incremental compilation ("verifying traces"). Each root (a kernel, or a kernel template's
// specialisation) is compiled on its own (a fresh Unit and module) and stored with its trace: every name
// its front end looked up in the index. On the next compile of the unit, a root whose own declaration and
// traced declarations hash the same (positions excluded) is reused; only the others are compiled.
// assemble.ts rebuilds the module exactly as a whole-unit compile orders and names it. The unit level (the
// kernels, the device variables and the stub) is remembered the same way (unitLevel()): it is reused while
// the root declarations' signatures and lines and what it looked up are unchanged, so an edit inside a
// kernel's body reads no other kernel.
//
// The first compile of a file compiles it whole (and marks the file): compiling roots one by one costs
// more than a whole compile when nothing can be reused, so a fresh build pays nothing for this.
// -lineinfo: a reused root's `.loc` lines are moved to where its declarations are now (lines.ts). -rdc:
// the roots are the kernels, as in a whole compile, and what extern linkage changes (`.visible`/`.weak`/`.extern`
// functions and variables) is in the entries' texts and prototypes. (The whole compile, like this, emits no
// external device function that no kernel reaches, where cicc emits every one: issue 26's notes.) Several archs of one unit (one cicc run each) are kept apart by their options (optionsKey).
// Units the scheme does not cover compile whole (same output, nothing reused): -G,
// lexical/structural errors, any diagnostic (warnings included), lambdas left in a root's optimised module
// (their names are numbered across the unit; -rdc keeps every lambda's operator()), device variables whose initialisers need function bodies, and roots that disagree about a
// shared function or global (e.g. argument promotion decided differently). Such a fallback is visible:
// the answer is "compile whole" with the reason (CompileResult.incremental.fallback), and compile.ts compiles the unit whole.

import type { CompileOptions } from '../options';
import { Unsupported, CompileErrors } from '../diagnostics';
import type { CompileEnv, CompileResult, IncrementalInfo, PhaseTimes } from '../result';
import { zeroTimes } from '../result';
import { linkAndCheck } from '../link';
import { withFront } from '../front';
import type { Tokens } from '../frontend/tokens';
import { verifiedPrefix } from '../frontend/prelude';
import type { Index } from '../frontend/index-types';
import type { FuncSym, VarSym } from '../frontend/ast';
import { checkLibraryKernels } from '../frontend/libkernels';
import { Unit } from '../frontend/unit';
import { ModuleGen } from '../frontend/codegen';
import { collectRoots, stubInput, templateKernelInstances } from '../frontend/irgen';
import { generateStub } from '../frontend/stub';
import type { StubInput } from '../frontend/stub-types';
import { kernelSymbol, mangleFunction } from '../frontend/mangle';
import { newModule } from '../middle/ir';
import { optimize } from '../middle/passes';
import { emitFunction, declHeader, globalParts } from '../backend/ptx';
import { IndexHashes, declHash, rootSignatures, sha1 } from './trace';
import { record } from './record';
import { assembleUnit } from './assemble';
import { lineAnchors, rebased } from './lines';
import type { RootEntry, EntryFunc, PieceStore, StoreValue, RootTraces, UnitLevel, LastCompile, Preamble, RecentCompiles } from './store';

/** Bump when entries or their meaning change. */
const FORMAT = 'ptxd-root-2';

/** Why the unit is compiled whole. */
class Whole extends Error {}

/** The answer of an incremental compile: the result, or "compile the unit whole" and why. */
export type IncrementalAnswer = { kind: 'done'; result: CompileResult } | { kind: 'whole'; info: IncrementalInfo };

const libKeys = new WeakMap<Uint8Array, string>();
function libdeviceKey(b: Uint8Array | undefined): string {
  if (!b) return 'none';
  let k = libKeys.get(b);
  if (k === undefined) { k = sha1(Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1')); libKeys.set(b, k); }
  return k;
}

/** Options that can change a root's PTX (the stub-only file names are not among them). */
function optionsKey(o: CompileOptions): string {
  const { includeFileName: _i, stubFileName: _s, ...rest } = o;
  return JSON.stringify(rest, Object.keys(rest).sort());
}

/**
 * One share of a compile split across workers (daemon/scheduler/split.ts). Without `only`: a plan, which
 * lists in `names` the roots the store lacks and says whether this is the file's first compile (which
 * would compile whole). With `only`: compiles and stores those of the named roots the store lacks, lists
 * them in `names`, and marks the file (the unit's own compile then only assembles). Neither assembles;
 * a unit that would compile whole answers so as usual.
 */
export interface RootsPart { only?: ReadonlySet<string>; names: string[]; first?: boolean }

const noInfo = (fallback: string): IncrementalInfo => ({ fallback, unitLevelReused: false, bodyEdit: false, assemblyReused: false });

export function compileIncremental(src: string, opts: CompileOptions, env: CompileEnv, part?: RootsPart): IncrementalAnswer {
  if (opts.debug) return { kind: 'whole', info: noInfo('options (-G)') };
  // The first compile of a file (with these options) is a whole-unit compile: compiling kernels one by one
  // costs more than compiling the unit whole, and a file compiled once (a fresh build) may never change.
  // It leaves a mark; from the next compile of the file on (an edit), kernels are compiled and reused one by one.
  const optKey = optionsKey(opts);
  const pieces = env.pieces!;
  const seen = sha1([FORMAT, 'seen', optKey, libdeviceKey(env.libdevice)].join('\n'));
  if (part && !pieces.get(seen)) { if (part.only) pieces.put(seen, { traces: [] }); else part.first = true; }
  if (!part && !pieces.get(seen)) {
    pieces.put(seen, { traces: [] });
    return { kind: 'whole', info: noInfo('first compile of this file') };
  }
  const info = noInfo('');
  const times: PhaseTimes = { ...zeroTimes(), assemble: 0 };
  const clock = { t: performance.now() };
  const lap = (k: keyof PhaseTimes) => { const n = performance.now(); times[k] = (times[k] ?? 0) + n - clock.t; clock.t = n; };
  try {
    return withFront(src, env.prelude, lap, ({ toks, index, lexed }): IncrementalAnswer => {
      if ((toks.errors?.length ?? 0) > 0 || (index.errors?.length ?? 0) > 0) throw new Whole('lexical or structural errors');
      const c: RootsCompile = { src, opts, env, part, optKey, toks, index, hashes: new IndexHashes(toks, index, opts.lineInfo), info, times, clock, lap };
      return compileByRoots(c, lexed ? verifiedPrefix(lexed) : null);
    });
  } catch (e) {
    // the whole-unit compile reports errors and unsupported constructs (and our own bugs) as it always does
    info.fallback = e instanceof Unsupported ? `unsupported: ${e.reason}` : e instanceof Whole ? e.message
      : e instanceof CompileErrors ? 'errors' : `internal error: ${e instanceof Error ? e.message : String(e)}`;
    return { kind: 'whole', info };
  }
}

/** One incremental compile in progress: its inputs, the lexed unit and what it reports. */
interface RootsCompile {
  src: string; opts: CompileOptions; env: CompileEnv; part?: RootsPart; optKey: string;
  toks: Tokens; index: Index; hashes: IndexHashes;
  info: IncrementalInfo; times: PhaseTimes;
  /** When the phase being timed began (compileRoot counts its own phases and moves it on). */
  clock: { t: number };
  lap: (k: keyof PhaseTimes) => void;
}

/** The unit level found or made, then each root reused or compiled, then the module assembled. */
function compileByRoots(c: RootsCompile, prefix: ReturnType<typeof verifiedPrefix>): IncrementalAnswer {
  const { src, opts, env, part, optKey, toks, index, hashes, info, times, lap } = c;
  // an edit inside kernel bodies since this unit's last compile: nothing else needs checking
  const lastKey = `${optKey}\n${libdeviceKey(env.libdevice)}\n${toks.files[0] ?? ''}`;
  const recent = env.pieces!.recent;
  const last = part ? undefined : recent.lastCompiles.get(lastKey);
  const edited = last ? bodyEdits(last, src, prefix, toks, index, opts.lineInfo) : null;
  // the unit level: roots, device variables, stub (remembered while what it read is unchanged)
  let level: UnitLevel, base: string;
  if (last && edited) { level = last.level; base = last.base; info.unitLevelReused = true; info.bodyEdit = true; }
  else {
    const shape = hashes.shape();
    level = unitLevel(toks, index, opts, optKey, shape, hashes, info, recent);
    base = sha1([FORMAT, optKey, libdeviceKey(env.libdevice), shape].join('\n'));
  }
  const stub = fillStub(level.stub, opts);
  lap('irgen');

  const { entries, compiled, reused } = rootEntries(c, level, base, last && edited ? { last, edited } : undefined);
  if (part) return { kind: 'done', result: { ok: true, ptx: '', stub: '', diagnostics: [], times } };
  const assembled = assembleUnit(opts, level.preamble, entries, env.libdevice, recent.assemblies);
  if ('why' in assembled) throw new Whole(assembled.why);
  // a whole compile defines every one of them, after what the kernels reach: one no kernel reached is not here
  if (level.preamble.deviceFns?.some(n => !assembled.defines(n))) throw new Whole('-rdc: an external device function no kernel calls');
  info.assemblyReused = assembled.reused;
  remember(recent.lastCompiles, lastKey, src, prefix, level, base, entries, toks, index);
  lap('assemble');
  return { kind: 'done', result: { ok: true, ptx: assembled.ptx, stub, diagnostics: [], times, functions: { compiled, reused, ...(info.bodyEdit ? { byText: true } : {}) }, incremental: info } };
}

/** Each root's entry: kept from the last compile (a body edit elsewhere), found in the store, or compiled and stored. */
function rootEntries(c: RootsCompile, level: UnitLevel, base: string, kept: { last: LastCompile; edited: Set<number> } | undefined): { entries: RootEntry[]; compiled: string[]; reused: string[] } {
  const { opts, env, part, toks, index, hashes, times, clock, lap } = c;
  const { preamble, kernelDecls, varDecls, templates } = level;
  const entries: RootEntry[] = [];
  const compiled: string[] = [], reused: string[] = [];
  const fresh: [string, RootEntry][] = [];
  preamble.kernels.forEach((name, i) => {
    if (kept && !kept.edited.has(i)) { entries.push(kept.last.entries[i]!); reused.push(name); return; }
    const di = kernelDecls[i]!;
    // a specialisation: every declaration of the template's name (primary, specialisations) keys it
    const own = typeof di === 'number' ? declHash(toks, index.decls[di]!) : `template ${hashes.key(di)}`;
    const slot = sha1(`${base}\n${name}\n${own}`);
    const found = findEntry(env.pieces!, slot, hashes);
    // -lineinfo: its `.loc` lines where its declarations are now (undefined: compiled again)
    const hit = found && opts.lineInfo ? rebased(found, toks, index, hashes) : found;
    lap('assemble');
    if (hit) { entries.push(hit); reused.push(name); return; }
    if (part && !part.only) { part.names.push(name); return; }
    if (part && !part.only!.has(name)) return;
    if (part) part.names.push(name);
    const e = compileRoot(toks, index, opts, env, typeof di === 'number' ? di : templates, varDecls, name, hashes, times);
    clock.t = performance.now();   // compileRoot counted its own phases
    fresh.push([slot, e]);
    entries.push(e);
    compiled.push(name);
  });
  const store = env.pieces!;
  const save = (): void => { for (const [slot, e] of fresh) storeEntry(store, slot, e); };
  if (fresh.length > 0) { if (store.batch) store.batch(save); else save(); }
  return { entries, compiled, reused };
}


const MAX_UNIT_LEVELS = 64;

function unitLevel(toks: Tokens, index: Index, opts: CompileOptions, optKey: string, shape: string, hashes: IndexHashes, info: IncrementalInfo, recent: RecentCompiles): UnitLevel {
  const unitLevels = recent.unitLevels;
  const roots = rootSignatures(toks, index);
  const slot = roots === null ? null
    : sha1([FORMAT, 'unit', optKey, shape, roots.sigs.join('\n')].join('\n'));
  const known = slot === null ? undefined : unitLevels.get(slot);
  if (known) {
    for (const trace of known.traces) {
      const hit = known.byDigest.get(hashes.unitDigest(trace));
      if (!hit) continue;
      unitLevels.delete(slot!); unitLevels.set(slot!, known);   // most recently used last
      known.used = performance.now();
      info.unitLevelReused = true;
      return hit;
    }
  }

  const u = new Unit(toks, index, opts);
  // the roots' own names too: another declaration of a kernel (a prototype) is no lookup but may matter
  u.trace = new Set(roots?.names);
  const kernels: FuncSym[] = [], vars: VarSym[] = [];
  const templates = new Map<string, number[]>();
  const declOf = new Map<FuncSym | VarSym, number>();
  const deviceFns: FuncSym[] = [];
  collectRoots(u, kernels, vars, templates, declOf, opts.rdc ? deviceFns : undefined);
  checkLibraryKernels(u);
  // specialisations of kernel templates the unit asks for follow, in the order the whole compile finds them
  const firstSeen = new Map<FuncSym, number>();
  if (templates.size > 0) for (const k of templateKernelInstances(u, templates, firstSeen)) if (!kernels.includes(k)) kernels.push(k);
  const gen = new ModuleGen(u, opts, newModule());
  const { rec, detach } = record(gen, gen.m);
  for (const v of vars) gen.global(v);
  detach();
  if (gen.queue.length > 0 || u.diags.length > 0) throw new Whole('device variables: diagnostics or functions in initialisers');
  const preamble: Preamble = { rec, globals: {}, kernels: kernels.map(k => kernelSymbol(k, opts)), ...(deviceFns.length > 0 ? { deviceFns: deviceFns.map(f => mangleFunction(f, opts.moduleId)) } : {}) };
  const gp = globalParts(opts);
  for (const g of gen.m.globals) preamble.globals[g.name] = gp(g);
  const stub = stubTemplate(stubInput(u, kernels, vars, opts, firstSeen), opts);
  const level: UnitLevel = { preamble, stub, kernelDecls: kernels.map(k => declOf.get(k) ?? k.name), varDecls: vars.map(v => declOf.get(v)!), templates };
  if (slot !== null && templates.size === 0) {
    const trace = [...u.trace].sort();
    const digest = hashes.unitDigest(trace);
    const k = known ?? { traces: [], byDigest: new Map<string, UnitLevel>(), used: 0 };
    k.used = performance.now();
    k.traces = [trace, ...k.traces.filter(t => t.join('\n') !== trace.join('\n'))].slice(0, MAX_TRACES);
    k.byDigest.delete(digest);
    k.byDigest.set(digest, level);
    if (k.byDigest.size > MAX_TRACES) k.byDigest.delete(k.byDigest.keys().next().value!);
    unitLevels.delete(slot);
    unitLevels.set(slot, k);
    if (unitLevels.size > MAX_UNIT_LEVELS) unitLevels.delete(unitLevels.keys().next().value!);
  }
  return level;
}

/** Units remembered (each holds its text): the most recently compiled. */
const MAX_LAST_COMPILES = 16;

function remember(lastCompiles: RecentCompiles['lastCompiles'], key: string, src: string, prefix: ReturnType<typeof verifiedPrefix>, level: UnitLevel, base: string, entries: RootEntry[], toks: Tokens, index: Index): void {
  lastCompiles.delete(key);
  // kernel templates: their specialisations are found by reading the whole unit
  if (level.templates.size > 0) return;
  const bodies: LastCompile['bodies'] = [];
  for (const di of level.kernelDecls) {
    if (typeof di !== 'number') return;
    const d = index.decls[di]!;
    if (d.bodyStart < 0 || d.bodyEnd < 0) return;
    bodies.push({ di, name: d.name, open: toks.start[d.bodyStart]!, close: toks.start[d.bodyEnd]!, line: toks.line[d.bodyEnd]!, file: toks.file[d.bodyEnd]! });
  }
  const order = bodies.map((_, i) => i).sort((x, y) => bodies[x]!.open - bodies[y]!.open);
  for (let k = 1; k < order.length; k++) if (bodies[order[k]!]!.open < bodies[order[k - 1]!]!.close) return;
  const p = prefix ? { ...prefix, entry: new WeakRef(prefix.entry) } : null;
  lastCompiles.set(key, { src, prefix: p, level, base, entries: entries.slice(), bodies, order, decls: index.decls.length, used: performance.now() });
  if (lastCompiles.size > MAX_LAST_COMPILES) lastCompiles.delete(lastCompiles.keys().next().value!);
}

/**
 * The roots (positions in the unit level) whose bodies are all that differs between the last compile's text and
 * src, with the same declarations around them and no line moved after any of them (an empty set: the same
 * text); null when anything else may have changed.
 */
function bodyEdits(last: LastCompile, src: string, prefix: ReturnType<typeof verifiedPrefix>, toks: Tokens, index: Index, lineInfo: boolean): Set<number> | null {
  const old = last.src;
  if (index.decls.length !== last.decls) return null;
  // both texts were found equal to the same cached prefix: compare from where the shorter match ends
  let from = 0;
  const p = last.prefix;
  if (prefix && p && prefix.entry === p.entry.deref() && prefix.delta === p.delta && prefix.head === p.head && src.slice(0, p.head) === old.slice(0, p.head))
    from = Math.min(prefix.end, p.end);
  const changed = new Set<number>();
  // the text between bodies (braces included) must be the same
  let oldAt = from, newAt = from;
  for (const r of last.order) {
    const b = last.bodies[r]!;
    const d = index.decls[b.di]!;
    if (d.name !== b.name || d.bodyStart < 0 || d.bodyEnd < 0) return null;
    const open = toks.start[d.bodyStart]!, close = toks.start[d.bodyEnd]!;
    // (a body in the part both texts share with the cached prefix is the same; so is an opening brace there)
    if (b.close < from) { if (open !== b.open || close !== b.close) return null; continue; }
    if (b.open >= oldAt) { if (!sameText(old, oldAt, b.open + 1, src, newAt, open + 1)) return null; }
    else if (open !== b.open || oldAt !== newAt) return null;
    if (!sameText(old, b.open + 1, b.close, src, open + 1, close)) {
      // everything after it on the same lines (the stub names kernels' lines)
      if (toks.line[d.bodyEnd] !== b.line || toks.file[d.bodyEnd] !== b.file) return null;
      // -lineinfo: and in the same columns (`.loc` names them), unless nothing follows on that line
      if (lineInfo && column(src, close) !== column(old, b.close) && /\S/.test(restOfLine(old, b.close + 1))) return null;
      changed.add(r);
    }
    oldAt = b.close; newAt = close;
  }
  if (!sameText(old, oldAt, old.length, src, newAt, src.length)) return null;
  // another root that looked a changed kernel's name up depends on its declaration (whose hash changed)
  for (const c of changed) {
    const name = last.bodies[c]!.name;
    for (let j = 0; j < last.entries.length; j++) if (!changed.has(j) && last.entries[j]!.trace.includes(name)) return null;
  }
  return changed;
}

const column = (s: string, at: number): number => at - s.lastIndexOf('\n', at - 1);
function restOfLine(s: string, from: number): string {
  const nl = s.indexOf('\n', from);
  return s.slice(from, nl < 0 ? s.length : nl);
}

/** Whether a[a0, a1) equals b[b0, b1) (equal slices compare as flat memory). */
function sameText(a: string, a0: number, a1: number, b: string, b0: number, b1: number): boolean {
  return a1 - a0 === b1 - b0 && a.slice(a0, a1) === b.slice(b0, b1);
}

// The stub names two files of the nvcc run (different in every run): it is made with these placeholders, which
// nothing else in a stub can contain, and they are replaced by the run's names (stub.ts writes them as given).
const INCLUDE_PH = '\u0000include\u0000', STUB_PH = '\u0000stub\u0000';

/** generateStub() with the placeholders for the file names (what the unit level remembers). */
function stubTemplate(input: StubInput, opts: CompileOptions): string {
  return generateStub(input, { ...opts, includeFileName: INCLUDE_PH, stubFileName: STUB_PH });
}

function fillStub(template: string, opts: CompileOptions): string {
  return template.split(INCLUDE_PH).join(opts.includeFileName).split(STUB_PH).join(opts.stubFileName);
}

/** Traces kept per root declaration (older versions of what it reaches). */
const MAX_TRACES = 8;

const entryKey = (slot: string, digest: string): string => sha1(`${slot}\n${digest}`);

/** The entry for this root whose traced declarations all hash as in the current index, if any. */
function findEntry(store: PieceStore, slot: string, hashes: IndexHashes): RootEntry | undefined {
  const list = store.get(slot);
  if (!list || !('traces' in list)) return undefined;
  for (const trace of list.traces) {
    const digest = hashes.digest(trace);
    const e = store.get(entryKey(slot, digest));
    if (e && 'digest' in e && e.digest === digest && e.trace.join('\n') === trace.join('\n')) return e;
  }
  return undefined;
}

function storeEntry(store: PieceStore, slot: string, e: RootEntry): void {
  store.put(entryKey(slot, e.digest), e);
  const same = (t: string[]): boolean => t.join('\n') === e.trace.join('\n');
  const add = (old: StoreValue | undefined): RootTraces => {
    const traces = old && 'traces' in old ? old.traces.filter(t => !same(t)) : [];
    return { traces: [e.trace, ...traces].slice(0, MAX_TRACES) };
  };
  if (store.update) store.update(slot, add);
  else store.put(slot, add(store.get(slot)));
}

/** Compiles one kernel (declaration di, mangled `name`) in a unit of its own and describes the result. */
function compileRoot(toks: Tokens, index: Index, opts: CompileOptions, env: CompileEnv, root: number | Map<string, number[]>, varDecls: number[], name: string, hashes: IndexHashes, times: PhaseTimes): RootEntry {
  let t = performance.now();
  const lap = (k: keyof PhaseTimes) => { const n = performance.now(); times[k] = (times[k] ?? 0) + n - t; t = n; };
  const u = new Unit(toks, index, opts);
  // the device variables first, in index order, as the whole compile loads them (a variable declared
  // twice takes its final shape from the order its declarations are read in)
  u.trace = new Set();
  for (const vdi of varDecls) u.load(vdi);
  let k: FuncSym | undefined;
  if (typeof root === 'number') {
    // its own name too: another declaration of the kernel (a prototype) is no lookup but may matter
    u.trace.add(index.decls[root]!.name);
    k = u.load(root).find((s): s is FuncSym => s.kind === 'func' && s.isGlobal && s.bodyStart >= 0);
  } else {
    // a kernel template specialisation: found as the whole compile finds it (launches and instantiations in the unit)
    for (const n of root.keys()) u.trace.add(n);
    k = templateKernelInstances(u, root).find(f => kernelSymbol(f, opts) === name);
  }
  if (!k) throw new Whole('kernel not found');
  const m = newModule();
  const gen = new ModuleGen(u, opts, m);
  const { rec, detach } = record(gen, m);
  if (gen.func(k).name !== name) throw new Whole('kernel name differs');
  while (gen.queue.length) {
    const f = gen.queue.shift()!;
    u.parseBody(f);
    if (u.errorCount > 0) throw new Whole('errors');
    gen.emitBody(f);
  }
  detach();
  if (u.diags.length > 0) throw new Whole('diagnostics');
  const trace = [...u.trace].sort();
  const digest = hashes.digest(trace);
  // what linking libdevice adds is ordered over the whole unit at assembly: record what each body asks for
  const nvRefs: Record<string, string[]> = {};
  for (const f of m.funcs) {
    const refs: string[] = [];
    for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops)
      if (o.kind === 'func' && o.blocks.length === 0 && o.name.startsWith('__nv_') && !refs.includes(o.name)) refs.push(o.name);
    if (refs.length) nvRefs[f.name] = refs;
  }
  lap('irgen');
  linkAndCheck(m, opts, env);
  const made = m.globals.map(g => g.name);
  optimize(m, opts);
  const kept = new Set(m.globals.map(g => g.name));
  const dropped = made.filter(n => !kept.has(n));
  lap('optimize');
  // lambdas are numbered across the whole unit, so a name that mentions one must not reach the output
  // (inlined lambdas leave none: the usual case)
  if (u.lambdaCount > 0 && [...m.funcs.filter(f => f.blocks.length > 0 || f.name.startsWith('_Z')), ...m.globals].some(x => x.name.includes('__lambda_')))
    throw new Whole('a lambda left in the module');
  const funcs: Record<string, EntryFunc> = {};
  for (const f of m.funcs) {
    let header: string | null = null;
    if (!f.name.startsWith('llvm.') && !f.isKernel) { try { header = declHeader(f, opts); } catch (e) { if (!(e instanceof Unsupported)) throw e; } }
    const ef: EntryFunc = { header };
    if (f.isKernel) ef.kernel = 1;
    if (f.blocks.length > 0) { const p = emitFunction(f, opts); ef.text = p.text; ef.funcRefs = p.funcRefs; }
    funcs[f.name] = ef;
  }
  const gp = globalParts(opts);
  const globals: RootEntry['globals'] = {};
  for (const g of m.globals) globals[g.name] = gp(g);
  // -lineinfo names inlined functions in `.loc` lines (function_name): a lambda's name there is numbered across the unit too
  if (u.lambdaCount > 0 && opts.lineInfo && Object.values(funcs).some(f => f.text?.includes('__lambda_'))) throw new Whole('a lambda inlined (-lineinfo names it)');
  const anchors = opts.lineInfo ? lineAnchors(toks, index, hashes, trace, funcs) : undefined;
  if (typeof anchors === 'string') throw new Whole(anchors);
  lap('emit');
  return { trace, digest, ...rec, nvRefs, funcs, globals, ...(dropped.length ? { dropped } : {}), ...(anchors?.length ? { anchors } : {}) };
}

/**
 * The roots a compile of this unit would compile kernel by kernel (the others are in env.pieces), and
 * whether it is the file's first compile (then it would compile whole); undefined when it cannot go kernel by kernel.
 */
export function rootsToCompile(src: string, opts: CompileOptions, env: CompileEnv): { roots: string[]; first: boolean } | undefined {
  const part: RootsPart = { names: [] };
  if (compileIncremental(src, opts, env, part).kind === 'whole') return undefined;
  return { roots: part.names, first: part.first === true };
}

/** Compiles those of `roots` that env.pieces lacks and stores them; returns them, or undefined when the unit compiles whole. */
export function compileRoots(src: string, opts: CompileOptions, env: CompileEnv, roots: readonly string[]): string[] | undefined {
  const part: RootsPart = { only: new Set(roots), names: [] };
  if (compileIncremental(src, opts, env, part).kind === 'whole') return undefined;
  return part.names;
}
