/**
 * The servers each database's part starts (the portal as deployed, its twins without metrics, a
 * profiled one, the peer and the bare route on PostgreSQL; the portal on PGlite) and what is
 * measured against them.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { measureThroughput } from './api';
import { apiRows, consentsPage, throughputRows } from './api-rows';
import { BUDGET } from './budgets';
import { freshPostgresDatabase, prepareDatabase } from './database';
import { issuingRows } from './issuing';
import { renewalDayRows } from './renewal-day';
import { SECRETS, signIn, startPortal, type Portal } from './portal';
import { startProgram, type ServerProcess } from './processes';
import { count, size } from './report';
import { scaleRows } from './scale-rows';
import { accountOf } from './seed';
import type { BenchRun } from './settings';
import { assetRows, lighthouseRows } from './web-rows';

export async function onPostgres(run: BenchRun, webDist: string, work: string) {
  const { settings, report, serverUrl } = run;
  const database = await freshPostgresDatabase(serverUrl);
  try {
    report.startSection('seeding PostgreSQL');
    const seeded = Date.now();
    await prepareDatabase({ DATABASE_URL: database.url, DATA_DIR: work }, settings.seed);
    const { small, large } = settings.seed.measured;
    const others = settings.seed.others;
    report.number(
      `${count(large.consents + small.consents + others.customers * others.consents)} consents, ${count(large.orders + small.orders + others.customers * others.orders)} orders, ${count(others.customers + 2)} customers`,
      (Date.now() - seeded) / 1000,
      's',
      0,
    );
    const servers: ServerProcess[] = [];
    try {
      // Two without metrics beside the portal. Of identical portal processes on one database, the
      // first started served 5 to 8 % slower than the next in turns (three runs): a twin is
      // started first, and the portal is set against the twin started after it.
      const withoutMetrics = () =>
        startPortal({ dataDir: work, webDist, databaseUrl: database.url, metrics: false });
      const firstTwin = await withoutMetrics();
      servers.push(firstTwin);
      const portal = await startPortal({ dataDir: work, webDist, databaseUrl: database.url });
      servers.push(portal);
      const lastTwin = await withoutMetrics();
      servers.push(lastTwin);
      const unwatched: [Portal, Portal] = [lastTwin, firstTwin];
      // one more as deployed, whose CPU profile tells what the metrics take of it
      const profileDir = path.join(work, 'cpu-profile');
      await mkdir(profileDir, { recursive: true });
      const profiled = await startPortal({
        dataDir: work,
        webDist,
        databaseUrl: database.url,
        cpuProfileDir: profileDir,
      });
      servers.push(profiled);
      const peer = await startProgram('peer', 'peer.ts', {
        PEER_DATABASE_URL: database.url,
        ...SECRETS,
      });
      servers.push(peer);
      const bare = await startProgram('bare Fastify', 'bare.ts');
      servers.push(bare);
      await report.attempt('API', () =>
        apiRows(run, portal, unwatched, { portal: profiled, dir: profileDir }, peer, bare),
      );
      if (run.apiOnly) return;
      await report.attempt('assets', () => assetRows(report, portal));
      for (const route of settings.lighthousePaths) {
        await report.attempt(`Lighthouse ${route}`, () => lighthouseRows(run, portal, route));
      }
      // last: loading every one of a million consents may take the portal down
      await report.attempt('server time', () => scaleRows(run, portal));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  } finally {
    await database.drop();
  }
  if (run.apiOnly) return;
  report.startSection('issuing on PostgreSQL');
  await report.attempt('issuing', () => issuingRows(run, work));
  report.startSection(
    `renewal day on PostgreSQL: ${count(settings.renewal.subscriptions)} subscriptions charged, webhooks through haproxy to 2 portals`,
  );
  await report.attempt('renewal day', () => renewalDayRows(run, webDist, work));
}

export async function onPglite(run: BenchRun, webDist: string, work: string) {
  const { settings, report } = run;
  const { connections, seconds } = settings.load;
  const dataDir = path.join(work, 'pglite');
  const { small } = settings.seed.measured;
  await prepareDatabase({ DATA_DIR: dataDir }, { ...settings.seed, measured: { small } });
  const portal = await startPortal({ dataDir, webDist });
  try {
    report.startSection(
      `API on PGlite: ${connections} connections, ${seconds} s, the customer with ${size(small.consents)} consents`,
    );
    const session = await signIn(portal, accountOf('small'));
    const measured = await measureThroughput(
      {
        url: portal.url + consentsPage(session.userId),
        pid: portal.pid,
        headers: { authorization: `Bearer ${session.token}` },
      },
      settings.load,
    );
    throughputRows(run, 'consents page', measured, {
      p99Ms: BUDGET.maxPgliteConsentsP99Ms,
    });
  } finally {
    await portal.stop();
  }
}
