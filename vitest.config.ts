import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'apps/server/vitest.config.ts',
      'apps/server/vitest.mocking.config.ts',
      'apps/web',
    ],
    // one worker per core, not Vitest's default of one fewer: the server suite's files spend much
    // of their time waiting on their databases, so on two cores a second worker halves the run
    maxWorkers: availableParallelism(),
  },
});
