// Bad input to the drop-in client: bin/ptxd-cicc runs as a real process with the exact argv nvcc gives
// cicc (captured with a logging --cicc-prefix). Every case must give a cicc-style diagnostic on stderr,
// exit 1, no stack trace, nothing on stdout and no (partial) output file. PTXD_FALLBACK=never, so a
// fallback to the real cicc can never pass for ours.
//
// Every case runs twice: through the native client and a daemon (client/native/: the daemon parses argv
// and writes the outputs; the suite checks that it served every call), and through the Node client
// compiling in-process (PTXD_NATIVE=0 PTXD_DAEMON=0).
//
// Cases marked [needs compiler] only pass once compileUnit() works (lexer, skim, irgen, passes, backend);
// the others exercise the client alone.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATIVE_CLIENT } from '../protocol/version';
import { HAVE_CC } from './helpers/daemon';
import { findTool } from './helpers/tools';

const ROOT = join(__dirname, '..');
const CLIENT = join(ROOT, 'bin', 'ptxd-cicc');
const NVCC = findTool('nvcc') ?? 'nvcc';
const HAVE_NVCC = (() => { try { execFileSync(NVCC, ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();

const GOOD = `__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a;
}
`;
// A class with a virtual base class is not supported by ptxd yet: the unit must fall back
// (or fail under PTXD_FALLBACK=never). If that changes, pick another unsupported feature.
const MATH = `struct A { __device__ virtual float f() const { return 1.0f; } };
struct B { __device__ virtual float g() const { return 2.0f; } };
struct C : virtual A, B { float s; };
__device__ __noinline__ float call(const A *a) { return a->f(); }
__global__ void wave(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  C c; c.s = x[i];
  if (i < n) x[i] = call(&c) + c.s;
}
`;

interface Unit { dir: string; realCicc: string; argv: string[]; ii: string }

let work = '';
const units = new Map<string, Unit>();

/** Compiles `src` with the real nvcc through a logging prefix; keeps cicc's argv and the .cpp1.ii. */
function capture(name: string, src: string): Unit {
  const dir = join(work, name);
  mkdirSync(join(dir, 'kd'), { recursive: true });
  writeFileSync(join(dir, `${name}.cu`), src);
  const argvFile = join(dir, 'argv');
  // The syntax/type error units fail in the real cicc too: only the capture matters.
  spawnSync(NVCC, ['-arch=sm_90', '-c', `${name}.cu`, '-o', `kd/${name}.o`, '--keep', '--keep-dir', 'kd', `--cicc-prefix=${join(work, 'log.sh')}`],
    { cwd: dir, env: { ...process.env, PTXD_TEST_ARGV: argvFile, NVCC_APPEND_FLAGS: '', NVCC_PREPEND_FLAGS: '' }, stdio: 'pipe' });
  const all = readFileSync(argvFile, 'utf8').split('\0').filter(s => s !== '');
  const argv = all.slice(1);
  const ii = argv.find(a => a.endsWith('.cpp1.ii'))!;
  return { dir, realCicc: all[0], argv, ii };
}

/** Replaces the value of option `flag` (or the input, for flag 'input'). */
function withOpt(argv: string[], flag: string, value: string): string[] {
  const r = [...argv];
  if (flag === 'input') { r[r.findIndex(a => a.endsWith('.cpp1.ii'))] = value; return r; }
  r[r.indexOf(flag) + 1] = value;
  return r;
}

/** A copy of the unit's .ii with the last occurrence of `from` replaced; returns its path (relative). */
function editedUnit(u: Unit, name: string, from: string, to: string): string {
  const text = readFileSync(join(u.dir, u.ii), 'utf8');
  const at = text.lastIndexOf(from);
  if (at < 0) throw new Error(`'${from}' not in ${u.ii}`);
  const rel = `kd/${name}.cpp1.ii`;
  writeFileSync(join(u.dir, rel), text.slice(0, at) + to + text.slice(at + from.length));
  return rel;
}

function outputsOf(u: Unit, argv: string[]): string[] {
  return ['-o', '--stub_file_name', '--gen_c_file_name', '--gen_device_file_name'].map(f => argv[argv.indexOf(f) + 1]).map(p => join(u.dir, p));
}

/** The client variant under test: its own daemon (socket, cache) and whether it is the native client. */
let variantEnv: Record<string, string> = {};
let runs = 0;

function run(u: Unit, argv: string[], env: Record<string, string> = { PTXD_FALLBACK: 'never' }) {
  runs++;
  const r = spawnSync(CLIENT, [u.realCicc, ...argv], { cwd: u.dir, env: { ...process.env, PTXD_VERBOSE: '', ...variantEnv, ...env }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function daemon(args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin', 'ptxd'), ...args], { env: { ...process.env, ...variantEnv }, encoding: 'utf8' });
}

function fallbackRecords(): Record<string, string>[] {
  const f = join(variantEnv.PTXD_CACHE_DIR, 'fallbacks.jsonl');
  return existsSync(f) ? readFileSync(f, 'utf8').trim().split('\n').map(l => JSON.parse(l) as Record<string, string>) : [];
}

/** Fresh output names, so that a file left by an earlier step cannot pass for this one's. */
let seq = 0;
function freshOutputs(argv: string[]): string[] {
  const n = ++seq;
  let r = argv;
  for (const [flag, ext] of [['-o', 'ptx'], ['--stub_file_name', 'stub.c'], ['--gen_c_file_name', 'c'], ['--gen_device_file_name', 'gpu']] as const) {
    r = withOpt(r, flag, `kd/out${n}.${ext}`);
  }
  return r;
}

function expectCleanFailure(u: Unit, argv: string[], res: { code: number | null; stdout: string; stderr: string }, stderrPattern: RegExp): void {
  expect(res.stderr).toMatch(stderrPattern);
  expect(res.code).toBe(1);
  expect(res.stdout).toBe('');
  expect(res.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);   // no JavaScript stack trace
  for (const p of outputsOf(u, argv)) expect(existsSync(p), p).toBe(false);
  expect(readdirSync(join(u.dir, 'kd')).filter(f => f.includes('.ptxd-'))).toEqual([]);  // no temp files left
}


beforeAll(() => {
  if (!HAVE_NVCC) return;
  work = mkdtempSync(join(tmpdir(), 'ptxd-bad-'));
  writeFileSync(join(work, 'log.sh'), '#!/bin/sh\nprintf "%s\\0" "$@" > "$PTXD_TEST_ARGV"\nexec "$@"\n');
  chmodSync(join(work, 'log.sh'), 0o755);
  units.set('good', capture('good', GOOD));
  units.set('math', capture('math', MATH));
});

describe.skipIf(!HAVE_NVCC).each([
  ['the native client and a daemon', 'native'],
  ['the Node client in-process (PTXD_NATIVE=0 PTXD_DAEMON=0)', 'node'],
])('bad input to ptxd-cicc: %s', (_title, variant) => {
  beforeAll(() => {
    variantEnv = {
      PTXD_CACHE_DIR: join(work, `cache-${variant}`), PTXD_SOCKET: join(work, `${variant}.sock`), PTXD_IDLE_TIMEOUT: '120',
      ...(variant === 'node' ? { PTXD_NATIVE: '0', PTXD_DAEMON: '0' } : { PTXD_DAEMON: '1' }),
    };
    runs = 0;
    if (variant === 'native') {
      if (HAVE_CC) expect(existsSync(NATIVE_CLIENT), `${NATIVE_CLIENT} was not built by npm run build`).toBe(true);
      // The first call finds no daemon and goes to the Node client, which starts one.
      daemon(['daemon', 'start']);
    }
  });
  afterAll(() => { if (variant === 'native') daemon(['daemon', 'stop']); });

  it('unknown flag → Command-line error', () => {
    const u = units.get('good')!;
    const argv = freshOutputs([...u.argv, '--bogus-flag']);
    const res = run(u, argv);
    expectCleanFailure(u, argv, res, /^Command-line error: invalid option: --bogus-flag\n\n1 catastrophic error detected in this compilation\.\nCompilation terminated\.\n$/);
  });

  it('bad -arch → the real wording', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(withOpt(u.argv, '-arch', 'compute_70'));
    expectCleanFailure(u, argv, run(u, argv), /Command-line error: invalid or no value specified with --nv_arch flag/);
  });

  it('missing input file', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(u.argv.filter(a => !a.endsWith('.cpp1.ii')));
    expectCleanFailure(u, argv, run(u, argv), /^Missing input file\n/);
  });

  it('input that cannot be opened → catastrophic error', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(withOpt(u.argv, 'input', 'kd/nonexistent.cpp1.ii'));
    expectCleanFailure(u, argv, run(u, argv), /Catastrophic error: cannot open source file "kd\/nonexistent\.cpp1\.ii"\n\n1 catastrophic error detected in the compilation of "good\.cu"\.\nCompilation terminated\.\n/);
  });

  it('missing module id file → catastrophic error', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(withOpt(u.argv, '--module_id_file_name', join(u.dir, 'kd', 'missing.module_id')));
    expectCleanFailure(u, argv, run(u, argv), /catastrophic error: cannot open module id file ".*missing\.module_id"[\s\S]*1 catastrophic error detected in the compilation of "good\.cu"\./i);
  });

  it('[needs compiler] truncated .ii → error diagnostic', () => {
    const u = units.get('good')!;
    const text = readFileSync(join(u.dir, u.ii), 'utf8');
    const cut = text.lastIndexOf('x[i] = x[i] * a;');
    const truncated = join(u.dir, 'kd', 'truncated.cpp1.ii');
    writeFileSync(truncated, text.slice(0, cut + 6));
    const argv = freshOutputs(withOpt(u.argv, 'input', 'kd/truncated.cpp1.ii'));
    expectCleanFailure(u, argv, run(u, argv), /(good\.cu\(\d+\)|At end of source): (catastrophic )?error[\s\S]*detected in the compilation of "good\.cu"\./);
  });

  // cudafe++ stops nvcc before cicc on these, so the units are made by editing the good unit's .ii
  // (same number of lines, so the line markers stay right).
  it('[needs compiler] syntax error in device code', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(withOpt(u.argv, 'input', editedUnit(u, 'syntax', 'threadIdx.x;', 'threadIdx.x')));
    expectCleanFailure(u, argv, run(u, argv), /good\.cu\([23]\): error[\s\S]*1 error detected in the compilation of "good\.cu"\./);
  });

  it('[needs compiler] type error in device code', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(withOpt(u.argv, 'input', editedUnit(u, 'type', 'if (i < n) x[i] = x[i] * a;', 'int *q = a; x[i] = q;')));
    expectCleanFailure(u, argv, run(u, argv), /good\.cu\(3\): error[\s\S]*errors? detected in the compilation of "good\.cu"\./);
  });

  it('[needs compiler] unwritable output path → error, and no other output written', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(u.argv);
    argv[argv.indexOf('-o') + 1] = 'no/such/dir/out.ptx';
    expectCleanFailure(u, argv, run(u, argv), /Catastrophic error: cannot open output file "no\/such\/dir\/out\.ptx"[\s\S]*Compilation terminated\./);
  });

  it('[needs compiler] unwritable stub path → error, and no PTX written', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(u.argv);
    argv[argv.indexOf('--stub_file_name') + 1] = 'no/such/dir/out.stub.c';
    expectCleanFailure(u, argv, run(u, argv), /Catastrophic error: cannot open generated C file "no\/such\/dir\/out\.stub\.c"/);
  });

  it('[needs compiler] the good unit compiles: all outputs, nothing on stdout or stderr', () => {
    const u = units.get('good')!;
    const argv = freshOutputs(u.argv);
    const res = run(u, argv);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe('');
    expect(res.code).toBe(0);
    for (const p of outputsOf(u, argv)) expect(existsSync(p), p).toBe(true);
    expect(readFileSync(outputsOf(u, argv)[0], 'utf8')).toMatch(/\.target sm_90\b/);
    expect(readFileSync(outputsOf(u, argv)[2], 'utf8')).toBe('# 1 "good.cu"\n');
  });

  it('an unsupported unit falls back to the real cicc, visibly, and is recorded', () => {
    const u = units.get('math')!;
    const argv = freshOutputs(u.argv);
    expect(fallbackRecords()).toHaveLength(0);
    const res = run(u, argv, { PTXD_VERBOSE: '1', PTXD_FALLBACK: '' });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^ptxd: falling back to the real cicc: /m);
    for (const p of outputsOf(u, argv)) expect(existsSync(p), p).toBe(true);
    expect(readFileSync(outputsOf(u, argv)[0], 'utf8')).toMatch(/Generated by NVIDIA NVVM Compiler/);
    const recs = fallbackRecords();
    expect(recs).toHaveLength(1);
    expect(recs[0].input).toBe('math.cu');
    expect(recs[0].arch).toBe('compute_90');
    expect(typeof recs[0].reason).toBe('string');
    expect(Number.isNaN(Date.parse(recs[0].time))).toBe(false);
  });

  it('with PTXD_FALLBACK=never an unsupported unit is an error, not a fallback', () => {
    const u = units.get('math')!;
    const argv = freshOutputs(u.argv);
    const before = fallbackRecords().length;
    const res = run(u, argv, { PTXD_FALLBACK: 'never' });
    expectCleanFailure(u, argv, res, /^math\.cu: error: ptxd cannot compile this unit: /);
    expect(fallbackRecords()).toHaveLength(before);
  });

  it.skipIf(variant !== 'native' || !HAVE_CC)('the native client handed every call to the daemon', () => {
    const st = JSON.parse(daemon(['daemon', 'status', '--json'])) as { running: boolean; ciccCalls: number };
    expect(st.running).toBe(true);
    expect(runs).toBeGreaterThan(10);
    expect(st.ciccCalls).toBe(runs);
  });
});
