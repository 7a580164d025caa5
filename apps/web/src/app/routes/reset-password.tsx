import { ArrowLeft, KeyRound } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { ResetConfirmForm } from '@/features/auth/components/reset-confirm-form';
import { ResetRequestForm } from '@/features/auth/components/reset-request-form';

/** Request mode by default; confirm mode when the e-mailed link's token is present (spec §4). */
export function Component() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const title = token ? 'Set New Password' : 'Reset Password';
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10">
      {/* the token in the address must not leak to other sites */}
      <meta name="referrer" content="no-referrer" />
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="mb-6 flex items-center gap-3">
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-blue-100 text-blue-700">
            <KeyRound className="h-5 w-5" aria-hidden="true" />
          </span>
          <h1 id="reset-title" className="text-2xl font-bold text-slate-900">
            {title}
          </h1>
        </div>
        {token ? <ResetConfirmForm token={token} /> : <ResetRequestForm />}
        <Link
          to={paths.login}
          className="mt-6 inline-flex items-center gap-2 text-sm font-medium text-blue-700 underline-offset-2 hover:underline"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Back to Login
        </Link>
      </div>
    </main>
  );
}
