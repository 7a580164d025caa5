/**
 * One run, two measurements, each against its budget:
 * 1. requests per second of an authenticated GET /api/auth/profile, as a ratio of a bare
 *    Fastify route served by the same machine in the same run;
 * 2. the JavaScript the browser loads for /login on first visit, gzipped.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';

const BUDGET = {
  /**
   * The authenticated endpoint verifies a JWT and makes three database reads (session, customer,
   * current plan); the bare route does nothing. Measured 0.016-0.023 on PGlite, 0.042 on PostgreSQL, two cores (README.md).
   */
  minProfileToBareRatio: 0.012,
  maxLoginFirstLoadGzipKiB: 200,
};
const DURATION_SECONDS = 8;
const CONNECTIONS = 10;

const repoRoot = path.resolve(import.meta.dirname, '..');
const webDist = path.join(repoRoot, 'apps/web/dist');

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.requests.average;
}

async function signInDemo(baseUrl: string, outbox: string): Promise<string> {
  const post = async (route: string, body: unknown) => {
    const res = await fetch(baseUrl + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const { tempToken } = await post('/api/auth/login', {
    email: 'demo@acme.example',
    mobile: '9876543210',
    gstNo: '27AAPFU0939F1ZV',
    tally_serialno: '712345678',
    password: 'Demo@12345',
    rememberMe: false,
  });
  const newest = (await readdir(outbox)).sort().at(-1)!;
  const code = (await readFile(path.join(outbox, newest), 'utf8')).match(/\b(\d{6})\b/)![1];
  const { token } = await post('/api/auth/verify-2fa', { tempToken, verificationCode: code });
  return token!;
}

/** A new database on the PostgreSQL server at `serverUrl`, and a way to drop it again. */
async function freshPostgresDatabase(serverUrl: string) {
  const name = `portal_bench_${Date.now()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`) };
}

/** BENCH_DATABASE_URL measures on that PostgreSQL server; by default the embedded PGlite. */
async function apiThroughput(serverUrl?: string) {
  const postgres = serverUrl ? await freshPostgresDatabase(serverUrl) : undefined;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-bench-'));
  const { loadConfig } = await import('../apps/server/src/config');
  const { openDatabase } = await import('../apps/server/src/db/client');
  const { createDeps } = await import('../apps/server/src/deps');
  const { seedDemoIfEmpty } = await import('../apps/server/src/db/seed');
  const { buildApp } = await import('../apps/server/src/app');

  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    NODE_ENV: 'production',
    JWT_SECRET: 'b'.repeat(40),
    LINK_SIGNING_SECRET: 'c'.repeat(40),
    DATA_ENCRYPTION_KEY: 'd'.repeat(40),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    PUBLIC_URL: 'http://127.0.0.1',
  });
  const database = await openDatabase(config);
  await database.migrate();
  const deps = await createDeps(config, database.db);
  await seedDemoIfEmpty(deps);
  const app = await buildApp(deps, { logger: false });
  const portalUrl = await app.listen({ host: '127.0.0.1', port: 0 });

  const bare = Fastify();
  bare.get('/bare', async () => ({ success: true }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  try {
    const token = await signInDemo(portalUrl, path.join(dataDir, 'outbox'));
    const bareRps = await measure(`${bareUrl}/bare`);
    const profileRps = await measure(`${portalUrl}/api/auth/profile`, {
      authorization: `Bearer ${token}`,
    });
    return { bareRps, profileRps, ratio: profileRps / bareRps, database: database.kind };
  } finally {
    await app.close();
    await bare.close();
    deps.mailer.close();
    await database.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/** The entry chunk, the login route's chunk, and everything they import statically. */
function loginFirstLoadBytes() {
  const manifest = JSON.parse(
    readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit('index.html');
  visit('src/app/routes/login.tsx');
  let gzip = 0;
  let raw = 0;
  for (const key of seen) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    const bytes = readFileSync(path.join(webDist, chunk.file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: seen.size, rawKiB: raw / 1024, gzipKiB: gzip / 1024 };
}

const api = await apiThroughput(process.env.BENCH_DATABASE_URL);
const bundle = loginFirstLoadBytes();
const fmt = (n: number, digits = 0) => n.toLocaleString('en-IN', { maximumFractionDigits: digits });

console.log(
  `\nAPI throughput (${DURATION_SECONDS} s each, ${CONNECTIONS} connections, ${api.database}):`,
);
console.log(`  bare Fastify route          ${fmt(api.bareRps)} req/s`);
console.log(`  GET /api/auth/profile       ${fmt(api.profileRps)} req/s (bearer token)`);
console.log(
  `  ratio profile / bare        ${fmt(api.ratio, 3)} (budget >= ${BUDGET.minProfileToBareRatio})`,
);
console.log(
  `\n/login first load: ${bundle.files} JS chunks, ${fmt(bundle.rawKiB, 1)} KiB raw, ${fmt(bundle.gzipKiB, 1)} KiB gzipped (budget <= ${BUDGET.maxLoginFirstLoadGzipKiB} KiB)`,
);

const failures = [
  api.ratio < BUDGET.minProfileToBareRatio && 'API ratio below budget',
  bundle.gzipKiB > BUDGET.maxLoginFirstLoadGzipKiB && '/login first load above budget',
].filter(Boolean);
if (failures.length > 0) {
  console.error(`\nOver budget: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nWithin budget.');
