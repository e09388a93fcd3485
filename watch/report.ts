// Watch events for people (compact, coloured on a TTY) and for tools (`--json`: one event per line).
// Diagnostics use cicc's `file(line): error: msg` form, which problem matchers already know.

import { relative } from 'node:path';
import type { Diagnostic } from '../compiler/index';
import type { WatchEvent } from './watch';
import type { ArchResult } from './run-unit';

export function diagnosticLine(d: Diagnostic): string {
  const sev = d.severity === 'catastrophic' ? 'catastrophic error' : d.severity;
  return d.file && d.line > 0 ? `${d.file}(${d.line}): ${sev}: ${d.message}` : `${sev}: ${d.message}`;
}

export function jsonLine(e: WatchEvent): string {
  if (e.event !== 'result') return JSON.stringify({ ...e, time: new Date().toISOString() });
  // Each diagnostic also carries the problem-matcher line.
  return JSON.stringify({ ...e, diagnostics: e.diagnostics.map(d => ({ ...d, text: diagnosticLine(d) })), time: new Date().toISOString() });
}

/** Which functions the compile redid (union over archs), or how many the PTX defines when that is unknown. */
export function functionsText(archs: readonly ArchResult[]): string {
  const ran = archs.filter(a => !a.cached && a.status === 'ok');
  if (ran.length === 0) return '';
  if (ran.every(a => a.functions)) {
    const compiled = [...new Set(ran.flatMap(a => a.functions!.compiled))].sort();
    const reused = new Set(ran.flatMap(a => a.functions!.reused));
    for (const f of compiled) reused.delete(f);
    return ` recompiled ${compiled.length > 0 ? compiled.join(', ') : 'nothing'}${reused.size > 0 ? `, ${reused.size} reused` : ''}`;
  }
  const n = Math.max(...ran.map(a => a.functionCount ?? a.functions?.compiled.length ?? 0));
  return ` ${n} function${n === 1 ? '' : 's'} compiled`;
}

let idleShown = false;

export function humanLines(e: WatchEvent, cwd: string, colour: boolean): string {
  const c = (code: string, s: string) => colour ? `\x1b[${code}m${s}\x1b[0m` : s;
  const name = (f: string) => { const r = relative(cwd, f); return r.startsWith('..') ? f : r; };
  switch (e.event) {
    case 'watching': {
      const units = `${e.units} CUDA unit${e.units === 1 ? '' : 's'}`;
      if (e.from === 'compile_commands') return `${c('36', 'ptxd watch')}: ${units} from ${name(e.db)}\n`;
      return `${c('36', 'ptxd watch')}: ${units} learned from builds of ${cwd} that went through ptxd` +
        `${e.units === 0 ? ' (none yet: build once with ptxd as cicc, e.g. NVCC_APPEND_FLAGS=--cicc-prefix=…/ptxd-cicc; new builds are picked up)' : ''}\n`;
    }
    case 'compiling': return '';
    case 'idle': {
      // Once, after the first round: later rounds end with their own result lines.
      if (idleShown) return '';
      idleShown = true;
      return c('2', `watching ${e.files} files of ${e.units} units${e.failing ? `; ${e.failing} with errors` : ''}\n`);
    }
    case 'removed': return `${c('33', '-')} ${name(e.unit)} removed\n`;
    case 'failed': return `${c('31', '!')} ${e.unit ? `${name(e.unit)}: ` : ''}${e.message}\n`;
    case 'result': {
      const archs = e.archs.map(a => a.arch.replace(/^compute_/, 'sm_')).join(',');
      const hit = e.archs.length > 0 && e.archs.every(a => a.cached) ? ' (cached)' : '';
      const errs = e.diagnostics.filter(d => d.severity === 'error' || d.severity === 'catastrophic').length;
      const head = e.ok
        ? `${c('32', '✓')} ${name(e.unit)} ${c('2', `${archs} ${e.ms} ms${hit}`)}${hit ? '' : functionsText(e.archs)}\n`
        : `${c('31', '✗')} ${name(e.unit)} ${c('31', `${errs || 1} error${errs === 1 ? '' : 's'}`)} ${c('2', `${e.ms} ms`)}\n`;
      const check = e.check === 'unconfirmed' ? `  ${c('33', '(ptxd\'s diagnostics, not yet confirmed by the real cicc)')}\n`
        : e.check === 'confirmed' ? `  ${c('2', '(confirmed by the real cicc: its diagnostics)')}\n`
        : e.check === 'false-error' ? `  ${c('33', '(the real cicc compiled it: ptxd\'s errors were false errors, a ptxd defect)')}\n` : '';
      return head + e.diagnostics.map(d => `  ${diagnosticLine(d)}\n`).join('') + check;
    }
  }
}
