// Compares the GPU's outputs of both PTX versions with each other and with the emulator's (from the
// bundle), with each spec's tolerances (harness.ts compareRuns), and prints a table and the agreement.
//
//   node dist/test/diff/gpu-compare.js BUNDLE GPU_OUT [--json]
//
// GPU_OUT/<spec>/<version>/ holds what scripts/gpu-run.sh wrote (gpu-files.ts layout). Exit 0 when every
// spec agrees (a known miscompile may differ between ptxd and cicc, nowhere else), 1 otherwise, 2 on bad usage.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRuns } from './harness';
import { SPECS } from './specs';
import type { KernelSpec } from './spec';
import { readRun, VERSIONS, type ReadRun, type Version } from './gpu-files';

export interface SpecVerdict {
  spec: string;
  /** Differences GPU vs emulator for each version, and ptxd vs cicc on the GPU; [] when they agree. */
  gpuVsEmu: Record<Version, string[]>;
  ptxdVsCicc: string[];
  /** How each GPU run ended (status.txt's first line). */
  status: Record<Version, string>;
  /** All agree (a known miscompile's expected ptxd/cicc difference aside). */
  agree: boolean;
  note?: string;
}

export interface CompareReport {
  verdicts: SpecVerdict[];
  agree: number;
  total: number;
}

/** Differences between two normalised runs (gpu-files.ts readRun); `a`/`b` name the two sides. */
function diffRuns(spec: KernelSpec, x: ReadRun, y: ReadRun, a: string, b: string): string[] {
  if (!x.run || !y.run) return [`no result: ${a} ${x.status}; ${b} ${y.status}`];
  if (x.run.trap !== null || y.run.trap !== null) {
    return x.run.trap === y.run.trap ? [] : [`trap differs: ${a} ${x.status} vs ${b} ${y.status}`];
  }
  // compareRuns says "ptxd" for its first run and "cicc" for its second.
  return compareRuns(spec, x.run, y.run).map(l => l.replace(/\b(ptxd|cicc)\b/g, w => (w === 'ptxd' ? a : b)));
}

export function compareBundle(bundle: string, gpuOut: string): CompareReport {
  const names = [...new Set(fs.readFileSync(path.join(bundle, 'cases.txt'), 'utf8').split('\n').filter(Boolean).map(l => l.split(' ')[0]!))];
  const verdicts: SpecVerdict[] = [];
  for (const name of names) {
    const spec = SPECS.find(s => s.name === name);
    if (!spec) throw new Error(`the bundle has ${name}, which test/diff/specs.ts does not (a bundle of another checkout?)`);
    const emu = { ptxd: readRun(path.join(bundle, name, 'emu', 'ptxd'), spec), cicc: readRun(path.join(bundle, name, 'emu', 'cicc'), spec) };
    const gpu = { ptxd: readRun(path.join(gpuOut, name, 'ptxd'), spec), cicc: readRun(path.join(gpuOut, name, 'cicc'), spec) };
    const gpuVsEmu = {} as Record<Version, string[]>;
    for (const v of VERSIONS) gpuVsEmu[v] = diffRuns(spec, gpu[v], emu[v], `GPU(${v})`, `emulator(${v})`);
    const ptxdVsCicc = diffRuns(spec, gpu.ptxd, gpu.cicc, 'ptxd', 'cicc');
    const expected = spec.miscompile !== undefined && gpu.ptxd.run !== undefined && gpu.cicc.run !== undefined;
    const agree = gpuVsEmu.ptxd.length === 0 && gpuVsEmu.cicc.length === 0 && (ptxdVsCicc.length === 0 || expected);
    verdicts.push({
      spec: name, gpuVsEmu, ptxdVsCicc, status: { ptxd: gpu.ptxd.status, cicc: gpu.cicc.status }, agree,
      ...(spec.miscompile ? { note: `known miscompile: ${spec.miscompile}` } : {}),
    });
  }
  return { verdicts, agree: verdicts.filter(v => v.agree).length, total: verdicts.length };
}

export function formatReport(r: CompareReport): string {
  const mark = (d: string[]) => (d.length === 0 ? 'yes' : 'NO');
  const rows = [
    '| spec                         | GPU==emu ptxd | GPU==emu cicc | ptxd==cicc GPU | detail',
    '|------------------------------|---------------|---------------|----------------|-------',
  ];
  for (const v of r.verdicts) {
    const first = [...v.gpuVsEmu.ptxd, ...v.gpuVsEmu.cicc, ...v.ptxdVsCicc][0]?.split('\n')[0] ?? '';
    const detail = v.agree ? (v.note && v.ptxdVsCicc.length > 0 ? `${v.note} (differs as expected)` : '') : first;
    rows.push(`| ${v.spec.padEnd(28)} | ${mark(v.gpuVsEmu.ptxd).padEnd(13)} | ${mark(v.gpuVsEmu.cicc).padEnd(13)} | ${mark(v.ptxdVsCicc).padEnd(14)} | ${detail}`);
  }
  const details = r.verdicts.filter(v => !v.agree).map(v =>
    `----- ${v.spec} (GPU: ptxd ${v.status.ptxd}; cicc ${v.status.cicc})\n${[...v.gpuVsEmu.ptxd, ...v.gpuVsEmu.cicc, ...v.ptxdVsCicc].join('\n')}`);
  return `${rows.join('\n')}\n\n${details.length > 0 ? `${details.join('\n')}\n\n` : ''}` +
    `gpu-compare: ${r.agree} kernels agree GPU==emulator, ptxd==cicc on GPU (of ${r.total} run)\n`;
}

if (require.main === module) {
  const args = process.argv.slice(2).filter(a => !a.startsWith('--'));
  if (args.length !== 2) {
    process.stderr.write('usage: node dist/test/diff/gpu-compare.js BUNDLE GPU_OUT [--json]\n');
    process.exit(2);
  }
  const r = compareBundle(path.resolve(args[0]!), path.resolve(args[1]!));
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(r, null, 1)}\n` : formatReport(r));
  process.exitCode = r.agree === r.total ? 0 : 1;
}
