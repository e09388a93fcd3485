// The native client (client/native/ptxd-cicc.c): bin/ptxd-cicc runs it, and it hands the whole cicc call
// to a running daemon of the same build (the daemon parses argv, compiles and writes the outputs). These
// tests check what must hold for it to stand in for the Node client: the same outputs, exit code and
// stderr as the Node client for the same call (relative paths resolved against the caller's cwd), and that
// every case it does not handle (no daemon, a daemon of another build, PTXD_NATIVE=0) still compiles,
// through the Node client. Real nvcc captures, real daemons, PTXD_FALLBACK=never.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KERNELS_DIR, ciccArgv, mkTempDir, prepareUnit, skipReason, type PreparedUnit } from './helpers/tools';
import { HAVE_CC, PTXD_CICC_BIN, ptxd, sandbox, startDaemon, stopDaemon, type DaemonSandbox } from './helpers/daemon';
import { NATIVE_CLIENT, REPO_ROOT, buildStamp, ptxdVersion } from '../protocol/version';
import { INSTALL_DIR } from '../protocol/paths';
import { PROTOCOL } from '../protocol/messages';

const skip = skipReason('nvcc') ?? (HAVE_CC ? undefined : 'skipped: no C compiler, so no native client');

/** The call with the input and every output relative to `cwd` (as nvcc gives them to cicc in a build directory). */
function relativeArgv(u: PreparedUnit, cwd: string): string[] {
  return ciccArgv(u, cwd).map(a => (path.isAbsolute(a) && (a.startsWith(cwd) || a === u.ii) ? path.relative(cwd, a) : a));
}

const OUTS = ['out.ptx', 'out.cudafe1.stub.c', 'out.cudafe1.c', 'out.cudafe1.gpu'];

function call(client: string[], u: PreparedUnit, cwd: string, env: NodeJS.ProcessEnv, argv = relativeArgv(u, cwd)) {
  for (const f of OUTS) fs.rmSync(path.join(cwd, f), { force: true });
  const r = spawnSync(client[0]!, [...client.slice(1), u.realCicc, ...argv], { cwd, env, encoding: 'utf8' });
  const outs = OUTS.map(f => (fs.existsSync(path.join(cwd, f)) ? fs.readFileSync(path.join(cwd, f), 'utf8') : null));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, outs };
}

const calls = (sb: DaemonSandbox) => JSON.parse(ptxd(sb, ['daemon', 'status', '--json']).out) as { running: boolean; served: number; ciccCalls: number };

