import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginRequestSchema, authMessages, authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { watchedDatabase } from '../../test/watched-database';
import { codeFrom } from '../../test/mail';
import { jobsOf } from '../../test/queue';
import { signInEvents } from '../security/schema';
import { loginChallenges } from './schema';
import { startLogin } from './service';
import { activityFeed, freshIp, login, loginBody, unreachableMailer } from '../../test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The outcomes in a customer's sign-in history. */
const signInRows = async (customerId: string) =>
  (
    await t.deps.db
      .select({ outcome: signInEvents.outcome })
      .from(signInEvents)
      .where(eq(signInEvents.customerId, customerId))
  ).map((row) => row.outcome);

describe('POST /api/auth/login', () => {
  it('answers a tempToken and mails a 6-digit code', async () => {
    const customer = await createCustomer(t);
    const res = await login(t, loginBody(customer), freshIp());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      tempToken: expect.any(String),
      message: 'Verification code sent to your email',
    });
    expect(body.tempToken.length).toBeGreaterThanOrEqual(43);
    const mail = await t.latestMail();
    expect(mail.to).toContain(customer.email);
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text.match(/\b\d{6}\b/g)).toHaveLength(1);
    expect(mail.text.trim()).toBe(
      [
        `Your verification code is ${codeFrom(mail)}`,
        '',
        'Enter it in the portal within 10 minutes to finish signing in.',
        'If you did not try to sign in, change your password at once.',
      ].join('\n'),
    );
  });

  it('stores the tempToken and the code only as hashes', async () => {
    const customer = await createCustomer(t);
    const res = await login(t, loginBody(customer), freshIp());
    const code = (await t.latestMail()).text.match(/\b\d{6}\b/)![0];
    const [row] = await t.deps.db
      .select()
      .from(loginChallenges)
      .where(eq(loginChallenges.customerId, customer.id));
    expect(row!.tokenHash).not.toContain(res.json().tempToken);
    expect(row!.codeHash).not.toContain(code);
    expect(row!.expiresAt.getTime() - t.clock.now().getTime()).toBe(10 * 60_000);
  });

  it('takes the e-mail in any case and the GST number in lower case', async () => {
    const customer = await createCustomer(t);
    const res = await login(
      t,
      loginBody(customer, {
        email: customer.email.toUpperCase(),
        gstNo: customer.gstNo.toLowerCase(),
      }),
      freshIp(),
    );
    expect(res.statusCode).toBe(200);
  });

  const wrongFields: [
    string,
    (c: Awaited<ReturnType<typeof createCustomer>>) => Record<string, string>,
  ][] = [
    ['an unknown e-mail', () => ({ email: 'nobody@example.test' })],
    ['a wrong password', () => ({ password: 'Wrong@123' })],
    ['a wrong mobile number', () => ({ mobile: '9000000001' })],
    ['a wrong GST number', () => ({ gstNo: '29AAPFU0939F1ZV' })],
    ['a wrong Tally serial number', (c) => ({ tally_serialno: `${c.tallySerialNo}9` })],
  ];
  for (const [what, change] of wrongFields) {
    it(`gives the one generic message for ${what}`, async () => {
      const customer = await createCustomer(t);
      const before = (await t.outbox()).length;
      const res = await login(t, loginBody(customer, change(customer)), freshIp());
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        message: 'Invalid login details. Please check and try again.',
      });
      expect(await t.outbox()).toHaveLength(before);
    });
  }

  it("records a failed sign-in in a known account's activity", async () => {
    const customer = await createCustomer(t);
    await login(t, loginBody(customer, { password: 'Wrong@123' }), freshIp());
    expect(await activityFeed(t, customer.id)).toEqual([
      expect.objectContaining({
        type: 'signin_failed',
        title: 'Sign-in failed',
        description: 'Someone tried to sign in to your account with incorrect details.',
        status: 'failed',
      }),
    ]);
  });

  it('takes the mobile, GST and Tally serial numbers typed with spaces or dashes', async () => {
    const customer = await createCustomer(t);
    const { mobile, gstNo, tallySerialNo } = customer;
    const res = await login(
      t,
      loginBody(customer, {
        mobile: `${mobile.slice(0, 5)} ${mobile.slice(5)}`,
        gstNo: `${gstNo.slice(0, 2)}-${gstNo.slice(2, 12)} ${gstNo.slice(12)}`,
        tally_serialno: `${tallySerialNo.slice(0, 3)}-${tallySerialNo.slice(3)}`,
      }),
      freshIp(),
    );
    expect(res.statusCode).toBe(200);
  });

  it('names the missing field', async () => {
    const customer = await createCustomer(t);
    const { mobile: _mobile, ...rest } = loginBody(customer);
    const res = await login(t, rest, freshIp());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('mobile'),
    });
  });

  it('refuses wrong types, malformed JSON and oversized bodies with a 4xx', async () => {
    const customer = await createCustomer(t);
    const wrongType = await login(t, loginBody(customer, { rememberMe: 'yes', password: 5 }));
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().success).toBe(false);

    const malformed = await t.app.inject({
      method: 'POST',
      url: authPaths.login,
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ success: false });

    const tooLong = await login(t, loginBody(customer, { password: 'x'.repeat(300) }));
    expect(tooLong.statusCode).toBe(400);

    const huge = await t.app.inject({
      method: 'POST',
      url: authPaths.login,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...loginBody(customer), filler: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ success: false });
  });
});

