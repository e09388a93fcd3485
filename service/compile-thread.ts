// One compile on a thread of its own, for a process that compiles in-process (PTXD_DAEMON=0, or a client
// whose daemon cannot be reached): the thread can be stopped when the compile runs past the budget, which
// a compile on the main thread cannot (it never yields), and a thread that dies (out of memory, a stack
// overflow in a dependency) costs a fallback, not the build.

import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { CompileOptions, CompileResult } from '../compiler/index';
import { REPO_ROOT } from '../protocol/version';
import { crashResult, overBudgetReason, unsupportedResult } from './compile-budget';

/** What the thread is given: one compile. The compiler module is the built one unless a test names another. */
export interface ThreadJob { compileModule: string; text: string; options: CompileOptions; rest: unknown[] }
/** What the thread answers. */
export interface ThreadReply { result: CompileResult; ms: number }

// Threads always run built code (also when this file is loaded from sources by the tests).
const THREAD_MAIN = join(REPO_ROOT, 'dist', 'service', 'compile-thread-main.js');
const DEFAULT_COMPILER = join(REPO_ROOT, 'dist', 'compiler', 'index.js');

/**
 * compileUnit(text, options, ...rest) on a new thread, given up after budgetMs (then the result is a fallback
 * with the budget's reason). `rest` is plain data (service/unit.ts compileArgs): the thread opens the piece
 * store itself.
 */
export function compileInThread(text: string, options: CompileOptions, rest: unknown[], budgetMs: number, compileModule = DEFAULT_COMPILER): Promise<ThreadReply> {
  return new Promise(resolve => {
    let done = false;
    const answer = (r: ThreadReply): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    let worker: Worker;
    try {
      const job: ThreadJob = { compileModule, text, options, rest };
      worker = new Worker(THREAD_MAIN, { workerData: job });
    } catch (e) {
      answer({ result: crashResult(e instanceof Error ? e.message : String(e)), ms: 0 });
      return;
    }
    const timer = setTimeout(() => {
      answer({ result: unsupportedResult(overBudgetReason(budgetMs)), ms: budgetMs });
      void worker.terminate();
    }, budgetMs);
    worker.on('message', (r: ThreadReply) => { answer(r); void worker.terminate(); });
    worker.on('error', e => answer({ result: crashResult(e instanceof Error ? e.message : String(e)), ms: 0 }));
    worker.on('exit', code => answer({ result: crashResult(`exit ${code}`), ms: 0 }));
  });
}
