// The portal as a cluster, for the end-to-end subset of playwright.cluster.config.ts: a fresh
// PostgreSQL database, two portal processes and haproxy in front of them on E2E_PORT. Run with
// `node --import tsx`, which lets it use the server's own cluster helpers.
import { buildWebInto } from './build-web.mjs';
import { startHaproxy } from '../apps/server/src/cluster/haproxy.ts';
import {
  createPostgresDatabase,
  startPortal,
  stopPortal,
} from '../apps/server/src/cluster/processes.ts';

const port = Number(process.env.PORT);
const dataDir = process.env.DATA_DIR;
const webDir = buildWebInto(dataDir);

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

const stop = async () => {
  await lb.stop();
  await Promise.all(portals.map(stopPortal));
  await database.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
