// Pure functions of the corpus runner: what became of one unit (from the two nvcc runs), the symbols a PTX
// module defines, the reason groups, the seeded stratified sample and the summary tables.

import type { CorpusUnit, Tier } from './manifest';
import { TIERS } from './manifest';
import { rng as mulberry32 } from '../rng';
export { mulberry32 };

export type Outcome =
  | 'compiled' | 'unsupported' | 'false-error' | 'ptxas-rejects' | 'stub-fails' | 'symbols-differ' | 'timeout' | 'stock-fails';
export const OUTCOMES: readonly Outcome[] =
  ['compiled', 'unsupported', 'false-error', 'ptxas-rejects', 'stub-fails', 'symbols-differ', 'timeout', 'stock-fails'];

/** One nvcc run: exit status (null: killed at the time limit), stderr, the symbols of the PTX it kept. */
export interface NvccRun { status: number | null; stderr: string; symbols: string[] | null; ms: number }

export interface Verdict { outcome: Outcome; reason: string | null }

const UNSUPPORTED = /ptxd cannot compile this unit:\s*(.*)/;
const PTXAS = /^ptxas\b.*\b(error|fatal)\b/m;
// gcc names the file an error is in; an error inside the stub cicc/ptxd wrote names the .stub.c.
const STUB = /\.stub\.c(:\d+)*:\s*(fatal )?error/;

/** The first line of stderr that looks like an error, without its file/line prefix. */
export function firstError(stderr: string): string {
  const lines = stderr.split('\n').map(l => l.trim()).filter(Boolean);
  const err = lines.find(l => /\berror\b/i.test(l)) ?? lines[0] ?? '(no message)';
  return err.replace(/^.*?\b(fatal error|error)\s*:\s*/i, '').trim() || err;
}

/**
 * What became of a unit: `stock` is nvcc with the real cicc, `ptxd` nvcc through ptxd-cicc (PTXD_FALLBACK=never).
 * Only a unit the stock build compiles counts; ptxd's failure is then ptxd's: a unit ptxd declines
 * (unsupported), ptxas rejecting its PTX, the host compile of its stub failing, or any other error of ptxd's
 * (a false error: the real cicc compiled the unit).
 */
export function classify(stock: NvccRun, ptxd: NvccRun): Verdict {
  if (stock.status !== 0) return { outcome: 'stock-fails', reason: stock.status === null ? 'timeout' : firstError(stock.stderr) };
  if (ptxd.status === null) return { outcome: 'timeout', reason: null };
  if (ptxd.status !== 0) {
    const u = UNSUPPORTED.exec(ptxd.stderr);
    if (u) return { outcome: 'unsupported', reason: u[1]!.trim() };
    if (PTXAS.test(ptxd.stderr)) return { outcome: 'ptxas-rejects', reason: firstError(ptxd.stderr.slice(ptxd.stderr.search(PTXAS))) };
    if (STUB.test(ptxd.stderr)) return { outcome: 'stub-fails', reason: firstError(ptxd.stderr.slice(ptxd.stderr.search(STUB))) };
    return { outcome: 'false-error', reason: firstError(ptxd.stderr) };
  }
  const a = (stock.symbols ?? []).filter(namedByOthers).map(withoutRunId), b = (ptxd.symbols ?? []).filter(namedByOthers).map(withoutRunId);
  const missing = a.filter(s => !b.includes(s)), extra = b.filter(s => !a.includes(s));
  if (missing.length || extra.length) {
    const parts: string[] = [];
    if (missing.length) parts.push(`missing ${missing.length}: ${missing.slice(0, 3).join(' ')}`);
    if (extra.length) parts.push(`extra ${extra.length}: ${extra.slice(0, 3).join(' ')}`);
    return { outcome: 'symbols-differ', reason: parts.join('; ') };
  }
  return { outcome: 'compiled', reason: null };
}

