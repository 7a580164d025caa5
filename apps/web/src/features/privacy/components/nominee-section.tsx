import { zodResolver } from '@hookform/resolvers/zod';
import { UserRoundCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  NOMINEE_RELATIONS,
  NomineeRequestSchema,
  type Nominee,
  type NomineeRequest,
} from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { Field } from '@/ui/field';
import { QueryStates } from '@/ui/query-states';
import { SelectField } from '@/ui/select-field';
import { useNominee, useRemoveNominee, useSaveNominee } from '../api/privacy';

const RELATIONS = NOMINEE_RELATIONS.map((relation) => ({ value: relation, label: relation }));

/** Naming or changing the nominee; mounted only while its dialog is open, so it starts afresh. */
function NomineeForm({ saved, onDone }: { saved: Nominee | null; onDone(): void }) {
  const save = useSaveNominee();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NomineeRequest>({
    resolver: zodResolver(NomineeRequestSchema),
    defaultValues: saved
      ? { name: saved.name, email: saved.email, relation: saved.relation }
      : { name: '', email: '' },
  });
  const onSubmit = handleSubmit((body) => {
    setError(null);
    save.mutate(body, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onDone();
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not save your nominee')),
    });
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
      <Field
        label="E-mail address"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...register('email')}
      />
      <SelectField
        label="Who they are to you"
        placeholder="Choose one"
        options={RELATIONS}
        error={errors.relation?.message}
        {...register('relation')}
      />
      <FormError message={error} />
      <DialogActions action="Save nominee" busy={save.isPending} onCancel={onDone} />
    </form>
  );
}

/**
 * The person the customer names to exercise their data rights if they die or become unable to
 * (DPDP Act 2023, s. 14): named, changed or removed here, and told by e-mail each time.
 */
export function NomineeSection() {
  const query = useNominee();
  const remove = useRemoveNominee();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const nominee = query.data?.nominee ?? null;

  const confirmRemove = () =>
    remove.mutate(undefined, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        setRemoving(false);
      },
      onError: (failure) => toast.error(errorMessage(failure, 'Could not remove your nominee')),
    });

  return (
    <Card aria-labelledby="nominee-heading">
      <CardHeader title={<span id="nominee-heading">Nominee</span>} />
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-700">
          Name someone who may see, correct or erase your data on your behalf if you die or become
          unable to, as the Digital Personal Data Protection Act, 2023 allows. We tell them by
          e-mail.
        </p>
        <QueryStates query={query} errorText="Failed to load your nominee">
          {() => (
            <div className="flex flex-col gap-4 md:flex-row md:items-center md:justify-between">
              <div className="flex min-w-0 items-start gap-3 text-sm text-slate-700">
                <UserRoundCheck
                  className="mt-0.5 h-5 w-5 shrink-0 text-slate-500"
                  aria-hidden="true"
                />
                {nominee ? (
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {nominee.name}, your {nominee.relation.toLowerCase()}
                    </p>
                    <p className="break-all">{nominee.email}</p>
                    <p>Named on {formatDate(nominee.nominatedAt)}</p>
                  </div>
                ) : (
                  <p>You have not named a nominee.</p>
                )}
              </div>
              <div className="flex flex-col gap-2 sm:flex-row">
                <Button
                  variant={nominee ? 'secondary' : 'primary'}
                  className="max-md:h-11 max-md:w-full"
                  onClick={() => setEditing(true)}
                >
                  {nominee ? 'Change nominee' : 'Name a nominee'}
                </Button>
                {nominee && (
                  <Button
                    variant="secondary"
                    className="max-md:h-11 max-md:w-full"
                    onClick={() => setRemoving(true)}
                  >
                    Remove nominee
                  </Button>
                )}
              </div>
            </div>
          )}
        </QueryStates>
      </CardBody>
      <Dialog
        open={editing}
        onOpenChange={setEditing}
        title={nominee ? 'Change your nominee' : 'Name a nominee'}
        description="They are told by e-mail that you named them, and a nominee you replace is told too."
      >
        <NomineeForm saved={nominee} onDone={() => setEditing(false)} />
      </Dialog>
      <Dialog
        open={removing}
        onOpenChange={setRemoving}
        title="Remove your nominee?"
        description={`${nominee?.name ?? 'Your nominee'} is told by e-mail that they are no longer your nominee.`}
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" className="max-md:h-11" onClick={() => setRemoving(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            className="max-md:h-11"
            busy={remove.isPending}
            onClick={confirmRemove}
          >
            Remove
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
