import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsentListResponseSchema,
  DashboardCountersResponseSchema,
  type ConsentListResponse,
  type ConsentStatus,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { revokeSession, startSession } from '../auth/sessions';
import { orders } from '../purchases/schema';
import { plans } from '../plans/schema';
import { encodeCursor } from './cursor';
import { allConsentBatches } from './pages';
import { consentAccesses, consents } from './schema';
import { partners } from '../partners/schema';
import { toConsent, toPastConsent } from './rows';
import { accessJoin, consentWithAccess } from './access';
import { approvedTestConsent, createTestPartner, partnerRead } from './testing';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const STATUSES: ConsentStatus[] = ['Pending', 'Approved', 'Rejected', 'Expired'];

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * `n` consents written straight into the table, many sharing a created_at to the microsecond and
 * others a microsecond apart; every fifth live one is past its expiry time but not yet swept.
 */
async function insertConsents(customerId: string, n: number) {
  const { partner } = await createTestPartner(t);
  const now = t.clock.now().toISOString();
  await t.deps.db.execute(sql`
    INSERT INTO consents (customer_id, partner_ref, consent_id, status, provider_status, permissions,
      expires_at, provider_created_at, provider_status_updated_at, created_at, updated_at)
    SELECT ${customerId}::uuid, ${partner.id}::uuid, 'TEST-' || gen_random_uuid(),
      (ARRAY['Pending', 'Approved', 'Rejected', 'Expired'])[1 + (i * 7) % 4], 'AwaitingAuthorisation',
      '["ReadAccountsBasic"]'::jsonb,
      ${now}::timestamptz + CASE WHEN i % 5 = 0 THEN interval '-1 day' ELSE interval '365 days' END,
      ${now}::timestamptz, ${now}::timestamptz,
      ${now}::timestamptz - (i / 4) * interval '1 second' + (i % 3) * interval '1 microsecond',
      ${now}::timestamptz
    FROM generate_series(1, ${n}) AS i`);
}

/** The reference: the list as OFFSET over the derived status would read it, newest first. */
async function referenceIds(customerId: string, status?: ConsentStatus) {
  const now = t.clock.now().toISOString();
  const rows = rowsOf<{ id: string }>(
    await t.deps.db.execute(sql`
      SELECT id FROM (
        SELECT id, created_at,
          CASE WHEN status IN ('Pending', 'Approved') AND expires_at <= ${now}::timestamptz
            THEN 'Expired' ELSE status END AS derived
        FROM consents WHERE customer_id = ${customerId}::uuid) c
      WHERE ${status ?? null}::text IS NULL OR derived = ${status ?? null}::text
      ORDER BY created_at DESC, id DESC`),
  );
  return rows.map((row) => row.id);
}

async function page(headers: Record<string, string>, query: Record<string, string>) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/user-consents?${new URLSearchParams(query)}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return ConsentListResponseSchema.parse(res.json());
}

const ids = (answer: ConsentListResponse) => answer.data.map((consent) => consent._id);

