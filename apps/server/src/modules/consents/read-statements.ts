// The customer's consent reads at any size (docs/decisions/028-keyset-pages-and-counters.md):
// pages by keyset on (created_at, id), totals from the stored counters, 'Expired' derived at read
// time for the few live consents past their expiry that the sweep has not stored yet. Every
// statement is a fixed text, run in one round trip with no transaction.
import type { ConsentStatus } from '@portal/contract';
import { CONSENTS_PAGE_SIZE, DASHBOARD_ACTIVITY_CONSENTS } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { sessionReadText, type SessionColumns } from '../../db/session-read';
import type { ShownConsent } from './rows';
import { costedForAnyValue, runStatement, type Statement } from '../../db/statements';

export type ConsentReadDeps = Pick<AppDeps, 'db' | 'clock' | 'consents' | 'queue' | 'config'>;

/** A status of the list, the list's 'all' (every consent but the revoked), or the History view. */
export type Filter = ConsentStatus | 'all' | 'history';
/**
 * How a page is found: the first page (no bound), after or before a cursor, or at an offset
 * counted from the newest or the oldest row. The first page has a statement of its own: sharing
 * the offset's, whose plan PostgreSQL settles for any offset once it has run with large ones
 * (a bare page number in the middle of a million rows), it took 100 ms instead of 1.
 */
export type Mode = 'first' | 'after' | 'before' | 'fromTop' | 'fromBottom';
type Param = 'session' | 'customer' | 'now' | 'limit' | 'offset' | 'micros' | 'id' | 'search';

const PARAM_TYPES: Record<Param, string> = {
  session: 'uuid',
  customer: 'uuid',
  now: 'timestamptz',
  limit: 'int',
  offset: 'int',
  micros: 'bigint',
  id: 'uuid',
  search: 'text',
};

interface Built extends Statement {
  params: Param[];
}

/**
 * Numbers the parameters a text uses, in the order it first uses them. A `size` is written into
 * the text as its LIMIT instead of a parameter (see PAGE_SIZES). The customer is costed as any
 * customer, so that a large one's statements keep one plan too.
 */
export function build(name: string, write: (p: P) => string, size?: number): Built {
  const params: Param[] = [];
  const text = write((param) => {
    if (param === 'limit' && size !== undefined) return String(size);
    if (!params.includes(param)) params.push(param);
    const value = `$${params.indexOf(param) + 1}::${PARAM_TYPES[param]}`;
    return param === 'customer' ? costedForAnyValue(value) : value;
  });
  return { name, text, params };
}

type P = (param: Param) => string;

export const DUE = (a: string, p: P) =>
  `${a}.status IN ('Pending', 'Approved') AND ${a}.expires_at <= ${p('now')}`;

/** The rows of one derived status; the index on (customer, status, created_at, id) serves it. */
function filterSql(filter: Filter, a: string, p: P): string {
  switch (filter) {
    case 'all':
      return `${a}.status <> 'Revoked'`;
    case 'history':
      // the due expiries are stored before History is read: the partial index's own predicate
      return `${a}.status IN ('Expired', 'Revoked')`;
    case 'Pending':
    case 'Approved':
      return `${a}.status = '${filter}' AND (${a}.expires_at IS NULL OR ${a}.expires_at > ${p('now')})`;
    case 'Rejected':
      return `${a}.status = 'Rejected'`;
    case 'Expired':
      return `(${a}.status = 'Expired' OR (${DUE(a, p)}))`;
  }
}

/** The list's size: stored counters, corrected by the consents due but not yet swept. */
function totalSql(filter: Filter, p: P, searching: boolean): string {
  if (searching) {
    return `(SELECT count(*) FROM consents c JOIN partners pa ON pa.id = c.partner_ref
      WHERE c.customer_id = ${p('customer')} AND ${filterSql(filter, 'c', p)} AND ${searchSql(p)})`;
  }
  const stored = (statuses: string) =>
    `(SELECT coalesce(sum(n), 0) FROM consent_counts WHERE customer_id = ${p('customer')} AND status IN (${statuses}))`;
  const due = (extra: string) =>
    `(SELECT count(*) FROM consents d WHERE d.customer_id = ${p('customer')} AND ${DUE('d', p)}${extra})`;
  switch (filter) {
    case 'all':
      return stored(`'Pending', 'Approved', 'Rejected', 'Expired'`);
    case 'Rejected':
      return stored(`'Rejected'`);
    case 'history':
      return stored(`'Expired', 'Revoked'`);
    case 'Pending':
    case 'Approved':
      return `${stored(`'${filter}'`)} - ${due(` AND d.status = '${filter}'`)}`;
    case 'Expired':
      return `${stored(`'Expired'`)} + ${due('')}`;
  }
}

