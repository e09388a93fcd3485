// The GPU check's bundle (issue 5): everything a machine with a GPU and only the driver needs to run both
// PTX versions of every differential spec, plus what the emulator computed for them here.
//
//   node dist/test/diff/gpu-bundle.js OUT [--only a,b] [--no-cubin]
//
// OUT/cases.txt          "<spec> <version>" per case to run (version: ptxd or cicc)
// OUT/skipped.txt        "<spec> <reason>" for specs with nothing to run (gaps, compile-only, ptxd refused)
// OUT/<spec>/<v>.ptx     the PTX (ptxd in process as the harness compiles it; cicc: the real cicc's)
// OUT/<spec>/<v>.cubin   ptxas -arch=sm_<DIFF_ARCH> of it: the runner's fallback when the driver is older than the PTX
// OUT/<spec>/in/         input buffers b<i>.bin and symbol inits s<i>.bin (spec order)
// OUT/<spec>/<v>.case    the runner's case file (scripts/gpu-runner.cpp), with <v>.p<k>.bin parameter blocks
// OUT/<spec>/emu/<v>/    the emulator's outputs, in the layout the runner writes (gpu-files.ts)

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Machine } from '../emulator/machine';
import { kernelParamOffsets, kernelParamSize } from '../emulator/module';
import { hasTool, requireTool } from '../helpers/tools';
import { bufferBytes, compileWithPtxd, DIFF_ARCH, findKernel, packParams, referencePtx, runSpec, type RunOutput } from './harness';
import { SPECS } from './specs';
import type { KernelSpec } from './spec';
import { VERSIONS, writeRun, type Version } from './gpu-files';

export interface BundleOptions {
  /** Only these specs (default: all). */
  only?: string[];
  /** Build a cubin with ptxas beside each PTX (default true). */
  cubin?: boolean;
  log?: (line: string) => void;
}

export interface BundleSummary {
  cases: [string, Version][];
  skipped: [string, string][];
}

const dim = (d: number | [number, number, number]): [number, number, number] => (typeof d === 'number' ? [d, 1, 1] : d);

/** The runner's case file for one PTX version of a spec; writes the parameter blocks beside it. */
function caseFile(spec: KernelSpec, ptx: string, v: Version, dir: string, cubin: boolean): string {
  const m = new Machine(ptx);
  const names = Object.keys(spec.buffers);
  const index = new Map(names.map((n, i) => [n, i]));
  const lines = [`# ${spec.name}, ${v}'s PTX`, `module ${v}.ptx ${cubin ? `${v}.cubin` : '-'}`];
  names.forEach((n, i) => lines.push(`buffer ${Math.max(bufferBytes(spec.buffers[n]!).length, 1)} in/b${i}.bin`));
  if (spec.stackSize) lines.push(`stack ${spec.stackSize}`);
  // a symbol by its name in this PTX (an anonymous namespace's prefix depends on the source path; the emulator finds it)
  Object.entries(spec.symbols ?? {}).forEach(([n, b], i) => lines.push(`symbol ${m.variable(n).name} ${bufferBytes(b).length} ${b.init ? `in/s${i}.bin` : '-'}`));
  // Buffer arguments are packed as 0 and patched with the device address by the runner.
  const zero = new Map(names.map(n => [n, 0]));
  spec.launches.forEach((l, k) => {
    const f = findKernel(m, l.kernel);
    const params = packParams(f, l.args, zero).subarray(0, kernelParamSize(f));
    fs.writeFileSync(path.join(dir, `${v}.p${k}.bin`), params);
    const offs = kernelParamOffsets(f);
    const patches: string[] = [];
    l.args.forEach((a, j) => {
      if ('buf' in a) patches.push(`${offs[j]} ${index.get(a.buf)}`);
      if ('bytes' in a) for (const [o, b] of a.ptrs ?? []) patches.push(`${offs[j]! + o} ${index.get(b)}`);
    });
    lines.push(`launch ${f.name} ${dim(l.grid).join(' ')} ${dim(l.block).join(' ')} ${l.dynShared ?? 0} ${v}.p${k}.bin ${patches.length} ${patches.join(' ')}`.trimEnd());
  });
  return `${lines.join('\n')}\n`;
}

