// The function pipeline (compiler/middle/passes.ts) does not run a pass again while nothing has changed since
// it last reported no change. That is sound only if "no change" is true: a pass that answers false must have
// left the function exactly as it was. Checked here on the IR of real test programs (real nvcc front half),
// for every pass the pipeline runs, in the pipeline's order, by a structural fingerprint of the function.
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Func, Value } from '../compiler/middle/ir';
import type { CompileOptions } from '../compiler/options';
import { lex } from '../compiler/frontend/lexer';
import { skim } from '../compiler/frontend/skim';
import { generateIR } from '../compiler/frontend/irgen';
import { instCombine } from '../compiler/middle/passes/instcombine';
import { instSimplifyReport } from '../compiler/middle/passes/instsimplify';
import { cse } from '../compiler/middle/passes/cse';
import { dce } from '../compiler/middle/passes/dce';
import { overwrittenStores } from '../compiler/middle/passes/dse';
import { simplifyCFG } from '../compiler/middle/passes/simplifycfg';
import { formSelects } from '../compiler/middle/passes/select';
import { sroa, speculatePtrLoads } from '../compiler/middle/passes/sroa';
import { mem2reg } from '../compiler/middle/passes/mem2reg';
import { unrollLoops } from '../compiler/middle/passes/unroll';
import { inferAddressSpaces } from '../compiler/middle/passes/addrspace';
import { licm } from '../compiler/middle/passes/licm';
import { propagateEqualities } from '../compiler/middle/passes/equality';
import { rotateLoops } from '../compiler/middle/passes/rotate';
import { runtimeUnroll } from '../compiler/middle/passes/runtime-unroll';
import { strengthReduce } from '../compiler/middle/passes/lsr';
import { expandRemainders } from '../compiler/middle/passes/remainders';
import { separateConstOffsets } from '../compiler/middle/passes/constoffset';
import { hasTool, prepareUnit, unitOptions } from './helpers/tools';

type Pass = [string, (f: Func, o: CompileOptions) => boolean | 'swapped'];
const SCALAR: Pass[] = [
  ['instCombine', f => instCombine(f)], ['instSimplify', (f, o) => instSimplifyReport(f, o)], ['cse', f => cse(f)],
  ['dce', f => dce(f)], ['overwrittenStores', f => overwrittenStores(f)], ['simplifyCFG', f => simplifyCFG(f)],
  ['formSelects', f => formSelects(f)],
];
const CLEANUP: Pass[] = [
  ['simplifyCFG', f => simplifyCFG(f)], ['dce', f => dce(f)], ['speculatePtrLoads', f => speculatePtrLoads(f)],
  ['sroa', f => sroa(f)], ['mem2reg', f => mem2reg(f)],
];
// the pipeline's order (optimizeFunction), the scalar cleanup three rounds after each step
const LATER: Pass[] = [
  ['unrollLoops', (f, o) => unrollLoops(f, o)], ['inferAddressSpaces', f => inferAddressSpaces(f)], ['licm', f => licm(f)],
  ['propagateEqualities', f => propagateEqualities(f)], ['rotateLoops', f => rotateLoops(f)], ['runtimeUnroll', f => runtimeUnroll(f)],
  ['strengthReduce', f => strengthReduce(f)],
  ['expandRemainders', f => expandRemainders(f)], ['separateConstOffsets', f => separateConstOffsets(f)],
];
const ORDER: Pass[] = [
  ...CLEANUP, ...CLEANUP, ...SCALAR, ...SCALAR, ...SCALAR,
  ...LATER.flatMap(p => [p, ...SCALAR, ...SCALAR, ...CLEANUP, ...SCALAR]),
];

/** Everything a pass may change in a function, with values and blocks named by identity. */
function fingerprint(f: Func): string {
  const ids = new Map<object, number>();
  const id = (o: object | undefined): string => {
    if (!o) return '-';
    let n = ids.get(o); if (n === undefined) { n = ids.size; ids.set(o, n); } return String(n);
  };
  const val = (v: Value): string => v.kind === 'int' ? `i${v.value}` : v.kind === 'fp' ? `f${v.value}` : `${v.kind}${id(v)}:${id(v.ty)}`;
  const lines: string[] = [f.params.map(a => `${id(a)}${a.attrs.join(',')}`).join(' '), JSON.stringify(f.attrs)];
  for (const b of f.blocks) {
    lines.push(`block ${id(b)} ${b.name} ${b.parent === f}`);
    for (const i of b.insts) {
      lines.push([id(i), i.op, id(i.ty), i.pred, id(i.srcTy), id(i.fnTy), i.idx?.join('.'), i.align, i.volatile, i.inbounds,
        i.fmf?.join('.'), i.nsw, i.nuw, i.exact, i.unroll, i.name, i.parent === b, i.rmw, i.ordering, i.scope,
        i.ops.map(val).join(','), i.targets.map(id).join(',')].join('|'));
    }
  }
  return lines.join('\n');
}

// loop_nests: loops strength reduction, rotation and runtime unrolling rewrite
const PROGRAMS = ['control_flow', 'bitonic_sort', 'loop_nests'];

describe.skipIf(!hasTool('nvcc'))('a pass that reports no change leaves the function as it was (needs nvcc)', () => {
  for (const name of PROGRAMS) {
    it(name, () => {
      const u = prepareUnit(path.join(__dirname, 'kernels', `${name}.cu`), 90);
      const opts = { ...unitOptions(u), optLevel: 3 as const };
      const toks = lex(fs.readFileSync(u.ii, 'latin1'));
      const m = generateIR(toks, skim(toks), opts).module;
      const lies: string[] = [];
      let quiet = 0, changes = 0;
      for (const f of m.funcs) {
        if (!f.blocks.length) continue;
        for (const [pass, run] of ORDER) {
          const before = fingerprint(f);
          const r = run(f, opts);
          if (r !== false) { changes++; continue; }
          quiet++;
          if (fingerprint(f) !== before) lies.push(`${pass} on ${f.name}`);
        }
      }
      expect(lies).toEqual([]);
      // the check saw both answers
      expect(quiet).toBeGreaterThan(0);
      expect(changes).toBeGreaterThan(0);
    });
  }
});
