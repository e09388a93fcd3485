// -lineinfo (nvcc -lineinfo → cicc -generate-line-info): `.loc` directives, the `.file` table and the
// `.debug_str` names of inlined functions. Oracles: the real cicc's -lineinfo output for the same .ii, the
// source files on disk (every position must point at a token), ptxas, and our own output without -lineinfo
// (line info must not change a single instruction).
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { compileUnit } from '../compiler/compile';
import { parseCiccArgs } from '../cicc/args';
import {
  KERNELS_DIR, PTXD_CICC, ciccArgv, ciccOutputs, kernelPrograms, libdeviceBytes, mkTempDir, prepareUnit, requireTool, run, skipReason,
  type PreparedUnit,
} from './helpers/tools';
import { ptxas } from './helpers/ptx';
import type { CompileOptions } from '../compiler/options';

const skip = skipReason('nvcc', 'ptxas');

/** Fixtures with one obvious code position per statement, so that our positions can be compared with cicc's as sets. */
const FIXTURES: Record<string, string> = {
  li_inline: `__device__ float g(float x) {
  return x * x + 1.0f;
}
__global__ void k(float* o, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    for (int j = 0; j < 4; ++j)
      v = g(v);
    o[i] = v;
  }
}
`,
  li_nested: `__device__ float h(float x) {
  return x * 3.0f;
}
__device__ float g(float x) {
  float y = h(x);
  return y * y + 1.0f;
}
__global__ void k(float* o, const float* in) {
  int i = threadIdx.x;
  o[i] = g(in[i]) - g(in[i + 1]);
}
`,
  li_loops: `__global__ void k(float* o, int n) {
  float s = 0;
  for (int j = 0; j < n; ++j) {
    s += o[j];
  }
  while (s > 1.0f)
    s *= 0.5f;
  o[0] = s;
}
`,
};

