// compileUnit(): the pipeline driver. A pure function from (unit text, options) to (PTX, stub, diagnostics).
// No I/O here: the client and the daemon own files, sockets and caches.

import type { CompileOptions } from './options';
import { type Diagnostic, Unsupported, CompileErrors } from './diagnostics';
import type { Module } from './middle/ir';
import { lex } from './frontend/lexer';
import { skim } from './frontend/skim';
import type { PreludeCache, PreludeLexed } from './frontend/prelude';
import { generateIR } from './frontend/irgen';
import { generateStub } from './frontend/stub';
import { optimize } from './middle/passes';
import { emitPtx } from './backend/ptx';
import { linkLibdevice } from './middle/libdevice';
import { BitcodeError } from './middle/bitcode/reader';
import type { PieceStore } from './incremental/store';
import { compileIncremental } from './incremental/incremental';

export interface PhaseTimes {
  lex: number; skim: number; irgen: number; optimize: number; emit: number;
  /** Incremental compiles: checking cached roots and assembling the module from pieces. */
  assemble?: number;
}

export interface CompileResult {
  /** false when errors were diagnosed (exit 1) or the unit is unsupported. */
  ok: boolean;
  ptx: string;
  stub: string;
  diagnostics: Diagnostic[];
  /** Set when our compiler cannot handle the unit: the caller falls back to the real cicc (visibly). */
  unsupported?: string;
  times: PhaseTimes;
  /** Mangled names of the roots (kernels) compiled vs reused from the piece store; absent when the per-root path was not used. */
  /**
   * Per-kernel compile: the kernels compiled and those reused; byText when the unit's text differed from its last
   * compile only inside kernel bodies (the reused ones were found unchanged by comparing the texts).
   */
  functions?: { compiled: string[]; reused: string[]; byText?: boolean };
}

/** What the caller provides from the toolkit (the compiler itself reads no files). */
export interface CompileEnv {
  /** Contents of `$CUDA_HOME/nvvm/libdevice/libdevice.10.bc`; without it, units calling libdevice are unsupported. */
  libdevice?: Uint8Array;
  /** Lexed and skimmed prefixes of earlier units (compiler/frontend/prelude.ts). Never changes outputs. */
  prelude?: PreludeCache;
  /** Cached per-root results (compiler/incremental/): with it, an edit recompiles only the roots it affects. Never changes outputs. */
  pieces?: PieceStore;
}

/** Functions the PTX may call without a definition in the unit (provided by the CUDA driver/runtime). */
const EXTERNAL_OK = new Set(['vprintf', '__assertfail', 'malloc', 'free']);

/**
 * A call to a function that is still undefined after linking libdevice (libdevice unavailable, or any
 * other undefined function) makes the unit unsupported, so it falls back visibly instead of producing
 * PTX that fails to link.
 */
export function checkExternalCalls(m: Module, opts: CompileOptions): void {
  const missing = m.funcs.filter(f => f.blocks.length === 0 && !f.name.startsWith('llvm.') && !EXTERNAL_OK.has(f.name)
    && (!opts.rdc || f.name.startsWith('__nv_'))
    && m.funcs.some(g => g.blocks.some(b => b.insts.some(i => i.op === 'call' && i.ops[0] === f))));
  if (missing.length === 0) return;
  const names = missing.map(f => f.name).sort();
  const lib = names.filter(n => n.startsWith('__nv_'));
  throw new Unsupported(lib.length > 0 ? `libdevice not available: ${lib.join(', ')}` : `call to undefined device function: ${names.join(', ')}`);
}

/** Links the libdevice functions m calls (when libdevice is given), then rejects calls left undefined. */
export function linkAndCheck(m: Module, opts: CompileOptions, env: CompileEnv): void {
  if (env.libdevice) {
    try {
      linkLibdevice(m, env.libdevice, { arch: opts.arch, ftz: opts.ftz, precDiv: opts.precDiv, precSqrt: opts.precSqrt, fastMath: opts.fastMath });
    } catch (e) {
      if (e instanceof BitcodeError) throw new Unsupported(`cannot read libdevice: ${e.message}`);
      throw e;
    }
  }
  checkExternalCalls(m, opts);
}

export function compileUnit(src: string, opts: CompileOptions, env: CompileEnv = {}): CompileResult {
  if (env.pieces) return compileIncremental(src, opts, env, e => compileUnit(src, opts, { ...e, pieces: undefined }));
  const times: PhaseTimes = { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 };
  let t = performance.now();
  const lap = (k: keyof PhaseTimes) => { const n = performance.now(); times[k] += n - t; t = n; };
  const pre = env?.prelude;
  let lexed: PreludeLexed | undefined;
  try {
    lexed = pre ? pre.lex(src) : undefined;
    const toks = lexed ? lexed.tokens : lex(src);
    lap('lex');
    const index = pre && lexed ? pre.skim(lexed) : skim(toks);
    lap('skim');
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
  } catch (e) {
    if (e instanceof CompileErrors) return { ok: false, ptx: '', stub: '', diagnostics: e.diagnostics, times };
    if (e instanceof Unsupported) return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: e.reason, times };
    // Nesting our depth limits do not bound (parser.ts MAX_NESTING, templates.ts, consteval.ts): cicc decides.
    if (e instanceof RangeError && /call stack/.test(e.message)) return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: 'nesting too deep for ptxd (stack exhausted)', times };
    // A bug in our compiler is never a wrong output: report it as unsupported so the unit falls back.
    const msg = e instanceof Error ? `internal error: ${e.message}` : `internal error: ${String(e)}`;
    return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: msg, times };
  } finally {
    // nothing returned refers to the tokens: their arrays can serve the next lex from the same prefix
    if (pre && lexed) pre.release(lexed);
  }
}
