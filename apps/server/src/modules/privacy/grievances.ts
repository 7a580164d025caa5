// Grievances to the grievance officer (DPDP Rules, rule 14; decision 075): recorded with a
// reference the customer gets at once, due within GRIEVANCE_RESPONSE_DAYS, mailed to the officer,
// answered by the officer through the CLI, and counted while overdue for an alert.
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { Grievance, GrievanceOfficer, GrievanceRequest } from '@portal/contract';
import type { Config } from '../../config';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { customers } from '../users/schema';
import { emailOf, newReference, undecidable } from './references';
import { grievances } from './schema';

type GrievanceDeps = Pick<AppDeps, 'db' | 'clock' | 'queue' | 'consents' | 'config'>;

const DAY_MS = 24 * 60 * 60_000;

/** The officer the Privacy page names; a placeholder until configured (warned of in production). */
export function grievanceOfficer(config: Config): GrievanceOfficer {
  return {
    name: config.GRIEVANCE_OFFICER_NAME ?? 'Grievance Officer',
    email: config.GRIEVANCE_OFFICER_EMAIL ?? 'grievance-officer@portal.localhost',
    phone: config.GRIEVANCE_OFFICER_PHONE ?? null,
    responseDays: config.GRIEVANCE_RESPONSE_DAYS,
  };
}

const toGrievance = (row: typeof grievances.$inferSelect): Grievance => ({
  reference: row.reference,
  topic: row.topic as Grievance['topic'],
  message: row.message,
  submittedAt: row.submittedAt.toISOString(),
  respondBy: row.respondBy.toISOString(),
  status: row.answeredAt ? 'Answered' : 'Open',
  answeredAt: row.answeredAt?.toISOString() ?? null,
  answer: row.answer,
});

/** The customer's grievances, newest first. */
export async function grievancesOf(deps: Pick<AppDeps, 'db'>, customerId: string) {
  const rows = await deps.db
    .select()
    .from(grievances)
    .where(eq(grievances.customerId, customerId))
    .orderBy(desc(grievances.submittedAt), desc(grievances.id));
  return rows.map(toGrievance);
}

/**
 * Records a grievance, acknowledges it to the customer with its reference and due date, and
 * hands it to the officer (and the operator), in one transaction. Five a day: each mails.
 */
export async function submitGrievance(
  deps: GrievanceDeps,
  customerId: string,
  input: GrievanceRequest,
): Promise<Grievance> {
  const { db, clock, config } = deps;
  return db.transaction(async (tx) => {
    await reserveRateLimitHit(tx, clock, 'grievance', customerId);
    const [customer] = await tx
      .select({ email: customers.email, companyName: customers.companyName })
      .from(customers)
      .where(eq(customers.id, customerId));
    if (!customer) throw new AppError('UNAUTHORIZED', 'Session expired. Please log in again.');
    const now = clock.now();
    const officer = grievanceOfficer(config);
    const [row] = await tx
      .insert(grievances)
      .values({
        reference: newReference('GRV'),
        customerId,
        ...input,
        submittedAt: now,
        respondBy: new Date(now.getTime() + officer.responseDays * DAY_MS),
      })
      .returning();
    const grievance = toGrievance(row!);
    const about = { reference: grievance.reference, topic: input.topic };
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to: customer.email,
      data: { kind: 'grievance-recorded', ...about, respondBy: grievance.respondBy, officer },
    });
    const recipients = [config.GRIEVANCE_OFFICER_EMAIL, config.OPERATOR_EMAIL];
    for (const to of new Set(recipients.filter((address) => address !== undefined))) {
      await enqueueMail(tx, deps, {
        template: 'privacy',
        to,
        data: {
          kind: 'grievance-received',
          ...about,
          message: input.message,
          respondBy: grievance.respondBy,
          companyName: customer.companyName,
          customerEmail: customer.email,
        },
      });
    }
    await recordAudit(tx, clock, {
      actor: 'customer',
      customerId,
      action: 'grievance_submitted',
    });
    return grievance;
  });
}

/** The officer's answer, by reference, mailed to the customer; a grievance is answered once. */
export async function answerGrievance(deps: GrievanceDeps, reference: string, answer: string) {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(grievances)
      .set({ answeredAt: clock.now(), answer })
      .where(and(eq(grievances.reference, reference), isNull(grievances.answeredAt)))
      .returning();
    if (!row) {
      const [known] = await tx
        .select({ id: grievances.id })
        .from(grievances)
        .where(eq(grievances.reference, reference));
      throw undecidable(Boolean(known), reference, { decided: 'answered', kind: 'grievance' });
    }
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to: await emailOf(tx, row.customerId),
      data: { kind: 'grievance-answered', reference, topic: row.topic, answer },
    });
    await recordAudit(tx, clock, {
      actor: 'operator',
      customerId: row.customerId,
      action: 'grievance_answered',
    });
    return toGrievance(row);
  });
}

/** The grievances not answered yet, soonest due first, for the officer. */
export async function openGrievances(db: Executor) {
  const rows = await db
    .select()
    .from(grievances)
    .where(isNull(grievances.answeredAt))
    .orderBy(asc(grievances.respondBy), asc(grievances.reference));
  return rows.map(toGrievance);
}
