// Bad input judged as cicc judges it (issue 29, item 3): malformed line markers, invalid UTF-8, stray bytes,
// and nesting deeper than ptxd or EDG take. Each case is a real unit (a small kernel captured with nvcc) with
// text appended to its .cpp1.ii, and the real cicc on the same file is the oracle:
// - cicc rejects and ptxd diagnoses it itself: ptxd's stderr is cicc's, byte for byte;
// - ptxd cannot tell (a U+FFFD): never mode names the spot, default mode gives cicc's answer and words;
// - cicc accepts: ptxd compiles it (PTXD_FALLBACK=never);
// - nesting: ptxd either compiles it or names why not (never "internal error"), writes no PTX for a unit cicc
//   rejects, and in default mode exits as cicc does.
import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PTXD_CICC, ciccArgv, ciccOutputs, mkTempDir, prepareUnit, requireTool, skipReason, type PreparedUnit } from './helpers/tools';

const skip = skipReason('nvcc', 'cicc');

const KERNEL = `__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a;
}
`;
const DEV = '__attribute__((device))';
const KK = (call: string): string => `__attribute__((global)) void kk(int *o) { *o = ${call}; }\n`;

let unit: PreparedUnit;
let work = '';
let seq = 0;

interface Run { code: number | null; stderr: string; ptx: boolean }

/** The unit's .ii with `tail` (bytes) appended, and the argv that compiles it into a fresh output folder. */
function variant(tail: Buffer | string): { argv: string[]; out: string } {
  const n = ++seq;
  const out = path.join(work, `v${n}`);
  fs.mkdirSync(out);
  const ii = path.join(out, 'unit.cpp1.ii');
  fs.writeFileSync(ii, Buffer.concat([fs.readFileSync(unit.ii), typeof tail === 'string' ? Buffer.from(tail, 'latin1') : tail]));
  return { argv: ciccArgv(unit, out).map(a => (a === unit.ii ? ii : a)), out };
}

