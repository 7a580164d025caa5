import { z } from 'zod';
import { CONSENT_STATUSES, CONSENT_SEARCH_MAX_LENGTH } from './values';
import { CONSENTS_PAGE_SIZE } from './constants';
import { IdSchema, text } from './primitives';

/**
 * The Open Banking account-information permissions, grouped into the data clusters of the Open
 * Banking customer experience guidelines: what a customer is shown first, in plain words, and
 * opens to see each permission.
 */
export const DATA_CLUSTERS = [
  {
    id: 'account-details',
    title: 'Your account details',
    description: 'Account name, number, sort of account and its balance',
    permissions: ['ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances', 'ReadPAN'],
  },
  {
    id: 'regular-payments',
    title: 'Your regular payments',
    description: 'Payees, direct debits, standing orders and scheduled payments',
    permissions: [
      'ReadBeneficiariesBasic',
      'ReadBeneficiariesDetail',
      'ReadDirectDebits',
      'ReadStandingOrdersBasic',
      'ReadStandingOrdersDetail',
      'ReadScheduledPaymentsBasic',
      'ReadScheduledPaymentsDetail',
    ],
  },
  {
    id: 'transactions',
    title: 'Your account transactions',
    description: 'Money in and out of the account, with amounts, dates and descriptions',
    permissions: [
      'ReadTransactionsBasic',
      'ReadTransactionsCredits',
      'ReadTransactionsDebits',
      'ReadTransactionsDetail',
    ],
  },
  {
    id: 'statements',
    title: 'Your statements',
    description: 'The statements the bank issues for the account',
    permissions: ['ReadStatementsBasic', 'ReadStatementsDetail'],
  },
  {
    id: 'features',
    title: 'Your account features and benefits',
    description: 'The account’s product details, its fees and offers',
    permissions: ['ReadProducts', 'ReadOffers'],
  },
  {
    id: 'contact-details',
    title: 'Your contact and party details',
    description: 'The account holder’s name, address and contact details',
    permissions: ['ReadParty', 'ReadPartyPSU'],
  },
] as const;
export type DataCluster = (typeof DATA_CLUSTERS)[number];

/** Every permission a partner may ask for. */
export const KNOWN_PERMISSIONS = DATA_CLUSTERS.flatMap((cluster) => cluster.permissions);
export type Permission = (typeof KNOWN_PERMISSIONS)[number];

/** The clusters a consent's permissions fall into, each with its permissions, in cluster order. */
export function clustersOf(permissions: readonly string[]) {
  return DATA_CLUSTERS.map((cluster) => ({
    cluster,
    permissions: cluster.permissions.filter((code) => permissions.includes(code)),
  })).filter((entry) => entry.permissions.length > 0);
}

/** How often a partner may read when it does not say: Open Banking's four unattended reads a day. */
export const DEFAULT_FETCHES_PER_DAY = 4;
export const MAX_FETCHES_PER_DAY = 24;
/** The longest a partner may ask to keep what it reads: ten years, in days. */
export const MAX_DATA_LIFE_DAYS = 3650;
/** An expired consent, or a live one ending within this many days, offers Reconnect. */
export const RECONNECT_WINDOW_DAYS = 30;

/**
 * Whether a consent offers Reconnect (decision 041): Expired, or Approved and ending within
 * RECONNECT_WINDOW_DAYS. The server decides with it and the screens show the button by it.
 */
export function canReconnect(status: string, expiresAt: Date | string | null, now: Date): boolean {
  if (status === 'Expired') return true;
  if (status !== 'Approved' || expiresAt === null) return false;
  const ends = new Date(expiresAt).getTime();
  return ends <= now.getTime() + RECONNECT_WINDOW_DAYS * 24 * 60 * 60 * 1000;
}

/** An account number as shown and stored: its last four digits only (XXXX1234). */
export const maskAccountNumber = (accountNumber: string) => `XXXX${accountNumber.slice(-4)}`;

export const ConsentStatusSchema = z.enum(CONSENT_STATUSES);
export type ConsentStatus = z.infer<typeof ConsentStatusSchema>;

