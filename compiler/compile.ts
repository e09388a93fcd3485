// compileUnit(): the pipeline driver. A pure function from (unit text, options) to (PTX, stub, diagnostics).
// No I/O here: the client and the daemon own files, sockets and caches.

import type { CompileOptions } from './options';
import { Unsupported, CompileErrors } from './diagnostics';
import { generateIR } from './frontend/irgen';
import { generateStub } from './frontend/stub';
import { optimize } from './middle/passes';
import { emitPtx } from './backend/ptx';
import { compileIncremental } from './incremental/incremental';
import { withFront } from './front';
import { linkAndCheck } from './link';
import { zeroTimes, type CompileEnv, type CompileResult, type PhaseTimes } from './result';

export type { CompileEnv, CompileResult, PhaseTimes, IncrementalInfo } from './result';
export { checkExternalCalls, linkAndCheck } from './link';

export function compileUnit(src: string, opts: CompileOptions, env: CompileEnv = {}): CompileResult {
  if (!env.pieces) return compileWhole(src, opts, env);
  const answer = compileIncremental(src, opts, env);
  if (answer.kind === 'done') return answer.result;
  return { ...compileWhole(src, opts, { ...env, pieces: undefined }), incremental: answer.info };
}

/** The unit compiled as one module (no piece store). */
function compileWhole(src: string, opts: CompileOptions, env: CompileEnv): CompileResult {
  const times: PhaseTimes = zeroTimes();
  let t = performance.now();
  const lap = (k: keyof PhaseTimes) => { const n = performance.now(); times[k] += n - t; t = n; };
  try {
    return withFront(src, env.prelude, lap, ({ toks, index }) => {
      const fe = generateIR(toks, index, opts);
      lap('irgen');
      const errors = fe.diagnostics.filter(d => d.severity === 'error' || d.severity === 'catastrophic');
      if (errors.length > 0) return { ok: false, ptx: '', stub: '', diagnostics: fe.diagnostics, times };
      linkAndCheck(fe.module, opts, env);
      optimize(fe.module, opts);
      lap('optimize');
      const ptx = emitPtx(fe.module, opts);
      const stub = generateStub(fe.stub, opts);
      lap('emit');
      return { ok: true, ptx, stub, diagnostics: fe.diagnostics, times };
    });
  } catch (e) {
    if (e instanceof CompileErrors) return { ok: false, ptx: '', stub: '', diagnostics: e.diagnostics, times };
    if (e instanceof Unsupported) return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: e.reason, times };
    // Nesting our depth limits do not bound (parser.ts MAX_NESTING, templates.ts, consteval.ts): cicc decides.
    if (e instanceof RangeError && /call stack/.test(e.message)) return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: 'nesting too deep for ptxd (stack exhausted)', times };
    // A bug in our compiler is never a wrong output: report it as unsupported so the unit falls back.
    const msg = e instanceof Error ? `internal error: ${e.message}` : `internal error: ${String(e)}`;
    return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: msg, times };
  }
}
