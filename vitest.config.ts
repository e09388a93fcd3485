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
    // Tests compile in-process and uncached, with a cache dir of their own (fallbacks.jsonl), unless they
    // say otherwise: no test leaves a daemon behind, reads the user's cache, or passes off a cache hit as
    // a compile. The daemon/store tests set their own cache dir and socket.
    env: { PTXD_DAEMON: '0', PTXD_CACHE: '0', PTXD_CACHE_DIR: mkdtempSync(join(tmpdir(), 'ptxd-vitest-cache-')) },
  },
});
