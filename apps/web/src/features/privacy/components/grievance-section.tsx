import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  GRIEVANCE_TOPICS,
  GrievanceRequestSchema,
  type Grievance,
  type GrievanceOfficer,
  type GrievanceRequest,
} from '@portal/contract';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/http';
import { formatDate } from '@/lib/format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { FormError } from '@/ui/dialog-actions';
import { QueryStates } from '@/ui/query-states';
import { SelectField } from '@/ui/select-field';
import { useGrievances, useSubmitGrievance } from '../api/privacy';

const TOPICS = GRIEVANCE_TOPICS.map((topic) => ({ value: topic, label: topic }));

function Officer({ officer }: { officer: GrievanceOfficer }) {
  return (
    <p className="text-sm text-slate-700">
      Our grievance officer is {officer.name},{' '}
      <a className="text-blue-700 underline" href={`mailto:${officer.email}`}>
        {officer.email}
      </a>
      {officer.phone && <>, {officer.phone}</>}. Each grievance is answered within{' '}
      {officer.responseDays} days.
    </p>
  );
}

/** A grievance, recorded: acknowledged with its reference, due by its date, then answered. */
function GrievanceForm() {
  const submit = useSubmitGrievance();
  const messageId = useId();
  const [error, setError] = useState<string | null>(null);
  const [recorded, setRecorded] = useState<Grievance | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<GrievanceRequest>({
    resolver: zodResolver(GrievanceRequestSchema),
    defaultValues: { message: '' },
  });
  const onSubmit = handleSubmit((body) => {
    setError(null);
    submit.mutate(body, {
      onSuccess: (answer) => {
        setRecorded(answer.data.grievance);
        reset();
      },
      onError: (failure) => setError(errorMessage(failure, 'Could not record your grievance')),
    });
  });
  const messageError = errors.message?.message;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <SelectField
        label="What is it about"
        placeholder="Choose one"
        options={TOPICS}
        error={errors.topic?.message}
        {...register('topic')}
      />
      <div className="space-y-1">
        <label htmlFor={messageId} className="block text-sm font-medium text-slate-700">
          What happened
        </label>
        <textarea
          id={messageId}
          rows={4}
          maxLength={2000}
          aria-invalid={messageError ? true : undefined}
          aria-describedby={messageError ? `${messageId}-error` : undefined}
          className={cn(
            'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30',
            messageError && 'border-red-600',
          )}
          {...register('message')}
        />
        {messageError && (
          <p id={`${messageId}-error`} role="alert" className="text-sm text-red-700">
            {messageError}
          </p>
        )}
      </div>
      <FormError message={error} />
      <div role="status">
        {recorded && (
          <p className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
            Recorded as <span className="font-mono font-semibold">{recorded.reference}</span>. The
            answer is due by {formatDate(recorded.respondBy)}; we have e-mailed you the reference.
          </p>
        )}
      </div>
      <Button type="submit" busy={submit.isPending} className="max-md:h-11 max-md:w-full">
        Send to the grievance officer
      </Button>
    </form>
  );
}

function GrievanceList({ grievances }: { grievances: Grievance[] }) {
  if (grievances.length === 0) {
    return <p className="text-sm text-slate-600">You have not raised a grievance.</p>;
  }
  return (
    <ul className="divide-y divide-slate-100" aria-label="Your grievances">
      {grievances.map((grievance) => (
        <li key={grievance.reference} className="space-y-1 py-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono font-medium text-slate-900">{grievance.reference}</span>
            <Badge tone={grievance.status === 'Answered' ? 'green' : 'yellow'}>
              {grievance.status}
            </Badge>
          </div>
          <p className="text-slate-700">
            {grievance.topic}, raised on {formatDate(grievance.submittedAt)}.{' '}
            {grievance.answeredAt
              ? `Answered on ${formatDate(grievance.answeredAt)}.`
              : `Answer due by ${formatDate(grievance.respondBy)}.`}
          </p>
          {grievance.answer && (
            <p className="whitespace-pre-line rounded-md bg-slate-50 px-3 py-2 text-slate-800">
              {grievance.answer}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Grievances about how the portal handles the customer's data (DPDP Rules, rule 14): the
 * officer's contact, a form acknowledged with a reference at once, and each one's due date.
 */
export function GrievanceSection() {
  const query = useGrievances();
  return (
    <Card aria-labelledby="grievance-heading">
      <CardHeader title={<span id="grievance-heading">Grievances</span>} />
      <CardBody className="space-y-4">
        <QueryStates query={query} errorText="Failed to load your grievances">
          {(data) => (
            <>
              <Officer officer={data.officer} />
              <GrievanceForm />
              <GrievanceList grievances={data.grievances} />
            </>
          )}
        </QueryStates>
      </CardBody>
    </Card>
  );
}
