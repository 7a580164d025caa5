// Corrections (DPDP Act 2023, s. 12; decision 078): the customer asks to correct a detail they
// cannot change themselves (the mobile number and GSTIN they sign in with, the company name on
// their invoices); the operator corrects it or declines through the CLI, once, and the customer
// is mailed the outcome and sees it on the Privacy page.
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import {
  correctableFieldLabels,
  type Correction,
  type CorrectableField,
  type CorrectionRequestBody,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { DAY_MS } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { customers } from '../users/schema';
import { squashDetail } from '../users/service';
import { emailOf, newReference, undecidable } from './references';
import { correctionRequests } from './schema';

type CorrectionDeps = Pick<AppDeps, 'db' | 'clock' | 'queue' | 'consents' | 'config'>;
type Row = typeof correctionRequests.$inferSelect;

const toCorrection = (row: Row): Correction => ({
  reference: row.reference,
  field: row.field as CorrectableField,
  currentValue: row.currentValue,
  requestedValue: row.requestedValue,
  reason: row.reason,
  submittedAt: row.submittedAt.toISOString(),
  respondBy: row.respondBy.toISOString(),
  status: (row.outcome as 'Corrected' | 'Declined' | null) ?? 'Waiting',
  decidedAt: row.decidedAt?.toISOString() ?? null,
  note: row.note,
});

/** The form sign-in compares a detail in: spaces and case do not make a different one. */
const compared = (field: CorrectableField, value: string) =>
  field === 'companyName' ? value.trim() : squashDetail(value).toUpperCase();

/** The customer's requests, newest first. */
export async function correctionsOf(deps: Pick<AppDeps, 'db'>, customerId: string) {
  const rows = await deps.db
    .select()
    .from(correctionRequests)
    .where(eq(correctionRequests.customerId, customerId))
    .orderBy(desc(correctionRequests.submittedAt), desc(correctionRequests.id));
  return rows.map(toCorrection);
}

/**
 * Records a request, acknowledges it to the customer and hands it to the operator, in one
 * transaction. One waiting request per field, and five a day: each mails the operator.
 */
export async function requestCorrection(
  deps: CorrectionDeps,
  customerId: string,
  input: CorrectionRequestBody,
): Promise<Correction> {
  const { db, clock, config } = deps;
  const label = correctableFieldLabels[input.field];
  return db.transaction(async (tx) => {
    const [customer] = await tx
      .select({
        email: customers.email,
        companyName: customers.companyName,
        mobile: customers.mobile,
        gstNo: customers.gstNo,
      })
      .from(customers)
      .where(eq(customers.id, customerId));
    if (!customer) throw new AppError('UNAUTHORIZED', 'Session expired. Please log in again.');
    const current = customer[input.field];
    if (compared(input.field, current) === compared(input.field, input.value)) {
      throw new AppError(
        'BAD_REQUEST',
        `This is already your ${label.toLowerCase()}.`,
        'validation',
      );
    }
    await reserveRateLimitHit(tx, clock, 'correction', customerId);
    const now = clock.now();
    // the partial unique index decides between requests at once: the loser inserts nothing
    const [row] = await tx
      .insert(correctionRequests)
      .values({
        reference: newReference('COR'),
        customerId,
        field: input.field,
        currentValue: current,
        requestedValue: input.value,
        reason: input.reason || null,
        submittedAt: now,
        respondBy: new Date(now.getTime() + config.GRIEVANCE_RESPONSE_DAYS * DAY_MS),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      const [waiting] = await tx
        .select({ reference: correctionRequests.reference })
        .from(correctionRequests)
        .where(waitingFor(customerId, input.field));
      throw new AppError(
        'CONFLICT',
        `A request to correct your ${label.toLowerCase()} is already waiting${waiting ? `: ${waiting.reference}` : ''}.`,
      );
    }
    const correction = toCorrection(row);
    const about = { reference: correction.reference, field: label };
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to: customer.email,
      data: {
        kind: 'correction-recorded',
        ...about,
        requestedValue: input.value,
        respondBy: correction.respondBy,
      },
    });
    if (config.OPERATOR_EMAIL) {
      await enqueueMail(tx, deps, {
        template: 'privacy',
        to: config.OPERATOR_EMAIL,
        data: {
          kind: 'correction-received',
          ...about,
          currentValue: current,
          requestedValue: input.value,
          reason: correction.reason,
          companyName: customer.companyName,
          customerEmail: customer.email,
        },
      });
    }
    await recordAudit(tx, clock, { actor: 'customer', customerId, action: 'correction_requested' });
    return correction;
  });
}

const waitingFor = (customerId: string, field: CorrectableField) =>
  and(
    eq(correctionRequests.customerId, customerId),
    eq(correctionRequests.field, field),
    isNull(correctionRequests.decidedAt),
  );

/**
 * The operator's decision, by reference, once: Corrected writes the requested value to the
 * customer's account in the same transaction; Declined needs a note that says why. The customer
 * is mailed the outcome.
 */
export async function decideCorrection(
  deps: CorrectionDeps,
  reference: string,
  decision: { outcome: 'Corrected' | 'Declined'; note?: string },
) {
  const { db, clock } = deps;
  const note = decision.note?.trim() || null;
  if (decision.outcome === 'Declined' && !note) {
    throw new AppError('BAD_REQUEST', 'say why it is declined, with --note', 'validation');
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(correctionRequests)
      .set({ decidedAt: clock.now(), outcome: decision.outcome, note })
      .where(and(eq(correctionRequests.reference, reference), isNull(correctionRequests.decidedAt)))
      .returning();
    if (!row) {
      const [known] = await tx
        .select({ id: correctionRequests.id })
        .from(correctionRequests)
        .where(eq(correctionRequests.reference, reference));
      throw undecidable(Boolean(known), reference, {
        decided: 'decided',
        kind: 'correction request',
      });
    }
    const field = row.field as CorrectableField;
    if (decision.outcome === 'Corrected') {
      await tx
        .update(customers)
        .set({ [field]: row.requestedValue, updatedAt: clock.now() })
        .where(eq(customers.id, row.customerId));
    }
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to: await emailOf(tx, row.customerId),
      data: {
        kind: 'correction-decided',
        reference,
        field: correctableFieldLabels[field],
        requestedValue: row.requestedValue,
        outcome: decision.outcome,
        note,
        signsInWith: field !== 'companyName',
      },
    });
    await recordAudit(tx, clock, {
      actor: 'operator',
      customerId: row.customerId,
      action: 'correction_decided',
    });
    return toCorrection(row);
  });
}

/** The requests not decided yet, soonest due first, for the operator. */
export async function waitingCorrections(db: Executor) {
  const rows = await db
    .select()
    .from(correctionRequests)
    .where(isNull(correctionRequests.decidedAt))
    .orderBy(asc(correctionRequests.respondBy), asc(correctionRequests.reference));
  return rows.map(toCorrection);
}
