// The HTTP backend: GET and PUT of `<base>/<name>`, as a WebDAV-style server (nginx dav, Apache
// mod_dav, `ptxd cache serve`) or an object store behind a plain URL understands them. 200 is an
// object, 404 a miss, anything else an error. Connections are kept alive between requests; a PUT
// carries the write key as a bearer token (servers that check it refuse writes from read-only clients).

import * as http from 'node:http';
import * as https from 'node:https';
import type { BackendOptions, RemoteBackend } from './backend';
import { TimeoutError } from './backend';
import { redact } from './config';

/** Objects larger than this are not read (a misconfigured server must not fill the daemon's memory). */
const MAX_OBJECT = 256 * 1024 * 1024;

export class HttpBackend implements RemoteBackend {
  readonly where: string;
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly lib: typeof http | typeof https;
  private readonly auth: string | undefined;

  constructor(url: string, private readonly o: BackendOptions) {
    this.base = new URL(url.endsWith('/') ? url : `${url}/`);
    this.where = redact(url);
    this.lib = this.base.protocol === 'https:' ? https : http;
    this.agent = new this.lib.Agent({ keepAlive: true, maxSockets: 16 });
    // user:password in the URL: basic authentication on every request.
    this.auth = this.base.username ? `Basic ${Buffer.from(`${decodeURIComponent(this.base.username)}:${decodeURIComponent(this.base.password)}`).toString('base64')}` : undefined;
  }

  private url(name: string): URL {
    const u = new URL(encodeURIComponent(name), this.base);
    u.username = ''; u.password = '';
    return u;
  }

  get(name: string): Promise<Buffer | undefined> {
    return this.request('GET', name).then(({ status, body }) => {
      if (status === 200) return body;
      if (status === 404 || status === 410) return undefined;
      throw new Error(`GET ${name.slice(0, 16)}…: HTTP ${status}`);
    });
  }

  put(name: string, value: Buffer): Promise<void> {
    return this.request('PUT', name, value).then(({ status }) => {
      if (status < 200 || status > 299) throw new Error(`PUT ${name.slice(0, 16)}…: HTTP ${status}`);
    });
  }

  /**
   * One request. The only retry: a kept-alive connection that the server closed just as we reused it
   * (ECONNRESET/EPIPE before any answer) — the request never reached the server, so it is sent once more.
   */
  private async request(method: 'GET' | 'PUT', name: string, body?: Buffer): Promise<{ status: number; body: Buffer }> {
    try {
      return await this.attempt(method, name, body);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((e as { reused?: boolean }).reused && (code === 'ECONNRESET' || code === 'EPIPE')) return this.attempt(method, name, body);
      throw e;
    }
  }

  private attempt(method: 'GET' | 'PUT', name: string, body?: Buffer): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {};
      if (this.auth) headers.authorization = this.auth;
      if (method === 'PUT') {
        headers['content-type'] = 'application/octet-stream';
        headers['content-length'] = body!.length;
        if (this.o.writeKey !== undefined && !this.auth) headers.authorization = `Bearer ${this.o.writeKey}`;
      }
      let settled = false;
      const done = (e: Error | undefined, r?: { status: number; body: Buffer }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (e) reject(e); else resolve(r!);
      };
      let answered = false;
      const req = this.lib.request(this.url(name), { method, headers, agent: this.agent }, res => {
        answered = true;
        const parts: Buffer[] = [];
        let n = 0;
        res.on('data', (d: Buffer) => {
          n += d.length;
          if (n > MAX_OBJECT) { req.destroy(new Error('object too large')); return; }
          parts.push(d);
        });
        res.on('end', () => done(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
        res.on('error', e => done(e));
      });
      // The connect timeout applies to a new connection only (a kept-alive socket is connected already).
      req.on('socket', s => {
        if (!s.connecting) return;
        const t = setTimeout(() => req.destroy(new TimeoutError(`connect to ${this.where}`, this.o.connectTimeoutMs)), this.o.connectTimeoutMs);
        s.once('connect', () => clearTimeout(t));
        s.once('close', () => clearTimeout(t));
      });
      const ms = method === 'GET' ? this.o.timeoutMs : this.o.writeTimeoutMs;
      const timer = setTimeout(() => req.destroy(new TimeoutError(`${method} ${this.where}`, ms)), ms);
      req.on('error', e => done(Object.assign(e, { reused: req.reusedSocket && !answered })));
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
