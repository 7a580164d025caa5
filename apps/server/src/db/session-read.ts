// The one way a screen reads (docs/decisions/076-one-read-path-for-every-screen.md): the
// request's session and the screen's data in one statement, one round trip, written here once.
import type { Database } from './client';
import { runStatement, type Statement } from './statements';

/** What a read needs of an unrevoked session to tell whether it still stands. */
export interface UnrevokedSession {
  createdAt: Date;
  lastUsedAt: Date;
}

/** The request's session and its customer, as a verified access token names them. */
export interface SessionAuth {
  sessionId: string;
  customerId: string;
}

/** The columns a screen's statement opens with: the request's session. */
export interface SessionColumns {
  sessionCreatedAt: Date;
  sessionLastUsedAt: Date;
}

/** The conditions of an unrevoked session of its customer, in SQL text. */
export const unrevokedSessionSql = (alias: string, sessionId: string, customerId: string) =>
  `${alias}.id = ${sessionId} AND ${alias}.customer_id = ${customerId} AND ${alias}.revoked_at IS NULL`;

/** Where a screen's statement finds the request's session and customer, unless it says otherwise. */
const FIRST_VALUES = { session: '$1::uuid', customer: '$2::uuid' };

/**
 * The text of a screen's read: the request's session, with `columns` (the screen's data, each a
 * subquery, most often one JSON value that PostgreSQL builds) beside it. No row at all when the
 * session is revoked or another customer's. $1 is the session and $2 the customer unless `at`
 * places them elsewhere.
 */
export function sessionReadText(columns: string, at = FIRST_VALUES): string {
  return `SELECT s.created_at AS "sessionCreatedAt", s.last_used_at AS "sessionLastUsedAt",
  ${columns}
FROM sessions s
WHERE ${unrevokedSessionSql('s', at.session, at.customer)}`;
}

/** The session a screen's statement read beside its data; undefined when there was no row. */
export function sessionOf(row: SessionColumns | undefined): UnrevokedSession | undefined {
  return row && { createdAt: row.sessionCreatedAt, lastUsedAt: row.sessionLastUsedAt };
}

/**
 * Runs a screen's statement with the request's session and customer as $1 and $2, and `more`
 * after them: its one row (none when the session is revoked), and the session read in it.
 */
export async function runSessionRead<Row extends SessionColumns>(
  db: Database,
  { sessionId, customerId }: SessionAuth,
  statement: Statement,
  more: unknown[],
): Promise<{ row: Row | undefined; session: UnrevokedSession | undefined }> {
  const [row] = await runStatement<Row>(db, statement, [sessionId, customerId, ...more]);
  return { row, session: sessionOf(row) };
}

/** An instant in JSON as `Date.prototype.toISOString` writes it: UTC, to the millisecond. */
export const jsonInstant = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An instant to the microsecond, in the form of `jsonInstant`: where a page's next page starts. */
export const microsecondInstant = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
