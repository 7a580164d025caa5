import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './button';

/** What the list reads of a `useInfiniteQuery` result. */
export type PagedQuery<Page> = Pick<
  UseInfiniteQueryResult<InfiniteData<Page>>,
  | 'data'
  | 'isPending'
  | 'isError'
  | 'refetch'
  | 'hasNextPage'
  | 'fetchNextPage'
  | 'isFetchingNextPage'
>;

/** After Load more: what screen readers hear, and where reading and tabbing go on from. */
export interface AddedItems<Item> {
  /** Such as '5 more orders loaded.'; `allShown` once the last page is in. */
  message(count: number, allShown: boolean): string;
  /** A selector of the first added item's element to focus (one with tabIndex -1). */
  focusSelector(item: Item): string;
}

export interface PagedListProps<Page, Item> {
  query: PagedQuery<Page>;
  itemsOf(page: Page): readonly Item[];
  /**
   * Draws the items. While the first page loads it is drawn with none and `loading`, unless a
   * `placeholder` stands in: a table draws its own placeholder rows.
   */
  children(items: readonly Item[], state: { loading: boolean; loadingMore: boolean }): ReactNode;
  /** Stands in for the items while the first page loads; `label` is read out. */
  placeholder?: { label: string; rows: ReactNode };
  /** Shown when there is no item at all. */
  empty: ReactNode;
  /** What failed: alone with Retry when no page came, beside the items when a later one failed. */
  errorText: string;
  loadMoreLabel: string;
  /** The Load more button's words while the next page is on its way. */
  loadingMoreLabel: string;
  /** Said to screen readers after each Load more, with focus moved to the first item added. */
  added?: AddedItems<Item>;
}

/**
 * A list loaded a page at a time, with UI.md's states: loading, empty, and error with Retry. A
 * later page's failure keeps what is shown, and Load more asks for that page again.
 */
export function PagedList<Page, Item>({
  query,
  itemsOf,
  children,
  placeholder,
  empty,
  errorText,
  loadMoreLabel,
  loadingMoreLabel,
  added,
}: PagedListProps<Page, Item>) {
  const { data, isPending, isError, hasNextPage, isFetchingNextPage } = query;
  const items = data?.pages.flatMap((page) => itemsOf(page)) ?? [];
  const [announcement, setAnnouncement] = useState('');
  const [focusSelector, setFocusSelector] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);

  // after Load more, reading and tabbing go on from the first item it added; that item may be
  // drawn before or after the page's promise settles, so both are watched for
  useEffect(() => {
    const first = focusSelector && list.current?.querySelector<HTMLElement>(focusSelector);
    if (!first) return;
    first.focus();
    setFocusSelector(null);
  }, [focusSelector, data]);

  const loadMore = async () => {
    setAnnouncement('');
    const result = await query.fetchNextPage();
    const last = result.data?.pages.at(-1);
    const fresh = last ? itemsOf(last) : [];
    if (!added || result.isError || fresh.length === 0) return;
    setAnnouncement(added.message(fresh.length, !result.hasNextPage));
    setFocusSelector(added.focusSelector(fresh[0]!));
  };

  if (isError && !data) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 px-5 py-8 text-center">
        <p className="text-sm text-red-700">{errorText}</p>
        <Button variant="secondary" className="max-md:h-11" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  if (!isPending && items.length === 0) return empty;
  return (
    <>
      <div ref={list}>
        {isPending && placeholder ? (
          <div aria-busy="true">
            <span className="sr-only" role="status">
              {placeholder.label}
            </span>
            {placeholder.rows}
          </div>
        ) : (
          children(items, { loading: isPending, loadingMore: isFetchingNextPage })
        )}
      </div>
      {isError && (
        <p role="alert" className="px-5 pt-4 text-center text-sm text-red-700">
          {errorText}
        </p>
      )}
      {hasNextPage && (
        <div className="flex justify-center p-4 max-md:p-3 max-md:[&>*]:w-full">
          <Button
            variant="secondary"
            className="max-md:h-11 aria-disabled:cursor-progress"
            busy={isFetchingNextPage}
            onClick={() => void loadMore()}
          >
            {isFetchingNextPage && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
            {isFetchingNextPage ? loadingMoreLabel : loadMoreLabel}
          </Button>
        </div>
      )}
      {added && (
        <p role="status" className="sr-only">
          {announcement}
        </p>
      )}
    </>
  );
}
