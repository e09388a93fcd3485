// The team-cache pieces on their own, against real servers on loopback where a server is involved:
// the RESP client against redis-server (redis-cli shows what really arrived), signatures, the
// configuration's precedence, the circuit breaker (a stopped server, a closed port), the write queue
// of a read-only client, and `ptxd cache serve` (write key, atomic files) with the HTTP backend.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mkTempDir } from './helpers/tools';
import { freePort, redisSkip, startRedis, startServe, type ObjectServer, type RedisServer } from './helpers/remote-servers';
import { encodeCommand, RespError, RespParser } from '../service/store/remote/resp';
import { sign, verify } from '../service/store/remote/sign';
import { remoteConfig, redact, type RemoteConfig } from '../service/store/remote/config';
import { RedisBackend } from '../service/store/remote/redis';
import { HttpBackend } from '../service/store/remote/http';
import { RemoteTier, unitName } from '../service/store/remote/tier';
import type { UnitValue } from '../service/store/value';
import { UnitService } from '../service/unit';
import { defaultOptions, type CompileOptions } from '../compiler/options';
import type { CompileResult } from '../compiler/compile';

const servers: { stop(): void }[] = [];
afterAll(() => { for (const s of servers) s.stop(); });

const KEY = Buffer.from('team-key');
const value = (ptx: string): UnitValue => ({ ok: true, ptx, stub: '// stub\n', diagnostics: [], compileMs: 12 });

function config(url: string, extra: Partial<RemoteConfig> = {}): RemoteConfig {
  return {
    url, key: KEY, timeoutMs: 1000, connectTimeoutMs: 1000, breakerFailures: 2, breakerCooldownMs: 60_000, queueLimit: 8, ttlSeconds: 0, ...extra,
  };
}
const backendOptions = { timeoutMs: 2000, writeTimeoutMs: 2000, connectTimeoutMs: 2000, ttlSeconds: 0 };

describe('RESP and signatures', () => {
  it('parses replies split at every byte boundary', () => {
    const bin = Buffer.from([0, 13, 10, 36, 42, 255]);
    const stream = Buffer.concat([
      Buffer.from('+OK\r\n-ERR no\r\n:42\r\n$-1\r\n'), Buffer.from(`$${bin.length}\r\n`), bin, Buffer.from('\r\n*2\r\n$1\r\na\r\n:7\r\n'),
    ]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const p = new RespParser();
      const got = [...p.push(stream.subarray(0, cut)), ...p.push(stream.subarray(cut))];
      expect(got.length, `cut at ${cut}`).toBe(6);
      expect(got[0]).toBe('OK');
      expect(got[1]).toBeInstanceOf(RespError);
      expect(got[2]).toBe(42);
      expect(got[3]).toBeNull();
      expect((got[4] as Buffer).equals(bin)).toBe(true);
      expect(got[5]).toEqual([Buffer.from('a'), 7]);
    }
    expect(encodeCommand(['GET', 'k']).toString()).toBe('*2\r\n$3\r\nGET\r\n$1\r\nk\r\n');
  });

  it('a signature binds the value to its key and the team key', () => {
    const v = Buffer.from('some value bytes');
    const s = sign(KEY, 'unit-a', v);
    expect(verify(KEY, 'unit-a', s)?.equals(v)).toBe(true);
    const tampered = Buffer.from(s);
    tampered[tampered.length - 1]! ^= 1;
    expect(verify(KEY, 'unit-a', tampered)).toBeUndefined();
    expect(verify(KEY, 'unit-b', s)).toBeUndefined();
    expect(verify(Buffer.from('other-team'), 'unit-a', s)).toBeUndefined();
    expect(verify(KEY, 'unit-a', s.subarray(0, 20))).toBeUndefined();
  });
});

describe('configuration', () => {
  it('reads the config file, lets the environment win, needs a team key, keeps passwords out of messages', () => {
    const dir = mkTempDir('remote-cfg');
    fs.writeFileSync(path.join(dir, 'team.key'), 'from-file\n');
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ remote: { url: 'redis://127.0.0.1:1/0', keyFile: 'team.key', timeoutMs: 30 } }));
    const a = remoteConfig({ PTXD_CONFIG: file }) as RemoteConfig;
    expect(a.url).toBe('redis://127.0.0.1:1/0');
    expect(a.key.toString()).toBe('from-file');
    expect(a.timeoutMs).toBe(30);
    expect(a.writeKey).toBeUndefined();
    const b = remoteConfig({ PTXD_CONFIG: file, PTXD_REMOTE: 'http://h:1/c', PTXD_REMOTE_KEY: 'env', PTXD_REMOTE_WRITE_KEY: 'w', PTXD_REMOTE_TIMEOUT_MS: '7' }) as RemoteConfig;
    expect([b.url, b.key.toString(), b.writeKey, b.timeoutMs]).toEqual(['http://h:1/c', 'env', 'w', 7]);
    expect(remoteConfig({ PTXD_CONFIG: file, PTXD_REMOTE: 'off' })).toBeUndefined();
    expect(remoteConfig({ PTXD_CONFIG: path.join(dir, 'none.json') })).toBeUndefined();
    const noKey = remoteConfig({ PTXD_CONFIG: path.join(dir, 'none.json'), PTXD_REMOTE: 'redis://u:secret@h:1' });
    expect(noKey && 'error' in noKey && noKey.error).toMatch(/no team key/);
    fs.writeFileSync(path.join(dir, 'bad.json'), '{ remote: ');
    const bad = remoteConfig({ PTXD_CONFIG: path.join(dir, 'bad.json') });
    expect(bad && 'error' in bad && bad.error).toMatch(/not valid JSON/);
    expect(redact('redis://u:secret@h:1/0')).toBe('redis://u:***@h:1/0');
    expect(redact('https://tok@h/x')).toBe('https://***@h/x');
  });
});

