// A CUDA source captured by the real nvcc for sm_90 and compiled by ptxd in process: the tests that compare the
// shape of ptxd's PTX with the real cicc's (addressing, ld.global.nc, unrolling, object copies) take both from here.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileUnit, type CompileResult } from '../../compiler/compile';
import { libdeviceBytes, prepareUnit, unitOptions } from './tools';

/** ptxd's result for `src` (written as `<name>.cu` in a scratch folder of its own) and the real cicc's PTX of the same unit. */
export function compileWithReference(name: string, src: string): { r: CompileResult; refPtx: string } {
  const dir = path.join(os.tmpdir(), `ptxd-${name}-${process.getuid?.() ?? 'u'}`);
  fs.mkdirSync(dir, { recursive: true });
  const cu = path.join(dir, `${name}.cu`);
  if (!fs.existsSync(cu) || fs.readFileSync(cu, 'utf8') !== src) fs.writeFileSync(cu, src);
  const u = prepareUnit(cu, 90);
  const r = compileUnit(fs.readFileSync(u.ii, 'latin1'), unitOptions(u), { libdevice: libdeviceBytes() });
  return { r, refPtx: u.refPtx };
}
