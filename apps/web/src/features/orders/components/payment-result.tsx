import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Clock, FileText, X, XCircle } from 'lucide-react';
import { orderRef, type Order } from '@portal/contract';
import { getPlanCatalogueQueryOptions } from '@/lib/plan-catalogue';
import { getProfileQueryOptions } from '@/features/profile/api/get-profile';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/http';
import { formatDate } from '@/lib/format';
import { Button } from '@/ui/button';
import { useOrderResult } from '../api/check-payment-status';
import { getOrderHistoryQueryOptions } from '../api/get-order-history';
import { openReceipt, receiptAvailable } from './order-history';
import { RetryPaymentButton } from './retry-payment-button';

/** What a paid order did to the plan: started it now, or extended it past the period in force. */
export function paidPlanLine(order: Order, now: Date = new Date()): string {
  const plan = order.planId.planName;
  const period = order.servicePeriod;
  if (!period) return `${plan} is active.`;
  if (new Date(period.startDate).getTime() > now.getTime()) {
    return `Your plan is extended to ${formatDate(period.endDate)} (${plan} from ${formatDate(period.startDate)}).`;
  }
  return `${plan} is active until ${formatDate(period.endDate)}.`;
}

const looks = {
  success: 'border-green-300 bg-green-50 text-green-900',
  failure: 'border-red-300 bg-red-50 text-red-900',
  waiting: 'border-amber-300 bg-amber-50 text-amber-950',
} as const;

function Banner({
  look,
  icon,
  title,
  children,
  actions,
  onDismiss,
  urgent = false,
}: {
  look: keyof typeof looks;
  icon: React.ReactNode;
  title: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
  onDismiss(): void;
  urgent?: boolean;
}) {
  return (
    <section
      aria-labelledby="payment-result-title"
      className={cn('mb-6 rounded-lg border p-4', looks[look])}
    >
      <div role={urgent ? 'alert' : 'status'} className="flex items-start gap-3">
        <span className="mt-0.5 shrink-0" aria-hidden="true">
          {icon}
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="payment-result-title" className="font-semibold">
            {title}
          </h2>
          <div className="mt-1 text-sm">{children}</div>
        </div>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Dismiss payment result"
          className="shrink-0 text-current hover:bg-black/5"
          onClick={onDismiss}
        >
          <X className="h-4 w-4" aria-hidden="true" />
        </Button>
      </div>
      {actions && (
        <div className="mt-3 flex flex-wrap gap-2 max-md:flex-col max-md:[&>*]:w-full">
          {actions}
        </div>
      )}
    </section>
  );
}

/**
 * The result of the payment the customer came back from (UI.md: said on the screen they land
 * on): paid with the plan's new end and the invoice, failed with Retry, or still waiting.
 */
export function PaymentResult({ orderId, onDismiss }: { orderId: string; onDismiss(): void }) {
  const queryClient = useQueryClient();
  const result = useOrderResult(orderId);
  const order = result.data;
  const settled = useRef<string | null>(null);

  // once settled, every screen that shows the order or the plan reads it again
  useEffect(() => {
    if (!order || order.paymentStatus === 'Pending' || settled.current === order.paymentStatus)
      return;
    settled.current = order.paymentStatus;
    for (const { queryKey } of [
      getOrderHistoryQueryOptions(),
      getPlanCatalogueQueryOptions(),
      getProfileQueryOptions(),
    ]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [order, queryClient]);

  const ref = orderRef(orderId);
  if (result.isPending) {
    return (
      <Banner
        look="waiting"
        icon={<Clock className="h-5 w-5" />}
        title="Checking your payment"
        onDismiss={onDismiss}
      >
        Asking the payment gateway about order {ref}...
      </Banner>
    );
  }
  if (result.isError) {
    return (
      <Banner
        look="failure"
        icon={<XCircle className="h-5 w-5" />}
        title="Payment result not known yet"
        onDismiss={onDismiss}
        urgent
        actions={
          <Button variant="secondary" size="sm" onClick={() => void result.refetch()}>
            Check again
          </Button>
        }
      >
        {errorMessage(result.error, `Could not check the payment of order ${ref}.`)}
      </Banner>
    );
  }
  const status = result.data.paymentStatus;
  if (status === 'Completed' || status === 'Refunded') {
    const paid = result.data;
    return (
      <Banner
        look="success"
        icon={<CheckCircle2 className="h-5 w-5" />}
        title={status === 'Completed' ? 'Payment successful' : 'Payment refunded'}
        onDismiss={onDismiss}
        actions={
          receiptAvailable(paid) && (
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Receipt for order ${ref}`}
              onClick={() => openReceipt(paid)}
            >
              <FileText className="h-4 w-4" aria-hidden="true" />
              Receipt
            </Button>
          )
        }
      >
        {status === 'Completed' && <p>{paidPlanLine(paid)}</p>}
        <p>
          Order {ref} · {paid.formattedAmount}
          {paid.invoiceNumber && <> · Invoice {paid.invoiceNumber}</>}
        </p>
      </Banner>
    );
  }
  if (status === 'Failed') {
    return (
      <Banner
        look="failure"
        icon={<XCircle className="h-5 w-5" />}
        title="Payment failed"
        onDismiss={onDismiss}
        urgent
        actions={<RetryPaymentButton order={result.data} size="md" />}
      >
        The payment for order {ref} ({result.data.planId.planName}, {result.data.formattedAmount})
        did not go through. Retry to pay for the plan again.
      </Banner>
    );
  }
  return (
    <Banner
      look="waiting"
      icon={<Clock className="h-5 w-5" />}
      title="Payment pending"
      onDismiss={onDismiss}
    >
      We&apos;re waiting for the bank to confirm the payment for order {ref}. This message updates
      by itself.
    </Banner>
  );
}
