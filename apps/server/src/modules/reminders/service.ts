// Reminders of a plan's end and of a consent's expiry, REMINDER_DAYS before it
// (docs/decisions/040-the-plan-over-time.md).
import { sql, type SQL } from 'drizzle-orm';
import { REMINDER_DAYS, customerDate } from '@portal/contract';
import type { ActivityEventType } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { recordActivity } from '../activity/record';
import { enqueueMail } from '../mail/delivery';
import { daysUntil } from '../plans/current-plan';
import { wantsNotice } from '../preferences/service';
import { findCustomerById } from '../users/service';
import { reminderSubject, type ReminderMailData } from './mail';
import { remindersSent } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'queue' | 'consents' | 'config'>;

/** Reminders handled per statement; a run reads batches until none is left. */
export const REMINDER_BATCH = 500;

const WINDOW_DAYS = Math.max(...REMINDER_DAYS);

/** The ISO text JavaScript gives a Date, so a subject names its date the same on both sides. */
const isoOf = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The reminder due for a date `at`, at `now`: the smallest threshold reached. A run that comes
 * late (the 30-day reminder missed, 5 days left) sends the latest reminder only, not every one.
 */
function thresholdOf(at: SQL, now: Date) {
  const ascending = [...REMINDER_DAYS].sort((a, b) => a - b);
  const cases = ascending.map(
    (days) => sql`WHEN ${at} <= ${now}::timestamptz + make_interval(days => ${days}) THEN ${days}`,
  );
  return sql`(CASE ${sql.join(cases, sql` `)} END)::int`;
}

const notHandled = sql`NOT EXISTS (SELECT 1 FROM reminders_sent r
  WHERE r.customer_id = due.customer_id AND r.subject = due.subject
    AND r.threshold_days = due.threshold)`;

interface PlanDue {
  customerId: string;
  planId: string;
  planName: string;
  offered: boolean;
  endsAt: Date | string;
  subject: string;
  threshold: number;
}

/** Customers whose plan (the end of the last period paid for) ends within the window. */
function plansDue(db: Executor, now: Date) {
  return db.execute(sql`
    SELECT due.customer_id AS "customerId", due.plan_id AS "planId", p.plan_name AS "planName",
      p.retired_at IS NULL AS offered, due.ends_at AS "endsAt", due.subject, due.threshold
    FROM (
      SELECT e.customer_id, e.plan_id, e.ends_at, 'plan:' || ${isoOf(sql`e.ends_at`)} AS subject,
        ${thresholdOf(sql`e.ends_at`, now)} AS threshold
      FROM (
        SELECT DISTINCT ON (cp.customer_id) cp.customer_id, cp.plan_id, cp.ends_at
        FROM customer_plans cp WHERE cp.ends_at > ${now}
        ORDER BY cp.customer_id, cp.ends_at DESC
      ) AS e
      WHERE e.ends_at <= ${now}::timestamptz + make_interval(days => ${WINDOW_DAYS})
    ) AS due
    JOIN plans p ON p.id = due.plan_id
    WHERE ${notHandled}
    ORDER BY due.ends_at, due.customer_id
    LIMIT ${REMINDER_BATCH}`);
}

interface ConsentDue {
  id: string;
  customerId: string;
  consentId: string;
  partnerName: string;
  expiresAt: Date | string;
  subject: string;
  threshold: number;
}

/** Approved consents that expire within the window (consents_status_expires_idx). */
function consentsDue(db: Executor, now: Date) {
  return db.execute(sql`
    SELECT due.id, due.customer_id AS "customerId", due.consent_id AS "consentId",
      p.name AS "partnerName", due.expires_at AS "expiresAt", due.subject, due.threshold
    FROM (
      SELECT c.id, c.customer_id, c.consent_id, c.partner_ref, c.expires_at,
        'consent:' || c.id || ':' || ${isoOf(sql`c.expires_at`)} AS subject,
        ${thresholdOf(sql`c.expires_at`, now)} AS threshold
      FROM consents c
      WHERE c.status = 'Approved' AND c.expires_at > ${now}
        AND c.expires_at <= ${now}::timestamptz + make_interval(days => ${WINDOW_DAYS})
    ) AS due
    JOIN partners p ON p.id = due.partner_ref
    WHERE ${notHandled}
    ORDER BY due.expires_at, due.id
    LIMIT ${REMINDER_BATCH}`);
}

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;

