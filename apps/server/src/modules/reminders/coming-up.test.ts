import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComingUpResponseSchema, type ComingUpResponse } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { retirePlan } from '../plans/service';
import { EXPIRING_COUNT_CAP } from './coming-up';
import { consentExpiring, customerWithPlan } from '../../test/reminders';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function comingUp(customerId: string): Promise<ComingUpResponse['data']> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/coming-up',
    headers: await authHeaders(t, customerId),
  });
  expect(res.statusCode).toBe(200);
  return ComingUpResponseSchema.parse(res.json()).data;
}

const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY_MS);

describe('GET /api/coming-up', () => {
  it('gives the plan’s end, the days left and the plan Renew orders', async () => {
    const { customer, plan, endsAt } = await customerWithPlan(t, { durationDays: 90 });
    t.clock.advance(80 * DAY_MS + 3_600_000);
    expect((await comingUp(customer.id)).plan).toEqual({
      planName: 'Quarterly',
      endDate: endsAt.toISOString(),
      daysLeft: 10,
      renewPlanId: plan.id,
    });
    await retirePlan(t.deps.db, t.clock, plan.id);
    expect((await comingUp(customer.id)).plan?.renewPlanId).toBeNull();
  });

  it('lists the Approved consents expiring within 30 days, soonest first, and counts them', async () => {
    const { customer } = await customerWithPlan(t);
    const in5 = await consentExpiring(t, customer.id, inDays(5), { partnerName: 'Five Ltd' });
    const in2 = await consentExpiring(t, customer.id, inDays(2), { partnerName: 'Two Ltd' });
    await consentExpiring(t, customer.id, inDays(30), { partnerName: 'Thirty Ltd' });
    await consentExpiring(t, customer.id, inDays(12), { partnerName: 'Twelve Ltd' });
    // outside the window, past, or not Approved: none of them
    await consentExpiring(t, customer.id, inDays(31));
    await consentExpiring(t, customer.id, inDays(-1));
    await consentExpiring(t, customer.id, inDays(3), { status: 'Pending' });
    await consentExpiring(t, customer.id, inDays(3), { status: 'Rejected' });

    const { consents } = await comingUp(customer.id);
    expect(consents).toEqual({
      windowDays: 30,
      count: 4,
      more: false,
      soonest: [
        {
          _id: in2.id,
          consentId: in2.consentId,
          partnerName: 'Two Ltd',
          expiresAt: inDays(2).toISOString(),
          daysLeft: 2,
        },
        {
          _id: in5.id,
          consentId: in5.consentId,
          partnerName: 'Five Ltd',
          expiresAt: inDays(5).toISOString(),
          daysLeft: 5,
        },
        expect.objectContaining({ partnerName: 'Twelve Ltd', daysLeft: 12 }),
      ],
    });
  });

  it('stops counting at the cap and says there are more', async () => {
    const { customer } = await customerWithPlan(t);
    const { partner } = await consentExpiring(t, customer.id, inDays(1));
    await t.deps.db.execute(sql`
      INSERT INTO consents (customer_id, partner_ref, consent_id, status, provider_status,
        permissions, expires_at, provider_created_at, provider_status_updated_at)
      SELECT ${customer.id}::uuid, ${partner.id}::uuid, 'CAP-' || gen_random_uuid(), 'Approved',
        'Authorised', '["ReadAccountsBasic"]'::jsonb,
        ${inDays(20).toISOString()}::timestamptz, now(), now()
      FROM generate_series(1, ${EXPIRING_COUNT_CAP + 5}) AS i`);
    const { consents } = await comingUp(customer.id);
    expect(consents).toMatchObject({ count: EXPIRING_COUNT_CAP, more: true });
    expect(consents.soonest).toHaveLength(3);
  });

  it('shows a customer only their own plan and consents', async () => {
    const owner = await customerWithPlan(t);
    await consentExpiring(t, owner.customer.id, inDays(4));
    const stranger = await createCustomer(t);
    expect(await comingUp(stranger.id)).toEqual({
      plan: null,
      consents: { windowDays: 30, count: 0, more: false, soonest: [] },
    });
  });

  it('refuses a request without a session, or with a token that is not one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/coming-up', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false });
    }
  });

  it('ignores query parameters that would name another customer', async () => {
    const owner = await customerWithPlan(t);
    await consentExpiring(t, owner.customer.id, inDays(4));
    const other = await createCustomer(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/coming-up?userId=${owner.customer.id}&customerId=${owner.customer.id}`,
      headers: await authHeaders(t, other.id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ plan: null, consents: { count: 0 } });
  });
});
