// The context of one cicc call (its process, environment and output) and how the real cicc is run for it:
// what the Node client, the in-process path and the daemon (for the native client) each provide.

import type { RealRun } from './fallback';
import type { RealOutputs, UnitResponse } from '../protocol/unit';

/** Where a unit was compiled, when its fallback key leaves it out. */
export type Place = NonNullable<UnitResponse['fallbackPlace']>;

export interface CiccContext {
  /** The real cicc, when known (argv[1] under --cicc-prefix, or the capture of `ptxd compile`). */
  realCicc?: string;
  env: NodeJS.ProcessEnv;
  /** The cicc process's working directory, pid and parent (the daemon runs calls for other processes). */
  cwd: string;
  pid: number;
  ppid: number;
  stderr: (s: string) => void;
  /** Milliseconds since the process started, for the trace file. */
  now: () => number;
  /**
   * Set when the call runs inside the daemon for the native client: the last resort when the daemon
   * cannot run the real cicc itself, the fallback is handed back to the client (which execs it).
   */
  execReal?: (argv: readonly string[]) => number;
  /** How the real cicc is run and its results kept; the Node client's own when absent (realHooks). */
  real?: RealHooks;
}

/** The real cicc for a fallback or to confirm ptxd's errors: where it runs, where its result is cached. */
export interface RealHooks {
  /** Runs it (the daemon: as a compile slot, with the client's cwd and environment). */
  run(real: string, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RealRun>;
  /** Caches its result under a fallback key (with the call's place when the key leaves it out: UnitResponse.fallbackPlace). */
  save(fallbackKey: string, real: RealOutputs, ms: number, place?: Place): void;
  /** Counts a ptxd error that the real cicc did not confirm. */
  falseError(): void;
}

/** Thrown to stop with an exit code after the message has been printed. */
export class Exit extends Error {
  constructor(public readonly code: number) { super(`exit ${code}`); this.name = 'Exit'; }
}
