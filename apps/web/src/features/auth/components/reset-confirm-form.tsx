import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { ResetPasswordFormSchema } from '@portal/contract';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { NewPasswordFields } from '@/ui/password-field';
import { useResetPassword } from '../api/reset-password';

/** Set New Password, reached through the e-mailed link's token (spec §2, §5 Reset confirm). */
export function ResetConfirmForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(ResetPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ newPassword }) =>
    resetPassword.mutate(
      { token, newPassword },
      {
        onSuccess: () => {
          toast.success('Password reset successfully!');
          navigate(paths.login, { replace: true });
        },
        onError: (error) => toast.error(errorMessage(error, 'Failed to reset password')),
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-labelledby="reset-title">
      <NewPasswordFields
        confirmLabel="Confirm Password"
        newPassword={{ ...register('newPassword'), error: errors.newPassword?.message }}
        confirmPassword={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
      />
      <Button type="submit" size="lg" className="w-full" disabled={resetPassword.isPending}>
        Reset Password
      </Button>
    </form>
  );
}
