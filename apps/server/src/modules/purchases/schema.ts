import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';
import { plans } from '../plans/schema';

/** An order for a plan; amounts in paise, fixed when the order is created. */
export const orders = pgTable(
  'orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    basePaise: bigint({ mode: 'number' }).notNull(),
    gstPaise: bigint({ mode: 'number' }).notNull(),
    handlingPaise: bigint({ mode: 'number' }).notNull(),
    totalPaise: bigint({ mode: 'number' }).notNull(),
    /** Pending, Completed, Failed or Refunded (contract PaymentStatus). */
    status: text().notNull().default('Pending'),
    /** The gateway's payment link, once payment was initiated. */
    paymentLinkId: text().unique(),
    paymentUrl: text(),
    /** The gateway's id of the payment that settled the order. */
    gatewayPaymentId: text(),
    customerName: text(),
    customerEmail: text(),
    customerPhone: text(),
    /**
     * The billing snapshot, copied when the order is created (decision 037): the GSTIN, the
     * address (none for an order placed without one), the place of supply and the seller's
     * State codes, and the invoice's tax split by them. Null on orders from before.
     */
    billingGstin: text(),
    billingAddressLine1: text(),
    billingAddressLine2: text(),
    billingCity: text(),
    billingStateCode: text(),
    billingPin: text(),
    placeOfSupply: text(),
    supplierStateCode: text(),
    cgstPaise: bigint({ mode: 'number' }),
    sgstPaise: bigint({ mode: 'number' }),
    igstPaise: bigint({ mode: 'number' }),
    paidAt: timestamp({ withTimezone: true }),
    /** Last time reconciliation asked the gateway; also its lease between instances. */
    checkedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // ordered as the history pages them, (created_at, id): a page is read off the index in order
    index('orders_customer_created_idx').on(t.customerId, t.createdAt, t.id),
    index('orders_status_created_idx').on(t.status, t.createdAt),
  ],
);
export type OrderRow = typeof orders.$inferSelect;

/**
 * Every gateway event taken in (webhooks by `x-razorpay-event-id`), so that a redelivery is
 * recognised and changes nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    eventId: text().primaryKey(),
    event: text().notNull(),
    orderId: uuid(),
    payload: jsonb().$type<unknown>().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // closing an account empties its orders' events, the purge deletes them, and the metrics join
  // them to orders: each by order, which without this read the whole table
  (t) => [index('payment_events_order_idx').on(t.orderId)],
);
