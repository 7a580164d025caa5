// The customer's consent reads at any size (docs/decisions/028-keyset-pages-and-counters.md):
// pages by keyset on (created_at, id), totals from the stored counters, 'Expired' derived at read
// time for the few live consents past their expiry that the sweep has not stored yet. Every
// statement is a fixed text, run in one round trip with no transaction.
import type {
  Consent,
  ConsentStatus,
  DashboardCountersResponse,
  PageCursors,
  Pagination,
  PastConsent,
} from '@portal/contract';
import { CONSENTS_PAGE_SIZE, DASHBOARD_ACTIVITY_CONSENTS } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { sessionExpired, type RequestAuth } from '../auth/authenticate';
import { unrevokedSessionSql, type UnrevokedSession } from '../auth/sessions';
import { decodeCursor, encodeCursor, type Cursor } from './cursor';
import { expireDueConsents } from './customer-consents';
import { toConsent, toPastConsent, type ShownConsent } from './rows';
import { costedForAnyValue, runStatement, type Statement } from '../../db/statements';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'consents' | 'queue' | 'config'>;

/** A status of the list, the list's 'all' (every consent but the revoked), or the History view. */
type Filter = ConsentStatus | 'all' | 'history';
/**
 * How a page is found: the first page (no bound), after or before a cursor, or at an offset
 * counted from the newest or the oldest row. The first page has a statement of its own: sharing
 * the offset's, whose plan PostgreSQL settles for any offset once it has run with large ones
 * (a bare page number in the middle of a million rows), it took 100 ms instead of 1.
 */
type Mode = 'first' | 'after' | 'before' | 'fromTop' | 'fromBottom';
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
function build(name: string, write: (p: P) => string, size?: number): Built {
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

const DUE = (a: string, p: P) =>
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
  reconnectRequestedAt: 'c.reconnect_requested_at',
  revokedAt: 'c.revoked_at',
} as const satisfies Partial<Record<keyof ShownConsent, string>>;
const INSTANT_FIELDS = Object.keys(PAGE_INSTANTS) as (keyof typeof PAGE_INSTANTS)[];

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
    c.fetches_per_day AS "fetchesPerDay", c.accounts, ${instants.join(', ')},
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
      return `SELECT s.created_at AS "sessionCreatedAt", s.last_used_at AS "sessionLastUsedAt",
        (${totalSql(filter, p, searching)})::int AS total,
        (SELECT coalesce(json_agg(r ORDER BY r."createdAt" DESC, r.id DESC), '[]') FROM (
          SELECT ${pageColumnsSql(p)}
            FROM consents c JOIN partners pa ON pa.id = c.partner_ref
            LEFT JOIN consent_accesses ca ON ca.consent_ref = c.id
           WHERE ${where('c')} AND ${bound}
           ORDER BY c.created_at ${dir}, c.id ${dir} LIMIT ${p('limit')}) r) AS page
      FROM sessions s
      WHERE ${unrevokedSessionSql('s', p('session'), p('customer'))}`;
    },
    size,
  );
}

/** Rows a batch of the full list holds: enough to make few round trips, few enough to stay small. */
const ALL_CONSENTS_BATCH = 500;

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
function pageStatementFor(filter: Filter, mode: Mode, suffix: string, limit: number) {
  const size = PAGE_SIZES.includes(limit) ? limit : undefined;
  return pick(PAGE_STATEMENTS, pageStatementName(filter, mode, suffix, size));
}

