import { and, eq } from 'drizzle-orm';
import {
  formatPaise,
  ORDER_HISTORY_PAGE_SIZE,
  orderAmount,
  rupeesToPaise,
  type CreateOrderRequest,
  type Order,
  type OrderAmountBreakdown,
  type OrderBillingSnapshot,
  type PaymentStatus,
} from '@portal/contract';
import type { Executor, Transaction } from '../../db/client';
import { keysetAnswer, keysetPage, keysetPages } from '../../db/keyset-pages';
import { costedForAnyValue } from '../../db/statements';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import type { RequestAuth } from '../auth/authenticate';
import {
  jsonInstant,
  microsecondInstant,
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
} from '../../db/session-read';
import { billingSnapshotFor } from '../billing/service';
import { customerPlans, plans, type PlanRow } from '../plans/schema';
import { isUuid } from '../../lib/uuid';
import { offeredPlan } from '../plans/service';
import { receiptLink, receiptOffered } from './receipts';
import { invoices } from '../invoices/schema';
import { billingSnapshotOf, snapshotColumns } from '../invoices/billing-snapshot';
import { encodeCursor, decodeCursor, type HistoryPosition } from '../../lib/history-cursor';
import { orders, type OrderRow } from './schema';

/** What an order shows of its own row. */
type ShownOrder = Pick<OrderRow, 'id' | 'customerId' | 'planId' | 'totalPaise' | 'status'>;

/** An order with what the answer shows beside it; dates as the answer writes them (ISO, UTC). */
type OrderView = {
  order: ShownOrder;
  orderDate: string;
  planName: string;
  invoiceNumber: string | null;
  period: { startDate: string; endDate: string } | null;
};

export function toOrder(
  deps: Pick<AppDeps, 'signedLinks'>,
  { order, orderDate, planName, invoiceNumber, period }: OrderView,
): Order {
  const status = order.status as PaymentStatus;
  const completed = status === 'Completed';
  return {
    _id: order.id,
    planId: { _id: order.planId, planName },
    amount: order.totalPaise / 100,
    formattedAmount: formatPaise(order.totalPaise),
    orderDate,
    paymentStatus: status,
    receiptUrl:
      receiptOffered(status) && invoiceNumber
        ? receiptLink(deps, order.id, order.customerId)
        : null,
    invoiceNumber: receiptOffered(status) ? invoiceNumber : null,
    servicePeriod: completed && period ? period : null,
  };
}

function orderViews(db: Executor) {
  return db
    .select({
      order: orders,
      planName: plans.planName,
      invoiceNumber: invoices.invoiceNumber,
      periodStartsAt: customerPlans.startsAt,
      periodEndsAt: customerPlans.endsAt,
    })
    .from(orders)
    .innerJoin(plans, eq(plans.id, orders.planId))
    .leftJoin(invoices, eq(invoices.orderId, orders.id))
    .leftJoin(customerPlans, eq(customerPlans.orderId, orders.id));
}

type OrderViewRow = {
  order: OrderRow;
  planName: string;
  invoiceNumber: string | null;
  periodStartsAt: Date | null;
  periodEndsAt: Date | null;
};

const viewOf = (row: OrderViewRow): OrderView => ({
  order: row.order,
  orderDate: row.order.createdAt.toISOString(),
  planName: row.planName,
  invoiceNumber: row.invoiceNumber,
  period:
    row.periodStartsAt && row.periodEndsAt
      ? { startDate: row.periodStartsAt.toISOString(), endDate: row.periodEndsAt.toISOString() }
      : null,
});

/**
 * The text of one page of a customer's history, newest first by (created_at, id), with the
 * request's session: no row at all when it is revoked. The page is one JSON value that
 * PostgreSQL builds with the answer's own strings, so that Node parses it once instead of
 * decoding every column of every row into objects and dates, which cost three times the CPU
 * (docs/decisions/049-orders-history-as-one-json-value.md). The page of orders is picked by the
 * index on (customer_id, created_at) first, and only its rows are joined. `after` reads the page
 * after a position; `size` writes the number of rows into the text (see PAGE_TEXTS).
 * $1 the session, $2 the customer, $3 and $4 the position, then the number of rows.
 */
