import { isRealDateTime, ORDER_CURSOR_MESSAGE } from '@portal/contract';
import { AppError } from './errors';
import { isUuid } from './uuid';

/**
 * A place in a customer's order or invoice history or activity feed: the created_at (to the
 * microsecond, as PostgreSQL keeps it; a JavaScript Date would round it and skip or repeat rows)
 * and the id of the last row a page showed.
 */
export interface HistoryPosition {
  /** ISO 8601 in UTC with six decimals: 2026-06-01T10:00:00.123456Z. */
  createdAt: string;
  id: string;
}

const MICROSECOND_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** base64url of `created_at|id`, the shape of the activity feed's cursor (decision 017). */
export const encodeCursor = ({ createdAt, id }: HistoryPosition) =>
  Buffer.from(`${createdAt}|${id}`).toString('base64url');

/**
 * The position a cursor names; anything this list did not give out is a 400 with `message`.
 * Text after the id is refused unless `afterId` is 'ignored', as the activity feed's always was.
 */
export function decodeCursor(
  cursor: string,
  message = `cursor: ${ORDER_CURSOR_MESSAGE}`,
  afterId: 'refused' | 'ignored' = 'refused',
): HistoryPosition {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  // split always gives a first part, and a missing id fails isUuid whatever text stands for it
  // Stryker disable next-line StringLiteral: equivalent, as said above
  const [createdAt = '', id = '', ...rest] = parts;
  if (
    (rest.length > 0 && afterId === 'refused') ||
    !MICROSECOND_ISO.test(createdAt) ||
    !isRealDateTime(createdAt) ||
    !isUuid(id)
  ) {
    throw new AppError('BAD_REQUEST', message, 'validation');
  }
  return { createdAt, id };
}
