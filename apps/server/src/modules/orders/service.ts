import { and, desc, eq } from 'drizzle-orm';
import {
  orderAmount,
  rupeesToPaise,
  type CreateOrderRequest,
  type Order,
  type PaymentStatus,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import { customerPlans, plans } from '../plans/schema';
import { isUuid, offeredPlan } from '../plans/service';
import { receiptLink, receiptOffered } from '../receipts/service';
import { receipts } from '../receipts/schema';
import { orders, type OrderRow } from './schema';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
export const formatPaise = (paise: number) => inr.format(paise / 100);

type OrderView = {
  order: OrderRow;
  planName: string;
  invoiceNumber: string | null;
  period: { startsAt: Date; endsAt: Date } | null;
};

export function toOrder(
  deps: Pick<AppDeps, 'signedLinks'>,
  { order, planName, invoiceNumber, period }: OrderView,
): Order {
  const status = order.status as PaymentStatus;
  const completed = status === 'Completed';
  return {
    _id: order.id,
    planId: { _id: order.planId, planName },
    amount: order.totalPaise / 100,
    formattedAmount: formatPaise(order.totalPaise),
    orderDate: order.createdAt.toISOString(),
    paymentStatus: status,
    receiptUrl:
      receiptOffered(status) && invoiceNumber
        ? receiptLink(deps, order.id, order.customerId)
        : null,
    invoiceNumber: receiptOffered(status) ? invoiceNumber : null,
    servicePeriod:
      completed && period
        ? { startDate: period.startsAt.toISOString(), endDate: period.endsAt.toISOString() }
        : null,
  };
}

function orderViews(db: Executor) {
  return db
    .select({
      order: orders,
      planName: plans.planName,
      invoiceNumber: receipts.invoiceNumber,
      periodStartsAt: customerPlans.startsAt,
      periodEndsAt: customerPlans.endsAt,
    })
    .from(orders)
    .innerJoin(plans, eq(plans.id, orders.planId))
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(customerPlans, eq(customerPlans.orderId, orders.id));
}

type OrderViewRow = Awaited<ReturnType<ReturnType<typeof orderViews>['execute']>>[number];

const viewOf = (row: OrderViewRow): OrderView => ({
  order: row.order,
  planName: row.planName,
  invoiceNumber: row.invoiceNumber,
  period:
    row.periodStartsAt && row.periodEndsAt
      ? { startsAt: row.periodStartsAt, endsAt: row.periodEndsAt }
      : null,
});

/** The customer's own orders, newest first. */
export async function listOrders(deps: AppDeps, customerId: string): Promise<Order[]> {
  const rows = await orderViews(deps.db)
    .where(eq(orders.customerId, customerId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return rows.map((row) => toOrder(deps, viewOf(row)));
}

/** One order of the customer's; another customer's order is "not found", never "forbidden". */
export async function findOwnOrder(
  db: Executor,
  customerId: string,
  orderId: string,
): Promise<OrderRow> {
  if (!isUuid(orderId)) throw new AppError('NOT_FOUND', 'Order not found');
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)));
  if (!row) throw new AppError('NOT_FOUND', 'Order not found');
  return row;
}

export async function orderView(
  deps: AppDeps,
  customerId: string,
  orderId: string,
): Promise<Order> {
  const [row] = await orderViews(deps.db).where(
    and(eq(orders.id, orderId), eq(orders.customerId, customerId)),
  );
  if (!row) throw new AppError('NOT_FOUND', 'Order not found');
  return toOrder(deps, viewOf(row));
}

/**
 * A Pending order for a plan on offer. The amount the client shows (rupees) must be exactly the
 * total the server computes from the plan in paise.
 */
export async function createOrder(
  deps: AppDeps,
  customerId: string,
  input: CreateOrderRequest,
): Promise<Order> {
  const { db, clock } = deps;
  const order = await db.transaction(async (tx) => {
    const plan = await offeredPlan(tx, input.planId);
    const amounts = orderAmount(plan.amountPaise);
    if (rupeesToPaise(input.amount) !== amounts.totalPaise) {
      throw new AppError(
        'UNPROCESSABLE',
        `Amount does not match the plan's price. The total for ${plan.planName} is ${formatPaise(amounts.totalPaise)}.`,
      );
    }
    const now = clock.now();
    const [row] = await tx
      .insert(orders)
      .values({
        customerId,
        planId: plan.id,
        ...amounts,
        status: 'Pending',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordActivity(tx, clock, {
      customerId,
      type: 'order_created',
      title: 'Order created',
      description: `Order for the ${plan.planName} plan (${formatPaise(amounts.totalPaise)})`,
      status: 'pending',
      details: { orderId: row!.id, planId: plan.id },
    });
    return { order: row!, planName: plan.planName, invoiceNumber: null, period: null };
  });
  return toOrder(deps, order);
}
