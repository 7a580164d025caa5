import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  cidr,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AuditDetails } from './details';

/**
 * The audit log (docs/decisions/063-audit-log.md): security events and operator commands,
 * append-only. A trigger of the migration refuses every UPDATE, and every DELETE of a row
 * younger than a year; the retention job deletes the older ones. No foreign key: a row outlives
 * the account it names, whose id is a pseudonym once the account's personal data is erased.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Milliseconds, as the app's clock gives them: an export's keyset compares them exactly. */
    occurredAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    /** customer, operator or system */
    actorKind: text().notNull(),
    /** The customer who acted; null for the operator and the system. */
    actorId: uuid(),
    /** The account acted as or on; null for an event about no account (an audit export). */
    customerId: uuid(),
    /** One of AUDIT_ACTIONS. */
    action: text().notNull(),
    /** success or failure */
    outcome: text().notNull(),
    /** The client's network (IPv4 /24, IPv6 /48), never its address: sign-ins only. */
    clientNetwork: cidr(),
    /** Ids and closed words only (AuditDetails): never a secret, a code, a token or an address. */
    details: jsonb().$type<AuditDetails>().notNull().default({}),
  },
  (t) => [
    index('audit_events_occurred_idx').on(t.occurredAt, t.id),
    check('audit_events_actor_kind', sql`${t.actorKind} in ('customer', 'operator', 'system')`),
    check('audit_events_outcome', sql`${t.outcome} in ('success', 'failure')`),
  ],
);
