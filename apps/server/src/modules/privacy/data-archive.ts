import { Readable } from 'node:stream';
import { asc, count, eq, gt, and, isNull } from 'drizzle-orm';
import yazl from 'yazl';
import type { AppDeps } from '../../deps';
import type { Database } from '../../db/client';
import { sessions } from '../auth/schema';
import { passkeys } from '../passkeys/schema';
import { describeDevice } from '../auth/browsers';
import { billingDetails } from '../billing/schema';
import { consentAccesses, consents } from '../consents/schema';
import { activityBatches, keysetBatches, microseconds, type ExportWindow } from '../exports/reads';
import { addDocumentPdfs, endedArchive, pdfEntryName } from '../exports/service';
import { invoicesInRange, type TaxDocument } from '../invoices/reads';
import { orders } from '../purchases/schema';
import { partners } from '../partners/schema';
import { customerPlans, plans } from '../plans/schema';
import { notificationPreferences } from '../preferences/schema';
import { sessionDevices, signInEvents } from '../security/schema';
import {
  secondFactorInvitations,
  twoFactorApps,
  twoFactorRecoveryCodes,
} from '../two-factor/schema';
import { customers } from '../users/schema';
import { correctionRequests, grievances, nominees, privacyNoticeReads } from './schema';

type Deps = Pick<AppDeps, 'db' | 'files' | 'clock'>;

/** Every row of a customer, whenever it was made. */
const allTime = (customerId: string): ExportWindow => ({
  customerId,
  from: new Date(0),
  to: new Date(Date.UTC(9999, 0, 1)),
});

/**
 * What each file holds. Secrets are never read (columns are named one by one): no password or
 * code hash, no authenticator secret, no token of a session, a link or a consent.
 */
const README = `Your data, as the customer portal holds it.

account.json    your profile, billing address, notification settings, second-factor status
                (never its secret) and the plan periods you bought
orders.json     every order, with the billing details it was placed with
invoices.json   every tax invoice and credit note, with its amounts and GST split
consents.json   every banking consent: partner, purpose, permissions, accounts, period,
                expiry, and when the partner last read your data
activity.json   the activity list of the portal
sign-ins.json   every sign-in attempt kept: when, the outcome, the browser and the address
sessions.json   every session kept: when it started, was last used and ended, and from where
invoices/       the PDF of each tax invoice
credit-notes/   the PDF of each credit note

Dates are UTC (ISO 8601); amounts are in paise (1 rupee = 100 paise).
Passwords, codes and tokens are not included: the portal keeps only their hashes, or
keeps them encrypted for the bank, and gives neither out.
`;

