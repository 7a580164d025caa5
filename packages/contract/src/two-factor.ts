import { z } from 'zod';
import { text } from './primitives';

/** The authenticator app as a second factor (TOTP, RFC 6238; decision 036). */
export const twoFactorPaths = {
  status: '/api/security/two-factor',
  setup: '/api/security/two-factor/setup',
  enable: '/api/security/two-factor/enable',
  disable: '/api/security/two-factor/disable',
  /** Turns down the dashboard's invitation to add the app, for good. */
  dismissInvitation: '/api/security/two-factor/invitation/dismiss',
  /** Sign-in step two with a recovery code instead of the app's code. */
  verifyRecoveryCode: '/api/auth/verify-recovery-code',
} as const;

/**
 * What sign-in asks for after the password: the e-mailed code, the authenticator app's, or a
 * passkey (which comes first when the account has both).
 */
export const SecondFactorSchema = z.enum(['email', 'app', 'passkey']);
export type SecondFactor = z.infer<typeof SecondFactorSchema>;

export const RECOVERY_CODE_COUNT = 10;
/** Seconds a code of the app stands for (RFC 6238's recommended time step). */
export const TOTP_PERIOD_SECONDS = 30;

export const twoFactorMessages = {
  status: 'Second factor fetched',
  setupStarted: 'Scan the QR code with your authenticator app, then enter the code it shows.',
  enabled: 'The authenticator app is on. Keep your recovery codes somewhere safe.',
  disabled: 'The authenticator app is off. Sign-in codes come by e-mail again.',
  disabledPasskeyStays: 'The authenticator app is off. You sign in with your passkey.',
  alreadyOn: 'The authenticator app is already on.',
  notOn: 'The authenticator app is not on.',
  noSetup: 'No set-up is waiting for a code. Please start the set-up again.',
  wrongPassword: 'The password is not correct.',
  wrongCode: 'The code is not correct, or it was used already.',
  /** The login answer's message when the second factor is the app. */
  appCodeAsked: 'Enter the code from your authenticator app',
  noEmailCode: 'This account signs in with its authenticator app: no code is sent by e-mail.',
  invitationDismissed: 'The invitation to add an authenticator app will not be shown again.',
} as const;

/** Six digits; a space in the middle, as apps show them, is allowed. */
export const AuthenticatorCodeSchema = text({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .regex(/^\d{3} ?\d{3}$/, 'Enter the 6-digit code from your authenticator app')
  .transform((value) => value.replace(' ', ''));

/** As shown (xxxxx-xxxxx); case, spaces and hyphens do not matter. */
export const RecoveryCodeSchema = text({ error: 'Recovery code is required' })
  .trim()
  .min(1, 'Recovery code is required')
  .max(40, 'Enter a recovery code as it was shown');

const PasswordSchema = text({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(256);

export const TwoFactorStatusSchema = z.object({
  /** What sign-in asks for after the password. */
  secondFactor: SecondFactorSchema,
  /** When the app was turned on; null while it is off. */
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int().nonnegative(),
  /** Whether the customer turned down the dashboard's invitation to add the app. */
  invitationDismissed: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

export const TwoFactorStatusResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: TwoFactorStatusSchema,
});
export type TwoFactorStatusResponse = z.infer<typeof TwoFactorStatusResponseSchema>;

export const TwoFactorSetupResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    /** Base32, for typing into an app that cannot scan. */
    secret: z.string(),
    otpauthUri: z.string(),
    /** The otpauth URI as an SVG QR code, as a data: URL. */
    qrCode: z.string(),
  }),
});
export type TwoFactorSetupResponse = z.infer<typeof TwoFactorSetupResponseSchema>;

export const EnableTwoFactorRequestSchema = z.object({
  password: PasswordSchema,
  code: AuthenticatorCodeSchema,
});
export type EnableTwoFactorRequest = z.input<typeof EnableTwoFactorRequestSchema>;

export const EnableTwoFactorResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Shown once: only their hashes are kept. */
  data: z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) }),
});
export type EnableTwoFactorResponse = z.infer<typeof EnableTwoFactorResponseSchema>;

export const DisableTwoFactorRequestSchema = z.object({
  password: PasswordSchema,
  /** A code from the app, or one of the recovery codes. */
  code: RecoveryCodeSchema,
});
export type DisableTwoFactorRequest = z.input<typeof DisableTwoFactorRequestSchema>;

export const DisableTwoFactorResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type DisableTwoFactorResponse = z.infer<typeof DisableTwoFactorResponseSchema>;

/** The answer to turning down the dashboard's invitation to add the app. */
export const DismissInvitationResponseSchema = DisableTwoFactorResponseSchema;

export const VerifyRecoveryCodeRequestSchema = z.object({
  tempToken: text().min(1).max(200),
  recoveryCode: RecoveryCodeSchema,
});
export type VerifyRecoveryCodeRequest = z.infer<typeof VerifyRecoveryCodeRequestSchema>;
