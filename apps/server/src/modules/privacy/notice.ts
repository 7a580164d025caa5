// The privacy notice and withdrawing optional consent (DPDP Act 2023, ss. 5 and 6(4); decision
// 079): the customer is shown the notice until they have read its current version, and withdraws
// everything optional in one step.
import { eq, sql } from 'drizzle-orm';
import {
  PRIVACY_NOTICE_VERSION,
  privacyMessages,
  type NotificationPreferences,
  type PrivacyNoticeStatus,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/record';
import { savePreferences } from '../preferences/service';
import { privacyNoticeReads } from './schema';

type NoticeDeps = Pick<AppDeps, 'db' | 'clock'>;

/** Whether the customer has read the notice's current version, and when. */
export async function noticeStatus(
  deps: Pick<AppDeps, 'db'>,
  customerId: string,
): Promise<PrivacyNoticeStatus> {
  const [row] = await deps.db
    .select()
    .from(privacyNoticeReads)
    .where(eq(privacyNoticeReads.customerId, customerId));
  const current = row?.version === PRIVACY_NOTICE_VERSION;
  return { version: PRIVACY_NOTICE_VERSION, readAt: current ? row.readAt.toISOString() : null };
}

/**
 * Records that the customer read this version. Reading it again keeps the first time; an older
 * version, read in a page opened before the notice changed, is refused so that the new one shows.
 */
export async function markNoticeRead(
  deps: NoticeDeps,
  customerId: string,
  version: string,
): Promise<PrivacyNoticeStatus> {
  if (version !== PRIVACY_NOTICE_VERSION) {
    throw new AppError('CONFLICT', privacyMessages.noticeChanged);
  }
  const readAt = deps.clock.now();
  await deps.db
    .insert(privacyNoticeReads)
    .values({ customerId, version, readAt })
    .onConflictDoUpdate({
      target: privacyNoticeReads.customerId,
      set: { version, readAt },
      // the first reading of this version stays
      setWhere: sql`${privacyNoticeReads.version} <> excluded.version`,
    });
  // read back rather than returned: a reading kept from before is not in RETURNING
  return noticeStatus(deps, customerId);
}

/** Turns off everything optional at once: the reminder and consent-change e-mails. */
export async function withdrawOptionalConsent(
  deps: NoticeDeps,
  customerId: string,
): Promise<NotificationPreferences> {
  return deps.db.transaction(async (tx) => {
    const off = await savePreferences(tx, deps.clock, customerId, {
      reminders: false,
      consentChanges: false,
    });
    await recordAudit(tx, deps.clock, {
      actor: 'customer',
      customerId,
      action: 'optional_processing_withdrawn',
    });
    return off;
  });
}
