// What is left of closed accounts (docs/decisions/062-complete-erasure-on-closing.md): the files
// that closing could not delete are tried again, and the tax records kept under section 36 of
// the CGST Act are deleted once their time is over, then the tombstone of the customer.
import { and, eq, gt, gte, inArray, lt, lte, notExists, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import type { Transaction } from '../../db/client';
import { whileHoldingJobLock } from '../../db/job-lock';
import { consentDocumentsOf } from '../consents/erasure';
import { creditNotes, invoices } from '../invoices/schema';
import { orders } from '../purchases/schema';
import { paymentEvents } from '../purchases/schema';
import { customerPlans } from '../plans/schema';
import { customers } from '../users/schema';
import { deleteClosedAccountFiles, removeOrLog, taxRecordsDoneBefore } from './close-account';
import { dataExportsOf } from './data-export';
import { hasSqlState } from '../../db/sql-state';
import { accountClosures } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'files'>;
type Log = Pick<FastifyBaseLogger, 'warn'>;

/** Closed accounts read at a time, one after another until every due one was seen. */
export const CLOSED_ACCOUNT_BATCH = 100;

const FOREIGN_KEY_VIOLATION = '23503';

export interface ClosedAccountPurge {
  /** Partner documents and data exports deleted that closing had left. */
  files: number;
  /** Orders deleted with their invoices, credit notes and payment events. */
  orders: number;
  /** Customers of whom nothing is left. */
  customers: number;
}

/**
 * The customer's orders whose every record (the order's own changes, its invoice, its credit
 * notes) is dated before `doneBefore`: an order paid or refunded after the account closed keeps
 * its own time.
 */
async function ordersDone(tx: Transaction, customerId: string, doneBefore: Date) {
  const laterInvoice = tx
    .select(
      // Stryker disable next-line ObjectLiteral: a subquery under NOT EXISTS; the columns it selects are never read
      { id: invoices.id },
    )
    .from(invoices)
    .where(and(eq(invoices.orderId, orders.id), gte(invoices.issuedAt, doneBefore)));
  const laterCreditNote = tx
    .select(
      // Stryker disable next-line ObjectLiteral: a subquery under NOT EXISTS; the columns it selects are never read
      { id: creditNotes.id },
    )
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(and(eq(invoices.orderId, orders.id), gte(creditNotes.issuedAt, doneBefore)));
  return tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.customerId, customerId),
        lt(orders.createdAt, doneBefore),
        lt(orders.updatedAt, doneBefore),
        notExists(laterInvoice),
        notExists(laterCreditNote),
      ),
    );
}

/**
 * Deletes the customer's tax records whose time is over: the PDFs first, so that an order whose
 * file the store fails to delete stays whole for the next pass; answers how many orders went.
 */
async function deleteTaxRecords(
  tx: Transaction,
  deps: Deps,
  log: Log,
  customerId: string,
  doneBefore: Date,
) {
  const done = (await ordersDone(tx, customerId, doneBefore)).map((order) => order.id);
  // Stryker disable next-line ConditionalExpression: with none done the reads and deletes below find nothing; only the round trips are spared
  if (done.length === 0) return 0;
  const documents = [
    ...(await tx
      .select({ orderId: invoices.orderId, key: invoices.fileKey })
      .from(invoices)
      .where(inArray(invoices.orderId, done))),
    ...(await tx
      .select({ orderId: invoices.orderId, key: creditNotes.fileKey })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(inArray(invoices.orderId, done))),
  ];
  const kept = new Set<string>();
  for (const { orderId, key } of documents) {
    if (!(await removeOrLog(deps.files, log, key, { order: orderId }))) kept.add(orderId);
  }
  const gone = done.filter((id) => !kept.has(id));
  // Stryker disable next-line ConditionalExpression: with none gone the deletes below find nothing; only the round trips are spared
  if (gone.length === 0) return 0;
  const theirInvoices = tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(inArray(invoices.orderId, gone));
  await tx.delete(creditNotes).where(inArray(creditNotes.invoiceId, theirInvoices));
  await tx.delete(invoices).where(inArray(invoices.orderId, gone));
  await tx.delete(paymentEvents).where(inArray(paymentEvents.orderId, gone));
  await tx.delete(customerPlans).where(inArray(customerPlans.orderId, gone));
  await tx.delete(orders).where(inArray(orders.id, gone));
  return gone.length;
}

