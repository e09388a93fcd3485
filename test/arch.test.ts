// The architecture check (scripts/lint-arch.js, `npm run lint:arch`): the repository has no import cycle, no
// forbidden arrow between rooms, no over-long file or function; and the checker itself, on small synthetic trees,
// finds each kind of violation (and leaves alone what the rules allow).
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RULES, checkArchitecture, formatViolation } from '../scripts/lint-arch';
import { REPO_ROOT, mkTempDir } from './helpers/tools';

/** A tree of the given files (path → text) in a fresh temp directory. */
function tree(files: Record<string, string>): string {
  const root = mkTempDir('arch');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** A function whose span is exactly `lines` lines. */
function fnOfLines(name: string, lines: number): string {
  return `export function ${name}(): number {\n${'  let x = 1;\n'.repeat(lines - 3)}  return 1;\n}\n`;
}

const found = (root: string): string[] => checkArchitecture(root).map(formatViolation);

describe('architecture of this repository (docs/ARCHITECTURE.md)', () => {
  it('no import cycle, no forbidden arrow, no file over 1,200 lines, no function over 150 lines', () => {
    expect(checkArchitecture(REPO_ROOT).map(formatViolation)).toEqual([]);
  });
});

describe('the checker on synthetic trees', () => {
  it('finds an import cycle, type-only imports included, with the file and line of each step', () => {
    const root = tree({
      'compiler/middle/a.ts': `// a\nimport type { B } from './b';\nexport interface A { b?: B }\n`,
      'compiler/middle/b.ts': `import { c } from './c';\nexport interface B { n: number }\nexport const b = c;\n`,
      'compiler/middle/c.ts': `\n\nimport type { A } from './a';\nexport const c: A | 1 = 1;\n`,
      'compiler/middle/d.ts': `import { b } from './b';\nexport const d = b;\n`,
    });
    expect(found(root)).toEqual([
      'compiler/middle/a.ts:2: cycle: import cycle compiler/middle/a.ts:2 -> compiler/middle/b.ts:1 -> compiler/middle/c.ts:3 -> compiler/middle/a.ts',
    ]);
  });

  it('finds require() and import() cycles and a module importing itself', () => {
    const root = tree({
      'daemon/p.ts': `export function p(): unknown { return require('./q'); }\n`,
      'daemon/q.ts': `export async function q(): Promise<unknown> { return import('./p'); }\n`,
      'daemon/self.ts': `export { s } from './self';\nexport const t = 1;\n`,
    });
    expect(found(root)).toEqual([
      'daemon/p.ts:1: cycle: import cycle daemon/p.ts:1 -> daemon/q.ts:1 -> daemon/p.ts',
      'daemon/self.ts:1: cycle: import cycle daemon/self.ts:1 -> daemon/self.ts',
    ]);
  });

  it('finds a function over 150 lines (nested functions inside its span) and a file over 1,200 lines', () => {
    const root = tree({
      'compiler/frontend/long.ts': `// long\n${fnOfLines('ok', 150)}${fnOfLines('tooLong', 151)}`,
      'client/nested.ts': `export const outer = () => {\n  function inner(): void {\n${'    void 0;\n'.repeat(148)}  }\n  inner();\n};\n`,
      'protocol/big.ts': `${'export const x0 = 0;\n'}${'// filler\n'.repeat(1200)}`,
      'protocol/fits.ts': '// filler\n'.repeat(1200),
    });
    expect(found(root)).toEqual([
      'protocol/big.ts:1: file-size: 1201 lines (at most 1200)',
      'client/nested.ts:1: function-size: function outer is 153 lines (at most 150)',
      'compiler/frontend/long.ts:152: function-size: function tooLong is 151 lines (at most 150)',
    ]);
  });

  it('finds forbidden arrows between rooms and leaves the allowed ones alone', () => {
    const root = tree({
      'compiler/options.ts': `import type { D } from './diagnostics';\nexport type O = D;\n`,
      'compiler/diagnostics.ts': `export type D = string;\n`,
      'compiler/compile.ts': `export const compile = 1;\n`,
      'compiler/index.ts': `export { compile } from './compile';\n`,
      'compiler/frontend/parse.ts': `import type { O } from '../options';\nimport { ir } from '../middle/ir';\nimport { emit } from '../backend/emit';\nexport const p: O | number = ir + emit;\n`,
      'compiler/middle/ir.ts': `export const ir = 1;\n`,
      'compiler/middle/passes/licm.ts': `import { cfg } from '../analysis/cfg';\nexport const licm = cfg;\n`,
      'compiler/middle/analysis/cfg.ts': `import { ir } from '../ir';\nexport const cfg = ir;\n`,
      'compiler/middle/analysis/bad.ts': `import { licm } from '../passes/licm';\nexport const bad = licm;\n`,
      'compiler/backend/emit.ts': `import { ir } from '../middle/ir';\nimport { cfg } from '../middle/analysis/cfg';\nimport { licm } from '../middle/passes/licm';\nexport const emit = ir + cfg + licm;\n`,
      'compiler/incremental/incr.ts': `import { compile } from '../compile';\nexport const incr = compile;\n`,
      'daemon/server.ts': `import { compile } from '../compiler/index';\nimport { msg } from '../protocol/messages';\nimport { run } from '../cicc/run';\nimport type { Cli } from '../client/cli';\nexport const s: Cli | number = compile + msg + run;\n`,
      'client/cli.ts': `import { msg } from '../protocol/messages';\nexport type Cli = typeof msg;\nexport const paths = () => require('../daemon/paths');\n`,
      'daemon/paths.ts': `export const home = 1;\n`,
      'protocol/messages.ts': `export const msg = 1;\n`,
      'cicc/run.ts': `import { msg } from '../protocol/messages';\nexport const run = msg;\n`,
    });
    const why = (from: string): string => RULES.arrows.find(a => a.from.includes(from))!.why;
    expect(found(root)).toEqual([
      `client/cli.ts:3: arrow: imports daemon/paths.ts: ${why('client/')}`,
      `compiler/backend/emit.ts:3: arrow: imports compiler/middle/passes/licm.ts: ${why('compiler/backend/')}`,
      `compiler/frontend/parse.ts:3: arrow: imports compiler/backend/emit.ts: ${why('compiler/frontend/')}`,
      `compiler/incremental/incr.ts:1: arrow: imports compiler/compile.ts: ${why('compiler/incremental/')}`,
      `compiler/middle/analysis/bad.ts:1: arrow: imports compiler/middle/passes/licm.ts: ${why('compiler/middle/analysis/')}`,
      `compiler/options.ts:1: arrow: imports compiler/diagnostics.ts: ${why('compiler/options.ts')}`,
      `daemon/server.ts:4: arrow: imports client/cli.ts: ${why('daemon/')}`,
    ]);
  });

  it('a rule marked off is not enforced; an edited table is', () => {
    const root = tree({ 'daemon/a.ts': `import { c } from '../compiler/middle/ir';\nexport const a = c;\n`, 'compiler/middle/ir.ts': 'export const c = 1;\n' });
    const rule = { from: ['daemon/'], to: ['compiler/'], except: ['compiler/index.ts'], why: 'through the entry only' };
    expect(checkArchitecture(root, { ...RULES, arrows: [{ ...rule, off: true }] }).map(formatViolation)).toEqual([]);
    expect(checkArchitecture(root, { ...RULES, arrows: [rule] }).map(formatViolation)).toEqual([
      'daemon/a.ts:1: arrow: imports compiler/middle/ir.ts: through the entry only',
    ]);
  });
});
