// The ptxd side of the differential fuzzer (bench/fuzz.ts), in a child process of its own so that the parent
// can time a compile out (a hang) and see a crash. It compiles each mutant in-process, decoded as the daemon
// decodes a unit (UTF-8), with a prelude cache per base unit (it never changes outputs), and answers what the
// client would do with the result.

import * as fs from 'node:fs';
import { compileUnit } from '../compiler/compile';
import { PreludeCache } from '../compiler/frontend/prelude';
import type { CompileOptions } from '../compiler/options';

export interface FuzzJob { id: number; file: string; options: CompileOptions; base: string }
export interface FuzzReply {
  id: number;
  /** ok: PTX written (exit 0); errors: diagnosed (exit 1); unsupported: falls back to the real cicc (or exit 1 with PTXD_FALLBACK=never). */
  outcome: 'ok' | 'errors' | 'unsupported';
  reason?: string;
  firstError?: string;
  ms: number;
}

function main(): void {
  const lib = process.env.PTXD_FUZZ_LIBDEVICE;
  const libdevice = lib && fs.existsSync(lib) ? new Uint8Array(fs.readFileSync(lib)) : undefined;
  const preludes = new Map<string, PreludeCache>();
  process.on('message', (job: FuzzJob) => {
    let prelude = preludes.get(job.base);
    if (!prelude) preludes.set(job.base, prelude = new PreludeCache());
    const t = performance.now();
    const src = fs.readFileSync(job.file).toString('utf8');
    const r = compileUnit(src, job.options, { libdevice, prelude });
    const first = r.diagnostics.find(d => d.severity === 'error' || d.severity === 'catastrophic');
    const reply: FuzzReply = {
      id: job.id,
      outcome: r.ok ? 'ok' : r.unsupported !== undefined ? 'unsupported' : 'errors',
      reason: r.unsupported,
      firstError: first ? `${first.file}(${first.line}): ${first.message}` : undefined,
      ms: performance.now() - t,
    };
    process.send!(reply);
  });
}

if (require.main === module) main();
