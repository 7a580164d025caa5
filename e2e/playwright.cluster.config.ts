import { defineConfig } from '@playwright/test';
import base, { E2E_DATA_DIR } from './playwright.config';
import { PORT } from './support/ports';

/**
 * A subset of the suite (sign-in, refresh, logout, the dashboard after a purchase) against two
 * portal processes on one PostgreSQL database behind haproxy, round robin: what one instance
 * starts, the other must finish. Needs haproxy and TEST_DATABASE_URL (npm run test:cluster:e2e).
 */

export default defineConfig({
  ...base,
  outputDir: `test-results/cluster-${PORT}`,
  projects: [
    {
      name: 'cluster',
      testMatch: /(auth|dashboard)\.spec\.ts/,
      grep: /signs in with the demo account|logout ends the session|expired access token is refreshed|shows the welcome|after a purchase and a consent deletion/,
    },
    { name: 'cluster-instances', testDir: './cluster', testMatch: /\.spec\.ts$/ },
  ],
  webServer: {
    command: 'node --import tsx cluster-server.mjs',
    url: `http://localhost:${PORT}/api/health/ready`,
    reuseExistingServer: false,
    timeout: 240_000,
    env: { PORT: String(PORT), DATA_DIR: E2E_DATA_DIR },
    stdout: 'pipe',
    // stopped by SIGTERM rather than killed, so that cluster-server.mjs drops its database
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
  },
});
