import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { PORT } from './support/ports';

// Debian's headless shell, where installed (.ci/run installs it): the same Chromium without the
// full browser's windowing, which ran the suite about a fifth faster on two cores. Else Debian's
// full Chromium, in its headless mode.
const DEBIAN_CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
const CHROMIUM = process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM.find((binary) => existsSync(binary));
if (!CHROMIUM || !existsSync(CHROMIUM)) {
  throw new Error(
    `Chromium was not found at ${CHROMIUM ?? DEBIAN_CHROMIUM.join(' or ')}. Install it with: ` +
      'apt-get install -y chromium chromium-headless-shell (or set CHROMIUM_PATH to a Chromium binary).',
  );
}

// Each port gets its own data folder, so suites on several ports never collide.
export const E2E_DATA_DIR = path.resolve(import.meta.dirname, `.data/${PORT}`);

export default defineConfig({
  testDir: './specs',
  // Every test signs in as a customer of its own (support/fixtures.ts) and reads only its mail,
  // so tests may run side by side. One worker left the two cores 47 % idle, waiting on the
  // browser and the portal; two workers took the 92 tests from 4.4 min to 2.9 min. So one worker
  // per core, and at least two. E2E_WORKERS sets the number.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? Math.max(2, availableParallelism())),
  retries: 0,
  // two tests at once share the two cores with the portal: each may take up to twice as long
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: `test-results/${PORT}`,
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    // A failed test keeps its trace: every action with the DOM as it stood, the network and the
    // console. Without the trace's screencast, which made a third of the suite's CPU (its frames
    // drawn, encoded and shipped for every test, kept only for the few that fail): 22 tests took
    // 170 s with it and 131 s without on two cores. The failure's own screenshot is still taken.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'desktop' },
    {
      // every screen walked again on a touch phone (e2e/specs/responsive.spec.ts)
      name: 'phone',
      testMatch: /responsive\.spec\.ts/,
      use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
    },
  ],
  webServer: {
    command: 'node server.mjs',
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT), DATA_DIR: E2E_DATA_DIR },
    stdout: 'pipe',
  },
});
