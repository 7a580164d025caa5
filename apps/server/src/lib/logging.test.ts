import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino, { type LoggerOptions } from 'pino';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { paymentPaths } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import { REFRESH_COOKIE } from '../modules/auth/routes';
import {
  bearer,
  latestCode,
  login,
  loginBody,
  refresh,
  refreshCookieOf,
  verify,
} from '../test/auth';
import { asyncLogDestination, loggerOptions, redactUrl } from './logging';

/** What the app logged while `work` ran. */
async function logOf(work: () => Promise<unknown>): Promise<string> {
  const from = lines.length;
  await work();
  return lines.slice(from).join('');
}

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('the query was expected to fail');
    },
    (error: unknown) => error as Error,
  );

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({ logStream, env: { LOG_LEVEL: 'info' } });
});
afterAll(() => t.close());

describe('the server log', () => {
  it('carries request ids but no password, code, token, cookie or link secret', async () => {
    const customer = await createCustomer(t);
    const { tempToken } = (await login(t, loginBody(customer))).json<{ tempToken: string }>();
    const code = await latestCode(t);
    const verified = await verify(t, tempToken, code);
    const { token } = verified.json<{ token: string }>();
    const refreshValue = refreshCookieOf(verified)!.value;

    await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: { ...bearer(token), cookie: `${REFRESH_COOKIE}=${refreshValue}` },
    });
    await refresh(t, refreshValue);
    await t.app.inject({ method: 'GET', url: '/reset-password?token=reset-secret-in-the-link' });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"password":"${customer.password}",`,
    });

    const log = lines.join('');
    expect(log).toContain('"reqId"');
    expect(log).toContain('/reset-password?token=[REDACTED]');
    for (const secret of [
      customer.password,
      code,
      tempToken,
      token,
      refreshValue,
      'reset-secret-in-the-link',
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('the server log of a failed query', () => {
  it('keeps its SQL text and SQLSTATE code but not its parameters', async () => {
    const email = `someone-${randomUUID()}@example.test`;
    const sessionId = randomUUID();
    const mobile = `98${String(Date.now()).slice(-8)}`;
    const error = await failureOf(
      t.deps.db.execute(sql`select ${sessionId}::uuid, ${email}::text, ${mobile}::uuid as broken`),
    );
    expect(error.message).toContain(email);
    // the database quotes the value it could not read
    expect((error.cause as Error).message).toContain(mobile);

    const log = await logOf(async () => t.app.log.error({ err: error }, 'query failed'));
    expect(log).toContain('Failed query: select $1::uuid, $2::text, $3::uuid as broken');
    expect(log).toContain('"code":"22P02"');
    expect(log).toContain('invalid input syntax for type uuid');
    for (const secret of [email, sessionId, mobile, 'params:']) expect(log).not.toContain(secret);
  });

  it('names the violated constraint but not the row that broke it', async () => {
    const customer = await createCustomer(t);
    const error = await failureOf(createCustomer(t, { email: customer.email }));

    const log = await logOf(async () => t.app.log.warn({ err: error }, 'insert failed'));
    expect(log).toContain('"code":"23505"');
    expect(log).toContain('"constraint":"customers_email_unique"');
    for (const secret of [customer.email, customer.mobile, customer.passwordHash, 'params:']) {
      expect(log).not.toContain(secret);
    }
  });

  it('loses the parameters where the message was logged as text, and masks e-mail addresses', async () => {
    const email = `someone-${randomUUID()}@example.test`;
    const error = await failureOf(t.deps.db.execute(sql`select ${email}::uuid`));

    const log = await logOf(async () => {
      t.app.log.warn({ reason: error.message }, 'reset link failed');
      t.app.log.warn({ err: error.message }, 'reconciliation failed');
      t.app.log.error(`mail to ${email} failed: ${error.message}`);
      t.app.log.info({ email, sessionId: randomUUID(), order: { email } }, 'personal fields');
    });
    expect(log).toContain('Failed query: select $1::uuid');
    expect(log).toContain('mail to [email] failed');
    expect(log).toContain('"email":"[REDACTED]"');
    expect(log).toContain('"sessionId":"[REDACTED]"');
    for (const secret of [email, 'params:']) expect(log).not.toContain(secret);
  });
});

describe('the server log of a payment callback', () => {
  it('hides the gateway signature in the logged URL', async () => {
    const signature = 'a1b2c3d4e5f6'.repeat(5);
    const log = await logOf(() =>
      t.app.inject({
        method: 'GET',
        url: `${paymentPaths.callback}?razorpay_payment_id=pay_1&razorpay_payment_link_id=plink_1&razorpay_payment_link_reference_id=ref&razorpay_payment_link_status=paid&razorpay_signature=${signature}`,
      }),
    );
    expect(log).toContain('razorpay_payment_id=pay_1');
    expect(log).toContain('razorpay_signature=[REDACTED]');
    expect(log).not.toContain(signature);
  });
});

describe('redactUrl', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/api/files/a?expires=1&sub=c&sig=abc&x=1')).toBe(
      '/api/files/a?expires=1&sub=c&sig=[REDACTED]&x=1',
    );
    expect(redactUrl('/reset-password?token=t0k')).toBe('/reset-password?token=[REDACTED]');
  });

  it('hides every signature-like parameter, whatever its prefix', () => {
    expect(
      redactUrl(
        '/cb?razorpay_payment_id=pay_1&razorpay_signature=f00d&X-Amz-Signature=beef&X-Amz-Security-Token=t&access_token=a&page=2',
      ),
    ).toBe(
      '/cb?razorpay_payment_id=pay_1&razorpay_signature=[REDACTED]&X-Amz-Signature=[REDACTED]&X-Amz-Security-Token=[REDACTED]&access_token=[REDACTED]&page=2',
    );
  });
});

describe('the asynchronous log destination', () => {
  it('writes every line, redacted, once flushed at shutdown', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-log-'));
    const file = path.join(dir, 'server.log');
    const destination = asyncLogDestination(file);
    // a file is opened in the background; standard output, main.ts's destination, is open
    await once(destination, 'ready');
    const log = pino(loggerOptions('info') as LoggerOptions, destination);
    for (let i = 0; i < 500; i += 1) {
      log.info(
        { password: 'Hunter@2024', login: { token: 'bearer-secret' }, line: i },
        'signed in',
      );
    }
    destination.flushSync();
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    await rm(dir, { recursive: true, force: true });
    expect(lines).toHaveLength(500);
    expect(JSON.parse(lines[499]!)).toMatchObject({
      password: '[REDACTED]',
      login: { token: '[REDACTED]' },
      line: 499,
      msg: 'signed in',
    });
    expect(lines.join('\n')).not.toMatch(/Hunter@2024|bearer-secret/);
  });
});
