// Shared test/bench helpers: find the tools the tests run (findTool: CUDA_HOME, then PATH, then the standard
// directories), and produce the real inputs nvcc hands to cicc (the .cpp1.ii, the module id file and the exact
// argv) for a .cu file and a set of archs.
//
// Tools are looked up once. A test that needs a tool should skip (with the reason from skipReason())
// only when the tool is really absent; everything else is a failure.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { parseCiccArgs } from '../../cicc/args';
import type { CompileOptions } from '../../compiler/options';

/** The repository root, whether this runs from source (test/helpers) or compiled (dist/test/helpers). */
export const REPO_ROOT = ((): string => {
  const up2 = path.resolve(__dirname, '..', '..');
  return path.basename(up2) === 'dist' ? path.dirname(up2) : up2;
})();
export const KERNELS_DIR = path.join(REPO_ROOT, 'test', 'kernels');
export const BUILD_DIR = path.join(REPO_ROOT, 'test', '.build');
/** Our cicc stand-in, used as `nvcc --cicc-prefix=<this>`. */
export const PTXD_CICC = path.join(REPO_ROOT, 'bin', 'ptxd-cicc');

/** Every target arch the compiler supports (compiler/options.ts SUPPORTED_ARCHS), as numbers. */
export const ALL_ARCHS = [75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121] as const;
/** Long runs (every arch, every unit in every order) only with PTXD_LONG=1; CI runs a representative part. */
export const LONG = process.env.PTXD_LONG === '1';
/**
 * Real-GPU targets the integration test builds SASS for (ptxas runs on our PTX for each): sm_90 for every
 * program, and for every third one also the oldest and the newest family (the other archs differ only in the
 * PTX target line and feature gates, which test/prelude.test.ts covers for all 12, and test/cxx.test.ts runs
 * ptxas for sm_75 on every C++ program); all seven for every program with PTXD_LONG=1.
 */
export function integrationArchs(programIndex: number): readonly number[] {
  if (LONG) return [75, 80, 86, 89, 90, 100, 120];
  return programIndex % 3 === 0 ? [75, 90, 120] : [90];
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    if (isExecutable(p)) return p;
  }
  return null;
}

function looksLikeCuda(dir: string): boolean {
  return isExecutable(path.join(dir, 'bin', 'nvcc'));
}

/**
 * CUDA_HOME (or CUDA_PATH) → the toolkit around an `nvcc` on PATH (following symlinks; a wrapper script
 * in e.g. /usr/local/bin is skipped) → /usr/local/cuda. Null when none has bin/nvcc.
 */
export function findCudaHome(): string | null {
  for (const v of [process.env.CUDA_HOME, process.env.CUDA_PATH]) {
    if (v && looksLikeCuda(v)) return path.resolve(v);
  }
  const onPath = which('nvcc');
  if (onPath) {
    const real = fs.realpathSync(onPath);
    const home = path.resolve(path.dirname(real), '..');
    if (looksLikeCuda(home) && fs.existsSync(path.join(home, 'nvvm'))) return home;
  }
  if (looksLikeCuda('/usr/local/cuda')) return '/usr/local/cuda';
  return null;
}

export interface Tools {
  cudaHome: string | null;
  nvcc: string | null;
  ptxas: string | null;
  /** The real cicc: <cuda>/nvvm/bin/cicc. */
  cicc: string | null;
  llvmAs: string | null;
  /** GNU time (for peak RSS via -f %M). */
  gnuTime: string | null;
}

/** Tools of the CUDA toolkit, relative to its home (CUDA_HOME, the toolkit of an nvcc on PATH, /usr/local/cuda). */
const CUDA_TOOLS = { nvcc: 'bin/nvcc', ptxas: 'bin/ptxas', cicc: 'nvvm/bin/cicc' } as const;
/** LLVM tools: on PATH, then PATH's versioned names (llvm-as-14), then Debian's /usr/lib/llvm-N/bin. */
const LLVM_TOOLS = ['llvm-as', 'llvm-dis', 'llvm-bcanalyzer', 'opt', 'llc', 'lli', 'FileCheck'] as const;
const LLVM_VERSIONS = [18, 17, 16, 15, 14];
/** Other programs the tests run: on PATH, then the standard directories (nginx lives in /usr/sbin, often off PATH). */
const SYSTEM_TOOLS = ['gcc', 'make', 'cmake', 'ninja', 'redis-server', 'redis-cli', 'nginx', 'time', 'ccache', 'sccache'] as const;
const STANDARD_DIRS = ['/usr/local/bin', '/usr/bin', '/usr/sbin', '/bin', '/sbin'];

