// Linking libdevice into a module and refusing calls left undefined: the step both the whole-unit and the
// per-root compile run between IR generation and optimisation.

import type { CompileOptions } from './options';
import { Unsupported } from './diagnostics';
import type { Module } from './middle/ir';
import { linkLibdevice } from './middle/libdevice';
import { BitcodeError } from './middle/bitcode/reader';
import type { CompileEnv } from './result';

/** Functions the PTX may call without a definition in the unit (provided by the CUDA driver/runtime). */
const EXTERNAL_OK = new Set(['vprintf', '__assertfail', 'malloc', 'free']);

/**
 * A call to a function that is still undefined after linking libdevice (libdevice unavailable, or any
 * other undefined function) makes the unit unsupported, so it falls back visibly instead of producing
 * PTX that fails to link.
 */
export function checkExternalCalls(m: Module, opts: CompileOptions): void {
  const missing = m.funcs.filter(f => f.blocks.length === 0 && !f.name.startsWith('llvm.') && !EXTERNAL_OK.has(f.name)
    && (!opts.rdc || f.name.startsWith('__nv_'))
    && m.funcs.some(g => g.blocks.some(b => b.insts.some(i => i.op === 'call' && i.ops[0] === f))));
  if (missing.length === 0) return;
  const names = missing.map(f => f.name).sort();
  const lib = names.filter(n => n.startsWith('__nv_'));
  throw new Unsupported(lib.length > 0 ? `libdevice not available: ${lib.join(', ')}` : `call to undefined device function: ${names.join(', ')}`);
}

/** Links the libdevice functions m calls (when libdevice is given), then rejects calls left undefined. */
export function linkAndCheck(m: Module, opts: CompileOptions, env: CompileEnv): void {
  if (env.libdevice) {
    try {
      linkLibdevice(m, env.libdevice, { arch: opts.arch, ftz: opts.ftz, precDiv: opts.precDiv, precSqrt: opts.precSqrt, fastMath: opts.fastMath });
    } catch (e) {
      if (e instanceof BitcodeError) throw new Unsupported(`cannot read libdevice: ${e.message}`);
      throw e;
    }
  }
  checkExternalCalls(m, opts);
}
