import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { openTestDatabase } from '../../test/database';
import { declaredOn, migratedOn } from '../../test/schema-indexes';
import { creditNotes, documentCounters, invoices } from './schema';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('the invoice tables of the migrated database', () => {
  // the migrations are generated from these declarations: a declaration the database lacks, or an
  // index it has under another name, means a migration drizzle-kit has not written yet
  it.each([
    ['invoices', invoices],
    ['credit_notes', creditNotes],
    ['document_counters', documentCounters],
  ])(
    'have exactly the indexes and unique constraints the schema declares for %s',
    async (name, table) => {
      expect(await migratedOn(database, name)).toEqual(declaredOn(table));
    },
  );

  it('keep a customer’s invoices and credit notes in an index of the lists’ order, and one credit per figure per invoice', () => {
    expect(declaredOn(invoices)).toContainEqual({
      table: 'invoices',
      name: 'invoices_customer_issued_idx',
      kind: 'index',
      columns: ['customer_id', 'issued_at', 'id'],
    });
    expect(declaredOn(creditNotes)).toEqual(
      expect.arrayContaining([
        {
          table: 'credit_notes',
          name: 'credit_notes_customer_issued_idx',
          kind: 'index',
          columns: ['customer_id', 'issued_at', 'id'],
        },
        {
          table: 'credit_notes',
          name: 'credit_notes_invoice_through_unique',
          kind: 'unique constraint',
          columns: ['invoice_id', 'credited_through_paise'],
        },
      ]),
    );
  });
});
