// `ptxd daemon …`, `ptxd stats`, `ptxd cache …`: the commands that look at the daemon and the store.
// All of them work without a running daemon (the store is read directly; LMDB allows that while a
// daemon writes).

import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { clientIdentity, connectDaemon, DaemonConnection, openDaemon, startDaemon, stopDaemon } from '../protocol/connection';
import { TrustError } from '../protocol/auth';
import { cacheDir, cacheSizeLimit, logPath, socketPath } from '../protocol/paths';
import { emptyCounters, repairWarning, Store, STORE_FILE, type Counters, type StoreInfo } from '../service/store/store';
import { errorName } from '../service/errno';
import { VERDICTS_DIR } from '../service/header-check';
import type { DaemonStatus } from '../protocol/messages';
import { remoteConfig } from '../service/store/remote/config';

const out = (s: string) => { process.stdout.write(s); };
const err = (s: string) => { process.stderr.write(s); };

function mb(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(2)} GiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

function pidAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** Stops a daemon and waits (up to 10 s) until its process has exited. */
async function stopAndWait(c: DaemonConnection, pid: number): Promise<void> {
  await stopDaemon(c);
  for (let i = 0; i < 200 && pidAlive(pid); i++) await new Promise(r => setTimeout(r, 50));
}

/**
 * A connection to whatever daemon runs on our socket (of this build or another) and passes the checks
 * of protocol/auth.ts; never starts one. A failed check is thrown (TrustError).
 */
async function runningDaemon(): Promise<DaemonConnection | undefined> {
  try {
    return (await openDaemon(process.env))?.conn;
  } catch (e) {
    if (e instanceof TrustError) throw e;
    return undefined;
  }
}

