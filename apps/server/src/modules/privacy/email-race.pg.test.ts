import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { customers } from '../users/schema';
import { codeMailedTo, post } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/privacy/email on PostgreSQL', () => {
  it('gives one address to one of 100 customers confirming it at once, and a 409 to the others', async () => {
    const newEmail = `race-${randomUUID().slice(0, 8)}@example.test`;
    const racers: { headers: Record<string, string>; code: string }[] = [];
    // asked one after another, so that each code read from the new mailbox is known to be whose
    for (let i = 0; i < 100; i += 1) {
      const customer = await createCustomer(t);
      const headers = await authHeaders(t, customer.id);
      const asked = await post(t, privacyPaths.emailChangeCode, headers, {
        newEmail,
        password: customer.password,
      });
      expect(asked.statusCode).toBe(200);
      racers.push({ headers, code: await codeMailedTo(t, newEmail) });
    }
    const answers = await Promise.all(
      racers.map(({ headers, code }) => post(t, privacyPaths.emailChange, headers, { code })),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    expect(answers.find((res) => res.statusCode === 409)!.json().message).toBe(
      privacyMessages.emailTaken,
    );
    const owners = await t.deps.db.select().from(customers).where(eq(customers.email, newEmail));
    expect(owners).toHaveLength(1);
    // a hundred customers made, signed in and mailed a code one after another: two argon2
    // hashes each, which on a busy two-core host took past the usual 30 s
  }, 120_000);
});
