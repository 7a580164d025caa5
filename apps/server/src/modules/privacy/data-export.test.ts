import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  billingPaths,
  dataExportDownloadPath,
  privacyMessages,
  privacyPaths,
  type DataExport,
} from '@portal/contract';
import type { FileStore, StoredFile } from '../../adapters/file-store';
import type { Job } from '../../adapters/queue';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer, TEST_PASSWORD } from '../../test/customers';
import { linksOf } from '../../test/mail';
import { drainQueue } from '../../test/queue';
import { unzip } from '../../test/zip';
import { activityEvents } from '../activity/schema';
import { auditOf, byCustomer } from '../../test/audit';
import { describeDevice } from '../auth/browsers';
import {
  loginChallenges,
  passwordResetTokens,
  refreshTokens,
  seenBrowsers,
  sessions,
} from '../auth/schema';
import { requestResetLink } from '../../test/auth';
import { createTestPartner, decideAtBank, requestTestConsent } from '../consents/testing';
import { consents } from '../consents/schema';
import { creditNotesOf, paidOrder, payFor, reportRefund } from '../../test/invoices';
import { buyer } from '../../test/payments';
import { sessionEndLinks } from '../security/schema';
import { CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, passwordStep, signInFrom } from '../../test/security';
import { withAppOn } from '../../test/two-factor';
import { customers } from '../users/schema';
import { DATA_EXPORT_SUBJECT } from './mail';
import {
  DATA_EXPORT_COOLDOWN_MS,
  DATA_EXPORT_TTL_MS,
  dataExportFile,
  dataExportFileKey,
  dataExportLinkCustomer,
  endCustomerDataExports,
  prepareDataExport,
  purgeExpiredDataExports,
  runDataExportJob,
  type DataExportJob,
} from './data-export';
import { dataExports, privacyCodes } from './schema';
import { ARCHIVE_TEXT_FILES, codeMailedTo, post } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.deps.queue.work<DataExportJob>('data-export', (job) => runDataExportJob(t.deps, job));
});
afterAll(() => t.close());

type Headers = Record<string, string>;

