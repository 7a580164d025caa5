/**
 * A small RFC 4180 encoder (decision 042): each cell is neutralised against formula injection,
 * then quoted when it holds a comma, a quote or a line break. Rows are written one at a time, so
 * an export streams at the pace of its reader.
 */

/** Excel reads a CSV as UTF-8 only when the file starts with a byte-order mark. */
export const CSV_BOM = '\uFEFF';

/** Amounts in paise, written as rupees: a number to a spreadsheet, never neutralised. */
export interface Paise {
  paise: number;
}

export type Cell = string | Paise | null;

// a spreadsheet runs a cell starting with these as a formula (OWASP, CSV injection)
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** 118000 → 1180.00, -5 → -0.05: exact, with no floating point on the way. */
export function rupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const whole = Math.abs(paise);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return rupees(value.paise);
  const cell = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** One record, ended by CRLF as RFC 4180 asks. */
export const csvRow = (cells: readonly Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;