describe('GET /api/user-consents by keyset', () => {
  it('walks Next and Previous through complete, disjoint pages that agree with OFFSET, ties on created_at included, for every status filter', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    await insertConsents(customer.id, 61);
    const limit = 7;
    for (const status of [undefined, ...STATUSES]) {
      const reference = await referenceIds(customer.id, status);
      const pages = Math.ceil(reference.length / limit);
      const base = {
        userId: customer.id,
        limit: String(limit),
        ...(status && { consentStatus: status }),
      };
      const slice = (n: number) => reference.slice((n - 1) * limit, n * limit);

      // forwards by cursor, from page 1 to the last
      let answer = await page(headers, { ...base, page: '1' });
      const seen: string[] = [];
      for (let n = 1; ; n += 1) {
        expect(answer.pagination).toEqual({
          total: reference.length,
          page: n,
          limit,
          total_pages: pages,
        });
        expect(ids(answer), `${status} page ${n}`).toEqual(slice(n));
        seen.push(...ids(answer));
        if (!answer.cursors.next) break;
        answer = await page(headers, { ...base, after: answer.cursors.next });
      }
      expect(seen).toEqual(reference);
      expect(new Set(seen).size).toBe(seen.length);

      // backwards by cursor, from the last page (a bare page number) to page 1
      answer = await page(headers, { ...base, page: String(pages) });
      for (let n = pages; ; n -= 1) {
        expect(answer.pagination.page).toBe(n);
        expect(ids(answer), `${status} back to page ${n}`).toEqual(slice(n));
        if (!answer.cursors.previous) break;
        answer = await page(headers, { ...base, before: answer.cursors.previous });
      }
      expect(answer.pagination.page).toBe(1);

      // every bare page number, from whichever end is nearer, and one past the end
      for (let n = 1; n <= pages + 1; n += 1) {
        expect(
          ids(await page(headers, { ...base, page: String(n) })),
          `${status} page=${n}`,
        ).toEqual(slice(n));
      }
    }
  });

  it('keeps page numbers and cursors within a search', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    await insertConsents(customer.id, 12);
    const reference = await referenceIds(customer.id);
    const base = { userId: customer.id, limit: '5', search: 'test-' };
    const first = await page(headers, { ...base, page: '1' });
    expect(first.pagination.total_pages).toBe(3);
    const second = await page(headers, { ...base, after: first.cursors.next! });
    expect(ids(second)).toEqual(reference.slice(5, 10));
    expect(second.pagination.page).toBe(2);
  });

  it('refuses a cursor it did not make, or one of another list, with a 400 that says so', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    await insertConsents(customer.id, 12);
    const first = await page(headers, { userId: customer.id, limit: '5', page: '1' });
    const next = first.cursors.next!;
    const made = (micros: string, pageNumber: number = 2) =>
      encodeCursor({
        direction: 'after',
        micros,
        id: customer.id,
        page: pageNumber,
        status: '',
        search: '',
      });
    const bad: Record<string, string>[] = [
      { after: 'not a cursor' },
      { after: Buffer.from('{"a":1}').toString('base64url') },
      { after: Buffer.from('[1,2,3,4,5,6]').toString('base64url') },
      { before: next },
      { after: next, before: next },
      { after: next, consentStatus: 'Approved' },
      { after: next, search: 'other' },
      { after: made('99999999999999999999') },
      { after: made('-1') },
      { after: made('1', 0) },
      { after: 'x'.repeat(600) },
    ];
    for (const query of bad) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/user-consents?${new URLSearchParams({ userId: customer.id, ...query })}`,
        headers,
      });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().message, JSON.stringify(query)).toMatch(/cursor|after or before/);
    }
    // the customer's own cursor still works, and one at the far end of time finds nothing
    expect(
      (await page(headers, { userId: customer.id, limit: '5', after: next })).data,
    ).toHaveLength(5);
    expect(
      (await page(headers, { userId: customer.id, limit: '5', after: made('0') })).data,
    ).toEqual([]);
  });
});

describe('a page as one JSON value', () => {
  /** The consent as the single-consent answers show it: read by the driver, dates as `Date`. */
  async function asTheDriverReadsIt(consentId: string) {
    const [row] = await t.deps.db
      .select({ stored: consentWithAccess, partner: partners })
      .from(consents)
      .innerJoin(partners, eq(partners.id, consents.partnerRef))
      .leftJoin(consentAccesses, accessJoin)
      .where(eq(consents.consentId, consentId));
    return row!;
  }

  it('answers every field of a consent as the driver-read answer does, instants to the microsecond cut alike, tokens decrypted', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t, {
      purpose: 'Loan underwriting',
    });
    expect((await partnerRead(t, apiKey, consentId, 'accounts')).statusCode).toBe(200);
    // every instant the answer shows: most with microseconds that toISOString cuts, one with
    // no fraction and one with trailing zeros, which PostgreSQL leaves out of its JSON
    await t.deps.db.execute(sql`
      UPDATE consents SET
        access_token_expires_at = '2026-07-01T01:02:03.123456Z',
        refresh_token_expires_at = '2026-08-01T01:02:03.999999Z',
        expires_at = '2027-01-01T00:00:00Z',
        provider_created_at = '2026-06-01T10:00:00.5005Z',
        transaction_from = '2025-01-01T00:00:00.05Z',
        transaction_to = '2026-05-31T23:59:59.999999Z',
        reconnect_requested_at = '2026-06-02T03:04:05.060708Z',
        created_at = '2026-06-01T10:00:00.123456Z',
        updated_at = '2026-06-03T10:00:00.654321Z'
      WHERE consent_id = ${consentId}`);
    await t.deps.db.execute(sql`
      UPDATE consent_accesses SET last_accessed_at = '2026-06-04T10:00:00.111111Z'
      WHERE consent_ref = (SELECT id FROM consents WHERE consent_id = ${consentId})`);
    const headers = await authHeaders(t, customer.id);
    const { stored, partner } = await asTheDriverReadsIt(consentId);
    const expected = toConsent(stored, partner, t.deps.consents.encryption);
    expect(expected.accessToken).toEqual(expect.any(String));
    expect(expected.reconnectRequestedAt).toBe('2026-06-02T03:04:05.060Z');
    expect(expected.expirationDateTime).toBe('2027-01-01T00:00:00.000Z');
    expect(expected.transactionFromDateTime).toBe('2025-01-01T00:00:00.050Z');

    const listed = await page(headers, { page: '1', limit: '10', userId: customer.id });
    expect(listed.data).toEqual([expected]);

    await t.deps.db.execute(sql`
      UPDATE consents SET status = 'Revoked', revoked_at = '2026-06-05T10:00:00.987654Z'
      WHERE consent_id = ${consentId}`);
    const past = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/history?page=1&limit=10&userId=${customer.id}`,
      headers,
    });
    expect(past.statusCode, past.body).toBe(200);
    const revoked = await asTheDriverReadsIt(consentId);
    const pastExpected = toPastConsent(revoked.stored, revoked.partner, t.deps.consents.encryption);
    expect(pastExpected.revokedAt).toBe('2026-06-05T10:00:00.987Z');
    expect(past.json().data).toEqual([pastExpected]);
  });
});