describe.skipIf(skip !== undefined)(`native ptxd-cicc ${skip ?? ''}`, () => {
  const units = new Map<string, PreparedUnit>();
  let sb: DaemonSandbox;
  beforeAll(() => {
    expect(fs.existsSync(NATIVE_CLIENT), `${NATIVE_CLIENT} was not built by npm run build`).toBe(true);
    for (const name of ['saxpy', 'cxx2_virtual_loop', 'prelude_std']) units.set(name, prepareUnit(path.join(KERNELS_DIR, `${name}.cu`), 90));
    sb = sandbox('native', { PTXD_CACHE: '0' });
    startDaemon(sb);
  });
  afterAll(async () => { await stopDaemon(sb); });

  it('gives the Node client\'s outputs, exit code and stderr, with paths relative to its cwd', () => {
    for (const [name, u] of units) {
      const cwd = mkTempDir(`native-${name}`);
      const before = calls(sb).ciccCalls;
      const native = call([PTXD_CICC_BIN], u, cwd, sb.env);
      expect(calls(sb).ciccCalls, name).toBe(before + 1);
      const node = call([process.execPath, PTXD_CICC_BIN], u, cwd, sb.env);
      expect(calls(sb).ciccCalls, name).toBe(before + 1);   // the Node client's call is not a native one
      expect(native.code, native.stderr).toBe(0);
      expect(native).toEqual(node);
      expect(native.outs.every(o => o !== null)).toBe(true);
      expect(native.outs[0]).toMatch(/\.entry /);
      // line info names a relative source against the cicc call's cwd (the daemon's own is elsewhere)
      const src = path.join(KERNELS_DIR, `${name}.cu`);
      fs.writeFileSync(path.join(cwd, 'rel.cpp1.ii'), fs.readFileSync(u.ii, 'utf8').split(`"${src}"`).join(`"src/${name}.cu"`));
      const li = [...relativeArgv(u, cwd).map(a => (a === path.relative(cwd, u.ii) ? 'rel.cpp1.ii' : a)), '-generate-line-info'];
      const nl = call([PTXD_CICC_BIN], u, cwd, sb.env, li), ol = call([process.execPath, PTXD_CICC_BIN], u, cwd, sb.env, li);
      expect(nl.code, nl.stderr).toBe(0);
      expect(nl).toEqual(ol);
      expect(nl.outs[0]).toContain(`"${path.join(cwd, 'src', `${name}.cu`)}"`);
      // a unit with an error: the same diagnostics and exit code
      const broken = path.join(cwd, 'broken.cpp1.ii');
      fs.writeFileSync(broken, fs.readFileSync(u.ii, 'utf8') + '\n__attribute__((global)) void broken_k(int *p) { *p = undeclared_thing; }\n');
      const argv = relativeArgv(u, cwd).map(a => (a === path.relative(cwd, u.ii) ? 'broken.cpp1.ii' : a));
      const nb = call([PTXD_CICC_BIN], u, cwd, sb.env, argv), ob = call([process.execPath, PTXD_CICC_BIN], u, cwd, sb.env, argv);
      expect(nb.code).toBe(1);
      expect(nb.stderr).toMatch(/identifier "undeclared_thing" is undefined/);
      expect(nb).toEqual(ob);
      expect(nb.outs.every(o => o === null)).toBe(true);
    }
  });

  it('carries a large environment and the caller\'s variables (a 100 KB value: a 32-bit string length in the frame)', () => {
    const u = units.get('saxpy')!;
    const cwd = mkTempDir('native-env');
    const before = calls(sb).ciccCalls;
    // the trace file's time offset is read from a variable that only the client's environment has
    const big = { ...sb.env, PTXD_BIG: 'x'.repeat(100_000), PTXD_TEST_OFFSET: '5000' };
    const argv = [...relativeArgv(u, cwd), '--device-time-trace', 'trace.json', '--trace-env', 'PTXD_TEST_OFFSET'];
    const r = call([PTXD_CICC_BIN], u, cwd, big, argv);
    expect(r.code, r.stderr).toBe(0);
    expect(calls(sb).ciccCalls).toBe(before + 1);
    const trace = JSON.parse(fs.readFileSync(path.join(cwd, 'trace.json'), 'utf8')) as { traceEvents: { ts: number }[] };
    expect(trace.traceEvents[0]!.ts).toBeGreaterThanOrEqual(5_000_000);
  });

  it('hands a daemon of another build, a missing daemon and PTXD_NATIVE=0 to the Node client, which compiles', () => {
    const u = units.get('saxpy')!;
    const cwd = mkTempDir('native-other');
    const ref = call([process.execPath, PTXD_CICC_BIN], u, cwd, sb.env);
    expect(ref.code, ref.stderr).toBe(0);
    // a native client of another build: the daemon's stamp differs, so it runs the Node client
    const other = path.join(mkTempDir('native-build'), 'ptxd-cicc');
    const c = (s: string) => JSON.stringify(s);
    const cc = spawnSync('cc', ['-O1', `-DPTXD_NODE=${c(process.execPath)}`, `-DPTXD_SCRIPT=${c(PTXD_CICC_BIN)}`, `-DPTXD_INSTALL_DIR=${c(INSTALL_DIR)}`,
      `-DPTXD_VERSION=${c(ptxdVersion())}`, `-DPTXD_STAMP=${c(`not-${buildStamp()}`)}`, `-DPTXD_PROTO=${PROTOCOL}`, '-DPTXD_ENV_VARS="PATH\\0"', '-o', other,
      path.join(REPO_ROOT, 'client', 'native', 'ptxd-cicc.c')], { encoding: 'utf8' });
    expect(cc.status, cc.stderr).toBe(0);
    let before = calls(sb);
    const r = call([other], u, cwd, sb.env);
    expect(r).toEqual(ref);
    let after = calls(sb);
    expect(after.ciccCalls).toBe(before.ciccCalls);
    expect(after.served).toBe(before.served + 1);   // the Node client used this daemon (same build as itself)
    // PTXD_NATIVE=0
    before = after;
    expect(call([PTXD_CICC_BIN], u, cwd, { ...sb.env, PTXD_NATIVE: '0' })).toEqual(ref);
    after = calls(sb);
    expect(after.ciccCalls).toBe(before.ciccCalls);
    expect(after.served).toBe(before.served + 1);
    // no daemon: the Node client starts one, and the next call goes native
    const fresh = sandbox('native-fresh', { PTXD_CACHE: '0' });
    try {
      expect(call([PTXD_CICC_BIN], u, cwd, fresh.env)).toEqual(ref);
      expect(call([PTXD_CICC_BIN], u, cwd, fresh.env)).toEqual(ref);
      expect(calls(fresh)).toMatchObject({ running: true, served: 2, ciccCalls: 1 });
    } finally {
      void stopDaemon(fresh);
    }
  });
});
