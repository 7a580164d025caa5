// The mutation subset CI runs on every change (docs/testing.md): scripts/mutation-ci.mjs chooses
// the files (those of the scope changed recently, or a window of the scope that moves with each
// commit) and their tests, and passes them as --mutate and --testFiles. Under 90 % fails.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  // the type checker stays: measured on orders/cursor.ts (PGlite, 2 cores, load 9 to 12) the run
  // took 7 min 54 s with it and 7 min 44 s without, since the mutants that do not compile (6 of
  // 24 there) are then never run; and it keeps the score the one of the full run, compile
  // errors not counted
  // every run is judged afresh: a result kept from an earlier run of other code or other tests
  // must never count a mutant as killed
  incremental: false,
  // CI runs the end-to-end tests first: their data and results (over 1,800 files) need not be
  // copied into Stryker's sandbox
  ignorePatterns: ['/e2e/.data', '/e2e/test-results', '/e2e/playwright-report'],
  // on a busy machine a directory's dry run took over the default 5 minutes (auth, 15 test files,
  // load 11); a slow run must not fail the gate as if a mutant had survived
  dryRunTimeoutMinutes: 10,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/ci/index.html' },
  jsonReporter: { fileName: 'reports/mutation/ci/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
  concurrency: 2,
};
