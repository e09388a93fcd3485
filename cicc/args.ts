// cicc's argv grammar, as nvcc 13.0 sends it (research/cicc-cli-contract.md §1.2).
// Every flag nvcc sends is honoured (H), accepted and ignored (A) or marked "rejected until implemented"
// (R). Anything else is an error worded like the real cicc's (EDG's) command-line errors.
// No I/O here: the caller reads the module id file and the input.

import { defaultOptions, SUPPORTED_ARCHS, type CompileOptions } from '../compiler/options';

export interface CiccArgs {
  options: CompileOptions;
  /** The input unit (`*.cpp1.ii`), exactly as given. */
  input: string;
  /** `-o`; when absent, cicc writes `<input without extension>.ptx`. */
  output?: string;
  moduleIdFile?: string;
  genModuleIdFile: boolean;
  stubFile?: string;
  genCFile?: string;
  genDeviceFile?: string;
  traceFile?: string;
  tracePid?: number;
  traceEnv?: string;
  /** Flags we accept but whose output we cannot produce yet (R in the contract): the unit falls back. */
  rejected: string[];
  /** Accepted-and-ignored flags that are still worth logging (e.g. `-nvvm-version=nvvm-latest`). */
  ignored: string[];
  /** Input kind: 'ii' (preprocessed CUDA C++, ours) or 'other' (NVVM IR/OptiX IR: only the real cicc). */
  inputKind: 'ii' | 'other';
}

/** A command-line problem, worded like the real cicc. `kind` picks the trailer the client prints. */
export class CiccArgError extends Error {
  constructor(message: string, public readonly kind: 'command-line' | 'missing-input') {
    super(message);
    this.name = 'CiccArgError';
  }
}

/** Options whose value is the next argv word (or joined with `=`). */
export const VALUED: ReadonlySet<string> = new Set([
  '--orig_src_file_name', '--orig_src_path_name', '-arch', '--include_file_name', '-maxreg', '-split-compile',
  '--module_id_file_name', '--gen_c_file_name', '--stub_file_name', '--gen_device_file_name',
  '--device-time-trace', '--use-trace-pid', '--trace-env', '-o', '-olto',
  '--diag_suppress', '--diag_warn', '--diag_error',
  // Usually joined with '=', but accept them separated too.
  '-ftz', '-prec_div', '-prec_sqrt', '-fmad', '--gnu_version', '--Ofast-compile', '-nvvm-version',
]);

/** Valued options that take a 0/1 value. */
const BOOL_VALUED = new Set(['-ftz', '-prec_div', '-prec_sqrt', '-fmad']);

/** Flags without a value. */
const FLAGS = new Set([
  '--c++03', '--c++11', '--c++14', '--c++17', '--c++20',
  '--static-host-stub', '--host-stub-linkage-explicit', '--device-hidden-visibility',
  '-w', '--promote_warnings', '--display_error_number', '--allow_managed', '--debug_mode',
  '--extended-lambda', '--relaxed_constexpr', '--keep-device-functions', '--device-c',
  '-kernel-params-are-restrict', '-extra-device-vectorization', '-show-src', '-m64', '--no-version-ident',
  '-fast-math', '--gen_div_approx_ftz', '-g', '-O0', '-O1', '-O2', '-O3', '-generate-line-info',
  '-no-lineinfo-inlined-at', '-tused', '--emit-optix-ir', '--gen_module_id_file', '-lto',
]);

/** Input extensions cicc compiles as CUDA C++ (`.cpp1.ii` ends in `.ii`). `.i` is accepted by cicc 13.0. */
const II_EXTS = ['.ii', '.i', '.ci', '.cup'];
/** Inputs only the real cicc handles (NVVM IR / OptiX IR). */
const OTHER_EXTS = ['.bc', '.optixir'];

function invalidOption(flag: string): CiccArgError {
  return new CiccArgError(`invalid option: ${flag}`, 'command-line');
}

