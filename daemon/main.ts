// The daemon process: `node dist/daemon/main.js --socket PATH`. Started detached by a client (or by
// `ptxd daemon start`); its stdout/stderr go to the log file next to the socket.

import { Daemon } from './server';
import { socketPath } from '../protocol/paths';

function main(argv: string[]): void {
  const i = argv.indexOf('--socket');
  const socket = i >= 0 && argv[i + 1] ? argv[i + 1]! : socketPath(process.env);
  const d = new Daemon({ socket, env: process.env });
  process.on('uncaughtException', e => {
    d.logLine(`fatal: ${e.stack ?? String(e)}`);
    process.exit(1);
  });
  d.start().catch(e => {
    const code = (e as NodeJS.ErrnoException).code;
    d.logLine(code === 'ELIVE' ? `not starting: ${(e as Error).message}` : `cannot start: ${(e as Error).stack ?? String(e)}`);
    process.exit(code === 'ELIVE' ? 0 : 1);
  });
}

main(process.argv.slice(2));
