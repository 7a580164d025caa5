import { useQueryClient } from '@tanstack/react-query';
import {
  Eye,
  FileCheck2,
  FileX2,
  RefreshCw,
  RotateCcw,
  Search,
  SearchX,
  ShieldCheck,
  Trash2,
} from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '@/ui/toast';
import { CONSENT_STATUSES, canReconnect, type Consent, type ConsentStatus } from '@portal/contract';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/http';
import { formatDate, isPast } from '@/lib/format';
import { useSessionStore } from '@/lib/session-store';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { PageTitle } from '@/ui/page-title';
import { Skeleton } from '@/ui/spinner';
import { DataTable, RowActions, type Column } from '@/ui/table';
import { useConsent } from '../api/get-consent';
import { useConsents } from '../api/get-consents';
import { useReconnectConsent } from '../api/reconnect-consent';
import { useConsentCounters } from '../api/get-consent-counters';
import { useDeleteConsent } from '../api/delete-consent';
import { useRefreshConsentStatus } from '../api/refresh-consent-status';
import { ConsentDetailsDialog } from './consent-details-dialog';
import { summariseApis, tileCounts, type ConsentCounts } from './consent-rules';
import { ConsentStatusBadge } from './consent-status-badge';
import { permissionName } from './permission-names';
import { DeleteConsentDialog } from './delete-consent-dialog';
import { ConsentHistory } from './consent-history';
import { Pager, type PagePosition } from './pager';
import { ReconnectDialog } from './reconnect-dialog';

const TILES: { key: keyof ConsentCounts; className: string }[] = [
  { key: 'Total', className: 'text-slate-900' },
  { key: 'Pending', className: 'text-amber-800' },
  { key: 'Approved', className: 'text-green-800' },
  { key: 'Rejected', className: 'text-red-800' },
  { key: 'Expired', className: 'text-slate-700' },
];

