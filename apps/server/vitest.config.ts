import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/migrated-databases.ts'],
    // PostgreSQL-only tests run in the PostgreSQL run alone (npm run test:pg, CI)
    exclude: process.env.TEST_DB === 'postgres' ? [] : ['src/**/*.pg.test.ts'],
    // argon2 and database set-up are slow on two cores
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