/** Part of the partner's name, the consent ID or the partner ID, in any case. */
const searchSql = (p: P) =>
  `(pa.name ILIKE ${p('search')} OR c.consent_id ILIKE ${p('search')} OR pa.partner_id ILIKE ${p('search')})`;

/**
 * The instants a page's consent shows, each by the column it is read from. The statement selects
 * them as UTC timestamps, which PostgreSQL writes in JSON without a zone; `instantsAsIso`
 * finishes them.
 */
const PAGE_INSTANTS = {
  accessTokenExpiresAt: 'c.access_token_expires_at',
  refreshTokenExpiresAt: 'c.refresh_token_expires_at',
  expiresAt: 'c.expires_at',
  providerCreatedAt: 'c.provider_created_at',
  createdAt: 'c.created_at',
  updatedAt: 'c.updated_at',
  transactionFrom: 'c.transaction_from',
  transactionTo: 'c.transaction_to',
  lastAccessedAt: 'ca.last_accessed_at',
  providerStatusUpdatedAt: 'c.provider_status_updated_at',
  reconnectRequestedAt: 'c.reconnect_requested_at',
  revokedAt: 'c.revoked_at',
} as const satisfies Partial<Record<keyof ShownConsent, string>>;
export const INSTANT_FIELDS = Object.keys(PAGE_INSTANTS) as (keyof typeof PAGE_INSTANTS)[];

/**
 * The columns of a consent of the page, named as `toConsent` reads them: the row the page's JSON
 * array holds for it; `micros` is the key of the page's cursors.
 */
function pageColumnsSql(p: P) {
  const instants = Object.entries(PAGE_INSTANTS).map(
    ([field, column]) => `${column} AT TIME ZONE 'UTC' AS "${field}"`,
  );
  return `c.id, c.consent_id AS "consentId",
    CASE WHEN ${DUE('c', p)} THEN 'Expired' ELSE c.status END AS status,
    c.permissions, c.net_banking_user_id AS "netBankingUserId", c.document_key AS "documentKey",
    c.access_token_enc AS "accessTokenEnc", c.refresh_token_enc AS "refreshTokenEnc", c.purpose,
    c.fetches_per_day AS "fetchesPerDay", c.data_life_days AS "dataLifeDays",
    coalesce(ca.fetches_total, 0) AS "readsMade", c.provider_status AS "providerStatus", c.accounts, ${instants.join(', ')},
    pa.name AS "partnerName", pa.partner_id AS "partnerPublicId",
    (extract(epoch FROM c.created_at) * 1000000)::bigint::text AS micros`;
}

/** Newest first is descending; the modes that read towards the newer rows read ascending. */
const ascending = (mode: Mode) => mode === 'before' || mode === 'fromBottom';

function pageStatement(filter: Filter, mode: Mode, searching: boolean, size?: number): Built {
  const name = pageStatementName(filter, mode, searching ? '_search' : '', size);
  return build(
    name,
    (p) => {
      const dir = ascending(mode) ? 'ASC' : 'DESC';
      const where = (a: string) =>
        `${a}.customer_id = ${p('customer')} AND ${filterSql(filter, a, p)}${searching ? ` AND ${searchSql(p)}` : ''}`;
      // a page counted to from an end: the key at the offset is found on the index alone
      const keyAt = () => `(SELECT c.created_at, c.id FROM consents c
        ${searching ? 'JOIN partners pa ON pa.id = c.partner_ref' : ''}
        WHERE ${where('c')} ORDER BY c.created_at ${dir}, c.id ${dir} OFFSET ${p('offset')} LIMIT 1)`;
      const cursorKey = () =>
        `('epoch'::timestamptz + ${p('micros')} * interval '1 microsecond', ${p('id')})`;
      const bound =
        mode === 'first'
          ? 'TRUE'
          : mode === 'after'
            ? `(c.created_at, c.id) < ${cursorKey()}`
            : mode === 'before'
              ? `(c.created_at, c.id) > ${cursorKey()}`
              : `(c.created_at, c.id) ${dir === 'DESC' ? '<=' : '>='} ${keyAt()}`;
      // the session comes with the page: no row at all when it is revoked (decision 046); the
      // page is one JSON array, newest first, whichever way it was read (decision 053)
      return sessionReadText(
        `(${totalSql(filter, p, searching)})::int AS total,
        (SELECT coalesce(json_agg(r ORDER BY r."createdAt" DESC, r.id DESC), '[]') FROM (
          SELECT ${pageColumnsSql(p)}
            FROM consents c JOIN partners pa ON pa.id = c.partner_ref
            LEFT JOIN consent_accesses ca ON ca.consent_ref = c.id
           WHERE ${where('c')} AND ${bound}
           ORDER BY c.created_at ${dir}, c.id ${dir} LIMIT ${p('limit')}) r) AS page`,
        { session: p('session'), customer: p('customer') },
      );
    },
    size,
  );
}

