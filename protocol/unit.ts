// One unit request and its response: what a client sends the daemon (or the in-process service) to have a
// unit compiled, and what comes back.

import type { CompileOptions, Diagnostic, PhaseTimes } from '../compiler/index';
import { createHash } from 'node:crypto';

export interface UnitRequest {
  /** Absolute path of the .ii. */
  input: string;
  /** Options with the module id filled in. */
  options: CompileOptions;
  /** The real cicc nvcc named (locates the toolkit's libdevice). */
  realCicc?: string;
  /** Output-relevant environment variables of the client (service/unit-key.ts OUTPUT_ENV_VARS). */
  env: Record<string, string>;
  /**
   * Set when the client runs under a GNU make jobserver: its build's identity and make's -jN (0: no limit);
   * tokens: the client can reach the jobserver and take extra tokens for this request. Scheduling only, never part of the key.
   */
  make?: { build: string; jobs: number; tokens?: boolean };
  /**
   * Set when a unit ptxd cannot compile or rejects will be confirmed by the real cicc (not with
   * PTXD_FALLBACK=never): the call's part of the fallback key (cicc/fallback.ts fallbackIdentity), and the
   * same with the base directory left out (freeKey). The real cicc's cached result is then looked up with the unit.
   */
  fallback?: { argvKey: string; freeKey?: string };
  /**
   * The checkout's base directory (PTXD_BASEDIR / config "baseDir"): names under it are left out of the
   * unit key, so that checkouts at other paths share results (service/relocate.ts).
   */
  baseDir?: string;
}

export interface UnitResponse {
  /** ok: PTX and stub; errors: diagnostics only; unsupported: fall back; unreadable: input not readable. */
  status: 'ok' | 'errors' | 'unsupported' | 'unreadable' | 'real';
  ptx: string;
  stub: string;
  diagnostics: Diagnostic[];
  reason?: string;
  times?: PhaseTimes;
  /** Served from the unit cache. */
  cached: boolean;
  compileMs: number;
  /** Lines for the client to print on stderr (e.g. the cache is disabled). */
  warnings: string[];
  /** Roots compiled vs reused from the piece store (CompileResult.functions); absent when the unit compiled whole. */
  functions?: { compiled: string[]; reused: string[] };
  /** status 'real': the real cicc's cached outputs for this unit and call (it failed or fell back before). */
  real?: RealOutputs;
  /** Where the real cicc's result for this call is cached (requests with `fallback` and a cache). */
  fallbackKey?: string;
  /** Set when fallbackKey leaves the place out: the result is saved with it (service/relocate.ts moves it). */
  fallbackPlace?: { baseDir: string; moduleId: string };
}

/** What the real cicc wrote: its output files by role (latin1 text, placeholders for per-call names) and its stderr. */
export interface RealOutputs { files: Record<string, string>; stderr: string }

/** Bump when the meaning of a fallback key or value changes. */
export const FALLBACK_FORMAT = 'ptxd-fallback-1';

/** The fallback key: everything the ptxd key covers (source, options, ptxd and libdevice) plus the call's identity (cicc/fallback.ts fallbackIdentity). */
export function fallbackKey(unitKey: string, argvKey: string): string {
  return createHash('sha256').update(`${FALLBACK_FORMAT}\0${unitKey}\0${argvKey}`).digest('hex');
}

/** What the client knows about where a cicc call came from. */
export interface UnitOrigin {
  /** cicc's working directory (nvcc's: nvcc does not change directory). */
  cwd: string;
  /** The cicc argv, the real cicc first when nvcc ran us under --cicc-prefix. */
  cicc: string[];
  /** nvcc's argv with argv[0] the absolute nvcc executable; absent when nvcc was not found above us. */
  nvcc?: string[];
  /** nvcc's working directory. */
  nvccCwd?: string;
  /** NVCC_APPEND_FLAGS / NVCC_PREPEND_FLAGS of the build (they change what nvcc runs but are not in its argv). */
  env: Record<string, string>;
}
