import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Mutation testing copies the repository into a sandbox whose node_modules still link to the
// original packages, so the contract is resolved by path: its mutants must reach the tests.
const contractEntry = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@portal/contract': contractEntry } },
  test: {
    environment: 'node',
    include: ['apps/server/src/**/*.test.ts', 'packages/contract/src/**/*.test.ts'],
    // the PostgreSQL-only tests (races, outages) join when the run is on PostgreSQL
    exclude: process.env.TEST_DB === 'postgres' ? [] : ['**/*.pg.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
