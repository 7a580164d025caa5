// The portal as a cluster, for the end-to-end subset of playwright.cluster.config.ts: a fresh
// PostgreSQL database, two portal processes and haproxy in front of them on E2E_PORT, and the
// suite's customer service on the same database. Run with `node --import tsx`, which lets it use
// the server's own cluster helpers.
import { rmSync } from 'node:fs';
import { builtWeb } from './build-web.mjs';
import { serveCustomers } from './customer-service.mjs';
import { customerServicePort } from './support/ports.ts';
import { startHaproxy } from '../apps/server/src/cluster/haproxy.ts';
import {
  createPostgresDatabase,
  startPortal,
  stopPortal,
} from '../apps/server/src/cluster/processes.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createDeps } from '../apps/server/src/create-deps.ts';

const port = Number(process.env.PORT);
const dataDir = process.env.DATA_DIR;
const webDir = builtWeb();
rmSync(dataDir, { recursive: true, force: true });

const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
const env = {
  DATABASE_URL: database.url,
  // one data folder: the outbox the specs read codes from, the files, the sandbox's secrets
  DATA_DIR: dataDir,
  WEB_DIST_DIR: webDir,
  PUBLIC_URL: `http://localhost:${port}`,
  TRUST_PROXY: '127.0.0.1',
  LOG_LEVEL: 'warn',
};
const ports = { a: port + 1, b: port + 2 };
const portals = [await startPortal(ports.a, env), await startPortal(ports.b, env)];
const lb = await startHaproxy(dataDir, port, ports);
console.log(`haproxy on ${lb.url} in front of ${Object.values(ports).join(' and ')}`);

// PostgreSQL takes a client beside the portals: customers are made in the database they serve
const config = loadConfig({ ...process.env, ...env, NODE_ENV: 'test', PORT: String(port) });
const customerDb = await openDatabase(config);
const customerDeps = await createDeps(config, customerDb.db);
const customers = await serveCustomers(customerDeps, customerServicePort(port));

const stop = async () => {
  customers.close();
  customerDeps.mailer.close();
  await customerDb.close();
  await lb.stop();
  await Promise.all(portals.map(stopPortal));
  await database.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
