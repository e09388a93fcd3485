// One watch compile of one unit: the preprocessing steps of its plan, then each target arch's cicc call
// through the daemon (or in-process when the daemon cannot be used), and the headers the unit included.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCiccArgs } from '../../client/cicc-args';
import { splitRealCicc } from '../../client/cicc';
import { generateModuleId } from '../../client/module-id';
import { outputEnv } from '../store/key';
import type { UnitRequest, UnitResponse } from '../unit';
import type { Diagnostic } from '../../compiler/diagnostics';
import type { UnitPlan } from './plan';

export interface ArchResult {
  arch: string;
  status: UnitResponse['status'] | 'preprocess-failed';
  cached: boolean;
  compileMs: number;
}

export interface UnitOutcome {
  ok: boolean;
  archs: ArchResult[];
  diagnostics: Diagnostic[];
  /** Files the unit read (line markers of its .ii files), toolkit/system headers left out. */
  includes: string[];
  ms: number;
}

export type Compile = (req: UnitRequest) => Promise<UnitResponse>;

function runStep(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; err: string }> {
  return new Promise(res => {
    const p = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', d => { err += d; });
    p.on('error', e => res({ code: -1, err: `${err}cannot run ${argv[0]}: ${e.message}\n` }));
    p.on('close', code => res({ code, err }));
  });
}

/**
 * The diagnostics of a failed preprocessing step: the preprocessor's (`file:line:col: error: msg`) or
 * cudafe++'s, which is EDG like cicc (`file(line): error: msg`, then the source line and a caret).
 */
export function preprocessorDiagnostics(stderr: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const lines = stderr.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const gcc = /^(.+?):(\d+):(?:(\d+):)?\s*(fatal error|error|warning):\s*(.*)$/.exec(l);
    if (gcc) {
      out.push({ severity: gcc[4] === 'warning' ? 'warning' : 'error', file: gcc[1], line: Number(gcc[2]), col: gcc[3] ? Number(gcc[3]) : undefined, message: gcc[5] });
      continue;
    }
    const edg = /^(.+)\((\d+)\): (catastrophic error|error|warning|remark)(?: #\d+(?:-D)?)?: (.*)$/.exec(l);
    if (edg) {
      const d: Diagnostic = { severity: edg[3] === 'catastrophic error' ? 'catastrophic' : edg[3] as Diagnostic['severity'], file: edg[1], line: Number(edg[2]), message: edg[4] };
      const caret = lines[i + 2] !== undefined ? /^ {2}( *)\^$/.exec(lines[i + 2]) : null;
      if (lines[i + 1]?.startsWith('  ') && caret) { d.sourceLine = lines[i + 1].slice(2); d.col = caret[1].length + 1; i += 2; }
      out.push(d);
    }
  }
  if (out.length === 0) out.push({ severity: 'error', file: '', line: 0, message: stderr.trim() || 'preprocessing failed' });
  return out;
}

/** Files named by the line markers (`# N "file"`) of a preprocessed unit, outside /usr. */
export function includedFiles(ii: string, cwd: string): string[] {
  const files = new Set<string>();
  const re = /^# \d+ "((?:[^"\\]|\\.)*)"/gm;
  for (let m = re.exec(ii); m; m = re.exec(ii)) {
    const f = m[1].replace(/\\(.)/g, '$1');
    if (f.startsWith('<') || f === '') continue;
    const abs = resolve(cwd, f);
    if (abs.startsWith('/usr/')) continue;
    files.add(abs);
  }
  return [...files].sort();
}

const archOf = (argv: string[]) => { const i = argv.indexOf('-arch'); return i >= 0 ? argv[i + 1] ?? '?' : '?'; };

/** The daemon request of one cicc step, as ptxd-cicc would send it for the same call. */
export function requestFor(argv: string[], cwd: string, env: NodeJS.ProcessEnv): UnitRequest {
  const { realCicc, args } = splitRealCicc(argv.slice(1));
  const a = parseCiccArgs(args);
  const o = a.options;
  if (a.genModuleIdFile || a.moduleIdFile === undefined) o.moduleId = generateModuleId(o.origSrcPathName, o.origSrcFileName);
  else o.moduleId = readFileSync(resolve(cwd, a.moduleIdFile), 'utf8').trim();
  return { input: resolve(cwd, a.input), options: o, realCicc, env: outputEnv(env) };
}

export async function runUnit(plan: UnitPlan, cwd: string, compile: Compile): Promise<UnitOutcome> {
  const t0 = performance.now();
  const includes = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const archs: ArchResult[] = [];
  const pending: Promise<void>[] = [];
  let failed = false;
  for (const step of plan.steps) {
    if (step.kind === 'run') {
      const r = await runStep(step.argv, cwd, plan.env);
      if (r.code !== 0) {
        diagnostics.push(...preprocessorDiagnostics(r.err));
        failed = true;
        break;
      }
      continue;
    }
    const arch = archOf(step.argv);
    const req = requestFor(step.argv, cwd, plan.env);
    try {
      for (const f of includedFiles(readFileSync(req.input, 'latin1'), cwd)) includes.add(f);
    } catch { /* the daemon reports the unreadable input */ }
    // The next arch is preprocessed while the daemon compiles this one.
    pending.push(compile(req).then(res => {
      archs.push({ arch, status: res.status, cached: res.cached, compileMs: res.compileMs });
      // Each arch reports the same front-end diagnostics: keep one copy.
      for (const d of res.diagnostics) {
        if (!diagnostics.some(x => x.file === d.file && x.line === d.line && x.message === d.message && x.severity === d.severity)) diagnostics.push(d);
      }
      if (res.status === 'unsupported' && res.reason) diagnostics.push({ severity: 'error', file: '', line: 0, message: `not supported by ptxd: ${res.reason}` });
      if (res.status === 'unreadable') diagnostics.push({ severity: 'error', file: '', line: 0, message: res.reason ?? 'unreadable input' });
    }));
  }
  await Promise.all(pending);
  archs.sort((x, y) => x.arch.localeCompare(y.arch));
  const ok = !failed && archs.length > 0 && archs.every(a => a.status === 'ok');
  return { ok, archs, diagnostics, includes: [...includes].sort(), ms: Math.round(performance.now() - t0) };
}
