import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Three test files at a time on two cores: much of a file's time is spent waiting on the
    // processes, sockets and databases it drives, not on this process's CPU. Measured side by side on
    // a two-core machine (the SQLite pass): two at a time kept the cores 92 % busy (219 s), three 98 %
    // (202 s), for the same CPU.
    maxWorkers: 3,
    // A worker imports the server's modules once for all the files it runs, not once per file (a
    // quarter of the suite's time): each file starts its own servers and databases, and none
    // changes a module's state for the next.
    isolate: false,
    globalSetup: ['test/support/global-setup.ts'],
    // `--coverage` (the SQLite pass of `npm test`): the server's code run by the suite, with a floor
    // a little below what it measures, so a change that leaves code untested fails the check.
    coverage: {
      provider: 'v8',
      include: ['server/**/*.ts'],
      exclude: ['server/db/migrations/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // Measured: statements 85.7 %, branches 79.1 %, functions 85.3 %, lines 87.5 % (code run in the
      // test processes; the `finance` commands the tests spawn are not counted).
      thresholds: { statements: 84, branches: 77, functions: 83, lines: 86 },
    },
  },
});
