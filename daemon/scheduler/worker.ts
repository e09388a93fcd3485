// A compile worker (worker_threads): compiles one unit per message with compileUnit and posts the
// result back as plain data. The compiler module is workerData.compileModule (the built compiler entry,
// compiler/index, by default; tests substitute a wrapper that crashes on purpose). A throw inside
// compileUnit is already a result (compileUnit catches its own bugs); anything that kills the thread is
// handled by the pool.
//
// Each worker keeps its own prelude cache (lexed/skimmed header prefixes): it never changes outputs,
// only how fast the next unit with the same headers compiles in this worker.

import { parentPort, workerData } from 'node:worker_threads';
import { PreludeCache, compileRoots, rootsToCompile, zeroTimes, type CompileEnv, type CompileResult } from '../../compiler/index';
import { pieceStoreAt, type PieceStoreRef } from '../../service/pieces';
import { MemoryLru, collectGarbage, heapNow } from '../../service/memory';
import type { WorkerJob, WorkerMemory, WorkerReply } from './pool';

type CompileModule = typeof import('../../compiler/index');

const data = workerData as { compileModule: string; keepPrelude: boolean; memory?: { share: number; idleMs: number } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mod = require(data.compileModule) as CompileModule;
const prelude = data.keepPrelude ? new PreludeCache() : undefined;
// the piece store of the last job (a worker serves one cache directory; another one's caches are dropped with it)
let lastPieces: ReturnType<typeof pieceStoreAt>;
const lru = new MemoryLru(() => ({ prelude, recent: lastPieces?.recent, pieces: lastPieces }));
let idleTimer: NodeJS.Timeout | undefined;

/**
 * After a job: keep the caches within this worker's share of the budget, and once idle a while drop them all
 * and collect the heap (what the caches and the last compile left is then returned to the system).
 */
function budget(): Pick<WorkerReply, 'memory' | 'dropped' | 'heap'> {
  const m = data.memory;
  if (!m) return {};
  lru.enforce(m.share);
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    lru.enforce(0);
    collectGarbage();
    const msg: WorkerMemory = { memory: lru.held(), dropped: lru.dropped, heap: heapNow() };
    parentPort!.postMessage(msg);
  }, m.idleMs);
  idleTimer.unref();
  return { memory: lru.held(), dropped: lru.dropped, heap: heapNow() };
}

parentPort!.postMessage({ ready: true });

parentPort!.on('message', (job: WorkerJob) => {
  const t0 = performance.now();
  // compileUnit(text, options, env, ...): env arrives as plain data (libdevice bytes); the worker adds
  // its prelude cache.
  const [env, ...more] = job.rest;
  // the per-root piece store: the job names the cache directory, this thread opens it once
  const ref = (env as { pieceStore?: PieceStoreRef } | undefined)?.pieceStore;
  const pieces = ref ? pieceStoreAt(ref) : undefined;
  if (pieces) lastPieces = pieces;
  const withPrelude = prelude === undefined && pieces === undefined ? env : { ...(env as object | undefined), prelude, pieces };
  if (job.roots !== undefined) {
    // a share of a compile split across workers (split.ts): a plan, or some roots compiled into the store
    const cenv = withPrelude as CompileEnv;
    const plan = job.roots === 'plan' && pieces ? rootsToCompile(job.text, job.options, cenv) : undefined;
    const roots = !pieces ? undefined : job.roots === 'plan' ? plan?.roots : compileRoots(job.text, job.options, cenv, job.roots);
    const reply: WorkerReply = { id: job.id, result: PART_RESULT, roots: roots ?? null, ...(plan?.first ? { first: true } : {}), ms: performance.now() - t0, ...budget() };
    parentPort!.postMessage(reply);
    return;
  }
  const compile = mod.compileUnit as (text: string, o: WorkerJob['options'], ...rest: unknown[]) => CompileResult;
  const result = compile(job.text, job.options, ...(withPrelude === undefined ? [] : [withPrelude]), ...more);
  const reply: WorkerReply = { id: job.id, result, ms: performance.now() - t0, ...budget() };
  parentPort!.postMessage(reply);
});

const PART_RESULT: CompileResult = { ok: true, ptx: '', stub: '', diagnostics: [], times: zeroTimes() };
