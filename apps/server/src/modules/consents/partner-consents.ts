import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import {
  ACCOUNT_NUMBER,
  DEFAULT_CONSENT_PERMISSIONS,
  DEFAULT_FETCHES_PER_DAY,
  maskAccountNumber,
  PARTNER_DOCUMENT_MAX_BYTES,
  type PartnerConsent,
  type PartnerConsentRequest,
} from '@portal/contract';
import { mapProviderStatus, type ProviderConsent } from '../../adapters/consent-provider';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import type { Partner } from '../partners/schema';
import { findCustomerByEmail, findCustomerById, isClosedCustomer } from '../users/service';
import { expireDueConsents } from './customer-consents';
import { sniffDocumentType } from './document';
import { accessJoin, consentWithAccess, findPartnerConsent } from './access';
import { bankFailure, toPartnerConsent, tokenColumns } from './rows';
import { consentAccesses, consents } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'files' | 'consents' | 'queue' | 'config'>;

async function existingRequest(db: Executor, partner: Partner, requestId: string | undefined) {
  if (!requestId) return null;
  const [row] = await db
    .select(consentWithAccess)
    .from(consents)
    .leftJoin(consentAccesses, accessJoin)
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
  if (!customer || isClosedCustomer(customer)) {
    throw new AppError('NOT_FOUND', 'Customer not found');
  }

  const now = clock.now();
  const expiresAt = input.expirationDateTime ? new Date(input.expirationDateTime) : undefined;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new AppError('BAD_REQUEST', 'expirationDateTime must be in the future');
  }
  const transactionFrom = input.transactionFromDateTime
    ? new Date(input.transactionFromDateTime)
    : null;
  const transactionTo = input.transactionToDateTime ? new Date(input.transactionToDateTime) : null;
  if (transactionFrom && transactionTo && transactionFrom >= transactionTo) {
    throw new AppError(
      'BAD_REQUEST',
      'transactionFromDateTime must be before transactionToDateTime',
    );
  }
  if (expiresAt && transactionFrom && transactionFrom >= expiresAt) {
    throw new AppError('BAD_REQUEST', 'transactionFromDateTime must be before expirationDateTime');
  }
  if (input.accountNumbers?.some((number) => !ACCOUNT_NUMBER.test(number))) {
    throw new AppError(
      'BAD_REQUEST',
      'accountNumbers must each be an account number of 9 to 18 digits',
    );
  }
  const replaced = input.replacesConsentId
    ? await findPartnerConsent(db, partner, input.replacesConsentId)
    : null;
  if (input.replacesConsentId && replaced?.customerId !== customer.id) {
    throw new AppError('NOT_FOUND', 'replacesConsentId names no consent of this customer');
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
    answer = await provider.createConsent({
      permissions,
      expiresAt,
      transactionFrom,
      transactionTo,
      purpose: input.purpose,
      fetchesPerDay: input.fetchesPerDay ?? DEFAULT_FETCHES_PER_DAY,
      dataLifeDays: input.dataLifeDays,
    });
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
          // the terms as the bank holds them, where it says; a bank that does not echo one
          // holds what was sent
          purpose: answer.purpose ?? input.purpose ?? null,
          transactionFrom: answer.transactionFrom ?? transactionFrom,
          transactionTo: answer.transactionTo ?? transactionTo,
          fetchesPerDay: answer.fetchesPerDay ?? input.fetchesPerDay ?? DEFAULT_FETCHES_PER_DAY,
          dataLifeDays: answer.dataLifeDays ?? input.dataLifeDays ?? null,
          // only the last four digits are ever stored: the full number never leaves the request
          accounts: [...new Set((input.accountNumbers ?? []).map(maskAccountNumber))],
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
      // the customer's reconnect request is answered by this consent
      if (replaced) {
        await tx
          .update(consents)
          .set({ reconnectRequestedAt: null })
          .where(eq(consents.id, replaced.id));
      }
      return { ...inserted!, lastAccessedAt: null, readsMade: 0 };
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
  const find = () => findPartnerConsent(db, partner, consentId);
  const row = await find();
  if (!row) throw new AppError('NOT_FOUND', 'Consent not found');
  if (
    row.expiresAt &&
    row.expiresAt <= clock.now() &&
    (row.status === 'Pending' || row.status === 'Approved')
  ) {
    await db.transaction((tx) => expireDueConsents(tx, deps, row.customerId));
    const updated = await find();
    if (!updated) throw new AppError('NOT_FOUND', 'Consent not found');
    return toPartnerConsent(updated, partner);
  }
  return toPartnerConsent(row, partner);
}

/** Reconnect requests a partner lists at once, oldest first; answering one takes it off. */
export const RECONNECT_REQUESTS_LIMIT = 100;

/** The partner's consents whose customers asked for a fresh one (decision 041), oldest first. */
export async function listReconnectRequests(
  deps: Pick<AppDeps, 'db'>,
  partner: Partner,
): Promise<PartnerConsent[]> {
  const rows = await deps.db
    .select(consentWithAccess)
    .from(consents)
    .leftJoin(consentAccesses, accessJoin)
    .where(
      and(
        eq(consents.partnerRef, partner.id),
        isNotNull(consents.reconnectRequestedAt),
        ne(consents.status, 'Revoked'),
      ),
    )
    .orderBy(asc(consents.reconnectRequestedAt), asc(consents.id))
    .limit(RECONNECT_REQUESTS_LIMIT);
  return rows.map((row) => toPartnerConsent(row, partner));
}
