// Real integration: every program in test/kernels is built by the real nvcc with ptxd as its cicc
// (`--cicc-prefix=bin/ptxd-cicc`, PTXD_FALLBACK=never so a fallback to the real cicc can never pass as ours),
// for every real-GPU target at once. nvcc runs ptxas on our PTX for each target: that is the ptxas check.
// The client talks to a private daemon (its own socket and cache directory, the unit cache off so that every
// request is a compile), as it does for a user: the native client (client/native/) when a C compiler built
// it, which hands every cicc call to the daemon; the in-process path is what the other suites run.
// The linked executables are kept in test/.build/ (git-ignored) with a <name>.expect file listing the
// output the program must print; scripts/gpu-check.sh runs them on a machine with a GPU.

import { describe, it, expect, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BUILD_DIR, integrationArchs, PTXD_CICC, expectedOutput, gencodeFlags, kernelPrograms, mkTempDir, programNvccFlags, requireTool, skipReason,
} from './helpers/tools';
import { HAVE_CC, sandbox, startDaemon, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const CONCURRENCY = 2;
/** Some 200 programs, each a host compile, one or three device compiles and ptxas runs, a link: about five minutes on two cores. */
const BUILD_TIMEOUT_MS = 1_500_000;

interface Outcome { name: string; ok: boolean; stage: string; seconds: number; log: string }

function runAsync(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise(resolve => {
    const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', d => { out += d; });
    p.stderr.on('data', d => { out += d; });
    p.on('error', e => resolve({ code: -1, out: out + String(e) }));
    p.on('close', code => resolve({ code, out }));
  });
}

async function buildOne(nvcc: string, cu: string, archs: readonly number[], work: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const name = path.basename(cu, '.cu');
  const t0 = performance.now();
  const obj = path.join(work, `${name}.o`);
  const exe = path.join(BUILD_DIR, name);
  const done = (ok: boolean, stage: string, log: string): Outcome => ({ name, ok, stage, seconds: (performance.now() - t0) / 1000, log });
  const c = await runAsync(nvcc, [...gencodeFlags(archs), ...programNvccFlags(cu), '-c', cu, '-o', obj, `--cicc-prefix=${PTXD_CICC}`], env);
  if (c.code !== 0) return done(false, 'compile', c.out);
  fs.rmSync(exe, { force: true });
  const l = await runAsync(nvcc, [...programNvccFlags(cu), obj, '-o', exe], env);
  if (l.code !== 0) return done(false, 'link', l.out);
  fs.writeFileSync(path.join(BUILD_DIR, `${name}.expect`), [`PASS ${name}`, ...expectedOutput(cu)].join('\n') + '\n');
  return done(true, 'ok', c.out + l.out);
}

async function pool<T, R>(items: T[], n: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await f(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return results;
}

const skip = skipReason('nvcc', 'ptxas');

describe.skipIf(skip !== undefined)(`integration: nvcc --cicc-prefix=ptxd-cicc on test/kernels ${skip ?? ''}`, () => {
  let sb: DaemonSandbox | undefined;
  afterAll(async () => { if (sb) await stopDaemon(sb); });

  it('test/kernels has the programs the suite is built on', () => {
    expect(kernelPrograms().length).toBeGreaterThanOrEqual(45);
  });

  it(`every program compiles (${[...new Set([0, 1].flatMap(integrationArchs))].map(a => `sm_${a}`).join(', ')}), passes ptxas and links`, async () => {
    // Our client must exist: a missing bin/ptxd-cicc is a failure of this project, not a reason to skip.
    expect(fs.existsSync(PTXD_CICC), `${PTXD_CICC} is missing`).toBe(true);
    const nvcc = requireTool('nvcc');
    fs.mkdirSync(BUILD_DIR, { recursive: true });
    const work = mkTempDir('integration');
    const t0 = performance.now();
    sb = sandbox('integration', { PTXD_CACHE: '0' });
    startDaemon(sb);   // so that every call goes through the native client (client/native/)
    const programs = kernelPrograms();
    const outcomes = await pool(programs.map((cu, i) => [cu, integrationArchs(i)] as const), CONCURRENCY, ([cu, archs]) => buildOne(nvcc, cu, archs, work, sb!.env));
    const total = (performance.now() - t0) / 1000;
    fs.rmSync(work, { recursive: true, force: true });
    const failed = outcomes.filter(o => !o.ok);
    const summary = outcomes.map(o => `${o.ok ? 'ok  ' : 'FAIL'} ${o.name.padEnd(26)} ${o.stage.padEnd(8)} ${o.seconds.toFixed(1)}s`).join('\n');
    fs.writeFileSync(path.join(BUILD_DIR, 'build-summary.txt'), `${summary}\ntotal ${total.toFixed(1)}s\n`);
    console.log(`integration: ${outcomes.length - failed.length}/${outcomes.length} built in ${total.toFixed(1)}s`);
    const details = failed.map(o => `--- ${o.name} (${o.stage}) ---\n${o.log.split('\n').slice(-25).join('\n')}`).join('\n');
    expect(failed.map(o => `${o.name} (${o.stage})`), `failing programs:\n${details}`).toEqual([]);
    // every unit was compiled by the daemon, none handed to the real cicc
    const st = stats(sb);
    expect(st.fallbacks.total).toBe(0);
    const compiles = programs.reduce((n, _, i) => n + integrationArchs(i).length, 0);
    expect(st.daemon?.served).toBeGreaterThanOrEqual(compiles);
    if (HAVE_CC) expect(st.daemon?.ciccCalls, 'cicc calls through the native client').toBe(compiles);
  }, BUILD_TIMEOUT_MS);
});