function emulate(spec: KernelSpec, ptx: string): RunOutput | { error: string } {
  try {
    return runSpec(spec, ptx);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export function buildBundle(out: string, o: BundleOptions = {}): BundleSummary {
  const log = o.log ?? (() => {});
  const cubin = o.cubin !== false;
  const ptxas = cubin ? requireTool('ptxas') : '';
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const summary: BundleSummary = { cases: [], skipped: [] };
  for (const spec of SPECS) {
    if (o.only && !o.only.includes(spec.name)) continue;
    const skip = (why: string) => { summary.skipped.push([spec.name, why]); log(`${spec.name}: skipped (${why})`); };
    if (spec.gap) { skip(`gap: ${spec.gap}`); continue; }
    if (spec.compileOnly) { skip(`compile only: ${spec.compileOnly}`); continue; }
    if (spec.textures || spec.surfaces) { skip('texture/surface objects: the GPU runner does not create them'); continue; }
    const compiled = compileWithPtxd(spec.name);
    if (!compiled.ok || compiled.unsupported) { skip(`ptxd did not compile it: ${compiled.unsupported ?? compiled.diagnostics.map(d => d.message).join('; ')}`); continue; }
    const ptx: Record<Version, string> = { ptxd: compiled.ptx, cicc: referencePtx(spec.name) };
    const dir = path.join(out, spec.name);
    fs.mkdirSync(path.join(dir, 'in'), { recursive: true });
    Object.values(spec.buffers).forEach((b, i) => fs.writeFileSync(path.join(dir, 'in', `b${i}.bin`), bufferBytes(b).length > 0 ? bufferBytes(b) : new Uint8Array(1)));
    Object.values(spec.symbols ?? {}).forEach((b, i) => { if (b.init) fs.writeFileSync(path.join(dir, 'in', `s${i}.bin`), bufferBytes(b)); });
    for (const v of VERSIONS) {
      fs.writeFileSync(path.join(dir, `${v}.ptx`), ptx[v]);
      let withCubin = cubin;
      if (cubin) {
        const r = spawnSync(ptxas, [`-arch=sm_${DIFF_ARCH}`, path.join(dir, `${v}.ptx`), '-o', path.join(dir, `${v}.cubin`)], { encoding: 'utf8' });
        if (r.status !== 0) { withCubin = false; log(`${spec.name}: ptxas refused ${v}'s PTX: ${r.stderr.trim()}`); }
      }
      fs.writeFileSync(path.join(dir, `${v}.case`), caseFile(spec, ptx[v], v, dir, withCubin));
      writeRun(path.join(dir, 'emu', v), spec, emulate(spec, ptx[v]), 'emulator');
      summary.cases.push([spec.name, v]);
    }
    log(`${spec.name}: bundled`);
  }
  fs.writeFileSync(path.join(out, 'cases.txt'), summary.cases.map(([s, v]) => `${s} ${v}\n`).join(''));
  fs.writeFileSync(path.join(out, 'skipped.txt'), summary.skipped.map(([s, w]) => `${s} ${w.replace(/\s+/g, ' ')}\n`).join(''));
  return summary;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const out = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--only');
  const onlyAt = args.indexOf('--only');
  if (!out) {
    process.stderr.write('usage: node dist/test/diff/gpu-bundle.js OUT [--only spec1,spec2] [--no-cubin]\n');
    process.exit(2);
  }
  if (!hasTool('nvcc')) {
    process.stderr.write('gpu-bundle: nvcc not found (the bundle needs the real cicc\'s PTX and nvcc\'s .ii of each program)\n');
    process.exit(2);
  }
  const s = buildBundle(path.resolve(out), {
    only: onlyAt >= 0 ? args[onlyAt + 1]?.split(',') : undefined,
    cubin: !args.includes('--no-cubin'),
    log: l => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(`gpu-bundle: ${s.cases.length} cases of ${s.cases.length / 2} specs in ${out}; ${s.skipped.length} specs skipped\n`);
}
