import { orderAmount, paiseToRupees, rupeesToPaise, type Plan } from '@portal/contract';

export interface OrderForm {
  planId: string | null;
  customerName: string;
  email: string;
  phone: string;
}

/** Spec §5 order submit checks, in the spec's order; the first that fails is the message. */
export function orderSubmitError(
  form: OrderForm,
): { field: keyof OrderForm; message: string } | null {
  if (!form.planId) return { field: 'planId', message: 'Please select a plan' };
  if (!form.customerName.trim())
    return { field: 'customerName', message: 'Customer name is required' };
  if (!form.email.trim()) return { field: 'email', message: 'Email is required' };
  if (!form.phone.trim()) return { field: 'phone', message: 'Phone number is required' };
  return null;
}

/** The plan's order amounts in rupees, computed by the one money rule (in paise). */
export function planAmounts(plan: Plan) {
  const paise = orderAmount(rupeesToPaise(plan.amount));
  return {
    base: paiseToRupees(paise.basePaise),
    gst: paiseToRupees(paise.gstPaise),
    handling: paiseToRupees(paise.handlingPaise),
    total: paiseToRupees(paise.totalPaise),
  };
}
