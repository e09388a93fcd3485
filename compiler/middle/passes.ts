// The optimisation pipeline: which passes run, in which order, how often (the passes live in passes/,
// the analyses they share in analysis/).
import type { CompileOptions } from '../options';
import type { Func, Inst, Module } from './ir';
import { inferReadonly } from './analysis/readonly';
import { sroa, speculatePtrLoads } from './passes/sroa';
import { inferAddressSpaces } from './passes/addrspace';
import { licm } from './passes/licm';
import { unrollLoops } from './passes/unroll';
import { rotateLoops } from './passes/rotate';
import { runtimeUnroll } from './passes/runtime-unroll';
import { strengthReduce } from './passes/lsr';
import { formSelects } from './passes/select';
import { promoteArgs } from './passes/argpromote';
import { separateConstOffsets } from './passes/constoffset';
import { propagateEqualities } from './passes/equality';
import { mem2reg } from './passes/mem2reg';
import { instSimplifyReport } from './passes/instsimplify';
import { instCombine } from './passes/instcombine';
import { reassociate } from './passes/reassociate';
import { cse } from './passes/cse';
import { dce } from './passes/dce';
import { overwrittenStores } from './passes/dse';
import { simplifyCFG } from './passes/simplifycfg';
import { inlineCalls } from './passes/inline';
import { expandRemainders } from './passes/remainders';
import { removeDeadGlobals } from './passes/deadglobals';

// the entry points tests and tools use by their old home
export { simplifyInst } from './passes/instsimplify';
export { inlineSummary, type InlineSummary } from './passes/inline';

/**
 * The pipeline. -O0: nothing (the backend copes with raw front-end IR). Otherwise:
 *  1. per function, a cheap cleanup (SROA, mem2reg, simplification) so that callee summaries are small
 *     and stable;
 *  2. Phase I (module): the inliner, whose decisions depend only on callee summaries and a per-caller
 *     budget (never on what happens in other callers), then removal of functions nobody can call;
 *  3. Phase II (per function): the full function pipeline. It reads nothing outside the function.
 */
export function optimize(m: Module, opts: CompileOptions): void {
  if (opts.optLevel === 0) return;
  const indirect = indirectCalls(m);
  for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  if (inlineCalls(m, opts)) for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  // virtual calls the cleanup bound to a known function (the object's constructor was inlined) get their
  // own chance to be inlined, as after LLVM's devirtualisation
  if (indirect.some(i => i.parent && i.ops[0]!.kind === 'func') && inlineCalls(m, opts)) for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  // on cleaned-up callees: calls that remain pass scalars, not the address of the caller's object
  if (promoteArgs(m, opts)) for (const f of m.funcs) if (f.blocks.length) cleanupFunction(f, opts);
  inferReadonly(m);
  for (const f of m.funcs) if (f.blocks.length) optimizeFunction(f, opts);
  removeDeadGlobals(m);
}

function indirectCalls(m: Module): Inst[] {
  const out: Inst[] = [];
  for (const f of m.funcs) for (const b of f.blocks) for (const i of b.insts) if (i.op === 'call' && i.ops[0]!.kind === 'inst') out.push(i);
  return out;
}

/**
 * What the function pipeline knows about which passes have nothing left to do. Every pass is a function of
 * the function's IR alone (and the options, fixed for a compile) and reports whether it changed anything:
 * a pass that changed nothing has nothing to do until some other pass changes the function, so it is not
 * run again until then. Skipping it changes no output (it would return false and leave f as it is); the
 * cost saved is the last rounds of each fixpoint and the cleanups that follow a pass that did nothing.
 */
class Progress {
  /** Bumped by every change to the function. */
  private version = 0;
  /** The version at which each pass last ran without changing anything. */
  private readonly idle = new Map<string, number>();

  /** Runs the pass unless it is idle. A pass may answer 'swapped': it changed f, but not in a way the fixpoints count. */
  run(name: string, pass: () => boolean | 'swapped'): boolean {
    if (this.idle.get(name) === this.version) return false;
    const changed = pass();
    if (changed === false) this.idle.set(name, this.version); else this.version++;
    return changed === true;
  }
}

