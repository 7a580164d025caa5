export const stateCodeOf = (gstin: string) => gstin.slice(0, 2);

/** The Indian financial year (April to March, in IST) of a moment: '2026-27'. */
export function financialYearOf(date: Date): string {
  const ist = new Date(date.getTime() + 330 * 60 * 1000);
  const year = ist.getUTCFullYear();
  const start = ist.getUTCMonth() >= 3 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}
