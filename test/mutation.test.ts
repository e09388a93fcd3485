// The differential harness catches real miscompiles: each deliberate backend bug (CompileOptions.testMutation,
// compiler/backend/mutations.ts) is switched on for a kernel where it matters, and the harness must report a
// difference from the real cicc's PTX. The same kernel without the mutation must agree (the baseline), so a
// reported difference is the mutation's doing.

import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { SPECS } from './diff/specs';
import { compileWithPtxd, differential } from './diff/harness';
import { TEST_MUTATIONS } from '../compiler/backend/mutations';

const CASES: { mutation: string; kernel: string; why: string }[] = [
  { mutation: 'cmp-lt-le', kernel: 'control_flow', why: 'loop bounds and comparisons decide every output' },
  { mutation: 'addr-off-by-one', kernel: 'kernel_params', why: 'dst[1], dst[2] and pbig->v[19] are addressed at constant offsets' },
  { mutation: 'drop-barrier', kernel: 'reduce_shared', why: 'a shared-memory tree reduction reads other warps\' partial sums' },
  { mutation: 'round-rz', kernel: 'saxpy', why: 'a*x+y on inexact values rounds differently toward zero' },
];

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`deliberate backend bugs are reported by the differential harness ${skip ?? ''}`, () => {
  it('every mutation has a case', () => {
    expect(CASES.map(c => c.mutation).sort()).toEqual([...TEST_MUTATIONS].sort());
  });

  for (const c of CASES) {
    it(`${c.mutation} on ${c.kernel} (${c.why})`, () => {
      const spec = SPECS.find(s => s.name === c.kernel)!;
      const clean = compileWithPtxd(c.kernel);
      const bad = compileWithPtxd(c.kernel, c.mutation);
      expect(bad.ok).toBe(true);
      expect(bad.ptx).not.toBe(clean.ptx); // the switch changed the code
      expect(differential(spec).mismatches).toEqual([]);
      const d = differential(spec, c.mutation);
      expect(d.mismatches.length).toBeGreaterThan(0);
    });
  }
});
