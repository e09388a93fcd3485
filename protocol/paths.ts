// Where ptxd keeps its files. Everything is derived from the environment so that tests (and users with
// several caches) can run independent daemons side by side:
//   PTXD_CACHE_DIR  the cache directory (default ~/.cache/ptxd): LMDB store, fallbacks.jsonl
//   PTXD_SOCKET     the daemon's socket (default: one per user and cache directory, see socketPath)
// The lock and log files live next to the socket, so they work even when the cache dir is unwritable.

import { homedir, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export function cacheDir(env: NodeJS.ProcessEnv): string {
  return env.PTXD_CACHE_DIR || join(env.HOME || homedir(), '.cache', 'ptxd');
}

/** This installation of ptxd (dist/.. or the source root): two installations get two daemons. */
export const INSTALL_DIR = resolve(__dirname, '..', ...(basename(resolve(__dirname, '..')) === 'dist' ? ['..'] : []));

/**
 * `$PTXD_SOCKET`, else `$XDG_RUNTIME_DIR/ptxd/<h>.sock`, else `<tmp>/ptxd-<uid>/<h>.sock`, where h is a
 * hash of the cache directory and the installation: one daemon per user, cache and ptxd install (two
 * installs sharing a cache would otherwise keep replacing each other's daemon). Unix socket paths are
 * limited to ~107 bytes, hence a short hash rather than the paths themselves.
 */
export function socketPath(env: NodeJS.ProcessEnv): string {
  if (env.PTXD_SOCKET) return env.PTXD_SOCKET;
  const h = fnv1a64(`${cacheDir(env)}\0${INSTALL_DIR}`).slice(0, 12);
  const uid = process.getuid?.() ?? 0;
  const base = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'ptxd') : join(tmpdir(), `ptxd-${uid}`);
  return join(base, `${h}.sock`);
}

/**
 * 64-bit FNV-1a of the UTF-8 bytes, 16 hex digits. The native client (client/native/ptxd-cicc.c)
 * computes the same name for the socket, so the hash must stay this simple one.
 */
export function fnv1a64(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, 'utf8')) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

export const lockPath = (sock: string): string => `${sock}.lock`;
export const logPath = (sock: string): string => `${sock}.log`;
export const pidPath = (sock: string): string => `${sock}.pid`;
/** The daemon's secret (protocol/auth.ts). */
export const keyPath = (sock: string): string => `${sock}.key`;

/** `2G`, `500M`, `64k`, or plain bytes; undefined when unparsable. */
export function parseSize(s: string | undefined): number | undefined {
  if (s === undefined || s.trim() === '') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$/i.exec(s);
  if (!m) return undefined;
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.floor(Number(m[1]) * mult);
}

export const DEFAULT_CACHE_SIZE = 2 * 1024 ** 3;

export function cacheSizeLimit(env: NodeJS.ProcessEnv): number {
  return parseSize(env.PTXD_CACHE_SIZE) ?? DEFAULT_CACHE_SIZE;
}

/** Seconds of inactivity before the daemon exits (PTXD_IDLE_TIMEOUT, default 10 minutes; 0 = never). */
export function idleTimeoutMs(env: NodeJS.ProcessEnv): number {
  const v = Number(env.PTXD_IDLE_TIMEOUT);
  return (env.PTXD_IDLE_TIMEOUT !== undefined && Number.isFinite(v) && v >= 0 ? v : 600) * 1000;
}
