// compileUnit(): the pipeline driver. A pure function from (unit text, options) to (PTX, stub, diagnostics).
// No I/O here: the client and the daemon own files, sockets and caches.

import type { CompileOptions } from './options';
import { type Diagnostic, Unsupported, CompileErrors } from './diagnostics';
import { lex } from './frontend/lexer';
import { skim } from './frontend/skim';
import { generateIR } from './frontend/irgen';
import { generateStub } from './frontend/stub';
import { optimize } from './middle/passes';
import { emitPtx } from './backend/ptx';

export interface PhaseTimes { lex: number; skim: number; irgen: number; optimize: number; emit: number }

export interface CompileResult {
  /** false when errors were diagnosed (exit 1) or the unit is unsupported. */
  ok: boolean;
  ptx: string;
  stub: string;
  diagnostics: Diagnostic[];
  /** Set when our compiler cannot handle the unit: the caller falls back to the real cicc (visibly). */
  unsupported?: string;
  times: PhaseTimes;
}

export function compileUnit(src: string, opts: CompileOptions): CompileResult {
  const times: PhaseTimes = { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 };
  let t = performance.now();
  const lap = (k: keyof PhaseTimes) => { const n = performance.now(); times[k] += n - t; t = n; };
  try {
    const toks = lex(src);
    lap('lex');
    const index = skim(toks);
    lap('skim');
    const fe = generateIR(toks, index, opts);
    lap('irgen');
    const errors = fe.diagnostics.filter(d => d.severity === 'error' || d.severity === 'catastrophic');
    if (errors.length > 0) return { ok: false, ptx: '', stub: '', diagnostics: fe.diagnostics, times };
    optimize(fe.module, opts);
    lap('optimize');
    const ptx = emitPtx(fe.module, opts);
    const stub = generateStub(fe.stub, opts);
    lap('emit');
    return { ok: true, ptx, stub, diagnostics: fe.diagnostics, times };
  } catch (e) {
    if (e instanceof CompileErrors) return { ok: false, ptx: '', stub: '', diagnostics: e.diagnostics, times };
    if (e instanceof Unsupported) return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: e.reason, times };
    // A bug in our compiler is never a wrong output: report it as unsupported so the unit falls back.
    const msg = e instanceof Error ? `internal error: ${e.message}` : `internal error: ${String(e)}`;
    return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: msg, times };
  }
}
