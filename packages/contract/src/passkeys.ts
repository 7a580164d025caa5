import { z } from 'zod';
import { jsonValueProblem, text } from './primitives';

/** Passkeys (WebAuthn) as the second step of sign-in (decision 080). */
export const passkeyPaths = {
  list: '/api/security/passkeys',
  /** The options for the browser's `navigator.credentials.create`, after the password. */
  registrationOptions: '/api/security/passkeys/options',
  add: '/api/security/passkeys',
  rename: '/api/security/passkeys/:id',
  remove: '/api/security/passkeys/:id/remove',
  /** Sign-in step two: the options for `navigator.credentials.get`, for a pending sign-in. */
  signInOptions: '/api/auth/passkey/options',
  verify: '/api/auth/verify-passkey',
} as const;

/** A customer keeps at most this many passkeys. */
export const MAX_PASSKEYS = 10;
/** How long a registration or sign-in challenge may be answered, in milliseconds. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const PASSKEY_NAME_MAX = 60;

export const passkeyMessages = {
  listed: 'Passkeys fetched',
  optionsReady: "Follow your device's prompt to create the passkey.",
  added: 'Passkey added. You can use it to sign in.',
  addedWithCodes: 'Passkey added. Keep your recovery codes somewhere safe.',
  renamed: 'Passkey renamed',
  removed: 'Passkey removed',
  notFound: 'Passkey not found',
  wrongPassword: 'The password is not correct.',
  tooMany: `You can keep up to ${MAX_PASSKEYS} passkeys. Remove one to add another.`,
  alreadyAdded: 'This passkey is already added to your account.',
  notVerified: 'The passkey could not be verified. Please try again.',
  challengeExpired: 'The passkey request has expired. Please try again.',
  /** The login answer's message when the second step is a passkey. */
  passkeyAsked: 'Use your passkey to finish signing in',
  signInOptions: 'Use your passkey now',
  noEmailCode: 'This account signs in with a passkey: no code is sent by e-mail.',
} as const;

const PasswordSchema = text({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(256);

export const PasskeyNameSchema = text({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(PASSKEY_NAME_MAX, `Name must be at most ${PASSKEY_NAME_MAX} characters`);

/** Base64url, as WebAuthn's JSON encodings carry binary values. */
const base64url = (max: number) =>
  text()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** The browser's extension outputs (credProps and the like): not read, so kept shallow. */
const ExtensionResultsSchema = z.looseObject({}).superRefine((value, context) => {
  const problem = jsonValueProblem(value, 4);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

const TransportSchema = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** `PublicKeyCredential.toJSON()` of a credential just created (WebAuthn Level 3, §5.1). */
export const RegistrationCredentialSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4000),
    attestationObject: base64url(20000),
    authenticatorData: base64url(20000).optional(),
    transports: z.array(TransportSchema).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4000).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: ExtensionResultsSchema,
});

/** `PublicKeyCredential.toJSON()` of an assertion (WebAuthn Level 3, §5.1). */
export const AuthenticationCredentialSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4000),
    authenticatorData: base64url(20000),
    signature: base64url(2000),
    userHandle: base64url(200).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: ExtensionResultsSchema,
});

export const PasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** A passkey synced by its provider (iCloud Keychain, Google Password Manager) to the user's devices. */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyListResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    passkeys: z.array(PasskeySchema),
    /** Unused recovery codes; they cover a lost passkey as they cover a lost app. */
    recoveryCodesLeft: z.number().int().nonnegative(),
  }),
});
export type PasskeyListResponse = z.infer<typeof PasskeyListResponseSchema>;

export const PasskeyOptionsRequestSchema = z.object({ password: PasswordSchema });
export type PasskeyOptionsRequest = z.input<typeof PasskeyOptionsRequestSchema>;

/** WebAuthn's options, as `PublicKeyCredentialCreationOptionsJSON` or `…RequestOptionsJSON`. */
const OptionsSchema = z.looseObject({ challenge: z.string() });

export const PasskeyOptionsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: OptionsSchema,
});
export type PasskeyOptionsResponse = z.infer<typeof PasskeyOptionsResponseSchema>;

export const AddPasskeyRequestSchema = z.object({
  name: PasskeyNameSchema,
  credential: RegistrationCredentialSchema,
});
export type AddPasskeyRequest = z.input<typeof AddPasskeyRequestSchema>;

export const AddPasskeyResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    passkey: PasskeySchema,
    /** With the account's first second factor beyond e-mail: shown once, only hashes are kept. */
    recoveryCodes: z.array(z.string()).nullable(),
  }),
});
export type AddPasskeyResponse = z.infer<typeof AddPasskeyResponseSchema>;

export const RenamePasskeyRequestSchema = z.object({ name: PasskeyNameSchema });
export type RenamePasskeyRequest = z.input<typeof RenamePasskeyRequestSchema>;

export const RenamePasskeyResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ passkey: PasskeySchema }),
});

export const RemovePasskeyRequestSchema = z.object({ password: PasswordSchema });
export type RemovePasskeyRequest = z.input<typeof RemovePasskeyRequestSchema>;

export const RemovePasskeyResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

export const PasskeySignInOptionsRequestSchema = z.object({ tempToken: text().min(1).max(200) });
export type PasskeySignInOptionsRequest = z.infer<typeof PasskeySignInOptionsRequestSchema>;

export const VerifyPasskeyRequestSchema = z.object({
  tempToken: text().min(1).max(200),
  credential: AuthenticationCredentialSchema,
});
export type VerifyPasskeyRequest = z.input<typeof VerifyPasskeyRequestSchema>;
