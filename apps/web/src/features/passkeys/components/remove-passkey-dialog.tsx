import { useState } from 'react';
import {
  RemovePasskeyRequestSchema,
  type Passkey,
  type RemovePasskeyRequest,
} from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { PasswordCodeForm, passwordBox } from '@/ui/password-code-form';
import { useRemovePasskey } from '../api/passkeys';

const boxes = [passwordBox];

/** What sign-in asks for once the last passkey is gone. */
const afterLast = {
  app: 'It is your last passkey: sign-in will ask for the code from your authenticator app again.',
  email:
    'It is your last passkey: sign-in codes will come by e-mail again, and your recovery codes stop working.',
} as const;

/** Removing a passkey, confirmed by the password. */
export function RemovePasskeyDialog({
  passkey,
  last,
  appOn,
  onOpenChange,
  onRemoved,
}: {
  /** The passkey to remove; the dialog is open while there is one. */
  passkey: Passkey | null;
  /** Whether it is the account's only passkey. */
  last: boolean;
  /** Whether the authenticator app is on, which sign-in falls back to. */
  appOn: boolean;
  onOpenChange(open: boolean): void;
  /** Told once the passkey is removed. */
  onRemoved?(): void;
}) {
  const remove = useRemovePasskey();
  const [error, setError] = useState<string | null>(null);
  // kept while the dialog closes, so that its words do not change as it goes
  const [shown, setShown] = useState({ passkey, last });
  if (passkey && passkey !== shown.passkey) setShown({ passkey, last });

  const close = (next: boolean) => {
    if (!next) setError(null);
    onOpenChange(next);
  };

  const confirm = (body: RemovePasskeyRequest) => {
    if (!shown.passkey) return;
    setError(null);
    remove.mutate(
      { id: shown.passkey.id, ...body },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          close(false);
          onRemoved?.();
        },
        onError: (failure) => setError(errorMessage(failure, 'Could not remove the passkey')),
      },
    );
  };

  return (
    <Dialog
      open={passkey !== null}
      onOpenChange={close}
      title="Remove this passkey?"
      description={
        <>
          “{shown.passkey?.name}” will no longer sign you in.
          {shown.last && <> {afterLast[appOn ? 'app' : 'email']}</>}
        </>
      }
    >
      <PasswordCodeForm
        schema={RemovePasskeyRequestSchema}
        boxes={boxes}
        onSubmit={confirm}
        actions={(ready) => (
          <>
            <FormError message={error} />
            <DialogActions
              action="Remove"
              danger
              disabled={!ready}
              busy={remove.isPending}
              onCancel={() => close(false)}
            />
          </>
        )}
      />
    </Dialog>
  );
}
