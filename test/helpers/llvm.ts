// LLVM 14's tools as oracles for the middle-end tests: llvm-as and opt's verifier accept a module; lli runs one.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTool, hasTool } from './tools';

export const HAVE_LLVM = hasTool('llvm-as') && hasTool('opt');
export const HAVE_LLI = hasTool('lli');
const dir = mkdtempSync(join(tmpdir(), 'ptxd-middle-'));
let seq = 0;

function writeTmp(text: string): string {
  const p = join(dir, `m${seq++}.ll`);
  writeFileSync(p, text);
  return p;
}

const numbered = (text: string): string => text.split('\n').map((l, k) => `${String(k + 1).padStart(4)} ${l}`).join('\n');

/** Throws with the tool's message and the numbered text when llvm-as or opt's verifier rejects it. */
export function llvmAccepts(text: string): void {
  if (!HAVE_LLVM) return;
  const p = writeTmp(text);
  const as = spawnSync(findTool('llvm-as')!, ['-opaque-pointers', '-o', '/dev/null', p], { encoding: 'utf8' });
  if (as.status !== 0) throw new Error(`llvm-as rejected:\n${as.stderr}\n${numbered(text)}`);
  const opt = spawnSync(findTool('opt')!, ['-opaque-pointers', '-passes=verify', '-disable-output', p], { encoding: 'utf8' });
  if (opt.status !== 0) throw new Error(`opt -passes=verify rejected:\n${opt.stderr}\n${numbered(text)}`);
}

/** Runs a host module with lli; returns stdout and the exit status. */
export function lli(text: string): { out: string; status: number | null; err: string } {
  const p = writeTmp(text);
  const r = spawnSync(findTool('lli')!, ['-opaque-pointers', p], { encoding: 'utf8' });
  return { out: r.stdout, status: r.status, err: r.stderr };
}
