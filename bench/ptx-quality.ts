// PTX code-quality benchmark: our PTX against the real cicc's, per kernel, on the same inputs.
//
// For each program in test/kernels/, the real nvcc captures the .cpp1.ii and the exact cicc argv for one
// arch (test/helpers/tools.ts prepareUnits). The real cicc's PTX is the one written during that capture
// (the real cicc run with that argv); ours comes from compileUnit() in-process with the options parsed
// from the same argv. Per function (.entry and .func) we count PTX instructions and local-memory
// accesses (ld.local / st.local), print a table, the geometric mean of the per-kernel instruction ratio
// (ours / cicc's, over kernels both compiled), and write bench/results/ptx-quality.json.
//
// Usage: node dist/bench/ptx-quality.js [--arch 90] [--only name,name] [--json file]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { KERNELS_DIR, REPO_ROOT, kernelPrograms, libdeviceBytes, prepareUnit, skipReason, unitOptions } from '../test/helpers/tools';
import { compileUnit } from '../compiler/compile';

export interface FnCounts { insts: number; local: number; kind: 'entry' | 'func' }

/**
 * Counts per function of a PTX text. An instruction is a statement ending in ';' inside a function
 * body that is not a directive (.reg, .local, .shared, .param declarations, .pragma, .loc). Labels and
 * braces are not instructions; `{ ... }` scopes inside a body (call sequences) are walked through.
 */
export function countPtx(ptx: string): Map<string, FnCounts> {
  const out = new Map<string, FnCounts>();
  const lines = ptx.split('\n');
  let cur: FnCounts | null = null;
  let depth = 0;
  let pendingName: string | null = null;
  let pendingKind: 'entry' | 'func' = 'entry';
  for (const raw of lines) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (!cur) {
      const m = /^(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*)/.exec(line);
      if (m) { pendingName = m[2]!; pendingKind = m[1] as 'entry' | 'func'; }
      if (pendingName && line.endsWith(';') && !line.includes('{')) { pendingName = null; continue; } // a prototype
      if (pendingName && line.startsWith('{')) {
        cur = { insts: 0, local: 0, kind: pendingKind };
        out.set(pendingName, cur);
        pendingName = null;
        depth = 1;
      }
      continue;
    }
    // scopes: call sequences (`{` alone) and inline asm (`{ .reg ...;` … `...;}`), statements inside count
    const depthAfter = depth + (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
    const text = line.replace(/^\{/, '').replace(/\}$/, '');
    for (const stmt of text.split(';').map(s => s.trim()).filter(Boolean)) {
      const body = stmt.replace(/^[\w$]+:\s*/, ''); // a label before the statement
      if (!body || body.startsWith('.')) continue;
      cur.insts++;
      if (/^(?:@!?%\w+\s+)?(?:ld|st)(?:\.volatile|\.relaxed\.\w+)?\.local\b/.test(body)) cur.local++;
    }
    depth = depthAfter;
    if (depth === 0) cur = null;
  }
  return out;
}

interface KernelRow { program: string; fn: string; kind: 'entry' | 'func'; cicc: FnCounts | null; ptxd: FnCounts | null; ratio: number | null }

function parseArgs(argv: string[]): { arch: number; only: string[] | null; json: string } {
  let arch = 90, only: string[] | null = null;
  let json = path.join(REPO_ROOT, 'bench', 'results', 'ptx-quality.json');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--arch') arch = Number(argv[++i]);
    else if (argv[i] === '--only') only = argv[++i]!.split(',').map(s => s.replace(/\.cu$/, ''));
    else if (argv[i] === '--json') json = path.resolve(argv[++i]!);
  }
  return { arch, only, json };
}

const geomean = (xs: number[]): number => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

