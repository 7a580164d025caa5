import { z } from 'zod';
import {
  KNOWN_PERMISSIONS,
  MAX_DATA_LIFE_DAYS,
  MAX_FETCHES_PER_DAY,
  type Permission,
} from './consents';
import { CONSENT_STATUSES } from './values';
import { dateTime, text } from './primitives';

export const partnerPaths = {
  consents: '/api/partner/consents',
  consent: '/api/partner/consents/:consentId',
  /** The partner reads the accounts a consent covers; each read is recorded (last accessed). */
  accounts: '/api/partner/consents/:consentId/accounts',
  /** The partner reads transactions within the consent's period; the bank records each read. */
  transactions: '/api/partner/consents/:consentId/transactions',
  /** Consents whose customers asked this partner to reconnect (decision 041). */
  reconnectRequests: '/api/partner/reconnect-requests',
} as const;

/** The header that carries a partner's API key. */
export const PARTNER_API_KEY_HEADER = 'x-api-key';
/** Largest document a partner may attach, after base64 decoding. */
export const PARTNER_DOCUMENT_MAX_BYTES = 2 * 1024 * 1024;
/** What a partner may ask a consent for when it names no permissions of its own. */
export const DEFAULT_CONSENT_PERMISSIONS = [
  'ReadAccountsBasic',
  'ReadAccountsDetail',
  'ReadBalances',
  'ReadTransactionsDetail',
] as const;

/** An Indian bank account number: 9 to 18 digits. */
export const ACCOUNT_NUMBER = /^\d{9,18}$/;

export const PartnerDocumentSchema = z.object({
  fileName: text().trim().min(1).max(200),
  /** The file, base64-encoded; its type is read from its first bytes, not from the name. */
  contentBase64: z.base64({ error: 'document.contentBase64 must be base64' }),
});

export const PartnerConsentRequestSchema = z
  .object({
    customerEmail: z.email().max(254).optional(),
    customerId: z.uuid().optional(),
    /** Open Banking's Permissions; see DATA_CLUSTERS for the ones known. */
    permissions: z
      .array(
        z.enum(KNOWN_PERMISSIONS as [Permission, ...Permission[]], {
          error: 'must be an Open Banking permission such as ReadBalances',
        }),
      )
      .min(1)
      .max(30)
      .optional(),
    /** When the consent should lapse (ExpirationDateTime); the provider's default when omitted. */
    expirationDateTime: dateTime().optional(),
    /** Why the partner reads the data, shown to the customer as it is written. */
    purpose: text().trim().min(3).max(200).optional(),
    /** The period of transactions the partner may read (TransactionFrom/ToDateTime). */
    transactionFromDateTime: dateTime().optional(),
    transactionToDateTime: dateTime().optional(),
    /** How many times a day the partner may read; Open Banking's 4 when omitted. */
    fetchesPerDay: z
      .number()
      .int('fetchesPerDay must be a whole number')
      .min(1, 'fetchesPerDay must be at least 1')
      .max(MAX_FETCHES_PER_DAY, `fetchesPerDay must be at most ${MAX_FETCHES_PER_DAY}`)
      .optional(),
    /** How many days the partner will keep what it reads (the Account Aggregator's DataLife). */
    dataLifeDays: z
      .number()
      .int('dataLifeDays must be a whole number')
      .min(1, 'dataLifeDays must be at least 1')
      .max(MAX_DATA_LIFE_DAYS, `dataLifeDays must be at most ${MAX_DATA_LIFE_DAYS}`)
      .optional(),
    /**
     * The accounts the consent covers, each 9 to 18 digits (ACCOUNT_NUMBER, checked by the
     * service); kept and shown only as their last four digits.
     */
    accountNumbers: z.array(text().min(9).max(18)).min(1).max(10).optional(),
    netBankingUserId: text().trim().min(1).max(64).optional(),
    document: PartnerDocumentSchema.optional(),
    /**
     * The consent this one replaces, when the customer asked for a reconnect (decision 041):
     * the request is answered, and leaves the partner's list of reconnect requests.
     */
    replacesConsentId: text().trim().min(1).max(200).optional(),
    /** The partner's own reference; sending the same one again returns the same consent. */
    requestId: text().trim().min(1).max(100).optional(),
  })
  .refine((v) => Boolean(v.customerEmail) !== Boolean(v.customerId), {
    message: 'give exactly one of customerEmail and customerId',
    path: ['customerEmail'],
  });
