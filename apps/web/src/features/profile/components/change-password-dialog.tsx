import { zodResolver } from '@hookform/resolvers/zod';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { ChangePasswordFormSchema, MIN_PASSWORD_LENGTH } from '@portal/contract';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { NewPasswordFields, PasswordField } from '@/ui/password-field';
import { useChangePassword } from '../api/change-password';

const emptyForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

function Requirement({ met, children }: { met: boolean; children: string }) {
  const Icon = met ? Check : X;
  return (
    <li className={cn('flex items-center gap-2', met ? 'text-green-700' : 'text-slate-600')}>
      <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
      {children}
      <span className="sr-only">{met ? '(met)' : '(not met)'}</span>
    </li>
  );
}

/** Change Password (spec §2, §4 Other, §5); errors stay inside the modal so they are heard. */
export function ChangePasswordDialog({
  userId,
  open,
  onOpenChange,
}: {
  userId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const mutation = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ChangePasswordFormSchema), defaultValues: emptyForm });
  const [newPassword = '', confirmPassword = ''] = useWatch({
    control,
    name: ['newPassword', 'confirmPassword'],
  });

  const close = () => {
    reset(emptyForm);
    setServerError(null);
    mutation.reset();
    onOpenChange(false);
  };

  const onSubmit = handleSubmit(({ currentPassword, newPassword: password }) => {
    setServerError(null);
    mutation.mutate(
      { userId, currentPassword, password },
      {
        onSuccess: () => {
          close();
          toast.success('Password changed successfully!');
        },
        onError: (error) => setServerError(errorMessage(error, 'Failed to change password')),
      },
    );
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Change Password"
      description="Update your account password"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <PasswordField
          label="Current Password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <NewPasswordFields
          confirmLabel="Confirm New Password"
          newPassword={{ ...register('newPassword'), error: errors.newPassword?.message }}
          confirmPassword={{
            ...register('confirmPassword'),
            error: errors.confirmPassword?.message,
          }}
        />
        <ul
          className="space-y-1 rounded-md bg-slate-50 p-3 text-sm"
          aria-label="Password requirements"
        >
          <Requirement met={newPassword.length >= MIN_PASSWORD_LENGTH}>
            At least 6 characters long
          </Requirement>
          <Requirement met={newPassword.length > 0 && newPassword === confirmPassword}>
            Passwords match
          </Requirement>
        </ul>
        <div aria-live="assertive">
          {serverError && (
            <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{serverError}</p>
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? 'Updating...' : 'Change Password'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
