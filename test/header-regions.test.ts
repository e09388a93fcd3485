// A .ii whose system-header regions differ from the header files on disk (issue 29): ptxd skims over the
// declarations device code never uses, so a damaged libstdc++ declaration would compile under ptxd although cicc,
// which parses everything, rejects the unit. The unit falls back with a named reason instead. The mutant is a real
// unit made here by nvcc with one libstdc++ name misspelt, and the real cicc is the oracle that it is bad.
import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PTXD_CICC, ciccArgv, ciccOutputs, mkTempDir, prepareUnit, requireTool, skipReason, type PreparedUnit } from './helpers/tools';
import { headerRegions, prepareHeader, regionMismatch } from '../compiler/frontend/header-regions';
import { HeaderCheck } from '../service/header-check';
import { UnitService } from '../service/unit';
import { defaultOptions } from '../compiler/options';
import type { compileUnit } from '../compiler/compile';
import { PTXD } from './helpers/daemon';

const skip = skipReason('nvcc', 'cicc');

const KERNEL = `#include <utility>
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a;
}
`;

interface Run { code: number | null; stderr: string; ptx: boolean }

let unit: PreparedUnit;
let work = '';
let seq = 0;

/** The unit's .ii with `edit` applied, and the argv that compiles it into a fresh output folder. */
function variant(edit: (ii: string) => string): { argv: string[]; out: string } {
  const out = path.join(work, `v${++seq}`);
  fs.mkdirSync(out);
  const ii = path.join(out, 'unit.cpp1.ii');
  fs.writeFileSync(ii, edit(fs.readFileSync(unit.ii, 'latin1')), 'latin1');
  return { argv: ciccArgv(unit, out).map(a => (a === unit.ii ? ii : a)), out };
}

