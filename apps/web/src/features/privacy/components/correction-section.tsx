import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  CORRECTABLE_FIELDS,
  CorrectionRequestSchema,
  correctableFieldLabels,
  type Correction,
  type CorrectionRequest,
} from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { formatDate } from '@/lib/format';
import { Badge, type BadgeTone } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { FormError } from '@/ui/dialog-actions';
import { Field } from '@/ui/field';
import { QueryStates } from '@/ui/query-states';
import { SelectField } from '@/ui/select-field';
import { useCorrections, useRequestCorrection } from '../api/privacy';

const FIELDS = CORRECTABLE_FIELDS.map((field) => ({
  value: field,
  label: correctableFieldLabels[field],
}));

const TONES: Record<Correction['status'], BadgeTone> = {
  Waiting: 'yellow',
  Corrected: 'green',
  Declined: 'red',
};

function CorrectionForm() {
  const ask = useRequestCorrection();
  const [error, setError] = useState<string | null>(null);
  const [recorded, setRecorded] = useState<Correction | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<CorrectionRequest>({
    resolver: zodResolver(CorrectionRequestSchema),
    defaultValues: { value: '', reason: '' },
  });
  const onSubmit = handleSubmit((body) => {
    setError(null);
    ask.mutate(body, {
      onSuccess: (answer) => {
        setRecorded(answer.data.correction);
        reset();
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not record your request')),
    });
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <SelectField
        label="Detail to correct"
        placeholder="Choose one"
        options={FIELDS}
        error={errors.field?.message}
        {...register('field')}
      />
      <Field label="Correct value" error={errors.value?.message} {...register('value')} />
      <Field
        label="Why (optional)"
        maxLength={500}
        error={errors.reason?.message}
        {...register('reason')}
      />
      <FormError message={error} />
      <div role="status">
        {recorded && (
          <p className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
            Recorded as <span className="font-mono font-semibold">{recorded.reference}</span>. We
            will decide it by {formatDate(recorded.respondBy)} and e-mail you the outcome.
          </p>
        )}
      </div>
      <Button type="submit" busy={ask.isPending} className="max-md:h-11 max-md:w-full">
        Ask for the correction
      </Button>
    </form>
  );
}

function CorrectionList({ corrections }: { corrections: Correction[] }) {
  if (corrections.length === 0) {
    return <p className="text-sm text-slate-600">You have not asked for a correction.</p>;
  }
  return (
    <ul className="divide-y divide-slate-100" aria-label="Your correction requests">
      {corrections.map((correction) => (
        <li key={correction.reference} className="space-y-1 py-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono font-medium text-slate-900">{correction.reference}</span>
            <Badge tone={TONES[correction.status]}>{correction.status}</Badge>
          </div>
          <p className="break-words text-slate-700">
            {correctableFieldLabels[correction.field]}: {correction.currentValue} to{' '}
            {correction.requestedValue}, asked on {formatDate(correction.submittedAt)}.
            {correction.decidedAt
              ? ` Decided on ${formatDate(correction.decidedAt)}.`
              : ` To be decided by ${formatDate(correction.respondBy)}.`}
          </p>
          {correction.note && (
            <p className="whitespace-pre-line rounded-md bg-slate-50 px-3 py-2 text-slate-800">
              {correction.note}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Correcting the details the customer cannot change themselves (DPDP Act 2023, s. 12): they
 * ask, and the operator checks and decides.
 */
export function CorrectionSection() {
  const query = useCorrections();
  return (
    <Card aria-labelledby="correction-heading">
      <CardHeader title={<span id="correction-heading">Correct your details</span>} />
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-700">
          Your company name, mobile number and GSTIN cannot be changed here: the mobile number and
          GSTIN are part of how you sign in, and the company name is on your invoices. Ask us to
          correct one: we check it and e-mail you the outcome. A corrected mobile number or GSTIN is
          the one you sign in with from then on.
        </p>
        <QueryStates query={query} errorText="Failed to load your correction requests">
          {(data) => (
            <>
              <CorrectionForm />
              <CorrectionList corrections={data.corrections} />
            </>
          )}
        </QueryStates>
      </CardBody>
    </Card>
  );
}
