// The compile budget (PTXD_COMPILE_BUDGET_S, daemon/scheduler/pool.ts): a daemon compile that runs past it is
// given up (its worker stopped and replaced) and the unit falls back to the real cicc, so a unit ptxd is
// unexpectedly slow on never costs a build more than the budget on top of stock nvcc's own time.
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { KERNELS_DIR, REPO_ROOT, mkTempDir, tools } from './helpers/tools';
import { PTXD_CICC_BIN, HAVE_CC, sandbox, startDaemon, stopDaemon, ptxd, type DaemonSandbox } from './helpers/daemon';
import { defaultOptions } from '../compiler/options';
import { Pool } from '../daemon/scheduler/pool';
import { compileBudgetMs } from '../service/compile-budget';
import { compileInThread } from '../service/compile-thread';

const WORKER = path.join(REPO_ROOT, 'dist', 'daemon', 'scheduler', 'worker.js');
const NVCC = tools().nvcc;

/**
 * A compiler module that holds its thread for the milliseconds the text asks, then answers ok: an ok answer to a
 * long job would mean the budget did not stop it.
 */
function slowCompiler(dir: string): string {
  const file = path.join(dir, 'slow-compile.js');
  fs.writeFileSync(file, `exports.compileUnit = (text) => {
  const until = Date.now() + Number(text);
  while (Date.now() < until) {}
  return { ok: true, ptx: 'done ' + text, stub: '', diagnostics: [], times: { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 } };
};\n`);
  return file;
}

describe('PTXD_COMPILE_BUDGET_S', () => {
  it('reads seconds, 0 for no limit, and keeps the default for anything else', () => {
    expect(compileBudgetMs({})).toBe(120_000);
    expect(compileBudgetMs({ PTXD_COMPILE_BUDGET_S: '0' })).toBeUndefined();
    expect(compileBudgetMs({ PTXD_COMPILE_BUDGET_S: '2.5' })).toBe(2500);
    expect(compileBudgetMs({ PTXD_COMPILE_BUDGET_S: ' 30 ' })).toBe(30_000);
    expect(compileBudgetMs({ PTXD_COMPILE_BUDGET_S: 'soon' })).toBe(120_000);
    expect(compileBudgetMs({ PTXD_COMPILE_BUDGET_S: '-1' })).toBe(120_000);
  });
});

describe.skipIf(!fs.existsSync(WORKER))(`the pool gives up a job past the budget ${fs.existsSync(WORKER) ? '' : '(skipped: dist/ not built)'}`, () => {
  const pools: Pool[] = [];
  afterAll(async () => { for (const p of pools) await p.close(); });

  it('stops the worker, answers the job as unsupported with the reason, and keeps compiling', async () => {
    const dir = mkTempDir('budget-worker');
    const wrapper = slowCompiler(dir);
    const pool = new Pool({ size: 1, compileModule: wrapper, budgetMs: 400 });
    pools.push(pool);
    const o = { ...defaultOptions(), arch: 90 };
    expect((await pool.run('0', o)).result.ptx).toBe('done 0');
    const long = await pool.run('60000', o);
    expect(long.result.ok).toBe(false);
    expect(long.result.ptx).toBe('');
    expect(long.result.unsupported).toBe('compile took longer than 0.4 s (PTXD_COMPILE_BUDGET_S)');
    expect(pool.overBudget).toBe(1);
    // the replacement worker compiles; a job within the budget is not touched
    const again = await Promise.all([pool.run('10', o), pool.run('0', o)]);
    expect(again.map(r => r.result.ptx)).toEqual(['done 10', 'done 0']);
    expect(pool.overBudget).toBe(1);
  });
});