function run(tool: string, v: { argv: string[]; out: string }, env: NodeJS.ProcessEnv): Run {
  fs.rmSync(ciccOutputs(v.out).ptx, { force: true });
  const r = spawnSync(tool, v.argv, { cwd: v.out, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stderr: r.stderr, ptx: fs.existsSync(ciccOutputs(v.out).ptx) };
}

const runCicc = (v: { argv: string[]; out: string }): Run => run(requireTool('cicc'), v, process.env);

function runPtxd(v: { argv: string[]; out: string }, fallback: 'never' | 'default'): Run {
  const env = { ...process.env, PTXD_NATIVE: '0', PTXD_DAEMON: '0', PTXD_CACHE: '0', PTXD_VERBOSE: '', PTXD_FALLBACK: fallback === 'never' ? 'never' : '' };
  return run(PTXD_CICC, { argv: [unit.realCicc, ...v.argv], out: v.out }, env);
}

/** The .ii with the first `from` inside a region of `file` replaced by `to`, and that line's number in `file`. */
function misspell(ii: string, file: RegExp, from: string, to: string): { text: string; file: string; line: number } {
  for (const r of headerRegions(ii).regions) {
    if (!file.test(r.file)) continue;
    const at = ii.indexOf(from, r.start);
    if (at < 0 || at >= r.end) continue;
    const line = r.line + (ii.slice(r.start, at).match(/\n/g)?.length ?? 0);
    return { text: ii.slice(0, at) + to + ii.slice(at + from.length), file: r.file, line };
  }
  throw new Error(`no ${from} in a region of ${file}`);
}

beforeAll(() => {
  if (skip) return;
  work = mkTempDir('header-regions');
  const cu = path.join(work, 'hdr.cu');
  fs.writeFileSync(cu, KERNEL);
  unit = prepareUnit(cu, 90);
});

describe.skipIf(skip !== undefined)(`a damaged system-header region falls back, the intact unit compiles ${skip ?? ''}`, () => {
  it('the unit as nvcc made it compiles in never mode', () => {
    const v = variant(ii => ii);
    const p = runPtxd(v, 'never');
    expect(p.stderr).toBe('');
    expect(p.code).toBe(0);
    expect(p.ptx).toBe(true);
  });

  // `std::abs(double)` in bits/std_abs.h: device code never calls it, so ptxd skims its body
  it('a misspelt name in an unused libstdc++ function: never mode names the file and line, default mode is cicc', () => {
    let where = { file: '', line: 0 };
    const v = variant(ii => {
      const m = misspell(ii, /\/c\+\+\/[^/]+\/bits\/std_abs\.h$/, '__builtin_fabs(', '__builtin_fabz(');
      where = m;
      return m.text;
    });
    const c = runCicc(v);
    expect(c.code).not.toBe(0);
    expect(c.stderr).toMatch(/__builtin_fabz/);
    const never = runPtxd(v, 'never');
    expect(never.stderr).toContain(`ptxd cannot compile this unit: system header region differs from ${where.file}:${where.line}`);
    expect(never.code).toBe(1);
    expect(never.ptx).toBe(false);
    const dflt = runPtxd(v, 'default');
    expect(dflt.code).toBe(c.code);
    expect(dflt.stderr).toBe(c.stderr);
    expect(dflt.ptx).toBe(false);
  });

  it('a deleted `const` in a libstdc++ declaration falls back in never mode', () => {
    const v = variant(ii => misspell(ii, /\/c\+\+\/[^/]+\/bits\/(move|stl_pair|type_traits)\.h$|\/c\+\+\/[^/]+\/type_traits$/, 'const ', '').text);
    const never = runPtxd(v, 'never');
    expect(never.stderr).toMatch(/ptxd cannot compile this unit: system header region differs from \S+:\d+/);
    expect(never.ptx).toBe(false);
  });
});

describe('the comparison itself (compiler/frontend/header-regions.ts, service/header-check.ts)', () => {
  const header = [
    '#define ANSWER 42',
    '/* a comment',
    '   over lines */',
    'int f(int);   // the answer',
    'int g = ANSWER;',
    'int h(int a,',
    '\t  int b);',
    'FOO(x,',
    '    y) int z;',
    'int k(int) NOTHROW;',
    '',
  ].join('\n');
  const h = prepareHeader(header);
  const isMacro = (n: string): boolean => n === 'ANSWER' || n === 'FOO' || n === 'NOTHROW';
  const check = (body: string, line = 4): number | undefined => {
    const ii = `# ${line} "/usr/include/t.h" 3\n${body}`;
    const r = headerRegions(ii).regions[0]!;
    return regionMismatch(ii, r, h, isMacro);
  };

  it('accepts what cpp makes of the header: comments gone, spacing changed, macros expanded, joined calls', () => {
    expect(check('int f(int);\nint g = 42;\nint h(int a,\n int b);\nx y\n int z;\n')).toBeUndefined();
  });

  it('finds a misspelt name, a deleted token and a duplicated one, with their line', () => {
    expect(check('int f(imt);\n')).toBe(4);
    expect(check('int f(int);\nint g = 42;\nint h(a,\n')).toBe(6);
    expect(check('int f(int);\nint g = 42;\nint h(int a,\n int b) b;\n')).toBe(7);
    expect(check('int f(int);\nint g = 42;\nint h(int a,\n int b);\nx y\n int int z;\n')).toBe(9);
  });

  it('a line after a macro use with its first token gone, and a macro expansion with a parenthesis lost, are found', () => {
    expect(check('int f(int);\nint g = 42;\nh(int a,\n int b);\n')).toBe(6);
    expect(check('int k(int) noexcept(true);\n', 10)).toBeUndefined();
    expect(check('int k(int) noexcept(true;\n', 10)).toBe(10);
    expect(check('int k(int) noexcept true);\n', 10)).toBe(10);
  });

  it('a unit naming a file that cannot be read is accepted unverified', () => {
    const ii = Buffer.from('# 1 "/nonexistent/ptxd/include/c++/x.h" 1 3\nint imt f;\n');
    expect(new HeaderCheck().check(ii)).toBeUndefined();
  });

  it('a region of a real header differing from the file is found, and found again when remembered', () => {
    const file = '/usr/include/stdio.h';
    if (!fs.existsSync(file)) return;
    const lines = fs.readFileSync(file, 'latin1').split('\n');
    const n = lines.findIndex(l => /^extern int fclose \(FILE \*__stream\);$/.test(l)) + 1;
    expect(n).toBeGreaterThan(0);
    const hc = new HeaderCheck();
    const good = Buffer.from(`# ${n} "${file}" 1 3 4\nextern int fclose (FILE *__stream);\n`);
    expect(hc.check(good)).toBeUndefined();
    expect(hc.check(good)).toBeUndefined();
    const bad = Buffer.from(`# ${n} "${file}" 1 3 4\nextern int fclose (FILE __stream);\n`);
    expect(hc.check(bad)).toBe(`system header region differs from ${file}:${n}`);
  });
});

// The verdict on a prelude (the .ii up to the last return into the main file) is kept by the prelude's hash
// and the identity of the files it names, in memory and in a record under the cache directory.
describe('a verified prelude is remembered (service/header-check.ts)', () => {
  /** A header marked as a system header (flag 3), its text, and two units that include it first. */
  function fixture(): { dir: string; header: string; unit: (main: string, body: string, headerText?: string) => Buffer } {
    const dir = mkTempDir('header-verdict');
    const header = path.join(dir, 'sys', 'vec.h');
    fs.mkdirSync(path.dirname(header));
    fs.writeFileSync(header, '#define VEC_N 4\nstruct vec { float v[VEC_N]; };\nint length(const vec &a);\n');
    fs.utimesSync(header, 1_000_000_000, 1_000_000_000);
    const unit = (main: string, body: string, headerText = 'struct vec { float v[4]; };\nint length(const vec &a);'): Buffer => {
      fs.writeFileSync(path.join(dir, main), `#include <vec.h>\n${body}\n`);
      return Buffer.from(`# 0 "${dir}/${main}"\n# 1 "${header}" 1 3\n\n${headerText}\n# 2 "${dir}/${main}" 2\n${body}\n`);
    };
    return { dir, header, unit };
  }
  const records = (dir: string): string[] => fs.readdirSync(dir).map(f => path.join(dir, f));

  it('a second checker (a new daemon) takes the verdict from the record without reading the headers', () => {
    const { dir, unit } = fixture();
    const store = path.join(dir, 'cache', 'headers');
    const first = new HeaderCheck(store, 'salt');
    expect(first.check(unit('a.cu', 'int a;'))).toBeUndefined();
    expect(first.stats).toMatchObject({ filesRead: 1, preludesChecked: 1, verdictsOnDisk: 0 });
    expect(first.check(unit('b.cu', 'int b;'))).toBeUndefined();
    expect(first.stats).toMatchObject({ filesRead: 1, preludesChecked: 1, verdictsInMemory: 1 });
    expect(records(store)).toHaveLength(1);
    const second = new HeaderCheck(store, 'salt');
    expect(second.check(unit('c.cu', 'int c;'))).toBeUndefined();
    expect(second.stats).toMatchObject({ filesRead: 0, preludesChecked: 0, verdictsOnDisk: 1, recordsIgnored: 0 });
    // another checker's code (salt) does not reuse it
    const other = new HeaderCheck(store, 'other');
    expect(other.check(unit('c.cu', 'int c;'))).toBeUndefined();
    expect(other.stats).toMatchObject({ filesRead: 1, preludesChecked: 1, verdictsOnDisk: 0 });
  });

  it('a damaged prelude is another prelude: checked, and its difference found', () => {
    const { dir, header, unit } = fixture();
    const store = path.join(dir, 'headers');
    expect(new HeaderCheck(store).check(unit('a.cu', 'int a;'))).toBeUndefined();
    const hc = new HeaderCheck(store);
    expect(hc.check(unit('a.cu', 'int a;', 'struct vec { float v[4]; };\nint length(vec &a);'))).toBe(`system header region differs from ${header}:3`);
    expect(hc.stats.preludesChecked).toBe(1);
  });

  it('a header changed on disk since the verdict is compared again', () => {
    const { dir, header, unit } = fixture();
    const store = path.join(dir, 'headers');
    expect(new HeaderCheck(store).check(unit('a.cu', 'int a;'))).toBeUndefined();
    fs.writeFileSync(header, '#define VEC_N 4\nstruct vec { float v[VEC_N]; };\nint length(vec &a);\n');
    const hc = new HeaderCheck(store);
    expect(hc.check(unit('a.cu', 'int a;'))).toBe(`system header region differs from ${header}:3`);
    expect(hc.stats).toMatchObject({ preludesChecked: 1, verdictsOnDisk: 0 });
  });

  it('a damaged record, or one written for another prelude, is no verdict', () => {
    const { dir, header, unit } = fixture();
    const store = path.join(dir, 'headers');
    const good = unit('a.cu', 'int a;');
    const bad = unit('a.cu', 'int a;', 'struct vec { float v[4]; };\nint lenght(const vec &a);');
    expect(new HeaderCheck(store).check(good)).toBeUndefined();
    const [record] = records(store);
    const text = fs.readFileSync(record!, 'utf8');
    for (const damaged of [text.slice(0, text.length >> 1), text.replace(header, `${dir}/sys/gone.h`), 'x'.repeat(text.length), '']) {
      fs.writeFileSync(record!, damaged);
      const hc = new HeaderCheck(store);
      expect(hc.check(good)).toBeUndefined();
      expect(hc.stats).toMatchObject({ filesRead: 1, preludesChecked: 1, verdictsOnDisk: 0, recordsIgnored: 1 });
      expect(fs.readFileSync(record!, 'utf8')).toBe(text);                      // written again whole
    }
    // The good prelude's record put where the damaged prelude's record goes (its name found by letting the
    // damaged prelude pass once against a header edited to match it): it names another prelude, it is ignored.
    const goodHeader = fs.readFileSync(header);
    fs.writeFileSync(header, goodHeader.toString('latin1').replace('length', 'lenght'));
    fs.utimesSync(header, 1_000_000_000, 1_000_000_000);
    const probe = path.join(dir, 'probe');
    expect(new HeaderCheck(probe).check(bad)).toBeUndefined();
    const [badRecord] = records(probe);
    fs.writeFileSync(header, goodHeader);
    fs.utimesSync(header, 1_000_000_000, 1_000_000_000);
    fs.copyFileSync(record!, badRecord!);
    const hc = new HeaderCheck(probe);
    expect(hc.check(bad)).toBe(`system header region differs from ${header}:3`);
    expect(hc.stats).toMatchObject({ recordsIgnored: 1, verdictsOnDisk: 0 });
  });

  it('a unit of the service takes a verdict a previous service wrote under the cache directory', () => {
    const { dir, header, unit } = fixture();
    const cacheDir = path.join(dir, 'cache');
    const times = { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 };
    const fake = ((text: string) => ({ ok: true, ptx: `ptx of ${text.length}`, stub: '', diagnostics: [], times })) as unknown as typeof compileUnit;
    const ask = (main: string, body: string): ReturnType<UnitService['handle']> => {
      const svc = new UnitService({ cacheDir, sizeLimit: 1 << 30, env: {}, warnOnce: false, compileUnit: fake, preludeMemo: true });
      const input = path.join(dir, `${main}.ii`);
      fs.writeFileSync(input, unit(main, body));
      try { return svc.handle({ input, options: defaultOptions(), env: {} }); } finally { svc.close(); }
    };
    expect(ask('a.cu', 'int a;').status).toBe('ok');
    expect(fs.readdirSync(path.join(cacheDir, 'headers'))).toHaveLength(1);
    // The header changes on disk with its size and time kept: a service that read it would find the region
    // differs; one that takes the verdict from the record compiles.
    fs.writeFileSync(header, '#define VEC_N 4\nstruct vec { float v[VEC_N]; };\nint lenght(const vec &a);\n');
    fs.utimesSync(header, 1_000_000_000, 1_000_000_000);
    expect(ask('b.cu', 'int b;').status).toBe('ok');
    // with the record gone, it is read and differs
    fs.rmSync(path.join(cacheDir, 'headers'), { recursive: true });
    const r = ask('c.cu', 'int c;');
    expect([r.status, r.reason]).toEqual(['unsupported', `system header region differs from ${header}:3`]);
    // `ptxd cache clear` removes the verdicts with the rest of the cache
    fs.writeFileSync(header, '#define VEC_N 4\nstruct vec { float v[VEC_N]; };\nint length(const vec &a);\n');
    expect(ask('d.cu', 'int d;').status).toBe('ok');
    expect(fs.existsSync(path.join(cacheDir, 'headers'))).toBe(true);
    const clear = spawnSync(process.execPath, [PTXD, 'cache', 'clear', '--json'], { env: { ...process.env, PTXD_CACHE_DIR: cacheDir }, encoding: 'utf8' });
    expect(clear.status, clear.stderr).toBe(0);
    expect(JSON.parse(clear.stdout).removed).toContain('headers');
    expect(fs.existsSync(path.join(cacheDir, 'headers'))).toBe(false);
  });
});