const latest = async (headers: Headers) => {
  const res = await t.app.inject({ method: 'GET', url: privacyPaths.dataExport, headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as DataExport | null;
};
const ask = (headers: Headers) => post(t, privacyPaths.dataExport, headers);
const rowsOf = (customerId: string) =>
  t.deps.db.select().from(dataExports).where(eq(dataExports.customerId, customerId));

/** The link of the newest "data is ready" mail to `email`, as a path with its query. */
async function mailedLink(email: string) {
  const mail = (await t.outbox())
    .filter((m) => m.to === email && m.subject === DATA_EXPORT_SUBJECT)
    .at(-1);
  if (!mail) throw new Error(`no data export mail to ${email}`);
  const link = linksOf(mail.html).find((href) => href.includes('/api/privacy/data-export/'));
  expect(mail.text).toContain(link);
  const url = new URL(link!);
  expect(url.origin).toBe(new URL(t.config.PUBLIC_URL).origin);
  return url.pathname + url.search;
}

const download = (pathAndQuery: string) => t.app.inject({ method: 'GET', url: pathAndQuery });

/** The query of a link, as the route hands it to `dataExportLinkCustomer`. */
const queryOf = (pathAndQuery: string) =>
  Object.fromEntries(new URL(pathAndQuery, t.config.PUBLIC_URL).searchParams);

/** A request as the portal stores it, without its job: the tests that use it run the job. */
async function storedRequest(customerId: string) {
  const [row] = await t.deps.db
    .insert(dataExports)
    .values({ customerId, status: 'preparing', requestedAt: t.clock.now() })
    .returning();
  return row!;
}

/** The test app's store, with `putFile` replaced. */
const storeWith = (putFile: FileStore['putFile']): FileStore => ({ ...t.deps.files, putFile });
const storeUnavailable = () => Promise.reject(new Error('store unavailable'));

/** Asks, runs the job, and answers the mailed link. */
async function prepared(customer: { id: string; email: string }, headers: Headers) {
  expect((await ask(headers)).statusCode).toBe(202);
  await drainQueue(t, 'data-export');
  return mailedLink(customer.email);
}

describe('POST /api/privacy/data-export', () => {
  it('prepares the ZIP of everything held in the background, mails a 24-hour link, and leaves out every secret', async () => {
    const { b, invoice, order } = await paidOrder(t);
    const customer = b.customer;
    const partner = await createTestPartner(t);
    const consent = await requestTestConsent(t, partner.apiKey, customer.id);
    await decideAtBank(t, consent.consentId, 'authorise');
    const { secret, recoveryCodes } = await withAppOn(t, customer);
    const headers = await authHeaders(t, customer.id);
    // the bank's tokens are stored when the portal asks it again
    const refreshed = await post(t, '/api/consent/getstatus', headers, {
      consentId: consent.consentId,
    });
    const tokens = refreshed.json().data as { accessToken: string; refreshToken: string };
    expect(tokens.accessToken).toMatch(/^sbk_at_/);

    const asked = await ask(headers);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({
      message: privacyMessages.exportRequested,
      data: { status: 'preparing', readyAt: null, expiresAt: null },
    });
    expect(await latest(headers)).toMatchObject({ status: 'preparing' });

    await drainQueue(t, 'data-export');
    const ready = await latest(headers);
    expect(ready?.status).toBe('ready');
    expect(new Date(ready!.expiresAt!).getTime() - new Date(ready!.readyAt!).getTime()).toBe(
      DATA_EXPORT_TTL_MS,
    );

    const res = await download(await mailedLink(customer.email));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    // personal data: kept by no cache, and never read as anything but a download
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="portal-data-\d{2}-\d{2}-\d{4}\.zip"$/,
    );
    const entries = await unzip(res.rawPayload);
    const json = (name: string) => JSON.parse(entries.get(name)!.toString('utf8'));
    expect([...entries.keys()].sort()).toEqual(
      [...ARCHIVE_TEXT_FILES, `invoices/${invoice.invoiceNumber.replaceAll('/', '-')}.pdf`].sort(),
    );
    expect(json('account.json')).toMatchObject({
      customer: { id: customer.id, email: customer.email, companyName: customer.companyName },
      secondFactor: {
        authenticatorApp: { enabledAt: expect.any(String) },
        unusedRecoveryCodes: recoveryCodes.length,
      },
      notificationPreferences: { reminders: true, consentChanges: true },
    });
    expect(json('orders.json')).toEqual([
      expect.objectContaining({ id: order.id, status: 'Completed', totalPaise: order.totalPaise }),
    ]);
    expect(json('invoices.json')).toEqual([
      expect.objectContaining({ number: invoice.invoiceNumber, kind: 'invoice' }),
    ]);
    expect(json('consents.json')).toEqual([
      expect.objectContaining({ consentId: consent.consentId, partner: partner.partner.name }),
    ]);
    expect(json('sessions.json').length).toBeGreaterThan(0);
    expect(Array.isArray(json('sign-ins.json'))).toBe(true);
    expect(Array.isArray(json('activity.json'))).toBe(true);
    const pdf = entries.get(`invoices/${invoice.invoiceNumber.replaceAll('/', '-')}.pdf`)!;
    expect(pdf).toEqual(await t.deps.files.read(invoice.fileKey));

    // no byte of any file holds a secret the portal keeps
    const [row] = await t.deps.db.select().from(customers).where(eq(customers.id, customer.id));
    const [stored] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, consent.consentId));
    const tokenHashes = await t.deps.db
      .select({ hash: refreshTokens.tokenHash })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(eq(sessions.customerId, customer.id));
    const secrets = [
      TEST_PASSWORD,
      row!.passwordHash,
      secret,
      ...recoveryCodes,
      tokens.accessToken,
      tokens.refreshToken,
      stored!.accessTokenEnc,
      stored!.refreshTokenEnc,
      ...tokenHashes.map((t) => t.hash),
    ].filter((value): value is string => Boolean(value));
    // the password, its hash, the app's secret and codes, the bank's tokens, a session's
    expect(stored!.accessTokenEnc).not.toBeNull();
    expect(secrets.length).toBeGreaterThanOrEqual(8 + recoveryCodes.length);
    for (const [name, bytes] of entries) {
      const text = bytes.toString('latin1');
      for (const value of secrets) expect(text, `${name} holds a secret`).not.toContain(value);
    }
  });

  it("holds the billing address, the order's billing snapshot, credit notes, sign-ins, sessions with their browser and the activity seeded, and no code, link or device hash", async () => {
    const b = await buyer(t);
    const customer = b.customer;
    const headers = await authHeaders(t, customer.id);
    const address = {
      gstin: customer.gstNo!,
      addressLine1: '14 Marine Drive',
      addressLine2: 'Floor 3',
      city: 'Mumbai',
      stateCode: '27',
      pin: '400020',
    };
    const saved = await t.app.inject({
      method: 'PUT',
      url: billingPaths.details,
      headers,
      payload: address,
    });
    expect(saved.statusCode).toBe(200);
    const { invoice, order, paymentId } = await payFor(t, b);
    await reportRefund(t, paymentId, {
      id: 'rfnd_X',
      amountPaise: 500_00,
      refundedSoFarPaise: 500_00,
    });
    const [note] = await creditNotesOf(t, invoice.id);
    expect(note).toBeDefined();
    // another customer's invoice and credit note, issued meanwhile, are not in this export
    const other = await paidOrder(t);
    await reportRefund(t, other.paymentId, {
      id: 'rfnd_X_other',
      amountPaise: 200_00,
      refundedSoFarPaise: 200_00,
    });
    const [othersNote] = await creditNotesOf(t, other.invoice.id);
    expect(othersNote).toBeDefined();

    // two browsers sign in (the second is told of as new, with a link ending it), one typo
    const chrome = { userAgent: CHROME_ON_WINDOWS, ip: '198.51.100.7' };
    const safari = { userAgent: SAFARI_ON_IPHONE, ip: '203.0.113.9' };
    const first = await signInFrom(t, customer, chrome);
    expect((await passwordStep(t, customer, safari, { password: 'Wrong@2026' })).statusCode).toBe(
      401,
    );
    const second = await signInFrom(t, customer, safari);
    expect((await requestResetLink(t, customer.email)).statusCode).toBe(200);
    expect((await post(t, privacyPaths.closeAccountCode, headers)).statusCode).toBe(200);

    const link = await prepared(customer, headers);
    const entries = await unzip((await download(link)).rawPayload);
    const json = (name: string) => JSON.parse(entries.get(name)!.toString('utf8'));

    expect(json('account.json').billingAddress).toMatchObject(address);
    expect(json('orders.json')).toEqual([
      expect.objectContaining({
        id: order.id,
        billingGstin: address.gstin,
        billingCity: address.city,
        billingStateCode: address.stateCode,
        billingPin: address.pin,
      }),
    ]);
    const notePdf = `credit-notes/${note!.creditNoteNumber.replaceAll('/', '-')}.pdf`;
    expect(json('invoices.json')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'credit-note',
          number: note!.creditNoteNumber,
          invoiceNumber: invoice.invoiceNumber,
          totalPaise: 500_00,
          pdf: notePdf,
        }),
      ]),
    );
    expect(entries.get(notePdf)).toEqual(await t.deps.files.read(note!.fileKey));
    // the customer's own documents only, though another customer's were issued at the same time
    const documents = (json('invoices.json') as { number: string }[]).map((d) => d.number);
    expect(documents.sort()).toEqual([invoice.invoiceNumber, note!.creditNoteNumber].sort());
    expect([...entries.keys()].filter((name) => name.endsWith('.pdf')).sort()).toEqual(
      [`invoices/${invoice.invoiceNumber.replaceAll('/', '-')}.pdf`, notePdf].sort(),
    );
    expect(documents).not.toContain(othersNote!.creditNoteNumber);

    const signIns = json('sign-ins.json') as { outcome: string; ip: string; browser: string }[];
    expect(signIns.map(({ outcome, ip, browser }) => [outcome, ip, browser])).toEqual([
      ['success', chrome.ip, describeDevice(chrome.userAgent).browser],
      ['wrong_password', safari.ip, describeDevice(safari.userAgent).browser],
      ['success', safari.ip, describeDevice(safari.userAgent).browser],
    ]);
    const devices = (json('sessions.json') as { ip: string | null; browser: string | null }[])
      .filter((session) => session.ip !== null)
      .map(({ ip, browser }) => [ip, browser]);
    expect(devices).toEqual([
      [chrome.ip, describeDevice(chrome.userAgent).browser],
      [safari.ip, describeDevice(safari.userAgent).browser],
    ]);
    const activity = await t.deps.db
      .select({ id: activityEvents.id })
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(activity.length).toBeGreaterThan(0);
    expect((json('activity.json') as { id: string }[]).map((a) => a.id).sort()).toEqual(
      activity.map((a) => a.id).sort(),
    );

    const sessionIds = [first.sessionId, second.sessionId];
    const hashes = [
      ...(await t.deps.db
        .select({ a: loginChallenges.tokenHash, b: loginChallenges.codeHash })
        .from(loginChallenges)
        .where(eq(loginChallenges.customerId, customer.id))),
      ...(await t.deps.db
        .select({ a: passwordResetTokens.tokenHash })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.customerId, customer.id))),
      ...(await t.deps.db
        .select({ a: privacyCodes.codeHash })
        .from(privacyCodes)
        .where(eq(privacyCodes.customerId, customer.id))),
      ...(await t.deps.db
        .select({ a: seenBrowsers.deviceHash })
        .from(seenBrowsers)
        .where(eq(seenBrowsers.customerId, customer.id))),
      ...(await t.deps.db
        .select({ a: sessionEndLinks.tokenHash })
        .from(sessionEndLinks)
        .where(inArray(sessionEndLinks.sessionId, sessionIds))),
      ...(await t.deps.db
        .select({ a: refreshTokens.tokenHash })
        .from(refreshTokens)
        .where(inArray(refreshTokens.sessionId, sessionIds))),
    ].flatMap((row) => Object.values(row));
    // two challenges (2 each), a reset link, a privacy code, a device, an end link, two refresh tokens
    expect(hashes.length).toBeGreaterThanOrEqual(10);
    const secrets = [...hashes, first.refreshToken, second.refreshToken, first.token, second.token];
    for (const [name, bytes] of entries) {
      const text = bytes.toString('latin1');
      for (const value of secrets) expect(text, `${name} holds a secret`).not.toContain(value);
    }
  });

  it('allows one request preparing at a time, and none within an hour of the last one ready', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    expect((await ask(headers)).statusCode).toBe(202);
    const again = await ask(headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(privacyMessages.exportPreparing);
    expect(await rowsOf(customer.id)).toHaveLength(1);

    await drainQueue(t, 'data-export');
    const soon = await ask(headers);
    expect(soon.statusCode).toBe(429);
    expect(soon.json().message).toBe(privacyMessages.exportTooSoon);
    expect(await rowsOf(customer.id)).toHaveLength(1);

    t.clock.advance(DATA_EXPORT_COOLDOWN_MS);
    // an hour on, the access token has expired: a fresh one
    expect((await ask(await authHeaders(t, customer.id))).statusCode).toBe(202);
    await drainQueue(t, 'data-export');
    expect(await rowsOf(customer.id)).toHaveLength(2);
  });

  it('records the request, its preparation and each download in the audit log, by the export id', async () => {
    const customer = await createCustomer(t);
    const link = await prepared(customer, await authHeaders(t, customer.id));
    expect((await download(link)).statusCode).toBe(200);
    const [row] = await rowsOf(customer.id);
    const details = { exportId: row!.id };
    const rows = await auditOf(t, customer.id);
    expect(rows.filter((r) => r.action.startsWith('data_export_'))).toEqual([
      byCustomer(customer.id, 'data_export_requested', details),
      {
        ...byCustomer(customer.id, 'data_export_prepared', details),
        actorKind: 'system',
        actorId: null,
      },
      byCustomer(customer.id, 'data_export_downloaded', details),
    ]);
  });

  it('refuses a caller without a session', async () => {
    expect((await post(t, privacyPaths.dataExport, {})).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: privacyPaths.dataExport });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/privacy/data-export/:exportId/download', () => {
  it("refuses a tampered link, another customer's export and a bad id, and works for 24 hours, then 410", async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const link = await prepared(customer, headers);
    const [row] = await rowsOf(customer.id);

    const tampered = link.replace(/sig=([^&])/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await download(tampered)).statusCode).toBe(403);
    // a link signed for another customer does not open this customer's export
    const other = await createCustomer(t);
    const foreign = t.deps.signedLinks.sign(dataExportDownloadPath(row!.id), other.id, 60);
    expect((await download(foreign)).statusCode).toBe(404);
    const badId = t.deps.signedLinks.sign(dataExportDownloadPath('not-an-id'), customer.id, 60);
    expect((await download(badId)).statusCode).toBe(400);

    expect((await download(link)).statusCode).toBe(200);
    // a second before the 24 hours are up the mailed link still works; a second after, it is gone
    t.clock.advance(24 * 60 * 60_000 - 1000);
    expect((await download(link)).statusCode).toBe(200);
    t.clock.advance(2000);
    const late = await download(link);
    expect(late.statusCode).toBe(410);
    // the link's own expiry says what to do next, as the request's does
    expect(late.json().message).toBe(privacyMessages.exportGone);
    expect((await latest(await authHeaders(t, customer.id)))?.status).toBe('expired');
  });

  it('refuses a link without its signature, and one to an export still being prepared, changing nothing', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    expect((await ask(headers)).statusCode).toBe(202);
    const [row] = await rowsOf(customer.id);

    expect((await download(dataExportDownloadPath(row!.id))).statusCode).toBe(403);
    const early = await download(
      t.deps.signedLinks.sign(dataExportDownloadPath(row!.id), customer.id, 60),
    );
    expect(early.statusCode).toBe(404);
    expect(early.json().message).toBe(privacyMessages.exportMissing);
    const tooLong = await download(`${dataExportDownloadPath(row!.id)}?sig=${'x'.repeat(300)}`);
    expect(tooLong.statusCode).toBe(400);
    // a body the request does not take is refused before anything is written
    const garbled = await t.app.inject({
      method: 'POST',
      url: privacyPaths.dataExport,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"not json',
    });
    expect(garbled.statusCode).toBe(400);
    expect(await rowsOf(customer.id)).toEqual([row]);
    await drainQueue(t, 'data-export');
  });

  it('is over at the very instant its 24 hours are up, when the link itself still verifies; a second later the link is refused too', async () => {
    const customer = await createCustomer(t);
    const link = await prepared(customer, await authHeaders(t, customer.id));
    const [row] = await rowsOf(customer.id);
    t.clock.set(row!.expiresAt!);
    // the link's own 24 hours end at this same second: here only the request's expiry refuses
    expect(dataExportLinkCustomer(t.deps, row!.id, queryOf(link))).toBe(customer.id);
    expect((await latest(await authHeaders(t, customer.id)))?.status).toBe('expired');
    const gone = await download(link);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe(privacyMessages.exportGone);

    t.clock.advance(1000);
    expect(() => dataExportLinkCustomer(t.deps, row!.id, queryOf(link))).toThrow(
      privacyMessages.exportGone,
    );
  });

  it('answers 410 for a request ended with the account, though its 24 hours are not up', async () => {
    const customer = await createCustomer(t);
    const link = await prepared(customer, await authHeaders(t, customer.id));
    // what closing the account does in its transaction; the file is deleted only after it
    await endCustomerDataExports(t.deps.db, customer.id);
    const gone = await download(link);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe(privacyMessages.exportGone);
  });

  it('closes the file it opened, and fails, when the download cannot be written to the audit log', async () => {
    const customer = await createCustomer(t);
    await prepared(customer, await authHeaders(t, customer.id));
    const [row] = await rowsOf(customer.id);
    const opened: StoredFile[] = [];
    const files: FileStore = {
      ...t.deps.files,
      stream: async (key) => {
        const file = await t.deps.files.stream(key);
        if (file) opened.push(file);
        return file;
      },
    };
    // reads work; the audit log's insert does not
    const db = new Proxy(t.deps.db, {
      get: (target, name, receiver) =>
        name === 'insert'
          ? () => {
              throw new Error('audit log unavailable');
            }
          : Reflect.get(target, name, receiver),
    });
    await expect(dataExportFile({ ...t.deps, db, files }, customer.id, row!.id)).rejects.toThrow(
      'audit log unavailable',
    );
    expect(opened).toHaveLength(1);
    expect(opened[0]!.body.destroyed).toBe(true);
  });

  it('is gone once the purge has run: the file deleted, the request kept as expired', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const link = await prepared(customer, headers);
    const [row] = await rowsOf(customer.id);
    const key = dataExportFileKey(customer.id, row!.id);
    expect(await t.deps.files.read(key)).not.toBeNull();

    // not yet due: nothing goes
    await purgeExpiredDataExports(t.deps);
    expect(await t.deps.files.read(key)).not.toBeNull();

    t.clock.advance(DATA_EXPORT_TTL_MS);
    expect(await purgeExpiredDataExports(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await t.deps.files.read(key)).toBeNull();
    expect((await rowsOf(customer.id))[0]?.status).toBe('expired');
    // a second run finds nothing of it
    await purgeExpiredDataExports(t.deps);
    expect((await download(link)).statusCode).toBe(410);
  });

  it('goes with the account when it is closed, file and request', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    await prepared(customer, headers);
    const [row] = await rowsOf(customer.id);
    const key = dataExportFileKey(customer.id, row!.id);

    expect((await post(t, privacyPaths.closeAccountCode, headers)).statusCode).toBe(200);
    const code = await codeMailedTo(t, customer.email);
    const closed = await post(t, privacyPaths.closeAccount, headers, {
      password: customer.password,
      code,
    });
    expect(closed.statusCode).toBe(200);
    expect(await rowsOf(customer.id)).toHaveLength(0);
    expect(await t.deps.files.read(key)).toBeNull();
  });
});

