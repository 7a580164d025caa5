/** Every customer is in India today; a browser or server in another zone still shows the Indian date. */
export const CUSTOMER_TIME_ZONE = 'Asia/Kolkata';

/**
 * An Intl formatter made when first used: making one loads locale data, which in a phone's
 * browser costs milliseconds each, and at start-up they would all be made in one long task.
 */
export function formatterOnFirstUse<F>(make: () => F): () => F {
  let made: F | undefined;
  return () => (made ??= make());
}

/**
 * India has kept one offset, +05:30, all year since October 1945, so the Indian date and time of
 * an instant are its UTC fields 5 h 30 min later: no Intl formatter, whose first use on a page
 * loads the locale's data in a long task (decision 055). Earlier and five-digit years, which no
 * record of the portal has, go to Intl, which knows their history; dates.test.ts holds the two
 * to the same text.
 */
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const FIXED_OFFSET_FROM = Date.UTC(1946, 0, 1);
const FIXED_OFFSET_UNTIL = Date.UTC(9999, 11, 31, 18, 30);

const dateOptions = {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: CUSTOMER_TIME_ZONE,
} as const;

/**
 * The three formats as Intl's options: what the fallbacks below make, and what dates.test.ts
 * holds the arithmetic to.
 */
export const CUSTOMER_DATE_FORMATS = {
  date: dateOptions,
  dateTime: { ...dateOptions, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  year: { year: 'numeric', timeZone: CUSTOMER_TIME_ZONE },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

const intlFormat = (format: keyof typeof CUSTOMER_DATE_FORMATS) =>
  formatterOnFirstUse(() => new Intl.DateTimeFormat('en-IN', CUSTOMER_DATE_FORMATS[format]));
const intlDateFormat = intlFormat('date');
const intlDateTimeFormat = intlFormat('dateTime');
const intlYearFormat = intlFormat('year');

/** The instant's fields in India, or null for one that Intl writes. Throws as Intl does. */
function indianFields(date: Date): Date | null {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new RangeError('Invalid time value');
  if (time < FIXED_OFFSET_FROM || time >= FIXED_OFFSET_UNTIL) return null;
  return new Date(time + IST_OFFSET_MS);
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));
const dayMonthYear = (fields: Date) =>
  `${twoDigits(fields.getUTCDate())}/${twoDigits(fields.getUTCMonth() + 1)}/${fields.getUTCFullYear()}`;

/** 05/01/2027: the date in India, zero-padded, on every screen, document and mail. */
export function customerDate(date: Date): string {
  const fields = indianFields(date);
  return fields ? dayMonthYear(fields) : intlDateFormat().format(date);
}

/** 05/01/2027, 10:14: the date and time in India, as every screen and mail says it. */
export function customerDateTime(date: Date): string {
  const fields = indianFields(date);
  if (!fields) return intlDateTimeFormat().format(date);
  return `${dayMonthYear(fields)}, ${twoDigits(fields.getUTCHours())}:${twoDigits(fields.getUTCMinutes())}`;
}

/** 2027: the year in India. */
export function customerYear(date: Date): string {
  const fields = indianFields(date);
  return fields ? String(fields.getUTCFullYear()) : intlYearFormat().format(date);
}
