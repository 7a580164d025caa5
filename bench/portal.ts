/** The portal as production runs it, in its own process, and a customer signed in to it. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { authPaths } from '@portal/contract';
import { freePort, startNodeServer, type ServerProcess } from './processes';

/** Settings shared by the portal and the peer, so that the peer accepts the portal's tokens. */
export const SECRETS = {
  JWT_SECRET: 'bench-jwt-secret-'.padEnd(48, 'j'),
  LINK_SIGNING_SECRET: 'bench-link-secret-'.padEnd(48, 'l'),
  DATA_ENCRYPTION_KEY: 'bench-encryption-key-'.padEnd(48, 'e'),
};

/**
 * Nothing the measured routes do calls the gateway or the bank; these addresses only make the
 * configuration a production one (no sandbox), and nothing listens on them.
 */
export const UNUSED_SERVICES = {
  PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9',
  PAYMENT_GATEWAY_KEY_ID: 'rzp_live_bench',
  PAYMENT_GATEWAY_KEY_SECRET: 'bench-gateway-secret',
  PAYMENT_GATEWAY_WEBHOOK_SECRET: 'bench-webhook-secret',
  CONSENT_PROVIDER_URL: 'http://127.0.0.1:9',
  CONSENT_PROVIDER_CLIENT_ID: 'bench',
  CONSENT_PROVIDER_CLIENT_SECRET: 'bench-bank-secret',
};

export interface Portal extends ServerProcess {
  outbox: string;
  /** Where Prometheus would read this portal's metrics; null when they are off. */
  metricsUrl: string | null;
}

/** `databaseUrl` unset: the embedded PGlite under `dataDir`, as seeded before. */
export async function startPortal(options: {
  dataDir: string;
  webDist: string;
  databaseUrl?: string;
  /** Served on a port of their own, as the deploy recipes do; false: neither served nor counted. */
  metrics?: boolean;
  /** Where the process writes its CPU profile as it stops (`node --cpu-prof`); none unless set. */
  cpuProfileDir?: string;
  /** Settings over those above: the services a run gives it, say (renewal-day.ts). */
  env?: Record<string, string>;
}): Promise<Portal> {
  const port = await freePort();
  const metricsPort = options.metrics === false ? null : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startNodeServer({
    name: 'portal',
    script: 'apps/server/src/main.ts',
    nodeOptions: options.cpuProfileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`]
      : [],
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DATA_DIR: options.dataDir,
      WEB_DIST_DIR: options.webDist,
      SEED_DEMO: 'false',
      // background jobs would spend CPU inside the measured windows
      PAYMENT_RECONCILE_MINUTES: '0',
      AUTH_PURGE_MINUTES: '0',
      CONSENT_EXPIRY_MINUTES: '0',
      REMINDER_MINUTES: '0',
      DATA_EXPORT_PURGE_MINUTES: '0',
      MAIL_PURGE_MINUTES: '0',
      CLOSED_ACCOUNT_PURGE_MINUTES: '0',
      AUDIT_PURGE_MINUTES: '0',
      DEAD_LETTER_DIGEST_MINUTES: '0',
      ...SECRETS,
      ...UNUSED_SERVICES,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}),
      ...options.env,
    },
    ready: async () => {
      const res = await fetch(`${url}/api/health`).catch(() => null);
      return res?.ok ? url : null;
    },
  });
  return {
    ...server,
    outbox: path.join(options.dataDir, 'outbox'),
    metricsUrl: metricsPort ? `http://127.0.0.1:${metricsPort}/metrics` : null,
  };
}

export interface Account {
  email: string;
  mobile: string;
  gstNo: string;
  tallySerialNo: string;
  password: string;
}

export interface Session {
  token: string;
  userId: string;
  /** `name=value` of the refresh cookie. */
  refreshCookie: string;
  /** The user as verify-2fa answered it, which the web app keeps in `auth-storage`. */
  user: Record<string, unknown>;
}

const decodeQuotedPrintable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const to = (headers: string) => headers.match(/^To: (.+)$/im)?.[1]?.trim();

/** The code of the first new mail to `email` in the outbox. */
async function mailedCode(outbox: string, email: string, seen: Set<string>): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const files = await readdir(outbox).catch(() => []);
    for (const file of files.filter((f) => f.endsWith('.eml') && !seen.has(f)).sort()) {
      const mail = decodeQuotedPrintable(await readFile(path.join(outbox, file), 'utf8'));
      const [headers = ''] = mail.split(/\r?\n\r?\n/, 1);
      // the sign-in code mail, not another one to the same address (a new browser's notice)
      const code = /Your verification code is (\d{6})\b/.exec(mail)?.[1];
      if (to(headers) === email && code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no verification code was mailed to ${email}`);
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** Signs in as a customer would: the password step, then the e-mailed code. */
export async function signIn(portal: Portal, account: Account): Promise<Session> {
  const seen = new Set(await readdir(portal.outbox).catch(() => []));
  const login = await post(`${portal.url}${authPaths.login}`, {
    email: account.email,
    mobile: account.mobile,
    gstNo: account.gstNo,
    tally_serialno: account.tallySerialNo,
    password: account.password,
    rememberMe: false,
  });
  const { tempToken } = (await login.json()) as { tempToken: string };
  const verificationCode = await mailedCode(portal.outbox, account.email, seen);
  const verified = await post(`${portal.url}${authPaths.verify2fa}`, {
    tempToken,
    verificationCode,
  });
  const { token, user } = (await verified.json()) as {
    token: string;
    user: Record<string, unknown> & { _id: string };
  };
  const refreshCookie = verified.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .find((cookie) => cookie.startsWith('__Host-'));
  if (!refreshCookie) throw new Error('verify-2fa set no refresh cookie');
  return { token, userId: user._id, refreshCookie, user };
}
