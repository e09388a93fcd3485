// libdevice linking. The toolkit's libdevice.10.bc (bytes handed in by the caller: the compiler does no
// I/O) is read once per content hash; each function is prepared (NVVMReflect applied, dead paths folded)
// once per (hash, arch, ftz, prec_div, prec_sqrt, fast-math) on first use; a unit receives private copies
// of only the `__nv_*` functions it calls, transitively, with internal linkage like cicc's (so they vanish
// once inlined, and are emitted as .func only when still called, e.g. at -O0).

import { createHash } from 'node:crypto';
import type { Module, Func, Global, Value, Const, Inst, Block, Arg } from './ir';
import { declareFunc } from './ir';
import { readBitcodeLazy, type LazyBitcodeModule } from './bitcode/reader';
import { applyReflect, type ReflectConfig } from './reflect';
import { Unsupported } from '../diagnostics';
import { instSimplify } from './passes/instsimplify';
import { dce } from './passes/dce';
import { defaultOptions } from '../options';

interface Library { lazy: LazyBitcodeModule; byName: Map<string, Func> }

const hashes = new WeakMap<Uint8Array, string>();
const libraries = new Map<string, Library>();
const prepared = new Map<string, Map<string, Func>>();

/** Content hash of a libdevice image (also part of the daemon's unit key). */
export function libdeviceHash(bytes: Uint8Array): string {
  let h = hashes.get(bytes);
  if (!h) { h = createHash('sha256').update(bytes).digest('hex'); hashes.set(bytes, h); }
  return h;
}

function library(bytes: Uint8Array): Library {
  const h = libdeviceHash(bytes);
  let lib = libraries.get(h);
  if (!lib) {
    // bodies are read on first use: a unit needs a handful of the library's ~350 functions
    const lazy = readBitcodeLazy(bytes);
    lib = { lazy, byName: new Map(lazy.module.funcs.map(f => [f.name, f])) };
    libraries.set(h, lib);
  }
  return lib;
}

/** The type of a libdevice function, or undefined when the library has none of that name. */
export function libdeviceFuncType(bytes: Uint8Array, name: string): Func['fnTy'] | undefined {
  return library(bytes).byName.get(name)?.fnTy;
}

const configKey = (h: string, c: ReflectConfig): string => `${h}/${c.arch}/${+c.ftz}${+c.precDiv}${+c.precSqrt}${+c.fastMath}`;

/** A library function with reflect applied for this configuration (shared, never mutated after creation). */
function preparedFunc(lib: Library, key: string, cfg: ReflectConfig, name: string): Func | null {
  let fns = prepared.get(key);
  if (!fns) { fns = new Map(); prepared.set(key, fns); }
  let f = fns.get(name);
  if (f) return f;
  const src = lib.byName.get(name);
  if (!src || !lib.lazy.hasBody(src)) return null;
  lib.lazy.materialize(src);
  f = cloneFunc(src, v => v);
  applyReflect(f, cfg);
  // fold the library's constant expressions (e.g. `bitcast i32 K to float` / 252.0 in expf) as cicc does,
  // IEEE-exact whatever -prec_div says: it is constant folding, not a division the target performs
  // LLVM 3.8 spelled negation `fsub -0.0, x`; it is `fneg x` (cicc emits neg.f32, not sub.rn.f32, under -fmad=0)
  for (const b of f.blocks) for (const i of b.insts) {
    const z = i.ops[0];
    if (i.op === 'fsub' && z?.kind === 'fp' && z.value === 0 && Object.is(z.value, -0)) { i.op = 'fneg'; i.ops = [i.ops[1]!]; }
  }
  const foldOpts = { ...defaultOptions(), arch: cfg.arch, ftz: cfg.ftz, precDiv: true, precSqrt: true };
  for (let k = 0; k < 4 && instSimplify(f, foldOpts); k++) dce(f);
  fns.set(name, f);
  return f;
}

