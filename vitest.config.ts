import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { serverSuiteRun } from './apps/server/src/test/suite-run';

export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'apps/server/vitest.config.ts',
      // the files that mock modules; no run of PGlite's own holds any of them
      ...(serverSuiteRun() === 'pglite-own' ? [] : ['apps/server/vitest.mocking.config.ts']),
      'apps/web',
    ],
    // one worker per core, not Vitest's default of one fewer: the server suite's files spend much
    // of their time waiting on their databases, so on two cores a second worker halves the run
    maxWorkers: availableParallelism(),
  },
});
