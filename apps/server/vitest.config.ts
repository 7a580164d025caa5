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
  // the closed-account purge: one transaction on the single connection while it deletes files
  'src/modules/privacy/closed-account-purge.test.ts',
  // npm start on the embedded defaults: migrations, seed, a sign-in, a graceful stop
  'src/cluster/shutdown.test.ts',
  // every route of the app answers on PGlite
  'src/fuzz.test.ts',
];

/**
 * Test files that replace modules with vi.mock. They run in a project of their own that gives each
 * file a fresh module graph (vitest.mocking.config.ts): where files share one, a module the app
 * imported earlier keeps its real implementation.
 */
export const MOCKING = [
  'src/lib/password.test.ts',
  'src/modules/auth/hashing.test.ts',
  'src/modules/auth/limits-concurrency.test.ts',
];

/** The server project `name`: the run's files (serverSuiteRun), or the mocking ones alone. */
export function serverProject(name: 'server' | 'server-mocking') {
  const run = serverSuiteRun();
  const files = {
    whole: ['src/**/*.test.ts'],
    'pglite-own': PGLITE_OWN,
    postgres: ['src/**/*.test.ts'],
  }[run];
  const mocking = name === 'server-mocking';
  return defineProject({
    test: {
      name,
      environment: 'node',
      include: mocking ? MOCKING : files,
      globalSetup: ['src/test/migrated-databases.ts'],
      exclude: [
        // PostgreSQL-only tests run in the PostgreSQL run alone (npm run test:pg, CI)
        ...(run === 'postgres' ? [] : ['src/**/*.pg.test.ts']),
        ...(mocking ? [] : MOCKING),
      ],
      // The files share each worker's modules: the app and its libraries load once per worker,
      // not once per file, which was two thirds of the PostgreSQL run's time (394 s of import).
      // Each file still opens a database of its own, and no module keeps state a test relies on.
      isolate: mocking,
      // argon2 and database set-up are slow on two cores
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // a poll waits only until it holds: Vitest's 1 s default failed under load (jobs/index.test.ts)
      expect: { poll: { timeout: 10_000 } },
    },
  });
}

export default serverProject('server');
