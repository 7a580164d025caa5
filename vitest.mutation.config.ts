import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { MOCKING } from './apps/server/vitest.config';

// Mutation testing copies the repository into a sandbox whose node_modules still link to the
// original packages, so the contract is resolved by path: its mutants must reach the tests.
const contractEntry = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));

const mocking = MOCKING.map((file) => `apps/server/${file}`);

export default defineConfig({
  resolve: { alias: { '@portal/contract': contractEntry } },
  test: {
    environment: 'node',
    // the migrations run once per run, as in the server suite (apps/server/vitest.config.ts)
    globalSetup: ['apps/server/src/test/migrated-databases.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'mutation',
          include: ['apps/server/src/**/*.test.ts', 'packages/contract/src/**/*.test.ts'],
          // the PostgreSQL-only tests (races, outages) join when the run is on PostgreSQL
          exclude: [...(process.env.TEST_DB === 'postgres' ? [] : ['**/*.pg.test.ts']), ...mocking],
          // the files share the runner's modules, as the server suite's do: the app loads once,
          // not once per file and mutant; a mutant is switched on at run time, and static
          // mutants, which only a fresh load would show, are left out (ignoreStatic)
          isolate: false,
        },
      },
      // the files that replace modules with vi.mock keep a module graph each
      { extends: true, test: { name: 'mutation-mocking', include: mocking } },
    ],
  },
});
