import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRIVACY_NOTICE, PRIVACY_NOTICE_VERSION, privacyMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { NoticeSection } from './notice-section';
import { PrivacyNoticeCard } from './privacy-notice-card';

/** The notice calls, with whether it was read; the calls made. */
function serve(state: { readAt: string | null }) {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push(key);
    if (key === 'POST /api/privacy/notice') state.readAt = '2026-12-02T04:30:00.000Z';
    if (key.endsWith(' /api/privacy/notice')) {
      return jsonResponse(200, {
        success: true,
        message: privacyMessages.noticeRead,
        data: { version: PRIVACY_NOTICE_VERSION, readAt: state.readAt },
      });
    }
    if (key === 'POST /api/privacy/optional-processing/withdraw') {
      return jsonResponse(200, {
        success: true,
        message: privacyMessages.optionalWithdrawn,
        data: { reminders: false, consentChanges: false },
      });
    }
    throw new Error(`unexpected call ${key}`);
  });
  return calls;
}

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.getState().clearSession();
});

describe('the privacy notice on the dashboard', () => {
  it('shows until it is read, with the whole notice a click away', async () => {
    const calls = serve({ readAt: null });
    const u = userEvent.setup();
    renderWithProviders(<PrivacyNoticeCard />);
    const card = await screen.findByRole('region', { name: 'How we use your data' });
    await u.click(within(card).getByText('Read the full notice'));
    for (const { heading } of PRIVACY_NOTICE) {
      expect(within(card).getByRole('heading', { name: heading })).toBeVisible();
    }
    expect(within(card).getByRole('link', { name: 'Privacy choices' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    await u.click(within(card).getByRole('button', { name: 'I have read it' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'How we use your data' })).toBeNull(),
    );
    expect(calls).toContain('POST /api/privacy/notice');
  });

  it('shows nothing once the notice is read', async () => {
    const calls = serve({ readAt: '2026-12-01T04:30:00.000Z' });
    renderWithProviders(<PrivacyNoticeCard />);
    await waitFor(() => expect(calls).toEqual(['GET /api/privacy/notice']));
    expect(screen.queryByRole('region', { name: 'How we use your data' })).toBeNull();
  });
});

describe('the Privacy page’s notice', () => {
  it('shows the notice, when it was read, and withdraws optional consent in one step', async () => {
    const calls = serve({ readAt: null });
    const u = userEvent.setup();
    renderWithProviders(<NoticeSection />);
    const section = await screen.findByRole('region', { name: 'Privacy notice' });
    expect(within(section).getAllByRole('heading', { level: 3 })).toHaveLength(
      PRIVACY_NOTICE.length,
    );
    await u.click(await within(section).findByRole('button', { name: 'I have read it' }));
    expect(await within(section).findByText('You read this notice on 02/12/2026.')).toBeVisible();

    await u.click(within(section).getByRole('button', { name: 'Withdraw optional consent' }));
    expect(await screen.findByText(privacyMessages.optionalWithdrawn)).toBeInTheDocument();
    expect(calls.filter((call) => call.includes('withdraw'))).toEqual([
      'POST /api/privacy/optional-processing/withdraw',
    ]);
  });
});
