/** GST and the internet handling charge, both added to the plan base (spec §9). */
export const GST_RATE_PERCENT = 18;
export const HANDLING_RATE_PERCENT = 5;

export interface OrderAmountBreakdown {
  basePaise: number;
  gstPaise: number;
  handlingPaise: number;
  totalPaise: number;
}

/** Percentage of an amount in paise, rounded half-up to the paisa. */
function percentOf(paise: number, percent: number): number {
  return Math.round((paise * percent) / 100);
}

/** total = base + 18 % + 5 %, each part rounded to the paisa on its own. */
export function orderAmount(basePaise: number): OrderAmountBreakdown {
  if (!Number.isSafeInteger(basePaise) || basePaise < 0) {
    throw new RangeError('base amount must be a non-negative whole number of paise');
  }
  const gstPaise = percentOf(basePaise, GST_RATE_PERCENT);
  const handlingPaise = percentOf(basePaise, HANDLING_RATE_PERCENT);
  return { basePaise, gstPaise, handlingPaise, totalPaise: basePaise + gstPaise + handlingPaise };
}

export const rupeesToPaise = (rupees: number): number => Math.round(rupees * 100);
export const paiseToRupees = (paise: number): number => paise / 100;
