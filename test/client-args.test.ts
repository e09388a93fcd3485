// cicc's argv grammar (research/cicc-cli-contract.md §1.2) as parsed by cicc/args.ts.
import { describe, it, expect } from 'vitest';
import { parseCiccArgs, defaultOutputPath, CiccArgError } from '../cicc/args';
import { splitRealCicc, adjustDiagnostic } from '../client/cicc';
import { generateModuleId } from '../cicc/module-id';
import { defaultOptions } from '../compiler/options';

/** The exact argv of `nvcc -arch=sm_90 -c k.cu` (contract §1.1), temp names shortened. */
const DEFAULT_ARGV = [
  '--c++17', '--static-host-stub', '--device-hidden-visibility', '--gnu_version=120200', '--display_error_number',
  '--orig_src_file_name', 'k.cu', '--orig_src_path_name', '/abs/path/k.cu', '--allow_managed',
  '-arch', 'compute_90', '-m64', '--no-version-ident', '-ftz=0', '-prec_div=1', '-prec_sqrt=1', '-fmad=1',
  '--include_file_name', 'tmpxft_1-3_k.fatbin.c', '-tused',
  '--module_id_file_name', '/tmp/tmpxft_1-4_k.module_id',
  '--gen_c_file_name', '/tmp/tmpxft_1-6_k.cudafe1.c', '--stub_file_name', '/tmp/tmpxft_1-6_k.cudafe1.stub.c',
  '--gen_device_file_name', '/tmp/tmpxft_1-6_k.cudafe1.gpu', '/tmp/tmpxft_1-7_k.cpp1.ii', '-o', '/tmp/tmpxft_1-6_k.ptx',
];

function errorOf(argv: string[]): CiccArgError {
  try { parseCiccArgs(argv); } catch (e) { if (e instanceof CiccArgError) return e; throw e; }
  throw new Error('expected a CiccArgError');
}

