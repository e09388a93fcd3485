// The compiler's one entry for its callers (the daemon, its workers, the client): compile a unit whole or
// root by root, the types of what goes in and out, options and diagnostics. Loading it loads the whole
// compiler: code that must start fast imports options.ts, diagnostics.ts or incremental/store.ts directly.

export { compileUnit } from './compile';
export { rootsToCompile, compileRoots } from './incremental/incremental';
export type { CompileEnv, CompileResult, PhaseTimes, IncrementalInfo } from './result';
export { zeroTimes } from './result';
export { PreludeCache } from './frontend/prelude';
export { RecentCompiles, type PieceStore, type StoreValue } from './incremental/store';
export type { Evictable } from './memory';
export { defaultOptions, SUPPORTED_ARCHS, type CompileOptions } from './options';
export { formatDiagnostic, formatErrorSummary, type Diagnostic, type Severity } from './diagnostics';
