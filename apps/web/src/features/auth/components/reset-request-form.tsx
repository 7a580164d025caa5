import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { ForgotPasswordRequestSchema, RESET_REDIRECT_DELAY_MS } from '@portal/contract';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Field } from '@/ui/field';
import { useForgotPassword } from '../api/forgot-password';

/** Reset Password request (spec §2, §4 Other): a green message, then /login after 2 s. */
export function ResetRequestForm() {
  const navigate = useNavigate();
  const [sent, setSent] = useState(false);
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ForgotPasswordRequestSchema), defaultValues: { email: '' } });

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => navigate(paths.login), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [sent, navigate]);

  const onSubmit = handleSubmit((input) =>
    forgot.mutate(input, {
      onSuccess: () => {
        reset();
        setSent(true);
        toast.success('Password reset email sent!');
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to send reset email')),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-labelledby="reset-title">
      {sent && (
        <p className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
          Password reset email sent!
        </p>
      )}
      <Field
        label="Email Address"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={forgot.isPending || sent}>
        Send Reset Link
      </Button>
    </form>
  );
}
