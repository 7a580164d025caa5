import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';
import type { AutoRenewal } from '@portal/contract';
import { cn } from '@/lib/cn';
import { RETRYING, UPDATE_METHOD, haltedLine } from './auto-renewal-words';

const looks = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
} as const;

/**
 * A link to the payment gateway's own page (to authorise the mandate, or to pay another way),
 * drawn as a button: the browser leaves the portal for it. 44 px tall and full width on a phone.
 */
export function GatewayLink({
  href,
  look = 'primary',
  children,
}: {
  href: string;
  look?: keyof typeof looks;
  children: ReactNode;
}) {
  return (
    <a
      href={href}
      className={cn(
        'inline-flex min-h-11 shrink-0 items-center justify-center rounded-md px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 max-sm:w-full md:min-h-10',
        looks[look],
      )}
    >
      {children}
    </a>
  );
}

/** Whether the automatic payments have failed: the last one (retrying) or all retries (halted). */
export const hasPaymentProblem = (renewal: AutoRenewal | null | undefined) =>
  renewal?.status === 'retrying' || renewal?.status === 'halted';

/**
 * The failed automatic payment, said as an alert with the way out: the gateway's page to pay by
 * another method. On the auto-renewal card and on the dashboard.
 */
export function PaymentProblem({
  renewal,
  className,
}: {
  renewal: AutoRenewal;
  className?: string;
}) {
  const line = renewal.status === 'halted' ? haltedLine(renewal) : RETRYING;
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 sm:flex-row sm:items-center sm:justify-between',
        className,
      )}
    >
      <p className="flex gap-2 text-sm text-amber-950">
        <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-amber-700" aria-hidden="true" />
        <span>{line}</span>
      </p>
      {renewal.authoriseUrl && (
        <GatewayLink href={renewal.authoriseUrl}>{UPDATE_METHOD}</GatewayLink>
      )}
    </div>
  );
}
