import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TestApp } from './app';
import { createCustomer } from './customers';
import { createTestPartner } from '../modules/consents/testing';
import { activatePlan } from '../modules/plans/activation';
import { createPlan, type NewPlan } from '../modules/plans/service';

/** A customer of a test's own, with a plan of `durationDays` paid for at the clock's time. */
export async function customerWithPlan(
  t: TestApp,
  plan: Partial<NewPlan> = {},
  customer: Parameters<typeof createCustomer>[1] = {},
) {
  const c = await createCustomer(t, customer);
  const p = await createPlan(t.deps.db, t.clock, {
    planName: 'Quarterly',
    planType: 'Single',
    noOfCompany: 1,
    durationDays: 90,
    amountPaise: 1_499_00,
    ...plan,
  });
  const period = await t.deps.db.transaction((tx) =>
    activatePlan(tx, {
      customerId: c.id,
      planId: p.id,
      orderId: randomUUID(),
      durationDays: p.durationDays,
      now: t.clock.now(),
    }),
  );
  return { customer: c, plan: p, ...period };
}

/**
 * A consent of `customerId` for a partner of its own, expiring at `expiresAt`, written straight
 * into the table as the bank would have left it.
 */
export async function consentExpiring(
  t: TestApp,
  customerId: string,
  expiresAt: Date,
  options: ConsentOptions = {},
) {
  const { consents, partner } = await consentsExpiring(t, customerId, expiresAt, 1, options);
  return { ...consents[0]!, partner };
}

interface ConsentOptions {
  partnerName?: string;
  status?: string;
}

/** `count` consents of `customerId`, all for one partner of their own and expiring at `expiresAt`. */
export async function consentsExpiring(
  t: TestApp,
  customerId: string,
  expiresAt: Date,
  count: number,
  { partnerName, status = 'Approved' }: ConsentOptions = {},
) {
  const { partner } = await createTestPartner(t, partnerName);
  const prefix = `TEST-${randomUUID()}`;
  const now = t.clock.now().toISOString();
  const consents = rowsOf<{ id: string; consentId: string }>(
    await t.deps.db.execute(sql`
      INSERT INTO consents (customer_id, partner_ref, consent_id, status, provider_status,
        permissions, expires_at, provider_created_at, provider_status_updated_at, created_at,
        updated_at)
      SELECT ${customerId}::uuid, ${partner.id}::uuid, ${prefix} || '-' || n, ${status},
        ${status === 'Approved' ? 'Authorised' : 'AwaitingAuthorisation'},
        '["ReadAccountsBasic"]'::jsonb, ${expiresAt.toISOString()}::timestamptz,
        ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM generate_series(1, ${count}::int) AS n
      RETURNING id, consent_id AS "consentId"`),
  );
  return { consents, partner };
}

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;
