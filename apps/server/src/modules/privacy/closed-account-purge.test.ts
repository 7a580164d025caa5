import { Writable } from 'node:stream';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { privacyPaths } from '@portal/contract';
import type { FileStore } from '../../adapters/file-store';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer, insertCustomers } from '../../test/customers';
import { drainQueue } from '../../test/queue';
import { consents } from '../consents/schema';
import { creditNotes, invoices } from '../invoices/schema';
import { paidOrder, reportRefund } from '../../test/invoices';
import { orders } from '../purchases/schema';
import { paymentEvents } from '../purchases/schema';
import { customers } from '../users/schema';
import { taxRecordsDoneBefore, taxRecordsKeptUntil } from './close-account';
import {
  CLOSED_ACCOUNT_BATCH,
  purgeClosedAccounts,
  runClosedAccountPurge,
} from './closed-account-purge';
import { countCustomerRows, findCustomerTables, KEPT_ON_CLOSING } from './customer-tables';
import { dataExportFileKey, runDataExportJob, type DataExportJob } from './data-export';
import { accountClosures, dataExports } from './schema';
import { closeAccountOf, consentsOfEveryStatus, post } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Each test starts on the same day, in the financial year 2026-27. */
const START = new Date('2026-06-01T10:00:00+05:30');
beforeEach(() => t.clock.set(START));

const quiet = { warn: () => undefined };
const purge = () => purgeClosedAccounts(t.deps, quiet);

const closureOf = async (customerId: string) =>
  (
    await t.deps.db.select().from(accountClosures).where(eq(accountClosures.customerId, customerId))
  )[0];

/** A customer who paid for a plan, was refunded part of it, and closed the account. */
async function closedWithTaxRecords() {
  const { b, invoice, paymentId } = await paidOrder(t);
  const refunded = await reportRefund(t, paymentId, {
    id: `rfnd_${invoice.id.slice(0, 8)}`,
    amountPaise: 500_00,
    refundedSoFarPaise: 500_00,
  });
  expect(refunded.statusCode).toBe(200);
  await t.drawDocuments();
  const [note] = await t.deps.db
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoice.id));
  expect((await closeAccountOf(t, b.customer)).statusCode).toBe(200);
  return { customer: b.customer, invoice, note: note!, closure: (await closureOf(b.customer.id))! };
}

/** How many rows of the customer each table holds that the purge leaves none of. */
async function leftOf(customer: { id: string; email: string }) {
  const tables = await findCustomerTables(t.deps.db);
  const left: Record<string, number> = {};
  for (const table of tables.keys()) {
    if (KEPT_ON_CLOSING[table]?.outlivesAccount) continue;
    const n = await countCustomerRows(t.deps.db, tables, table, customer);
    if (n) left[table] = n;
  }
  return left;
}

