// `ptxd toolkit --out DIR`: a shadow CUDA toolkit whose nvcc runs ptxd as its cicc, for tools that can
// only be pointed at an nvcc (CMAKE_CUDA_COMPILER, CUDACXX, IDEs). Recipe B of
// research/cicc-cli-contract.md §7.3: every file of <cuda>/bin is linked except nvcc.profile, which is
// copied with two lines changed (TOP → the real toolkit, CICC_PATH → our nvvm/bin); targets/ is linked
// so include and library paths are exactly those of a normal build; nvvm/bin/cicc is a small script
// that runs ptxd-cicc with the real cicc as its first argument (as --cicc-prefix would).

import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface ToolkitOptions {
  /** The directory to write (created; files of an earlier shadow toolkit are replaced). */
  out: string;
  /** The real toolkit (has bin/nvcc and nvvm/bin/cicc). */
  cudaHome: string;
  /** bin/ptxd-cicc of this ptxd. */
  ptxdCicc: string;
  /** The node binary that runs ptxd-cicc. */
  node: string;
}

function link(target: string, path: string): void {
  try { if (lstatSync(path)) rmSync(path, { recursive: true, force: true }); } catch { /* absent */ }
  symlinkSync(target, path);
}

function writeAtomically(path: string, data: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Rewrites nvcc.profile: TOP points at the real toolkit, CICC_PATH at the shadow nvvm/bin. */
export function shadowProfile(profile: string, cudaHome: string): string {
  let top = false, cicc = false;
  const lines = profile.split('\n').map(l => {
    if (/^\s*TOP\s*=/.test(l)) { top = true; return `TOP              = ${cudaHome}`; }
    if (/^\s*CICC_PATH\s*=/.test(l)) { cicc = true; return 'CICC_PATH        = $(_HERE_)/../nvvm/bin'; }
    return l;
  });
  if (!top || !cicc) throw new Error('nvcc.profile has no TOP or CICC_PATH line; cannot make a shadow toolkit');
  return lines.join('\n');
}

export function writeShadowToolkit(o: ToolkitOptions): void {
  const cuda = resolve(o.cudaHome);
  const realCicc = join(cuda, 'nvvm', 'bin', 'cicc');
  if (!existsSync(join(cuda, 'bin', 'nvcc')) || !existsSync(realCicc)) {
    throw new Error(`${cuda} is not a CUDA toolkit (no bin/nvcc or nvvm/bin/cicc)`);
  }
  const out = resolve(o.out);
  mkdirSync(join(out, 'bin'), { recursive: true });
  mkdirSync(join(out, 'nvvm', 'bin'), { recursive: true });
  // nvcc, crt/ (nvcc reads crt/link.stub from its own directory), ptxas, cudafe++, fatbinary, nvlink, …
  for (const f of readdirSync(join(cuda, 'bin'))) {
    if (f !== 'nvcc.profile') link(join(cuda, 'bin', f), join(out, 'bin', f));
  }
  writeAtomically(join(out, 'bin', 'nvcc.profile'), shadowProfile(readFileSync(join(cuda, 'bin', 'nvcc.profile'), 'utf8'), cuda), 0o644);
  if (existsSync(join(cuda, 'targets'))) link(join(cuda, 'targets'), join(out, 'targets'));
  for (const f of readdirSync(join(cuda, 'nvvm'))) {
    if (f !== 'bin') link(join(cuda, 'nvvm', f), join(out, 'nvvm', f));
  }
  for (const f of readdirSync(join(cuda, 'nvvm', 'bin'))) {
    if (f !== 'cicc') link(join(cuda, 'nvvm', 'bin', f), join(out, 'nvvm', 'bin', f));
  }
  // The native client when it is built (it starts in a millisecond), else the Node client on this node
  // (tools that run nvcc may not have node on PATH).
  const native = join(resolve(o.ptxdCicc), '..', '..', 'dist', 'native', 'ptxd-cicc');
  const script = '#!/bin/sh\n' +
    '# ptxd shadow toolkit (written by `ptxd toolkit`): nvcc runs this as its cicc.\n' +
    `[ "\${PTXD_NATIVE:-1}" != 0 ] && [ -x ${shellQuote(native)} ] && exec ${shellQuote(native)} ${shellQuote(realCicc)} "$@"\n` +
    `exec ${shellQuote(o.node)} ${shellQuote(resolve(o.ptxdCicc))} ${shellQuote(realCicc)} "$@"\n`;
  writeAtomically(join(out, 'nvvm', 'bin', 'cicc'), script, 0o755);
}
