import { Eye, History, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { PastConsent } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { formatDate } from '@/lib/format';
import { Button } from '@/ui/button';
import { EmptyState } from '@/ui/empty-state';
import { DataTable, RowActions, type Column } from '@/ui/table';
import { useConsentHistory } from '../api/get-consent-history';
import { ConsentDetailsDialog } from './consent-details-dialog';
import { ConsentStatusBadge } from './consent-status-badge';
import { Pager, type PagePosition } from './pager';

const columns = (onDetails: (consent: PastConsent) => void): Column<PastConsent>[] => [
  {
    header: 'Partner',
    cell: (consent) => (
      <>
        <p className="font-medium">{consent.partnerName}</p>
        <p className="mt-1 max-w-[16rem] text-xs text-slate-600">
          {consent.purpose ?? 'Purpose not stated'}
        </p>
      </>
    ),
  },
  {
    header: 'Consent ID',
    cell: (consent) => (
      <span className="max-w-[13rem] break-words font-mono text-xs">{consent.consentId}</span>
    ),
  },
  { header: 'Status', cell: (consent) => <ConsentStatusBadge status={consent.consentStatus} /> },
  {
    header: 'Ended',
    cell: (consent) => formatDate(consent.revokedAt ?? consent.expirationDateTime),
  },
  {
    header: 'Actions',
    actions: true,
    cell: (consent) => (
      <RowActions>
        <Button
          variant="ghost"
          size="icon"
          onClick={() => onDetails(consent)}
          aria-label={`View details of past consent ${consent.consentId}`}
          className="max-md:border max-md:border-slate-300 max-md:px-4"
        >
          <Eye className="h-4 w-4" aria-hidden="true" />
          <span className="md:hidden">View details</span>
        </Button>
      </RowActions>
    ),
  },
];

/** The History view: consents revoked in the portal or past their expiry, newest first. */
export function ConsentHistory({ userId }: { userId: string }) {
  const [at, setAt] = useState<PagePosition>({ page: 1 });
  const [details, setDetails] = useState<PastConsent | null>(null);
  const list = useConsentHistory({ userId, ...at }, Boolean(userId));
  const rows = list.data?.data ?? [];

  return (
    <>
      {list.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 px-5 py-8 text-center">
          <p className="text-sm font-medium text-red-700">Failed to fetch past consents</p>
          <p className="text-sm text-slate-700">
            {errorMessage(list.error, 'The history could not be loaded.')}
          </p>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden="true" />
            Retry
          </Button>
        </div>
      ) : !list.isPending && rows.length === 0 ? (
        <EmptyState
          icon={<History className="h-10 w-10" />}
          title="No past consents"
          description="Consents you delete, and consents that expire, are kept here."
        />
      ) : (
        <DataTable
          caption="Past consents"
          columns={columns(setDetails)}
          rows={rows}
          rowKey={(consent) => consent._id}
          loading={list.isPending}
          skeletonRows={3}
          busy={list.isFetching}
          className="md:min-w-[48rem]"
        />
      )}
      {rows.length > 0 && !list.isError && list.data && (
        <Pager
          page={list.data.pagination.page}
          totalPages={list.data.pagination.total_pages}
          cursors={list.data.cursors}
          onMove={setAt}
        />
      )}
      <ConsentDetailsDialog consent={details} onClose={() => setDetails(null)} />
    </>
  );
}