describe('parseCiccArgs', () => {
  it('parses the default nvcc argv', () => {
    const a = parseCiccArgs(DEFAULT_ARGV);
    expect(a.input).toBe('/tmp/tmpxft_1-7_k.cpp1.ii');
    expect(a.output).toBe('/tmp/tmpxft_1-6_k.ptx');
    expect(a.moduleIdFile).toBe('/tmp/tmpxft_1-4_k.module_id');
    expect(a.genModuleIdFile).toBe(false);
    expect(a.stubFile).toBe('/tmp/tmpxft_1-6_k.cudafe1.stub.c');
    expect(a.genCFile).toBe('/tmp/tmpxft_1-6_k.cudafe1.c');
    expect(a.genDeviceFile).toBe('/tmp/tmpxft_1-6_k.cudafe1.gpu');
    expect(a.rejected).toEqual([]);
    expect(a.inputKind).toBe('ii');
    const o = a.options;
    expect({ arch: o.arch, suffix: o.archSuffix, opt: o.optLevel, ftz: o.ftz, precDiv: o.precDiv, precSqrt: o.precSqrt, fmad: o.fmad, fast: o.fastMath })
      .toEqual({ arch: 90, suffix: '', opt: 3, ftz: false, precDiv: true, precSqrt: true, fmad: true, fast: false });
    expect(o.origSrcFileName).toBe('k.cu');
    expect(o.origSrcPathName).toBe('/abs/path/k.cu');
    expect(o.includeFileName).toBe('tmpxft_1-3_k.fatbin.c');
    expect(o.stubFileName).toBe('/tmp/tmpxft_1-6_k.cudafe1.stub.c');
    expect(o.staticHostStub && o.deviceHiddenVisibility && o.displayErrorNumber).toBe(true);
    expect(o.hostStubLinkageExplicit || o.rdc || o.debug || o.lineInfo).toBe(false);
    expect(o.cppStd).toBe(17);
    expect(o.gnuVersion).toBe(120200);
  });

  it('flags nvcc removes are off when absent', () => {
    const argv = DEFAULT_ARGV.filter(a => !['--static-host-stub', '--device-hidden-visibility', '--display_error_number'].includes(a));
    const o = parseCiccArgs([...argv, '--host-stub-linkage-explicit']).options;
    expect(o.staticHostStub).toBe(false);
    expect(o.deviceHiddenVisibility).toBe(false);
    expect(o.displayErrorNumber).toBe(false);
    expect(o.hostStubLinkageExplicit).toBe(true);
  });

  it('honours -Xcicc -O0..3 (inserted after -tused)', () => {
    for (const n of [0, 1, 2, 3] as const) {
      const argv = [...DEFAULT_ARGV];
      argv.splice(argv.indexOf('-tused') + 1, 0, `-O${n}`);
      expect(parseCiccArgs(argv).options.optLevel).toBe(n);
    }
  });

  it('--use_fast_math, -G, -lineinfo, -rdc, language modes, diagnostics flags', () => {
    const o = parseCiccArgs(['-arch', 'compute_100a', '-ftz=1', '-prec_div=0', '-prec_sqrt=0', '-fmad=1', '-fast-math', '--gen_div_approx_ftz',
      '--debug_mode', '-g', '-O0', '-generate-line-info', '-no-lineinfo-inlined-at', '--device-c', '--c++20', '-w', '--promote_warnings',
      '--diag_suppress', '177,550', '--diag_warn', 'out_of_order_ctor_init', '--diag_error=20', '--extended-lambda', '--relaxed_constexpr',
      '--keep-device-functions', '-maxreg', '32', '--Ofast-compile=max', '-split-compile', '4', '-kernel-params-are-restrict',
      '-extra-device-vectorization', '-show-src', '-nvvm-version=nvvm-latest', 'x.cpp1.ii', '-o', 'x.ptx']).options;
    expect(o.arch).toBe(100);
    expect(o.archSuffix).toBe('a');
    expect([o.ftz, o.precDiv, o.precSqrt, o.fmad, o.fastMath, o.genDivApproxFtz]).toEqual([true, false, false, true, true, true]);
    expect([o.debug, o.optLevel, o.lineInfo, o.rdc, o.cppStd]).toEqual([true, 0, true, true, 20]);
    expect([o.suppressWarnings, o.promoteWarnings]).toEqual([true, true]);
    expect(o.diagSuppress).toEqual(['177', '550']);
    expect(o.diagWarn).toEqual(['out_of_order_ctor_init']);
    expect(o.diagError).toEqual(['20']);
    expect([o.extendedLambda, o.relaxedConstexpr, o.keepDeviceFunctions]).toEqual([true, true, true]);
  });

  it('accepts values joined with = or as the next word', () => {
    const a = parseCiccArgs(['-arch=compute_80', '-ftz', '1', '--orig_src_file_name=a.cu', '--stub_file_name=s.c', '-o=y.ptx', 'x.ii']);
    expect(a.options.arch).toBe(80);
    expect(a.options.ftz).toBe(true);
    expect(a.options.origSrcFileName).toBe('a.cu');
    expect(a.stubFile).toBe('s.c');
    expect(a.output).toBe('y.ptx');
  });

  it('trace, module id generation and defaults', () => {
    const a = parseCiccArgs(['-arch', 'sm_90', '--gen_module_id_file', '--module_id_file_name', 'm.id', 'k.cpp1.ii',
      '--device-time-trace', '/tmp/t', '--use-trace-pid', '7', '--trace-env', '_NVCC_TRACE_TS_7']);
    expect(a.genModuleIdFile).toBe(true);
    expect([a.traceFile, a.tracePid, a.traceEnv]).toEqual(['/tmp/t', 7, '_NVCC_TRACE_TS_7']);
    expect(a.output).toBeUndefined();
    expect(defaultOutputPath(a.input)).toBe('k.ptx');
    expect(a.options.origSrcFileName).toBe('k.cpp1.ii');
    expect(parseCiccArgs(['x.ii']).options.arch).toBe(75);  // cicc's default target
  });

  it('marks the not-yet-implemented outputs (R) and foreign inputs for the real cicc', () => {
    expect(parseCiccArgs(['--emit-optix-ir', 'x.ii', '-o', 'x.optixir']).rejected).toEqual(['--emit-optix-ir']);
    expect(parseCiccArgs(['-lto', 'x.ii', '-o', 'x.ltoir']).rejected).toEqual(['-lto']);
    expect(parseCiccArgs(['x.ii', '-o', 'x.ptx', '-olto', 'x.ltoir']).rejected).toEqual(['-olto x.ltoir']);
    expect(parseCiccArgs(['x.bc', '-o', 'x.ptx']).inputKind).toBe('other');
  });

  it('rejects unknown flags like cicc', () => {
    const e = errorOf([...DEFAULT_ARGV, '--bogus-flag']);
    expect(e.message).toBe('invalid option: --bogus-flag');
    expect(e.kind).toBe('command-line');
    expect(errorOf(['-opt=0', 'x.ii']).message).toBe('invalid option: -opt=0');
    expect(errorOf(['-time', 'x.ii']).kind).toBe('command-line');
  });

  it('rejects a bad or missing -arch with cicc\'s wording', () => {
    for (const argv of [['-arch', 'compute_70', 'x.ii'], ['-arch', 'bogus', 'x.ii'], ['x.ii', '-arch']]) {
      expect(errorOf(argv).message).toBe('invalid or no value specified with --nv_arch flag');
    }
  });

  it('bad values, missing and unsupported inputs', () => {
    expect(errorOf(['-ftz=2', 'x.ii']).kind).toBe('command-line');
    expect(errorOf(['-maxreg', 'lots', 'x.ii']).kind).toBe('command-line');
    expect(errorOf(['-arch', 'compute_90']).kind).toBe('missing-input');
    expect(errorOf(['-arch', 'compute_90', 'x.cu']).kind).toBe('missing-input');
    expect(errorOf(['a.ii', 'b.ii']).kind).toBe('command-line');
    for (const f of ['x.ii', 'x.cpp1.ii', 'x.ci', 'x.cup', 'x.i']) expect(parseCiccArgs([f]).inputKind).toBe('ii');
  });
});

