import { startAuthentication, type AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authMessages, passkeyMessages } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { jsonResponse, testUser } from '@/test/data';
import { renderWithProviders } from '@/test/render';
import { TwoFactorDialog } from './two-factor-dialog';

// jsdom has no WebAuthn: the device's prompt is played by this mock
vi.mock(import('@simplewebauthn/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  startAuthentication: vi.fn(),
}));

const requestOptions = { challenge: 'c2lnbi1pbg', rpId: 'localhost', timeout: 60000 };
const assertion: AuthenticationResponseJSON = {
  id: 'Y3JlZC0x',
  rawId: 'Y3JlZC0x',
  type: 'public-key',
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
    authenticatorData: 'SZYN5YgO',
    signature: 'MEUCIQ',
    userHandle: 'dXNlcg',
  },
  clientExtensionResults: {},
};

const signedIn = () =>
  jsonResponse(200, {
    success: true,
    message: authMessages.loginSuccessful,
    token: 'access-token',
    user: testUser(),
  });

/** Answers the modal's calls by path; the bodies sent, by path. */
function mockServer(routes: Record<string, (body: unknown) => Response>) {
  const sent: Record<string, unknown[]> = {};
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    const path = String(url);
    const handler = routes[path];
    if (!handler) throw new Error(`unexpected call to ${path}`);
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    (sent[path] ??= []).push(body);
    return handler(body);
  });
  return sent;
}

const optionsAnswer = () =>
  jsonResponse(200, {
    success: true,
    message: passkeyMessages.signInOptions,
    data: requestOptions,
  });

/** The modal as the login answer opens it for an account with a passkey. */
function openPasskeyStep() {
  const view = renderWithProviders(
    <TwoFactorDialog open onOpenChange={vi.fn()} secondFactor="passkey" returnFocus={() => null} />,
    { path: '/login' },
  );
  const modal = within(screen.getByRole('dialog', { name: 'Two-Factor Authentication' }));
  return { ...view, modal, u: userEvent.setup() };
}

beforeEach(() => {
  useSessionStore.getState().startVerification('demo@acme.example', 'temp-token', false);
  vi.mocked(startAuthentication).mockResolvedValue(assertion);
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  vi.mocked(startAuthentication).mockReset();
  useSessionStore.getState().clearSession();
});

describe('the sign-in modal for an account with a passkey', () => {
  it('signs in with the passkey and opens the dashboard, with no code by e-mail', async () => {
    const sent = mockServer({
      '/api/auth/passkey/options': optionsAnswer,
      '/api/auth/verify-passkey': signedIn,
    });
    const { modal, u, router } = openPasskeyStep();
    const use = modal.getByRole('button', { name: 'Use your passkey' });
    expect(use).toHaveFocus();
    expect(modal.queryByRole('button', { name: 'Resend Code' })).toBeNull();
    expect(modal.queryByRole('textbox')).toBeNull();

    await u.click(use);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: requestOptions });
    expect(sent).toEqual({
      '/api/auth/passkey/options': [{ tempToken: 'temp-token' }],
      '/api/auth/verify-passkey': [{ tempToken: 'temp-token', credential: assertion }],
    });
    const session = useSessionStore.getState();
    expect(session).toMatchObject({
      isAuthenticated: true,
      token: 'access-token',
      tempToken: null,
    });
    expect(await screen.findByText('Login successful!')).toBeVisible();
  });

  it('shows the server’s refusal inside the modal, and stays signed out', async () => {
    mockServer({
      '/api/auth/passkey/options': optionsAnswer,
      '/api/auth/verify-passkey': () =>
        jsonResponse(400, { success: false, message: passkeyMessages.notVerified }),
    });
    const { modal, u, router } = openPasskeyStep();
    await u.click(modal.getByRole('button', { name: 'Use your passkey' }));
    expect(await modal.findByText(passkeyMessages.notVerified)).toBeVisible();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(router.state.location.pathname).toBe('/login');
    expect(modal.getByRole('button', { name: 'Use your passkey' })).toBeEnabled();
  });

  it('says so when the device’s prompt is closed, and sends nothing to verify', async () => {
    const sent = mockServer({
      '/api/auth/passkey/options': optionsAnswer,
      '/api/auth/verify-passkey': signedIn,
    });
    vi.mocked(startAuthentication).mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    );
    const { modal, u } = openPasskeyStep();
    await u.click(modal.getByRole('button', { name: 'Use your passkey' }));
    expect(
      await modal.findByText(
        'The passkey was not used: the prompt was closed or timed out. Try again, or use a recovery code instead.',
      ),
    ).toBeVisible();
    expect(sent['/api/auth/verify-passkey']).toBeUndefined();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });

  it('takes a recovery code instead, and goes back to the passkey', async () => {
    const sent = mockServer({ '/api/auth/verify-recovery-code': signedIn });
    const { modal, u, router } = openPasskeyStep();
    await u.click(modal.getByRole('button', { name: 'Use a recovery code instead' }));
    const field = modal.getByLabelText('Recovery code');
    expect(field).toHaveFocus();
    expect(modal.queryByRole('button', { name: 'Use your passkey' })).toBeNull();

    await u.click(modal.getByRole('button', { name: 'Use your passkey instead' }));
    expect(modal.getByRole('button', { name: 'Use your passkey' })).toBeVisible();
    expect(modal.queryByLabelText('Recovery code')).toBeNull();

    await u.click(modal.getByRole('button', { name: 'Use a recovery code instead' }));
    await u.type(modal.getByLabelText('Recovery code'), 'abcde-fghjk');
    await u.click(modal.getByRole('button', { name: 'Verify & Login' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sent['/api/auth/verify-recovery-code']).toEqual([
      { tempToken: 'temp-token', recoveryCode: 'abcde-fghjk' },
    ]);
    expect(startAuthentication).not.toHaveBeenCalled();
  });
});
