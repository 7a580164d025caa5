// Pause and resume (docs/decisions/077-consent-pause-and-resume.md): the customer stops a partner's
// reads under an approved consent for a while, without revoking it. The bank holds the pause; the
// portal stores what the bank answered, and the feed and the bell record each change.
import { and, eq } from 'drizzle-orm';
import type { Consent } from '@portal/contract';
import type { ProviderConsent } from '../../adapters/consent-provider';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import { requireOwnConsent } from './customer-consents';
import { storeDueExpiries } from './expiry';
import { bankFailure, toConsent } from './rows';
import { consents } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'consents' | 'queue' | 'config'>;

const CHANGES = {
  pause: {
    to: 'Paused',
    refusal: 'Only an approved consent can be paused.',
    event: {
      type: 'consent_paused',
      title: 'Consent paused',
      status: 'pending',
      description: (id: string, partner: string) =>
        `You paused consent ${id}: ${partner} cannot read your bank data until you resume it.`,
    },
  },
  resume: {
    to: 'Authorised',
    refusal: 'Only an approved consent can be resumed.',
    event: {
      type: 'consent_resumed',
      title: 'Consent resumed',
      status: 'success',
      description: (id: string, partner: string) =>
        `You resumed consent ${id}: ${partner} can read your bank data again under its terms.`,
    },
  },
} as const;

export type PauseAction = keyof typeof CHANGES;

/**
 * Pauses or resumes one of the customer's approved consents at the bank, then stores it. Asking
 * for the state it is already in changes nothing; of requests at once, one records the change.
 * When the bank cannot be reached, nothing changes.
 */
export async function changeConsentPause(
  deps: Deps,
  customerId: string,
  id: string,
  action: PauseAction,
): Promise<Consent> {
  const { db, clock } = deps;
  const { encryption, provider } = deps.consents;
  const change = CHANGES[action];
  await storeDueExpiries(deps, customerId);
  const found = await requireOwnConsent(db, customerId, id);
  if (found.row.status !== 'Approved') throw new AppError('CONFLICT', change.refusal);
  const paused = found.row.providerStatus === 'Paused';
  if (paused === (action === 'pause')) {
    return toConsent(found.row, found.partner, encryption);
  }

  let answer: ProviderConsent;
  try {
    answer = await provider.setConsentStatus(found.row.consentId, change.to);
  } catch (error) {
    bankFailure(error, 'refresh');
  }

  const now = clock.now();
  return db.transaction(async (tx) => {
    // moved only from the state read above: of two requests at once, one records the change
    const [row] = await tx
      .update(consents)
      .set({
        providerStatus: answer.status,
        providerStatusUpdatedAt: answer.statusUpdatedAt,
        updatedAt: now,
      })
      .where(
        and(
          eq(consents.id, found.row.id),
          eq(consents.customerId, customerId),
          eq(consents.status, 'Approved'),
          eq(consents.providerStatus, found.row.providerStatus),
        ),
      )
      .returning();
    if (!row) {
      const current = await requireOwnConsent(tx, customerId, id);
      return toConsent(current.row, current.partner, encryption);
    }
    const { description, ...event } = change.event;
    await recordActivity(tx, clock, {
      customerId,
      ...event,
      description: description(row.consentId, found.partner.name),
      details: { consentId: row.consentId },
    });
    const access = { lastAccessedAt: found.row.lastAccessedAt, readsMade: found.row.readsMade };
    return toConsent({ ...row, ...access }, found.partner, encryption);
  });
}
