// The stored consent as the customer and the partner APIs answer it, and the token and bank-failure
// rules that both share.
import type { Consent, ConsentStatus, PartnerConsent, PastConsent } from '@portal/contract';
import { ConsentProviderError, type ProviderConsent } from '../../adapters/consent-provider';
import { DecryptionError, type Encryption } from '../../lib/encryption';
import { AppError } from '../../lib/errors';
import type { Partner } from '../partners/schema';
import type { ConsentRow } from './schema';

/** Binds an encrypted token to its row and field. */
export const tokenAad = (rowId: string, field: 'access' | 'refresh') => `consent:${rowId}:${field}`;
const aad = tokenAad;

export function readToken(
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

/**
 * An instant as the driver reads it, or already as the text `Date.prototype.toISOString` writes,
 * as a page read in JSON gives it (docs/decisions/053-the-consents-page-as-one-json-value.md).
 */
type Instant = Date | string;

function iso(instant: Instant): string;
function iso(instant: Instant | null): string | null;
function iso(instant: Instant | null) {
  return instant === null || typeof instant === 'string' ? instant : instant.toISOString();
}

/** A stored consent with when its partner last read data under it (consent_accesses). */
export type ConsentWithAccess = ConsentRow & { lastAccessedAt: Date | null; readsMade: number };

/** What the customer's answers read of a consent; its instants may be ISO text. */
export type ShownConsent = {
  [K in ShownField]: ConsentWithAccess[K] extends Date
    ? Instant
    : ConsentWithAccess[K] extends Date | null
      ? Instant | null
      : ConsentWithAccess[K];
};
type ShownField =
  | 'id'
  | 'consentId'
  | 'status'
  | 'permissions'
  | 'netBankingUserId'
  | 'documentKey'
  | 'accessTokenEnc'
  | 'accessTokenExpiresAt'
  | 'refreshTokenEnc'
  | 'refreshTokenExpiresAt'
  | 'expiresAt'
  | 'providerCreatedAt'
  | 'createdAt'
  | 'updatedAt'
  | 'purpose'
  | 'transactionFrom'
  | 'transactionTo'
  | 'fetchesPerDay'
  | 'dataLifeDays'
  | 'readsMade'
  | 'providerStatus'
  | 'providerStatusUpdatedAt'
  | 'accounts'
  | 'lastAccessedAt'
  | 'reconnectRequestedAt'
  | 'revokedAt';

/** Since when the customer has paused an approved consent; null when it is not paused. */
const pausedAt = (row: ShownConsent) =>
  row.status === 'Approved' && row.providerStatus === 'Paused'
    ? iso(row.providerStatusUpdatedAt)
    : null;

/** What both APIs show of the consent's terms and its partner's reads. */
function terms(row: ShownConsent) {
  return {
    purpose: row.purpose,
    transactionFromDateTime: iso(row.transactionFrom),
    transactionToDateTime: iso(row.transactionTo),
    fetchesPerDay: row.fetchesPerDay,
    dataLifeDays: row.dataLifeDays,
    readsMade: row.readsMade,
    pausedAt: pausedAt(row),
    expirationDateTime: iso(row.expiresAt),
    accounts: row.accounts,
    lastAccessedAt: iso(row.lastAccessedAt),
    reconnectRequestedAt: iso(row.reconnectRequestedAt),
  };
}

/** A stored consent as the customer API answers it (spec §3 Consent, with its terms). */
export function toConsent(
  row: ShownConsent,
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
    createdAt: iso(row.createdAt),
    consentCreationDate: iso(row.providerCreatedAt),
    lastUpdated: iso(row.updatedAt),
    ...terms(row),
  };
}

/** A revoked or expired consent, for the History view. */
export function toPastConsent(
  row: ShownConsent,
  partner: Pick<Partner, 'name' | 'partnerId'>,
  encryption: Encryption,
): PastConsent {
  return {
    ...toConsent(row, partner, encryption),
    consentStatus: row.status as PastConsent['consentStatus'],
    revokedAt: iso(row.revokedAt),
  };
}

export function toPartnerConsent(
  row: ConsentWithAccess,
  partner: Pick<Partner, 'partnerId'>,
): PartnerConsent {
  return {
    consentId: row.consentId,
    // Paused is the partner API's own status: its reads are refused until the customer resumes
    consentStatus: pausedAt(row) ? 'Paused' : (row.status as PartnerConsent['consentStatus']),
    customerId: row.customerId,
    partnerId: partner.partnerId,
    apiList: row.permissions,
    documentUploaded: row.documentKey ? 'Y' : 'N',
    ...terms(row),
    createdAt: iso(row.createdAt),
    lastUpdated: iso(row.updatedAt),
  };
}

export function bankFailure(
  error: unknown,
  action: 'refresh' | 'revoke' | 'create' | 'read',
): never {
  if (!(error instanceof ConsentProviderError)) throw error;
  const nothing =
    action === 'revoke'
      ? 'Nothing was deleted'
      : action === 'create'
        ? 'No consent was created'
        : action === 'read'
          ? 'Nothing was read'
          : 'Nothing was changed';
  const messages: Record<ConsentProviderError['kind'], string> = {
    unreachable: `The bank could not be reached. ${nothing}; please try again later.`,
    invalid_response: `The bank sent an answer that could not be read. ${nothing}; please try again later.`,
    refused: `The bank refused the request. ${nothing}.`,
    not_found: `The bank does not know this consent. ${nothing}.`,
  };
  throw new AppError('BAD_GATEWAY', messages[error.kind]);
}

export function tokenColumns(encryption: Encryption, rowId: string, answer: ProviderConsent) {
  const tokens = answer.tokens;
  return {
    accessTokenEnc: tokens ? encryption.encrypt(tokens.accessToken, aad(rowId, 'access')) : null,
    accessTokenExpiresAt: tokens?.accessTokenExpiresAt ?? null,
    refreshTokenEnc: tokens ? encryption.encrypt(tokens.refreshToken, aad(rowId, 'refresh')) : null,
    refreshTokenExpiresAt: tokens?.refreshTokenExpiresAt ?? null,
  };
}
