import { and, eq, inArray, lte, ne, type SQL } from 'drizzle-orm';
import type { ActivityEventType, ActivityStatus, Consent, ConsentStatus } from '@portal/contract';
import { mapProviderStatus, type ProviderConsent } from '../../adapters/consent-provider';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import { enqueueMail } from '../mail/delivery';
import { findCustomerById } from '../users/service';
import { wantsNotice } from '../preferences/service';
import { partners } from '../partners/schema';
import { accessJoin, consentWithAccess } from './access';
import { forgetConsentDocument, WITHOUT_BANK_ACCESS } from './erasure';
import { bankFailure, readToken, toConsent, tokenColumns } from './rows';
import { consentAccesses, consents } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'files' | 'consents' | 'queue' | 'config'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const EVENT_BY_STATUS: Record<
  ConsentStatus,
  { type: ActivityEventType; title: string; status: ActivityStatus }
> = {
  Pending: { type: 'consent_requested', title: 'Consent requested', status: 'pending' },
  Approved: { type: 'consent_approved', title: 'Consent approved', status: 'success' },
  Rejected: { type: 'consent_rejected', title: 'Consent rejected', status: 'failed' },
  Expired: { type: 'consent_expired', title: 'Consent expired', status: 'failed' },
};

const activityStatusOf = (status: ConsentStatus): ActivityStatus => EVENT_BY_STATUS[status].status;

const withPartner = {
  row: consentWithAccess,
  partner: { name: partners.name, partnerId: partners.partnerId },
};

/** What storing an expiry needs: the clock, and the mail queue for the customer's notice. */
export type ExpiryDeps = Pick<AppDeps, 'clock' | 'queue' | 'consents' | 'config'>;

/**
 * Marks the customer's consents whose expiry time has passed as Expired, with their activity
 * events and a notice by mail for each. Safe to repeat and to race: a consent already Expired is
 * not touched again, so each expiry is told once.
 */
export async function expireDueConsents(db: Executor, deps: ExpiryDeps, customerId: string) {
  const now = deps.clock.now();
  const live = and(
    eq(consents.customerId, customerId),
    inArray(consents.status, ['Pending', 'Approved']),
    lte(consents.expiresAt, now),
  );
  const due = await db
    .select(withPartner)
    .from(consents)
    .innerJoin(partners, eq(partners.id, consents.partnerRef))
    .leftJoin(consentAccesses, accessJoin)
    .where(live);
  // Stryker disable next-line ConditionalExpression: it only spares an update that would move nothing
  if (due.length === 0) return 0;
  // the update decides: of two passes at once, only the rows it moved are this pass's to tell
  const expired = await db
    .update(consents)
    .set({ status: 'Expired', updatedAt: now })
    .where(live)
    .returning({ id: consents.id });
  const moved = new Set(expired.map((row) => row.id));
  for (const found of due.filter((candidate) => moved.has(candidate.row.id))) {
    await recordActivity(db, deps.clock, {
      customerId,
      type: 'consent_expired',
      title: 'Consent expired',
      description: `Consent ${found.row.consentId} reached its expiry time.`,
      status: 'failed',
      details: { consentId: found.row.consentId },
    });
    await queueStatusNotice(db, deps, customerId, found, 'Expired', now);
  }
  return expired.length;
}

/** One of the customer's current consents: a revoked one is only in the History view. */
async function findOwnConsent(db: Executor, customerId: string, where: SQL) {
  const [found] = await db
    .select(withPartner)
    .from(consents)
    .innerJoin(partners, eq(partners.id, consents.partnerRef))
    .leftJoin(consentAccesses, accessJoin)
    .where(and(eq(consents.customerId, customerId), ne(consents.status, 'Revoked'), where));
  return found ?? null;
}

/** The customer's consent by its record id; anything else, another's included, is a 404. */
export async function requireOwnConsent(db: Executor, customerId: string, id: string) {
  const found = UUID.test(id) ? await findOwnConsent(db, customerId, eq(consents.id, id)) : null;
  if (!found) throw new AppError('NOT_FOUND', 'Consent not found');
  return found;
}