/** A consent as the customer sees it (spec §3 Consent). Dates are ISO 8601 strings. */
export const ConsentSchema = z.object({
  _id: z.string(),
  consentId: z.string(),
  consentStatus: ConsentStatusSchema,
  partnerName: z.string(),
  partnerId: z.string(),
  /** 'Y' when the partner uploaded a document with the request. */
  documentUploaded: z.enum(['Y', 'N']),
  apiList: z.array(z.string()),
  netBankingUserId: z.string().nullable(),
  accessToken: z.string().nullable(),
  accessTokenExpiresAt: z.string().nullable(),
  refreshToken: z.string().nullable(),
  refreshTokenExpiresAt: z.string().nullable(),
  createdAt: z.string(),
  /** When the bank created the consent. */
  consentCreationDate: z.string().nullable(),
  lastUpdated: z.string(),
  // the terms below are always sent; optional in the type so that a consent made before them
  // (a stored fixture, a cached answer) still reads, shown with the defaults
  /** Why the partner reads the data, in its words; null when it did not say. */
  purpose: z.string().nullable().optional(),
  /** The period of transactions the partner may read; null ends are open. */
  transactionFromDateTime: z.string().nullable().optional(),
  transactionToDateTime: z.string().nullable().optional(),
  /** How many times a day the partner may read the data. */
  fetchesPerDay: z.number().int().optional(),
  /** How many days the partner may keep what it reads; null when it did not say. */
  dataLifeDays: z.number().int().nullable().optional(),
  /** How many reads the partner has made under the consent. */
  readsMade: z.number().int().optional(),
  /** Since when the customer has paused the consent; null when it is not paused (decision 077). */
  pausedAt: z.string().nullable().optional(),
  /** When the consent ends (the bank's ExpirationDateTime). */
  expirationDateTime: z.string().nullable().optional(),
  /** The accounts the consent covers, masked (XXXX1234); empty: the ones chosen at the bank. */
  accounts: z.array(z.string()).optional(),
  /** When the partner last read data under this consent. */
  lastAccessedAt: z.string().nullable().optional(),
  /** When the customer asked the partner to reconnect (decision 041). */
  reconnectRequestedAt: z.string().nullable().optional(),
});
export type Consent = z.infer<typeof ConsentSchema>;

/** A consent that has ended, as the History view shows it. */
export const PastConsentSchema = ConsentSchema.extend({
  consentStatus: z.enum(['Expired', 'Revoked']),
  /** When the customer deleted (revoked) the consent; null for one that expired. */
  revokedAt: z.string().nullable(),
});
export type PastConsent = z.infer<typeof PastConsentSchema>;

export const UserIdParamsSchema = z.object({ userId: IdSchema });

export const UserConsentsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(ConsentSchema),
});
export type UserConsentsResponse = z.infer<typeof UserConsentsResponseSchema>;

const positiveInt = (fallback: number, max: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

/** An opaque position in one list (its filter and search included), made by the server. */
const CursorSchema = text().min(1, 'The cursor is empty').max(500, 'The cursor is not valid');

/**
 * A page by number (`page`), or the page after or before one already shown (`after`, `before`:
 * a cursor of that page's answer, which also carries the page number). Page 1, the pages next
 * to one shown and the last page cost the same at any size; a bare `page` deep in the middle is
 * counted to from the nearer end (docs/decisions/028-keyset-pages-and-counters.md).
 */
export const ConsentListQuerySchema = z.object({
  page: positiveInt(1, 100_000),
  after: CursorSchema.optional(),
  before: CursorSchema.optional(),
  limit: positiveInt(CONSENTS_PAGE_SIZE, 100),
  userId: text({ error: 'userId is required' }).min(1, 'userId is required').max(100),
  consentStatus: ConsentStatusSchema.optional(),
  /** Part of a partner name, consent ID or partner ID, across all the customer's consents. */
  search: text()
    .trim()
    .max(
      CONSENT_SEARCH_MAX_LENGTH,
      `search must be at most ${CONSENT_SEARCH_MAX_LENGTH} characters`,
    )
    .optional(),
});
export type ConsentListQuery = z.input<typeof ConsentListQuerySchema>;

export const PaginationSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  total_pages: z.number().int(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

/** Where Next and Previous lead from this page; null where there is no such page. */
export const PageCursorsSchema = z.object({
  next: z.string().nullable(),
  previous: z.string().nullable(),
});
export type PageCursors = z.infer<typeof PageCursorsSchema>;

/** Past consents (revoked and expired), newest first, by the same keyset pages as the list. */
export const ConsentHistoryQuerySchema = ConsentListQuerySchema.pick({
  page: true,
  after: true,
  before: true,
  limit: true,
  userId: true,
});
export type ConsentHistoryQuery = z.input<typeof ConsentHistoryQuerySchema>;

export const ConsentListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(ConsentSchema),
  pagination: PaginationSchema,
  cursors: PageCursorsSchema,
});
export type ConsentListResponse = z.infer<typeof ConsentListResponseSchema>;

/** Only the consent id: the server uses the tokens it holds (ARCHITECTURE, spec §7 defect). */
export const ConsentStatusRequestSchema = z.object({
  consentId: text({ error: 'consentId is required' }).trim().min(1).max(200),
});
export type ConsentStatusRequest = z.infer<typeof ConsentStatusRequestSchema>;

export const ConsentStatusResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ConsentSchema,
});
export type ConsentStatusResponse = z.infer<typeof ConsentStatusResponseSchema>;

export const DeleteConsentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type DeleteConsentResponse = z.infer<typeof DeleteConsentResponseSchema>;

export const ConsentHistoryResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(PastConsentSchema),
  pagination: PaginationSchema,
  cursors: PageCursorsSchema,
});
export type ConsentHistoryResponse = z.infer<typeof ConsentHistoryResponseSchema>;

export const ConsentDetailResponseSchema = z.object({
  success: z.literal(true),
  data: ConsentSchema,
});
export type ConsentDetailResponse = z.infer<typeof ConsentDetailResponseSchema>;

export const ConsentChangeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ConsentSchema,
});
export type ConsentChangeResponse = z.infer<typeof ConsentChangeResponseSchema>;
