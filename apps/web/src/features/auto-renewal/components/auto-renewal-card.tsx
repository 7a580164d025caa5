import { useId } from 'react';
import { autoRenewalMessages, mandateMethodLabel, type AutoRenewal } from '@portal/contract';
import { formatDate, formatInr } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { QueryStates } from '@/ui/query-states';
import { useAutoRenewal, useStopAutoRenewal } from '../api/auto-renewal';
import {
  AUTHORISE,
  AUTO_RENEWAL_TITLE,
  PAUSED,
  authorisingLine,
  endingLine,
} from './auto-renewal-words';
import { GatewayLink, PaymentProblem } from './payment-problem';
import { TurnOffAutoRenewal } from './turn-off-auto-renewal';
import { TurnOnAutoRenewal } from './turn-on-auto-renewal';

const actions = 'flex flex-col gap-2 sm:flex-row sm:items-center';

/** Waiting for the mandate: go and authorise it, or drop it. */
function Authorising({ renewal }: { renewal: AutoRenewal }) {
  const stop = useStopAutoRenewal();
  const cancel = async () => {
    try {
      await stop.mutateAsync();
      toast.success(autoRenewalMessages.turnedOff);
    } catch (failure) {
      toast.error(errorMessage(failure, 'Could not cancel auto-renewal. Please try again.'));
    }
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">{authorisingLine(renewal)}</p>
      <div className={actions}>
        {renewal.authoriseUrl && <GatewayLink href={renewal.authoriseUrl}>{AUTHORISE}</GatewayLink>}
        <Button
          variant="secondary"
          className="max-sm:h-11 max-sm:w-full"
          aria-label="Cancel auto-renewal"
          busy={stop.isPending}
          onClick={() => void cancel()}
        >
          Cancel
        </Button>
      </div>
    </div>
  );
}

/** The authorised mandate: the plan, how it pays, its cap and the next debit. */
function Mandate({ renewal }: { renewal: AutoRenewal }) {
  const next = renewal.nextChargeDate
    ? `${formatInr(renewal.nextChargeAmount)} on ${formatDate(renewal.nextChargeDate)}`
    : 'None due';
  const items: [term: string, value: string][] = [
    ['Plan', renewal.planName],
    ['Method', renewal.method ? mandateMethodLabel[renewal.method] : 'N/A'],
    ['Maximum amount per debit', formatInr(renewal.maxAmount)],
    ['Next debit', next],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt className="text-sm text-slate-600">{term}</dt>
          <dd className="mt-0.5 text-sm font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What the card says for each state of an auto-renewal that is set up. */
function RenewalState({ renewal }: { renewal: AutoRenewal }) {
  switch (renewal.status) {
    case 'authorising':
      return <Authorising renewal={renewal} />;
    case 'ending':
      return <p className="text-sm text-slate-700">{endingLine(renewal)}</p>;
    default:
      return (
        <div className="space-y-4">
          {renewal.status === 'on' && <Mandate renewal={renewal} />}
          {renewal.status === 'paused' && <p className="text-sm text-slate-700">{PAUSED}</p>}
          {(renewal.status === 'retrying' || renewal.status === 'halted') && (
            <PaymentProblem renewal={renewal} />
          )}
          <TurnOffAutoRenewal renewal={renewal} />
        </div>
      );
  }
}

/**
 * The Auto-renewal card, on the Plans and Profile screens: off with the way to turn it on, the
 * mandate waiting for authorisation, on with its details, or the state it has come to since.
 */
export function AutoRenewalCard({ className }: { className?: string }) {
  const query = useAutoRenewal();
  const headingId = useId();
  return (
    <Card className={className} aria-labelledby={headingId}>
      <CardHeader title={<span id={headingId}>{AUTO_RENEWAL_TITLE}</span>} />
      <CardBody>
        <QueryStates query={query} errorText="Failed to load auto-renewal">
          {(renewal) => (renewal ? <RenewalState renewal={renewal} /> : <TurnOnAutoRenewal />)}
        </QueryStates>
      </CardBody>
    </Card>
  );
}
