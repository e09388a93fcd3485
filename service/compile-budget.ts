// The compile budget (PTXD_COMPILE_BUDGET_S): how long one compile may run before it is given up and the
// unit falls back to the real cicc. Shared by the daemon's pool and the in-process client's compile thread,
// so a unit ptxd is unexpectedly slow on costs a build at most the budget on top of stock nvcc's time,
// whichever way ptxd runs.

import type { CompileResult } from '../compiler/index';

/** Default compile budget: well past what ptxd takes on any unit it handles, short of what a runaway compile costs. */
export const DEFAULT_BUDGET_S = 120;

/** PTXD_COMPILE_BUDGET_S in ms (seconds; 0 = no limit; default 120 s), undefined for no limit. */
export function compileBudgetMs(env: NodeJS.ProcessEnv): number | undefined {
  const v = env.PTXD_COMPILE_BUDGET_S;
  const n = v === undefined || v.trim() === '' ? DEFAULT_BUDGET_S : Number(v);
  if (!Number.isFinite(n) || n < 0) return DEFAULT_BUDGET_S * 1000;
  return n === 0 ? undefined : n * 1000;
}

/** The fallback reason of a compile stopped by the budget. */
export function overBudgetReason(ms: number): string {
  return `compile took longer than ${ms / 1000} s (PTXD_COMPILE_BUDGET_S)`;
}

/** A result that makes the unit fall back to the real cicc, with its reason. */
export function unsupportedResult(reason: string): CompileResult {
  return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: reason, times: { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 } };
}

/** The result of a compile whose thread died (out of memory, a crash): a fallback, never an error. */
export function crashResult(why: string): CompileResult {
  return unsupportedResult(`internal error: compile worker died (${why})`);
}
