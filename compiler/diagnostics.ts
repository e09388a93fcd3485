// Diagnostics in cicc's (EDG's) format, and the exceptions the compiler uses to stop.

export type Severity = 'error' | 'warning' | 'remark' | 'catastrophic';

export interface Diagnostic {
  severity: Severity;
  /** File name as in the .ii line markers (usually the original .cu name). */
  file: string;
  line: number;
  /** 1-based column of the caret, when known. */
  col?: number;
  /** EDG diagnostic number (e.g. 177 for "declared but never referenced"), when there is one. */
  number?: number;
  message: string;
  /** The source line the caret points into (EDG prints it under the message). */
  sourceLine?: string;
  /** Reported "At end of source" (EDG's wording when the unit ends inside a construct). */
  atEnd?: boolean;
}

/** Thrown for input the compiler cannot handle yet: the unit falls back to the real cicc (visibly). */
export class Unsupported extends Error {
  constructor(public readonly reason: string) { super(reason); this.name = 'Unsupported'; }
}

/** Thrown to stop compilation after fatal errors have been recorded. */
export class CompileErrors extends Error {
  constructor(public readonly diagnostics: Diagnostic[]) { super('compile errors'); this.name = 'CompileErrors'; }
}

/**
 * EDG style: `k.cu(5): error: identifier "x" is undefined` then the source line and a caret line.
 * With --display_error_number: `warning #177-D:` style (number, -D for discretionary diagnostics; errors carry none).
 */
export function formatDiagnostic(d: Diagnostic, displayNumber: boolean): string {
  let sev: string = d.severity === 'catastrophic' ? 'catastrophic error' : d.severity;
  // cicc (CUDA 13) numbers only the discretionary diagnostics (`warning #177-D:`), never an error
  if (displayNumber && d.number !== undefined && d.severity !== 'error' && d.severity !== 'catastrophic') sev += ` #${d.number}-D`;
  let s = d.atEnd ? `At end of source: ${sev}: ${d.message}\n` : d.line > 0 ? `${d.file}(${d.line}): ${sev}: ${d.message}\n` : `${sev}: ${d.message}\n`;
  if (d.sourceLine !== undefined) {
    s += `  ${d.sourceLine}\n`;
    if (d.col !== undefined) s += `  ${' '.repeat(Math.max(0, d.col - 1))}^\n`;
  }
  return s + '\n';
}

/** The closing line EDG prints when errors occurred. */
export function formatErrorSummary(errors: number, origSrcFileName: string): string {
  return `${errors} error${errors === 1 ? '' : 's'} detected in the compilation of "${origSrcFileName}".\n`;
}
