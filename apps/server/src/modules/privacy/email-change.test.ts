import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { meetingAtTransaction } from '../../test/database';
import { customers } from '../users/schema';
import { MAX_CODE_TRIES } from './codes';
import { hasSqlState } from '../../db/sql-state';
import { EMAIL_CHANGED_SUBJECT } from './mail';
import { privacyCodes } from './schema';
import { codeMailedTo, post } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const emailOf = async (id: string) =>
  (await t.deps.db.select().from(customers).where(eq(customers.id, id)))[0]!.email;
const freshAddress = () => `new-${randomUUID().slice(0, 8)}@example.test`;

async function setUp() {
  const customer = await createCustomer(t);
  const headers = await authHeaders(t, customer.id);
  return { customer, headers };
}

describe('POST /api/privacy/email/code and POST /api/privacy/email', () => {
  it('moves the account to the new address with the code sent there, and tells the old one', async () => {
    const { customer, headers } = await setUp();
    const newEmail = freshAddress();
    const asked = await post(t, privacyPaths.emailChangeCode, headers, {
      newEmail: `  ${newEmail.toUpperCase()} `,
      password: customer.password,
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(privacyMessages.newEmailCodeSent);
    expect(await emailOf(customer.id)).toBe(customer.email);

    const codeMail = (await t.outbox()).filter((m) => m.to === newEmail).at(-1);
    expect(codeMail?.text).toContain('within 10 minutes to confirm this new address');
    const code = await codeMailedTo(t, newEmail);
    const res = await post(t, privacyPaths.emailChange, headers, { code });
    expect(res.statusCode).toBe(200);
    expect(await emailOf(customer.id)).toBe(newEmail);
    const notice = (await t.outbox()).filter(
      (m) => m.to === customer.email && m.subject === EMAIL_CHANGED_SUBJECT,
    );
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).toContain(newEmail);

    // the code is used up
    expect((await post(t, privacyPaths.emailChange, headers, { code })).statusCode).toBe(400);
  });

  it('refuses a wrong password, the same address, or an address another customer has', async () => {
    const { customer, headers } = await setUp();
    const other = await createCustomer(t);
    const cases = [
      [
        { newEmail: freshAddress(), password: 'wrong password' },
        400,
        privacyMessages.wrongPassword,
      ],
      [{ newEmail: customer.email, password: customer.password }, 400, privacyMessages.sameEmail],
      [{ newEmail: other.email, password: customer.password }, 409, privacyMessages.emailTaken],
      [{ newEmail: 'not an address', password: customer.password }, 400, 'Invalid email address'],
    ] as const;
    for (const [payload, status, message] of cases) {
      const res = await post(t, privacyPaths.emailChangeCode, headers, payload);
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toContain(message);
    }
    expect(await emailOf(customer.id)).toBe(customer.email);
  });

  it('refuses a wrong code, stops after five tries, and refuses an expired code', async () => {
    const { customer, headers } = await setUp();
    const newEmail = freshAddress();
    await post(t, privacyPaths.emailChangeCode, headers, { newEmail, password: customer.password });
    const code = await codeMailedTo(t, newEmail);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < MAX_CODE_TRIES; i += 1) {
      const res = await post(t, privacyPaths.emailChange, headers, { code: wrong });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(privacyMessages.wrongCode);
    }
    const spent = await post(t, privacyPaths.emailChange, headers, { code });
    expect(spent.statusCode).toBe(429);
    expect(spent.json().message).toBe(privacyMessages.tooManyTries);

    t.clock.advance(61_000);
    await post(t, privacyPaths.emailChangeCode, headers, { newEmail, password: customer.password });
    const fresh = await codeMailedTo(t, newEmail);
    // a code works for 10 minutes
    t.clock.advance(10 * 60_000 + 1);
    const late = await post(t, privacyPaths.emailChange, headers, { code: fresh });
    expect(late.statusCode).toBe(400);
    expect(await emailOf(customer.id)).toBe(customer.email);
  });

  it('accepts a code a second before its 10 minutes are up', async () => {
    const { customer, headers } = await setUp();
    const newEmail = freshAddress();
    await post(t, privacyPaths.emailChangeCode, headers, { newEmail, password: customer.password });
    const code = await codeMailedTo(t, newEmail);
    t.clock.advance(10 * 60_000 - 1000);
    const res = await post(t, privacyPaths.emailChange, headers, { code });
    expect(res.statusCode, res.body).toBe(200);
    expect(await emailOf(customer.id)).toBe(newEmail);
  });

  it('refuses a code that was sent for another customer', async () => {
    const a = await setUp();
    const b = await setUp();
    const newEmail = freshAddress();
    await post(t, privacyPaths.emailChangeCode, a.headers, {
      newEmail,
      password: a.customer.password,
    });
    const code = await codeMailedTo(t, newEmail);
    const res = await post(t, privacyPaths.emailChange, b.headers, { code });
    expect(res.statusCode).toBe(400);
    expect(await emailOf(b.customer.id)).toBe(b.customer.email);
  });

  it('gives an address two customers were sent codes for to the first to confirm; the other gets 409', async () => {
    const a = await setUp();
    const b = await setUp();
    const newEmail = freshAddress();
    const codes = [];
    for (const { customer, headers } of [a, b]) {
      await post(t, privacyPaths.emailChangeCode, headers, {
        newEmail,
        password: customer.password,
      });
      codes.push(await codeMailedTo(t, newEmail));
    }
    expect(
      (await post(t, privacyPaths.emailChange, a.headers, { code: codes[0] })).statusCode,
    ).toBe(200);
    const late = await post(t, privacyPaths.emailChange, b.headers, { code: codes[1] });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(privacyMessages.emailTaken);
    expect(await emailOf(a.customer.id)).toBe(newEmail);
    expect(await emailOf(b.customer.id)).toBe(b.customer.email);
  });

  it('uses a code once when two confirmations with it reach their transactions together', async () => {
    const { customer, headers } = await setUp();
    const newEmail = freshAddress();
    await post(t, privacyPaths.emailChangeCode, headers, { newEmail, password: customer.password });
    const code = await codeMailedTo(t, newEmail);
    const answers = await meetingAtTransaction(t.deps, 2, () =>
      Promise.all([0, 1].map(() => post(t, privacyPaths.emailChange, headers, { code }))),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.statusCode === 400)!.json().message).toBe(
      privacyMessages.wrongCode,
    );
    expect(await emailOf(customer.id)).toBe(newEmail);
    const notices = (await t.outbox()).filter(
      (m) => m.to === customer.email && m.subject === EMAIL_CHANGED_SUBJECT,
    );
    expect(notices).toHaveLength(1);
  });

  it('refuses a code for another address than the one it was sent to', async () => {
    const { customer, headers } = await setUp();
    const sentTo = freshAddress();
    await post(t, privacyPaths.emailChangeCode, headers, {
      newEmail: sentTo,
      password: customer.password,
    });
    const code = await codeMailedTo(t, sentTo);
    // the address the code confirms is part of its hash: a changed row does not take it
    const elsewhere = freshAddress();
    await t.deps.db
      .update(privacyCodes)
      .set({ newEmail: elsewhere })
      .where(eq(privacyCodes.customerId, customer.id));
    const res = await post(t, privacyPaths.emailChange, headers, { code });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(privacyMessages.wrongCode);
    expect(await emailOf(customer.id)).toBe(customer.email);
  });

  it.each([
    ['no code', {}],
    ['a code of five digits', { code: '12345' }],
    ['an unknown field', { code: '123456', email: 'x@y.z' }],
  ])('refuses %s with a 400', async (_what, payload) => {
    const { headers } = await setUp();
    const res = await post(t, privacyPaths.emailChange, headers, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });
});

describe('hasSqlState', () => {
  it('finds the state on the error or down its chain of causes, and stops where the chain ends', () => {
    const violation = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(hasSqlState(violation, '23505')).toBe(true);
    expect(hasSqlState(new Error('query failed', { cause: violation }), '23505')).toBe(true);
    expect(hasSqlState(new Error('query failed', { cause: violation }), '40001')).toBe(false);
    expect(hasSqlState(new Error('no cause'), '23505')).toBe(false);
    expect(hasSqlState(Object.assign(new Error('a null cause'), { cause: null }), '23505')).toBe(
      false,
    );
    expect(hasSqlState(undefined, '23505')).toBe(false);
  });
});