const skipE2e = !NVCC ? 'nvcc not found' : !HAVE_CC ? 'no C compiler for the native client' : undefined;
describe.skipIf(skipE2e !== undefined)(`a build through the daemon with a budget its compiles cannot meet ${skipE2e ? `(skipped: ${skipE2e})` : ''}`, () => {
  let sb: DaemonSandbox | undefined;
  afterAll(async () => { if (sb) await stopDaemon(sb); });

  it('gets the real cicc\'s PTX, exit 0, and the daemon counts the compile over budget', () => {
    // 1 ms: no real compile fits; default fallback mode, so the real cicc compiles the unit
    sb = sandbox('budget', { PTXD_FALLBACK: '', PTXD_COMPILE_BUDGET_S: '0.001', PTXD_CACHE: '0' });
    startDaemon(sb);
    const dir = mkTempDir('budget-build');
    const src = path.join(KERNELS_DIR, 'matmul_tiled.cu');
    const nvcc = (out: string, prefix: string[], env: NodeJS.ProcessEnv) =>
      spawnSync(NVCC!, ['-ptx', '-arch=sm_90', ...prefix, src, '-o', path.join(dir, out)], { env, encoding: 'utf8' });
    const stock = nvcc('stock.ptx', [], process.env);
    expect(stock.status, stock.stderr).toBe(0);
    const via = nvcc('ptxd.ptx', [`--cicc-prefix=${PTXD_CICC_BIN}`], sb.env);
    expect(via.status, via.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'ptxd.ptx'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'stock.ptx'), 'utf8'));
    const st = ptxd(sb, ['stats', '--json']);
    expect(st.code, st.err).toBe(0);
    const j = JSON.parse(st.out) as { fallbacks: { total: number; reasons: Record<string, number> }; daemon: { scheduler: { overBudget: number } } };
    expect(j.daemon.scheduler.overBudget).toBeGreaterThanOrEqual(1);
    expect(Object.keys(j.fallbacks.reasons).some(r => r.includes('compile took longer than 0.001 s'))).toBe(true);
  });
});

const THREAD_MAIN = path.join(REPO_ROOT, 'dist', 'service', 'compile-thread-main.js');
describe.skipIf(!fs.existsSync(THREAD_MAIN))(`an in-process compile runs on a thread the budget stops ${fs.existsSync(THREAD_MAIN) ? '' : '(skipped: dist/ not built)'}`, () => {
  it('answers within the budget, gives up past it with the reason, and turns a dying thread into a fallback', async () => {
    const dir = mkTempDir('budget-thread');
    const slow = slowCompiler(dir);
    const dies = path.join(dir, 'dying-compile.js');
    fs.writeFileSync(dies, 'exports.compileUnit = () => { process.exit(7); };\n');
    const o = { ...defaultOptions(), arch: 90 };
    expect((await compileInThread('0', o, [{}], 5000, slow)).result.ptx).toBe('done 0');
    // a 60 s compile: the budget's answer, not 'done 60000', must come back
    const long = await compileInThread('60000', o, [{}], 400, slow);
    expect(long.result.ok).toBe(false);
    expect(long.result.ptx).toBe('');
    expect(long.result.unsupported).toBe('compile took longer than 0.4 s (PTXD_COMPILE_BUDGET_S)');
    const died = await compileInThread('0', o, [{}], 5000, dies);
    expect(died.result.ok).toBe(false);
    expect(died.result.unsupported).toMatch(/^internal error: compile worker died/);
  });
});

describe.skipIf(!NVCC)(`a build compiling in-process (PTXD_DAEMON=0) with a budget its compiles cannot meet ${NVCC ? '' : '(skipped: nvcc not found)'}`, () => {
  it('gets the real cicc\'s PTX by default, and a named fallback, no PTX, in never mode', () => {
    const dir = mkTempDir('budget-inproc');
    const src = path.join(KERNELS_DIR, 'matmul_tiled.cu');
    const env = { ...process.env, PTXD_DAEMON: '0', PTXD_CACHE: '0', PTXD_CACHE_DIR: path.join(dir, 'cache'), PTXD_COMPILE_BUDGET_S: '0.001' };
    const nvcc = (out: string, prefix: string[], e: NodeJS.ProcessEnv) =>
      spawnSync(NVCC!, ['-ptx', '-arch=sm_90', ...prefix, src, '-o', path.join(dir, out)], { env: e, encoding: 'utf8' });
    const stock = nvcc('stock.ptx', [], process.env);
    expect(stock.status, stock.stderr).toBe(0);
    const via = nvcc('ptxd.ptx', [`--cicc-prefix=${PTXD_CICC_BIN}`], { ...env, PTXD_FALLBACK: '' });
    expect(via.status, via.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'ptxd.ptx'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'stock.ptx'), 'utf8'));
    const never = nvcc('never.ptx', [`--cicc-prefix=${PTXD_CICC_BIN}`], { ...env, PTXD_FALLBACK: 'never' });
    expect(never.status).toBe(1);
    expect(never.stderr).toContain('compile took longer than 0.001 s (PTXD_COMPILE_BUDGET_S)');
    expect(fs.existsSync(path.join(dir, 'never.ptx'))).toBe(false);
    // and with the budget off, the same call compiles on the main thread as before
    const off = nvcc('off.ptx', [`--cicc-prefix=${PTXD_CICC_BIN}`], { ...env, PTXD_FALLBACK: 'never', PTXD_COMPILE_BUDGET_S: '0' });
    expect(off.status, off.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'off.ptx'), 'utf8')).toMatch(/\.entry /);
  });
});
