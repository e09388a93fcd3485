// Client and daemon trust only each other (issue 31). Both run as the same user; what proves it:
// - the socket lives in a directory of ours, mode 0700, not a symlink, and the socket file is ours too:
//   no other user can plant a socket there or connect to ours (clients check before connecting, so a
//   fake daemon gets no byte from them);
// - a secret in `<socket>.key` (mode 0600, written by the daemon with O_EXCL|O_NOFOLLOW, owner and mode
//   checked by readers): each side proves it holds it with an HMAC-SHA256 over both sides' nonces
//   (challenge-response, so a proof cannot be replayed on another connection).
// The pid, log and lock files beside the socket are opened without following symlinks.

import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, unlinkSync, writeSync, chmodSync } from 'node:fs';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { dirname } from 'node:path';
import { keyPath } from './paths';

/** A check failed: the message is one line, fit for a user. */
export class TrustError extends Error {
  constructor(message: string) { super(message); this.name = 'TrustError'; }
}

const myUid = (): number | undefined => process.getuid?.();

/** The socket's directory is ours, 0700 and not a symlink; false when it does not exist. */
export function checkSocketDir(sock: string): boolean {
  const dir = dirname(sock);
  let st;
  try { st = lstatSync(dir); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new TrustError(`cannot check the socket directory ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const uid = myUid();
  if (!st.isDirectory()) throw new TrustError(`the socket directory ${dir} is not a directory (a symlink?); not using it`);
  if (uid !== undefined && st.uid !== uid) throw new TrustError(`the socket directory ${dir} belongs to another user (uid ${st.uid}); not using it`);
  if ((st.mode & 0o077) !== 0) {
    throw new TrustError(`the socket directory ${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}, want 700); not using it`);
  }
  return true;
}

/** Creates the socket's directory (0700, whatever the umask) when absent, then checks it. */
export function ensureSocketDir(sock: string): void {
  const dir = dirname(sock);
  let created = false;
  try { mkdirSync(dir, { mode: 0o700 }); created = true; } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') { mkdirSync(dir, { recursive: true, mode: 0o700 }); created = true; }
    else if (code !== 'EEXIST') throw new TrustError(`cannot create the socket directory ${dir}: ${code ?? (e as Error).message}`);
  }
  if (created) chmodSync(dir, 0o700);
  checkSocketDir(sock);
}

/** The socket file is a socket of ours; false when it does not exist. */
export function checkSocketFile(sock: string): boolean {
  let st;
  try { st = lstatSync(sock); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new TrustError(`cannot check the socket ${sock}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const uid = myUid();
  if (!st.isSocket()) throw new TrustError(`${sock} is not a socket; not using it`);
  if (uid !== undefined && st.uid !== uid) throw new TrustError(`the socket ${sock} belongs to another user (uid ${st.uid}); not using it`);
  return true;
}

/** Opens a file beside the socket without following a symlink (ELOOP when it is one). */
export function openNoFollow(path: string, flags: number, mode = 0o600): number {
  return openSync(path, flags | constants.O_NOFOLLOW, mode);
}

/** Appends to a file, never through a symlink. */
export function appendNoFollow(path: string, data: string): void {
  const fd = openNoFollow(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  try { writeSync(fd, data); } finally { closeSync(fd); }
}

/** Replaces a file by a new one of ours (unlink, then O_EXCL: a symlink in its place is removed, not followed). */
export function replaceFile(path: string, data: string): void {
  try { unlinkSync(path); } catch { /* absent */ }
  const fd = openNoFollow(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try { writeSync(fd, data); } finally { closeSync(fd); }
}

/** Reads a small file of ours, not through a symlink, not one others could have written; undefined otherwise. */
export function readOwnFile(path: string, max = 4096): string | undefined {
  let fd: number | undefined;
  try {
    fd = openNoFollow(path, constants.O_RDONLY);
    const st = fstatSync(fd);
    const uid = myUid();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0 || st.size > max) return undefined;
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString('latin1');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The secret: 64 hex digits (its ASCII bytes are the HMAC key, as the native client uses them). */
const KEY_RE = /^[0-9a-f]{64}$/;

/** The daemon's new secret, written beside its socket; returns it. */
export function writeKey(sock: string): string {
  const key = randomBytes(32).toString('hex');
  replaceFile(keyPath(sock), key);
  return key;
}

/** The daemon's secret, when the key file is ours, 0600 and well formed. */
export function readKey(sock: string): string | undefined {
  const k = readOwnFile(keyPath(sock), 64);
  return k !== undefined && KEY_RE.test(k) ? k : undefined;
}

export const newNonce = (): string => randomBytes(32).toString('hex');

/**
 * The proof of a side ('daemon' or 'client'): HMAC-SHA256(key, "ptxd-<side>\0<its peer's nonce>\0<its
 * own nonce>") in hex. client/native/ptxd-cicc.c computes the same.
 */
export function proof(key: string, side: 'daemon' | 'client', peerNonce: string, ownNonce: string): string {
  return createHmac('sha256', key).update(`ptxd-${side}\0${peerNonce}\0${ownNonce}`).digest('hex');
}

export function proofOk(key: string, side: 'daemon' | 'client', peerNonce: unknown, ownNonce: unknown, given: unknown): boolean {
  if (typeof peerNonce !== 'string' || typeof ownNonce !== 'string' || typeof given !== 'string') return false;
  if (!KEY_RE.test(peerNonce) || !KEY_RE.test(ownNonce) || !KEY_RE.test(given)) return false;
  return timingSafeEqual(Buffer.from(proof(key, side, peerNonce, ownNonce), 'latin1'), Buffer.from(given, 'latin1'));
}