function CountTiles({ counts }: { counts: ConsentCounts | null }) {
  return (
    <dl
      className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5"
      aria-label="Consent counts"
    >
      {TILES.map(({ key, className }) => (
        <div key={key} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm font-medium text-slate-600">{key}</dt>
          <dd className={`mt-1 text-2xl font-bold ${className}`}>
            {counts ? counts[key] : <Skeleton className="h-8 w-10" />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** An icon button beside the row on a desktop; on a phone a full-width button with its word. */
function RowAction({
  label,
  word,
  onClick,
  disabled,
  danger,
  children,
}: {
  label: string;
  word: string;
  onClick(): void;
  disabled?: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      className={cn(
        'max-md:border max-md:border-slate-300 max-md:px-4',
        danger && 'text-red-700 hover:bg-red-50',
      )}
    >
      {children}
      <span className="md:hidden">{word}</span>
    </Button>
  );
}

function consentColumns({
  refreshingId,
  onDetails,
  onRefresh,
  onDelete,
  onReconnect,
}: {
  refreshingId: string | null | undefined;
  onDetails(consent: Consent): void;
  onRefresh(consent: Consent): void;
  onDelete(consent: Consent): void;
  onReconnect(consent: Consent): void;
}): Column<Consent>[] {
  const now = new Date();
  return [
    {
      header: 'Consent Details',
      cell: (consent) => (
        <>
          <p className="max-w-[13rem] break-words font-mono text-xs font-medium text-slate-900">
            {consent.consentId}
          </p>
          <p className="mt-1 flex items-center gap-1 text-xs text-slate-600">
            {consent.documentUploaded === 'Y' ? (
              <>
                <FileCheck2 className="h-3.5 w-3.5 text-green-700" aria-hidden="true" />
                Document uploaded
              </>
            ) : (
              <>
                <FileX2 className="h-3.5 w-3.5" aria-hidden="true" />
                No document
              </>
            )}
          </p>
        </>
      ),
    },
    {
      header: 'Partner',
      cell: (consent) => (
        <>
          <p className="font-medium">{consent.partnerName}</p>
          <p className="mt-1 font-mono text-xs text-slate-600">{consent.partnerId}</p>
          <p className="mt-1 max-w-[16rem] text-xs text-slate-700">
            {consent.purpose ?? 'Purpose not stated'}
          </p>
        </>
      ),
    },
    { header: 'Status', cell: (consent) => <ConsentStatusBadge status={consent.consentStatus} /> },
    {
      header: 'APIs',
      cell: (consent) => {
        const apis = summariseApis(consent.apiList);
        return (
          <div className="flex max-w-[17rem] flex-wrap items-center gap-1">
            {apis.shown.map((code) => (
              <Badge key={code} tone="blue">
                {permissionName(code)}
              </Badge>
            ))}
            {apis.more > 0 && <span className="text-xs text-slate-600">+{apis.more} more</span>}
          </div>
        );
      },
    },
    { header: 'Created', cell: (consent) => formatDate(consent.createdAt) },
    {
      header: 'Expires',
      cell: (consent) =>
        consent.expirationDateTime ? (
          <>
            <span className="sr-only">
              {isPast(consent.expirationDateTime, now) ? 'Expired on ' : 'Expires on '}
            </span>
            {formatDate(consent.expirationDateTime)}
          </>
        ) : (
          'No expiry'
        ),
    },
    {
      header: 'Actions',
      actions: true,
      cell: (consent) => {
        const busy = refreshingId === consent.consentId;
        return (
          <RowActions>
            <RowAction
              label={`View details of consent ${consent.consentId}`}
              word="View details"
              onClick={() => onDetails(consent)}
            >
              <Eye className="h-4 w-4" aria-hidden="true" />
            </RowAction>
            <RowAction
              label={`Refresh status of consent ${consent.consentId}`}
              word="Refresh status"
              onClick={() => onRefresh(consent)}
              disabled={busy}
            >
              <RefreshCw className={busy ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
            </RowAction>
            {canReconnect(consent.consentStatus, consent.expirationDateTime ?? null, now) &&
              !consent.reconnectRequestedAt && (
                <RowAction
                  label={`Reconnect consent ${consent.consentId}`}
                  word="Reconnect"
                  onClick={() => onReconnect(consent)}
                >
                  <RotateCcw className="h-4 w-4" aria-hidden="true" />
                </RowAction>
              )}
            <RowAction
              label={`Delete consent ${consent.consentId}`}
              word="Delete"
              onClick={() => onDelete(consent)}
              danger
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </RowAction>
          </RowActions>
        );
      },
    },
  ];
}

const FIRST_PAGE: PagePosition = { page: 1 };

/** Typing settles for this long before the server is asked. */
const SEARCH_DELAY_MS = 300;

/**
 * The search the list shows, kept in the address (`?search=`), so that a link (a notification's,
 * say) can open the screen on one consent, and Back returns to the search before. The box
 * follows the address; what is typed reaches the address once typing settles.
 */
function useConsentSearch(onApplied: () => void) {
  const [params, setParams] = useSearchParams();
  const applied = params.get('search')?.trim() ?? '';
  const [typed, setTyped] = useState(applied);
  const [shown, setShown] = useState(applied);
  if (applied !== shown) {
    setShown(applied);
    // a space still being typed stays; a search from elsewhere (a link, Back) replaces the box
    if (typed.trim() !== applied) setTyped(applied);
    onApplied();
  }
  useEffect(() => {
    if (typed.trim() === applied) return;
    const timer = setTimeout(
      () =>
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            if (typed.trim()) next.set('search', typed.trim());
            else next.delete('search');
            return next;
          },
          { replace: true },
        ),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [typed, applied, setParams]);
  const clear = () => {
    setTyped('');
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('search');
        return next;
      },
      { replace: true },
    );
  };
  return { typed, setTyped, applied, clear };
}

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

/** Spec §2 Consents screen. */
export function ConsentsScreen() {
  const userId = useSessionStore((s) => s.user?.id ?? '');
  const queryClient = useQueryClient();
  // a page by number (page 1 after a new filter or search), or next to one shown, by its cursor
  const [at, setAt] = useState<PagePosition>(FIRST_PAGE);
  const [status, setStatus] = useState<ConsentStatus | ''>('');
  // a new search starts again at page 1
  const search = useConsentSearch(() => setAt(FIRST_PAGE));
  const [details, setDetails] = useState<Consent | null>(null);
  const [toDelete, setToDelete] = useState<Consent | null>(null);
  const [toReconnect, setToReconnect] = useState<Consent | null>(null);
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'history' ? 'history' : 'current';
  // a link (the dashboard's Coming up card) names a consent to reconnect: its dialog opens
  const linked = params.get('reconnect');
  const linkedConsent = useConsent(linked);
  const reconnectShown = toReconnect ?? (linked ? (linkedConsent.data ?? null) : null);
  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  const reconnect = useReconnectConsent();

  const counters = useConsentCounters(userId);
  const list = useConsents({
    userId,
    ...at,
    consentStatus: status || undefined,
    search: search.applied || undefined,
  });
  const refresh = useRefreshConsentStatus();
  const remove = useDeleteConsent();

  useEffect(() => {
    if (linkedConsent.isError) {
      toast.error('Failed to open the consent to reconnect', {
        description: errorMessage(linkedConsent.error, '') || undefined,
      });
    }
  }, [linkedConsent.isError, linkedConsent.error]);

  const fetchFailed = counters.isError || list.isError;
  useEffect(() => {
    if (fetchFailed) toast.error('Failed to fetch consents', { id: 'consents-fetch' });
  }, [fetchFailed]);

  const totalPages = list.data?.pagination.total_pages ?? 0;
  const page = list.data?.pagination.page ?? at.page;
  const cursors = list.data?.cursors;
  const rows = list.data?.data ?? [];
  const filtered = Boolean(search.applied || status);

  function refreshStatus(consent: Consent) {
    refresh.mutate(consent.consentId, {
      onSuccess: (updated) => {
        toast.success('Consent status refreshed!');
        setDetails((open) => (open?._id === updated._id ? updated : open));
      },
      onError: (error) =>
        toast.error('Failed to refresh consent status', {
          description: errorMessage(error, '') || undefined,
        }),
    });
  }

  function confirmDelete() {
    if (!toDelete) return;
    remove.mutate(toDelete._id, {
      onSuccess: () => {
        toast.success('Consent deleted successfully!');
        // the last one on a later page: show the page before, which still exists
        if (page > 1 && list.data?.data.length === 1 && cursors?.previous) {
          setAt({ page: page - 1, before: cursors.previous });
        }
        setToDelete(null);
        setDetails(null);
      },
      onError: (error) => {
        toast.error('Failed to delete consent', {
          description: errorMessage(error, '') || undefined,
        });
        setToDelete(null);
      },
    });
  }

  function closeReconnect() {
    setToReconnect(null);
    if (linked) setParam('reconnect', null);
  }

  function confirmReconnect(consent: Consent) {
    reconnect.mutate(consent._id, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        setDetails((open) => (open?._id === answer.data._id ? answer.data : open));
        closeReconnect();
      },
      onError: (error) =>
        toast.error('Failed to request a reconnect', {
          description: errorMessage(error, '') || undefined,
        }),
    });
  }

  const reload = () => void queryClient.invalidateQueries({ queryKey: ['consents'] });
  const refreshingId = refresh.isPending ? refresh.variables : null;
  const loading = list.isPending;

  return (
    <div>
      <PageTitle>Consent Management</PageTitle>
      <CountTiles counts={counters.data ? tileCounts(counters.data) : null} />

      <Card>
        <div
          role="tablist"
          aria-label="Consents"
          className="flex gap-2 border-b border-slate-100 px-3 pt-2"
        >
          {(
            [
              ['current', 'Current'],
              ['history', 'History'],
            ] as const
          ).map(([key, label]) => (
            <button
              key={key}
              type="button"
              role="tab"
              id={`consents-tab-${key}`}
              aria-selected={view === key}
              aria-controls="consents-panel"
              onClick={() => setParam('view', key === 'history' ? 'history' : null)}
              className={cn(
                'min-h-11 border-b-2 px-4 text-sm font-medium',
                view === key
                  ? 'border-blue-700 text-blue-800'
                  : 'border-transparent text-slate-600 hover:text-slate-900',
              )}
            >
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id="consents-panel" aria-labelledby={`consents-tab-${view}`}>
          {view === 'history' ? (
            <ConsentHistory userId={userId} />
          ) : (
            <>
              <div className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 md:flex-row md:items-center">
                <div className="relative flex-1">
                  <Search
                    className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500"
                    aria-hidden="true"
                  />
                  <input
                    type="search"
                    value={search.typed}
                    onChange={(e) => search.setTyped(e.target.value)}
                    aria-label="Search consents"
                    placeholder="Search by partner name, consent ID or partner ID"
                    className="block h-10 w-full rounded-md border border-slate-300 bg-white pl-9 pr-3 text-sm text-slate-900 placeholder:text-slate-500 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30"
                  />
                </div>
                <select
                  value={status}
                  onChange={(e) => {
                    setStatus(e.target.value as ConsentStatus | '');
                    setAt(FIRST_PAGE);
                  }}
                  aria-label="Filter by status"
                  className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30"
                >
                  <option value="">All Status</option>
                  {CONSENT_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
                <Button variant="secondary" onClick={reload} disabled={list.isFetching}>
                  <RefreshCw
                    className={list.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'}
                    aria-hidden="true"
                  />
                  Refresh
                </Button>
              </div>

              {list.isError ? (
                <div
                  role="alert"
                  className="flex flex-col items-center gap-3 px-5 py-8 text-center"
                >
                  <p className="text-sm font-medium text-red-700">Failed to fetch consents</p>
                  <p className="text-sm text-slate-700">
                    {errorMessage(list.error, 'The list could not be loaded.')}
                  </p>
                  <Button variant="secondary" onClick={() => void list.refetch()}>
                    <RefreshCw className="h-4 w-4" aria-hidden="true" />
                    Retry
                  </Button>
                </div>
              ) : !loading && rows.length === 0 && filtered ? (
                <NoMatch
                  search={search.applied}
                  status={status}
                  onClearSearch={search.clear}
                  onClearStatus={() => {
                    setStatus('');
                    setAt(FIRST_PAGE);
                  }}
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
                  columns={consentColumns({
                    refreshingId,
                    onDetails: setDetails,
                    onRefresh: refreshStatus,
                    onDelete: setToDelete,
                    onReconnect: setToReconnect,
                  })}
                  rows={rows}
                  rowKey={(consent) => consent._id}
                  loading={loading}
                  skeletonRows={3}
                  busy={list.isFetching}
                  className="md:min-w-[56rem]"
                />
              )}

              {rows.length > 0 && !list.isError && (
                <Pager page={page} totalPages={totalPages} cursors={cursors} onMove={setAt} />
              )}
            </>
          )}
        </div>
      </Card>

      <ConsentDetailsDialog
        consent={details}
        onClose={() => setDetails(null)}
        onRefresh={refreshStatus}
        refreshing={refresh.isPending}
        onReconnect={setToReconnect}
      />
      <ReconnectDialog
        consent={reconnectShown}
        onCancel={closeReconnect}
        onConfirm={confirmReconnect}
        pending={reconnect.isPending}
      />
      <DeleteConsentDialog
        partnerName={toDelete?.partnerName ?? null}
        onCancel={() => setToDelete(null)}
        onConfirm={confirmDelete}
        deleting={remove.isPending}
      />
    </div>
  );
}
