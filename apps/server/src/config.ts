import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { z } from 'zod';
import { addressParts } from './lib/address-parts';
import { TrustProxySchema } from './lib/trust-proxy-setting';
import { isValidGstin } from '@portal/contract';
import { localSecretsFile } from './lib/secrets';
import { signingSettingsProblem } from './lib/signing-certificate';

/**
 * The shortest the audit log is kept: the DPDP Rules, 2025 (rule 6(1)(e)) ask for a year of
 * logs. The migration's trigger refuses to delete a younger row with the same figure.
 */
export const AUDIT_RETENTION_FLOOR_DAYS = 365;

/** The repository root, so that `./data` means the same folder whichever workspace starts us. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}:`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    })
    .optional();

const secret = z.string().min(32, 'must be at least 32 characters').optional();

const gstin = z.string().refine(isValidGstin, 'must be a GSTIN with its check character');

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where customers reach the portal; links in mails and gateway callbacks use it. */
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: TrustProxySchema,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, 'data')),
  /** Unset: embedded PGlite under DATA_DIR. Set: PostgreSQL. */
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  /** Unset: each mail is written as an .eml file to DATA_DIR/outbox. */
  MAIL_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().min(3).default('Customer Portal <no-reply@portal.localhost>'),
  /** Where a digest of newly dead-lettered jobs is mailed; unset: none is (a warning in production). */
  OPERATOR_EMAIL: z.email().max(254).optional(),
  /**
   * The grievance officer the Privacy page names (DPDP Rules, rule 14), and how many days an
   * answer may take; unset, a placeholder is shown (a warning in production).
   */
  GRIEVANCE_OFFICER_NAME: z.string().trim().min(1).max(100).optional(),
  GRIEVANCE_OFFICER_EMAIL: z.email().max(254).optional(),
  GRIEVANCE_OFFICER_PHONE: z.string().trim().min(3).max(30).optional(),
  GRIEVANCE_RESPONSE_DAYS: z.coerce.number().int().min(1).max(90).default(30),
  /** Secrets; unset outside production, they are generated once and kept in DATA_DIR. */
  JWT_SECRET: secret,
  LINK_SIGNING_SECRET: secret,
  /** Seed the demo into an empty database. Default: on, except in production. */
  SEED_DEMO: z.stringbool().optional(),
  /**
   * Run the built-in sandbox gateway and bank where no real one is configured. Default: on,
   * except in production, where it exists only for a public demo that asks for it by name.
   */
  SANDBOX: z.stringbool().optional(),
  WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
  /** Set by npm to the folder it was run from; relative paths the operator gives resolve there. */
  INIT_CWD: z.string().optional(),
  /** AES-256-GCM key material for values kept encrypted (provider tokens); local secret when unset. */
  DATA_ENCRYPTION_KEY: secret,
  /** Unset: the built-in sandbox bank. Set: a bank speaking account-access-consents. */
  CONSENT_PROVIDER_URL: optionalUrl(['http', 'https']),
  CONSENT_PROVIDER_CLIENT_ID: z.string().min(1).optional(),
  CONSENT_PROVIDER_CLIENT_SECRET: z.string().min(1).optional(),
  CONSENT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Payment gateway (Razorpay payment-links contract). Unset: the built-in sandbox gateway. */
  PAYMENT_GATEWAY_URL: optionalUrl(['http', 'https']),
  /** Required with PAYMENT_GATEWAY_URL; the sandbox gateway's id otherwise. */
  PAYMENT_GATEWAY_KEY_ID: z.string().min(1).optional(),
  /** Required with PAYMENT_GATEWAY_URL; the sandbox's are generated once and kept in DATA_DIR. */
  PAYMENT_GATEWAY_KEY_SECRET: z.string().min(8).optional(),
  PAYMENT_GATEWAY_WEBHOOK_SECRET: z.string().min(8).optional(),
  /**
   * Registers B2B invoices and credit notes with an Invoice Registration Portal (IRP). Default:
   * on where the demo runs (development, with the sandboxes), where the sandbox IRP stands in;
   * off in production and in tests, which ask for it by name.
   */
  E_INVOICING: z.enum(['off', 'on']).optional(),
  /** The IRP's or a GSP's NIC e-invoice API (1.03). Unset: the built-in sandbox IRP. */
  E_INVOICE_URL: optionalUrl(['http', 'https']),
  /** Required with E_INVOICE_URL: the API user the IRP or GSP issued, and its GSTIN. */
  E_INVOICE_CLIENT_ID: z.string().min(1).optional(),
  E_INVOICE_CLIENT_SECRET: z.string().min(1).optional(),
  E_INVOICE_USERNAME: z.string().min(1).optional(),
  E_INVOICE_PASSWORD: z.string().min(1).optional(),
  E_INVOICE_GSTIN: gstin.optional(),
  /** Minutes between reconciliation runs; 0 turns the job off. */
  PAYMENT_RECONCILE_MINUTES: z.coerce.number().min(0).max(1440).default(5),
  /** Minutes between purges of sign-in records unusable for over a day; 0 turns the job off. */
  AUTH_PURGE_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /** Minutes between passes storing the expiry of consents past their time; 0 turns it off. */
  CONSENT_EXPIRY_MINUTES: z.coerce.number().min(0).max(1440).default(15),
  /** Minutes between runs sending reminders of plans ending and consents expiring; 0: off. */
  REMINDER_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /** Minutes between purges of "Download my data" files past their 24 hours; 0 turns it off. */
  DATA_EXPORT_PURGE_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /** Minutes between purges of the marks of mail delivered over 30 days ago; 0 turns it off. */
  MAIL_PURGE_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /** Minutes between purges of what closed accounts leave, once due (decision 062); 0: off. */
  CLOSED_ACCOUNT_PURGE_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /** Minutes between looks for newly dead-lettered jobs, mailed to OPERATOR_EMAIL; 0: off. */
  DEAD_LETTER_DIGEST_MINUTES: z.coerce.number().min(0).max(1440).default(15),
  /** Minutes between deletions of audit events past AUDIT_RETENTION_DAYS; 0 turns it off. */
  AUDIT_PURGE_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /** Days the audit log is kept: a year at least, as the DPDP Rules ask (decision 063). */
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(AUDIT_RETENTION_FLOOR_DAYS, `must be at least ${AUDIT_RETENTION_FLOOR_DAYS} days`)
    .max(3650)
    .default(400),
  /** Unset: receipts and installers are kept under DATA_DIR/files. Set: this S3-compatible bucket. */
  S3_BUCKET: z.string().min(3).optional(),
  /** An S3-compatible service other than AWS (MinIO, Ceph, s3rver); unset for AWS itself. */
  S3_ENDPOINT: optionalUrl(['http', 'https']),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Addresses the bucket as a path (endpoint/bucket/key), as most S3-compatible services want. */
  S3_FORCE_PATH_STYLE: z.stringbool().default(false),
  /** Where Prometheus reads GET /metrics, apart from the public port; unset: not served. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** The metrics' address: this machine only, unless a scraper elsewhere must reach it. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** When set, GET /metrics also asks for `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Worker processes `npm start` runs on this machine; more than 1 needs PostgreSQL. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Supplier details printed on GST tax invoices. */
  INVOICE_SUPPLIER_NAME: z.string().min(1).default('Ledgerline Software Services Pvt Ltd'),
  INVOICE_SUPPLIER_ADDRESS: z
    .string()
    .min(1)
    .default('4th Floor, Prestige Tech Park, Outer Ring Road, Bengaluru, Karnataka 560103'),
  INVOICE_SUPPLIER_GSTIN: gstin.default('29AAGCL1234M1ZA'),
  /** Services Accounting Code of the subscription (997331: licensing of software). */
  INVOICE_SAC_CODE: z
    .string()
    .regex(/^\d{4,8}$/)
    .default('997331'),
  /** A PKCS#12 (.p12) certificate that signs every invoice and credit note; unsigned when unset. */
  INVOICE_SIGNING_P12_FILE: z.string().min(1).optional(),
  INVOICE_SIGNING_P12_PASSWORD: z.string().optional(),
});

