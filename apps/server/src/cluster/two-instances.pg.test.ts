import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAmount, paiseToRupees } from '@portal/contract';
import { hmacHex } from '../adapters/payment-gateway';
import { DEMO_ACCOUNT } from '../demo/seed';
import { CODE_MAIL_SUBJECT } from '../modules/auth/mails';
import { freePort, postgresTestServerUrl } from '../test/database';
import { codeFrom, readOutbox } from '../test/mail';
import { startTestS3, type TestS3 } from '../test/s3';
import { SERVED_BY, startHaproxy, type Haproxy } from './haproxy';
import { createPostgresDatabase, startPortal, stopPortal, type PortalProcess } from './processes';

/**
 * Two portal processes on one fresh PostgreSQL database and one S3-compatible bucket (s3rver),
 * behind haproxy, round robin with no stickiness. They share a data folder only for the outbox
 * the test reads mail from and the sandbox's generated secrets. Every call goes through
 * haproxy; its x-served-by header says which instance answered.
 */
let dataDir: string;
let s3: TestS3;
let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
const portals: Record<string, PortalProcess> = {};
let lb: Haproxy;
/** The database the restore drill makes, dropped with the test's own. */
let restoredDatabase: string | undefined;

async function countCustomers(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS count FROM customers');
    return rows[0].count as number;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-two-'));
  database = await createPostgresDatabase(postgresTestServerUrl());
  s3 = await startTestS3();
  const ports = { a: await freePort(), b: await freePort() };
  const lbPort = await freePort();
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    PUBLIC_URL: `http://127.0.0.1:${lbPort}`,
    TRUST_PROXY: '127.0.0.1',
    // the sweeps on their default schedules: each instance sends a first run at start
    PAYMENT_RECONCILE_MINUTES: '5',
    AUTH_PURGE_MINUTES: '60',
    CONSENT_EXPIRY_MINUTES: '15',
    ...s3.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  // the first migrates, seeds and writes the sandbox's secrets; the second finds them
  portals.a = await startPortal(ports.a, env);
  portals.b = await startPortal(ports.b, env);
  lb = await startHaproxy(dataDir, lbPort, ports);
}, 240_000);

