import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PRIVACY_NOTICE_VERSION,
  billingPaths,
  preferencesPaths,
  privacyPaths,
  twoFactorPaths,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { drainQueue } from '../../test/queue';
import { markNotificationsSeen } from '../activity/service';
import { recordAudit } from '../audit/record';
import { requestResetLink } from '../../test/auth';
import { paidOrder } from '../../test/invoices';
import { renewedOnce } from '../../test/auto-renewal';
import { remindersSent } from '../reminders/schema';
import * as sandboxBank from '../../sandbox/bank/schema';
import * as sandboxGateway from '../../sandbox/gateway/schema';
import { CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, passwordStep, signInFrom } from '../../test/security';
import { registrationOptionsFor, withPasskey } from '../../test/passkeys';
import { withAppOn } from '../../test/two-factor';
import {
  countCustomerRows,
  customerRowsWhere,
  findCustomerTables,
  KEPT_ON_CLOSING,
  type Reference,
} from './customer-tables';
import { runDataExportJob, type DataExportJob } from './data-export';
import { closeAccountOf, consentsOfEveryStatus, post } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.deps.queue.work<DataExportJob>('data-export', (job) => runDataExportJob(t.deps, job));
});
afterAll(() => t.close());

const DECISIONS = fileURLToPath(new URL('../../../../../docs/decisions/', import.meta.url));

/**
 * Decision 062's table of what is kept of a closed account: the tables its first column names
 * (several to a row, each in backticks), and the record's text.
 */
async function keptByDecision062() {
  const file = (await readdir(DECISIONS)).find((name) => name.startsWith('062-'));
  if (!file) throw new Error('no decision 062 in docs/decisions');
  const text = await readFile(path.join(DECISIONS, file), 'utf8');
  const lines = text.split('\n').map((line) => line.trim());
  const header = lines.findIndex((line) => /^\|\s*table\s*\|/.test(line));
  if (header < 0) throw new Error(`${file} has no table whose first column is "table"`);
  expect(lines[header + 1], 'the table’s separator row').toMatch(/^\|[\s|:-]+\|$/);
  const listed: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const names = [...line.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    expect(names, `a row of ${file} names no table: ${line}`).not.toEqual([]);
    listed.push(...names);
  }
  return { listed, text };
}

/** The tables of the built-in sandbox bank and gateway, the stand-ins of other data fiduciaries. */
const SANDBOX_TABLES = new Set<string>(
  Object.values<unknown>({ ...sandboxBank, ...sandboxGateway })
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableName(table)),
);

/** A customer with rows in every table the portal has for customers, through its own paths. */
async function customerInEveryTable() {
  // the sandbox gateway takes a mandate's times still to come by the wall clock
  t.clock.set(new Date());
  const { b, order } = await paidOrder(t);
  const customer = b.customer;
  await renewedOnce(t, customer.id, order.planId);
  await consentsOfEveryStatus(t, customer.id);
  const headers = await authHeaders(t, customer.id);
  const saved = await t.app.inject({
    method: 'PUT',
    url: billingPaths.details,
    headers,
    payload: {
      gstin: customer.gstNo,
      addressLine1: '14 Marine Drive',
      city: 'Mumbai',
      stateCode: '27',
      pin: '400020',
    },
  });
  expect(saved.statusCode).toBe(200);
  const chosen = await t.app.inject({
    method: 'PUT',
    url: preferencesPaths.notifications,
    headers,
    payload: { reminders: false, consentChanges: true },
  });
  expect(chosen.statusCode).toBe(200);
  await markNotificationsSeen(t.deps.db, t.clock, customer.id, t.clock.now());
  await t.deps.db.insert(remindersSent).values({
    customerId: customer.id,
    subject: 'plan:2027-06-01',
    thresholdDays: 30,
    sentAt: t.clock.now(),
  });
  // two browsers sign in (the second with a link that ends it), then a wrong password counts
  await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: '198.51.100.7' });
  await signInFrom(t, customer, { userAgent: SAFARI_ON_IPHONE, ip: '203.0.113.9' });
  const from = { userAgent: CHROME_ON_WINDOWS, ip: '198.51.100.8' };
  expect((await passwordStep(t, customer, from, { password: 'Wrong@2026' })).statusCode).toBe(401);
  expect((await requestResetLink(t, customer.email)).statusCode).toBe(200);
  const newEmail = { newEmail: `new-${customer.email}`, password: customer.password };
  expect((await post(t, privacyPaths.emailChangeCode, headers, newEmail)).statusCode).toBe(200);
  const nominated = await t.app.inject({
    method: 'PUT',
    url: privacyPaths.nominee,
    headers,
    payload: { name: 'Asha Rao', email: 'asha@example.test', relation: 'Spouse' },
  });
  expect(nominated.statusCode).toBe(200);
  const grieved = await t.app.inject({
    method: 'POST',
    url: privacyPaths.grievances,
    headers,
    payload: { topic: 'Something else', message: 'A grievance to be erased on closing.' },
  });
  expect(grieved.statusCode).toBe(201);
  const corrected = await t.app.inject({
    method: 'POST',
    url: privacyPaths.corrections,
    headers,
    payload: { field: 'companyName', value: 'A company to be erased on closing' },
  });
  expect(corrected.statusCode).toBe(201);
  const read = await t.app.inject({
    method: 'POST',
    url: privacyPaths.notice,
    headers,
    payload: { version: PRIVACY_NOTICE_VERSION },
  });
  expect(read.statusCode).toBe(200);
  // the invitation to add the app, turned down before the app was set up
  expect((await post(t, twoFactorPaths.dismissInvitation, headers)).statusCode).toBe(200);
  await withAppOn(t, customer);
  await withPasskey(t, customer);
  // a registration begun and not finished leaves its challenge
  await registrationOptionsFor(t, headers, customer.password);
  expect((await post(t, privacyPaths.dataExport, headers)).statusCode).toBe(202);
  await drainQueue(t, 'data-export');
  return customer;
}

