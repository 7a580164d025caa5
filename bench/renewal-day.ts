/**
 * Renewal day (issue 34, decision 084): every auto-renewal charged within the hour. On a fresh
 * PostgreSQL database, the sandbox gateway and IRP run in a process of their own
 * (renewal-gateway.ts); each charge's webhook goes through haproxy to two portals as deployed,
 * which record the charge, extend the plan, issue the invoice, register it with the IRP, draw
 * it and mail the receipt. Every charge must give exactly one of each, and the queue must be
 * empty within the hour.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SANDBOX_GATEWAY_PREFIX } from '../apps/server/src/adapters/payment-gateway';
import { installQueue } from '../apps/server/src/adapters/queue-install';
import { startHaproxy } from '../apps/server/src/cluster/haproxy';
import { waitUntilReady } from '../apps/server/src/cluster/processes';
import { openDatabase, type Database } from '../apps/server/src/db/client';
import { localSecretsFile } from '../apps/server/src/lib/secrets';
import {
  SANDBOX_IRP_CLIENT_ID,
  SANDBOX_IRP_PASSWORD_KEY,
  SANDBOX_IRP_PREFIX,
  SANDBOX_IRP_SECRET_KEY,
  SANDBOX_IRP_USERNAME,
} from '../apps/server/src/sandbox/irp/settings';
import { BUDGET } from './budgets';
import { freshPostgresDatabase } from './database';
import { inTurns, waitUntil } from './issuing';
import { SECRETS, startPortal, UNUSED_SERVICES } from './portal';
import { freePort, printsListening, startNodeServer, type ServerProcess } from './processes';
import { count } from './report';
import {
  chargesRecorded,
  countRenewalDay,
  queueState,
  seedRenewalDay,
  subscriptionIds,
  WEBHOOK_COUNTS_PATH,
  type RenewalDay,
  type WebhookCounts,
} from './renewal-data';
import type { BenchRun } from './settings';

/** The gateway's key and webhook secret: the portals are given the same. */
const GATEWAY = {
  PAYMENT_GATEWAY_KEY_ID: UNUSED_SERVICES.PAYMENT_GATEWAY_KEY_ID,
  PAYMENT_GATEWAY_KEY_SECRET: UNUSED_SERVICES.PAYMENT_GATEWAY_KEY_SECRET,
  PAYMENT_GATEWAY_WEBHOOK_SECRET: UNUSED_SERVICES.PAYMENT_GATEWAY_WEBHOOK_SECRET,
};
/** The supplier, whose GSTIN is also the IRP's API user's. */
const SUPPLIER_GSTIN = '29AAGCL1234M1ZA';
/** The sandbox IRP's credentials, which it keeps in its data folder: written there first. */
const IRP_SECRETS = {
  [SANDBOX_IRP_SECRET_KEY]: 'bench-irp-client-secret',
  [SANDBOX_IRP_PASSWORD_KEY]: 'bench-irp-password',
};
/** How often the queue is looked at while it drains. */
const POLL_MS = 1_000;

/** The gateway's process: the sandboxes on the database, webhooks to `publicUrl` (haproxy). */
async function startGateway(databaseUrl: string, publicUrl: string, dataDir: string) {
  await mkdir(dataDir, { recursive: true });
  await writeFile(localSecretsFile(dataDir), JSON.stringify(IRP_SECRETS), { mode: 0o600 });
  return startNodeServer({
    name: 'sandbox gateway',
    script: 'bench/renewal-gateway.ts',
    env: {
      NODE_ENV: 'production',
      SANDBOX: 'on',
      E_INVOICING: 'on',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      PUBLIC_URL: publicUrl,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'false',
      INVOICE_SUPPLIER_GSTIN: SUPPLIER_GSTIN,
      ...SECRETS,
      ...GATEWAY,
    },
    ready: printsListening,
  });
}

