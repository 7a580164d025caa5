import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, type User } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { customerPlans } from '../plans/schema';
import { createPlan } from '../plans/service';
import { getUser } from './profile';
import { createAccessTokens } from './access-token';
import { ABSOLUTE_LIMIT_MS, revokeSession, startSession } from './sessions';
import { bearer } from '../../test/auth';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const expired = { success: false, message: 'Session expired. Please log in again.' };

/** A session of its own for the customer, and an access token for it signed now. */
async function session(customerId: string) {
  const { sessionId } = await startSession(t.deps.db, t.clock, customerId, false);
  return { sessionId, token: await tokenFor(customerId, sessionId) };
}

const tokenFor = (customerId: string, sessionId: string) =>
  createAccessTokens(t.deps.secrets.jwt, t.clock).sign({ customerId, sessionId });

const profile = (token: string) =>
  t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) });

async function profileOf(customerId: string): Promise<User> {
  const res = await profile((await session(customerId)).token);
  expect(res.statusCode).toBe(200);
  return res.json().data.user as User;
}

/** A plan on the customer's account from `startsAt` to `endsAt` (ms since the epoch). */
async function period(
  customerId: string,
  plan: { planName?: string; amountPaise?: number; durationDays?: number },
  startsAt: number,
  endsAt: number,
) {
  const row = await createPlan(t.deps.db, t.clock, {
    planName: plan.planName ?? 'Starter',
    planType: 'Single',
    noOfCompany: 1,
    durationDays: plan.durationDays ?? 30,
    amountPaise: plan.amountPaise ?? 99_900,
  });
  await t.deps.db.insert(customerPlans).values({
    customerId,
    planId: row.id,
    orderId: randomUUID(),
    startsAt: new Date(startsAt),
    endsAt: new Date(endsAt),
  });
}

describe('GET /api/auth/profile', () => {
  it('shows the plan in force with its price in rupees and paise, its days and Active', async () => {
    const customer = await createCustomer(t);
    const now = t.clock.now().getTime();
    await period(
      customer.id,
      { planName: 'Growth', amountPaise: 12_345_678 },
      now - DAY_MS,
      now + 29 * DAY_MS,
    );
    expect((await profileOf(customer.id)).plan).toEqual({
      planName: 'Growth',
      formattedAmount: '₹1,23,456.78',
      formattedDuration: '30 days',
      startDate: new Date(now - DAY_MS).toISOString(),
      endDate: new Date(now + 29 * DAY_MS).toISOString(),
      status: 'Active',
    });
  });

  it('says "1 day" for a one-day plan', async () => {
    const customer = await createCustomer(t);
    const now = t.clock.now().getTime();
    await period(customer.id, { durationDays: 1, amountPaise: 5_000 }, now, now + DAY_MS);
    expect((await profileOf(customer.id)).plan).toMatchObject({
      formattedAmount: '₹50.00',
      formattedDuration: '1 day',
    });
  });

  it('shows the same plan as the sign-in answer, for every layout of periods', async () => {
    const now = t.clock.now().getTime();
    const layouts: [number, number][][] = [
      // none; one ended; one ending exactly now; one not begun
      [],
      [[now - 40 * DAY_MS, now - 10 * DAY_MS]],
      [[now - 30 * DAY_MS, now]],
      [[now + DAY_MS, now + 31 * DAY_MS]],
      // one beginning exactly now
      [[now, now + 30 * DAY_MS]],
      // in force with two renewals queued after it, inserted out of order
      [
        [now + 50 * DAY_MS, now + 80 * DAY_MS],
        [now - 10 * DAY_MS, now + 20 * DAY_MS],
        [now + 20 * DAY_MS, now + 50 * DAY_MS],
      ],
      // an ended one before the one in force
      [
        [now - 60 * DAY_MS, now - 30 * DAY_MS],
        [now - 30 * DAY_MS, now + 5 * DAY_MS],
      ],
    ];
    const plans = [];
    for (const layout of layouts) {
      const customer = await createCustomer(t);
      for (const [startsAt, endsAt] of layout) await period(customer.id, {}, startsAt, endsAt);
      const shown = (await profileOf(customer.id)).plan;
      expect(shown).toEqual((await getUser(t.deps.db, t.clock, customer.id)).plan);
      plans.push(shown && { startDate: shown.startDate, endDate: shown.endDate });
    }
    // the sign-in answer's rule itself, so that the two cannot agree on a wrong plan
    const at = (ms: number) => new Date(ms).toISOString();
    expect(plans).toEqual([
      null,
      null,
      null,
      null,
      { startDate: at(now), endDate: at(now + 30 * DAY_MS) },
      { startDate: at(now - 10 * DAY_MS), endDate: at(now + 80 * DAY_MS) },
      { startDate: at(now - 30 * DAY_MS), endDate: at(now + 5 * DAY_MS) },
    ]);
  });

  it("never shows another customer's profile or plan", async () => {
    const [one, other] = [await createCustomer(t), await createCustomer(t)];
    const now = t.clock.now().getTime();
    await period(other.id, { planName: 'Theirs' }, now - DAY_MS, now + DAY_MS);
    expect(await profileOf(one.id)).toMatchObject({ id: one.id, email: one.email, plan: null });
    // a token naming one customer with the other's session
    const theirs = await session(other.id);
    const res = await profile(await tokenFor(one.id, theirs.sessionId));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
  });

  it('answers 401 once the session is revoked', async () => {
    const customer = await createCustomer(t);
    const { sessionId, token } = await session(customer.id);
    expect((await profile(token)).statusCode).toBe(200);
    await revokeSession(t.deps.db, t.clock, sessionId, 'logout');
    const res = await profile(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
  });

  it('answers 401 once the session reaches its absolute limit, however active', async () => {
    const customer = await createCustomer(t);
    const { sessionId } = await session(customer.id);
    const at = async () => profile(await tokenFor(customer.id, sessionId));
    // active every few minutes: the idle limit never ends it
    for (let moved = 0; moved < ABSOLUTE_LIMIT_MS - 1_000;) {
      const step = Math.min(10 * 60_000, ABSOLUTE_LIMIT_MS - 1_000 - moved);
      t.clock.advance(step);
      moved += step;
      expect((await at()).statusCode).toBe(200);
    }
    t.clock.advance(1_000);
    const res = await at();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
  });
});
