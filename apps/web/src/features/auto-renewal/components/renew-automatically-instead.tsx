import { goToPayment } from '@/lib/go-to-payment';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { Button } from '@/ui/button';
import { useAutoRenewal, useStartAutoRenewal } from '../api/auto-renewal';

export const RENEW_AUTOMATICALLY = 'Renew automatically instead';

/**
 * On the order screen, the other way to buy the chosen plan: a mandate that pays it now (or
 * when the plan in force ends) and at each period's end. Offered only while auto-renewal is off.
 */
export function RenewAutomaticallyInstead({ planId }: { planId: string | null }) {
  const renewal = useAutoRenewal();
  const start = useStartAutoRenewal();
  if (!planId || !renewal.isSuccess || renewal.data) return null;

  const turnOn = async () => {
    try {
      const { autoRenewal } = await start.mutateAsync({ planId });
      if (autoRenewal?.authoriseUrl) goToPayment(autoRenewal.authoriseUrl);
    } catch (failure) {
      toast.error(errorMessage(failure, 'Could not turn on auto-renewal. Please try again.'));
    }
  };
  return (
    <div className="mt-4 space-y-2 border-t border-slate-200 pt-4">
      <p className="text-sm text-slate-700">
        Or pay by UPI Autopay, e-mandate or card mandate: this plan is debited now, or when your
        current plan ends, and again at the end of each period until you turn it off.
      </p>
      <Button
        type="button"
        variant="secondary"
        className="w-full max-sm:h-11"
        busy={start.isPending}
        onClick={() => void turnOn()}
      >
        {RENEW_AUTOMATICALLY}
      </Button>
    </div>
  );
}