export type PartnerConsentRequest = z.infer<typeof PartnerConsentRequestSchema>;

/** What a partner may read of its own consents: the status, never the tokens. */
export const PartnerConsentSchema = z.object({
  consentId: z.string(),
  /**
   * Revoked: the customer deleted the consent in the portal. Paused: the customer paused an
   * approved consent, and reads are refused until they resume it (decision 077).
   */
  consentStatus: z.enum([...CONSENT_STATUSES, 'Paused', 'Revoked']),
  customerId: z.string(),
  partnerId: z.string(),
  apiList: z.array(z.string()),
  documentUploaded: z.enum(['Y', 'N']),
  expirationDateTime: z.string().nullable(),
  purpose: z.string().nullable(),
  transactionFromDateTime: z.string().nullable(),
  transactionToDateTime: z.string().nullable(),
  fetchesPerDay: z.number().int(),
  dataLifeDays: z.number().int().nullable(),
  /** Reads made under the consent, this partner's all. */
  readsMade: z.number().int(),
  pausedAt: z.string().nullable(),
  /** Masked: XXXX and the last four digits. */
  accounts: z.array(z.string()),
  lastAccessedAt: z.string().nullable(),
  /** Set when the customer asked for a fresh consent (decision 041). */
  reconnectRequestedAt: z.string().nullable(),
  createdAt: z.string(),
  lastUpdated: z.string(),
});
export type PartnerConsent = z.infer<typeof PartnerConsentSchema>;

export const PartnerConsentResponseSchema = z.object({
  success: z.literal(true),
  data: PartnerConsentSchema,
});
export type PartnerConsentResponse = z.infer<typeof PartnerConsentResponseSchema>;

export const PartnerConsentParamsSchema = z.object({ consentId: text().min(1).max(200) });

/** What one read of a consent's accounts gives the partner. */
export const PartnerAccountsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    consentId: z.string(),
    accounts: z.array(z.string()),
    transactionFromDateTime: z.string().nullable(),
    transactionToDateTime: z.string().nullable(),
    /** Reads left today, within fetchesPerDay. */
    fetchesLeftToday: z.number().int(),
    accessedAt: z.string(),
  }),
});
export type PartnerAccountsResponse = z.infer<typeof PartnerAccountsResponseSchema>;

/** The period of transactions a partner reads; the consent's whole period when omitted. */
export const PartnerTransactionsQuerySchema = z.object({
  fromBookingDateTime: dateTime().optional(),
  toBookingDateTime: dateTime().optional(),
});
export type PartnerTransactionsQuery = z.infer<typeof PartnerTransactionsQuerySchema>;

/** One transaction as the bank reports it; amounts are decimal strings in the currency. */
export const PartnerTransactionSchema = z.object({
  transactionId: z.string(),
  bookingDateTime: z.string(),
  creditDebitIndicator: z.enum(['Credit', 'Debit']),
  amount: z.string(),
  currency: z.string(),
  information: z.string(),
});

/** What one read of a consent's transactions gives the partner. */
export const PartnerTransactionsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    consentId: z.string(),
    transactions: z.array(PartnerTransactionSchema),
    fetchesLeftToday: z.number().int(),
    accessedAt: z.string(),
  }),
});
export type PartnerTransactionsResponse = z.infer<typeof PartnerTransactionsResponseSchema>;

export const PartnerReconnectRequestsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(PartnerConsentSchema),
});
export type PartnerReconnectRequestsResponse = z.infer<
  typeof PartnerReconnectRequestsResponseSchema
>;
