// Reading PTX in tests: ptxas's verdict on a module, and the names a module defines (kernels, variables, functions).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mkTempDir, requireTool, run } from './tools';

let scratch = '';

/**
 * What ptxas says against `ptx` for `arch` (90 or 'sm_90a'), with extra flags such as -lineinfo: '' when it
 * accepts the module, else its message (so `expect(ptxas(ptx, 90)).toBe('')` shows the message on failure).
 */
export function ptxas(ptx: string, arch: number | string, flags: string[] = []): string {
  if (!scratch) scratch = mkTempDir('ptxas');
  const target = typeof arch === 'number' ? `sm_${arch}` : arch;
  const f = path.join(scratch, `k_${target}_${process.pid}_${Math.random().toString(36).slice(2)}.ptx`);
  fs.writeFileSync(f, ptx);
  try {
    const r = run(requireTool('ptxas'), [`-arch=${target}`, ...flags, f, '-o', '/dev/null']);
    return r.status === 0 ? '' : (r.stderr || r.stdout || `exit ${r.status}${r.error ? ` (${r.error.message})` : ''}`);
  } finally {
    fs.rmSync(f, { force: true });
  }
}

/** Names of the kernels and variables a PTX module defines or declares at module scope (string constants aside), sorted. */
export function ptxSymbols(ptx: string): string[] {
  const out = new Set<string>();
  for (const m of ptx.matchAll(/^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)?\.entry\s+([A-Za-z_$][\w$]*)/gm)) out.add(m[1]!);
  for (const m of ptx.matchAll(/^\s*(?:\.visible\s+|\.extern\s+|\.weak\s+)?\.(?:global|const|shared)\s+(?:\.attribute\(\.\w+\)\s+)?(?:\.align\s+\d+\s+)?\.\w+\s+([A-Za-z_$][\w$]*)/gm)) out.add(m[1]!);
  return [...out].filter(n => !n.startsWith('$str') && !n.startsWith('__unnamed')).sort();
}

/** Device functions a PTX module defines (kept out of line), sorted; vprintf and __assertfail are the toolkit's. */
export function ptxFuncs(ptx: string): string[] {
  const out = new Set<string>();
  for (const m of ptx.matchAll(/^\s*(?:\.visible\s+|\.weak\s+)?\.func\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/gm)) out.add(m[1]!);
  return [...out].filter(n => n !== 'vprintf' && n !== '__assertfail').sort();
}

/** The lines of one kernel's PTX body, trimmed (throws when the module has no such kernel). */
export function kernelLines(ptx: string, name: string): string[] {
  const at = ptx.indexOf(`.entry ${name}(`);
  if (at < 0) throw new Error(`no kernel ${name} in the PTX`);
  return ptx.slice(at, ptx.indexOf('\n}', at)).split('\n').map(l => l.trim());
}

/** Per loop (a conditional branch to a label above it), the lines from the label to the branch, in text order. */
export function loopBodies(lines: string[]): string[][] {
  const labels = new Map<string, number>();
  const out: string[][] = [];
  lines.forEach((l, k) => {
    const m = /^(\$L__BB\d+_\d+):$/.exec(l);
    if (m) { labels.set(m[1]!, k); return; }
    const b = /^@%p\d+\s+bra\s+(\$L__BB\d+_\d+);$/.exec(l);
    if (b && labels.has(b[1]!)) out.push(lines.slice(labels.get(b[1]!)!, k));
  });
  return out;
}

/** Per loop, how many of its lines match `re`. */
export const loopCounts = (lines: string[], re: RegExp): number[] => loopBodies(lines).map(body => body.filter(x => re.test(x)).length);
