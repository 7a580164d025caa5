// Runs the server's integration tests again on a real PostgreSQL, when one is configured.
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.log(
    'test:pg: TEST_DATABASE_URL is not set, so the server suite ran on PGlite only. ' +
      'Set it (for example postgres://portal:portal@localhost:5432/postgres) to run it on PostgreSQL too; .ci/run does.',
  );
  process.exit(0);
}
const result = spawnSync('npx', ['vitest', 'run', '--project', 'server*'], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DB: 'postgres' },
});
process.exit(result.status ?? 1);
