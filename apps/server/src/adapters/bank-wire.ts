import { z } from 'zod';
import { dateTime, jsonValueProblem, text } from '@portal/contract';

/**
 * The account-access-consents contract, modelled on Open Banking: what the sandbox bank
 * answers and what the provider adapter reads. Field names are the contract's own.
 */
export const BankStatusSchema = z.enum([
  'AwaitingAuthorisation',
  'Authorised',
  // the Account Aggregator's PAUSED (Open Banking has none): no reads until resumed (decision 077)
  'Paused',
  'Rejected',
  'Revoked',
]);

/** The statuses a client may set on an authorised consent: pause it, or resume it. */
export const SettableStatusSchema = z.enum(['Paused', 'Authorised']);
export type SettableStatus = z.infer<typeof SettableStatusSchema>;

/** The body of `PATCH /account-access-consents/{ConsentId}` (decision 077). */
export const StatusChangeBodySchema = z.object({
  Data: z.object({ Status: SettableStatusSchema }),
});
export type StatusChangeBody = z.infer<typeof StatusChangeBodySchema>;

/**
 * How often the client may read, in the Account Aggregator's form (Open Banking has no field
 * for it): Value reads per Unit.
 */
export const FrequencySchema = z.object({
  Unit: z.literal('DAY'),
  Value: z.number().int().min(1).max(1000),
});

/**
 * How long the client may keep what it read, in the Account Aggregator's DataLife form: Value
 * days. Absent: the client did not say.
 */
export const DataLifeSchema = z.object({
  Unit: z.literal('DAY'),
  Value: z.number().int().min(1).max(36_500),
});

/**
 * The terms a client asks for; Purpose and Frequency are not Open Banking's (decision 044).
 * The bank keeps them, so text is plain (no NUL) and times are in years every store takes.
 */
const consentTerms = {
  Permissions: z.array(text().min(1).max(64)).min(1).max(30),
  ExpirationDateTime: dateTime().optional(),
  TransactionFromDateTime: dateTime().optional(),
  TransactionToDateTime: dateTime().optional(),
  Purpose: text().min(1).max(200).optional(),
  Frequency: FrequencySchema.optional(),
  DataLife: DataLifeSchema.optional(),
};

export const CreateConsentBodySchema = z.object({
  Data: z.object(consentTerms),
  // not read, but refused past the depth and the text every JSON the portal takes keeps to
  Risk: z
    .record(z.string(), z.unknown())
    .superRefine((value, context) => {
      const problem = jsonValueProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
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
    ExpirationDateTime: dateTime().nullable().optional(),
    TransactionFromDateTime: dateTime().nullable().optional(),
    TransactionToDateTime: dateTime().nullable().optional(),
    Purpose: z.string().nullable().optional(),
    Frequency: FrequencySchema.nullable().optional(),
    DataLife: DataLifeSchema.nullable().optional(),
    Tokens: ConsentTokensSchema.nullable().optional(),
  }),
  Risk: z.record(z.string(), z.unknown()).optional(),
  Links: z.object({ Self: z.string() }).optional(),
  Meta: z.record(z.string(), z.unknown()).optional(),
});
export type ConsentResponse = z.infer<typeof ConsentResponseSchema>;

/** The period of transactions a client asks to read; the bank records it with the read. */
export const ReadQuerySchema = z.object({
  fromBookingDateTime: dateTime().optional(),
  toBookingDateTime: dateTime().optional(),
});
export type ReadQuery = z.infer<typeof ReadQuerySchema>;

/** What the client reads under a consent. */
export const BankResourceSchema = z.enum(['accounts', 'transactions']);
export type BankResource = z.infer<typeof BankResourceSchema>;

/** The bank's record of one allowed read, carried in the answer to that read (decision 044). */
export const AccessRecordSchema = z.object({
  AccessId: z.string().min(1).max(200),
  AccessDateTime: dateTime(),
  Resource: BankResourceSchema,
  /** Reads left in the current 24 hours, within the consent's Frequency. */
  FetchesLeftToday: z.number().int().min(0),
});

export const BankTransactionSchema = z.object({
  TransactionId: z.string().min(1),
  BookingDateTime: dateTime(),
  CreditDebitIndicator: z.enum(['Credit', 'Debit']),
  Amount: z.object({
    Amount: z.string().regex(/^\d{1,13}\.\d{2}$/),
    Currency: z.string().length(3),
  }),
  TransactionInformation: z.string(),
});
export type BankTransaction = z.infer<typeof BankTransactionSchema>;

/** The answer to a read: the data, and the access it was recorded as in Meta. */
export const ReadResponseSchema = z.object({
  Data: z.object({
    ConsentId: z.string().min(1).max(200),
    Transaction: z.array(BankTransactionSchema).optional(),
  }),
  Meta: z.object({ Access: AccessRecordSchema }),
});
export type ReadResponse = z.infer<typeof ReadResponseSchema>;

/** Why the bank refused a read, in Errors[0].ErrorCode. */
export const READ_REFUSALS = {
  'UK.OBIE.Consent.Expired': 'expired',
  'UK.OBIE.Consent.NotAuthorised': 'not_authorised',
  'UK.OBIE.Consent.Paused': 'paused',
  'UK.OBIE.Consent.PermissionMissing': 'permission',
  'UK.OBIE.Consent.OutsidePeriod': 'period',
  'UK.OBIE.Consent.FrequencyExceeded': 'frequency',
} as const;
export type ReadRefusal = (typeof READ_REFUSALS)[keyof typeof READ_REFUSALS];

export const BankErrorSchema = z.object({
  Code: z.string(),
  Message: z.string().max(500),
  Errors: z.array(z.object({ ErrorCode: z.string(), Message: z.string() })).min(1),
});

/** The header that carries the access token the client holds for a consent, when it has one. */
export const CONSENT_ACCESS_TOKEN_HEADER = 'x-consent-access-token';
