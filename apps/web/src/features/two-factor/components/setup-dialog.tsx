import { useEffect, useState } from 'react';
import { EnableTwoFactorRequestSchema, type EnableTwoFactorRequest } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { CopyButton } from '@/ui/copy-button';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { Field } from '@/ui/field';
import { PasswordCodeForm, codeBox, passwordBox } from '@/ui/password-code-form';
import { toast } from '@/lib/toast';
import { useEnableApp, useStartSetup } from '../api/two-factor';
import { RecoveryCodes } from './recovery-codes';

const boxes = [
  codeBox({
    label: 'Code from the app',
    // digits, and the space in the middle that apps show
    keep: (typed) => typed.replace(/[^\d ]/g, '').slice(0, 7),
    isComplete: (code) => code.replace(' ', '').length === 6,
    inputMode: 'numeric',
    className: 'tracking-widest',
  }),
  passwordBox,
];

/**
 * Set-up of the authenticator app: the QR code (and the secret as text), then the password and
 * the app's first code, then the recovery codes, shown once.
 */
export function SetupDialog({
  open,
  onOpenChange,
  onEnabled,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Told once the app is on. */
  onEnabled?(): void;
}) {
  const setup = useStartSetup();
  const enable = useEnableApp();
  const [error, setError] = useState<string | null>(null);
  const { mutate: startSetup, reset: resetSetup } = setup;
  const { reset: resetEnable } = enable;

  useEffect(() => {
    if (open) startSetup();
  }, [open, startSetup]);

  const close = (next: boolean) => {
    if (!next) {
      setError(null);
      resetSetup();
      resetEnable();
    }
    onOpenChange(next);
  };

  const turnOn = (body: EnableTwoFactorRequest) => {
    setError(null);
    enable.mutate(body, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onEnabled?.();
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not turn the app on')),
    });
  };

  const codes = enable.data?.data.recoveryCodes;
  const secret = setup.data?.data;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={codes ? 'Save your recovery codes' : 'Set up an authenticator app'}
      description={
        codes
          ? 'The authenticator app is on. Sign-in now asks for its code instead of an e-mailed one.'
          : 'Scan the QR code with an authenticator app, such as Google Authenticator or Microsoft Authenticator, then enter the code it shows.'
      }
    >
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => close(false)} />
      ) : setup.isError ? (
        <div role="alert" className="space-y-3">
          <p className="text-sm text-red-700">
            {errorMessage(setup.error, 'Could not start the set-up')}
          </p>
          <Button variant="secondary" onClick={() => startSetup()}>
            Retry
          </Button>
        </div>
      ) : !secret ? (
        <p className="text-sm text-slate-600" role="status">
          Preparing your QR code…
        </p>
      ) : (
        <PasswordCodeForm
          schema={EnableTwoFactorRequestSchema}
          boxes={boxes}
          intro={
            <>
              <img
                src={secret.qrCode}
                alt="QR code for your authenticator app"
                width={192}
                height={192}
                className="mx-auto h-48 w-48"
              />
              <div className="space-y-2">
                <Field
                  label="Set-up key"
                  value={secret.secret}
                  readOnly
                  spellCheck={false}
                  className="font-mono"
                  aria-describedby="setup-key-hint"
                />
                <p id="setup-key-hint" className="text-sm text-slate-600">
                  Cannot scan? Type this key into the app instead.
                </p>
                <CopyButton value={secret.secret} label="key" showLabel />
              </div>
            </>
          }
          onSubmit={turnOn}
          actions={(ready) => (
            <>
              <FormError message={error} />
              <DialogActions
                action="Turn on"
                disabled={!ready}
                busy={enable.isPending}
                onCancel={() => close(false)}
              />
            </>
          )}
        />
      )}
    </Dialog>
  );
}