type ParsedConfig = z.infer<typeof ConfigSchema>;

export type Config = Omit<
  ParsedConfig,
  'SANDBOX' | 'SEED_DEMO' | 'PAYMENT_GATEWAY_KEY_ID' | 'E_INVOICING'
> & {
  PUBLIC_URL: string;
  E_INVOICING: 'off' | 'on';
  SANDBOX: boolean;
  SEED_DEMO: boolean;
  PAYMENT_GATEWAY_KEY_ID: string;
  /** Where relative paths given by the operator resolve. */
  workingDir: string;
};

export const SANDBOX_GATEWAY_KEY_ID = 'rzp_test_sandbox';

export class ConfigError extends Error {}

const PRODUCTION_SETTINGS = [
  'JWT_SECRET',
  'LINK_SIGNING_SECRET',
  'DATA_ENCRYPTION_KEY',
  'PUBLIC_URL',
] as const;
/** Each real service: its address first, then what it needs with it. */
const SERVICES = [
  [
    'PAYMENT_GATEWAY_URL',
    'PAYMENT_GATEWAY_KEY_ID',
    'PAYMENT_GATEWAY_KEY_SECRET',
    'PAYMENT_GATEWAY_WEBHOOK_SECRET',
  ],
  ['CONSENT_PROVIDER_URL', 'CONSENT_PROVIDER_CLIENT_ID', 'CONSENT_PROVIDER_CLIENT_SECRET'],
] as const;

