import { KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { useDismissInvitation, useTwoFactorStatus } from '../api/two-factor';

const TITLE = 'Add an authenticator app or a passkey';

/**
 * The dashboard's invitation to add an authenticator app or a passkey, for a customer whose
 * sign-in codes come by e-mail: not a step of sign-in, and once turned down, not shown again in
 * any browser.
 */
export function AppInvitationCard() {
  const status = useTwoFactorStatus();
  const dismiss = useDismissInvitation();
  const data = status.data?.data;
  if (!data || data.secondFactor !== 'email' || data.invitationDismissed || dismiss.isSuccess) {
    return null;
  }
  return (
    <Card aria-labelledby="app-invitation-heading">
      <CardHeader
        title={
          <span id="app-invitation-heading" className="inline-flex items-center gap-2">
            <KeyRound className="h-5 w-5 text-blue-700" aria-hidden="true" />
            {TITLE}
          </span>
        }
      />
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-700">
          Your sign-in codes come by e-mail. An authenticator app on your phone, or a passkey that
          signs you in with your fingerprint, face or screen lock, takes their place, so that your
          account stays safe even if someone gets into your mailbox.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Link
            to={paths.security}
            className="inline-flex min-h-11 items-center justify-center rounded-md bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 max-sm:w-full md:min-h-9"
          >
            Set up on the Security page
          </Link>
          <Button
            variant="secondary"
            className="max-sm:h-11 max-sm:w-full"
            onClick={() => dismiss.mutate()}
            busy={dismiss.isPending}
          >
            No, thanks
          </Button>
        </div>
        {dismiss.isError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {errorMessage(dismiss.error, 'Could not save your choice. Please try again.')}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
