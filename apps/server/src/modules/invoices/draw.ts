// An issued document's PDF, drawn, signed and stored after its number commits (decision 070):
// the financial year's counter is held only for the numbering, and a PDF that fails to draw is
// tried again until it exists.
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { sendSealedMail, type MailJob } from '../mail/delivery';
import { creditNotes, invoices } from './schema';
import { registrationOf } from './registration';
import { issuedDocumentPdf } from './signing';

export type DocumentKind = 'invoice' | 'credit-note';

export interface DocumentDrawJob {
  document: DocumentKind;
  id: string;
  /** The document's mail, sealed at issue: queued once, when its PDF is stored. */
  mail: MailJob;
}

const tableOf = (document: DocumentKind) => (document === 'invoice' ? invoices : creditNotes);

/** Asks for a document's PDF through the issuing transaction: the job exists once it commits. */
export async function sendDocumentDraw(
  tx: Executor,
  deps: Pick<AppDeps, 'queue'>,
  job: DocumentDrawJob,
): Promise<void> {
  await deps.queue.send<DocumentDrawJob>(tx, 'document-draw', job);
}

/**
 * Draws, signs and stores a document's PDF from the content fixed at issue, once the IRP has
 * registered it where that is owed (decision 083), then marks it drawn
 * and queues its mail in one transaction. Run twice (a retry racing a slow first try), both
 * store an equal PDF and only the first to mark it queues the mail.
 */
export async function drawDocument(
  deps: Pick<AppDeps, 'db' | 'files' | 'config' | 'clock' | 'queue' | 'eInvoicing' | 'metrics'>,
  { document, id, mail }: DocumentDrawJob,
): Promise<void> {
  const table = tableOf(document);
  const [row] = await deps.db
    .select({
      content: table.content,
      drawnAt: table.drawnAt,
      fileKey: table.fileKey,
    })
    .from(table)
    .where(eq(table.id, id));
  // gone with a closed account's purge, or drawn already: nothing is owed
  if (!row || row.drawnAt) return;
  if (!row.content) throw new Error(`the ${document} ${id} has no content to draw`);
  const registration = await registrationOf(deps, table, id);
  const pdf = await issuedDocumentPdf(
    deps.config,
    row.content,
    deps.clock.now(),
    registration ?? undefined,
  );
  await deps.files.put(row.fileKey, pdf);
  await deps.db.transaction(async (tx) => {
    const marked = await tx
      .update(table)
      .set({ drawnAt: deps.clock.now() })
      .where(and(eq(table.id, id), isNull(table.drawnAt)))
      .returning({ id: table.id });
    if (marked.length > 0) await sendSealedMail(tx, deps, mail);
  });
  deps.queue.wake('mail');
}

/** Runs this instance's drawing of issued documents. */
export async function startDocumentDrawing(deps: Parameters<typeof drawDocument>[0]) {
  await deps.queue.work<DocumentDrawJob>('document-draw', (job) => drawDocument(deps, job.data));
}

export const BEING_PREPARED = 'This document is being prepared. Please try again in a moment.';

/** A document whose PDF is not drawn yet is asked for again shortly: it is not missing. */
export function ensureDrawn(drawnAt: Date | null) {
  if (!drawnAt) throw new AppError('CONFLICT', BEING_PREPARED, 'being prepared', 5);
}