/** Deep copy of a function body; `mapRef` maps globals and functions referenced by it. */
function cloneFunc(src: Func, mapRef: (v: Global | Func) => Value): Func {
  const vmap = new Map<Value, Value>();
  const params: Arg[] = src.params.map(a => { const c: Arg = { ...a, attrs: a.attrs.slice() }; vmap.set(a, c); return c; });
  const f: Func = { ...src, params, blocks: [], attrs: { ...src.attrs } };
  const bmap = new Map<Block, Block>();
  for (const b of src.blocks) bmap.set(b, { name: b.name, insts: [], parent: f });
  const insts: Inst[] = [];
  for (const b of src.blocks) {
    const nb = bmap.get(b)!;
    for (const i of b.insts) {
      const c: Inst = { ...i, ops: i.ops.slice(), targets: i.targets.map(t => bmap.get(t)!), parent: nb,
        idx: i.idx?.slice(), fmf: i.fmf?.slice() };
      vmap.set(i, c);
      nb.insts.push(c);
      insts.push(c);
    }
  }
  const constMap = new Map<Value, Value>();
  const mapValue = (v: Value): Value => {
    const local = vmap.get(v);
    if (local) return local;
    if (v.kind === 'global' || v.kind === 'func') return mapRef(v);
    if (v.kind === 'cexpr' || v.kind === 'agg') {
      let m = constMap.get(v);
      if (!m) { m = mapConst(v, mapRef); constMap.set(v, m); }
      return m;
    }
    return v;
  };
  for (const c of insts) c.ops = c.ops.map(mapValue);
  f.blocks = src.blocks.map(b => bmap.get(b)!);
  return f;
}

function mapConst(c: Const, mapRef: (v: Global | Func) => Value): Const {
  if (c.kind === 'cexpr') {
    const base = c.base.kind === 'global' || c.base.kind === 'func' ? mapRef(c.base) as Global | Func : mapConst(c.base, mapRef);
    return { ...c, base, indices: c.indices?.map(x => mapConst(x, mapRef)) };
  }
  if (c.kind === 'agg') return { ...c, elems: c.elems.map(x => mapConst(x, mapRef)) };
  return c;
}

/** Names of functions the module calls or references without defining them. */
function undefinedRefs(m: Module): Set<Func> {
  const out = new Set<Func>();
  for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts) for (const o of i.ops)
    if (o.kind === 'func' && o.blocks.length === 0) out.add(o);
  return out;
}

const isLibName = (n: string): boolean => n.startsWith('__nv_');

/**
 * Under -fast-math cicc calls the approximate libdevice variants for these (observed: sinf → sin.approx.f32,
 * powf → lg2/ex2.approx, tanhf → tanh.approx.f32, ...); expm1f, log1pf, rsqrtf, exp2f and doubles are unchanged.
 */
const FAST_MATH_VARIANT = new Set(['sinf', 'cosf', 'tanf', 'sincosf', 'expf', 'exp10f', 'logf', 'log2f', 'log10f', 'powf', 'tanhf']);

/** -fast-math: redirect calls of the precise functions above to their `__nv_fast_*` variants. */
function useFastVariants(m: Module): void {
  const repl = new Map<Func, Func>();
  for (const f of m.funcs) {
    const base = f.name.startsWith('__nv_') ? f.name.slice(5) : '';
    if (f.blocks.length === 0 && FAST_MATH_VARIANT.has(base)) repl.set(f, declareFunc(m, `__nv_fast_${base}`, f.fnTy, { ...f.attrs }));
  }
  if (repl.size === 0) return;
  for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts)
    if (i.op === 'call' && repl.has(i.ops[0] as Func)) i.ops[0] = repl.get(i.ops[0] as Func)!;
  m.funcs = m.funcs.filter(f => !repl.has(f));
}

/**
 * Link the libdevice functions `m` calls (and what they call) into `m`. A no-op when the unit calls none.
 * Throws Unsupported when a called `__nv_*` function is not in the library or its signature differs.
 */
