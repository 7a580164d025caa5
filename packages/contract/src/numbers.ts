import { formatterOnFirstUse } from './dates';
import { paiseToRupees } from './money';

/**
 * en-IN numbers without Intl, for the same reason as the dates (decision 055): 1,23,45,678.9,
 * and ₹1,23,456.78. numbers.test.ts holds every format to Intl's own text.
 */
interface FractionDigits {
  min: number;
  max: number;
}

/** Lakh and crore grouping: the last three digits, then pairs. */
const group = (whole: string) =>
  whole.length <= 3
    ? whole
    : `${whole.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${whole.slice(-3)}`;

/**
 * The magnitude's digits, rounded as Intl rounds: half away from zero, on the shortest decimal
 * that reads back as the number (1.005 is 1.01, where toFixed says 1.00). Null for what JavaScript
 * writes with an exponent (below 0.000001, or 10^21 and up) and for NaN and Infinity.
 */
function magnitude(value: number, { min, max }: FractionDigits): string | null {
  const text = String(Math.abs(value));
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  let units = BigInt(whole + fraction.slice(0, max).padEnd(max, '0'));
  if (fraction.length > max && fraction[max]! >= '5') units += 1n;
  const digits = units.toString().padStart(max + 1, '0');
  const kept = digits
    .slice(digits.length - max)
    .replace(/0+$/, '')
    .padEnd(min, '0');
  const grouped = group(digits.slice(0, digits.length - max));
  return kept ? `${grouped}.${kept}` : grouped;
}

/** Intl shows the minus of -0 and of a negative number that rounds to 0, and so do these. */
const isNegative = (value: number) => value < 0 || Object.is(value, -0);

/** A number formatter for en-IN with the given fraction digits, and Intl's for what it cannot write. */
function enIn(
  digits: FractionDigits,
  prefix: string,
  makeIntl: () => Intl.NumberFormat,
): (value: number) => string {
  const intl = formatterOnFirstUse(makeIntl);
  return (value) => {
    const shown = magnitude(value, digits);
    if (shown === null) return intl().format(value);
    return `${isNegative(value) ? '-' : ''}${prefix}${shown}`;
  };
}

/** 1,23,45,678.912: up to three decimals. */
export const formatNumber = enIn({ min: 0, max: 3 }, '', () => new Intl.NumberFormat('en-IN'));

/** 3.1: up to one decimal (file sizes). */
export const formatOneDecimal = enIn(
  { min: 0, max: 1 },
  '',
  () => new Intl.NumberFormat('en-IN', { maximumFractionDigits: 1 }),
);

/** ₹1,23,456.78 */
export const formatInr = enIn(
  { min: 2, max: 2 },
  '₹',
  () => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }),
);

/** ₹1,180.00 from 118000: how every amount kept in paise is shown. */
export const formatPaise = (paise: number) => formatInr(paiseToRupees(paise));

/** ₹1,23,457: no paise (the plans table). */
export const formatInrWhole = enIn(
  { min: 0, max: 0 },
  '₹',
  () =>
    new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    }),
);