describe('how long tax records are kept', () => {
  it("to the end of 72 months from the due date of the financial year's annual return", () => {
    // 2026-27 ends on 31/03/2027, its return is due on 31/12/2027
    expect(taxRecordsKeptUntil(new Date('2026-04-01T00:00:00+05:30'))).toEqual(
      new Date('2034-01-01T00:00:00+05:30'),
    );
    expect(taxRecordsKeptUntil(new Date('2027-03-31T23:59:59.999+05:30'))).toEqual(
      new Date('2034-01-01T00:00:00+05:30'),
    );
    expect(taxRecordsKeptUntil(new Date('2027-04-01T00:00:00+05:30'))).toEqual(
      new Date('2035-01-01T00:00:00+05:30'),
    );
    expect(taxRecordsDoneBefore(new Date('2034-01-01T00:00:00+05:30'))).toEqual(
      new Date('2027-04-01T00:00:00+05:30'),
    );
    expect(taxRecordsDoneBefore(new Date('2033-12-31T23:59:59.999+05:30'))).toEqual(
      new Date('2026-04-01T00:00:00+05:30'),
    );
  });

  it('ends at the latest when the purge counts a record done', () => {
    const instant = fc.date({
      min: new Date('2020-01-01T00:00:00Z'),
      max: new Date('2045-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, instant, (dated, now) => {
        expect(taxRecordsKeptUntil(dated) <= now).toBe(dated < taxRecordsDoneBefore(now));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the closed-account purge', () => {
  it("deletes a closed account's tax records and their PDFs once their time is over, then what is left of it", async () => {
    const open = await paidOrder(t);
    const { customer, invoice, note, closure } = await closedWithTaxRecords();
    expect(closure.keepTaxRecordsUntil).toEqual(taxRecordsKeptUntil(closure.closedAt));
    const ownOrders = () =>
      t.deps.db.select().from(orders).where(eq(orders.customerId, customer.id));

    expect(await purge()).toEqual({ files: 0, orders: 0, customers: 0 });
    t.clock.set(new Date(closure.keepTaxRecordsUntil.getTime() - 1));
    expect(await purge()).toEqual({ files: 0, orders: 0, customers: 0 });
    expect(await ownOrders()).toHaveLength(1);
    expect(await t.deps.files.read(invoice.fileKey)).not.toBeNull();
    expect(await t.deps.files.read(note.fileKey)).not.toBeNull();

    t.clock.set(closure.keepTaxRecordsUntil);
    expect(await purge()).toEqual({ files: 0, orders: 1, customers: 1 });
    expect(await ownOrders()).toEqual([]);
    expect(await t.deps.files.read(invoice.fileKey)).toBeNull();
    expect(await t.deps.files.read(note.fileKey)).toBeNull();
    expect(await t.deps.db.select().from(customers).where(eq(customers.id, customer.id))).toEqual(
      [],
    );
    expect(await closureOf(customer.id)).toBeUndefined();
    expect(await leftOf(customer)).toEqual({});

    // an open account's records stay, however old
    const [kept] = await t.deps.db.select().from(invoices).where(eq(invoices.id, open.invoice.id));
    expect(kept).toBeDefined();
    expect(await t.deps.files.read(open.invoice.fileKey)).not.toBeNull();
    // nothing more to do
    expect(await purge()).toEqual({ files: 0, orders: 0, customers: 0 });
  });

  it('keeps an order refunded after the closing for the time of the refund, and the account with it', async () => {
    const { b, paymentId } = await paidOrder(t);
    const customer = b.customer;
    expect((await closeAccountOf(t, customer)).statusCode).toBe(200);
    const closure = (await closureOf(customer.id))!;
    // refunded in the next financial year, 2027-28: its credit note is kept to the end of 2034
    t.clock.set(new Date('2027-04-10T10:00:00+05:30'));
    const refunded = await reportRefund(t, paymentId, {
      id: 'rfnd_after_closing',
      amountPaise: 500_00,
      refundedSoFarPaise: 500_00,
    });
    expect(refunded.statusCode).toBe(200);
    // its mail carries the credit note's PDF, and went long before the purge
    await t.outbox();

    t.clock.set(closure.keepTaxRecordsUntil);
    expect(await purge()).toMatchObject({ orders: 0, customers: 0 });
    expect(await closureOf(customer.id)).toBeDefined();
    t.clock.set(new Date('2035-01-01T00:00:00+05:30'));
    expect(await purge()).toMatchObject({ orders: 1, customers: 1 });
    expect(await leftOf(customer)).toEqual({});
  });

  it('deletes an account that had no order on its next pass, without waiting for the tax records time', async () => {
    const customer = await createCustomer(t);
    await consentsOfEveryStatus(t, customer.id);
    expect((await closeAccountOf(t, customer)).statusCode).toBe(200);
    expect(await purge()).toMatchObject({ orders: 0, customers: 1 });
    expect(await leftOf(customer)).toEqual({});
  });

  it('keeps a tombstone that a key still refers to, says so by id, and goes on with the others', async () => {
    const held = await closedWithTaxRecords();
    const other = await closedWithTaxRecords();
    await t.deps.db.execute(sql`CREATE TABLE later_holds (customer_id uuid REFERENCES customers)`);
    try {
      await t.deps.db.execute(sql`INSERT INTO later_holds VALUES (${held.customer.id})`);
      const warnings: unknown[][] = [];
      t.clock.set(held.closure.keepTaxRecordsUntil);
      const log = { warn: (...args: unknown[]) => warnings.push(args) };
      expect(await purgeClosedAccounts(t.deps, log)).toEqual({ files: 0, orders: 2, customers: 1 });
      expect(await closureOf(held.customer.id)).toBeDefined();
      expect(await closureOf(other.customer.id)).toBeUndefined();
      expect(warnings).toEqual([
        [expect.objectContaining({ customer: held.customer.id }), expect.any(String)],
      ]);
    } finally {
      await t.deps.db.execute(sql`DROP TABLE later_holds`);
    }
    expect(await purge()).toEqual({ files: 0, orders: 0, customers: 1 });
  });

  it('runs twice at once and again without harm: each record deleted once', async () => {
    const first = await closedWithTaxRecords();
    const second = await closedWithTaxRecords();
    t.clock.set(second.closure.keepTaxRecordsUntil);
    const runs = await Promise.all([purge(), purge()]);
    const total = (key: 'orders' | 'customers') =>
      runs.reduce((sum, run) => sum + (run?.[key] ?? 0), 0);
    expect(total('orders')).toBe(2);
    expect(total('customers')).toBe(2);
    expect(await purge()).toEqual({ files: 0, orders: 0, customers: 0 });
    for (const { customer } of [first, second]) expect(await leftOf(customer)).toEqual({});
  });
});

/** A job's log that keeps its info lines. */
function infoLog() {
  const infos: unknown[][] = [];
  const log = {
    info: (...args: unknown[]) => infos.push(args),
    warn: () => undefined,
  } as unknown as FastifyBaseLogger;
  return { log, infos };
}

/** A key that refuses the delete of these customers' rows while `during` runs. */
async function whileHeld<T>(customerIds: string[], during: () => Promise<T>): Promise<T> {
  await t.deps.db.execute(sql`CREATE TABLE later_holds (customer_id uuid REFERENCES customers)`);
  try {
    for (const id of customerIds) {
      await t.deps.db.execute(sql`INSERT INTO later_holds VALUES (${id})`);
    }
    return await during();
  } finally {
    await t.deps.db.execute(sql`DROP TABLE later_holds`);
  }
}

describe('the closed-account purge, past one batch', () => {
  it('reaches every due account, batch after batch, and a tombstone kept at the end of a batch is tried once', async () => {
    const company = await insertCustomers(t, 2 * CLOSED_ACCOUNT_BATCH + 1);
    const made = await t.deps.db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.companyName, company))
      .orderBy(asc(customers.id));
    expect(made).toHaveLength(2 * CLOSED_ACCOUNT_BATCH + 1);
    // not yet past their tax records' time: only having no order makes them due
    const keepUntil = new Date(START.getTime() + 86_400_000);
    await t.deps.db
      .insert(accountClosures)
      .values(
        made.map(({ id }) => ({ customerId: id, closedAt: START, keepTaxRecordsUntil: keepUntil })),
      );
    // the last of the first batch, by customer id
    const held = made[CLOSED_ACCOUNT_BATCH - 1]!.id;
    const warnings: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) };

    const purged = await whileHeld([held], () => purgeClosedAccounts(t.deps, log));
    expect(purged).toEqual({ files: 0, orders: 0, customers: 2 * CLOSED_ACCOUNT_BATCH });
    expect(warnings).toEqual([
      [expect.objectContaining({ customer: held }), 'a closed account is still referred to; kept'],
    ]);
    const left = await t.deps.db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.companyName, company));
    expect(left).toEqual([{ id: held }]);
    expect(await purge()).toEqual({ files: 0, orders: 0, customers: 1 });
  });
});

