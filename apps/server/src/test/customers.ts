import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../lib/password';
import { customers, type Customer } from '../modules/users/schema';
import { createAccessTokens } from '../modules/auth/access-token';
import { startSession } from '../modules/auth/sessions';
import type { RequestAuth } from '../modules/auth/authenticate';
import type { TestApp } from './app';

let sequence = 0;

export const TEST_PASSWORD = 'Secret@123';

/** A customer of its own for each test; fields can be overridden. */
export async function createCustomer(
  t: TestApp,
  overrides: Partial<typeof customers.$inferInsert> & { password?: string } = {},
): Promise<Customer & { password: string }> {
  sequence += 1;
  const { password = TEST_PASSWORD, ...fields } = overrides;
  const [customer] = await t.deps.db
    .insert(customers)
    .values({
      email: `customer${sequence}-${randomUUID().slice(0, 8)}@example.test`,
      mobile: `98${String(10_000_000 + sequence).slice(-8)}`,
      gstNo: '27AAPFU0939F1ZV',
      tallySerialNo: String(700_000_000 + sequence),
      companyName: `Test Company ${sequence}`,
      category: 'Retail',
      tallyVersion: 'TallyPrime 5.1',
      passwordHash: await hashPassword(password),
      ...fields,
    })
    .returning();
  return { ...customer!, password };
}

/**
 * `count` customers made straight in the table, quickly: the many small accounts that a large one
 * stands among. They share the company name returned, which finds them again.
 */
export async function insertCustomers(t: TestApp, count: number): Promise<string> {
  const company = `Small Traders ${randomUUID()}`;
  await t.deps.db.execute(sql`
    INSERT INTO customers (email, company_name, mobile, gst_no, tally_serial_no, password_hash)
    SELECT 'small-' || i || '-' || ${company} || '@example.test', ${company}, '9876543210',
      '27AAPFU0939F1ZV', '700000001', 'not a password hash'
    FROM generate_series(1, ${count}) AS i`);
  return company;
}

/** What a verified token gives a route for a customer, with a real session behind it. */
export async function sessionAuth(t: TestApp, customerId: string): Promise<RequestAuth> {
  const { sessionId } = await startSession(t.deps.db, t.clock, customerId, false);
  return { customerId, sessionId };
}

/** Bearer headers for a customer, as after a completed sign-in: a real session stands behind them. */
export async function authHeaders(t: TestApp, customerId: string) {
  const { sessionId } = await sessionAuth(t, customerId);
  const tokens = createAccessTokens(t.deps.secrets.jwt, t.clock);
  const token = await tokens.sign({ customerId, sessionId });
  return { authorization: `Bearer ${token}` };
}
