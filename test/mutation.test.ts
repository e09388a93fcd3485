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
  // rounding modes and approximations (the emulator rounds each mode exactly and models .approx within its bound)
  { mutation: 'div-approx', kernel: 'math_float', why: 'div.approx.f32 is off by up to 2 ulps where div.rn.f32 is exact' },
  { mutation: 'div-rz', kernel: 'math_float', why: 'inexact quotients round down in magnitude' },
  { mutation: 'rcp-approx', kernel: 'math_flags', why: '1/0.75 by rcp.approx.f32 need not be the nearest f32' },
  { mutation: 'sqrt-approx', kernel: 'math_flags', why: 'sqrt(0.75) by sqrt.approx.f32 need not be the nearest f32' },
  { mutation: 'cvt-rz', kernel: 'conversions', why: 'int and double to float conversions of inexact values truncate' },
  { mutation: 'f64-rz', kernel: 'double_ops', why: 'f64 sums and products of inexact values round toward zero' },
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
