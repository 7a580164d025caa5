import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENTS_PAGE_SIZE, DASHBOARD_ACTIVITY_CONSENTS } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer, insertCustomers, sessionAuth } from '../../test/customers';
import { CUSTOM_PLANS_FIRST, onOneConnection } from '../../test/database';
import type { RequestAuth } from '../auth/authenticate';
import { listConsentPage } from './pages';
import { createTestPartner } from './testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CALLS = 12;

/** `count` Approved consents of the customer, `<prefix>-1` the newest, a minute apart. */
async function insertConsents(
  customerId: string,
  partnerId: string,
  prefix: string,
  count: number,
) {
  await t.deps.db.execute(sql`
    INSERT INTO consents (customer_id, partner_ref, consent_id, status, provider_status,
      permissions, expires_at, provider_created_at, provider_status_updated_at, created_at,
      updated_at)
    SELECT ${customerId}, ${partnerId}, ${prefix} || '-' || i, 'Approved', 'Authorised',
      '["ReadAccountsBasic"]', now() + interval '365 days', now(), now(),
      now() - i * interval '1 minute', now() - i * interval '1 minute'
    FROM generate_series(1, ${count}) AS i`);
}

/**
 * The web app's first and next page at each of its sizes, read 12 times on one connection:
 * PostgreSQL plans each statement for its values five times, then keeps one plan for the rest.
 */
async function expectOnePlanKept(auth: RequestAuth, prefix: string) {
  const connection = onOneConnection(t.deps.db);
  try {
    const deps = { ...t.deps, db: connection.db };
    const limits = [CONSENTS_PAGE_SIZE, DASHBOARD_ACTIVITY_CONSENTS];
    for (const limit of limits) {
      for (let call = 0; call < CALLS; call++) {
        const first = await listConsentPage(deps, auth, { page: 1, limit });
        expect(first.data).toHaveLength(limit);
        const next = await listConsentPage(deps, auth, {
          page: 2,
          limit,
          after: first.cursors.next!,
        });
        expect(next.data[0]!.consentId).toBe(`${prefix}-${limit + 1}`);
      }
    }
    const plans = await connection.plans();
    for (const name of limits.flatMap((limit) => [
      `consents_all_first_${limit}`,
      `consents_all_after_${limit}`,
    ])) {
      expect(plans.get(name), name).toEqual({
        generic: CALLS - CUSTOM_PLANS_FIRST,
        custom: CUSTOM_PLANS_FIRST,
      });
    }
  } finally {
    await connection.close();
  }
}

describe('the consents page on PostgreSQL', () => {
  it('keeps one plan per connection for the page sizes the web app asks for', async () => {
    const customer = await createCustomer(t);
    const { partner } = await createTestPartner(t);
    // enough rows, with statistics, for the planner's costs to be those of a real customer
    await insertConsents(customer.id, partner.id, 'PLAN', 3000);
    await t.deps.db.execute(sql`ANALYZE`);
    await expectOnePlanKept(await sessionAuth(t, customer.id), 'PLAN');
  });

  it('keeps one plan too for a customer with far more consents than most', async () => {
    const customer = await createCustomer(t);
    const { partner } = await createTestPartner(t);
    await insertConsents(customer.id, partner.id, 'LARGE', 10_000);
    // most customers have tens of consents: a plan for any customer is costed for those
    const company = await insertCustomers(t, 1000);
    await t.deps.db.execute(sql`
      INSERT INTO consents (customer_id, partner_ref, consent_id, status, provider_status,
        permissions, expires_at, provider_created_at, provider_status_updated_at, created_at,
        updated_at)
      SELECT c.id, ${partner.id}, 'SMALL-' || c.id || '-' || j, 'Approved', 'Authorised',
        '["ReadAccountsBasic"]', now() + interval '365 days', now(), now(), now(), now()
      FROM customers c CROSS JOIN generate_series(1, 30) AS j
      WHERE c.company_name = ${company}`);
    await t.deps.db.execute(sql`ANALYZE`);
    await expectOnePlanKept(await sessionAuth(t, customer.id), 'LARGE');
  });
});
