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
import { instSimplify } from './passes/instsimplify';
import { instCombine } from './passes/instcombine';
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

function cleanupFunction(f: Func, opts: CompileOptions): void {
  simplifyCFG(f);
  for (let it = 0; it < 4; it++) {
    dce(f); // a dead use (a leftover pointer phi or gep) must not keep an alloca in memory
    let changed = speculatePtrLoads(f);
    changed = sroa(f) || changed;
    changed = mem2reg(f) || changed;
    if (!changed) break;
  }
  scalarCleanup(f, opts);
}

function scalarCleanup(f: Func, opts: CompileOptions): void {
  for (let it = 0; it < 10; it++) {
    let changed = instCombine(f);
    changed = instSimplify(f, opts) || changed;
    changed = cse(f) || changed;
    changed = dce(f) || changed;
    changed = overwrittenStores(f) || changed;
    changed = simplifyCFG(f) || changed;
    if (opts.optLevel >= 2) changed = formSelects(f) || changed;
    if (!changed) break;
  }
}

/** Phase II for one function. */
export function optimizeFunction(f: Func, opts: CompileOptions): void {
  cleanupFunction(f, opts);
  // full unrolling exposes constant indices: scalar cleanup folds them, then SROA/mem2reg run again
  if (opts.optLevel >= 2 && unrollLoops(f, opts)) { scalarCleanup(f, opts); cleanupFunction(f, opts); }
  if (opts.optLevel >= 2) inferAddressSpaces(f);
  scalarCleanup(f, opts);
  if (opts.optLevel >= 2 && licm(f)) scalarCleanup(f, opts);
  if (opts.optLevel >= 2 && propagateEqualities(f)) scalarCleanup(f, opts);
  // loops tested at the bottom, after full unrolling (which reads the top-tested shape) and LICM
  if (opts.optLevel >= 2 && rotateLoops(f)) scalarCleanup(f, opts);
  // innermost loops with a run-time trip count, by 4 with a remainder loop (cicc at -O3)
  // (the trip-count arithmetic of an inner loop is invariant in the outer loop: LICM takes it out)
  if (opts.optLevel >= 3 && runtimeUnroll(f)) { scalarCleanup(f, opts); if (licm(f)) scalarCleanup(f, opts); }
  // addresses stepped as pointers in innermost loops (after unrolling, which multiplies them)
  // (the pointers' start and step in an inner loop's preheader are often invariant in the outer loop: LICM)
  if (opts.optLevel >= 2 && strengthReduce(f)) { cse(f); dce(f); licm(f); }
  if (opts.optLevel >= 2 && expandRemainders(f)) { cse(f); dce(f); }
  if (opts.optLevel >= 2 && separateConstOffsets(f)) { cse(f); dce(f); }
}