describe.skipIf(redisSkip !== undefined)(`Redis backend and tier ${redisSkip ?? ''}`, () => {
  let redis: RedisServer;
  const start = async () => {
    redis = await startRedis(path.join(mkTempDir('remote-unit-redis'), 'redis'));
    servers.push(redis);
    return redis;
  };

  it('GET/SET/PING round trip of binary and multi-megabyte values (redis-cli sees what was sent)', async () => {
    const r = await start();
    const b = new RedisBackend(r.url, backendOptions);
    try {
      expect(await b.ping()).toBe(true);
      expect(await b.get('nothing')).toBeUndefined();
      const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      await b.put('bin', all);
      const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'ptx ');
      await b.put('big', big);
      expect(r.cli('STRLEN', 'ptxd:bin')).toBe('256');
      expect(r.cli('STRLEN', 'ptxd:big')).toBe(String(big.length));
      const [x, y] = await Promise.all([b.get('bin'), b.get('big')]);   // pipelined on one connection
      expect(x!.equals(all)).toBe(true);
      expect(y!.equals(big)).toBe(true);
    } finally {
      b.close();
    }
  });

  it('a tier writes only with the write key, verifies what it reads, and stops asking a stopped server', async () => {
    const r = await start();
    const reader = new RemoteTier(config(r.url), new RedisBackend(r.url, backendOptions));
    const writer = new RemoteTier(config(r.url, { writeKey: 'w' }), new RedisBackend(r.url, backendOptions));
    try {
      expect(await reader.get('k1')).toBeUndefined();
      reader.offer('k1', value('.version 9.0\n'));
      await reader.flushed(5000);
      expect(r.cli('DBSIZE')).toBe('0');   // read-only: nothing reached the server

      writer.offer('k1', value('.version 9.0\n'));
      await writer.flushed(5000);
      expect(r.cli('EXISTS', `ptxd:${unitName('k1')}`)).toBe('1');
      expect(await reader.get('k1')).toEqual(value('.version 9.0\n'));
      // The same signed bytes under another key: rejected.
      r.cli('COPY', `ptxd:${unitName('k1')}`, `ptxd:${unitName('k2')}`);
      expect(await reader.get('k2')).toBeUndefined();
      const c = reader.drain();
      expect(c).toMatchObject({ remoteHits: 1, remoteMisses: 1, remoteBadSignatures: 1, remoteErrors: 0 });
      expect(writer.drain()).toMatchObject({ remoteWrites: 1, remoteWriteErrors: 0 });
    } finally {
      reader.close();
      writer.close();
    }

    // A server that accepts connections but never answers (SIGSTOP): reads time out, then the breaker opens.
    const slow = new RemoteTier(config(r.url, { timeoutMs: 50 }), new RedisBackend(r.url, { ...backendOptions, timeoutMs: 50 }));
    // The same with no cool-down: every read after the breaker opened is a probe, and the first that succeeds closes it.
    const recovering = new RemoteTier(config(r.url, { timeoutMs: 300, breakerCooldownMs: 0 }), new RedisBackend(r.url, { ...backendOptions, timeoutMs: 300 }));
    r.proc.kill('SIGSTOP');
    try {
      for (let i = 0; i < 4; i++) expect(await slow.get('k1')).toBeUndefined();
      expect(slow.drain()).toMatchObject({ remoteErrors: 2, remoteSkipped: 2, remoteHits: 0 });
      expect(slow.status().breaker).toBe('open');
      for (let i = 0; i < 2; i++) expect(await recovering.get('k1')).toBeUndefined();
      expect(recovering.status().breaker).toBe('half-open');
    } finally {
      r.proc.kill('SIGCONT');
    }
    try {
      expect(await recovering.get('k1')).toEqual(value('.version 9.0\n'));
      expect(recovering.status().breaker).toBe('closed');
      expect(recovering.drain()).toMatchObject({ remoteErrors: 2, remoteHits: 1 });
    } finally {
      slow.close();
      recovering.close();
    }
  });

  it('a closed port: reads fail (connection refused) and open the breaker; with no cool-down the next read is a probe', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}/0`;
    const t = new RemoteTier(config(url, { breakerCooldownMs: 0 }), new RedisBackend(url, backendOptions));
    try {
      expect(await t.get('a')).toBeUndefined();
      expect(await t.get('a')).toBeUndefined();
      expect(t.drain()).toMatchObject({ remoteErrors: 2 });
      expect(t.status().breaker).toBe('half-open');   // cool-down 0: the next request is a probe
    } finally {
      t.close();
    }
  });
});

describe('ptxd cache serve and the HTTP backend', () => {
  let srv: ObjectServer;
  it('GET/PUT objects; writes need the write key; objects land whole (temp + rename)', async () => {
    const dir = mkTempDir('remote-serve');
    fs.writeFileSync(path.join(dir, 'wk'), 'ci-secret\n');
    srv = await startServe(dir, process.env, ['--write-key-file', path.join(dir, 'wk')]);
    servers.push(srv);
    const ro = new HttpBackend(srv.url, backendOptions);
    const rw = new HttpBackend(srv.url, { ...backendOptions, writeKey: 'ci-secret' });
    const wrong = new HttpBackend(srv.url, { ...backendOptions, writeKey: 'guess' });
    try {
      expect(await ro.get('unit-abc')).toBeUndefined();
      await expect(ro.put('unit-abc', Buffer.from('x'))).rejects.toThrow(/HTTP 403/);
      await expect(wrong.put('unit-abc', Buffer.from('x'))).rejects.toThrow(/HTTP 403/);
      expect(srv.objects()).toEqual([]);
      const big = Buffer.alloc(2 * 1024 * 1024 + 3, 7);
      await rw.put('unit-abc', big);
      expect(srv.objects()).toEqual(['unit-abc']);
      expect((await ro.get('unit-abc'))!.equals(big)).toBe(true);
      expect(fs.readFileSync(path.join(srv.dir, 'un', 'unit-abc')).equals(big)).toBe(true);
      await expect(ro.get('../etc/passwd')).rejects.toThrow(/HTTP 400/);
      // A malformed escape is a bad name too, not a crash of the server.
      const res = await fetch(`${srv.url}/%E0%A4%A`);
      expect(res.status).toBe(400);
      expect((await ro.get('unit-abc'))!.length).toBe(big.length);
      // The server's own counters (`ptxd cache serve` prints them on exit too): 2 object hits, 1 miss, 1 write,
      // 2 refused, and the bytes of what it sent and took.
      const st = await (await fetch(`${srv.url}/_stats`)).json();
      expect(st).toEqual({ hits: 2, misses: 1, writes: 1, refused: 2, tooLarge: 0, failed: 0, bytesOut: 2 * big.length, bytesIn: big.length });
    } finally {
      ro.close(); rw.close(); wrong.close();
    }
  });

  it('a server that is gone: the tier misses, counts errors, opens the breaker', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const t = new RemoteTier(config(url), new HttpBackend(url, backendOptions));
    try {
      for (let i = 0; i < 3; i++) expect(await t.get('a')).toBeUndefined();
      expect(t.drain()).toMatchObject({ remoteErrors: 2, remoteSkipped: 1 });
      expect(t.status().breaker).toBe('open');
    } finally {
      t.close();
    }
  });
});

describe('unit keys shared with a team', () => {
  it('hold no absolute path: the source path name is not keyed (nor seen by the compiler); the module id only by its length, and moved on a hit', () => {
    const dir = mkTempDir('remote-key');
    const ii = path.join(dir, 'k.cpp1.ii');
    fs.writeFileSync(ii, '__attribute__((global)) void k() {}\n');
    const seen: CompileOptions[] = [];
    const compileUnit = (_text: string, o: CompileOptions): CompileResult => {
      seen.push(o);
      return { ok: true, ptx: `// ${o.moduleId}\n`, stub: '', diagnostics: [], times: { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 } };
    };
    const svc = new UnitService({ cacheDir: path.join(dir, 'cache'), sizeLimit: 1 << 30, env: { ...process.env, PTXD_CACHE: undefined }, warnOnce: false, compileUnit });
    try {
      const o = { ...defaultOptions(), arch: 90, moduleId: '_1_k', origSrcFileName: 'k.cu' };
      expect(svc.handle({ input: ii, options: { ...o, origSrcPathName: '/home/alice/proj/k.cu' }, env: {} }).cached).toBe(false);
      expect(svc.handle({ input: ii, options: { ...o, origSrcPathName: '/builds/ci/proj/k.cu' }, env: {} }).cached).toBe(true);
      expect(seen.map(x => x.origSrcPathName)).toEqual(['']);
      // Another id of the same length: the cached result with the id swapped (service/relocate.ts), as a compile with it gives.
      const moved = svc.handle({ input: ii, options: { ...o, moduleId: '_2_k' }, env: {} });
      expect(moved.cached).toBe(true);
      expect(moved.ptx).toBe('// _2_k\n');
      expect(svc.handle({ input: ii, options: { ...o, moduleId: '_22_k' }, env: {} }).cached).toBe(false);
      expect(seen.map(x => x.moduleId)).toEqual(['_1_k', '_22_k']);
    } finally {
      svc.close();
    }
  });
});
