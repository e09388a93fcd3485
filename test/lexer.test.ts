// Tests for compiler/frontend/lexer.ts: token kinds, spellings, lines/files from line markers, pragmas,
// literals, punctuators, and error recovery (never throws).
import { describe, it, expect } from 'vitest';
import { lex, tokText, internId, preId, PRE_INTERNED, PUNCTUATORS } from '../compiler/frontend/lexer';
import { Tok } from '../compiler/frontend/tokens';
import type { Tokens } from '../compiler/frontend/tokens';

const texts = (t: Tokens): string[] => Array.from({ length: t.count }, (_, i) => tokText(t, i));
const kinds = (t: Tokens): number[] => Array.from(t.kind.subarray(0, t.count));

describe('lexer basics', () => {
  it('lexes identifiers, numbers and punctuators', () => {
    const t = lex('int x = a->*b + c::d ... <=> >>= <<= >> -> .* ## #;');
    expect(texts(t)).toEqual(['int', 'x', '=', 'a', '->*', 'b', '+', 'c', '::', 'd', '...', '<=>', '>>=', '<<=', '>>', '->', '.*', '##', '#', ';']);
    expect(t.kind[0]).toBe(Tok.Ident);
    expect(t.kind[2]).toBe(Tok.Punct);
    expect(t.kind[t.count]).toBe(Tok.EOF);
    expect(t.errors).toEqual([]);
  });

  it('uses longest match for all punctuators', () => {
    for (const p of PUNCTUATORS) {
      const t = lex(`a ${p} b`);
      expect(texts(t), p).toEqual(['a', p, 'b']);
      expect(t.kind[1]).toBe(Tok.Punct);
      expect(t.names[t.id[1]]).toBe(p);
    }
  });

  it('interns identifiers and punctuators; pre-interned ids are fixed', () => {
    const t = lex('foo bar foo int ( ( >>');
    expect(t.id[0]).toBe(t.id[2]);
    expect(t.id[0]).not.toBe(t.id[1]);
    expect(t.names[t.id[0]]).toBe('foo');
    expect(internId(t, 'foo')).toBe(t.id[0]);
    expect(internId(t, 'never_seen')).toBe(-1);
    expect(t.id[3]).toBe(preId('int'));
    expect(internId(t, 'int')).toBe(preId('int'));
    expect(t.id[4]).toBe(preId('('));
    expect(t.id[6]).toBe(preId('>>'));
    expect(preId('while')).toBeGreaterThanOrEqual(0);
    expect(PRE_INTERNED[preId('while')]).toBe('while');
    // another unit: same fixed ids
    const u = lex('while int');
    expect(u.id[0]).toBe(preId('while'));
    expect(u.id[1]).toBe(t.id[3]);
    // non-ident/punct tokens have id -1
    expect(lex('1 "s" \'c\'').id.subarray(0, 3)).toEqual(new Int32Array([-1, -1, -1]));
  });

  it('lexes >> as one token and records spaceBefore for > >', () => {
    const t = lex('A<B<int>> x; A<B<int> > y;');
    const tx = texts(t);
    expect(tx).toEqual(['A', '<', 'B', '<', 'int', '>>', 'x', ';', 'A', '<', 'B', '<', 'int', '>', '>', 'y', ';']);
    expect(t.spaceBefore[14]).toBe(1);
    expect(t.spaceBefore[13]).toBe(0);
  });

  it('lexes numbers', () => {
    const nums = ['0', '123', '0x1F', '0X1fULL', '017', '0b1010', '1\'000\'000', '10u', '10ul', '10LL', '1.5f', '1.e-5f',
      '.5', '1e10', '1E+10', '0x1.8p3', '0x1p-2f', '3.14159265358979L', '42_km', '0x1.fffffeP+127F'];
    for (const s of nums) {
      const t = lex(`x = ${s};`);
      expect(texts(t), s).toEqual(['x', '=', s, ';']);
      expect(t.kind[2], s).toBe(Tok.Number);
    }
    expect(texts(lex('a.b 1.f x.5'))).toEqual(['a', '.', 'b', '1.f', 'x', '.5']);
    expect(texts(lex('1+2-3'))).toEqual(['1', '+', '2', '-', '3']);
  });

  it('lexes char and string literals with prefixes and escapes', () => {
    const src = String.raw`'a' '\'' '\n' L'x' u'y' U'z' u8'q' "s\"t" L"w" u"x" U"y" u8"z" "a\\" "x"_s`;
    const t = lex(src);
    expect(texts(t)).toEqual(["'a'", "'\\''", "'\\n'", "L'x'", "u'y'", "U'z'", "u8'q'", '"s\\"t"', 'L"w"', 'u"x"', 'U"y"', 'u8"z"', '"a\\\\"', '"x"_s']);
    expect(kinds(t)).toEqual([3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4]);
    // identifiers that merely look like prefixes
    expect(texts(lex('L u U u8 R x'))).toEqual(['L', 'u', 'U', 'u8', 'R', 'x']);
    expect(kinds(lex('Lx"s"'))).toEqual([Tok.Ident, Tok.String]);
  });

  it('lexes raw strings, tracking lines inside them', () => {
    const src = 'a R"(x")y)" b R"xy(line1\n)" still\n)xy" c u8R"(z)" LR"(w)"\nd';
    const t = lex(src);
    expect(texts(t)).toEqual(['a', 'R"(x")y)"', 'b', 'R"xy(line1\n)" still\n)xy"', 'c', 'u8R"(z)"', 'LR"(w)"', 'd']);
    expect(t.kind[1]).toBe(Tok.String);
    expect(t.kind[3]).toBe(Tok.String);
    expect(t.line[3]).toBe(1);
    expect(t.line[4]).toBe(3);
    expect(t.line[7]).toBe(4);
  });

  it('skips comments and counts their lines', () => {
    const t = lex('a // c1 /* not\nb /* x\ny\n*/ c /**/d');
    expect(texts(t)).toEqual(['a', 'b', 'c', 'd']);
    expect(Array.from(t.line.subarray(0, 4))).toEqual([1, 2, 4, 4]);
    expect(t.spaceBefore[3]).toBe(1);
  });
});