/** Rows a batch of the full list holds: enough to make few round trips, few enough to stay small. */
export const ALL_CONSENTS_BATCH = 500;

/**
 * The page sizes the web app asks for, and the full list's batch, have texts of their own with
 * the size written in. With the LIMIT a parameter, PostgreSQL costs a plan made for any value
 * as if it read a tenth of the customer's rows, so it planned the statement anew at every call;
 * that planning was most of the database's work on a page. A fixed LIMIT lets it keep one plan
 * per connection. Any other size is a parameter: a client cannot make a connection prepare a
 * text for every number.
 */
const PAGE_SIZES = [CONSENTS_PAGE_SIZE, DASHBOARD_ACTIVITY_CONSENTS, ALL_CONSENTS_BATCH];

function pageStatementName(filter: Filter, mode: Mode, suffix: string, size?: number) {
  return `consents_${filter}_${mode}${suffix}_${size ?? 'n'}`;
}

const FILTERS: Filter[] = ['all', 'Pending', 'Approved', 'Rejected', 'Expired', 'history'];
const MODES: Mode[] = ['first', 'after', 'before', 'fromTop', 'fromBottom'];
/** Every text made once, at start. */
const PAGE_STATEMENTS = new Map(
  FILTERS.flatMap((filter) =>
    MODES.flatMap((mode) =>
      [false, true].flatMap((searching) =>
        [undefined, ...PAGE_SIZES].map((size) => {
          const built = pageStatement(filter, mode, searching, size);
          return [built.name, built] as const;
        }),
      ),
    ),
  ),
);

/** The page statement for a number of rows: its own text for a size of PAGE_SIZES. */
export function pageStatementFor(filter: Filter, mode: Mode, suffix: string, limit: number) {
  const size = PAGE_SIZES.includes(limit) ? limit : undefined;
  return pick(PAGE_STATEMENTS, pageStatementName(filter, mode, suffix, size));
}

export const TOTAL_STATEMENTS = new Map(
  FILTERS.flatMap((filter) =>
    [false, true].map((searching) => {
      const built = build(
        `consents_total_${filter}${searching ? '_search' : ''}`,
        (p) => `SELECT (${totalSql(filter, p, searching)})::int AS total`,
      );
      return [built.name, built] as const;
    }),
  ),
);

/** A consent of a page, as its statement writes it in JSON. */
export type PageConsent = ShownConsent & {
  partnerName: string;
  partnerPublicId: string;
  /** created_at in microseconds since the epoch: the key of a cursor. */
  micros: string;
};

/** A page statement's one row; none when the session is revoked. */
export interface PageRow extends SessionColumns {
  total: number;
  /** Newest first. */
  page: PageConsent[];
}

export interface Values {
  session?: string;
  customer: string;
  now: Date;
  limit?: number;
  offset?: number;
  micros?: string;
  id?: string;
  search?: string;
}

export async function run<Row>(
  deps: ConsentReadDeps,
  statement: Built,
  values: Values,
): Promise<Row[]> {
  return runStatement<Row>(
    deps.db,
    statement,
    statement.params.map((param) => values[param] ?? null),
  );
}

export function pick<T>(map: Map<string, T>, name: string): T {
  const found = map.get(name);
  if (!found) throw new Error(`no statement ${name}`);
  return found;
}
