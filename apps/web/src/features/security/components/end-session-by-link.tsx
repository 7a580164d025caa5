import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { securityMessages } from '@portal/contract';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Card, CardBody } from '@/ui/card';
import { useEndSessionByLink } from '../api/end-session-by-link';

/** The token travels in the fragment, which browsers never send to a server or a proxy log. */
const tokenOfLocation = () => new URLSearchParams(window.location.hash.slice(1)).get('token');

const linkStyle =
  'rounded font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

/**
 * The new-browser notice's link lands here. Ending takes a press of the button, not the
 * opening of the page: mail scanners open links, and must not sign anyone out.
 */
export function EndSessionByLink() {
  const token = tokenOfLocation();
  const end = useEndSessionByLink();

  return (
    <main className="flex min-h-dvh items-start justify-center bg-slate-50 px-4 py-10 md:items-center">
      <Card className="w-full max-w-md">
        <CardBody className="space-y-4 p-6">
          <h1 className="flex items-center gap-2 text-xl font-bold text-slate-900">
            {end.isSuccess ? (
              <ShieldCheck className="h-6 w-6 text-green-700" aria-hidden="true" />
            ) : (
              <ShieldAlert className="h-6 w-6 text-amber-700" aria-hidden="true" />
            )}
            End a session
          </h1>
          {!token ? (
            <p role="alert" className="text-sm text-red-700">
              {securityMessages.endLinkInvalid}
            </p>
          ) : end.isSuccess ? (
            <div role="status" className="space-y-2 text-sm text-slate-800">
              <p>
                {end.data.message} ({end.data.data.browser})
              </p>
              <p>If it was not you who signed in, set a new password now.</p>
            </div>
          ) : (
            <>
              <p className="text-sm text-slate-700">
                We told you of a sign-in from a new browser. If it was not you, end that session
                now: it is signed out at once.
              </p>
              {end.isError && (
                <p role="alert" className="text-sm text-red-700">
                  {errorMessage(end.error, 'Could not end the session. Please try again.')}
                </p>
              )}
              <Button
                variant="danger"
                className="h-11 w-full"
                onClick={() => end.mutate(token)}
                busy={end.isPending}
              >
                End that session
              </Button>
            </>
          )}
          <p className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
            <Link to={paths.resetPassword} className={linkStyle}>
              Reset your password
            </Link>
            <Link to={paths.login} className={linkStyle}>
              Sign in
            </Link>
          </p>
        </CardBody>
      </Card>
    </main>
  );
}
