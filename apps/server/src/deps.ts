import path from 'node:path';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './adapters/mail';
import type { FileStore } from './adapters/file-store';
import type { SignedLinks } from './lib/signed-links';
import type { Clock } from './lib/clock';
import type { Encryption } from './lib/encryption';
import type { InProcessRoute } from './lib/in-process-route';
import type { PaymentsDeps } from './adapters/payment-gateway';
import type { ConsentProvider } from './adapters/consent-provider';
import type { Queue } from './adapters/queue';
import type { EInvoiceClient, EInvoiceSettings } from './adapters/e-invoice';
import type { Metrics } from './modules/metrics/registry';

// What the app's services are given. They are built at composition (create-deps.ts).

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
  /** The IRP that registers B2B invoices and credit notes; null with E_INVOICING=off. */
  eInvoicing: EInvoicingDeps | null;
}

export const outboxDir = (config: Pick<Config, 'DATA_DIR'>) => path.join(config.DATA_DIR, 'outbox');

/** The client credentials the sandbox bank accepts, and the portal's in-memory way to it. */
export interface SandboxBankOptions {
  clientId: string;
  clientSecret: string;
  route?: InProcessRoute;
}

export interface ConsentDeps {
  encryption: Encryption;
  provider: ConsentProvider;
  /** The credentials the built-in sandbox bank accepts; null when a real provider is configured. */
  sandboxBank: SandboxBankOptions | null;
}

export interface EInvoicingDeps {
  client: EInvoiceClient;
  /** The credentials the built-in sandbox IRP accepts; null when a real IRP is configured. */
  sandboxIrp: (Omit<EInvoiceSettings, 'baseUrl'> & { route?: InProcessRoute }) | null;
}
