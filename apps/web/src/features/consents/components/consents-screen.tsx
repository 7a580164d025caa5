import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/cn';
import { useSessionStore } from '@/lib/session-store';
import { Card } from '@/ui/card';
import { PageTitle } from '@/ui/page-title';
import { useConsentCounters } from '../api/get-consent-counters';
import { ConsentCountTiles } from './consent-count-tiles';
import { ConsentDetailsDialog } from './consent-details-dialog';
import { ConsentHistory } from './consent-history';
import { tileCounts } from './consent-rules';
import { CurrentConsents } from './current-consents';
import { DeleteConsentDialog } from './delete-consent-dialog';
import { ReconnectDialog } from './reconnect-dialog';
import { withParam } from './search-params';
import { useConsentActions } from './use-consent-actions';
import { useConsentList } from './use-consent-list';

const VIEWS = [
  ['current', 'Current'],
  ['history', 'History'],
] as const;

/** Spec §2 Consents screen. */
export function ConsentsScreen() {
  const userId = useSessionStore((s) => s.user?.id ?? '');
  const list = useConsentList(userId);
  const actions = useConsentActions({ onDeleted: list.afterDelete });
  const counters = useConsentCounters(userId);
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'history' ? 'history' : 'current';

  const fetchFailed = counters.isError || list.query.isError;
  useEffect(() => {
    if (fetchFailed) toast.error('Failed to fetch consents', { id: 'consents-fetch' });
  }, [fetchFailed]);

  return (
    <div>
      <PageTitle>Consent Management</PageTitle>
      <ConsentCountTiles counts={counters.data ? tileCounts(counters.data) : null} />

      <Card>
        <div
          role="tablist"
          aria-label="Consents"
          className="flex gap-2 border-b border-slate-100 px-3 pt-2"
        >
          {VIEWS.map(([key, label]) => (
            <button
              key={key}
              type="button"
              role="tab"
              id={`consents-tab-${key}`}
              aria-selected={view === key}
              aria-controls="consents-panel"
              onClick={() =>
                setParams(
                  (current) => withParam(current, 'view', key === 'history' ? 'history' : null),
                  { replace: true },
                )
              }
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
            <CurrentConsents
              list={list}
              rowActions={{
                refreshingId: actions.refreshingId,
                onDetails: actions.showDetails,
                onRefresh: actions.refreshStatus,
                onDelete: actions.askDelete,
                onReconnect: actions.askReconnect,
              }}
            />
          )}
        </div>
      </Card>

      <ConsentDetailsDialog
        consent={actions.details}
        onClose={actions.closeDetails}
        onRefresh={actions.refreshStatus}
        refreshing={actions.refreshing}
        onReconnect={actions.askReconnect}
        onTogglePause={actions.togglePause}
        pausing={actions.pausing}
      />
      <ReconnectDialog
        consent={actions.reconnectShown}
        onCancel={actions.closeReconnect}
        onConfirm={actions.confirmReconnect}
        pending={actions.reconnecting}
      />
      <DeleteConsentDialog
        consent={actions.toDelete}
        onCancel={actions.cancelDelete}
        onConfirm={actions.confirmDelete}
        deleting={actions.deleting}
      />
    </div>
  );
}
