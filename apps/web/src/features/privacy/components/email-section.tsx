import { Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { Field } from '@/ui/field';
import { PasswordField } from '@/ui/password-field';
import { toast } from '@/lib/toast';
import { useConfirmEmailChange, useSendEmailChangeCode } from '../api/privacy';

/**
 * Changing the e-mail address in two steps: the new address and the password, then the code
 * sent to the new address. The old address is told of the change by the server. Mounted only
 * while the dialog is open, so that it starts empty each time.
 */
function EmailChangeForm({ onDone }: { onDone(): void }) {
  const sendCode = useSendEmailChangeCode();
  const confirm = useConfirmEmailChange();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!codeSentTo) {
      sendCode.mutate(
        { newEmail, password },
        {
          onSuccess: (answer) => {
            setCodeSentTo(newEmail.trim().toLowerCase());
            toast.success(answer.message);
          },
          onError: (failure) => setError(errorMessage(failure, 'Could not send the code')),
        },
      );
      return;
    }
    confirm.mutate(
      { code },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onDone();
        },
        onError: (failure) => setError(errorMessage(failure, 'Could not change the address')),
      },
    );
  };

  const busy = sendCode.isPending || confirm.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {codeSentTo ? (
        <>
          <p className="text-sm text-slate-700">Enter the 6-digit code we sent to {codeSentTo}.</p>
          <Field
            label="Code"
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            className="font-mono"
          />
        </>
      ) : (
        <>
          <Field
            label="New e-mail address"
            name="newEmail"
            type="email"
            autoComplete="email"
            value={newEmail}
            onChange={(e) => setNewEmail(e.target.value)}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </>
      )}
      <FormError message={error} />
      <DialogActions
        action={codeSentTo ? 'Confirm' : 'Send code'}
        disabled={codeSentTo ? !code.trim() : !newEmail.trim() || !password}
        busy={busy}
        onCancel={onDone}
      />
    </form>
  );
}

/** The account's e-mail address, where codes and notices go, and the way to change it. */
export function EmailSection() {
  const email = useSessionStore((state) => state.user?.email);
  const [open, setOpen] = useState(false);
  return (
    <Card aria-labelledby="email-heading">
      <CardHeader title={<span id="email-heading">E-mail address</span>} />
      <CardBody className="flex flex-col gap-4 md:flex-row md:items-center md:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <Mail className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
          <div className="min-w-0 text-sm text-slate-700">
            <p className="break-all font-medium text-slate-900">{email}</p>
            <p>Sign-in codes, receipts and notices are sent here.</p>
          </div>
        </div>
        <Button
          variant="secondary"
          className="max-md:h-11 max-md:w-full"
          onClick={() => setOpen(true)}
        >
          Change e-mail
        </Button>
      </CardBody>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Change e-mail address"
        description="We send a code to the new address. Your current address is told of the change."
      >
        <EmailChangeForm onDone={() => setOpen(false)} />
      </Dialog>
    </Card>
  );
}