describe('client helpers', () => {
  it('strips the real cicc that --cicc-prefix puts first', () => {
    expect(splitRealCicc(['/usr/local/cuda/bin/../nvvm/bin/cicc', '--c++17', 'x.ii'])).toEqual({ realCicc: '/usr/local/cuda/bin/../nvvm/bin/cicc', args: ['--c++17', 'x.ii'] });
    expect(splitRealCicc(['--c++17', 'x.ii'])).toEqual({ args: ['--c++17', 'x.ii'] });
    expect(splitRealCicc(['x.ii'])).toEqual({ args: ['x.ii'] });
  });

  it('generates a deterministic module id of the documented shape', () => {
    const id = generateModuleId('/abs/path/k.cu', 'k.cu');
    expect(id).toMatch(/^_[0-9a-f]{8}_4_k_cu_[0-9a-f]{8}$/);
    expect(generateModuleId('/abs/path/k.cu', 'k.cu')).toBe(id);
    expect(generateModuleId('/other/k.cu', 'k.cu')).not.toBe(id);
  });

  it('applies -w, --promote_warnings and --diag_* to diagnostics', () => {
    const w = { severity: 'warning' as const, file: 'k.cu', line: 3, number: 177, message: 'unused' };
    const o = defaultOptions();
    expect(adjustDiagnostic(w, o)).toBe(w);
    expect(adjustDiagnostic(w, { ...o, suppressWarnings: true })).toBeUndefined();
    expect(adjustDiagnostic(w, { ...o, diagSuppress: ['177'] })).toBeUndefined();
    expect(adjustDiagnostic(w, { ...o, diagError: ['177'] })?.severity).toBe('error');
    expect(adjustDiagnostic(w, { ...o, promoteWarnings: true })?.severity).toBe('error');
    const e = { ...w, severity: 'error' as const, number: 20 };
    expect(adjustDiagnostic(e, { ...o, suppressWarnings: true })).toBe(e);
    expect(adjustDiagnostic(e, { ...o, diagWarn: ['20'] })?.severity).toBe('warning');
  });
});
