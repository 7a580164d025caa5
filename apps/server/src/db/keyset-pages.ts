// A screen's list read a page at a time by keyset, newest first: its fixed statements.
import type { Statement } from './statements';

/** The statements of one list's pages: from the newest or after a position, each at two sizes. */
export interface KeysetPages {
  /** The rows the web app's page reads, written into the texts of `webSize`. */
  webRows: number;
  anySize: Record<'first' | 'after', Statement>;
  webSize: Record<'first' | 'after', Statement>;
}

/**
 * The four texts of a list's pages, named from `name`. `text(after, size)` writes a page's text:
 * after a position or from the newest, with `size` rows written in as its LIMIT, or (undefined)
 * the number of rows its last parameter. The web app's page has texts with its size written in:
 * with a parameter there, PostgreSQL costs a plan made for any value too high to keep it and plans
 * the statement anew at every call (docs/decisions/048-page-sizes-in-the-statement-text.md). Any
 * other size is a parameter, so that a client cannot make a connection prepare a text per number.
 */
export function keysetPages(
  name: string,
  webRows: number,
  text: (after: boolean, size: number | undefined) => string,
): KeysetPages {
  // a statement's name only lets the database keep it parsed; unnamed, it is parsed at each call
  // Stryker disable StringLiteral: equivalent, as said above
  return {
    webRows,
    anySize: {
      first: { name: `${name}_first`, text: text(false, undefined) },
      after: { name: `${name}_after`, text: text(true, undefined) },
    },
    webSize: {
      first: { name: `${name}_first_${webRows}`, text: text(false, webRows) },
      after: { name: `${name}_after_${webRows}`, text: text(true, webRows) },
    },
  };
  // Stryker restore StringLiteral
}

/**
 * The statement that reads `rows` rows after `position` (or from the newest), and its values:
 * `leading` first, then the position's two, then the number of rows when it is a parameter.
 */
export function keysetPage(
  pages: KeysetPages,
  rows: number,
  position: readonly [at: string, id: string] | undefined,
  leading: unknown[] = [],
): { statement: Statement; more: unknown[] } {
  // Stryker disable next-line ConditionalExpression: the parameter's texts answer the same; only PostgreSQL's plans tell them apart (history-plan.pg.test.ts)
  const sizeWrittenIn = rows === pages.webRows;
  const texts = sizeWrittenIn ? pages.webSize : pages.anySize;
  const sizeValue = sizeWrittenIn ? [] : [rows];
  return position
    ? { statement: texts.after, more: [...leading, ...position, ...sizeValue] }
    : { statement: texts.first, more: [...leading, ...sizeValue] };
}

/**
 * A page's answer from its read of `limit + 1` rows: the first `limit` are shown, and the extra
 * row, when it came, says a next page exists; its cursor is `cursorOf` the last row shown. One
 * place for that rule keeps every list's pages from skipping or repeating a row at their seams.
 */
export function keysetAnswer<Row>(
  rows: readonly Row[],
  limit: number,
  cursorOf: (last: Row) => string,
): { shown: Row[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { shown, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}