function main(): number {
  const { arch, only, json } = parseArgs(process.argv.slice(2));
  const skip = skipReason('nvcc', 'cicc');
  if (skip) {
    console.error(`ptx-quality: ${skip}`);
    return 2;
  }
  const rows: KernelRow[] = [];
  const failures: string[] = [];
  for (const cu of kernelPrograms()) {
    const program = path.basename(cu, '.cu');
    if (only && !only.includes(program)) continue;
    const u = prepareUnit(path.join(KERNELS_DIR, path.basename(cu)), arch);
    if (!u.refPtx) { failures.push(`${program}: the real cicc wrote no PTX`); continue; }
    const o = unitOptions(u);
    const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), o, { libdevice: libdeviceBytes() });
    const ref = countPtx(u.refPtx);
    const ours = r.ok ? countPtx(r.ptx) : new Map<string, FnCounts>();
    if (!r.ok) failures.push(`${program}: ptxd failed: ${r.unsupported ?? r.diagnostics.map(d => d.message).join('; ')}`);
    const names = [...new Set([...ref.keys(), ...ours.keys()])].sort();
    for (const fn of names) {
      const c = ref.get(fn) ?? null, p = ours.get(fn) ?? null;
      const kind = (c ?? p)!.kind;
      const ratio = c && p && c.insts > 0 ? p.insts / c.insts : null;
      rows.push({ program, fn, kind, cicc: c, ptxd: p, ratio });
    }
    process.stderr.write(`ptx-quality: ${program} done\n`);
  }

  const kernels = rows.filter(r => r.kind === 'entry');
  const ratios = kernels.map(r => r.ratio).filter((x): x is number => x !== null && x > 0);
  const gm = ratios.length ? geomean(ratios) : null;
  const localCicc = kernels.reduce((s, r) => s + (r.cicc?.local ?? 0), 0);
  const localOurs = kernels.reduce((s, r) => s + (r.ptxd?.local ?? 0), 0);
  const extraLocal = kernels.filter(r => (r.cicc?.local ?? 0) === 0 && (r.ptxd?.local ?? 0) > 0);

  // Per program: all functions together (fair when one side keeps a helper as a .func the other inlined).
  const progs = [...new Set(rows.map(r => r.program))];
  const progRatios: number[] = [];
  for (const pr of progs) {
    const rs = rows.filter(r => r.program === pr);
    const c = rs.reduce((s2, r) => s2 + (r.cicc?.insts ?? 0), 0), q = rs.reduce((s2, r) => s2 + (r.ptxd?.insts ?? 0), 0);
    if (c > 0 && q > 0 && rs.every(r => r.ptxd || !r.cicc)) progRatios.push(q / c);
  }
  const gmProg = progRatios.length ? geomean(progRatios) : null;

  const lines = [
    `ptx-quality: sm_${arch}, PTX instructions per function, ours (ptxd, in-process) vs the real cicc`,
    '',
    '| program | function | kind | cicc insts | ptxd insts | ratio | cicc local | ptxd local |',
    '|---|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.program} | ${r.fn} | ${r.kind} | ${r.cicc?.insts ?? '–'} | ${r.ptxd?.insts ?? '–'} | ${r.ratio === null ? '–' : r.ratio.toFixed(2)} | ${r.cicc?.local ?? '–'} | ${r.ptxd?.local ?? '–'} |`);
  }
  lines.push('');
  lines.push(`kernels compared: ${ratios.length}; geomean instruction ratio (ptxd/cicc): ${gm === null ? '–' : gm.toFixed(3)}`);
  lines.push(`programs compared: ${progRatios.length}; geomean per-program instruction ratio (all functions): ${gmProg === null ? '–' : gmProg.toFixed(3)}`);
  lines.push(`local-memory accesses in kernels: cicc ${localCicc}, ptxd ${localOurs}; kernels with local traffic where cicc has none: ${extraLocal.length}${extraLocal.length ? ` (${extraLocal.map(r => `${r.program}:${r.fn}`).join(', ')})` : ''}`);
  if (failures.length) lines.push('', 'Failures:', ...failures.map(f => `- ${f}`));
  console.log(lines.join('\n'));

  fs.mkdirSync(path.dirname(json), { recursive: true });
  const doc = {
    benchmark: 'ptx-quality', date: new Date().toISOString(), arch,
    geomeanInstRatio: gm, kernelsCompared: ratios.length, geomeanProgramRatio: gmProg, programsCompared: progRatios.length, localCicc, localPtxd: localOurs,
    kernelsWithExtraLocal: extraLocal.map(r => `${r.program}:${r.fn}`), failures, rows,
  };
  fs.writeFileSync(`${json}.tmp`, JSON.stringify(doc, null, 2) + '\n');
  fs.renameSync(`${json}.tmp`, json);
  console.log(`\nwrote ${path.relative(REPO_ROOT, json)}`);
  return 0;
}

if (require.main === module) process.exitCode = main();
