import { z } from 'zod';
import { ConsentStatusSchema } from './consents';
import { dateTime, text } from './primitives';

export const partnerPaths = {
  consents: '/api/partner/consents',
  consent: '/api/partner/consents/:consentId',
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

const PERMISSION = /^[A-Z][A-Za-z0-9]{1,63}$/;

export const PartnerDocumentSchema = z.object({
  fileName: text().trim().min(1).max(200),
  /** The file, base64-encoded; its type is read from its first bytes, not from the name. */
  contentBase64: z.base64({ error: 'document.contentBase64 must be base64' }),
});

export const PartnerConsentRequestSchema = z
  .object({
    customerEmail: z.email().max(254).optional(),
    customerId: z.uuid().optional(),
    permissions: z
      .array(z.string().regex(PERMISSION, 'must be a permission name such as ReadBalances'))
      .min(1)
      .max(30)
      .optional(),
    /** When the consent should lapse; the provider's default when omitted. */
    expirationDateTime: dateTime().optional(),
    netBankingUserId: text().trim().min(1).max(64).optional(),
    document: PartnerDocumentSchema.optional(),
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
  consentStatus: ConsentStatusSchema,
  customerId: z.string(),
  partnerId: z.string(),
  apiList: z.array(z.string()),
  documentUploaded: z.enum(['Y', 'N']),
  expirationDateTime: z.string().nullable(),
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
