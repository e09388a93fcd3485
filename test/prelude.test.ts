// The prelude every unit starts with: an empty .cu (cuda_runtime.h and what it pulls in) and a .cu that
// includes the usual standard headers, preprocessed by the real nvcc for every target arch
// (the .cpp1.ii can differ per arch through -D__CUDA_ARCH__), must compile cleanly with our compileUnit():
// ok, no diagnostics, not unsupported.

import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileUnit } from '../compiler/compile';
import { ALL_ARCHS, KERNELS_DIR, argValue, prepareUnits, skipReason, type PreparedUnit, unitOptions } from './helpers/tools';

const INPUTS = ['prelude_empty.cu', 'prelude_std.cu'];

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`prelude units compile cleanly for every arch ${skip ?? ''}`, () => {
  for (const input of INPUTS) {
    describe(input, () => {
      // One nvcc call makes the .cpp1.ii for all archs; it is cached on disk for later runs.
      let units: Map<number, PreparedUnit> | undefined;
      const get = () => (units ??= prepareUnits(path.join(KERNELS_DIR, input), ALL_ARCHS));

      it('nvcc ran cicc once per arch', () => {
        // Texts repeat between archs whose header branches agree (only 4 distinct texts over the 12 archs
        // with CUDA 13.0), but each is the arch's own preprocessing and has its own -arch in the argv.
        const u = get();
        expect([...u.keys()]).toEqual([...ALL_ARCHS]);
        for (const [a, x] of u) expect(argValue(x.originalArgv, '-arch')).toBe(`compute_${a}`);
      });

      for (const arch of ALL_ARCHS) {
        it(`compute_${arch}`, () => {
          const u = get().get(arch)!;
          const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), unitOptions(u));
          expect(r.unsupported).toBeUndefined();
          expect(r.diagnostics).toEqual([]);
          expect(r.ok).toBe(true);
          expect(r.ptx).toContain(`.target sm_${arch}`);
        });
      }
    });
  }
});