export type ToolName = keyof typeof CUDA_TOOLS | (typeof LLVM_TOOLS)[number] | (typeof SYSTEM_TOOLS)[number];

const found = new Map<ToolName, string | null>();

function locate(name: ToolName): string | null {
  if (name in CUDA_TOOLS) {
    const home = findCudaHome();
    const p = home ? path.join(home, CUDA_TOOLS[name as keyof typeof CUDA_TOOLS]) : '';
    return p && isExecutable(p) ? p : null;
  }
  const onPath = which(name);
  if (onPath) return onPath;
  if ((LLVM_TOOLS as readonly string[]).includes(name)) {
    for (const v of LLVM_VERSIONS) {
      const p = which(`${name}-${v}`) ?? (isExecutable(`/usr/lib/llvm-${v}/bin/${name}`) ? `/usr/lib/llvm-${v}/bin/${name}` : null);
      if (p) return p;
    }
    return null;
  }
  return STANDARD_DIRS.map(d => path.join(d, name)).find(isExecutable) ?? null;
}

/** The one tool resolver of the tests: the absolute path of a tool, or null when it is absent. Looked up once. */
export function findTool(name: ToolName): string | null {
  if (!found.has(name)) found.set(name, locate(name));
  return found.get(name)!;
}

let cached: Tools | undefined;

/** The CUDA toolkit's home and its tools, as findTool() finds them. */
export function tools(): Tools {
  return cached ??= {
    cudaHome: findCudaHome(),
    nvcc: findTool('nvcc'),
    ptxas: findTool('ptxas'),
    cicc: findTool('cicc'),
    llvmAs: findTool('llvm-as'),
    gnuTime: findTool('time'),
  };
}

export function hasTool(name: ToolName): boolean {
  return findTool(name) !== null;
}

/** Absolute path of a tool; throws (a test failure, not a skip) when it is absent. */
export function requireTool(name: ToolName): string {
  const p = findTool(name);
  if (!p) throw new Error(`required tool ${name} not found (${skipReason(name)})`);
  return p;
}

/** A clear message naming the absent tools, or undefined when all are present. Use with describe.skipIf. */
export function skipReason(...names: ToolName[]): string | undefined {
  const missing = names.filter(n => !hasTool(n));
  if (missing.length === 0) return undefined;
  if (!missing.some(n => n in CUDA_TOOLS)) return `skipped: ${missing.join(', ')} not found`;
  return `skipped: ${missing.join(', ')} not found (CUDA home: ${findCudaHome() ?? 'none; set CUDA_HOME or put nvcc on PATH'})`;
}

