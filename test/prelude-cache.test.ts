// Prelude reuse (compiler/frontend/prelude.ts) never changes an output: every program in test/kernels/,
// as the real nvcc hands it to cicc, compiles to byte-identical PTX, stub and diagnostics cold and through
// a warm PreludeCache (warmed by other units, by the same unit, in shuffled order, with evictions); and
// the resumed lex and skim equal a clean lex and skim, token by token and declaration by declaration.

import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileUnit, type CompileResult } from '../compiler/compile';
import type { CompileOptions } from '../compiler/options';
import { lex, type TokensWithErrors } from '../compiler/frontend/lexer';
import { skim } from '../compiler/frontend/skim';
import { PreludeCache } from '../compiler/frontend/prelude';
import type { Index } from '../compiler/frontend/index-types';
import { KERNELS_DIR, LONG, prepareUnits, skipReason, unitOptions } from './helpers/tools';
import { shuffled } from './helpers/shuffle';

process.env.PTXD_FALLBACK = 'never';

interface Unit { name: string; src: string; opts: CompileOptions }

/** The outputs that must not depend on the cache (not the phase times). */
function outputs(r: CompileResult): object {
  return { ok: r.ok, ptx: r.ptx, stub: r.stub, diagnostics: r.diagnostics, unsupported: r.unsupported };
}

function tokensView(t: TokensWithErrors): object {
  const n = t.count + 1; // with the EOF token
  return {
    count: t.count, src: t.src, files: t.files, names: t.names, errors: t.errors,
    kind: Array.from(t.kind.subarray(0, n)), start: Array.from(t.start.subarray(0, n)), end: Array.from(t.end.subarray(0, n)),
    id: Array.from(t.id.subarray(0, n)), line: Array.from(t.line.subarray(0, n)), file: Array.from(t.file.subarray(0, n)),
    spaceBefore: Array.from(t.spaceBefore.subarray(0, n)),
  };
}

function indexView(x: Index): object {
  return {
    decls: x.decls.map(d => ({ ...d })), errors: x.errors,
    byName: [...x.byName.entries()], namespaces: [...(x.namespaces ?? new Map()).entries()],
  };
}

const skip = skipReason('nvcc');
const ARCH = 90;
/** A few programs also for another arch (its headers preprocess differently). */
const OTHER_ARCH = 75;
const OTHER_ARCH_PROGRAMS = ['saxpy.cu', 'prelude_std.cu', 'printf.cu', 'matmul_tiled.cu'];

describe.skipIf(skip !== undefined)(`prelude cache: outputs identical cold and warm ${skip ?? ''}`, () => {
  const units: Unit[] = [];
  const cold = new Map<string, object>();

  beforeAll(() => {
    const programs = fs.readdirSync(KERNELS_DIR).filter(f => f.endsWith('.cu')).sort();
    for (const p of programs) {
      const archs = OTHER_ARCH_PROGRAMS.includes(p) ? [ARCH, OTHER_ARCH] : [ARCH];
      const prepared = prepareUnits(path.join(KERNELS_DIR, p), archs);
      for (const a of archs) {
        const u = prepared.get(a)!;
        units.push({ name: `${p}@${a}`, src: fs.readFileSync(u.ii, 'utf8'), opts: unitOptions(u) });
      }
    }
    for (const u of units) cold.set(u.name, outputs(compileUnit(u.src, u.opts)));
  });

  /** Every unit with PTXD_LONG=1, else every third one (the cold and in-order checks always cover all). */
  const sample = (): Unit[] => LONG ? units : units.filter((_, i) => i % 3 === 0);

  it('covers every program', () => {
    expect(units.length).toBeGreaterThanOrEqual(40);
    // Most compile: a cache that broke compiles would show as a difference below, not as all-failed.
    expect([...cold.values()].filter(r => (r as { ok: boolean }).ok).length).toBeGreaterThan(units.length / 2);
  });

  it('warmed by other units, in order: identical, and the prelude is reused', () => {
    const cache = new PreludeCache();
    const empty = units.find(u => u.name === `prelude_empty.cu@${ARCH}`)!;
    compileUnit(empty.src, empty.opts, { prelude: cache });
    const before = cache.stats();
    for (const u of units) expect(outputs(compileUnit(u.src, u.opts, { prelude: cache })), u.name).toEqual(cold.get(u.name));
    const s = cache.stats();
    // Every unit after the first found a cached prefix, and most of the 1.3 MB headers came from it.
    expect(s.hits - before.hits).toBe(units.length);
    expect((s.reusedChars - before.reusedChars) / units.length).toBeGreaterThan(1_000_000);
  });

  it('warmed by the same unit: identical', () => {
    for (const u of sample()) {
      const cache = new PreludeCache();
      const first = outputs(compileUnit(u.src, u.opts, { prelude: cache }));
      const second = outputs(compileUnit(u.src, u.opts, { prelude: cache }));
      expect(first, u.name).toEqual(cold.get(u.name));
      expect(second, u.name).toEqual(cold.get(u.name));
      expect(cache.stats().hits, u.name).toBe(1);
    }
  });

  it('shuffled order, small cache with evictions, fine checkpoints: identical', () => {
    for (const seed of [7, 1234]) {
      const cache = new PreludeCache({ maxEntries: 2, spacing: 2048, minGain: 1024 });
      for (const u of shuffled([...sample(), ...sample()], seed)) {
        expect(outputs(compileUnit(u.src, u.opts, { prelude: cache })), `${u.name} seed ${seed}`).toEqual(cold.get(u.name));
      }
      expect(cache.stats().evicted).toBeGreaterThan(0);
    }
  });

  it('resumed tokens and index equal a clean lex and skim', () => {
    const names = [`saxpy.cu@${ARCH}`, `prelude_std.cu@${ARCH}`, `printf.cu@${OTHER_ARCH}`, `matmul_tiled.cu@${ARCH}`];
    const pick = (n: string) => units.find(u => u.name === n)!;
    for (const [warm, target] of [[names[1], names[0]], [names[0], names[1]], [names[3], names[3]], [names[0], names[2]]]) {
      const cache = new PreludeCache({ spacing: 4096 });
      const w = cache.lex(pick(warm).src);
      cache.skim(w);
      const t = pick(target).src;
      const lexed = cache.lex(t);
      expect(cache.stats().hits, `${warm} → ${target}`).toBe(1);
      const index = cache.skim(lexed);
      const clean = lex(t);
      expect(tokensView(lexed.tokens), `${warm} → ${target}`).toEqual(tokensView(clean));
      expect(indexView(index), `${warm} → ${target}`).toEqual(indexView(skim(clean)));
    }
  });
});

