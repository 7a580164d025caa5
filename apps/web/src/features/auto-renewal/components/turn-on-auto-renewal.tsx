import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { autoRenewalMessages, type PlansResponse } from '@portal/contract';
import { getPlanCatalogueQueryOptions } from '@/lib/plan-catalogue';
import { goToPayment } from '@/lib/go-to-payment';
import { formatInr } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { Button } from '@/ui/button';
import { QueryStates } from '@/ui/query-states';
import { SelectField } from '@/ui/select-field';
import { useStartAutoRenewal } from '../api/auto-renewal';
import { OFF_EXPLANATION, TURN_ON } from './auto-renewal-words';

type Catalogue = PlansResponse['data'];

/**
 * The plan auto-renewal would renew: the one a purchase now would renew (the plan paid for
 * last), else the plan in force; null without a plan, when the customer chooses one.
 */
export function planToRenew({ plans, current, purchases }: Catalogue) {
  if (!current) return null;
  const planId = purchases.find((p) => p.change === 'renewal')?.planId ?? current.planId;
  const planName = plans.find((p) => p._id === planId)?.planName ?? current.planName;
  return { planId, planName };
}

function TurnOn({ catalogue }: { catalogue: Catalogue }) {
  const start = useStartAutoRenewal();
  const renewing = planToRenew(catalogue);
  const [chosen, setChosen] = useState('');
  const [choiceError, setChoiceError] = useState<string | undefined>();
  const { plans } = catalogue;

  const turnOn = async () => {
    const planId = renewing?.planId ?? chosen;
    if (!planId) {
      setChoiceError(autoRenewalMessages.choosePlan);
      return;
    }
    try {
      const { autoRenewal } = await start.mutateAsync({ planId });
      // the card now shows the mandate waiting, with its link, should the browser stay
      if (autoRenewal?.authoriseUrl) goToPayment(autoRenewal.authoriseUrl);
    } catch (failure) {
      toast.error(errorMessage(failure, 'Could not turn on auto-renewal. Please try again.'));
    }
  };

  if (!renewing && plans.length === 0) {
    return <p className="text-sm text-slate-700">No plans available at the moment.</p>;
  }
  return (
    <div className="space-y-4">
      {renewing ? (
        <p className="text-sm text-slate-700">It renews your {renewing.planName} plan.</p>
      ) : (
        <div className="max-w-md">
          <SelectField
            label="Plan to renew"
            placeholder={autoRenewalMessages.choosePlan}
            value={chosen}
            error={choiceError}
            onChange={(event) => {
              setChosen(event.target.value);
              setChoiceError(undefined);
            }}
            options={plans.map((plan) => ({
              value: plan._id,
              label: `${plan.planName}: ${formatInr(plan.amount)} + GST, ${plan.duration} days`,
            }))}
          />
        </div>
      )}
      <Button
        className="max-sm:h-11 max-sm:w-full"
        busy={start.isPending}
        onClick={() => void turnOn()}
      >
        {TURN_ON}
      </Button>
    </div>
  );
}

/** Auto-renewal off: what it does, and turning it on for the plan (chosen, without one). */
export function TurnOnAutoRenewal() {
  // a catalogue that has just failed (on the Plans screen, which says so) is not asked for again
  // by the card appearing: its Retry asks
  const catalogue = useQuery({ ...getPlanCatalogueQueryOptions(), retryOnMount: false });
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">{OFF_EXPLANATION}</p>
      <QueryStates query={catalogue} errorText="Failed to load your plan">
        {(data) => <TurnOn catalogue={data} />}
      </QueryStates>
    </div>
  );
}
