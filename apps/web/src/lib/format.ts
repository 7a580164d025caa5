/** en-IN formatting for every screen (spec §9). */
const inrFormatter = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
const inrWholeFormatter = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});
const numberFormatter = new Intl.NumberFormat('en-IN');

/** ₹1,23,456.78 */
export const formatInr = (rupees: number) => inrFormatter.format(rupees);
/** ₹1,23,457: the plans table shows no decimals. */
export const formatInrWhole = (rupees: number) => inrWholeFormatter.format(rupees);
export const formatNumber = (n: number) => numberFormatter.format(n);

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 21/11/2026 */
export function formatDate(value: string | number | Date | null | undefined, fallback = 'N/A') {
  const date = toDate(value);
  return date ? date.toLocaleDateString('en-IN') : fallback;
}

/** 21/11/2026, 2:05:09 pm */
export function formatDateTime(value: string | number | Date | null | undefined, fallback = 'N/A') {
  const date = toDate(value);
  return date ? date.toLocaleString('en-IN') : fallback;
}
