import { irnOf as irnFor } from '../../adapters/e-invoice';
import { isValidGstin } from '@portal/contract';
import { DAY_MS } from '../../lib/clock';
import { irpError, type IrpErrorDetail } from './errors';
import type { Inv01 } from './inv-01';

/** India Standard Time: document dates are days of India's calendar. */
const IST_MS = 5.5 * 60 * 60 * 1000;
/** How far the IRP's totals may be from the sum of their parts, in rupees. */
const TOLERANCE = 1;
/**
 * A large supplier (AATO of ₹10 crore or more) reports a document within 30 days of its date:
 * one dated 1 November may be reported until 30 November (GSTN advisory of September 2023).
 */
const REPORTING_WINDOW_DAYS = 30;

/** The day a dd/mm/yyyy date names, as the UTC midnight of that date; null if there is none. */
export function documentDay(date: string): Date | null {
  const [dd, mm, yyyy] = date.split('/').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(yyyy, mm - 1, dd));
  return day.getUTCDate() === dd && day.getUTCMonth() === mm - 1 ? day : null;
}

/** India's calendar day at an instant, as the UTC midnight of that date. */
const indianDay = (at: Date) => {
  const local = new Date(at.getTime() + IST_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
};

/** The financial year (April to March) of a day, written as the IRP writes it: 2019-20. */
export function financialYear(day: Date): string {
  const start = day.getUTCMonth() >= 3 ? day.getUTCFullYear() : day.getUTCFullYear() - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** The IRN the IRP gives a document dated `day`. */
export function irnOf(document: Pick<Inv01, 'SellerDtls' | 'DocDtls'>, day: Date): string {
  return irnFor({
    gstin: document.SellerDtls.Gstin,
    financialYear: financialYear(day),
    docType: document.DocDtls.Typ,
    docNo: document.DocDtls.No,
  });
}

/** The IRP's time format, "yyyy-MM-dd HH:mm:ss" in India Standard Time. */
export function irpTime(at: Date): string {
  return new Date(at.getTime() + IST_MS).toISOString().slice(0, 19).replace('T', ' ');
}

const sum = (values: (number | undefined)[]) => values.reduce<number>((a, b) => a + (b ?? 0), 0);
const apart = (a: number, b: number) => Math.abs(a - b) > TOLERANCE;

/**
 * What the IRP checks beyond the schema, in its own refusals; none when the document passes.
 * `largeSupplier`: the supplier is held to the 30-day reporting window.
 */
export function ruleProblems(
  document: Inv01,
  now: Date,
  { largeSupplier }: { largeSupplier: boolean },
): IrpErrorDetail[] {
  const problems: IrpErrorDetail[] = [];
  const gstins = [
    ['SellerDtls.Gstin', document.SellerDtls.Gstin],
    ['BuyerDtls.Gstin', document.BuyerDtls.Gstin],
    ['ShipDtls.Gstin', document.ShipDtls?.Gstin],
    ['TranDtls.EcmGstin', document.TranDtls.EcmGstin],
  ] as const;
  for (const [field, gstin] of gstins) {
    if (gstin && gstin !== 'URP' && !isValidGstin(gstin)) {
      problems.push(irpError('schema', `${field} ${gstin} has a wrong check character`));
    }
  }

  const day = documentDay(document.DocDtls.Dt);
  const today = indianDay(now);
  if (!day) problems.push(irpError('schema', `DocDtls.Dt ${document.DocDtls.Dt} is no date`));
  else if (day > today) problems.push(irpError('futureDate'));
  else if (largeSupplier && today.getTime() - day.getTime() >= REPORTING_WINDOW_DAYS * DAY_MS) {
    problems.push(
      irpError('schema', `DocDtls.Dt is older than ${REPORTING_WINDOW_DAYS} days, past reporting`),
    );
  }

  const v = document.ValDtls;
  if (apart(sum(document.ItemList.map((item) => item.AssAmt)), v.AssVal)) {
    problems.push(irpError('assessableTotal'));
  }
  const expected =
    sum([v.AssVal, v.CgstVal, v.SgstVal, v.IgstVal, v.CesVal, v.StCesVal, v.OthChrg]) -
    (v.Discount ?? 0) +
    (v.RndOffAmt ?? 0);
  if (apart(expected, v.TotInvVal)) problems.push(irpError('invoiceTotal'));
  return problems;
}

/** The HSN of the line of the highest taxable value: the QR code's MainHsnCode. */
export function mainHsnCode(document: Inv01): string {
  return document.ItemList.reduce((main, item) => (item.AssAmt > main.AssAmt ? item : main)).HsnCd;
}
