// One watch compile of one unit: the preprocessing steps of its plan, then each target arch's cicc call
// through the daemon (or in-process when the daemon cannot be used), and the headers the unit included.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCiccArgs } from '../cicc/args';
import { splitRealCicc } from '../cicc/job';
import { generateModuleId } from '../cicc/module-id';
import { outputEnv } from '../service/unit-key';
import type { UnitRequest, UnitResponse } from '../service/unit';
import type { Diagnostic } from '../compiler/index';
import type { PlanStep, UnitPlan } from './plan';
import type { FunctionLists } from '../protocol/messages';
import { planCapture, removePlan, runReal } from '../cicc/fallback';

export interface ArchResult {
  arch: string;
  status: UnitResponse['status'] | 'preprocess-failed';
  cached: boolean;
  compileMs: number;
  /** Functions compiled and reused, when the daemon's compile reported them. */
  functions?: FunctionLists;
  /** Otherwise: how many functions the PTX defines. */
  functionCount?: number;
  /** ptxd found errors that the real cicc has not confirmed yet (see confirmErrors). */
  unconfirmed?: boolean;
}

export interface UnitOutcome {
  ok: boolean;
  archs: ArchResult[];
  diagnostics: Diagnostic[];
  /** Files the unit read (line markers of its .ii files), toolkit/system headers left out. */
  includes: string[];
  ms: number;
  /**
   * Set while ptxd's device diagnostics are not confirmed by the real cicc ('unconfirmed'), and after
   * confirmErrors: 'confirmed' (the real cicc's diagnostics are shown) or 'false-error' (cicc compiled the
   * unit: ptxd's errors were wrong and are dropped).
   */
  check?: 'unconfirmed' | 'confirmed' | 'false-error';
}

/** What confirmErrors needs of a unit whose device compile ptxd rejected: the cicc steps and ptxd's diagnostics. */
export interface PendingConfirm { steps: string[][]; ptxd: Diagnostic[]; cwd: string; env: NodeJS.ProcessEnv }

/** A compile's answer; `functions` when the compiler said which functions it compiled and which it reused. */
export type CompileReply = UnitResponse & { functions?: FunctionLists };
export type Compile = (req: UnitRequest) => Promise<CompileReply>;

