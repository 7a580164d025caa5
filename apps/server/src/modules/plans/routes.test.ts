import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { createPlan, DEMO_PLANS, retirePlan, seedDemoPlans } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/plans', () => {
  it('lists the offered plans oldest first with every field, without retired ones', async () => {
    await seedDemoPlans(t.deps.db, t.clock);
    t.clock.advance(60_000);
    const retired = await createPlan(t.deps.db, t.clock, { ...DEMO_PLANS[0]!, planName: 'Old' });
    await retirePlan(t.deps.db, t.clock, retired.id);
    const c = await createCustomer(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/plans',
      headers: await authHeaders(t, c.id),
    });
    expect(res.statusCode).toBe(200);
    const { success, data } = res.json();
    expect(success).toBe(true);
    expect(data.plans.map((p: { planName: string }) => p.planName)).toEqual([
      'Starter',
      'Professional',
      'Business',
      'Enterprise',
    ]);
    expect(data.plans[2]).toEqual({
      _id: expect.any(String),
      planName: 'Business',
      planType: 'Multi',
      noOfCompany: 5,
      duration: 180,
      amount: 7499,
      createdDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const dates = data.plans.map((p: { createdDate: string }) => p.createdDate);
    expect([...dates].sort()).toEqual(dates);
  });

  it('covers Single and Multi, one and several companies, several durations in the demo', () => {
    expect(new Set(DEMO_PLANS.map((p) => p.planType))).toEqual(new Set(['Single', 'Multi']));
    expect(DEMO_PLANS.some((p) => p.noOfCompany === 1)).toBe(true);
    expect(DEMO_PLANS.some((p) => p.noOfCompany > 1)).toBe(true);
    expect(new Set(DEMO_PLANS.map((p) => p.durationDays)).size).toBeGreaterThan(1);
  });

  it('needs a signed-in customer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/plans' })).statusCode).toBe(401);
  });
});

describe('createPlan', () => {
  it('refuses a bad type or non-positive numbers', async () => {
    await expect(
      createPlan(t.deps.db, t.clock, { ...DEMO_PLANS[0]!, planType: 'Team' as 'Single' }),
    ).rejects.toThrow('Plan type must be Single or Multi');
    await expect(
      createPlan(t.deps.db, t.clock, { ...DEMO_PLANS[0]!, durationDays: 0 }),
    ).rejects.toThrow('Duration must be a positive whole number');
  });
});
