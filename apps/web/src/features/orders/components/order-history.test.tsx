import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { getOrderHistoryQueryOptions } from '../api/get-order-history';
import { OrderHistory } from './order-history';
import { OrdersScreen } from './orders-screen';

/** The n-th order of a long history; its reference is n in six digits (#000025). */
const order = (n: number, overrides: Partial<Order> = {}): Order => ({
  _id: `${String(n).padStart(6, '0')}00-0000-4000-8000-000000000000`,
  planId: { _id: 'p1', planName: 'Professional' },
  amount: 6148.77,
  formattedAmount: '₹6,148.77',
  orderDate: '2026-06-03T10:00:00.000Z',
  paymentStatus: 'Pending',
  receiptUrl: null,
  invoiceNumber: null,
  servicePeriod: null,
  ...overrides,
});
const ref = (n: number) => `#${String(n).padStart(6, '0')}`;
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => order(from + i));

type Answer = () => Response | Promise<Response>;

/** Answers each `METHOD url` from `routes`; any other call fails the test. */
function serve(routes: Record<string, Answer>) {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push(key);
    const route = routes[key];
    if (!route) throw new Error(`unexpected call ${key}`);
    return route();
  });
  return calls;
}

const page = (orders: Order[], nextCursor: string | null) => () =>
  jsonResponse(200, { success: true, orders, nextCursor });

function deferred() {
  let resolve!: (response: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

// role queries over a few dozen rows are slow in jsdom; the markup is the table's own
const rows = () => [...document.querySelectorAll('tbody tr')];
const shownRefs = () =>
  [...document.querySelectorAll('[data-order-id]')].map((el) => el.textContent);

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

describe('OrderHistory, Load more', () => {
  it('adds the next page on demand, says how many it added, and goes on from the first of them', async () => {
    const second = deferred();
    const calls = serve({
      'GET /api/orders/history': page(range(1, 5), 'after-5'),
      'GET /api/orders/history?cursor=after-5': () => second.promise,
      'GET /api/orders/history?cursor=after-10': page(range(11, 13), null),
    });
    renderWithProviders(<OrderHistory />);
    expect(await screen.findByText(ref(5))).toBeInTheDocument();
    expect(rows()).toHaveLength(5);
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();

    const loadMore = screen.getByRole('button', { name: 'Load more orders' });
    await userEvent.click(loadMore);
    const loading = screen.getByRole('button', { name: 'Loading more orders...' });
    expect(loading).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    // a second press while the page is on its way asks for nothing more
    await userEvent.click(loading);
    expect(calls.filter((c) => c.includes('after-5'))).toHaveLength(1);

    second.resolve(
      jsonResponse(200, { success: true, orders: range(6, 10), nextCursor: 'after-10' }),
    );
    expect(await screen.findByText(ref(10))).toBeInTheDocument();
    expect(rows()).toHaveLength(10);
    expect(status).toHaveTextContent('5 more orders loaded.');
    await vi.waitFor(() => expect(document.activeElement).toHaveTextContent(ref(6)));
    expect(rows()[5]).toContainElement(document.activeElement as HTMLElement);

    await userEvent.click(screen.getByRole('button', { name: 'Load more orders' }));
    expect(await screen.findByText(ref(13))).toBeInTheDocument();
    expect(shownRefs()).toEqual(range(1, 13).map((_, i) => ref(i + 1)));
    expect(status).toHaveTextContent('3 more orders loaded. All orders are shown.');
    expect(screen.queryByRole('button', { name: /Load more/ })).not.toBeInTheDocument();
    await vi.waitFor(() => expect(document.activeElement).toHaveTextContent(ref(11)));
    expect(calls).toEqual([
      'GET /api/orders/history',
      'GET /api/orders/history?cursor=after-5',
      'GET /api/orders/history?cursor=after-10',
    ]);
  }, 20_000);

  it('offers no Load more when the first page is all there is', async () => {
    serve({ 'GET /api/orders/history': page(range(1, 3), null) });
    renderWithProviders(<OrderHistory />);
    expect(await screen.findByText(ref(3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Load more/ })).not.toBeInTheDocument();
  });

  it('keeps the orders it has when the next page fails, and loads it when asked again', async () => {
    let fail = true;
    serve({
      'GET /api/orders/history': page(range(1, 5), 'after-5'),
      'GET /api/orders/history?cursor=after-5': () =>
        fail ? jsonResponse(500, {}) : page(range(6, 7), null)(),
    });
    renderWithProviders(<OrderHistory />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more orders' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load order history');
    expect(rows()).toHaveLength(5);
    const again = screen.getByRole('button', { name: 'Load more orders' });
    expect(again).not.toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();

    fail = false;
    await userEvent.click(again);
    expect(await screen.findByText(ref(7))).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      '2 more orders loaded. All orders are shown.',
    );
  }, 20_000);

  it('keeps the spec texts for an empty history and a failed first page', async () => {
    serve({ 'GET /api/orders/history': page([], null) });
    const { unmount } = renderWithProviders(<OrderHistory />);
    expect(await screen.findByText('No Orders Yet')).toBeInTheDocument();
    expect(screen.getByText('Start by creating your first order!')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Load more/ })).not.toBeInTheDocument();
    unmount();
    vi.mocked(globalThis.fetch).mockRestore();

    serve({ 'GET /api/orders/history': () => jsonResponse(500, {}) });
    renderWithProviders(<OrderHistory />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load order history');
  });
});