/** Functions (kernels and device functions) defined in a PTX module; declarations end in `;` before any `{`. */
export function definedFunctions(ptx: string): number {
  return ptx.match(/^\s*(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\b[^;{]*\{/gm)?.length ?? 0;
}

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
export function requestFor(argv: string[], cwd: string, env: NodeJS.ProcessEnv, moduleId?: string): UnitRequest {
  const { realCicc, args } = splitRealCicc(argv.slice(1));
  const a = parseCiccArgs(args);
  const o = a.options;
  if (a.genModuleIdFile || a.moduleIdFile === undefined) o.moduleId = generateModuleId(o.origSrcPathName, o.origSrcFileName);
  else o.moduleId = moduleId ?? readModuleId(argv, cwd)!;
  return { input: resolve(cwd, a.input), options: o, realCicc, env: outputEnv(env) };
}

/** The module id file a cicc step reads (written by cudafe++), undefined when cicc generates the id. */
function moduleIdFile(argv: string[], cwd: string): string | undefined {
  const a = parseCiccArgs(splitRealCicc(argv.slice(1)).args);
  return a.genModuleIdFile || a.moduleIdFile === undefined ? undefined : resolve(cwd, a.moduleIdFile);
}

function readModuleId(argv: string[], cwd: string): string | undefined {
  const f = moduleIdFile(argv, cwd);
  return f === undefined ? undefined : readFileSync(f, 'utf8').trim();
}

/** A device preprocessing step (its output is one arch's .ii), as opposed to the host side's steps. */
const isDeviceStep = (argv: string[]) => argv.some(a => a.startsWith('-D__CUDA_ARCH__='));

/**
 * Runs a unit's steps. The host side (preprocessor, cudafe++: it writes the module id file) runs beside
 * each arch's device preprocessing and compile. The compile does not wait for cudafe++ when the unit's
 * module id is known from its last run (it only changes with the unit's first function): once cudafe++
 * has written it, an arch compiled with a stale id is compiled again with the new one.
 */
export async function runUnit(plan: UnitPlan, cwd: string, compile: Compile): Promise<UnitOutcome & { pending?: PendingConfirm }> {
  const t0 = performance.now();
  const includes = new Set<string>();
  const archs: ArchResult[] = [];
  const ours: Diagnostic[] = [];
  const hostDiags: Diagnostic[] = [];
  /** cicc steps whose compile ptxd rejected with errors, and those errors. */
  const rejected: string[][] = [];
  const ptxdDiags: Diagnostic[] = [];

  const host = (async () => {
    for (const s of plan.steps) {
      if (s.kind !== 'run' || isDeviceStep(s.argv)) continue;
      const r = await runStep(s.argv, cwd, plan.env);
      if (r.code !== 0) { hostDiags.push(...preprocessorDiagnostics(r.err)); return false; }
    }
    return true;
  })();

  const chains: PlanStep[][] = [];
  let pre: PlanStep[] = [];
  for (const s of plan.steps) {
    if (s.kind === 'run' && isDeviceStep(s.argv)) pre.push(s);
    else if (s.kind === 'cicc') { chains.push([...pre, s]); pre = []; }
  }

  let deviceFailed = false;
  const runChain = async (chain: PlanStep[]) => {
    const cicc = chain[chain.length - 1];
    for (const s of chain.slice(0, -1)) {
      const r = await runStep(s.argv, cwd, plan.env);
      if (r.code !== 0) { ours.push(...preprocessorDiagnostics(r.err)); deviceFailed = true; return; }
    }
    const arch = archOf(cicc.argv);
    const needsId = moduleIdFile(cicc.argv, cwd) !== undefined;
    let used = needsId ? plan.lastModuleId : undefined;
    if (needsId && used === undefined) {
      if (!await host) return;
      used = plan.lastModuleId = readModuleId(cicc.argv, cwd);
    }
    let req = requestFor(cicc.argv, cwd, plan.env, used);
    try {
      for (const f of includedFiles(readFileSync(req.input, 'latin1'), cwd)) includes.add(f);
    } catch { /* the daemon reports the unreadable input */ }
    let res = await compile(req);
    if (needsId && await host) {
      const real = readModuleId(cicc.argv, cwd);
      if (real !== used) {
        plan.lastModuleId = real;
        req = requestFor(cicc.argv, cwd, plan.env, real);
        res = await compile(req);
      }
    }
    const a: ArchResult = { arch, status: res.status, cached: res.cached, compileMs: res.compileMs };
    if (res.status === 'errors') { a.unconfirmed = true; rejected.push(cicc.argv); }
    if (res.functions) a.functions = res.functions;
    else if (res.status === 'ok') a.functionCount = definedFunctions(res.ptx ?? '');
    archs.push(a);
    // Each arch reports the same front-end diagnostics: keep one copy.
    for (const d of res.diagnostics) {
      if (!ours.some(x => x.file === d.file && x.line === d.line && x.message === d.message && x.severity === d.severity)) {
        ours.push(d);
        if (res.status === 'errors') ptxdDiags.push(d);
      }
    }
    if (res.status === 'unsupported' && res.reason) ours.push({ severity: 'error', file: '', line: 0, message: `not supported by ptxd: ${res.reason}` });
    if (res.status === 'unreadable') ours.push({ severity: 'error', file: '', line: 0, message: res.reason ?? 'unreadable input' });
  };
  await Promise.all(chains.map(runChain));
  const hostOk = await host;
  archs.sort((x, y) => x.arch.localeCompare(y.arch));
  // cudafe++ and our compiler may report the same mistake: cudafe++'s wording wins on a shared line.
  const diagnostics = [...hostDiags, ...ours.filter(d => !hostDiags.some(h => h.file === d.file && h.line === d.line))];
  const ok = hostOk && !deviceFailed && archs.length === chains.length && archs.every(a => a.status === 'ok');
  const out: UnitOutcome & { pending?: PendingConfirm } = { ok, archs, diagnostics, includes: [...includes].sort(), ms: Math.round(performance.now() - t0) };
  // ptxd's errors are shown at once, marked unconfirmed; the real cicc then decides (confirmErrors).
  if (hostOk && !deviceFailed && rejected.length > 0 && plan.env.PTXD_FALLBACK !== 'never') {
    out.check = 'unconfirmed';
    out.pending = { steps: rejected, ptxd: ptxdDiags, cwd, env: plan.env };
  }
  return out;
}

/**
 * The real cicc on each cicc step ptxd rejected (outputs into a temp directory, dropped): if it compiles
 * them all, ptxd's errors were false and the outcome is corrected (those diagnostics dropped, the archs
 * ok); else the outcome shows the real cicc's diagnostics instead of ptxd's. Undefined when the real cicc
 * cannot be run (ptxd's diagnostics stay, unconfirmed).
 */
export async function confirmErrors<T extends Omit<UnitOutcome, 'includes'>>(o: T, p: PendingConfirm): Promise<T | undefined> {
  let failed = '';
  for (const step of p.steps) {
    const { realCicc, args } = splitRealCicc(step.slice(1));
    if (!realCicc) return undefined;
    const plan = planCapture(args);
    try {
      const r = await runReal(resolve(p.cwd, realCicc), plan ? plan.argv : args, p.cwd, p.env);
      if (r.error !== undefined) return undefined;
      if (r.code !== 0) { failed = r.stderr; break; }
    } finally {
      if (plan) removePlan(plan);
    }
  }
  const others = o.diagnostics.filter(d => !p.ptxd.includes(d));
  if (failed) {
    const real = preprocessorDiagnostics(failed).filter(d => !others.some(x => x.file === d.file && x.line === d.line && x.message === d.message));
    return { ...o, diagnostics: [...others, ...real], archs: o.archs.map(a => ({ ...a, unconfirmed: undefined })), check: 'confirmed' };
  }
  const archs = o.archs.map(a => (a.unconfirmed ? { ...a, status: 'ok' as const, unconfirmed: undefined } : a));
  return { ...o, ok: archs.every(a => a.status === 'ok'), archs, diagnostics: others, check: 'false-error' };
}
