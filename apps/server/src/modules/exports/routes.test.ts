import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { exportPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { unzip } from '../../test/zip';
import { authHeaders, createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { auditOf } from '../../test/audit';
import { consents } from '../consents/schema';
import { orders } from '../purchases/schema';
import { createPlan } from '../plans/service';
import { createTestPartner } from '../consents/testing';
import { creditNotes, invoices } from '../invoices/schema';
import { creditNotesOf, paidOrder, payFor, reportRefund } from '../../test/invoices';
import { customers } from '../users/schema';
import { EXPORT_LINK_TTL_SECONDS } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const BOM = '\uFEFF';
const FY = { from: '2026-04-01', to: '2027-03-31' };

async function customer() {
  const c = await createCustomer(t);
  return { ...c, headers: await authHeaders(t, c.id) };
}

const askLink = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'POST', url: exportPaths.link, headers, payload });

/** The signed link of an export, opened as the browser would: no bearer token. */
async function download(headers: Record<string, string>, payload: object) {
  const link = await askLink(headers, payload);
  expect(link.statusCode, link.body).toBe(200);
  const res = await t.app.inject({ method: 'GET', url: link.json().url });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const csvLines = (body: string) => body.split('\r\n');

async function seedOrders(customerId: string, createdAt: Date[]) {
  const plan = await createPlan(t.deps.db, t.clock, {
    planName: 'Pro, "Annual"',
    planType: 'Single',
    noOfCompany: 1,
    durationDays: 365,
    amountPaise: 750_000,
  });
  return t.deps.db
    .insert(orders)
    .values(
      createdAt.map((at) => ({
        customerId,
        planId: plan.id,
        basePaise: 750_000,
        gstPaise: 135_000,
        handlingPaise: 37_500,
        totalPaise: 922_500,
        status: 'Completed',
        createdAt: at,
        paidAt: at,
      })),
    )
    .returning();
}

describe('POST /api/exports/link', () => {
  it('asks for a signed-in customer', async () => {
    const res = await askLink({}, { kind: 'orders', range: FY });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    [
      { kind: 'orders', range: { from: '2026-05-02', to: '2026-05-01' } },
      'must be on or after the start date',
    ],
    [
      { kind: 'orders', range: { from: '2026-01-01', to: '2027-01-02' } },
      'must be at most 366 days',
    ],
    [
      { kind: 'activity', range: { from: '2026-02-30', to: '2026-03-01' } },
      'must be a date from 2017',
    ],
    [{ kind: 'activity', range: { from: '01/04/2026', to: '2026-05-01' } }, 'as YYYY-MM-DD'],
    [
      { kind: 'activity', range: { from: '1999-04-01', to: '1999-05-01' } },
      'must be a date from 2017',
    ],
    [{ kind: 'consents', range: { from: 20260401, to: '2026-05-01' } }, 'must be a date'],
    [{ kind: 'consents' }, 'range'],
    [{ kind: 'payroll', range: FY }, 'kind'],
    [
      { kind: 'invoice-pdfs', financialYear: '2026-28' },
      'must be a financial year such as 2026-27',
    ],
    [{ kind: 'invoice-pdfs', financialYear: '2026-2027' }, 'must be a financial year'],
    [{ kind: 'invoice-pdfs', range: FY }, 'financialYear'],
  ])('refuses %j with a 400 that says what is wrong', async (payload, message) => {
    const { headers } = await customer();
    const res = await askLink(headers, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
    expect(res.json().message).toContain(message);
  });

  it('accepts a range of exactly 366 days and names the file by kind and range', async () => {
    const { headers } = await customer();
    const res = await askLink(headers, {
      kind: 'orders',
      range: { from: '2027-04-01', to: '2028-03-31' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      fileName: 'orders-2027-04-01-to-2028-03-31.csv',
      url: expect.stringMatching(/^\/api\/exports\/orders\/2027-04-01\/2028-03-31\?expires=/),
    });
    const zip = await askLink(headers, { kind: 'invoice-pdfs', financialYear: '2026-27' });
    expect(zip.json().fileName).toBe('invoice-pdfs-2026-27.zip');
  });
});

describe('GET /api/exports/:kind/:from/:to', () => {
  it('streams the orders of the range as CSV with a BOM, en-IN dates, no cache, as an attachment', async () => {
    const c = await customer();
    const other = await customer();
    // 31 March 23:59 and 1 April 00:00 in India: the first is outside the financial year
    const [, inside, last] = await seedOrders(c.id, [
      new Date('2026-03-31T18:29:59.999Z'),
      new Date('2026-03-31T18:30:00Z'),
      new Date('2027-03-31T18:29:59Z'),
      new Date('2027-03-31T18:30:00Z'),
    ]);
    await seedOrders(other.id, [new Date('2026-06-01T10:00:00Z')]);

    const res = await download(c.headers, { kind: 'orders', range: FY });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="orders-2026-04-01-to-2027-03-31.csv"',
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    // a browser must not sniff the file into a page it runs
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csvLines(res.body);
    expect(lines).toEqual([
      `${BOM}Date,Order ID,Plan,Status,Base (₹),GST (₹),Handling (₹),Total (₹),Paid on`,
      `"01/04/2026, 00:00",${inside!.id},"Pro, ""Annual""",Completed,7500.00,1350.00,375.00,9225.00,"01/04/2026, 00:00"`,
      `"31/03/2027, 23:59",${last!.id},"Pro, ""Annual""",Completed,7500.00,1350.00,375.00,9225.00,"31/03/2027, 23:59"`,
      '',
    ]);
    // the audit log keeps who downloaded which export of which days
    expect(await auditOf(t, c.id)).toEqual([
      {
        actorKind: 'customer',
        actorId: c.id,
        customerId: c.id,
        action: 'export_downloaded',
        outcome: 'success',
        clientNetwork: null,
        details: { kind: 'orders', ...FY },
      },
    ]);
  });

  it('lists rows oldest first across batches, whatever order they were written in', async () => {
    const c = await customer();
    // 1,001 rows written newest first: three batches, each of which must go on from the one before
    await t.deps.db.execute(
      `insert into activity_events (customer_id, type, title, description, status, created_at)
       select '${c.id}', 'login', 'Row ' || n, 'd', 'success',
              timestamptz '2026-07-01 10:00:00+00' - n * interval '1 second'
       from generate_series(1, 1001) as n`,
    );
    const res = await download(c.headers, { kind: 'activity', range: FY });
    const titles = csvLines(res.body)
      .slice(1, -1)
      .map((line) => line.split(',')[3]);
    expect(titles).toEqual(Array.from({ length: 1001 }, (_, i) => `Row ${1001 - i}`));
  });

  it('lists rows of the same instant by id, whatever order they were written in', async () => {
    const c = await customer();
    const [low, high] = [randomUUID(), randomUUID()].sort();
    const at = new Date('2026-07-01T10:00:00Z');
    const event = (id: string, title: string, createdAt: Date) => ({
      id,
      customerId: c.id,
      type: 'login',
      title,
      description: 'd',
      status: 'success',
      createdAt,
    });
    await t.deps.db
      .insert(activityEvents)
      .values([
        event(randomUUID(), 'Later', new Date(at.getTime() + 1)),
        event(high!, 'Second', at),
        event(low!, 'First', at),
        event(randomUUID(), 'Earlier', new Date(at.getTime() - 1)),
      ]);
    const res = await download(c.headers, { kind: 'activity', range: FY });
    const titles = csvLines(res.body)
      .slice(1, -1)
      .map((line) => line.split(',')[3]);
    expect(titles).toEqual(['Earlier', 'First', 'Second', 'Later']);
  });

  it('reads past a batch by keyset without skipping or repeating rows that share a millisecond', async () => {
    const c = await customer();
    // 1,203 rows, many in the same millisecond but apart in microseconds
    await t.deps.db.execute(
      `insert into activity_events (customer_id, type, title, description, status, created_at)
       select '${c.id}', 'login', 'Row ' || n, 'd', 'success',
              timestamptz '2026-06-01 10:00:00+00' + (n / 3) * interval '1 microsecond' * 400
       from generate_series(1, 1203) as n`,
    );
    const res = await download(c.headers, { kind: 'activity', range: FY });
    const titles = csvLines(res.body)
      .slice(1, -1)
      .map((line) => line.split(',')[3]);
    expect(titles).toHaveLength(1203);
    expect(new Set(titles).size).toBe(1203);
  });

  it('neutralises formulas and quotes commas, quotes and line breaks in the activity CSV', async () => {
    const c = await customer();
    await t.deps.db.insert(activityEvents).values({
      customerId: c.id,
      type: 'login',
      title: '=HYPERLINK("http://evil.test","Click")',
      description: 'two\nlines, "quoted"',
      status: '@success',
      createdAt: new Date('2026-08-15T04:30:00Z'),
    });
    const res = await download(c.headers, { kind: 'activity', range: FY });
    expect(res.body).toBe(
      `${BOM}Date,Type,Title,Description,Status\r\n` +
        `"15/08/2026, 10:00",login,"'=HYPERLINK(""http://evil.test"",""Click"")","two\nlines, ""quoted""",'@success\r\n`,
    );
  });

  it('lists the customer’s consents with partner, status, terms and dates, and no one else’s', async () => {
    const c = await customer();
    const other = await customer();
    const { partner } = await createTestPartner(t, '+Tally & Co');
    const row = (customerId: string, consentId: string, status: string, expiresAt: Date) => ({
      customerId,
      partnerRef: partner.id,
      consentId,
      status,
      providerStatus: 'Authorised',
      permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail'],
      accounts: ['XXXX1234'],
      purpose: 'Bank reconciliation',
      transactionFrom: new Date('2026-01-01T00:00:00Z'),
      transactionTo: new Date('2026-12-31T00:00:00Z'),
      expiresAt,
      providerCreatedAt: new Date('2026-06-01T10:00:00Z'),
      providerStatusUpdatedAt: new Date('2026-06-01T10:00:00Z'),
      createdAt: new Date('2026-06-01T10:00:00Z'),
    });
    await t.deps.db
      .insert(consents)
      .values([
        row(c.id, `C-${c.id}`, 'Approved', new Date('2026-05-31T00:00:00Z')),
        row(other.id, `C-${other.id}`, 'Approved', new Date('2027-01-01T00:00:00Z')),
      ]);
    const res = await download(c.headers, { kind: 'consents', range: FY });
    expect(csvLines(res.body)).toEqual([
      `${BOM}Created,Consent ID,Partner,Status,Purpose,Permissions,Accounts,Transactions from,Transactions to,Expires,Revoked`,
      // past its expiry on the test clock: Expired, as every list shows it
      `"01/06/2026, 15:30",C-${c.id},'+Tally & Co,Expired,Bank reconciliation,ReadAccountsBasic; ReadTransactionsDetail,XXXX1234,01/01/2026,31/12/2026,"31/05/2026, 05:30",`,
      '',
    ]);
  });

  it('shows a live consent as Expired from the instant it expires, and every account it covers', async () => {
    const now = new Date('2026-09-15T06:00:00Z');
    t.clock.set(now);
    const c = await customer();
    const { partner } = await createTestPartner(t, 'Tally Partner');
    const later = (ms: number) => new Date(now.getTime() + ms);
    const rows = (
      [
        ['Pending', later(-1)],
        ['Approved', now],
        ['Approved', later(1)],
        ['Approved', null],
        ['Rejected', later(-1)],
      ] as const
    ).map(([status, expiresAt], i) => ({
      customerId: c.id,
      partnerRef: partner.id,
      consentId: `C-${i}-${c.id}`,
      status,
      providerStatus: 'Authorised',
      permissions: ['ReadAccountsBasic'],
      accounts: ['XXXX1234', 'XXXX5678'],
      purpose: 'Bank reconciliation',
      expiresAt,
      providerCreatedAt: now,
      providerStatusUpdatedAt: now,
      createdAt: new Date(Date.UTC(2026, 6, 1 + i, 4, 30)),
    }));
    await t.deps.db.insert(consents).values(rows);
    const res = await download(c.headers, { kind: 'consents', range: FY });
    // the accounts of a consent in one cell, apart by '; '
    const line = (i: number, status: string, expires: string) =>
      `"0${1 + i}/07/2026, 10:00",C-${i}-${c.id},Tally Partner,${status},Bank reconciliation,ReadAccountsBasic,XXXX1234; XXXX5678,,,${expires},`;
    expect(csvLines(res.body).slice(1)).toEqual([
      line(0, 'Expired', '"15/09/2026, 11:29"'),
      line(1, 'Expired', '"15/09/2026, 11:30"'),
      line(2, 'Approved', '"15/09/2026, 11:30"'),
      line(3, 'Approved', ''),
      line(4, 'Rejected', '"15/09/2026, 11:29"'),
      '',
    ]);
  });

  it('refuses a link changed to another customer, kind or range (403) and an expired one (410)', async () => {
    const c = await customer();
    const other = await customer();
    const link = (await askLink(c.headers, { kind: 'orders', range: FY })).json().url as string;
    const tampered = [
      link.replace(`sub=${c.id}`, `sub=${other.id}`),
      link.replace('/orders/', '/activity/'),
      link.replace('2026-04-01', '2026-04-02'),
      link.replace(/sig=[^&]+/, 'sig=x'),
      link.split('?')[0]!,
    ];
    for (const url of tampered) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toBe('This link is not valid.');
    }
    t.clock.advance((EXPORT_LINK_TTL_SECONDS + 1) * 1000);
    const expired = await t.app.inject({ method: 'GET', url: link });
    expect(expired.statusCode).toBe(410);
  });

  it('works for 60 seconds from the moment the link is given, and not a second longer', async () => {
    // given half-way through a second: its expiry is rounded down to the whole second
    t.clock.set(new Date('2026-09-02T06:00:00.500Z'));
    const c = await customer();
    const given = await askLink(c.headers, { kind: 'orders', range: FY });
    expect(given.statusCode, given.body).toBe(200);
    const { url } = given.json() as { url: string };
    t.clock.advance(59_000);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    t.clock.advance(2_000);
    const expired = await t.app.inject({ method: 'GET', url });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toMatch(/expired/);
  });

  it.each([
    ['/api/exports/payroll/2026-04-01/2027-03-31', 'kind'],
    ['/api/exports/orders/2026-04-31/2027-03-31', 'must be a date'],
    ['/api/exports/orders/2027-04-01/2026-04-01', 'must be on or after the start date'],
    ['/api/exports/orders/2020-04-01/2027-03-31', 'must be at most 366 days'],
  ])('answers %s with a 400 before looking at the signature', async (url, message) => {
    const res = await t.app.inject({ method: 'GET', url: `${url}?expires=1&sub=x&sig=y` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
  });
});

describe('invoice exports', () => {
  it('answers 404 for the Tally file of an account gone since its link was given, and records no download', async () => {
    const c = await customer();
    const link = await askLink(c.headers, { kind: 'tally', range: FY });
    expect(link.statusCode, link.body).toBe(200);
    await t.deps.db.delete(customers).where(eq(customers.id, c.id));
    const res = await t.app.inject({ method: 'GET', url: link.json().url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'This account no longer exists.' });
    expect(await auditOf(t, c.id)).toEqual([]);
  });

  it('lists invoices and credit notes of the range in the CSV, books them for Tally, and zips their PDFs', async () => {
    t.clock.set(new Date('2026-09-01T06:00:00Z'));
    const first = await paidOrder(t, { companyName: 'Rao & Sons <Traders>' });
    // another customer's invoice and credit notes fall between the first customer's documents,
    // by date and by number: none of them ever appears in the first customer's exports
    t.clock.set(new Date('2026-09-01T06:05:00Z'));
    const other = await paidOrder(t);
    t.clock.advance(60_000);
    await reportRefund(t, other.paymentId, {
      id: 'rfnd_export_other_1',
      amountPaise: 200_00,
      refundedSoFarPaise: 200_00,
    });
    t.clock.set(new Date('2026-09-01T06:10:00Z'));
    const second = await payFor(t, first.b);
    t.clock.advance(60_000);
    await reportRefund(t, second.paymentId, {
      id: 'rfnd_export',
      amountPaise: 300_00,
      refundedSoFarPaise: 300_00,
    });
    t.clock.advance(60_000);
    await reportRefund(t, other.paymentId, {
      id: 'rfnd_export_other_2',
      amountPaise: 100_00,
      refundedSoFarPaise: 300_00,
    });
    await t.drawDocuments();
    const [note] = await creditNotesOf(t, second.invoice.id);
    const othersNotes = await creditNotesOf(t, other.invoice.id).orderBy(
      asc(creditNotes.creditNoteNumber),
    );
    const mine = [
      first.invoice.invoiceNumber,
      second.invoice.invoiceNumber,
      note!.creditNoteNumber,
    ];
    const theirs = [other.invoice.invoiceNumber, ...othersNotes.map((n) => n.creditNoteNumber)];
    // the other customer's documents are numbered on either side of the first customer's
    expect(othersNotes).toHaveLength(2);
    const inOrder = (...numbers: string[]) => expect(numbers).toEqual([...numbers].sort());
    inOrder(first.invoice.invoiceNumber, other.invoice.invoiceNumber, second.invoice.invoiceNumber);
    inOrder(theirs[1]!, note!.creditNoteNumber, theirs[2]!);
    const { headers } = first.b;
    const range = { from: '2026-09-01', to: '2026-09-30' };

    const csv = await download(headers, { kind: 'invoices', range });
    const lines = csvLines(csv.body);
    expect(lines[0]).toBe(
      `${BOM}Document,Number,Date,Invoice number,Invoice date,Order ID,GSTIN,Place of supply,Taxable value (₹),CGST (₹),SGST (₹),IGST (₹),Other charges (₹),Total (₹)`,
    );
    expect(lines.slice(1, -1).map((line) => line.split(',').slice(0, 4))).toEqual([
      ['Tax invoice', first.invoice.invoiceNumber, '01/09/2026', first.invoice.invoiceNumber],
      ['Tax invoice', second.invoice.invoiceNumber, '01/09/2026', second.invoice.invoiceNumber],
      ['Credit note', note!.creditNoteNumber, '01/09/2026', second.invoice.invoiceNumber],
    ]);
    for (const number of theirs) expect(csv.body).not.toContain(number);
    expect(lines[1]!.split(',').at(-1)).toBe((first.invoice.totalPaise / 100).toFixed(2));
    expect(lines[3]!.split(',').at(-1)).toBe('300.00');

    const tally = await download(headers, { kind: 'tally', range });
    expect(tally.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(tally.headers['content-disposition']).toBe(
      'attachment; filename="tally-2026-09-01-to-2026-09-30.xml"',
    );
    expect(XMLValidator.validate(tally.body)).toBe(true);
    const envelope = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'TALLYMESSAGE',
    }).parse(tally.body).ENVELOPE;
    expect(envelope.BODY.IMPORTDATA.REQUESTDESC.STATICVARIABLES.SVCURRENTCOMPANY).toBe(
      'Rao & Sons <Traders>',
    );
    const types = envelope.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE.map(
      (message: { VOUCHER: Record<string, string> }) => message.VOUCHER['@_VCHTYPE'],
    );
    expect(types).toEqual(['Purchase', 'Purchase', 'Debit Note']);
    const numbers = envelope.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE.map(
      (message: { VOUCHER: Record<string, string> }) => message.VOUCHER.VOUCHERNUMBER,
    );
    expect(numbers).toEqual(mine);
    for (const number of theirs) expect(tally.body).not.toContain(number);

    // nothing of the year before
    const empty = await download(headers, {
      kind: 'invoices',
      range: { from: '2025-09-01', to: '2025-09-30' },
    });
    expect(csvLines(empty.body)).toHaveLength(2);

    const zip = await download(headers, { kind: 'invoice-pdfs', financialYear: '2026-27' });
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe(
      'attachment; filename="invoice-pdfs-2026-27.zip"',
    );
    const entries = await unzip(zip.rawPayload);
    const names = [...entries.keys()];
    expect(names).toEqual([
      `invoices/${first.invoice.invoiceNumber.replaceAll('/', '-')}.pdf`,
      `invoices/${second.invoice.invoiceNumber.replaceAll('/', '-')}.pdf`,
      `credit-notes/${note!.creditNoteNumber.replaceAll('/', '-')}.pdf`,
    ]);
    const stored = await t.deps.files.read(first.invoice.fileKey);
    expect(entries.get(names[0]!)).toEqual(stored);
    for (const pdf of entries.values()) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('answers a ZIP with a document whose PDF is not drawn yet as being prepared, and zips it once drawn', async () => {
    t.clock.set(new Date('2026-11-01T06:00:00Z'));
    const { b, invoice } = await paidOrder(t);
    // as it stands between the settlement's commit and its drawing
    await t.deps.db.update(invoices).set({ drawnAt: null }).where(eq(invoices.id, invoice.id));
    const ask = async () => {
      const link = await askLink(b.headers, { kind: 'invoice-pdfs', financialYear: '2026-27' });
      return t.app.inject({ method: 'GET', url: link.json().url });
    };
    const early = await ask();
    expect(early.statusCode).toBe(409);
    expect(early.headers['retry-after']).toBe('5');
    expect(early.json()).toEqual({
      success: false,
      message: 'Some of these documents are being prepared. Please try again in a moment.',
      error: 'being prepared',
    });
    await t.deps.db
      .update(invoices)
      .set({ drawnAt: t.clock.now() })
      .where(eq(invoices.id, invoice.id));
    const zip = await ask();
    expect(zip.statusCode).toBe(200);
    expect([...(await unzip(zip.rawPayload)).keys()]).toEqual([
      `invoices/${invoice.invoiceNumber.replaceAll('/', '-')}.pdf`,
    ]);
  });

  it('stops the download of a ZIP whose PDF is missing from the store, and the portal goes on', async () => {
    t.clock.set(new Date('2026-10-01T06:00:00Z'));
    const { b, invoice } = await paidOrder(t);
    await t.deps.files.remove(invoice.fileKey);
    const link = await askLink(b.headers, { kind: 'invoice-pdfs', financialYear: '2026-27' });
    // the archive fails as it reaches the missing PDF: the answer stops (cut off, or refused when
    // nothing was sent yet), never a ZIP that looks whole, never left open
    const outcome = await t.app
      .inject({ method: 'GET', url: link.json().url })
      .then((res) => unzip(res.rawPayload))
      .catch((error: Error) => error);
    expect(outcome).toBeInstanceOf(Error);
    const health = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(health.statusCode).toBe(200);
  });
});
