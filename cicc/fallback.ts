// Running the real cicc for a unit ptxd cannot compile (or rejected with errors cicc may not confirm),
// with its outputs captured so they can be cached like any result and written atomically.
//
// The call's output paths (-o, --gen_c_file_name, --stub_file_name, --gen_device_file_name, a generated
// module id file) are redirected into a private temp directory; cicc's stderr and exit code are kept.
// On success the files are read back, the temp directory's name in them (the stub names itself) and
// the fatbin include name are replaced by placeholders, and that is the cached value: a rebuild under
// nvcc, whose temp names differ on every run, puts its own names back and hits.
// A call whose outputs cannot be captured faithfully (no -o, a time trace, LTO or OptiX IR output) runs
// with its own argv and is never cached.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { VALUED } from './args';
import type { OutputFile } from './outputs';
import { FALLBACK_FORMAT, type RealOutputs } from '../protocol/unit';

export { fallbackKey } from '../protocol/unit';

/** Output options of cicc: role in the cached value, and how cicc names the file in its messages. */
const OUTPUT_OPTIONS: Record<string, { role: string; what: string }> = {
  '-o': { role: 'out', what: 'output file' },
  '--gen_c_file_name': { role: 'genc', what: 'generated C file' },
  '--stub_file_name': { role: 'stub', what: 'generated C file' },
  '--gen_device_file_name': { role: 'gpu', what: 'generated device file' },
};
/** Outputs nothing reproducible can be cached for (timings) or that are binary (LTO, OptiX IR). */
const UNCAPTURED = new Set(['--device-time-trace', '-olto', '-lto', '--emit-optix-ir']);

const mark = (role: string) => `\u0001ptxd-real-${role}\u0001`;
const INCLUDE_MARK = mark('include');
/** Names substituted verbatim (no quoting in the outputs could differ between a placeholder and the name). */
const PLAIN_NAME = /^[A-Za-z0-9_./+@~-]+$/;

interface OptionAt { flag: string; value: string; index: number; joined: boolean }

/** cicc's options with their values, in argv order (the grammar of cicc/args.ts). */
function options(argv: readonly string[]): { opts: OptionAt[]; inputs: number[] } {
  const opts: OptionAt[] = [];
  const inputs: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') { inputs.push(i); continue; }
    const eq = a.indexOf('=');
    if (eq > 0 && VALUED.has(a.slice(0, eq))) { opts.push({ flag: a.slice(0, eq), value: a.slice(eq + 1), index: i, joined: true }); continue; }
    if (VALUED.has(a) && i + 1 < argv.length) { opts.push({ flag: a, value: argv[i + 1]!, index: i, joined: false }); i++; continue; }
    opts.push({ flag: a, value: '', index: i, joined: false });
  }
  return { opts, inputs };
}

export interface CapturePlan {
  /** The argv cicc runs with (outputs in `dir`). */
  argv: string[];
  dir: string;
  /** Each output: its role, its path in `dir`, the path the call asked for (as given) and cicc's name for it. */
  outputs: { role: string; temp: string; given: string; what: string }[];
  /** The fatbin include name the stub names (replaced by a placeholder in the cached stub). */
  include?: string;
}

/** What of a cicc call is part of a fallback key besides the ptxd key: argv with per-call names as placeholders. */
export interface FallbackIdentity {
  /** Hash of the real cicc's identity, the normalised argv, the cwd and a read module id; undefined: not cacheable. */
  argvKey?: string;
  /**
   * The same with the checkout's base directory marked in argv and cwd and the module id reduced to its
   * length (service/relocate.ts moves such results); undefined when the call names the base directory
   * other than at the start of a word (or there is none).
   */
  freeKey?: string;
}

