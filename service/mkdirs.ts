// Directory creation with a bound: one mkdir per path component, never a retry loop. Node's recursive
// mkdirSync spins forever at 100% CPU where the kernel answers ENOENT for a parent that exists (/proc).

import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

function fail(code: string, path: string): never {
  throw Object.assign(new Error(`${code}: cannot create directory '${path}'`), { code, path });
}

/** Creates `dir` and its missing parents (like `mkdir -p`); throws with the errno name when it cannot. */
export function makeDirs(dir: string, mode?: number): void {
  const target = resolve(dir);
  const missing: string[] = [];
  // Walk up to the nearest existing ancestor (at most one step per component), then create downwards.
  for (let p = target; ; p = dirname(p)) {
    let isDir: boolean | undefined;
    try { isDir = statSync(p).isDirectory(); } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') fail(code ?? 'EIO', p);
    }
    if (isDir === false) fail('ENOTDIR', p);
    if (isDir) break;
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p, mode === undefined ? undefined : { mode });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
      // Someone else created it meanwhile: fine if it is a directory.
      if (code === 'EEXIST' && statSync(p, { throwIfNoEntry: false })?.isDirectory()) continue;
      fail(code === 'EEXIST' ? 'ENOTDIR' : code, p);
    }
  }
}
