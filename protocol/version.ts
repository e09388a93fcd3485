// Identity of this ptxd build, for the cache key and the daemon handshake.
// - ptxdVersion(): package.json's version.
// - compilerHash(): a hash of the compiler's code (dist/compiler/**.js, or compiler/**.ts when run from
//   source). It goes into every unit key, so a rebuilt compiler never serves PTX from an older one even
//   when the version number was not bumped.
// - buildStamp(): a cheap stamp (names, sizes and mtimes of client/daemon/compiler code) that the thin
//   client computes on every call; a daemon whose stamp differs is running other code and is replaced.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** dist/ when running compiled code, the repository root when running from source. */
const CODE_ROOT = resolve(__dirname, '..');
/** The repository root either way. */
export const REPO_ROOT = CODE_ROOT.endsWith('/dist') ? resolve(CODE_ROOT, '..') : CODE_ROOT;
/** The drop-in cicc nvcc runs (a script that runs the native client when it is built, else Node). */
export const SCRIPT_CLIENT = join(REPO_ROOT, 'bin', 'ptxd-cicc');
/** The native client, built by `npm run build` (scripts/build-native.js) when a C compiler is present. */
export const NATIVE_CLIENT = join(REPO_ROOT, 'dist', 'native', 'ptxd-cicc');

let version: string | undefined;
export function ptxdVersion(): string {
  if (version === undefined) {
    try {
      version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

function codeFiles(dir: string, out: string[]): string[] {
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return out; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) codeFiles(p, out);
    else if ((e.name.endsWith('.js') || e.name.endsWith('.ts')) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

let compiler: string | undefined;
export function compilerHash(): string {
  if (compiler === undefined) {
    const h = createHash('sha256');
    for (const f of codeFiles(join(CODE_ROOT, 'compiler'), [])) {
      h.update(relative(CODE_ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
    }
    compiler = h.digest('hex').slice(0, 32);
  }
  return compiler;
}

let stamp: string | undefined;
export function buildStamp(): string {
  if (stamp === undefined) {
    const h = createHash('sha256').update(ptxdVersion());
    for (const sub of ['client', 'daemon', 'compiler']) {
      for (const f of codeFiles(join(CODE_ROOT, sub), [])) {
        const s = statSync(f);
        h.update(`${relative(CODE_ROOT, f)}\0${s.size}\0${s.mtimeMs}\0`);
      }
    }
    stamp = h.digest('hex').slice(0, 16);
  }
  return stamp;
}

/** -1, 0, 1 comparing dotted version numbers (pre-release tags ignored). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(x => Number(x) || 0), pb = b.split(/[.-]/).map(x => Number(x) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}
