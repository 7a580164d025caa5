// The opaque cursors of the consents list: a row's position in its order, the page it leads to,
// and the list (status filter and search) it belongs to.
import { AppError } from '../../lib/errors';

export interface Cursor {
  /** 'after' reads the older rows past the key (Next), 'before' the newer ones (Previous). */
  direction: 'after' | 'before';
  /** created_at in microseconds since the epoch, exact, as PostgreSQL stores it. */
  micros: string;
  id: string;
  /** The page number the cursor leads to, for 'Page X of Y'. */
  page: number;
  /** The status filter and the search of the list, '' for none. */
  status: string;
  search: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** From 1970 to the end of the year 9999; a timestamp outside it cannot be a row's. */
const MICROS = /^\d{1,18}$/;
const MAX_MICROS = 253_402_300_799_999_999n;

export function encodeCursor(cursor: Cursor): string {
  const { direction, micros, id, page, status, search } = cursor;
  return Buffer.from(JSON.stringify([direction, micros, id, page, status, search])).toString(
    'base64url',
  );
}

const invalid = () =>
  new AppError('BAD_REQUEST', 'The page cursor is not valid; start again from page 1.');

/** The cursor the server made, or a 400: anything else a client sends is refused here. */
export function decodeCursor(value: string, direction: Cursor['direction']): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 6) throw invalid();
  const [dir, micros, id, page, status, search] = parsed as unknown[];
  if (
    dir !== direction ||
    typeof micros !== 'string' ||
    !MICROS.test(micros) ||
    BigInt(micros) > MAX_MICROS ||
    typeof id !== 'string' ||
    !UUID.test(id) ||
    typeof page !== 'number' ||
    !Number.isInteger(page) ||
    page < 1 ||
    page > 100_000 ||
    typeof status !== 'string' ||
    typeof search !== 'string'
  ) {
    throw invalid();
  }
  return { direction, micros, id, page, status, search };
}
