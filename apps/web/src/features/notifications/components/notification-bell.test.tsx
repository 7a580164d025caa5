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

const item = (over: Partial<Notification> & Pick<Notification, '_id' | 'title'>): Notification => ({
  type: 'payment_completed',
  kind: 'order',
  description: `${over.title} details`,
  status: 'success',
  createdAt: '2026-06-01T10:00:00.000Z',
  seen: false,
  target: null,
  ...over,
});

const ORDER_ID = '4fa65d2e-1111-4222-8333-444455556666';

const sample = [
  item({
    _id: 'n3',
    title: 'Consent approved',
    type: 'consent_approved',
    kind: 'consent',
    createdAt: '2026-06-03T10:00:00.000Z',
    target: { kind: 'consent', id: 'sbk-intent-007' },
  }),
  item({
    _id: 'n2',
    title: 'Payment completed',
    createdAt: '2026-06-02T10:00:00.000Z',
    target: { kind: 'order', id: ORDER_ID },
  }),
  item({
    _id: 'n1',
    title: 'Plan ending soon',
    type: 'plan_ending',
    status: 'pending',
    seen: true,
  }),
];

function serve(unseen: number, notifications: Notification[]) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    if (String(input).endsWith('/api/notifications/seen')) {
      expect(JSON.parse(String(init?.body))).toEqual({ upTo: notifications[0]!.createdAt });
      return jsonResponse(200, { success: true, unseen: 0 });
    }
    return jsonResponse(200, { success: true, unseen, notifications });
  });
}

const seenCalls = (spy: ReturnType<typeof serve>) =>
  spy.mock.calls.filter(([url]) => String(url).endsWith('/seen'));

describe('NotificationBell', () => {
  it('opens a popover anchored to the bell, not a modal, and gives focus back on Escape', async () => {
    serve(2, sample);
    const u = userEvent.setup();
    renderWithProviders(<NotificationBell />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 new' });
    expect(bell).toHaveAttribute('aria-haspopup', 'dialog');
    expect(bell).toHaveAttribute('aria-expanded', 'false');

    await u.click(bell);
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    expect(bell.getAttribute('aria-controls')).toBe(popover.id);
    // anchored by Radix's popper, with nothing dimming the page and nothing else made inert
    expect(popover.closest('[data-radix-popper-content-wrapper]')).not.toBeNull();
    expect(popover).not.toHaveAttribute('aria-modal');
    expect(document.body.style.pointerEvents).toBe('');
    expect(bell.closest('[aria-hidden="true"]')).toBeNull();

    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bell).toHaveFocus();
  });

  it('links each item to its order or its consent, marks the unread ones, and closes on a follow', async () => {
    serve(2, sample);
    const u = userEvent.setup();
    const { router } = renderWithProviders(<NotificationBell />);
    await u.click(await screen.findByRole('button', { name: 'Notifications, 2 new' }));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = within(popover).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('New: Consent approved');
    expect(items[2]).not.toHaveTextContent('New:');

    const consent = within(items[0]!).getByRole('link', { name: /Open Consent sbk-intent-007/ });
    expect(consent).toHaveAttribute('href', '/consents?search=sbk-intent-007');
    const order = within(items[1]!).getByRole('link', { name: /Open Order #4FA65D/ });
    expect(order).toHaveAttribute('href', `/orders?tab=history&order=${ORDER_ID}`);
    // a reminder has nothing to open
    expect(within(items[2]!).queryByRole('link')).not.toBeInTheDocument();

    await u.click(consent);
    expect(router.state.location.pathname).toBe('/consents');
    expect(router.state.location.search).toBe('?search=sbk-intent-007');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps items new on opening, and "Mark all read" marks them up to the newest shown', async () => {
    const fetchSpy = serve(2, sample);
    const u = userEvent.setup();
    renderWithProviders(<NotificationBell />);
    await u.click(await screen.findByRole('button', { name: 'Notifications, 2 new' }));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(seenCalls(fetchSpy)).toHaveLength(0);
    expect(within(popover).getAllByTestId('unread-dot')).toHaveLength(2);

    await u.click(within(popover).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.queryByTestId('notification-dot')).not.toBeInTheDocument());
    expect(seenCalls(fetchSpy)).toHaveLength(1);
    expect(within(popover).queryAllByTestId('unread-dot')).toHaveLength(0);
    expect(within(popover).queryByText(/New:/)).not.toBeInTheDocument();
    expect(
      within(popover).queryByRole('button', { name: 'Mark all read' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('shows news written after the list was read, still new, when marking leaves some unseen', async () => {
    const news = item({
      _id: 'n4',
      title: 'Consent expiring',
      type: 'consent_expiring',
      kind: 'consent',
      status: 'pending',
      createdAt: '2026-06-04T10:00:00.000Z',
    });
    let marked = false;
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input).endsWith('/api/notifications/seen')) {
        expect(JSON.parse(String(init?.body))).toEqual({ upTo: sample[0]!.createdAt });
        marked = true;
        return jsonResponse(200, { success: true, unseen: 1 });
      }
      return marked
        ? jsonResponse(200, {
            success: true,
            unseen: 1,
            notifications: [news, ...sample.map((n) => ({ ...n, seen: true }))],
          })
        : jsonResponse(200, { success: true, unseen: 2, notifications: sample });
    });
    const u = userEvent.setup();
    renderWithProviders(<NotificationBell />);
    await u.click(await screen.findByRole('button', { name: 'Notifications, 2 new' }));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });

    await u.click(within(popover).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(within(popover).getAllByRole('listitem')).toHaveLength(4));
    const items = within(popover).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('New: Consent expiring');
    for (const shown of items.slice(1)) expect(shown).not.toHaveTextContent('New:');
    expect(screen.getByRole('button', { name: 'Notifications, 1 new' })).toBeInTheDocument();
    expect(seenCalls(fetchSpy)).toHaveLength(1);
  });

  it('shows no dot and no "Mark all read" when all is seen', async () => {
    const fetchSpy = serve(0, []);
    const u = userEvent.setup();
    renderWithProviders(<NotificationBell />);
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('notification-dot')).not.toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Notifications' }));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(popover).getByText('No new notifications')).toBeInTheDocument();
    expect(
      within(popover).queryByRole('button', { name: 'Mark all read' }),
    ).not.toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('asks again after a change made elsewhere in the app, and only then', async () => {
    let unseen = 0;
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse(200, {
        success: true,
        unseen,
        notifications: unseen ? [sample[0]] : [],
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
