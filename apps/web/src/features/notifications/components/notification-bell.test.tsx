import { useMutation } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '@portal/contract';
import { renderWithProviders } from '@/test/render';
import { jsonResponse } from '@/test/data';
import { NotificationBell } from './notification-bell';

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

const item = (id: string, title: string, createdAt: string, seen: boolean): Notification => ({
  _id: id,
  type: 'payment_completed',
  kind: 'order',
  title,
  description: `${title} details`,
  status: 'success',
  createdAt,
  seen,
});

describe('NotificationBell', () => {
  it('shows a dot for unseen notifications; opening lists them and marks them seen', async () => {
    const notifications = [
      item('n2', 'Payment received', '2026-06-02T10:00:00.000Z', false),
      item('n1', 'Consent approved', '2026-06-01T10:00:00.000Z', true),
    ];
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input).endsWith('/api/notifications/seen')) {
        expect(JSON.parse(String(init?.body))).toEqual({ upTo: '2026-06-02T10:00:00.000Z' });
        return jsonResponse(200, { success: true, unseen: 0 });
      }
      return jsonResponse(200, { success: true, unseen: 1, notifications });
    });
    renderWithProviders(<NotificationBell />);

    const bell = await screen.findByRole('button', { name: 'Notifications, 1 new' });
    expect(screen.getByTestId('notification-dot')).toBeInTheDocument();

    await userEvent.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = within(dialog).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('New: Payment received');
    expect(items[1]).not.toHaveTextContent('New:');

    await waitFor(() => expect(screen.queryByTestId('notification-dot')).not.toBeInTheDocument());
    expect(fetchSpy.mock.calls.filter(([url]) => String(url).endsWith('/seen'))).toHaveLength(1);
  });

  it('shows no dot and sends nothing on opening when all is seen', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () =>
        jsonResponse(200, { success: true, unseen: 0, notifications: [] }),
      );
    renderWithProviders(<NotificationBell />);
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('notification-dot')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No new notifications')).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('asks again after a change made elsewhere in the app, and only then', async () => {
    let unseen = 0;
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse(200, {
        success: true,
        unseen,
        notifications: unseen
          ? [item('n1', 'Consent approved', '2026-06-01T10:00:00.000Z', false)]
          : [],
      }),
    );
    function Elsewhere() {
      const change = useMutation({ mutationFn: async () => 'ok' });
      return (
        <button type="button" onClick={() => change.mutate()}>
          Refresh status
        </button>
      );
    }
    renderWithProviders(
      <>
        <NotificationBell />
        <Elsewhere />
      </>,
    );
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('notification-dot')).not.toBeInTheDocument();

    unseen = 1;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh status' }));
    expect(await screen.findByTestId('notification-dot')).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});
