import { GST_RATE_PERCENT } from '@portal/contract';

/** How a document's tax divides: CGST + SGST within one state, IGST between two. */
export interface TaxSplit {
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
}

/** The amounts a tax invoice or credit note states, in paise. */
export interface DocumentAmounts extends TaxSplit {
  taxablePaise: number;
  /** Charges in the total outside the taxable value (only invoices issued before decision 038). */
  untaxedPaise: number;
  totalPaise: number;
}

/** Intra-state supply pays CGST + SGST (half each, the odd paisa to CGST), inter-state IGST. */
export function splitTax(taxPaise: number, intraState: boolean): TaxSplit {
  if (!intraState) return { cgstPaise: 0, sgstPaise: 0, igstPaise: taxPaise };
  const cgstPaise = Math.round(taxPaise / 2);
  return { cgstPaise, sgstPaise: taxPaise - cgstPaise, igstPaise: 0 };
}

/**
 * The invoice of an order (decision 038): the Internet Handling Charge is consideration for the
 * same supply, so it is part of the taxable value. The order's total stays the spec's
 * (base + 18 % + 5 %): the charge is read as including its GST, and the tax is the total less
 * the taxable value.
 */
export function invoiceAmounts(
  order: { basePaise: number; handlingPaise: number; totalPaise: number },
  intraState: boolean,
): DocumentAmounts {
  const handlingTaxable = Math.round((order.handlingPaise * 100) / (100 + GST_RATE_PERCENT));
  const taxablePaise = order.basePaise + handlingTaxable;
  return {
    taxablePaise,
    ...splitTax(order.totalPaise - taxablePaise, intraState),
    untaxedPaise: 0,
    totalPaise: order.totalPaise,
  };
}

/** The taxable value of the handling charge, as the invoice prints it beside the plan. */
export const handlingTaxableOf = (amounts: DocumentAmounts, basePaise: number) =>
  amounts.taxablePaise - basePaise;

/**
 * The credit note that takes an invoice's credited total from `before` to `through` paise. Each
 * part is the difference of its pro-rata share at the two points, so the notes of an invoice add
 * up to it exactly once it is credited in full; the taxable value takes the rounding.
 */
export function creditAmounts(invoice: DocumentAmounts, before: number, through: number) {
  const total = BigInt(invoice.totalPaise);
  const shareAt = (paise: number, point: number) =>
    Number((BigInt(paise) * BigInt(point) * 2n + total) / (2n * total));
  const share = (paise: number) => shareAt(paise, through) - shareAt(paise, before);
  const cgstPaise = share(invoice.cgstPaise);
  const sgstPaise = share(invoice.sgstPaise);
  const igstPaise = share(invoice.igstPaise);
  const untaxedPaise = share(invoice.untaxedPaise);
  const totalPaise = through - before;
  return {
    taxablePaise: totalPaise - cgstPaise - sgstPaise - igstPaise - untaxedPaise,
    cgstPaise,
    sgstPaise,
    igstPaise,
    untaxedPaise,
    totalPaise,
  } satisfies DocumentAmounts;
}