describe('expiry at read time', () => {
  it('shows a consent past its expiry as Expired in the page, the filter and the counters, and writes nothing', async () => {
    const customer = await createCustomer(t);
    let headers = await authHeaders(t, customer.id);
    const { partner } = await createTestPartner(t);
    const soon = new Date(t.clock.now().getTime() + DAY_MS);
    const [row] = await t.deps.db
      .insert(consents)
      .values({
        customerId: customer.id,
        partnerRef: partner.id,
        consentId: `TEST-${customer.id}`,
        status: 'Approved',
        providerStatus: 'Authorised',
        permissions: [],
        expiresAt: soon,
        providerCreatedAt: t.clock.now(),
        providerStatusUpdatedAt: t.clock.now(),
      })
      .returning();
    const counters = async () =>
      DashboardCountersResponseSchema.parse(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/dashboard/counters?userId=${customer.id}`,
            headers,
          })
        ).json(),
      ).data;
    expect((await counters()).activeConsents).toBe(1);

    t.clock.advance(DAY_MS);
    // a new sign-in: the old access token has run out meanwhile
    headers = await authHeaders(t, customer.id);
    const listed = await page(headers, { userId: customer.id });
    expect(listed.data.map((c) => c.consentStatus)).toEqual(['Expired']);
    expect((await page(headers, { userId: customer.id, consentStatus: 'Approved' })).data).toEqual(
      [],
    );
    expect(ids(await page(headers, { userId: customer.id, consentStatus: 'Expired' }))).toEqual([
      row!.id,
    ]);
    expect(await counters()).toMatchObject({
      totalConsents: 1,
      activeConsents: 0,
      expiredConsents: 1,
    });
    const [stored] = await t.deps.db.select().from(consents).where(eq(consents.id, row!.id));
    expect(stored!.status).toBe('Approved');
    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(events).toEqual([]);
  });
});

describe('GET /api/dashboard/counters', () => {
  it("answers only the caller's own counters", async () => {
    const owner = await createCustomer(t);
    const other = await createCustomer(t);
    await insertConsents(owner.id, 4);
    const url = (userId: string) => `/api/dashboard/counters?userId=${userId}`;
    const asOther = await t.app.inject({
      method: 'GET',
      url: url(owner.id),
      headers: await authHeaders(t, other.id),
    });
    expect(asOther.statusCode).toBe(403);
    expect(asOther.json().message).toBe('You can only view your own counters.');
    expect((await t.app.inject({ method: 'GET', url: url(owner.id) })).statusCode).toBe(401);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard/counters',
      headers: await authHeaders(t, owner.id),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('userId');

    const own = await t.app.inject({
      method: 'GET',
      url: url(other.id),
      headers: await authHeaders(t, other.id),
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ totalConsents: 0, totalOrders: 0 });
  });
});

/** What the counters route says, beside what counting every row says. */
async function countersAgainstCounting(customerId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/dashboard/counters?userId=${customerId}`,
    headers: await authHeaders(t, customerId),
  });
  const answered = DashboardCountersResponseSchema.parse(res.json()).data;
  const derived = await referenceIds(customerId);
  const byStatus = Object.fromEntries(
    await Promise.all(
      STATUSES.map(async (s) => [s, (await referenceIds(customerId, s)).length] as const),
    ),
  );
  const orderRows = rowsOf<{ status: string; n: number }>(
    await t.deps.db.execute(
      sql`SELECT status, count(*)::int AS n FROM orders WHERE customer_id = ${customerId}::uuid GROUP BY status`,
    ),
  );
  const ordersWith = (s: string) => orderRows.find((r) => r.status === s)?.n ?? 0;
  const [plansRow] = rowsOf<{ n: number }>(
    await t.deps.db.execute(sql`SELECT count(*)::int AS n FROM plans WHERE retired_at IS NULL`),
  );
  return {
    answered,
    counted: {
      totalConsents: derived.length,
      activeConsents: byStatus.Approved,
      pendingConsents: byStatus.Pending,
      expiredConsents: byStatus.Expired,
      rejectedConsents: byStatus.Rejected,
      totalPlans: plansRow!.n,
      totalOrders: orderRows.reduce((a, r) => a + r.n, 0),
      completedOrders: ordersWith('Completed'),
      pendingOrders: ordersWith('Pending'),
      failedOrders: ordersWith('Failed'),
    },
  };
}

const ORDER_STATUSES = ['Pending', 'Completed', 'Failed', 'Refunded'];

const writes = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), n: fc.integer({ min: 1, max: 6 }) }),
    fc.record({
      kind: fc.constant('status' as const),
      pick: fc.nat(),
      status: fc.constantFrom(...STATUSES),
    }),
    fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('clock' as const), days: fc.integer({ min: 1, max: 400 }) }),
    fc.record({ kind: fc.constant('sweep' as const) }),
    fc.record({ kind: fc.constant('order' as const), status: fc.constantFrom(...ORDER_STATUSES) }),
    fc.record({
      kind: fc.constant('orderStatus' as const),
      status: fc.constantFrom(...ORDER_STATUSES),
    }),
    fc.record({ kind: fc.constant('orderDelete' as const) }),
  ),
  { maxLength: 12 },
);