describe('the data export job', () => {
  it('builds the archive in a folder of its own under the temp folder, and removes it whether the store takes the file or not', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'data-export-test-'));
    // os.tmpdir() reads it at each call
    vi.stubEnv('TMPDIR', tmp);
    try {
      const customer = await createCustomer(t);
      const row = await storedRequest(customer.id);
      const given: string[] = [];
      const noting = (putFile: FileStore['putFile']) =>
        storeWith((key, file) => {
          given.push(file);
          return putFile(key, file);
        });

      await expect(
        prepareDataExport({ ...t.deps, files: noting(storeUnavailable) }, row.id),
      ).rejects.toThrow('store unavailable');
      expect(await readdir(tmp)).toEqual([]);
      const store = noting((key, file) => t.deps.files.putFile(key, file));
      await prepareDataExport({ ...t.deps, files: store }, row.id);
      expect(await readdir(tmp)).toEqual([]);

      expect(given).toHaveLength(2);
      for (const file of given) {
        expect(path.relative(tmp, path.dirname(file))).toMatch(/^portal-data-export-[^/]+$/);
      }
      expect(await t.deps.files.read(dataExportFileKey(customer.id, row.id))).not.toBeNull();
      expect((await rowsOf(customer.id))[0]?.status).toBe('ready');
    } finally {
      vi.unstubAllEnvs();
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('leaves no file in the store, and mails nothing, when the request ends while its archive is stored', async () => {
    const customer = await createCustomer(t);
    const row = await storedRequest(customer.id);
    // the account is closed while the job writes the file
    const files = storeWith(async (key, file) => {
      await t.deps.files.putFile(key, file);
      await endCustomerDataExports(t.deps.db, customer.id);
    });
    await prepareDataExport({ ...t.deps, files }, row.id);

    expect(await t.deps.files.read(dataExportFileKey(customer.id, row.id))).toBeNull();
    expect((await rowsOf(customer.id))[0]?.status).toBe('expired');
    expect((await t.outbox()).filter((m) => m.to === customer.email)).toHaveLength(0);
    const actions = (await auditOf(t, customer.id)).map((r) => r.action);
    expect(actions).not.toContain('data_export_prepared');
  });
});

