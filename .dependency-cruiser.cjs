// The import rules of the server's and the web app's sources (decisions 065 and 067), run by
// `npm run lint` through scripts/import-rules.mjs, which also refuses any circle between the
// server's modules or the web app's features. Type imports count; tests and test helpers do not.

const SERVER = '^apps/server/src/';

/**
 * The server's layers, lowest first (../shared/ARCHITECTURE.md, "one way down"): a file imports
 * only its own layer and those below it. The tables come first: every module may read any
 * table, and a table refers only to tables.
 */
const LAYERS = {
  tables: [
    // a module's tables, in schema.ts or, where it has several kinds, in `<kind>-schema.ts`
    `${SERVER}(modules|sandbox)/[^/]+/[a-z-]*schema\\.ts$`,
    `${SERVER}db/schema\\.ts$`,
    // the audit row's details: the type of one of its columns
    `${SERVER}modules/audit/details\\.ts$`,
    // what an invoice or credit note says: the type of the column its PDF is drawn from
    `${SERVER}modules/invoices/document-content\\.ts$`,
  ],
  infrastructure: [
    `${SERVER}(db|adapters|lib)/`,
    `${SERVER}(config|deps)\\.ts$`,
    // what the operator reads of a running instance
    `${SERVER}modules/(metrics|health)/`,
  ],
  foundation: [`${SERVER}modules/(users|activity|preferences|mail|audit)/`],
  features: [
    `${SERVER}modules/(auth|security|two-factor|passkeys|consents|partners|billing|plans|plugins|invoices)/`,
  ],
  flows: [`${SERVER}modules/(purchases|privacy|exports|reminders|auto-renewal)/`],
  // wires the rest together: the app, its start, jobs, the CLI, the sandboxes and the demo data
  composition: [
    `${SERVER}(jobs|cli|sandbox|demo)/`,
    `${SERVER}(?!config\\.ts$|deps\\.ts$)[^/]+\\.ts$`,
  ],
};

const layerNames = Object.keys(LAYERS);
const layerRules = layerNames.flatMap((layer, index) =>
  layerNames.slice(index + 1).map((above) => ({
    name: `${layer}-not-to-${above}`,
    severity: 'error',
    comment: `The ${layer} layer imports nothing of the ${above} layer above it.`,
    from: { path: LAYERS[layer], pathNot: layer === 'tables' ? [] : LAYERS.tables },
    to: { path: LAYERS[above], pathNot: LAYERS.tables },
  })),
);

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
    ...layerRules,
    {
      name: 'server-file-in-a-layer',
      severity: 'error',
      comment: 'Every source file of the server is in one of the layers (LAYERS above).',
      from: { path: SERVER, pathNot: Object.values(LAYERS).flat() },
      to: {},
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
        // the two-instance tests' harness: haproxy and the processes behind it
        '^apps/server/src/cluster/',
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