describe('the tables that refer to a customer', () => {
  it('are read from the catalog: keys to customers and through other tables, columns named after a table, e-mail addresses', async () => {
    const tables = await findCustomerTables(t.deps.db);
    const row = (columns: string[], parent: string, parentColumns = ['id']): Reference => ({
      kind: 'row',
      columns,
      parent,
      parentColumns,
    });
    expect(tables.get('consents')).toContainEqual(row(['customer_id'], 'customers'));
    expect(tables.get('consent_accesses')).toEqual([row(['consent_ref'], 'consents')]);
    expect(tables.get('payment_events')).toEqual([row(['order_id'], 'orders')]);
    expect(tables.get('sandbox_bank_consents')).toEqual([
      row(['consent_id'], 'consents', ['consent_id']),
    ]);
    expect(tables.get('account_throttles')).toEqual([{ kind: 'email', column: 'email' }]);
    // what no customer owns stays out
    for (const shared of ['plans', 'partners', 'plugins', 'document_counters', 'mail_deliveries']) {
      expect(tables.has(shared), shared).toBe(false);
    }

    // a table added later is found however it refers to a customer
    await t.deps.db.execute(
      sql`CREATE TABLE later_notes (id uuid PRIMARY KEY, session_id uuid REFERENCES sessions (id))`,
    );
    await t.deps.db.execute(sql`CREATE TABLE later_contacts (contact_email text PRIMARY KEY)`);
    try {
      const later = await findCustomerTables(t.deps.db);
      expect(later.get('later_notes')).toEqual([row(['session_id'], 'sessions')]);
      expect(later.get('later_contacts')).toEqual([{ kind: 'email', column: 'contact_email' }]);
    } finally {
      await t.deps.db.execute(sql`DROP TABLE later_notes`);
      await t.deps.db.execute(sql`DROP TABLE later_contacts`);
    }
  });

  it('are kept exactly as decision 062’s table lists them, the sandbox’s tables as its text says', async () => {
    const tables = await findCustomerTables(t.deps.db);
    const { listed, text } = await keptByDecision062();
    const kept = Object.keys(KEPT_ON_CLOSING);
    expect(listed, 'a table listed twice in decision 062').toEqual([...new Set(listed)]);
    // the portal's own tables: kept in the code if and only if the record's table lists them
    const portalKept = kept.filter((table) => !SANDBOX_TABLES.has(table));
    expect(
      portalKept.filter((table) => !listed.includes(table)),
      'kept on closing, but not in the table of decision 062',
    ).toEqual([]);
    expect(
      listed.filter((table) => !portalKept.includes(table)),
      'in the table of decision 062, but not kept on closing',
    ).toEqual([]);
    // and each is a table the catalog finds referring to a customer
    expect(
      kept.filter((table) => !tables.has(table)),
      'kept on closing, but no table that refers to a customer',
    ).toEqual([]);

    // the sandbox's tables are named in the record's text only, as another data fiduciary's:
    // every one that refers to a customer is kept, under 062
    expect(text.replace(/\s+/g, ' ')).toContain(
      "The sandbox bank's and the sandbox gateway's tables are those of another data fiduciary",
    );
    expect(SANDBOX_TABLES.size).toBeGreaterThan(0);
    expect(
      kept
        .filter((table) => SANDBOX_TABLES.has(table))
        .map((table) => [table, KEPT_ON_CLOSING[table]!.decision])
        .sort(),
    ).toEqual(
      [...tables.keys()]
        .filter((table) => SANDBOX_TABLES.has(table))
        .map((table) => [table, '062'])
        .sort(),
    );
  });

  it('are each emptied of the customer on closing, or kept for a reason a decision record gives', async () => {
    const tables = await findCustomerTables(t.deps.db);
    const decisions = await readdir(DECISIONS);
    const customer = await customerInEveryTable();
    const count = (table: string) => countCustomerRows(t.deps.db, tables, table, customer);
    const before = new Map<string, number | null>();
    for (const table of tables.keys()) before.set(table, await count(table));

    expect((await closeAccountOf(t, customer)).statusCode).toBe(200);

    const unaccounted: string[] = [];
    for (const table of tables.keys()) {
      const kept = KEPT_ON_CLOSING[table];
      if (kept) {
        const record = decisions.find((file) => file.startsWith(`${kept.decision}-`));
        if (!record || kept.reason.length === 0) {
          unaccounted.push(
            `${table}: kept, but decision ${kept.decision} is not in docs/decisions`,
          );
        }
        continue;
      }
      const after = await count(table);
      if (!before.get(table) || after !== 0) {
        unaccounted.push(
          `${table}: ${before.get(table) ?? 'no'} rows of the customer before closing, ${after ?? 'unknown'} after`,
        );
      }
    }
    // a table here is neither kept with a decision (KEPT_ON_CLOSING) nor erased by closing, or
    // the customer above has no row in it to show that closing erases it
    expect(unaccounted).toEqual([]);
  });
});

