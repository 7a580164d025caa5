import path from 'node:path';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './adapters/mail';
import { createMailer } from './adapters/mail';
import { createFileStore } from './adapters/configured-file-store';
import type { FileStore } from './adapters/file-store';
import { createSignedLinks, type SignedLinks } from './lib/signed-links';
import type { Clock } from './lib/clock';
import { systemClock } from './lib/clock';
import { settingOrLocalSecrets } from './lib/secrets';
import { createPaymentsDeps, type PaymentsDeps } from './adapters/payment-gateway';
import { createConsentDeps, type ConsentDeps } from './adapters/consent-provider';
import { createQueue, type Queue } from './adapters/queue';
import { countingFailures, createMetrics, type Metrics } from './modules/metrics/registry';

export interface Secrets {
  jwt: string;
  linkSigning: string;
}

/** Everything the app's services need from outside; tests build their own. */
export interface AppDeps {
  config: Config;
  db: Database;
  mailer: Mailer;
  clock: Clock;
  secrets: Secrets;
  files: FileStore;
  signedLinks: SignedLinks;
  /** The payment gateway (Razorpay payment-links contract) and its settings. */
  payments: PaymentsDeps;
  /** Token encryption, the bank-consent provider and the sandbox bank's credentials. */
  consents: ConsentDeps;
  /** The job queue (pg-boss) on the app's database: enqueue in a transaction, run workers. */
  queue: Queue;
  /** What the operator's Prometheus reads (modules/metrics). */
  metrics: Metrics;
}

export async function resolveSecrets(config: Config): Promise<Secrets> {
  return settingOrLocalSecrets(config.DATA_DIR, {
    jwt: config.JWT_SECRET,
    linkSigning: config.LINK_SIGNING_SECRET,
  });
}

export async function createDeps(config: Config, db: Database): Promise<AppDeps> {
  const secrets = await resolveSecrets(config);
  const metrics = createMetrics();
  return {
    config,
    db,
    mailer: createMailer(config),
    clock: systemClock,
    secrets,
    files: countingFailures(createFileStore(config), metrics),
    signedLinks: createSignedLinks(secrets.linkSigning, systemClock),
    payments: await createPaymentsDeps(config),
    consents: await createConsentDeps(config),
    queue: createQueue(db),
    metrics,
  };
}

export const outboxDir = (config: Pick<Config, 'DATA_DIR'>) => path.join(config.DATA_DIR, 'outbox');
