import { defineProject } from 'vitest/config';
import { serverSuiteRun } from './src/test/suite-run';

/**
 * Where a PostgreSQL server is configured (TEST_DATABASE_URL), the whole suite runs once on it
 * (npm run test:pg), the production database, and the PGlite run keeps what differs on the
 * embedded database: the code written for it, a real start and stop of the portal on it, and a
 * walk of every route (fuzz.test.ts, with fewer inputs). Without PostgreSQL, PGlite runs it all.
 */
const PGLITE_OWN = [
  // the connection's fair turns, named statements, the data folder's lock and outage answers
  'src/db/**/*.test.ts',
  'src/lib/http-errors.test.ts',
  'src/lib/logging.test.ts',
  'src/modules/health/**/*.test.ts',
  // pg-boss on PGlite's single connection: the workers' start, schedules and stop
  'src/adapters/queue.test.ts',
  'src/jobs/index.test.ts',
  'src/jobs/schedule.test.ts',
  // npm start on the embedded defaults: migrations, seed, a sign-in, a graceful stop
  'src/cluster/shutdown.test.ts',
  // every route of the app answers on PGlite
  'src/fuzz.test.ts',
];

const include = {
  whole: ['src/**/*.test.ts'],
  'pglite-own': PGLITE_OWN,
  postgres: ['src/**/*.test.ts'],
}[serverSuiteRun()];

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include,
    globalSetup: ['src/test/migrated-databases.ts'],
    // PostgreSQL-only tests run in the PostgreSQL run alone (npm run test:pg, CI)
    exclude: serverSuiteRun() === 'postgres' ? [] : ['src/**/*.pg.test.ts'],
    // argon2 and database set-up are slow on two cores
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // a poll waits only until it holds: Vitest's 1 s default failed under load (jobs/index.test.ts)
    expect: { poll: { timeout: 10_000 } },
  },
});
