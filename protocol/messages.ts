// The wire protocol between clients and the daemon: frames of (u32 BE length, msgpackr map) over a
// unix-domain socket. The first message on a connection is the client's hello; the daemon answers with
// its identity, and the client decides whether to use it (same protocol, build and cache directory) or
// to replace it (a newer client) or to stay away (an older client).

import { Packr } from 'msgpackr';
import type { UnitOrigin, UnitRequest, UnitResponse } from './unit';
import type { PoolStatus, RemoteStatus } from './status';
import type { JobserverAuth } from './jobserver';

export const PROTOCOL = 2;

/** byText: the unit changed only inside kernel bodies since its last compile (see CompileResult.functions). */
export interface FunctionLists { compiled: string[]; reused: string[]; byText?: boolean }
/** A frame larger than this is a protocol error (PTX of real units is a few MB at most). */
export const MAX_FRAME = 256 * 1024 * 1024;

export interface Identity { proto: number; version: string; stamp: string; cacheDir: string }

export interface DaemonStatus extends Identity {
  pid: number;
  socket: string;
  log: string;
  uptimeS: number;
  idleTimeoutS: number;
  connections: number;
  queued: number;
  /** Requests served since this daemon started, and how many of them were hits. */
  served: number;
  hits: number;
  /** Of those, whole cicc calls from the native client (client/native/). */
  ciccCalls: number;
  rssBytes: number;
  heapUsedBytes: number;
  cacheEnabled: boolean;
  /** The compile pool and its scheduler (daemon/scheduler/). */
  scheduler?: PoolStatus;
  /** The team cache (service/store/remote/), when one is configured. */
  remote?: RemoteStatus;
}

export type Message =
  /**
   * The handshake (protocol/auth.ts): the client's nonce; the daemon's nonce and its proof of the secret;
   * then the client's proof (`auth`), before any request. A client that fails it is disconnected.
   */
  | ({ t: 'hello'; nonce?: string } & Identity)
  | ({ t: 'welcome'; pid: number; nonce?: string; proof?: string } & Identity)
  | { t: 'auth'; proof: string }
  /** origin: where a build's cicc call came from (recorded for `ptxd watch`, never part of the key). */
  | { t: 'compile'; id: number; req: UnitRequest; origin?: UnitOrigin }
  /** functions: which of the unit's functions were compiled and which reused, when it was compiled. */
  | { t: 'result'; id: number; res: UnitResponse; functions?: FunctionLists }
  /**
   * Extra make tokens for a compile split across workers (daemon/scheduler/split.ts): the daemon asks the
   * client of request `id` for up to `want`; the client takes what make's jobserver has free now and says
   * how many (`tokens-got`); `tokens-back` asks it to give them back (it also does when the request ends,
   * fails, or the connection drops), and it confirms with `tokens-returned`.
   */
  | { t: 'tokens'; id: number; want: number; auth?: JobserverAuth }
  | { t: 'tokens-got'; id: number; n: number }
  | { t: 'tokens-back'; id: number }
  | { t: 'tokens-returned'; id: number; n: number }
  /**
   * A whole cicc call from the native client (client/native/ptxd-cicc.c): the daemon parses argv, compiles,
   * writes the outputs and answers `cicc-done` with the exit code and cicc's stderr; `fallback` asks the
   * client to run the real cicc instead (the one it chooses itself: the daemon never names a program).
   * env: only the variables of daemon/client-env.ts. t0: the client's start, ms since epoch.
   */
  | { t: 'cicc'; id: number; argv: string[]; env: Record<string, string>; cwd: string; pid: number; ppid: number; t0: number }
  | { t: 'cicc-done'; id: number; code: number; stderr: string; fallback?: boolean }
  | { t: 'status'; id: number }
  | { t: 'status-reply'; id: number; status: DaemonStatus }
  | { t: 'flush'; id: number }
  | { t: 'ok'; id: number }
  | { t: 'shutdown'; id: number }
  | { t: 'error'; id: number; message: string };

const packr = new Packr({ useRecords: false, moreTypes: false });

export function encodeFrame(m: Message): Buffer {
  const body = packr.pack(m);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** Accumulates socket data and yields complete messages. Throws on a malformed stream. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Message[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const out: Message[] = [];
    while (this.buf.length >= 4) {
      const len = this.buf.readUInt32BE(0);
      if (len > MAX_FRAME) throw new Error(`frame too large (${len} bytes)`);
      if (this.buf.length < 4 + len) break;
      const m = packr.unpack(this.buf.subarray(4, 4 + len)) as Message;
      if (m === null || typeof m !== 'object' || typeof (m as { t?: unknown }).t !== 'string') throw new Error('malformed message');
      out.push(m);
      this.buf = this.buf.subarray(4 + len);
    }
    return out;
  }
}
