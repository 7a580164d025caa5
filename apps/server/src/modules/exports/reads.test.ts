import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { activityBatches, EXPORT_BATCH_SIZE } from './reads';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A customer with `rows` activity events on 1 June 2026, a second apart. */
async function customerWithActivity(rows: number) {
  const c = await createCustomer(t);
  await t.deps.db.execute(
    `insert into activity_events (customer_id, type, title, description, status, created_at)
     select '${c.id}', 'login', 'Row ' || n, 'd', 'success',
            timestamptz '2026-06-01 00:00:00+00' + n * interval '1 second'
     from generate_series(1, ${rows}) as n`,
  );
  return c;
}

const june = (customerId: string) => ({
  customerId,
  from: new Date('2026-06-01T00:00:00Z'),
  to: new Date('2026-07-01T00:00:00Z'),
});

/** The size of each batch the generator hands out. */
async function batchSizes(customerId: string) {
  const sizes: number[] = [];
  for await (const batch of activityBatches(t.deps.db, june(customerId))) sizes.push(batch.length);
  return sizes;
}

describe('reading an export in batches', () => {
  it('hands out full batches and never an empty one, even when the rows end on a batch’s edge', async () => {
    const edge = await customerWithActivity(EXPORT_BATCH_SIZE * 2);
    const past = await customerWithActivity(EXPORT_BATCH_SIZE + 1);
    const none = await createCustomer(t);
    expect(await batchSizes(edge.id)).toEqual([EXPORT_BATCH_SIZE, EXPORT_BATCH_SIZE]);
    expect(await batchSizes(past.id)).toEqual([EXPORT_BATCH_SIZE, 1]);
    expect(await batchSizes(none.id)).toEqual([]);
  });
});
