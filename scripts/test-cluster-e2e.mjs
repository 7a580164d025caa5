// Runs the end-to-end subset through haproxy in front of two portal instances on PostgreSQL
// (e2e/playwright.cluster.config.ts), when a PostgreSQL server is configured.
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.log(
    'test:cluster:e2e: TEST_DATABASE_URL is not set, so the end-to-end subset through two ' +
      'instances behind haproxy did not run. Set it (and install haproxy) to run it; .ci/run does.',
  );
  process.exit(0);
}
const result = spawnSync('npm', ['run', 'test:cluster:e2e'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
