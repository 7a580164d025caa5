import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { renewalAnswer, testRenewal } from '@/test/auto-renewal';
import { serve } from '@/test/serve';
import { ProfileView } from './profile-view';

const profileAnswer = (user = testUser()) =>
  jsonResponse(200, { success: true, message: 'Profile fetched', data: { user } });

afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

const valueOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('ProfileView', () => {
  it('shows a skeleton, then every field of the profile', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(profileAnswer());
    renderWithProviders(<ProfileView />, { path: '/profile' });
    expect(screen.getByRole('heading', { level: 1, name: 'Profile Settings' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(
      await screen.findByRole('heading', { name: 'Acme Traders Pvt Ltd' }),
    ).toBeInTheDocument();
    expect(screen.getByText('demo@acme.example')).toBeInTheDocument();
    expect(screen.getByText('Customer')).toBeInTheDocument();
    expect(screen.getByText('Since 2025')).toBeInTheDocument();
    expect(valueOf('Mobile Number')).toHaveTextContent('9876543210');
    expect(valueOf('GST Number')).toHaveTextContent('27AAPFU0939F1ZV');
    expect(valueOf('Category')).toHaveTextContent('Retail');
    expect(valueOf('Tally Serial No')).toHaveTextContent('712345678');
    expect(valueOf('Tally Version')).toHaveTextContent('TallyPrime 5.1');
    expect(valueOf('User ID')).toHaveTextContent('c1');
    expect(valueOf('Account Created')).toHaveTextContent('15/03/2025');
    expect(screen.getByText('No active plan found.')).toBeInTheDocument();
    expect(screen.getByText('Contact support to subscribe to a plan.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it("shows 'Not specified' for empty values and 'Not Specified' for a missing category", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      profileAnswer(testUser({ category: null, tally_version: null, mobile: '' })),
    );
    renderWithProviders(<ProfileView />, { path: '/profile' });
    await screen.findByRole('heading', { name: 'Acme Traders Pvt Ltd' });
    expect(valueOf('Category')).toHaveTextContent(/^Not Specified$/);
    expect(valueOf('Tally Version')).toHaveTextContent(/^Not specified$/);
    expect(valueOf('Mobile Number')).toHaveTextContent(/^Not specified$/);
  });

  it('shows the current plan with zero-padded en-IN dates', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      profileAnswer(
        testUser({
          plan: {
            planName: 'Annual Multi',
            formattedAmount: '₹12,000.00',
            formattedDuration: '365 days',
            startDate: '2026-04-01T00:00:00.000Z',
            endDate: '2027-03-31T00:00:00.000Z',
            status: 'Active',
          },
        }),
      ),
    );
    renderWithProviders(<ProfileView />, { path: '/profile' });
    await screen.findByRole('heading', { name: 'Acme Traders Pvt Ltd' });
    expect(valueOf('Plan Name')).toHaveTextContent('Annual Multi');
    expect(valueOf('Amount')).toHaveTextContent('₹12,000.00');
    expect(valueOf('Duration')).toHaveTextContent('365 days');
    expect(valueOf('Start Date')).toHaveTextContent('01/04/2026');
    expect(valueOf('End Date')).toHaveTextContent('31/03/2027');
    expect(valueOf('Status')).toHaveTextContent('Active');
    expect(screen.queryByText('No active plan found.')).not.toBeInTheDocument();
  });

  it("asks once more when the answer says 'Not authorized'", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(jsonResponse(200, { success: false, message: 'Not authorized' }))
      .mockResolvedValueOnce(profileAnswer());
    renderWithProviders(<ProfileView />, { path: '/profile' });
    expect(
      await screen.findByRole('heading', { name: 'Acme Traders Pvt Ltd' }),
    ).toBeInTheDocument();
    // the profile read twice; the Billing Details card reads its own
    expect(fetchSpy.mock.calls.filter(([url]) => String(url) === '/api/auth/profile')).toHaveLength(
      2,
    );
  });

  it("says 'User data not found in response.' when the answer has no user", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(200, { success: true, message: 'ok', data: {} }),
    );
    renderWithProviders(<ProfileView />, { path: '/profile' });
    expect(await screen.findByRole('alert')).toHaveTextContent('User data not found in response.');
  });

  it("says 'Failed to load profile data' when the call fails", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('', { status: 500 }));
    renderWithProviders(<ProfileView />, { path: '/profile' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load profile data');
  });

  it('shows the auto-renewal after the billing details: the mandate when it is on', async () => {
    serve({
      'GET /api/auth/profile': () => profileAnswer(),
      'GET /api/auto-renewal': () => renewalAnswer(testRenewal({ method: 'card' })),
    });
    renderWithProviders(<ProfileView />, { path: '/profile' });
    const card = await screen.findByRole('region', { name: 'Auto-renewal' });
    const billing = screen.getByRole('heading', { name: 'Billing Details' });
    expect(billing.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(await within(card).findByText('Card')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Turn off auto-renewal' })).toBeEnabled();
  });

  it('opens the change-password dialog from the icon and from the button', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(profileAnswer());
    renderWithProviders(<ProfileView />, { path: '/profile' });
    await screen.findByRole('heading', { name: 'Acme Traders Pvt Ltd' });
    await userEvent.click(screen.getByRole('button', { name: 'Password settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Change Password' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
  });

  it("logs out through the server with 'Logged out successfully!'", async () => {
    useSessionStore.getState().completeVerification('access-1', testUser());
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (url) =>
        String(url) === '/api/auth/logout'
          ? jsonResponse(200, { success: true, message: 'Logged out' })
          : profileAnswer(),
      );
    const { router } = renderWithProviders(<ProfileView />, { path: '/profile' });
    await screen.findByRole('heading', { name: 'Acme Traders Pvt Ltd' });
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logged out successfully!')).toBeInTheDocument();
    expect(fetchSpy.mock.calls.some(([url]) => String(url) === '/api/auth/logout')).toBe(true);
    expect(useSessionStore.getState()).toMatchObject({ token: null, isAuthenticated: false });
    expect(router.state.location.pathname).toBe('/login');
  });
});
