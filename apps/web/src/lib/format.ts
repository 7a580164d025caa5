import {
  CUSTOMER_TIME_ZONE,
  customerDate,
  customerDateTime,
  formatterOnFirstUse,
} from '@portal/contract';
import { nextTask } from './next-task';

/** en-IN formatting for every screen (spec §9); dates and times in the customer's zone. */
const inrFormatter = formatterOnFirstUse(
  () => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }),
);
const inrWholeFormatter = formatterOnFirstUse(
  () =>
    new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    }),
);
const numberFormatter = formatterOnFirstUse(() => new Intl.NumberFormat('en-IN'));

export { CUSTOMER_TIME_ZONE, orderRef as formatOrderRef } from '@portal/contract';
const yearFormatter = formatterOnFirstUse(
  () => new Intl.DateTimeFormat('en-IN', { year: 'numeric', timeZone: CUSTOMER_TIME_ZONE }),
);

/** ₹1,23,456.78 */
export const formatInr = (rupees: number) => inrFormatter().format(rupees);
/** ₹1,23,457: the plans table shows no decimals. */
export const formatInrWhole = (rupees: number) => inrWholeFormatter().format(rupees);
export const formatNumber = (n: number) => numberFormatter().format(n);

/**
 * Makes the formatters the first screen uses, a task each, while the app waits for its first
 * answers: made inside a render instead, the first one (which loads the locale's data) makes
 * that render a long task on a phone.
 */
export async function prepareFormatters() {
  const now = new Date();
  for (const makeFormatter of [
    () => formatNumber(0),
    () => customerDate(now),
    () => customerDateTime(now),
    () => formatInr(0),
  ]) {
    await nextTask();
    makeFormatter();
  }
}

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
  return date ? yearFormatter().format(date) : null;
}

/** Whether the instant has passed; an unreadable or missing one has not. */
export function isPast(value: Instant, now: Date = new Date()) {
  const date = toDate(value);
  return date !== null && date.getTime() <= now.getTime();
}

/** How an order is named on every screen: #4FA65D (the full id only in details). */
