import { z } from 'zod';
import { RupeesAmountSchema } from './orders';

export const paymentPaths = {
  createPayment: '/api/create-payment',
  callback: '/api/payments/callback',
  webhook: '/api/payments/webhook',
} as const;

/** Spec §3 Payment request; `amount` is the order total in rupees (as in `POST /api/orders`). */
export const CreatePaymentRequestSchema = z.object({
  order_id: z
    .string({ error: 'order_id is required' })
    .trim()
    .min(1, 'order_id is required')
    .max(100),
  amount: RupeesAmountSchema,
  customer_name: z
    .string({ error: 'Customer name is required' })
    .trim()
    .min(1, 'Customer name is required')
    .max(200),
  customer_email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(254),
  customer_phone: z
    .string({ error: 'Phone number is required' })
    .trim()
    .min(1, 'Phone number is required')
    .max(20),
  planType: z.string().max(50).optional(),
});
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequestSchema>;

export const CreatePaymentResponseSchema = z.object({
  success: z.literal(true),
  paymentUrl: z.string(),
});
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponseSchema>;

/** Razorpay's callback query after a payment-link checkout (callback_method: get). */
export const PaymentCallbackQuerySchema = z.object({
  razorpay_payment_id: z.string().max(100).optional(),
  razorpay_payment_link_id: z.string().max(100).optional(),
  razorpay_payment_link_reference_id: z.string().max(100).optional(),
  razorpay_payment_link_status: z.string().max(50).optional(),
  razorpay_signature: z.string().max(200).optional(),
});
export type PaymentCallbackQuery = z.infer<typeof PaymentCallbackQuerySchema>;

export const WebhookResponseSchema = z.object({ success: z.literal(true), message: z.string() });
