import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, desc, eq, gt, inArray, lte, type SQLWrapper } from 'drizzle-orm';
import {
  customerDate,
  dataExportDownloadPath,
  privacyMessages,
  type DataExport,
} from '@portal/contract';
import type { Job } from '../../adapters/queue';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { portalUrl } from '../mail/format';
import { customers } from '../users/schema';
import { customerDataArchive } from './data-archive';
import { isUniqueViolation } from '../../db/sql-state';
import { dataExports } from './schema';
import { DAY_MS, HOUR_MS } from '../../lib/clock';

type Deps = Pick<
  AppDeps,
  'db' | 'clock' | 'files' | 'queue' | 'consents' | 'config' | 'signedLinks'
>;

/** How long the mailed link works, and the file is kept. */
export const DATA_EXPORT_TTL_MS = DAY_MS;
/** A new export is refused this long after the last one was ready: its link still works. */
export const DATA_EXPORT_COOLDOWN_MS = HOUR_MS;

export interface DataExportJob {
  exportId: string;
}

export const dataExportFileKey = (customerId: string, exportId: string) =>
  `data-exports/${customerId}/${exportId}.zip`;

type Row = typeof dataExports.$inferSelect;

function toDataExport(row: Row, now: Date): DataExport {
  // an expiry is set only as a request is made ready: a row with one past is expired
  const over = row.expiresAt !== null && row.expiresAt <= now;
  return {
    id: row.id,
    status: over ? 'expired' : (row.status as DataExport['status']),
    requestedAt: row.requestedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** The customer's latest request, or null. */
export async function latestDataExport(
  deps: Pick<Deps, 'db' | 'clock'>,
  customerId: string,
): Promise<DataExport | null> {
  const [row] = await deps.db
    .select()
    .from(dataExports)
    .where(eq(dataExports.customerId, customerId))
    .orderBy(desc(dataExports.requestedAt))
    .limit(1);
  return row ? toDataExport(row, deps.clock.now()) : null;
}

/**
 * Asks for a new export: the row and its job in one transaction. One may be preparing at a
 * time (the partial unique index decides a race, on either database), and none within an hour
 * of the last one being ready.
 */
export async function requestDataExport(deps: Deps, customerId: string): Promise<DataExport> {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const [recent] = await tx
        .select(
          // Stryker disable next-line ObjectLiteral: only whether a row comes back is read; a select of no columns answers the same rows
          { id: dataExports.id },
        )
        .from(dataExports)
        .where(
          and(
            eq(dataExports.customerId, customerId),
            eq(dataExports.status, 'ready'),
            gt(dataExports.readyAt, new Date(now.getTime() - DATA_EXPORT_COOLDOWN_MS)),
          ),
        )
        .limit(1);
      if (recent) throw new AppError('TOO_MANY_REQUESTS', privacyMessages.exportTooSoon);
      const [row] = await tx
        .insert(dataExports)
        .values({ customerId, status: 'preparing', requestedAt: now })
        .returning();
      await deps.queue.send<DataExportJob>(tx, 'data-export', { exportId: row!.id });
      await recordAudit(tx, deps.clock, {
        actor: 'customer',
        customerId,
        action: 'data_export_requested',
        details: { exportId: row!.id },
      });
      return toDataExport(row!, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', privacyMessages.exportPreparing);
    throw error;
  }
}

/** Writes the archive to a local file first: the store takes it streamed, with its size. */
async function storeArchive(deps: Deps, customerId: string, key: string) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'portal-data-export-'));
  try {
    const file = path.join(folder, 'export.zip');
    await pipeline(await customerDataArchive(deps, customerId), createWriteStream(file));
    await deps.files.putFile(key, file);
  } finally {
    await rm(folder, { recursive: true });
  }
}

/**
 * The job: builds and stores the ZIP, then marks the request ready and queues the mail with
 * its 24-hour link in one transaction. A request no longer preparing (done by an earlier try,
 * or the account closed meanwhile) is left as it is.
 */
export async function prepareDataExport(deps: Deps, exportId: string): Promise<void> {
  const [row] = await deps.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'preparing')));
  if (!row) return;
  const key = dataExportFileKey(row.customerId, row.id);
  await storeArchive(deps, row.customerId, key);

  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + DATA_EXPORT_TTL_MS);
  const stillWanted = await deps.db.transaction(async (tx) => {
    const [ready] = await tx
      .update(dataExports)
      .set({ status: 'ready', readyAt: now, expiresAt })
      .where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'preparing')))
      .returning({ id: dataExports.id });
    const [customer] = await tx
      .select({ email: customers.email })
      .from(customers)
      .where(eq(customers.id, row.customerId));
    if (!ready || !customer) return false;
    const link = deps.signedLinks.sign(
      dataExportDownloadPath(row.id),
      row.customerId,
      DATA_EXPORT_TTL_MS / 1000,
    );
    await recordAudit(tx, deps.clock, {
      actor: 'system',
      customerId: row.customerId,
      action: 'data_export_prepared',
      details: { exportId: row.id },
    });
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to: customer.email,
      data: {
        kind: 'data-export-ready',
        link: portalUrl(deps.config.PUBLIC_URL, link),
        expiresAt: expiresAt.toISOString(),
      },
    });
    return true;
  });
  if (!stillWanted) await deps.files.remove(key);
}