/** Programs among test/kernels/*.cu: files with a host main(), sorted. */
export function kernelPrograms(): string[] {
  return fs
    .readdirSync(KERNELS_DIR)
    .filter(f => f.endsWith('.cu'))
    .filter(f => /\bint\s+main\s*\(/.test(fs.readFileSync(path.join(KERNELS_DIR, f), 'utf8')))
    .sort()
    .map(f => path.join(KERNELS_DIR, f));
}

/** `// EXPECT-OUTPUT: text` lines of a kernel source: text that must appear in the program's stdout+stderr. */
export function expectedOutput(cuFile: string): string[] {
  const out: string[] = [];
  for (const line of fs.readFileSync(cuFile, 'utf8').split('\n')) {
    const m = /^\s*\/\/\s*EXPECT-OUTPUT:\s?(.*)$/.exec(line);
    if (m) out.push(m[1]!.trimEnd());
  }
  return out;
}

export function gencodeFlags(archs: readonly number[], code: 'sm' | 'compute' = 'sm'): string[] {
  return archs.flatMap(a => ['-gencode', `arch=compute_${a},code=${code}_${a}`]);
}

export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    encoding: 'utf8',
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    timeout: opts.timeoutMs ?? 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

// ---------------------------------------------------------------------------------------------------
// Capturing the real cicc inputs

/** What nvcc gave cicc for one virtual arch, copied out of nvcc's temp dir. */
export interface PreparedUnit {
  /** e.g. 'compute_90' */
  arch: string;
  /** Arch number, e.g. 90. */
  archNum: number;
  /** Directory holding the copies below. */
  dir: string;
  /** The .cpp1.ii (copied). */
  ii: string;
  /** The module id file (copied). */
  moduleIdFile: string;
  moduleId: string;
  /** The real cicc nvcc invoked (argv[1] under --cicc-prefix). */
  realCicc: string;
  /** cicc argv exactly as nvcc passed it (temp paths refer to nvcc's deleted temp dir). */
  originalArgv: string[];
  /** The real cicc's PTX and stub for this unit (reference outputs from the capture run). */
  refPtx: string;
  refStub: string;
}

const CAPTURE_SCRIPT = `#!/bin/sh
# --cicc-prefix capture script (test/helpers/tools.ts): records cicc's argv, copies its inputs, runs the
# real cicc and copies its PTX and stub next to them.
real="$1"; shift
arch=""; mid=""; input=""; out=""; stub=""; prev=""
for a in "$@"; do
  case "$prev" in
    -arch) arch="$a" ;;
    --module_id_file_name) mid="$a" ;;
    -o) out="$a" ;;
    --stub_file_name) stub="$a" ;;
    *) case "$a" in *.ii) input="$a" ;; esac ;;
  esac
  prev="$a"
done
d="$PTXD_CAPTURE_DIR/$arch"
mkdir -p "$d" || exit 1
printf '%s\\0' "$@" > "$d/argv" || exit 1
printf '%s' "$real" > "$d/cicc"
cp "$input" "$d/unit.cpp1.ii" || exit 1
cp "$mid" "$d/module_id" || exit 1
"$real" "$@" || exit $?
[ -n "$out" ] && cp "$out" "$d/ref.ptx"
[ -n "$stub" ] && cp "$stub" "$d/ref.stub.c"
exit 0
`;

function scratchRoot(): string {
  const d = path.join(os.tmpdir(), `ptxd-test-${process.getuid?.() ?? 'u'}`);
  fs.mkdirSync(d, { recursive: true });
  return d;
}

function captureScript(): string {
  const p = path.join(scratchRoot(), `cicc-capture-${createHash('sha256').update(CAPTURE_SCRIPT).digest('hex').slice(0, 12)}.sh`);
  if (!fs.existsSync(p)) {
    const tmp = `${p}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, CAPTURE_SCRIPT, { mode: 0o755 });
    fs.renameSync(tmp, p);
  }
  return p;
}

/**
 * nvcc flags a test program needs (a `// nvcc-flags: --extended-lambda` line among its first lines); every
 * harness that runs nvcc on a program adds them, so the real cicc and ptxd see the same unit.
 */
export function programNvccFlags(cuFile: string): string[] {
  const head = fs.readFileSync(cuFile, 'utf8').split('\n', 8);
  const line = head.find(l => l.startsWith('// nvcc-flags:'));
  return line ? line.slice('// nvcc-flags:'.length).trim().split(/\s+/).filter(Boolean) : [];
}

export interface PrepareOptions {
  /** Extra nvcc flags (e.g. ['-lineinfo']); they become part of the cache key. */
  nvccFlags?: string[];
  /** Where to keep prepared units; default a per-user temp dir. Entries are keyed by content, so reuse is safe. */
  cacheDir?: string;
  /** Only a unit captured before: throws instead of running nvcc (a benchmark that may not spend the time). */
  capturedOnly?: boolean;
}

/**
 * Run the real nvcc (`-cuda`, `-gencode arch=compute_N,code=compute_N` for each arch) with a capturing
 * --cicc-prefix, and return the per-arch cicc inputs. One nvcc call covers all archs. Results are cached
 * on disk by (source bytes, path, archs, flags, nvcc path), so repeated calls in one run are cheap.
 */
export function prepareUnits(cuFile: string, archs: readonly number[], opts: PrepareOptions = {}): Map<number, PreparedUnit> {
  const dir = captureDir(cuFile, archs, opts);
  const units = new Map<number, PreparedUnit>();
  for (const a of archs) {
    const arch = `compute_${a}`;
    const d = path.join(dir, arch);
    if (!fs.existsSync(path.join(d, 'argv'))) throw new Error(`nvcc did not run cicc for ${arch} (${cuFile})`);
    const argv = fs.readFileSync(path.join(d, 'argv'), 'utf8').split('\0');
    argv.pop(); // trailing NUL
    units.set(a, {
      arch,
      archNum: a,
      dir: d,
      ii: path.join(d, 'unit.cpp1.ii'),
      moduleIdFile: path.join(d, 'module_id'),
      moduleId: fs.readFileSync(path.join(d, 'module_id'), 'utf8').trim(),
      realCicc: fs.readFileSync(path.join(d, 'cicc'), 'utf8'),
      originalArgv: argv,
      refPtx: fs.existsSync(path.join(d, 'ref.ptx')) ? fs.readFileSync(path.join(d, 'ref.ptx'), 'utf8') : '',
      refStub: fs.existsSync(path.join(d, 'ref.stub.c')) ? fs.readFileSync(path.join(d, 'ref.stub.c'), 'utf8') : '',
    });
  }
  return units;
}

/**
 * Archs the suites ask for, captured together for the test programs (test/kernels), which many suites
 * share: one nvcc run (one cudafe++ and host preprocessing) serves a test that wants sm_90 and one that wants
 * sm_75 and sm_90. Only for plain captures: a test's extra nvcc flags (-lineinfo) make a capture of their
 * own anyway, and a unit only one test uses is captured for the archs it asks for.
 */
const COMMON_CAPTURE_ARCHS: readonly number[] = [75, 90];
/** Part of every capture's key: bump when what a capture directory holds changes (3: `nvcc -cuda`, the host side kept preprocessed). */
const CAPTURE_FORMAT = 3;

/**
 * The host side of the capture run, preprocessed (`nvcc -cuda` for the capture's archs: what nvcc's own host
 * compile would compile, the stub and the PTX-only fatbinary included): `g++ -c -x c++` makes its object.
 */
export function capturedHostSource(cuFile: string, archs: readonly number[]): string {
  return path.join(captureDir(cuFile, archs, {}), 'host.ii');
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/**
 * The directory of a finished capture, made now if there is none. Test files run in parallel processes and
 * ask for the same programs: a lock directory makes the others wait for the one nvcc run instead of
 * repeating it (a lock whose owner died, or older than ten minutes, is taken over).
 */
function captureDir(cuFile: string, archs: readonly number[], opts: PrepareOptions): string {
  const nvcc = requireTool('nvcc');
  const src = path.resolve(cuFile);
  const extra = opts.nvccFlags ?? [];
  const shared = extra.length === 0 && path.dirname(src) === KERNELS_DIR && archs.every(a => COMMON_CAPTURE_ARCHS.includes(a));
  const captured = shared ? COMMON_CAPTURE_ARCHS : [...archs];
  const flags = [...extra, ...programNvccFlags(src)];
  const key = createHash('sha256')
    .update(JSON.stringify([CAPTURE_FORMAT, src, fs.readFileSync(src, 'utf8'), captured, flags, nvcc, CAPTURE_SCRIPT]))
    .digest('hex')
    .slice(0, 20);
  const root = opts.cacheDir ?? path.join(scratchRoot(), 'units');
  const dir = path.join(root, `${path.basename(src, '.cu')}-${key}`);
  const done = path.join(dir, 'done');
  const lock = `${dir}.lock`;
  if (opts.capturedOnly && !fs.existsSync(done)) throw new Error(`not captured before: ${cuFile}`);
  fs.mkdirSync(root, { recursive: true });
  while (!fs.existsSync(done)) {
    try {
      fs.mkdirSync(lock);
    } catch {
      if (!lockIsStale(lock)) { sleepMs(100); continue; }
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      if (!fs.existsSync(done)) capture(nvcc, src, captured, flags, dir);
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

function lockIsStale(lock: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
    if (Date.now() - fs.statSync(lock).mtimeMs > 600_000) return true;
    process.kill(pid, 0);
    return false;
  } catch (e) {
    // no pid file yet (its owner is between mkdir and write) unless the lock is old; ESRCH: the owner died
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
    try { return Date.now() - fs.statSync(lock).mtimeMs > 10_000; } catch { return false; }
  }
}

function capture(nvcc: string, src: string, archs: readonly number[], flags: string[], dir: string): void {
  const work = `${dir}.${process.pid}.${Date.now()}.tmp`;
  fs.mkdirSync(work, { recursive: true });
  // -cuda: nvcc runs everything -c runs up to the host compile (cicc's argv and inputs are the same), not the host compile
  const r = run(nvcc, ['-cuda', src, '-o', path.join(work, 'host.ii'), ...gencodeFlags(archs, 'compute'), ...flags, `--cicc-prefix=${captureScript()}`], {
    env: { ...process.env, PTXD_CAPTURE_DIR: work },
  });
  if (r.status !== 0) {
    fs.rmSync(work, { recursive: true, force: true });
    throw new Error(`nvcc capture of ${src} failed (rc ${r.status}${r.error ? `, ${r.error.message}` : ''}):\n${r.stdout}${r.stderr}`);
  }
  fs.writeFileSync(path.join(work, 'done'), '');
  try {
    fs.renameSync(work, dir);
  } catch {
    fs.rmSync(work, { recursive: true, force: true }); // a capture from before locking exists; it is identical
  }
}

export function prepareUnit(cuFile: string, arch: number, opts: PrepareOptions = {}): PreparedUnit {
  return prepareUnits(cuFile, [arch], opts).get(arch)!;
}

const OUTPUT_OPTIONS: Record<string, string> = {
  '-o': 'out.ptx',
  '--gen_c_file_name': 'out.cudafe1.c',
  '--stub_file_name': 'out.cudafe1.stub.c',
  '--gen_device_file_name': 'out.cudafe1.gpu',
};

/**
 * The unit's cicc argv with the input and module id pointing at the prepared copies and every output
 * (-o, --gen_c_file_name, --stub_file_name, --gen_device_file_name) redirected into outDir.
 * Everything else (flags, --orig_src_*, --include_file_name) is exactly what nvcc sent.
 */
export function ciccArgv(u: PreparedUnit, outDir: string): string[] {
  const a = [...u.originalArgv];
  for (let i = 0; i < a.length; i++) {
    const opt = a[i]!;
    if (opt === '--module_id_file_name' && i + 1 < a.length) {
      a[++i] = u.moduleIdFile;
    } else if (OUTPUT_OPTIONS[opt] !== undefined && i + 1 < a.length) {
      a[++i] = path.join(outDir, OUTPUT_OPTIONS[opt]!);
    } else if (opt.endsWith('.ii') && !opt.startsWith('-')) {
      a[i] = u.ii;
    }
  }
  return a;
}

/** Paths of the outputs ciccArgv() redirects into outDir. */
export function ciccOutputs(outDir: string): { ptx: string; stub: string } {
  return { ptx: path.join(outDir, 'out.ptx'), stub: path.join(outDir, 'out.cudafe1.stub.c') };
}

/** The value following `name` in an argv, if any. */
export function argValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : undefined;
}

export function mkTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(scratchRoot(), `${prefix}-`));
}

let libdeviceCache: Uint8Array | null | undefined;
/** The toolkit's libdevice bytes (what the client and daemon pass to compileUnit), or undefined when absent. */
export function libdeviceBytes(): Uint8Array | undefined {
  if (libdeviceCache === undefined) {
    const home = tools().cudaHome;
    const f = home ? path.join(home, 'nvvm', 'libdevice', 'libdevice.10.bc') : '';
    libdeviceCache = f && fs.existsSync(f) ? new Uint8Array(fs.readFileSync(f)) : null;
  }
  return libdeviceCache ?? undefined;
}

/** The compile options of a captured unit: what our argv parser makes of nvcc's real cicc argv, plus its module id. */
export function unitOptions(u: PreparedUnit): CompileOptions {
  return { ...parseCiccArgs(u.originalArgv).options, moduleId: u.moduleId };
}
