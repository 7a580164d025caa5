import { useAutoRenewal } from '../api/auto-renewal';
import { hasPaymentProblem, PaymentProblem } from './payment-problem';

/**
 * On the dashboard: the failed automatic payment, while the gateway retries or after it has
 * stopped, with the way to pay by another method. Nothing otherwise, nor while it loads or fails.
 */
export function AutoRenewalNotice() {
  const { data } = useAutoRenewal();
  if (!data || !hasPaymentProblem(data)) return null;
  return <PaymentProblem renewal={data} />;
}
