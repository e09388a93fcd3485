// The daemon with the real nvcc (PTXD_FALLBACK=never): nvcc modes through --cicc-prefix, and the
// robustness cases: stale socket, 32 concurrent clients, a corrupted LMDB value, an unusable cache
// directory, version handshake (replace an older daemon, leave a newer one alone), a daemon that dies
// mid-request, idle and SIGTERM shutdown, `ptxd daemon …`. Each test has its own cache dir and socket
// (never a shared daemon) and stops its daemon at the end.
//
// Oracles: ptxas (nvcc -c/-cubin run it on our PTX), and the same compiler run in-process without the
// daemon (PTXD_DAEMON=0) for byte comparisons of what travels through the daemon and the cache.

import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Socket } from 'node:net';
import * as path from 'node:path';
import { KERNELS_DIR, REPO_ROOT, ciccArgv, ciccOutputs, mkTempDir, prepareUnits, requireTool, run, skipReason, type PreparedUnit } from './helpers/tools';
import {
  PTXD_CICC_BIN, alive, builtIdentity, daemonPid, ptxd, runAsync, sandbox, stats, stopDaemon, waitFor, type DaemonSandbox,
} from './helpers/daemon';
import { encodeFrame, FrameReader, type Message } from '../protocol/messages';
import { Store } from '../service/store/store';
import { newNonce, proof, writeKey } from '../protocol/auth';

const skip = skipReason('nvcc', 'ptxas');
const sandboxes: DaemonSandbox[] = [];
function box(name: string, env: NodeJS.ProcessEnv = {}): DaemonSandbox {
  const sb = sandbox(name, env);
  sandboxes.push(sb);
  return sb;
}
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

const SAXPY = path.join(KERNELS_DIR, 'saxpy.cu');

function nvcc(sb: DaemonSandbox, args: string[], env: NodeJS.ProcessEnv = {}) {
  return run(requireTool('nvcc'), [...args, `--cicc-prefix=${PTXD_CICC_BIN}`], { env: { ...sb.env, ...env }, cwd: sb.dir });
}

/** ptxd-cicc on a prepared unit (the exact argv nvcc used), outputs into `out`. */
function cicc(sb: DaemonSandbox, u: PreparedUnit, out: string, env: NodeJS.ProcessEnv = {}) {
  fs.mkdirSync(out, { recursive: true });
  return runAsync(process.execPath, [PTXD_CICC_BIN, u.realCicc, ...ciccArgv(u, out)], { env: { ...sb.env, ...env } });
}

/** The PTX of a unit compiled in-process, without any daemon, in a cache of its own. */
async function referencePtx(u: PreparedUnit): Promise<string> {
  const sb = sandbox('ref', { PTXD_DAEMON: '0' });
  const out = path.join(sb.dir, 'out');
  const r = await cicc(sb, u, out);
  if (r.code !== 0) throw new Error(`in-process compile failed: ${r.err}`);
  return fs.readFileSync(ciccOutputs(out).ptx, 'utf8');
}

/**
 * A fake daemon on the sandbox socket that answers the handshake as told and records what it got. With
 * `key`, it writes a key beside the socket and proves it holds it (as this build's daemon does); without,
 * it answers as a daemon of an older build that had no key.
 */
function fakeDaemon(sb: DaemonSandbox, welcome: object, onCompile: 'drop' | 'ignore', onShutdown: 'exit' | 'ignore', key = false) {
  const got: string[] = [];
  const conns = new Set<Socket>();
  const secret = key ? writeKey(sb.socket) : undefined;
  const server = createServer(c => {
    conns.add(c);
    const reader = new FrameReader();
    const nonce = newNonce();
    c.on('data', chunk => {
      for (const m of reader.push(chunk) as Message[]) {
        got.push(m.t);
        const p = secret && m.t === 'hello' ? { nonce, proof: proof(secret, 'daemon', m.nonce!, nonce) } : {};
        if (m.t === 'hello') c.write(encodeFrame({ t: 'welcome', pid: 1, ...welcome, ...p } as Message));
        if (m.t === 'compile' && onCompile === 'drop') { close(); c.destroy(); }
        if (m.t === 'shutdown' && onShutdown === 'exit') { c.write(encodeFrame({ t: 'ok', id: m.id })); close(); c.end(); }
      }
    });
    c.on('error', () => {});
  });
  const close = () => { server.close(); for (const c of conns) c.destroy(); try { fs.unlinkSync(sb.socket); } catch { /* gone */ } };
  return { got, close, listening: new Promise<void>(r => server.listen(sb.socket, () => r())) };
}

