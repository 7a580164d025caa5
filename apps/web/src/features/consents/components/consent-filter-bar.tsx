import { RefreshCw, Search } from 'lucide-react';
import { CONSENT_STATUSES, type ConsentStatus } from '@portal/contract';
import { Button } from '@/ui/button';
import type { ConsentSearch } from './use-consent-search';

/** The Current tab's search box, status filter and Refresh button. */
export function ConsentFilterBar({
  search,
  status,
  onStatus,
  onReload,
  reloading,
}: {
  search: ConsentSearch;
  status: ConsentStatus | '';
  onStatus(status: ConsentStatus | ''): void;
  onReload(): void;
  reloading: boolean;
}) {
  return (
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
        onChange={(e) => onStatus(e.target.value as ConsentStatus | '')}
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
      <Button variant="secondary" onClick={onReload} disabled={reloading}>
        <RefreshCw className={reloading ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
        Refresh
      </Button>
    </div>
  );
}
