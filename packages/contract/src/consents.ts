import { z } from 'zod';
import { CONSENT_STATUSES, CONSENT_SEARCH_MAX_LENGTH } from './values';
import { CONSENTS_PAGE_SIZE } from './constants';
import { IdSchema, text } from './primitives';

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
});
export type Consent = z.infer<typeof ConsentSchema>;

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
