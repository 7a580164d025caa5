import { useState } from 'react';
import { DisableTwoFactorRequestSchema, type DisableTwoFactorRequest } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { PasswordCodeForm, codeBox, passwordBox } from '@/ui/password-code-form';
import { toast } from '@/lib/toast';
import { useDisableApp } from '../api/two-factor';

const boxes = [
  codeBox({
    label: 'Code from the app, or a recovery code',
    autoCapitalize: 'off',
    spellCheck: false,
  }),
  passwordBox,
];

/** Turning the app off: the password and a code from the app or a recovery code. */
export function DisableDialog({
  open,
  onOpenChange,
  onDisabled,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Told once the app is off. */
  onDisabled?(): void;
}) {
  const disable = useDisableApp();
  const [error, setError] = useState<string | null>(null);

  const close = (next: boolean) => {
    if (!next) setError(null);
    onOpenChange(next);
  };

  const turnOff = (body: DisableTwoFactorRequest) => {
    setError(null);
    disable.mutate(body, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        close(false);
        onDisabled?.();
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not turn the app off')),
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Turn off the authenticator app"
      description="Sign-in will ask for a code sent by e-mail again. Your recovery codes stop working."
    >
      {/* the dialog's content, the form with it, is mounted only while it is open: it starts empty */}
      <PasswordCodeForm
        schema={DisableTwoFactorRequestSchema}
        boxes={boxes}
        onSubmit={turnOff}
        actions={(ready) => (
          <>
            <FormError message={error} />
            <DialogActions
              action="Turn off"
              danger
              disabled={!ready}
              busy={disable.isPending}
              onCancel={() => close(false)}
            />
          </>
        )}
      />
    </Dialog>
  );
}
