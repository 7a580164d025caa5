import { randomUUID } from 'node:crypto';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { unzip } from '../../test/zip';
import { describeDevice } from '../auth/browsers';
import { billingDetails } from '../billing/schema';
import { passkeys } from '../passkeys/schema';
import { customerPlans, plans } from '../plans/schema';
import { notificationPreferences } from '../preferences/schema';
import { signInEvents } from '../security/schema';
import { dismissInvitation } from '../two-factor/service';
import { CHROME_ON_WINDOWS, SAFARI_ON_IPHONE } from '../../test/security';
import { customerDataArchive, SIGN_IN_BATCH } from './data-archive';
import { nominees } from './schema';
import { ARCHIVE_TEXT_FILES } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function archiveOf(customerId: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await customerDataArchive(t.deps, customerId)) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Each file of the customer's archive as text. */
async function filesOf(customerId: string): Promise<Map<string, string>> {
  const entries = await unzip(await archiveOf(customerId));
  return new Map([...entries].map(([name, bytes]) => [name, bytes.toString('utf8')]));
}

/** A JSON array as the archive lays it out: each item indented on lines of its own. */
const arrayText = (items: unknown[]) =>
  items.length === 0
    ? '[]\n'
    : `[\n${items.map((item) => JSON.stringify(item, null, 2)).join(',\n')}\n]\n`;

/** A value as a JSON file gives it back: dates as ISO strings. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * Each entry's modification time, from the UTC timestamp yazl writes beside the DOS one (which is
 * local time, to 2 s): the extra field 0x5455, a flags byte, then the seconds since 1970.
 */
function modifiedTimes(archive: Buffer) {
  return new Promise<Map<string, Date>>((resolve, reject) => {
    const times = new Map<string, Date>();
    yauzl.fromBuffer(archive, (error, zipFile) => {
      if (error) return reject(error);
      zipFile
        .on('entry', (entry: yauzl.Entry) => {
          const field = entry.extraFields.find(({ id }) => id === 0x5455);
          if (field) times.set(entry.fileName, new Date(field.data.readUInt32LE(1) * 1000));
        })
        .on('end', () => resolve(times))
        .on('error', reject);
    });
  });
}

/** `count` sign-in events of the customer, straight in the table, a minute apart. */
async function seedSignIns(customerId: string, count: number) {
  const start = Date.UTC(2026, 4, 1);
  const rows = Array.from({ length: count }, (_, i) => ({
    customerId,
    at: new Date(start + i * 60_000),
    outcome: i % 3 === 0 ? 'wrong_password' : 'success',
    userAgent: i % 2 === 0 ? CHROME_ON_WINDOWS : SAFARI_ON_IPHONE,
    // the address tells the events apart, so that order and repeats show
    ip: `198.51.${Math.floor(i / 256)}.${i % 256}`,
  }));
  await t.deps.db.insert(signInEvents).values(rows);
  return rows.map(({ customerId: _owner, ...row }) => ({
    ...row,
    browser: describeDevice(row.userAgent).browser,
  }));
}

describe('the archive of a customer with nothing but a profile', () => {
  it('writes every list as an empty array, and the settings a new account starts with', async () => {
    const customer = await createCustomer(t);
    const files = await filesOf(customer.id);

    for (const name of [
      'orders.json',
      'invoices.json',
      'consents.json',
      'activity.json',
      'sign-ins.json',
      'sessions.json',
    ]) {
      expect(files.get(name), name).toBe('[]\n');
    }
    expect(JSON.parse(files.get('account.json')!)).toMatchObject({
      billingAddress: null,
      notificationPreferences: { reminders: true, consentChanges: true },
      // every account has the emailed code; the authenticator app is the customer's choice
      secondFactor: {
        emailedCode: true,
        authenticatorApp: null,
        passkeys: [],
        unusedRecoveryCodes: 0,
        appInvitationDismissedAt: null,
      },
      planPeriods: [],
      nominee: null,
      grievances: [],
      correctionRequests: [],
      privacyNoticeRead: null,
    });
    expect(files.get('README.txt')).toMatch(/^Your data, as the customer portal holds it\.\n/);
  });

  it('dates every file with the time the archive was made, not the time it was written', async () => {
    const customer = await createCustomer(t);
    const madeAt = new Date('2025-03-14T15:09:26.000Z');
    t.clock.set(madeAt);
    const times = await modifiedTimes(await archiveOf(customer.id));

    expect([...times.keys()].sort()).toEqual(ARCHIVE_TEXT_FILES);
    for (const [name, time] of times) expect(time, name).toEqual(madeAt);
  });
});

