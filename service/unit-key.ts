// The unit key: everything that can change a unit's PTX, stub or diagnostics.
//   H(format, ptxd version, compiler code hash, libdevice hash, every CompileOptions field, output-relevant
//     environment variables, the .ii bytes)
// with the unit's place (base directory, module id) taken out where it only renames (relocate.ts).
// Options are hashed field by field in sorted order, so a new option can never be silently left out.

import { createHash } from 'node:crypto';
import type { CompileOptions } from '../compiler/index';

/** Bump when the meaning of a key or value changes. */
export const KEY_FORMAT = 'ptxd-unit-2';

/**
 * Environment variables that change what the compiler produces. None do today; a variable added to
 * the compiler's behaviour must be listed here so that it becomes part of the key.
 */
export const OUTPUT_ENV_VARS: readonly string[] = [];

export interface KeyParts {
  version: string;
  compilerHash: string;
  /** sha256 of the toolkit's libdevice.10.bc, '' when there is none. */
  libdeviceHash: string;
  options: CompileOptions;
  env: Readonly<Record<string, string>>;
  source: Uint8Array;
}

export function outputEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const r: Record<string, string> = {};
  for (const k of OUTPUT_ENV_VARS) if (env[k] !== undefined) r[k] = env[k]!;
  return r;
}

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map(k => `${JSON.stringify(k)}:${stable(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

export function unitKey(p: KeyParts): string {
  const h = createHash('sha256');
  h.update(stable([KEY_FORMAT, p.version, p.compilerHash, p.libdeviceHash, p.options, p.env]));
  h.update('\0');
  h.update(p.source);
  return h.digest('hex');
}
