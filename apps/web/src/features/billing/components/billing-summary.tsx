import { GST_RATE_PERCENT, gstKind, stateLabel, type BillingDetails } from '@portal/contract';

/** GSTIN, address and place of supply, and the GST that place of supply leads to. */
export function BillingSummary({
  details,
  supplierStateCode,
}: {
  details: BillingDetails;
  supplierStateCode: string;
}) {
  const tax =
    gstKind(supplierStateCode, details.stateCode) === 'IGST'
      ? `IGST ${GST_RATE_PERCENT}%`
      : `CGST ${GST_RATE_PERCENT / 2}% + SGST ${GST_RATE_PERCENT / 2}%`;
  const items: [term: string, value: React.ReactNode][] = [
    ['GSTIN', <span className="font-mono">{details.gstin}</span>],
    [
      'Billing address',
      <>
        <span className="block">{details.addressLine1}</span>
        {details.addressLine2 && <span className="block">{details.addressLine2}</span>}
        <span className="block">
          {details.city} {details.pin}
        </span>
      </>,
    ],
    ['Place of supply', stateLabel(details.stateCode)],
    ['GST charged as', tax],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt className="text-sm text-slate-600">{term}</dt>
          <dd className="mt-0.5 break-words text-sm font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
