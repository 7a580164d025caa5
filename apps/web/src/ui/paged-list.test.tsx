import { QueryClient, QueryClientProvider, useInfiniteQuery } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PagedList, type PagedListProps } from './paged-list';

interface Page {
  names: string[];
  next: number | null;
}

/** Page n of a list; each answer is settled by the test, in the order asked for. */
function pages() {
  const waiting: { resolve(page: Page): void; reject(error: Error): void }[] = [];
  const fetchPage = vi.fn(
    (_n: number) => new Promise<Page>((resolve, reject) => waiting.push({ resolve, reject })),
  );
  return {
    fetchPage,
    answer: (names: string[], next: number | null) => waiting.shift()!.resolve({ names, next }),
    fail: () => waiting.shift()!.reject(new Error('down')),
  };
}

type Options = Partial<Omit<PagedListProps<Page, string>, 'query' | 'itemsOf' | 'children'>>;

function Things({ fetchPage, ...props }: { fetchPage(n: number): Promise<Page> } & Options) {
  const query = useInfiniteQuery({
    queryKey: ['things'],
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last: Page) => last.next ?? undefined,
  });
  return (
    <PagedList
      query={query}
      itemsOf={(page) => page.names}
      empty={<p>Nothing yet</p>}
      errorText="Failed to load things"
      loadMoreLabel="Load more things"
      loadingMoreLabel="Loading more things..."
      {...props}
    >
      {(names, { loading }) =>
        loading ? (
          <p>Drawing its own placeholder</p>
        ) : (
          <ul aria-label="Things">
            {names.map((name) => (
              <li key={name}>
                <span tabIndex={-1} data-name={name}>
                  {name}
                </span>
              </li>
            ))}
          </ul>
        )
      }
    </PagedList>
  );
}

function renderThings(props: Parameters<typeof Things>[0]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Things {...props} />
    </QueryClientProvider>,
  );
}

const shown = () =>
  within(screen.getByRole('list', { name: 'Things' }))
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

describe('PagedList', () => {
  it('offers Load more only while there is a next page, busy while it comes', async () => {
    const server = pages();
    renderThings({ fetchPage: server.fetchPage });
    expect(screen.getByText('Drawing its own placeholder')).toBeInTheDocument();
    server.answer(['a', 'b'], 1);
    const loadMore = await screen.findByRole('button', { name: 'Load more things' });
    expect(shown()).toEqual(['a', 'b']);
    expect(loadMore).not.toHaveAttribute('aria-disabled');

    await userEvent.click(loadMore);
    expect(server.fetchPage).toHaveBeenLastCalledWith(1);
    const loading = await screen.findByRole('button', { name: 'Loading more things...' });
    expect(loading).toBe(loadMore);
    expect(loading).toHaveAttribute('aria-disabled', 'true');
    expect(loading).toHaveFocus();
    // a press while the page is on its way asks for nothing more
    await userEvent.click(loading);
    expect(server.fetchPage).toHaveBeenCalledTimes(2);

    server.answer(['c'], null);
    await vi.waitFor(() => expect(shown()).toEqual(['a', 'b', 'c']));
    expect(screen.queryByRole('button', { name: /Load more/ })).not.toBeInTheDocument();
    // nothing to say without `added`, so no live region either
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('offers no Load more when the first page is all there is', async () => {
    const server = pages();
    renderThings({ fetchPage: server.fetchPage });
    server.answer(['a'], null);
    await vi.waitFor(() => expect(shown()).toEqual(['a']));
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows its placeholder, read out by its label, while the first page loads', async () => {
    const server = pages();
    renderThings({
      fetchPage: server.fetchPage,
      placeholder: { label: 'Loading things', rows: <p>Grey bars</p> },
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading things');
    expect(screen.getByText('Grey bars').parentElement).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Drawing its own placeholder')).not.toBeInTheDocument();
    server.answer(['a'], null);
    await vi.waitFor(() => expect(shown()).toEqual(['a']));
    expect(screen.queryByText('Grey bars')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows its empty state when there is nothing at all', async () => {
    const server = pages();
    renderThings({ fetchPage: server.fetchPage });
    server.answer([], null);
    expect(await screen.findByText('Nothing yet')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('says the first page failed, and loads it on Retry', async () => {
    const server = pages();
    renderThings({ fetchPage: server.fetchPage });
    server.fail();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load things');
    expect(screen.queryByText('Nothing yet')).not.toBeInTheDocument();

    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Drawing its own placeholder')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(server.fetchPage).toHaveBeenCalledTimes(2);
    server.answer(['a'], null);
    await vi.waitFor(() => expect(shown()).toEqual(['a']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps what it shows when a later page fails, and asks for that page again', async () => {
    const server = pages();
    renderThings({ fetchPage: server.fetchPage });
    server.answer(['a'], 1);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more things' }));
    server.fail();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load things');
    expect(shown()).toEqual(['a']);

    await userEvent.click(screen.getByRole('button', { name: 'Load more things' }));
    expect(server.fetchPage).toHaveBeenLastCalledWith(1);
    server.answer(['b'], null);
    await vi.waitFor(() => expect(shown()).toEqual(['a', 'b']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('with `added`, says what Load more added and moves focus to the first of it', async () => {
    const server = pages();
    renderThings({
      fetchPage: server.fetchPage,
      added: {
        message: (count, allShown) => `${count} added.${allShown ? ' That is all.' : ''}`,
        focusSelector: (name) => `[data-name="${name}"]`,
      },
    });
    server.answer(['a'], 1);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more things' }));
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();
    server.answer(['b', 'c'], 2);
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByText('b')));
    expect(status).toHaveTextContent(/^2 added\.$/);

    await userEvent.click(screen.getByRole('button', { name: 'Load more things' }));
    expect(status).toBeEmptyDOMElement();
    server.answer(['d'], null);
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByText('d')));
    expect(status).toHaveTextContent(/^1 added\. That is all\.$/);
    expect(shown()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('with `added`, says nothing and keeps focus when a later page fails', async () => {
    const server = pages();
    renderThings({
      fetchPage: server.fetchPage,
      added: {
        message: (count) => `${count} added.`,
        focusSelector: (name) => `[data-name="${name}"]`,
      },
    });
    server.answer(['a'], 1);
    const loadMore = await screen.findByRole('button', { name: 'Load more things' });
    await userEvent.click(loadMore);
    server.fail();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(loadMore).toHaveFocus();
  });
});