describe('an error other than a key that refers to the account', () => {
  it('stops the pass, and nothing of it is deleted', async () => {
    const { customer } = await closedWithTaxRecords();
    const closure = (await closureOf(customer.id))!;
    t.clock.set(closure.keepTaxRecordsUntil);
    await t.deps.db.execute(sql`
      CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'deletes are paused' USING ERRCODE = '55000'; END $$`);
    await t.deps.db.execute(sql`
      CREATE TRIGGER refuse_customer_delete BEFORE DELETE ON customers
        FOR EACH ROW EXECUTE FUNCTION refuse_delete()`);
    try {
      await expect(purge()).rejects.toThrow();
      expect(await closureOf(customer.id)).toBeDefined();
      expect(
        await t.deps.db.select().from(orders).where(eq(orders.customerId, customer.id)),
      ).toHaveLength(1);
    } finally {
      await t.deps.db.execute(sql`DROP TRIGGER refuse_customer_delete ON customers`);
      await t.deps.db.execute(sql`DROP FUNCTION refuse_delete`);
    }
    expect(await purge()).toEqual({ files: 0, orders: 1, customers: 1 });
  });
});

describe('a PDF the store fails to delete when the tax records are purged', () => {
  it('keeps its order whole, and the account, until a later pass deletes them', async () => {
    const { customer, invoice, note, closure } = await closedWithTaxRecords();
    t.clock.set(closure.keepTaxRecordsUntil);
    const failing = new Set([note.fileKey]);
    const files: FileStore = {
      ...t.deps.files,
      remove: (key) =>
        failing.has(key)
          ? Promise.reject(new Error('store unavailable'))
          : t.deps.files.remove(key),
    };
    const warnings: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) };
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.customerId, customer.id));

    expect(await purgeClosedAccounts({ ...t.deps, files }, log)).toEqual({
      files: 0,
      orders: 0,
      customers: 0,
    });
    expect(warnings).toEqual([
      [
        expect.objectContaining({ order: order!.id }),
        'a file of a closed account was not deleted; tried again later',
      ],
    ]);
    const kept = async () => ({
      orders: (await t.deps.db.select().from(orders).where(eq(orders.id, order!.id))).length,
      invoices: (await t.deps.db.select().from(invoices).where(eq(invoices.id, invoice.id))).length,
      creditNotes: (await t.deps.db.select().from(creditNotes).where(eq(creditNotes.id, note.id)))
        .length,
      paymentEvents:
        (await t.deps.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order!.id)))
          .length > 0,
    });
    expect(await kept()).toEqual({ orders: 1, invoices: 1, creditNotes: 1, paymentEvents: true });
    expect(await closureOf(customer.id)).toBeDefined();
    expect(await t.deps.files.read(note.fileKey)).not.toBeNull();

    failing.clear();
    expect(await purgeClosedAccounts({ ...t.deps, files }, log)).toEqual({
      files: 0,
      orders: 1,
      customers: 1,
    });
    expect(await kept()).toEqual({ orders: 0, invoices: 0, creditNotes: 0, paymentEvents: false });
    expect(await t.deps.files.read(note.fileKey)).toBeNull();
    expect(await leftOf(customer)).toEqual({});
  });
});

