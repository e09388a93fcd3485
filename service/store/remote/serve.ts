// `ptxd cache serve`: a small content-addressed object server for teams without a WebDAV server.
//   GET/HEAD /<name>   the object (404 when absent)
//   GET /_stats        the server's own counters as JSON (ServeCounters; `_` starts no object name)
//   PUT /<name>        stores the object: written to a temporary file and renamed into place, so a
//                      reader never sees a partial object; with a write key, only `Authorization:
//                      Bearer <write key>` may write (403 otherwise)
// Objects live in <dir>/<first two characters of the name>/<name>. The server does not verify
// signatures (it has no team key): clients do, and treat a bad one as a miss.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createReadStream, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual, createHash } from 'node:crypto';
import { makeDirs } from '../../mkdirs';

export interface ServeOptions {
  dir: string;
  host: string;
  port: number;
  /** When set, PUT needs this bearer token. */
  writeKey?: string;
  /** Largest object accepted (bytes). */
  maxObject?: number;
  log?: (line: string) => void;
  /** Filled in as requests are served (GET /_stats shows them). */
  counters?: ServeCounters;
}

/** What the server did since it started. */
export interface ServeCounters {
  /** GETs answered with the object, GETs of absent objects (HEAD counts too). */
  hits: number; misses: number;
  writes: number;
  /** PUTs refused: no valid write key, too large, or the write failed. */
  refused: number; tooLarge: number; failed: number;
  /** Object bytes sent and received. */
  bytesOut: number; bytesIn: number;
}

export function emptyServeCounters(): ServeCounters {
  return { hits: 0, misses: 0, writes: 0, refused: 0, tooLarge: 0, failed: 0, bytesOut: 0, bytesIn: 0 };
}

/** Names are the tier's keys: plain, no path separators, no dot files. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, so the comparison leaks neither content nor length.
  const a = createHash('sha256').update(given).digest(), b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

let tmpCounter = 0;

export function startObjectServer(o: ServeOptions): Promise<Server> {
  makeDirs(o.dir);
  const maxObject = o.maxObject ?? 256 * 1024 * 1024;
  const path = (name: string) => join(o.dir, name.slice(0, 2), name);
  const c = o.counters ?? emptyServeCounters();

  const reply = (res: ServerResponse, status: number, text = '') => {
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    let name = '';
    try { name = decodeURIComponent((req.url ?? '/').split('?')[0]!.replace(/^\/+/, '')); } catch { /* malformed: a bad name */ }
    if (name === '_stats' && req.method === 'GET') { reply(res, 200, `${JSON.stringify(c)}\n`); return; }
    if (!NAME.test(name)) { req.resume(); reply(res, 400, 'bad object name\n'); return; }
    const file = path(name);
    if (req.method === 'GET' || req.method === 'HEAD') {
      let size: number;
      try { size = statSync(file).size; } catch { c.misses++; reply(res, 404, 'not found\n'); return; }
      c.hits++;
      if (req.method === 'GET') c.bytesOut += size;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      if (req.method === 'HEAD') { res.end(); return; }
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
      return;
    }
    if (req.method === 'PUT') {
      if (o.writeKey !== undefined) {
        const auth = req.headers.authorization ?? '';
        if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice(7), o.writeKey)) {
          req.resume();
          o.log?.(`refused PUT ${name} from ${req.socket.remoteAddress}: no valid write key`);
          c.refused++;
          reply(res, 403, 'write key required\n');
          return;
        }
      }
      const parts: Buffer[] = [];
      let n = 0, tooLarge = false;
      req.on('data', (d: Buffer) => {
        n += d.length;
        if (n > maxObject) tooLarge = true; else parts.push(d);
      });
      req.on('end', () => {
        if (tooLarge) { c.tooLarge++; reply(res, 413, 'object too large\n'); return; }
        try {
          makeDirs(join(o.dir, name.slice(0, 2)));
          const tmp = `${file}.tmp-${process.pid}-${++tmpCounter}`;
          writeFileSync(tmp, Buffer.concat(parts));
          try { renameSync(tmp, file); } catch (e) { try { unlinkSync(tmp); } catch { /* gone */ } throw e; }
          c.writes++;
          c.bytesIn += n;
          reply(res, 201);
        } catch (e) {
          o.log?.(`PUT ${name} failed: ${(e as Error).message}`);
          c.failed++;
          reply(res, 500, 'write failed\n');
        }
      });
      req.on('error', () => res.destroy());
      return;
    }
    req.resume();
    res.setHeader('allow', 'GET, HEAD, PUT');
    reply(res, 405, 'method not allowed\n');
  };

  return new Promise((resolve, reject) => {
    const server = createServer(handle);
    server.keepAliveTimeout = 60_000;
    server.once('error', reject);
    server.listen(o.port, o.host, () => { server.removeListener('error', reject); resolve(server); });
  });
}