/** What a portal behind haproxy is given: the gateway and the IRP at the gateway's process. */
const portalEnv = (gatewayUrl: string, publicUrl: string) => ({
  PUBLIC_URL: publicUrl,
  TRUST_PROXY: '127.0.0.1',
  PAYMENT_GATEWAY_URL: `${gatewayUrl}${SANDBOX_GATEWAY_PREFIX}`,
  ...GATEWAY,
  E_INVOICING: 'on',
  E_INVOICE_URL: `${gatewayUrl}${SANDBOX_IRP_PREFIX}`,
  E_INVOICE_CLIENT_ID: SANDBOX_IRP_CLIENT_ID,
  E_INVOICE_CLIENT_SECRET: IRP_SECRETS[SANDBOX_IRP_SECRET_KEY],
  E_INVOICE_USERNAME: SANDBOX_IRP_USERNAME,
  E_INVOICE_PASSWORD: IRP_SECRETS[SANDBOX_IRP_PASSWORD_KEY],
  E_INVOICE_GSTIN: SUPPLIER_GSTIN,
  INVOICE_SUPPLIER_GSTIN: SUPPLIER_GSTIN,
});

/**
 * The sandbox's operator call for each subscription, `concurrency` at once: a successful charge
 * of its next cycle. It answers once its webhook has been answered (or given up after 5 s).
 * Answers what was refused.
 */
async function chargeAll(gatewayUrl: string, ids: string[], concurrency: number) {
  const { PAYMENT_GATEWAY_KEY_ID: keyId, PAYMENT_GATEWAY_KEY_SECRET: keySecret } = GATEWAY;
  const authorization = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
  const refused: string[] = [];
  await inTurns(ids, concurrency, async (id) => {
    const url = `${gatewayUrl}${SANDBOX_GATEWAY_PREFIX}/v1/sandbox/subscriptions/${id}/charge`;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'success' }),
      });
      const body = await res.text();
      if (!res.ok) refused.push(`${id}: ${res.status} ${body.slice(0, 100)}`);
    } catch (error) {
      refused.push(`${id}: ${(error as Error).message}`);
    }
  });
  return refused;
}

const seconds = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 1000;

/**
 * Waits until the portals' mail and document-draw jobs are all done, at two looks in a row (a
 * webhook the gateway gave up on may still be at work at the first), or the time is up.
 */
async function drained(db: Database, started: Date, timeoutSeconds: number) {
  let emptyBefore = false;
  return waitUntil(
    async () => {
      const { waiting } = await queueState(db, started);
      const done = waiting === 0 && emptyBefore;
      emptyBefore = waiting === 0;
      return done;
    },
    timeoutSeconds * 1000 - (Date.now() - started.getTime()),
    POLL_MS,
  ).then(
    () => true,
    () => false,
  );
}

