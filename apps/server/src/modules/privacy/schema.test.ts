import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { openTestDatabase } from '../../test/database';
import {
  declaredOn,
  declaredPrimaryKey,
  migratedOn,
  migratedPrimaryKey,
} from '../../test/schema-indexes';
import { accountClosures, dataExports, privacyCodes } from './schema';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('the privacy tables of the migrated database', () => {
  // the migrations are generated from these declarations: one the database lacks means a
  // migration drizzle-kit has not written yet
  it.each([
    ['data_exports', dataExports],
    ['privacy_codes', privacyCodes],
    ['account_closures', accountClosures],
  ])('have exactly the keys and indexes the schema declares for %s', async (name, table) => {
    expect(await migratedOn(database, name)).toEqual(declaredOn(table));
    expect(await migratedPrimaryKey(database, name)).toEqual(declaredPrimaryKey(table));
  });

  it('hold one request preparing per customer, the latest found by an index, and one code per step', () => {
    expect(declaredOn(dataExports)).toEqual([
      {
        table: 'data_exports',
        name: 'data_exports_customer_idx',
        kind: 'index',
        columns: ['customer_id', 'requested_at'],
      },
      {
        table: 'data_exports',
        name: 'data_exports_one_preparing_idx',
        kind: 'unique index',
        columns: ['customer_id'],
        where: "status = 'preparing'",
      },
    ]);
    expect(declaredPrimaryKey(privacyCodes)).toEqual(['customer_id', 'purpose']);
    expect(declaredPrimaryKey(accountClosures)).toEqual(['customer_id']);
  });
});