function parseArch(v: string | undefined): { arch: number; suffix: '' | 'a' | 'f' } {
  const m = v === undefined ? null : /^(?:compute|sm)_(\d+)([af]?)$/.exec(v);
  const n = m ? Number(m[1]) : NaN;
  if (!m || !(SUPPORTED_ARCHS as readonly number[]).includes(n)) {
    throw new CiccArgError('invalid or no value specified with --nv_arch flag', 'command-line');
  }
  return { arch: n, suffix: m[2] as '' | 'a' | 'f' };
}

function parseBool01(flag: string, v: string): boolean {
  if (v === '0') return false;
  if (v === '1') return true;
  throw new CiccArgError(`invalid value "${v}" for option ${flag}`, 'command-line');
}

function parseIntArg(flag: string, v: string): number {
  if (!/^\d+$/.test(v)) throw new CiccArgError(`invalid value "${v}" for option ${flag}`, 'command-line');
  return Number(v);
}

/**
 * Parse cicc's argv (without the program name and without the real-cicc path that `--cicc-prefix`
 * puts first). Throws CiccArgError for anything the real cicc would refuse (and for unknown flags).
 */
export function parseCiccArgs(argv: readonly string[]): CiccArgs {
  const o = defaultOptions();
  // These are driven by the presence of flags that nvcc passes by default: absent means off.
  o.staticHostStub = false;
  o.deviceHiddenVisibility = false;
  o.displayErrorNumber = false;
  const r: CiccArgs = { options: o, input: '', genModuleIdFile: false, rejected: [], ignored: [], inputKind: 'ii' };
  const inputs: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('-') || a === '-') { inputs.push(a); continue; }
    let flag = a;
    let value: string | undefined;
    const eq = a.indexOf('=');
    if (eq > 0 && VALUED.has(a.slice(0, eq))) { flag = a.slice(0, eq); value = a.slice(eq + 1); }
    if (VALUED.has(flag)) {
      if (value === undefined) {
        if (i + 1 >= argv.length) {
          if (flag === '-arch') throw new CiccArgError('invalid or no value specified with --nv_arch flag', 'command-line');
          throw new CiccArgError(`missing value for option ${flag}`, 'command-line');
        }
        value = argv[++i];
      }
      applyValued(r, flag, value);
      continue;
    }
    if (!FLAGS.has(flag)) throw invalidOption(a);
    applyFlag(r, flag);
  }

  if (inputs.length > 1) throw new CiccArgError(`more than one input file: ${inputs.join(' ')}`, 'command-line');
  const input = inputs[0];
  if (input === undefined) throw new CiccArgError('Missing input file', 'missing-input');
  const lower = input.toLowerCase();
  if (II_EXTS.some(e => lower.endsWith(e))) r.inputKind = 'ii';
  else if (OTHER_EXTS.some(e => lower.endsWith(e))) r.inputKind = 'other';
  else throw new CiccArgError('Missing input file', 'missing-input');
  r.input = input;
  if (o.origSrcFileName === '') o.origSrcFileName = input;
  if (o.origSrcPathName === '') o.origSrcPathName = o.origSrcFileName;
  if (o.stubFileName === '' && r.stubFile !== undefined) o.stubFileName = r.stubFile;
  return r;
}

