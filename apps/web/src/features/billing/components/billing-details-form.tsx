import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import {
  BillingDetailsRequestSchema,
  GST_STATE_OPTIONS,
  type BillingDetails,
  type BillingDetailsRequest,
} from '@portal/contract';
import { ApiError, errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Field } from '@/ui/field';
import { SelectField } from '@/ui/select-field';
import { useSaveBillingDetails } from '../api/save-billing-details';

type FormValues = BillingDetailsRequest;
const FIELDS: (keyof FormValues)[] = [
  'gstin',
  'addressLine1',
  'addressLine2',
  'city',
  'stateCode',
  'pin',
];

/** The form starts from the saved details, or from the GSTIN given at sign-up. */
const startingValues = (saved: BillingDetails | null, registeredGstin: string): FormValues => ({
  gstin: saved?.gstin ?? registeredGstin,
  addressLine1: saved?.addressLine1 ?? '',
  addressLine2: saved?.addressLine2 ?? '',
  city: saved?.city ?? '',
  stateCode: saved?.stateCode ?? '',
  pin: saved?.pin ?? '',
});

/** The field a 400 names ("gstin: This GSTIN is not valid…"), so the message goes beside it. */
function fieldError(error: unknown): { field: keyof FormValues; message: string } | null {
  if (!(error instanceof ApiError)) return null;
  const match = /^(\w+): (.+)$/s.exec(errorMessage(error, ''));
  const field = FIELDS.find((name) => name === match?.[1]);
  return field && match ? { field, message: match[2]! } : null;
}

const STATE_CHOICES = GST_STATE_OPTIONS.map((state) => ({ value: state.code, label: state.label }));

/** The billing address and GSTIN, checked as the server checks them, each message by its field. */
export function BillingDetailsForm({
  saved,
  registeredGstin,
  submitLabel = 'Save billing details',
  onSaved,
  onCancel,
}: {
  saved: BillingDetails | null;
  registeredGstin: string;
  submitLabel?: string;
  onSaved(details: BillingDetails): void;
  onCancel(): void;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const mutation = useSaveBillingDetails();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(BillingDetailsRequestSchema),
    defaultValues: startingValues(saved, registeredGstin),
  });
  const errorOf = (name: Path<FormValues>) => errors[name]?.message;

  const onSubmit = handleSubmit((values) => {
    setServerError(null);
    mutation.mutate(values, {
      onSuccess: (answer) => onSaved(answer.billingDetails),
      onError: (error) => {
        const problem = fieldError(error);
        if (problem) setError(problem.field, { message: problem.message }, { shouldFocus: true });
        else setServerError(errorMessage(error, 'Failed to save billing details'));
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field
        label="GSTIN"
        autoComplete="off"
        spellCheck={false}
        className="uppercase"
        error={errorOf('gstin')}
        {...register('gstin')}
      />
      <Field
        label="Address line 1"
        autoComplete="address-line1"
        error={errorOf('addressLine1')}
        {...register('addressLine1')}
      />
      <Field
        label="Address line 2 (optional)"
        autoComplete="address-line2"
        error={errorOf('addressLine2')}
        {...register('addressLine2')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="City"
          autoComplete="address-level2"
          error={errorOf('city')}
          {...register('city')}
        />
        <Field
          label="PIN code"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={6}
          error={errorOf('pin')}
          {...register('pin')}
        />
      </div>
      <SelectField
        label="State"
        placeholder="Choose a State"
        options={STATE_CHOICES}
        error={errorOf('stateCode')}
        {...register('stateCode')}
      />
      <div aria-live="assertive">
        {serverError && (
          <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{serverError}</p>
        )}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" busy={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