function runCicc(v: { argv: string[]; out: string }): Run {
  fs.rmSync(ciccOutputs(v.out).ptx, { force: true });
  const r = spawnSync(requireTool('cicc'), v.argv, { cwd: v.out, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stderr: r.stderr, ptx: fs.existsSync(ciccOutputs(v.out).ptx) };
}

function runPtxd(v: { argv: string[]; out: string }, fallback: 'never' | 'default'): Run {
  fs.rmSync(ciccOutputs(v.out).ptx, { force: true });
  const env = { ...process.env, PTXD_NATIVE: '0', PTXD_DAEMON: '0', PTXD_CACHE: '0', PTXD_VERBOSE: '', PTXD_FALLBACK: fallback === 'never' ? 'never' : '' };
  const r = spawnSync(PTXD_CICC, [unit.realCicc, ...v.argv], { cwd: v.out, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stderr: r.stderr, ptx: fs.existsSync(ciccOutputs(v.out).ptx) };
}

beforeAll(() => {
  if (skip) return;
  work = mkTempDir('strict-input');
  const cu = path.join(work, 'good.cu');
  fs.writeFileSync(cu, KERNEL);
  unit = prepareUnit(cu, 90);
});

describe.skipIf(skip !== undefined)(`input cicc rejects is rejected with cicc's words ${skip ?? ''}`, () => {
  const exact: [string, Buffer | string][] = [
    ['a line marker cut in the middle at the end of the file', '# 1 "/usr/include/x86'],
    ['a line marker whose file name has no closing quote', '# 1 "/usr/include/x86\nint zz;\n'],
    ['a line number followed by letters', '# 1x "a.cu"\nint zz;\n'],
    ['text stuck to the file name', '# 3 "a.cu"junk\nint zz;\n'],
    ['a flag after #line', '#line 3 "a.cu" 1\nint zz;\n'],
    ['#line without a number', '#line x\nint zz;\n'],
    ['a string where a flag should be', '# 3 "a.cu" ""\nint zz;\n'],
    // `void(q);` is a declaration ([stmt.ambig]) of an object of type void, as `void q;` is
    ['a local object of type void, parenthesised', '__attribute__((global)) void vq(int *o) { void(q); *o = 1; }\n'],
    ['a local object of type void', '__attribute__((global)) void vq(int *o) { void q; *o = 1; }\n'],
  ];
  for (const [name, tail] of exact) {
    it(`${name}: the same diagnostics as cicc, no PTX`, () => {
      const v = variant(tail);
      const c = runCicc(v);
      expect(c.code).toBe(1);
      const p = runPtxd(v, 'never');
      expect(p.stderr).toBe(c.stderr);
      expect(p.code).toBe(1);
      expect(p.ptx).toBe(false);
    });
  }

  // The unit reaches the compiler decoded as UTF-8: an invalid sequence and a valid U+FFFD look the same there,
  // and cicc rejects only the first. So ptxd names the spot and lets cicc decide (with its own words in default mode).
  const undecided: [string, Buffer, number][] = [
    ['invalid UTF-8 in a string literal', Buffer.from(`${DEV} const char *s = "ab\xff\xfecd";\n`, 'latin1'), 1],
    ['a truncated UTF-8 sequence in a string literal', Buffer.from(`${DEV} int f() { const char *s = "ab\xc3\x28cd"; return s[0]; }\n`, 'latin1'), 1],
    ['invalid UTF-8 in a character literal', Buffer.from(`${DEV} int g() { return '\xff'; }\n`, 'latin1'), 1],
    ['bytes \\xff\\xfe inside a device identifier', Buffer.from(`${DEV} int bad\xff\xfeident = 3;\n`, 'latin1'), 1],
    ['bytes \\xff\\xfe inside a host identifier', Buffer.from('int hbad\xff\xfeident = 3;\n', 'latin1'), 1],
    ['a valid U+FFFD in a string literal (cicc accepts it)', Buffer.from(`${DEV} const char *s = "ab\xef\xbf\xbdcd";\n`, 'latin1'), 0],
  ];
  for (const [name, tail, ciccCode] of undecided) {
    it(`${name}: never mode names the spot, default mode is cicc's answer in cicc's words`, () => {
      const v = variant(tail);
      const c = runCicc(v);
      expect(c.code).toBe(ciccCode);
      const never = runPtxd(v, 'never');
      expect(never.stderr).toMatch(/^\S*good\.cu: error: ptxd cannot compile this unit: (invalid multibyte character sequence|unrecognized token) at \S*good\.cu\(5\): invalid UTF-8 or a U\+FFFD/);
      expect(never.code).toBe(1);
      expect(never.ptx).toBe(false);
      const dflt = runPtxd(v, 'default');
      expect(dflt.stderr).toBe(c.stderr);
      expect(dflt.code).toBe(c.code);
      expect(dflt.ptx).toBe(c.code === 0);
    });
  }
});

// Code ptxd skips (host functions, declarations nothing uses) is not parsed, but a few shapes no valid unit has are
// found on the way (the skimmer's bracket pass): the unit falls back, so never mode writes no PTX and default mode
// gives cicc's answer in cicc's words.
describe.skipIf(skip !== undefined)(`malformed code ptxd does not parse falls back to cicc ${skip ?? ''}`, () => {
  const malformed: [string, string, RegExp][] = [
    ['an unmatched ( in a host function body', 'int hf(int x) { return (x + 1; }\n', /unmatched '\('/],
    ['an unmatched ] in a host function body', 'int hg(int *x) { return x[1]]; }\n', /unmatched '\]'/],
    ['a declaration cut off at the end of the file', 'struct HS { int a; }', /expected a ";"/],
    ['int int', 'int int hv;\n', /'int' twice/],
    ['static static', 'static static int hw;\n', /'static' twice/],
    ["'::' before ';'", 'int hq = ::;\n', /'::' before ';'/],
    ["',' twice in a parameter list", 'void hh(int a, , int b);\n', /',' twice/],
    ["'=' before ';'", 'int hz = ;\n', /'=' before ';'/],
    ['two number literals in a row', 'int hn = 1 1;\n', /two literals in a row/],
    ['__attribute__ with its parentheses swapped', 'void ha() __attribute__(()noinline);\n', /'__attribute__' without '\(\(' \.\.\. '\)\)'/],
  ];
  for (const [name, tail, reason] of malformed) {
    it(`${name}: never mode names it, default mode is cicc's answer`, () => {
      const v = variant(tail);
      const c = runCicc(v);
      expect(c.code).toBe(1);
      const never = runPtxd(v, 'never');
      expect(never.stderr).toMatch(new RegExp(`error: ptxd cannot compile this unit: malformed code cicc rejects: ${reason.source} at \\S*good\\.cu\\(5\\)`));
      expect(never.code).toBe(1);
      expect(never.ptx).toBe(false);
      const dflt = runPtxd(v, 'default');
      expect(dflt.stderr).toBe(c.stderr);
      expect(dflt.code).toBe(1);
      expect(dflt.ptx).toBe(false);
    });
  }
});

describe.skipIf(skip !== undefined)(`input cicc accepts is compiled by ptxd ${skip ?? ''}`, () => {
  const ok: [string, Buffer | string][] = [
    ['invalid UTF-8 in comments', Buffer.from('// comment \xff\xfe here\n/* block \xc3\x28 */\n', 'latin1')],
    ['line markers with flags, without a file, and a bare one at the end', '# 3 "a.cu" 1 3 4\nint zz;\n#line 7\nint yy;\n# 12'],
    ['constexpr recursion 511 calls deep (EDG folds it)', `__attribute__((host)) ${DEV} constexpr int f(int n) { return n == 0 ? 0 : 1 + f(n - 1); }\n${DEV} int cx() { constexpr int v = f(511); return v; }\n${KK('cx()')}`],
    ['class template recursion 150 deep', `template<int N> struct R { static constexpr int v = R<N-1>::v + 1; };\ntemplate<> struct R<0> { static constexpr int v = 0; };\n${DEV} int tr() { return R<150>::v; }\n${KK('tr()')}`],
    ['shapes next to the malformed ones: long long, const const, asm colons, [=], operator=;, empty attributes, strings',
      'long long hl = 1;\nconst const int hc = 2;\nstruct HB { HB &operator=(const HB &) = default; };\nstruct HD : HB { using HB::operator=; };\n'
      + 'void hs(int *p) { asm volatile("" ::: "memory"); asm("" :: "r"(*p)); auto f = [=] { return *p; }; *p = f(); }\n'
      + 'int hk __attribute__((unused,,aligned(8)));\nint hm [[maybe_unused,,]];\nconst char *hstr = "a" "b";\nint hp = ::abs(1);\nint HB::*hpm = nullptr;\n'],
    ['function template recursion 150 deep', `template<int N> ${DEV} int g() { return g<N-1>() + 1; }\ntemplate<> ${DEV} int g<0>() { return 0; }\n${KK('g<150>()')}`],
    ['200 nested parentheses', `${DEV} int deep(int x) { return ${'('.repeat(200)}x${')'.repeat(200)}; }\n${KK('deep(*o)')}`],
  ];
  for (const [name, tail] of ok) {
    it(name, () => {
      const v = variant(tail);
      const c = runCicc(v);
      expect(c.code).toBe(0);
      const p = runPtxd(v, 'never');
      expect(p.stderr).toBe('');
      expect(p.code).toBe(0);
      expect(p.ptx).toBe(true);
    });
  }
});

describe.skipIf(skip !== undefined)(`nesting deeper than ptxd takes is a named fallback, never an internal error ${skip ?? ''}`, () => {
  const deep: [string, string, RegExp][] = [
    ['100,000 nested parentheses', `${DEV} int deep(int x) { return ${'('.repeat(100_000)}x${')'.repeat(100_000)}; }\n${KK('deep(*o)')}`, /nested deeper than \d+ levels/],
    ['100,000 unary minus signs', `${DEV} int deep(int x) { return ${'- '.repeat(100_000)}x; }\n${KK('deep(*o)')}`, /nested deeper than \d+ levels/],
    ['100,000 nested blocks', `${DEV} int deep(int x) { ${'{'.repeat(100_000)}x++;${'}'.repeat(100_000)} return x; }\n${KK('deep(*o)')}`, /nested deeper than \d+ levels/],
    ['50,000-deep class template recursion', `template<int N> struct R { static constexpr int v = R<N-1>::v + 1; };\ntemplate<> struct R<0> { static constexpr int v = 0; };\n${DEV} int tr() { return R<50000>::v; }\n${KK('tr()')}`, /template instantiations of R nested deeper than \d+ levels/],
    ['50,000-deep variable template recursion', `template<int N> constexpr int V = V<N-1> + 1;\ntemplate<> constexpr int V<0> = 0;\n${DEV} int tr() { return V<50000>; }\n${KK('tr()')}`, /template instantiations of V nested deeper than \d+ levels/],
    ['function template recursion 300 deep (EDG stops at 200: "excessive recursion at instantiation of function")', `template<int N> ${DEV} int g() { return g<N-1>() + 1; }\ntemplate<> ${DEV} int g<0>() { return 0; }\n${KK('g<300>()')}`, /template instantiations of g nested deeper than \d+ levels/],
    ['constexpr recursion 512 calls deep (past EDG\'s limit)', `__attribute__((host)) ${DEV} constexpr int f(int n) { return n == 0 ? 0 : 1 + f(n - 1); }\n${DEV} int cx() { constexpr int v = f(512); return v; }\n${KK('cx()')}`, /constexpr evaluation nested deeper than 512 calls/],
  ];
  for (const [name, tail, reason] of deep) {
    it(name, () => {
      const v = variant(tail);
      const c = runCicc(v);
      const never = runPtxd(v, 'never');
      expect(never.stderr).not.toMatch(/internal error|Maximum call stack/);
      expect(never.stderr).toMatch(new RegExp(`error: ptxd cannot compile this unit: .*${reason.source}`));
      expect(never.code).toBe(1);
      expect(never.ptx).toBe(false);
      // default mode: the real cicc decides, and its answer is the build's
      const dflt = runPtxd(v, 'default');
      expect(dflt.code).toBe(c.code);
      expect(dflt.ptx).toBe(c.code === 0);
      expect(dflt.stderr).toBe(c.stderr);
    });
  }
});
