import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { invoicePaths, type Invoice } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** A page of the customer's invoices, newest first: the first one without a cursor. */
export const getInvoicesPage = (cursor?: string) =>
  api.get(cursor ? `${invoicePaths.list}?${new URLSearchParams({ cursor })}` : invoicePaths.list, {
    schema: responseSchema('InvoiceListResponseSchema'),
  });

// the PDF links are short-lived: keep the list fresh while it is on screen
const REFRESH_MS = 5 * 60 * 1000;
// a document just issued has its PDF in a moment: ask again soon until it has
const PREPARING_REFRESH_MS = 3 * 1000;

const anyPreparing = (invoices: readonly Invoice[]) =>
  invoices.some((invoice) => !invoice.pdfReady || invoice.creditNotes.some((n) => !n.pdfReady));

export const getInvoicesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['invoices'],
    queryFn: ({ pageParam }) => getInvoicesPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: REFRESH_MS,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => anyPreparing(page.invoices))
        ? PREPARING_REFRESH_MS
        : REFRESH_MS,
  });

export const useInvoices = () => useInfiniteQuery(getInvoicesQueryOptions());
