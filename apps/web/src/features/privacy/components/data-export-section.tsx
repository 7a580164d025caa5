import type { DataExport } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { formatDateTime } from '@/lib/format';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { toast } from '@/lib/toast';
import { useDataExport, useRequestDataExport } from '../api/privacy';

/** What the latest request says, in the customer's words. */
function describe(request: DataExport): string {
  switch (request.status) {
    case 'preparing':
      return `We are preparing your data (asked ${formatDateTime(request.requestedAt)}). We will e-mail you a link when it is ready.`;
    case 'ready':
      return `Your data is ready. Use the link we e-mailed you; it works until ${formatDateTime(request.expiresAt)}.`;
    case 'failed':
      return 'We could not prepare your data. Please ask again.';
    case 'expired':
      return `Your last download expired on ${formatDateTime(request.expiresAt)}.`;
  }
}

/** "Download my data": a ZIP prepared in the background, its link e-mailed for 24 hours. */
export function DataExportSection() {
  const latest = useDataExport();
  const request = useRequestDataExport();
  const current = latest.data;

  const ask = () =>
    request.mutate(undefined, {
      onSuccess: (answer) => toast.success(answer.message),
      onError: (failure) => toast.error(errorMessage(failure, 'Could not ask for your data')),
    });

  return (
    <Card aria-labelledby="data-export-heading">
      <CardHeader title={<span id="data-export-heading">Download my data</span>} />
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-600">
          A ZIP file of everything the portal holds about you: your profile, orders, invoices and
          their PDFs, consents, activity and sign-ins. We prepare it in the background and e-mail
          you a link that works for 24 hours.
        </p>
        {latest.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3">
            <p className="text-sm text-red-700">
              {errorMessage(latest.error, 'Failed to load your data requests')}
            </p>
            <Button
              variant="secondary"
              aria-label="Retry loading your data requests"
              onClick={() => void latest.refetch()}
            >
              Retry
            </Button>
          </div>
        ) : latest.isPending ? (
          <div className="h-16 animate-pulse rounded-md bg-slate-100" aria-label="Loading" />
        ) : (
          <>
            {/* read out when it changes: the page looks again while the data is prepared */}
            <p role="status" className="text-sm text-slate-900">
              {current ? describe(current) : ''}
            </p>
            <Button onClick={ask} disabled={current?.status === 'preparing' || request.isPending}>
              {request.isPending ? 'Asking…' : 'Ask for my data'}
            </Button>
          </>
        )}
      </CardBody>
    </Card>
  );
}
