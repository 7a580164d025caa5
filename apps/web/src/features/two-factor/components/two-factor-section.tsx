import { Smartphone } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '@/lib/http';
import { formatDateTime } from '@/lib/format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { useTwoFactorStatus } from '../api/two-factor';
import { DisableDialog } from './disable-dialog';
import { SetupDialog } from './setup-dialog';

/**
 * The Security page's "Authenticator app" section: set it up, or see it and turn it off.
 * `onChanged` is told when it is turned on or off.
 */
export function TwoFactorSection({ onChanged }: { onChanged?(): void }) {
  const status = useTwoFactorStatus();
  const [dialog, setDialog] = useState<'setup' | 'disable' | null>(null);
  const state = status.data?.data;
  // with a passkey too, sign-in asks for the passkey first, and the app is still on
  const on = state?.enabledAt != null;
  const passkeyFirst = state?.secondFactor === 'passkey';

  return (
    <Card aria-labelledby="two-factor-heading">
      <CardHeader
        title={<span id="two-factor-heading">Authenticator app</span>}
        action={on ? <Badge tone="green">On</Badge> : state && <Badge tone="grey">Off</Badge>}
      />
      <CardBody className="space-y-4">
        {status.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3">
            <p className="text-sm text-red-700">
              {errorMessage(status.error, 'Failed to load your second factor')}
            </p>
            <Button
              variant="secondary"
              aria-label="Retry loading the authenticator app"
              onClick={() => void status.refetch()}
            >
              Retry
            </Button>
          </div>
        ) : !state ? (
          <div className="h-16 animate-pulse rounded-md bg-slate-100" aria-label="Loading" />
        ) : (
          <div className="flex flex-col gap-4 md:flex-row md:items-center md:justify-between">
            <div className="flex items-start gap-3">
              <Smartphone className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
              {on ? (
                <div className="space-y-1 text-sm text-slate-700">
                  <p>
                    {passkeyFirst
                      ? 'Sign-in asks for your passkey first.'
                      : 'Sign-in asks for a code from your authenticator app.'}{' '}
                    On since {formatDateTime(state.enabledAt ?? '')}.
                  </p>
                  <p>{state.recoveryCodesLeft} of 10 recovery codes left.</p>
                </div>
              ) : (
                <p className="text-sm text-slate-700">
                  {passkeyFirst
                    ? 'Sign-in asks for your passkey. An authenticator app can be set up as well.'
                    : 'Sign-in asks for a code sent by e-mail. Use an authenticator app on your phone instead, so that a code never travels by e-mail.'}
                </p>
              )}
            </div>
            <Button
              variant={on ? 'secondary' : 'primary'}
              className="max-md:h-11 max-md:w-full"
              onClick={() => setDialog(on ? 'disable' : 'setup')}
            >
              {on ? 'Turn off' : 'Set up'}
            </Button>
          </div>
        )}
      </CardBody>
      <SetupDialog
        open={dialog === 'setup'}
        onOpenChange={(open) => setDialog(open ? 'setup' : null)}
        onEnabled={onChanged}
      />
      <DisableDialog
        open={dialog === 'disable'}
        onOpenChange={(open) => setDialog(open ? 'disable' : null)}
        onDisabled={onChanged}
      />
    </Card>
  );
}