describe('line markers and directives', () => {
  it('sets file and line from # N "file" markers and #line', () => {
    const src = [
      '# 1 "k.cu"',            // line 1
      '# 1 "<built-in>" 1',
      'a',                     // <built-in>:1
      '# 10 "/usr/include/x.h" 1 3 4',
      'b',                     // x.h:10
      '',
      'c d',                   // x.h:12
      '# 3 "k.cu" 2',
      'e',                     // k.cu:3
      '#line 100 "other.cu"',
      'f',                     // other.cu:100
      '#line 7',
      'g',                     // other.cu:7
    ].join('\n');
    const t = lex(src);
    expect(texts(t)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const where = (i: number): string => `${t.files[t.file[i]]}:${t.line[i]}`;
    expect([0, 1, 2, 3, 4, 5, 6].map(where)).toEqual(['<built-in>:1', '/usr/include/x.h:10', '/usr/include/x.h:12',
      '/usr/include/x.h:12', 'k.cu:3', 'other.cu:100', 'other.cu:7']);
    expect(t.files).toContain('k.cu');
    expect(t.errors).toEqual([]);
  });

  it('keeps #pragma lines as single Pragma tokens and skips other directives', () => {
    const src = '# 5 "k.cu"\nint a;\n#pragma unroll 4\n  #  pragma nv_diag_suppress 20199\r\n#ident "x"\n#\nfor';
    const t = lex(src);
    expect(texts(t)).toEqual(['int', 'a', ';', 'pragma unroll 4', 'pragma nv_diag_suppress 20199', 'for']);
    expect(t.kind[3]).toBe(Tok.Pragma);
    expect(t.kind[4]).toBe(Tok.Pragma);
    expect(t.id[3]).toBe(-1);
    expect(t.line[3]).toBe(6);
    expect(t.line[4]).toBe(7);
    expect(t.line[5]).toBe(10);
  });

  it('treats # that does not start a line as a punctuator', () => {
    expect(texts(lex('a # b'))).toEqual(['a', '#', 'b']);
    expect(kinds(lex('a # b'))[1]).toBe(Tok.Punct);
  });
});

describe('errors never throw', () => {
  it('reports unterminated literals and comments, stray characters', () => {
    const t1 = lex('a "abc\nb');
    expect(t1.errors.length).toBe(1);
    expect(t1.errors[0].message).toMatch(/terminating/);
    expect(texts(t1)).toEqual(['a', '"abc', 'b']);
    expect(t1.line[2]).toBe(2);
    const t2 = lex("x 'c");
    expect(t2.errors.length).toBe(1);
    const t3 = lex('x /* never closed\n\n');
    expect(t3.errors[0].message).toMatch(/comment/);
    expect(texts(t3)).toEqual(['x']);
    const t4 = lex('a @ b ` c');
    expect(t4.errors.length).toBe(2);
    expect(texts(t4)).toEqual(['a', 'b', 'c']);
    const t5 = lex('R"abc');
    expect(t5.errors.length).toBeGreaterThan(0);
    const t6 = lex('R"x(never');
    expect(t6.errors.length).toBe(1);
  });

  it('survives arbitrary input', () => {
    let seed = 12345;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed; };
    const alphabet = 'ab1_ .\'"\\\n#/*<>=R(){}[];:xu8LpPe+-\t\r@$~`\u00e9';
    for (let k = 0; k < 300; k++) {
      let s = '';
      const len = rnd() % 200;
      for (let j = 0; j < len; j++) s += alphabet[rnd() % alphabet.length];
      const t = lex(s);
      expect(t.kind[t.count]).toBe(Tok.EOF);
      for (let i = 0; i < t.count; i++) {
        expect(t.end[i]).toBeGreaterThan(t.start[i]);
        if (i > 0) expect(t.start[i]).toBeGreaterThanOrEqual(t.end[i - 1]);
      }
    }
  });

  it('grows its arrays for long inputs', () => {
    const src = 'a+b;'.repeat(100000);
    const t = lex(src);
    expect(t.count).toBe(400000);
    expect(tokText(t, 399999)).toBe(';');
    expect(t.line[399999]).toBe(1);
  });
});
