import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, lte, type SQL } from 'drizzle-orm';
import {
  DEFAULT_CONSENT_PERMISSIONS,
  PARTNER_DOCUMENT_MAX_BYTES,
  type ActivityEventType,
  type ActivityStatus,
  type Consent,
  type ConsentStatus,
  type PartnerConsent,
  type PartnerConsentRequest,
  type Pagination,
} from '@portal/contract';
import {
  ConsentProviderError,
  mapProviderStatus,
  type ProviderConsent,
} from '../../adapters/consent-provider';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { DecryptionError, type Encryption } from '../../lib/encryption';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import { partners, type Partner } from '../partners/schema';
import { findCustomerByEmail, findCustomerById } from '../users/service';
import { consents, type ConsentRow } from './schema';
import { sniffDocumentType } from './document';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'files' | 'consents'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Binds an encrypted token to its row and field. */
export const tokenAad = (rowId: string, field: 'access' | 'refresh') => `consent:${rowId}:${field}`;
const aad = tokenAad;

function readToken(
  encryption: Encryption,
  rowId: string,
  field: 'access' | 'refresh',
  value: string | null,
) {
  if (!value) return null;
  try {
    return encryption.decrypt(value, aad(rowId, field));
  } catch (error) {
    // an altered or foreign value is shown as absent, never as garbage
    if (error instanceof DecryptionError) return null;
    throw error;
  }
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A stored consent as the customer API answers it (spec §3 Consent). */
export function toConsent(
  row: ConsentRow,
  partner: Pick<Partner, 'name' | 'partnerId'>,
  encryption: Encryption,
): Consent {
  return {
    _id: row.id,
    consentId: row.consentId,
    consentStatus: row.status as ConsentStatus,
    partnerName: partner.name,
    partnerId: partner.partnerId,
    documentUploaded: row.documentKey ? 'Y' : 'N',
    apiList: row.permissions,
    netBankingUserId: row.netBankingUserId,
    accessToken: readToken(encryption, row.id, 'access', row.accessTokenEnc),
    accessTokenExpiresAt: iso(row.accessTokenExpiresAt),
    refreshToken: readToken(encryption, row.id, 'refresh', row.refreshTokenEnc),
    refreshTokenExpiresAt: iso(row.refreshTokenExpiresAt),
    createdAt: row.createdAt.toISOString(),
    consentCreationDate: iso(row.providerCreatedAt),
    lastUpdated: row.updatedAt.toISOString(),
  };
}

function toPartnerConsent(row: ConsentRow, partner: Pick<Partner, 'partnerId'>): PartnerConsent {
  return {
    consentId: row.consentId,
    consentStatus: row.status as ConsentStatus,
    customerId: row.customerId,
    partnerId: partner.partnerId,
    apiList: row.permissions,
    documentUploaded: row.documentKey ? 'Y' : 'N',
    expirationDateTime: iso(row.expiresAt),
    createdAt: row.createdAt.toISOString(),
    lastUpdated: row.updatedAt.toISOString(),
  };
}

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

/**
 * Marks the customer's consents whose expiry time has passed as Expired, with their activity
 * events. Safe to repeat: a consent already Expired is not touched again.
 */
export async function expireDueConsents(db: Executor, clock: Clock, customerId: string) {
  const now = clock.now();
  const expired = await db
    .update(consents)
    .set({ status: 'Expired', updatedAt: now })
    .where(
      and(
        eq(consents.customerId, customerId),
        inArray(consents.status, ['Pending', 'Approved']),
        lte(consents.expiresAt, now),
      ),
    )
    .returning({ id: consents.id, consentId: consents.consentId });
  for (const row of expired) {
    await recordActivity(db, clock, {
      customerId,
      type: 'consent_expired',
      title: 'Consent expired',
      description: `Consent ${row.consentId} reached its expiry time.`,
      status: 'failed',
      details: { consentId: row.consentId },
    });
  }
  return expired.length;
}

const withPartner = {
  row: consents,
  partner: { name: partners.name, partnerId: partners.partnerId },
};

/** Every consent of the customer, newest first (the screen's count tiles). */
export async function listAllConsents(deps: Deps, customerId: string): Promise<Consent[]> {
  const { db, clock } = deps;
  await db.transaction((tx) => expireDueConsents(tx, clock, customerId));
  const rows = await db
    .select(withPartner)
    .from(consents)
    .innerJoin(partners, eq(partners.id, consents.partnerRef))
    .where(eq(consents.customerId, customerId))
    .orderBy(desc(consents.createdAt), desc(consents.id));
  return rows.map(({ row, partner }) => toConsent(row, partner, deps.consents.encryption));
}

/** One page of the customer's consents; a page past the end is empty, not an error. */
export async function listConsentPage(
  deps: Deps,
  customerId: string,
  query: { page: number; limit: number; status?: ConsentStatus },
): Promise<{ data: Consent[]; pagination: Pagination }> {
  const { db, clock } = deps;
  await db.transaction((tx) => expireDueConsents(tx, clock, customerId));
  const conditions: SQL[] = [eq(consents.customerId, customerId)];
  if (query.status) conditions.push(eq(consents.status, query.status));
  const where = and(...conditions);
  const [totalRow] = await db.select({ n: count() }).from(consents).where(where);
  const total = totalRow?.n ?? 0;
  const rows = await db
    .select(withPartner)
    .from(consents)
    .innerJoin(partners, eq(partners.id, consents.partnerRef))
    .where(where)
    .orderBy(desc(consents.createdAt), desc(consents.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return {
    data: rows.map(({ row, partner }) => toConsent(row, partner, deps.consents.encryption)),
    pagination: {
      total,
      page: query.page,
      limit: query.limit,
      total_pages: Math.ceil(total / query.limit),
    },
  };
}

async function findOwnConsent(db: Executor, customerId: string, where: SQL) {
  const [found] = await db
    .select(withPartner)
    .from(consents)
    .innerJoin(partners, eq(partners.id, consents.partnerRef))
    .where(and(eq(consents.customerId, customerId), where));
  return found ?? null;
}

function bankFailure(error: unknown, action: 'refresh' | 'revoke' | 'create'): never {
  if (!(error instanceof ConsentProviderError)) throw error;
  const nothing =
    action === 'revoke'
      ? 'Nothing was deleted'
      : action === 'create'
        ? 'No consent was created'
        : 'Nothing was changed';
  const messages: Record<ConsentProviderError['kind'], string> = {
    unreachable: `The bank could not be reached. ${nothing}; please try again later.`,
    invalid_response: `The bank sent an answer that could not be read. ${nothing}; please try again later.`,
    refused: `The bank refused the request. ${nothing}.`,
    not_found: `The bank does not know this consent. ${nothing}.`,
  };
  throw new AppError('BAD_GATEWAY', messages[error.kind]);
}

function tokenColumns(encryption: Encryption, rowId: string, answer: ProviderConsent) {
  const tokens = answer.tokens;
  return {
    accessTokenEnc: tokens ? encryption.encrypt(tokens.accessToken, aad(rowId, 'access')) : null,
    accessTokenExpiresAt: tokens?.accessTokenExpiresAt ?? null,
    refreshTokenEnc: tokens ? encryption.encrypt(tokens.refreshToken, aad(rowId, 'refresh')) : null,
    refreshTokenExpiresAt: tokens?.refreshTokenExpiresAt ?? null,
  };
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
      .where(and(eq(consents.id, found.row.id), eq(consents.customerId, customerId)))
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
    return toConsent(row, found.partner, encryption);
  });
}

/**
 * Revokes at the bank first, then removes. If the bank cannot be reached the consent stays,
 * so that a customer never believes a consent gone that the bank still honours.
 */
export async function deleteConsent(deps: Deps, customerId: string, id: string): Promise<void> {
  const { db, clock, files } = deps;
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Consent not found');
  const found = await findOwnConsent(db, customerId, eq(consents.id, id));
  if (!found) throw new AppError('NOT_FOUND', 'Consent not found');
  try {
    await deps.consents.provider.revokeConsent(found.row.consentId);
  } catch (error) {
    bankFailure(error, 'revoke');
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(consents)
      .where(and(eq(consents.id, id), eq(consents.customerId, customerId)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', 'Consent not found');
    await recordActivity(tx, clock, {
      customerId,
      type: 'consent_deleted',
      title: 'Consent deleted',
      description: `Consent ${row.consentId} of ${found.partner.name} was revoked and deleted.`,
      status: 'success',
      details: { consentId: row.consentId },
    });
  });
  if (found.row.documentKey) await files.remove(found.row.documentKey).catch(() => undefined);
}

async function existingRequest(db: Executor, partner: Partner, requestId: string | undefined) {
  if (!requestId) return null;
  const [row] = await db
    .select()
    .from(consents)
    .where(and(eq(consents.partnerRef, partner.id), eq(consents.partnerRequestId, requestId)));
  return row ?? null;
}

/**
 * A partner asks for a consent for a customer: the bank creates it, the portal stores it
 * Pending. The same requestId again returns the consent made the first time.
 */
export async function requestConsent(
  deps: Deps,
  partner: Partner,
  input: PartnerConsentRequest,
): Promise<{ consent: PartnerConsent; created: boolean }> {
  const { db, clock, files } = deps;
  const { encryption, provider } = deps.consents;
  const replay = await existingRequest(db, partner, input.requestId);
  if (replay) return { consent: toPartnerConsent(replay, partner), created: false };

  const customer = input.customerId
    ? await findCustomerById(db, input.customerId)
    : await findCustomerByEmail(db, input.customerEmail ?? '');
  if (!customer) throw new AppError('NOT_FOUND', 'Customer not found');

  const now = clock.now();
  const expiresAt = input.expirationDateTime ? new Date(input.expirationDateTime) : undefined;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new AppError('BAD_REQUEST', 'expirationDateTime must be in the future');
  }

  let document: { data: Buffer; extension: string } | null = null;
  if (input.document) {
    const data = Buffer.from(input.document.contentBase64, 'base64');
    if (data.length === 0) throw new AppError('BAD_REQUEST', 'document is empty');
    if (data.length > PARTNER_DOCUMENT_MAX_BYTES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `document must be at most ${PARTNER_DOCUMENT_MAX_BYTES / (1024 * 1024)} MB`,
      );
    }
    const type = sniffDocumentType(data);
    if (!type)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'document must be a PDF, PNG or JPEG file');
    document = { data, extension: type };
  }

  const permissions = [...new Set(input.permissions ?? DEFAULT_CONSENT_PERMISSIONS)];
  let answer: ProviderConsent;
  try {
    answer = await provider.createConsent({ permissions, expiresAt });
  } catch (error) {
    bankFailure(error, 'create');
  }

  const rowId = randomUUID();
  const documentKey = document ? `consents/${rowId}/document.${document.extension}` : null;
  if (document && documentKey) await files.put(documentKey, document.data);
  try {
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(consents)
        .values({
          id: rowId,
          customerId: customer.id,
          partnerRef: partner.id,
          consentId: answer.consentId,
          status: mapProviderStatus(answer, now),
          providerStatus: answer.status,
          permissions: answer.permissions.length > 0 ? answer.permissions : permissions,
          netBankingUserId: input.netBankingUserId ?? null,
          documentKey,
          ...tokenColumns(encryption, rowId, answer),
          expiresAt: answer.expiresAt,
          providerCreatedAt: answer.createdAt,
          providerStatusUpdatedAt: answer.statusUpdatedAt,
          partnerRequestId: input.requestId ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await recordActivity(tx, clock, {
        customerId: customer.id,
        type: 'consent_requested',
        title: 'Consent requested',
        description: `${partner.name} asked your bank for access to your account data.`,
        status: 'pending',
        details: { consentId: answer.consentId, partnerId: partner.partnerId },
      });
      return inserted!;
    });
    return { consent: toPartnerConsent(row, partner), created: true };
  } catch (error) {
    // the bank's consent is withdrawn again, so no orphan waits there for authorisation
    await provider.revokeConsent(answer.consentId).catch(() => undefined);
    if (documentKey) await files.remove(documentKey).catch(() => undefined);
    const raced = await existingRequest(db, partner, input.requestId);
    if (raced) return { consent: toPartnerConsent(raced, partner), created: false };
    throw error;
  }
}

/** One consent of this partner's; another partner's is as unknown as a missing one. */
export async function getPartnerConsent(
  deps: Deps,
  partner: Partner,
  consentId: string,
): Promise<PartnerConsent> {
  const { db, clock } = deps;
  const find = async () => {
    const [row] = await db
      .select()
      .from(consents)
      .where(and(eq(consents.consentId, consentId), eq(consents.partnerRef, partner.id)));
    return row ?? null;
  };
  const row = await find();
  if (!row) throw new AppError('NOT_FOUND', 'Consent not found');
  if (
    row.expiresAt &&
    row.expiresAt <= clock.now() &&
    (row.status === 'Pending' || row.status === 'Approved')
  ) {
    await db.transaction((tx) => expireDueConsents(tx, clock, row.customerId));
    const updated = await find();
    if (!updated) throw new AppError('NOT_FOUND', 'Consent not found');
    return toPartnerConsent(updated, partner);
  }
  return toPartnerConsent(row, partner);
}
