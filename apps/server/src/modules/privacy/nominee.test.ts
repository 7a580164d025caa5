import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { auditOf, byCustomer } from '../../test/audit';
import { authHeaders, createCustomer } from '../../test/customers';
import { NOMINEE_NAMED_SUBJECT, NOMINEE_REMOVED_SUBJECT } from './mail';
import { nominees } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const call = (method: 'GET' | 'PUT' | 'DELETE', headers: Headers, payload?: object) =>
  t.app.inject({ method, url: privacyPaths.nominee, headers, ...(payload ? { payload } : {}) });
const address = () => `nominee-${randomUUID().slice(0, 8)}@example.test`;
const rowsOf = (customerId: string) =>
  t.deps.db.select().from(nominees).where(eq(nominees.customerId, customerId));
const mailsTo = async (email: string) =>
  (await t.outbox()).filter((mail) => mail.to === email).map((mail) => mail.subject);

async function setUp() {
  const customer = await createCustomer(t);
  return { customer, headers: await authHeaders(t, customer.id) };
}

describe('the nominee on the Privacy page', () => {
  it('is named, told, read back, changed and removed, each person told once', async () => {
    const { customer, headers } = await setUp();
    expect((await call('GET', headers)).json().data).toEqual({ nominee: null });

    const first = address();
    const named = await call('PUT', headers, {
      name: '  Asha Rao ',
      email: first.toUpperCase(),
      relation: 'Spouse',
    });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual({
      success: true,
      message: 'Your nominee is saved. We have told them by e-mail.',
      data: {
        nominee: {
          name: 'Asha Rao',
          email: first,
          relation: 'Spouse',
          nominatedAt: t.clock.now().toISOString(),
          updatedAt: t.clock.now().toISOString(),
        },
      },
    });
    const [mail] = (await t.outbox()).filter((m) => m.to === first);
    expect(mail!.subject).toBe(NOMINEE_NAMED_SUBJECT);
    expect(mail!.text).toContain('Dear Asha Rao,');
    expect(mail!.text).toContain(`${customer.companyName} named you, as their spouse,`);
    expect((await call('GET', headers)).json().data.nominee).toMatchObject({ email: first });

    // the same again changes nothing and mails no one
    await call('PUT', headers, { name: 'Asha Rao', email: first, relation: 'Spouse' });
    expect(await mailsTo(first)).toEqual([NOMINEE_NAMED_SUBJECT]);

    t.clock.advance(60_000);
    const second = address();
    const changed = await call('PUT', headers, {
      name: 'Vikram Rao',
      email: second,
      relation: 'Sibling',
    });
    expect(changed.json().data.nominee).toMatchObject({
      email: second,
      nominatedAt: named.json().data.nominee.nominatedAt,
      updatedAt: t.clock.now().toISOString(),
    });
    expect(await mailsTo(first)).toEqual([NOMINEE_NAMED_SUBJECT, NOMINEE_REMOVED_SUBJECT]);
    expect(await mailsTo(second)).toEqual([NOMINEE_NAMED_SUBJECT]);

    const removed = await call('DELETE', headers);
    expect(removed.json()).toEqual({
      success: true,
      message: 'Your nominee is removed. We have told them by e-mail.',
    });
    expect(await rowsOf(customer.id)).toEqual([]);
    expect(await mailsTo(second)).toEqual([NOMINEE_NAMED_SUBJECT, NOMINEE_REMOVED_SUBJECT]);
    const again = await call('DELETE', headers);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(privacyMessages.noNominee);

    expect(await auditOf(t, customer.id)).toEqual(
      expect.arrayContaining([
        byCustomer(customer.id, 'nominee_named'),
        byCustomer(customer.id, 'nominee_removed'),
      ]),
    );
  });

  it('refuses the customer themself and bad input with a 400, and changes nothing', async () => {
    const { customer, headers } = await setUp();
    const self = await call('PUT', headers, {
      name: 'Me',
      email: customer.email.toUpperCase(),
      relation: 'Spouse',
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('Name someone other than yourself.');
    for (const [body, message] of [
      [{ name: ' ', email: address(), relation: 'Spouse' }, 'Name is required'],
      [{ name: 'A', email: 'not-an-address', relation: 'Spouse' }, 'Invalid email address'],
      [{ name: 'A', email: address(), relation: 'Neighbour' }, 'Choose who they are to you'],
      [{ name: 'x'.repeat(101), email: address(), relation: 'Spouse' }, 'at most 100'],
      [{ name: 'A', email: address(), relation: 'Spouse', customerId: 'x' }, 'customerId'],
    ] as const) {
      const res = await call('PUT', headers, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect(await rowsOf(customer.id)).toEqual([]);
  });

  it('needs a signed-in customer', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(method, {}, { name: 'A', email: address(), relation: 'Spouse' });
      expect(res.statusCode, method).toBe(401);
    }
  });

  it('takes five changes a day, however many are sent at once, then asks to wait', async () => {
    const { customer, headers } = await setUp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('PUT', headers, { name: `Person ${i}`, email: address(), relation: 'Parent' }),
      ),
    );
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(5);
    expect(codes.filter((code) => code === 429)).toHaveLength(15);
    const saved = answers.find((res) => res.statusCode === 200)!;
    expect(saved.json().data.nominee.relation).toBe('Parent');
    expect(await rowsOf(customer.id)).toHaveLength(1);
    // a day later, the next change is taken
    t.clock.advance(24 * 60 * 60_000 + 1);
    const later = await authHeaders(t, customer.id);
    const next = await call('PUT', later, { name: 'Later', email: address(), relation: 'Child' });
    expect(next.statusCode).toBe(200);
  });
});
