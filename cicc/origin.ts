// Where a cicc call came from, for `ptxd watch` without a compile database. ptxd-cicc only sees cicc's
// argv, but nvcc is its grandparent (nvcc runs each step through `sh -c`): /proc gives nvcc's command line,
// executable and working directory. Imports nothing but node: the thin client loads this file on every compile.

import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import type { UnitOrigin } from '../protocol/unit';

const ENV_KEYS = ['NVCC_APPEND_FLAGS', 'NVCC_PREPEND_FLAGS'];

function procArgv(pid: number): string[] | undefined {
  try {
    const a = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
    if (a[a.length - 1] === '') a.pop();
    return a.length > 0 ? a : undefined;
  } catch { return undefined; }
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const s = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const ppid = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
    return ppid > 1 ? ppid : undefined;
  } catch { return undefined; }
}

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ksh', 'busybox']);

/**
 * The path nvcc was started by, made absolute (relative to its cwd, or found on its PATH), when it is
 * the running executable: nvcc writes the toolkit's include paths as it was called
 * (/usr/local/cuda/bin/../targets/…), so its realpath would give other .ii bytes and miss the cache.
 */
function invokedAs(arg0: string, exe: string, cwd: string, pid: number): string {
  const same = (p: string) => { try { return realpathSync(p) === exe; } catch { return false; } };
  if (arg0.includes('/')) { const p = resolve(cwd, arg0); return same(p) ? p : exe; }
  let path = '';
  try {
    path = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').find(v => v.startsWith('PATH='))?.slice(5) ?? '';
  } catch { /* not readable: use the executable */ }
  for (const d of path.split(delimiter)) if (d && same(join(resolve(cwd, d), arg0))) return join(resolve(cwd, d), arg0);
  return exe;
}

/**
 * nvcc above this process: the nearest ancestor that is not a shell (nvcc runs `sh -c "ptxd-cicc …"`),
 * accepted only when its executable is nvcc. Linux /proc only; undefined elsewhere.
 */
export function findNvcc(ppid: number): { argv: string[]; cwd: string } | undefined {
  let pid: number | undefined = ppid;
  for (let depth = 0; pid !== undefined && depth < 4; depth++) {
    let exe: string;
    try { exe = readlinkSync(`/proc/${pid}/exe`); } catch { return undefined; }
    const name = basename(exe);
    if (SHELLS.has(name)) { pid = parentOf(pid); continue; }
    if (name !== 'nvcc') return undefined;
    const argv = procArgv(pid);
    if (!argv) return undefined;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      return { argv: [invokedAs(argv[0]!, exe, cwd, pid), ...argv.slice(1)], cwd };
    } catch { return undefined; }
  }
  return undefined;
}

/** The origin of this cicc call (the client calls it with its own argv, env and parent pid). */
export function originOf(cicc: readonly string[], env: NodeJS.ProcessEnv, cwd: string, ppid: number): UnitOrigin {
  const o: UnitOrigin = { cwd, cicc: [...cicc], env: {} };
  for (const k of ENV_KEYS) if (env[k] !== undefined) o.env[k] = env[k]!;
  const nvcc = findNvcc(ppid);
  if (nvcc) { o.nvcc = nvcc.argv; o.nvccCwd = nvcc.cwd; }
  return o;
}
