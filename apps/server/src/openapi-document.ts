// Writes the OpenAPI document that /api/docs serves to the file named on the command line, as
// JSON, so that it can be linted (`npm run lint:api`) or handed to a client generator.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openPglite } from './db/client';
import { createDeps } from './create-deps';

const target = process.argv[2];
if (!target) {
  console.error('usage: openapi-document <file.json>');
  process.exit(2);
}

// the embedded defaults, in a folder of their own: nothing here touches ./data
const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-openapi-'));
try {
  const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  // building the app reads nothing from the database: an empty one in memory will do
  const database = await openPglite();
  const app = await buildApp(await createDeps(config, database.db), { logger: false });
  await app.ready();
  await mkdir(path.dirname(path.resolve(target)), { recursive: true });
  await writeFile(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
  await database.close();
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
