import { z } from 'zod';
import { RupeesAmountSchema } from './orders';
import { jsonValueProblem, text } from './primitives';

/** Spec §3 Payment request; `amount` is the order total in rupees (as in `POST /api/orders`). */
export const CreatePaymentRequestSchema = z.object({
  order_id: text({ error: 'order_id is required' }).trim().min(1, 'order_id is required').max(100),
  amount: RupeesAmountSchema,
  customer_name: text({ error: 'Customer name is required' })
    .trim()
    .min(1, 'Customer name is required')
    .max(200),
  customer_email: text({ error: 'Email is required' }).trim().min(1, 'Email is required').max(254),
  customer_phone: text({ error: 'Phone number is required' })
    .trim()
    .min(1, 'Phone number is required')
    .max(20),
  planType: text().max(50).optional(),
});
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequestSchema>;

export const CreatePaymentResponseSchema = z.object({
  success: z.literal(true),
  paymentUrl: z.string(),
});
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponseSchema>;

/** Razorpay's callback query after a payment-link checkout (callback_method: get). */
export const PaymentCallbackQuerySchema = z.object({
  razorpay_payment_id: text().max(100).optional(),
  razorpay_payment_link_id: text().max(100).optional(),
  razorpay_payment_link_reference_id: text().max(100).optional(),
  razorpay_payment_link_status: text().max(50).optional(),
  razorpay_signature: text().max(200).optional(),
});
export type PaymentCallbackQuery = z.infer<typeof PaymentCallbackQuerySchema>;

const gatewayId = text().max(100);
const paise = z.number().int().nonnegative();
/** An entity of a gateway event, with the fields the portal reads typed and the rest kept. */
const eventEntity = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.looseObject({ entity: z.looseObject(shape).optional() }).optional();

/**
 * A gateway event (Razorpay's webhook body), checked once its signature is: it is stored as it
 * came, so every key and string must be plain text, and what the portal acts on must have the
 * type it expects (a payment id that is an object would be stored as its JSON text).
 */
export const PaymentWebhookBodySchema = z
  .looseObject(
    {
      event: text().max(100).optional(),
      payload: z
        .looseObject({
          payment_link: eventEntity({
            id: gatewayId.optional(),
            reference_id: gatewayId.optional(),
            status: gatewayId.optional(),
            amount_paid: paise.optional(),
          }),
          payment: eventEntity({
            id: gatewayId.optional(),
            status: gatewayId.optional(),
            // Razorpay sends an empty array where a payment has no notes
            notes: z
              .union([z.looseObject({ order_id: gatewayId.optional() }), z.array(z.unknown())])
              .optional(),
            amount_refunded: paise.optional(),
            amount: paise.optional(),
            subscription_id: gatewayId.optional(),
          }),
          subscription: eventEntity({ id: gatewayId.optional() }),
          refund: eventEntity({
            id: gatewayId.optional(),
            payment_id: gatewayId.optional(),
            amount: paise.optional(),
          }),
        })
        .optional(),
    },
    { error: 'must be a JSON object' },
  )
  // what the typed fields do not cover: every other key and value, however deep
  .superRefine((value, context) => {
    const problem = jsonValueProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
export type PaymentWebhookBody = z.infer<typeof PaymentWebhookBodySchema>;

/** The webhook's own headers; the others are kept, as Fastify validates headers in place. */
export const PaymentWebhookHeadersSchema = z.looseObject({
  'x-razorpay-signature': text().max(200).optional(),
  'x-razorpay-event-id': text().max(100).optional(),
});

export const WebhookResponseSchema = z.object({ success: z.literal(true), message: z.string() });
