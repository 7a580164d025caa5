// Reconnect (docs/decisions/041-reconnect-asks-the-partner.md): the customer asks the partner for
// a fresh consent in place of an expired or expiring one, and the partner API shows the request.
import { and, eq, isNull } from 'drizzle-orm';
import { RECONNECT_WINDOW_DAYS, canReconnect, type Consent } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { requireOwnConsent } from './customer-consents';
import { storeDueExpiries } from './expiry';
import { toConsent } from './rows';
import { consents } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'consents' | 'queue' | 'config'>;

/** One of the customer's current consents, as the list shows it (the Reconnect link opens it). */
export async function getOwnConsent(deps: Deps, customerId: string, id: string): Promise<Consent> {
  await storeDueExpiries(deps, customerId);
  const found = await requireOwnConsent(deps.db, customerId, id);
  return toConsent(found.row, found.partner, deps.consents.encryption);
}

/**
 * The customer asks the partner for a fresh consent in place of an expired or expiring one: the
 * request is stored on the consent, where the partner API shows it (decision 041). Asking again
 * keeps the first time asked.
 */
export async function requestReconnect(
  deps: Deps,
  customerId: string,
  id: string,
): Promise<Consent> {
  const { db, clock } = deps;
  await storeDueExpiries(deps, customerId);
  const found = await requireOwnConsent(db, customerId, id);
  const now = clock.now();
  if (!canReconnect(found.row.status, found.row.expiresAt, now)) {
    throw new AppError(
      'CONFLICT',
      `Only an expired consent, or one that ends within ${RECONNECT_WINDOW_DAYS} days, can be reconnected.`,
    );
  }
  // of two requests at once, the first time stays
  await db
    .update(consents)
    .set({ reconnectRequestedAt: now })
    .where(and(eq(consents.id, found.row.id), isNull(consents.reconnectRequestedAt)));
  const updated = await requireOwnConsent(db, customerId, id);
  return toConsent(updated.row, updated.partner, deps.consents.encryption);
}