describe('the stored counters', () => {
  it('equal counting every row after any sequence of consent and order writes', async () => {
    const [plan] = await t.deps.db
      .insert(plans)
      .values({
        planName: 'Counted',
        planType: 'Single',
        noOfCompany: 1,
        durationDays: 30,
        amountPaise: 100,
      })
      .returning();
    const { storeDueExpiries } = await import('./expiry');
    await fc.assert(
      fc.asyncProperty(writes, async (sequence) => {
        const customer = await createCustomer(t, { password: 'x' });
        const { db } = t.deps;
        const someConsent = async (pick: number) => {
          const all = await referenceIds(customer.id);
          return all.length ? all[pick % all.length]! : null;
        };
        for (const write of sequence) {
          if (write.kind === 'insert') await insertConsents(customer.id, write.n);
          if (write.kind === 'status' || write.kind === 'delete') {
            const id = await someConsent(write.pick);
            if (!id) continue;
            if (write.kind === 'delete') await db.delete(consents).where(eq(consents.id, id));
            else await db.update(consents).set({ status: write.status }).where(eq(consents.id, id));
          }
          if (write.kind === 'clock') t.clock.advance(write.days * DAY_MS);
          if (write.kind === 'sweep') await storeDueExpiries(t.deps, customer.id);
          if (write.kind === 'order') {
            await db.insert(orders).values({
              customerId: customer.id,
              planId: plan!.id,
              basePaise: 100,
              gstPaise: 18,
              handlingPaise: 5,
              totalPaise: 123,
              status: write.status,
            });
          }
          if (write.kind === 'orderStatus') {
            await db
              .update(orders)
              .set({ status: write.status })
              .where(eq(orders.customerId, customer.id));
          }
          if (write.kind === 'orderDelete') {
            await db.execute(
              sql`DELETE FROM orders WHERE id = (SELECT id FROM orders WHERE customer_id = ${customer.id}::uuid LIMIT 1)`,
            );
          }
        }
        const { answered, counted } = await countersAgainstCounting(customer.id);
        expect(answered).toEqual(counted);
      }),
      { numRuns: 15 },
    );
  });
});

