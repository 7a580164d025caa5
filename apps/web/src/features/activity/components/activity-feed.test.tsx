import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEvent } from '@portal/contract';
import { renderWithProviders } from '@/test/render';
import { jsonResponse } from '@/test/data';
import { ActivityFeed } from './activity-feed';

afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

const event = (id: string, title: string): ActivityEvent => ({
  _id: id,
  type: 'signin',
  kind: 'profile',
  title,
  description: `${title} details`,
  status: 'success',
  createdAt: '2026-06-01T10:00:00.000Z',
});

describe('ActivityFeed', () => {
  it('loads more with the cursor, and asks again with the type filter', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://x');
      if (url.searchParams.get('cursor') === 'next-1') {
        return jsonResponse(200, {
          success: true,
          data: [event('e2', 'Second')],
          nextCursor: null,
        });
      }
      if (url.searchParams.get('type') === 'consent') {
        return jsonResponse(200, { success: true, data: [], nextCursor: null });
      }
      return jsonResponse(200, {
        success: true,
        data: [event('e1', 'First')],
        nextCursor: 'next-1',
      });
    });
    renderWithProviders(<ActivityFeed />);

    expect(await screen.findByText('First')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Second')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Type'), 'consent');
    expect(await screen.findByText('No recent activity to display.')).toBeInTheDocument();
    expect(fetchSpy.mock.calls.map(([url]) => String(url))).toEqual([
      '/api/activity',
      '/api/activity?cursor=next-1',
      '/api/activity?type=consent',
    ]);
  });
});
