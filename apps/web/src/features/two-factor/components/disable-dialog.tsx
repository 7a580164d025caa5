import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/http';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { Field } from '@/ui/field';
import { PasswordField } from '@/ui/password-field';
import { toast } from '@/lib/toast';
import { useDisableApp } from '../api/two-factor';

/** Turning the app off: the password and a code from the app or a recovery code. */
export function DisableDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const disable = useDisableApp();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = (next: boolean) => {
    if (!next) {
      setPassword('');
      setCode('');
      setError(null);
    }
    onOpenChange(next);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    disable.mutate(
      { password, code },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          close(false);
        },
        onError: (failure) => setError(errorMessage(failure, 'Could not turn the app off')),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Turn off the authenticator app"
      description="Sign-in will ask for a code sent by e-mail again. Your recovery codes stop working."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field
          label="Code from the app, or a recovery code"
          name="code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          className="font-mono"
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={error} />
        <DialogActions
          action="Turn off"
          danger
          disabled={!password || !code.trim()}
          busy={disable.isPending}
          onCancel={() => close(false)}
        />
      </form>
    </Dialog>
  );
}
