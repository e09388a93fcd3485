// The files of one run of a spec, written the same way by the emulator (gpu-bundle.ts) and by the GPU
// runner (scripts/gpu-runner.cpp + gpu-run.sh), so the comparer reads both with one function:
//   status.txt   "ok <how>", "trap <launch|emulator> <what>", or "error <message>" (the run itself failed)
//   b<i>.bin     buffer i after the launches (spec order); s<i>.bin: symbol i
//   printf.txt   device printf output

import * as fs from 'node:fs';
import * as path from 'node:path';
import { bufferBytes, type RunOutput } from './harness';
import type { KernelSpec } from './spec';

export const VERSIONS = ['ptxd', 'cicc'] as const;
export type Version = typeof VERSIONS[number];

export function writeRun(dir: string, spec: KernelSpec, r: RunOutput | { error: string }, how: string): void {
  fs.mkdirSync(dir, { recursive: true });
  if ('error' in r) {
    fs.writeFileSync(path.join(dir, 'status.txt'), `error ${r.error.replace(/\s+/g, ' ')}\n`);
    return;
  }
  Object.keys(spec.buffers).forEach((n, i) => fs.writeFileSync(path.join(dir, `b${i}.bin`), r.buffers.get(n)!));
  Object.keys(spec.symbols ?? {}).forEach((n, i) => fs.writeFileSync(path.join(dir, `s${i}.bin`), r.buffers.get(`symbol ${n}`)!));
  fs.writeFileSync(path.join(dir, 'printf.txt'), r.printf);
  fs.writeFileSync(path.join(dir, 'status.txt'), r.trap === null ? `ok ${how}\n` : `trap ${how} ${r.trap.replace(/\s+/g, ' ')}\n`);
}

export interface ReadRun {
  /** The first line of status.txt ('missing' when the run left none). */
  status: string;
  /**
   * The outputs, normalised for a comparison across machines: a trap is just 'trap' (the GPU and the
   * emulator word it differently), printf lines are sorted (blocks run in another order on a GPU).
   * Undefined when the run failed or left no status.
   */
  run?: RunOutput;
}

const readOr = (f: string, d: string) => { try { return fs.readFileSync(f, 'utf8'); } catch { return d; } };

export function readRun(dir: string, spec: KernelSpec): ReadRun {
  const status = readOr(path.join(dir, 'status.txt'), 'missing').split('\n')[0]!.trim() || 'missing';
  if (!status.startsWith('ok') && !status.startsWith('trap')) return { status };
  const trapped = status.startsWith('trap');
  const buffers = new Map<string, Uint8Array>();
  // A trapped GPU context reads nothing back: a trapped run is compared by its trap alone.
  if (!trapped) {
    const load = (f: string, size: number) => {
      // A missing or short file must differ from any real output, never pass as equal.
      try {
        const b = new Uint8Array(fs.readFileSync(path.join(dir, f)));
        if (b.length === Math.max(size, 1)) return b;
      } catch { /* below */ }
      return new Uint8Array(Math.max(size, 1)).fill(0xee);
    };
    Object.entries(spec.buffers).forEach(([n, b], i) => buffers.set(n, load(`b${i}.bin`, bufferBytes(b).length)));
    Object.entries(spec.symbols ?? {}).forEach(([n, b], i) => buffers.set(`symbol ${n}`, load(`s${i}.bin`, bufferBytes(b).length)));
  }
  const printf = readOr(path.join(dir, 'printf.txt'), '').split('\n').filter(l => l !== '').sort().join('\n');
  return { status, run: { buffers, printf, trap: trapped ? 'trap' : null, steps: 0, launches: [], abi: [] } };
}
