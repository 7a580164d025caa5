import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../db/client';

/** The migrations up to the one before the invoices table, as a deployment had them. */
async function migrationsBeforeInvoices(dir: string) {
  await cp(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
    entries: { tag: string }[];
  };
  const first = journal.entries.findIndex((e) => e.tag === '0004_invoices_and_credit_notes');
  journal.entries = journal.entries.slice(0, first);
  await writeFile(journalFile, JSON.stringify(journal));
}

describe('the migration to the invoices table', () => {
  it('carries every receipt over with its number, date, file and amounts, and the count on', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    const client = await PGlite.create();
    try {
      await migrationsBeforeInvoices(dir);
      const db = drizzle({ client });
      await migrate(db, { migrationsFolder: dir });
      await client.exec(`
        insert into customers (id, email, mobile, gst_no, tally_serial_no, password_hash, company_name) values
          ('00000000-0000-4000-8000-000000000001', 'a@example.in', '9876543210', '29AAGCL1234M1Z5', '1', 'x', 'Same State'),
          ('00000000-0000-4000-8000-000000000002', 'b@example.in', '9876543210', '27AAPFU0939F1ZV', '1', 'x', 'Other State');
        insert into plans (id, plan_name, plan_type, duration_days, no_of_company, amount_paise) values
          ('00000000-0000-4000-8000-0000000000a1', 'Basic', 'Single', 365, 1, 100000);
        insert into orders (id, customer_id, plan_id, base_paise, gst_paise, handling_paise, total_paise, status) values
          ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', 100001, 18001, 5000, 123002, 'Completed'),
          ('00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a1', 100000, 18000, 5000, 123000, 'Refunded');
        insert into receipts (order_id, invoice_number, file_key, issued_at) values
          ('00000000-0000-4000-8000-0000000000b1', 'INV/2026-27/000001', 'receipts/b1.pdf', '2026-06-01T00:00:00Z'),
          ('00000000-0000-4000-8000-0000000000b2', 'INV/2026-27/000002', 'receipts/b2.pdf', '2026-06-02T00:00:00Z');
        insert into invoice_counters values ('2026-27', 2), ('2025-26', 7);
      `);
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });

      const carried = await client.query(
        `select invoice_number, customer_id, order_id, issued_at, customer_gstin, place_of_supply,
                taxable_paise, cgst_paise, sgst_paise, igst_paise, untaxed_paise, total_paise,
                credited_paise, status, file_key
           from invoices order by invoice_number`,
      );
      expect(carried.rows).toEqual([
        {
          invoice_number: 'INV/2026-27/000001',
          customer_id: '00000000-0000-4000-8000-000000000001',
          order_id: '00000000-0000-4000-8000-0000000000b1',
          issued_at: new Date('2026-06-01T00:00:00Z'),
          customer_gstin: '29AAGCL1234M1Z5',
          place_of_supply: '29',
          taxable_paise: 100001,
          cgst_paise: 9001,
          sgst_paise: 9000,
          igst_paise: 0,
          untaxed_paise: 5000,
          total_paise: 123002,
          credited_paise: 0,
          status: 'Issued',
          file_key: 'receipts/b1.pdf',
        },
        {
          invoice_number: 'INV/2026-27/000002',
          customer_id: '00000000-0000-4000-8000-000000000002',
          order_id: '00000000-0000-4000-8000-0000000000b2',
          issued_at: new Date('2026-06-02T00:00:00Z'),
          customer_gstin: '27AAPFU0939F1ZV',
          place_of_supply: '27',
          taxable_paise: 100000,
          cgst_paise: 0,
          sgst_paise: 0,
          igst_paise: 18000,
          untaxed_paise: 5000,
          total_paise: 123000,
          credited_paise: 0,
          status: 'Issued',
          file_key: 'receipts/b2.pdf',
        },
      ]);
      const counters = await client.query(`select * from document_counters order by series`);
      expect(counters.rows).toEqual([
        { series: 'INV/25-26', last_number: 7 },
        { series: 'INV/26-27', last_number: 2 },
      ]);
      const gone = await client.query<{ r: string | null; c: string | null }>(
        `select to_regclass('receipts') as r, to_regclass('invoice_counters') as c`,
      );
      expect(gone.rows).toEqual([{ r: null, c: null }]);
    } finally {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
