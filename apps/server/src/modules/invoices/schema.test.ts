import { sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { openTestDatabase } from '../../test/database';
import { creditNotes, documentCounters, invoices } from './schema';

interface Declared {
  table: string;
  name: string;
  kind: 'index' | 'unique index' | 'unique constraint';
  columns: string[];
}

const byName = (a: Declared, b: Declared) => a.name.localeCompare(b.name);

/**
 * The indexes and unique constraints a table declares, as drizzle-kit reads them to write the
 * migrations (its columns in the database's snake_case), the primary key aside.
 */
function declaredOn(table: PgTable): Declared[] {
  const config = getTableConfig(table);
  return [
    ...config.indexes.map(({ config: index }) => ({
      table: config.name,
      name: index.name!,
      kind: index.unique ? ('unique index' as const) : ('index' as const),
      columns: index.columns.map((column) => toSnakeCase((column as { name: string }).name)),
    })),
    ...config.uniqueConstraints.map((constraint) => ({
      table: config.name,
      name: constraint.getName()!,
      kind: 'unique constraint' as const,
      columns: constraint.columns.map((column) => toSnakeCase(column.name)),
    })),
    ...config.columns
      .filter((column) => column.isUnique)
      .map((column) => ({
        table: config.name,
        name: column.uniqueName!,
        kind: 'unique constraint' as const,
        columns: [toSnakeCase(column.name)],
      })),
  ].sort(byName);
}

/** The indexes of a table in the migrated database, and which of them back a unique constraint. */
async function migratedOn(database: DatabaseHandle, table: string): Promise<Declared[]> {
  const result = await database.db.execute(sql`
    SELECT i.relname AS "name",
      CASE
        WHEN EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.contype = 'u')
          THEN 'unique constraint'
        WHEN ix.indisunique THEN 'unique index'
        ELSE 'index'
      END AS "kind",
      (SELECT array_agg(a.attname::text ORDER BY k.i)
         FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(n, i)
         JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.n) AS "columns"
    FROM pg_index ix
    JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_class t ON t.oid = ix.indrelid
    WHERE t.relname = ${table} AND t.relnamespace = 'public'::regnamespace AND NOT ix.indisprimary`);
  return (result as unknown as { rows: Omit<Declared, 'table'>[] }).rows
    .map((row) => ({ table, ...row }))
    .sort(byName);
}

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
