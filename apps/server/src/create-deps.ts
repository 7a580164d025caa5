import { ConfigError, sandboxesInUse, type Config } from './config';
import type { Database } from './db/client';
import { createMailer } from './adapters/mail';
import { createFileStore } from './adapters/configured-file-store';
import { createSignedLinks } from './lib/signed-links';
import { systemClock, type Clock } from './lib/clock';
import { createEncryption } from './lib/encryption';
import { createInProcessRoute } from './lib/in-process-route';
import { settingOrLocalSecrets } from './lib/secrets';
import { createPaymentsDeps } from './adapters/payment-gateway';
import { createHttpConsentProvider } from './adapters/consent-provider';
import { createQueue } from './adapters/pg-boss-queue';
import { createEInvoiceClient } from './adapters/e-invoice';
import { countingFailures, createMetrics } from './modules/metrics/registry';
import {
  SANDBOX_BANK_CLIENT_ID,
  SANDBOX_BANK_PREFIX,
  SANDBOX_BANK_SECRET_KEY,
} from './sandbox/bank/settings';
import {
  SANDBOX_IRP_CLIENT_ID,
  SANDBOX_IRP_PASSWORD_KEY,
  SANDBOX_IRP_PREFIX,
  SANDBOX_IRP_SECRET_KEY,
  SANDBOX_IRP_USERNAME,
} from './sandbox/irp/settings';
import type { AppDeps, ConsentDeps, EInvoicingDeps, Secrets } from './deps';

// The app's dependencies built from configuration: the real services, or the sandboxes in
// their place where configuration allows.

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
    eInvoicing: await createEInvoicingDeps(config),
  };
}

/**
 * The IRP from configuration: none with E_INVOICING=off; the configured IRP or GSP; else (where
 * SANDBOX allows it, as loadConfig checks) the sandbox IRP in this same server, reached in
 * memory, its credentials kept beside the data. Tests may pass their own `fetch`.
 */
export async function createEInvoicingDeps(
  config: Config,
  options: { fetch?: typeof fetch; clock?: Clock } = {},
): Promise<EInvoicingDeps | null> {
  const clock = options.clock ?? systemClock;
  if (config.E_INVOICING === 'off') return null;
  if (config.E_INVOICE_URL) {
    const settings = {
      baseUrl: config.E_INVOICE_URL,
      // loadConfig requires them all whenever the URL is set
      clientId: config.E_INVOICE_CLIENT_ID!,
      clientSecret: config.E_INVOICE_CLIENT_SECRET!,
      username: config.E_INVOICE_USERNAME!,
      password: config.E_INVOICE_PASSWORD!,
      gstin: config.E_INVOICE_GSTIN!,
    };
    return { client: createEInvoiceClient(settings, clock, options.fetch), sandboxIrp: null };
  }
  if (!sandboxesInUse(config).irp) {
    throw new ConfigError('Invalid configuration: E_INVOICE_URL is required');
  }
  const local = await settingOrLocalSecrets(config.DATA_DIR, {
    [SANDBOX_IRP_SECRET_KEY]: undefined,
    [SANDBOX_IRP_PASSWORD_KEY]: undefined,
  });
  const credentials = {
    clientId: SANDBOX_IRP_CLIENT_ID,
    clientSecret: local[SANDBOX_IRP_SECRET_KEY],
    username: SANDBOX_IRP_USERNAME,
    password: local[SANDBOX_IRP_PASSWORD_KEY],
    gstin: config.INVOICE_SUPPLIER_GSTIN,
  };
  const route = options.fetch ? undefined : createInProcessRoute('sandbox IRP');
  const client = createEInvoiceClient(
    // reached in memory: only the path of this address is used
    { baseUrl: `${config.PUBLIC_URL}${SANDBOX_IRP_PREFIX}`, ...credentials },
    clock,
    options.fetch ?? route!.fetch,
  );
  return { client, sandboxIrp: { ...credentials, ...(route ? { route } : {}) } };
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
