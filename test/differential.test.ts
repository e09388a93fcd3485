// Differential correctness without a GPU: every program in test/kernels/ is compiled by ptxd (in process,
// from the .cpp1.ii nvcc really produced, PTXD_FALLBACK=never semantics: an unsupported unit fails) and by
// the real cicc; both PTX modules run in the PTX emulator (test/emulator/) on the same inputs, and every
// output buffer, symbol, vprintf line and trap must agree (test/diff/specs.ts says what each program runs).
// Known gaps (ptxd cannot compile the program yet) and known miscompiles are listed in the specs with
// their reason, and the test asserts that they still fail, so the lists shrink when the feature lands.

import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import { KERNELS_DIR, skipReason } from './helpers/tools';
import { SPECS } from './diff/specs';
import { changedOutputs, compileWithPtxd, differential } from './diff/harness';

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`differential: ptxd vs the real cicc in the PTX emulator ${skip ?? ''}`, () => {
  it('every program in test/kernels has exactly one spec', () => {
    const programs = fs.readdirSync(KERNELS_DIR).filter(f => f.endsWith('.cu')).map(f => f.slice(0, -3)).sort();
    const specified = SPECS.map(s => s.name).sort();
    expect(specified).toEqual(programs);
  });

  for (const spec of SPECS) {
    it(spec.name, () => {
      if (spec.gap) {
        const r = compileWithPtxd(spec.name);
        // Still a gap: ptxd refuses the unit. When this fails, the feature landed: move the spec out of the gap list.
        expect(r.ok && r.unsupported === undefined, `ptxd now compiles ${spec.name}; remove its gap entry`).toBe(false);
        return;
      }
      if (spec.compileOnly) {
        const r = compileWithPtxd(spec.name);
        expect(r.unsupported).toBeUndefined();
        expect(r.diagnostics).toEqual([]);
        expect(r.ok).toBe(true);
        return;
      }
      const d = differential(spec);
      if (spec.miscompile) {
        expect(d.mismatches.length, `${spec.name} now agrees with cicc; remove its miscompile entry`).toBeGreaterThan(0);
        return;
      }
      expect(d.mismatches).toEqual([]);
      // The reference run must do what the program's host main() expects: trap only where it should, and
      // change some output (a spec whose kernels never ran would agree vacuously).
      expect(d.ref!.trap !== null, d.ref!.trap ?? 'no trap').toBe(spec.expectTrap === true);
      if (!spec.expectTrap) expect(changedOutputs(spec, d.ref!).length + d.ref!.printf.length).toBeGreaterThan(0);
    });
  }
});
