// `ptxd`: the command-line interface.
//   ptxd compile <file.cu|file.ii|file.cpp1.ii> [-arch sm_90] [-o out.ptx] [--stub out.stub.c] [-O3] …
//   ptxd stats
// For a .cu file, nvcc itself preprocesses the unit exactly as in a real build: we run nvcc with
// `--cicc-prefix=<ptxd-cicc>` in capture mode, which records cicc's exact argv and copies its inputs,
// then stops nvcc. The captured argv is then compiled like any drop-in call (same fallback rules).

import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import yargs from 'yargs';
import { findRealCicc, runCiccAsync, type Capture, type CiccContext } from './cicc';
import { cacheCommand, daemonCommand, serveCommand, statsCommand } from './cli-daemon';
import { SUPPORTED_ARCHS } from '../compiler/options';

function version(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function findNvcc(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'nvcc');
    try { if (dir && statSync(p).isFile()) return p; } catch { /* next */ }
  }
  for (const root of [env.CUDA_HOME, env.CUDA_PATH, '/usr/local/cuda']) {
    if (root && existsSync(join(root, 'bin', 'nvcc'))) return join(root, 'bin', 'nvcc');
  }
  return undefined;
}

interface CompileArgs {
  file: string;
  arch: string;
  o?: string;
  stub?: string;
  O?: number;
  ftz?: boolean;
  'prec-div'?: boolean;
  'prec-sqrt'?: boolean;
  fmad?: boolean;
  use_fast_math?: boolean;
  lineinfo?: boolean;
  G?: boolean;
  rdc?: boolean;
  std?: string;
  D?: string[];
  I?: string[];
  Xcicc?: string[];
}

function parseArchArg(a: string): { num: number; suffix: string } | undefined {
  const m = /^(?:sm_|compute_)?(\d+)([af]?)$/.exec(a);
  if (!m || !(SUPPORTED_ARCHS as readonly number[]).includes(Number(m[1]))) return undefined;
  return { num: Number(m[1]), suffix: m[2] };
}

function ciccFlagsFor(a: CompileArgs): string[] {
  const f: string[] = [];
  if (a.O !== undefined) f.push(`-O${a.O}`);
  return [...f, ...(a.Xcicc ?? [])];
}

/** Builds cicc's argv for a preprocessed unit given directly (.ii / .cpp1.ii). */
function argvForIi(a: CompileArgs, arch: { num: number; suffix: string }, out: string): string[] {
  const file = a.file;
  const abs = resolve(file);
  const base = basename(file).replace(/(\.cpp1)?\.ii$/, '');
  const fastMath = a.use_fast_math === true;
  const ftz = a.ftz ?? fastMath;
  const precDiv = a['prec-div'] ?? !fastMath;
  const precSqrt = a['prec-sqrt'] ?? !fastMath;
  const argv = [`--c++${(a.std ?? 'c++17').replace(/^c\+\+/, '')}`, '--static-host-stub', '--device-hidden-visibility',
    '--gnu_version=120200', '--display_error_number', '--orig_src_file_name', file, '--orig_src_path_name', abs,
    '--allow_managed', '-arch', `compute_${arch.num}${arch.suffix}`, '-m64', '--no-version-ident',
    `-ftz=${ftz ? 1 : 0}`, `-prec_div=${precDiv ? 1 : 0}`, `-prec_sqrt=${precSqrt ? 1 : 0}`, `-fmad=${a.fmad === false ? 0 : 1}`];
  if (fastMath) argv.push('-fast-math', '--gen_div_approx_ftz');
  argv.push('--include_file_name', `${base}.fatbin.c`);
  if (a.G) argv.push('-g', '-O0');
  if (a.lineinfo) argv.push('-generate-line-info');
  if (a.rdc) argv.push('--device-c');
  argv.push('-tused', ...ciccFlagsFor(a));
  // A module id file next to the unit (as `nvcc --keep` leaves it) is used; otherwise one is generated.
  const mid = join(dirname(file), `${base}.module_id`);
  if (existsSync(mid)) argv.push('--module_id_file_name', mid);
  else argv.push('--gen_module_id_file');
  if (a.stub) argv.push('--stub_file_name', a.stub);
  argv.push(file, '-o', out);
  return argv;
}

