/**
 * Issuing on PostgreSQL (decision 070): Pending orders settled as paid through the portal's own
 * settlement, 100 at once, each numbering its tax invoice in the financial year's one series;
 * then their PDFs drawn after the commits by one instance's worker. Unsigned, and signed with a
 * certificate made for the run.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { installQueue } from '../apps/server/src/adapters/queue-install';
import { loadConfig } from '../apps/server/src/config';
import { createDeps } from '../apps/server/src/create-deps';
import { openDatabase } from '../apps/server/src/db/client';
import { startDocumentDrawing } from '../apps/server/src/modules/invoices/draw';
import { settleOrder } from '../apps/server/src/modules/purchases/settlement';
import { BUDGET } from './budgets';
import { freshPostgresDatabase } from './database';
import { SECRETS, UNUSED_SERVICES } from './portal';
import { seed } from './seed';
import type { BenchRun } from './settings';

const CERTIFICATE_PASSWORD = 'bench-signing';

function makeCertificate(file: string) {
  const key = `${file}.key.pem`;
  const cert = `${file}.cert.pem`;
  const quiet = { stdio: 'ignore' } as const;
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert].concat([
      '-days',
      '2',
      '-subj',
      '/O=Bench Supplier/CN=Bench Signatory',
    ]),
    quiet,
  );
  execFileSync(
    'openssl',
    ['pkcs12', '-export', '-inkey', key, '-in', cert, '-out', file].concat([
      '-passout',
      `pass:${CERTIFICATE_PASSWORD}`,
    ]),
    quiet,
  );
}

/** Runs `work` on every item, `concurrency` at a time. */
export async function inTurns<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<unknown>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Asks `check` every `everyMs` until it answers true; throws once `timeoutMs` have passed. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, everyMs = 20) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function issueOnce(run: BenchRun, work: string, signed: boolean) {
  const { report, settings, serverUrl } = run;
  const database = await freshPostgresDatabase(serverUrl);
  const dataDir = path.join(work, signed ? 'issuing-signed' : 'issuing');
  const signing: Record<string, string> = {};
  if (signed) {
    const file = path.join(work, 'bench-signing.p12');
    makeCertificate(file);
    signing.INVOICE_SIGNING_P12_FILE = file;
    signing.INVOICE_SIGNING_P12_PASSWORD = CERTIFICATE_PASSWORD;
  }
  const config = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1:9',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    ...SECRETS,
    ...UNUSED_SERVICES,
    ...signing,
  });
  const handle = await openDatabase(config);
  try {
    await handle.migrate(installQueue);
    const customers = Math.min(100, settings.issuing.invoices);
    await seed(handle.db, { measured: {}, others: { customers, consents: 0, orders: 0 } });
    const result = await handle.db.execute(`
      INSERT INTO orders (customer_id, plan_id, base_paise, gst_paise, handling_paise, total_paise,
        status, created_at, updated_at)
      SELECT c.id, p.id, p.amount_paise, p.amount_paise * 18 / 100, 0,
        p.amount_paise + p.amount_paise * 18 / 100, 'Pending', now(), now()
      FROM generate_series(1, ${settings.issuing.invoices}) AS i
      JOIN LATERAL (SELECT id FROM customers ORDER BY email OFFSET i % ${customers} LIMIT 1) c ON true
      CROSS JOIN LATERAL (SELECT id, amount_paise FROM plans ORDER BY id LIMIT 1) p
      RETURNING id, total_paise AS "totalPaise"`);
    const orders = (result as unknown as { rows: { id: string; totalPaise: string }[] }).rows;
    const deps = await createDeps(config, handle.db);
    const label = signed ? 'signed' : 'unsigned';

    const started = performance.now();
    await inTurns(orders, 100, async (order) => {
      const settled = await settleOrder(deps, order.id, {
        kind: 'paid',
        paymentId: `pay_${order.id.slice(0, 14)}`,
        amountPaise: Number(order.totalPaise),
      });
      if (!settled.changed) throw new Error(`order ${order.id} was not settled`);
    });
    const issuedSeconds = (performance.now() - started) / 1000;
    const counted = await handle.db.execute(
      `SELECT count(*)::int AS n, count(DISTINCT invoice_number)::int AS distinct,
         max(split_part(invoice_number, '/', 3)::int) AS last FROM invoices`,
    );
    const [numbers] = (
      counted as unknown as { rows: { n: number; distinct: number; last: number }[] }
    ).rows;
    if (
      numbers!.n !== orders.length ||
      numbers!.distinct !== orders.length ||
      numbers!.last !== orders.length
    ) {
      throw new Error(`the numbering is not gap-free: ${JSON.stringify(numbers)}`);
    }
    report.number(
      `${orders.length} settlements, 100 at once, ${label}: invoices numbered`,
      orders.length / issuedSeconds,
      'per s',
      0,
      { min: BUDGET.minInvoicesIssuedPerSecond },
      'gap-free, one series',
    );

    const drawingStarted = performance.now();
    await startDocumentDrawing(deps);
    deps.queue.wake('document-draw');
    await waitUntil(async () => {
      const left = await handle.db.execute(
        'SELECT count(*)::int AS n FROM invoices WHERE drawn_at IS NULL',
      );
      return (left as unknown as { rows: { n: number }[] }).rows[0]!.n === 0;
    }, settings.issuing.drawTimeoutSeconds * 1000);
    report.number(
      `… their PDFs drawn after the commit, ${label}, by one instance`,
      orders.length / ((performance.now() - drawingStarted) / 1000),
      'per s',
      1,
    );
    await deps.queue.stop({ graceful: true, timeoutMs: 5_000 });
  } finally {
    await handle.close();
    await database.drop();
  }
}

export async function issuingRows(run: BenchRun, work: string) {
  await issueOnce(run, work, false);
  await issueOnce(run, work, true);
}
