import { defineConfig } from 'vitest/config';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
    // Tests compile in-process with a fresh cache of their own unless they say otherwise: no test leaves a
    // daemon behind or reads the user's cache. The daemon tests set their own cache dir and socket.
    env: { PTXD_DAEMON: '0', PTXD_CACHE_DIR: mkdtempSync(join(tmpdir(), 'ptxd-vitest-cache-')) },
  },
});