export function linkLibdevice(m: Module, bytes: Uint8Array, cfg: ReflectConfig): void {
  if (cfg.fastMath) useFastVariants(m);
  const wanted = [...undefinedRefs(m)].filter(f => isLibName(f.name));
  if (wanted.length === 0) return;
  const lib = library(bytes);
  const key = configKey(libdeviceHash(bytes), cfg);
  const funcs = new Map(m.funcs.map(f => [f.name, f]));
  const globals = new Map<Global, Global>();
  const taken = new Set(m.globals.map(g => g.name));
  const work: Func[] = [];

  const linkGlobal = (g: Global): Global => {
    let c = globals.get(g);
    if (c) return c;
    let name = g.name;
    for (let k = 1; taken.has(name); k++) name = `${g.name}.${k}`;
    taken.add(name);
    c = { ...g, name, linkage: g.linkage === 'external' ? 'internal' : g.linkage };
    globals.set(g, c);
    if (g.init) c.init = mapConst(g.init, ref);
    m.globals.push(c);
    return c;
  };
  const linkFunc = (f: Func): Func => {
    const have = funcs.get(f.name);
    if (have) {
      if (have.fnTy !== f.fnTy) throw new Unsupported(`libdevice function ${f.name} called with a different signature`);
      return have;
    }
    const d = declareFunc(m, f.name, f.fnTy, { ...f.attrs });
    funcs.set(f.name, d);
    if (lib.lazy.hasBody(f)) work.push(d);
    return d;
  };
  function ref(v: Global | Func): Value { return v.kind === 'global' ? linkGlobal(v) : linkFunc(v); }

  for (const d of wanted) {
    const src = lib.byName.get(d.name);
    if (!src || !lib.lazy.hasBody(src)) throw new Unsupported(`${d.name} is not in libdevice`);
    if (lib.byName.get(d.name)!.fnTy !== d.fnTy) throw new Unsupported(`libdevice function ${d.name} called with a different signature`);
    work.push(d);
  }
  const done = new Set<Func>();
  while (work.length > 0) {
    const d = work.pop()!;
    if (done.has(d)) continue;
    done.add(d);
    const p = preparedFunc(lib, key, cfg, d.name);
    if (!p) throw new Unsupported(`${d.name} is not in libdevice`);
    const body = cloneFunc(p, ref);
    d.params = body.params;
    d.blocks = body.blocks;
    for (const b of d.blocks) b.parent = d;
    d.attrs = { ...p.attrs };
    d.linkage = 'internal';
  }
  // The library's tables (__cudart_i2opi_f, ...) are plain globals that nothing writes: constant, as
  // LLVM's global optimiser finds them (loads then fold, or go through the read-only cache).
  for (const c of globals.values()) if (!c.isConstant && c.linkage === 'internal' && neverWritten(m, c)) c.isConstant = true;
}

/** No instruction of m stores into g, passes its address on, or lets it escape (only loads through geps/casts). */
function neverWritten(m: Module, g: Global): boolean {
  for (const f of m.funcs) {
    const derived = new Set<Value>([g]);
    const isDerived = (v: Value): boolean => derived.has(v) || (v.kind === 'cexpr' && isDerived(v.base as Value));
    const isAddrStep = (i: Inst): boolean => (i.op === 'gep' || i.op === 'bitcast' || i.op === 'addrspacecast') && isDerived(i.ops[0]!) && !i.ops.slice(1).some(isDerived);
    // addresses computed from g, whatever the block order
    for (let grew = true; grew;) {
      grew = false;
      for (const b of f.blocks) for (const i of b.insts) if (!derived.has(i) && isAddrStep(i)) { derived.add(i); grew = true; }
    }
    for (const b of f.blocks) for (const i of b.insts) {
      if (!i.ops.some(isDerived) || derived.has(i)) continue;
      if (i.op === 'load' && i.ops.length === 1) continue;
      return false;
    }
  }
  for (const o of m.globals) if (o.init && o !== g && constRefers(o.init, g)) return false;
  return true;
}
function constRefers(c: Value, g: Global): boolean {
  if (c === g) return true;
  if (c.kind === 'cexpr') return constRefers(c.base as Value, g);
  if (c.kind === 'agg') return c.elems.some(e => constRefers(e, g));
  return false;
}
