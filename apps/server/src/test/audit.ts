import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from './app';
import { auditEvents } from '../modules/audit/schema';

/** The audit log's rows about an account, oldest first, each without its id and time. */
export async function auditOf(t: TestApp, customerId: string) {
  const rows = await t.deps.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.customerId, customerId))
    .orderBy(asc(auditEvents.id));
  return rows.map(({ id: _id, occurredAt: _at, ...row }) => row);
}

/** A row of the customer's own doing, as auditOf answers it. */
export const byCustomer = (
  customerId: string,
  action: string,
  details: Record<string, unknown> = {},
  outcome = 'success',
) => ({
  actorKind: 'customer',
  actorId: customerId,
  customerId,
  action,
  outcome,
  clientNetwork: null,
  details,
});

/** Every audit row, oldest first. */
export const allAudit = (t: TestApp) =>
  t.deps.db.select().from(auditEvents).orderBy(asc(auditEvents.id));

/** The rows, as the database holds them, hold none of `secrets`, in any letter case. */
export function expectNoneOf(rows: unknown[], secrets: string[]) {
  const text = JSON.stringify(rows).toLowerCase();
  expect(rows.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(3);
    expect(text).not.toContain(secret.toLowerCase());
  }
}
