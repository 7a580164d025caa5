import path from 'node:path';
import { ConfigError, sandboxesInUse, type Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './adapters/mail';
import { createMailer } from './adapters/mail';
import { createFileStore } from './adapters/configured-file-store';
import type { FileStore } from './adapters/file-store';
import { createSignedLinks, type SignedLinks } from './lib/signed-links';
import type { Clock } from './lib/clock';
import { systemClock } from './lib/clock';
import { createEncryption, type Encryption } from './lib/encryption';
import { createInProcessRoute } from './lib/in-process-route';
import { settingOrLocalSecrets } from './lib/secrets';
import { createPaymentsDeps, type PaymentsDeps } from './adapters/payment-gateway';
import { createHttpConsentProvider, type ConsentProvider } from './adapters/consent-provider';
import { createQueue, type Queue } from './adapters/queue';
import { countingFailures, createMetrics, type Metrics } from './modules/metrics/registry';
import {
  SANDBOX_BANK_CLIENT_ID,
  SANDBOX_BANK_PREFIX,
  SANDBOX_BANK_SECRET_KEY,
  type SandboxBankOptions,
} from './sandbox/bank/settings';

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

export interface ConsentDeps {
  encryption: Encryption;
  provider: ConsentProvider;
  /** The credentials the built-in sandbox bank accepts; null when a real provider is configured. */
  sandboxBank: SandboxBankOptions | null;
}

/**
 * Builds the provider from configuration: with no CONSENT_PROVIDER_URL (and SANDBOX allowing
 * it), the sandbox bank in this same server, reached in memory, with credentials kept beside the
 * data like the other local secrets. Tests may pass their own `fetch`.
 */
export async function createConsentDeps(
  config: Config,
  options: { fetch?: typeof fetch } = {},
): Promise<ConsentDeps> {
  const { dataEncryption } = await settingOrLocalSecrets(config.DATA_DIR, {
    dataEncryption: config.DATA_ENCRYPTION_KEY,
  });
  const encryption = createEncryption(dataEncryption);

  if (config.CONSENT_PROVIDER_URL) {
    return {
      encryption,
      sandboxBank: null,
      provider: createHttpConsentProvider({
        baseUrl: config.CONSENT_PROVIDER_URL,
        fetch: options.fetch,
        // loadConfig requires both whenever the URL is set
        clientId: config.CONSENT_PROVIDER_CLIENT_ID!,
        clientSecret: config.CONSENT_PROVIDER_CLIENT_SECRET!,
        timeoutMs: config.CONSENT_PROVIDER_TIMEOUT_MS,
      }),
    };
  }
  if (!sandboxesInUse(config).bank) {
    throw new ConfigError('Invalid configuration: CONSENT_PROVIDER_URL is required');
  }
  // the sandbox's own secret, which no setting gives: kept beside the data
  const local = await settingOrLocalSecrets(config.DATA_DIR, {
    [SANDBOX_BANK_SECRET_KEY]: undefined,
  });
  const credentials = {
    clientId: SANDBOX_BANK_CLIENT_ID,
    clientSecret: local[SANDBOX_BANK_SECRET_KEY],
  };
  const route = options.fetch ? undefined : createInProcessRoute('sandbox bank');
  return {
    encryption,
    sandboxBank: { ...credentials, ...(route ? { route } : {}) },
    provider: createHttpConsentProvider({
      fetch: options.fetch ?? route!.fetch,
      // reached in memory: only the path of this address is used
      baseUrl: `${config.PUBLIC_URL}${SANDBOX_BANK_PREFIX}`,
      ...credentials,
      timeoutMs: config.CONSENT_PROVIDER_TIMEOUT_MS,
    }),
  };
}
