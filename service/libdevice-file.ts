// The toolkit's libdevice (nvvm/libdevice/libdevice.10.bc): its bytes for the compiler and its hash for
// the unit key. Found next to the real cicc that nvcc named (so a unit is keyed on the libdevice of the
// toolkit that is really in use), else under CUDA_HOME/CUDA_PATH or /usr/local/cuda. Memoised by path,
// size and mtime so a long-lived daemon notices a toolkit update.

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Libdevice { path: string; bytes: Uint8Array; hash: string }

const REL = join('libdevice', 'libdevice.10.bc');

export function libdeviceCandidates(realCicc: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const c: string[] = [];
  if (realCicc) c.push(join(dirname(realCicc), '..', REL));
  for (const root of [env.CUDA_HOME, env.CUDA_PATH, '/usr/local/cuda']) if (root) c.push(join(root, 'nvvm', REL));
  return c;
}

const memo = new Map<string, { stamp: string; lib: Libdevice }>();

/** The libdevice to use, or undefined when no toolkit has one. */
export function findLibdevice(realCicc: string | undefined, env: NodeJS.ProcessEnv): Libdevice | undefined {
  for (const p of libdeviceCandidates(realCicc, env)) {
    let st;
    try { st = statSync(p); } catch { continue; }
    if (!st.isFile()) continue;
    const stamp = `${st.size}:${st.mtimeMs}`;
    const m = memo.get(p);
    if (m && m.stamp === stamp) return m.lib;
    try {
      const bytes = readFileSync(p);
      const lib = { path: p, bytes, hash: createHash('sha256').update(bytes).digest('hex') };
      memo.set(p, { stamp, lib });
      return lib;
    } catch {
      continue;
    }
  }
  return undefined;
}