function cleanupFunction(f: Func, opts: CompileOptions, p = new Progress()): void {
  p.run('simplifyCFG', () => simplifyCFG(f));
  for (let it = 0; it < 4; it++) {
    p.run('dce', () => dce(f)); // a dead use (a leftover pointer phi or gep) must not keep an alloca in memory
    let changed = p.run('speculatePtrLoads', () => speculatePtrLoads(f));
    changed = p.run('sroa', () => sroa(f)) || changed;
    changed = p.run('mem2reg', () => mem2reg(f)) || changed;
    if (!changed) break;
  }
  scalarCleanup(f, opts, p);
}

function scalarCleanup(f: Func, opts: CompileOptions, p: Progress): void {
  for (let it = 0; it < 10; it++) {
    let changed = p.run('instCombine', () => instCombine(f));
    changed = p.run('instSimplify', () => instSimplifyReport(f, opts)) || changed;
    changed = p.run('cse', () => cse(f)) || changed;
    changed = p.run('dce', () => dce(f)) || changed;
    changed = p.run('overwrittenStores', () => overwrittenStores(f)) || changed;
    changed = p.run('simplifyCFG', () => simplifyCFG(f)) || changed;
    if (opts.optLevel >= 2) changed = p.run('formSelects', () => formSelects(f)) || changed;
    if (!changed) break;
  }
}

/** Phase II for one function. */
export function optimizeFunction(f: Func, opts: CompileOptions): void {
  const p = new Progress();
  cleanupFunction(f, opts, p);
  // full unrolling exposes constant indices: scalar cleanup folds them, then SROA/mem2reg run again
  if (opts.optLevel >= 2 && p.run('unrollLoops', () => unrollLoops(f, opts))) { scalarCleanup(f, opts, p); cleanupFunction(f, opts, p); }
  // sums of unrolled copies (`t + 0 + t + 1 + ...`) as one product and a constant (LLVM's Reassociate)
  if (opts.optLevel >= 2 && p.run('reassociate', () => reassociate(f))) scalarCleanup(f, opts, p);
  if (opts.optLevel >= 2) p.run('inferAddressSpaces', () => inferAddressSpaces(f));
  scalarCleanup(f, opts, p);
  if (opts.optLevel >= 2 && p.run('licm', () => licm(f))) scalarCleanup(f, opts, p);
  if (opts.optLevel >= 2 && p.run('propagateEqualities', () => propagateEqualities(f))) scalarCleanup(f, opts, p);
  // loops tested at the bottom, after full unrolling (which reads the top-tested shape) and LICM
  if (opts.optLevel >= 2 && p.run('rotateLoops', () => rotateLoops(f))) scalarCleanup(f, opts, p);
  // innermost loops with a run-time trip count, by 4 with a remainder loop (cicc at -O3)
  // (the trip-count arithmetic of an inner loop is invariant in the outer loop: LICM takes it out)
  if (opts.optLevel >= 3 && p.run('runtimeUnroll', () => runtimeUnroll(f))) { scalarCleanup(f, opts, p); if (p.run('licm', () => licm(f))) scalarCleanup(f, opts, p); }
  // addresses stepped as pointers in innermost loops (after unrolling, which multiplies them)
  // (the pointers' start and step in an inner loop's preheader are often invariant in the outer loop: LICM)
  if (opts.optLevel >= 2 && p.run('strengthReduce', () => strengthReduce(f))) { p.run('cse', () => cse(f)); p.run('dce', () => dce(f)); p.run('licm', () => licm(f)); }
  if (opts.optLevel >= 2 && p.run('expandRemainders', () => expandRemainders(f))) { p.run('cse', () => cse(f)); p.run('dce', () => dce(f)); }
  if (opts.optLevel >= 2 && p.run('separateConstOffsets', () => separateConstOffsets(f))) { p.run('cse', () => cse(f)); p.run('dce', () => dce(f)); }
}
