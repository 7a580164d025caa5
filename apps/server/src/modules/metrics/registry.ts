// The portal's metrics in Prometheus's format (prom-client): what the alert rules of
// deploy/prometheus/ watch. Counters count in the process that saw the event; the gauges that
// describe the database (queues, orders) are read from it at each scrape.
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { onResponseHookHandler } from 'fastify';
import pg from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FileStore } from '../../adapters/file-store';
import { JOB_NAMES, type JobOutcome, type Queue } from '../../adapters/queue';
import type { Database } from '../../db/client';
import { correctionRequests, grievances } from '../privacy/schema';
import { orders } from '../purchases/schema';
import { paymentEvents } from '../purchases/schema';

/** What the gauges read at each scrape. */
export interface MetricSources {
  db: Database;
  queue: Queue;
  /** The readiness checks' answers, 'ok' or not, by name. */
  readiness(): Promise<Record<string, string>>;
}

/** The routes whose refusals are failed sign-ins: the password step and the code step. */
const SIGN_IN_STEPS: Record<string, string> = {
  'POST /api/auth/login': 'password',
  'POST /api/auth/verify-2fa': 'code',
};

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  // the process's own metrics (CPU, memory, event loop) join where the metrics are served
  const registry = new Registry();
  const registers = [registry];
  let sources: MetricSources | null = null;
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter({ name, help, labelNames, registers });
  // the two queue gauges of one scrape share one read of the job table
  let counting: ReturnType<Queue['counts']> | null = null;
  const queueCounts = () =>
    (counting ??= sources!.queue.counts().finally(() => setImmediate(() => (counting = null))));

  const httpDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, method and status',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const signInFailures = counter(
    'portal_sign_in_failures_total',
    'Sign-in attempts refused: a wrong password or details (password), a wrong or spent code (code)',
    ['step'],
  );
  const throttled = counter(
    'portal_throttled_requests_total',
    'Requests answered 429 because of a rate limit or a sign-in throttle, by route',
    ['route'],
  );
  const payments = counter(
    'portal_payments_total',
    'Orders settled from what the gateway said: completed, failed or refunded, learnt from its webhook or by asking it (the return from checkout, a status check, reconciliation)',
    ['outcome', 'via'],
  );
  const reconciliations = counter(
    'portal_payment_reconciliations_total',
    'Orders the reconciliation job asked the gateway about: settled, unchanged or failed',
    ['result'],
  );
  const webhooks = counter(
    'portal_payment_webhooks_total',
    "The gateway's webhooks: applied, unchanged, duplicate, ignored, or refused (a bad signature, body or order, or a failure: sent again)",
    ['outcome'],
  );
  const eInvoices = counter(
    'portal_e_invoice_registrations_total',
    "Documents sent to the IRP for registration: registered, refused (kept with the IRP's reasons, drawn without an IRN) or unavailable (tried again)",
    ['outcome'],
  );
  const jobs = counter(
    'portal_jobs_total',
    'Jobs run by this process, by queue: completed, failed (to be retried) or dead-lettered (every try failed); the mail queue is the mail sent',
    ['queue', 'outcome'],
  );
  const fileStoreErrors = counter(
    'portal_file_store_errors_total',
    'Operations of the file store (S3 or the data folder) that failed, by operation',
    ['operation'],
  );

  // read from the database at each scrape; every instance reads the same rows, so a cluster
  // of processes reports the largest answer, not the sum
  new Gauge({
    name: 'portal_jobs',
    help: 'Jobs in each queue now: queued (waiting or waiting to retry), active, and dead letters',
    labelNames: ['queue', 'state'] as const,
    aggregator: 'max',
    registers,
    async collect() {
      if (!sources) return;
      for (const counts of await queueCounts()) {
        this.set({ queue: counts.name, state: 'queued' }, counts.queued);
        this.set({ queue: counts.name, state: 'active' }, counts.active);
        this.set({ queue: counts.name, state: 'dead_letter' }, counts.failed);
      }
    },
  });
  new Gauge({
    name: 'portal_jobs_oldest_queued_seconds',
    help: 'Age of the oldest job waiting in each queue (0 when none waits); for mail, how long a customer has waited',
    labelNames: ['queue'] as const,
    aggregator: 'max',
    registers,
    async collect() {
      if (!sources) return;
      const now = Date.now();
      for (const counts of await queueCounts()) {
        const age = counts.oldestWaiting ? (now - counts.oldestWaiting.getTime()) / 1000 : 0;
        this.set({ queue: counts.name }, Math.max(0, age));
      }
    },
  });
  new Gauge({
    name: 'portal_orders_paid_unsettled',
    help: 'Orders still Pending or Failed although the gateway reported them paid (payment_link.paid received)',
    aggregator: 'max',
    registers,
    async collect() {
      if (!sources) return;
      const [row] = await sources.db
        .select({ count: sql<number>`count(DISTINCT ${orders.id})::int` })
        .from(orders)
        .innerJoin(paymentEvents, sql`${paymentEvents.orderId} = ${orders.id}`)
        .where(
          sql`${orders.status} IN ('Pending', 'Failed') AND ${paymentEvents.event} = 'payment_link.paid'`,
        );
      this.set(Number(row?.count ?? 0));
    },
  });
  /** The customers' requests past their due date undecided, by the database's clock. */
  const overdue = (name: string, help: string, table: PgTable, where: SQL) =>
    new Gauge({
      name,
      help,
      aggregator: 'max',
      registers,
      async collect() {
        if (!sources) return;
        const [row] = await sources.db
          .select({ count: sql<number>`count(*)::int` })
          .from(table)
          .where(where);
        this.set(Number(row?.count ?? 0));
      },
    });
  overdue(
    'portal_grievances_overdue',
    'Grievances to the grievance officer past their due date with no answer (DPDP Rules, rule 14)',
    grievances,
    sql`${grievances.answeredAt} IS NULL AND ${grievances.respondBy} < now()`,
  );
  overdue(
    'portal_corrections_overdue',
    'Requests to correct personal data past their due date with no decision (DPDP Act 2023, s. 12)',
    correctionRequests,
    sql`${correctionRequests.decidedAt} IS NULL AND ${correctionRequests.respondBy} < now()`,
  );
  new Gauge({
    name: 'portal_ready',
    help: 'Each readiness check of this process: 1 when it answers, 0 when not (database, files, queue, workers)',
    labelNames: ['check'] as const,
    aggregator: 'min',
    registers,
    async collect() {
      if (!sources) return;
      for (const [check, answer] of Object.entries(await sources.readiness())) {
        this.set({ check }, answer === 'ok' ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'portal_db_pool_connections',
    help: "PostgreSQL connections of this process's pool: in use, idle, and requests waiting for one",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const client = (sources?.db as unknown as { $client?: unknown } | undefined)?.$client;
      if (!(client instanceof pg.Pool)) return;
      this.set({ state: 'in_use' }, client.totalCount - client.idleCount);
      this.set({ state: 'idle' }, client.idleCount);
      this.set({ state: 'waiting' }, client.waitingCount);
    },
  });

  for (const outcome of ['registered', 'refused', 'unavailable'] as const) {
    eInvoices.inc({ outcome }, 0);
  }
  // every queue and outcome exists from the start, so that a rate over them is 0, not absent
  for (const queue of JOB_NAMES) {
    for (const outcome of ['completed', 'failed', 'dead_lettered'] as const) {
      jobs.inc({ queue, outcome }, 0);
    }
  }

  /** One answered request: `route` is the route's template, or none for no route. */
  const httpRequest = (
    route: string | undefined,
    method: string,
    status: number,
    seconds: number,
  ) => {
    const template = route ?? 'unmatched';
    httpDuration.observe({ route: template, method, status_code: status }, seconds);
    if (status === 429) throttled.inc({ route: template });
    const step = SIGN_IN_STEPS[`${method} ${template}`];
    if (step && (status === 400 || status === 401 || status === 403)) signInFailures.inc({ step });
  };

  return {
    registry,
    /** Where the gauges read from; until set they report nothing. */
    watch(from: MetricSources) {
      sources = from;
      from.queue.onJob((queue: string, outcome: JobOutcome) => jobs.inc({ queue, outcome }));
    },
    /**
     * Fastify's onResponse hook: every answer into the request histogram, by the route's
     * template (its ids never make labels). Here, not in the app, so that all a request's
     * metrics work runs in this module, where the bench's profile finds it.
     */
    countAnswers: ((request, reply, done) => {
      httpRequest(
        request.routeOptions.url,
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    }) satisfies onResponseHookHandler,
    payment(outcome: 'completed' | 'failed' | 'refunded', via: 'webhook' | 'check') {
      payments.inc({ outcome, via });
    },
    reconciled(result: 'settled' | 'unchanged' | 'failed', count = 1) {
      reconciliations.inc({ result }, count);
    },
    webhook(outcome: string) {
      webhooks.inc({ outcome });
    },
    fileStoreError(operation: string) {
      fileStoreErrors.inc({ operation });
    },
    eInvoice(outcome: 'registered' | 'refused' | 'unavailable') {
      eInvoices.inc({ outcome });
    },
  };
}

/** The store, with each failed operation counted (a missing file is an answer, not a failure). */
export function countingFailures(
  store: FileStore,
  metrics: Pick<Metrics, 'fileStoreError'>,
): FileStore {
  const counted =
    <A extends unknown[], R>(operation: string, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(...args);
      } catch (error) {
        metrics.fileStoreError(operation);
        throw error;
      }
    };
  return {
    put: counted('put', store.put.bind(store)),
    putFile: counted('put', store.putFile.bind(store)),
    read: counted('read', store.read.bind(store)),
    stream: counted('read', store.stream.bind(store)),
    remove: counted('remove', store.remove.bind(store)),
    location: store.location.bind(store),
  };
}
