// Where the team cache is and how ptxd may use it. Read from the environment and a JSON config file
// (`$PTXD_CONFIG`, else `$XDG_CONFIG_HOME/ptxd/config.json`, else `~/.config/ptxd/config.json`); an
// environment variable wins over the file:
//   PTXD_REMOTE                       redis://[user:pass@]host:port[/db] or http(s)://host[:port]/base ("" or "off": none)
//   PTXD_REMOTE_KEY                   the team key: entries are signed and verified with it (required)
//   PTXD_REMOTE_WRITE_KEY             the write key: only a client that has it writes (CI); without it, read-only
//   PTXD_REMOTE_TIMEOUT_MS            per request (default 100)
//   PTXD_REMOTE_CONNECT_TIMEOUT_MS    per connection attempt (default 50)
// The file's form: { "remote": { "url", "key" | "keyFile", "writeKey" | "writeKeyFile", "timeoutMs",
// "connectTimeoutMs", "breakerFailures", "breakerCooldownMs", "queueLimit", "ttlSeconds" } }.
// Keys may be kept in files of their own ("keyFile") so that the config file itself holds no secret.

import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, dirname } from 'node:path';

export interface RemoteConfig {
  url: string;
  /** HMAC-SHA256 key for signing and verifying entries. */
  key: Buffer;
  /** Present only on clients allowed to write; also sent to an HTTP server as the bearer token of a PUT. */
  writeKey?: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Consecutive failures (errors or timeouts) that open the circuit breaker. */
  breakerFailures: number;
  /** How long an open breaker keeps the remote out of use before one probe request is let through. */
  breakerCooldownMs: number;
  /** Writes waiting to be sent; more are dropped (counted), never waited for. */
  queueLimit: number;
  /** Redis only: expiry of written entries in seconds (0: none; let the server's eviction policy decide). */
  ttlSeconds: number;
}

export const DEFAULTS = {
  timeoutMs: 100, connectTimeoutMs: 50, breakerFailures: 3, breakerCooldownMs: 30_000, queueLimit: 256, ttlSeconds: 0,
} as const;

export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.PTXD_CONFIG) return env.PTXD_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'ptxd', 'config.json');
}

interface FileRemote {
  url?: unknown; key?: unknown; keyFile?: unknown; writeKey?: unknown; writeKeyFile?: unknown;
  timeoutMs?: unknown; connectTimeoutMs?: unknown; breakerFailures?: unknown; breakerCooldownMs?: unknown;
  queueLimit?: unknown; ttlSeconds?: unknown;
}

/**
 * The checkout's base directory for path-independent unit keys (service/relocate.ts): PTXD_BASEDIR, else the
 * config file's top-level "baseDir"; undefined when neither is set or the file cannot be read as JSON (the
 * key then keeps the path, which is never wrong).
 */
export function baseDirSetting(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PTXD_BASEDIR !== undefined) return env.PTXD_BASEDIR || undefined;
  let j: unknown;
  try { j = JSON.parse(readFileSync(configPath(env), 'utf8')); } catch { return undefined; }
  const b = (j as { baseDir?: unknown } | null)?.baseDir;
  return typeof b === 'string' && b ? b : undefined;
}

/** The config file's "remote" object ({} when there is no file); throws with a message when it is malformed. */
function readFileConfig(path: string): FileRemote {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch { return {}; }
  let j: unknown;
  try { j = JSON.parse(text); } catch (e) { throw new Error(`${path}: not valid JSON (${(e as Error).message})`); }
  const r = (j as { remote?: unknown } | null)?.remote;
  if (r === undefined) return {};
  if (r === null || typeof r !== 'object') throw new Error(`${path}: "remote" must be an object`);
  return r as FileRemote;
}

function str(v: unknown, what: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error(`${what} must be a string`);
  return v;
}

function num(envValue: string | undefined, fileValue: unknown, dflt: number, what: string): number {
  const v = envValue !== undefined && envValue !== '' ? Number(envValue) : fileValue;
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${what} must be a non-negative number`);
  return v;
}

/** A secret from the environment, the file's inline value, or the file's key file (relative to the config file). */
function secret(envValue: string | undefined, inline: unknown, file: unknown, cfgPath: string, what: string): string | undefined {
  if (envValue !== undefined && envValue !== '') return envValue;
  const s = str(inline, what);
  if (s !== undefined && s !== '') return s;
  const f = str(file, `${what}File`);
  if (f === undefined) return undefined;
  try {
    return readFileSync(resolve(dirname(cfgPath), f), 'utf8').trim();
  } catch (e) {
    throw new Error(`cannot read ${what}File "${f}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/**
 * The remote tier's configuration: undefined when none is configured; `{ error }` when one is configured
 * but unusable (the caller warns once and carries on without it).
 */
export function remoteConfig(env: NodeJS.ProcessEnv): RemoteConfig | { error: string } | undefined {
  const path = configPath(env);
  try {
    const f = readFileConfig(path);
    const url = env.PTXD_REMOTE !== undefined ? env.PTXD_REMOTE : str(f.url, 'remote.url');
    if (url === undefined || url === '' || url === 'off') return undefined;
    if (!/^(redis|https?):\/\//.test(url)) return { error: `remote cache off: unsupported URL "${redact(url)}" (redis://, http:// or https://)` };
    const key = secret(env.PTXD_REMOTE_KEY, f.key, f.keyFile, path, 'remote.key');
    if (!key) return { error: 'remote cache off: no team key (set PTXD_REMOTE_KEY or "key"/"keyFile" in the config file); unsigned entries are never used' };
    const writeKey = secret(env.PTXD_REMOTE_WRITE_KEY, f.writeKey, f.writeKeyFile, path, 'remote.writeKey');
    return {
      url,
      key: Buffer.from(key, 'utf8'),
      writeKey: writeKey || undefined,
      timeoutMs: num(env.PTXD_REMOTE_TIMEOUT_MS, f.timeoutMs, DEFAULTS.timeoutMs, 'remote.timeoutMs'),
      connectTimeoutMs: num(env.PTXD_REMOTE_CONNECT_TIMEOUT_MS, f.connectTimeoutMs, DEFAULTS.connectTimeoutMs, 'remote.connectTimeoutMs'),
      breakerFailures: Math.max(1, num(undefined, f.breakerFailures, DEFAULTS.breakerFailures, 'remote.breakerFailures')),
      breakerCooldownMs: num(undefined, f.breakerCooldownMs, DEFAULTS.breakerCooldownMs, 'remote.breakerCooldownMs'),
      queueLimit: num(undefined, f.queueLimit, DEFAULTS.queueLimit, 'remote.queueLimit'),
      ttlSeconds: num(undefined, f.ttlSeconds, DEFAULTS.ttlSeconds, 'remote.ttlSeconds'),
    };
  } catch (e) {
    return { error: `remote cache off: ${(e as Error).message}` };
  }
}

/** The URL without its password, for logs and stats. */
export function redact(url: string): string {
  return url.replace(/^([a-z]+:\/\/)([^@/]*)@/i, (_m, scheme: string, cred: string) => `${scheme}${cred.includes(':') ? `${cred.split(':')[0]}:***` : '***'}@`);
}