/** Tells the customer by mail that the bank moved a consent to another status. */
async function queueStatusNotice(
  tx: Executor,
  deps: Pick<AppDeps, 'queue' | 'consents' | 'config'>,
  customerId: string,
  found: NonNullable<Awaited<ReturnType<typeof findOwnConsent>>>,
  status: ConsentStatus,
  at: Date,
) {
  const customer = await findCustomerById(tx, customerId);
  if (!customer || !(await wantsNotice(tx, customerId, 'consent-changes'))) return;
  await enqueueMail(tx, deps, {
    template: 'consent-status',
    to: customer.email,
    data: {
      at: at.toISOString(),
      consentId: found.row.consentId,
      partnerName: found.partner.name,
      previousStatus: found.row.status,
      status,
      companyName: customer.companyName,
    },
  });
}

/**
 * Asks the bank about one of the customer's consents, with the access token the portal holds,
 * and stores the answer. When the bank cannot be reached or answers nonsense, nothing changes.
 */
export async function refreshConsentStatus(
  deps: Deps,
  customerId: string,
  consentId: string,
): Promise<Consent> {
  const { db, clock } = deps;
  const { encryption, provider } = deps.consents;
  const found = await findOwnConsent(db, customerId, eq(consents.consentId, consentId));
  if (!found) throw new AppError('NOT_FOUND', 'Consent not found');
  const held = readToken(encryption, found.row.id, 'access', found.row.accessTokenEnc);

  let answer: ProviderConsent;
  try {
    answer = await provider.getConsent(found.row.consentId, { accessToken: held });
  } catch (error) {
    bankFailure(error, 'refresh');
  }

  const now = clock.now();
  const status = mapProviderStatus(answer, now);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(consents)
      .set({
        status,
        providerStatus: answer.status,
        providerStatusUpdatedAt: answer.statusUpdatedAt,
        providerCreatedAt: answer.createdAt,
        expiresAt: answer.expiresAt,
        ...tokenColumns(encryption, found.row.id, answer),
        updatedAt: now,
      })
      // a consent revoked while the bank was asked stays revoked
      .where(
        and(
          eq(consents.id, found.row.id),
          eq(consents.customerId, customerId),
          ne(consents.status, 'Revoked'),
        ),
      )
      .returning();
    if (!row) throw new AppError('NOT_FOUND', 'Consent not found');
    const changed = found.row.status !== status;
    const event = changed
      ? {
          ...EVENT_BY_STATUS[status],
          description: `The bank now reports consent ${row.consentId} as ${status}.`,
        }
      : {
          type: 'consent_refreshed' as const,
          title: 'Consent status refreshed',
          status: activityStatusOf(status),
          description: `Consent ${row.consentId} is still ${status}.`,
        };
    await recordActivity(tx, clock, {
      customerId,
      ...event,
      details: { consentId: row.consentId },
    });
    if (changed) await queueStatusNotice(tx, deps, customerId, found, status, now);
    return toConsent(
      { ...row, lastAccessedAt: found.row.lastAccessedAt, readsMade: found.row.readsMade },
      found.partner,
      encryption,
    );
  });
}

/**
 * Revokes at the bank first, then marks it Revoked: it leaves the list for the History view, its
 * tokens and document go. If the bank cannot be reached the consent stays as it was, so that a
 * customer never believes a consent gone that the bank still honours.
 */
export async function deleteConsent(deps: Deps, customerId: string, id: string): Promise<void> {
  const { db, clock, files } = deps;
  const found = await requireOwnConsent(db, customerId, id);
  try {
    await deps.consents.provider.revokeConsent(found.row.consentId);
  } catch (error) {
    bankFailure(error, 'revoke');
  }
  const now = clock.now();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(consents)
      .set({
        status: 'Revoked',
        revokedAt: now,
        ...WITHOUT_BANK_ACCESS,
        updatedAt: now,
      })
      .where(
        and(
          eq(consents.id, id),
          eq(consents.customerId, customerId),
          ne(consents.status, 'Revoked'),
        ),
      )
      .returning();
    if (!row) throw new AppError('NOT_FOUND', 'Consent not found');
    await recordActivity(tx, clock, {
      customerId,
      type: 'consent_deleted',
      title: 'Consent deleted',
      description: `Consent ${row.consentId} of ${found.partner.name} was deleted: the partner can no longer read your bank data.`,
      status: 'success',
      details: { consentId: row.consentId },
    });
  });
  // after the commit (a file cannot roll back): the key goes with the file, and stays for another
  // try when the store fails, as closing the account makes
  const key = found.row.documentKey;
  if (key)
    await files.remove(key).then(
      () => forgetConsentDocument(db, id, key),
      () => undefined,
    );
}
