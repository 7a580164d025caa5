import type { FieldErrors, ResolverResult } from 'react-hook-form';
import { LoginRequestSchema, type LoginRequest } from '@portal/contract';

/**
 * The credentials step's resolver, from the contract; loaded apart from the form (zod is large).
 * The first message of each field, as the form shows one a field.
 */
export function resolveLogin(values: LoginRequest): ResolverResult<LoginRequest> {
  const parsed = LoginRequestSchema.safeParse(values);
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: FieldErrors<LoginRequest> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof LoginRequest;
    errors[field] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
}
