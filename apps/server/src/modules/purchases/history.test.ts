import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, orderAmount, type Order } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { REFRESH_COOKIE } from '../auth/routes';
import { bearer, signIn } from '../../test/auth';
import { buyer } from '../../test/payments';
import { orders } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Buyer = Awaited<ReturnType<typeof buyer>>;
type HistoryPage = { success: true; orders: Order[]; nextCursor: string | null };

const historyOf = (b: Buyer, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/orders/history${query}`, headers: b.headers });

async function page(b: Buyer, query = ''): Promise<HistoryPage> {
  const res = await historyOf(b, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every page from the first to the one without a next cursor, `limit` orders a page. */
async function walk(b: Buyer, limit: number) {
  const pages: HistoryPage[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const next = await page(b, query);
    pages.push(next);
    cursor = next.nextCursor;
  } while (cursor && pages.length < 1000);
  return pages;
}

/**
 * Orders of the buyer's plan inserted as they are, at the given instants (ISO, to the
 * microsecond, as PostgreSQL keeps them); answers them newest first, ties broken by id.
 */
async function insertOrders(b: Buyer, instants: string[]) {
  const amounts = orderAmount(b.plan.amountPaise);
  const rows = instants.map((at) => ({ id: randomUUID(), at }));
  await t.deps.db.insert(orders).values(
    rows.map(({ id, at }) => ({
      id,
      customerId: b.customer.id,
      planId: b.plan.id,
      ...amounts,
      createdAt: sql`${at}::timestamptz`,
      updatedAt: sql`${at}::timestamptz`,
    })),
  );
  // ISO strings of one length order as instants; lowercase uuids order as PostgreSQL's bytes
  return rows
    .sort((x, y) => (x.at === y.at ? (x.id < y.id ? 1 : -1) : x.at < y.at ? 1 : -1))
    .map((row): string => row.id);
}

const at = (second: number, micros = 0) =>
  `2026-06-01T09:00:${String(second).padStart(2, '0')}.${String(micros).padStart(6, '0')}Z`;

describe('GET /api/orders/history', () => {
  it('pages through every order exactly once, newest first, when many share one instant', async () => {
    const b = await buyer(t);
    const instants = [
      ...Array.from({ length: 20 }, () => at(30)),
      // one microsecond apart: a cursor rounded to the millisecond would skip or repeat these
      ...Array.from({ length: 6 }, (_, i) => at(20, 123_450 + (i % 3))),
      ...Array.from({ length: 15 }, () => at(10)),
      ...Array.from({ length: 12 }, (_, i) => at(i)),
    ];
    const expected = await insertOrders(b, instants);

    for (const limit of [1, 7, 20, 53, 100]) {
      const pages = await walk(b, limit);
      const ids = pages.flatMap((p) => p.orders.map((o) => o._id));
      expect(ids, `limit ${limit}`).toEqual(expected);
      expect(pages).toHaveLength(Math.ceil(expected.length / limit));
      expect(pages.slice(0, -1).every((p) => p.orders.length === limit && p.nextCursor)).toBe(true);
      expect(pages.at(-1)!.nextCursor).toBeNull();
    }
  });

  it('answers the newest 10 and a next cursor when asked with no parameters', async () => {
    const b = await buyer(t);
    const expected = await insertOrders(
      b,
      Array.from({ length: 13 }, (_, i) => at(i)),
    );
    const first = await page(b);
    expect(first.success).toBe(true);
    expect(first.orders.map((o) => o._id)).toEqual(expected.slice(0, 10));
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await page(b, `?cursor=${first.nextCursor}`);
    expect(rest).toEqual({
      success: true,
      orders: expect.any(Array),
      nextCursor: null,
    });
    expect(rest.orders.map((o) => o._id)).toEqual(expected.slice(10));
  });

  it('gives no next cursor when the last page is exactly full, and an empty list to a new customer', async () => {
    const b = await buyer(t);
    expect(await page(b)).toEqual({ success: true, orders: [], nextCursor: null });
    const expected = await insertOrders(
      b,
      Array.from({ length: 10 }, (_, i) => at(i)),
    );
    const full = await page(b);
    expect(full.orders.map((o) => o._id)).toEqual(expected);
    expect(full.nextCursor).toBeNull();
  });

  it('takes a limit from 1 to 100 and refuses any other with a 400 that names it', async () => {
    const b = await buyer(t);
    const expected = await insertOrders(
      b,
      Array.from({ length: 101 }, (_, i) => at(i % 60, i)),
    );
    expect((await page(b, '?limit=1')).orders.map((o) => o._id)).toEqual(expected.slice(0, 1));
    const hundred = await page(b, '?limit=100');
    expect(hundred.orders.map((o) => o._id)).toEqual(expected.slice(0, 100));
    expect((await page(b, `?limit=100&cursor=${hundred.nextCursor}`)).orders).toHaveLength(1);

    for (const limit of ['0', '101', '-1', '1.5', 'abc', '', '1e9', '99999999999999999999']) {
      const res = await historyOf(b, `?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: 'limit: must be a whole number from 1 to 100',
      });
    }
  });

  it('refuses a cursor it did not give out with a 400 and a message, on either database', async () => {
    const b = await buyer(t);
    await insertOrders(b, [at(1), at(2), at(3)]);
    const good = (await page(b, '?limit=1')).nextCursor!;
    const encode = (text: string) => Buffer.from(text).toString('base64url');
    const id = randomUUID();
    const cursors = [
      'x',
      '!!!!',
      good.slice(0, -4),
      `${good}AAAA`,
      encode('nonsense'),
      encode(`${at(1)}|not-a-uuid`),
      encode(`${at(1)}|${id}|extra`),
      encode(`${at(1)} ${id}`),
      encode(`2026-06-01T09:00:01.000Z|${id}`),
      encode(`2026-02-30T09:00:01.000000Z|${id}`),
      encode(`2026-06-01T25:00:01.000000Z|${id}`),
      encode(`0000-01-01T00:00:00.000000Z|${id}`),
      encode(`9999-12-31T23:59:59.999999+05:30|${id}`),
      encode(`${at(1)}\u0000|${id}`),
      'a'.repeat(201),
      '',
    ];
    for (const cursor of cursors) {
      const res = await historyOf(b, `?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json(), cursor).toEqual({
        success: false,
        message: 'cursor: must be the nextCursor of an earlier page',
        error: 'validation',
      });
    }
    const control = await historyOf(b, `?cursor=${encodeURIComponent(`${good}\u0000`)}`);
    expect(control.statusCode).toBe(400);
    expect(control.json().message).toBe('cursor: must be plain text, without control characters');
    // the same position, written out as this list writes it, is taken
    expect((await historyOf(b, `?cursor=${encode(`${at(2)}|${id}`)}`)).statusCode).toBe(200);
  });

  it("shows only the caller's orders, whoever's cursor or ids the request carries", async () => {
    const a = await buyer(t);
    const b = await buyer(t);
    // the two customers' orders interleave in time
    const mine = await insertOrders(
      a,
      Array.from({ length: 6 }, (_, i) => at(i * 2)),
    );
    const theirs = await insertOrders(
      b,
      Array.from({ length: 6 }, (_, i) => at(i * 2 + 1)),
    );

    // b's cursor after b's third order (09:00:07): a is shown a's own orders older than that
    const theirCursor = (await page(b, '?limit=3')).nextCursor!;
    const seen = await page(a, `?cursor=${theirCursor}`);
    expect(seen.orders.map((o) => o._id)).toEqual(mine.slice(2));
    for (const query of [
      '',
      `?customerId=${b.customer.id}`,
      `?userId=${b.customer.id}&limit=100`,
      `?cursor=${theirCursor}&customerId=${b.customer.id}`,
    ]) {
      const ids = (await page(a, query)).orders.map((o) => o._id);
      expect(ids.length, query).toBeGreaterThan(0);
      expect(
        ids.filter((id) => theirs.includes(id)),
        query,
      ).toEqual([]);
    }
    expect((await historyOf(a, '?cursor=' + theirCursor)).body).not.toContain(b.customer.id);
  });

  it('shows an order whose payment is under way as Pending without a receipt, and paid once it is', async () => {
    const b = await buyer(t);
    const orderedAt = t.clock.now().toISOString();
    const older = await b.order();
    t.clock.advance(1000);
    const newer = [await b.order(), await b.order()];
    const { checkoutPath } = await b.pay(older);

    const first = await page(b, '?limit=2');
    expect(first.orders.map((o) => o._id).sort()).toEqual([...newer].sort());
    const under = await page(b, `?limit=2&cursor=${first.nextCursor}`);
    expect(under.orders).toEqual([
      expect.objectContaining({
        _id: older,
        paymentStatus: 'Pending',
        receiptUrl: null,
        invoiceNumber: null,
        servicePeriod: null,
      }),
    ]);
    expect(under.nextCursor).toBeNull();

    await b.checkout(checkoutPath, 'pay');
    // the page after the same cursor now shows it paid: settling moves no order in the list
    const paid = await page(b, `?limit=2&cursor=${first.nextCursor}`);
    expect(paid.orders).toHaveLength(1);
    expect(paid.orders[0]).toMatchObject({
      _id: older,
      planId: { _id: b.plan.id, planName: 'Professional' },
      amount: 6148.77,
      formattedAmount: '₹6,148.77',
      orderDate: orderedAt,
      paymentStatus: 'Completed',
      receiptUrl: expect.stringContaining(`/api/orders/${older}/receipt?`),
      invoiceNumber: expect.stringMatching(/^INV\/\d{2}-\d{2}\/\d{6}$/),
      servicePeriod: { startDate: expect.any(String), endDate: expect.any(String) },
    });
    await t.drawDocuments();
    const receipt = await t.app.inject({ method: 'GET', url: paid.orders[0]!.receiptUrl! });
    expect(receipt.statusCode).toBe(200);
    expect((await page(b, '?limit=2')).orders.map((o) => o.paymentStatus)).toEqual([
      'Pending',
      'Pending',
    ]);
  });

  it("writes each date to the millisecond, cut and not rounded, as the order's other answers do", async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    await b.checkout((await b.pay(orderId)).checkoutPath, 'pay');
    // PostgreSQL keeps microseconds; the answer shows the first three of them
    await t.deps.db.execute(
      sql`UPDATE orders SET created_at = '2026-06-01T09:00:05.123999Z' WHERE id = ${orderId}`,
    );
    await t.deps.db.execute(sql`UPDATE customer_plans
      SET starts_at = '2026-06-01T09:00:05.987654Z', ends_at = '2027-06-01T09:00:05.000999Z'
      WHERE order_id = ${orderId}`);
    const [shown] = (await page(b)).orders;
    expect(shown).toMatchObject({
      _id: orderId,
      orderDate: '2026-06-01T09:00:05.123Z',
      servicePeriod: { startDate: '2026-06-01T09:00:05.987Z', endDate: '2027-06-01T09:00:05.000Z' },
    });
    // the same text as a date the driver reads, which the order's other answers write
    const [row] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(shown!.orderDate).toBe(row!.createdAt.toISOString());
  });

  it('needs a signed-in customer, and shows nothing once the session has ended', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/orders/history' })).statusCode).toBe(
      401,
    );
    const b = await buyer(t);
    const { token, refreshToken } = await signIn(t, b.customer);
    const [newest] = await insertOrders(b, [at(1), at(2)]);
    const read = () =>
      t.app.inject({ method: 'GET', url: '/api/orders/history?limit=1', headers: bearer(token) });
    expect((await read()).json().orders[0]._id).toBe(newest);

    const logout = await t.app.inject({
      method: 'POST',
      url: authPaths.logout,
      headers: { cookie: `${REFRESH_COOKIE}=${refreshToken}` },
    });
    expect(logout.statusCode).toBe(200);
    const after = await read();
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      success: false,
      message: 'Session expired. Please log in again.',
    });
    expect(after.body).not.toContain(newest);
  });
});
