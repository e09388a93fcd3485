// Which test programs each deliberate backend bug (compiler/backend/mutations.ts) changes, and on how many of
// them the differential harness (test/diff/) reports a difference from the real cicc. A mutation that changes
// many programs and is caught on none means the emulator cannot see that kind of miscompile.
//
// A program is compiled with a mutation only when its clean PTX holds an instruction the mutation rewrites
// (the trigger below); programs whose spec is a known gap, miscompile or compile-only are left out.
//
// Usage: node dist/bench/mutation-scan.js [--only mutation,mutation] [--programs regexp] [--json file]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, skipReason } from '../test/helpers/tools';
import { SPECS } from '../test/diff/specs';
import { compileWithPtxd, differential } from '../test/diff/harness';
import { TEST_MUTATIONS } from '../compiler/backend/mutations';

/** PTX text a mutation rewrites (a program without it cannot change). */
const TRIGGER: Record<string, RegExp> = {
  'cmp-lt-le': /\tsetp\.lt\.[su](16|32|64)\b/,
  'addr-off-by-one': /\t(ld|st)(\.global|\.shared)?(\.nc)?\.[bsu](32|64)\s[^;]*\[%\w+\+\d+\]/,
  'drop-barrier': /\t(bar|barrier)\.sync\b/,
  'round-rz': /\t(add|sub|mul|fma)(\.rn)?(\.ftz)?\.f32\b/,
  'div-approx': /\tdiv\.rn(\.ftz)?\.f32\b/,
  'div-rz': /\tdiv\.rn(\.ftz)?\.f(32|64)\b/,
  'rcp-approx': /\trcp\.rn(\.ftz)?\.f(32|64)\b/,
  'sqrt-approx': /\tsqrt\.rn(\.ftz)?\.f32\b/,
  'cvt-rz': /\tcvt\.rn(\.ftz)?(\.sat)?\.f(32|64)\./,
  'f64-rz': /\t(add|sub|mul|fma)\.rn\.f64\b/,
};

interface Row { mutation: string; changed: string[]; caught: string[]; missed: string[]; cleanDiffers: string[] }

function main(): void {
  const skip = skipReason('nvcc');
  if (skip) { console.log(`mutation-scan ${skip}`); return; }
  const args = process.argv.slice(2);
  const opt = (n: string) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : undefined; };
  const only = opt('--only')?.split(',') ?? [...TEST_MUTATIONS];
  const progRe = new RegExp(opt('--programs') ?? '.');
  const jsonOut = opt('--json') ?? path.join(REPO_ROOT, 'bench/results/mutation-scan.json');
  const specs = SPECS.filter(s => !s.gap && !s.miscompile && !s.compileOnly && progRe.test(s.name));
  const rows: Row[] = only.map(m => ({ mutation: m, changed: [], caught: [], missed: [], cleanDiffers: [] }));
  for (const spec of specs) {
    const clean = compileWithPtxd(spec.name);
    if (!clean.ok) continue;
    let cleanOk: boolean | undefined;   // the unmutated program agrees with cicc (asked once, when needed)
    for (const row of rows) {
      if (!TRIGGER[row.mutation]!.test(clean.ptx)) continue;
      const bad = compileWithPtxd(spec.name, row.mutation);
      if (!bad.ok || bad.ptx === clean.ptx) continue;
      cleanOk ??= differential(spec).mismatches.length === 0;
      if (!cleanOk) { row.cleanDiffers.push(spec.name); continue; }
      row.changed.push(spec.name);
      let caught: boolean;
      try { caught = differential(spec, row.mutation).mismatches.length > 0; } catch { caught = true; }
      (caught ? row.caught : row.missed).push(spec.name);
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  console.log(`${'mutation'.padEnd(18)} ${'changed'.padStart(8)} ${'caught'.padStart(7)}  missed on`);
  for (const r of rows) console.log(`${r.mutation.padEnd(18)} ${String(r.changed.length).padStart(8)} ${String(r.caught.length).padStart(7)}  ${r.missed.join(' ')}`);
  const unclean = [...new Set(rows.flatMap(r => r.cleanDiffers))];
  if (unclean.length) console.log(`left out (the unmutated program already differs from cicc): ${unclean.join(' ')}`);
  fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
  fs.writeFileSync(jsonOut, JSON.stringify({ programs: specs.length, rows }, null, 2) + '\n');
}

main();
