import { isIPv4, isIPv6 } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { AuditDetails } from './details';
import { auditEvents } from './schema';

export type { AuditDetails, AuditReason } from './details';

/** Every action the audit log knows; a new kind of event adds its name here. */
export const AUDIT_ACTIONS = [
  'sign_in',
  'session_ended',
  'two_factor_app_added',
  'two_factor_app_removed',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'password_changed',
  'password_reset',
  'password_reset_link_sent',
  'email_changed',
  'nominee_named',
  'nominee_removed',
  'grievance_submitted',
  'grievance_answered',
  'correction_requested',
  'correction_decided',
  'optional_processing_withdrawn',
  'account_closed',
  'data_export_requested',
  'data_export_prepared',
  'data_export_downloaded',
  'export_downloaded',
  'operator_command',
  'audit_exported',
  'audit_purged',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTOR_KINDS = ['customer', 'operator', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
export type AuditOutcome = 'success' | 'failure';

export type AuditEvent = {
  action: AuditAction;
  /** success when left out. */
  outcome?: AuditOutcome;
  /** The client's address: only its network is kept. */
  ip?: string;
  details?: AuditDetails;
} & (
  | { actor: 'customer'; customerId: string }
  /** `customerId`: the account acted on, if any. */
  | { actor: 'operator' | 'system'; customerId: string | null }
);

/**
 * The network of a client address, as PostgreSQL computes it: the /24 of an IPv4 address (an
 * IPv4 address written as IPv6 too), the /48 of an IPv6 one. Enough to see attempts come from
 * one place, not enough to name a household (decision 063). Null for what is no address.
 */
function clientNetwork(ip: string | undefined) {
  if (ip === undefined) return null;
  const mapped = ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIPv4(mapped)) return sql`network(set_masklen(${mapped}::inet, 24))`;
  if (isIPv6(ip)) return sql`network(set_masklen(${ip}::inet, 48))`;
  return null;
}

/**
 * Appends an event to the audit log. Pass the transaction of the change it records, so that
 * both land or neither; a refusal, which changes nothing, is recorded on its own.
 */
export async function recordAudit(tx: Executor, clock: Clock, event: AuditEvent) {
  await tx.insert(auditEvents).values({
    occurredAt: clock.now(),
    actorKind: event.actor,
    actorId: event.actor === 'customer' ? event.customerId : null,
    customerId: event.customerId,
    action: event.action,
    outcome: event.outcome ?? 'success',
    clientNetwork: clientNetwork(event.ip),
    details: event.details ?? {},
  });
}
