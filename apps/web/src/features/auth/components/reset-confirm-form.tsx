import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ResetPasswordFormSchema } from '@portal/contract';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Field } from '@/ui/field';
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
      <Field
        label="New Password"
        type="password"
        autoComplete="new-password"
        revealable
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <Field
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        revealable
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={resetPassword.isPending}>
        Reset Password
      </Button>
    </form>
  );
}
