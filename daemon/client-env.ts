// The environment variables a cicc call of the native client needs in the daemon, and no others: the
// client's environment may hold secrets (a team-cache write key, tokens of the build) that are none of
// the daemon's business. What each is for:
//   PATH, CICC_PATH, CUDA_HOME, CUDA_PATH   finding the real cicc for a fallback (cicc/real.ts findRealCicc)
//   HOME, PTXD_CACHE_DIR                    the cache directory (fallbacks.jsonl)
//   PTXD_FALLBACK, PTXD_IN_FALLBACK         whether a fallback may run
//   PTXD_VERBOSE                            diagnostics on stderr
//   MAKEFLAGS                               make's -jN and jobserver (protocol/jobserver.ts)
//   NVCC_APPEND_FLAGS, NVCC_PREPEND_FLAGS   recorded with the unit for `ptxd watch` (watch/records.ts)
//   PTXD_BASEDIR, PTXD_CONFIG, XDG_CONFIG_HOME   the base directory left out of unit keys (service/relocate.ts)
//   OUTPUT_ENV_VARS                         anything that changes the output (service/unit-key.ts)
//   the variable `--trace-env NAME` names   the time offset of nvcc's --time trace
// scripts/build-native.js passes this list to the native client, which sends only these.

import { OUTPUT_ENV_VARS } from '../service/unit-key';

export const CLIENT_ENV_VARS: readonly string[] = [
  'PATH', 'CICC_PATH', 'CUDA_HOME', 'CUDA_PATH', 'HOME', 'PTXD_CACHE_DIR', 'PTXD_FALLBACK', 'PTXD_IN_FALLBACK',
  'PTXD_VERBOSE', 'MAKEFLAGS', 'NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS', 'PTXD_BASEDIR', 'PTXD_CONFIG', 'XDG_CONFIG_HOME',
  ...OUTPUT_ENV_VARS,
];

/** The variable cicc's `--trace-env NAME` names, if any. */
export function traceEnvName(argv: readonly string[]): string | undefined {
  let name: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--trace-env') name = argv[++i];
    else if (a.startsWith('--trace-env=')) name = a.slice('--trace-env='.length);
  }
  return name;
}

/** The part of a client's environment the daemon uses for its cicc call `argv`. */
export function clientEnv(env: Readonly<Record<string, unknown>>, argv: readonly string[]): Record<string, string> {
  const names = new Set(CLIENT_ENV_VARS);
  const trace = traceEnvName(argv);
  if (trace !== undefined) names.add(trace);
  const r: Record<string, string> = {};
  for (const k of names) {
    const v = Object.prototype.hasOwnProperty.call(env, k) ? env[k] : undefined;
    if (typeof v === 'string') r[k] = v;
  }
  return r;
}