/** Runs nvcc on a .cu with ourselves as a capturing cicc prefix; returns the captured cicc call. */
function captureFromNvcc(a: CompileArgs, arch: { num: number; suffix: string }, err: (s: string) => void): Capture | undefined {
  const nvcc = findNvcc(process.env);
  if (!nvcc) { err('ptxd: error: nvcc not found (needed to preprocess a .cu file; add it to PATH or set CUDA_HOME)\n'); return undefined; }
  const dir = mkdtempSync(join(tmpdir(), 'ptxd-capture-'));
  try {
    const self = resolve(__dirname, '..', '..', 'bin', 'ptxd-cicc');
    const nvArgs = [`-arch=compute_${arch.num}${arch.suffix}`, a.stub ? '-c' : '-ptx', a.file, '-o', join(dir, a.stub ? 'x.o' : 'x.ptx'),
      `--cicc-prefix=${self}`];
    if (a.ftz !== undefined) nvArgs.push(`-ftz=${a.ftz}`);
    if (a['prec-div'] !== undefined) nvArgs.push(`-prec-div=${a['prec-div']}`);
    if (a['prec-sqrt'] !== undefined) nvArgs.push(`-prec-sqrt=${a['prec-sqrt']}`);
    if (a.fmad !== undefined) nvArgs.push(`-fmad=${a.fmad}`);
    if (a.use_fast_math) nvArgs.push('--use_fast_math');
    if (a.lineinfo) nvArgs.push('-lineinfo');
    if (a.G) nvArgs.push('-G');
    if (a.rdc) nvArgs.push('-rdc=true');
    if (a.std) nvArgs.push(`-std=${a.std}`);
    for (const d of a.D ?? []) nvArgs.push(`-D${d}`);
    for (const i of a.I ?? []) nvArgs.push(`-I${i}`);
    for (const x of ciccFlagsFor(a)) nvArgs.push('-Xcicc', x);
    const r = spawnSync(nvcc, nvArgs, {
      env: { ...process.env, PTXD_CAPTURE_DIR: dir, NVCC_APPEND_FLAGS: '', NVCC_PREPEND_FLAGS: '' },
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    });
    const caps = readdirSync(dir).filter(f => f.startsWith('capture-')).sort();
    if (caps.length === 0) {
      err(r.stderr || r.stdout || `ptxd: error: nvcc failed (${r.error?.message ?? `exit ${r.status}`})\n`);
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    const cap = JSON.parse(readFileSync(join(dir, caps[caps.length - 1]), 'utf8')) as Capture;
    (cap as Capture & { dir: string }).dir = dir;
    return cap;
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Rewrites a captured argv: our copies as inputs, the user's outputs, no placeholder outputs. */
function rewriteCaptured(cap: Capture, dir: string, out: string, stub: string | undefined): string[] {
  const drop = new Set(['--device-time-trace', '--use-trace-pid', '--trace-env']);
  // The placeholder outputs go to the capture directory (removed afterwards): without these flags the
  // real cicc (on a fallback) would write `*.int.c` files into the current directory.
  const scratch: Record<string, string> = { '--gen_c_file_name': join(dir, 'x.cudafe1.c'), '--gen_device_file_name': join(dir, 'x.cudafe1.gpu') };
  const argv: string[] = [];
  const src = cap.argv;
  for (let i = 0; i < src.length; i++) {
    const a = src[i];
    if (drop.has(a)) { i++; continue; }
    if (scratch[a] !== undefined) { i++; argv.push(a, scratch[a]); continue; }
    if (a === '-o') { i++; continue; }
    if (a === '--module_id_file_name') { i++; if (cap.moduleIdFile) argv.push(a, cap.moduleIdFile); continue; }
    if (a === '--stub_file_name') { i++; if (stub) argv.push(a, stub); continue; }
    if (!a.startsWith('-') && /\.(ii|i|ci|cup)$/.test(a) && (i === 0 || !['--orig_src_file_name', '--orig_src_path_name', '--include_file_name'].includes(src[i - 1]))) {
      argv.push(cap.input);
      continue;
    }
    argv.push(a);
  }
  if (!argv.includes('--gen_c_file_name')) argv.push('--gen_c_file_name', scratch['--gen_c_file_name']);
  if (!argv.includes('--gen_device_file_name')) argv.push('--gen_device_file_name', scratch['--gen_device_file_name']);
  argv.push('-o', out);
  return argv;
}

async function compileCommand(a: CompileArgs): Promise<number> {
  const err = (s: string) => { process.stderr.write(s); };
  const arch = parseArchArg(a.arch);
  if (!arch) { err(`ptxd: error: unsupported architecture '${a.arch}' (supported: ${SUPPORTED_ARCHS.map(n => `sm_${n}`).join(', ')})\n`); return 1; }
  const file = a.file;
  if (!existsSync(file)) { err(`ptxd: error: cannot open source file "${file}"\n`); return 1; }
  const t0 = Date.now();
  const ctx: CiccContext = { env: process.env, cwd: process.cwd(), pid: process.pid, ppid: process.ppid, stderr: err, now: () => Date.now() - t0 };
  if (/\.(ii|i|ci|cup)$/.test(file)) {
    const out = a.o ?? basename(file).replace(/(\.cpp1)?\.(ii|i|ci|cup)$/, '') + '.ptx';
    ctx.realCicc = findRealCicc(process.env);
    return runCiccAsync(argvForIi(a, arch, out), ctx);
  }
  if (!/\.cu$/.test(file)) { err(`ptxd: error: expected a .cu, .ii or .cpp1.ii file: "${file}"\n`); return 1; }
  const cap = captureFromNvcc(a, arch, err);
  if (!cap) return 1;
  const dir = (cap as Capture & { dir: string }).dir;
  try {
    ctx.realCicc = cap.realCicc;
    const out = a.o ?? basename(file).replace(/\.cu$/, '') + '.ptx';
    return await runCiccAsync(rewriteCaptured(cap, dir, out, a.stub), ctx);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** nvcc-style single-dash options (`-arch sm_90`, `-O3`, `-DX`) in the form yargs understands. */
export function normalizeArgv(argv: readonly string[]): string[] {
  const long = new Set(['arch', 'Xcicc', 'lineinfo', 'rdc', 'std', 'ftz', 'fmad', 'prec-div', 'prec-sqrt', 'use_fast_math', 'use-fast-math', 'stub']);
  return argv.map(a => {
    const m = /^-([A-Za-z][\w-]*)(=.*)?$/.exec(a);
    if (!m) return a;
    if (long.has(m[1])) return `--${m[1]}${m[2] ?? ''}`;
    if (/^O[0-3]$/.test(m[1]) && !m[2]) return `--O=${m[1].slice(1)}`;
    if (/^[DI]./.test(m[1])) return `--${m[1][0]}=${a.slice(2)}`;
    return a;
  });
}

function toolkitCommand(outDir: string, cudaHome: string | undefined): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { writeShadowToolkit } = require('../make-integration/toolkit') as typeof import('../make-integration/toolkit');
  const nvcc = findNvcc(process.env);
  const home = cudaHome ?? (nvcc ? resolve(dirname(realpathSync(nvcc)), '..') : undefined);
  if (!home) { process.stderr.write('ptxd: error: no CUDA toolkit found (give --cuda or set CUDA_HOME)\n'); return 1; }
  try {
    writeShadowToolkit({ out: outDir, cudaHome: home, ptxdCicc: resolve(__dirname, '..', '..', 'bin', 'ptxd-cicc'), node: process.execPath });
  } catch (e) {
    process.stderr.write(`ptxd: error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const abs = resolve(outDir);
  process.stdout.write(`shadow CUDA toolkit written to ${abs} (real toolkit: ${home})\n` +
    `  use it as: ${abs}/bin/nvcc …   or   cmake -DCMAKE_CUDA_COMPILER=${abs}/bin/nvcc …\n`);
  return 0;
}

export async function main(argv: string[]): Promise<void> {
  // `ptxd stats | head` closes the pipe early: that is not an error.
  process.stdout.on('error', e => { if ((e as NodeJS.ErrnoException).code === 'EPIPE') process.exit(process.exitCode ?? 0); });
  let code = 0;
  const run = (p: Promise<number> | number) => Promise.resolve(p).then(c => { code = c; });
  await yargs(normalizeArgv(argv))
    .scriptName('ptxd')
    .usage('$0 <command> [options]\n\nptxd: an incremental CUDA device compiler, a drop-in replacement for cicc.\n' +
      'Drop-in use: NVCC_APPEND_FLAGS=--cicc-prefix=<ptxd>/bin/ptxd-cicc make')
    .command('compile <file>', 'compile a .cu, .ii or .cpp1.ii file to PTX (through the daemon)', y => y
      .positional('file', { type: 'string', demandOption: true, describe: '.cu (preprocessed by nvcc), .ii or .cpp1.ii' })
      .option('arch', { type: 'string', default: 'sm_75', describe: 'target: sm_90, compute_90, sm_90a, …' })
      .option('o', { type: 'string', describe: 'output PTX file (default: <file>.ptx in the current directory)' })
      .option('stub', { type: 'string', describe: 'also write the host stub (.cudafe1.stub.c) here' })
      .option('O', { type: 'number', choices: [0, 1, 2, 3], describe: 'optimisation level (default 3, as cicc)' })
      .option('ftz', { type: 'boolean', describe: 'flush f32 denormals to zero' })
      .option('prec-div', { type: 'boolean', describe: 'IEEE f32 division (default true)' })
      .option('prec-sqrt', { type: 'boolean', describe: 'IEEE f32 sqrt (default true)' })
      .option('fmad', { type: 'boolean', describe: 'contract mul+add into fma (default true)' })
      .option('use_fast_math', { alias: 'use-fast-math', type: 'boolean', describe: 'as nvcc --use_fast_math' })
      .option('lineinfo', { type: 'boolean', describe: 'emit .loc line information' })
      .option('G', { type: 'boolean', describe: 'device debug (-g -O0)' })
      .option('rdc', { type: 'boolean', describe: 'relocatable device code (--device-c)' })
      .option('std', { type: 'string', describe: 'C++ dialect for a .cu (c++17 by default)' })
      .option('D', { type: 'string', array: true, describe: 'macro for a .cu (passed to nvcc)' })
      .option('I', { type: 'string', array: true, describe: 'include directory for a .cu (passed to nvcc)' })
      .option('Xcicc', { type: 'string', array: true, describe: 'extra cicc flag' })
      .example('$0 compile test/kernels/saxpy.cu -arch sm_90 -o saxpy.ptx', '')
      .epilog('Environment: PTXD_FALLBACK=never (never run the real cicc), PTXD_VERBOSE=1, PTXD_CACHE_DIR, ' +
        'PTXD_DAEMON=0 (compile in this process).'),
    a => run(compileCommand(a as unknown as CompileArgs)))
    .command('stats', 'requests, unit cache hits/misses, fallbacks and their reasons, time saved, cache size', y => y
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' }),
    a => run(statsCommand(a.json)))
    .command('daemon <action>', 'control the daemon for this user and cache directory', y => y
      .positional('action', { choices: ['start', 'stop', 'status', 'restart'] as const, demandOption: true,
        describe: 'start (if not running), stop, status (exit 3 when not running), restart' })
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable status' })
      .epilog('Environment: PTXD_SOCKET (socket path), PTXD_CACHE_DIR, PTXD_IDLE_TIMEOUT (seconds, 0 = never; default 600).'),
    a => run(daemonCommand(a.action as string, a.json)))
    .command('cache <action>', 'inspect or maintain the unit cache; serve a team cache', y => y
      .positional('action', { choices: ['info', 'clear', 'verify', 'serve'] as const, demandOption: true,
        describe: 'info (size, entries), clear (remove all units and statistics), verify (check every value; exit 2 if any was corrupt), ' +
          'serve (an HTTP object server for a team cache: PTXD_REMOTE=http://host:port)' })
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .option('port', { type: 'number', default: 7780, describe: 'serve: TCP port (0: any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'serve: address to listen on (0.0.0.0: every interface)' })
      .option('dir', { type: 'string', describe: 'serve: where objects are kept (default <cache dir>/team-objects)' })
      .option('write-key-file', { type: 'string', describe: 'serve: file holding the write key (default PTXD_REMOTE_WRITE_KEY); only clients with it may write' })
      .epilog('Environment: PTXD_CACHE_DIR (default ~/.cache/ptxd), PTXD_CACHE_SIZE (e.g. 2G; least recently used units are evicted). ' +
        'Team cache: PTXD_REMOTE, PTXD_REMOTE_KEY, PTXD_REMOTE_WRITE_KEY (see README).'),
    a => run(a.action === 'serve'
      ? serveCommand({ port: a.port, host: a.host, dir: a.dir, writeKeyFile: a['write-key-file'] as string | undefined })
      : cacheCommand(a.action as string, a.json)))
    .command('watch [path]', 'recompile CUDA units as their sources and headers are saved (keeps the unit cache hot)', y => y
      .positional('path', { type: 'string', describe: 'a CMake build directory, a compile_commands.json, or a project directory (uses build/). ' +
        'Default: the compile_commands.json of this directory (or build/), else the builds of this directory that went through ptxd' })
      .option('json', { type: 'boolean', default: false, describe: 'one JSON event per line' })
      .option('debounce', { type: 'number', default: 100, describe: 'milliseconds to wait for more changes before compiling' })
      .epilog('Configure CMake with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON. Diagnostics are printed as file(line): error: message.'),
    // Loaded on use: chokidar is not needed by the other commands.
    a => run(import('./cli-watch').then(m => m.watchCommand(a.path as string | undefined, a.json, a.debounce))))
    .command('toolkit', 'write a shadow CUDA toolkit whose nvcc uses ptxd as its cicc', y => y
      .option('out', { type: 'string', demandOption: true, describe: 'directory to write' })
      .option('cuda', { type: 'string', describe: 'the real CUDA toolkit (default: the one of nvcc on PATH, CUDA_HOME, /usr/local/cuda)' })
      .example('$0 toolkit --out ~/ptxd-cuda && cmake -DCMAKE_CUDA_COMPILER=~/ptxd-cuda/bin/nvcc …', ''),
    a => run(toolkitCommand(a.out, a.cuda)))
    .demandCommand(1, 'give a command (see --help)')
    .strict()
    .version(version())
    .help()
    .alias('h', 'help')
    .fail((msg, e, y) => {
      void y;
      process.stderr.write(`ptxd: error: ${msg ?? e?.message}\n(see ptxd --help)\n`);
      code = 1;
    })
    .parseAsync();
  process.exitCode = code;
}

if (require.main === module) void main(process.argv.slice(2));
