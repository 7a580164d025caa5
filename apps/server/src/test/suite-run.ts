/**
 * Which run of the server suite this is (apps/server/vitest.config.ts):
 * - `postgres`: the whole suite on the PostgreSQL server of TEST_DATABASE_URL (npm run test:pg);
 * - `pglite-own`: PGlite beside such a run, for what differs on the embedded database (also
 *   asked for by name, TEST_DB=pglite-own, as the Node 24 check does);
 * - `whole`: PGlite with no PostgreSQL configured, so the whole suite runs here.
 */
export function serverSuiteRun(): 'postgres' | 'pglite-own' | 'whole' {
  const serverConfigured = Boolean(process.env.TEST_DATABASE_URL);
  if (process.env.TEST_DB === 'postgres' && serverConfigured) return 'postgres';
  if (process.env.TEST_DB === 'pglite-own' || serverConfigured) return 'pglite-own';
  return 'whole';
}
