// The import rules of the server's and the web app's sources (decision 065).
// `npm run lint` runs them with the violations known when they were written
// (.dependency-cruiser-known-violations.json): a new one fails, and each one mended is removed
// from that file by `npm run lint:deps:baseline`. Type imports count; tests and test helpers
// do not.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No file reaches itself through its imports, type imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'adapters-not-to-sandbox',
      severity: 'error',
      comment: 'No adapter imports the sandbox: the sandboxes plug in at composition (deps.ts).',
      from: { path: '^apps/server/src/adapters/' },
      to: { path: '^apps/server/src/sandbox/' },
    },
    {
      name: 'db-client-not-to-queue',
      severity: 'error',
      comment: 'The database client imports no adapter: migrate() is handed the queue install.',
      from: { path: '^apps/server/src/db/client\\.ts$' },
      to: { path: '^apps/server/src/adapters/' },
    },
    {
      name: 'mail-not-to-features',
      severity: 'error',
      comment: 'Mail is below the features: it imports none of them.',
      from: { path: '^apps/server/src/modules/mail/' },
      to: { path: '^apps/server/src/modules/(?!mail/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: [
        '\\.test\\.tsx?$',
        '^apps/server/src/test/',
        '^apps/web/src/test/',
        '/test-support\\.ts$',
        '/testing\\.ts$',
      ],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