describe('OrderHistory after a payment', () => {
  const paid = order(7, {
    paymentStatus: 'Completed',
    receiptUrl: '/api/orders/x/receipt?expires=1&sub=u&sig=s',
    invoiceNumber: 'INV/2026-27/000007',
  });

  it('marks the order paid for once its page is loaded, and reads every loaded page again when it settles', async () => {
    let settled = false;
    const check = deferred();
    const calls = serve({
      'GET /api/plans': () =>
        jsonResponse(200, { success: true, data: { plans: [], current: null, purchases: [] } }),
      'GET /api/orders/history': page(range(1, 5), 'after-5'),
      'GET /api/orders/history?cursor=after-5': () =>
        page(
          range(6, 8).map((o) => (o._id === paid._id && settled ? paid : o)),
          null,
        )(),
      [`POST /api/orders/${paid._id}/check-status`]: () => check.promise,
    });
    renderWithProviders(<OrdersScreen />, { path: `/orders?tab=history&order=${paid._id}` });
    expect(await screen.findByText(ref(5))).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Checking your payment' })).toBeInTheDocument();
    // not on the first page: the result above the tabs speaks for it, no row is marked
    expect(screen.queryByText('This payment')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more orders' }));
    const row = (await screen.findByText('This payment')).closest('tr')!;
    expect(row).toHaveTextContent(ref(7));
    expect(row).toHaveTextContent('Pending');

    settled = true;
    check.resolve(
      jsonResponse(200, { success: true, message: 'Payment status: Completed', order: paid }),
    );
    expect(await screen.findByRole('heading', { name: 'Payment successful' })).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(screen.getByText('This payment').closest('tr')).toHaveTextContent(
        'Invoice INV/2026-27/000007',
      ),
    );
    expect(rows()).toHaveLength(8);
    const reads = calls.filter((c) => c.startsWith('GET /api/orders/history'));
    expect(reads).toEqual([
      'GET /api/orders/history',
      'GET /api/orders/history?cursor=after-5',
      'GET /api/orders/history',
      'GET /api/orders/history?cursor=after-5',
    ]);
  }, 20_000);
});

describe('getOrderHistoryQueryOptions', () => {
  it('is the first page: the newest orders, asked for without a cursor', async () => {
    const calls = serve({ 'GET /api/orders/history': page(range(1, 20), 'after-20') });
    const orders = await new QueryClient().fetchQuery(getOrderHistoryQueryOptions());
    expect(orders.map((o) => o._id)).toEqual(range(1, 20).map((o) => o._id));
    expect(calls).toEqual(['GET /api/orders/history']);
  });
});
