// The mutation subset CI runs on every change (docs/testing.md): a fixed, small set of rules that
// guard money and access, with their own tests only, so that it stays well under 10 minutes on two
// cores. The full scope (stryker.config.mjs) is run by hand.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate: ['packages/contract/src/money.ts', 'apps/server/src/lib/password.ts'],
  // no type checker: the checker sees one TypeScript project, and these files sit in two (the
  // contract and the server); their tests kill the few mutants that would not compile anyway
  checkers: [],
  testFiles: ['packages/contract/src/money.test.ts', 'apps/server/src/lib/password.test.ts'],
  incrementalFile: 'reports/mutation/ci/stryker-incremental.json',
  htmlReporter: { fileName: 'reports/mutation/ci/index.html' },
  jsonReporter: { fileName: 'reports/mutation/ci/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
  concurrency: 2,
};
