import { z } from 'zod';

/**
 * The account-access-consents contract, modelled on Open Banking: what the sandbox bank
 * answers and what the provider adapter reads. Field names are the contract's own.
 */
export const BankStatusSchema = z.enum([
  'AwaitingAuthorisation',
  'Authorised',
  'Rejected',
  'Revoked',
]);

export const CreateConsentBodySchema = z.object({
  Data: z.object({
    Permissions: z.array(z.string().min(1).max(64)).min(1).max(30),
    ExpirationDateTime: z.iso.datetime({ offset: true }).optional(),
  }),
  Risk: z.record(z.string(), z.unknown()).optional(),
});
export type CreateConsentBody = z.infer<typeof CreateConsentBodySchema>;

/** Issued on authorisation: the portal keeps them encrypted and shows them to the customer. */
export const ConsentTokensSchema = z.object({
  AccessToken: z.string().min(1),
  AccessTokenExpirationDateTime: z.iso.datetime({ offset: true }),
  RefreshToken: z.string().min(1),
  RefreshTokenExpirationDateTime: z.iso.datetime({ offset: true }),
});

export const ConsentResponseSchema = z.object({
  Data: z.object({
    ConsentId: z.string().min(1).max(200),
    Status: BankStatusSchema,
    StatusUpdateDateTime: z.iso.datetime({ offset: true }),
    CreationDateTime: z.iso.datetime({ offset: true }),
    Permissions: z.array(z.string()),
    ExpirationDateTime: z.iso.datetime({ offset: true }).nullable().optional(),
    Tokens: ConsentTokensSchema.nullable().optional(),
  }),
  Risk: z.record(z.string(), z.unknown()).optional(),
  Links: z.object({ Self: z.string() }).optional(),
  Meta: z.record(z.string(), z.unknown()).optional(),
});
export type ConsentResponse = z.infer<typeof ConsentResponseSchema>;

/** The header that carries the access token the client holds for a consent, when it has one. */
export const CONSENT_ACCESS_TOKEN_HEADER = 'x-consent-access-token';
