// The thread side of service/compile-thread.ts: one compileUnit call, its result posted back as plain data.

import { parentPort, workerData } from 'node:worker_threads';
import type { CompileEnv } from '../compiler/index';
import { pieceStoreAt, type PieceStoreRef } from './pieces';
import type { ThreadJob, ThreadReply } from './compile-thread';

const job = workerData as ThreadJob;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { compileUnit } = require(job.compileModule) as typeof import('../compiler/index');
// the in-process service's compileArgs: libdevice's bytes and where the piece store is (opened here, as a
// pool worker opens it)
const env = (job.rest[0] ?? {}) as CompileEnv & { pieceStore?: PieceStoreRef };
const pieces = env.pieceStore ? pieceStoreAt(env.pieceStore) : undefined;
const t0 = performance.now();
const result = compileUnit(job.text, job.options, { libdevice: env.libdevice, pieces });
const reply: ThreadReply = { result, ms: performance.now() - t0 };
parentPort!.postMessage(reply);