/** The real IRP, used only with E_INVOICING=on: its address first, then what it needs with it. */
const E_INVOICE_SERVICE = [
  'E_INVOICE_URL',
  'E_INVOICE_CLIENT_ID',
  'E_INVOICE_CLIENT_SECRET',
  'E_INVOICE_USERNAME',
  'E_INVOICE_PASSWORD',
  'E_INVOICE_GSTIN',
] as const;

/** What deploy/portal.env.example holds where the operator must put a value of their own. */
const PLACEHOLDER = 'CHANGE_ME';

const listed = (names: string[]) =>
  names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;

/** Every missing setting, grouped by why it is needed; empty when nothing is missing. */
function missingSettings(parsed: ParsedConfig, sandbox: boolean): string[] {
  const production = parsed.NODE_ENV === 'production';
  const problems: string[] = [];
  const need = (names: readonly (keyof ParsedConfig)[], when: string) => {
    const missing = names.filter((name) => !parsed[name]);
    if (missing.length > 0) {
      problems.push(`${listed(missing)} ${missing.length === 1 ? 'is' : 'are'} required ${when}`);
    }
  };
  if (production) need(PRODUCTION_SETTINGS, 'in production');
  const unconfigured: (keyof ParsedConfig)[] = [];
  for (const [url, ...credentials] of SERVICES) {
    if (parsed[url]) need(credentials, `with ${url}`);
    else if (!sandbox) unconfigured.push(url, ...credentials);
  }
  need(
    unconfigured,
    production
      ? 'in production, which never runs the sandbox gateway and bank (SANDBOX=on runs them, for a public demo only)'
      : 'with SANDBOX=off',
  );
  if (parsed.E_INVOICING === 'on') {
    const [url, ...credentials] = E_INVOICE_SERVICE;
    if (parsed[url]) need(credentials, `with ${url}`);
    else if (!sandbox) {
      need(
        E_INVOICE_SERVICE,
        production
          ? 'with E_INVOICING=on in production, which never runs the sandbox IRP (SANDBOX=on runs it, for a public demo only)'
          : 'with E_INVOICING=on and SANDBOX=off',
      );
    }
  }
  return problems;
}

