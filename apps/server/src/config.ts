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
});

export type Config = z.infer<typeof ConfigSchema> & { PUBLIC_URL: string };

export class ConfigError extends Error {}

/** Parses the environment once; the one place that reads `process.env`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const parsed = result.data;
  if (parsed.NODE_ENV === 'production') {
    for (const name of ['JWT_SECRET', 'LINK_SIGNING_SECRET', 'PUBLIC_URL'] as const) {
      if (!parsed[name])
        throw new ConfigError(`Invalid configuration: ${name} is required in production`);
    }
  }
  return { ...parsed, PUBLIC_URL: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}` };
}
