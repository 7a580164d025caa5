import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, VERIFICATION_CODE_LENGTH } from './constants';
import { SuccessMessageResponseSchema } from './common';
import { text } from './primitives';
import { UserSchema } from './profile';
import { SecondFactorSchema } from './two-factor';

// Spec §5: "a simple address pattern".
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const requiredText = (message: string) => text({ error: message }).trim().min(1, message);
const emailField = requiredText('Email is required').regex(EMAIL_PATTERN, 'Invalid email address');

/** The login form and the login call (spec §3 Login credentials, §5 Login). */
export const LoginRequestSchema = z.object({
  email: emailField.max(254),
  mobile: requiredText('Mobile number is required').max(20),
  gstNo: requiredText('GST number is required').max(20),
  tally_serialno: requiredText('Tally serial number is required').max(30),
  password: text({ error: 'Password is required' }).min(1, 'Password is required').max(256),
  rememberMe: z.boolean().default(false),
});
export type LoginRequest = z.input<typeof LoginRequestSchema>;

export const LoginResponseSchema = z.object({
  success: z.literal(true),
  tempToken: z.string(),
  message: z.string(),
  /** Only for an account with the authenticator app; absent, the code was sent by e-mail. */
  secondFactor: SecondFactorSchema.optional(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const VerificationCodeSchema = text({ error: 'Verification code is required' })
  .trim()
  .min(1, 'Verification code is required')
  .max(VERIFICATION_CODE_LENGTH);

export const Verify2faRequestSchema = z.object({
  tempToken: text().min(1).max(200),
  verificationCode: VerificationCodeSchema,
});
export type Verify2faRequest = z.infer<typeof Verify2faRequestSchema>;

export const ResendVerificationRequestSchema = z.object({ tempToken: text().min(1).max(200) });
export type ResendVerificationRequest = z.infer<typeof ResendVerificationRequestSchema>;

export const CodeMailStatusRequestSchema = z.object({ tempToken: text().min(1).max(200) });
export type CodeMailStatusRequest = z.infer<typeof CodeMailStatusRequestSchema>;

/**
 * Where the mail of a pending sign-in's newest code is: `sent` (the mail server took it),
 * `queued` (waiting for its first try, or in it), or `failing` (a try failed and it waits to be
 * tried again, or every try failed).
 */
export const CodeMailStatusSchema = z.enum(['queued', 'sent', 'failing']);
export type CodeMailStatus = z.infer<typeof CodeMailStatusSchema>;

export const CodeMailStatusResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ status: CodeMailStatusSchema }),
});
export type CodeMailStatusResponse = z.infer<typeof CodeMailStatusResponseSchema>;

export const Verify2faResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
  user: UserSchema,
});
export type Verify2faResponse = z.infer<typeof Verify2faResponseSchema>;

export const RefreshTokenResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
});
export type RefreshTokenResponse = z.infer<typeof RefreshTokenResponseSchema>;

export const ForgotPasswordRequestSchema = z.object({ email: emailField.max(254) });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;

/** The reset-confirm call; the form adds the confirmation (see ResetPasswordFormSchema). */
export const ResetPasswordRequestSchema = z.object({
  token: text().min(1).max(200),
  newPassword: text({ error: 'Password is required' })
    .min(1, 'Password is required')
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(256),
});
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

export const ResetPasswordFormSchema = z
  .object({
    newPassword: ResetPasswordRequestSchema.shape.newPassword,
    confirmPassword: text({ error: 'Please confirm your password' }).min(
      1,
      'Please confirm your password',
    ),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof ResetPasswordFormSchema>;

/** Change password (spec §5); the server also checks `currentPassword` (ARCHITECTURE). */
export const ChangePasswordRequestSchema = z.object({
  currentPassword: text().min(1, 'Current password is required').max(256),
  password: text()
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
    .max(256),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const ChangePasswordFormSchema = z
  .object({
    currentPassword: text().min(1, 'Current password is required'),
    newPassword: text().min(1, 'New password is required'),
    confirmPassword: text().min(1, 'Please confirm your new password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'New passwords do not match',
    path: ['confirmPassword'],
  })
  .refine((v) => v.newPassword.length >= MIN_PASSWORD_LENGTH, {
    message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
    path: ['newPassword'],
  });
export type ChangePasswordForm = z.infer<typeof ChangePasswordFormSchema>;

export const ResendVerificationResponseSchema = SuccessMessageResponseSchema;
export type ResendVerificationResponse = z.infer<typeof ResendVerificationResponseSchema>;
export const LogoutResponseSchema = SuccessMessageResponseSchema;
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;
export const ChangePasswordResponseSchema = SuccessMessageResponseSchema;
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;
export const ForgotPasswordResponseSchema = SuccessMessageResponseSchema;
export type ForgotPasswordResponse = z.infer<typeof ForgotPasswordResponseSchema>;
export const ResetPasswordResponseSchema = SuccessMessageResponseSchema;
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponseSchema>;
