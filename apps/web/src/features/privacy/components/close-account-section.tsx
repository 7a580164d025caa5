import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CloseAccountRequestSchema, type CloseAccountRequest } from '@portal/contract';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { PasswordCodeForm, codeBox, passwordBox } from '@/ui/password-code-form';
import { toast } from '@/lib/toast';
import { useCloseAccount, useSendCloseAccountCode } from '../api/privacy';

/**
 * Closing needs the password and a code mailed for it; then the customer is signed out. Mounted
 * only while the dialog is open, so that it starts empty each time.
 */
function CloseAccountForm({ onDone }: { onDone(): void }) {
  const sendCode = useSendCloseAccountCode();
  const closeAccount = useCloseAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [codeSent, setCodeSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const askForCode = () => {
    setError(null);
    sendCode.mutate(undefined, {
      onSuccess: (answer) => {
        setCodeSent(true);
        toast.success(answer.message);
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not send the code')),
    });
  };

  const confirmClosing = (body: CloseAccountRequest) => {
    setError(null);
    closeAccount.mutate(body, {
      onSuccess: (answer) => {
        useSessionStore.getState().clearSession();
        queryClient.clear();
        navigate(paths.login, { replace: true });
        toast.success(answer.message);
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not close the account')),
    });
  };

  return (
    <PasswordCodeForm
      schema={CloseAccountRequestSchema}
      boxes={[
        passwordBox,
        codeBox({
          label: 'Code from the e-mail',
          inputMode: 'numeric',
          after: (
            <Button
              variant="secondary"
              className="max-md:h-11 max-md:w-full"
              busy={sendCode.isPending}
              onClick={askForCode}
            >
              {codeSent ? 'Send a new code' : 'Send code'}
            </Button>
          ),
        }),
      ]}
      onSubmit={confirmClosing}
      actions={(ready) => (
        <>
          <FormError message={error} />
          <DialogActions
            action="Close account"
            danger
            disabled={!ready}
            busy={closeAccount.isPending}
            onCancel={onDone}
          />
        </>
      )}
    />
  );
}

/** What closing the account does, and the way to do it. */
export function CloseAccountSection() {
  const [open, setOpen] = useState(false);
  return (
    <Card aria-labelledby="close-account-heading" className="border-red-200">
      <CardHeader title={<span id="close-account-heading">Close account</span>} />
      <CardBody className="space-y-4 text-sm text-slate-700">
        <ul className="list-disc space-y-1 pl-5">
          <li>Every consent you gave is revoked at the bank, and every session ends.</li>
          <li>
            Your profile, billing address, activity, sign-in history and preferences are erased.
          </li>
          <li>
            Your invoices and orders are kept for 72 months, as GST law requires, and then deleted.
          </li>
        </ul>
        <Button
          variant="danger"
          className="max-md:h-11 max-md:w-full"
          onClick={() => setOpen(true)}
        >
          Close account
        </Button>
      </CardBody>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Close your account"
        description="This cannot be undone. Enter your password and the code we e-mail you."
      >
        <CloseAccountForm onDone={() => setOpen(false)} />
      </Dialog>
    </Card>
  );
}
