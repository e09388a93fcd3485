// Client and daemon trust only each other (daemon/auth.ts, issue 31), tried as a hostile local user
// would: a second local user created for the test (root only) runs a client against our daemon and plants
// fake daemons where our clients look for one. Both clients (Node and native) are tried; the fakes record
// every connection and byte they get. Also: the socket and files beside it under umask 000, symlinks
// planted as pid/log/lock/key files, a daemon that names a program to run, junk token counts.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import * as path from 'node:path';
import { KERNELS_DIR, REPO_ROOT, ciccArgv, ciccOutputs, mkTempDir, prepareUnit, skipReason, type PreparedUnit } from './helpers/tools';
import { HAVE_CC, PTXD, PTXD_CICC_BIN, builtIdentity, handshake, ptxd, runAsync, sandbox, startDaemon, stats, stopDaemon, waitFor, type DaemonSandbox } from './helpers/daemon';
import { encodeFrame, FrameReader, type Message } from '../protocol/messages';
import { clientIdentity } from '../protocol/connection';
import { CLIENT_ENV_VARS } from '../daemon/client-env';
import { newNonce, proof, writeKey } from '../protocol/auth';
import { NATIVE_CLIENT } from '../protocol/version';

const skip = skipReason('nvcc') ?? (HAVE_CC ? undefined : 'skipped: no C compiler, so no native client');
const IS_ROOT = process.getuid?.() === 0;
const userSkip = !IS_ROOT ? 'skipped: not root (a second local user needs useradd)'
  : spawnSync('useradd', ['--help'], { stdio: 'ignore' }).error ? 'skipped: no useradd' : undefined;

const SAXPY = path.join(KERNELS_DIR, 'saxpy.cu');
/** A secret of the build's environment that no daemon needs (the team cache's write key). */
const SECRET = { PTXD_REMOTE_WRITE_KEY: 'write-key-that-must-stay-home' };

const sandboxes: DaemonSandbox[] = [];
function box(name: string, extra: NodeJS.ProcessEnv = {}): DaemonSandbox {
  const sb = sandbox(`sec-${name}`, { PTXD_CACHE: '0', ...SECRET, ...extra });
  sandboxes.push(sb);
  return sb;
}
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

/** The Node client and the native one (bin/ptxd-cicc runs it when built), on one prepared unit. */
const CLIENTS: [string, (sb: DaemonSandbox) => string[]][] = [
  ['Node client', () => [process.execPath, PTXD_CICC_BIN]],
  ['native client', () => [PTXD_CICC_BIN]],
];

function callClient(client: string[], u: PreparedUnit, out: string, env: NodeJS.ProcessEnv) {
  fs.mkdirSync(out, { recursive: true });
  return runAsync(client[0]!, [...client.slice(1), u.realCicc, ...ciccArgv(u, out)], { env });
}

const mode = (p: string) => fs.lstatSync(p).mode & 0o777;

