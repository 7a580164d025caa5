// Mutation testing of the code that guards money and access (docs/testing.md).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'apps/server/tsconfig.json',
  mutate: [
    'apps/server/src/modules/{auth,users,payments,orders,receipts}/**/*.ts',
    'apps/server/src/modules/consents/customer-consents.ts',
    'apps/server/src/lib/password.ts',
    'packages/contract/src/money.ts',
    '!**/*.test.ts',
    '!**/test-support.ts',
  ],
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
