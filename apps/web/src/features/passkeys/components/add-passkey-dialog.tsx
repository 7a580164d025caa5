import { zodResolver } from '@hookform/resolvers/zod';
import {
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { PASSKEY_NAME_MAX, PasskeyNameSchema, PasskeyOptionsRequestSchema } from '@portal/contract';
import { RecoveryCodes } from '@/features/two-factor/components/recovery-codes';
import { toast } from '@/lib/toast';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { Field } from '@/ui/field';
import { PasswordField } from '@/ui/password-field';
import { useAddPasskey, useRegistrationOptions } from '../api/passkeys';
import { ceremonyErrorMessage } from '../utils/ceremony-error';

const AddPasskeyFormSchema = PasskeyOptionsRequestSchema.extend({ name: PasskeyNameSchema });
type AddPasskeyForm = { name: string; password: string };

/**
 * Adding a passkey: a name and the password, then the device's own prompt (fingerprint, face or
 * screen lock) creates it; for the account's first second step, the recovery codes, shown once.
 */
export function AddPasskeyDialog({
  open,
  onOpenChange,
  defaultName,
  onAdded,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  defaultName: string;
  /** Told once the passkey is added. */
  onAdded?(): void;
}) {
  const options = useRegistrationOptions();
  const add = useAddPasskey();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // said while the device's prompt is open
  const [prompting, setPrompting] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const close = (next: boolean) => {
    // an add under way ends in the recovery codes, which must not be lost with the dialog
    if (busy) return;
    if (!next) {
      setError(null);
      setCodes(null);
    }
    onOpenChange(next);
  };

  const create = async ({ name, password }: AddPasskeyForm) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const ready = await options.mutateAsync({ password });
      setPrompting(ready.message);
      // the server builds the options for this library; the contract checks only the challenge
      const credential = await startRegistration({
        optionsJSON: ready.data as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      setPrompting(null);
      const answer = await add.mutateAsync({ name, credential });
      toast.success(answer.message);
      onAdded?.();
      if (answer.data.recoveryCodes) setCodes(answer.data.recoveryCodes);
      else onOpenChange(false);
    } catch (failure) {
      setError(ceremonyErrorMessage(failure, 'create'));
    } finally {
      setPrompting(null);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={codes ? 'Save your recovery codes' : 'Add a passkey'}
      description={
        codes
          ? 'Your passkey is added: sign-in now asks for it instead of an e-mailed code. If you cannot use it, a recovery code signs you in.'
          : 'Enter your password, then follow your device’s prompt: your fingerprint, face or screen lock creates the passkey.'
      }
    >
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => close(false)} />
      ) : (
        <AddPasskeyFields
          defaultName={defaultName}
          busy={busy}
          error={error}
          prompting={prompting}
          onSubmit={create}
          onCancel={() => close(false)}
        />
      )}
    </Dialog>
  );
}

/** The form, mounted with the dialog's content: it starts afresh at each opening. */
function AddPasskeyFields({
  defaultName,
  busy,
  error,
  prompting,
  onSubmit,
  onCancel,
}: {
  defaultName: string;
  busy: boolean;
  error: string | null;
  prompting: string | null;
  onSubmit(values: AddPasskeyForm): void;
  onCancel(): void;
}) {
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<AddPasskeyForm>({
    resolver: zodResolver(AddPasskeyFormSchema),
    defaultValues: { name: defaultName, password: '' },
    reValidateMode: 'onSubmit',
  });
  const [name = '', password = ''] = useWatch({ control, name: ['name', 'password'] });
  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} noValidate className="space-y-4">
      <div className="space-y-1">
        <Field
          label="Passkey name"
          autoComplete="off"
          maxLength={PASSKEY_NAME_MAX}
          error={errors.name?.message}
          // the field points at its error when it has one
          {...(errors.name ? {} : { 'aria-describedby': 'passkey-name-hint' })}
          {...register('name')}
        />
        <p id="passkey-name-hint" className="text-sm text-slate-600">
          A name that tells you which device or password manager keeps it.
        </p>
      </div>
      <PasswordField
        label="Password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <div aria-live="polite" role="status">
        {prompting && (
          <p className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">{prompting}</p>
        )}
      </div>
      <FormError message={error} />
      <DialogActions
        action="Create passkey"
        disabled={!name.trim() || !password}
        busy={busy}
        onCancel={onCancel}
      />
    </form>
  );
}