const TOTAL_STATEMENTS = new Map(
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
type PageConsent = ShownConsent & {
  partnerName: string;
  partnerPublicId: string;
  /** created_at in microseconds since the epoch: the key of a cursor. */
  micros: string;
};

/** A page statement's one row; none when the session is revoked. */
interface PageRow {
  sessionCreatedAt: Date;
  sessionLastUsedAt: Date;
  total: number;
  /** Newest first. */
  page: PageConsent[];
}

interface Values {
  session?: string;
  customer: string;
  now: Date;
  limit?: number;
  offset?: number;
  micros?: string;
  id?: string;
  search?: string;
}

async function run<Row>(deps: Deps, statement: Built, values: Values): Promise<Row[]> {
  return runStatement<Row>(
    deps.db,
    statement,
    statement.params.map((param) => values[param] ?? null),
  );
}

function pick<T>(map: Map<string, T>, name: string): T {
  const found = map.get(name);
  if (!found) throw new Error(`no statement ${name}`);
  return found;
}

/** A % or _ the customer typed is a letter to find, not a wildcard: escape it (and the escape). */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * A page's consent with its instants as `Date.prototype.toISOString` writes them. PostgreSQL
 * writes a UTC timestamp in JSON as `2026-06-03T10:00:00.654321`, its fraction cut of trailing
 * zeros or absent: the milliseconds are its first three digits.
 */
function instantsAsIso(consent: PageConsent): PageConsent {
  for (const field of INSTANT_FIELDS) {
    const text = consent[field];
    if (typeof text === 'string') {
      consent[field] = `${text.slice(0, 19)}.${text.slice(20, 23).padEnd(3, '0')}Z`;
    }
  }
  return consent;
}

function toRecords<T>(
  deps: Deps,
  rows: PageConsent[],
  as: typeof toConsent | typeof toPastConsent,
) {
  return rows.map(
    (row) =>
      as(
        instantsAsIso(row),
        { name: row.partnerName, partnerId: row.partnerPublicId },
        deps.consents.encryption,
      ) as T,
  );
}

const toConsents = (deps: Deps, rows: PageConsent[]) => toRecords<Consent>(deps, rows, toConsent);

export interface PageQuery {
  page: number;
  limit: number;
  status?: ConsentStatus;
  search?: string;
  after?: string;
  before?: string;
}

interface ReadPage {
  rows: PageConsent[];
  pagination: Pagination;
  cursors: PageCursors;
  /** The request's session, read with the page; undefined when it is revoked. */
  session: UnrevokedSession | undefined;
}

/** The session a page statement read beside its page. */
function sessionOf(row: PageRow | undefined): UnrevokedSession | undefined {
  return row && { createdAt: row.sessionCreatedAt, lastUsedAt: row.sessionLastUsedAt };
}

/**
 * One page of a list of the customer's consents, newest first, with the cursors of the pages
 * next to it, and the request's session. Page 1 and a page from a cursor are one statement; a
 * bare page number past 1 first reads the total, to count from the nearer end.
 */
async function readPage(
  deps: Deps,
  { customerId, sessionId }: RequestAuth,
  filter: Filter,
  query: PageQuery,
): Promise<ReadPage> {
  // a cursor names its list: the status filter, or History, with the search
  const listName = filter === 'all' ? '' : filter;
  const search = query.search?.trim() ?? '';
  const suffix = search ? '_search' : '';
  const { limit } = query;
  const values: Values = {
    session: sessionId,
    customer: customerId,
    now: deps.clock.now(),
    limit,
    search: search ? likePattern(search) : undefined,
  };
  if (query.after && query.before) {
    throw new AppError('BAD_REQUEST', 'Give either after or before, not both.');
  }
  const given = query.after ?? query.before;
  let cursor: Cursor | null = null;
  let page = query.page;
  let mode: Mode = 'first';
  if (given) {
    cursor = decodeCursor(given, query.after ? 'after' : 'before');
    if (cursor.status !== listName || cursor.search !== search) {
      throw new AppError(
        'BAD_REQUEST',
        'The page cursor belongs to another filter or search; start again from page 1.',
      );
    }
    mode = cursor.direction;
    page = cursor.page;
    values.micros = cursor.micros;
    values.id = cursor.id;
  } else if (page > 1) {
    const [row] = await run<{ total: number }>(
      deps,
      pick(TOTAL_STATEMENTS, `consents_total_${filter}${suffix}`),
      values,
    );
    const total = row?.total ?? 0;
    const firstIndex = (page - 1) * limit;
    const endIndex = Math.min(page * limit, total);
    if (firstIndex < total && total - endIndex < firstIndex) {
      // nearer the end: the page read backwards from the oldest row
      mode = 'fromBottom';
      values.offset = total - endIndex;
      values.limit = endIndex - firstIndex;
    } else {
      mode = 'fromTop';
      values.offset = firstIndex;
    }
  }

  const [row] = await run<PageRow>(
    deps,
    pageStatementFor(filter, mode, suffix, values.limit ?? limit),
    values,
  );
  const total = row?.total ?? 0;
  const newestFirst = row?.page ?? [];
  const totalPages = Math.ceil(total / limit);
  const at = (consent: PageConsent | undefined, direction: Cursor['direction'], to: number) =>
    consent
      ? encodeCursor({
          direction,
          micros: consent.micros,
          id: consent.id,
          page: to,
          status: listName,
          search,
        })
      : null;
  return {
    rows: newestFirst,
    session: sessionOf(row),
    pagination: { total, page, limit, total_pages: totalPages },
    cursors: {
      next: page < totalPages ? at(newestFirst.at(-1), 'after', page + 1) : null,
      previous: page > 1 ? at(newestFirst[0], 'before', page - 1) : null,
    },
  };
}

/**
 * One page of the customer's consents, optionally of one status and matching a search, with the
 * session read beside it for the route to confirm.
 */
export async function listConsentPage(deps: Deps, auth: RequestAuth, query: PageQuery) {
  const { rows, ...page } = await readPage(deps, auth, query.status ?? 'all', query);
  return { data: toConsents(deps, rows), ...page };
}

/**
 * One page of the customer's past consents (revoked and expired), newest first. The expiries
 * due are stored first, so that History is read on its partial index alone.
 */
export async function listConsentHistory(
  deps: Deps,
  auth: RequestAuth,
  query: Omit<PageQuery, 'status' | 'search'>,
) {
  await storeDueExpiries(deps, auth.customerId);
  const { rows, ...page } = await readPage(deps, auth, 'history', query);
  return { data: toRecords<PastConsent>(deps, rows, toPastConsent), ...page };
}

/**
 * Every consent of the customer, newest first, in batches read by keyset: memory holds one batch
 * whatever the size of the list. Each batch reads the session too: a logout ends the list
 * there, with an error, so that the answer is cut rather than complete-looking.
 */
export async function* allConsentBatches(
  deps: Deps,
  { customerId, sessionId }: RequestAuth,
  batchSize = ALL_CONSENTS_BATCH,
): AsyncGenerator<Consent[]> {
  const values: Values = {
    session: sessionId,
    customer: customerId,
    now: deps.clock.now(),
    limit: batchSize,
  };
  let statement = pageStatementFor('all', 'first', '', batchSize);
  for (;;) {
    const [read] = await run<PageRow>(deps, statement, values);
    if (!sessionOf(read)) throw sessionExpired();
    const rows = read!.page;
    if (rows.length > 0) yield toConsents(deps, rows);
    if (rows.length < batchSize) return;
    const last = rows.at(-1)!;
    values.micros = last.micros;
    values.id = last.id;
    statement = pageStatementFor('all', 'after', '', batchSize);
  }
}

const DUE_PROBE = build(
  'consents_due_probe',
  (p) =>
    `SELECT EXISTS (SELECT 1 FROM consents c WHERE c.customer_id = ${p('customer')} AND ${DUE('c', p)}) AS due`,
);

/**
 * Stores the expiry of the customer's consents past their expiry time, with their activity, when
 * there are any: a probe on the index first, so that the usual read writes nothing.
 */
export async function storeDueExpiries(deps: Deps, customerId: string) {
  const { clock } = deps;
  const [probe] = await run<{ due: boolean }>(deps, DUE_PROBE, {
    customer: customerId,
    now: clock.now(),
  });
  if (!probe?.due) return 0;
  return deps.db.transaction((tx) => expireDueConsents(tx, deps, customerId));
}

const COUNTERS = build('dashboard_counters', (p) => {
  const due = (status: string) =>
    `(SELECT count(*)::int FROM consents d
       WHERE d.customer_id = ${p('customer')} AND ${DUE('d', p)} AND d.status = '${status}')`;
  return `SELECT
    (SELECT coalesce(json_object_agg(status, n), '{}') FROM consent_counts
      WHERE customer_id = ${p('customer')}) AS consents,
    ${due('Pending')} AS "duePending",
    ${due('Approved')} AS "dueApproved",
    (SELECT coalesce(json_object_agg(status, n), '{}') FROM order_counts
      WHERE customer_id = ${p('customer')}) AS orders,
    (SELECT count(*)::int FROM plans WHERE retired_at IS NULL) AS plans`;
});

type ByStatus = Partial<Record<string, number>>;

/** The dashboard's counters and the consents screen's tiles: stored counts, one statement. */
export async function dashboardCounters(
  deps: Deps,
  customerId: string,
): Promise<DashboardCountersResponse['data']> {
  const [row] = await run<{
    consents: ByStatus;
    duePending: number;
    dueApproved: number;
    orders: ByStatus;
    plans: number;
  }>(deps, COUNTERS, { customer: customerId, now: deps.clock.now() });
  const consents = row?.consents ?? {};
  const due: ByStatus = { Pending: row?.duePending, Approved: row?.dueApproved };
  const orders = row?.orders ?? {};
  const n = (counts: ByStatus, status: string) => counts[status] ?? 0;
  const sum = (counts: ByStatus) => Object.values(counts).reduce<number>((a, b) => a + (b ?? 0), 0);
  return {
    // a revoked consent is in History only: the spec's total counts the list
    totalConsents: sum(consents) - n(consents, 'Revoked'),
    activeConsents: n(consents, 'Approved') - n(due, 'Approved'),
    pendingConsents: n(consents, 'Pending') - n(due, 'Pending'),
    expiredConsents: n(consents, 'Expired') + n(due, 'Approved') + n(due, 'Pending'),
    rejectedConsents: n(consents, 'Rejected'),
    totalPlans: row?.plans ?? 0,
    totalOrders: sum(orders),
    completedOrders: n(orders, 'Completed'),
    pendingOrders: n(orders, 'Pending'),
    failedOrders: n(orders, 'Failed'),
  };
}