function fixtureDir(): string {
  const dir = path.join(os.tmpdir(), `ptxd-lineinfo-${process.getuid?.() ?? 'u'}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
function fixture(name: string): string {
  const cu = path.join(fixtureDir(), `${name}.cu`);
  if (!fs.existsSync(cu) || fs.readFileSync(cu, 'utf8') !== FIXTURES[name]) fs.writeFileSync(cu, FIXTURES[name]!);
  return cu;
}

function ours(u: PreparedUnit, extra: Partial<CompileOptions> = {}): string {
  const o = { ...parseCiccArgs(ciccArgv(u, u.dir)).options, moduleId: u.moduleId, compDir: '/nonexistent/cwd', ...extra };
  const r = compileUnit(fs.readFileSync(u.ii, 'latin1'), o, { libdevice: libdeviceBytes() });
  expect(r.unsupported ?? r.diagnostics.map(d => d.message).join('; '), 'compiles').toBe('');
  expect(r.ok).toBe(true);
  return r.ptx;
}

/** `.loc` lines with file numbers replaced by the files' names (numbering is the module's business). */
function locs(ptx: string): string[] {
  const files = new Map([...ptx.matchAll(/^\t\.file\t(\d+) "(.*)"$/gm)].map(m => [m[1]!, m[2]!]));
  const strs = new Map<string, string>();
  for (const m of ptx.matchAll(/^(\$L__info_string\d+):\n\.b8 ([\d,]+)$/gm)) strs.set(m[1]!, Buffer.from(m[2]!.split(',').map(Number).slice(0, -1)).toString('latin1'));
  return [...ptx.matchAll(/^\t\.loc\t(\d+) (\d+) (\d+)(?:, function_name (\S+), inlined_at (\d+) (\d+) (\d+))?$/gm)].map(m =>
    `${files.get(m[1]!)}:${m[2]}:${m[3]}` + (m[4] ? ` in ${strs.get(m[4])} at ${files.get(m[5]!)}:${m[6]}:${m[7]}` : ''));
}
const fileTable = (ptx: string) => [...ptx.matchAll(/^\t\.file\t\d+ "(.*)"$/gm)].map(m => m[1]!).sort();

/** The PTX without line information, laid out as a compile without -lineinfo lays it out. */
function stripLineInfo(ptx: string): string {
  let s = ptx.replace(/^\t\.loc\t.*\n/gm, '');
  const f = s.indexOf('\t.file\t');
  if (f >= 0) s = s.slice(0, f);
  return s.endsWith('}\n\n') ? s : s + '\n';
}

describe.skipIf(skip !== undefined)(`-lineinfo ${skip ?? ''}`, () => {
  for (const name of Object.keys(FIXTURES)) {
    it(`${name}: the same positions, inlining chains and files as the real cicc`, () => {
      const u = prepareUnit(fixture(name), 90, { nvccFlags: ['-lineinfo'] });
      expect(u.refPtx).toContain('.loc');
      const ptx = ours(u);
      // cicc's line 0 marks code it cannot attribute (merged or from libdevice); we never emit it
      const theirs = [...new Set(locs(u.refPtx))].filter(l => !/:0:\d+$/.test(l.split(' ')[0]!)).sort();
      expect([...new Set(locs(ptx))].sort()).toEqual(theirs);
      expect(fileTable(ptx)).toEqual(fileTable(u.refPtx));
      expect(ptxas(ptx, 90, ['-lineinfo'])).toBe('');
    });
  }

  it('-no-lineinfo-inlined-at: only the innermost position, as the real cicc gives it', () => {
    const u = prepareUnit(fixture('li_nested'), 90, { nvccFlags: ['-lineinfo'] });
    const out = mkTempDir('lineinfo-noinl');
    const argv = [...ciccArgv(u, out), '-no-lineinfo-inlined-at'];
    const r = run(u.realCicc, argv);
    expect(r.status, r.stderr).toBe(0);
    const ref = fs.readFileSync(ciccOutputs(out).ptx, 'utf8');
    const o = { ...parseCiccArgs(argv).options, moduleId: u.moduleId, compDir: '/nonexistent/cwd' };
    const c = compileUnit(fs.readFileSync(u.ii, 'latin1'), o, { libdevice: libdeviceBytes() });
    expect(c.ok).toBe(true);
    expect(c.ptx).not.toContain('inlined_at');
    expect(c.ptx).not.toContain('.debug_str');
    expect([...new Set(locs(c.ptx))].sort()).toEqual([...new Set(locs(ref))].sort());
    expect(ptxas(c.ptx, 90, ['-lineinfo'])).toBe('');
  });

  it('a relative source name resolves against the compiler\'s cwd, as cicc does (through nvcc and bin/ptxd-cicc)', () => {
    const dir = mkTempDir('lineinfo-rel');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'rel.cu'), FIXTURES.li_inline!);
    const nvcc = requireTool('nvcc');
    const env = { ...process.env, PTXD_FALLBACK: 'never', PTXD_DAEMON: '0', PTXD_CACHE: '0' };
    const a = run(nvcc, ['-arch=sm_90', '-lineinfo', '-ptx', 'src/rel.cu', '-o', 'ours.ptx', `--cicc-prefix=${PTXD_CICC}`], { cwd: dir, env });
    expect(a.status, a.stderr).toBe(0);
    const b = run(nvcc, ['-arch=sm_90', '-lineinfo', '-ptx', 'src/rel.cu', '-o', 'cicc.ptx'], { cwd: dir });
    expect(b.status, b.stderr).toBe(0);
    const mine = fs.readFileSync(path.join(dir, 'ours.ptx'), 'utf8'), ref = fs.readFileSync(path.join(dir, 'cicc.ptx'), 'utf8');
    expect(fileTable(ref)).toEqual([`${fs.realpathSync(dir)}/src/rel.cu`]);
    expect(fileTable(mine)).toEqual(fileTable(ref));
    expect([...new Set(locs(mine))].sort()).toEqual([...new Set(locs(ref))].sort());
  });

  // Every fourth test program (all of them with PTXD_LONG=1): -lineinfo changes no instruction, and every
  // file we name is one cicc names. (Positions differ where the optimisers place code differently: over
  // these programs about 82% of cicc's positions are ours too, and 71% of ours are cicc's.)
  const every = process.env.PTXD_LONG === '1' ? 1 : 4;
  const progs = kernelPrograms().filter((_, i) => i % every === 0);
  it.each(progs.map(p => [path.relative(KERNELS_DIR, p), p]))('%s: code unchanged, files as cicc names them', (_name, cu) => {
    const u = prepareUnit(cu, 90, { nvccFlags: ['-lineinfo'] });
    const ptx = ours(u);
    if (/^\.visible \.entry|^\.func/m.test(ptx)) expect(ptx).toContain('\t.loc\t');
    expect(stripLineInfo(ptx)).toBe(ours(u, { lineInfo: false, compDir: undefined }));
    const refFiles = new Set(fileTable(u.refPtx));
    for (const f of fileTable(ptx)) expect(refFiles, `${f} is in cicc's file table`).toContain(f);
    expect(ptxas(ptx, 90, ['-lineinfo'])).toBe('');
  });
});