/**
 * A symbol with the run-dependent tail of an anonymous namespace's name dropped. When a unit defines no external
 * function to name its module after, cudafe++ ends the module id (and so `_GLOBAL__N__<id>`) with a number that
 * changes from one nvcc run to the next (`..._cu_bf4463a5_24539`, then `..._cu_bf4463a5_7123`): the stock and the
 * ptxd builds are two runs, so that number says nothing about ptxd.
 */
export function withoutRunId(symbol: string): string {
  let out = '', from = 0;
  for (let at = symbol.indexOf('_GLOBAL__N__'); at >= 0; at = symbol.indexOf('_GLOBAL__N__', at + 1)) {
    let d = at;
    while (d > from && symbol[d - 1]! >= '0' && symbol[d - 1]! <= '9') d--;
    const len = Number(symbol.slice(d, at));
    if (d === at || !Number.isFinite(len)) continue;
    const name = symbol.slice(at, at + len);
    const m = /^(.*_[0-9a-f]{8})_\d+$/.exec(name);
    if (!m) continue;
    out += symbol.slice(from, d) + `${m[1]!.length}${m[1]}`;
    from = at + len;
  }
  return out + symbol.slice(from);
}

/**
 * Whether a symbol of ptxSymbols is one something outside the module names: kernels (the stub launches them) and
 * variables (the stub registers even static ones by name). Not the device functions: the corpus compiles whole
 * programs, where every one is internal and which exist is the optimiser's choice of what to inline; nor the
 * strings each compiler names for itself (`$str`, cicc's `__unnamed_N` for assert's function names).
 */
export function namedByOthers(symbol: string): boolean {
  return !symbol.startsWith('func ') && !/^var (\$str|__unnamed_\d+$)/.test(symbol);
}

/**
 * The kernels, device functions and variables a PTX module defines (.entry, .func, .global/.const/.shared
 * definitions at module scope, visible or not), sorted. Declarations (.extern) are left out: which
 * libdevice or extern functions a module declares depends on what the optimiser kept.
 */
export function ptxSymbols(ptx: string): string[] {
  const out = new Set<string>();
  for (const line of ptx.split('\n')) {
    if (/^\s*\.extern\b/.test(line)) continue;
    const fn = /^\s*(?:\.visible\s+|\.weak\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$%]*)/.exec(line);
    if (fn) { out.add(`${fn[1]} ${fn[2]}`); continue; }
    const v = /^(?:\.visible\s+|\.weak\s+)*\.(global|const)\s+(?:\.\w+(?:\s+\d+)?\s+)*([A-Za-z_$%][\w$%]*)\s*(\[|=|;)/.exec(line);
    if (v) out.add(`var ${v[2]}`);
  }
  return [...out].sort();
}

const NAMED = new Set(['template', 'kernel', 'builtin', 'function', 'operation', 'variable', 'type', 'member']);
const NOT_NAMES = new Set(['arguments', 'argument', 'template', 'templates', 'kernel', 'function', 'with', 'of', 'used',
  'launched', 'launching', 'that', 'we', 'without', 'in', 'declared', 'is', 'are', 'a', 'the', 'instantiations', 'specialisations']);

/**
 * A reason with names, numbers and quoted text blanked, so that units failing the same way group together:
 * quoted text, numbers, identifiers that cannot be English words (with _, ::, <>, digits or inner capitals)
 * and the word after "kernel", "template", "function" and their like.
 */
export function reasonGroup(reason: string): string {
  const words = reason
    .replace(/'[^']*'|"[^"]*"|`[^`]*'|‘[^’]*’/g, "'…'")
    .replace(/\b0x[0-9a-f]+\b|\b\d+\b/gi, 'N')
    .split(/\s+/).filter(Boolean);
  const out = words.map((w, i) => {
    const prev = words[i - 1]?.toLowerCase() ?? '';
    if (/[_:<>$~]|\w\d|[a-z][A-Z]/.test(w)) return 'X';
    if (NAMED.has(prev) && !NOT_NAMES.has(w.toLowerCase()) && /^[A-Za-z]/.test(w)) return 'X';
    return w;
  });
  return out.join(' ').slice(0, 160);
}


