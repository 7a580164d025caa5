import { and, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  gstKind,
  ORDER_HISTORY_PAGE_SIZE,
  orderAmount,
  rupeesToPaise,
  type CreateOrderRequest,
  type GstTaxSplit,
  type Order,
  type OrderBillingSnapshot,
  type PaymentStatus,
} from '@portal/contract';
import type { Database, Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import type { RequestAuth } from '../auth/authenticate';
import { sessions } from '../auth/schema';
import { unrevokedSession, type UnrevokedSession } from '../auth/sessions';
import { billingSnapshotFor } from '../billing/service';
import { customerPlans, plans } from '../plans/schema';
import { isUuid, offeredPlan } from '../plans/service';
import { receiptLink, receiptOffered } from '../receipts/service';
import { invoices } from '../invoices/schema';
import { encodeCursor, decodeCursor } from './cursor';
import { orders, type OrderRow } from './schema';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
export const formatPaise = (paise: number) => inr.format(paise / 100);

/** What an order shows of its own row. */
type ShownOrder = Pick<
  OrderRow,
  'id' | 'customerId' | 'planId' | 'totalPaise' | 'status' | 'createdAt'
>;

type OrderView = {
  order: ShownOrder;
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
      invoiceNumber: invoices.invoiceNumber,
      periodStartsAt: customerPlans.startsAt,
      periodEndsAt: customerPlans.endsAt,
    })
    .from(orders)
    .innerJoin(plans, eq(plans.id, orders.planId))
    .leftJoin(invoices, eq(invoices.orderId, orders.id))
    .leftJoin(customerPlans, eq(customerPlans.orderId, orders.id));
}

type OrderViewRow = Pick<OrderView, 'order' | 'planName' | 'invoiceNumber'> & {
  periodStartsAt: Date | null;
  periodEndsAt: Date | null;
};

const viewOf = (row: OrderViewRow): OrderView => ({
  order: row.order,
  planName: row.planName,
  invoiceNumber: row.invoiceNumber,
  period:
    row.periodStartsAt && row.periodEndsAt
      ? { startsAt: row.periodStartsAt, endsAt: row.periodEndsAt }
      : null,
});

/** Where an order stands in the history, exactly as the database orders it. */
const positionOf = sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of a customer's history, newest first by (created_at, id), with the request's
 * session: no row at all when it is revoked, one row of nulls beside it for an empty page. The
 * page of orders is picked by the index on (customer_id, created_at) first, and only its rows
 * are joined. Built and prepared once per database: the first page, and the page after a
 * position.
 */
function prepareHistoryPage(db: Database, name: string, rows: SQL | Placeholder, after?: SQL) {
  const page = db
    .select({
      id: orders.id,
      customerId: orders.customerId,
      planId: orders.planId,
      totalPaise: orders.totalPaise,
      status: orders.status,
      createdAt: orders.createdAt,
      position: positionOf.as('position'),
    })
    .from(orders)
    .where(and(eq(orders.customerId, sql.placeholder('customerId')), after))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    // Drizzle writes an SQL value in as it is; its type only names numbers and placeholders
    .limit(rows as Placeholder)
    .as('page');
  const history = db
    .select({
      id: page.id,
      customerId: page.customerId,
      planId: page.planId,
      totalPaise: page.totalPaise,
      status: page.status,
      createdAt: page.createdAt,
      position: page.position,
      planName: plans.planName,
      invoiceNumber: invoices.invoiceNumber,
      periodStartsAt: customerPlans.startsAt,
      periodEndsAt: customerPlans.endsAt,
    })
    .from(page)
    .innerJoin(plans, eq(plans.id, page.planId))
    .leftJoin(invoices, eq(invoices.orderId, page.id))
    .leftJoin(customerPlans, eq(customerPlans.orderId, page.id))
    .as('history');
  return db
    .select({
      session: { createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt },
      order: {
        id: history.id,
        customerId: history.customerId,
        planId: history.planId,
        totalPaise: history.totalPaise,
        status: history.status,
        createdAt: history.createdAt,
      },
      position: history.position,
      planName: history.planName,
      invoiceNumber: history.invoiceNumber,
      periodStartsAt: history.periodStartsAt,
      periodEndsAt: history.periodEndsAt,
    })
    .from(sessions)
    .leftJoin(history, sql`true`)
    .where(unrevokedSession())
    .orderBy(desc(history.createdAt), desc(history.id))
    .prepare(name);
}

const afterPosition = sql`(${orders.createdAt}, ${orders.id}) < (${sql.placeholder('createdAt')}::timestamptz, ${sql.placeholder('id')}::uuid)`;

/** The rows the web app's page reads: its size, and one more to see whether a next page exists. */
const WEB_PAGE_ROWS = ORDER_HISTORY_PAGE_SIZE + 1;

