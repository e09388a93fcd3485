// Records what IR generation adds to the module and in which order, per function body, so that assembly can
// replay the order a whole-unit compile would produce (functions and globals are numbered and emitted in
// first-reference order across the unit, which no single root's compile sees).

import type { Module, Func, Global } from '../middle/ir';
import type { ModuleGen } from '../frontend/codegen';
import type { FuncSym, VarSym } from '../frontend/ast';
import type { RecordDecl } from '../frontend/ctype';

/** A reference made while generating code: a function, a global variable, or a string literal (by content). */
export type Ev = ['f', string] | ['g', string] | ['s', string];

export interface Recording {
  /** Per emitted function body (mangled name): its references in order. '' holds those made outside bodies. */
  events: Record<string, Ev[]>;
  /** Functions whose first reference queues their body for generation. */
  queued: Record<string, 1>;
  /** Per global: the references its creation makes before it is added (its initialiser's strings and globals). */
  creation: Record<string, Ev[]>;
  /** String globals: name in this module → content key. */
  strs: Record<string, string>;
}

const strKey = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Instruments gen (instance properties only) until detach(); the module keeps no trace of it. */
export function record(gen: ModuleGen, m: Module): { rec: Recording; detach: () => void } {
  const rec: Recording = { events: { '': [] }, queued: {}, creation: {}, strs: {} };
  let cur = rec.events['']!;
  let inner = 0;   // inside ModuleGen.func: its own push is recorded there
  const origFunc = gen.func.bind(gen), origGlobal = gen.global.bind(gen), origString = gen.string.bind(gen), origEmit = gen.emitBody.bind(gen);
  const origVtable = gen.vtable.bind(gen);
  gen.func = (f: FuncSym): Func => {
    const q = gen.queue.length;
    inner++;
    let fn: Func;
    try { fn = origFunc(f); } finally { inner--; }
    if (gen.queue.length > q) rec.queued[fn.name] = 1;
    cur.push(['f', fn.name]);
    return fn;
  };
  gen.global = (v: VarSym): Global => {
    const n = m.globals.length, start = cur.length;
    const g = origGlobal(v);
    if (m.globals.length > n && m.globals[m.globals.length - 1] === g) rec.creation[g.name] = cur.slice(start);
    cur.push(['g', g.name]);
    return g;
  };
  // a vtable is created with the functions its initialiser names, like a variable with its initialiser
  gen.vtable = (r: RecordDecl): Global => {
    const n = m.globals.length, start = cur.length;
    const g = origVtable(r);
    // (its destructors store the vptr: references to itself are no part of its creation)
    // the references creating it made belong to it, not to the body that first asked for it (another root's
    // body may find it made already)
    if (m.globals.length > n) { rec.creation[g.name] = cur.slice(start).filter(e => !(e[0] === 'g' && e[1] === g.name)); cur.length = start; }
    cur.push(['g', g.name]);
    return g;
  };
  gen.string = (bytes: Uint8Array): Global => {
    const g = origString(bytes);
    const k = strKey(bytes);
    rec.strs[g.name] = k;
    cur.push(['s', k]);
    return g;
  };
  gen.emitBody = (f: FuncSym): void => {
    const name = origFunc(f).name;
    const prev = cur;
    cur = rec.events[name] = [];
    try { origEmit(f); } finally { cur = prev; }
  };
  // declareFunc (intrinsics, vprintf, libdevice): a lookup by name, then a push when new
  const funcs = m.funcs;
  funcs.push = (...items: Func[]): number => {
    if (inner === 0) for (const f of items) cur.push(['f', f.name]);
    return Array.prototype.push.apply(funcs, items);
  };
  funcs.find = ((pred: (f: Func, i: number, a: Func[]) => unknown, thisArg?: unknown): Func | undefined => {
    const r = Array.prototype.find.call(funcs, pred, thisArg) as Func | undefined;
    if (r && inner === 0) cur.push(['f', r.name]);
    return r;
  }) as typeof funcs.find;
  const detach = (): void => {
    delete (gen as Partial<ModuleGen>).func; delete (gen as Partial<ModuleGen>).global;
    delete (gen as Partial<ModuleGen>).string; delete (gen as Partial<ModuleGen>).emitBody; delete (gen as Partial<ModuleGen>).vtable;
    const own = funcs as unknown as Record<string, unknown>;
    delete own['push']; delete own['find'];
  };
  return { rec, detach };
}