describe.skipIf(skip !== undefined)(`daemon with the real nvcc ${skip ?? ''}`, () => {
  it('nvcc -ptx, -cubin, -c and two -gencode targets in one command go through the daemon; a rebuild is a hit', async () => {
    const sb = box('modes');
    let r = nvcc(sb, ['-arch=sm_90', '-ptx', SAXPY, '-o', 'd.ptx']);
    expect(r.status, r.stderr).toBe(0);
    const viaDaemon = fs.readFileSync(path.join(sb.dir, 'd.ptx'), 'utf8');
    expect(viaDaemon).toContain('.entry');
    // Through the daemon == in-process (what travels over the socket and through LMDB is exact).
    r = nvcc(sb, ['-arch=sm_90', '-ptx', SAXPY, '-o', 'i.ptx'], { PTXD_DAEMON: '0', PTXD_CACHE_DIR: path.join(sb.dir, 'other-cache') });
    expect(r.status, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sb.dir, 'i.ptx'), 'utf8')).toBe(viaDaemon);
    const s1 = stats(sb);
    expect(s1.daemon, 'a daemon was started').not.toBeNull();
    expect(s1.counters).toMatchObject({ requests: 1, misses: 1, hits: 0 });

    r = nvcc(sb, ['-arch=sm_90', '-ptx', SAXPY, '-o', 'd2.ptx']);
    expect(r.status, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sb.dir, 'd2.ptx'), 'utf8')).toBe(viaDaemon);
    expect(stats(sb).counters).toMatchObject({ requests: 2, misses: 1, hits: 1 });

    r = nvcc(sb, ['-arch=sm_90', '-cubin', SAXPY, '-o', 'k.cubin']);
    expect(r.status, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sb.dir, 'k.cubin')).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));

    const keep = path.join(sb.dir, 'keep');
    fs.mkdirSync(keep);
    r = nvcc(sb, ['-gencode', 'arch=compute_80,code=sm_80', '-gencode', 'arch=compute_90,code=sm_90', '-c', SAXPY, '-o', 'two.o', '--keep', '--keep-dir', keep]);
    expect(r.status, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(keep, 'saxpy.compute_80.ptx'), 'utf8')).toMatch(/^\.target sm_80$/m);
    expect(fs.readFileSync(path.join(keep, 'saxpy.compute_90.ptx'), 'utf8')).toMatch(/^\.target sm_90$/m);
    expect(fs.existsSync(path.join(keep, 'saxpy.compute_80.cubin')) && fs.existsSync(path.join(keep, 'saxpy.compute_90.cubin'))).toBe(true);
    // -cubin is -ptx's unit again (a hit). In -c mode cudafe++ writes the module id file, while in
    // -ptx/-cubin mode the id is generated (--gen_module_id_file): the ids differ but have one length, and
    // the key keeps only the length (service/relocate.ts), so compute_90 is a hit moved to cudafe++'s id;
    // compute_80 misses.
    expect(stats(sb).counters).toMatchObject({ requests: 5, hits: 3, misses: 2, movedHits: 1 });
  });

  it('-rdc=true and -lineinfo compile; -G is refused visibly (a fallback when fallbacks are allowed)', () => {
    const sb = box('flags');
    for (const flags of [['-rdc=true', '-c'], ['-dc'], ['-lineinfo', '-c']]) {
      const r = nvcc(sb, ['-arch=sm_90', ...flags, SAXPY, '-o', 'x.o']);
      expect(r.status, `${flags.join(' ')}: ${r.stderr}`).toBe(0);
    }
    let r = nvcc(sb, ['-arch=sm_90', '-G', '-c', SAXPY, '-o', 'g.o']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('ptxd cannot compile this unit: unsupported option -g');
    r = nvcc(sb, ['-arch=sm_90', '-G', '-c', SAXPY, '-o', 'g.o'], { PTXD_FALLBACK: '' });
    expect(r.status, r.stderr).toBe(0);
    const fb = fs.readFileSync(path.join(sb.cacheDir, 'fallbacks.jsonl'), 'utf8');
    expect(fb).toContain('unsupported option -g');
    expect(stats(sb).fallbacks.total).toBe(1);
  });

  it('a stale socket file from a dead daemon is recovered', async () => {
    const sb = box('stale');
    // A process that binds the socket and dies without cleaning up.
    spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(sb.socket)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    expect(fs.statSync(sb.socket).isSocket()).toBe(true);
    const r = nvcc(sb, ['-arch=sm_90', '-ptx', SAXPY, '-o', 'd.ptx']);
    expect(r.status, r.stderr).toBe(0);
    expect(stats(sb).daemon).not.toBeNull();
    expect(fs.readFileSync(`${sb.socket}.log`, 'utf8')).toContain('removing stale socket');
  });

  it('32 clients at once (8 units x 4) get correct outputs from one auto-started daemon', async () => {
    const names = ['saxpy', 'reduce_shared', 'histogram', 'scan', 'matmul_tiled', 'stencil_1d', 'bitonic_sort', 'vote'];
    const units = names.map(n => prepareUnits(path.join(KERNELS_DIR, `${n}.cu`), [90]).get(90)!);
    const refs = await Promise.all(units.map(referencePtx));
    const sb = box('c32');
    const jobs = Array.from({ length: 32 }, (_, i) => ({ u: units[i % 8]!, ref: refs[i % 8]!, out: path.join(sb.dir, `out${i}`) }));
    const results = await Promise.all(jobs.map(j => cicc(sb, j.u, j.out)));
    results.forEach((r, i) => {
      expect(r.code, r.err).toBe(0);
      expect(fs.readFileSync(ciccOutputs(jobs[i]!.out).ptx, 'utf8'), `client ${i}`).toBe(jobs[i]!.ref);
    });
    const st = stats(sb);
    expect(st.counters.requests).toBe(32);
    expect(st.counters.hits + st.counters.misses).toBe(32);
    expect(st.cache?.entries).toBe(8);
    // One daemon, however many clients raced to start it.
    const starts = fs.readFileSync(`${sb.socket}.log`, 'utf8').split('\n').filter(l => l.includes('] started:'));
    expect(starts.length).toBe(1);
  });

  it('a corrupted LMDB value is detected, not used, and rewritten', async () => {
    const u = prepareUnits(SAXPY, [90]).get(90)!;
    const sb = box('corrupt');
    const r1 = await cicc(sb, u, path.join(sb.dir, 'o1'));
    expect(r1.code, r1.err).toBe(0);
    const good = fs.readFileSync(ciccOutputs(path.join(sb.dir, 'o1')).ptx, 'utf8');
    const store = Store.open(sb.cacheDir, 1 << 30);
    const [key] = store.keys();
    const raw = store.getRaw(key!)!;
    raw[Math.floor(raw.length / 2)] ^= 0x20;   // one bit inside the PTX text
    store.putRaw(key!, raw);
    store.close();
    const r2 = await cicc(sb, u, path.join(sb.dir, 'o2'));
    expect(r2.code, r2.err).toBe(0);
    expect(fs.readFileSync(ciccOutputs(path.join(sb.dir, 'o2')).ptx, 'utf8')).toBe(good);
    expect(stats(sb).counters).toMatchObject({ requests: 2, corrupt: 1, misses: 2, hits: 0 });
    const v = ptxd(sb, ['cache', 'verify', '--json']);
    expect(v.code, v.err).toBe(0);
    expect(JSON.parse(v.out)).toEqual({ checked: 1, corrupt: 0 });
    const r3 = await cicc(sb, u, path.join(sb.dir, 'o3'));
    expect(r3.code, r3.err).toBe(0);
    expect(stats(sb).counters).toMatchObject({ hits: 1 });
    expect(JSON.parse(ptxd(sb, ['cache', 'info', '--json']).out)).toMatchObject({ entries: 1 });
    expect(JSON.parse(ptxd(sb, ['cache', 'clear', '--json']).out).removed).toContain('units.mdb');
    expect(JSON.parse(ptxd(sb, ['cache', 'info', '--json']).out)).toMatchObject({ entries: 0, bytes: 0 });
    expect(stats(sb).counters.requests).toBe(0);
  });

  it('an unusable cache directory degrades to no caching with a warning', async () => {
    const u = prepareUnits(SAXPY, [90]).get(90)!;
    const ref = await referencePtx(u);
    const dir = mkTempDir('d-unwritable');
    fs.writeFileSync(path.join(dir, 'file'), '');
    const sb = box('unwritable', { PTXD_CACHE_DIR: path.join(dir, 'file', 'cache') });
    const r = await cicc(sb, u, path.join(sb.dir, 'o'));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/warning: unit cache disabled: cannot use cache directory/);
    expect(fs.readFileSync(ciccOutputs(path.join(sb.dir, 'o')).ptx, 'utf8')).toBe(ref);
    const again = await cicc(sb, u, path.join(sb.dir, 'o2'));
    expect(again.code, again.err).toBe(0);
    expect(fs.readFileSync(ciccOutputs(path.join(sb.dir, 'o2')).ptx, 'utf8')).toBe(ref);
    // In-process too.
    const inproc = await cicc(sb, u, path.join(sb.dir, 'o3'), { PTXD_DAEMON: '0' });
    expect(inproc.code, inproc.err).toBe(0);
    expect(inproc.err).toMatch(/warning: unit cache disabled/);
  });

  it('a newer client replaces an older daemon; an older client leaves a newer daemon alone', async () => {
    const u = prepareUnits(SAXPY, [90]).get(90)!;
    const ref = await referencePtx(u);
    const sb = box('handshake');
    const me = builtIdentity(sb);
    const old = fakeDaemon(sb, { ...me, version: '0.0.1', stamp: 'old' }, 'ignore', 'exit');
    await old.listening;
    const r1 = await cicc(sb, u, path.join(sb.dir, 'o1'));
    expect(r1.code, r1.err).toBe(0);
    expect(old.got).toEqual(['hello', 'shutdown']);
    expect(fs.readFileSync(ciccOutputs(path.join(sb.dir, 'o1')).ptx, 'utf8')).toBe(ref);
    const real = ptxd(sb, ['daemon', 'status', '--json']);
    expect(JSON.parse(real.out)).toMatchObject({ running: true, stamp: me.stamp });
    await stopDaemon(sb);

    const newer = fakeDaemon(sb, { ...me, version: '99.0.0', stamp: 'new' }, 'ignore', 'ignore');
    await newer.listening;
    const r2 = await cicc(sb, u, path.join(sb.dir, 'o2'));
    newer.close();
    expect(r2.code, r2.err).toBe(0);
    expect(newer.got.every(t => t === 'hello')).toBe(true);   // never a compile, never a shutdown
    expect(fs.readFileSync(ciccOutputs(path.join(sb.dir, 'o2')).ptx, 'utf8')).toBe(ref);
  });

  it('a daemon that dies mid-request: the client retries with a new daemon', async () => {
    const u = prepareUnits(SAXPY, [90]).get(90)!;
    const ref = await referencePtx(u);
    const sb = box('dies');
    const dying = fakeDaemon(sb, builtIdentity(sb), 'drop', 'ignore', true);
    await dying.listening;
    const r = await cicc(sb, u, path.join(sb.dir, 'o'), { PTXD_VERBOSE: '1' });
    expect(r.code, r.err).toBe(0);
    expect(dying.got).toEqual(['hello', 'auth', 'compile']);
    expect(r.err).toContain('daemon request failed (attempt 1)');
    expect(fs.readFileSync(ciccOutputs(path.join(sb.dir, 'o')).ptx, 'utf8')).toBe(ref);
    expect(stats(sb).daemon).not.toBeNull();
  });

  it('idle shutdown and SIGTERM shut down cleanly (socket removed, log says why)', async () => {
    const u = prepareUnits(SAXPY, [90]).get(90)!;
    const idle = box('idle', { PTXD_IDLE_TIMEOUT: '1' });
    expect((await cicc(idle, u, path.join(idle.dir, 'o'))).code).toBe(0);
    const p1 = daemonPid(idle)!;
    expect(await waitFor(() => !alive(p1), 30_000)).toBe(true);
    expect(fs.existsSync(idle.socket)).toBe(false);
    expect(fs.readFileSync(`${idle.socket}.log`, 'utf8')).toContain('shutting down (idle)');

    const term = box('term');
    expect((await cicc(term, u, path.join(term.dir, 'o'))).code).toBe(0);
    const p2 = daemonPid(term)!;
    process.kill(p2, 'SIGTERM');
    expect(await waitFor(() => !alive(p2), 30_000)).toBe(true);
    expect(fs.existsSync(term.socket)).toBe(false);
    expect(fs.readFileSync(`${term.socket}.log`, 'utf8')).toContain('shutting down (SIGTERM)');
    // Its counters were written before it exited.
    expect(stats(term).counters.requests).toBe(1);
  });

  it('ptxd daemon start, status, restart, stop', () => {
    const sb = box('cli');
    let r = ptxd(sb, ['daemon', 'status']);
    expect(r.code).toBe(3);
    expect(r.out).toContain('no ptxd daemon running');
    r = ptxd(sb, ['daemon', 'start']);
    expect(r.code, r.err).toBe(0);
    const p1 = daemonPid(sb)!;
    expect(alive(p1)).toBe(true);
    expect(ptxd(sb, ['daemon', 'status']).code).toBe(0);
    expect(ptxd(sb, ['daemon', 'start']).out).toContain('already running');
    r = ptxd(sb, ['daemon', 'restart']);
    expect(r.code, r.err).toBe(0);
    const p2 = daemonPid(sb)!;
    expect(p2).not.toBe(p1);
    expect(alive(p1)).toBe(false);
    r = ptxd(sb, ['daemon', 'stop']);
    expect(r.out).toContain(`stopped ptxd daemon (pid ${p2})`);
    expect(ptxd(sb, ['daemon', 'status']).code).toBe(3);
    expect(ptxd(sb, ['daemon', '--help']).out).toContain('restart');
    expect(ptxd(sb, ['cache', '--help']).out).toContain('verify');
  });
});
