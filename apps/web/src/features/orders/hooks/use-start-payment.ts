import type { Plan } from '@portal/contract';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useCreateOrder } from '../api/create-order';
import { useCreatePayment } from '../api/create-payment';
import { goToPayment } from '@/lib/go-to-payment';
import { planAmounts } from '../components/order-rules';

export interface PaymentCustomer {
  customerName: string;
  email: string;
  phone: string;
}

/** An answer of `{ success: false }` (spec §8 'Order creation failed'). */
const refusedBody = (body: unknown) => (body as { success?: unknown } | null)?.success === false;

/**
 * Spec §4 order flow: creates the order, then the payment, then leaves for the gateway. A
 * failed payment is retried the same way (a Failed order cannot be paid again). Answers false,
 * after saying why, when it stops before the gateway.
 */
export function useStartPayment() {
  const createOrder = useCreateOrder();
  const createPayment = useCreatePayment();

  return async (plan: Plan, customer: PaymentCustomer): Promise<boolean> => {
    const { total } = planAmounts(plan);
    let orderId: string;
    try {
      const created = await createOrder.mutateAsync({ planId: plan._id, amount: total });
      if (!created.success) throw new Error('Order creation failed');
      orderId = created.order._id;
    } catch (error) {
      const refused = error instanceof ApiError && refusedBody(error.body);
      toast.error(
        errorMessage(error, refused ? 'Order creation failed' : 'Failed to create order'),
      );
      return false;
    }
    try {
      const payment = await createPayment.mutateAsync({
        order_id: orderId,
        amount: total,
        customer_name: customer.customerName.trim(),
        customer_email: customer.email.trim(),
        customer_phone: customer.phone.trim(),
        planType: plan.planType,
      });
      goToPayment(payment.paymentUrl);
      return true;
    } catch (error) {
      toast.error(errorMessage(error, 'Payment initiation failed'));
      return false;
    }
  };
}