describe('the closed-account-purge job', () => {
  it('logs what a pass deleted, and nothing when it deleted nothing', async () => {
    const { log, infos } = infoLog();
    await runClosedAccountPurge(t.deps, log);
    expect(infos).toEqual([]);

    // orders alone: the account itself is held by a key
    const held = await closedWithTaxRecords();
    t.clock.set(held.closure.keepTaxRecordsUntil);
    await whileHeld([held.customer.id], () => runClosedAccountPurge(t.deps, log));
    // the account alone, with no order
    const customer = await createCustomer(t);
    expect((await closeAccountOf(t, customer)).statusCode).toBe(200);
    await runClosedAccountPurge(t.deps, log);
    expect(infos).toEqual([
      [{ files: 0, orders: 1, customers: 0 }, 'closed accounts purged'],
      [{ files: 0, orders: 0, customers: 2 }, 'closed accounts purged'],
    ]);
  });
});

/** A customer with a partner document on each of four consents, and a data download ready. */
async function withFiles(f: TestApp) {
  const customer = await createCustomer(f);
  const { consentIds } = await consentsOfEveryStatus(f, customer.id);
  expect(
    (await post(f, privacyPaths.dataExport, await authHeaders(f, customer.id))).statusCode,
  ).toBe(202);
  await drainQueue(f, 'data-export');
  const rowsOf = () =>
    f.deps.db.select().from(consents).where(inArray(consents.consentId, consentIds));
  const documents = (await rowsOf()).flatMap((row) => (row.documentKey ? [row.documentKey] : []));
  expect(documents).toHaveLength(4);
  const [ready] = await f.deps.db
    .select()
    .from(dataExports)
    .where(eq(dataExports.customerId, customer.id));
  return { customer, rowsOf, documents, exportKey: dataExportFileKey(customer.id, ready!.id) };
}

