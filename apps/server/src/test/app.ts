import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import type { InjectOptions } from 'fastify';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { createOutboxMailer } from '../adapters/mail';
import { createFolderFileStore } from '../adapters/file-store';
import { createSignedLinks } from '../lib/signed-links';
import { createPaymentsDeps } from '../adapters/payment-gateway';
import type { AppDeps } from '../deps';
import { createConsentDeps, createEInvoicingDeps } from '../create-deps';
import { createMetrics } from '../modules/metrics/registry';
import { createQueue } from '../adapters/pg-boss-queue';
import type { App } from '../lib/types';
import { openTestDatabase } from './database';
import { createTestClock, type TestClock } from './clock';
import { backgroundWork, latestMail, readOutbox } from './mail';

export interface TestApp {
  app: App;
  deps: AppDeps;
  clock: TestClock;
  config: Config;
  outboxDir: string;
  latestMail: () => ReturnType<typeof latestMail>;
  outbox: () => ReturnType<typeof readOutbox>;
  /** Waits until the PDF of every document issued so far is drawn and stored. */
  drawDocuments: (options?: { timeoutMs?: number }) => Promise<void>;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database, with the real outbox mailer writing to a temporary folder
 * and a clock the test moves. Pass `env` to change configuration, `deps` to replace adapters.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    deps?: Partial<AppDeps>;
    /** Where the app logs to; by default it does not log. */
    logStream?: NodeJS.WritableStream;
    /**
     * Whether `app.inject` resolves only once the work a route begins after its answer has
     * ended too (a failed sign-in's records, a reset link), as a test reading what a request
     * did expects. Off, a test sees the answer as the client does, before that work.
     */
    settleAfterAnswers?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...options.env,
  });
  const database = await openTestDatabase();
  const clock = createTestClock();
  const outboxDir = path.join(dataDir, 'outbox');
  const secrets = {
    jwt: 'test-jwt-secret-'.padEnd(48, 'x'),
    linkSigning: 'test-link-secret-'.padEnd(48, 'y'),
  };
  const deps: AppDeps = {
    config,
    db: database.db,
    mailer: createOutboxMailer(outboxDir, config.MAIL_FROM),
    clock,
    secrets,
    files: createFolderFileStore(path.join(dataDir, 'files')),
    signedLinks: createSignedLinks(secrets.linkSigning, clock),
    // as in production: the sandbox gateway and bank are reached in memory, through app.inject
    payments: await createPaymentsDeps(config),
    consents: await createConsentDeps(config),
    // jobs can be sent at once; workers run only where a test starts them (test/queue.ts)
    // on the database the app is given, so that jobs sent in its transactions are the ones run
    queue: createQueue(options.deps?.db ?? database.db),
    metrics: createMetrics(),
    eInvoicing: await createEInvoicingDeps(config, { clock }),
    ...options.deps,
  };
  const app = await buildApp(deps, {
    logger: options.logStream ? { stream: options.logStream } : false,
  });
  await app.ready();
  if (options.settleAfterAnswers !== false) {
    const inject = app.inject.bind(app);
    // a request made within another's handling or its work after the answer (the sandbox
    // gateway read back in memory, say) does not wait for that work: the outer request does,
    // and the work may be waiting for this request
    const withinInject = new AsyncLocalStorage<true>();
    app.inject = (async (request: InjectOptions) => {
      if (withinInject.getStore()) return inject(request);
      return withinInject.run(true, async () => {
        const response = await inject(request);
        await app.answersSettled();
        return response;
      });
    }) as typeof app.inject;
  }
  const work = backgroundWork(deps);
  return {
    app,
    deps,
    clock,
    config,
    outboxDir,
    // mail leaves through the queue: what is queued is delivered before the outbox is read
    latestMail: async () => (await work.deliverMail(), latestMail(outboxDir)),
    outbox: async () => (await work.deliverMail(), readOutbox(outboxDir)),
    drawDocuments: work.drawDocuments,
    async close() {
      await app.close();
      // a mail the worker has taken is written before its folder goes
      await deps.queue.stop({ graceful: true, timeoutMs: 5_000 });
      deps.mailer.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
