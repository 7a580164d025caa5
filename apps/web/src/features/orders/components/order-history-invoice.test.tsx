import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { OrderHistory } from './order-history';

const order = (overrides: Partial<Order>): Order => ({
  _id: '4fa65d00-0000-4000-8000-000000000000',
  planId: { _id: 'p1', planName: 'Professional' },
  amount: 6148.77,
  formattedAmount: '₹6,148.77',
  orderDate: '2026-06-03T10:00:00.000Z',
  paymentStatus: 'Completed',
  receiptUrl: '/api/orders/4fa65d00/receipt?sig=x',
  invoiceNumber: 'INV/26-27/000007',
  servicePeriod: null,
  ...overrides,
});

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

describe('OrderHistory, the invoice number', () => {
  it('links a paid order’s invoice number to the Invoices screen, and shows none for an unpaid one', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse(200, {
        success: true,
        orders: [
          order({}),
          order({
            _id: '5fa65d00-0000-4000-8000-000000000000',
            paymentStatus: 'Pending',
            receiptUrl: null,
            invoiceNumber: null,
          }),
        ],
        nextCursor: null,
      }),
    );
    renderWithProviders(<OrderHistory />);
    const link = await screen.findByRole('link', { name: 'Invoice INV/26-27/000007' });
    expect(link).toHaveAttribute('href', '/invoices');
    expect(screen.getAllByRole('link', { name: /^Invoice / })).toHaveLength(1);
  });
});