describe.skipIf(skip !== undefined)(`client and daemon trust only each other ${skip ?? ''}`, () => {
  let u: PreparedUnit;
  let ref: string;
  beforeAll(async () => {
    expect(fs.existsSync(NATIVE_CLIENT), `${NATIVE_CLIENT} was not built by npm run build`).toBe(true);
    u = prepareUnit(SAXPY, 90);
    const sb = box('ref', { PTXD_DAEMON: '0' });
    const out = path.join(sb.dir, 'out');
    const r = await callClient([process.execPath, PTXD_CICC_BIN], u, out, sb.env);
    expect(r.code, r.err).toBe(0);
    ref = fs.readFileSync(ciccOutputs(out).ptx, 'utf8');
  });

  it('under umask 000 the socket directory is 0700 and the socket, key, pid and log files 0600; both clients use the daemon', async () => {
    const sb = box('umask');
    sb.socket = path.join(sb.dir, 'run', 'd.sock');
    sb.env.PTXD_SOCKET = sb.socket;
    const r = spawnSync('sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, PTXD, 'daemon', 'start'], { env: sb.env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(mode(path.dirname(sb.socket))).toBe(0o700);
    expect(fs.lstatSync(sb.socket).isSocket()).toBe(true);
    for (const p of [sb.socket, `${sb.socket}.key`, `${sb.socket}.pid`, `${sb.socket}.log`]) expect(mode(p), p).toBe(0o600);
    for (const [name, client] of CLIENTS) {
      const before = stats(sb).daemon!;
      const out = path.join(sb.dir, name.split(' ')[0]!);
      const c = await callClient(client(sb), u, out, sb.env);
      expect(c.code, c.err).toBe(0);
      expect(fs.readFileSync(ciccOutputs(out).ptx, 'utf8')).toBe(ref);
      const after = stats(sb).daemon!;
      expect(after.served, name).toBe(before.served + 1);   // through the daemon, not in-process
      expect(after.ciccCalls, name).toBe(before.ciccCalls + (name === 'native client' ? 1 : 0));
    }
  });

  it('pid, log, lock and key files planted as symlinks are not followed (the victims stay as they were)', () => {
    const sb = box('symlinks');
    const victims = mkTempDir('sec-victims');
    const planted: string[] = [];
    for (const ext of ['pid', 'log', 'lock', 'key']) {
      const v = path.join(victims, ext);
      fs.writeFileSync(v, `victim ${ext}\n`);
      fs.symlinkSync(v, `${sb.socket}.${ext}`);
      planted.push(`${sb.socket}.${ext}`);
    }
    const r = ptxd(sb, ['daemon', 'start']);
    expect(r.code, r.err).toBe(0);
    for (const ext of ['pid', 'log', 'lock', 'key']) expect(fs.readFileSync(path.join(victims, ext), 'utf8'), ext).toBe(`victim ${ext}\n`);
    for (const p of planted.filter(p => !p.endsWith('.lock'))) expect(fs.lstatSync(p).isFile(), p).toBe(true);
    expect(fs.existsSync(`${sb.socket}.lock`)).toBe(false);   // the starter's lock is gone after the start
    expect(JSON.parse(ptxd(sb, ['daemon', 'status', '--json']).out)).toMatchObject({ running: true });
  });

  it('a daemon that answers with a program to run: the native client runs its own real cicc and sends only the allowed environment', async () => {
    const sb = box('names-a-program');
    const key = writeKey(sb.socket);
    const me = builtIdentity(sb);
    const pwned = path.join(sb.dir, 'pwned');
    const got: Message[] = [];
    const server = createServer(c => {
      const reader = new FrameReader();
      const nonce = newNonce();
      c.on('error', () => {});
      c.on('data', chunk => {
        for (const m of reader.push(chunk)) {
          got.push(m);
          if (m.t === 'hello') c.write(encodeFrame({ t: 'welcome', pid: 1, ...me, nonce, proof: proof(key, 'daemon', m.nonce!, nonce) }));
          else if (m.t === 'cicc') {
            // an answer that names a program (as the old protocol's `exec` did) along with the fallback flag
            c.end(encodeFrame({ t: 'cicc-done', id: m.id, code: 0, stderr: '', fallback: true, exec: ['/bin/sh', '-c', `touch ${pwned}`] } as unknown as Message));
          } else if (m.t !== 'auth') c.destroy();   // not the native client's call: the test fails below
        }
      });
    });
    await new Promise<void>(r => server.listen(sb.socket, () => r()));
    try {
      const out = path.join(sb.dir, 'out');
      const argv = [...ciccArgv(u, out), '--trace-env', 'PTXD_TEST_OFFSET'];
      fs.mkdirSync(out);
      const r = await runAsync(PTXD_CICC_BIN, [u.realCicc, ...argv], { env: { ...sb.env, PTXD_FALLBACK: 'always', PTXD_TEST_OFFSET: '7' } });
      expect(r.code, r.err).toBe(0);
      expect(fs.existsSync(pwned)).toBe(false);
      // the real cicc wrote the PTX (its own header, not ptxd's)
      expect(fs.readFileSync(ciccOutputs(out).ptx, 'utf8')).toMatch(/Generated by NVIDIA NVVM Compiler/);
      expect(got.map(m => m.t)).toEqual(['hello', 'auth', 'cicc']);
      const env = (got[2] as Extract<Message, { t: 'cicc' }>).env;
      expect(Object.keys(env).length).toBeGreaterThan(0);
      for (const k of Object.keys(env)) expect([...CLIENT_ENV_VARS, 'PTXD_TEST_OFFSET'], k).toContain(k);
      expect(env.PTXD_TEST_OFFSET).toBe('7');
      expect(JSON.stringify(got)).not.toContain(SECRET.PTXD_REMOTE_WRITE_KEY);
    } finally {
      server.close();
    }
  });

  it('token counts a client reports are checked: junk never reaches the stats', async () => {
    const sb = box('tokens');
    startDaemon(sb);
    const sock = connect(sb.socket);
    const got: Message[] = [];
    const reader = new FrameReader();
    sock.on('data', d => { got.push(...reader.push(d)); });
    await new Promise<void>(r => sock.once('connect', () => r()));
    const hs = handshake(sb);
    sock.write(hs.hello);
    await waitFor(() => got.some(m => m.t === 'welcome'), 30_000);
    sock.write(Buffer.concat([
      hs.auth(got),
      encodeFrame({ t: 'tokens-got', id: 7, n: 'abc' } as unknown as Message),
      encodeFrame({ t: 'tokens-got', id: 7, n: 2 }),
      encodeFrame({ t: 'tokens-returned', id: 7, n: '0abc' } as unknown as Message),
      encodeFrame({ t: 'tokens-returned', id: 7, n: -5 }),
      encodeFrame({ t: 'tokens-returned', id: 7, n: 1.5 }),
      encodeFrame({ t: 'tokens-returned', id: 7, n: 2 }),
      encodeFrame({ t: 'status', id: 8 }),
    ]));
    await waitFor(() => got.some(m => m.t === 'status-reply'), 30_000);
    sock.destroy();
    const st = (got.find(m => m.t === 'status-reply') as Extract<Message, { t: 'status-reply' }>).status.scheduler!;
    expect(st.extraTokensAcquired).toBe(2);
    expect(st.extraTokensReturned).toBe(2);
  });

  it('ptxd daemon start refuses a socket directory that is a symlink or open to others, in one line', () => {
    const sb = box('start-refused');
    const real = mkTempDir('sec-real-dir');
    const link = path.join(sb.dir, 'link');
    fs.symlinkSync(real, link);
    const open = path.join(sb.dir, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    for (const dir of [link, open]) {
      const r = ptxd(sb, ['daemon', 'start'], { PTXD_SOCKET: path.join(dir, 'd.sock') });
      expect(r.code).toBe(1);
      expect(r.err.trimEnd().split('\n'), r.err).toHaveLength(1);
      expect(r.err).toMatch(/^ptxd: error: the socket directory .* (is not a directory|is open to other users)/);
      expect(fs.readdirSync(dir)).toEqual([]);
    }
  });

  describe.skipIf(userSkip !== undefined)(`against a second local user ${userSkip ?? ''}`, () => {
    const name = `ptxdsec${process.pid % 100000}`;
    let uid = 0;
    let gid = 0;
    const children: ChildProcess[] = [];
    beforeAll(() => {
      spawnSync('userdel', [name], { stdio: 'ignore' });
      const r = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      uid = Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout);
      gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout);
      expect(uid).toBeGreaterThan(0);
    });
    afterAll(() => {
      for (const c of children) c.kill('SIGKILL');
      spawnSync('userdel', [name], { stdio: 'ignore' });
    });

    /** A directory of the other user's. */
    function theirDir(tag: string): string {
      const d = mkTempDir(`sec-${tag}`);
      fs.chownSync(d, uid, gid);
      return d;
    }

    /** Node code run as the other user; its stdout lines are collected. */
    function asThem(code: string, args: string[]): { child: ChildProcess; lines: string[]; exited: Promise<number | null> } {
      const child = spawn(process.execPath, ['-e', code, ...args], { uid, gid, env: { PATH: '/usr/bin:/bin' }, cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      const lines: string[] = [];
      let buf = '';
      child.stdout!.on('data', d => {
        buf += String(d);
        const parts = buf.split('\n');
        buf = parts.pop()!;
        lines.push(...parts);
      });
      return { child, lines, exited: new Promise(r => child.on('exit', c => r(c))) };
    }

    /** A fake daemon of theirs: it reports every connection and every byte it gets. */
    async function fakeDaemon(sock: string): Promise<{ lines: string[]; stop: () => void }> {
      const f = asThem(`
        const net = require('node:net');
        const s = net.createServer(c => {
          process.stdout.write('connection\\n');
          // whatever it gets ends the connection: a client that talked to it goes on without a daemon
          c.on('data', d => { process.stdout.write('bytes ' + d.length + '\\n'); c.destroy(); });
          c.on('error', () => {});
        });
        s.listen(process.argv[1], () => { require('node:fs').chmodSync(process.argv[1], 0o777); process.stdout.write('listening\\n'); });
      `, [sock]);
      await waitFor(() => f.lines.includes('listening'), 30_000);
      expect(f.lines).toContain('listening');
      return { lines: f.lines, stop: () => f.child.kill('SIGKILL') };
    }

    /** Both clients compile the unit in-process (the PTX of the reference) and the fake gets nothing. */
    async function clientsStayAway(sb: DaemonSandbox, fake: { lines: string[] }): Promise<void> {
      for (const [cname, client] of CLIENTS) {
        const out = path.join(sb.dir, `out-${cname.split(' ')[0]}`);
        const r = await callClient(client(sb), u, out, sb.env);
        expect(r.code, `${cname}: ${r.err}`).toBe(0);
        expect(fs.readFileSync(ciccOutputs(out).ptx, 'utf8'), cname).toBe(ref);
      }
      expect(fake.lines).toEqual(['listening']);
      // the fake was there to be reached: a plain connection gets through
      const c: Socket = connect(sb.socket);
      await new Promise<void>((res, rej) => { c.once('connect', () => res()); c.once('error', rej); });
      c.end('x');
      await waitFor(() => fake.lines.some(l => l.startsWith('bytes')), 30_000);
      expect(fake.lines).toEqual(['listening', 'connection', 'bytes 1']);
    }

    it('a fake daemon whose socket belongs to another user (moved into our socket directory) gets no byte from either client', async () => {
      const sb = box('their-socket');
      const theirs = theirDir('their-sock');
      const fake = await fakeDaemon(path.join(theirs, 'f.sock'));
      try {
        fs.renameSync(path.join(theirs, 'f.sock'), sb.socket);
        writeKey(sb.socket);   // even a key of ours beside it does not make their socket ours
        expect(fs.lstatSync(sb.socket).uid).toBe(uid);
        await clientsStayAway(sb, fake);
      } finally {
        fake.stop();
      }
    });

    it('a fake daemon in a directory another user can write (mode 1777) gets no byte from either client', async () => {
      const shared = mkTempDir('sec-shared');
      fs.chmodSync(shared, 0o1777);
      const sock = path.join(shared, 'd.sock');
      const sb = box('shared-dir', { PTXD_SOCKET: sock });
      sb.socket = sock;
      const fake = await fakeDaemon(sock);
      try {
        await clientsStayAway(sb, fake);
      } finally {
        fake.stop();
      }
    });

    it('a client of another user that reaches our daemon is refused: no compile, no file written, no stats', async () => {
      const sb = box('foreign-client');
      startDaemon(sb);
      // What a careless setup would allow: the socket and its directory open to others.
      fs.chmodSync(sb.dir, 0o711);
      fs.chmodSync(sb.socket, 0o666);
      const victim = mkTempDir('sec-victim-out');
      fs.chmodSync(victim, 0o777);
      const cicc = (id: number): Message => ({
        t: 'cicc', id, argv: [u.realCicc, ...ciccArgv(u, victim)], env: { PATH: '/usr/bin:/bin' }, cwd: victim, pid: 1, ppid: 1, t0: Date.now(),
      });
      const req = { t: 'status', id: 9 } as Message;
      // three tries: a wrong proof; no proof at all; no handshake
      const tries = [
        [encodeFrame({ t: 'hello', ...clientIdentity(sb.env), nonce: newNonce() }), encodeFrame({ t: 'auth', proof: 'f'.repeat(64) }), encodeFrame(cicc(1)), encodeFrame(req),
          encodeFrame({ t: 'tokens-got', id: 1, n: 5 })],
        [encodeFrame({ t: 'hello', ...clientIdentity(sb.env), nonce: newNonce() }), encodeFrame(cicc(2)), encodeFrame(req)],
        [encodeFrame(cicc(3)), encodeFrame(req)],
      ].map(frames => Buffer.concat(frames).toString('hex'));
      const client = asThem(`
        const net = require('node:net');
        let left = process.argv.length - 2;
        for (const hex of process.argv.slice(2)) {
          const c = net.connect(process.argv[1]);
          const got = [];
          // all in one go, then our end closes: the daemon answers what it serves before closing its end
          c.on('connect', () => c.end(Buffer.from(hex, 'hex')));
          c.on('data', d => got.push(d));
          c.on('error', e => process.stdout.write('error ' + e.code + '\\n'));
          c.on('close', () => {
            process.stdout.write('closed ' + Buffer.concat(got).toString('hex') + '\\n');
            if (--left === 0) process.exit(0);
          });
        }
      `, [sb.socket, ...tries]);
      expect(await client.exited).toBe(0);
      const closed = client.lines.filter(l => l.startsWith('closed'));
      expect(closed, client.lines.join('\n')).toHaveLength(3);
      for (const l of closed) {
        const msgs = new FrameReader().push(Buffer.from(l.slice('closed '.length), 'hex'));
        // at most the welcome of the handshake; never a result, status or cicc answer
        expect(msgs.map(m => m.t).filter(t => t !== 'welcome'), l).toEqual([]);
      }
      expect(fs.readdirSync(victim)).toEqual([]);
      // our own clients refuse the open directory: closed again, they see the daemon's stats
      fs.chmodSync(sb.dir, 0o700);
      const s = stats(sb);
      expect(s.daemon).toMatchObject({ served: 0, ciccCalls: 0 });
      expect(s.counters.requests).toBe(0);
      expect(fs.readFileSync(`${sb.socket}.log`, 'utf8')).toMatch(/refused a client/);
    });

    it('ptxd daemon start prints one line when the socket directory belongs to another user', () => {
      const sb = box('their-dir');
      const theirs = theirDir('their-run');
      const r = ptxd(sb, ['daemon', 'start'], { PTXD_SOCKET: path.join(theirs, 'd.sock') });
      expect(r.code).toBe(1);
      expect(r.err.trimEnd().split('\n'), r.err).toHaveLength(1);
      expect(r.err).toMatch(/^ptxd: error: the socket directory .* belongs to another user/);
      expect(fs.readdirSync(theirs)).toEqual([]);
    });
  });
});
