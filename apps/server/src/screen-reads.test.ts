// Decision 076: every screen's GET reads the session and its data in one statement.
import { screenReads } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app';
import { buyer } from './test/payments';

let t: TestApp;
/** The app's calls into its database since counting began; null while not counting. */
let calls: number | null = null;

beforeAll(async () => {
  t = await createTestApp();
  // a checkout from the pool on PostgreSQL (one per statement outside a transaction, a round
  // trip at least), a turn on PGlite's one connection: the app's, and nothing else runs here
  const client = (t.deps.db as unknown as { $client: Record<string, unknown> }).$client;
  const entry = '_runExclusiveTransaction' in client ? '_runExclusiveTransaction' : 'connect';
  const original = client[entry] as (...args: unknown[]) => unknown;
  client[entry] = (...args: unknown[]) => {
    if (calls !== null) calls += 1;
    return original.apply(client, args);
  };
});
afterAll(() => t.close());

describe('the screens’ reads', () => {
  it('each make one call into the database, the session checked in it', async () => {
    // a customer with an order, its invoice, the plan it bought and their events to show, paid
    // without starting the app's workers: their polling would be counted with the reads
    const b = await buyer(t);
    const { checkoutPath } = await b.pay(await b.order());
    await b.checkout(checkoutPath, 'pay');
    const { headers } = b;
    const reads = Object.entries(screenReads(b.customer.id));
    const callsOf: Record<string, number> = {};
    for (const [screen, url] of reads) {
      calls = 0;
      const res = await t.app.inject({ method: 'GET', url, headers });
      callsOf[screen] = calls;
      calls = null;
      expect(res.statusCode, screen).toBe(200);
    }
    expect(callsOf).toEqual(Object.fromEntries(reads.map(([screen]) => [screen, 1])));
  });
});