describe('a failed sign-in, for an address with an account and for one without', () => {
  it('does the same work until the answer, which is the same; the account records its failure after', async () => {
    const customer = await createCustomer(t);
    const watched = watchedDatabase(t.deps.db);
    const deps = { ...t.deps, db: watched.db };
    const later: (() => Promise<void>)[] = [];
    const refusal = async (input: ReturnType<typeof loginBody>) => {
      watched.started.length = 0;
      const body = LoginRequestSchema.parse(input);
      const error = await startLogin(deps, body, freshIp(), 'test', (work) => later.push(work))
        .then(() => null)
        .catch((thrown: unknown) => thrown);
      return { error, queries: [...watched.started] };
    };

    const known = await refusal(loginBody(customer, { password: 'Wrong@123' }));
    const unknown = await refusal(
      loginBody(customer, { email: 'nobody-at-all@example.test', password: 'Wrong@123' }),
    );
    expect(known.error).toMatchObject({ statusCode: 401, message: authMessages.invalidLogin });
    expect(unknown).toEqual(known);
    // before the answer: the two counts and the look-up, for either address
    expect(known.queries).toEqual(['insert', 'insert', 'select']);
    expect(await signInRows(customer.id)).toEqual([]);

    // after it, the account's failure alone
    expect(later).toHaveLength(1);
    await later[0]!();
    expect(await signInRows(customer.id)).toEqual(['wrong_password']);
    expect((await activityFeed(t, customer.id)).map((event) => event.type)).toEqual([
      'signin_failed',
    ]);
  });
});

describe('POST /api/auth/login while mail cannot be sent', () => {
  it('answers at once, with the code kept in the mail queue until mail can go', async () => {
    const down = await createTestApp({ deps: { mailer: unreachableMailer() } });
    try {
      const customer = await createCustomer(down);
      const res = await login(down, loginBody(customer), freshIp());
      expect(res.statusCode).toBe(200);
      expect(res.json().tempToken).toEqual(expect.any(String));
      const mails = await jobsOf(down, 'mail');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.state).not.toBe('completed');
    } finally {
      await down.close();
    }
  });
});

describe('login texts', () => {
  it('are the ones the contract publishes', () => {
    expect(authMessages.invalidLogin).toBe('Invalid login details. Please check and try again.');
  });
});
