// Messages of a cicc call in cicc's wording: command-line and catastrophic errors, the error summary, and
// the diagnostics with -w, --promote_warnings and --diag_* applied.

import type { CompileOptions, Diagnostic } from '../compiler/index';
import { Exit, type CiccContext } from './context';

export function commandLineError(ctx: CiccContext, message: string): never {
  ctx.stderr(`Command-line error: ${message}\n\n1 catastrophic error detected in this compilation.\nCompilation terminated.\n`);
  throw new Exit(1);
}

export function catastrophic(ctx: CiccContext, message: string, unitName: string): never {
  ctx.stderr(`Catastrophic error: ${message}\n\n1 catastrophic error detected in the compilation of "${unitName}".\nCompilation terminated.\n`);
  throw new Exit(1);
}

export function summaryLine(errors: number, catastrophics: number, unitName: string): string {
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (catastrophics === 0) return `${plural(errors, 'error')} detected in the compilation of "${unitName}".\n`;
  const head = errors > 0 ? `${plural(errors, 'error')} and ` : '';
  return `${head}${plural(catastrophics, 'catastrophic error')} detected in the compilation of "${unitName}".\nCompilation terminated.\n`;
}

/** Applies -w, --promote_warnings and --diag_suppress/--diag_warn/--diag_error to one diagnostic. */
export function adjustDiagnostic(d: Diagnostic, o: CompileOptions): Diagnostic | undefined {
  const num = d.number === undefined ? undefined : String(d.number);
  let severity = d.severity;
  const listed = (l: string[]) => num !== undefined && l.includes(num);
  if (severity === 'warning' || severity === 'remark') {
    if (listed(o.diagSuppress)) return undefined;
    if (listed(o.diagError)) severity = 'error';
  } else if (severity === 'error' && listed(o.diagWarn)) {
    severity = 'warning';
  }
  if (severity === 'warning' || severity === 'remark') {
    if (o.suppressWarnings) return undefined;
    if (o.promoteWarnings && severity === 'warning') severity = 'error';
  }
  return severity === d.severity ? d : { ...d, severity };
}

/** Prints the diagnostics like EDG; returns the error and catastrophic-error counts. */
export function printDiagnostics(ctx: CiccContext, diags: readonly Diagnostic[], o: CompileOptions,
  format: (d: Diagnostic, n: boolean) => string): { errors: number; catastrophics: number } {
  let errors = 0, catastrophics = 0, remarkShown = false;
  for (const raw of diags) {
    const d = adjustDiagnostic(raw, o);
    if (!d) continue;
    ctx.stderr(format(d, o.displayErrorNumber));
    if (d.severity === 'error') errors++;
    else if (d.severity === 'catastrophic') catastrophics++;
    else if (d.severity === 'warning' && d.number !== undefined && o.displayErrorNumber && !remarkShown) {
      ctx.stderr('Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"\n\n');
      remarkShown = true;
    }
  }
  return { errors, catastrophics };
}