function applyValued(r: CiccArgs, flag: string, v: string): void {
  const o = r.options;
  switch (flag) {
    case '--orig_src_file_name': o.origSrcFileName = v; return;
    case '--orig_src_path_name': o.origSrcPathName = v; return;
    case '-arch': { const a = parseArch(v); o.arch = a.arch; o.archSuffix = a.suffix; return; }
    case '--include_file_name': o.includeFileName = v; return;
    case '-maxreg': parseIntArg(flag, v); return;                  // A: ptxas gets -maxrregcount itself
    case '-split-compile': parseIntArg(flag, v); return;           // A: internal parallelism only
    case '--module_id_file_name': r.moduleIdFile = v; return;
    case '--gen_c_file_name': r.genCFile = v; return;
    case '--stub_file_name': r.stubFile = v; o.stubFileName = v; return;
    case '--gen_device_file_name': r.genDeviceFile = v; return;
    case '--device-time-trace': r.traceFile = v; return;
    case '--use-trace-pid': r.tracePid = parseIntArg(flag, v); return;
    case '--trace-env': r.traceEnv = v; return;
    case '-o': r.output = v; return;
    case '-olto': r.rejected.push(`-olto ${v}`); return;           // R: no LTO IR yet
    case '--diag_suppress': o.diagSuppress.push(...splitList(v)); return;
    case '--diag_warn': o.diagWarn.push(...splitList(v)); return;
    case '--diag_error': o.diagError.push(...splitList(v)); return;
    case '-ftz': o.ftz = parseBool01(flag, v); return;
    case '-prec_div': o.precDiv = parseBool01(flag, v); return;
    case '-prec_sqrt': o.precSqrt = parseBool01(flag, v); return;
    case '-fmad': o.fmad = parseBool01(flag, v); return;
    case '--gnu_version': o.gnuVersion = parseIntArg(flag, v); return;
    case '--Ofast-compile':
      if (!['max', 'mid', 'min', '0'].includes(v)) throw new CiccArgError(`invalid value "${v}" for option ${flag}`, 'command-line');
      if (v !== '0') r.ignored.push(`--Ofast-compile=${v}`);
      return;
    case '-nvvm-version':
      if (!['nvvm70', 'nvvm-latest'].includes(v)) throw new CiccArgError(`invalid value "${v}" for option ${flag}`, 'command-line');
      r.ignored.push(`-nvvm-version=${v}`);
      return;
  }
}

function splitList(v: string): string[] {
  return v.split(',').map(s => s.trim()).filter(s => s !== '');
}

function applyFlag(r: CiccArgs, flag: string): void {
  const o = r.options;
  switch (flag) {
    case '--c++03': o.cppStd = 3; return;
    case '--c++11': o.cppStd = 11; return;
    case '--c++14': o.cppStd = 14; return;
    case '--c++17': o.cppStd = 17; return;
    case '--c++20': o.cppStd = 20; return;
    case '--static-host-stub': o.staticHostStub = true; return;
    case '--host-stub-linkage-explicit': o.hostStubLinkageExplicit = true; return;
    case '--device-hidden-visibility': o.deviceHiddenVisibility = true; return;
    case '-w': o.suppressWarnings = true; return;
    case '--promote_warnings': o.promoteWarnings = true; return;
    case '--display_error_number': o.displayErrorNumber = true; return;
    case '--extended-lambda': o.extendedLambda = true; return;
    case '--relaxed_constexpr': o.relaxedConstexpr = true; return;
    case '--keep-device-functions': o.keepDeviceFunctions = true; return;
    case '--device-c': o.rdc = true; return;
    case '-fast-math': o.fastMath = true; return;
    case '--gen_div_approx_ftz': o.genDivApproxFtz = true; return;
    case '-g':
      // R until the backend writes DWARF: ptxas rejects `.target …, debug` without debug sections.
      o.debug = true;
      r.rejected.push('-g (device debug information is not implemented yet)');
      return;
    case '-O0': o.optLevel = 0; return;
    case '-O1': o.optLevel = 1; return;
    case '-O2': o.optLevel = 2; return;
    case '-O3': o.optLevel = 3; return;
    case '-generate-line-info': o.lineInfo = true; return;
    case '-no-lineinfo-inlined-at': o.noLineInfoInlinedAt = true; return;
    case '--gen_module_id_file': r.genModuleIdFile = true; return;
    case '--emit-optix-ir': r.rejected.push(flag); return;          // R: no OptiX IR yet
    case '-lto': r.rejected.push(flag); return;                     // R: no LTO IR yet
    // A: --allow_managed (always on), --debug_mode (goes with -g), -m64 (the only mode), -tused,
    // --no-version-ident, -kernel-params-are-restrict, -extra-device-vectorization, -show-src.
    default: return;
  }
}

/** `<input without its extension>.ptx`, what cicc writes when there is no `-o`. */
export function defaultOutputPath(input: string): string {
  const lower = input.toLowerCase();
  for (const e of ['.cpp1.ii', ...II_EXTS, ...OTHER_EXTS]) {
    if (lower.endsWith(e)) return input.slice(0, input.length - e.length) + '.ptx';
  }
  return input + '.ptx';
}
