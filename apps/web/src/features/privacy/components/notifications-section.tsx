import type { NotificationPreferences } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { toast } from '@/lib/toast';
import { usePreferences, useSavePreferences } from '../api/privacy';

const SWITCHES: { key: keyof NotificationPreferences; label: string; hint: string }[] = [
  {
    key: 'reminders',
    label: 'Reminders',
    hint: 'Your plan’s end and a consent’s expiry, 30, 7 and 1 days before.',
  },
  {
    key: 'consentChanges',
    label: 'Consent changes',
    hint: 'When the bank approves, rejects or ends one of your consents.',
  },
];

/** Which e-mails the customer receives; each switch is saved as soon as it is changed. */
export function NotificationsSection() {
  const preferences = usePreferences();
  const save = useSavePreferences();
  const current = preferences.data;
  // a change shows at once; a failed save puts the switch back
  const shown = save.isPending ? save.variables : current;

  const change = (key: keyof NotificationPreferences, on: boolean) => {
    // one save at a time; the switches stay enabled, so that focus stays on the one pressed
    if (!current || save.isPending) return;
    save.mutate(
      { ...current, [key]: on },
      {
        onSuccess: (answer) => toast.success(answer.message),
        onError: (failure) =>
          toast.error(errorMessage(failure, 'Could not save your notification preferences')),
      },
    );
  };

  return (
    <Card aria-labelledby="notifications-heading">
      <CardHeader title={<span id="notifications-heading">E-mail notifications</span>} />
      <CardBody className="space-y-4">
        {preferences.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3">
            <p className="text-sm text-red-700">
              {errorMessage(preferences.error, 'Failed to load your notification preferences')}
            </p>
            <Button
              variant="secondary"
              aria-label="Retry loading your notification preferences"
              onClick={() => void preferences.refetch()}
            >
              Retry
            </Button>
          </div>
        ) : !shown ? (
          <div className="h-24 animate-pulse rounded-md bg-slate-100" aria-label="Loading" />
        ) : (
          <ul className="space-y-3">
            {SWITCHES.map(({ key, label, hint }) => (
              <li key={key}>
                <label className="flex min-h-11 items-start gap-3">
                  <input
                    type="checkbox"
                    role="switch"
                    name={key}
                    className="mt-0.5 h-5 w-5 shrink-0 accent-blue-700"
                    checked={shown[key]}
                    aria-disabled={save.isPending || undefined}
                    aria-describedby={`${key}-hint`}
                    onChange={(event) => change(key, event.target.checked)}
                  />
                  <span>
                    <span className="block text-sm font-medium text-slate-900">{label}</span>
                    <span id={`${key}-hint`} className="block text-sm text-slate-600">
                      {hint}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        <p className="text-sm text-slate-600">
          Security notices are always sent: sign-in codes, sign-ins from a new browser, and changes
          to your password, e-mail address or second factor.
        </p>
      </CardBody>
    </Card>
  );
}
