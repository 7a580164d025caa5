import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { twoFactorMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { AppInvitationCard } from './app-invitation-card';

interface Server {
  secondFactor: 'email' | 'app' | 'passkey';
  invitationDismissed: boolean;
  dismissFails?: boolean;
}

/** The two calls the card makes, answered from `server`; the calls made, in order. */
function serve(server: Server) {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push(key);
    if (key === 'GET /api/security/two-factor') {
      return jsonResponse(200, {
        success: true,
        message: twoFactorMessages.status,
        data: {
          secondFactor: server.secondFactor,
          enabledAt: server.secondFactor === 'app' ? '2026-11-20T04:44:00.000Z' : null,
          recoveryCodesLeft: server.secondFactor === 'app' ? 10 : 0,
          invitationDismissed: server.invitationDismissed,
        },
      });
    }
    if (key === 'POST /api/security/two-factor/invitation/dismiss') {
      if (server.dismissFails) {
        return jsonResponse(503, { success: false, message: 'Please try again in a moment.' });
      }
      server.invitationDismissed = true;
      return jsonResponse(200, { success: true, message: twoFactorMessages.invitationDismissed });
    }
    throw new Error(`unexpected call ${key}`);
  });
  return calls;
}

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

const TITLE = 'Add an authenticator app or a passkey';
const heading = () => screen.queryByRole('heading', { name: TITLE });

describe('AppInvitationCard', () => {
  it('invites a customer whose codes come by e-mail to add the app or a passkey on the Security page', async () => {
    serve({ secondFactor: 'email', invitationDismissed: false });
    renderWithProviders(<AppInvitationCard />);
    expect(await screen.findByRole('heading', { name: TITLE })).toBeVisible();
    const card = screen.getByRole('region', { name: TITLE });
    expect(card).toHaveTextContent('Your sign-in codes come by e-mail.');
    expect(card).toHaveTextContent('An authenticator app on your phone, or a passkey');
    expect(screen.getByRole('link', { name: 'Set up on the Security page' })).toHaveAttribute(
      'href',
      '/security',
    );
  });

  it('is not shown once the app or a passkey is on, nor once it was turned down', async () => {
    for (const server of [
      { secondFactor: 'app', invitationDismissed: false },
      { secondFactor: 'passkey', invitationDismissed: false },
      { secondFactor: 'email', invitationDismissed: true },
    ] as const) {
      const calls = serve({ ...server });
      const { unmount } = renderWithProviders(<AppInvitationCard />);
      await waitFor(() => expect(calls).toEqual(['GET /api/security/two-factor']));
      // the status has answered and drawn nothing
      await waitFor(() => expect(vi.mocked(globalThis.fetch)).toHaveBeenCalledTimes(1));
      expect(heading()).toBeNull();
      unmount();
      vi.mocked(globalThis.fetch).mockRestore();
    }
  });

  it('is turned down for good by "No, thanks", and stays when saving that fails', async () => {
    const server: Server = {
      secondFactor: 'email',
      invitationDismissed: false,
      dismissFails: true,
    };
    const calls = serve(server);
    renderWithProviders(<AppInvitationCard />);
    const noThanks = await screen.findByRole('button', { name: 'No, thanks' });
    await userEvent.click(noThanks);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please try again in a moment.');
    expect(heading()).not.toBeNull();

    server.dismissFails = false;
    await userEvent.click(screen.getByRole('button', { name: 'No, thanks' }));
    await waitFor(() => expect(heading()).toBeNull());
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([
      'POST /api/security/two-factor/invitation/dismiss',
      'POST /api/security/two-factor/invitation/dismiss',
    ]);
  });
});