/** The day's figures, and an error row for whatever was not done exactly once. */
async function dayRows(
  run: BenchRun,
  db: Database,
  day: RenewalDay,
  seen: {
    started: Date;
    charged: Date;
    refused: string[];
    webhooks: WebhookCounts;
    emptied: boolean;
  },
) {
  const { report } = run;
  const { concurrency, timeoutSeconds } = run.settings.renewal;
  const { started, webhooks } = seen;
  const n = day.subscriptions;
  const recorded = await chargesRecorded(db);
  const queue = await queueState(db, started);
  const counts = await countRenewalDay(db, day);

  if (seen.refused.length > 0) {
    report.error('charge calls refused', `${seen.refused.length}, the first: ${seen.refused[0]}`);
  }
  if (recorded.last) {
    report.number(
      `charges recorded from their webhooks, ${concurrency} charge calls at once`,
      recorded.n / seconds(started, recorded.last),
      'per s',
      1,
      undefined,
      `${count(recorded.n)} in ${seconds(started, recorded.last).toFixed(1)} s; the charge calls took ${seconds(started, seen.charged).toFixed(1)} s`,
    );
  } else {
    report.error('charges recorded', 'none');
  }
  report.number(
    "… webhooks not answered 2xx within the gateway's 5 s (sent once, never again)",
    webhooks.unanswered + webhooks.refused,
    '',
    0,
    undefined,
    `${count(webhooks.answered)} answered, ${count(webhooks.unanswered)} given up, ${count(webhooks.refused)} refused`,
  );
  const drawn = counts.find((c) => c.what === 'invoices drawn with an IRN')!.got;
  if (queue.lastDrawn) {
    report.number(
      'invoices issued, registered with the IRP and drawn, from the first charge',
      drawn / seconds(started, queue.lastDrawn),
      'per s',
      1,
      { min: BUDGET.minRenewalInvoicesPerSecond },
      `${count(drawn)} in ${seconds(started, queue.lastDrawn).toFixed(1)} s`,
    );
  } else {
    report.error('invoices drawn', 'none');
  }
  if (queue.longestWait === null) report.error('longest queue wait', 'no job was queued');
  else report.number('longest wait of a mail or document-draw job', queue.longestWait, 's', 1);
  if (seen.emptied && queue.lastDone) {
    report.number(
      'from the first charge until the queue is empty',
      seconds(started, queue.lastDone),
      's',
      0,
      { max: BUDGET.maxRenewalDaySeconds },
    );
  } else {
    report.error(
      'until the queue is empty',
      `${queue.waiting} mail or document-draw job(s) still waiting after ${timeoutSeconds} s`,
    );
  }
  if (queue.dead > 0) report.error('dead letters', `${queue.dead} mail or document-draw job(s)`);
  const wrong = counts.filter((c) => c.got !== c.expected);
  for (const c of wrong) {
    report.error(`each charge: ${c.what}`, `${count(c.got)} of ${count(c.expected)}`);
  }
  if (wrong.length === 0) {
    report.text(
      'each charge: one order, one period from the plan end, one invoice with its IRN, one receipt',
      `${count(n)} of each`,
      'exactly once',
      true,
    );
  }
}

export async function renewalDayRows(run: BenchRun, webDist: string, work: string) {
  const { serverUrl } = run;
  const { subscriptions, concurrency, timeoutSeconds } = run.settings.renewal;
  const database = await freshPostgresDatabase(serverUrl);
  const dataDir = path.join(work, 'renewal-day');
  await mkdir(dataDir, { recursive: true });
  const publicUrl = `http://127.0.0.1:${await freePort()}`;
  const handle = await openDatabase({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  const running: { stop(): Promise<void> }[] = [];
  try {
    await handle.migrate(installQueue);
    const day = await seedRenewalDay(
      handle.db,
      subscriptions,
      (id) => `'${publicUrl}${SANDBOX_GATEWAY_PREFIX}/subscribe/' || ${id}`,
    );
    const gateway = await startGateway(database.url, publicUrl, path.join(dataDir, 'gateway'));
    running.push(gateway);
    const portals: ServerProcess[] = [];
    for (let i = 0; i < 2; i++) {
      // one data folder: the PDFs one portal stores, the other may attach to the receipt
      const portal = await startPortal({
        dataDir: path.join(dataDir, 'portals'),
        webDist,
        databaseUrl: database.url,
        metrics: false,
        env: portalEnv(gateway.url, publicUrl),
      });
      running.push(portal);
      portals.push(portal);
    }
    const port = (server: ServerProcess) => Number(new URL(server.url).port);
    const lb = await startHaproxy(dataDir, Number(new URL(publicUrl).port), {
      a: port(portals[0]!),
      b: port(portals[1]!),
    });
    running.push(lb);
    // haproxy sends to a portal once its workers run
    const never = new Promise(() => {});
    await Promise.all(portals.map((portal) => waitUntilReady(portal.url, never, 60_000)));

    const ids = await subscriptionIds(handle.db);
    const started = new Date();
    const refused = await chargeAll(gateway.url, ids, concurrency);
    const charged = new Date();
    const answer = await fetch(`${gateway.url}${WEBHOOK_COUNTS_PATH}`);
    const webhooks = (await answer.json()) as WebhookCounts;
    const emptied = await drained(handle.db, started, timeoutSeconds);
    await dayRows(run, handle.db, day, { started, charged, refused, webhooks, emptied });
  } finally {
    for (const server of running.reverse()) await server.stop().catch(() => undefined);
    await handle.close();
    await database.drop();
  }
}