export const renewPathOf = (planId: string | null) =>
  planId ? `/orders?planId=${encodeURIComponent(planId)}` : '/plans';

interface Reminder {
  customerId: string;
  subject: string;
  threshold: number;
  /** The bell's event, written with the mail. */
  bell(data: ReminderMailData): {
    type: ActivityEventType;
    title: string;
    description: string;
    /** The ids the bell's link is made of (modules/activity targetOf). */
    details: Record<string, string>;
  };
  mail(companyName: string): ReminderMailData;
}

/**
 * Sends one reminder, once: its key (customer, subject, threshold) is inserted in the same
 * transaction as the bell's event and the queued mail, so of two runs that find it due at once,
 * one sends it and the other finds the key taken. A customer who turned reminders off (read in
 * the same transaction) gets the key and nothing else, so the reminder is not sent later either.
 */
async function sendOnce(deps: Deps, reminder: Reminder): Promise<boolean> {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(remindersSent)
      .values({
        customerId: reminder.customerId,
        subject: reminder.subject,
        thresholdDays: reminder.threshold,
        sentAt: clock.now(),
      })
      .onConflictDoNothing()
      .returning({ customerId: remindersSent.customerId });
    if (!claimed) return false;
    if (!(await wantsNotice(tx, reminder.customerId, 'reminders'))) return false;
    const customer = await findCustomerById(tx, reminder.customerId);
    if (!customer) return false;
    const data = reminder.mail(customer.companyName);
    await recordActivity(tx, clock, {
      customerId: reminder.customerId,
      status: 'pending',
      ...reminder.bell(data),
    });
    await enqueueMail(tx, deps, { template: 'reminder', to: customer.email, data });
    return true;
  });
}

function planReminder(row: PlanDue, now: Date): Reminder {
  const endsAt = new Date(row.endsAt);
  return {
    customerId: row.customerId,
    subject: row.subject,
    threshold: row.threshold,
    mail: (companyName) => ({
      about: 'plan',
      companyName,
      planName: row.planName,
      endsAt: endsAt.toISOString(),
      daysLeft: daysUntil(endsAt, now),
      renewPath: renewPathOf(row.offered ? row.planId : null),
    }),
    bell: (data) => ({
      type: 'plan_ending',
      title: reminderSubject(data),
      description: `Your ${row.planName} plan ends on ${customerDate(endsAt)}. Renew to continue without a break.`,
      details: { planId: row.planId },
    }),
  };
}

function consentReminder(row: ConsentDue, now: Date): Reminder {
  const expiresAt = new Date(row.expiresAt);
  return {
    customerId: row.customerId,
    subject: row.subject,
    threshold: row.threshold,
    mail: (companyName) => ({
      about: 'consent',
      id: row.id,
      companyName,
      partnerName: row.partnerName,
      consentId: row.consentId,
      expiresAt: expiresAt.toISOString(),
      daysLeft: daysUntil(expiresAt, now),
    }),
    bell: (data) => ({
      type: 'consent_expiring',
      title: reminderSubject(data),
      description: `Your consent for ${row.partnerName} expires on ${customerDate(expiresAt)}. Reconnect to keep ${row.partnerName} reading your bank data.`,
      details: { consentId: row.consentId },
    }),
  };
}

/**
 * Sends every reminder due at the clock's time that has not been sent: for each plan and each
 * Approved consent ending within REMINDER_DAYS, the one of the smallest threshold reached.
 * Safe to run twice, late, or on two instances at once. Answers how many it sent.
 */
export async function sendDueReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  let sent = 0;
  for (const read of [
    async () => rowsOf<PlanDue>(await plansDue(deps.db, now)).map((r) => planReminder(r, now)),
    async () =>
      rowsOf<ConsentDue>(await consentsDue(deps.db, now)).map((r) => consentReminder(r, now)),
  ]) {
    // every reminder read gets its key, sent or not, so each batch reads new ones
    for (let batch = await read(); batch.length > 0; batch = await read()) {
      for (const reminder of batch) if (await sendOnce(deps, reminder)) sent += 1;
      if (batch.length < REMINDER_BATCH) break;
    }
  }
  return sent;
}
