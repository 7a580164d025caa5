import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  PASSKEY_NAME_MAX,
  RenamePasskeyRequestSchema,
  type Passkey,
  type RenamePasskeyRequest,
} from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { Field } from '@/ui/field';
import { useRenamePasskey } from '../api/rename-passkey';

/** A new name for a passkey; the passkey itself does not change. */
export function RenamePasskeyDialog({
  passkey,
  onOpenChange,
}: {
  /** The passkey to rename; the dialog is open while there is one. */
  passkey: Passkey | null;
  onOpenChange(open: boolean): void;
}) {
  const rename = useRenamePasskey();
  const [error, setError] = useState<string | null>(null);
  // kept while the dialog closes, so that its content does not change as it goes
  const [shown, setShown] = useState(passkey);
  if (passkey && passkey !== shown) setShown(passkey);

  const close = (next: boolean) => {
    if (!next) setError(null);
    onOpenChange(next);
  };

  const save = ({ name }: { name: string }) => {
    if (!shown) return;
    setError(null);
    rename.mutate(
      { id: shown.id, name },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          close(false);
        },
        onError: (failure) => setError(errorMessage(failure, 'Could not rename the passkey')),
      },
    );
  };

  return (
    <Dialog
      open={passkey !== null}
      onOpenChange={close}
      title="Rename passkey"
      description="A name that tells you which device or password manager keeps it."
    >
      {shown && (
        <RenameFields
          currentName={shown.name}
          busy={rename.isPending}
          error={error}
          onSubmit={save}
          onCancel={() => close(false)}
        />
      )}
    </Dialog>
  );
}

function RenameFields({
  currentName,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  currentName: string;
  busy: boolean;
  error: string | null;
  onSubmit(values: { name: string }): void;
  onCancel(): void;
}) {
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<RenamePasskeyRequest, unknown, { name: string }>({
    resolver: zodResolver(RenamePasskeyRequestSchema),
    defaultValues: { name: currentName },
    reValidateMode: 'onSubmit',
  });
  const name = useWatch({ control, name: 'name' }) ?? '';
  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} noValidate className="space-y-4">
      <Field
        label="Passkey name"
        autoComplete="off"
        maxLength={PASSKEY_NAME_MAX}
        autoFocus
        error={errors.name?.message}
        {...register('name')}
      />
      <FormError message={error} />
      <DialogActions action="Save" disabled={!name.trim()} busy={busy} onCancel={onCancel} />
    </form>
  );
}
