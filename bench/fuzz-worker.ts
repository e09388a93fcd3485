// The ptxd side of the differential fuzzer (bench/fuzz.ts), in a child process of its own so that the parent
// can time a compile out (a hang) and see a crash. It compiles each mutant in-process, decoded as the daemon
// decodes a unit (UTF-8), with a prelude cache per base unit (it never changes outputs), and answers what the
// client would do with the result. Like service/unit.ts, it first checks the system-header regions against the
// headers on disk (PTXD_FUZZ_NO_HEADER_CHECK=1 leaves that out, for before/after figures).

import * as fs from 'node:fs';
import { compileUnit } from '../compiler/compile';
import { PreludeCache } from '../compiler/frontend/prelude';
import type { CompileOptions } from '../compiler/options';
import { HeaderCheck } from '../service/header-check';

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
  // what service/unit.ts does before every compile (a warm daemon's memo: the worker lives for the whole run)
  const headers = process.env.PTXD_FUZZ_NO_HEADER_CHECK ? undefined : new HeaderCheck();
  process.on('message', (job: FuzzJob) => {
    let prelude = preludes.get(job.base);
    if (!prelude) preludes.set(job.base, prelude = new PreludeCache());
    const t = performance.now();
    const bytes = fs.readFileSync(job.file);
    const differ = headers?.check(bytes);
    const r = differ !== undefined
      ? { ok: false, diagnostics: [], unsupported: differ }
      : compileUnit(bytes.toString('utf8'), job.options, { libdevice, prelude });
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
