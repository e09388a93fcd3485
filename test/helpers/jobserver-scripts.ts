// Node scripts that Makefiles in the jobserver tests run from `+` recipes (so make's pipe fds are open).
import * as path from 'node:path';
import { REPO_ROOT } from './tools';

/** The built jobserver client the scripts load. */
export const JOBSERVER_JS = path.join(REPO_ROOT, 'dist', 'protocol', 'jobserver.js');

/**
 * Takes exactly N tokens (`node check-tokens.js N`, waiting up to 5 s for each: jobs that finish give
 * theirs back) and checks that there is no other; gives them back.
 */
export const CHECK_TOKENS = `const { parseMakeflags, TokenPool } = require(${JSON.stringify(JOBSERVER_JS)});
(async () => {
  const want = Number(process.argv[2]);
  const mj = parseMakeflags(process.env.MAKEFLAGS);
  const pool = mj && TokenPool.open(mj);
  if (!pool) { console.log('tokens: no jobserver here'); process.exit(1); }
  let n = 0;
  while (n < want && await pool.acquire(5000)) n++;
  const extra = await pool.acquire(300);
  pool.close();
  console.log(n === want && !extra ? 'tokens ok ' + n : 'tokens wrong: got ' + n + (extra ? ' and more' : ''));
  process.exit(n === want && !extra ? 0 : 1);
})();
`;
