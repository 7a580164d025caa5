import type { ReactNode } from 'react';
import type { EInvoice } from '@portal/contract';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';

/** 6d9c1f0a…3b7e: enough of the 64 characters to tell IRNs apart, short enough for a phone. */
const shortIrn = (irn: string) => `${irn.slice(0, 8)}…${irn.slice(-4)}`;

/** The short form on screen and on hover; screen readers hear the full IRN, once. */
function Irn({ irn }: { irn: string }) {
  return (
    <>
      <span aria-hidden="true" title={irn}>
        IRN {shortIrn(irn)}
      </span>
      <span className="sr-only">IRN {irn}</span>
    </>
  );
}

function words({ status, irn, ackNo, ackDate, refusal }: EInvoice): ReactNode {
  switch (status) {
    case 'Registered':
      // each part whole on its own line when the two do not fit on one
      return (
        <>
          {irn && (
            <span className="inline-block">
              <Irn irn={irn} />
            </span>
          )}{' '}
          {ackNo && (
            <span className="inline-block">
              Ack No {ackNo}
              {ackDate && ` · ${formatDate(ackDate)}`}
            </span>
          )}
        </>
      );
    case 'Being registered':
      return 'e-Invoice being registered';
    case 'Refused':
      return refusal ? `e-Invoice not registered: ${refusal}` : 'e-Invoice not registered';
    case 'Cancelled':
      return irn ? (
        <>
          e-Invoice cancelled (<Irn irn={irn} />)
        </>
      ) : (
        'e-Invoice cancelled'
      );
  }
}

/** A document's registration with the IRP, in words under its number: the row has one badge. */
export function EInvoiceLine({ eInvoice }: { eInvoice: EInvoice }) {
  return (
    // the IRP's reasons can be long: they wrap in a narrow column rather than widen the table
    <span
      className={cn(
        'mt-0.5 block text-xs break-words md:max-w-xs',
        eInvoice.status === 'Refused' ? 'text-red-700' : 'text-slate-600',
      )}
    >
      {words(eInvoice)}
    </span>
  );
}
