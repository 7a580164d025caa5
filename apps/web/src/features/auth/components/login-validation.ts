import { LoginRequestSchema, type LoginRequest } from '@portal/contract';

export type LoginErrors = Partial<Record<keyof LoginRequest, string>>;

/**
 * The credentials step's checks, from the contract; loaded apart from the form (zod is large).
 * The first message of each field, as the form shows one a field.
 */
export function validateLogin(
  values: unknown,
): { success: true; credentials: LoginRequest } | { success: false; errors: LoginErrors } {
  const parsed = LoginRequestSchema.safeParse(values);
  if (parsed.success) return { success: true, credentials: parsed.data };
  const errors: LoginErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof LoginRequest;
    errors[field] ??= issue.message;
  }
  return { success: false, errors };
}
