import { forwardRef } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field, type FieldProps } from './field';

/** A password input with its show/hide toggle. */
export const PasswordField = forwardRef<HTMLInputElement, Omit<FieldProps, 'type' | 'revealable'>>(
  function PasswordField(props, ref) {
    return <Field ref={ref} type="password" revealable {...props} />;
  },
);

/** A registered form field with its validation message. */
type RegisteredField = UseFormRegisterReturn & { error?: string };

/** 'New Password' and its confirmation, both marked for the browser's password manager as new. */
export function NewPasswordFields({
  confirmLabel,
  newPassword,
  confirmPassword,
}: {
  confirmLabel: string;
  newPassword: RegisteredField;
  confirmPassword: RegisteredField;
}) {
  return (
    <>
      <PasswordField label="New Password" autoComplete="new-password" {...newPassword} />
      <PasswordField label={confirmLabel} autoComplete="new-password" {...confirmPassword} />
    </>
  );
}