describe('GET /api/user-consents/user/:userId', () => {
  it('reads the list in keyset batches and streams every consent, newest first', async () => {
    const customer = await createCustomer(t);
    await insertConsents(customer.id, 1234);
    const reference = await referenceIds(customer.id);
    const { sessionId } = await startSession(t.deps.db, t.clock, customer.id, false);

    const batches: string[][] = [];
    for await (const batch of allConsentBatches(
      t.deps,
      { customerId: customer.id, sessionId },
      100,
    )) {
      batches.push(batch.map((c) => c._id));
    }
    expect(batches.map((b) => b.length)).toEqual([...Array(12).fill(100), 34]);
    expect(batches.flat()).toEqual(reference);

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/user/${customer.id}`,
      headers: await authHeaders(t, customer.id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json() as { success: boolean; data: { _id: string; consentStatus: string }[] };
    expect(body.success).toBe(true);
    expect(body.data.map((c) => c._id)).toEqual(reference);
    // what was due is stored on this read, and shown as Expired either way
    expect(body.data.filter((c) => c.consentStatus === 'Expired').length).toBe(
      (await referenceIds(customer.id, 'Expired')).length,
    );
  });

  it('stops with an error at the batch after a logout, never ending the list early', async () => {
    const customer = await createCustomer(t);
    await insertConsents(customer.id, 250);
    const { sessionId } = await startSession(t.deps.db, t.clock, customer.id, false);
    const read: number[] = [];
    const reading = (async () => {
      for await (const batch of allConsentBatches(
        t.deps,
        { customerId: customer.id, sessionId },
        100,
      )) {
        read.push(batch.length);
        if (read.length === 1) await revokeSession(t.deps.db, t.clock, sessionId, 'logout');
      }
    })();
    await expect(reading).rejects.toMatchObject({
      message: 'Session expired. Please log in again.',
    });
    expect(read).toEqual([100]);
  });
});
