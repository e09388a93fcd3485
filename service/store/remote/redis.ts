// The Redis backend: one connection, opened on first use and again after any failure, with commands
// pipelined on it (replies come back in order). A reply that does not come within the timeout closes
// the connection, failing every command waiting on it: simpler and safer than matching late replies.
// Entries are stored under `ptxd:<name>`.

import { connect, type Socket } from 'node:net';
import type { BackendOptions, RemoteBackend } from './backend';
import { TimeoutError } from './backend';
import { encodeCommand, RespError, RespParser, type RespValue } from './resp';
import { redact } from './config';

interface Waiting { resolve: (v: RespValue) => void; reject: (e: Error) => void }

export interface RedisTarget { host: string; port: number; db: number; user?: string; password?: string }

export function parseRedisUrl(url: string): RedisTarget {
  const u = new URL(url);
  if (u.protocol !== 'redis:') throw new Error(`not a redis:// URL: ${redact(url)}`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`bad database number in ${redact(url)}`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: u.port ? Number(u.port) : 6379, db,
    user: u.username ? decodeURIComponent(u.username) : undefined, password: u.password ? decodeURIComponent(u.password) : undefined,
  };
}

export class RedisBackend implements RemoteBackend {
  readonly where: string;
  private readonly target: RedisTarget;
  private sock: Socket | undefined;
  private ready: Promise<Socket> | undefined;
  private readonly waiting: Waiting[] = [];
  private closed = false;

  constructor(url: string, private readonly o: BackendOptions) {
    this.target = parseRedisUrl(url);
    this.where = redact(url);
  }

  async get(name: string): Promise<Buffer | undefined> {
    const r = await this.command(['GET', `ptxd:${name}`]);
    if (r === null) return undefined;
    if (!Buffer.isBuffer(r)) throw new Error(`unexpected reply to GET: ${String(r)}`);
    return r;
  }

  async put(name: string, value: Buffer): Promise<void> {
    const args: (string | Buffer)[] = ['SET', `ptxd:${name}`, value];
    if (this.o.ttlSeconds > 0) args.push('EX', String(Math.ceil(this.o.ttlSeconds)));
    const r = await this.command(args, this.o.writeTimeoutMs);
    if (r !== 'OK') throw new Error(`unexpected reply to SET: ${String(r)}`);
  }

  /** PING (tests and diagnostics). */
  async ping(): Promise<boolean> {
    return (await this.command(['PING'])) === 'PONG';
  }

  /** One command with the request timeout (connecting included, bounded by the connect timeout). */
  async command(args: (string | Buffer)[], timeoutMs = this.o.timeoutMs): Promise<RespValue> {
    if (this.closed) throw new Error('closed');
    const sock = await this.connection();
    return this.send(sock, args, timeoutMs);
  }

  private send(sock: Socket, args: (string | Buffer)[], timeoutMs: number): Promise<RespValue> {
    return new Promise<RespValue>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(sock, new TimeoutError('redis request', timeoutMs)), timeoutMs);
      this.waiting.push({
        resolve: v => { clearTimeout(timer); if (v instanceof RespError) reject(new Error(`redis: ${v.message}`)); else resolve(v); },
        reject: e => { clearTimeout(timer); reject(e); },
      });
      sock.write(encodeCommand(args));
    });
  }

  private connection(): Promise<Socket> {
    if (this.sock && !this.sock.destroyed && this.ready) return this.ready;
    if (this.ready) return this.ready;
    const t = this.target;
    const p = new Promise<Socket>((resolve, reject) => {
      const sock = connect({ host: t.host, port: t.port, noDelay: true });
      this.sock = sock;
      const parser = new RespParser();
      const timer = setTimeout(() => { sock.destroy(new TimeoutError('redis connect', this.o.connectTimeoutMs)); }, this.o.connectTimeoutMs);
      sock.on('data', chunk => {
        let replies: RespValue[];
        try { replies = parser.push(chunk); } catch (e) { this.fail(sock, e as Error); return; }
        for (const r of replies) this.waiting.shift()?.resolve(r);
      });
      sock.on('error', e => { clearTimeout(timer); this.fail(sock, e); reject(e); });
      sock.on('close', () => { clearTimeout(timer); this.fail(sock, new Error('redis connection closed')); reject(new Error('redis connection closed')); });
      sock.once('connect', () => {
        clearTimeout(timer);
        // AUTH and SELECT go first on the new connection; any command sent later queues behind them.
        const setup: Promise<RespValue>[] = [];
        if (t.password !== undefined) setup.push(this.send(sock, t.user ? ['AUTH', t.user, t.password] : ['AUTH', t.password], this.o.timeoutMs));
        if (t.db !== 0) setup.push(this.send(sock, ['SELECT', String(t.db)], this.o.timeoutMs));
        Promise.all(setup).then(() => resolve(sock), e => { this.fail(sock, e as Error); reject(e); });
      });
    });
    this.ready = p;
    p.catch(() => { /* reported to the caller that awaited it */ });
    return p;
  }

  /** Drops the connection and fails every command waiting on it; the next command reconnects. */
  private fail(sock: Socket, e: Error): void {
    if (this.sock === sock) { this.sock = undefined; this.ready = undefined; }
    sock.destroy();
    if (this.sock !== undefined) return;   // the waiters belong to a newer connection
    for (const w of this.waiting.splice(0)) w.reject(e);
  }

  close(): void {
    this.closed = true;
    if (this.sock) this.fail(this.sock, new Error('closed'));
  }
}
