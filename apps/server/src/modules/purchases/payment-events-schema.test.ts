import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { openTestDatabase } from '../../test/database';
import {
  declaredOn,
  declaredPrimaryKey,
  migratedOn,
  migratedPrimaryKey,
} from '../../test/schema-indexes';
import { paymentEvents } from './schema';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('the payment events of the migrated database', () => {
  it('are keyed by the gateway’s event id, and found by order', async () => {
    expect(declaredPrimaryKey(paymentEvents)).toEqual(['event_id']);
    expect(await migratedPrimaryKey(database, 'payment_events')).toEqual(['event_id']);
    expect(declaredOn(paymentEvents)).toEqual([
      {
        table: 'payment_events',
        name: 'payment_events_order_idx',
        kind: 'index',
        columns: ['order_id'],
      },
    ]);
    expect(await migratedOn(database, 'payment_events')).toEqual(declaredOn(paymentEvents));
  });
});
