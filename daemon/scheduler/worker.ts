// A compile worker (worker_threads): compiles one unit per message with compileUnit and posts the
// result back as plain data. The compiler module is workerData.compileModule (the built compiler by
// default; tests substitute a wrapper that crashes on purpose). A throw inside compileUnit is already a
// result (compileUnit catches its own bugs); anything that kills the thread is handled by the pool.

import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerJob, WorkerReply } from './pool';

type CompileModule = typeof import('../../compiler/compile');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const mod = require((workerData as { compileModule: string }).compileModule) as CompileModule;

parentPort!.postMessage({ ready: true });

parentPort!.on('message', (job: WorkerJob) => {
  const t0 = performance.now();
  // Arguments after the options (libdevice bytes, an env of caches) travel as they are given, so
  // compileUnit can grow them without the pool knowing.
  const compile = mod.compileUnit as (text: string, o: WorkerJob['options'], ...rest: unknown[]) => ReturnType<CompileModule['compileUnit']>;
  const result = compile(job.text, job.options, ...job.rest);
  const reply: WorkerReply = { id: job.id, result, ms: performance.now() - t0 };
  parentPort!.postMessage(reply);
});
