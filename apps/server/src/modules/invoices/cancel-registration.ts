// Cancelling a document's IRN, which the IRP allows within 24 hours of its acknowledgement
// (decision 083); after that a credit note corrects it instead.
import { and, eq } from 'drizzle-orm';
import { customerDateTime } from '@portal/contract';
import {
  CANCEL_REASONS,
  EInvoiceRefusal,
  EInvoiceUnavailable,
  type CancelReason,
} from '../../adapters/e-invoice';
import type { AppDeps } from '../../deps';
import { HOUR_MS } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { creditNotes, invoices } from './schema';

/** How long after its acknowledgement the IRP cancels an IRN. */
const CANCEL_WINDOW_MS = 24 * HOUR_MS;
/** The IRP's "the allowed cancellation time limit is crossed". */
const CANCEL_TOO_LATE = '2270';
/** The IRP takes a remark of at most this many characters (CnlRem). */
export const CANCEL_REMARK_MAX_LENGTH = 100;

/** Why an IRN is cancelled, by the names the operator gives. */
export const CANCEL_REASON_NAMES = {
  duplicate: CANCEL_REASONS.duplicate,
  'data-entry-mistake': CANCEL_REASONS.dataEntryMistake,
  'order-cancelled': CANCEL_REASONS.orderCancelled,
  other: CANCEL_REASONS.other,
} as const satisfies Record<string, CancelReason>;
export type CancelReasonName = keyof typeof CANCEL_REASON_NAMES;

const tooLate = (number: string, ackDate: Date) =>
  new AppError(
    'CONFLICT',
    `${number} was acknowledged by the IRP on ${customerDateTime(ackDate)}, over 24 hours ago: its IRN can no longer be cancelled. Issue a credit note instead: refund the payment at the gateway, and the portal issues and registers the credit note.`,
  );

/** An invoice or credit note by its number, with its registration. */
async function documentNumbered(db: AppDeps['db'], number: string) {
  for (const [table, numberColumn] of [
    [invoices, invoices.invoiceNumber],
    [creditNotes, creditNotes.creditNoteNumber],
  ] as const) {
    const [row] = await db
      .select({
        id: table.id,
        status: table.eInvoiceStatus,
        irn: table.irn,
        ackDate: table.ackDate,
      })
      .from(table)
      .where(eq(numberColumn, number));
    if (row) return { table, ...row };
  }
  return null;
}

/**
 * Cancels the IRN of a registered invoice or credit note at the IRP, then marks the document
 * Cancelled. Refused when it has no IRN, or its acknowledgement is over 24 hours old: then a
 * credit note is the way, and the refusal says so.
 */
export async function cancelRegistration(
  deps: Pick<AppDeps, 'db' | 'eInvoicing' | 'clock'>,
  { number, reason, remark }: { number: string; reason: CancelReasonName; remark: string },
): Promise<{ irn: string; cancelledAt: Date }> {
  if (!deps.eInvoicing) {
    throw new AppError('CONFLICT', 'E-invoicing is off (E_INVOICING): no document has an IRN');
  }
  const words = remark.trim();
  if (words.length === 0 || words.length > CANCEL_REMARK_MAX_LENGTH) {
    throw new AppError(
      'BAD_REQUEST',
      `The remark must be 1 to ${CANCEL_REMARK_MAX_LENGTH} characters, as the IRP takes it`,
    );
  }
  const document = await documentNumbered(deps.db, number);
  if (!document) throw new AppError('NOT_FOUND', `No invoice or credit note is numbered ${number}`);
  const { table, irn, ackDate } = document;
  if (document.status !== 'Registered' || !irn || !ackDate) {
    throw new AppError(
      'CONFLICT',
      `${number} has no IRN to cancel: its e-invoice is ${(document.status ?? 'not owed').toLowerCase()}`,
    );
  }
  if (deps.clock.now().getTime() - ackDate.getTime() > CANCEL_WINDOW_MS) {
    throw tooLate(number, ackDate);
  }
  let cancelledAt: Date;
  try {
    ({ cancelDate: cancelledAt } = await deps.eInvoicing.client.cancel(
      irn,
      CANCEL_REASON_NAMES[reason],
      words,
    ));
  } catch (error) {
    if (error instanceof EInvoiceRefusal) {
      if (error.has(CANCEL_TOO_LATE)) throw tooLate(number, ackDate);
      throw new AppError('CONFLICT', `The IRP refused to cancel ${number}: ${error.message}`);
    }
    if (error instanceof EInvoiceUnavailable) {
      throw new AppError('SERVICE_UNAVAILABLE', `${error.message}; nothing changed, try again`);
    }
    throw error;
  }
  await deps.db
    .update(table)
    .set({ eInvoiceStatus: 'Cancelled', eInvoiceCancelledAt: cancelledAt })
    .where(and(eq(table.id, document.id), eq(table.eInvoiceStatus, 'Registered')));
  return { irn, cancelledAt };
}