/** An app whose file store refuses to delete the keys `refuses` names. */
async function withRefusingStore(options: { logStream?: Writable; env?: Record<string, string> }) {
  const store = { refuses: (_key: string) => false };
  const files: FileStore = {
    ...t.deps.files,
    remove: (key) =>
      store.refuses(key)
        ? Promise.reject(new Error('store unavailable'))
        : t.deps.files.remove(key),
  };
  const f = await createTestApp({ deps: { files }, ...options });
  await f.deps.queue.work<DataExportJob>('data-export', (job) => runDataExportJob(f.deps, job));
  return { f, store };
}

describe('a file the store fails to delete when the account closes', () => {
  it('is logged without personal data, keeps its key, and goes with the next purge', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { f, store } = await withRefusingStore({ logStream, env: { LOG_LEVEL: 'warn' } });
    try {
      const { customer, rowsOf, documents } = await withFiles(f);
      const terms = (await rowsOf()).flatMap((row) => [row.netBankingUserId!, row.purpose!]);

      store.refuses = () => true;
      expect((await closeAccountOf(f, customer)).statusCode).toBe(200);
      for (const key of documents) expect(await f.deps.files.read(key)).not.toBeNull();
      expect((await rowsOf()).flatMap((row) => (row.documentKey ? [row.documentKey] : []))).toEqual(
        expect.arrayContaining(documents),
      );
      expect(
        await f.deps.db.select().from(dataExports).where(eq(dataExports.customerId, customer.id)),
      ).toEqual([expect.objectContaining({ status: 'expired' })]);

      const failures = lines.filter((line) => line.includes('was not deleted'));
      expect(failures).toHaveLength(documents.length + 1);
      for (const line of failures) {
        expect(line).toMatch(/"(consent|dataExport)":"[0-9a-f-]{36}"/);
        for (const personal of [customer.email, customer.companyName, customer.mobile, ...terms]) {
          expect(line).not.toContain(personal);
        }
      }

      // the files first, then (the account had no order) everything that was left of it
      store.refuses = () => false;
      expect(await purgeClosedAccounts(f.deps, f.app.log)).toEqual({
        files: 5,
        orders: 0,
        customers: 1,
      });
      for (const key of documents) expect(await f.deps.files.read(key)).toBeNull();
      expect(await rowsOf()).toEqual([]);
      expect(
        await f.deps.db.select().from(dataExports).where(eq(dataExports.customerId, customer.id)),
      ).toEqual([]);
    } finally {
      await f.close();
    }
  });

  it('keeps the account while any of its files is left, partner document or data download', async () => {
    const { f, store } = await withRefusingStore({});
    try {
      const documentsLeft = await withFiles(f);
      const downloadLeft = await withFiles(f);
      store.refuses = () => true;
      for (const { customer } of [documentsLeft, downloadLeft]) {
        expect((await closeAccountOf(f, customer)).statusCode).toBe(200);
      }
      // one keeps its partner documents, the other its data download
      store.refuses = (key) =>
        documentsLeft.documents.includes(key) || key === downloadLeft.exportKey;
      const { log, infos } = infoLog();
      await runClosedAccountPurge(f.deps, log);
      expect(infos).toEqual([[{ files: 5, orders: 0, customers: 0 }, 'closed accounts purged']]);
      for (const { customer } of [documentsLeft, downloadLeft]) {
        expect(
          await f.deps.db.select().from(customers).where(eq(customers.id, customer.id)),
        ).toHaveLength(1);
      }

      store.refuses = () => false;
      expect(await purgeClosedAccounts(f.deps, quiet)).toEqual({
        files: 5,
        orders: 0,
        customers: 2,
      });
    } finally {
      await f.close();
    }
  });
});