function historyPageText(after: boolean, size: number | undefined): string {
  const bound = after ? 'AND (created_at, id) < ($3::timestamptz, $4::uuid)' : '';
  const rows = size ?? `$${after ? 5 : 3}::int`;
  return sessionReadText(`(SELECT coalesce(json_agg(json_build_object(
      'order', json_build_object('id', o.id, 'customerId', o.customer_id, 'planId', o.plan_id,
        'totalPaise', o.total_paise, 'status', o.status),
      'orderDate', ${jsonInstant('o.created_at')}, 'position', ${microsecondInstant('o.created_at')},
      'planName', p.plan_name, 'invoiceNumber', i.invoice_number,
      'period', CASE WHEN cp.order_id IS NOT NULL THEN json_build_object(
        'startDate', ${jsonInstant('cp.starts_at')}, 'endDate', ${jsonInstant('cp.ends_at')}) END
    ) ORDER BY o.created_at DESC, o.id DESC), '[]')
    FROM (SELECT id, customer_id, plan_id, total_paise, status, created_at FROM orders
      WHERE customer_id = ${costedForAnyValue('$2::uuid')} ${bound}
      ORDER BY created_at DESC, id DESC LIMIT ${rows}) o
    JOIN plans p ON p.id = o.plan_id
    LEFT JOIN invoices i ON i.order_id = o.id
    LEFT JOIN customer_plans cp ON cp.order_id = o.id) AS orders`);
}

/** The history's pages; the web app's reads its size, and one more to see whether a next exists. */
const HISTORY_PAGES = keysetPages('orders_history', ORDER_HISTORY_PAGE_SIZE + 1, historyPageText);

/** The history's statement that reads `rows` rows from `position`, with its values after $2. */
export const historyPageStatement = (rows: number, position: HistoryPosition | undefined) =>
  keysetPage(HISTORY_PAGES, rows, position && [position.createdAt, position.id]);

/** An order of the history as its statement writes it: the view `toOrder` takes, and more. */
interface HistoryEntry extends OrderView {
  /** The order's created_at to the microsecond: where the next page starts. */
  position: string;
}

interface HistoryPageRow extends SessionColumns {
  orders: HistoryEntry[];
}

export interface OrderHistoryPage {
  orders: Order[];
  nextCursor: string | null;
  /** The request's session, read with the page; undefined when it is revoked. */
  session: UnrevokedSession | undefined;
}

/**
 * A page of the customer's own orders, newest first, the cursor of the page after it, and the
 * session read beside it for the route to confirm.
 */
export async function listOrders(
  deps: AppDeps,
  auth: RequestAuth,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
): Promise<OrderHistoryPage> {
  const position = cursor === undefined ? undefined : decodeCursor(cursor);
  // one row more than asked for says whether a next page exists, in the same round trip
  const { statement, more } = historyPageStatement(limit + 1, position);
  const { row, session } = await runSessionRead<HistoryPageRow>(deps.db, auth, statement, more);
  const { shown, nextCursor } = keysetAnswer(row?.orders ?? [], limit, (last) =>
    encodeCursor({ createdAt: last.position, id: last.order.id }),
  );
  return { orders: shown.map((entry) => toOrder(deps, entry)), nextCursor, session };
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

/** The billing snapshot of one order, by its id alone (the invoice of a settled order). */
export async function orderBillingSnapshot(
  db: Executor,
  orderId: string,
): Promise<OrderBillingSnapshot | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row ? billingSnapshotOf(row) : null;
}

/**
 * Writes a Pending order for `plan` at `amounts`, with the customer's billing snapshot as it is
 * now, and its activity: a purchase's order, or the order an auto-renewal's charge pays for.
 */
export async function insertOrder(
  tx: Transaction,
  deps: Pick<AppDeps, 'clock' | 'config'>,
  customerId: string,
  plan: Pick<PlanRow, 'id' | 'planName'>,
  amounts: OrderAmountBreakdown,
): Promise<OrderRow> {
  const { clock } = deps;
  const now = clock.now();
  const snapshot = await billingSnapshotFor(tx, deps.config, customerId, amounts);
  const [row] = await tx
    .insert(orders)
    .values({
      customerId,
      planId: plan.id,
      ...amounts,
      ...snapshotColumns(snapshot),
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
  return row!;
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
  const order = await deps.db.transaction(async (tx) => {
    const plan = await offeredPlan(tx, input.planId);
    const amounts = orderAmount(plan.amountPaise);
    if (rupeesToPaise(input.amount) !== amounts.totalPaise) {
      throw new AppError(
        'UNPROCESSABLE',
        `Amount does not match the plan's price. The total for ${plan.planName} is ${formatPaise(amounts.totalPaise)}.`,
      );
    }
    const row = await insertOrder(tx, deps, customerId, plan, amounts);
    return viewOf({
      order: row,
      planName: plan.planName,
      invoiceNumber: null,
      periodStartsAt: null,
      periodEndsAt: null,
    });
  });
  return toOrder(deps, order);
}
