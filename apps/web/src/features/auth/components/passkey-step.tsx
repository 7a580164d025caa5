import { KeyRound } from 'lucide-react';
import { Button } from '@/ui/button';
import { SignInNotice, type Notice } from './sign-in-notice';

/**
 * The sign-in modal's passkey step: one button opens the device's prompt; a recovery code
 * stands in when the device is not at hand. No code is mailed for this step.
 */
export function PasskeyStep({
  busy,
  notice,
  onUse,
  onRecover,
}: {
  /** The prompt is open, or its answer is being checked. */
  busy: boolean;
  notice: Notice;
  onUse(): void;
  onRecover(): void;
}) {
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3">
        <KeyRound className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
        <p className="text-sm text-slate-700">
          Your device will ask for your fingerprint, face or screen lock, or for a phone or security
          key that holds your passkey.
        </p>
      </div>
      <div aria-live="polite" aria-atomic="true" className="space-y-2">
        {busy ? (
          <p className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
            Waiting for your passkey…
          </p>
        ) : (
          <SignInNotice notice={notice} />
        )}
      </div>
      <div className="flex flex-col gap-2 sm:flex-row-reverse">
        {/* focused as the modal opens: Enter starts the prompt */}
        <Button className="max-md:h-11 sm:flex-1" busy={busy} onClick={onUse} autoFocus>
          Use your passkey
        </Button>
        <Button
          variant="secondary"
          className="max-md:h-11 sm:flex-1"
          onClick={onRecover}
          disabled={busy}
        >
          Use a recovery code instead
        </Button>
      </div>
    </div>
  );
}
