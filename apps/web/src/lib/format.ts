import { customerDate, customerDateTime, customerYear } from '@portal/contract';

/** en-IN formatting for every screen (spec §9); dates and times in the customer's zone. */
export {
  formatInr,
  formatInrWhole,
  formatNumber,
  formatPaise,
  orderRef as formatOrderRef,
} from '@portal/contract';

type Instant = string | number | Date | null | undefined;

function toDate(value: Instant): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 05/01/2027 */
export function formatDate(value: Instant, fallback = 'N/A') {
  const date = toDate(value);
  return date ? customerDate(date) : fallback;
}

/** 05/01/2027, 10:14 */
export function formatDateTime(value: Instant, fallback = 'N/A') {
  const date = toDate(value);
  return date ? customerDateTime(date) : fallback;
}

/** 2027: the year of the instant in India, or null for a missing or unreadable one. */
export function formatYear(value: Instant) {
  const date = toDate(value);
  return date ? customerYear(date) : null;
}

/** Whether the instant has passed; an unreadable or missing one has not. */
export function isPast(value: Instant, now: Date = new Date()) {
  const date = toDate(value);
  return date !== null && date.getTime() <= now.getTime();
}

/** How an order is named on every screen: #4FA65D (the full id only in details). */
