import { RefreshCw, SearchX, ShieldCheck } from 'lucide-react';
import type { ConsentStatus } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { EmptyState } from '@/ui/empty-state';
import { DataTable } from '@/ui/table';
import { consentColumns, type ConsentRowActions } from './consent-columns';
import { ConsentFilterBar } from './consent-filter-bar';
import { Pager } from './pager';
import type { ConsentList } from './use-consent-list';

/** UI.md's no-match state: which filter found nothing, and a way to clear each. */
function NoMatch({
  search,
  status,
  onClearSearch,
  onClearStatus,
}: {
  search: string;
  status: ConsentStatus | '';
  onClearSearch(): void;
  onClearStatus(): void;
}) {
  const what = status ? `No ${status} consents` : 'No consents';
  return (
    <EmptyState
      icon={<SearchX className="h-10 w-10" />}
      title={search ? `${what} match “${search}”` : what}
      description={
        search ? 'The search looks at partner names, consent IDs and partner IDs.' : undefined
      }
      action={
        <div className="mt-2 flex flex-col gap-2 sm:flex-row">
          {search && (
            <Button variant="secondary" onClick={onClearSearch}>
              Clear search
            </Button>
          )}
          {status && (
            <Button variant="secondary" onClick={onClearStatus}>
              Show all statuses
            </Button>
          )}
        </div>
      }
    />
  );
}

/** The Current tab: the filters, then the page of consents in UI.md's states, and the pager. */
export function CurrentConsents({
  list,
  rowActions,
}: {
  list: ConsentList;
  rowActions: ConsentRowActions;
}) {
  const { query, rows } = list;
  const loading = query.isPending;
  return (
    <>
      <ConsentFilterBar
        search={list.search}
        status={list.status}
        onStatus={list.filterByStatus}
        onReload={list.reload}
        reloading={query.isFetching}
      />

      {query.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 px-5 py-8 text-center">
          <p className="text-sm font-medium text-red-700">Failed to fetch consents</p>
          <p className="text-sm text-slate-700">
            {errorMessage(query.error, 'The list could not be loaded.')}
          </p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden="true" />
            Retry
          </Button>
        </div>
      ) : !loading && rows.length === 0 && list.filtered ? (
        <NoMatch
          search={list.search.applied}
          status={list.status}
          onClearSearch={list.search.clear}
          onClearStatus={() => list.filterByStatus('')}
        />
      ) : !loading && rows.length === 0 ? (
        <EmptyState
          icon={<ShieldCheck className="h-10 w-10" />}
          title="No consents found"
          description="Create your first consent to get started"
        />
      ) : (
        <DataTable
          caption="Consents"
          columns={consentColumns(rowActions)}
          rows={rows}
          rowKey={(consent) => consent._id}
          loading={loading}
          skeletonRows={3}
          busy={query.isFetching}
          className="md:min-w-[56rem]"
        />
      )}

      {rows.length > 0 && !query.isError && (
        <Pager
          page={list.page}
          totalPages={list.totalPages}
          cursors={list.cursors}
          onMove={list.moveTo}
        />
      )}
    </>
  );
}