/** A JSON array written as its rows arrive, batch by batch: memory holds one batch. */
async function* jsonArray<Row>(
  batches: AsyncIterable<Row[]>,
  shape: (row: Row) => unknown,
): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const batch of batches) {
    const items = batch.map((row) => JSON.stringify(shape(row), null, 2));
    yield (first ? '\n' : ',\n') + items.join(',\n');
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/** All the rows as one batch; none, no batch, so the array is written `[]` as the others are. */
async function* once<Row>(rows: Promise<Row[]>): AsyncGenerator<Row[]> {
  const all = await rows;
  if (all.length > 0) yield all;
}

async function account(db: Database, customerId: string) {
  const [customer] = await db
    .select({
      id: customers.id,
      email: customers.email,
      mobile: customers.mobile,
      gstNo: customers.gstNo,
      tallySerialNo: customers.tallySerialNo,
      companyName: customers.companyName,
      customerType: customers.customerType,
      category: customers.category,
      tallyVersion: customers.tallyVersion,
      passwordChangedAt: customers.passwordChangedAt,
      createdAt: customers.createdAt,
      updatedAt: customers.updatedAt,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  const [billingAddress] = await db
    .select({
      gstin: billingDetails.gstin,
      addressLine1: billingDetails.addressLine1,
      addressLine2: billingDetails.addressLine2,
      city: billingDetails.city,
      stateCode: billingDetails.stateCode,
      pin: billingDetails.pin,
      updatedAt: billingDetails.updatedAt,
    })
    .from(billingDetails)
    .where(eq(billingDetails.customerId, customerId));
  const [preferences] = await db
    .select({
      reminders: notificationPreferences.reminders,
      consentChanges: notificationPreferences.consentChanges,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.customerId, customerId));
  const [app] = await db
    .select({ enabledAt: twoFactorApps.enabledAt, createdAt: twoFactorApps.createdAt })
    .from(twoFactorApps)
    .where(eq(twoFactorApps.customerId, customerId));
  const keys = await db
    .select({
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      synced: passkeys.backedUp,
    })
    .from(passkeys)
    .where(eq(passkeys.customerId, customerId))
    .orderBy(asc(passkeys.createdAt));
  const [nominee] = await db
    .select({
      name: nominees.name,
      email: nominees.email,
      relation: nominees.relation,
      nominatedAt: nominees.nominatedAt,
      updatedAt: nominees.updatedAt,
    })
    .from(nominees)
    .where(eq(nominees.customerId, customerId));
  const recordedGrievances = await db
    .select({
      reference: grievances.reference,
      topic: grievances.topic,
      message: grievances.message,
      submittedAt: grievances.submittedAt,
      respondBy: grievances.respondBy,
      answeredAt: grievances.answeredAt,
      answer: grievances.answer,
    })
    .from(grievances)
    .where(eq(grievances.customerId, customerId))
    .orderBy(asc(grievances.submittedAt));
  const corrections = await db
    .select({
      reference: correctionRequests.reference,
      field: correctionRequests.field,
      currentValue: correctionRequests.currentValue,
      requestedValue: correctionRequests.requestedValue,
      reason: correctionRequests.reason,
      submittedAt: correctionRequests.submittedAt,
      respondBy: correctionRequests.respondBy,
      decidedAt: correctionRequests.decidedAt,
      outcome: correctionRequests.outcome,
      note: correctionRequests.note,
    })
    .from(correctionRequests)
    .where(eq(correctionRequests.customerId, customerId))
    .orderBy(asc(correctionRequests.submittedAt));
  const [noticeRead] = await db
    .select({ version: privacyNoticeReads.version, readAt: privacyNoticeReads.readAt })
    .from(privacyNoticeReads)
    .where(eq(privacyNoticeReads.customerId, customerId));
  const [invitation] = await db
    .select({ dismissedAt: secondFactorInvitations.dismissedAt })
    .from(secondFactorInvitations)
    .where(eq(secondFactorInvitations.customerId, customerId));
  const [recovery] = await db
    .select({ left: count() })
    .from(twoFactorRecoveryCodes)
    .where(
      and(eq(twoFactorRecoveryCodes.customerId, customerId), isNull(twoFactorRecoveryCodes.usedAt)),
    );
  const periods = await db
    .select({
      plan: plans.planName,
      orderId: customerPlans.orderId,
      startsAt: customerPlans.startsAt,
      endsAt: customerPlans.endsAt,
    })
    .from(customerPlans)
    .innerJoin(plans, eq(plans.id, customerPlans.planId))
    .where(eq(customerPlans.customerId, customerId))
    .orderBy(asc(customerPlans.startsAt));
  return {
    customer: customer ?? null,
    billingAddress: billingAddress ?? null,
    // no row: both switches as they start, on
    notificationPreferences: preferences ?? { reminders: true, consentChanges: true },
    secondFactor: {
      emailedCode: true,
      authenticatorApp: app?.enabledAt ? { enabledAt: app.enabledAt } : null,
      // each passkey's name and dates; its key is public and of no use to the customer
      passkeys: keys,
      unusedRecoveryCodes: recovery?.left ?? 0,
      // when the dashboard's invitation to add the app was turned down; null while it is shown
      appInvitationDismissedAt: invitation?.dismissedAt ?? null,
    },
    planPeriods: periods,
    // the person named to exercise these rights on the customer's death or incapacity
    nominee: nominee ?? null,
    grievances: recordedGrievances,
    correctionRequests: corrections,
    // the version of the privacy notice last read, and when
    privacyNoticeRead: noticeRead ?? null,
  };
}

const orderBatches = (db: Database, window: ExportWindow) =>
  keysetBatches(window, orders, (where, orderBy, limit) =>
    db
      .select({
        at: microseconds(orders.createdAt),
        id: orders.id,
        plan: plans.planName,
        status: orders.status,
        basePaise: orders.basePaise,
        gstPaise: orders.gstPaise,
        handlingPaise: orders.handlingPaise,
        totalPaise: orders.totalPaise,
        cgstPaise: orders.cgstPaise,
        sgstPaise: orders.sgstPaise,
        igstPaise: orders.igstPaise,
        gatewayPaymentId: orders.gatewayPaymentId,
        customerName: orders.customerName,
        customerEmail: orders.customerEmail,
        customerPhone: orders.customerPhone,
        billingGstin: orders.billingGstin,
        billingCity: orders.billingCity,
        billingStateCode: orders.billingStateCode,
        billingPin: orders.billingPin,
        placeOfSupply: orders.placeOfSupply,
        paidAt: orders.paidAt,
        createdAt: orders.createdAt,
        updatedAt: orders.updatedAt,
      })
      .from(orders)
      .innerJoin(plans, eq(plans.id, orders.planId))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );

const consentBatches = (db: Database, window: ExportWindow) =>
  keysetBatches(window, consents, (where, orderBy, limit) =>
    db
      .select({
        at: microseconds(consents.createdAt),
        id: consents.id,
        consentId: consents.consentId,
        partner: partners.name,
        partnerId: partners.partnerId,
        status: consents.status,
        bankStatus: consents.providerStatus,
        purpose: consents.purpose,
        permissions: consents.permissions,
        accounts: consents.accounts,
        netBankingUserId: consents.netBankingUserId,
        transactionFrom: consents.transactionFrom,
        transactionTo: consents.transactionTo,
        fetchesPerDay: consents.fetchesPerDay,
        expiresAt: consents.expiresAt,
        lastAccessedAt: consentAccesses.lastAccessedAt,
        revokedAt: consents.revokedAt,
        createdAt: consents.createdAt,
        updatedAt: consents.updatedAt,
      })
      .from(consents)
      .innerJoin(partners, eq(partners.id, consents.partnerRef))
      .leftJoin(consentAccesses, eq(consentAccesses.consentRef, consents.id))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );

export const SIGN_IN_BATCH = 500;

/** Sign-in events by their ascending id, a batch at a time. */
async function* signInBatches(db: Database, customerId: string) {
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: signInEvents.id,
        at: signInEvents.at,
        outcome: signInEvents.outcome,
        userAgent: signInEvents.userAgent,
        ip: signInEvents.ip,
      })
      .from(signInEvents)
      .where(and(eq(signInEvents.customerId, customerId), gt(signInEvents.id, after)))
      .orderBy(asc(signInEvents.id))
      .limit(SIGN_IN_BATCH);
    if (rows.length > 0) yield rows;
    if (rows.length < SIGN_IN_BATCH) return;
    after = rows.at(-1)!.id;
  }
}

