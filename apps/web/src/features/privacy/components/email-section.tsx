import { Mail } from 'lucide-react';
import { useState } from 'react';
import {
  EmailChangeCodeRequestSchema,
  EmailChangeRequestSchema,
  type EmailChangeCodeRequest,
  type EmailChangeRequest,
} from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { PasswordCodeForm, codeBox, passwordBox } from '@/ui/password-code-form';
import { toast } from '@/lib/toast';
import { useConfirmEmailChange, useSendEmailChangeCode } from '../api/privacy';

const addressBoxes = [
  { name: 'newEmail', label: 'New e-mail address', type: 'email', autoComplete: 'email' } as const,
  passwordBox,
];
const codeBoxes = [codeBox({ label: 'Code', inputMode: 'numeric' })];

/**
 * Changing the e-mail address in two steps: the new address and the password, then the code
 * sent to the new address. The old address is told of the change by the server. Mounted only
 * while the dialog is open, so that it starts empty each time.
 */
function EmailChangeForm({ onDone }: { onDone(): void }) {
  const sendCode = useSendEmailChangeCode();
  const confirm = useConfirmEmailChange();
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const askForCode = (body: EmailChangeCodeRequest) => {
    setError(null);
    sendCode.mutate(body, {
      onSuccess: (answer) => {
        // as the schema gave it: trimmed and in lower case, as the server keeps it
        setCodeSentTo(body.newEmail);
        toast.success(answer.message);
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not send the code')),
    });
  };

  const confirmChange = (body: EmailChangeRequest) => {
    setError(null);
    confirm.mutate(body, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onDone();
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not change the address')),
    });
  };

  const actions = (ready: boolean) => (
    <>
      <FormError message={error} />
      <DialogActions
        action={codeSentTo ? 'Confirm' : 'Send code'}
        disabled={!ready}
        busy={sendCode.isPending || confirm.isPending}
        onCancel={onDone}
      />
    </>
  );
  // one form through both steps, so that its action keeps the focus from one to the next
  return codeSentTo ? (
    <PasswordCodeForm
      schema={EmailChangeRequestSchema}
      boxes={codeBoxes}
      intro={
        <p className="text-sm text-slate-700">Enter the 6-digit code we sent to {codeSentTo}.</p>
      }
      onSubmit={confirmChange}
      actions={actions}
    />
  ) : (
    <PasswordCodeForm
      schema={EmailChangeCodeRequestSchema}
      boxes={addressBoxes}
      onSubmit={askForCode}
      actions={actions}
    />
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
