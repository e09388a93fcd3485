// The child side of processRunner() (bench/common.ts): runs each command it is sent, as a process of its own,
// and answers with its wall time, exit status and stderr.

import { spawnSync } from 'node:child_process';

interface Request { cmd: string; argv: string[] }

process.on('message', (m: Request) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(m.cmd, m.argv, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.send!({ ms, status: r.status, stderr: r.error ? String(r.error) : r.stderr });
});
