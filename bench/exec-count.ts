// Executed-instruction proxy for GPU speed, without a GPU: every differential spec (test/diff/specs.ts) runs its
// launches in the PTX emulator twice, on ptxd's PTX and on the real cicc's, and the emulator counts the
// instructions each launch executes (warp-level issues: one per instruction a warp runs, as a GPU's issue
// slots count them). Per kernel, the ratio ptxd/cicc of those counts, summed over the spec's launches of that
// kernel; then the geometric mean over all kernels. A missed unroll or a slower loop shows as a ratio above 1.
// PTX counts are not SASS counts (ptxas optimises both further), so this is a proxy, not a timing.
//
// Only specs whose outputs agree with cicc's count (a miscompiled kernel may run any number of instructions).
//
// Usage: node dist/bench/exec-count.js [--programs regexp] [--json file] [--top N]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, skipReason } from '../test/helpers/tools';
import { SPECS } from '../test/diff/specs';
import { differential } from '../test/diff/harness';

export interface KernelCount { program: string; kernel: string; cicc: number; ptxd: number; ciccLanes: number; ptxdLanes: number }

export const geomean = (xs: number[]): number => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

/** Per-kernel sums of executed instructions over a run's launches (kernels in first-launch order). */
export function perKernel(launches: { kernel: string; steps: number; laneInsts: number }[]): Map<string, { steps: number; lanes: number }> {
  const m = new Map<string, { steps: number; lanes: number }>();
  for (const l of launches) {
    const c = m.get(l.kernel) ?? { steps: 0, lanes: 0 };
    c.steps += l.steps;
    c.lanes += l.laneInsts;
    m.set(l.kernel, c);
  }
  return m;
}

function main(): void {
  const skip = skipReason('nvcc');
  if (skip) { console.log(`exec-count ${skip}`); return; }
  const args = process.argv.slice(2);
  const opt = (n: string) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : undefined; };
  const progRe = new RegExp(opt('--programs') ?? '.');
  const top = Number(opt('--top') ?? 15);
  const jsonOut = opt('--json') ?? path.join(REPO_ROOT, 'bench/results/exec-count.json');
  const rows: KernelCount[] = [];
  const skipped: string[] = [];
  for (const spec of SPECS) {
    if (spec.gap || spec.compileOnly || spec.miscompile || !progRe.test(spec.name)) continue;
    let d;
    try { d = differential(spec); } catch (e) { skipped.push(`${spec.name} (${(e as Error).message.split('\n')[0]})`); continue; }
    if (d.mismatches.length || !d.ours || !d.ref) { skipped.push(`${spec.name} (differs from cicc)`); continue; }
    const ours = perKernel(d.ours.launches), ref = perKernel(d.ref.launches);
    for (const [k, c] of ref) {
      const o = ours.get(k);
      if (!o || c.steps === 0 || o.steps === 0) continue;
      rows.push({ program: spec.name, kernel: k, cicc: c.steps, ptxd: o.steps, ciccLanes: c.lanes, ptxdLanes: o.lanes });
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  const ratios = rows.map(r => r.ptxd / r.cicc);
  const gm = ratios.length ? geomean(ratios) : null;
  const gmLanes = rows.length ? geomean(rows.map(r => r.ptxdLanes / r.ciccLanes)) : null;
  const sorted = [...rows].sort((a, b) => b.ptxd / b.cicc - a.ptxd / a.cicc);
  const line = (r: KernelCount) => `${`${r.program}/${r.kernel}`.padEnd(48)} ${String(r.cicc).padStart(10)} ${String(r.ptxd).padStart(10)} ${(r.ptxd / r.cicc).toFixed(3).padStart(7)}`;
  console.log(`${'program/kernel'.padEnd(48)} ${'cicc'.padStart(10)} ${'ptxd'.padStart(10)} ${'ratio'.padStart(7)}   (warp-level executed PTX instructions)`);
  console.log(`highest ${top}:`);
  for (const r of sorted.slice(0, top)) console.log(line(r));
  console.log(`lowest ${top}:`);
  for (const r of sorted.slice(-top)) console.log(line(r));
  console.log(`kernels: ${rows.length}; above 1.10: ${ratios.filter(x => x > 1.1).length}; below 0.90: ${ratios.filter(x => x < 0.9).length}`);
  console.log(`geomean executed-instruction ratio ptxd/cicc: ${gm === null ? '–' : gm.toFixed(3)} (warp issues), ${gmLanes === null ? '–' : gmLanes.toFixed(3)} (thread instructions)`);
  if (skipped.length) console.log(`left out: ${skipped.join(', ')}`);
  fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
  fs.writeFileSync(jsonOut, JSON.stringify({ geomean: gm, geomeanLanes: gmLanes, kernels: rows, skipped }, null, 2) + '\n');
}

if (require.main === module) main();
