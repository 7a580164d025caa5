import type { PageCursors } from '@portal/contract';
import { Button } from '@/ui/button';

/** Where a list is: a page number, or the page after or before one shown (by its cursor). */
export interface PagePosition {
  page: number;
  after?: string;
  before?: string;
}

/** Previous / 'Page X of Y' / Next, shown only when there is more than one page (spec §2). */
export function Pager({
  page,
  totalPages,
  cursors,
  onMove,
}: {
  page: number;
  totalPages: number;
  cursors: PageCursors | undefined;
  onMove(to: PagePosition): void;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav
      aria-label="Pagination"
      className="flex items-center justify-between gap-4 border-t border-slate-100 px-5 py-3"
    >
      <Button
        variant="secondary"
        size="sm"
        onClick={() => cursors?.previous && onMove({ page: page - 1, before: cursors.previous })}
        disabled={page <= 1 || !cursors?.previous}
      >
        Previous
      </Button>
      <p className="text-sm text-slate-700" aria-live="polite">
        Page {page} of {totalPages}
      </p>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => cursors?.next && onMove({ page: page + 1, after: cursors.next })}
        disabled={page >= totalPages || !cursors?.next}
      >
        Next
      </Button>
    </nav>
  );
}
