import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { z } from 'zod';

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

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where customers reach the portal; links in mails and gateway callbacks use it. */
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.stringbool().default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, 'data')),
  /** Unset: embedded PGlite under DATA_DIR. Set: PostgreSQL. */
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  /** Unset: each mail is written as an .eml file to DATA_DIR/outbox. */
  MAIL_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().min(3).default('Customer Portal <no-reply@portal.localhost>'),
  /** Secrets; unset outside production, they are generated once and kept in DATA_DIR. */
  JWT_SECRET: secret,
  LINK_SIGNING_SECRET: secret,
  SEED_DEMO: z.stringbool().default(true),
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
  PAYMENT_GATEWAY_KEY_ID: z.string().min(1).default('rzp_test_sandbox'),
  /** Unset outside production: generated once and kept in DATA_DIR (sandbox use). */
  PAYMENT_GATEWAY_KEY_SECRET: z.string().min(8).optional(),
  PAYMENT_GATEWAY_WEBHOOK_SECRET: z.string().min(8).optional(),
  /** Minutes between reconciliation runs; 0 turns the job off. */
  PAYMENT_RECONCILE_MINUTES: z.coerce.number().min(0).max(1440).default(5),
  /** Minutes between purges of sign-in records unusable for over a day; 0 turns the job off. */
  AUTH_PURGE_MINUTES: z.coerce.number().min(0).max(1440).default(60),
  /** Supplier details printed on GST tax invoices. */
  INVOICE_SUPPLIER_NAME: z.string().min(1).default('Ledgerline Software Services Pvt Ltd'),
  INVOICE_SUPPLIER_ADDRESS: z
    .string()
    .min(1)
    .default('4th Floor, Prestige Tech Park, Outer Ring Road, Bengaluru, Karnataka 560103'),
  INVOICE_SUPPLIER_GSTIN: z
    .string()
    .regex(/^\d{2}[0-9A-Z]{13}$/, 'must be a 15-character GSTIN')
    .default('29AAGCL1234M1Z5'),
  /** Services Accounting Code of the subscription (997331: licensing of software). */
  INVOICE_SAC_CODE: z
    .string()
    .regex(/^\d{4,8}$/)
    .default('997331'),
});

export type Config = z.infer<typeof ConfigSchema> & {
  PUBLIC_URL: string;
  /** Where relative paths given by the operator resolve. */
  workingDir: string;
};

export class ConfigError extends Error {}

/** Parses the environment once; the one place that reads `process.env`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const parsed = result.data;
  const requireAll = (names: readonly (keyof typeof parsed)[], when: string) => {
    const missing = names.find((name) => !parsed[name]);
    if (missing) throw new ConfigError(`Invalid configuration: ${missing} is required ${when}`);
  };
  if (parsed.NODE_ENV === 'production') {
    requireAll(
      ['JWT_SECRET', 'LINK_SIGNING_SECRET', 'DATA_ENCRYPTION_KEY', 'PUBLIC_URL'],
      'in production',
    );
    if (parsed.PAYMENT_GATEWAY_URL) {
      requireAll(['PAYMENT_GATEWAY_KEY_SECRET', 'PAYMENT_GATEWAY_WEBHOOK_SECRET'], 'in production');
    }
  }
  if (parsed.CONSENT_PROVIDER_URL) {
    requireAll(
      ['CONSENT_PROVIDER_CLIENT_ID', 'CONSENT_PROVIDER_CLIENT_SECRET'],
      'with CONSENT_PROVIDER_URL',
    );
  }
  // npm runs workspace scripts inside the workspace; the operator meant their own folder
  const workingDir = parsed.INIT_CWD ?? process.cwd();
  return {
    ...parsed,
    DATA_DIR: path.resolve(workingDir, parsed.DATA_DIR),
    WEB_DIST_DIR: path.resolve(workingDir, parsed.WEB_DIST_DIR),
    workingDir,
    PUBLIC_URL: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
  };
}
