import { z } from 'zod';
import { SuccessMessageResponseSchema } from './common';
import { IdSchema, text } from './primitives';
import { SIGN_IN_HISTORY_MAX_PAGE_SIZE, SIGN_IN_HISTORY_PAGE_SIZE } from './values';

/** What kind of device a browser runs on, as far as its User-Agent tells. */
export const DeviceKindSchema = z.enum(['desktop', 'phone', 'tablet', 'unknown']);
export type DeviceKind = z.infer<typeof DeviceKindSchema>;

/** How a browser is shown: "Chrome on Windows", and the kind of device for its icon. */
const DeviceFields = {
  /** "Chrome on Windows"; "An unknown browser on an unknown system" when nothing is told. */
  browser: z.string(),
  device: DeviceKindSchema,
  /** The client address the server saw; empty for sessions older than this record. */
  ip: z.string(),
};

/** One live session of the signed-in customer. */
export const SecuritySessionSchema = z.object({
  _id: z.string(),
  ...DeviceFields,
  createdAt: z.string(),
  lastUsedAt: z.string(),
  /** The session of the request itself ("this device"). */
  current: z.boolean(),
});
export type SecuritySession = z.infer<typeof SecuritySessionSchema>;

export const SessionsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Newest first, the current one among them. */
  data: z.array(SecuritySessionSchema),
});
export type SessionsResponse = z.infer<typeof SessionsResponseSchema>;

export const SessionParamsSchema = z.object({ id: IdSchema });

export const EndSessionResponseSchema = SuccessMessageResponseSchema;
export type EndSessionResponse = z.infer<typeof EndSessionResponseSchema>;

export const EndOtherSessionsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ ended: z.number().int().nonnegative() }),
});
export type EndOtherSessionsResponse = z.infer<typeof EndOtherSessionsResponseSchema>;

/** A completed sign-in, or a refused password step or code. */
export const SignInOutcomeSchema = z.enum(['success', 'wrong_password', 'wrong_code']);
export type SignInOutcome = z.infer<typeof SignInOutcomeSchema>;

export const SignInHistoryQuerySchema = z.object({
  /** Opaque: the nextCursor of the previous page. */
  cursor: text().max(20).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SIGN_IN_HISTORY_MAX_PAGE_SIZE)
    .default(SIGN_IN_HISTORY_PAGE_SIZE),
});
export type SignInHistoryQuery = z.input<typeof SignInHistoryQuerySchema>;

export const SignInEventSchema = z.object({
  _id: z.string(),
  at: z.string(),
  outcome: SignInOutcomeSchema,
  ...DeviceFields,
});
export type SignInEvent = z.infer<typeof SignInEventSchema>;

export const SignInHistoryResponseSchema = z.object({
  success: z.literal(true),
  /** Newest first. */
  data: z.array(SignInEventSchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SignInHistoryResponse = z.infer<typeof SignInHistoryResponseSchema>;

export const LastSignInResponseSchema = z.object({
  success: z.literal(true),
  /** The successful sign-in before the current session's; null when there was none. */
  data: z.object({ at: z.string(), browser: z.string() }).nullable(),
});
export type LastSignInResponse = z.infer<typeof LastSignInResponseSchema>;

export const EndSessionByLinkRequestSchema = z.object({
  token: text().trim().min(1).max(200),
});
export type EndSessionByLinkRequest = z.infer<typeof EndSessionByLinkRequestSchema>;

export const EndSessionByLinkResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The browser of the session the link ended. */
  data: z.object({ browser: z.string() }),
});
export type EndSessionByLinkResponse = z.infer<typeof EndSessionByLinkResponseSchema>;
