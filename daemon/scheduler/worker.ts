// A compile worker (worker_threads): compiles one unit per message with compileUnit and posts the
// result back as plain data. The compiler module is workerData.compileModule (the built compiler by
// default; tests substitute a wrapper that crashes on purpose). A throw inside compileUnit is already a
// result (compileUnit catches its own bugs); anything that kills the thread is handled by the pool.
//
// Each worker keeps its own prelude cache (lexed/skimmed header prefixes): it never changes outputs,
// only how fast the next unit with the same headers compiles in this worker.

import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerJob, WorkerReply } from './pool';

type CompileModule = typeof import('../../compiler/compile');
type PreludeModule = typeof import('../../compiler/frontend/prelude');
type IncrementalModule = typeof import('../../compiler/incremental/incremental');

const data = workerData as { compileModule: string; preludeModule?: string; incrementalModule: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mod = require(data.compileModule) as CompileModule;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const prelude = data.preludeModule ? new (require(data.preludeModule) as PreludeModule).PreludeCache() : undefined;

parentPort!.postMessage({ ready: true });

parentPort!.on('message', (job: WorkerJob) => {
  const t0 = performance.now();
  // compileUnit(text, options, env, ...): env arrives as plain data (libdevice bytes); the worker adds
  // its prelude cache.
  const [env, ...more] = job.rest;
  // the per-root piece store: the job names the cache directory, this thread opens it once
  const ref = (env as { pieceStore?: import('../../service/unit').PieceStoreRef } | undefined)?.pieceStore;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pieces = ref ? (require('../../service/unit') as typeof import('../../service/unit')).pieceStoreAt(ref) : undefined;
  const withPrelude = prelude === undefined && pieces === undefined ? env : { ...(env as object | undefined), prelude, pieces };
  if (job.roots !== undefined) {
    // a share of a compile split across workers (split.ts): a plan, or some roots compiled into the store
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const inc = require(data.incrementalModule) as IncrementalModule;
    const cenv = withPrelude as import('../../compiler/compile').CompileEnv;
    const plan = job.roots === 'plan' && pieces ? inc.rootsToCompile(job.text, job.options, cenv) : undefined;
    const roots = !pieces ? undefined : job.roots === 'plan' ? plan?.roots : inc.compileRoots(job.text, job.options, cenv, job.roots);
    const reply: WorkerReply = { id: job.id, result: PART_RESULT, roots: roots ?? null, ...(plan?.first ? { first: true } : {}), ms: performance.now() - t0 };
    parentPort!.postMessage(reply);
    return;
  }
  const compile = mod.compileUnit as (text: string, o: WorkerJob['options'], ...rest: unknown[]) => ReturnType<CompileModule['compileUnit']>;
  const result = compile(job.text, job.options, ...(withPrelude === undefined ? [] : [withPrelude]), ...more);
  const reply: WorkerReply = { id: job.id, result, ms: performance.now() - t0 };
  parentPort!.postMessage(reply);
});

const PART_RESULT = { ok: true, ptx: '', stub: '', diagnostics: [], times: { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 } };
