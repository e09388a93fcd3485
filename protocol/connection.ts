// Talking to the daemon: connect, handshake, start it when it is not running (detached, one at a time
// thanks to a lock file), replace it when it runs other code. Used by the thin client and the CLI.
// Every failure is reported to the caller, who then compiles in-process: the daemon is an optimisation
// and never the reason a build breaks.

import { closeSync, constants, lstatSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { encodeFrame, FrameReader, PROTOCOL, type DaemonStatus, type Identity, type Message } from './messages';
import { cacheDir, lockPath, logPath, socketPath } from './paths';
import { buildStamp, compareVersions, ptxdVersion, REPO_ROOT } from './version';
import { checkSocketDir, checkSocketFile, ensureSocketDir, newNonce, openNoFollow, proof, proofOk, readKey, TrustError } from './auth';

export function clientIdentity(env: NodeJS.ProcessEnv): Identity {
  return { proto: PROTOCOL, version: ptxdVersion(), stamp: buildStamp(), cacheDir: cacheDir(env) };
}

/** The compiled daemon entry (the daemon always runs built code). */
export const DAEMON_MAIN = join(REPO_ROOT, 'dist', 'daemon', 'main.js');

const HELLO_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 15_000;
/** A start lock older than this belongs to a starter that died. */
const STALE_LOCK_MS = 20_000;

type Pending = { resolve: (m: Message) => void; reject: (e: Error) => void; note?: (m: Message) => void };

/** One connection; requests carry ids so several may be in flight. */
export class DaemonConnection {
  private reader = new FrameReader();
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private closedError: Error | undefined;
  private helloWaiter: Pending | undefined;

  private constructor(private readonly sock: Socket, readonly path: string) {
    sock.on('data', chunk => {
      let msgs: Message[];
      try { msgs = this.reader.push(chunk); } catch (e) { this.fail(e as Error); return; }
      for (const m of msgs) this.dispatch(m);
    });
    sock.on('error', e => this.fail(e));
    sock.on('close', () => this.fail(new Error('daemon closed the connection')));
  }

  private dispatch(m: Message): void {
    if (m.t === 'welcome') { this.helloWaiter?.resolve(m); this.helloWaiter = undefined; return; }
    const id = (m as { id?: number }).id;
    const p = id === undefined ? undefined : this.pending.get(id);
    if (!p) return;
    // notes about a request in flight (make tokens) do not answer it
    if (m.t === 'tokens' || m.t === 'tokens-back') { p.note?.(m); return; }
    this.pending.delete(id!);
    if (m.t === 'error') p.reject(new Error(`daemon: ${m.message}`));
    else p.resolve(m);
  }

  private fail(e: Error): void {
    if (this.closedError) return;
    this.closedError = e;
    this.helloWaiter?.reject(e);
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    this.sock.destroy();
  }

  /** Connects (rejects with the socket error code, e.g. ENOENT or ECONNREFUSED). */
  static open(path: string, timeoutMs = 2000): Promise<DaemonConnection> {
    return new Promise((resolve, reject) => {
      const s = connect(path);
      const timer = setTimeout(() => { s.destroy(); reject(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })); }, timeoutMs);
      s.once('connect', () => { clearTimeout(timer); s.removeAllListeners('error'); resolve(new DaemonConnection(s, path)); });
      s.once('error', e => { clearTimeout(timer); reject(e); });
    });
  }

  /** The nonce of our hello; the daemon's proof covers it. */
  readonly nonce = newNonce();
  /** Set once the daemon has proven it holds the key and we have sent our proof. */
  trusted = false;

  hello(id: Identity): Promise<Extract<Message, { t: 'welcome' }>> {
    return new Promise((resolve, reject) => {
      if (this.closedError) { reject(this.closedError); return; }
      const timer = setTimeout(() => this.fail(new Error('daemon did not answer the handshake')), HELLO_TIMEOUT_MS);
      this.helloWaiter = {
        resolve: m => { clearTimeout(timer); resolve(m as Extract<Message, { t: 'welcome' }>); },
        reject: e => { clearTimeout(timer); reject(e); },
      };
      this.sock.write(encodeFrame({ t: 'hello', ...id, nonce: this.nonce }));
    });
  }

  /** Sends a request (its id is filled in) and resolves with the daemon's answer; `note` gets the daemon's notes about it meanwhile. */
  request<T extends Message>(m: Message, note?: (m: Message) => void): Promise<T> {
    return new Promise((resolve, reject) => {
      if (this.closedError) { reject(this.closedError); return; }
      const id = this.nextId++;
      this.pending.set(id, { resolve: x => resolve(x as T), reject, note });
      this.sock.write(encodeFrame({ ...m, id } as Message));
    });
  }

  async status(): Promise<DaemonStatus> {
    return (await this.request<Extract<Message, { t: 'status-reply' }>>({ t: 'status', id: 0 })).status;
  }

  /** Resolves when the peer has closed the connection. */
  closed(): Promise<void> {
    return new Promise(resolve => {
      if (this.closedError || this.sock.destroyed) { resolve(); return; }
      this.sock.once('close', () => resolve());
    });
  }

  /** Sends a message that expects no answer. */
  send(m: Message): void {
    if (!this.closedError) this.sock.write(encodeFrame(m));
  }

  close(): void {
    this.closedError ??= new Error('closed');
    this.sock.destroy();
  }
}