export async function daemonCommand(action: string, json: boolean): Promise<number> {
  try {
    return await daemonAction(action, json);
  } catch (e) {
    // a socket directory of another user, a daemon that fails the checks: one line, no stack trace
    err(`ptxd: error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

async function daemonAction(action: string, json: boolean): Promise<number> {
  const env = process.env;
  const sock = socketPath(env);
  switch (action) {
    case 'start': {
      // A daemon of this build is used as it is; one of an older build is replaced.
      const had = await runningDaemon();
      const before = had ? (await had.status()).pid : undefined;
      had?.close();
      const c = await connectDaemon(env, { autostart: true });
      const s = await c!.status();
      c!.close();
      if (s.pid === before) { out(`ptxd daemon already running (pid ${s.pid}, ${sock})\n`); return 0; }
      return daemonAction('status', json);
    }
    case 'stop': {
      const c = await runningDaemon();
      if (!c) { out(`no ptxd daemon running on ${sock}\n`); return 0; }
      const s = await c.status();
      await stopAndWait(c, s.pid);
      out(`stopped ptxd daemon (pid ${s.pid})\n`);
      return 0;
    }
    case 'restart': {
      const c = await runningDaemon();
      if (c) await stopAndWait(c, (await c.status()).pid);
      await startDaemon(env);
      return daemonAction('status', json);
    }
    case 'status': {
      const c = await runningDaemon();
      if (!c) {
        if (json) out(`${JSON.stringify({ running: false, socket: sock, log: logPath(sock) })}\n`);
        else out(`no ptxd daemon running on ${sock}\n`);
        return json ? 0 : 3;
      }
      const s = await c.status();
      c.close();
      if (json) { out(`${JSON.stringify({ running: true, ...s })}\n`); return 0; }
      const other = s.stamp !== clientIdentity(env).stamp ? ' — another build: the next client replaces it' : '';
      out(`ptxd daemon running: pid ${s.pid}, ptxd ${s.version} (build ${s.stamp}${other}), up ${s.uptimeS} s\n` +
        `  socket ${s.socket}\n  log    ${s.log}\n  cache  ${s.cacheDir}${s.cacheEnabled ? '' : ' (disabled: not writable)'}\n` +
        `  served ${s.served} requests (${s.hits} cache hits), ${s.connections} connected, ${s.queued} queued\n` +
        `  memory ${mb(s.rssBytes)} resident, idle timeout ${s.idleTimeoutS ? `${s.idleTimeoutS} s` : 'off'}\n`);
      return 0;
    }
    default:
      err(`ptxd: error: unknown daemon action "${action}" (start, stop, status, restart)\n`);
      return 1;
  }
}

/** The store, checked before it is mapped (a damaged file is moved aside, with a warning); undefined when unusable. */
function openStore(): Store | undefined {
  try {
    const s = Store.open(cacheDir(process.env), cacheSizeLimit(process.env));
    if (s.repaired) err(`${repairWarning(s.path, s.repaired)}\n`);
    return s;
  } catch (e) {
    err(`ptxd: warning: cannot open the cache in "${cacheDir(process.env)}" (${errorName(e)})\n`);
    return undefined;
  }
}

/**
 * `ptxd cache clear`: removes the store's files without opening them (a damaged store must not stop the
 * remedy), the copies of damaged stores, the fallback log and the system-header check's verdicts. A running daemon notices and opens a new store.
 */
function clearCache(json: boolean): number {
  const dir = cacheDir(process.env);
  let names: string[];
  try { names = readdirSync(dir); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') names = [];
    else { err(`ptxd: error: cannot read the cache directory "${dir}" (${errorName(e)})\n`); return 1; }
  }
  const ours = (n: string) => n === STORE_FILE || n.startsWith(`${STORE_FILE}-lock`) || n.startsWith(`${STORE_FILE}.`) || n === 'fallbacks.jsonl' ||
    n === VERDICTS_DIR;
  const removed: string[] = [];
  let bytes = 0, failed = 0;
  for (const n of names.filter(ours).sort()) {
    const p = join(dir, n);
    try {
      const st = lstatSync(p);
      // A directory in the store's place is removed too: it is what stops the store from being created.
      rmSync(p, { recursive: st.isDirectory(), force: true });
      bytes += st.isFile() ? st.size : 0;
      removed.push(n);
    } catch (e) {
      failed++;
      err(`ptxd: error: cannot remove "${p}" (${errorName(e)})\n`);
    }
  }
  if (json) out(`${JSON.stringify({ removed, bytes })}\n`);
  else out(`removed the unit cache and the statistics (${removed.length} files, ${mb(bytes)}) in ${dir}\n`);
  return failed === 0 ? 0 : 1;
}

/** A ptxd error the real cicc did not confirm (fallbacks.jsonl records with kind 'false-error'). */
export interface FalseError { diagnostic: string; file: string; line: number; construct: string; input: string; arch: string; time: string }

function fallbackReasons(): { total: number; reasons: Record<string, number>; falseErrors: FalseError[] } {
  const file = join(cacheDir(process.env), 'fallbacks.jsonl');
  let lines: string[] = [];
  try { lines = readFileSync(file, 'utf8').split('\n').filter(l => l.trim() !== ''); } catch { /* none yet */ }
  const reasons: Record<string, number> = {};
  const falseErrors: FalseError[] = [];
  let total = 0;
  for (const l of lines) {
    let rec: Partial<FalseError> & { reason?: string; kind?: string } = {};
    try { rec = JSON.parse(l) as typeof rec; } catch { /* a torn line */ }
    if (rec.kind === 'false-error') {
      falseErrors.push({ diagnostic: rec.diagnostic ?? '?', file: rec.file ?? '', line: rec.line ?? 0, construct: rec.construct ?? '', input: rec.input ?? '', arch: rec.arch ?? '', time: rec.time ?? '' });
      continue;
    }
    total++;
    const r = rec.reason ?? '?';
    reasons[r] = (reasons[r] ?? 0) + 1;
  }
  return { total, reasons, falseErrors };
}

export interface StatsReport {
  counters: Counters;
  cache: StoreInfo | null;
  /** Fallbacks of units ptxd cannot compile (by reason), and false errors (ptxd defects), listed apart. */
  fallbacks: { total: number; reasons: Record<string, number>; falseErrors: FalseError[]; file: string };
  daemon: DaemonStatus | null;
}

export async function collectStats(): Promise<StatsReport> {
  // a daemon that fails the checks has no stats for us: the store's are reported
  const c = await runningDaemon().catch(() => undefined);
  let daemon: DaemonStatus | null = null;
  if (c) {
    // The daemon writes its counters shortly after each request: make them current first.
    try { await c.request({ t: 'flush', id: 0 }); daemon = await c.status(); } catch { /* report what the store has */ }
    c.close();
  }
  const store = openStore();
  const report: StatsReport = {
    counters: store ? store.counters() : emptyCounters(),
    cache: store ? store.info() : null,
    fallbacks: { ...fallbackReasons(), file: join(cacheDir(process.env), 'fallbacks.jsonl') },
    daemon,
  };
  store?.close();
  return report;
}

const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const ms = (x: number) => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(1)} ms`);
const bytes = (n: number) => (n >= 1024 ** 2 ? mb(n) : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

function remoteLines(k: Counters, d: DaemonStatus | null): string {
  const used = k.remoteHits + k.remoteMisses + k.remoteErrors + k.remoteSkipped + k.remoteWrites + k.remoteDropped + k.remoteWriteErrors;
  const r = d?.remote;
  if (!r && used === 0) {
    const c = remoteConfig(process.env);
    return `team cache        ${c === undefined ? 'not configured (PTXD_REMOTE)' : 'error' in c ? c.error : 'configured; not used yet'}\n`;
  }
  const where = r ? `${r.where} (${r.write ? 'read-write' : 'read-only'}, breaker ${r.breaker}${r.queued ? `, ${r.queued} writes queued` : ''})` : '(daemon not running)';
  return `team cache        ${where}\n` +
    `  reads           ${k.remoteHits} hits, ${k.remoteMisses} misses, ${k.remoteErrors} errors, ${k.remoteBadSignatures} bad signatures (ignored), ` +
    `${k.remoteSkipped} skipped (breaker open); ${ms(k.remoteMs)} waited\n` +
    `  writes          ${k.remoteWrites} written, ${k.remoteWriteErrors} failed, ${k.remoteDropped} dropped; ${ms(k.remoteWriteMs)} in the background\n` +
    `  bytes           ${bytes(k.remoteBytesIn)} in, ${bytes(k.remoteBytesOut)} out\n` +
    `  saved           ${s1(k.remoteSavedMs)} of compiling by team hits (their original compile times) for ${ms(k.remoteMs)} of waiting\n`;
}

/** `ptxd cache serve`: runs until SIGINT/SIGTERM. */
export async function serveCommand(a: { port: number; host: string; dir?: string; writeKeyFile?: string }): Promise<number> {
  const { startObjectServer, emptyServeCounters } = await import('../service/store/remote/serve');
  const counters = emptyServeCounters();
  let writeKey = process.env.PTXD_REMOTE_WRITE_KEY || undefined;
  if (a.writeKeyFile !== undefined) {
    try { writeKey = readFileSync(a.writeKeyFile, 'utf8').trim(); } catch (e) {
      err(`ptxd: error: cannot read write key file "${a.writeKeyFile}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
      return 1;
    }
  }
  const dir = a.dir ?? join(cacheDir(process.env), 'team-objects');
  let server: import('node:http').Server;
  try {
    server = await startObjectServer({ dir, host: a.host, port: a.port, writeKey, counters, log: s => err(`${new Date().toISOString()} ${s}\n`) });
  } catch (e) {
    err(`ptxd: error: cannot serve on ${a.host}:${a.port} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
    return 1;
  }
  const addr = server.address() as import('node:net').AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  out(`ptxd cache serve: listening on http://${host}:${addr.port}/ (objects in ${dir}; ` +
    `${writeKey ? 'writes need the write key' : 'anyone who can connect may write: give a write key'}; counters at /_stats)\n`);
  await new Promise<void>(resolve => {
    const stop = () => {
      server.close();
      server.closeAllConnections();
      const k = counters;
      out(`ptxd cache serve: ${k.hits} hits, ${k.misses} misses, ${bytes(k.bytesOut)} sent; ${k.writes} writes, ${bytes(k.bytesIn)} received; ` +
        `${k.refused} refused (no write key), ${k.tooLarge} too large, ${k.failed} failed\n`);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

export async function statsCommand(json: boolean): Promise<number> {
  const r = await collectStats();
  if (json) { out(`${JSON.stringify(r, null, 2)}\n`); return 0; }
  const k = r.counters;
  const rate = k.hits + k.misses > 0 ? ` (${((100 * k.hits) / (k.hits + k.misses)).toFixed(1)}% hits)` : '';
  out(`requests          ${k.requests}\n` +
    `unit cache        ${k.hits} hits (${k.hits - k.remoteHits} local, ${k.remoteHits} team), ${k.misses} misses${rate}, ${k.corrupt} corrupt values recompiled, ${k.evictions} evicted\n` +
    `other checkouts   ${k.movedHits} hits compiled at another path or with another module id, moved here (PTXD_BASEDIR)\n` +
    `compile errors    ${k.errors}\n` +
    `false errors      ${k.falseErrors} (ptxd errors the real cicc did not confirm: ptxd defects, listed below)\n` +
    `unsupported units ${k.unsupported}\n` +
    `fallback hits     ${k.fallbackHits} (the real cicc's cached outputs used instead of running it)\n` +
    `compile time      ${(k.compileMs / 1000).toFixed(1)} s spent, ${(k.savedMs / 1000).toFixed(1)} s saved by hits\n`);
  out(remoteLines(k, r.daemon));
  if (r.cache) out(`cache             ${r.cache.entries} units${r.cache.pieces ? ` + ${r.cache.pieces} per-kernel entries` : ''}, ${mb(r.cache.bytes)} of ${mb(r.cache.limit)} (${r.cache.path})\n`);
  else out('cache             disabled (directory not usable)\n');
  out(`fallbacks to the real cicc: ${r.fallbacks.total} (${r.fallbacks.file})\n`);
  for (const [reason, n] of Object.entries(r.fallbacks.reasons).sort((x, y) => y[1] - x[1])) out(`  ${n}\t${reason}\n`);
  if (r.fallbacks.falseErrors.length > 0) {
    out(`false errors (ptxd defects; please report them, see the README): ${r.fallbacks.falseErrors.length}\n`);
    for (const f of r.fallbacks.falseErrors) out(`  ${f.file}:${f.line}: ${f.diagnostic}${f.construct ? `  [${f.construct}]` : ''} (${f.input}, ${f.arch})\n`);
  }
  out(r.daemon ? `daemon            pid ${r.daemon.pid}, ${r.daemon.served} requests since start (${r.daemon.ciccCalls ?? 0} from the native client), ${mb(r.daemon.rssBytes)} resident\n`
    : 'daemon            not running\n');
  const p = r.daemon?.scheduler;
  if (p) {
    const ph = p.phaseMs;
    out(`compile pool      ${p.workers} workers (${p.started} started), ${p.jobs} jobs, at most ${p.peakRunning} at once (${p.peakPerBuild} of one make build), ` +
      `${p.crashes} worker crashes (${p.overBudget ?? 0} over the compile budget)\n` +
      `make jobserver    ${p.tokensUsed} jobs ran on make tokens, at most ${p.peakTokens} tokens at once; ` +
      `${p.extraTokensAcquired ?? 0} extra tokens acquired, ${p.extraTokensReturned ?? 0} returned\n` +
      `split compiles    ${p.splitJobs ?? 0} units on several workers (${p.extraSlots ?? 0} extra workers), at most ${p.peakSlotsPerJob ?? 1} workers for one unit; ` +
      `at most ${p.busyPeak ?? 0} compile jobs running at once\n` +
      `phase times       lex ${s1(ph.lex)}, skim ${s1(ph.skim)}, irgen ${s1(ph.irgen)}, optimize ${s1(ph.optimize)}, emit ${s1(ph.emit)}, ` +
      `assemble ${s1(ph.assemble ?? 0)} (${p.compiled} units)\n`);
    if (p.roots) out(`kernels           ${p.roots.compiled} compiled, ${p.roots.reused} reused from the piece cache; ${p.roots.byText ?? 0} units edited inside kernel bodies only\n` +
      `kernels at idle   ${p.roots.seeded ?? 0} units compiled kernel by kernel after a whole first compile (${p.roots.seededKernels ?? 0} kernels), ${p.roots.seedsQueued ?? 0} waiting\n`);
    if (p.memory) {
      const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
      const held = Object.entries(p.memory.held);
      const sum = held.reduce((a, [, v]) => a + v.bytes, 0);
      out(`memory caches     ${mib(sum)} of a ${mib(p.memory.budgetBytes)} budget (PTXD_MEMORY); ${p.memory.dropped} items dropped\n`);
      for (const [name, v] of held) out(`  ${name.padEnd(16)}${v.entries} entries, ${mib(v.bytes)}\n`);
      const h = p.memory.heaps;
      if (h) out(`worker heaps      ${mib(h.total)} committed (${mib(h.young)} young generation), ${mib(h.used)} in use, ${mib(h.external)} outside the heap (${h.workers} workers)\n`);
    }
    if (p.last) {
      const lp = p.last.phaseMs;
      const ms = (x: number | undefined) => `${(x ?? 0).toFixed(1)} ms`;
      out(`last compile      ${p.last.compiled ? `${p.last.compiled.length} kernels compiled, ${p.last.reused!.length} reused${p.last.byText ? ' (an edit inside kernel bodies)' : ''}` : 'whole unit'}; ` +
        `lex ${ms(lp.lex)}, skim ${ms(lp.skim)}, irgen ${ms(lp.irgen)}, optimize ${ms(lp.optimize)}, emit ${ms(lp.emit)}, assemble ${ms(lp.assemble)}\n`);
      if (p.last.compiled?.length) out(`  compiled: ${p.last.compiled.join(' ')}\n`);
    }
  }
  return 0;
}

export async function cacheCommand(action: string, json: boolean): Promise<number> {
  if (action === 'clear') return clearCache(json);
  const store = openStore();
  if (!store) return 1;
  try {
    switch (action) {
      case 'info': {
        const i = store.info();
        if (json) out(`${JSON.stringify(i)}\n`);
        else out(`cache ${i.path}\n  ${i.entries} units${i.pieces ? ` + ${i.pieces} per-kernel entries` : ''}, ${mb(i.bytes)} of values, limit ${mb(i.limit)} (PTXD_CACHE_SIZE), file ${mb(i.fileBytes)}\n`);
        return 0;
      }
      case 'verify': {
        const tty = process.stderr.isTTY === true && !json;
        const r = store.verify(tty ? (d, t) => err(`\rverifying ${d}/${t}`) : undefined);
        if (tty) err('\n');
        if (json) out(`${JSON.stringify({ checked: r.checked, corrupt: r.corrupt.length })}\n`);
        else out(`checked ${r.checked} values: ${r.corrupt.length} corrupt${r.corrupt.length ? ' (removed; they will be recompiled)' : ''}\n`);
        return r.corrupt.length === 0 ? 0 : 2;
      }
      default:
        err(`ptxd: error: unknown cache action "${action}" (info, clear, verify)\n`);
        return 1;
    }
  } finally {
    store.close();
  }
}
