import { z } from 'zod';
import {
  ORDER_HISTORY_PAGE_SIZE,
  ORDER_HISTORY_MAX_LIMIT,
  ORDER_HISTORY_CURSOR_MAX_LENGTH,
  ORDER_CURSOR_MESSAGE,
} from './values';
import { text } from './primitives';

/** Spec §4 order paymentStatus. */
export const PaymentStatusSchema = z.enum(['Pending', 'Completed', 'Failed', 'Refunded']);
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/**
 * `amount` is the order total in rupees (base + 18 % + 5 %), at most two decimals, as the
 * order form shows it. The server converts it to paise and compares it exactly with the total
 * it computes from the plan.
 */
export const RupeesAmountSchema = z
  .number({ error: 'Amount is required' })
  .positive('Amount must be greater than zero')
  .max(1e11, 'Amount is too large')
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
    message: 'Amount must be in rupees with at most two decimals',
  });

export const CreateOrderRequestSchema = z.object({
  planId: text({ error: 'planId is required' }).trim().min(1, 'planId is required').max(100),
  amount: RupeesAmountSchema,
});
export type CreateOrderRequest = z.infer<typeof CreateOrderRequestSchema>;

/** Spec §3 Order; `amount` is the total in rupees, `planId` is populated with the plan name. */
export const OrderSchema = z.object({
  _id: z.string(),
  planId: z.object({ _id: z.string(), planName: z.string() }),
  amount: z.number(),
  formattedAmount: z.string(),
  orderDate: z.string(),
  paymentStatus: PaymentStatusSchema,
  /** A short-lived signed link to the receipt PDF; only for a Completed order. */
  receiptUrl: z.string().nullable(),
  /** The tax invoice's number, shown beside the Receipt button; only for a Completed order. */
  invoiceNumber: z.string().nullable(),
  /** The plan period this order paid for (the invoice's service period); only when Completed. */
  servicePeriod: z.object({ startDate: z.string(), endDate: z.string() }).nullable(),
});
export type Order = z.infer<typeof OrderSchema>;

export const CreateOrderResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  order: OrderSchema,
});
export type CreateOrderResponse = z.infer<typeof CreateOrderResponseSchema>;

const LIMIT_MESSAGE = `must be a whole number from 1 to ${ORDER_HISTORY_MAX_LIMIT}`;

/**
 * `GET /api/orders/history` query: a page of `limit` orders, the first one without `cursor`,
 * each next one with the `nextCursor` of the page before. The cursor is opaque to the client.
 */
export const OrderHistoryQuerySchema = z.object({
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(ORDER_HISTORY_MAX_LIMIT, LIMIT_MESSAGE)
    .default(ORDER_HISTORY_PAGE_SIZE),
  cursor: text()
    .min(1, ORDER_CURSOR_MESSAGE)
    .max(ORDER_HISTORY_CURSOR_MAX_LENGTH, ORDER_CURSOR_MESSAGE)
    .optional(),
});
export type OrderHistoryQuery = z.input<typeof OrderHistoryQuerySchema>;

/**
 * `GET /api/orders/history`: a page of the signed-in customer's orders, newest first;
 * `nextCursor` asks for the page after it, and is null on the last page.
 */
export const OrderHistoryResponseSchema = z.object({
  success: z.literal(true),
  orders: z.array(OrderSchema),
  // the server always sends it; read as null from an instance that predates paging, mid-deploy
  nextCursor: z.string().nullable().default(null),
});
export type OrderHistoryResponse = z.infer<typeof OrderHistoryResponseSchema>;

/** `POST /api/orders/:id/check-status`: asks the gateway and settles the order. */
export const CheckStatusResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  order: OrderSchema,
});
export type CheckStatusResponse = z.infer<typeof CheckStatusResponseSchema>;

/** The receipt link's query (a signed link, see ARCHITECTURE: Files and downloads). */
export const SignedLinkQuerySchema = z.object({
  expires: text().max(20).optional(),
  sub: text().max(100).optional(),
  sig: text().max(200).optional(),
});
