import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time even on two cores: much of a file's time is spent waiting on the
    // processes, sockets and databases it drives, not on this process's CPU.
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
