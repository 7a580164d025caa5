import { z } from 'zod';

/**
 * The rules every request field follows, decided once here: text carries no control characters
 * (NUL included, which PostgreSQL cannot store) and no half of a UTF-16 pair; a date and time is
 * a real one, in years that every store and every clock handles alike.
 */

/** C0 and C1 control characters, DEL, and surrogates that are not part of a pair. */
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cs}]/u;

export const TEXT_MESSAGE = 'must be plain text, without control characters';

export const isPlainText = (value: string): boolean => !UNSAFE_CHARACTER.test(value);

/** A string of plain text; chain `.trim()`, `.min()`, `.max()` as with `z.string()`. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isPlainText, { message: TEXT_MESSAGE });

/** The id of a record, as a path parameter or a field; an unknown id is the service's 404. */
export const IdSchema = text().min(1).max(100);

export const DATE_TIME_YEARS = { min: 1970, max: 9999 } as const;
export const DATE_TIME_RANGE_MESSAGE = `must be a date and time from ${DATE_TIME_YEARS.min} to ${DATE_TIME_YEARS.max}`;

const EARLIEST = Date.UTC(DATE_TIME_YEARS.min, 0, 1);
const AFTER_LATEST = Date.UTC(DATE_TIME_YEARS.max + 1, 0, 1);

/** The instant a checked ISO 8601 string names lies in the years every store accepts. */
function inYearRange(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const instant = Date.parse(value);
  return (
    year >= DATE_TIME_YEARS.min &&
    year <= DATE_TIME_YEARS.max &&
    instant >= EARLIEST &&
    instant < AFTER_LATEST
  );
}

/**
 * An ISO 8601 date and time with `Z` or an offset. Zod checks the calendar (no 30 February,
 * no hour 24); the range check keeps out year 0 and years PostgreSQL or JavaScript read otherwise.
 */
export const dateTime = () =>
  z.iso.datetime({ offset: true }).refine(inYearRange, { message: DATE_TIME_RANGE_MESSAGE });

const DateTimeSchema = dateTime();

export const isRealDateTime = (value: string): boolean => DateTimeSchema.safeParse(value).success;

/** Deep enough for any gateway event; a deeper body is refused before anything walks it. */
export const JSON_MAX_DEPTH = 32;

/**
 * What is wrong with a parsed JSON value that is to be stored as it came (jsonb), or null:
 * keys and strings must be plain text, and the nesting at most `maxDepth` deep. Walks without
 * recursion, so a hostile depth cannot exhaust the stack.
 */
export function jsonValueProblem(value: unknown, maxDepth = JSON_MAX_DEPTH): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: next, depth } = pending.pop()!;
    if (typeof next === 'string') {
      if (!isPlainText(next)) return `a text value ${TEXT_MESSAGE}`;
    } else if (next !== null && typeof next === 'object') {
      if (depth >= maxDepth) return `must be nested at most ${maxDepth} levels deep`;
      for (const [key, child] of Object.entries(next)) {
        if (!isPlainText(key)) return `a key ${TEXT_MESSAGE}`;
        pending.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return null;
}