/**
 * The daemon's answers become build outputs, and our requests carry the build's paths: only talk to a
 * socket of ours in a directory of ours (protocol/auth.ts). Checked before connecting, so that a socket
 * another user planted gets not a byte. False when there is no socket.
 */
function socketUsable(sock: string): boolean {
  return checkSocketDir(sock) && checkSocketFile(sock);
}

/**
 * Connects and shakes hands: the daemon proves it holds the key beside its socket, then we prove it.
 * A daemon without a valid proof is only usable to be stopped (an older build that had no key), and only
 * when it says it runs another build; undefined when there is no socket.
 */
export async function openDaemon(env: NodeJS.ProcessEnv, timeoutMs?: number):
Promise<{ conn: DaemonConnection; welcome: Extract<Message, { t: 'welcome' }> } | undefined> {
  const sock = socketPath(env);
  if (!socketUsable(sock)) return undefined;
  const conn = await DaemonConnection.open(sock, timeoutMs);
  const w = await conn.hello(clientIdentity(env));
  // The key is read after the welcome: a daemon writes it before it serves any connection.
  const key = readKey(sock);
  if (key !== undefined && proofOk(key, 'daemon', conn.nonce, w.nonce, w.proof)) {
    conn.send({ t: 'auth', proof: proof(key, 'client', w.nonce!, conn.nonce) });
    conn.trusted = true;
  } else if (sameIdentity(w, clientIdentity(env))) {
    conn.close();
    throw new TrustError(`the daemon on ${sock} did not prove it holds the key in ${sock}.key; not using it`);
  }
  return { conn, welcome: w };
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return a.proto === b.proto && a.version === b.version && a.stamp === b.stamp && a.cacheDir === b.cacheDir;
}

/** Connects to a running daemon that runs our code; undefined when none is running (or usable). */
async function tryConnect(env: NodeJS.ProcessEnv, verbose: (s: string) => void):
Promise<{ conn?: DaemonConnection; replace?: DaemonConnection; absent?: boolean }> {
  const sock = socketPath(env);
  let opened;
  try {
    opened = await openDaemon(env);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return { absent: true };
    throw e;
  }
  if (!opened) return { absent: true };
  const { conn, welcome: w } = opened;
  const me = clientIdentity(env);
  if (sameIdentity(w, me)) return { conn };
  if (w.cacheDir !== me.cacheDir) {
    conn.close();
    throw new Error(`the daemon on ${sock} serves another cache directory (${w.cacheDir})`);
  }
  if (compareVersions(me.version, w.version) < 0 || (me.version === w.version && me.proto < w.proto)) {
    conn.close();
    throw new Error(`the daemon on ${sock} is newer (ptxd ${w.version}); not using it`);
  }
  verbose(`ptxd: replacing daemon pid ${w.pid} (ptxd ${w.version}, build ${w.stamp}) with build ${me.stamp}\n`);
  return { replace: conn };
}

/** Asks a daemon to exit and waits until it has closed the connection (its socket is gone by then). */
export async function stopDaemon(conn: DaemonConnection): Promise<void> {
  try { await conn.request({ t: 'shutdown', id: 0 }); } catch { /* it may close before answering */ }
  await conn.closed();
}

function pidAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** Takes the start lock; false when another live process holds it. */
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // O_EXCL: a symlink in its place is not followed (EEXIST)
      const fd = openNoFollow(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    // Held: break it only if its owner is gone or it is old.
    let stale = false;
    try {
      const st = lstatSync(lock);
      if (!st.isFile()) throw new Error('not a lock file');   // a symlink or worse: removed below
      const fd = openNoFollow(lock, constants.O_RDONLY);
      let pid: number;
      try { pid = Number(readFileSync(fd, 'utf8')); } finally { closeSync(fd); }
      const age = Date.now() - st.mtimeMs;
      stale = age > STALE_LOCK_MS || (pid > 0 && !pidAlive(pid));
    } catch {
      stale = true; // vanished meanwhile: try again
    }
    if (!stale) return false;
    try { unlinkSync(lock); } catch { /* someone else broke it */ }
  }
  return false;
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** The daemon's log, for appending; something other than a file in its place (a symlink) is replaced, not followed. */
function openLog(path: string): number {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
  try {
    if (!lstatSync(path).isFile()) unlinkSync(path);
  } catch { /* absent */ }
  return openNoFollow(path, flags);
}

/** Spawns a detached daemon for `env` (the caller holds the start lock); returns its pid. */
function spawnDaemon(env: NodeJS.ProcessEnv, sock: string): number {
  const log = openLog(logPath(sock));
  const childEnv = { ...env };
  // The daemon outlives the build: it must not look like part of it.
  for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'PTXD_IN_FALLBACK', 'PTXD_CAPTURE_DIR', 'MSGPACKR_NATIVE_ACCELERATION_DISABLED']) delete childEnv[k];
  const child = spawn(process.execPath, [DAEMON_MAIN, '--socket', sock], {
    detached: true, stdio: ['ignore', log, log], env: childEnv, cwd: '/',
  });
  child.unref();
  closeSync(log);
  return child.pid ?? 0;
}

/** Waits until the socket accepts connections; gives up early when the spawned daemon has died. */
async function awaitDaemon(sock: string, child: number | undefined, deadline: number): Promise<boolean> {
  for (let delay = 10; Date.now() < deadline; delay = Math.min(delay * 2, 100)) {
    const c = await DaemonConnection.open(sock).catch(() => undefined);
    if (c) { c.close(); return true; }
    if (child !== undefined && !pidAlive(child)) {
      // It exited (killed, or lost a race to another daemon): one last look, then let the caller retry.
      const again = await DaemonConnection.open(sock).catch(() => undefined);
      if (again) { again.close(); return true; }
      throw new Error(`the daemon (pid ${child}) exited while starting (see ${logPath(sock)})`);
    }
    await sleep(delay);
  }
  return false;
}

/**
 * Starts a daemon unless one is running or being started; resolves once it accepts connections.
 * Never starts two: the start lock (O_EXCL file next to the socket) decides who spawns.
 */
export async function startDaemon(env: NodeJS.ProcessEnv): Promise<void> {
  const sock = socketPath(env);
  ensureSocketDir(sock);
  const lock = lockPath(sock);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (takeLock(lock)) {
      try {
        // Between our failed connect and the lock, another client may have started one.
        const probe = await DaemonConnection.open(sock).catch(() => undefined);
        if (probe) { probe.close(); return; }
        if (await awaitDaemon(sock, spawnDaemon(env, sock), deadline)) return;
      } finally {
        try { unlinkSync(lock); } catch { /* already gone */ }
      }
      break;
    }
    // Someone else is starting it: wait for the socket, or for the lock to go (their start failed).
    const c = await DaemonConnection.open(sock).catch(() => undefined);
    if (c) { c.close(); return; }
    await sleep(25);
  }
  throw new Error(`the daemon did not start within ${START_TIMEOUT_MS / 1000} s (see ${logPath(sock)})`);
}

/**
 * A connection to a daemon running this build, starting (or replacing) one when needed.
 * Throws when that is impossible; the caller compiles in-process then.
 */
export async function connectDaemon(env: NodeJS.ProcessEnv, opts: { autostart: boolean; verbose?: (s: string) => void }):
Promise<DaemonConnection | undefined> {
  const verbose = opts.verbose ?? (() => {});
  for (let round = 0; round < 3; round++) {
    const r = await tryConnect(env, verbose);
    if (r.conn) return r.conn;
    if (r.replace) await stopDaemon(r.replace);
    if (!opts.autostart) return undefined;
    await startDaemon(env);
  }
  throw new Error('could not reach a daemon running this build');
}
