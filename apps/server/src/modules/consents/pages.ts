// Pages of the customer's consents, and the full list in batches, read by keyset
// (docs/decisions/028-keyset-pages-and-counters.md) with the statements of read-statements.ts.
import type {
  Consent,
  ConsentStatus,
  PageCursors,
  Pagination,
  PastConsent,
} from '@portal/contract';
import { AppError } from '../../lib/errors';
import { sessionExpired, type RequestAuth } from '../auth/authenticate';
import { sessionOf, type UnrevokedSession } from '../../db/session-read';
import { decodeCursor, encodeCursor, type Cursor } from './cursor';
import { storeDueExpiries } from './expiry';
import {
  ALL_CONSENTS_BATCH,
  INSTANT_FIELDS,
  pageStatementFor,
  pick,
  run,
  TOTAL_STATEMENTS,
  type ConsentReadDeps,
  type Filter,
  type Mode,
  type PageConsent,
  type PageRow,
  type Values,
} from './read-statements';
import { toConsent, toPastConsent } from './rows';

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
  deps: ConsentReadDeps,
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

const toConsents = (deps: ConsentReadDeps, rows: PageConsent[]) =>
  toRecords<Consent>(deps, rows, toConsent);

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

/**
 * One page of a list of the customer's consents, newest first, with the cursors of the pages
 * next to it, and the request's session. Page 1 and a page from a cursor are one statement; a
 * bare page number past 1 first reads the total, to count from the nearer end.
 */
async function readPage(
  deps: ConsentReadDeps,
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
export async function listConsentPage(deps: ConsentReadDeps, auth: RequestAuth, query: PageQuery) {
  const { rows, ...page } = await readPage(deps, auth, query.status ?? 'all', query);
  return { data: toConsents(deps, rows), ...page };
}

/**
 * One page of the customer's past consents (revoked and expired), newest first. The expiries
 * due are stored first, so that History is read on its partial index alone.
 */
export async function listConsentHistory(
  deps: ConsentReadDeps,
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
  deps: ConsentReadDeps,
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