/**
 * The web app's page has texts with its size written in as the LIMIT: with a parameter there,
 * PostgreSQL costs a plan made for any value too high to keep it, and plans the statement anew
 * at every call (as the consents page, in consents/reads.ts). Any other size is a parameter.
 */
// a statement's name only lets the database keep it parsed; unnamed, it is parsed at each call
// Stryker disable StringLiteral: equivalent, as said above
const prepareStatements = (db: Database) => {
  const anySize = sql.placeholder('limit');
  const webSize = sql.raw(String(WEB_PAGE_ROWS));
  return {
    anySize: {
      first: prepareHistoryPage(db, 'orders_history_first', anySize),
      after: prepareHistoryPage(db, 'orders_history_after', anySize, afterPosition),
    },
    webSize: {
      first: prepareHistoryPage(db, `orders_history_first_${WEB_PAGE_ROWS}`, webSize),
      after: prepareHistoryPage(
        db,
        `orders_history_after_${WEB_PAGE_ROWS}`,
        webSize,
        afterPosition,
      ),
    },
  };
};
// Stryker restore StringLiteral
const historyStatements = new WeakMap<Database, ReturnType<typeof prepareStatements>>();

/** The history's two statements on this database that read `rows` rows, prepared on first use. */
export function historyPageStatements(db: Database, rows: number) {
  let statements = historyStatements.get(db);
  // Stryker disable next-line ConditionalExpression: a cache; statements prepared anew answer the same
  if (!statements) {
    statements = prepareStatements(db);
    historyStatements.set(db, statements);
  }
  // Stryker disable next-line ConditionalExpression: the parameter's texts answer the same; only PostgreSQL's plans tell them apart (history-plan.pg.test.ts)
  return rows === WEB_PAGE_ROWS ? statements.webSize : statements.anySize;
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
  { customerId, sessionId }: RequestAuth,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
): Promise<OrderHistoryPage> {
  const position = cursor === undefined ? undefined : decodeCursor(cursor);
  const statements = historyPageStatements(deps.db, limit + 1);
  // one row more than asked for says whether a next page exists, in the same round trip
  const read = position
    ? await statements.after.execute({ sessionId, customerId, limit: limit + 1, ...position })
    : await statements.first.execute({ sessionId, customerId, limit: limit + 1 });
  const rows = read.flatMap(({ order, position: at, planName, ...rest }) =>
    order && at !== null && planName !== null ? [{ ...rest, order, position: at, planName }] : [],
  );
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    orders: shown.map((row) => toOrder(deps, viewOf(row))),
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ createdAt: last.position, id: last.order.id })
        : null,
    session: read[0]?.session,
  };
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

/** The columns that keep an order's billing snapshot. */
const snapshotColumns = (snapshot: OrderBillingSnapshot) => ({
  billingGstin: snapshot.gstin,
  billingAddressLine1: snapshot.address?.addressLine1 ?? null,
  billingAddressLine2: snapshot.address?.addressLine2 ?? null,
  billingCity: snapshot.address?.city ?? null,
  billingStateCode: snapshot.address?.stateCode ?? null,
  billingPin: snapshot.address?.pin ?? null,
  placeOfSupply: snapshot.placeOfSupply,
  supplierStateCode: snapshot.supplierStateCode,
  cgstPaise: snapshot.taxSplit.cgstPaise,
  sgstPaise: snapshot.taxSplit.sgstPaise,
  igstPaise: snapshot.taxSplit.igstPaise,
});

type SnapshotRow = Pick<OrderRow, keyof ReturnType<typeof snapshotColumns>>;

/**
 * The billing details an order kept when it was created (what its invoice prints), or null for
 * an order created before orders kept them.
 */
export function billingSnapshotOf(row: SnapshotRow): OrderBillingSnapshot | null {
  const { billingGstin, placeOfSupply, supplierStateCode } = row;
  if (billingGstin === null || placeOfSupply === null || supplierStateCode === null) return null;
  const taxSplit: GstTaxSplit = {
    kind: gstKind(supplierStateCode, placeOfSupply),
    cgstPaise: row.cgstPaise ?? 0,
    sgstPaise: row.sgstPaise ?? 0,
    igstPaise: row.igstPaise ?? 0,
  };
  const address =
    row.billingAddressLine1 !== null &&
    row.billingCity !== null &&
    row.billingStateCode !== null &&
    row.billingPin !== null
      ? {
          addressLine1: row.billingAddressLine1,
          addressLine2: row.billingAddressLine2,
          city: row.billingCity,
          stateCode: row.billingStateCode,
          pin: row.billingPin,
        }
      : null;
  return { gstin: billingGstin, address, placeOfSupply, supplierStateCode, taxSplit };
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
    return { order: row!, planName: plan.planName, invoiceNumber: null, period: null };
  });
  return toOrder(deps, order);
}