/**
 * n units drawn with a seed, stratified by tier: each tier gets its share of n (rounded, at least one when the
 * tier has units), drawn by a seeded shuffle; the result keeps manifest order.
 */
export function stratifiedSample<U extends CorpusUnit>(units: readonly U[], n: number, seed: number): U[] {
  if (n >= units.length) return [...units];
  const rand = mulberry32(seed);
  const picked = new Set<U>();
  for (const tier of TIERS) {
    const pool = units.filter(u => u.tier === tier);
    if (!pool.length) continue;
    const share = Math.max(1, Math.round((n * pool.length) / units.length));
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    for (const u of pool.slice(0, share)) picked.add(u);
  }
  return units.filter(u => picked.has(u));
}

export interface UnitResult { id: string; tier: Tier; outcome: Outcome; reason: string | null; stockMs: number; ptxdMs: number }

/** Counts by tier and outcome, the share ptxd compiled (of the units stock nvcc compiles), reasons ranked. */
export function summarise(results: readonly UnitResult[]): {
  byTier: Record<string, Record<Outcome, number> & { total: number; counted: number; compiledPct: number }>;
  reasons: { outcome: Outcome; reason: string; units: number; tiers: Record<string, number>; example: string }[];
} {
  const byTier: Record<string, Record<Outcome, number> & { total: number; counted: number; compiledPct: number }> = {};
  for (const t of [...TIERS, 'all']) {
    const rs = results.filter(r => t === 'all' || r.tier === t);
    const row = Object.fromEntries(OUTCOMES.map(o => [o, rs.filter(r => r.outcome === o).length])) as Record<Outcome, number>;
    const counted = rs.length - row['stock-fails'];
    byTier[t] = { ...row, total: rs.length, counted, compiledPct: counted ? Math.round((1000 * row.compiled) / counted) / 10 : 0 };
  }
  const groups = new Map<string, { outcome: Outcome; reason: string; units: number; tiers: Record<string, number>; example: string }>();
  for (const r of results) {
    if (r.outcome === 'compiled' || r.outcome === 'stock-fails') continue;
    const reason = reasonGroup(r.reason ?? '');
    const key = `${r.outcome}\0${reason}`;
    const g = groups.get(key) ?? { outcome: r.outcome, reason, units: 0, tiers: {}, example: r.id };
    g.units++;
    g.tiers[r.tier] = (g.tiers[r.tier] ?? 0) + 1;
    groups.set(key, g);
  }
  const reasons = [...groups.values()].sort((a, b) => b.units - a.units || a.outcome.localeCompare(b.outcome) || a.reason.localeCompare(b.reason));
  return { byTier, reasons };
}

/** The tables the runner prints (Markdown, so they can go into the README as they are). */
export function formatTables(s: ReturnType<typeof summarise>, topReasons = 25): string {
  const cols: Outcome[] = ['compiled', 'unsupported', 'false-error', 'ptxas-rejects', 'stub-fails', 'symbols-differ', 'timeout', 'stock-fails'];
  const lines = [`| tier | units | ${cols.join(' | ')} | compiled % |`, `|---|---:|${cols.map(() => '---:').join('|')}|---:|`];
  for (const [t, row] of Object.entries(s.byTier)) {
    lines.push(`| ${t} | ${row.total} | ${cols.map(c => row[c]).join(' | ')} | ${row.compiledPct.toFixed(1)} |`);
  }
  lines.push('', '| units | outcome | reason | tiers (C-like/C++/library-heavy) | example |', '|---:|---|---|---|---|');
  for (const g of s.reasons.slice(0, topReasons)) {
    const tiers = TIERS.map(t => g.tiers[t] ?? 0).join('/');
    lines.push(`| ${g.units} | ${g.outcome} | ${g.reason.replace(/\|/g, '\\|')} | ${tiers} | ${g.example} |`);
  }
  if (s.reasons.length > topReasons) lines.push(`| … | | ${s.reasons.length - topReasons} more reasons in bench/results/corpus.json | | |`);
  return lines.join('\n') + '\n';
}