describe('how a table refers to a customer, read from the catalog', () => {
  const row = (columns: string[], parent: string, parentColumns = ['id']): Reference => ({
    kind: 'row',
    columns,
    parent,
    parentColumns,
  });

  it('by a plain customer id, a column about the customer, or none; the tables in name order', async () => {
    const tables = await findCustomerTables(t.deps.db);
    expect([...tables.keys()]).toEqual([...tables.keys()].sort());
    // the audit log keeps a plain id, no key
    expect(tables.get('audit_events')).toEqual([{ kind: 'id', column: 'customer_id' }]);
    // a consent's own id is no reference to itself
    expect(tables.get('consents')).toEqual([row(['customer_id'], 'customers')]);

    await t.deps.db.execute(
      sql`CREATE TABLE later_about (id uuid PRIMARY KEY, customer_name text)`,
    );
    await t.deps.db.execute(
      sql`CREATE TABLE later_child (id uuid PRIMARY KEY, later_about_id uuid REFERENCES later_about (id))`,
    );
    await t.deps.db.execute(sql`CREATE TABLE later_misc (former_customer_name text)`);
    await t.deps.db.execute(sql`
      CREATE TABLE later_code_uses (customer_id uuid, purpose text,
        FOREIGN KEY (customer_id, purpose) REFERENCES privacy_codes (customer_id, purpose))`);
    try {
      const later = await findCustomerTables(t.deps.db);
      expect(later.get('later_about')).toEqual([{ kind: 'about', column: 'customer_name' }]);
      expect(later.get('later_child')).toEqual([row(['later_about_id'], 'later_about')]);
      expect(later.has('later_misc')).toBe(false);
      expect(later.get('later_code_uses')).toEqual([
        row(['customer_id', 'purpose'], 'privacy_codes', ['customer_id', 'purpose']),
      ]);

      const customer = await createCustomer(t);
      const count = (table: string) => countCustomerRows(t.deps.db, later, table, customer);
      // no column says whose a row is, through the table's own columns or its parent's
      expect(customerRowsWhere(later, 'later_about', customer)).toBeNull();
      expect(await count('later_about')).toBeNull();
      expect(await count('later_child')).toBeNull();
      expect(await count('customers')).toBe(1);
      // by its id, whatever its address has become (a closed account's tombstone)
      await t.deps.db.execute(
        sql`UPDATE customers SET email = ${`moved-${customer.email}`} WHERE id = ${customer.id}`,
      );
      expect(await count('customers')).toBe(1);
      expect(await count('later_code_uses')).toBe(0);
      expect(
        (await post(t, privacyPaths.closeAccountCode, await authHeaders(t, customer.id)))
          .statusCode,
      ).toBe(200);
      await t.deps.db.execute(
        sql`INSERT INTO later_code_uses VALUES (${customer.id}, 'close-account')`,
      );
      expect(await count('later_code_uses')).toBe(1);
      expect(await count('audit_events')).toBe(0);
      await recordAudit(t.deps.db, t.clock, {
        actor: 'customer',
        customerId: customer.id,
        action: 'data_export_requested',
      });
      expect(await count('audit_events')).toBe(1);
    } finally {
      for (const table of ['later_code_uses', 'later_misc', 'later_child', 'later_about']) {
        await t.deps.db.execute(sql`DROP TABLE ${sql.identifier(table)}`);
      }
    }
  });
});
