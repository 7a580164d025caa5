import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConsentStatus } from '@portal/contract';
import { useConsents } from '../api/get-consents';
import type { PagePosition } from './pager';
import { useConsentSearch } from './use-consent-search';

const FIRST_PAGE: PagePosition = { page: 1 };

/** The Current tab's list: its search and status filter, the page shown, and that page. */
export function useConsentList(userId: string) {
  const queryClient = useQueryClient();
  // a page by number (page 1 after a new filter or search), or next to one shown, by its cursor
  const [at, setAt] = useState<PagePosition>(FIRST_PAGE);
  const [status, setStatus] = useState<ConsentStatus | ''>('');
  // a new search starts again at page 1
  const search = useConsentSearch(() => setAt(FIRST_PAGE));
  const query = useConsents({
    userId,
    ...at,
    consentStatus: status || undefined,
    search: search.applied || undefined,
  });

  const page = query.data?.pagination.page ?? at.page;
  const cursors = query.data?.cursors;
  return {
    query,
    search,
    status,
    filterByStatus(next: ConsentStatus | '') {
      setStatus(next);
      setAt(FIRST_PAGE);
    },
    rows: query.data?.data ?? [],
    filtered: Boolean(search.applied || status),
    page,
    totalPages: query.data?.pagination.total_pages ?? 0,
    cursors,
    moveTo: setAt,
    /** After a delete: the last one on a later page gone, shows the page before, which exists. */
    afterDelete() {
      if (page > 1 && query.data?.data.length === 1 && cursors?.previous) {
        setAt({ page: page - 1, before: cursors.previous });
      }
    },
    reload: () => void queryClient.invalidateQueries({ queryKey: ['consents'] }),
  };
}

export type ConsentList = ReturnType<typeof useConsentList>;
