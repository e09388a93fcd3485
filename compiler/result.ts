// What a compile takes from its caller (CompileEnv) and gives back (CompileResult): the types every
// pipeline step and every caller of the compiler share, so that none of them imports the pipeline itself.

import type { Diagnostic } from './diagnostics';
import type { PreludeCache } from './frontend/prelude';
import type { PieceStore } from './incremental/store';

export interface PhaseTimes {
  lex: number; skim: number; irgen: number; optimize: number; emit: number;
  /** Incremental compiles: checking cached roots and assembling the module from pieces. */
  assemble?: number;
}

/** How a compile with a piece store went (what tests and stats ask; never changes outputs). */
export interface IncrementalInfo {
  /** Why the unit was compiled whole ('' when it went root by root). */
  fallback: string;
  /** A remembered unit level (roots, device variables, stub) was reused. */
  unitLevelReused: boolean;
  /** The text changed only inside kernel bodies since the unit's previous compile. */
  bodyEdit: boolean;
  /** The assembly only put new kernel texts into the unit's last assembled module. */
  assemblyReused: boolean;
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
  /**
   * Per-kernel compile: the kernels compiled and those reused; byText when the unit's text differed from its last
   * compile only inside kernel bodies (the reused ones were found unchanged by comparing the texts). Absent when
   * the per-root path was not used.
   */
  functions?: { compiled: string[]; reused: string[]; byText?: boolean };
  /** Set when the compile was given a piece store (CompileEnv.pieces). */
  incremental?: IncrementalInfo;
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

export function zeroTimes(): PhaseTimes {
  return { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 };
}
