// Mutation testing of the code that guards money and access, and of the modules built past the
// spec (docs/testing.md).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.mutation.json',
  mutate: [
    'apps/server/src/modules/{auth,users,payments,orders,receipts,invoices,two-factor,security}/**/*.ts',
    'apps/server/src/modules/{exports,privacy,reminders,billing}/**/*.ts',
    'apps/server/src/modules/consents/customer-consents.ts',
    // the sandbox bank's enforcement of a consent's terms (what a partner may read, how often)
    'apps/server/src/sandbox/bank/service.ts',
    'apps/server/src/lib/{password,signed-links,signing-certificate,history-cursor,uuid,rate-limit,after-answer}.ts',
    'packages/contract/src/money.ts',
    'packages/contract/src/gst.ts',
    // where the documents' words are drawn (fonts, sizes, points): no assertion tells a line a
    // few points off from a right one; every word and amount it draws comes from content.ts
    '!apps/server/src/modules/invoices/document-pdf.ts',
    '!**/*.test.ts',
  ],
  coverageAnalysis: 'perTest',
  // a mutant counts as a hang only well past its tests' usual time: on a busy machine a tight
  // margin turns slow runs into Timeouts, which would count as caught
  timeoutMS: 45_000,
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