/**
 * Deletes what is left of the customer once no tax record and no file of theirs is left: the
 * row and, by their keys, its closure, revoked sessions and erased consents. A table that keeps rows
 * longer refers to the customer without a cascading key (the audit log keeps a plain id); one
 * whose key refuses the delete keeps the tombstone, and the pass goes on with the next.
 */
async function deleteTombstone(tx: Transaction, log: Log, customerId: string) {
  const [order] = await tx
    .select(
      // Stryker disable next-line ObjectLiteral: only whether a row comes back is read; a select of no columns answers the same rows
      { id: orders.id },
    )
    .from(orders)
    .where(eq(orders.customerId, customerId))
    .limit(1);
  if (order) return false;
  const files = [
    ...(await consentDocumentsOf(tx, [customerId])),
    ...(await dataExportsOf(tx, [customerId])),
  ];
  if (files.length > 0) return false;
  try {
    return await tx.transaction(async (inner) => {
      const deleted = await inner
        .delete(customers)
        .where(eq(customers.id, customerId))
        .returning({ id: customers.id });
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the closure read just before, in this transaction under the job's lock, keeps the customer's row (its key cascades from it)
      return deleted.length > 0;
    });
  } catch (error) {
    if (!hasSqlState(error, FOREIGN_KEY_VIOLATION)) throw error;
    log.warn({ err: error, customer: customerId }, 'a closed account is still referred to; kept');
    return false;
  }
}

/**
 * One pass: the files closing left, then, for every closed account whose tax records are past
 * their time, those records and the tombstone. Several instances may run it at once; one does
 * the work and the others answer null. A repeated pass finds nothing more to do.
 */
export async function purgeClosedAccounts(
  deps: Deps,
  log: Log,
): Promise<ClosedAccountPurge | null> {
  // Stryker disable next-line StringLiteral: the lock's name only has to be the same for every pass of this job
  return whileHoldingJobLock(deps.db, 'closed-account-purge', async (tx) => {
    const closed = tx.select({ id: accountClosures.customerId }).from(accountClosures);
    const files = await deleteClosedAccountFiles({ db: tx, files: deps.files }, log, closed);
    const now = deps.clock.now();
    const doneBefore = taxRecordsDoneBefore(now);
    const noOrder = notExists(
      tx
        .select(
          // Stryker disable next-line ObjectLiteral: a subquery under NOT EXISTS; the columns it selects are never read
          { id: orders.id },
        )
        .from(orders)
        .where(eq(orders.customerId, accountClosures.customerId)),
    );
    let deletedOrders = 0;
    let deletedCustomers = 0;
    // by customer id: a tombstone that stays cannot hold the others back
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const due = await tx
        .select({
          customerId: accountClosures.customerId,
          keepTaxRecordsUntil: accountClosures.keepTaxRecordsUntil,
        })
        .from(accountClosures)
        .where(
          and(
            // an account without an order has no tax record to wait for
            or(lte(accountClosures.keepTaxRecordsUntil, now), noOrder),
            gt(accountClosures.customerId, after),
          ),
        )
        .orderBy(accountClosures.customerId)
        .limit(CLOSED_ACCOUNT_BATCH);
      for (const { customerId, keepTaxRecordsUntil } of due) {
        // Stryker disable next-line ConditionalExpression: an account due before its time is one without an order, whose tax records are none
        if (keepTaxRecordsUntil <= now) {
          deletedOrders += await deleteTaxRecords(tx, deps, log, customerId, doneBefore);
        }
        if (await deleteTombstone(tx, log, customerId)) deletedCustomers += 1;
      }
      if (due.length < CLOSED_ACCOUNT_BATCH) break;
      after = due.at(-1)!.customerId;
    }
    return { files, orders: deletedOrders, customers: deletedCustomers };
  });
}

/** One run of the closed-account-purge job. */
export async function runClosedAccountPurge(deps: AppDeps, log: FastifyBaseLogger) {
  const purged = await purgeClosedAccounts(deps, log);
  if (purged && (purged.files > 0 || purged.orders > 0 || purged.customers > 0)) {
    log.info(purged, 'closed accounts purged');
  }
}