/** The queue's worker: after its last try, a request that keeps failing is marked failed. */
export async function runDataExportJob(deps: Deps, job: Job<DataExportJob>) {
  try {
    await prepareDataExport(deps, job.data.exportId);
  } catch (error) {
    if (job.retryCount >= job.retryLimit) {
      await deps.db
        .update(dataExports)
        .set({ status: 'failed' })
        .where(and(eq(dataExports.id, job.data.exportId), eq(dataExports.status, 'preparing')));
    }
    throw error;
  }
}

/** `portal-data-24-11-2026.zip`: the day it was prepared, in India. */
export const dataExportFileName = (readyAt: Date) =>
  `portal-data-${customerDate(readyAt).replaceAll('/', '-')}.zip`;

/**
 * The customer a mailed link was signed for. Its expiry is the request's, so it says so in the
 * request's words: reopening the portal gives no new link, asking again does.
 */
export function dataExportLinkCustomer(
  deps: Pick<Deps, 'signedLinks'>,
  exportId: string,
  query: Parameters<Deps['signedLinks']['verify']>[1],
): string {
  try {
    return deps.signedLinks.verify(dataExportDownloadPath(exportId), query);
  } catch (error) {
    if (error instanceof AppError && error.code === 'GONE') {
      throw new AppError('GONE', privacyMessages.exportGone);
    }
    throw error;
  }
}

/**
 * The file of a signed link (checked by `dataExportLinkCustomer`): the request must be the
 * link's customer's, ready, and not past its 24 hours.
 */
export async function dataExportFile(deps: Deps, customerId: string, exportId: string) {
  const [row] = await deps.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.customerId, customerId)));
  if (!row || row.status === 'preparing' || row.status === 'failed') {
    throw new AppError('NOT_FOUND', privacyMessages.exportMissing);
  }
  if (row.status === 'expired' || !row.expiresAt || row.expiresAt <= deps.clock.now()) {
    throw new AppError('GONE', privacyMessages.exportGone);
  }
  const file = await deps.files.stream(dataExportFileKey(customerId, exportId));
  if (!file) throw new AppError('GONE', privacyMessages.exportGone);
  await recordAudit(deps.db, deps.clock, {
    actor: 'customer',
    customerId,
    action: 'data_export_downloaded',
    details: { exportId },
  }).catch((error: unknown) => {
    // no download without its line in the audit log: the file opened is closed again
    file.body.destroy();
    throw error;
  });
  return { ...file, fileName: dataExportFileName(row.readyAt ?? row.expiresAt) };
}

/**
 * The scheduled purge: files past their 24 hours are deleted and their requests marked
 * expired (kept, so the page can say so). Safe to run on several instances at once: removing
 * a file twice is not an error, and the update is idempotent.
 */
export async function purgeExpiredDataExports(
  deps: Pick<Deps, 'db' | 'clock' | 'files'>,
): Promise<number> {
  const due = await deps.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, deps.clock.now())));
  for (const row of due) {
    await deps.files.remove(dataExportFileKey(row.customerId, row.id));
    await deps.db
      .update(dataExports)
      .set({ status: 'expired' })
      .where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'ready')));
  }
  return due.length;
}

/**
 * Closing the account, in its transaction: every request of the customer ends at once (its link
 * answers 410, a job still preparing one leaves it), and stays until its file is deleted.
 */
export async function endCustomerDataExports(tx: Executor, customerId: string) {
  await tx
    .update(dataExports)
    .set({ status: 'expired' })
    .where(eq(dataExports.customerId, customerId));
}

/** The requests of the customers given (ids, or a subquery), with the keys of their files. */
export async function dataExportsOf(db: Executor, customerIds: string[] | SQLWrapper) {
  const rows = await db
    .select({ id: dataExports.id, customerId: dataExports.customerId })
    .from(dataExports)
    .where(inArray(dataExports.customerId, customerIds));
  return rows.map((row) => ({ id: row.id, key: dataExportFileKey(row.customerId, row.id) }));
}

/** A request whose file was deleted goes too. */
export async function forgetDataExport(db: Executor, exportId: string) {
  await db.delete(dataExports).where(eq(dataExports.id, exportId));
}