/** A synthetic unit: nvcc's main-file marker, then a long prefix with the constructs a cut must respect. */
function synth(main: string, suffix: string): string {
  const parts = [`# 0 "${main}"\n# 1 "/inc/a.h" 1\n`];
  for (let k = 0; k < 60; k++) {
    parts.push(
      `namespace ns${k % 3} { inline namespace v${k % 2} {\n`,
      `/* a comment\n   over lines */ template <class T, int N = (3 > 2)> struct S${k} { T x[N]; int f() { return ${k}; } };\n`,
      `#pragma once_${k}\n`,
      `  const char *r${k} = R"d(raw\n text ${k})d";\n`,
      `int v${k} = 1 + \\\n 2;\n`,
      `}\n}\n`,
      `extern "C" { int c${k}(int); }\n`,
      `# ${k + 10} "/inc/b${k % 4}.h" 1\n`,
      `enum E${k} { e${k}a, e${k}b = ${k} };\n`,
      `typedef struct { int q; } T${k}; using U${k} = T${k};\n`,
    );
  }
  parts.push(`# 1 "${main}" 2\n`, suffix);
  return parts.join('');
}

describe('prelude cache on synthetic units (no nvcc)', () => {
  const suffixes = [
    'namespace ns0 { int tail; }\n__attribute__((global)) void k(int *p) { p[0] = 1; }\n',
    'namespace ns1 { struct Z { int a; }; \n', // unclosed namespace
    'int a = (1 + ; } } ]\n"unterminated\n/* open comment',  // lexical and structural errors
    '',
  ];
  it('resumed lex and skim equal clean ones, whatever the suffix and main file name', () => {
    for (const warmMain of ['/w/one.cu', '/w/a-much-longer-name-for-the-main-file.cu']) {
      for (const main of ['/w/one.cu', '/w/two.cu']) {
        for (const suf of suffixes) {
          const cache = new PreludeCache({ spacing: 300, minGain: 0 });
          cache.skim(cache.lex(synth(warmMain, suffixes[0])));
          const text = synth(main, suf);
          const lexed = cache.lex(text);
          expect(cache.stats().hits).toBe(1);
          expect(cache.stats().reusedChars).toBeGreaterThan(text.length / 2);
          const index = cache.skim(lexed);
          const clean = lex(text);
          const what = `${warmMain} → ${main} + ${JSON.stringify(suf.slice(0, 20))}`;
          expect(tokensView(lexed.tokens), what).toEqual(tokensView(clean));
          expect(indexView(index), what).toEqual(indexView(skim(clean)));
        }
      }
    }
  });

  it('a cut never goes past a later mention of either unit\'s main file', () => {
    // Both units have the same text after the first line, with a marker in the middle naming one of the two
    // main files: a clean lex maps that marker to file 0 in one unit and to a new file in the other.
    const mid = '# 30 "/inc/b0.h" 1\n';
    for (const named of ['/w/one.cu', '/w/two.cu']) {
      const cache = new PreludeCache({ spacing: 300, minGain: 0 });
      cache.skim(cache.lex(synth('/w/one.cu', suffixes[0]).replace(mid, `# 30 "${named}" 1\n`)));
      const text = synth('/w/two.cu', suffixes[0]).replace(mid, `# 30 "${named}" 1\n`);
      const lexed = cache.lex(text);
      expect(cache.stats().hits).toBe(1);
      expect(cache.stats().reusedChars).toBeLessThan(text.indexOf(`# 30 "${named}"`) + 1);
      const clean = lex(text);
      expect(tokensView(lexed.tokens), named).toEqual(tokensView(clean));
      expect(indexView(cache.skim(lexed)), named).toEqual(indexView(skim(clean)));
    }
  });

  it('released lexes lend their arrays to the next: every resumed lex and skim still equals a clean one', () => {
    // cuts at the last checkpoint, at an earlier one (an edit in the middle), at the last again (the lent arrays
    // hold less of the prefix than needed), with the prefix shifted (a longer main-file name), and with errors
    const edit = (t: string): string => t.replace('int v20 = 1', 'int v20 = (7 + 1) * 1');
    const texts = [
      synth('/w/one.cu', suffixes[1]), synth('/w/one.cu', suffixes[0]), edit(synth('/w/one.cu', suffixes[0])),
      synth('/w/one.cu', suffixes[3]), synth('/w/a-much-longer-name-for-the-main-file.cu', suffixes[0]),
      synth('/w/one.cu', suffixes[2]), edit(synth('/w/two.cu', suffixes[1])), synth('/w/two.cu', suffixes[0]),
    ];
    // only the warming unit is remembered, so that every lex resumes from its entry
    const cache = new PreludeCache({ spacing: 300, minGain: Math.floor(texts[0]!.length * 0.75) });
    cache.skim(cache.lex(synth('/w/one.cu', suffixes[0])));
    let earlier = 0, reused = cache.stats().reusedChars;
    for (let round = 0; round < 2; round++) {
      for (const [k, text] of texts.entries()) {
        const what = `round ${round}, text ${k}`;
        const lexed = cache.lex(text);
        const clean = lex(text);
        expect(tokensView(lexed.tokens), what).toEqual(tokensView(clean));
        const index = cache.skim(lexed), cleanIndex = skim(clean);
        expect(indexView(index), what).toEqual(indexView(cleanIndex));
        expect(index.byName.size, what).toBe(cleanIndex.byName.size);
        for (const name of cleanIndex.byName.keys()) expect(index.byName.get(name), `${what}: ${name}`).toEqual(cleanIndex.byName.get(name));
        expect(index.byName.get('no such name'), what).toBeUndefined();
        if (cache.stats().reusedChars - reused < text.length * 0.6) earlier++;
        reused = cache.stats().reusedChars;
        cache.release(lexed);
      }
    }
    expect(cache.stats().hits).toBe(2 * texts.length);
    expect(cache.stats().entries).toBe(1);
    expect(earlier, 'some cuts are in the middle').toBeGreaterThan(0);
  });

  it('lent arrays count in what the cache holds, and only the unit compiled last keeps them', () => {
    // two units with different headers from the first line on: two entries, no prefix shared
    const one = (suffix: string): string => synth('/w/one.cu', suffix);
    const two = (suffix: string): string => synth('/w/two.cu', suffix).replace('# 1 "/inc/a.h" 1\n', '# 1 "/inc/other.h" 1\nint other_header;\n');
    // each unit's first compile is remembered, none after it (they reuse nearly all of it)
    const cache = new PreludeCache({ spacing: 300, minGain: Math.floor(one('').length * 0.75) });
    const compile = (text: string) => { const l = cache.lex(text); cache.skim(l); cache.release(l); return l.tokens; };
    compile(one(suffixes[0]!));
    compile(two(suffixes[0]!));
    expect(cache.stats().entries).toBe(2);
    const bare = cache.held().bytes;
    const lent = compile(one(suffixes[3]!));
    // the arrays of the lex just released (kind, start, end, id, line, file, spaceBefore: 20 bytes a token) are held
    expect(cache.held().bytes - bare).toBeGreaterThanOrEqual(lent.kind.length * 20);
    expect(cache.stats().bytes).toBe(cache.held().bytes);
    expect(cache.stats().entries).toBe(2);
    // the next lex of that unit writes into them
    const again = compile(one(suffixes[0]!));
    expect(again.kind).toBe(lent.kind);
    // a lex of the other unit takes them from the first unit's entry: a later lex of it allocates its own
    compile(two(suffixes[3]!));
    const after = compile(one(suffixes[0]!));
    expect(after.kind).not.toBe(again.kind);
    expect(tokensView(after), 'the arrays of a fresh lex').toEqual(tokensView(lex(one(suffixes[0]!))));
  });
});