afterAll(async () => {
  await lb?.stop();
  await Promise.all(Object.values(portals).map(stopPortal));
  if (restoredDatabase) {
    const admin = new pg.Client({ connectionString: postgresTestServerUrl() });
    await admin.connect();
    await admin.query(
      `DROP DATABASE IF EXISTS ${new URL(restoredDatabase).pathname.slice(1)} WITH (FORCE)`,
    );
    await admin.end();
  }
  await database?.drop();
  await s3?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  /** Parsed JSON, checked field by field by each test. */
  body: ReturnType<typeof JSON.parse>;
  raw: Buffer;
  headers: Headers;
  servedBy: string;
}

async function call(
  method: string,
  url: string,
  options: {
    json?: unknown;
    /** A body sent as it is, for a signature over its exact bytes. */
    raw?: string;
    token?: string;
    cookie?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  const res = await fetch(new URL(url, lb.url), {
    method,
    headers,
    body: options.json === undefined ? options.raw : JSON.stringify(options.json),
    redirect: 'manual',
  });
  const raw = Buffer.from(await res.arrayBuffer());
  let body: unknown = null;
  if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(raw.toString());
  return {
    status: res.status,
    body,
    raw,
    headers: res.headers,
    servedBy: res.headers.get(SERVED_BY) ?? '',
  };
}

const outbox = () => readOutbox(path.join(dataDir, 'outbox'));
// the reminders' first run at start mails the demo customer too, at a time of its own
const codeMails = async () =>
  (await outbox()).filter(
    (mail) => mail.to === DEMO_ACCOUNT.email && mail.subject === CODE_MAIL_SUBJECT,
  );
const refreshCookie = (answer: Answer) =>
  answer.headers
    .getSetCookie()
    .find((c) => c.startsWith('__Host-refresh='))
    ?.split(';')[0];
const credentials = {
  email: DEMO_ACCOUNT.email,
  mobile: DEMO_ACCOUNT.mobile,
  gstNo: DEMO_ACCOUNT.gstNo,
  tally_serialno: DEMO_ACCOUNT.tallySerialNo,
  password: DEMO_ACCOUNT.password,
};

/** Signs the demo customer in: the code requested on one instance, verified on the other. */
async function signIn() {
  const before = (await codeMails()).length;
  const login = await call('POST', '/api/auth/login', { json: credentials });
  expect(login.status).toBe(200);
  // the code is mailed after the answer
  await expect.poll(async () => (await codeMails()).length, { timeout: 10_000 }).toBe(before + 1);
  const mails = await codeMails();
  const verify = await call('POST', '/api/auth/verify-2fa', {
    json: { tempToken: login.body.tempToken, verificationCode: codeFrom(mails.at(-1)!) },
  });
  expect(verify.status).toBe(200);
  return {
    login,
    verify,
    token: verify.body.token as string,
    cookie: refreshCookie(verify)!,
    userId: verify.body.user.id as string,
  };
}

let session: { token: string; cookie: string; userId: string };
let purchasedOrderId: string;

/** Runs a Node script to its end; what it printed, and its exit code. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ stdout: string; stderr: string; status: number | null }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (status) => resolve({ stdout, stderr, status }));
  });
}

const RESTORE_DRILL = fileURLToPath(
  new URL('../../../../scripts/restore-drill.mjs', import.meta.url),
);

describe('two portal instances behind haproxy', () => {
  it('share the requests between both instances, in turn', async () => {
    const served = [];
    for (let i = 0; i < 4; i++) {
      const res = await call('GET', '/api/health/ready');
      expect(res.status).toBe(200);
      served.push(res.servedBy);
    }
    expect(new Set(served)).toEqual(new Set(['a', 'b']));
    expect(served[0]).not.toBe(served[1]);
  });

  it('verifies on one instance the code requested on the other', async () => {
    const { login, verify, token, cookie, userId } = await signIn();
    expect(login.servedBy).not.toBe(verify.servedBy);
    expect(verify.body.user.email).toBe(DEMO_ACCOUNT.email);
    session = { token, cookie, userId };
    const profile = await call('GET', '/api/auth/profile', { token });
    expect(profile.status).toBe(200);
  });

  it('refreshes on one instance with the cookie the other set, and logs out for both', async () => {
    const first = await call('POST', '/api/auth/refresh-token', { cookie: session.cookie });
    expect(first.status).toBe(200);
    const rotated = refreshCookie(first)!;
    expect(rotated).not.toBe(session.cookie);
    const second = await call('POST', '/api/auth/refresh-token', { cookie: rotated });
    expect(second.servedBy).not.toBe(first.servedBy);
    expect(second.status).toBe(200);
    const latest = refreshCookie(second)!;

    const out = await call('POST', '/api/auth/logout', {
      cookie: latest,
      token: second.body.token,
    });
    expect(out.status).toBe(200);
    const afterLogout = await call('POST', '/api/auth/refresh-token', { cookie: latest });
    expect(afterLogout.servedBy).not.toBe(out.servedBy);
    expect(afterLogout.status).toBe(401);

    session = await signIn();
  });

  it('completes a purchase whose checkout (and its webhook) and callback land on different instances', async () => {
    const { token } = session;
    const plans = await call('GET', '/api/plans', { token });
    const plan = plans.body.data.plans[0];
    const amount = paiseToRupees(orderAmount(Math.round(plan.amount * 100)).totalPaise);
    const order = await call('POST', '/api/orders', { token, json: { planId: plan._id, amount } });
    expect(order.status).toBe(201);
    const orderId = order.body.order._id as string;
    purchasedOrderId = orderId;
    const payment = await call('POST', '/api/create-payment', {
      token,
      json: {
        order_id: orderId,
        amount,
        customer_name: DEMO_ACCOUNT.companyName,
        customer_email: DEMO_ACCOUNT.email,
        customer_phone: DEMO_ACCOUNT.mobile,
        planType: plan.planType,
      },
    });
    expect(payment.status).toBe(200);
    const checkout = new URL(payment.body.paymentUrl as string);
    expect(checkout.origin).toBe(lb.url);

    // the sandbox gateway delivers its webhook from the instance that took the payment
    const paid = await call('POST', `${checkout.pathname}/pay`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.status).toBe(303);
    const callback = new URL(paid.headers.get('location')!);
    const back = await call('GET', callback.pathname + callback.search);
    expect(back.status).toBe(303);
    expect(back.servedBy).not.toBe(paid.servedBy);
    expect(back.headers.get('location')).toBe(`/orders?tab=history&order=${orderId}`);

    // the gateway sends the event again (it retries); the other instance takes it as a repeat
    const secrets = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8'));
    const body = JSON.stringify({
      entity: 'event',
      event: 'payment_link.paid',
      payload: {
        payment_link: {
          entity: {
            id: checkout.pathname.split('/').at(-1),
            reference_id: orderId,
            status: 'paid',
            amount: Math.round(amount * 100),
            amount_paid: Math.round(amount * 100),
          },
        },
        payment: {
          entity: {
            id: callback.searchParams.get('razorpay_payment_id'),
            amount: Math.round(amount * 100),
            status: 'captured',
            notes: { order_id: orderId },
          },
        },
      },
      created_at: Math.floor(Date.now() / 1000),
    });
    const repeats = [];
    for (let i = 0; i < 2; i++) {
      repeats.push(
        await call('POST', '/api/payments/webhook', {
          headers: {
            'content-type': 'application/json',
            'x-razorpay-signature': hmacHex(secrets.gatewayWebhookSecret, body),
            'x-razorpay-event-id': `evt_cluster_repeat_${i}`,
          },
          raw: body,
        }),
      );
    }
    expect(repeats.map((r) => r.status)).toEqual([200, 200]);

    const history = await call('GET', '/api/orders/history', { token });
    const mine = history.body.orders.filter((o: { _id: string }) => o._id === orderId);
    expect(mine).toHaveLength(1);
    expect(mine[0].paymentStatus).toBe('Completed');

    // the receipt comes out the same from both instances
    const receipts = [await call('GET', mine[0].receiptUrl), await call('GET', mine[0].receiptUrl)];
    expect(new Set(receipts.map((r) => r.servedBy))).toEqual(new Set(['a', 'b']));
    for (const r of receipts) {
      expect(r.status).toBe(200);
      expect(r.raw.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('refreshes a consent on one instance and deletes it on the other', async () => {
    const { token, userId } = session;
    const list = await call('GET', `/api/user-consents?userId=${userId}`, { token });
    expect(list.status).toBe(200);
    const consent = list.body.data[0];
    const refreshed = await call('POST', '/api/consent/getstatus', {
      token,
      json: { consentId: consent.consentId },
    });
    expect(refreshed.body).toMatchObject({ message: 'Consent status refreshed' });
    expect(refreshed.status).toBe(200);
    const deleted = await call('DELETE', `/api/user-consents/${consent._id}`, { token });
    expect(deleted.servedBy).not.toBe(refreshed.servedBy);
    expect([deleted.status, deleted.body.message]).toEqual([200, 'Consent deleted successfully']);
    const after = await call('GET', `/api/user-consents?userId=${userId}`, { token });
    expect(after.body.data.map((c: { _id: string }) => c._id)).not.toContain(consent._id);
    const gone = await call('DELETE', `/api/user-consents/${consent._id}`, { token });
    expect(gone.status).toBe(404);
  });

  it('serves the same installer from both instances', async () => {
    const plugins = await call('GET', '/api/plugins', { token: session.token });
    expect(plugins.status).toBe(200);
    const plugin = plugins.body.plugins[0];
    const downloads = [
      await call('GET', plugin.downloadURL),
      await call('GET', plugin.downloadURL),
    ];
    expect(new Set(downloads.map((d) => d.servedBy))).toEqual(new Set(['a', 'b']));
    for (const d of downloads) {
      expect(d.status).toBe(200);
      expect(d.raw.length).toBe(plugin.size);
      expect(createHash('sha256').update(d.raw).digest('hex')).toBe(plugin.sha256);
    }
  });

  it('counts wrong passwords across both instances and refuses the sixth try', async () => {
    const tries = [];
    for (let i = 0; i < 5; i++) {
      tries.push(
        await call('POST', '/api/auth/login', {
          json: { ...credentials, password: 'Wrong@12345' },
        }),
      );
    }
    expect(tries.map((t) => t.status)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(tries.map((t) => t.servedBy))).toEqual(new Set(['a', 'b']));
    const sixth = await call('POST', '/api/auth/login', { json: credentials });
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toBe('Too many attempts. Please wait 1 minute and try again.');
  });

  it('delivers each mail once, though both instances take jobs from the queue', async () => {
    const outboxDir = path.join(dataDir, 'outbox');
    const ids = await Promise.all(
      (await readdir(outboxDir))
        .filter((file) => file.endsWith('.eml'))
        .map(async (file) => {
          const raw = await readFile(path.join(outboxDir, file), 'utf8');
          return /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];
        }),
    );
    // two sign-ins sent a code each
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('runs each scheduled job one run at a time across both instances, and never fails one', async () => {
    const sweeps = ['payment-reconcile', 'auth-purge', 'consent-expiry'];
    const FETCH_WAIT_MS = 50;
    const runs = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const result = await client.query<{
          name: string;
          state: string;
          started: Date | null;
          completed: Date | null;
        }>(
          `SELECT name, state, started_on AS started, completed_on AS completed
           FROM pgboss.job WHERE name = ANY($1) ORDER BY started_on`,
          [sweeps],
        );
        return result.rows;
      } finally {
        await client.end();
      }
    };
    // idle sweep workers look for a run every 15 s
    await expect
      .poll(
        async () => {
          const done = (await runs()).filter((r) => r.state === 'completed');
          return sweeps.filter((name) => done.some((r) => r.name === name));
        },
        { timeout: 45_000, interval: 1_000 },
      )
      .toEqual(sweeps);
    const all = await runs();
    expect(all.filter((r) => r.state === 'failed')).toEqual([]);
    for (const name of sweeps) {
      const done = all.filter((r) => r.name === name && r.state === 'completed');
      // one first run per instance start at most, never one each plus a duplicate
      expect(done.length).toBeGreaterThanOrEqual(1);
      expect(done.length).toBeLessThanOrEqual(2);
      // pg-boss stamps started_on with now(), the time its fetch began: a fetch that waited on
      // the running job's row (the stately queue's unique index) is stamped up to that wait
      // before the run it waited for completed. Seen: 1 ms.
      for (let i = 1; i < done.length; i++) {
        expect(done[i]!.started!.getTime()).toBeGreaterThanOrEqual(
          done[i - 1]!.completed!.getTime() - FETCH_WAIT_MS,
        );
      }
    }
  }, 60_000);

  it('carries on through the other instance when one is killed', async () => {
    const before = await call('GET', '/api/auth/profile', { token: session.token });
    const victim = before.servedBy;
    const survivor = victim === 'a' ? 'b' : 'a';
    portals[victim]!.child.kill('SIGKILL');
    await portals[victim]!.exited;

    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await call('GET', '/api/auth/profile', { token: session.token }));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set([survivor]));
    // haproxy's readiness checks take the dead one out
    await expect
      .poll(() => lb.log(), { timeout: 10_000 })
      .toMatch(new RegExp(`Server portals/${victim} is DOWN`));
  });

  it('passes the restore drill into a target of its own, and leaves the running installation as it was', async () => {
    await Promise.all(
      Object.values(portals).map(async (portal) => {
        portal.child.kill('SIGTERM');
        await portal.exited;
      }),
    );
    const targetUrl = new URL(database.url);
    targetUrl.pathname = `${targetUrl.pathname}_restored`;
    restoredDatabase = targetUrl.toString();
    const drillEnv = {
      // psql, pg_dump and pg_restore of Debian's postgresql-client
      PATH: '/usr/local/bin:/usr/bin:/bin',
      DATABASE_URL: database.url,
      ...s3.env,
      RESTORE_DATABASE_URL: restoredDatabase,
      RESTORE_S3_BUCKET: 'portal-restored',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    const keysBefore = await s3.keys();
    const customersBefore = await countCustomers(database.url);

    // the running installation as the target is refused before anything is copied
    const refused = await runScript(RESTORE_DRILL, ['drill'], {
      ...drillEnv,
      RESTORE_DATABASE_URL: database.url,
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      "Error: RESTORE_DATABASE_URL names the running portal's database (DATABASE_URL): nothing was changed\n",
    );
    const sameBucket = await runScript(RESTORE_DRILL, ['drill'], {
      ...drillEnv,
      RESTORE_S3_BUCKET: s3.bucket,
    });
    expect(sameBucket.status).toBe(1);
    expect(sameBucket.stderr).toContain("RESTORE_S3_BUCKET names the running portal's bucket");

    // not spawnSync: the S3 server the drill talks to runs in this process
    const drill = await runScript(RESTORE_DRILL, ['drill'], drillEnv);
    expect(drill.stderr).toBe('');
    expect(drill.status).toBe(0);
    expect(drill.stdout).toContain(
      `drill passed: customer ${DEMO_ACCOUNT.email}, order ${purchasedOrderId} and receipt file`,
    );
    expect(await s3.keys()).toEqual(keysBefore);
    expect(await countCustomers(database.url)).toBe(customersBefore);
    expect(await countCustomers(restoredDatabase)).toBe(customersBefore);

    // a second drill into the now full target is refused, and changes nothing
    const again = await runScript(RESTORE_DRILL, ['drill'], drillEnv);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/has \d+ tables: a restore goes into an empty database only/);
  }, 180_000);
});