describe('account.json', () => {
  it('holds the profile, billing address, notification settings and plan periods, and no other column', async () => {
    const customer = await createCustomer(t);
    const now = t.clock.now();
    const address = {
      gstin: customer.gstNo,
      addressLine1: '14 Marine Drive',
      addressLine2: 'Floor 3',
      city: 'Mumbai',
      stateCode: '27',
      pin: '400020',
    };
    await t.deps.db
      .insert(billingDetails)
      .values({ customerId: customer.id, ...address, updatedAt: now });
    await t.deps.db
      .insert(notificationPreferences)
      .values({ customerId: customer.id, reminders: false, consentChanges: true, updatedAt: now });
    await dismissInvitation(t.deps, customer.id);
    const nominee = { name: 'Asha Rao', email: 'asha@example.test', relation: 'Spouse' };
    await t.deps.db
      .insert(nominees)
      .values({ customerId: customer.id, ...nominee, nominatedAt: now, updatedAt: now });
    const [plan] = await t.deps.db
      .insert(plans)
      .values({
        planName: `Gold ${randomUUID().slice(0, 8)}`,
        planType: 'Single',
        noOfCompany: 1,
        durationDays: 365,
        amountPaise: 9_000_00,
      })
      .returning();
    const period = (startsAt: string, endsAt: string) => ({
      orderId: randomUUID(),
      startsAt: new Date(startsAt),
      endsAt: new Date(endsAt),
    });
    const earlier = period('2025-04-01T00:00:00Z', '2026-04-01T00:00:00Z');
    const later = period('2026-04-01T00:00:00Z', '2027-04-01T00:00:00Z');
    // stored in the other order: the file lists them by when they start
    await t.deps.db
      .insert(customerPlans)
      .values([later, earlier].map((p) => ({ customerId: customer.id, planId: plan!.id, ...p })));

    await t.deps.db.insert(passkeys).values({
      customerId: customer.id,
      credentialId: randomUUID(),
      publicKey: 'pQECAyYgASFYIA',
      signCount: 0,
      transports: 'internal',
      backedUp: true,
      name: 'Work laptop',
      createdAt: now,
    });

    const files = await filesOf(customer.id);

    expect(JSON.parse(files.get('account.json')!)).toEqual(
      asJson({
        customer: {
          id: customer.id,
          email: customer.email,
          mobile: customer.mobile,
          gstNo: customer.gstNo,
          tallySerialNo: customer.tallySerialNo,
          companyName: customer.companyName,
          customerType: customer.customerType,
          category: customer.category,
          tallyVersion: customer.tallyVersion,
          passwordChangedAt: customer.passwordChangedAt,
          createdAt: customer.createdAt,
          updatedAt: customer.updatedAt,
        },
        billingAddress: { ...address, updatedAt: now },
        notificationPreferences: { reminders: false, consentChanges: true },
        secondFactor: {
          emailedCode: true,
          authenticatorApp: null,
          passkeys: [{ name: 'Work laptop', createdAt: now, lastUsedAt: null, synced: true }],
          unusedRecoveryCodes: 0,
          appInvitationDismissedAt: now,
        },
        planPeriods: [earlier, later].map((p) => ({ plan: plan!.planName, ...p })),
        nominee: { ...nominee, nominatedAt: now, updatedAt: now },
        grievances: [],
        correctionRequests: [],
        privacyNoticeRead: null,
      }),
    );
  });
});

describe('sign-ins.json', () => {
  // one event, a full batch (the next read finds none), and one past it (a second batch)
  it.each([1, SIGN_IN_BATCH, SIGN_IN_BATCH + 1])(
    'holds each of %i sign-ins once, in the order they happened, as one JSON array',
    async (count) => {
      const customer = await createCustomer(t);
      const signIns = await seedSignIns(customer.id, count);
      // another customer's, made meanwhile, are not in it
      await seedSignIns((await createCustomer(t)).id, 2);

      const text = (await filesOf(customer.id)).get('sign-ins.json')!;

      expect(text).toBe(arrayText(asJson(signIns) as unknown[]));
    },
  );
});
