// Options of one compile, as parsed from cicc's argv (see research/cicc-cli-contract.md §1.2).
// Only output-relevant fields live here; file names are the client's business.

export interface CompileOptions {
  /** Virtual arch number, e.g. 90 for compute_90. */
  arch: number;
  /** '' | 'a' | 'f' suffix of compute_NN[a|f]. */
  archSuffix: '' | 'a' | 'f';
  optLevel: 0 | 1 | 2 | 3;
  ftz: boolean;
  precDiv: boolean;
  precSqrt: boolean;
  fmad: boolean;
  fastMath: boolean;
  genDivApproxFtz: boolean;
  /** -g: debug info, `.target sm_XX, debug`. */
  debug: boolean;
  lineInfo: boolean;
  /** -lineinfo: the directory relative file names in line markers resolve against (the compiler's cwd, as cicc does). */
  compDir?: string;
  /** -no-lineinfo-inlined-at: inlined code says only its own position (no function_name/inlined_at). */
  noLineInfoInlinedAt?: boolean;
  /** --device-c (relocatable device code). */
  rdc: boolean;
  /** Module id read from --module_id_file_name (or generated). */
  moduleId: string;
  /** --orig_src_file_name, used in diagnostics and stub line markers. */
  origSrcFileName: string;
  /** --orig_src_path_name. */
  origSrcPathName: string;
  /** --include_file_name (the fatbin.c the stub includes). */
  includeFileName: string;
  /** The stub path exactly as given (for `# 1 "<stub path>"` markers). */
  stubFileName: string;
  staticHostStub: boolean;
  hostStubLinkageExplicit: boolean;
  deviceHiddenVisibility: boolean;
  /** -w */
  suppressWarnings: boolean;
  promoteWarnings: boolean;
  displayErrorNumber: boolean;
  diagSuppress: string[];
  diagWarn: string[];
  diagError: string[];
  cppStd: 3 | 11 | 14 | 17 | 20;
  gnuVersion: number;
  extendedLambda: boolean;
  relaxedConstexpr: boolean;
  keepDeviceFunctions: boolean;
  /** Test only: a deliberate backend miscompile (compiler/backend/mutations.ts); never set by the client. */
  testMutation?: string;
}

export function defaultOptions(): CompileOptions {
  return {
    arch: 75, archSuffix: '', optLevel: 3,
    ftz: false, precDiv: true, precSqrt: true, fmad: true, fastMath: false, genDivApproxFtz: false,
    debug: false, lineInfo: false, rdc: false,
    moduleId: '', origSrcFileName: '', origSrcPathName: '', includeFileName: '', stubFileName: '',
    staticHostStub: true, hostStubLinkageExplicit: false, deviceHiddenVisibility: true,
    suppressWarnings: false, promoteWarnings: false, displayErrorNumber: true,
    diagSuppress: [], diagWarn: [], diagError: [],
    cppStd: 17, gnuVersion: 120200, extendedLambda: false, relaxedConstexpr: false, keepDeviceFunctions: false,
  };
}

/** Targets we generate PTX for (the `sm_` number). */
export const SUPPORTED_ARCHS = [75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121] as const;