/** Parses the environment once; the one place that reads `process.env`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // deploy/portal.env.example's placeholders are valid values of their kind: a copy that was not
  // filled in must not start
  const placeholders = Object.keys(ConfigSchema.shape).filter((name) =>
    env[name]?.includes(PLACEHOLDER),
  );
  if (placeholders.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${listed(placeholders)} still ${placeholders.length === 1 ? 'holds' : 'hold'} the example's placeholder ${PLACEHOLDER}`,
    );
  }
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const production = result.data.NODE_ENV === 'production';
  const sandbox = result.data.SANDBOX ?? !production;
  const parsed = {
    ...result.data,
    E_INVOICING:
      result.data.E_INVOICING ??
      (result.data.NODE_ENV === 'development' && sandbox ? ('on' as const) : ('off' as const)),
  };
  const problems = missingSettings(parsed, sandbox);
  if (parsed.WEB_CONCURRENCY > 1 && !parsed.DATABASE_URL) {
    problems.push(
      `WEB_CONCURRENCY=${parsed.WEB_CONCURRENCY} needs DATABASE_URL (PostgreSQL), since the embedded database can be opened by one process only`,
    );
  }
  if (parsed.E_INVOICING === 'on' && !addressParts(parsed.INVOICE_SUPPLIER_ADDRESS)) {
    problems.push(
      'INVOICE_SUPPLIER_ADDRESS must end with its city, then its State and PIN (…, Bengaluru, Karnataka 560103), which an e-invoice names apart, with E_INVOICING=on',
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  // npm runs workspace scripts inside the workspace; the operator meant their own folder
  const workingDir = parsed.INIT_CWD ?? process.cwd();
  const signingFile =
    parsed.INVOICE_SIGNING_P12_FILE && path.resolve(workingDir, parsed.INVOICE_SIGNING_P12_FILE);
  const signing = signingSettingsProblem(signingFile, parsed.INVOICE_SIGNING_P12_PASSWORD);
  if (signing) throw new ConfigError(`Invalid configuration: ${signing}`);
  return {
    ...parsed,
    SANDBOX: sandbox,
    SEED_DEMO: parsed.SEED_DEMO ?? !production,
    PAYMENT_GATEWAY_KEY_ID: parsed.PAYMENT_GATEWAY_KEY_ID ?? SANDBOX_GATEWAY_KEY_ID,
    DATA_DIR: path.resolve(workingDir, parsed.DATA_DIR),
    INVOICE_SIGNING_P12_FILE: signingFile,
    WEB_DIST_DIR: path.resolve(workingDir, parsed.WEB_DIST_DIR),
    workingDir,
    PUBLIC_URL: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
  };
}

/**
 * The built-in sandboxes this configuration runs: each stands in for a real service that is not
 * configured, and only where SANDBOX allows it (loadConfig refuses the rest).
 */
export function sandboxesInUse(
  config: Pick<
    Config,
    'SANDBOX' | 'PAYMENT_GATEWAY_URL' | 'CONSENT_PROVIDER_URL' | 'E_INVOICING' | 'E_INVOICE_URL'
  >,
) {
  return {
    gateway: config.SANDBOX && !config.PAYMENT_GATEWAY_URL,
    bank: config.SANDBOX && !config.CONSENT_PROVIDER_URL,
    irp: config.SANDBOX && config.E_INVOICING === 'on' && !config.E_INVOICE_URL,
  };
}

/** The secrets a start takes from DATA_DIR/secrets.json, generated once, when no setting gives them. */
const LOCAL_SECRETS = [
  'JWT_SECRET',
  'LINK_SIGNING_SECRET',
  'DATA_ENCRYPTION_KEY',
  'PAYMENT_GATEWAY_KEY_SECRET',
  'PAYMENT_GATEWAY_WEBHOOK_SECRET',
] as const;

/**
 * Where the settings of this start came from, by name only, never a value: for the operator to
 * see that the environment was read as meant (and which secrets, if any, live in DATA_DIR).
 */
export function settingSources(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  const names = Object.keys(ConfigSchema.shape).filter((name) => name !== 'INIT_CWD');
  const given = names.filter((name) => env[name] !== undefined);
  const kept: string[] = LOCAL_SECRETS.filter((name) => !config[name]);
  if (sandboxesInUse(config).bank) kept.push("the sandbox bank's client secret");
  if (sandboxesInUse(config).irp) kept.push("the sandbox IRP's client secret and password");
  return [
    `Settings from the environment: ${given.length > 0 ? given.join(', ') : 'none'}.`,
    kept.length > 0
      ? `Secrets kept in ${localSecretsFile(config.DATA_DIR)}: ${kept.join(', ')}.`
      : 'No secret is kept in DATA_DIR: every one comes from the environment.',
    `Every other setting has its default (${names.length - given.length} of ${names.length}).`,
  ];
}

/**
 * What a start allows but should not go unsaid, one line each: settings that production can run
 * without, at a cost the operator must choose knowingly.
 */
export function settingWarnings(
  config: Pick<Config, 'NODE_ENV' | 'OPERATOR_EMAIL' | 'GRIEVANCE_OFFICER_EMAIL'>,
): string[] {
  if (config.NODE_ENV !== 'production') return [];
  return [
    config.OPERATOR_EMAIL
      ? ''
      : 'WARNING: OPERATOR_EMAIL is not set: jobs that fail every try (mail not delivered, say) are mailed to nobody, and only the PortalDeadLetters alert tells of them.',
    config.GRIEVANCE_OFFICER_EMAIL
      ? ''
      : 'WARNING: GRIEVANCE_OFFICER_EMAIL is not set: the Privacy page names a placeholder grievance officer, and grievances are mailed to OPERATOR_EMAIL alone.',
  ].filter(Boolean);
}