/** The real cicc's identity: path, size and modification time of its binary (cheap; the binary is 60 MB). */
export function ciccIdentity(real: string): string | undefined {
  try {
    const p = realpathSync(real);
    const s = statSync(p);
    return `${p}\0${s.size}\0${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** Whether a call's outputs can be captured (and so cached). */
function capturable(argv: readonly string[]): boolean {
  const { opts, inputs } = options(argv);
  if (inputs.length !== 1 || !opts.some(o => o.flag === '-o')) return false;
  return !opts.some(o => UNCAPTURED.has(o.flag));
}

/**
 * The part of the fallback key that the ptxd key does not cover: the real cicc, the argv with the
 * per-call names (outputs, input, fatbin include, module id file) as placeholders, the cwd (cicc resolves
 * relative names against it for line info), and the module id it reads.
 */
export function fallbackIdentity(real: string, argv: readonly string[], cwd: string, baseDir = ''): FallbackIdentity {
  const id = ciccIdentity(real);
  if (!id || !capturable(argv)) return {};
  const { opts, inputs } = options(argv);
  const words = [...argv];
  const genModuleId = opts.some(o => o.flag === '--gen_module_id_file');
  let moduleId = '';
  for (const o of opts) {
    let role: string | undefined = OUTPUT_OPTIONS[o.flag]?.role;
    if (o.flag === '--include_file_name' && PLAIN_NAME.test(o.value)) role = 'include';
    if (o.flag === '--module_id_file_name') {
      role = 'modid';
      if (!genModuleId) {
        try { moduleId = readFileSync(resolve(cwd, o.value), 'latin1'); } catch { return {}; }
      }
    }
    if (role === undefined) continue;
    if (o.joined) words[o.index] = `${o.flag}=<${role}>`;
    else words[o.index + 1] = `<${role}>`;
  }
  for (const i of inputs) words[i] = '<input>';
  const h = createHash('sha256');
  h.update(JSON.stringify([FALLBACK_FORMAT, id, words, cwd, moduleId]));
  // A module id cicc generates itself is not the client's (the one a move would swap): such calls keep the path.
  const freeKey = genModuleId ? undefined : placeFree(id, words, cwd, moduleId, baseDir.replace(/\/+$/, ''));
  return { argvKey: h.digest('hex'), ...(freeKey ? { freeKey } : {}) };
}

const BASE_MARK = '\u0001ptxd-real-base-dir\u0001';

/** The argv key with the base directory marked at the start of words (or after a joined flag's '='). */
function placeFree(id: string, words: readonly string[], cwd: string, moduleId: string, base: string): string | undefined {
  if (!base.startsWith('/')) return undefined;
  const free = (w: string): string => {
    const at = w.startsWith('-') ? w.indexOf('=') + 1 : 0;
    const v = w.slice(at);
    return v === base || v.startsWith(`${base}/`) ? w.slice(0, at) + BASE_MARK + v.slice(base.length) : w;
  };
  const fw = words.map(free);
  const fc = free(cwd);
  if (fw.some(w => w.includes(base)) || fc.includes(base)) return undefined;
  const h = createHash('sha256');
  h.update(JSON.stringify([FALLBACK_FORMAT, 'place-free', id, fw, fc, `length:${moduleId.trim().length}`]));
  return h.digest('hex');
}

/** Redirects the call's outputs into a new private temp directory; undefined when they cannot be captured. */
export function planCapture(argv: readonly string[]): CapturePlan | undefined {
  if (!capturable(argv)) return undefined;
  const { opts } = options(argv);
  const dir = mkdtempSync(join(tmpdir(), 'ptxd-real-'));
  const out = [...argv];
  const outputs: CapturePlan['outputs'] = [];
  const genModuleId = opts.some(o => o.flag === '--gen_module_id_file');
  let include: string | undefined;
  for (const o of opts) {
    if (o.flag === '--include_file_name' && PLAIN_NAME.test(o.value)) include = o.value;
    const spec = OUTPUT_OPTIONS[o.flag] ?? (o.flag === '--module_id_file_name' && genModuleId ? { role: 'modid', what: 'module id file' } : undefined);
    if (!spec) continue;
    // The file keeps its name (cicc might look at the extension); the role keeps names apart.
    const temp = join(dir, `${spec.role}-${basename(o.value) || 'out'}`);
    outputs.push({ role: spec.role, temp, given: o.value, what: spec.what });
    if (o.joined) out[o.index] = `${o.flag}=${temp}`;
    else out[o.index + 1] = temp;
  }
  return { argv: out, dir, outputs, ...(include !== undefined ? { include } : {}) };
}

export interface RealRun { code: number; stderr: string; error?: string }

export interface RealRun { code: number; stderr: string; error?: string }

/** A text with the capture's temp names replaced by placeholders (unique names: nothing else is touched). */
function neutral(text: string, plan: CapturePlan): string {
  for (const p of plan.outputs) text = text.split(p.temp).join(mark(p.role));
  return text;
}

/** cicc's stderr made call-independent (a warning may name an output). */
export function neutralStderr(stderr: string, plan: CapturePlan): string {
  return neutral(stderr, plan);
}

/** The outputs cicc wrote, read back and made call-independent; undefined when it wrote no PTX. */
export function collectOutputs(plan: CapturePlan): RealOutputs['files'] | undefined {
  const files: Record<string, string> = {};
  for (const o of plan.outputs) {
    let text: string;
    try { text = readFileSync(o.temp, 'latin1'); } catch { continue; }   // not written: not written by stock either
    text = neutral(text, plan);
    if (o.role === 'stub' && plan.include !== undefined) text = text.split(plan.include).join(INCLUDE_MARK);
    files[o.role] = text;
  }
  return files.out === undefined ? undefined : files;
}

/**
 * The files to write for a cached or fresh result of the real cicc (absolute paths, and the names as the
 * call gave them for messages), and its stderr, with this call's names put back; undefined when the
 * value has no PTX (never used then).
 */
export function placeOutputs(files: RealOutputs['files'], argv: readonly string[], cwd: string, stderr: string):
{ files: OutputFile[]; given: string[]; stderr: string } | undefined {
  if (files.out === undefined) return undefined;
  const { opts } = options(argv);
  const genModuleId = opts.some(o => o.flag === '--gen_module_id_file');
  const names: Record<string, string> = {};
  let include = '';
  const wanted: { role: string; given: string; what: string }[] = [];
  for (const o of opts) {
    if (o.flag === '--include_file_name') include = o.value;
    const spec = OUTPUT_OPTIONS[o.flag] ?? (o.flag === '--module_id_file_name' && genModuleId ? { role: 'modid', what: 'module id file' } : undefined);
    if (!spec) continue;
    names[spec.role] = o.value;
    wanted.push({ role: spec.role, given: o.value, what: spec.what });
  }
  const put = (t: string): string => {
    for (const [role, name] of Object.entries(names)) t = t.split(mark(role)).join(name);
    return t.split(INCLUDE_MARK).join(include);
  };
  const out: OutputFile[] = [];
  const given: string[] = [];
  for (const w of wanted) {
    const text = files[w.role];
    if (text !== undefined) { out.push({ path: resolve(cwd, w.given), data: Buffer.from(put(text), 'latin1'), what: w.what }); given.push(w.given); }
  }
  return { files: out, given, stderr: put(stderr) };
}

export function removePlan(plan: CapturePlan): void {
  try { rmSync(plan.dir, { recursive: true, force: true }); } catch { /* best effort */ }
}

/** The real cicc with this argv, its stderr captured (stdout too: cicc writes nothing there). Never rejects. */
export function runReal(real: string, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RealRun> {
  return new Promise(resolveRun => {
    let settled = false;
    const done = (r: RealRun): void => { if (!settled) { settled = true; resolveRun(r); } };
    const chunks: Buffer[] = [];
    let child;
    try {
      child = spawn(real, [...argv], { cwd, env: { ...env, PTXD_IN_FALLBACK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      done({ code: 1, stderr: '', error: (e as Error).message });
      return;
    }
    child.stdout!.on('data', (c: Buffer) => chunks.push(c));
    child.stderr!.on('data', (c: Buffer) => chunks.push(c));
    let failed: string | undefined;
    child.on('error', e => { failed = e.message; done({ code: 1, stderr: Buffer.concat(chunks).toString('utf8'), error: e.message }); });
    // A cicc killed by a signal: the shell's convention, as nvcc would see from a child it ran itself.
    child.on('close', (code, signal) => done({
      code: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1), stderr: Buffer.concat(chunks).toString('utf8'), ...(failed ? { error: failed } : {}),
    }));
  });
}