const sessionRows = (db: Database, customerId: string) =>
  db
    .select({
      startedAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      rememberMe: sessions.rememberMe,
      endedAt: sessions.revokedAt,
      endedBecause: sessions.revokedReason,
      userAgent: sessionDevices.userAgent,
      ip: sessionDevices.ip,
    })
    .from(sessions)
    .leftJoin(sessionDevices, eq(sessionDevices.sessionId, sessions.id))
    .where(eq(sessions.customerId, customerId))
    .orderBy(asc(sessions.createdAt));

const documentJson = ({ fileKey: _where, ...document }: TaxDocument) => ({
  ...document,
  pdf: pdfEntryName(document),
});

/**
 * The ZIP of everything the portal holds about the customer, as a stream: each JSON file is
 * written batch by batch, and each PDF read from the store only when the archive reaches it.
 */
export async function customerDataArchive(deps: Deps, customerId: string): Promise<Readable> {
  const { db } = deps;
  const window = allTime(customerId);
  const documents = await invoicesInRange(db, customerId, window.from, window.to);
  const mtime = deps.clock.now();
  const zip = new yazl.ZipFile();
  const text = (name: string, content: AsyncIterable<string> | string) =>
    // Readable.from pushes a string whole, as one chunk
    zip.addReadStream(Readable.from(content), name, { mtime });

  text('README.txt', README);
  text('account.json', `${JSON.stringify(await account(db, customerId), null, 2)}\n`);
  text(
    'orders.json',
    jsonArray(orderBatches(db, window), ({ at: _key, ...row }) => row),
  );
  text('invoices.json', `${JSON.stringify(documents.map(documentJson), null, 2)}\n`);
  text(
    'consents.json',
    jsonArray(consentBatches(db, window), ({ at: _key, ...row }) => row),
  );
  text(
    'activity.json',
    jsonArray(activityBatches(db, window), ({ at: _key, ...row }) => row),
  );
  text(
    'sign-ins.json',
    jsonArray(signInBatches(db, customerId), ({ id: _id, ...row }) => ({
      ...row,
      browser: describeDevice(row.userAgent).browser,
    })),
  );
  text(
    'sessions.json',
    jsonArray(once(sessionRows(db, customerId)), (row) => ({
      ...row,
      browser: row.userAgent ? describeDevice(row.userAgent).browser : null,
    })),
  );
  addDocumentPdfs(zip, deps.files, documents);
  return endedArchive(zip);
}
