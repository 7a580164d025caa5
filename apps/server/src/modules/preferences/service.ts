import { eq } from 'drizzle-orm';
import type { NoticeKind, NotificationPreferences } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notificationPreferences } from './schema';

/** With no row saved, every notice is on. */
const ALL_ON: NotificationPreferences = { reminders: true, consentChanges: true };

const COLUMN_OF_KIND = { reminders: 'reminders', 'consent-changes': 'consentChanges' } as const;

export async function readPreferences(
  db: Executor,
  customerId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select({
      reminders: notificationPreferences.reminders,
      consentChanges: notificationPreferences.consentChanges,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.customerId, customerId));
  return row ?? ALL_ON;
}

/**
 * Whether the customer receives notices of this kind. Pass the transaction that queues the mail,
 * so the answer and the mail belong to the same moment.
 */
export async function wantsNotice(
  db: Executor,
  customerId: string,
  kind: NoticeKind,
): Promise<boolean> {
  return (await readPreferences(db, customerId))[COLUMN_OF_KIND[kind]];
}

/** Saves both switches in one statement: the last save wins, whole. */
export async function savePreferences(
  db: Executor,
  clock: Clock,
  customerId: string,
  choice: NotificationPreferences,
): Promise<NotificationPreferences> {
  const values = { ...choice, updatedAt: clock.now() };
  await db
    .insert(notificationPreferences)
    .values({ customerId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.customerId, set: values });
  return { reminders: choice.reminders, consentChanges: choice.consentChanges };
}