describe('a data export that cannot be stored', () => {
  it('is tried again, then marked failed, and may be asked for again', async () => {
    const f = await createTestApp({ deps: { files: storeWith(storeUnavailable) } });
    try {
      await f.deps.queue.work<DataExportJob>('data-export', (job) => runDataExportJob(f.deps, job));
      const customer = await createCustomer(f);
      const headers = await authHeaders(f, customer.id);
      expect((await post(f, privacyPaths.dataExport, headers)).statusCode).toBe(202);
      await drainQueue(f, 'data-export', { retriesNow: true });
      const res = await f.app.inject({ method: 'GET', url: privacyPaths.dataExport, headers });
      expect(res.json().data.status).toBe('failed');
      expect((await f.outbox()).filter((m) => m.subject === DATA_EXPORT_SUBJECT)).toHaveLength(0);
      expect((await post(f, privacyPaths.dataExport, headers)).statusCode).toBe(202);
    } finally {
      await f.close();
    }
  });

  it('stays preparing after a failed try that is not the last, is marked failed after the last, and its link then finds nothing', async () => {
    const customer = await createCustomer(t);
    const row = await storedRequest(customer.id);
    const failing = { ...t.deps, files: storeWith(storeUnavailable) };
    // as the queue runs it: three tries after the first
    const attempt = (retryCount: number) =>
      ({ data: { exportId: row.id }, retryCount, retryLimit: 3 }) as unknown as Job<DataExportJob>;
    for (const retryCount of [0, 2]) {
      await expect(runDataExportJob(failing, attempt(retryCount))).rejects.toThrow(
        'store unavailable',
      );
      expect((await rowsOf(customer.id))[0]?.status).toBe('preparing');
    }
    await expect(runDataExportJob(failing, attempt(3))).rejects.toThrow('store unavailable');
    expect((await rowsOf(customer.id))[0]?.status).toBe('failed');

    const link = t.deps.signedLinks.sign(dataExportDownloadPath(row.id), customer.id, 60);
    const missing = await download(link);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(privacyMessages.exportMissing);
  });

  it('fails, rather than hangs, when a PDF it must hold is missing from the store', async () => {
    const { b, invoice } = await paidOrder(t);
    // the receipt's mail goes first: with its PDF gone it would be tried again and again, and
    // hold up every later read of the outbox
    await t.outbox();
    await t.deps.files.remove(invoice.fileKey);
    expect((await ask(b.headers)).statusCode).toBe(202);
    await drainQueue(t, 'data-export', { retriesNow: true });
    const res = await t.app.inject({
      method: 'GET',
      url: privacyPaths.dataExport,
      headers: b.headers,
    });
    expect(res.json().data.status).toBe('failed');
  });
});
