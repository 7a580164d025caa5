import { useState } from 'react';
import { RotateCw } from 'lucide-react';
import { orderRef, type Order } from '@portal/contract';
import { usePlans } from '@/features/plans/api/get-plans';
import { useSessionStore } from '@/lib/session-store';
import { Button, type ButtonProps } from '@/ui/button';
import { toast } from '@/lib/toast';
import { BillingConfirmDialog } from '@/features/billing/components/billing-confirm-dialog';
import { useStartPayment } from '../hooks/use-start-payment';

/**
 * Retry for a Failed order: a failed order cannot be paid again, so a new order for the same
 * plan goes to the gateway, with the account's contact details as the order form fills them.
 * Like a first purchase, it asks to confirm the billing details first: the new order keeps them,
 * and they may have changed since the failed one.
 */
export function RetryPaymentButton({
  order,
  size = 'sm',
}: {
  order: Order;
  size?: ButtonProps['size'];
}) {
  const user = useSessionStore((s) => s.user);
  const { data: plans } = usePlans();
  const startPayment = useStartPayment();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const planOf = () => plans?.find((p) => p._id === order.planId._id);

  const askToConfirm = () => {
    if (planOf()) setConfirming(true);
    else toast.error(`The ${order.planId.planName} plan is no longer offered.`);
  };

  const retry = async () => {
    const plan = planOf();
    if (!plan) return;
    setConfirming(false);
    setBusy(true);
    const started = await startPayment(plan, {
      customerName: user?.company_name ?? '',
      email: user?.email ?? '',
      phone: user?.mobile ?? '',
    });
    if (!started) setBusy(false);
  };

  return (
    <>
      <Button
        size={size}
        disabled={busy || !plans}
        aria-label={`Retry payment for order ${orderRef(order._id)}`}
        onClick={askToConfirm}
      >
        <RotateCw className="h-4 w-4" aria-hidden="true" />
        {busy ? 'Processing...' : 'Retry'}
      </Button>
      <BillingConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => void retry()}
      />
    </>
  );
}
